"""The rules judged one accepted operation at a time, against the protocol's model.

Each function here is an *event rule* of :data:`simlab.checker.rules.RULES`: it is handed the
task's state just before the event (:class:`simlab.checker.model.TaskState`), the accepted event
and the model, and returns ``(sentence, other)`` when the operation breaks its promise (``other``
is the event it conflicts with, or None), else None. Pure functions; the sentence helpers
(:func:`at`, :func:`who`) are shared with :mod:`simlab.checker.outcomes`.
"""

from __future__ import annotations

from collections.abc import Callable

from simlab.checker.history import READ, Event
from simlab.checker.model import ENDED, NO_LIMIT, TOLERANCE, Model, TaskState, is_time, live, within
from simlab.checker.words import Said, said
from simlab.records import CANCELLED, COMPLETED, DEAD, QUEUED, RUNNING

__all__ = [
    "at",
    "who",
    "EventJudge",
    "stale_save",
    "stale_heartbeat",
    "recorded_effect",
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
    "resubmit",
    "release",
    "read_back",
    "status",
    "REFUSABLE_OPS",
    "FENCED_OPS",
]

#: An event rule: (the task's state before the event, the event, the model) -> (sentence,
#: other) or None; the sentence is a message (:mod:`simlab.checker.words`).
EventJudge = Callable[[TaskState, Event, Model], "tuple[Said, Event | None] | None"]


def _s(name: str, /, **values) -> Said:
    """The checker's message ``name`` (:data:`simlab.checker.words.CHECK`)."""
    return said("check." + name, **values)


def status(name: str | None) -> Said | str:
    """A task status as a sentence names it, in each language."""
    return _s("status." + name) if name in _STATUSES else str(name)


_STATUSES = frozenset({QUEUED, RUNNING, COMPLETED, CANCELLED, DEAD})

# --- sentence helpers ------------------------------------------------------------------------


def at(time: float, beside: float | None = None) -> str:
    """``t=17.0``: times rounded to the millisecond, always with a decimal point; with more
    digits when ``beside`` (another time of the same sentence) differs from ``time`` only below
    the millisecond, so that the sentence shows which came first."""
    time, digits = float(time), 3
    if beside is not None and float(beside) != time:
        while digits < 17 and round(time, digits) == round(float(beside), digits):
            digits += 1
    return f"t={round(time, digits)!r}"


def who(e: Event) -> Said:
    return _s("who", p=e.process, epoch=e.epoch)


def _by(e: Event) -> Said | str:
    return _s("a_user") if e.process == "user" else e.process


def _why_stale(s: TaskState) -> Said:
    """Why the model's epoch is newer than an operation's: what raised it."""
    w = s.newest
    if w is None:
        return _s("stale.none", epoch=s.epoch)
    if w.op == "cancel":
        return _s("stale.cancel", t=at(w.time), epoch=s.epoch)
    if w.op == "claim" and w.type == "fail":
        return _s("stale.dead", t=at(w.time), epoch=s.epoch)
    return _s("stale.granted", epoch=s.epoch, p=w.process, t=at(w.time))


def _fence(did: Callable[[Event], Said]) -> EventJudge:
    """An event rule for a fenced operation: accepted only with the model's current epoch."""

    def judge(s: TaskState, e: Event, m: Model):
        if e.epoch is None or e.epoch == s.epoch:
            return None
        if e.epoch > s.epoch:
            return _s("fence.above", did=did(e), epoch=s.epoch), s.newest
        return _s("fence.stale", did=did(e), why=_why_stale(s)), s.newest

    return judge


def _ending(s: TaskState) -> Said:
    e = s.ended
    if e is None:
        return _s("ending.status", status=status(s.status))
    if s.status == COMPLETED:
        return _s("ending.completed", who=who(e), t=at(e.time))
    if s.status == CANCELLED:
        return _s("ending.cancelled", t=at(e.time))
    return _s("ending.dead", t=at(e.time))


# --- event rules -------------------------------------------------------------------------------

