"""The story's sentences and the faults' phrases in each language (:mod:`simlab.checker.words`).

:data:`STORY` is the catalog :func:`simlab.sim.story.tell` speaks from, registered under
``"story"``; :func:`describe_in` tells one fault in a language: in English the registry's own
phrase (:func:`simlab.sim.faults.describe`), in Chinese the phrase of its kind here (every
kind of :data:`simlab.sim.faults.KINDS` has one: a plain test).
"""

from __future__ import annotations

from typing import Any

from simlab.checker.words import CATALOGS, Said, said
from simlab.sim.faults import (
    CANCEL,
    CLAIM_PAUSE,
    CRASH,
    DOC_CHANGE,
    DUPLICATE,
    EDGE_CLAIM,
    EFFECT_CRASH,
    EFFECT_PAUSE,
    KINDS,
    LATE_CALL,
    LOST_REPLY,
    PAUSE,
    RECORD_CRASH,
    REQUEUE,
    SEND_PAUSE,
    SLOW,
    WORK_PAUSE,
    describe,
)

__all__ = ["STORY", "FAULTS_ZH", "describe_in", "s"]


def s(name: str, /, **values: Any) -> Said:
    """The story's message ``name``."""
    return said("story." + name, **values)


_EN = {
    "intro": "Variant {variant}, seed {seed}: {tasks} task(s) of {steps} steps, {workers} "
    "worker(s), leases of ttl {ttl:g}.",
    "intro.own": "Your ledger, seed {seed}: {tasks} task(s) of {steps} steps, {workers} "
    "worker(s), leases of ttl {ttl:g}.",
    "original.one": "The original run had {n} faults; {k} of them is enough to break the rule.",
    "original.many": "The original run had {n} faults; {k} of them are enough to break the rule.",
    "ok": "The run broke no invariant ({n} fault(s) struck): there is nothing to shrink.",
    "line": "{t}: {said}",
    "line.fault": "{t}: fault {n}: {said}",
    "fault": "{fault}.",
    "no_trace": "Fault {n} ({fault}) left no trace in the history.",
    "breaks": "This breaks {phrase}. {sentence}",
    "breaks.more": "This breaks {phrase}. {sentence} ({more} more violation(s) follow.)",
    "minimal": "Take away any one of these faults and the replay breaks no rule at all: each "
    "of them is needed.",
    "submit": "the client submits {task}.",
    "lost": "{said} Its reply is lost: {w} will send the same call again.",
    "resent.ok": "{w} sends its {call} of {task} again (its reply was lost): the ledger "
    "accepts it.",
    "resent.fail": "{w} sends its {call} of {task} again (its reply was lost): the ledger "
    "refuses it.",
    "call.submit": "submit",
    "call.heartbeat": "heartbeat",
    "call.effect": "e-mail record",
    "call.save": "save of step {step}",
    "call.release": "release",
    "call.cancel": "cancel",
    "call.lost": "the ledger answers {w}'s {call} of {task}.",
    "the_client": "the client",
    "raised": "{w} calls {call} on {task}: the ledger raises {error} instead of answering.",
    "raised.untasked": "{w} calls {call}: the ledger raises {error} instead of answering.",
    "release.ok": "{w} (epoch {epoch}) wakes after its lease's end and releases {task}: the "
    "ledger queues it again.",
    "release.fail": "{w} (epoch {epoch}) wakes after its lease's end and releases {task}: the "
    "ledger refuses ({why}).",
    "release.timeout.ok": "{w} (epoch {epoch}) hears no answer in time and gives {task} back: "
    "the ledger queues it again.",
    "release.timeout.fail": "{w} (epoch {epoch}) hears no answer in time and gives {task} back: "
    "the ledger refuses ({why}).",
    "held": "{w} (epoch {epoch}) sends its {call} of {task}; the network holds it.",
    "late.ok": "{w}'s {call} of {task} (epoch {epoch}), held in the network, reaches the ledger "
    "now: the ledger accepts it.",
    "late.fail": "{w}'s {call} of {task} (epoch {epoch}), held in the network, reaches the "
    "ledger now: the ledger refuses it.",
    "deliver.duplicate": "the broker delivers a second copy of {task} to {w}.",
    "deliver.again": "the broker delivers {task} again, to {w}: nobody acknowledged it or "
    "heartbeat within the visibility timeout.",
    "deliver": "the broker delivers {task} to {w}.",
    "save.refused": "the ledger refuses the save of step {step} of {task} by {w} (epoch "
    "{epoch}): {why}.",
    "save": "{w} (epoch {epoch}) commits step {step} of {task}.",
    "save.done": "{w} (epoch {epoch}) commits step {step} of {task} and completes the task.",
    "save.stale": "{w} (epoch {epoch}) commits step {step} of {task}, although epoch {newest} "
    "exists: the ledger accepts it.",
    "save.done_stale": "{w} (epoch {epoch}) commits step {step} of {task} and completes the "
    "task, although epoch {newest} exists: the ledger accepts it.",
    "save.done_kept": "{w} (epoch {epoch}) commits step {step} of {task} with done=True: the "
    "ledger accepts it but leaves the task {status}, where a correct ledger completes it and "
    "ends its lease.",
    "save.done_stale_kept": "{w} (epoch {epoch}) commits step {step} of {task} with done=True, "
    "although epoch {newest} exists: the ledger accepts it but leaves the task {status}, where "
    "a correct ledger refuses the save.",
    "send": "{w} sends the e-mail {key!r} of {task}.",
    "send.again": "{w} sends the e-mail {key!r} of {task} again.",
    "crash.record": "{w} crashes right after recording the e-mail key of step {n} of {task}, "
    "before sending it: the key says sent, and no e-mail left.",
    "crash.effect": "{w} crashes right after the e-mail, before saving step {n} of {task}.",
    "crash": "{w} crashes in the middle of step {n} of {task}.",
    "pause.claim": "{w} pauses for {length:.3g} between the two statements of its claim on "
    "{task}: the epoch is bumped, the lease not yet read back.",
    "pause": "{w} (epoch {epoch}) pauses for {length:.3g} {where}; its lease lasts {ttl:g} and "
    "nobody hears from it.",
    "where": "{phrase} step {n} of {task}",
    "slow": "step {n} of {task} runs {factor:g}x slower on {w}.",
    "requeue.refused": "a user tries to requeue {task}, but it is {reason}.",
    "requeue": "a user requeues {task}: it is queued again at epoch {epoch}.",
    "publish": "the editor publishes version {version} of {doc}.",
    "plan": "{w} cannot read the checkpoint of {task} and writes nothing.",
    "claim.racy": "{w} runs the chapter's claim on {task}: an UPDATE bumps the epoch, and a "
    "SELECT reads the lease back one round trip later.",
    "claim.done": " ({n} step(s) already committed)",
    "claim.none": "",
    "claim.over": "{w} claims {task} and gets epoch {epoch}{done} while {holder}'s lease is live.",
    "claim": "{w} claims {task} and gets epoch {epoch}{done}.",
    "claim.held": "{w} tries to claim {task}, but another worker holds a live lease.",
    "claim.refused": "{w} tries to claim {task}, but it is {status}.",
    "edge.before": "2^-16 before the end of the lease it probes",
    "edge.after": "2^-16 after the end of the lease it probes",
    "edge.ok": "{w} claims {task} {side}: the ledger grants it epoch {epoch} (a prober never "
    "commits).",
    "edge.held": "{w} claims {task} {side}: the ledger refuses, a lease is live.",
    "edge.refused": "{w} claims {task} {side}: the ledger refuses, the task is {status}.",
    "heartbeat.refused": "{w}'s heartbeat on {task} is refused ({why}): {w} stops.",
    "did.heartbeat": "{w} (epoch {epoch}) renews its lease on {task}",
    "did.effect": "{w} (epoch {epoch}) records the e-mail of step {n} of {task}",
    "fenced.cancelled": "{did} after the cancel: the ledger accepts it.",
    "fenced.stale": "{did}, although epoch {newest} exists: the ledger accepts it.",
    "a_user": "a user",
    "cancel.refused": "{who} tries to cancel {task}, but it is already {reason}.",
    "cancel.kept": "{who} cancels {task}, but its epoch stays {epoch}.",
    "cancel": "{who} cancels {task}; the ledger bumps it to epoch {epoch}.",
    "why.newer": "epoch {epoch} is newer",
    "why.stale-epoch": "a newer epoch exists",
    "why.step-not-advancing": "that step was already committed",
    "why.completed": "the task is already completed",
    "why.cancelled": "the task was cancelled",
    "why.dead": "the task is dead",
    "why.queued": "the task is queued: no lease of it runs",
    "why.none": "a correct ledger accepts it",
    "cancel.wrong": "{who} tries to cancel {task}, and the ledger refuses, though it is {status}: "
    "a correct ledger cancels it.",
    "requeue.wrong": "a user tries to requeue {task}, and the ledger refuses, though it is "
    "{status}: a correct ledger requeues it.",
    "cancel.unread": "{who} cancels {task}; the ledger accepts it.",
}

