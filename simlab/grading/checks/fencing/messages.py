"""The feedback of exercise ``fencing``'s hidden checks, by ID (``fencing.<key>``), in English
(``EN``) and Chinese (``ZH``); the checks speak them with :data:`say`. Keys are grouped by the
check that says them. See :mod:`simlab.grading.messages`."""

from __future__ import annotations

from simlab.grading.messages import speaker

__all__ = ["EN", "ZH", "say"]

#: A message of this exercise: ``say(key, **values)``.
say = speaker("fencing")

EN = {
    "answer_needs": "the answer needs {key} as {kind}, got {got}",
    "answer_needs_result": "the answer needs a 'result' key",
    "no_task_experiment": (
        "the ledger file at `path` holds no task {task}: run the experiment on the path you are "
        "given"
    ),
    "no_task_story": (
        "the ledger file at `path` holds no task {task}: run the story on the path you are given"
    ),
    "no_checkpoint": "task 'j1' has no checkpoint: the first worker process did not run its step",
    "ended": "task 'j1' ended {status} in the ledger, not cancelled",
    "resume_refused": "the resume worker's claim must be refused after the cancel",
    "epoch_after_cancel": (
        "the ledger's epoch shows a claim after the cancel (or a missing one before it)"
    ),
    "step_stays": "the persisted step should stay 1, the answer says {got}",
    "ledger_step": "the ledger's step is not 1",
    "no_experiment": "no experiment to look at",
    "result_published": "a result was published for a cancelled task",
    "ledger_result": "the ledger holds a result for j1",
    "nothing_to_compare": "nothing in the ledger to compare with",
    "not_from_ledger": (
        "the answer's {key} ({got}) is not what the ledger holds ({want}): read it from the "
        "ledger at the end"
    ),
    "replaced_state": "{fn}() replaced the state with {kind}; change the dict in place",
    "returned": "{fn}() of a {status} task returned {got}, expected {want}",
    "commit_after_cancel": "after cancel, a commit with the current epoch was accepted",
    "result_not_none": "after cancel, the result is no longer None",
    "cancel_status": "after cancel, the status is {got}, expected 'cancelled'",
    "cancel_bumps": "cancel must bump the epoch by one, so every lease issued before is stale",
    "stale_commits_again": (
        "after requeue and a new claim, the pre-cancel epoch could commit again (requeue must "
        "keep the epoch)"
    ),
    "requeue_status": "after requeue, the status is {got}, expected 'queued'",
    "no_higher_epoch": "after requeue, a new claim did not get a higher epoch",
    "new_commit_refused": "the commit of the new epoch was refused",
    "second_commit": "a second commit was accepted",
    "changed": "{fn}() changed a {status} task",
    "other_keys": (
        "{fn}() of a {status} task added or removed keys of the state: it changes only the "
        "status and the epoch as the text says, no key added or removed"
    ),
    "cancel_must_bump": "cancel of a {status} task must set 'cancelled' and bump the epoch by one",
    "claim_reused_cancel": (
        "the claim got epoch {epoch}, which the cancel had already used (requeue must keep the "
        "epoch)"
    ),
    "claim_reused_lease": (
        "the claim got epoch {epoch}, which a lease before it had already used (requeue must "
        "keep the epoch)"
    ),
    "stale_accepted": "a commit with epoch {epoch}, from before the cancel, was accepted",
    "state_lost": "the state lost its 'epoch' or 'status' key",
    "left_at": "{fn}() of a {status} task left the {key} at {got}, expected {want}",
    "left_epoch": (
        "{fn}() of a {status} task left the {key} at {got}, expected {want} (requeue must keep "
        "the epoch)"
    ),
    "move_claim": "claim (epoch {epoch})",
    "move_claim_refused": "claim refused",
    "move_commit_accepted": "commit with epoch {epoch} accepted",
    "move_commit_refused": "commit with epoch {epoch} refused",
    "move_cancel": "cancel",
    "move_requeue": "requeue",
    "no_email_effect": "no side effect 't1:email' was recorded in the ledger",
    "step_never_committed": "step 1 of t1 was never committed",
    "never_cancelled": "t1 was never cancelled (its epoch never moved past 1)",
    "guesses": "the ledger does not show the story ran, so these answers are guesses",
    "fact_kind": "{name} should be True or False, got {kind}",
    "later_save_refused": "after a cancel the worker's save should be refused",
    "later_effect_refused": "after a cancel, record_effect should refuse new side effects",
    "new_claim_refused": "after a cancel, a new claim should be refused (TerminalTask)",
    "email_recalled": "an e-mail already sent cannot be recalled by a cancel",
    "step_rolled_back": "a cancel does not roll back committed steps",
    "requeue_restarts_from_zero": "a requeued task resumes from its committed step, not 0",
    "world_fact": (
        "on a ledger built otherwise (drawn when graded), your {name} is not what the story "
        "gives there: measure each one as its row says, do not type it in"
    ),
    "world_no_task": (
        "on a ledger built otherwise (drawn when graded), the experiment left no task 'j1' at "
        "`path`: run it on the path you are given"
    ),
    "world_not_from_ledger": (
        "on a ledger built otherwise (drawn when graded), the answer's {key} is not what the "
        "ledger holds at the end: read it from the ledger, not from a worker's report or the "
        "notebook"
    ),
    "world_resume": (
        "on a ledger built otherwise (drawn when graded), resume_claim_refused is not what "
        "the resume worker's report says (its event)"
    ),
    "world_two_workers": (
        "on a ledger built otherwise (drawn when graded), the experiment ran the worker "
        "{runs} time(s): run it twice, the first worker and, after the cancel, the resume worker"
    ),
    "not_a_dict": "{who} returned {kind}, expected a dict",
}

