"""The rules judged one accepted operation at a time, against the protocol's model.

Each function here is an *event rule* of :data:`simlab.check.rules.RULES`: it is handed the
task's state just before the event (:class:`simlab.check.model.TaskState`), the accepted event
and the model, and returns ``(sentence, other)`` when the operation breaks its promise (``other``
is the event it conflicts with, or None), else None. Pure functions; the sentence helpers
(:func:`at`, :func:`who`) are shared with :mod:`simlab.check.outcomes`.
"""

from __future__ import annotations

from collections.abc import Callable

from simlab.check.history import Event
from simlab.check.model import ENDED, TOLERANCE, Model, TaskState, live
from simlab.records import CANCELLED, COMPLETED, DEAD, QUEUED, RUNNING

__all__ = [
    "at",
    "who",
    "EventJudge",
    "stale_save",
    "stale_heartbeat",
    "stale_effect",
    "reused_epoch",
    "duplicate_commit",
    "completion_after_cancel",
    "step_regression",
    "live_lease",
    "ended_claimed",
    "no_lease",
    "resume_step",
    "cancel",
    "requeue",
    "lease_length",
    "record_first",
    "FENCED_OPS",
]

#: An event rule: (the task's state before the event, the event, the model) -> (sentence,
#: other) or None.
EventJudge = Callable[[TaskState, Event, Model], "tuple[str, Event | None] | None"]

# --- sentence helpers ------------------------------------------------------------------------


def at(time: float) -> str:
    """``t=17.0``: times rounded to the millisecond, always with a decimal point."""
    return f"t={round(float(time), 3)!r}"


def who(e: Event) -> str:
    return f"{e.process} (epoch {e.epoch})"


def _by(e: Event) -> str:
    return "a user" if e.process == "user" else e.process


def _why_stale(s: TaskState) -> str:
    """Why the model's epoch is newer than an operation's: what raised it."""
    w = s.newest
    if w is None:
        return f"no lease of epoch {s.epoch} had been granted"
    if w.op == "cancel":
        return f"it was cancelled at {at(w.time)} (epoch {s.epoch})"
    if w.op == "claim" and w.type == "fail":
        return f"it went to the dead letter at {at(w.time)} (epoch {s.epoch})"
    return f"epoch {s.epoch} was granted to {w.process} at {at(w.time)}"


def _fence(did: Callable[[Event], str]) -> EventJudge:
    """An event rule for a fenced operation: accepted only with the model's current epoch."""

    def judge(s: TaskState, e: Event, m: Model):
        if e.epoch is None or e.epoch == s.epoch:
            return None
        if e.epoch > s.epoch:
            return f"{did(e)}, but no epoch above {s.epoch} had been granted.", s.newest
        return f"{did(e)}, but {_why_stale(s)}.", s.newest

    return judge


def _ending(s: TaskState) -> str:
    e = s.ended
    if e is None:
        return f"it was {s.status}"
    if s.status == COMPLETED:
        return f"{who(e)} completed it at {at(e.time)}"
    if s.status == CANCELLED:
        return f"it was cancelled at {at(e.time)} and never requeued"
    return f"it went to the dead letter at {at(e.time)}"


# --- event rules -------------------------------------------------------------------------------

#: The fenced operations other than claims, and how a sentence tells each.
FENCED_OPS = {
    "save": lambda e: f"{who(e)} committed step {e.step} of {e.task} at {at(e.time)}",
    "heartbeat": lambda e: f"{who(e)} renewed its lease on {e.task} at {at(e.time)}",
    "effect": lambda e: (
        f"{who(e)} recorded the e-mail {e.value.get('key')!r} of {e.task} at {at(e.time)}"
    ),
}

stale_save = _fence(FENCED_OPS["save"])
stale_heartbeat = _fence(FENCED_OPS["heartbeat"])
stale_effect = _fence(FENCED_OPS["effect"])


def reused_epoch(s: TaskState, e: Event, m: Model):
    if e.epoch is None or e.epoch > s.epoch or s.newest is None:
        return None
    w = s.newest
    granted = f"{e.process} was granted epoch {e.epoch} of {e.task} at {at(e.time)}"
    if w.op == "claim" and w.type == "ok":
        return (
            f"{granted}, but epoch {s.epoch} had already been granted to {w.process} at "
            f"{at(w.time)}.",
            w,
        )
    raised = "the cancel" if w.op == "cancel" else "the dead letter"
    return f"{granted}, but {raised} at {at(w.time)} had already raised it to {s.epoch}.", w


