"""The sentences of exercise 01's code (see :mod:`simlab.i18n.sentences`): the hints its stubs
raise and the messages of its public checks' asserts."""

from __future__ import annotations

__all__ = ["EN", "ZH"]

EN = {
    "cancel_hint": "refuse completed and cancelled tasks; otherwise set the status and bump the "
    "epoch",
    "requeue_hint": "only a cancelled task goes back to 'queued'; leave the epoch as it is",
    "bump": "cancel must bump the epoch by one",
    "no_commit": "the claim's epoch must not commit after a cancel",
    "higher": "the new claim must get a higher epoch",
    "ledger_hint": 'submit "j1", run_worker, cancel, run_worker again, then read the ledger',
    "refused": "the resume worker's claim must be refused",
    "step_stays": "the persisted step must stay 1",
    "no_result": "no final result may be published",
    "story_hint": "keep the lease from the claim; try each thing after the cancel and record "
    "the outcome",
    "booleans": "every answer is True or False",
}

ZH = {
    "cancel_hint": "拒绝已完成和已取消的任务；否则设置状态并把 epoch 加一",
    "requeue_hint": "只有已取消的任务才回到 'queued'；epoch 保持不变",
    "bump": "cancel 必须把 epoch 加一",
    "no_commit": "取消之后，领取时的 epoch 不能再提交",
    "higher": "新的领取必须拿到更高的 epoch",
    "ledger_hint": 'submit "j1"，run_worker，cancel，再 run_worker，然后读账本',
    "refused": "恢复运行的 worker 的领取必须被拒绝",
    "step_stays": "持久化的 step 必须保持为 1",
    "no_result": "不能发布任何最终结果",
    "story_hint": "保留领取得到的租约；取消之后逐一尝试每件事，并记录结果",
    "booleans": "每个回答都是 True 或 False",
}