#: The fenced operations other than claims, and how a sentence tells each.
FENCED_OPS = {
    "save": lambda e: _s("did.save", who=who(e), step=e.step, task=e.task, t=at(e.time)),
    "heartbeat": lambda e: _s("did.heartbeat", who=who(e), task=e.task, t=at(e.time)),
    "effect": lambda e: _s(
        "did.effect", who=who(e), key=e.value.get("key"), task=e.task, t=at(e.time)
    ),
    "release": lambda e: _s("did.release", who=who(e), task=e.task, t=at(e.time)),
}

stale_save = _fence(FENCED_OPS["save"])
stale_heartbeat = _fence(FENCED_OPS["heartbeat"])
_stale_effect = _fence(FENCED_OPS["effect"])


def recorded_effect(s: TaskState, e: Event, m: Model):
    """An accepted record of an e-mail key: with the model's current epoch, and of a key not
    recorded before (True means "recorded for the first time: send"; a key recorded before,
    by any lease, answers False)."""
    hit = _stale_effect(s, e, m)
    if hit is not None:
        return hit
    key = e.value.get("key")
    first = s.effects.get(key) if key is not None else None
    if first is None or first is e:
        return None
    return _s("effect.again", did=FENCED_OPS["effect"](e), by=who(first), t0=at(first.time)), first


_stale_release = _fence(FENCED_OPS["release"])


def release(s: TaskState, e: Event, m: Model):
    """An accepted release: only the newest epoch's, and only of a running task."""
    return _stale_release(s, e, m) or no_lease(s, e, m)


def read_back(s: TaskState, e: Event, m: Model):
    """What the worker read back right after a refused fenced call (a refused call changes
    nothing: the task's status, step, epoch, lease end and checkpoint are the model's) or an
    accepted release of the lease in force (the task is queued, its step and epoch kept, with
    no lease). Left alone: an event with nothing read back, a task whose submit the history
    does not show, and one with a claim that may have been granted unseen (it may have moved
    the epoch and the lease). Only what the model knows is compared: the epoch unless the dead
    letter bumped it, the lease end the ledger last reported for a running task, the
    checkpoint once the history shows the task's checkpoints."""
    got = e.value.get(READ)
    if got is None or not s.submitted or s.unanswered:
        return None
    if e.type == "ok":
        if s.status != RUNNING or e.epoch != s.epoch:
            return None  # an accepted release the contract refuses: rule (w)
        want = {"status": QUEUED, "step": s.step, "epoch": s.epoch, "lease_until": None}
    else:
        want = {"status": s.status, "step": s.step}
        if not s.epoch_floor:
            want["epoch"] = s.epoch
        if s.status != RUNNING:
            want["lease_until"] = None
        elif s.given is not None:
            want["lease_until"] = s.given
        if s.checkpointed:
            want["checkpoint"] = s.checkpoint
    for field, value in want.items():
        read = got.get(field)
        if field == "lease_until" and value is not None:
            if is_time(read) and within(float(read), value, value):
                continue
        elif read == value:
            continue
        said_read, said_want = _read_value(field, read), _read_value(field, value)
        if e.type == "ok":
            did = _s("did.release", who=who(e), task=e.task, t=at(e.time))
            return _s("read.release", did=did, got=said_read, want=said_want), s.lease
        told = REFUSABLE_OPS[e.op](e)
        return _s("read.refused", told=told, got=said_read, want=said_want), s.newest
    return None


def _read_value(field: str, value: object) -> Said:
    """``field`` and its ``value`` as a read-back sentence names them."""
    if field == "status":
        shown: object = status(value if isinstance(value, str) else None)
    elif field == "lease_until":
        shown = at(value) if is_time(value) else _s("read.none")
    elif field == "checkpoint":
        shown = repr(value)
    else:
        shown = value
    return _s("read.value", field=_s("read.field." + field), value=shown)


