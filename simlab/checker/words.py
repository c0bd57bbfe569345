"""The checker's sentences in each language: a message is a key and its values, each language
renders it.

A judge returns a :class:`Said` (a key of a catalog and its named values), never a finished
string: the English rendering is the finding's ``sentence`` (what ``str()`` gives), and
:func:`render` gives the same message in Chinese. A value may itself be a :class:`Said` (a
nested phrase, rendered in the same language) or a list of values (rendered each and joined
with the language's separator); anything else is formatted as it is (numbers, task IDs, worker
names, times, e-mail keys: the same characters in every language).

The catalogs are plain dicts of ``str.format`` templates, one per language: :data:`CHECK` here
(the rules, the findings, the statuses), and any other registered in :data:`CATALOGS` by the
module that speaks it (the simulator's story registers ``"story"``). Every key of a catalog has
a template in every language of :data:`LANGS`, with the same placeholders (a plain test).
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from simlab.i18n.language import LANGS
from simlab.i18n.punctuation import joined

__all__ = [
    "LANGS",
    "Said",
    "said",
    "render",
    "CATALOGS",
    "CHECK",
    "SEPARATORS",
    "placeholders",
    "RULES_ZH",
]

#: How a list of values is joined, per language.
SEPARATORS = {"en": ", ", "zh": "、"}


@dataclass(frozen=True)
class Said:
    """A message: ``key`` (``"catalog.name"``) and its values (a tuple of pairs, so it hashes)."""

    key: str
    values: tuple[tuple[str, Any], ...] = ()

    def __str__(self) -> str:
        return render(self, "en")

    def text(self, lang: str = "en") -> str:
        return render(self, lang)


def said(key: str, /, **values: Any) -> Said:
    """The message ``key`` with ``values``."""
    return Said(key, tuple(values.items()))


def render(value: Any, lang: str = "en") -> str:
    """``value`` in ``lang``: a message from its catalog, a list joined, anything else as
    ``str()`` gives it."""
    if isinstance(value, Said):
        catalog, _, name = value.key.partition(".")
        template = CATALOGS[catalog][lang][name]
        text = template.format(**{k: _value(v, lang) for k, v in value.values})
        return text if lang == "en" else joined(text)
    return str(_value(value, lang))


def _value(value: Any, lang: str) -> Any:
    if isinstance(value, Said):
        return render(value, lang)
    if isinstance(value, list):
        return SEPARATORS[lang].join(render(v, lang) for v in value)
    return value


def placeholders(template: str) -> frozenset[str]:
    """The names a template formats."""
    return frozenset(name for _, name, _, _ in string.Formatter().parse(template) if name)


_EN = {
    # statuses, as a sentence names them
    "status.queued": "queued",
    "status.running": "running",
    "status.completed": "completed",
    "status.cancelled": "cancelled",
    "status.dead": "dead",
    "rule": "rule ({letter}), {name}: {says}",
    "a_user": "a user",
    "who": "{p} (epoch {epoch})",
    "stale.none": "no lease of epoch {epoch} had been granted",
    "stale.cancel": "it was cancelled at {t} (epoch {epoch})",
    "stale.dead": "it went to the dead letter at {t} (epoch {epoch})",
    "stale.granted": "epoch {epoch} was granted to {p} at {t}",
    "fence.above": "{did}, but no epoch above {epoch} had been granted.",
    "fence.stale": "{did}, but {why}.",
    "ending.status": "it was {status}",
    "ending.completed": "{who} completed it at {t}",
    "ending.cancelled": "it was cancelled at {t} and never requeued",
    "ending.dead": "it went to the dead letter at {t}",
    "did.save": "{who} committed step {step} of {task} at {t}",
    "did.heartbeat": "{who} renewed its lease on {task} at {t}",
    "did.effect": "{who} recorded the e-mail {key!r} of {task} at {t}",
    "effect.again": "{did} and the ledger answered True, but {by} had recorded it at {t0}: a key "
    "recorded before answers False (do not send).",
    "did.release": "{who} released {task} at {t}",
    "submit.returned": "The submit of {task} at {t} returned {got}: a submit returns the ID of "
    "the task it persisted.",
    "resubmit.accepted": "The second submit of {task} at {t} was accepted, but {task} had been "
    "submitted at {t0}: a submit of a task that exists raises and leaves it as it was.",
    "resubmit.changed": "The second submit of {task} at {t} was refused, but it left the task "
    "{got} where it was {want}: a refused submit changes nothing.",
    "resubmit.state": "{status} at step {step} with epoch {epoch}",
    "told.release": "{p}'s release of {task} with epoch {epoch} at {t}",
    "granted": "{p} was granted epoch {epoch} of {task} at {t}",
    "reused.claim": "{granted}, but epoch {epoch} had already been granted to {p} at {t}.",
    "reused.cancel": "{granted}, but the cancel at {t} had already raised it to {epoch}.",
    "reused.dead": "{granted}, but the dead letter at {t} had already raised it to {epoch}.",
    "duplicate": "{who} committed step {step} of {task} at {t}, but step {step} had already "
    "been committed by {first} at {t0}.",
    "after_cancel": "{who} completed {task} at {t}, but it was cancelled at {t0} (epoch {epoch}).",
    "regression": "{who} committed step {step} of {task} at {t}, but step {best} had already "
    "been committed by {by} at {t0}: the task went back.",
    "live": "{p} was granted epoch {epoch} of {task} at {t}, but the lease of {holder} was "
    "live until {until}.",
    "ended_claimed": "{p} was granted epoch {epoch} of {task} at {t}, but the task had ended: "
    "{ending}.",
    "no_lease.queued": "{did}, but the task was back in the queue with no lease.",
    "next.got": "claim_next handed {task} to {p} at {t}",
    "next.probe": "{got}, but it is a health probe, which claim_next never hands out.",
    "next.older": "{got}, but {why}, and it was submitted before.",
    "next.none": "claim_next handed nothing to {p} at {t}, but {why}.",
    "next.queued": "{task} was queued",
    "next.ended": "{task} could be taken over: the lease of {who} had ended at {until}",
    "no_lease.ended": "{did}, but the task had ended: {ending}.",
    "resume.names": "{p} was granted {task} at {t}, but the lease names the task {leased} and "
    "the worker {worker}: a lease names the task claimed and the worker that claimed it.",
    "resume.none": "",
    "resume.by": " (by {who} at {t})",
    "resume.checkpoint": "{p} was granted {task} at {t} with the checkpoint {got}, but the last "
    "accepted save stored {want}{by}.",
    "resume": "{p} was granted {task} at {t} to resume from step {step}, but step {last} was "
    "the last one committed{by}.",
    "cancel.ended": "{by} cancelled {task} at {t}, but {ending}.",
    "cancel.epoch": "{by} cancelled {task} at {t}, but the ledger then reports epoch {epoch}, "
    "not above the {old} it had: every lease granted before the cancel still looks current.",
    "cancel.epoch_dead": "{by} cancelled {task} at {t}, and the ledger then reports epoch "
    "{epoch}, but the dead letter at {t0} had already raised it to at least {old}: the dead "
    "letter did not raise the epoch, or the cancel did not.",
    "requeue.status": "{by} requeued {task} at {t}, but it was {status}: only a cancelled or "
    "dead task goes back to the queue.",
    "requeue.epoch": "{by} requeued {task} at {t}, and the ledger then reports epoch {new}, "
    "below the {old} it had: old leases could match the next claims.",
    "requeue.kept": "{by} requeued {task} at {t}, and the ledger then reports epoch {new}, but "
    "the cancel at {t0} left it at {old}: a requeue keeps the epoch (only claims, cancels and "
    "the dead letter raise it).",
    "requeue.epoch_dead": "{by} requeued {task} at {t}, and the ledger then reports epoch "
    "{new}, but the dead letter at {t0} had already raised it to at least {old}: the dead "
    "letter did not raise the epoch.",
    "lease_length": "{p} was granted {task} at {t} until {until}, but a lease of ttl {ttl:g} "
    "runs until {hi}.",
    "lease_length.heartbeat": "{p}'s heartbeat on {task} with epoch {epoch} at {t} was "
    "accepted, and the ledger then shows its lease running until {until}, but a heartbeat "
    "with ttl {ttl:g} extends it until {hi}.",
    "lease_length.none": "{p} was granted {task} at {t} with epoch {epoch}, but the lease names "
    "no end, and a lease of ttl {ttl:g} runs until {hi}.",
    "lease_length.heartbeat_none": "{p}'s heartbeat on {task} with epoch {epoch} at {t} was "
    "accepted, but the ledger then shows the task with no lease end, and a heartbeat with ttl "
    "{ttl:g} extends it until {hi}.",
    "record.none": "its key had not been recorded",
    "record.other": "{who} had recorded its key at {t}, so only it may send",
    "record": "{who} sent the e-mail {key!r} of {task} at {t}, but {why}.",
    "told.claim": "{p}'s claim of {task} at {t}",
    "told.save": "{p}'s save of {task} at step {step} with epoch {epoch} at {t}",
    "told.heartbeat": "{p}'s heartbeat on {task} with epoch {epoch} at {t}",
    "told.effect": "{p}'s record of the e-mail {key!r} of {task} with epoch {epoch} at {t}",
    "told.cancel": "{p}'s cancel of {task} at {t}",
    "told.requeue": "{p}'s requeue of {task} at {t}",
    "told.submit": "the submit of {task} at {t}",
    "told.claim_next": "{p}'s claim_next at {t}",
    "told.read": "{p}'s {call} of {task} at {t}",
    "told.read_all": "{p}'s {call}() at {t}",
    "raised": "{told} raised {error}: a correct ledger {answer}.",
    "answer.true": "answers True",
    "answer.false": "answers False",
    "answer.bool": "answers True or False",
    "answer.lease": "grants a lease",
    "answer.lease_held": "raises LeaseHeld",
    "answer.terminal": "raises TerminalTask",
    "answer.exists": "raises LedgerError",
    "answer.id": "answers the task's ID",
    "answer.next": "answers a lease or None",
    "answer.read": "answers the read",
    "answer.contract": "answers as the contract says",
    "current": "epoch {epoch} was current",
    "current.granted": "epoch {epoch} was current (granted to {p} at {t})",
    "current.save": "{current} and step {step} above the committed step {committed}",
    "current.effect": "{current} and the key had not been recorded",
    "refused.fenced": "{told} was refused, but {why}: a correct ledger accepts it.",
    "read.value": "{field} {value}",
    "read.field.status": "status",
    "read.field.step": "step",
    "read.field.epoch": "epoch",
    "read.field.lease_until": "lease_until",
    "read.field.checkpoint": "checkpoint",
    "read.none": "None",
    "read.refused": "{told} was refused, and the ledger then reports {got} where a correct "
    "ledger holds {want}: a refused call changes nothing, so this call or an earlier one left the "
    "task wrong.",
    "read.release": "{did}, yet the ledger then reports {got}, not {want}: a released task is "
    "queued, keeps its step and epoch, and holds no lease.",
    "refused.cancel": "{told} was refused, but it was {status}: a correct ledger cancels it.",
    "refused.requeue": "{told} was refused, but it was {status}: a correct ledger requeues it.",
    "refused.dead": "{told} was refused for the dead letter, but the task's count of attempts "
    "was {n}, below its limit of {limit}: a correct ledger grants it.",
    "refused.dead_unlimited": "{told} was refused for the dead letter, but the ledger has no "
    "limit on attempts: a correct ledger grants it.",
    "refused.dead_ended": "{told} moved the task to the dead letter, but {ending}: a correct "
    "ledger refuses it as terminal and leaves the task as it ended.",
    "refused.as": "{told} was refused ({reason})",
    "refused.terminal": "{as_reason}, but {ending}: a correct ledger refuses it as terminal.",
    "refused.terminal_status": "{told} was refused as terminal with the task {said}, but "
    "{ending}: a correct ledger's refusal says the status the task ended with.",
    "refused.holder": "{told} was refused as lease-held by {named!r}, but {who} held the "
    "lease: a correct ledger's refusal names the worker that holds it.",
    "refused.queued": "{as_reason}, but the task was queued: a correct ledger grants it.",
    "holder.of": "the lease of {who}",
    "holder.the": "the lease",
    "holder.whose": "{who}'s lease",
    "holder.a": "a lease",
    "refused.ended": "{as_reason}, but {holder} had ended at {until}: a correct ledger grants it.",
    "refused.live": "{as_reason}, but {holder} was live until {until}: a correct ledger refuses "
    "it as lease-held.",
    "attempt_limit": "{p} was granted {task} at {t} for attempt {n}, but its limit on attempts "
    "is {limit}: the claim must move it to the dead letter.",
    "attempts.lease": "{p} was granted {task} at {t} with a lease that tells attempt {n}, but "
    "it is claim {m} since the task was submitted or last requeued.",
    # the rules judged on a whole run
    "short.by": ": {who} marked it done at {t}",
    "short": "{task} ended completed at step {step} of {k}{by}.",
    "short.long": "{task} ended completed at step {step}, but it has only {k} steps{by}.",
    "resent": "{who} sent the e-mail {key!r} of {task} again at {t}, although {first} had sent "
    "it at {t0} ({n} copies in all).",
    "stuck.of": " of {k}",
    "stuck": "{task} ended {status} at step {step}{of_k} (epoch {epoch}), although faults "
    "stopped at {off} and the run went on until {end}.",
    "stuck.idle": "{task} ended {status} at step {step}{of_k} (epoch {epoch}): faults stopped "
    "at {off}, and no worker moved it after that.",
    "listing": "{task} was submitted at {t}, but the ledger's listing of its tasks leaves it out.",
    "listing.order": "the ledger's listing of its tasks puts {a} before {b}, but {b} was "
    "submitted first (at {t}): it lists the tasks in submit order.",
    "listing.twice": "the ledger's listing of its tasks holds {task} {n} times: it lists every "
    "task once.",
    "listing.status": "the ledger's tasks(status) lists {listed} as {s}, but its listing holds "
    "{held} as {s}: each status lists exactly those tasks, in the listing's order.",
    "listing.other": "{task} ({s})",
    "listing.counts": "the ledger's counts() says {counted}, but its listing holds {held}.",
    "listing.count": "{s} {n}",
    "views.status": "at {t}, while tasks ran, the ledger's tasks(status) listed {listed} as "
    "{s}, but the tasks {s} then were {held}.",
    "views.counts": "at {t}, while tasks ran, the ledger's counts() said {counted}, but the "
    "tasks then were {held}.",
    "views.lease": "at {t}, while tasks ran, the ledger's tasks(status) listed {task} as running "
    "with the holder {worker} and the lease end {until}, but {holder} held its lease then, "
    "until {given}.",
    "lease.no_end": "none",
    "final.state": "the ledger says {status} at step {step} (epoch {epoch}), but its accepted "
    "operations leave it {mstatus} at step {mstep} (epoch {mepoch})",
    "final.no_result": "it holds no result, but {who} completed it with one",
    "final.checkpoint": "it holds the checkpoint {got}, but the last accepted save stored {want}",
    "final.submitted": "its {field} is {got}, but it was submitted with {want}",
    "final.result": "its result names {p} (epoch {epoch}), but {who} completed it",
    "final.keys": "the ledger holds the e-mail keys {stored}, but the accepted records were "
    "{accepted}",
    "final.clock": "its {field} is {value}, but the ledger's clock read {lo} to {hi} then (time "
    "comes from the clock the ledger was given, never from the wall)",
    "final.clock_key": "its key {key!r} was recorded at {value}, but the ledger's clock read {t} "
    "when it was recorded",
    "final.key_writer": "its key {key!r} is listed for the task {listed} and the worker {worker}, "
    "but {who} recorded it for {task}",
    "final.keys_listed": "the ledger lists the e-mail keys {stored}, but the accepted records "
    "were {accepted}, each listed once in the order recorded",
    "final.worker": "its record names the worker {worker}, but {who} was granted its last claim",
    "final.attempts": "its record's count of attempts is {n}, but {m} claim(s) were granted "
    "since it was submitted or last requeued",
    "final.lease": "its record holds a lease until {until}, but a task that is {status} holds no "
    "lease (lease_until None)",
    "worker.none": "none",
    "keys.none": "none",
    "key": "{key!r} (epoch {epoch})",
    "final": "{task}: {wrong}.",
    "final.and": "{a}; {b}",
}

_ZH = {
    "status.queued": "排队中",
    "status.running": "运行中",
    "status.completed": "已完成",
    "status.cancelled": "已取消",
    "status.dead": "死信",
    "rule": "规则（{letter}）「{name}」：{says}",
    "a_user": "一位用户",
    "who": "{p}（纪元 {epoch}）",
    "stale.none": "纪元 {epoch} 的租约从未发出",
    "stale.cancel": "它已在 {t} 被取消（纪元 {epoch}）",
    "stale.dead": "它已在 {t} 进入死信（纪元 {epoch}）",
    "stale.granted": "纪元 {epoch} 已在 {t} 发给 {p}",
    "fence.above": "{did}，但从未发出高于 {epoch} 的纪元。",
    "fence.stale": "{did}，但{why}。",
    "ending.status": "它处于「{status}」状态",
    "ending.completed": "{who}已在 {t} 完成了它",
    "ending.cancelled": "它已在 {t} 被取消，且从未重新排队",
    "ending.dead": "它已在 {t} 进入死信",
    "did.save": "{who}在 {t} 提交了 {task} 的第 {step} 步",
    "did.heartbeat": "{who}在 {t} 续租了 {task}",
    "did.effect": "{who}在 {t} 记录了 {task} 的邮件 {key!r}",
    "effect.again": "{did}，账本返回了 True，但 {by}已在 {t0} 记录过它：已记录过的键应返回 False"
    "（不要发送）。",
    "did.release": "{who}在 {t} 交还了 {task}",
    "submit.returned": "{t} 对 {task} 的提交返回了 {got}：提交应返回它所保存的任务的编号。",
    "resubmit.accepted": "{t} 对 {task} 的第二次提交被接受了，但 {task} 已在 {t0} 提交过："
    "提交一个已存在的任务会抛出错误，并保持它原样。",
    "resubmit.changed": "{t} 对 {task} 的第二次提交被拒绝了，但它把任务变成了{got}，"
    "而它本是{want}：被拒绝的提交不改变任何东西。",
    "resubmit.state": "「{status}」、第 {step} 步、纪元 {epoch}",
    "told.release": "{p} 在 {t} 以纪元 {epoch} 对 {task} 的交还",
    "granted": "{p} 在 {t} 获得了 {task} 的纪元 {epoch}",
    "reused.claim": "{granted}，但纪元 {epoch} 早已在 {t} 发给 {p}。",
    "reused.cancel": "{granted}，但 {t} 的取消早已把纪元升到 {epoch}。",
    "reused.dead": "{granted}，但 {t} 的死信早已把纪元升到 {epoch}。",
    "duplicate": "{who}在 {t} 提交了 {task} 的第 {step} 步，但第 {step} 步早已由 {first}在 "
    "{t0} 提交。",
    "after_cancel": "{who}在 {t} 完成了 {task}，但它已在 {t0} 被取消（纪元 {epoch}）。",
    "regression": "{who}在 {t} 提交了 {task} 的第 {step} 步，但第 {best} 步早已由 {by}在 "
    "{t0} 提交：任务倒退了。",
    "live": "{p} 在 {t} 获得了 {task} 的纪元 {epoch}，但 {holder}的租约在 {until} 之前仍然有效。",
    "ended_claimed": "{p} 在 {t} 获得了 {task} 的纪元 {epoch}，但任务已经结束：{ending}。",
    "no_lease.queued": "{did}，但任务已回到队列，没有租约。",
    "next.got": "claim_next 在 {t} 把 {task} 交给了 {p}",
    "next.probe": "{got}，但它是健康探针，claim_next 从不交出健康探针。",
    "next.older": "{got}，但{why}，而且它提交得更早。",
    "next.none": "claim_next 在 {t} 什么也没有交给 {p}，但{why}。",
    "next.queued": "{task} 正在排队",
    "next.ended": "{task} 可以被接管：{who}的租约已在 {until} 结束",
    "no_lease.ended": "{did}，但任务已经结束：{ending}。",
    "resume.names": "{p} 在 {t} 获得了 {task}，但租约上写的任务是 {leased}、工作者是 {worker}："
    "租约应写明被认领的任务和认领它的工作者。",
    "resume.none": "",
    "resume.by": "（由 {who}在 {t} 提交）",
    "resume.checkpoint": "{p} 在 {t} 获得了 {task}，拿到的检查点是 {got}，但最后一次被接受的保存"
    "存的是 {want}{by}。",
    "resume": "{p} 在 {t} 获得了 {task}，从第 {step} 步继续，但最后提交的是第 {last} 步{by}。",
    "cancel.ended": "{by} 在 {t} 取消了 {task}，但{ending}。",
    "cancel.epoch": "{by} 在 {t} 取消了 {task}，但账本随后报告的纪元是 {epoch}，并不高于它原来的 "
    "{old}：取消之前发出的每个租约看起来都仍是当前的。",
    "cancel.epoch_dead": "{by} 在 {t} 取消了 {task}，账本随后报告的纪元是 {epoch}，但 {t0} 的死信"
    "已把它提高到至少 {old}：死信没有提高纪元，或者这次取消没有提高。",
    "requeue.status": "{by} 在 {t} 让 {task} 重新排队，但它处于「{status}」状态：只有已取消"
    "或死信的任务才能回到队列。",
    "requeue.epoch": "{by} 在 {t} 让 {task} 重新排队，账本随后报告的纪元是 {new}，低于它原来的 "
    "{old}：旧租约可能与之后的认领相符。",
    "requeue.kept": "{by} 在 {t} 让 {task} 重新排队，账本随后报告的纪元是 {new}，但 {t0} 的取消"
    "把它留在了 {old}：重新排队保持纪元不变（只有认领、取消和死信会提高它）。",
    "requeue.epoch_dead": "{by} 在 {t} 让 {task} 重新排队，账本随后报告的纪元是 {new}，但 {t0} "
    "的死信已把它提高到至少 {old}：死信没有提高纪元。",
    "lease_length": "{p} 在 {t} 获得了 {task}，租约到 {until}，但 ttl 为 {ttl:g} 的租约应到 {hi}。",
    "lease_length.heartbeat": "{p} 在 {t} 以纪元 {epoch} 为 {task} 发出的心跳被接受了，账本随后"
    "显示租约到 {until}，但 ttl 为 {ttl:g} 的心跳应把它延长到 {hi}。",
    "lease_length.none": "{p} 在 {t} 以纪元 {epoch} 获得了 {task}，但租约没有写明到期时间，"
    "而 ttl 为 {ttl:g} 的租约应到 {hi}。",
    "lease_length.heartbeat_none": "{p} 在 {t} 以纪元 {epoch} 为 {task} 发出的心跳被接受了，"
    "但账本随后显示这个任务没有租约到期时间，而 ttl 为 {ttl:g} 的心跳应把它延长到 {hi}。",
    "record.none": "它的键尚未被记录",
    "record.other": "{who}已在 {t} 记录了它的键，只有它可以发送",
    "record": "{who}在 {t} 发送了 {task} 的邮件 {key!r}，但{why}。",
    "told.claim": "{p} 在 {t} 对 {task} 的认领",
    "told.save": "{p} 在 {t} 以纪元 {epoch} 对 {task} 第 {step} 步的保存",
    "told.heartbeat": "{p} 在 {t} 以纪元 {epoch} 对 {task} 的心跳",
    "told.effect": "{p} 在 {t} 以纪元 {epoch} 对 {task} 的邮件 {key!r} 的记录",
    "told.cancel": "{p} 在 {t} 对 {task} 的取消",
    "told.requeue": "{p} 在 {t} 对 {task} 的重新排队",
    "told.submit": "{t} 对 {task} 的提交",
    "told.claim_next": "{p} 在 {t} 的 claim_next",
    "told.read": "{p} 在 {t} 对 {task} 的 {call}",
    "told.read_all": "{p} 在 {t} 的 {call}()",
    "raised": "{told}抛出了 {error}：正确的账本会{answer}。",
    "answer.true": "返回 True",
    "answer.false": "返回 False",
    "answer.bool": "返回 True 或 False",
    "answer.lease": "发出租约",
    "answer.lease_held": "抛出 LeaseHeld",
    "answer.terminal": "抛出 TerminalTask",
    "answer.exists": "抛出 LedgerError",
    "answer.id": "返回任务的 ID",
    "answer.next": "返回一个租约或 None",
    "answer.read": "返回读到的内容",
    "answer.contract": "按契约作答",
    "current": "纪元 {epoch} 是当前纪元",
    "current.granted": "纪元 {epoch} 是当前纪元（在 {t} 发给 {p}）",
    "current.save": "{current}，且第 {step} 步高于已提交的第 {committed} 步",
    "current.effect": "{current}，且该键尚未被记录",
    "refused.fenced": "{told}被拒绝了，但{why}：正确的账本会接受它。",
    "read.value": "{field}为 {value}",
    "read.field.status": "状态",
    "read.field.step": "步骤",
    "read.field.epoch": "纪元",
    "read.field.lease_until": "租约到期时间",
    "read.field.checkpoint": "检查点",
    "read.none": "无",
    "read.refused": "{told}被拒绝了，账本随后报告 {got}，而正确的账本此时是 {want}：被拒绝的调用"
    "什么也不改变，所以是这次调用或更早的某次调用把任务改错了。",
    "read.release": "{did}，但账本随后报告 {got}，而不是 {want}：交还后的任务在排队中，保留它的"
    "步骤和纪元，不持有租约。",
    "refused.cancel": "{told}被拒绝了，但它处于「{status}」状态：正确的账本会取消它。",
    "refused.requeue": "{told}被拒绝了，但它处于「{status}」状态：正确的账本会让它重新排队。",
    "refused.dead": "{told}因死信被拒绝，但任务只用了 {limit} 次尝试中的 {n} 次：正确的账本"
    "会批准它。",
    "refused.dead_unlimited": "{told}因死信被拒绝，但账本没有尝试次数上限：正确的账本会批准它。",
    "refused.dead_ended": "{told}把任务移入了死信，但{ending}：正确的账本会以 terminal 拒绝它，"
    "并让任务保持它结束时的样子。",
    "refused.as": "{told}被拒绝（{reason}）",
    "refused.terminal": "{as_reason}，但{ending}：正确的账本会以 terminal 拒绝它。",
    "refused.terminal_status": "{told}以 terminal 被拒绝，说任务「{said}」，但{ending}：正确的"
    "账本在拒绝时说出任务结束时的状态。",
    "refused.holder": "{told}以 lease-held 被拒绝，说持有者是 {named!r}，但持有租约的是{who}："
    "正确的账本在拒绝时说出持有租约的工作者。",
    "refused.queued": "{as_reason}，但任务在排队：正确的账本会批准它。",
    "holder.of": "{who}的租约",
    "holder.the": "租约",
    "holder.whose": "{who}的租约",
    "holder.a": "一个租约",
    "refused.ended": "{as_reason}，但{holder}已在 {until} 结束：正确的账本会批准它。",
    "refused.live": "{as_reason}，但{holder}在 {until} 之前仍然有效：正确的账本会以 "
    "lease-held 拒绝它。",
    "attempt_limit": "{p} 在 {t} 获得了 {task} 的第 {n} 次尝试，但上限是 {limit} 次：这次认领"
    "必须把它移入死信。",
    "attempts.lease": "{p} 在 {t} 获得了 {task}，租约写的是第 {n} 次尝试，但这是任务提交或上次"
    "重新排队以来的第 {m} 次认领。",
    "short.by": "：{who}在 {t} 把它标为完成",
    "short": "{task} 以「已完成」结束，却停在第 {step} 步（共 {k} 步）{by}。",
    "short.long": "{task} 以「已完成」结束，停在第 {step} 步，但它只有 {k} 步{by}。",
    "resent": "{who}在 {t} 再次发送了 {task} 的邮件 {key!r}，尽管 {first}已在 {t0} 发送过"
    "（共 {n} 份）。",
    "stuck.of": "（共 {k} 步）",
    "stuck": "{task} 结束时处于「{status}」状态，停在第 {step} 步{of_k}（纪元 {epoch}），尽管"
    "故障在 {off} 停止，运行一直持续到 {end}。",
    "stuck.idle": "{task} 结束时处于「{status}」状态，停在第 {step} 步{of_k}（纪元 {epoch}）：故障"
    "在 {off} 停止，此后再没有工作者推进它。",
    "listing": "{task} 在 {t} 提交，但账本的任务列表漏掉了它。",
    "listing.order": "账本的任务列表把 {a} 排在 {b} 前面，但 {b} 先提交（在 {t}）：任务列表应按"
    "提交顺序排列。",
    "listing.twice": "账本的任务列表中 {task} 出现了 {n} 次：每个任务只应列出一次。",
    "listing.status": "账本按状态列出的「{s}」任务是 {listed}，但它的任务列表中处于「{s}」状态的"
    "是 {held}：每个状态应恰好列出这些任务，顺序与任务列表相同。",
    "listing.other": "{task}（{s}）",
    "listing.counts": "账本按状态的计数是{counted}，但它的任务列表中是{held}。",
    "listing.count": "「{s}」{n} 个",
    "views.status": "在 {t}，任务仍在运行时，账本按状态列出的「{s}」任务是 {listed}，但当时"
    "处于「{s}」状态的任务是 {held}。",
    "views.counts": "在 {t}，任务仍在运行时，账本按状态的计数是{counted}，但当时的任务是{held}。",
    "views.lease": "在 {t}，任务仍在运行时，账本按状态列出的「运行中」任务 {task} 的持有者是 "
    "{worker}、租约结束时间是 {until}，但当时持有它的租约的是 {holder}，租约到 {given}。",
    "lease.no_end": "无",
    "final.state": "账本说它处于「{status}」状态，在第 {step} 步（纪元 {epoch}），但被接受的"
    "操作使它处于「{mstatus}」状态，在第 {mstep} 步（纪元 {mepoch}）",
    "final.no_result": "它没有结果，但 {who}完成它时带有结果",
    "final.checkpoint": "它保存的检查点是 {got}，但最后一次被接受的保存存的是 {want}",
    "final.submitted": "它的 {field} 是 {got}，但提交时给的是 {want}",
    "final.result": "它的结果写的是 {p}（纪元 {epoch}），但完成它的是 {who}",
    "final.keys": "账本保存的邮件键是 {stored}，但被接受的记录是 {accepted}",
    "final.clock": "它的 {field} 是 {value}，但账本的时钟当时读数在 {lo} 到 {hi} 之间（时间来自交给"
    "账本的时钟，绝不来自墙上时钟）",
    "final.clock_key": "它的键 {key!r} 记录于 {value}，但记录时账本的时钟读数是 {t}",
    "final.key_writer": "它的键 {key!r} 列出的任务是 {listed}、工作者是 {worker}，"
    "但这个键是 {who} 为 {task} 记录的",
    "final.keys_listed": "账本列出的邮件键是 {stored}，但它们按记录顺序、每个一次应是 {accepted}",
    "final.worker": "它的记录写的工作者是 {worker}，但最后一次认领批准给了 {who}",
    "final.attempts": "它的记录计了 {n} 次尝试，但自提交或上次重新排队以来批准了 {m} 次认领",
    "final.lease": "它的记录持有一个到 {until} 的租约，但处于「{status}」状态的任务不持有租约"
    "（lease_until 为 None）",
    "worker.none": "无",
    "keys.none": "无",
    "key": "{key!r}（纪元 {epoch}）",
    "final": "{task}：{wrong}。",
    "final.and": "{a}；{b}",
}

#: The checker's catalog: language -> key -> template.
CHECK: dict[str, dict[str, str]] = {"en": _EN, "zh": _ZH}
#: Every catalog by the name its keys start with.
CATALOGS: dict[str, Mapping[str, Mapping[str, str]]] = {"check": CHECK}

#: Each rule of :data:`simlab.checker.rules.RULES` in Chinese, by letter: (name, the promise).
RULES_ZH: dict[str, tuple[str, str]] = {
    "a": ("过期提交", "只有带着任务最新纪元的保存才会被接受（新的认领或取消会让所有旧租约过期）"),
    "a'": ("重复纪元", "每次认领发出的纪元都高于任务曾有过的任何纪元，包括取消带来的提升"),
    "b": ("重复提交", "任务的每一步至多有一次被接受的保存"),
    "c": ("取消后完成", "已取消的任务不会完成，除非重新排队把它带回来"),
    "d": ("步骤倒退", "任务已提交的步骤从不倒退"),
    "e": ("提前完成", "已完成的任务包含它的全部步骤"),
    "f": ("重发邮件", "带幂等键的邮件至多发送一次"),
    "g": ("活性", "故障停止后，每个未被取消、未进入死信的任务最终都会完成"),
    "h": ("两个有效租约", "任务在另一个租约仍有效时不会被认领"),
    "i": ("过期心跳", "只有带着任务最新纪元的心跳才会被接受"),
    "j": (
        "过期邮件记录",
        "只有带着任务最新纪元才能记录邮件键，且每个键只记录一次（已记录过的键返回 False）",
    ),
    "k": (
        "认领已结束的任务",
        "已完成、已取消或死信的任务不会被认领（重新排队会把已取消或死信的任务带回来）",
    ),
    "l": ("没有运行中的租约", "只有任务在运行时，保存、心跳或邮件记录才会被接受"),
    "v": (
        "提交",
        "提交返回它所保存的任务的编号；对已存在任务的第二次提交会抛出错误，并保持任务原样",
    ),
    "w": ("交还", "只有带着任务最新纪元、且任务在运行时，交还才会被接受"),
    "z": (
        "运行中的视图",
        "在任务运行时（最后一个任务提交时和故障停止时）读取的按状态计数和按状态列出的任务，把每个"
        "任务按它当时的状态计数和列出，运行中的任务连同它的持有者和租约结束时间",
    ),
    "y": (
        "读回",
        "被拒绝的保存、心跳、邮件记录或交还什么也不改变（任务读回时与之前一样），被接受的交还让"
        "任务回到排队中且不持有租约",
    ),
    "m": (
        "续做步骤",
        "认领得到的租约写明被认领的任务和认领它的工作者，并从任务最后提交的步骤继续，"
        "带回该步保存时存下的检查点",
    ),
    "n": ("取消", "只有排队中或运行中的任务才能被取消，且取消会提升它的纪元"),
    "o": ("重新排队", "只有已取消或死信的任务才能重新排队，且它保持原来的纪元"),
    "p": (
        "最终状态",
        "账本的最终记录（状态、步骤、纪元、结果、检查点、持有者、尝试次数、任务不在运行时没有租约、"
        "按记录顺序的邮件键）正是被接受的操作所造成的，每个任务保留提交时的租户和目标，"
        "且它的任务列表按提交顺序、每个任务只出现一次，按状态的列表和计数也与之一致",
    ),
    "q": ("租约长度", "认领的租约及每次心跳对它的延长，都持续 worker 请求的 ttl"),
    "r": ("先记录后发送", "带键的邮件只能从记录该键被接受的那个租约发出"),
    "t": (
        "尝试上限",
        "每个租约写明它是第几次尝试（从提交或上次重新排队算起的认领，含这一次）；任务的认领超过 "
        "max_attempts 次后，下一次认领会把它移入死信，而不是发出租约",
    ),
    "u": (
        "认领下一个",
        "「认领下一个」交出按提交顺序最早的可认领任务（排队中的，或租约已结束的运行中任务），"
        "从不交出健康探针，只有在没有可认领的任务时才什么也不交出",
    ),
    "x": (
        "抛出代替回答",
        "账本只抛出契约允许该调用抛出的异常（被拒绝的认领、重复的提交）：其他调用都要作答，"
        "抛出时会写明正确的账本给出的回答",
    ),
    "s": (
        "错误拒绝",
        "账本只拒绝契约要求拒绝的操作：对排队中的任务或租约已结束的任务的认领、更高步骤的保存、"
        "运行中任务以当前纪元进行的心跳、交还或新邮件键记录、对排队中或运行中任务的取消，以及对已取消"
        "或死信任务的重新排队，都会被接受；认领被拒绝时给出真实原因，并说出有效租约的持有者或已结束"
        "任务结束时的状态",
    ),
}
