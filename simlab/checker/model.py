"""The protocol as a reference state machine: what each task *is* after every event of a history.

The checker does not believe the epochs a ledger reports. It replays the history through this
model of the protocol, the contract of :mod:`simlab.ledger.protocol`, and judges every accepted
operation against the model's state just before it (:mod:`simlab.checker.rules`). The model's
transitions, one per accepted (``ok``) event:

================= ===============================================================================
event             the task afterwards
================= ===============================================================================
submit ok         queued, step 0, epoch 0, no lease (a second submit ok changes nothing)
claim ok          running under this lease (one attempt more), held by its claimer: the granted
                  epoch (never below the model's), the step it resumes from, ``lease_until``
                  (``time + ttl`` when the ttl is known)
claim fail, dead  dead (the dead letter), epoch + 1 at least (the refusal does not say it), no
                  lease
claim fail        nothing (see :func:`simlab.checker.operations.refused` for what it must be)
heartbeat ok      the lease runs until ``time + ttl`` (the end the ledger reports is judged,
                  not believed)
save ok           the committed step and, when it says one, its checkpoint; ``done``: completed,
                  no lease
effect ok         the e-mail key is recorded, with the epoch and worker that recorded it
cancel ok         cancelled, epoch + 1 whatever the ledger says (a cancel always bumps), no lease
requeue ok        queued, step and epoch kept, no lease, attempts back to 0
release ok        queued, step and epoch kept, no lease
crash             a claim of its process still unanswered may have been granted unseen: the
                  attempts count up to one more, and the holder is not known
================= ===============================================================================

The model follows every accepted operation, even one the protocol forbids, so that one broken
promise is reported once and not again at every later event; the rules judge the operation
before the model applies it. Refused operations (``fail``) change nothing, except the claim the
ledger refused because it moved the task to the dead letter. A task whose ``submit`` is not in
the history (a hand-written fragment) starts *open*: its first fenced operation is taken to come
from a lease granted before the history began, and the rules that need a task's whole life
(the final state, the record before a send) leave it alone.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from simlab.checker.history import Event
from simlab.records import CANCELLED, COMPLETED, DEAD, QUEUED, RUNNING

__all__ = ["TaskState", "Model", "ENDED", "NO_LIMIT", "TOLERANCE", "live", "within", "is_time"]

#: Statuses after which the protocol accepts nothing of a task until a requeue.
ENDED = frozenset({COMPLETED, CANCELLED, DEAD})
#: Relative tolerance on times: a lease that runs out this close to a claim has run out.
TOLERANCE = 1e-9
#: ``max_attempts`` of a ledger known to have no limit on attempts: it never moves a task to
#: the dead letter (None means the limit is not known, and any dead letter is taken as right).
NO_LIMIT = math.inf


def live(until: float, now: float) -> bool:
    """Is a lease that runs until ``until`` still live at ``now`` (beyond the tolerance)?"""
    return until - now > TOLERANCE * max(1.0, abs(now))


def within(value: float, lo: float, hi: float) -> bool:
    """Is ``value`` between ``lo`` and ``hi``, within the tolerance?"""
    slack = TOLERANCE * max(1.0, abs(lo), abs(hi))
    return lo - slack <= value <= hi + slack


def is_time(value: object) -> bool:
    """Is ``value`` a number a ledger may report as a time (an int or a float, not a bool)?"""
    return value.__class__ is not bool and isinstance(value, (int, float))


class TaskState:
    """What the protocol says one task is after the events replayed so far (see the module doc).

    ``newest`` is the event that gave the task its epoch (a claim ok, a cancel ok, the claim
    refused for the dead letter); ``lease`` the claim ok of the lease in force and ``until`` its
    end; ``ended`` the event that ended the task; ``cancel`` the accepted cancel not yet undone
    by a requeue; ``committed`` maps each committed step to its first accepted save and ``best``
    is the save of the highest step; ``effects`` maps each recorded key to its effect ok.
    """

    __slots__ = (
        "task",
        "status",
        "step",
        "epoch",
        "newest",
        "lease",
        "until",
        "ended",
        "cancel",
        "done",
        "committed",
        "best",
        "effects",
        "submitted",
        "asked",
        "inflight",
        "attempts",
        "unseen",
        "claimer",
        "epoch_floor",
        "checkpoint",
        "checkpointed",
        "submit",
        "given",
    )

    def __init__(self, task: str, submitted: bool):
        self.task = task
        self.status = QUEUED
        self.step = 0
        self.epoch = 0
        self.newest: Event | None = None
        self.lease: Event | None = None
        self.until: float | None = None
        self.ended: Event | None = None
        self.cancel: Event | None = None
        self.done: Event | None = None
        self.committed: dict[int, Event] = {}
        self.best: Event | None = None
        self.effects: dict[str, Event] = {}
        #: False for a task whose submit the history does not show (an open fragment)
        self.submitted = submitted
        #: worker -> time of its last claim or heartbeat invoke (the lease it is given ends
        #: between that time + ttl and its answer's time + ttl)
        self.asked: dict[str, float] = {}
        #: the workers whose claim was invoked and has not completed yet: until it does, the
        #: ledger may already have bumped the epoch that the model learns of only at its ok
        self.inflight: set[str] = set()
        #: claims granted since the task was submitted or last requeued
        self.attempts = 0
        #: claims since then that a crash cut off before their answer: the ledger may have
        #: granted each (a two-statement claim bumps before it reads back), unseen here
        self.unseen = 0
        #: the worker granted the last claim (None before any, or when an unseen claim may
        #: have followed it)
        self.claimer: str | None = None
        #: ``epoch`` is a lower bound: the dead letter bumped it, and its refusal does not say
        #: by how much (a ledger may raise epochs by more than one, as its claims show)
        self.epoch_floor = False
        #: the checkpoint of the last accepted save that said one (what a claim hands back)
        self.checkpoint = None
        #: the history shows this task's checkpoints (a save or a claim said one), so the
        #: checkpoint a claim hands back and the final record's are judged
        self.checkpointed = False
        #: the first accepted submit (None before it): a later one is a second submit
        self.submit: Event | None = None
        #: the lease end the ledger last reported for the lease in force (its claim's, then
        #: each accepted heartbeat's read-back); None when not reported or no lease is held
        self.given: float | None = None

    @property
    def unanswered(self) -> int:
        """Claims of this task that may have been granted unseen: those a crash cut off since
        the submit or last requeue, and those invoked and not answered yet."""
        return self.unseen + len(self.inflight)


class Model:
    """The protocol's state of every task, advanced one event at a time by :meth:`apply`.

    ``ttl`` is the lease length the workers ask for, when known; otherwise each claim's own
    ``lease_until`` minus its time stands for it. ``max_attempts`` is the ledger's limit on the
    claims of one task (None: not known; :data:`NO_LIMIT`: none).
    """

    def __init__(
        self, submitted: set[str], ttl: float | None = None, max_attempts: float | None = None
    ):
        self.tasks: dict[str, TaskState] = {}
        self.ttl = ttl
        #: the ledger's limit on claims of one task before its dead letter (None: not known)
        self.max_attempts = max_attempts
        self._submitted = submitted
        self._ttls: dict[str, float] = {}

    #: op -> the name of the transition of its accepted (ok) event (a method taking the task's
    #: state and the event). Names, not bound methods kept on the instance: those would make
    #: every model a reference cycle, which only the cycle collector frees, with every task
    #: state it holds.
    TRANSITIONS = {
        "claim": "_claimed",
        "heartbeat": "_beat",
        "save": "_saved",
        "effect": "_recorded",
        "cancel": "_cancelled",
        "requeue": "_requeued",
        "release": "_released",
        "submit": "_first_submit",
    }

    @property
    def on_ok(self) -> dict[str, Callable[[TaskState, Event], None]]:
        """op -> the transition of its accepted (ok) event, bound to this model."""
        return {op: getattr(self, name) for op, name in self.TRANSITIONS.items()}

    def state(self, task: str) -> TaskState:
        """The state of ``task`` (a fresh queued one the first time it is asked for)."""
        s = self.tasks.get(task)
        if s is None:
            s = self.tasks[task] = TaskState(task, task in self._submitted)
        return s

    def open_lease(self, s: TaskState, e: Event) -> None:
        """An open task's first fenced operation: take it to come from a lease granted before
        the history began (see the module doc)."""
        if not s.submitted and s.newest is None and s.lease is None and e.epoch is not None:
            s.status, s.epoch, s.newest = RUNNING, e.epoch, e

    def ttl_of(self, task: str) -> float | None:
        """The lease length of ``task``'s leases: the known ttl, else its last claim's."""
        return self.ttl if self.ttl is not None else self._ttls.get(task)

    def apply(self, s: TaskState, e: Event) -> None:
        """Advance ``s`` by event ``e`` (the table in the module doc)."""
        if e.type == "ok":
            name = self.TRANSITIONS.get(e.op)
            if name is not None:
                getattr(self, name)(s, e)
        if e.op == "heartbeat" and e.type == "invoke":
            s.asked[e.process] = e.time
        elif e.op == "claim":
            if e.type == "invoke":
                s.asked[e.process] = e.time
                s.inflight.add(e.process)
            else:
                s.inflight.discard(e.process)
                if e.type == "fail":
                    self._refused(s, e)
        elif e.op in ("crash", "restart") and e.process in s.inflight:
            s.inflight.discard(e.process)
            s.unseen += 1
            s.claimer = None

    def _refused(self, s: TaskState, e: Event) -> None:
        if e.value.get("status") == DEAD and s.status != DEAD:
            s.status, s.epoch, s.newest = DEAD, s.epoch + 1, e
            s.ended, s.lease, s.until, s.given = e, None, None, None
            s.epoch_floor = True

    def _beat(self, s: TaskState, e: Event) -> None:
        if s.lease is None or e.epoch != s.epoch:
            return
        s.given = e.value.get("lease_until")
        ttl = self.ttl_of(s.task)
        if ttl is not None:
            s.until = max(s.until or e.time, e.time + ttl)

    def _recorded(self, s: TaskState, e: Event) -> None:
        key = e.value.get("key")
        if key is not None and key not in s.effects:
            s.effects[key] = e

    def _cancelled(self, s: TaskState, e: Event) -> None:
        s.status, s.epoch, s.newest = CANCELLED, max(s.epoch + 1, e.epoch or 0), e
        s.ended, s.cancel, s.lease, s.until, s.given = e, e, None, None, None
        if e.epoch is not None:
            s.epoch_floor = False

    def _requeued(self, s: TaskState, e: Event) -> None:
        s.status, s.ended, s.cancel, s.lease, s.until = QUEUED, None, None, None, None
        s.attempts = s.unseen = 0
        s.given = None

    def _released(self, s: TaskState, e: Event) -> None:
        s.status, s.lease, s.until, s.given = QUEUED, None, None, None

    def _first_submit(self, s: TaskState, e: Event) -> None:
        if s.submit is None:
            s.submit = e

    def _claimed(self, s: TaskState, e: Event) -> None:
        s.status, s.ended, s.done = RUNNING, None, None
        s.attempts += 1
        s.claimer = e.process
        if e.epoch is not None:
            s.epoch_floor = False
            if e.epoch > s.epoch:
                s.epoch = e.epoch
        s.newest = e
        if "checkpoint" in e.value:
            s.checkpointed = True
        if e.step is not None and not s.submitted and s.best is None:
            s.step = e.step  # an open fragment: the steps before it are not shown
        reported = e.value.get("lease_until")
        s.given = reported
        if self.ttl is not None:
            s.lease, s.until = e, e.time + self.ttl
        elif reported is not None:
            self._ttls[s.task] = float(reported) - e.time
            s.lease, s.until = e, float(reported)
        else:
            s.lease, s.until = e, None  # a hand-made claim without lease_until: not timed

    def _saved(self, s: TaskState, e: Event) -> None:
        if e.step is None:
            return
        if "checkpoint" in e.value:
            s.checkpoint, s.checkpointed = e.value["checkpoint"], True
        s.committed.setdefault(e.step, e)
        if s.best is None or e.step > s.best.step:
            s.best = e
        s.step = e.step
        if e.value.get("done"):
            s.status, s.ended, s.done, s.lease, s.until = COMPLETED, e, e, None, None
            s.given = None