_ZH = {
    "intro": "变体 {variant}，种子 {seed}：{tasks} 个任务，每个 {steps} 步，{workers} 个 worker，"
    "租约 ttl 为 {ttl:g}。",
    "intro.own": "你的账本，种子 {seed}：{tasks} 个任务，每个 {steps} 步，{workers} 个 worker，"
    "租约 ttl 为 {ttl:g}。",
    "original.one": "原来的运行有 {n} 个故障；其中 {k} 个就足以违反规则。",
    "original.many": "原来的运行有 {n} 个故障；其中 {k} 个就足以违反规则。",
    "ok": "这次运行没有违反任何不变式（发生了 {n} 个故障）：没有什么可收缩的。",
    "line": "{t}：{said}",
    "line.fault": "{t}：故障 {n}：{said}",
    "fault": "{fault}。",
    "no_trace": "故障 {n}（{fault}）没有在历史中留下痕迹。",
    "breaks": "这违反了{phrase}。{sentence}",
    "breaks.more": "这违反了{phrase}。{sentence}（后面还有 {more} 处违反。）",
    "minimal": "去掉其中任何一个故障，重放就不再违反任何规则：每一个都是必需的。",
    "submit": "客户端提交了 {task}。",
    "lost": "{said}它的回复丢失了：{w} 会再次发出同一个调用。",
    "resent.ok": "{w} 再次发出对 {task} 的{call}（回复丢失过）：账本接受了它。",
    "resent.fail": "{w} 再次发出对 {task} 的{call}（回复丢失过）：账本拒绝了它。",
    "call.submit": "提交",
    "call.heartbeat": "心跳",
    "call.effect": "邮件记录",
    "call.save": "第 {step} 步的保存",
    "call.release": "交还",
    "call.cancel": "取消",
    "call.lost": "账本回答了 {w} 对 {task} 的{call}。",
    "the_client": "客户端",
    "raised": "{w} 对 {task} 调用 {call}：账本没有作答，而是抛出了 {error}。",
    "raised.untasked": "{w} 调用 {call}：账本没有作答，而是抛出了 {error}。",
    "release.ok": "{w}（纪元 {epoch}）在租约结束后醒来，交还了 {task}：账本让它重新排队。",
    "release.fail": "{w}（纪元 {epoch}）在租约结束后醒来，交还了 {task}：账本拒绝了（{why}）。",
    "release.timeout.ok": "{w}（纪元 {epoch}）没有及时等到回答，交还了 {task}：账本让它重新排队。",
    "release.timeout.fail": "{w}（纪元 {epoch}）没有及时等到回答，交还了 {task}："
    "账本拒绝了（{why}）。",
    "held": "{w}（纪元 {epoch}）发出了对 {task} 的{call}；网络扣住了它。",
    "late.ok": "{w} 对 {task} 的{call}（纪元 {epoch}）曾被网络扣住，现在到达账本：账本接受了它。",
    "late.fail": "{w} 对 {task} 的{call}（纪元 {epoch}）曾被网络扣住，现在到达账本：账本拒绝了它。",
    "deliver.duplicate": "消息队列把 {task} 的第二份副本投递给 {w}。",
    "deliver.again": "消息队列再次把 {task} 投递给 {w}：在可见性超时内没有人确认它或发送心跳。",
    "deliver": "消息队列把 {task} 投递给 {w}。",
    "save.refused": "账本拒绝了 {w}（纪元 {epoch}）对 {task} 第 {step} 步的保存：{why}。",
    "save": "{w}（纪元 {epoch}）提交了 {task} 的第 {step} 步。",
    "save.done": "{w}（纪元 {epoch}）提交了 {task} 的第 {step} 步，完成了任务。",
    "save.stale": "{w}（纪元 {epoch}）提交了 {task} 的第 {step} 步，尽管纪元 {newest} 已经存在："
    "账本接受了它。",
    "save.done_stale": "{w}（纪元 {epoch}）提交了 {task} 的第 {step} 步，完成了任务，尽管纪元 "
    "{newest} 已经存在：账本接受了它。",
    "save.done_kept": "{w}（纪元 {epoch}）以 done=True 提交了 {task} 的第 {step} 步：账本接受了它，"
    "却让任务停留在「{status}」状态；正确的账本会完成任务并结束它的租约。",
    "save.done_stale_kept": "{w}（纪元 {epoch}）以 done=True 提交了 {task} 的第 {step} 步，"
    "尽管纪元 {newest} 已经存在：账本接受了它，却让任务停留在「{status}」状态；"
    "正确的账本会拒绝这次保存。",
    "send": "{w} 发送了 {task} 的邮件 {key!r}。",
    "send.again": "{w} 再次发送了 {task} 的邮件 {key!r}。",
    "crash.record": "{w} 刚记录完 {task} 第 {n} 步的邮件键、还没发送就崩溃了：键表示已发送，"
    "却没有邮件发出。",
    "crash.effect": "{w} 刚发完邮件、还没保存 {task} 的第 {n} 步就崩溃了。",
    "crash": "{w} 在 {task} 第 {n} 步的中途崩溃了。",
    "pause.claim": "{w} 在对 {task} 认领的两条语句之间暂停了 {length:.3g}：纪元已经提升，"
    "租约还没读回。",
    "pause": "{w}（纪元 {epoch}）{where}暂停了 {length:.3g}；它的租约为 {ttl:g}，期间没有人"
    "收到它的消息。",
    "where": "在 {task} 的第 {n} 步{phrase}",
    "slow": "{task} 的第 {n} 步在 {w} 上慢了 {factor:g} 倍。",
    "requeue.refused": "一位用户试图让 {task} 重新排队，但它处于「{reason}」状态。",
    "requeue": "一位用户让 {task} 重新排队：它以纪元 {epoch} 再次排队。",
    "publish": "编辑发布了 {doc} 的第 {version} 版。",
    "plan": "{w} 读不了 {task} 的检查点，什么也没写。",
    "claim.racy": "{w} 对 {task} 运行章节里的认领：一条 UPDATE 提升纪元，一次往返之后再由一条 "
    "SELECT 读回租约。",
    "claim.done": "（已提交 {n} 步）",
    "claim.none": "",
    "claim.over": "{w} 认领了 {task}，得到纪元 {epoch}{done}，而 {holder} 的租约仍然有效。",
    "claim": "{w} 认领了 {task}，得到纪元 {epoch}{done}。",
    "claim.held": "{w} 试图认领 {task}，但另一个 worker 持有有效租约。",
    "claim.refused": "{w} 试图认领 {task}，但它处于「{status}」状态。",
    "edge.before": "在它探测的租约结束前 2^-16 ",
    "edge.after": "在它探测的租约结束后 2^-16 ",
    "edge.ok": "{w} {side}认领 {task}：账本授予它纪元 {epoch}（探测者从不提交）。",
    "edge.held": "{w} {side}认领 {task}：账本拒绝了，租约仍然有效。",
    "edge.refused": "{w} {side}认领 {task}：账本拒绝了，任务处于「{status}」状态。",
    "heartbeat.refused": "{w} 对 {task} 的心跳被拒绝（{why}）：{w} 停止。",
    "did.heartbeat": "{w}（纪元 {epoch}）续租了 {task}",
    "did.effect": "{w}（纪元 {epoch}）记录了 {task} 第 {n} 步的邮件",
    "fenced.cancelled": "{did}，发生在取消之后：账本接受了它。",
    "fenced.stale": "{did}，尽管纪元 {newest} 已经存在：账本接受了它。",
    "a_user": "一位用户",
    "cancel.refused": "{who} 试图取消 {task}，但它已经处于「{reason}」状态。",
    "cancel.kept": "{who} 取消了 {task}，但它的纪元仍是 {epoch}。",
    "cancel": "{who} 取消了 {task}；账本把它提升到纪元 {epoch}。",
    "why.newer": "纪元 {epoch} 更新",
    "why.stale-epoch": "已有更新的纪元",
    "why.step-not-advancing": "这一步已经提交过",
    "why.completed": "任务已经完成",
    "why.cancelled": "任务已被取消",
    "why.dead": "任务已进入死信",
    "why.queued": "任务在排队：它没有正在运行的租约",
    "why.none": "正确的账本会接受它",
    "cancel.wrong": "{who} 试图取消 {task}，账本却拒绝了，尽管它处于「{status}」状态："
    "正确的账本会取消它。",
    "requeue.wrong": "一位用户试图让 {task} 重新排队，账本却拒绝了，尽管它处于「{status}」状态："
    "正确的账本会让它重新排队。",
    "cancel.unread": "{who} 取消了 {task}；账本接受了。",
}

