"""The feedback of exercise ``histories``' hidden checks, by ID (``histories.<key>``), in English
(``EN``) and Chinese (``ZH``); the checks speak them with :data:`say`. Keys are grouped by the
question that says them. See :mod:`simlab.grading.messages`. :func:`times_wrong` and
:func:`measure_wrong` pick the message that says what is wrong with a value, not only the value."""

from __future__ import annotations

import math
from typing import Any

from simlab.grading.messages import Message, speaker
from simlab.grading.student import shown_number

__all__ = ["EN", "ZH", "say", "times_wrong", "measure_wrong"]

#: A message of this exercise: ``say(key, **values)``.
say = speaker("histories")

EN = {
    # stale-commits: what the rule returned, and the hand-written histories
    "not_a_list_of_sentences": "stale_commits() returned {kind}, expected a list of sentences",
    "found_expected": "{what}: found {found} stale commit(s), expected {want}",
    "case_takeover": "a save with epoch 1 after epoch 2 was granted to another worker",
    "case_same_worker": "a save with epoch 1 after the same worker was granted epoch 2",
    "case_same_step": (
        "two stale workers (epochs 1 and 2) each saved step 1 after epoch 3 was granted"
    ),
    "case_refused": "with a refused save, a refused claim and saves of the current epoch",
    "case_two_tasks": "with two tasks, each with its own epochs",
    "case_highest": (
        "a broken ledger granted epoch 1 again after epoch 2, then epoch 1 saved (the highest "
        "epoch granted counts, not the last)"
    ),
    "case_order": (
        "a save after its lease ran out but before a newer claim, then one right after that "
        "claim at the same time (the order of events decides)"
    ),
    "case_cancel": "a save after a cancel (the cancel granted epoch 2)",
    "case_refused_epochs": (
        "a claim and a cancel refused at higher epochs (only an ok grants one), then a save of "
        "the current epoch"
    ),
    "unknown_outcome": (
        "with a save of an older epoch whose outcome is unknown (type info): found {found} stale "
        "commit(s), but only a save with type ok was accepted"
    ),
    "lost_claim": (
        "with a newer claim whose outcome is unknown (type info: its reply was lost): found "
        "{found} stale commit(s), but only a claim with type ok grants an epoch"
    ),
    "clock_order": (
        "on a history whose times go back (a save stamped before a newer claim but listed after "
        "it): found {found} stale commit(s); walk the events in the order the history lists them"
    ),
    "lost_cancel": (
        "with a cancel whose outcome is unknown (type info): found {found} stale commit(s), but "
        "only a cancel with type ok grants an epoch"
    ),
    "task_names": (
        "on a hidden history: found {found} stale commit(s); two tasks are the same only when "
        "their names are equal (not in a prefix, capitals, white space or Unicode form)"
    ),
    "epoch_above": (
        "a refused and an accepted save above every granted epoch, then a save of the granted "
        "epoch: found {found} stale commit(s); only a lower epoch is stale, and a save grants "
        "none, refused or not"
    ),
    "grants_kept": (
        "old saves after a release, and after a cancel and a requeue, as epochs gain a digit: "
        "found {found} stale commit(s); a release or a requeue takes no grant back, and epochs "
        "compare as numbers"
    ),
    "cancel_first": (
        "a cancel ok after the task's only claim, of unknown outcome (type info), then a save "
        "of the claimed epoch: found {found} stale commit(s); a cancel ok grants an epoch even "
        "before any claim ok"
    ),
    "hidden_sentence_names": (
        "on a hidden history, sentence {i} does not name the task of stale commit {i} whole"
    ),
    "hidden_sentence_names_other": (
        "on a hidden history, sentence {i} names another task of the history as well as its "
        "own: it must name only the task of stale commit {i}"
    ),
    "unfenced_more": (
        "on a recorded unfenced run: found {found} stale commit(s), more than the kit's rule finds"
    ),
    "unfenced_fewer": (
        "on a recorded unfenced run: found {found} stale commit(s), fewer than the kit's rule finds"
    ),
    "fenced_reported": (
        "on a recorded run with the fence on, {found} stale commit(s) were reported; there are none"
    ),
    "sentences_not": "stale_commits() must return a list of sentences (strings), not {kind}",
    "sentences_not_list_of": (
        "stale_commits() must return a list of sentences (strings), not a list of {kind}"
    ),
    "sentences_in_order": (
        "with stale commits of t7, the same save of t7 recorded again, then t3 (stamped "
        "earlier), the sentences should come one per stale commit, equal ones too, in history "
        "order, each naming its task"
    ),
    # stale-commits: generated histories, then what went wrong
    "move_save_ok": "{worker} saves {task} with epoch {epoch} (ok)",
    "move_save_refused": "{worker} saves {task} with epoch {epoch} (refused)",
    "move_claim_refused": "{worker}'s claim of {task} is refused",
    "move_claim": "{worker} claims {task} (epoch {epoch})",
    "move_cancel": "{task} is cancelled (epoch {epoch})",
    "rule_found": "your rule found {found} stale commit(s), the kit's rule finds {truth}",
    "sentence_names": ("sentence {i} ({got}) does not name {task}, the task of stale commit {i}"),
    "sentence_names_other": (
        "sentence {i} names {other} as well as {task}: it must name only the task of stale "
        "commit {i}"
    ),
    # choose-ttl: the learner's times, and what the functions returned
    "time": "1 time ({shown})",
    "count_one": "1 time",
    "count_many": "{n} times",
    "times": "{n} times ({shown})",
    "times_cut": "{n} times ({shown}, ...)",
    "not_a_list": "recovery_times() returned {kind}, expected a list",
    "times_more": (
        "{what}: recovery_times() gave {got}, more than the kit: only a crash of a task "
        "claimed again later counts, once"
    ),
    "times_fewer": (
        "{what}: recovery_times() gave {got}, fewer than the kit: every crash of a task "
        "claimed again later counts"
    ),
    "times_values": (
        "{what}: recovery_times() gave {got}, as many as the kit but other times: each runs "
        "from a crash to the next claim (ok) of its task"
    ),
    "history_small": (
        "two crashed tasks, a restart and a refused claim before they are claimed again"
    ),
    "history_recorded": "on a recorded run",
    "history_names": (
        "on a history whose tasks' names hold one another's or differ only in capitals, white "
        "space or Unicode form"
    ),
    "history_left_out": "a task crashed twice, claimed again only after the first crash",
    "history_shared_times": (
        "on a history where a crash and the next claim of its task share a time (the order of "
        "the history decides)"
    ),
    "history_taskless": (
        "on a history where a worker crashed holding no task (task None), then claimed one"
    ),
    "history_times_back": "on a history listed out of time order (its order decides)",
    "history_crash_types": (
        "on a history of two crashed tasks, one crash of another type than info, and a claim "
        "of unknown outcome (info) before a claim ok"
    ),
    "not_a_dict": "measure() returned {kind}, expected a dict",
    "changed_argument": "{fn} changed the {argument} it was given; it may only read it",
    "measure_more": (
        "measure() with a hidden ttl and hidden seeds gave a {key} above the kit's: {meaning}"
    ),
    "measure_less": (
        "measure() with a hidden ttl and hidden seeds gave a {key} below the kit's: {meaning}"
    ),
    "measure_summed": (
        "measure() with a hidden ttl and hidden seeds gave as {key} "
        "the sum over the seeds, not their mean: {meaning}"
    ),
    "measure_not_number": (
        "measure() with a hidden ttl and hidden seeds gave {key} = {got}, not a number: {meaning}"
    ),
    "measure_usual_pauses": (
        "measure() with a hidden ttl and a hidden seed, PAUSES holding another scenario for that "
        "call, gave the {key} of the usual PAUSES: read PAUSES at each call"
    ),
    "measure_own_pauses": (
        "measure() with a hidden ttl and a hidden seed, PAUSES holding another scenario for that "
        "call, gave a {key} other than what PAUSES.with_(ttl=ttl) gives"
    ),
    "meaning_duplicate_work": "duplicate_work is result.stale_rejected averaged over the seeds",
    "meaning_waiting": (
        "waiting is each run's sum of recovery_times(history), averaged over the seeds"
    ),
    "not_cheapest": (
        "on a hidden table, choose_ttl() chose {got}, not the ttl of lowest cost "
        "(duplicate_work * step_cost + waiting * wait_cost)"
    ),
    "not_cheapest_close": (
        "on a hidden table whose two cheapest costs differ by less than a hundredth, "
        "choose_ttl() chose {got}, not the ttl of lowest cost (compare the costs themselves, "
        "not rounded ones)"
    ),
    "not_cheapest_near": (
        "on a hidden table whose two cheapest costs differ by less than a billionth (but are "
        "not equal), choose_ttl() chose {got}, not the ttl of lowest cost (a tie is equal cost: "
        "compare the costs exactly, not within a tolerance such as math.isclose)"
    ),
    "not_smaller": "on a hidden table with a tie, choose_ttl() chose {got}, not the smaller ttl",
    "not_smaller_free": (
        "on a hidden table where a free cost (0) makes ttls tie, choose_ttl() chose {got}, not "
        "the smallest of the tied ttls"
    ),
    "choice_rank": (
        "the ttl ranked {rank} of {n} by cost (1 the cheapest; on a tie, the smaller ttl first)"
    ),
    # choose-ttl: generated histories and tables, then what went wrong
    "move_claims_at": "{worker} claims {task} at {at}",
    "move_refused_at": "{worker}'s claim of {task} is refused at {at}",
    "move_crashes_at": "{worker} crashes with {task} at {at}",
    "move_restarts_at": "{worker} restarts at {at}",
    "move_row": "ttl {ttl} has duplicate_work {duplicate} and waiting {waiting}",
    "move_costs": "step_cost {step} and wait_cost {wait}",
    "gave_expected_none": "recovery_times() gave {got}, expected none",
    "gave_expected": "recovery_times() gave {got}, expected {want}",
    "chose_tie": "choose_ttl() chose {got}, expected {want} (on a tie, the smaller ttl)",
    "chose_cheapest": "choose_ttl() chose {got}, expected {want} (the ttl of lowest cost)",
}

