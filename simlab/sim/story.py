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

from simlab.check.history import Event
from simlab.check.rules import at, first_violation, rule_phrase
from simlab.sim.faults import KINDS, shows
from simlab.sim.schedule import describe_fault

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


def _intro(result, original_faults: int | None) -> list[str]:
    s = result.scenario
    lines = [
        f"Variant {s.variant}, seed {result.seed}: {s.tasks} task(s) of {s.steps} steps, "
        f"{s.workers} worker(s), leases of ttl {s.ttl:g}."
    ]
    k = len(result.schedule)
    if original_faults is not None and not result.ok:
        lines.append(
            f"The original run had {original_faults} faults; {k} of them "
            f"{'is' if k == 1 else 'are'} enough to break the rule."
        )
    return lines


def tell(
    result,
    *,
    rules=None,
    original_faults: int | None = None,
    one_minimal: bool | None = None,
) -> list[str]:
    """The story of ``result`` as a list of sentences (see the module docstring).

    ``rules`` limits which broken rules the story is about (default: all); ``original_faults``
    and ``one_minimal`` (removing any one fault made every violation go away) add what the
    shrinker knows.
    """
    if result.ok:
        n = len(result.schedule)
        return [
            *_intro(result, None),
            f"The run broke no invariant ({n} fault(s) struck): there is nothing to shrink.",
        ]
    index, letter, sentence = first_broken(result, rules) or first_broken(result)
    found = re.search(r"\bt\d+\b", sentence)
    focus = found.group(0) if found else result.history[index].task
    numbered = {}
    for n, e in enumerate(fault_events(result), start=1):
        if e is not None:
            numbered[e.index] = n
    lines = _intro(result, original_faults)
    ttl, racy = result.scenario.ttl, result.scenario.variant == "racy-claim"
    seen = _Seen({f.index: f.other for f in result.findings if f.letter == "h"})
    newest = seen.newest
    for e in result.history:
        if e.index > index:
            break
        if e.task is not None and e.type == "ok" and e.op == "claim":
            newest[e.task] = max(newest.get(e.task, 0), e.epoch or 0)
            seen.cancelled.discard(e.task)
        if e.index not in numbered and e.task != focus:
            continue
        said = _say(e, ttl, racy, seen)
        if said is None and e.index not in numbered:
            continue
        head = f"{at(e.time)}: "
        if e.index in numbered:
            head += f"fault {numbered[e.index]}: "
        if said is None:
            said = describe_fault(result.schedule.faults[numbered[e.index] - 1]) + "."
        lines.append(head + said)
        if e.task is not None and e.type == "ok" and e.op == "cancel" and e.epoch is not None:
            newest[e.task] = max(newest.get(e.task, 0), e.epoch)
            seen.cancelled.add(e.task)
    for n, e in enumerate(fault_events(result), start=1):
        if e is None:
            fault = result.schedule.faults[n - 1]
            lines.append(f"Fault {n} ({describe_fault(fault)}) left no trace in the history.")
    more = len(result.findings) - 1
    also = f" ({more} more violation(s) follow.)" if more > 0 else ""
    phrase = rule_phrase(letter)
    lines.append(f"This breaks {phrase[0].lower() + phrase[1:]}. {sentence}{also}")
    if one_minimal:
        lines.append(
            "Take away any one of these faults and the replay breaks no rule at all: "
            "each of them is needed."
        )
    return lines


_WHY = {
    "stale-epoch": "a newer epoch exists",
    "step-not-advancing": "that step was already committed",
    "completed": "the task is already completed",
    "cancelled": "the task was cancelled",
    "dead": "the task is dead",
}


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


