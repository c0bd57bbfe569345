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
    "refused",
    "attempt_limit",
    "REFUSABLE_OPS",
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


# --- refusals ----------------------------------------------------------------------------------

#: The operations a ledger may refuse, and how a sentence tells the refused one.
REFUSABLE_OPS = {
    "claim": lambda e: f"{e.process}'s claim of {e.task} at {at(e.time)}",
    "save": lambda e: (
        f"{e.process}'s save of {e.task} at step {e.step} with epoch {e.epoch} at {at(e.time)}"
    ),
    "heartbeat": lambda e: (
        f"{e.process}'s heartbeat on {e.task} with epoch {e.epoch} at {at(e.time)}"
    ),
    "effect": lambda e: (
        f"{e.process}'s record of the e-mail {e.value.get('key')!r} of {e.task} with epoch "
        f"{e.epoch} at {at(e.time)}"
    ),
    "cancel": lambda e: f"{_by(e)}'s cancel of {e.task} at {at(e.time)}",
    "requeue": lambda e: f"{_by(e)}'s requeue of {e.task} at {at(e.time)}",
}


def refused(s: TaskState, e: Event, m: Model):
    """A refused operation (``fail``) that a correct ledger must answer otherwise: the model
    predicts the answer of every operation, so a ledger that refuses what the contract grants
    (or refuses a claim for the wrong reason) is caught like one that grants what it refuses.

    Left alone, because the model cannot know the answer: a task whose submit the history does
    not show; any refusal while another worker's claim of the task is in flight (its
    statements may already have bumped the epoch the model learns of only at its ok); a claim
    at the very instant its lease ends (within :data:`~simlab.check.model.TOLERANCE`: the
    contract lets a ledger grant or refuse it); a claim refused for the dead letter when the
    limit on attempts is not known (``max_attempts``) or was reached."""
    if not s.submitted or any(p != e.process for p in s.inflight):
        return None
    told = REFUSABLE_OPS[e.op](e)
    if e.op == "claim":
        return _refused_claim(s, e, m, told)
    if e.op in FENCED_OPS:
        if e.epoch != s.epoch or s.status != RUNNING or e.epoch is None:
            return None
        if e.op == "save" and (e.step is None or e.step <= s.step):
            return None
        if e.op == "effect" and e.value.get("key") in s.effects:
            return None
        granted = s.newest
        why = f"epoch {e.epoch} was current" + (
            f" (granted to {granted.process} at {at(granted.time)})"
            if granted is not None and granted.op == "claim"
            else ""
        )
        if e.op == "save":
            why += f" and step {e.step} above the committed step {s.step}"
        elif e.op == "effect":
            why += " and the key had not been recorded"
        return f"{told} was refused, but {why}: a correct ledger accepts it.", granted
    if e.op == "cancel" and s.status in (QUEUED, RUNNING):
        return f"{told} was refused, but it was {s.status}: a correct ledger cancels it.", None
    if e.op == "requeue" and s.status in (CANCELLED, DEAD):
        return f"{told} was refused, but it was {s.status}: a correct ledger requeues it.", s.ended
    return None


def _refused_claim(s: TaskState, e: Event, m: Model, told: str):
    reason = e.value.get("reason")
    if reason == "terminal" and e.value.get("status") == DEAD and s.status != DEAD:
        if m.max_attempts is None or s.attempts >= m.max_attempts:
            return None  # the dead letter: the limit is reached, or not known
        return (
            f"{told} was refused for the dead letter, but the task had had {s.attempts} of its "
            f"{m.max_attempts} attempts: a correct ledger grants it.",
            s.newest,
        )
    as_reason = f"{told} was refused ({reason})"
    if s.status in ENDED:
        if reason == "terminal":
            return None
        return f"{as_reason}, but {_ending(s)}: a correct ledger refuses it as terminal.", s.ended
    if s.status == QUEUED:
        return f"{as_reason}, but the task was queued: a correct ledger grants it.", s.ended
    # running: a live lease refuses the claim as lease-held, an ended one grants it
    h, until = s.lease, s.until
    if until is None:
        return None  # a hand-made claim without lease_until: the lease is not timed
    slack = TOLERANCE * max(1.0, abs(e.time))
    if e.time - until > slack:
        holder = f"the lease of {who(h)}" if h is not None else "the lease"
        return (
            f"{as_reason}, but {holder} had ended at {at(until)}: a correct ledger grants it.",
            h,
        )
    if until - e.time > slack and reason != "lease-held":
        holder = f"{who(h)}'s lease" if h is not None else "a lease"
        return (
            f"{as_reason}, but {holder} was live until {at(until)}: a correct ledger refuses "
            "it as lease-held.",
            h,
        )
    return None


def attempt_limit(s: TaskState, e: Event, m: Model):
    """A claim granted although the task had used every attempt ``max_attempts`` allows: a
    correct ledger moves it to the dead letter instead."""
    if m.max_attempts is None or s.attempts < m.max_attempts or s.status in ENDED:
        return None
    return (
        f"{e.process} was granted {e.task} at {at(e.time)} for attempt {s.attempts + 1}, but "
        f"its limit is {m.max_attempts} attempts: the claim must move it to the dead letter.",
        s.newest,
    )
