"""The sentences of exercise 02's code (see :mod:`simlab.i18n.sentences`): the hints its stubs
raise, the messages of its public checks' asserts and the lines it prints."""

from __future__ import annotations

__all__ = ["EN", "ZH"]

EN = {
    "race": "A holds epoch {a} and B holds epoch {b}",
    "claim_hint": "one UPDATE ... WHERE task_id = ? AND (queued OR expired running) RETURNING ...",
    "heartbeat_hint": "one UPDATE fenced by task_id, epoch and status = 'running'; check rowcount",
    "claimed_again": "a live lease was claimed again",
    "holder": "LeaseHeld must name the holder of the live lease (A) and its lease_until",
    "new_epoch": "a claim after expiry gets a new epoch",
    "no_extend": "a stale lease must not extend",
    "effect_hint": "INSERT OR IGNORE INTO effects ... SELECT ... FROM tasks WHERE task, epoch, "
    "running",
    "key_hint": "a key made of what stays the same on a retry; record it first, then send",
    "sent_again": "the retry sent the e-mail again",
    "loop_hint": "claim, then for step in range(lease.step, steps): heartbeat, work, fenced save",
    "completed": "t1 is completed",
    "resume": "resume from the persisted step",
}

ZH = {
    "race": "A 持有 epoch {a}，B 持有 epoch {b}",
    "claim_hint": "一条 UPDATE ... WHERE task_id = ? AND（queued 或已过期的 running）RETURNING ...",
    "heartbeat_hint": "一条以 task_id、epoch 和 status = 'running' 为栅栏的 UPDATE；检查 rowcount",
    "claimed_again": "一个仍然有效的租约又被领取了",
    "holder": "LeaseHeld 必须说出有效租约的持有者（A）和它的 lease_until",
    "new_epoch": "租约过期后的领取会拿到新的 epoch",
    "no_extend": "陈旧的租约不能被延长",
    "effect_hint": "INSERT OR IGNORE INTO effects ... SELECT ... FROM tasks WHERE 任务、epoch、"
    "running",
    "key_hint": "用重试时保持不变的东西组成键；先记录它，再发送",
    "sent_again": "重试又发了一次邮件",
    "loop_hint": "先领取，然后 `for step in range(lease.step, steps)`：心跳、工作、带栅栏的保存",
    "completed": "t1 已经完成",
    "resume": "从持久化的 step 继续",
}