def _say(e: Event, ttl: float, racy: bool, seen: _Seen) -> str | None:
    """One sentence for one event, or None for a routine one."""
    w, task, op, v = e.process, e.task, e.op, e.value
    newest, sent = seen.newest, seen.sent
    if op == "submit":
        return f"the client submits {task}."
    if op == "deliver":
        if v.get("duplicate"):
            return f"the broker delivers a second copy of {task} to {w}."
        if v.get("redelivery"):
            return (
                f"the broker delivers {task} again, to {w}: nobody acknowledged it or "
                "heartbeat within the visibility timeout."
            )
        return f"the broker delivers {task} to {w}."
    if op == "claim":
        return _say_claim(e, racy, seen.live.get(e.index))
    if op in ("heartbeat", "effect"):
        return _say_fenced(e, seen)
    if op == "save" and e.type in ("ok", "fail"):
        if e.type == "fail":
            return (
                f"the ledger refuses the save of step {e.step} of {task} by {w} "
                f"(epoch {e.epoch}): {_why(v)}."
            )
        done = " and completes the task" if v.get("done") else ""
        stale = newest.get(task, e.epoch) > e.epoch
        tail = f", although epoch {newest[task]} exists: the ledger accepts it" if stale else ""
        return f"{w} (epoch {e.epoch}) commits step {e.step} of {task}{done}{tail}."
    if op == "send":
        key = v.get("key") or f"{task}:email:{e.step}"
        again = " again" if key in sent else ""
        sent.add(key)
        return f"{w} sends the e-mail {key!r} of {task}{again}."
    if op == "crash":
        if v.get("after_record"):
            return (
                f"{w} crashes right after recording the e-mail key of step {e.step + 1} of "
                f"{task}, before sending it: the key says sent, and no e-mail left."
            )
        if v.get("after_effect"):
            return f"{w} crashes right after the e-mail, before saving step {e.step + 1} of {task}."
        return f"{w} crashes in the middle of step {e.step + 1} of {task}."
    if op == "pause" and v.get("where") == "claim":
        length = float(v.get("until", e.time)) - e.time
        return (
            f"{w} pauses for {length:.3g} between the two statements of its claim on {task}: "
            "the epoch is bumped, the lease not yet read back."
        )
    if op == "pause":
        length = float(v.get("until", e.time)) - e.time
        where = _PAUSED.get(v.get("where", "save"), "before saving")
        return (
            f"{w} (epoch {e.epoch}) pauses for {length:.3g} {where} step {e.step + 1} of "
            f"{task}; its lease lasts {ttl:g} and nobody hears from it."
        )
    if op == "slow":
        return f"step {e.step + 1} of {task} runs {v.get('factor', 1):g}x slower on {w}."
    if op == "cancel" and e.type != "invoke":
        return _say_cancel(e, newest)
    if op == "requeue" and e.type != "invoke":
        if e.type == "fail":
            return f"a user tries to requeue {task}, but it is {v.get('reason')}."
        return f"a user requeues {task}: it is queued again at epoch {e.epoch}."
    if op == "publish":
        return f"the editor publishes version {v.get('version')} of {v.get('doc')}."
    if op == "plan" and e.type == "fail":
        return f"{w} cannot read the checkpoint of {task} and writes nothing."
    return None


#: How a pause event's ``where`` reads before "step N of tK".
_PAUSED = {k.point: k.paused for k in KINDS.values() if k.paused is not None}


def _say_claim(e: Event, racy: bool, holder: Event | None) -> str | None:
    w, task, v = e.process, e.task, e.value
    if e.type == "invoke" and racy:
        return (
            f"{w} runs the chapter's claim on {task}: an UPDATE bumps the epoch, and a "
            "SELECT reads the lease back one round trip later."
        )
    if e.type == "ok":
        done = f" ({e.step} step(s) already committed)" if e.step else ""
        if holder is not None:
            return (
                f"{w} claims {task} and gets epoch {e.epoch}{done} while {holder.process}'s "
                "lease is live."
            )
        return f"{w} claims {task} and gets epoch {e.epoch}{done}."
    if e.type == "fail":
        if v.get("reason") == "lease-held":
            return f"{w} tries to claim {task}, but another worker holds a live lease."
        return f"{w} tries to claim {task}, but it is {v.get('status', v.get('reason'))}."
    return None


def _say_fenced(e: Event, seen: _Seen) -> str | None:
    """A heartbeat or an e-mail record: told when refused, or when accepted from a stale
    epoch (rules (i) and (j)); routine otherwise."""
    w, task, newest = e.process, e.task, seen.newest
    if e.type == "fail" and e.op == "heartbeat":
        return f"{w}'s heartbeat on {task} is refused ({_why(e.value)}): {w} stops."
    if e.type != "ok" or e.epoch is None or newest.get(task, e.epoch) <= e.epoch:
        return None
    if e.op == "heartbeat":
        did = f"{w} (epoch {e.epoch}) renews its lease on {task}"
    else:
        did = f"{w} (epoch {e.epoch}) records the e-mail of step {e.step + 1} of {task}"
    if task in seen.cancelled:
        return f"{did} after the cancel: the ledger accepts it."
    return f"{did}, although epoch {newest[task]} exists: the ledger accepts it."


def _say_cancel(e: Event, newest: dict[str, int]) -> str:
    who = "a user" if e.process == "user" else e.process
    if e.type == "fail":
        return f"{who} tries to cancel {e.task}, but it is already {e.value.get('reason')}."
    before = newest.get(e.task, 0)
    if e.epoch is not None and e.epoch <= before:
        return f"{who} cancels {e.task}, but its epoch stays {e.epoch}."
    return f"{who} cancels {e.task}; the ledger bumps it to epoch {e.epoch}."


def _why(v) -> str:
    reason = v.get("reason", "refused")
    if reason == "stale-epoch" and "current" in v:
        return f"epoch {v['current']} is newer"
    return _WHY.get(reason, reason)