ZH = {
    "not_a_list_of_sentences": "stale_commits() 返回了 {kind}，应返回由句子组成的列表",
    "found_expected": "{what}：找到 {found} 个陈旧提交，应为 {want} 个",
    "case_takeover": "epoch 2 已授予另一个 worker 之后，一次 epoch 1 的保存",
    "case_same_worker": "同一个 worker 已获得 epoch 2 之后，一次 epoch 1 的保存",
    "case_same_step": "epoch 3 已授予之后，两个陈旧的 worker（epoch 1 和 2）各自保存了第 1 步",
    "case_refused": "有一次被拒绝的保存、一次被拒绝的领取和当前 epoch 的保存时",
    "case_two_tasks": "有两个任务、各有自己的 epoch 时",
    "case_highest": (
        "一个有缺陷的账本在 epoch 2 之后又授予了 epoch 1，随后 epoch 1 保存了"
        "（算数的是已授予的最高 epoch，而不是最后一个）"
    ),
    "case_order": (
        "一次保存在租约过期之后、更新的领取之前，另一次在同一时刻紧跟在那次领取之后"
        "（由事件的顺序决定）"
    ),
    "case_cancel": "取消之后的一次保存（取消授予了 epoch 2）",
    "case_refused_epochs": (
        "一次领取和一次取消在更高的 epoch 上被拒绝（只有 ok 才授予 epoch），然后当前 epoch 的"
        "一次保存"
    ),
    "unknown_outcome": (
        "有一次结果未知（type info）的旧 epoch 保存时：找到 {found} 个陈旧提交，"
        "但只有 type 为 ok 的保存才被接受"
    ),
    "lost_claim": (
        "有一次结果未知（type info：回复丢失）的更新领取时：找到 {found} 个陈旧提交，"
        "但只有 type 为 ok 的领取才授予 epoch"
    ),
    "clock_order": (
        "在一段时间会倒退的历史上（一次保存的时间早于更新的领取，却排在它之后）：找到 {found} 个"
        "陈旧提交；要按历史列出事件的顺序遍历"
    ),
    "lost_cancel": (
        "有一次结果未知（type info）的取消时：找到 {found} 个陈旧提交，"
        "但只有 type 为 ok 的取消才授予 epoch"
    ),
    "task_names": (
        "在一段隐藏的历史上：找到 {found} 个陈旧提交；两个任务只有在名字完全相同时才是同一个"
        "（不看前缀、大小写、空白或 Unicode 形式）"
    ),
    "epoch_above": (
        "一次被拒绝的保存和一次被接受的保存的 epoch 都高于所有已授予的 epoch，之后又有一次已授予 "
        "epoch 的保存：找到 {found} 个陈旧提交；只有更低的 epoch 才是陈旧的，而且保存不论是否"
        "被拒绝都不授予 epoch（只有成功的领取或取消才授予）"
    ),
    "grants_kept": (
        "旧 epoch 在一次交还之后、又在一次取消和一次重新排队之后保存，epoch 多了一位数：找到 "
        "{found} 个陈旧提交；交还和重新排队都不会收回已授予的 epoch，而且 epoch 要按数字比较"
    ),
    "cancel_first": (
        "任务唯一的领取结果未知（type info），之后一次成功的取消，再之后一次所领取 epoch 的"
        "保存：找到 {found} 个陈旧提交；即使还没有成功的领取，成功的取消也授予 epoch"
    ),
    "hidden_sentence_names": "在一段隐藏的历史上，第 {i} 句没有完整写出第 {i} 个陈旧提交的任务",
    "hidden_sentence_names_other": (
        "在一段隐藏的历史上，第 {i} 句除了自己的任务还写出了历史中的另一个任务："
        "它只能写出第 {i} 个陈旧提交的任务"
    ),
    "unfenced_more": (
        "在一次记录下来的无 fencing 运行上：找到 {found} 个陈旧提交，比工具包的规则找到的多"
    ),
    "unfenced_fewer": (
        "在一次记录下来的无 fencing 运行上：找到 {found} 个陈旧提交，比工具包的规则找到的少"
    ),
    "fenced_reported": "在一次开启 fencing 的记录运行上，报告了 {found} 个陈旧提交；实际一个也没有",
    "sentences_not": "stale_commits() 必须返回由句子（字符串）组成的列表，而不是 {kind}",
    "sentences_not_list_of": (
        "stale_commits() 必须返回由句子（字符串）组成的列表，而不是由 {kind} 组成的列表"
    ),
    "sentences_in_order": (
        "陈旧提交依次是 t7 的、再记录一次的同一个 t7 的保存、然后是 t3 的（时间更早）时，"
        "句子应每个陈旧提交一句（相同的句子也算），按历史顺序排列，每句都写出它的任务"
    ),
    "move_save_ok": "{worker} 用 epoch {epoch} 保存 {task}（被接受）",
    "move_save_refused": "{worker} 用 epoch {epoch} 保存 {task}（被拒绝）",
    "move_claim_refused": "{worker} 对 {task} 的领取被拒绝",
    "move_claim": "{worker} 领取 {task}（epoch {epoch}）",
    "move_cancel": "{task} 被取消（epoch {epoch}）",
    "rule_found": "你的规则找到 {found} 个陈旧提交，工具包的规则找到 {truth} 个",
    "sentence_names": "第 {i} 句（{got}）没有写出 {task}，即第 {i} 个陈旧提交的任务",
    "sentence_names_other": (
        "第 {i} 句除了 {task} 还写出了 {other}：它只能写出第 {i} 个陈旧提交的任务"
    ),
    "time": "1 个时间（{shown}）",
    "count_one": "1 个时间",
    "count_many": "{n} 个时间",
    "times": "{n} 个时间（{shown}）",
    "times_cut": "{n} 个时间（{shown}……）",
    "not_a_list": "recovery_times() 返回了 {kind}，应返回列表",
    "times_more": (
        "{what}：recovery_times() 给出了 {got}，比工具包的多："
        "只有之后被再次领取的任务的崩溃才算，而且只算一次"
    ),
    "times_fewer": (
        "{what}：recovery_times() 给出了 {got}，比工具包的少：每一次之后被再次领取的任务的崩溃都算"
    ),
    "times_values": (
        "{what}：recovery_times() 给出了 {got}，个数与工具包的相同，但时间不同："
        "每个时间从崩溃算到该任务下一次成功领取"
    ),
    "history_small": "两个崩溃的任务，在被再次领取之前有一次重启和一次被拒绝的领取",
    "history_recorded": "在一次记录下来的运行上",
    "history_names": "在一段任务名称彼此包含、或只差大小写、空白或 Unicode 形式的历史上",
    "history_left_out": "一个任务崩溃了两次，只在第一次崩溃后被再次领取",
    "history_shared_times": "在一段崩溃与其任务的下一次领取时间相同的历史上（由历史的顺序决定）",
    "history_taskless": "在一段有工作者未持有任务时崩溃（task 为 None）、之后又领取任务的历史上",
    "history_times_back": "在一段没有按时间顺序列出的历史上（由历史的顺序决定）",
    "history_crash_types": (
        "在一段历史上：两个任务崩溃后又被领取，其中一次崩溃记录的类型不是 info"
        "（每个带任务的 crash 事件都算，不论其类型），成功领取之前还有一次结果未知（info）的领取"
    ),
    "not_a_dict": "measure() 返回了 {kind}，应返回字典",
    "changed_argument": "{fn} 改动了传给它的 {argument}；它只能读取，不能修改",
    "measure_more": (
        "用隐藏的 ttl 和隐藏的种子调用 measure() 得到的 {key} 比工具包测得的多：{meaning}"
    ),
    "measure_less": (
        "用隐藏的 ttl 和隐藏的种子调用 measure() 得到的 {key} 比工具包测得的少：{meaning}"
    ),
    "measure_summed": (
        "用隐藏的 ttl 和隐藏的种子调用 measure() 得到的 {key} "
        "是各种子上的总和，而不是平均值：{meaning}"
    ),
    "measure_not_number": (
        "用隐藏的 ttl 和隐藏的种子调用 measure() 得到 {key} = {got}，这不是一个数：{meaning}"
    ),
    "measure_usual_pauses": (
        "用隐藏的 ttl 和一个隐藏的种子、且这次调用时 PAUSES 改为另一个场景调用 measure()，"
        "得到的是平常 PAUSES 下的 {key}：每次调用时都要读取 PAUSES"
    ),
    "measure_own_pauses": (
        "用隐藏的 ttl 和一个隐藏的种子、且这次调用时 PAUSES 改为另一个场景调用 measure()，"
        "得到的 {key} 不是 PAUSES.with_(ttl=ttl) 给出的值"
    ),
    "meaning_duplicate_work": "duplicate_work 是 result.stale_rejected 在各种子上的平均值",
    "meaning_waiting": "waiting 是每次运行的 recovery_times(history) 之和，再对各种子取平均",
    "not_cheapest": (
        "在一张隐藏的表上，choose_ttl() 选了 {got}，不是代价"
        "（duplicate_work * step_cost + waiting * wait_cost）最低的 ttl"
    ),
    "not_cheapest_close": (
        "在一张两个最低代价相差不到百分之一的隐藏表上，choose_ttl() 选了 {got}，"
        "不是代价最低的 ttl（应比较代价本身，而不是取整后的值）"
    ),
    "not_cheapest_near": (
        "在一张两个最低代价只差不到十亿分之一（但并不相等）的隐藏表上，choose_ttl() 选了 {got}，"
        "不是代价最低的 ttl（平局是代价相等：应精确比较代价，不要用 math.isclose 之类的容差）"
    ),
    "not_smaller": "在一张有平局的隐藏表上，choose_ttl() 选了 {got}，不是较小的 ttl",
    "not_smaller_free": (
        "在一张因某项成本免费（0）而出现平局的隐藏表上，choose_ttl() 选了 {got}，"
        "不是平局的 ttl 中最小的那个"
    ),
    "choice_rank": "按成本排第 {rank}（共 {n} 个；1 为最便宜，平局时较小的 ttl 在前）的 ttl",
    "move_claims_at": "{worker} 在 {at} 领取 {task}",
    "move_refused_at": "{worker} 在 {at} 对 {task} 的领取被拒绝",
    "move_crashes_at": "{worker} 在 {at} 带着 {task} 崩溃",
    "move_restarts_at": "{worker} 在 {at} 重启",
    "move_row": "ttl {ttl} 的 duplicate_work 为 {duplicate}，waiting 为 {waiting}",
    "move_costs": "step_cost 为 {step}，wait_cost 为 {wait}",
    "gave_expected_none": "recovery_times() 给出了 {got}，应当一个也没有",
    "gave_expected": "recovery_times() 给出了 {got}，应为 {want}",
    "chose_tie": "choose_ttl() 选了 {got}，应为 {want}（平局时选较小的 ttl）",
    "chose_cheapest": "choose_ttl() 选了 {got}，应为 {want}（代价最低的 ttl）",
}