def resubmit(s: TaskState, e: Event, m: Model):
    """A submit that returned another ID than its task's (the history records ``returned``
    then) is broken. A submit of a task already submitted (a resent one): a correct ledger
    raises and leaves the task as it was, so an accepted one is broken, and a refused one must
    read back the model's status, step and epoch (the epoch only where the model knows it
    exactly: no dead letter's bump and no claim that may have been granted unseen)."""
    if "returned" in e.value:  # recorded only where the answer was not the task's ID
        return _s("submit.returned", task=e.task, t=at(e.time), got=repr(e.value["returned"])), e
    first = s.submit
    if first is None or first is e:
        return None
    if e.type == "ok":
        return _s("resubmit.accepted", task=e.task, t=at(e.time), t0=at(first.time)), first
    got = (e.value.get("status"), e.step, e.epoch)
    exact = not s.epoch_floor and s.unanswered == 0
    want = (s.status, s.step, s.epoch if exact else e.epoch)
    if None in got or got == want:
        return None
    state = lambda v: _s("resubmit.state", status=status(v[0]), step=v[1], epoch=v[2])  # noqa: E731
    return (
        _s("resubmit.changed", task=e.task, t=at(e.time), got=state(got), want=state(want)),
        first,
    )


def reused_epoch(s: TaskState, e: Event, m: Model):
    if e.epoch is None or e.epoch > s.epoch or s.newest is None:
        return None
    w = s.newest
    granted = _s("granted", p=e.process, epoch=e.epoch, task=e.task, t=at(e.time))
    if w.op == "claim" and w.type == "ok":
        return _s("reused.claim", granted=granted, epoch=s.epoch, p=w.process, t=at(w.time)), w
    raised = "reused.cancel" if w.op == "cancel" else "reused.dead"
    return _s(raised, granted=granted, t=at(w.time), epoch=s.epoch), w


def duplicate_commit(s: TaskState, e: Event, m: Model):
    first = s.committed.get(e.step) if e.step is not None else None
    if first is None:
        return None
    return (
        _s("duplicate", who=who(e), step=e.step, task=e.task, t=at(e.time), first=who(first),
           t0=at(first.time)),
        first,
    )  # fmt: skip


def completion_after_cancel(s: TaskState, e: Event, m: Model):
    if not e.value.get("done") or s.cancel is None:
        return None
    c = s.cancel
    return (
        _s("after_cancel", who=who(e), task=e.task, t=at(e.time), t0=at(c.time), epoch=s.epoch),
        c,
    )


def step_regression(s: TaskState, e: Event, m: Model):
    b = s.best
    if e.step is None or b is None or e.step >= b.step:
        return None
    return (
        _s("regression", who=who(e), step=e.step, task=e.task, t=at(e.time), best=b.step,
           by=who(b), t0=at(b.time)),
        b,
    )  # fmt: skip


def live_lease(s: TaskState, e: Event, m: Model):
    if s.status != RUNNING or s.lease is None or s.until is None or not live(s.until, e.time):
        return None
    h = s.lease
    return (
        _s("live", p=e.process, epoch=e.epoch, task=e.task, t=at(e.time, s.until), holder=who(h),
           until=at(s.until, e.time)),
        h,
    )  # fmt: skip


def ended_claimed(s: TaskState, e: Event, m: Model):
    if s.status not in ENDED:
        return None
    return (
        _s("ended_claimed", p=e.process, epoch=e.epoch, task=e.task, t=at(e.time),
           ending=_ending(s)),
        s.ended,
    )  # fmt: skip


def no_lease(s: TaskState, e: Event, m: Model):
    # A stale epoch is rules (a), (i) and (j); this rule judges the current epoch's operations.
    if s.status == RUNNING or e.epoch != s.epoch:
        return None
    did = FENCED_OPS[e.op](e)
    if s.status == QUEUED:
        return _s("no_lease.queued", did=did), s.ended
    return _s("no_lease.ended", did=did, ending=_ending(s)), s.ended


