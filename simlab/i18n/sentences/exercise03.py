"""The sentences of exercise 03's code (see :mod:`simlab.i18n.sentences`): the hints its stubs
raise, the messages of its public checks' asserts and the lines it prints (the solution's stale
commits included)."""

from __future__ import annotations

__all__ = ["EN", "ZH"]

EN = {
    "newest_hint": "a dict task -> (highest epoch granted, when); claim ok and cancel ok raise it",
    "stale": "{process} (epoch {epoch}) committed step {step} of {task} at t={t}, but epoch "
    "{granted} was granted at t={at}",
    "one_stale": "expected one stale commit of t1, got {found}",
    "count": "{n} stale commits without the fence",
    "unfenced": "the unfenced run has stale commits",
    "fenced": "the fenced run has none",
    "recovery_hint": "for each crash, look for the next claim ok of the same task later in the "
    "history",
    "measure_hint": "simulate(PAUSES.with_(ttl=ttl), seed=seed) for each seed; average two numbers",
    "choose_hint": "min over sorted ttls of duplicate_work * step_cost + waiting * wait_cost",
    "row": "ttl {ttl}: {duplicate} refused saves, {waiting} time units of waiting per run",
    "choice": "with a step worth 10 time units of waiting, choose ttl = {ttl}",
    "plot_later": "The plot appears once measure() works.",
    # the picture of the costs against the ttl
    "duplicate_axis": "duplicate work x 10",
    "waiting_axis": "waiting after crashes",
    "cost_axis": "cost per run",
}

ZH = {
    "newest_hint": "一个 dict：任务 -> （授予过的最高 epoch，授予时间）；claim ok 和 cancel ok "
    "会提高它",
    "stale": "{process}（epoch {epoch}）在 t={t} 提交了 {task} 的 step {step}，但 epoch "
    "{granted} 已经在 t={at} 授予",
    "one_stale": "应该恰好找到 t1 的一次陈旧提交，实际得到 {found}",
    "count": "没有栅栏时有 {n} 次陈旧提交",
    "unfenced": "没有栅栏的运行里有陈旧提交",
    "fenced": "有栅栏的运行里一次也没有",
    "recovery_hint": "对每次崩溃，在历史中往后找同一任务的下一次 claim ok",
    "measure_hint": "对每个种子运行 `simulate(PAUSES.with_(ttl=ttl), seed=seed)`；对两个数取平均",
    "choose_hint": "在排好序的 ttl 中取 duplicate_work * step_cost + waiting * wait_cost 的最小值",
    "row": "ttl {ttl}：每次运行 {duplicate} 次保存被拒绝，等待 {waiting} 个时间单位",
    "choice": "如果一步的工作值 10 个时间单位的等待，选择 ttl = {ttl}",
    "plot_later": "measure() 能用之后，这里会出现图。",
    "duplicate_axis": "重复的工作 x 10",
    "waiting_axis": "崩溃之后的等待",
    "cost_axis": "每次运行的代价",
}