def duplicate_commit(s: TaskState, e: Event, m: Model):
    first = s.committed.get(e.step) if e.step is not None else None
    if first is None:
        return None
    return (
        f"{who(e)} committed step {e.step} of {e.task} at {at(e.time)}, but step {e.step} had "
        f"already been committed by {who(first)} at {at(first.time)}.",
        first,
    )


def completion_after_cancel(s: TaskState, e: Event, m: Model):
    if not e.value.get("done") or s.cancel is None:
        return None
    c = s.cancel
    return (
        f"{who(e)} completed {e.task} at {at(e.time)}, but it was cancelled at {at(c.time)} "
        f"(epoch {s.epoch}).",
        c,
    )


def step_regression(s: TaskState, e: Event, m: Model):
    b = s.best
    if e.step is None or b is None or e.step >= b.step:
        return None
    return (
        f"{who(e)} committed step {e.step} of {e.task} at {at(e.time)}, but step {b.step} had "
        f"already been committed by {who(b)} at {at(b.time)}: the task went back.",
        b,
    )


def live_lease(s: TaskState, e: Event, m: Model):
    if s.status != RUNNING or s.lease is None or s.until is None or not live(s.until, e.time):
        return None
    h = s.lease
    return (
        f"{e.process} was granted epoch {e.epoch} of {e.task} at {at(e.time)}, but the lease of "
        f"{who(h)} was live until {at(s.until)}.",
        h,
    )


def ended_claimed(s: TaskState, e: Event, m: Model):
    if s.status not in ENDED:
        return None
    return (
        f"{e.process} was granted epoch {e.epoch} of {e.task} at {at(e.time)}, but the task had "
        f"ended: {_ending(s)}.",
        s.ended,
    )


def no_lease(s: TaskState, e: Event, m: Model):
    # A stale epoch is rules (a), (i) and (j); this rule judges the current epoch's operations.
    if s.status == RUNNING or e.epoch != s.epoch:
        return None
    if s.status == QUEUED:
        why = "the task was back in the queue with no lease"
    else:
        why = f"the task had ended: {_ending(s)}"
    return f"{FENCED_OPS[e.op](e)}, but {why}.", s.ended


def resume_step(s: TaskState, e: Event, m: Model):
    if not s.submitted or e.step is None or e.step == s.step:
        return None
    b = s.best
    by = f" (by {who(b)} at {at(b.time)})" if b is not None else ""
    return (
        f"{e.process} was granted {e.task} at {at(e.time)} to resume from step {e.step}, but "
        f"step {s.step} was the last one committed{by}.",
        b,
    )


def cancel(s: TaskState, e: Event, m: Model):
    if s.status in ENDED:
        return f"{_by(e)} cancelled {e.task} at {at(e.time)}, but {_ending(s)}.", s.ended
    if e.epoch is not None and e.epoch <= s.epoch:
        return (
            f"{_by(e)} cancelled {e.task} at {at(e.time)}, but its epoch stayed {e.epoch}: "
            "every lease granted before the cancel still looks current.",
            s.newest,
        )
    return None


def requeue(s: TaskState, e: Event, m: Model):
    if s.status not in (CANCELLED, DEAD):
        return (
            f"{_by(e)} requeued {e.task} at {at(e.time)}, but it was {s.status}: only a "
            "cancelled or dead task goes back to the queue.",
            s.ended,
        )
    if e.epoch is not None and e.epoch < s.epoch:
        return (
            f"{_by(e)} requeued {e.task} at {at(e.time)}, and its epoch went back from "
            f"{s.epoch} to {e.epoch}: old leases could match the next claims.",
            s.newest,
        )
    return None


def lease_length(s: TaskState, e: Event, m: Model):
    until, ttl = e.value.get("lease_until"), m.ttl
    if ttl is None or until is None:
        return None
    start = s.claiming.get(e.process, e.time)
    lo, hi = start + ttl, e.time + ttl
    slack = TOLERANCE * max(1.0, abs(hi))
    if lo - slack <= float(until) <= hi + slack:
        return None
    return (
        f"{e.process} was granted {e.task} at {at(e.time)} until {at(until)}, but a lease of "
        f"ttl {ttl:g} runs until {at(hi)}.",
        None,
    )


def record_first(s: TaskState, e: Event, m: Model):
    key = e.value.get("key")
    if key is None or not s.submitted:
        return None
    rec = s.effects.get(key)
    if rec is not None and rec.process == e.process and rec.epoch == e.epoch:
        return None
    if rec is None:
        why = "its key had not been recorded"
    else:
        why = f"{who(rec)} had recorded its key at {at(rec.time)}, so only it may send"
    return f"{who(e)} sent the e-mail {key!r} of {e.task} at {at(e.time)}, but {why}.", rec