def resume_step(s: TaskState, e: Event, m: Model):
    value = e.value
    if "lease_worker" in value or "lease_task" in value:  # recorded only where they differ
        worker, leased = value.get("lease_worker", e.process), value.get("lease_task", e.task)
        sentence = _s(
            "resume.names", p=e.process, task=e.task, t=at(e.time), worker=repr(worker),
            leased=repr(leased),
        )  # fmt: skip
        return sentence, e
    if not s.submitted:
        return None
    if (e.step is None or e.step == s.step) and "checkpoint" in e.value:
        got = e.value["checkpoint"]
        if got == s.checkpoint:
            return None
        b = s.best
        by = _s("resume.by", who=who(b), t=at(b.time)) if b is not None else _s("resume.none")
        sentence = _s(
            "resume.checkpoint", p=e.process, task=e.task, t=at(e.time), got=repr(got),
            want=repr(s.checkpoint), by=by,
        )  # fmt: skip
        return sentence, b
    if e.step is None or e.step == s.step:
        return None
    b = s.best
    by = _s("resume.by", who=who(b), t=at(b.time)) if b is not None else _s("resume.none")
    return (
        _s("resume", p=e.process, task=e.task, t=at(e.time), step=e.step, last=s.step, by=by),
        b,
    )


def cancel(s: TaskState, e: Event, m: Model):
    if s.status in ENDED:
        return _s("cancel.ended", by=_by(e), task=e.task, t=at(e.time), ending=_ending(s)), s.ended
    if e.epoch is not None and e.epoch <= s.epoch:
        return _epoch_after("cancel.epoch", s, e, epoch=e.epoch), s.newest
    return None


def _epoch_after(key: str, s: TaskState, e: Event, **values) -> Said:
    """The sentence ``key`` on the epoch the ledger reports after a cancel or requeue ``e``;
    where the model's epoch is the dead letter's bump (which its refusal does not show), the
    ``_dead`` sentence, which names the dead letter as the likely culprit."""
    n = s.newest
    if s.epoch_floor and n is not None and n.op == "claim" and n.type == "fail":
        key, values = key + "_dead", {**values, "t0": at(n.time)}
    return _s(key, by=_by(e), task=e.task, t=at(e.time), old=s.epoch, **values)


def requeue(s: TaskState, e: Event, m: Model):
    """An accepted requeue: only of a cancelled or dead task, and the epoch the ledger reports
    right after it is the one the task had. That epoch is known exactly only after a cancel
    that reported it, with no claim of the task in flight (a correct ledger changes nothing of
    a cancelled task until its requeue); after the dead letter, whose refusal does not say the
    epoch, the model's is a floor, and only a lower one is judged."""
    if s.status not in (CANCELLED, DEAD):
        return (
            _s("requeue.status", by=_by(e), task=e.task, t=at(e.time), status=status(s.status)),
            s.ended,
        )
    if e.epoch is None:
        return None
    if e.epoch < s.epoch:
        return _epoch_after("requeue.epoch", s, e, new=e.epoch), s.newest
    c = s.cancel
    told = c is not None and s.newest is c and c.epoch is not None and not s.epoch_floor
    if e.epoch != s.epoch and told and not s.inflight:
        return (
            _s("requeue.kept", by=_by(e), task=e.task, t=at(e.time), new=e.epoch, old=s.epoch,
               t0=at(c.time)),
            c,
        )  # fmt: skip
    return None


def lease_length(s: TaskState, e: Event, m: Model):
    """A granted claim or an accepted heartbeat of the lease in force reports the end it gave:
    a time between its invoke's time + ttl and its answer's time + ttl (no end at all is
    wrong too)."""
    value, ttl = e.value, m.ttl
    if ttl is None or "lease_until" not in value:
        return None  # the end was not recorded (a history checked on its own)
    if e.op == "heartbeat" and (s.lease is None or e.epoch != s.epoch):
        return None  # a stale or stray heartbeat: rules (i) and (s) judge it
    until = value["lease_until"]
    start = s.asked.get(e.process, e.time)
    lo, hi = start + ttl, e.time + ttl
    if until.__class__ is float and lo <= until <= hi:
        return None  # the common case, within the tolerance at once
    if not is_time(until):
        # the ledger reported no lease end at all for a lease in force
        key = "lease_length.none" if e.op == "claim" else "lease_length.heartbeat_none"
        return (
            _s(key, p=e.process, task=e.task, t=at(e.time), ttl=ttl, hi=at(hi), epoch=e.epoch),
            None,
        )
    if within(float(until), lo, hi):
        return None
    key = "lease_length" if e.op == "claim" else "lease_length.heartbeat"
    return (
        _s(key, p=e.process, task=e.task, t=at(e.time), until=at(until, hi), ttl=ttl,
           hi=at(hi, until), epoch=e.epoch),
        None,
    )  # fmt: skip


