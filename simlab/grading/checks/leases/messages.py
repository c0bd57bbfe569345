"""The feedback of exercise ``leases``' hidden checks, by ID (``leases.<key>``), in English
(``EN``) and Chinese (``ZH``); the checks speak them with :data:`say`. Keys are grouped by the
module that says them. See :mod:`simlab.grading.messages`."""

from __future__ import annotations

from simlab.grading.messages import speaker

__all__ = ["EN", "ZH", "say"]

#: A message of this exercise: ``say(key, **values)``.
say = speaker("leases")

EN = {
    # claim.py
    "race_not_run": "the race could not be run",
    "both_won": (
        "two workers claiming at the same moment both got the task: another claim ran between "
        "two statements of yours (make the claim one atomic statement)"
    ),
    "neither_won": "two workers claimed a free task at the same moment and neither got it",
    "never_a_lease": (
        "your claim never returned a lease in the races the grader replays (a task whose lease "
        "ran out, claimed by you while another worker claims it or a user cancels it, at the "
        "same moment or between two statements of yours): the first time, it {got}"
    ),
    "got_raised": "raised {kind}",
    "got_returned": "returned {value}",
    "read_back": (
        "after another claim ran between its statements, your claim returned a lease of worker "
        "{worker}: it read back a row it did not write"
    ),
    "cancel_lease": (
        "a cancel ran between two statements of your claim, and the claim returned a lease the "
        "cancel should have ended (make the claim one atomic statement)"
    ),
    "cancel_raised": (
        "a cancel ran between two statements of your claim, and the claim raised {kind} (make "
        "the claim one atomic statement)"
    ),
    "an_error": "an error",
    "shared_epoch": (
        "two workers both hold epoch {epoch}: another claim ran between the statements of yours "
        "(make the claim one atomic statement)"
    ),
    "neither_expired": "neither worker got an expired task when two claimed it",
    "claim_returns_lease": "claim must return a Lease",
    "first_claim": (
        "the first claim returned epoch {epoch}, step {step} (expected epoch 1, step 0)"
    ),
    "lease_until_ttl": "lease_until must be now + ttl",
    "after_claim": "after a claim the task must be running, epoch 1, worker set, attempts 1",
    "live_raises": "a claim while another lease is live must raise LeaseHeld",
    "own_live_raises": "a claim by the worker that holds the live lease must raise LeaseHeld "
    "too: a restarted worker whose old process still runs would get a second lease",
    "refused_changed": "a refused claim changed the task",
    "held_names_holder": (
        "LeaseHeld must name the worker holding the live lease, not the worker whose claim was "
        "refused"
    ),
    "held_until": "LeaseHeld must carry the holder's lease_until",
    "taken_over": "a claim after lease_until must succeed with epoch 2 and a new lease_until",
    "old_lease_saved": "the old lease could still save after the takeover",
    "completed_raises": "claiming a completed task must raise TerminalTask",
    "cancelled_raises": "claiming a cancelled task must raise TerminalTask",
    "unknown_raises": "claiming a task that does not exist must raise UnknownTask",
    "heartbeat_true": "a heartbeat of a current lease must return True",
    "heartbeat_sets": "a heartbeat must set lease_until to now + ttl",
    "extended_held": "a lease extended by a heartbeat must still be held",
    "stale_heartbeat": "a stale lease's heartbeat returned True",
    "stale_heartbeat_moved": "a stale lease's heartbeat moved lease_until",
    "cancelled_heartbeat": "a heartbeat of a cancelled task returned True",
    # driving.py
    "but_raised": "{said}, but it raised {kind}",
    "but_returned": "{said}, but it returned {kind}",
    "broke_rule": "with faults on, {what} broke a rule: {story}",
    "by_claim_heartbeat": "your claim and heartbeat",
    "by_email_code": "your e-mail code",
    # effects.py
    "delivery_not_run": "the duplicate delivery could not be run",
    "recorded_twice": (
        "the same step delivered twice within one round trip was recorded {n} time(s): another "
        "record_effect ran between two statements of yours"
    ),
    "first_record": "the first record of a key by a current lease must return True",
    "one_effect": "expected one recorded effect, found {n}",
    "effect_fields": (
        "the recorded effect must carry the key, the lease's epoch and worker, and now"
    ),
    "same_key_twice": "recording the same key twice returned True (a retry would send again)",
    "other_key_refused": "a different key of the same task was refused",
    "stale_record": "a stale lease could record a side effect",
    "stale_row": "a stale lease's record_effect stored a row",
    "cancelled_record": "a cancelled task could still record a side effect",
    "per_task": "the same key for another task was refused (keys are per task)",
    "fresh_send": "send_step() of a fresh step returned something other than True",
    "retry_sent": (
        "after a crash and a retry of the step by a worker in another process, {n} e-mails "
        "were sent (expected exactly 1): the key must be the same in every process"
    ),
    "crash_between": (
        "a worker crashed between record_effect and the send, and the retry by a worker in "
        "another process sent again ({n} e-mails): record the effect before sending, under a "
        "key that is the same in every process"
    ),
    "own_email": "two steps in a row must each send their own e-mail (one key per task and step)",
    "tasks_email": (
        "two tasks at the same step must each send their own e-mail: the mailbox takes one key "
        "for one e-mail, so the key must name the task too"
    ),
    "look_alikes_email": (
        "two tasks whose IDs differ only in case, spaces or full-width forms each send their "
        "own e-mail: the key must hold the task ID exactly"
    ),
    "retry_said_sent": "the retry sent nothing, but send_step() returned {got} (expected False)",
    "stale_said_sent": (
        "a worker that lost its lease sent nothing, but send_step() returned {got} (expected False)"
    ),
    "stale_sent": "a worker that lost its lease sent an e-mail",
    # loop.py
    "no_trouble": "a task with no trouble returned {got}, expected 'completed'",
    "work_steps": "work was called for steps {calls}, expected [0, 1, 2]",
    "ends_completed": (
        "the ledger must end completed at step 3 with the last step's output as the result"
    ),
    "resumed_from": (
        "a task saved at step 2 was worked from step {first} (calls {calls}), expected [2, 3]"
    ),
    "resumed_incomplete": "the resumed task did not complete",
    "refused_save": "a loop whose save was refused returned {got}, expected 'lost'",
    "work_after_loss": (
        "after losing the lease during step 1, work was called for {calls} (expected [0, 1])"
    ),
    "changed_after_takeover": "the ledger changed after the takeover",
    "cancelled_loop": (
        "a loop whose task was cancelled returned {got}, expected 'lost' (the cancel refuses "
        "its next heartbeat or save)"
    ),
    "work_after_cancel": "after a cancel during step 0, work was called for {calls}",
    "cancelled_changed": "the cancelled task was changed",
    "last_step_cancel": (
        "the task was cancelled during its last step and your loop returned {got} while the "
        "ledger says {status}: check what save returns"
    ),
    "no_heartbeat": (
        "the lease was taken over right after step 1 was saved, but work still ran for {steps} "
        "(heartbeat before each step)"
    ),
    "lost_loop": "a loop that lost its lease returned {got}, expected 'lost'",
    "refused_task": "a task {what} returned {got}, expected 'refused'",
    "refused_worked": "work ran for a task {what}",
    "unknown_answered": (
        "a task the ledger never held returned {got}: an unknown task is no refusal, let the "
        "claim's UnknownTask through"
    ),
    "unknown_raised": (
        "a task the ledger never held raised {kind}, expected the claim's UnknownTask"
    ),
    "unknown_worked": "work ran for a task the ledger never held",
    "state_completed": "completed",
    "state_held": "leased to another worker",
    # loops.py
    "has_step": "t1 has {n} step",
    "has_steps": "t1 has {n} steps",
    "saved_released": "w0 saved step {step} with {checkpoint} and released it",
    "saved_expired": "w0 saved step {step} with {checkpoint} and its lease ran out",
    "checkpoint_none": "no checkpoint",
    "checkpoint_output": "a checkpoint of its output",
    "checkpoint_step": "a checkpoint that says step {step}",
    "t1_completed": "t1 is completed",
    "t1_cancelled": "t1 is cancelled",
    "w0_holds": "w0 holds a live lease on t1",
    "takes_over": "another worker takes {task} over",
    "saves_ahead": (
        "another process of your worker, with the same lease, saves the next step of {task} first"
    ),
    "saves_last_first": (
        "another process of your worker, with the same lease, saves the last step of {task} "
        "first, done, with the output your work returns for it"
    ),
    "during_step": "{who} during step {step}",
    "after_save": "{who} right after step {step} is saved",
    "after_loop_claim": "{who} right after the loop's claim, before its first step",
    "loop_runs": "your loop runs",
    "worked_after_lost": "your loop worked another step after it lost the task",
    "returned_after_lost": "your loop returned {got} after it lost the task, expected 'lost'",
    "returned_may_not": (
        "your loop returned {got} for a task it may not claim, expected 'refused'"
    ),
    "worked_may_not": "your loop worked a task it may not claim",
    "loop_worked": "your loop worked steps {got}, expected {want}",
    "loop_returned": "your loop returned {got}, expected {want}",
    "loop_left": "after your loop the task's {field} is {got}, expected {want}",
    "loop_result_early": (
        "after your loop the task has a result although its last step was never saved (a save "
        "carries result=output only for the last step)"
    ),
    # operations.py: the moves
    "wait": "the clock moves {seconds} s on",
    "expire": "the clock reaches the end of the lease on {task}",
    "user_cancels": "a user cancels {task}",
    "user_requeues": "a user requeues {task}",
    "goes_dead": "{task} runs out of attempts: the ledger moves it to the dead letter (dead)",
    "saves": "lease {n} saves step {step}",
    "saves_done": "lease {n} saves step {step} as done",
    "releases": "lease {n} releases {task}",
    "heartbeats": "lease {n} heartbeats",
    "records": "lease {n} records {key}",
    "claims": "{worker} claims {task} for {ttl} s (lease {n})",
    "claims_refused": "{worker} claims {task} for {ttl} s (refused)",
    "other_claims": (
        "another process's {worker} claims {task} for {ttl} s with the kit's claim, not yours "
        "(lease {n})"
    ),
    "other_claims_refused": (
        "another process's {worker} claims {task} for {ttl} s with the kit's claim (refused)"
    ),
    # operations.py: what differed
    "wrong_type": "a value of the wrong type",
    "why_newer": "a newer lease holds the task",
    "why_not_running": "the task is not running",
    "why_recorded": "the key was already recorded",
    "took_live": "your claim took {task} although its lease was still live",
    "took_status": "your claim took {task} although it was {status}",
    "claim_gave": "your claim gave {got}, expected {want}",
    "held_fields": "your LeaseHeld did not name the holder and its lease_until",
    "held_end": "your LeaseHeld named the holder but not when its lease runs out (its lease_until)",
    "terminal_fields": (
        "your TerminalTask did not name the task and its status (the task is {status}: "
        "TerminalTask(task_id, status) carries the row's status)"
    ),
    "refused_boundary": (
        "your claim refused a lease that ran out at this very moment (it may be taken once "
        "lease_until <= now)"
    ),
    "refused_free": "your claim refused {task} although it was free to claim",
    "claim_epoch": (
        "your claim gave epoch {got} while the task was at epoch {epoch} (a claim raises it by one)"
    ),
    "not_under_lease": "after your claim the task is not running under the new lease",
    "lease_field": "your claim returned a lease whose {field} is {got}, expected {want}",
    "claim_left": "after your claim the task's {field} is {got}, expected {want}",
    "claim_left_none": "after your claim the task's {field} is {got}",
    "heartbeat_true_but": "your heartbeat of lease {n} returned True but {why}",
    "heartbeat_changed_but": "your heartbeat of lease {n} changed the task but {why}",
    "heartbeat_changed": "your heartbeat changed the task's {field}",
    "heartbeat_gave": "your heartbeat of lease {n} gave {got} though it holds the task",
    "heartbeat_left": "after your heartbeat the task's {field} is {got}, expected {want}",
    "record_changed_task": "your record_effect changed the task",
    "record_changed_key": "your record_effect changed or removed a key already recorded",
    "record_but": "your record_effect of lease {n} recorded {key} but {why}",
    "record_other_key": "your record_effect of lease {n} recorded another key than {key}",
    "record_gave": "your record_effect of lease {n} gave {got} for a new key of a live lease",
    "record_gave_past": (
        "your record_effect of lease {n} gave {got} for a new key of a current lease (past its "
        "lease_until, but nobody claimed the task since)"
    ),
    "record_row": "the row your record_effect stored has {column} {got}, expected {want}",
    # operations.py and loops.py: a difference in a value of the hidden world, told without it
    "claim_other_task": "your claim of {task} changed another task",
    "claim_unknown_gave": (
        "your claim of {task}, a task the ledger does not hold, gave {got}, expected {want}: "
        "find out why a claim was refused by the task's exact ID"
    ),
    "heartbeat_other_task": "your heartbeat of lease {n} changed another task",
    "lease_field_not": "your claim returned a lease whose {field} is not {want}",
    "claim_left_not": "after your claim the task's {field} is not {want}",
    "heartbeat_left_not": "after your heartbeat the task's {field} is not {want}",
    "record_row_not": "the row your record_effect stored has a {column} that is not {want}",
    "loop_left_not": "after your loop the task's {field} is not {want}",
    "loop_worker": "your loop claimed the task for another worker than the one given",
    "loop_ttl": (
        "your loop's claim or heartbeat asked for a lease of another length than the ttl given"
    ),
    "should_task_id": "the task's own ID",
    "should_worker": "the name of the worker that claimed",
    "should_given_worker": "the worker it was given",
    "should_key": "the key it was given",
    "should_lease_until": "now + ttl",
    "should_updated_at": "now",
    "should_recorded_at": "now",
    "should_result": "the last step's output",
    "should_checkpoint": "{{'output': output}} of the last step",
    # race.py
    "one_statement": (
        "a {rival} ran between two statements of your {piece} and it then {did} (make it one "
        "statement)"
    ),
    "rival_cancel": "cancel",
    "rival_takeover": "takeover",
    "did_change_task": "changed the task",
    "did_record_key": "recorded the key",
}