#: Where each pause kind's point puts a worker, in Chinese (after "the step N of tK").
PAUSED_ZH = {
    "save": "保存之前",
    "work": "开始时",
    "effect": "的邮件发出之前",
    "send": "的邮件记录之后、发送之前",
}

# Where a pause puts a worker: the registry's own words in English.
_EN.update({f"paused.{k.point}": k.paused for k in KINDS.values() if k.paused is not None})
_ZH.update({f"paused.{point}": phrase for point, phrase in PAUSED_ZH.items()})

#: The story's catalog: language -> key -> template.
STORY: dict[str, dict[str, str]] = {"en": _EN, "zh": _ZH}
CATALOGS["story"] = STORY


def _step_zh(f: dict[str, Any]) -> str:
    again = f"（第 {f['attempt'] + 1} 次尝试）" if f.get("attempt") else ""
    return f"{f['task']} 的第 {f['step'] + 1} 步{again}"


def _num(x: float) -> str:
    return f"{round(float(x), 3):g}"


#: The calls a lost reply strikes, in Chinese.
_CALL_ZH = {
    "submit": "提交",
    "heartbeat": "心跳",
    "effect": "邮件记录",
    "save": "保存",
    "release": "交还",
}


def _lost_zh(f: dict[str, Any]) -> str:
    which = "第一次" if f["nth"] == 0 else f"第 {f['nth'] + 1} 次"
    return f"{f['task']} 的{which}{_CALL_ZH[f['call']]}的回复丢失，调用被重发"


