"""The sentences of notebook 02's code (see :mod:`simlab.i18n.sentences`)."""

from __future__ import annotations

__all__ = ["EN", "ZH"]

EN = {
    "resume_why": "Process 1's save of step 1 was committed to the file before it exited, and a "
    "claim returns the stored step: the task resumes, it never restarts from 0.",
    "process": "process {n}: claimed at step {step} with epoch {epoch}, saved step {saved}: "
    "{accepted}",
    "between": "between:   status={status} step={step} epoch={epoch} checkpoint={checkpoint}",
    "final": "final:     status={status} step={step} result={result}",
    "saves_why": "Worker-a's epoch 1 is stale once worker-b claimed epoch 2, and worker-b's "
    "second save does not advance the step (step < :step fails): only worker-b's first save "
    "matches.",
    "saves": "{who} saves step 1 with epoch {epoch}: {ok}",
    "saves_again": "worker-b saves step 1 again:        {ok}",
    "race": "{claim}: {granted} of {tried} claims granted, {shared} epochs believed owned by more "
    "than one process",
    "chapter_claim": "chapter's two-statement claim",
    "granted_twice": "{indent}{worker} was granted epoch {epoch} of {task} at t={t}, but epoch "
    "{again} had already been granted to {other} at t={then}.",
    "fenced_seed": "fenced, seed {seed}: {reused} reused epochs, {violations} violations",
    "replay": "replay: {command}",
    "title": "racy-claim: two workers believe they hold the same epoch of {task}",
    "story": "{task}, racy-claim seed {seed}: its claims, saves and crashes",
    "beats": "accepted heartbeats: {beats}",
    "gap_why": "In the simulator nothing happens between two statements run at the same "
    "simulated instant, so with no gap no other claim can land between the UPDATE and the "
    "SELECT.",
    "twice": "epochs granted twice, racy-claim seeds 1-5: round_trip 0.0: {none}, round_trip "
    "0.05: {default}",
    "pg_why": "Each statement is atomic, but nothing runs the UPDATE and the later SELECT "
    "together, so another process's bump still lands between them (the count varies from run "
    "to run).",
    "where_hint": "one condition per part of the WHERE clause",
    "new_step": "a new step: {where}",
    "same_step": "the same step again: {where}",
    "jump": "a jump ahead: {where}",
    "stale": "a stale lease: {where}",
    "cancel": "after a cancel: {where}",
    "saving": "{row}, saving step {step} with epoch {epoch}",
}

ZH = {
    "resume_why": "进程 1 对 step 1 的保存在它退出之前已经提交到文件，而认领会返回存下的 step："
    "任务是恢复，绝不会从 0 重新开始。",
    "process": "进程 {n}：在 step {step} 以 epoch {epoch} 认领，保存 step {saved}：{accepted}",
    "between": "两者之间：status={status} step={step} epoch={epoch} checkpoint={checkpoint}",
    "final": "最终：    status={status} step={step} result={result}",
    "saves_why": "worker-b 认领了 epoch 2 之后，worker-a 的 epoch 1 就陈旧了；而 worker-b 的第二次"
    "保存没有推进 step（step < :step 不成立）：只有 worker-b 的第一次保存匹配。",
    "saves": "{who} 带着 epoch {epoch} 保存 step 1：{ok}",
    "saves_again": "worker-b 再次保存 step 1：        {ok}",
    "race": "{claim}：{tried} 次认领中批准了 {granted} 次，{shared} 个 epoch 被不止一个进程认为归"
    "自己所有",
    "chapter_claim": "本章的两语句认领",
    "granted_twice": "{indent}{worker} 在 t={t} 得到了 {task} 的 epoch {epoch}，但 epoch {again} "
    "已经在 t={then} 授予了 {other}。",
    "fenced_seed": "fenced，种子 {seed}：{reused} 个重复授予的 epoch，{violations} 个违规",
    "replay": "重放：{command}",
    "title": "racy-claim：两个 worker 都认为自己持有 {task} 的同一个 epoch",
    "story": "{task}，racy-claim 种子 {seed}：它的认领、保存和崩溃",
    "beats": "被接受的心跳：{beats}",
    "gap_why": "在模拟器里，同一个模拟时刻运行的两条语句之间什么也不会发生，所以没有间隔时，"
    "别的认领不可能落在 UPDATE 和 SELECT 之间。",
    "twice": "被授予两次的 epoch，racy-claim 种子 1-5：round_trip 0.0：{none}，round_trip "
    "0.05：{default}",
    "pg_why": "每条语句都是原子的，但没有什么把 UPDATE 和之后的 SELECT 放在一起运行，所以别的进程"
    "的加一仍然会落在两者之间（次数每次运行都不同）。",
    "where_hint": "WHERE 子句的每一部分写一个条件",
    "new_step": "新的一步：{where}",
    "same_step": "又是同一步：{where}",
    "jump": "向前跳了几步：{where}",
    "stale": "陈旧的租约：{where}",
    "cancel": "取消之后：{where}",
    "saving": "{row}，以 epoch {epoch} 保存 step {step}",
}