def times_wrong(answer: Any, truth: list, what: Message | str, got: Message | str) -> Message:
    """What is wrong with the learner's recovery times against the kit's ``truth``: too many,
    too few, or as many but not the same (``what``: the history; ``got``: the times shown)."""
    if len(answer) != len(truth):
        key = "times_more" if len(answer) > len(truth) else "times_fewer"
    else:
        key = "times_values"
    return say(key, what=what, got=got)


def measure_wrong(key: str, got: Any, truth: float, seeds: int) -> Message:
    """What is wrong with the value ``got`` that measure() gave for ``key`` over ``seeds``
    seeds: not a number (named by its type), the sum over the seeds instead of their mean, or
    above or below the kit's ``truth``; with what the key measures. A number is never shown:
    one measured on the hidden ttl and seeds would tell of them."""
    if isinstance(got, bool) or not isinstance(got, (int, float)):
        wrong = "measure_not_number"
    elif seeds > 1 and math.isclose(got, truth * seeds, rel_tol=1e-9):
        wrong = "measure_summed"
    else:
        wrong = "measure_more" if got > truth else "measure_less"
    if wrong == "measure_not_number":
        return say(wrong, key=key, got=shown_number(got), meaning=say(f"meaning_{key}"))
    return say(wrong, key=key, meaning=say(f"meaning_{key}"))