def _late_zh(f: dict[str, Any]) -> str:
    which = "第一次" if f["nth"] == 0 else f"第 {f['nth'] + 1} 次"
    return (
        f"网络扣住了 {f['task']} 的{which}{_CALL_ZH[f['call']]}：它在 worker 交还任务 "
        f"{_num(f['delay'])} 之后才到达账本"
    )


def _claim_zh(f: dict[str, Any]) -> str:
    which = "第一次认领" if f["claim"] == 0 else f"第 {f['claim'] + 1} 次认领"
    return f"在 {f['task']} 的{which}的两条语句之间暂停 {_num(f['length'])}"


#: Each fault kind's phrase in Chinese, by kind name.
FAULTS_ZH = {
    CRASH.name: lambda f: f"在 {_step_zh(f)}的工作进行到 {round(100 * f['fraction'])}% 时崩溃",
    EFFECT_CRASH.name: lambda f: f"在 {_step_zh(f)}的邮件发出之后、保存之前崩溃",
    RECORD_CRASH.name: lambda f: f"在记录 {_step_zh(f)}的邮件键之后、发送之前崩溃",
    PAUSE.name: lambda f: f"在保存 {_step_zh(f)}之前暂停 {_num(f['length'])}",
    WORK_PAUSE.name: lambda f: f"在 {_step_zh(f)}的工作开始时暂停 {_num(f['length'])}",
    EFFECT_PAUSE.name: lambda f: f"就在 {_step_zh(f)}的邮件之前暂停 {_num(f['length'])}",
    SEND_PAUSE.name: lambda f: f"在记录与发送 {_step_zh(f)}的邮件之间暂停 {_num(f['length'])}",
    CLAIM_PAUSE.name: _claim_zh,
    SLOW.name: lambda f: f"{_step_zh(f)}慢了 {_num(f['factor'])} 倍",
    DUPLICATE.name: lambda f: (
        f"{f['task']} 的重复投递（"
        + ("发布时" if f["enqueue"] == 0 else f"第 {f['enqueue']} 次重新投递时")
        + "）"
    ),
    CANCEL.name: lambda f: f"一位用户在 t={_num(f['at'])} 取消了 {f['task']}",
    REQUEUE.name: lambda f: f"一位用户在 t={_num(f['at'])} 让 {f['task']} 重新排队",
    DOC_CHANGE.name: lambda f: f"编辑在 t={_num(f['at'])} 修改了 {f['doc']}",
    LOST_REPLY.name: _lost_zh,
    LATE_CALL.name: _late_zh,
    EDGE_CLAIM.name: lambda f: (
        f"{f['task']} 的{'第一次' if f['nth'] == 0 else '第 ' + str(f['nth'] + 1) + ' 次'}暂停"
        f"发生时，一个探测者在其 worker 的租约结束前 2^-16 和结束后 2^-16 各认领一次 {f['task']}"
    ),
}


def describe_in(fault: dict[str, Any], lang: str = "en") -> str:
    """One fault in ``lang`` (``"en"``: the registry's phrase)."""
    if lang == "en":
        return describe(fault)
    return FAULTS_ZH[fault["kind"]](fault)
