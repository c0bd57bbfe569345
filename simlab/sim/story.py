"""The story of a run in plain sentences: who claimed which epoch, who paused, who committed
what, and which rule broke.

:func:`tell` reads one (usually shrunk) run: its history, its fault schedule and the positions
at which the faults struck. It follows the task of the first violation from its submission to
the event that broke the rule, and adds every fault of the schedule, numbered in the order it
struck (``fault 1``, ``fault 2``...), wherever it happened. Routine events (heartbeats that
succeed, first deliveries, restarts) are left out. The last sentence names the broken rule and
quotes the checker.

:func:`fault_events` finds the history event that shows each fault (the ``pause`` event of a
pause, the duplicate ``deliver`` of a duplicate...); the story picture numbers those events.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from simlab.checker.history import Event
from simlab.checker.model import Model, TaskState
from simlab.checker.operations import status
from simlab.checker.rules import at, first_violation, rule_phrase
from simlab.checker.words import Said, render
from simlab.records import CANCELLED, COMPLETED, DEAD, QUEUED, RUNNING, TERMINAL_STATUSES
from simlab.sim.faults import KINDS, shows
from simlab.sim.story_words import describe_in, s

__all__ = ["tell", "fault_events", "first_broken"]


#: Where each kind of pause strikes, as its ``pause`` event's ``where`` says (none: ``save``).
PAUSE_WHERE = {k.name: k.point for k in KINDS.values() if k.is_pause}


def fault_events(result) -> list[Event | None]:
    """For each fault of ``result.schedule``, the first event at or after the position where it
    struck that shows it, or None (a crash planned for a step whose lease was lost first)."""
    history = result.history
    out: list[Event | None] = []
    for fault, pos in zip(result.schedule.faults, result.fault_positions, strict=True):
        out.append(next((e for e in history[pos:] if shows(fault, e)), None))
    return out


def first_broken(result, rules=None) -> tuple[int, str, str] | None:
    """``(event index, rule letter, the checker's sentence)`` of the first violation of one of
    ``rules`` (default: every rule the run broke), or None for a clean run."""
    found = first_violation(result.findings, rules)
    if found is None:
        return None
    return found.index, found.letter, found.sentence


def _intro(result, original_faults: int | None) -> list[Said]:
    sc = result.scenario
    intro = "intro.own" if getattr(result, "own_ledger", False) else "intro"
    lines = [
        s(intro, variant=sc.variant, seed=result.seed, tasks=sc.tasks, steps=sc.steps,
          workers=sc.workers, ttl=sc.ttl)
    ]  # fmt: skip
    k = len(result.schedule)
    if original_faults is not None and not result.ok:
        lines.append(s("original.one" if k == 1 else "original.many", n=original_faults, k=k))
    return lines


def tell(
    result,
    *,
    rules=None,
    original_faults: int | None = None,
    one_minimal: bool | None = None,
    lang: str = "en",
) -> list[str]:
    """The story of ``result`` as a list of sentences in ``lang`` (``"en"`` or ``"zh"``; see
    the module docstring).

    ``rules`` limits which broken rules the story is about (default: all); ``original_faults``
    and ``one_minimal`` (removing any one fault made every violation go away) add what the
    shrinker knows.
    """
    return [
        render(line, lang) for line in _story(result, rules, original_faults, one_minimal, lang)
    ]


def _story(result, rules, original_faults, one_minimal, lang: str) -> list[Said]:
    if result.ok:
        return [*_intro(result, None), s("ok", n=len(result.schedule))]
    finding = first_violation(result.findings, rules) or first_violation(result.findings)
    index, letter, sentence = finding.index, finding.letter, finding.sentence
    found = re.search(r"\bt\d+\b", sentence)
    focus = found.group(0) if found else result.history[index].task
    numbered = {}
    for n, e in enumerate(fault_events(result), start=1):
        if e is not None:
            numbered[e.index] = n
    lines = _intro(result, original_faults)
    ttl, racy = result.scenario.ttl, result.scenario.variant == "racy-claim"
    seen = _Seen({f.index: f.other for f in result.findings if f.letter == "h"})
    seen.kept = _kept(result)
    newest = seen.newest
    submitted = {e.task for e in result.history if e.op == "submit" and e.type == "ok"}
    model, applied = Model(submitted, ttl), None
    for e in result.history:
        if e.index > index:
            break
        if applied is not None:  # the model's state of each task just before its event
            model.apply(*applied)
        seen.state = None if e.task is None else model.state(e.task)
        applied = None if seen.state is None else (seen.state, e)
        if e.task is not None and e.type == "ok" and e.op == "claim":
            newest[e.task] = max(newest.get(e.task, 0), e.epoch or 0)
            seen.cancelled.discard(e.task)
        if e.index not in numbered and e.task != focus:
            continue
        told = _say(e, ttl, racy, seen)
        if told is None and e.index not in numbered:
            continue
        if told is None:
            fault = result.schedule.faults[numbered[e.index] - 1]
            told = s("fault", fault=describe_in(fault, lang))
        if e.index in numbered:
            lines.append(s("line.fault", t=at(e.time), n=numbered[e.index], said=told))
        else:
            lines.append(s("line", t=at(e.time), said=told))
        if e.task is not None and e.type == "ok" and e.op == "cancel" and e.epoch is not None:
            newest[e.task] = max(newest.get(e.task, 0), e.epoch)
            seen.cancelled.add(e.task)
    for n, e in enumerate(fault_events(result), start=1):
        if e is None:
            fault = result.schedule.faults[n - 1]
            lines.append(s("no_trace", n=n, fault=describe_in(fault, lang)))
    more = len(result.findings) - 1
    phrase = rule_phrase(letter, lang)
    if lang == "en":
        phrase = phrase[0].lower() + phrase[1:]
    told = finding.text(lang)
    if more > 0:
        lines.append(s("breaks.more", phrase=phrase, sentence=told, more=more))
    else:
        lines.append(s("breaks", phrase=phrase, sentence=told))
    if one_minimal:
        lines.append(s("minimal"))
    return lines


@dataclass
class _Seen:
    """What the story has seen so far, and the claims rule (h) names."""

    #: the index of each claim ok granted over a live lease -> the claim ok of that lease
    live: dict[int, Event]
    #: task -> the highest epoch granted (or bumped by a cancel) so far
    newest: dict[str, int] = field(default_factory=dict)
    #: tasks whose newest epoch is a cancel's
    cancelled: set[str] = field(default_factory=set)
    #: e-mail keys sent so far
    sent: set[str] = field(default_factory=set)
    #: the index of each accepted completing save the ledger did not complete -> the status
    #: it left the task in (:func:`_kept`)
    kept: dict[int, str] = field(default_factory=dict)
    #: the model's state of the task of the event being told, just before it
    state: TaskState | None = None


#: The operations whose acceptance changes a task's status in the model.
_MOVES = frozenset({"submit", "claim", "save", "cancel", "requeue", "release"})


def _kept(result) -> dict[int, str]:
    """The accepted completing saves (``done=True``) that left their task in another status
    than completed: for each task the ledger's final row does not show completed, its last
    accepted operation that moves a status in the model, when that is such a save (nothing the
    ledger accepted after it could have moved the task, so its final status is what the save
    left) -> that status. A correct ledger completes the task at that save."""
    ended = {r.task_id: r.status for r in result.final if r.status != COMPLETED}
    last: dict[str, Event] = {}
    for e in result.history:
        if e.task in ended and e.op in _MOVES and (e.type == "ok" or _buried(e)):
            last[e.task] = e
    return {
        e.index: ended[task]
        for task, e in last.items()
        if e.op == "save" and e.type == "ok" and e.value.get("done")
    }


def _buried(e: Event) -> bool:
    """Whether ``e`` is a claim the ledger refused because it moved the task to the dead
    letter (the model's one refusal that moves a status)."""
    return e.op == "claim" and e.type == "fail" and e.value.get("status") == DEAD


def _say(e: Event, ttl: float, racy: bool, seen: _Seen) -> Said | None:
    """One sentence for one event, or None for a routine one; the answer to a call whose reply
    is lost, the call's resend, a held call and its late answer, and a raise recorded as a
    call's answer are always told."""
    v = e.value
    if e.type == "invoke" and v.get("held"):  # the network holds this call
        call = s(f"call.{e.op}", step=e.step)
        return s("held", w=e.process, epoch=e.epoch, call=call, task=e.task)
    if e.type == "info" and "raised" in v:  # a raise the contract does not allow (rule (x))
        w = {"client": s("the_client"), "user": s("a_user")}.get(e.process, e.process)
        name = "raised" if e.task is not None else "raised.untasked"
        return s(name, w=w, call=v.get("call", e.op), task=e.task, error=v["raised"])
    if e.type != "invoke" and (v.get("lost") or v.get("resent")):
        call = s(f"call.{e.op}", step=e.step)
        w = s("the_client") if e.process == "client" else e.process
        if v.get("resent"):
            return s(f"resent.{e.type}", w=w, call=call, task=e.task)
        said = _say_op(e, ttl, racy, seen) or s("call.lost", w=w, call=call, task=e.task)
        return s("lost", said=said, w=w)
    if e.type != "invoke" and v.get("late"):  # a held call reaches the ledger
        call = s(f"call.{e.op}", step=e.step)
        return s(f"late.{e.type}", w=e.process, epoch=e.epoch, call=call, task=e.task)
    if e.op == "release" and e.type != "invoke":
        said = "release.timeout" if v.get("timeout") else "release"
        if e.type == "ok":
            return s(f"{said}.ok", w=e.process, epoch=e.epoch, task=e.task)
        why = _why(v, seen.state, e)
        return s(f"{said}.fail", w=e.process, epoch=e.epoch, task=e.task, why=why)
    return _say_op(e, ttl, racy, seen)


def _say_op(e: Event, ttl: float, racy: bool, seen: _Seen) -> Said | None:
    """:func:`_say` for an operation's ordinary event."""
    w, task, op, v = e.process, e.task, e.op, e.value
    newest, sent = seen.newest, seen.sent
    if op == "submit":
        return s("submit", task=task)
    if op == "deliver":
        if v.get("duplicate"):
            return s("deliver.duplicate", task=task, w=w)
        if v.get("redelivery"):
            return s("deliver.again", task=task, w=w)
        return s("deliver", task=task, w=w)
    if op == "claim":
        return _say_claim(e, racy, seen.live.get(e.index))
    if op in ("heartbeat", "effect"):
        return _say_fenced(e, seen)
    if op == "save" and e.type in ("ok", "fail"):
        if e.type == "fail":
            why = _why(v, seen.state, e)
            return s("save.refused", step=e.step, task=task, w=w, epoch=e.epoch, why=why)
        stale = newest.get(task, e.epoch) > e.epoch
        kept = seen.kept.get(e.index)
        if kept is not None:  # accepted, and the ledger did not complete the task
            name = "save.done_stale_kept" if stale else "save.done_kept"
            return s(name, w=w, epoch=e.epoch, step=e.step, task=task, newest=newest.get(task),
                     status=status(kept))  # fmt: skip
        name = (
            ("save.done" if v.get("done") else "save")
            if not stale
            else ("save.done_stale" if v.get("done") else "save.stale")
        )
        return s(name, w=w, epoch=e.epoch, step=e.step, task=task, newest=newest.get(task))
    if op == "send":
        key = v.get("key") or f"{task}:email:{e.step}"
        again = key in sent
        sent.add(key)
        return s("send.again" if again else "send", w=w, key=key, task=task)
    if op == "crash":
        if v.get("after_record"):
            return s("crash.record", w=w, n=e.step + 1, task=task)
        if v.get("after_effect"):
            return s("crash.effect", w=w, n=e.step + 1, task=task)
        return s("crash", w=w, n=e.step + 1, task=task)
    if op == "pause" and v.get("where") == "claim":
        length = float(v.get("until", e.time)) - e.time
        return s("pause.claim", w=w, length=length, task=task)
    if op == "pause":
        length = float(v.get("until", e.time)) - e.time
        point = v.get("where", "save")
        phrase = s(f"paused.{point}" if point in _PAUSED else "paused.save")
        where = s("where", phrase=phrase, n=e.step + 1, task=task)
        return s("pause", w=w, epoch=e.epoch, length=length, where=where, ttl=ttl)
    if op == "slow":
        return s("slow", n=e.step + 1, task=task, factor=v.get("factor", 1), w=w)
    if op == "cancel" and e.type != "invoke":
        return _say_cancel(e, newest, seen.state)
    if op == "requeue" and e.type != "invoke":
        if e.type == "fail" and _wrongly(seen.state, e, (CANCELLED, DEAD)):
            return s("requeue.wrong", task=task, status=status(seen.state.status))
        if e.type == "fail":
            return s("requeue.refused", task=task, reason=status(_read_status(v, seen.state)))
        return s("requeue", task=task, epoch=e.epoch)
    if op == "publish":
        return s("publish", version=v.get("version"), doc=v.get("doc"))
    if op == "plan" and e.type == "fail":
        return s("plan", w=w, task=task)
    return None


#: The points where a pause strikes (each has its words in the story's catalog).
_PAUSED = {k.point for k in KINDS.values() if k.paused is not None}


def _say_claim(e: Event, racy: bool, holder: Event | None) -> Said | None:
    w, task, v = e.process, e.task, e.value
    if "edge" in v:  # the prober's claim at the edge of a silent lease (fault edge-claim)
        if e.type == "invoke":
            return None
        side = s(f"edge.{v['edge']}")
        if e.type == "ok":
            return s("edge.ok", w=w, task=task, side=side, epoch=e.epoch)
        if v.get("reason") == "lease-held":
            return s("edge.held", w=w, task=task, side=side)
        return s("edge.refused", w=w, task=task, side=side,
                 status=status(v.get("status", v.get("reason"))))  # fmt: skip
    if e.type == "invoke" and racy:
        return s("claim.racy", w=w, task=task)
    if e.type == "ok":
        done = s("claim.done", n=e.step) if e.step else s("claim.none")
        if holder is not None:
            return s("claim.over", w=w, task=task, epoch=e.epoch, done=done, holder=holder.process)
        return s("claim", w=w, task=task, epoch=e.epoch, done=done)
    if e.type == "fail":
        if v.get("reason") == "lease-held":
            return s("claim.held", w=w, task=task)
        return s("claim.refused", w=w, task=task, status=status(v.get("status", v.get("reason"))))
    return None


def _say_fenced(e: Event, seen: _Seen) -> Said | None:
    """A heartbeat or an e-mail record: told when refused, or when accepted from a stale
    epoch (rules (i) and (j)); routine otherwise."""
    w, task, newest = e.process, e.task, seen.newest
    if e.type == "fail" and e.op == "heartbeat":
        return s("heartbeat.refused", w=w, task=task, why=_why(e.value, seen.state, e))
    if e.type != "ok" or e.epoch is None or newest.get(task, e.epoch) <= e.epoch:
        return None
    if e.op == "heartbeat":
        did = s("did.heartbeat", w=w, epoch=e.epoch, task=task)
    else:
        did = s("did.effect", w=w, epoch=e.epoch, n=e.step + 1, task=task)
    if task in seen.cancelled:
        return s("fenced.cancelled", did=did)
    return s("fenced.stale", did=did, newest=newest[task])


def _say_cancel(e: Event, newest: dict[str, int], state: TaskState | None) -> Said:
    who = s("a_user") if e.process == "user" else e.process
    if e.type == "fail" and _wrongly(state, e, (QUEUED, RUNNING)):
        return s("cancel.wrong", who=who, task=e.task, status=status(state.status))
    if e.type == "fail":
        reason = status(_read_status(e.value, state))
        return s("cancel.refused", who=who, task=e.task, reason=reason)
    if e.epoch is None:  # the read after it raised: the epoch it gave is not known
        return s("cancel.unread", who=who, task=e.task)
    before = newest.get(e.task, 0)
    if e.epoch is not None and e.epoch <= before:
        return s("cancel.kept", who=who, task=e.task, epoch=e.epoch)
    return s("cancel", who=who, task=e.task, epoch=e.epoch)


_WHY = frozenset(
    {"stale-epoch", "step-not-advancing", "completed", "cancelled", "dead", "queued", "none"}
)


def _why(v, state: TaskState | None = None, e: Event | None = None) -> Said | str:
    """Why a fenced call was refused: the reason the ledger's record read after it gives, when
    the model (``state``, the task's just before ``e``) refuses it for that reason too, else the
    model's own (:func:`_model_reason`)."""
    reason = v.get("reason", "refused")
    known = _model_reason(state, e) if state is not None and e is not None else reason
    if known is not None and known != reason:
        reason, v = known, {"reason": known}
        if known == "stale-epoch":
            v["current"] = state.epoch
    if reason == "stale-epoch" and "current" in v:
        return s("why.newer", epoch=v["current"])
    return s(f"why.{reason}") if reason in _WHY else reason


def _model_reason(s_: TaskState, e: Event) -> str | None:
    """The reason a correct ledger refuses ``e``'s fenced call for, from the model's state
    ``s_`` of its task just before it (``"none"``: it accepts the call), or None where the
    model cannot know (a task whose submit the history lacks, another worker's claim in flight,
    an e-mail key)."""
    if not s_.submitted or any(p != e.process for p in s_.inflight) or e.op == "effect":
        return None
    if s_.status in TERMINAL_STATUSES:
        return s_.status
    if e.epoch != s_.epoch:
        return "stale-epoch"
    if s_.status != RUNNING:
        return "queued"
    if e.op == "save" and (e.step is None or e.step <= s_.step):
        return "step-not-advancing"
    return "none"


def _read_status(v, state: TaskState | None) -> str | None:
    """The status a refused user call's read-back gave, or the model's where it raised."""
    reason = v.get("reason")
    return state.status if reason is None and state is not None else reason


def _wrongly(state: TaskState | None, e: Event, grants: tuple[str, ...]) -> bool:
    """Whether the model says a correct ledger grants the refused user call ``e`` (a cancel or
    a requeue, which a correct ledger grants to a task in one of ``grants``)."""
    return state is not None and state.submitted and not state.inflight and state.status in grants
