"""The sentences of notebook 01's code (see :mod:`simlab.i18n.sentences`)."""

from __future__ import annotations

__all__ = ["EN", "ZH"]

EN = {
    "whose_why": "A commit counts only with the current epoch and while the task runs: A's "
    "epoch 1 is stale, and B's second commit finds the task already completed.",
    "holds": "A holds epoch {a}, B holds epoch {b}",
    "a_commits": "A commits with epoch {epoch}: {ok}",
    "b_commits": "B commits with epoch {epoch}: {ok}",
    "b_again": "B commits again:           {ok}",
    "final_state": "final state: {state}",
    "evidence_why": "Worker-1's save at t=57 carried epoch 1 while the task was at epoch 2, so "
    "the ledger refused it and changed nothing: the checkpoint still holds worker-2's doc-1@v3. "
    "Without the fence it would hold doc-1@v2 until worker-2's last save at t=60.",
    "t10": "t=10 worker-2 claim: refused ({why})",
    "t31": "t=31 worker-2 claim: epoch {epoch}, lease until t={until}",
    "t57": "t=57 worker-1 (epoch {epoch}) save: {saved}; may send its e-mail: {send}; "
    "checkpoint evidence now {evidence}",
    "final": "final: {status}, step {step}, epoch {epoch}, result {result}, checkpoint "
    "{checkpoint}",
    "leased": "task {task} is leased to {worker} until t={until}",
    "running": "running",
    "completed": "completed",
    "title": "A paused worker wakes up with epoch 1 after epoch 2 was granted",
    "early_why": "At t=25 nobody has claimed the task again, so worker-1's epoch 1 is still the "
    "current one. A pause is only harmful if someone else takes over the task meanwhile.",
    "beat_why": "The heartbeat moved lease_until from t=30 to t=55, so at t=31 the lease is "
    "still live and worker-2 gets LeaseHeld. Without the heartbeat, worker-2 would have claimed "
    "it.",
    "wake": "wake at t=25: save {saved}, worker-2's claim at t=31: {claim}",
    "wake_beat": "wake at t=25 with a heartbeat: save {saved}, worker-2's claim at t=31: {claim}",
    "claimed": "claimed",
    "refused": "refused",
    "stale_why": "Without the bump the withdrawal carried token 1, A's own token, so the highest "
    "token the store had seen stayed 1 and every later write of A passed. The ledger refused "
    "A's commit, but the store never asks the ledger.",
    "bumps": "cancel that bumps the epoch:",
    "status_only": "cancel that only sets the status:",
    "writes": "  {who} writes {what} with token {token}: {outcome}",
    "a": "A",
    "cancel": "cancel",
    "accepted": "accepted",
    "refused_caps": "REFUSED",
    "store_holds": "  the store holds {final}; A's writes accepted after the cancel: {accepted}; "
    "A's commit to the ledger: {committed}",
    "may_commit_hint": "compare the two epochs, and look at the status",
    "commit_says": "task at epoch 2, {status}, your epoch {mine}: commit says {expected}",
    "timeout_hint": "set timeout_means in the cell above",
    "choose_one": "choose one of the three answers",
    "frozen": "worker-1 was frozen, not dead: it woke at t=57 and tried to save",
}

ZH = {
    "whose_why": "只有带着当前 epoch、并且任务还在运行时，提交才算数：A 的 epoch 1 已经陈旧，"
    "而 B 的第二次提交发现任务已经完成。",
    "holds": "A 持有 epoch {a}，B 持有 epoch {b}",
    "a_commits": "A 带着 epoch {epoch} 提交：{ok}",
    "b_commits": "B 带着 epoch {epoch} 提交：{ok}",
    "b_again": "B 再提交一次：              {ok}",
    "final_state": "最终状态：{state}",
    "evidence_why": "worker-1 在 t=57 的保存带着 epoch 1，而任务已经在 epoch 2，所以账本拒绝了它，"
    "什么也没改：检查点里仍然是 worker-2 的 doc-1@v3。没有栅栏的话，直到 worker-2 在 t=60 最后一次"
    "保存之前，检查点里都会是 doc-1@v2。",
    "t10": "t=10 worker-2 认领：被拒绝（{why}）",
    "t31": "t=31 worker-2 认领：epoch {epoch}，租约到 t={until}",
    "t57": "t=57 worker-1（epoch {epoch}）保存：{saved}；可以发送它的邮件：{send}；"
    "检查点里的证据现在是 {evidence}",
    "final": "最终：{status}，step {step}，epoch {epoch}，结果 {result}，检查点 {checkpoint}",
    "leased": "任务 {task} 租给了 {worker}，租约到 t={until}",
    "running": "运行中",
    "completed": "已完成",
    "title": "一个暂停的 worker 在 epoch 2 已经授予之后带着 epoch 1 醒来",
    "early_why": "在 t=25 还没有人重新认领这个任务，所以 worker-1 的 epoch 1 仍然是当前的 epoch。"
    "只有在这期间别人接手了任务，暂停才有害。",
    "beat_why": "心跳把 lease_until 从 t=30 推到了 t=55，所以在 t=31 租约仍然有效，worker-2 得到 "
    "LeaseHeld。没有心跳的话，worker-2 就认领成功了。",
    "wake": "在 t=25 醒来：保存 {saved}，worker-2 在 t=31 的认领：{claim}",
    "wake_beat": "在 t=25 醒来并发送心跳：保存 {saved}，worker-2 在 t=31 的认领：{claim}",
    "claimed": "认领成功",
    "refused": "被拒绝",
    "stale_why": "不加一的话，撤回带的是 token 1，也就是 A 自己的 token，所以存储见过的最大 token "
    "仍然是 1，A 之后的每一次写入都通过了。账本拒绝了 A 的提交，但存储从不询问账本。",
    "bumps": "把 epoch 加一的取消：",
    "status_only": "只设置状态的取消：",
    "writes": "  {who} 带着 token {token} 写入 {what}：{outcome}",
    "a": "A",
    "cancel": "取消",
    "accepted": "接受",
    "refused_caps": "拒绝",
    "store_holds": "  存储里是 {final}；取消之后 A 被接受的写入：{accepted}；"
    "A 向账本的提交：{committed}",
    "may_commit_hint": "比较两个 epoch，再看状态",
    "commit_says": "任务在 epoch 2、状态 {status}、你的 epoch {mine}：commit 的结果是 {expected}",
    "timeout_hint": "在上面的单元格里设置 timeout_means",
    "choose_one": "从三个答案中选一个",
    "frozen": "worker-1 是被冻结了，不是死了：它在 t=57 醒来并尝试保存",
}