ZH = {
    "answer_needs": "答案需要 {key}，类型为 {kind}，得到的是 {got}",
    "answer_needs_result": "答案需要一个 'result' 键",
    "no_task_experiment": "`path` 处的账本文件里没有任务 {task}：请在给你的路径上运行这个实验",
    "no_task_story": "`path` 处的账本文件里没有任务 {task}：请在给你的路径上运行这个故事",
    "no_checkpoint": "任务 'j1' 没有检查点：第一个 worker 进程没有运行它的步骤",
    "ended": "任务 'j1' 在账本中的结局是 {status}，而不是 cancelled",
    "resume_refused": "取消之后，恢复 worker 的领取必须被拒绝",
    "epoch_after_cancel": "账本的 epoch 显示取消之后还有一次领取（或者取消之前缺了一次领取）",
    "step_stays": "持久化的 step 应保持为 1，答案却是 {got}",
    "ledger_step": "账本中的 step 不是 1",
    "no_experiment": "没有可查看的实验",
    "result_published": "一个已取消的任务发布了结果",
    "ledger_result": "账本中 j1 有结果",
    "nothing_to_compare": "账本中没有可比较的内容",
    "not_from_ledger": "答案中的 {key}（{got}）与账本中的值（{want}）不一致：请在最后从账本读取",
    "replaced_state": "{fn}() 用 {kind} 替换了状态：请原地修改这个字典",
    "returned": "对状态为 {status} 的任务调用 {fn}() 返回了 {got}，应为 {want}",
    "commit_after_cancel": "取消之后，用当前 epoch 的提交被接受了",
    "result_not_none": "取消之后，result 不再是 None",
    "cancel_status": "取消之后，状态为 {got}，应为 'cancelled'",
    "cancel_bumps": "cancel 必须把 epoch 加一，这样之前发出的每个租约都会变成陈旧的",
    "stale_commits_again": (
        "重新入队并再次领取后，取消前的 epoch 仍能提交（requeue 必须保留 epoch）"
    ),
    "requeue_status": "重新入队后，状态为 {got}，应为 'queued'",
    "no_higher_epoch": "重新入队后，新的领取没有得到更高的 epoch",
    "new_commit_refused": "新 epoch 的提交被拒绝了",
    "second_commit": "第二次提交被接受了",
    "changed": "{fn}() 改动了状态为 {status} 的任务",
    "other_keys": (
        "对状态为 {status} 的任务调用 {fn}() 后，状态字典多了或少了 key：它只按题目所说改动 "
        "status 和 epoch，不增加也不删除任何 key"
    ),
    "cancel_must_bump": "取消状态为 {status} 的任务时，必须把状态设为 'cancelled' 并把 epoch 加一",
    "claim_reused_cancel": (
        "这次领取得到了 epoch {epoch}，而取消已经用过它（requeue 必须保留 epoch）"
    ),
    "claim_reused_lease": (
        "这次领取得到了 epoch {epoch}，而之前的租约已经用过它（requeue 必须保留 epoch）"
    ),
    "stale_accepted": "取消之前的 epoch {epoch} 的提交被接受了",
    "state_lost": "状态字典丢失了 'epoch' 或 'status' 键",
    "left_at": "对状态为 {status} 的任务调用 {fn}() 后，{key} 为 {got}，应为 {want}",
    "left_epoch": (
        "对状态为 {status} 的任务调用 {fn}() 后，"
        "{key} 为 {got}，应为 {want}（requeue 必须保留 epoch）"
    ),
    "move_claim": "领取（epoch {epoch}）",
    "move_claim_refused": "领取被拒绝",
    "move_commit_accepted": "用 epoch {epoch} 提交，被接受",
    "move_commit_refused": "用 epoch {epoch} 提交，被拒绝",
    "move_cancel": "取消",
    "move_requeue": "重新入队",
    "no_email_effect": "账本中没有记录副作用 't1:email'",
    "step_never_committed": "t1 的 step 1 从未提交",
    "never_cancelled": "t1 从未被取消（它的 epoch 从未超过 1）",
    "guesses": "账本显示这个故事并没有运行，所以这些答案只是猜测",
    "fact_kind": "{name} 应为 True 或 False，得到的是 {kind}",
    "later_save_refused": "取消之后，worker 的保存应被拒绝",
    "later_effect_refused": "取消之后，record_effect 应拒绝新的副作用",
    "new_claim_refused": "取消之后，新的领取应被拒绝（TerminalTask）",
    "email_recalled": "已经发出的邮件无法被取消召回",
    "step_rolled_back": "取消不会回滚已提交的 step",
    "requeue_restarts_from_zero": "重新入队的任务从已提交的 step 继续，而不是从 0 开始",
    "world_fact": (
        "在另一种构造的账本上（评分时抽取），你的 {name} 与这个故事在那里给出的结果不符："
        "每一项都按表格那一行所说的用代码测量，不要手写答案"
    ),
    "world_no_task": (
        "在另一种构造的账本上（评分时抽取），"
        "实验没有在 `path` 留下任务 'j1'：请在给你的路径上运行它"
    ),
    "world_not_from_ledger": (
        "在另一种构造的账本上（评分时抽取），答案中的 {key} 与账本最后保存的值不符："
        "请从账本读取，而不是从 worker 的报告或笔记本里抄"
    ),
    "world_resume": (
        "在另一种构造的账本上（评分时抽取），resume_claim_refused 与恢复 worker 的报告"
        "（它的 event）不符"
    ),
    "world_two_workers": (
        "在另一种构造的账本上（评分时抽取），实验运行了 {runs} 次 worker："
        "应运行两次，先是第一个 worker，取消之后再运行恢复 worker"
    ),
    "not_a_dict": "{who} 返回了 {kind}，应返回字典",
}
