"""The sentences of notebook 06's code (see :mod:`simlab.i18n.sentences`)."""

from __future__ import annotations

__all__ = ["EN", "ZH"]

EN = {
    "utilisation": "c={c}, lambda={lam}, mu={mu}: utilisation {rho}",
    "erlang": "Erlang C: P(wait) = {p}, mean wait Wq = {wq}, mean time in system W = {w}",
    "simulated": "simulated, 3600 tasks after warm-up: P(wait) = {p} (Erlang C {ep}), mean wait "
    "= {wq} (Erlang C {ewq})",
    "little_why": "Little's law: L = lambda * W = {lam} * {w} = {l} in theory; the run's own "
    "lambda and W give {run}.",
    "window": "t = {start} to {end}: L = {l} tasks in the system on average (from the events)",
    "from_tasks": "lambda * W = {lam} * {w} = {lw} (from the tasks), off by {off}",
    "theory": "theory: lambda * W = {lw}",
    "lost_why": "L = {l} against lambda * W = {lw}: a task whose completion is missing never "
    "leaves the system in the event walk, so the two independent measures disagree, and the "
    "check catches the loss.",
    "lost": "{n} completions lost: L = {l}, lambda * W = {lw} ({gap})",
    "spread_why": "Not 16: the spread of a mean shrinks like 1/sqrt(n), so 16 times the tasks give "
    "sqrt(16) = 4 times less spread. Halving the error costs four times the tasks.",
    "header": "tasks per run | std of the mean wait over 8 seeds | tasks needed for +-5% at 95%",
    "walk_hint": "walk the events like in_system_average; a claim ok leaves",
    "lq": "Lq = {lq} but lambda * Wq = {little} over the same window",
    "same_area": "both sides are the same area summed two ways: a missing row is missing from both",
    "saturation": "waits near saturation vary far more",
    # the picture of the replications
    "one_replication": "one replication",
    "mean_replications": "mean of the replications",
    "erlang_line": "Erlang C: Wq = {wq_n}",
    "band": "+-5% of Wq",
    "wait_axis": "mean wait before a worker claims",
    "replications_title": "Mean wait per replication ({seeds_n} seeds per size)",
}

ZH = {
    "utilisation": "c={c}，lambda={lam}，mu={mu}：利用率 {rho}",
    "erlang": "Erlang C：P(wait) = {p}，平均等待 Wq = {wq}，平均逗留时间 W = {w}",
    "simulated": "模拟，预热之后 3600 个任务：P(wait) = {p}（Erlang C {ep}），平均等待 = {wq}"
    "（Erlang C {ewq}）",
    "little_why": "Little 定律：理论上 L = lambda * W = {lam} * {w} = {l}；用这次运行自己的 "
    "lambda 和 W 得到 {run}。",
    "window": "t = {start} 到 {end}：系统中平均有 L = {l} 个任务（由事件算出）",
    "from_tasks": "lambda * W = {lam} * {w} = {lw}（由任务算出），相差 {off}",
    "theory": "理论值：lambda * W = {lw}",
    "lost_why": "L = {l}，而 lambda * W = {lw}：完成记录缺失的任务在事件遍历中永远不会离开系统，"
    "所以两个独立的度量对不上，检查就发现了丢失。",
    "lost": "丢失了 {n} 个完成记录：L = {l}，lambda * W = {lw}（{gap}）",
    "spread_why": "不是 16：均值的离散程度按 1/sqrt(n) 缩小，所以任务多 16 倍，离散程度只小 "
    "sqrt(16) = 4 倍。误差减半要花四倍的任务。",
    "header": "每次运行的任务数 | 8 个种子上平均等待的标准差 | 95% 置信度下 +-5% 所需的任务数",
    "walk_hint": "像 in_system_average 那样遍历事件；一次成功的 claim 表示离开等待",
    "lq": "Lq = {lq}，但在同一个窗口上 lambda * Wq = {little}",
    "same_area": "两边是同一块面积的两种求和方式：缺了一行，两边都缺",
    "saturation": "接近饱和时，等待的波动大得多",
    "one_replication": "一次重复实验",
    "mean_replications": "各次重复实验的均值",
    "erlang_line": "Erlang C：Wq = {wq_n}",
    "band": "Wq 的 +-5%",
    "wait_axis": "worker 领取之前的平均等待",
    "replications_title": "每次重复实验的平均等待（每个规模 {seeds_n} 个种子）",
}
