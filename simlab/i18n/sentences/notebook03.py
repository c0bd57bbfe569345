"""The sentences of notebook 03's code (see :mod:`simlab.i18n.sentences`)."""

from __future__ import annotations

__all__ = ["EN", "ZH"]

EN = {
    "which_why": "The same faults strike both runs, but only the fenced ledger compares the "
    "epoch when a stale worker saves.",
    "pauses": "pauses in the fenced run: {n}, lasting {low} to {high} ttl",
    "first_stale": "first stale commit: {worker} saved step {step} of {task} with epoch {epoch} "
    "at t={t}",
    "history_of": "the history of {task} (unfenced run):",
    "epoch_why": "The worker holding epoch 2 had paused too, and its lease ran out while it "
    "slept: the first worker, awake again, claimed the task with epoch 3, so epoch 2's save "
    "was refused as stale as well, and epoch 3 finished the task.",
    "fenced_title": "fenced: the stale save of {task} is refused",
    "unfenced_title": "unfenced: the stale save of {task} is accepted",
    "run_saves": "{name} run, {task}: the refused saves and the save that completed it",
    "refused_save": "  t={t} {worker} saves with epoch {epoch}: refused, {reason}",
    "was_at": "{reason}, the task was at epoch {epoch}",
    "accepted_save": "  t={t} {worker} saves with epoch {epoch}: accepted, completed",
    "seeds_why": "At the default size every run has some pauses longer than the lease, and "
    "without the fence each stale worker that wakes while the task still runs commits.",
    "per_run": "violations per run, seeds 1-5:",
    "runs_with": "{row}  runs with a violation: {n}",
    "ttl_why": "Pauses drawn in ttl units grow with the lease, so some still outlast it: fewer "
    "stale saves get through than with a lease of 3 (see the table below), but not none.",
    "hidden_why": "A lease of 20 outlasts almost every pause of mean 6, so stale workers "
    "become rare and these three runs show no violation; the bug is hidden, not fixed.",
    "table": "seeds 1-3, pauses only: stale saves refused by the fence / violations without it",
    "ttl_units": "  pauses in ttl units,   ttl {ttl}: {counts}",
    "mean_6": "  pauses of mean 6 units, ttl {ttl}: {counts}",
    "newest_hint": "remember the newest epoch of each task, as first_stale_commit does",
    "not_first": "not the checker's first finding",
    "no_reuse": "the fenced run reuses no epoch",
    "outside": "a run with pause_time=3 pauses outside it",
    "rule": "apply section 1's rule with pause_time=3",
    "still_refused": "the fence still refused stale saves at ttl 20",
    "range_hint": "set pause_range in the cell above",
    "lease_hint": "set longer_lease_fixes_it in the cell above",
}

ZH = {
    "which_why": "两次运行遇到同样的故障，但只有带栅栏的账本会在陈旧的 worker 保存时比较 epoch。",
    "pauses": "带栅栏运行中的暂停：{n} 次，持续 {low} 到 {high} 个 ttl",
    "first_stale": "第一次陈旧提交：{worker} 在 t={t} 带着 epoch {epoch} 保存了 {task} 的 "
    "step {step}",
    "history_of": "{task} 的历史（不带栅栏的运行）：",
    "epoch_why": "持有 epoch 2 的 worker 也暂停了，它睡着时租约到期：第一个 worker 醒来后以 epoch"
    " 3 "
    "认领了任务，所以 epoch 2 的保存也因陈旧被拒绝，由 epoch 3 完成了任务。",
    "fenced_title": "fenced：{task} 的陈旧保存被拒绝",
    "unfenced_title": "unfenced：{task} 的陈旧保存被接受",
    "run_saves": "{name} 运行，{task}：被拒绝的保存和完成它的那次保存",
    "refused_save": "  t={t} {worker} 带着 epoch {epoch} 保存：被拒绝，{reason}",
    "was_at": "{reason}，任务当时在 epoch {epoch}",
    "accepted_save": "  t={t} {worker} 带着 epoch {epoch} 保存：被接受，已完成",
    "seeds_why": "在默认规模下，每次运行都有一些比租约更长的暂停；没有栅栏时，每个在任务仍在运行"
    "时醒来的陈旧 worker 都会提交。",
    "per_run": "每次运行的违规数，种子 1-5：",
    "runs_with": "{row}  有违规的运行：{n}",
    "ttl_why": "以 ttl 为单位抽取的暂停随租约一起变长，所以仍有一些比租约更长：通过的陈旧保存比"
    "租约为 3 时少（见下表），但不是没有。",
    "hidden_why": "长度 20 的租约比几乎所有平均 6 的暂停都长，所以陈旧的 worker 变得罕见，这三次"
    "运行没有违规；bug 只是被藏起来了，并没有修好。",
    "table": "种子 1-3，只有暂停：被栅栏拒绝的陈旧保存 / 没有栅栏时的违规",
    "ttl_units": "  以 ttl 为单位的暂停，ttl {ttl}：{counts}",
    "mean_6": "  平均 6 个单位的暂停，  ttl {ttl}：{counts}",
    "newest_hint": "像 first_stale_commit 那样，记住每个任务最新的 epoch",
    "not_first": "不是检查器的第一个发现",
    "no_reuse": "带栅栏的运行没有重复使用任何 epoch",
    "outside": "pause_time=3 的一次运行出现了超出范围的暂停",
    "rule": "用 pause_time=3 套用第 1 节的规则",
    "still_refused": "在 ttl 20 时栅栏仍然拒绝了陈旧保存",
    "range_hint": "在上面的单元格里设置 pause_range",
    "lease_hint": "在上面的单元格里设置 longer_lease_fixes_it",
}