def record_first(s: TaskState, e: Event, m: Model):
    key = e.value.get("key")
    if key is None or not s.submitted:
        return None
    rec = s.effects.get(key)
    if rec is not None and rec.process == e.process and rec.epoch == e.epoch:
        return None
    if rec is None:
        why = _s("record.none")
    else:
        why = _s("record.other", who=who(rec), t=at(rec.time))
    return _s("record", who=who(e), key=key, task=e.task, t=at(e.time), why=why), rec


# --- refusals ----------------------------------------------------------------------------------

#: The operations a ledger may refuse, and how a sentence tells the refused one.
REFUSABLE_OPS = {
    "claim": lambda e: _s("told.claim", p=e.process, task=e.task, t=at(e.time)),
    "save": lambda e: _s(
        "told.save", p=e.process, task=e.task, step=e.step, epoch=e.epoch, t=at(e.time)
    ),
    "heartbeat": lambda e: _s(
        "told.heartbeat", p=e.process, task=e.task, epoch=e.epoch, t=at(e.time)
    ),
    "effect": lambda e: _s(
        "told.effect",
        p=e.process,
        key=e.value.get("key"),
        task=e.task,
        epoch=e.epoch,
        t=at(e.time),
    ),  # fmt: skip
    "cancel": lambda e: _s("told.cancel", p=_by(e), task=e.task, t=at(e.time)),
    "requeue": lambda e: _s("told.requeue", p=_by(e), task=e.task, t=at(e.time)),
    "release": lambda e: _s("told.release", p=e.process, task=e.task, epoch=e.epoch, t=at(e.time)),
}


def refused(s: TaskState, e: Event, m: Model):
    """A refused operation (``fail``) that a correct ledger must answer otherwise: the model
    predicts the answer of every operation, so a ledger that refuses what the contract grants
    (or refuses a claim for the wrong reason) is caught like one that grants what it refuses.

    Left alone, because the model cannot know the answer: a task whose submit the history does
    not show; any refusal while another worker's claim of the task is in flight (its
    statements may already have bumped the epoch the model learns of only at its ok); a claim
    at the very instant its lease ends (within :data:`~simlab.checker.model.TOLERANCE`: the
    contract lets a ledger grant or refuse it); a claim refused for the dead letter when the
    limit on attempts is not known (``max_attempts`` None) or was reached while the task could
    be claimed; a claim of a task not ended after another claim of it was cut off unanswered
    by a crash (that claim may have been granted, so the lease and its holder are not known).
    With :data:`~simlab.checker.model.NO_LIMIT` no claim may move a task there."""
    inflight = s.inflight
    # another worker's claim in flight: one besides this event's worker (a set holds each once)
    if not s.submitted or (inflight and (len(inflight) > 1 or e.process not in inflight)):
        return None
    # The refused operation is told only in a finding: most refusals are right, and telling
    # each one would cost more than judging it.
    told = REFUSABLE_OPS[e.op]
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
        if granted is not None and granted.op == "claim":
            why = _s("current.granted", epoch=e.epoch, p=granted.process, t=at(granted.time))
        else:
            why = _s("current", epoch=e.epoch)
        if e.op == "save":
            why = _s("current.save", current=why, step=e.step, committed=s.step)
        elif e.op == "effect":
            why = _s("current.effect", current=why)
        return _s("refused.fenced", told=told(e), why=why), granted
    if e.op == "cancel" and s.status in (QUEUED, RUNNING):
        return _s("refused.cancel", told=told(e), status=status(s.status)), None
    if e.op == "requeue" and s.status in (CANCELLED, DEAD):
        return _s("refused.requeue", told=told(e), status=status(s.status)), s.ended
    return None