ZH = {
    # claim.py
    "race_not_run": "无法重放这场竞争",
    "both_won": (
        "两个 worker 在同一时刻领取，都拿到了任务：另一次领取插在了你的两条语句之间"
        "（把领取写成一条原子语句）"
    ),
    "neither_won": "两个 worker 同一时刻领取一个空闲任务，结果谁都没拿到",
    "never_a_lease": (
        "在评分器重放的竞争中（一个租约已过期的任务，你领取它的同时，另一个 worker 也在"
        "领取，或用户在取消它，发生在同一时刻或你的两条语句之间），你的领取一次也没有返回"
        "租约：第一次，它{got}"
    ),
    "got_raised": "抛出了 {kind}",
    "got_returned": "返回了 {value}",
    "read_back": (
        "另一次领取插在你的语句之间后，你的领取返回了 worker {worker} 的租约："
        "它读回了一行不是自己写的数据"
    ),
    "cancel_lease": (
        "一次取消插在了你领取的两条语句之间，而领取返回了一个本应被这次取消终结的租约"
        "（把领取写成一条原子语句）"
    ),
    "cancel_raised": (
        "一次取消插在了你领取的两条语句之间，而领取抛出了 {kind}（把领取写成一条原子语句）"
    ),
    "an_error": "一个错误",
    "shared_epoch": (
        "两个 worker 同时持有 epoch {epoch}：另一次领取插在了你的两条语句之间"
        "（把领取写成一条原子语句）"
    ),
    "neither_expired": "两个 worker 领取一个租约已过期的任务，谁都没拿到",
    "claim_returns_lease": "claim 必须返回一个 Lease",
    "first_claim": "第一次领取返回了 epoch {epoch}、step {step}（应为 epoch 1、step 0）",
    "lease_until_ttl": "lease_until 必须等于 now + ttl",
    "after_claim": "领取之后任务必须是 running、epoch 为 1、设置了 worker、attempts 为 1",
    "live_raises": "另一个租约仍有效时，领取必须抛出 LeaseHeld",
    "own_live_raises": (
        "持有有效租约的 worker 自己再次领取，也必须抛出 LeaseHeld：否则一个重启的 worker "
        "在旧进程仍在运行时会拿到第二份租约"
    ),
    "refused_changed": "被拒绝的领取修改了任务",
    "held_names_holder": "LeaseHeld 必须指明持有有效租约的 worker，而不是领取被拒绝的那个 worker",
    "held_until": "LeaseHeld 必须带上持有者的 lease_until",
    "taken_over": "lease_until 之后的领取必须成功，得到 epoch 2 和新的 lease_until",
    "old_lease_saved": "接管之后，旧租约仍能保存",
    "completed_raises": "领取一个已完成的任务必须抛出 TerminalTask",
    "cancelled_raises": "领取一个已取消的任务必须抛出 TerminalTask",
    "unknown_raises": "领取一个不存在的任务必须抛出 UnknownTask",
    "heartbeat_true": "当前租约的心跳必须返回 True",
    "heartbeat_sets": "心跳必须把 lease_until 设为 now + ttl",
    "extended_held": "被心跳延长的租约必须仍然有效",
    "stale_heartbeat": "陈旧租约的心跳返回了 True",
    "stale_heartbeat_moved": "陈旧租约的心跳改动了 lease_until",
    "cancelled_heartbeat": "已取消任务的心跳返回了 True",
    # driving.py
    "but_raised": "{said}，但它抛出了 {kind}",
    "but_returned": "{said}，但它返回了 {kind}",
    "broke_rule": "开启故障后，{what} 违反了一条规则（缩减后的经过，英文）：{story}",
    "by_claim_heartbeat": "你的 claim 和 heartbeat",
    "by_email_code": "你发送邮件的代码（record_effect 和 send_step）",
    # effects.py
    "delivery_not_run": "无法重放这次重复投递",
    "recorded_twice": (
        "同一步在一次往返之内被投递了两次，被记录了 {n} 次："
        "另一次 record_effect 插在了你的两条语句之间"
    ),
    "first_record": "当前租约第一次记录一个键时必须返回 True",
    "one_effect": "应当有一条记录下的副作用，实际有 {n} 条",
    "effect_fields": "记录下的副作用必须带上键、租约的 epoch 和 worker，以及当前时间",
    "same_key_twice": "同一个键记录两次却返回了 True（重试时会再发一次）",
    "other_key_refused": "同一任务的另一个键被拒绝了",
    "stale_record": "陈旧的租约仍能记录副作用",
    "stale_row": "陈旧租约的 record_effect 存下了一行",
    "cancelled_record": "已取消的任务仍能记录副作用",
    "per_task": "另一个任务的同一个键被拒绝了（键按任务区分）",
    "fresh_send": "对一个新的 step 调用 send_step() 返回的不是 True",
    "retry_sent": (
        "崩溃后由另一个进程中的 worker 重试这一步，发出了 {n} 封邮件（应当恰好 1 封）："
        "key 在每个进程里都必须相同"
    ),
    "crash_between": (
        "worker 在 record_effect 和发送之间崩溃，另一个进程中的 worker "
        "重试又发了一次（共 {n} 封邮件）：先记录副作用，再发送，且 key 在每个进程里都相同"
    ),
    "own_email": "相邻的两个 step 必须各自发送自己的邮件（每个任务的每一步一个键）",
    "tasks_email": (
        "同一步的两个任务必须各自发送自己的邮件：邮箱把一个键当作一封邮件，所以键也必须写明任务"
    ),
    "look_alikes_email": (
        "两个 ID 只在大小写、空格或全角形式上不同的任务也各自发送自己的邮件：键必须原样包含任务 ID"
    ),
    "retry_said_sent": "重试什么也没有发送，但 send_step() 返回了 {got}（应当是 False）",
    "stale_said_sent": (
        "失去租约的 worker 什么也没有发送，但 send_step() 返回了 {got}（应当是 False）"
    ),
    "stale_sent": "失去租约的 worker 发出了邮件",
    # loop.py
    "no_trouble": "一个没有任何干扰的任务返回了 {got}，应为 'completed'",
    "work_steps": "work 被调用的 step 为 {calls}，应为 [0, 1, 2]",
    "ends_completed": "账本最后必须是 completed、step 为 3，并以最后一步的输出作为结果",
    "resumed_from": (
        "一个已保存到 step 2 的任务从 step {first} 开始工作（调用了 {calls}），应为 [2, 3]"
    ),
    "resumed_incomplete": "恢复的任务没有完成",
    "refused_save": "save 被拒绝的循环返回了 {got}，应为 'lost'",
    "work_after_loss": "在 step 1 中失去租约之后，work 被调用的 step 为 {calls}（应为 [0, 1]）",
    "changed_after_takeover": "接管之后账本被改动了",
    "cancelled_loop": "任务被取消的循环返回了 {got}，应为 'lost'（取消会拒绝它的下一次心跳或保存）",
    "work_after_cancel": "在 step 0 中被取消之后，work 被调用的 step 为 {calls}",
    "cancelled_changed": "已取消的任务被改动了",
    "last_step_cancel": (
        "任务在最后一步中被取消，你的循环返回了 {got}，"
        "而账本记录的是 {status}：要检查 save 的返回值"
    ),
    "no_heartbeat": "step 1 保存后租约立即被接管，但工作仍为 {steps} 运行了（每一步之前先发心跳）",
    "lost_loop": "失去租约的循环返回了 {got}，应为 'lost'",
    "refused_task": "一个{what}的任务返回了 {got}，应为 'refused'",
    "refused_worked": "work 为一个{what}的任务运行了",
    "unknown_answered": (
        "账本从未有过的任务返回了 {got}：未知任务不是拒绝，应让领取抛出的 UnknownTask 传出去"
    ),
    "unknown_raised": "账本从未有过的任务抛出了 {kind}，应为领取抛出的 UnknownTask",
    "unknown_worked": "work 为一个账本从未有过的任务运行了",
    "state_completed": "已完成",
    "state_held": "租给了另一个 worker",
    # loops.py
    "has_step": "t1 共有 {n} 步",
    "has_steps": "t1 共有 {n} 步",
    "saved_released": "w0 保存了 step {step}（{checkpoint}），然后释放了它",
    "saved_expired": "w0 保存了 step {step}（{checkpoint}），然后它的租约到期了",
    "checkpoint_none": "没有检查点",
    "checkpoint_output": "检查点是它的输出",
    "checkpoint_step": "检查点写着 step {step}",
    "t1_completed": "t1 已完成",
    "t1_cancelled": "t1 已取消",
    "w0_holds": "w0 持有 t1 的有效租约",
    "takes_over": "另一个 worker 接管了 {task}",
    "saves_ahead": "你的 worker 的另一个进程用同一个租约抢先保存了 {task} 的下一步",
    "saves_last_first": (
        "你的 worker 的另一个进程用同一个租约抢先保存了 {task} 的最后一步（done，结果就是你的 "
        "work 为这一步返回的输出）"
    ),
    "during_step": "{who}（在 step {step} 进行中）",
    "after_save": "{who}（就在 step {step} 保存之后）",
    "after_loop_claim": "{who}（就在循环领取之后、第一步之前）",
    "loop_runs": "你的循环开始运行",
    "worked_after_lost": "你的循环在失去任务之后又做了一步",
    "returned_after_lost": "你的循环在失去任务之后返回了 {got}，应为 'lost'",
    "returned_may_not": "对一个不能领取的任务，你的循环返回了 {got}，应为 'refused'",
    "worked_may_not": "你的循环处理了一个不能领取的任务",
    "loop_worked": "你的循环做了 {got} 这些步，应为 {want}",
    "loop_returned": "你的循环返回了 {got}，应为 {want}",
    "loop_left": "你的循环之后，任务的 {field} 为 {got}，应为 {want}",
    "loop_result_early": (
        "你的循环之后，任务已有 result，而它的最后一步从未保存（只有最后一步的保存才带 "
        "result=output）"
    ),
    # operations.py: the moves
    "wait": "时钟前进 {seconds} 秒",
    "expire": "时钟恰好走到 {task} 租约的到期时刻",
    "user_cancels": "用户取消了 {task}",
    "user_requeues": "用户把 {task} 重新入队",
    "goes_dead": "{task} 的尝试次数用完：账本把它移入死信队列（dead）",
    "saves": "租约 {n} 保存 step {step}",
    "saves_done": "租约 {n} 保存 step {step} 并标记完成",
    "releases": "租约 {n} 释放了 {task}",
    "heartbeats": "租约 {n} 发送心跳",
    "records": "租约 {n} 记录 {key}",
    "claims": "{worker} 领取 {task}，时长 {ttl} 秒（租约 {n}）",
    "claims_refused": "{worker} 领取 {task}，时长 {ttl} 秒（被拒绝）",
    "other_claims": (
        "另一个进程的 {worker} 用工具包的领取（不是你的）领取 {task}，时长 {ttl} 秒（租约 {n}）"
    ),
    "other_claims_refused": (
        "另一个进程的 {worker} 用工具包的领取领取 {task}，时长 {ttl} 秒（被拒绝）"
    ),
    # operations.py: what differed
    "wrong_type": "类型不对的值",
    "why_newer": "已有更新的租约持有该任务",
    "why_not_running": "任务已不在运行",
    "why_recorded": "这个键已经记录过了",
    "took_live": "你的领取拿走了 {task}，而它的租约仍然有效",
    "took_status": "你的领取拿走了 {task}，而它已是 {status}",
    "claim_gave": "你的领取给出了 {got}，应为 {want}",
    "held_fields": "你的 LeaseHeld 没有指明持有者及其 lease_until",
    "held_end": "你的 LeaseHeld 指明了持有者，但没有指明它的租约何时到期（它的 lease_until）",
    "terminal_fields": (
        "你的 TerminalTask 没有指明任务及其状态（该任务是 {status}："
        "TerminalTask(task_id, status) 带的是该行的 status）"
    ),
    "refused_boundary": "你的领取拒绝了一个恰好此刻到期的租约（lease_until <= now 时就可以被接管）",
    "refused_free": "你的领取拒绝了 {task}，而它本可以被领取",
    "claim_epoch": "你的领取给出了 epoch {got}，而任务当时的 epoch 是 {epoch}（领取要把它加一）",
    "not_under_lease": "你的领取之后，任务并没有在新租约下运行",
    "lease_field": "你的领取返回的租约中 {field} 为 {got}，应为 {want}",
    "claim_left": "你的领取之后，任务的 {field} 为 {got}，应为 {want}",
    "claim_left_none": "你的领取之后，任务的 {field} 为 {got}",
    "heartbeat_true_but": "租约 {n} 的心跳返回了 True，但{why}",
    "heartbeat_changed_but": "租约 {n} 的心跳修改了任务，但{why}",
    "heartbeat_changed": "你的心跳修改了任务的 {field}",
    "heartbeat_gave": "租约 {n} 仍持有任务，你的心跳却给出了 {got}",
    "heartbeat_left": "你的心跳之后，任务的 {field} 为 {got}，应为 {want}",
    "record_changed_task": "你的 record_effect 修改了任务",
    "record_changed_key": "你的 record_effect 修改或删除了一个已记录的键",
    "record_but": "租约 {n} 的 record_effect 记录了 {key}，但{why}",
    "record_other_key": "租约 {n} 的 record_effect 记录了 {key} 以外的键",
    "record_gave": "对于有效租约 {n} 的新键，你的 record_effect 给出了 {got}",
    "record_gave_past": (
        "对于当前租约 {n} 的新键，你的 record_effect 给出了 {got}（lease_until 已过，但此后没有人"
        "领取该任务）"
    ),
    "record_row": "你的 record_effect 存下的行中 {column} 为 {got}，应为 {want}",
    # operations.py and loops.py: a difference in a value of the hidden world, told without it
    "claim_other_task": "你对 {task} 的领取改动了另一个任务",
    "claim_unknown_gave": (
        "你对账本中并不存在的任务 {task} 的领取给出了 {got}，应为 {want}：查明领取被拒绝的原因时，"
        "要按任务的确切 ID 查找"
    ),
    "heartbeat_other_task": "租约 {n} 的心跳改动了另一个任务",
    "lease_field_not": "你的领取返回的租约中 {field} 不是{want}",
    "claim_left_not": "你的领取之后，任务的 {field} 不是{want}",
    "heartbeat_left_not": "你的心跳之后，任务的 {field} 不是{want}",
    "record_row_not": "你的 record_effect 存下的行中 {column} 不是{want}",
    "loop_left_not": "你的循环之后，任务的 {field} 不是{want}",
    "loop_worker": "你的循环替另一个 worker 领取了任务，而不是传入的那个",
    "loop_ttl": "你的循环在领取或心跳时请求的租约时长不是传入的 ttl",
    "should_task_id": "任务自己的 ID",
    "should_worker": "领取它的 worker 的名字",
    "should_given_worker": "传入的 worker",
    "should_key": "传入的键",
    "should_lease_until": " now + ttl",
    "should_updated_at": " now",
    "should_recorded_at": " now",
    "should_result": "最后一步的输出",
    "should_checkpoint": "最后一步的 {{'output': output}}",
    # race.py
    "one_statement": (
        "一次{rival}插在了你的 {piece} 的两条语句之间，之后它仍然{did}（把它写成一条语句）"
    ),
    "rival_cancel": "取消",
    "rival_takeover": "接管",
    "did_change_task": "修改了任务",
    "did_record_key": "记录了这个键",
}