def _refused_claim(s: TaskState, e: Event, m: Model, told: Callable[[Event], Said]):
    reason = e.value.get("reason")

    def as_reason() -> Said:  # told only in a finding, as above
        return _s("refused.as", told=told(e), reason=reason)

    if reason == "terminal" and e.value.get("status") == DEAD and s.status != DEAD:
        if m.max_attempts is None:
            return None  # the limit is not known: any claim may have been the one past it
        # Only a claim a correct ledger would otherwise grant moves a task to the dead
        # letter: an ended task stays as it ended, a live lease is refused as lease-held.
        if s.status in ENDED:
            return _s("refused.dead_ended", told=told(e), ending=_ending(s)), s.ended
        h, until = s.lease, s.until
        if s.status == RUNNING and until is not None and live(until, e.time):
            holder = _s("holder.whose", who=who(h)) if h is not None else _s("holder.a")
            return _s("refused.live", as_reason=as_reason(), holder=holder, until=at(until)), h
        if s.attempts + s.unseen >= m.max_attempts:
            return None  # the dead letter, as the limit says (claims cut off may count)
        if m.max_attempts == NO_LIMIT:
            return _s("refused.dead_unlimited", told=told(e)), s.newest
        return _s("refused.dead", told=told(e), n=s.attempts, limit=m.max_attempts), s.newest

    if s.status in ENDED:
        if reason != "terminal":
            return _s("refused.terminal", as_reason=as_reason(), ending=_ending(s)), s.ended
        said_status = e.value.get("status")
        if said_status is None or said_status == s.status:
            return None
        return (
            _s("refused.terminal_status", told=told(e), said=status(said_status),
               ending=_ending(s)),
            s.ended,
        )  # fmt: skip
    if s.unseen:
        return None  # a claim a crash cut off may have been granted: the lease is not known
    if s.status == QUEUED:
        return _s("refused.queued", as_reason=as_reason()), s.ended
    # running: a live lease refuses the claim as lease-held, an ended one grants it
    h, until = s.lease, s.until
    if until is None:
        return None  # a hand-made claim without lease_until: the lease is not timed
    slack = TOLERANCE * max(1.0, abs(e.time))
    # a claim near the lease's end (the prober's) shows both times to the digit that parts them
    told = lambda e: _s("told.claim", p=e.process, task=e.task, t=at(e.time, until))  # noqa: E731
    if e.time - until > slack:
        holder = _s("holder.of", who=who(h)) if h is not None else _s("holder.the")
        ended = at(until, e.time)
        return _s("refused.ended", as_reason=as_reason(), holder=holder, until=ended), h
    if until - e.time > slack:
        if reason != "lease-held":
            holder = _s("holder.whose", who=who(h)) if h is not None else _s("holder.a")
            still = at(until, e.time)
            return _s("refused.live", as_reason=as_reason(), holder=holder, until=still), h
        # LeaseHeld names the worker that holds the lease: the last claim's, known unless a
        # claim may have been granted unseen
        claimer = s.claimer
        if "holder" in e.value and claimer is not None and e.value["holder"] != claimer:
            holder = who(h) if h is not None else claimer
            return _s("refused.holder", told=told(e), named=e.value["holder"], who=holder), h
    return None


def attempt_limit(s: TaskState, e: Event, m: Model):
    """A claim granted although the task had used every attempt ``max_attempts`` allows: a
    correct ledger moves it to the dead letter instead. A granted lease that tells its attempt
    (``attempts`` in the event) counts the claims since the submit or the last requeue, this
    one included (up to one more for each claim a crash cut off unanswered, and for each claim
    of another worker still unanswered: a two-statement claim bumps before it reads back)."""
    told = e.value.get("attempts")
    first = s.attempts + 1
    if (
        told is not None
        and s.submitted
        and not ((told.__class__ is int or is_time(told)) and first <= told <= first + s.unanswered)
    ):
        return (
            _s("attempts.lease", p=e.process, task=e.task, t=at(e.time), n=told, m=first),
            s.newest,
        )  # fmt: skip
    if m.max_attempts is None or s.attempts < m.max_attempts or s.status in ENDED:
        return None
    return (
        _s("attempt_limit", p=e.process, task=e.task, t=at(e.time), n=s.attempts + 1,
           limit=m.max_attempts),
        s.newest,
    )  # fmt: skip
