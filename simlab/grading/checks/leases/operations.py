"""Properties of the ledger pieces: generated sequences of ledger operations, each of the
learner's operations judged against the kit's reference ledger started from the same state.

A sequence moves two tasks through claims by several workers, heartbeats, recorded effects,
fenced saves, releases, cancels, requeues and the dead letter (a task out of attempts) while
the clock moves on by generated amounts, sometimes exactly to the end of a task's lease. It is
played on the grader's ledger with the learner's pieces plugged in
(:meth:`simlab.grading.student.Student.ledger`). Right before each of the learner's
operations the grader copies that ledger into the kit's own ``Ledger(":memory:")`` and runs the
same operation there: the two must give the same outcome (the value, or the kind of error and
its fields) and leave the same task rows and effects. As the reference always starts from the
learner's state, one wrong field never makes every later operation look wrong, and each
difference is judged on its own.

Each difference is filed under what it breaks (:data:`CORE`, :data:`DETAIL`, :data:`BOUNDARY`),
and each criterion of a question is one property: its part fails on the shortest sequence that
ends in such a difference (:func:`check`). Playing a sequence is remembered, so the parts of
one question share their calls into the sandbox.

A sequence is written with labels (tasks ``t1``, ``t2`` and, in stories only, the look-alikes
of ``t1``: ``T1``, ``' t1'``, ``'t1 '``, ``ｔ1``, ``t1*``, and ``t1%`` and ``t1?``, tasks the
ledgers never hold; workers ``A``, ``B``, ``C``, keys ``k1``, ``k2`` and, in stories only,
``K1`` (``k1`` in other capitals); lease lengths ``10`` and ``20``, a clock starting at 0) and
played in the question's hidden world (:mod:`~simlab.grading.checks.leases.world`): the
ledgers see the world's IDs, names, keys, lease lengths and clock (the story's seconds scaled
to the world's lease lengths, so which lease is live when is the same in every world), while
the story keeps the labels and its own seconds: the draws of Hypothesis stay the same in every
world and no drawn value reaches the feedback.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from simlab.errors import LeaseHeld, LedgerError, TerminalTask, UnknownTask
from simlab.grading.checks.leases.broken import END_NOW
from simlab.grading.checks.leases.driving import Clock
from simlab.grading.checks.leases.messages import say
from simlab.grading.checks.leases.world import LOOK_ALIKES, UNKNOWN, UNKNOWN_GLOB, World
from simlab.grading.messages import Message
from simlab.grading.properties import Story, falsify, st
from simlab.grading.questions import Fail, NotAttempted, shown_type
from simlab.grading.sandbox.supervisor import RemoteError, SandboxLost
from simlab.grading.student import Student, WrongType, shown_value
from simlab.ledger import Ledger
from simlab.records import Lease, TaskRecord

__all__ = ["CORE", "DETAIL", "HEARTBEAT", "BOUNDARY", "Plays", "sequences", "check"]

#: What a difference breaks: the question's core idea, a detail of the claim or of the recorded
#: effect, a detail of the heartbeat, or only the exact end of a lease.
CORE, DETAIL, HEARTBEAT, BOUNDARY = "core", "detail", "heartbeat", "boundary"

TASKS = ("t1", "t2")
#: The tasks every sequence's ledgers also hold, whose IDs look like ``t1``'s
#: (:attr:`~simlab.grading.checks.leases.world.World.look_alikes`: in other case, after or
#: before a space, full-width, followed by a ``GLOB`` wildcard): a piece that matches task IDs
#: loosely (``LIKE``, ``COLLATE NOCASE``, ``trim()``, ``COLLATE RTRIM``, ``GLOB``) changes one
#: of them too, or takes one of them for ``t1``. Only stories move them.
TWINS = LOOK_ALIKES
WORKERS = ("A", "B", "C")
KEYS = ("k1", "k2")
TTLS = (10.0, 20.0)
#: Generated sequences per property, and the longest one.
EXAMPLES = 20
LONGEST = 14

_FIELDS = tuple(f.name for f in dataclasses.fields(TaskRecord))
_BUT_UPDATED_AT = tuple(f for f in _FIELDS if f != "updated_at")
#: The error of an outcome whose value the grader refused by its type.
_WRONG_TYPE = "a value of the wrong type"
#: Fields and columns whose values come from the hidden world: a difference there is told by
#: what the value should be (:func:`_differs`), never by the values themselves.
_WORLDLY = ("task_id", "worker", "key", "lease_until", "updated_at", "recorded_at")


def _lease_ref() -> st.SearchStrategy[int]:
    return st.integers(0, 5)  # 0 is the newest lease handed out, 1 the one before...


_MOVES: dict[str, st.SearchStrategy] = {
    "claim": st.tuples(
        st.just("claim"), st.sampled_from(TASKS), st.sampled_from(WORKERS), st.sampled_from(TTLS)
    ),
    "wait": st.tuples(st.just("wait"), st.integers(1, 25)),
    "expire": st.tuples(st.just("expire"), st.sampled_from(TASKS)),
    "heartbeat": st.tuples(st.just("heartbeat"), _lease_ref(), st.sampled_from(TTLS)),
    "record": st.tuples(st.just("record"), _lease_ref(), st.sampled_from(KEYS)),
    "save": st.tuples(st.just("save"), _lease_ref(), st.booleans()),
    "release": st.tuples(st.just("release"), _lease_ref()),
    "cancel": st.tuples(st.just("cancel"), st.sampled_from(TASKS)),
    "requeue": st.tuples(st.just("requeue"), st.sampled_from(TASKS)),
    "bury": st.tuples(st.just("bury"), st.sampled_from(TASKS)),
}


@functools.cache
def sequences(kinds: tuple[str, ...]) -> st.SearchStrategy[tuple]:
    """Sequences of the moves named in ``kinds`` (claims first: they shrink towards them).
    Built once per process for each ``kinds``: its ``repr``, which keys the draws
    :func:`~simlab.grading.properties.falsify` keeps, costs more than building it."""
    return st.lists(st.one_of(*(_MOVES[k] for k in kinds)), min_size=1, max_size=LONGEST).map(tuple)


@dataclass
class Outcome:
    """What one call gave: a value, or an error (its kind and the exception)."""

    value: Any = None
    error: str | None = None
    exc: BaseException | None = None

    @property
    def shown(self) -> Message | str:
        if self.error == _WRONG_TYPE:
            return say("wrong_type")
        return self.error if self.error is not None else shown_value(self.value)


def _outcome(call: Callable[[], Any]) -> Outcome:
    try:
        return Outcome(value=call())
    except (SandboxLost, NotAttempted):
        raise
    except RemoteError as exc:
        if exc.type == "NotImplementedError":
            raise
        return Outcome(error=shown_type(exc.type), exc=exc)
    except WrongType as exc:
        return Outcome(error=_WRONG_TYPE, exc=exc)
    except (LeaseHeld, TerminalTask, UnknownTask, LedgerError, ValueError, TypeError) as exc:
        return Outcome(error=type(exc).__name__, exc=exc)


@dataclass
class Verdict:
    """A difference found at move ``at`` (its index in the played moves), and what it breaks."""

    at: int
    what: str
    said: Message


@dataclass
class Played:
    """The moves of one sequence as told, and every difference found, in order."""

    moves: list[Message] = field(default_factory=list)
    verdicts: list[Verdict] = field(default_factory=list)


def _state(ledger: Ledger) -> tuple[dict[str, dict], dict[tuple, tuple]]:
    """Every task as stored (field -> value) and every effect ((task, key) -> row), read by
    the kit's own methods on the grader's connection in two statements (each read builds new
    records, so the values need no copy). An effect recorded for no task of the ledger is
    one of them too: a piece that writes one has changed the effects."""
    tasks = {r.task_id: {f: getattr(r, f) for f in _FIELDS} for r in ledger.tasks()}
    effects = {
        (e.task_id, e.key): (e.task_id, e.key, e.epoch, e.worker, e.recorded_at)
        for recorded in ledger.all_effects().values()
        for e in recorded
    }
    return tasks, effects


def _well_formed(lease: Any) -> bool:
    return (
        isinstance(lease, Lease)
        and isinstance(lease.task_id, str)
        and isinstance(lease.worker, str)
        and type(lease.epoch) is int
        and type(lease.step) is int
        and isinstance(lease.lease_until, float)
    )


class Plays:
    """Plays sequences on ledgers with the student's ``pieces`` in ``world`` and remembers
    what it found; :meth:`close` when done.

    Every sequence starts from an empty pair of ledgers: the two in-memory ledgers are made
    once and emptied before each sequence (:meth:`simlab.ledger.Ledger.clear`, after rolling
    back a transaction the student's piece left open, as closing a ledger would), so a
    sequence sees exactly what a new pair would show it."""

    def __init__(self, s: Student, world: World, **pieces: str):
        self.s = s
        self.world = world
        self.pieces = pieces
        self.seen: dict[tuple, Played] = {}
        self._mine: Any = None
        self._ref: Ledger | None = None

    def play(self, moves: tuple) -> Played:
        """What ``moves`` gave. A sequence without a claim hands out no lease, so no piece is
        ever called in it (a heartbeat, a record, a save or a release needs a lease): it is
        not played, and nothing differs."""
        if moves not in self.seen:
            claims = any(move[0] == "claim" for move in moves)
            self.seen[moves] = _Run(self).run(moves) if claims else Played()
        return self.seen[moves]

    def ledgers(self, clock: Clock) -> tuple[Any, Ledger]:
        """The student's ledger and the reference, both empty and on ``clock``."""
        if self._mine is None or self._ref is None:
            self._mine = self.s.ledger(clock=clock, **self.pieces)
            self._ref = Ledger(":memory:", clock=clock)
            return self._mine, self._ref
        raw = self._mine.raw  # no piece leaves a transaction open (Student.ledger)
        raw.clear()
        raw.clock = self._ref.clock = clock
        return self._mine, self._ref

    def close(self) -> None:
        """Close the two ledgers (the student's is the grader's own connection)."""
        for ledger in (self._mine, self._ref):
            if ledger is not None:
                ledger.close()
        self._mine = self._ref = None


class _Run:
    """One sequence on an empty pair of ledgers (the student's and the reference)."""

    def __init__(self, plays: Plays):
        self.world = plays.world
        self.clock = Clock(plays.world.start)
        self.pieces = plays.pieces
        self.ledger, self.ref = plays.ledgers(self.clock)
        self.raw = self.ledger.raw
        self.leases: list[Lease] = []
        self.played = Played()

    def run(self, moves: tuple) -> Played:
        for task in (*TASKS, *TWINS):
            self.ledger.submit(self.world.task(task))
        for move in moves:
            told = getattr(self, f"_{move[0]}")(*move[1:])
            if told:
                self.played.moves.append(told)
        return self.played

    def label(self, task_id: str) -> str:
        """The story's label of the world's ``task_id``."""
        labels = (*TASKS, *TWINS, UNKNOWN, UNKNOWN_GLOB)
        return next(label for label in labels if self.world.task(label) == task_id)

    def _lease(self, ref: int) -> tuple[Lease, int] | None:
        """The lease ``ref`` names (0 the newest) and its number in the story (1 the first)."""
        if not self.leases:
            return None
        n = len(self.leases) - 1 - ref % len(self.leases)
        return self.leases[n], n + 1

    def _judge(self, said: Callable[..., tuple[str, Message] | None], *args: Any) -> None:
        found = said(*args)
        if found is not None:
            self.played.verdicts.append(Verdict(len(self.played.moves), *found))

    def _both(self, method: str, *args: Any) -> tuple[tuple, Outcome, Outcome]:
        """The student's move, judged: the state before, the kit's outcome on a copy of the
        student's ledger (read its state from ``self.ref``), then the student's outcome."""
        self.raw.db.backup(self.ref._db)
        before = _state(self.raw)
        expected = _outcome(lambda: getattr(self.ref, method)(*args))
        got = _outcome(lambda: getattr(self.ledger, method)(*args))
        return before, expected, got

    # -- the moves -------------------------------------------------------------------------------

    def _wait(self, seconds: float) -> Message:
        self.clock.now += float(seconds) * self.world.scale
        return say("wait", seconds=seconds)

    def _expire(self, task: str) -> Message | None:
        until = _state(self.raw)[0][self.world.task(task)]["lease_until"]
        if not isinstance(until, (int, float)) or until <= self.clock.now:
            return None
        self.clock.now = float(until)
        return say("expire", task=task)

    def _ended(self, task_id: str) -> None:
        """The first task's lease, once the task left ``running``, ends now rather than being
        cleared: its row keeps a ``lease_until`` that has come, so only its status tells that
        it is no longer claimable by lease expiry nor current for its holder's calls."""
        if task_id == self.world.tasks[0]:
            self.raw._count(END_NOW, {"now": self.clock.now, "task_id": task_id})

    def _cancel(self, task: str) -> Message:
        self.ledger.raw.cancel(self.world.task(task))
        self._ended(self.world.task(task))
        return say("user_cancels", task=task)

    def _requeue(self, task: str) -> Message:
        self.ledger.raw.requeue(self.world.task(task))
        self._ended(self.world.task(task))
        return say("user_requeues", task=task)

    def _bury(self, task: str) -> Message | None:
        """The task runs out of attempts: a claim the kit makes with an attempt limit the task
        has reached sends a claimable task to the dead letter (status ``dead``, epoch raised),
        as the kit's own ledger does; a task that is not claimable is left as it is."""
        task_id = self.world.task(task)
        attempts = _state(self.raw)[0][task_id]["attempts"]
        limit = self.raw.max_attempts
        self.raw.max_attempts = attempts if type(attempts) is int else 0
        try:
            Ledger.claim(self.raw, task_id, self.world.worker("C"), self.world.ttl(10.0))
        except (LeaseHeld, TerminalTask):
            pass
        finally:
            self.raw.max_attempts = limit
        if _state(self.raw)[0][task_id]["status"] != "dead":
            return None
        self._ended(task_id)
        return say("goes_dead", task=task)

    def _save(self, ref: int, done: bool) -> Message | None:
        lease = self._lease(ref)
        if lease is None:
            return None
        step = _state(self.raw)[0][lease[0].task_id]["step"]
        step = step + 1 if type(step) is int else 1
        # Every save leaves a checkpoint, so a later claim that drops it (or returns a lease
        # without it) differs from the kit's.
        self.ledger.raw.save(
            lease[0],
            step,
            done=done,
            result="out" if done else None,
            checkpoint={"evidence": [f"doc@{step}"]},
        )
        self._ended(lease[0].task_id)
        return say("saves_done" if done else "saves", n=lease[1], step=step)

    def _release(self, ref: int) -> Message | None:
        lease = self._lease(ref)
        if lease is None:
            return None
        self.ledger.raw.release(lease[0])
        self._ended(lease[0].task_id)
        return say("releases", n=lease[1], task=self.label(lease[0].task_id))

    def _claim(self, label: str, worker: str, ttl: float) -> Message:
        task = self.world.task(label)
        args = (task, self.world.worker(worker), self.world.ttl(ttl))
        if "claim" not in self.pieces:
            got = _outcome(lambda: self.ledger.raw.claim(*args))
            if isinstance(got.value, Lease):
                self.leases.append(got.value)
            return _claimed(label, worker, ttl, got, len(self.leases))
        before, expected, got = self._both("claim", *args)
        self._judge(_claim_verdict, task, before, _state(self.ref), expected, got, self)
        lease = got.value if _well_formed(got.value) else expected.value
        if isinstance(lease, Lease) and isinstance(got.value, Lease):
            self.leases.append(lease)
        return _claimed(label, worker, ttl, got, len(self.leases))

    def _other_claim(self, label: str, worker: str, ttl: float) -> Message:
        """Another process claims the task with the kit's claim (on the same ledger file, so
        the learner's pieces see only the row it wrote): its lease is one of the story's."""
        args = (self.world.task(label), self.world.worker(worker), self.world.ttl(ttl))
        got = _outcome(lambda: Ledger.claim(self.raw, *args))
        if isinstance(got.value, Lease):
            self.leases.append(got.value)
            return say(
                "other_claims", worker=worker, task=label, ttl=f"{ttl:g}", n=len(self.leases)
            )
        return say("other_claims_refused", worker=worker, task=label, ttl=f"{ttl:g}")

    def _heartbeat(self, ref: int, ttl: float) -> Message | None:
        lease = self._lease(ref)
        if lease is None:
            return None
        self._with_lease("heartbeat", lease, self.world.ttl(ttl), _heartbeat_verdict)
        return say("heartbeats", n=lease[1])

    def _record(self, ref: int, label: str) -> Message | None:
        lease = self._lease(ref)
        if lease is None:
            return None
        self._with_lease("record_effect", lease, self.world.key(label), _effect_verdict, label)
        return say("records", n=lease[1], key=label)

    def _with_lease(
        self, method: str, lease: tuple[Lease, int], arg: Any, verdict: Callable, *told: Any
    ) -> None:
        """``method(lease, arg)``: the kit's where the learner did not write that piece, else the
        learner's, judged by ``verdict`` against the kit's on a copy (``told``: what the verdict
        names besides the lease)."""
        if method not in self.pieces:
            getattr(self.ledger.raw, method)(lease[0], arg)
            return
        before, expected, got = self._both(method, lease[0], arg)
        self._judge(verdict, lease, *told, before, _state(self.ref), expected, got, self)


def _claimed(task: str, worker: str, ttl: float, got: Outcome, leases: int) -> Message:
    if isinstance(got.value, Lease):
        return say("claims", worker=worker, task=task, ttl=f"{ttl:g}", n=leases)
    return say("claims_refused", worker=worker, task=task, ttl=f"{ttl:g}")


def _should(field: str) -> Message:
    """What a field of the hidden world should hold, in words."""
    return say(f"should_{field}")


def _differs(key: str, name: str, got: Any, want: Any, *, label: str = "field") -> Message:
    """Message ``key``: ``name`` (told as ``label``) holds ``got`` where the kit's holds
    ``want``. For a field of the hidden world (:data:`_WORLDLY`) it is ``key`` + ``_not``,
    which says what the value should be and shows neither value."""
    if name in _WORLDLY:
        return say(f"{key}_not", **{label: name}, want=_should(name))
    return say(key, **{label: name}, got=shown_value(got), want=shown_value(want))


def _others(state: dict, task: str) -> dict:
    return {k: v for k, v in state.items() if k != task}


# -- judging one operation ---------------------------------------------------------------------


def _why_not(row: dict, lease: Lease, now: float) -> Message:
    """Why the kit refuses ``lease`` on ``row``."""
    if row["epoch"] != lease.epoch:
        return say("why_newer")
    return say("why_not_running")


def _changed(before: dict, after: dict, fields: Iterable[str]) -> str | None:
    return next((f for f in fields if before.get(f) != after.get(f)), None)


_OWNER = ("status", "epoch", "worker")


def _claim_verdict(
    task: str, before: tuple, ref: tuple, expected: Outcome, got: Outcome, run: _Run
) -> tuple[str, Message] | None:
    tasks = _state(run.raw)[0]
    label = run.label(task)
    if task not in before[0]:
        return _unknown_claim_verdict(label, before[0], tasks, expected, got)
    row, want, mine = before[0][task], ref[0][task], tasks[task]
    if _others(tasks, task) != _others(before[0], task):
        return CORE, say("claim_other_task", task=label)
    took = isinstance(expected.value, Lease)
    if not took:
        if isinstance(got.value, Lease) or _changed(row, mine, _OWNER + ("lease_until",)):
            if row["status"] == "running":
                return CORE, say("took_live", task=label)
            return CORE, say("took_status", task=label, status=str(row["status"]))
        if got.error != expected.error:
            return DETAIL, say("claim_gave", got=got.shown, want=expected.error)
        if isinstance(expected.exc, LeaseHeld) and isinstance(got.exc, LeaseHeld):
            if got.exc.worker != row["worker"]:
                return DETAIL, say("held_fields")
            if got.exc.lease_until != row["lease_until"]:
                return DETAIL, say("held_end")
        if isinstance(expected.exc, TerminalTask) and isinstance(got.exc, TerminalTask):
            if (got.exc.task_id, got.exc.status) != (task, row["status"]):
                return DETAIL, say("terminal_fields", status=str(row["status"]))
        return None
    if not isinstance(got.value, Lease):
        if row["status"] == "running" and row["lease_until"] == run.clock.now:
            return BOUNDARY, say("refused_boundary")
        return CORE, say("refused_free", task=label)
    lease = got.value
    if mine["epoch"] != want["epoch"] or lease.epoch != want["epoch"]:
        return CORE, say("claim_epoch", got=shown_value(lease.epoch), epoch=str(row["epoch"]))
    wrong = _changed(want, mine, _OWNER)
    if wrong is not None or (lease.task_id, lease.worker) != (task, want["worker"]):
        return CORE, say("not_under_lease")
    for name in ("step", "lease_until", "attempts", "checkpoint"):
        got_value, want_value = getattr(lease, name), getattr(expected.value, name)
        if got_value != want_value:
            return DETAIL, _differs("lease_field", name, got_value, want_value)
    wrong = _changed(want, mine, _FIELDS)
    if wrong is not None:
        if want[wrong] is None and wrong not in _WORLDLY:
            return DETAIL, say("claim_left_none", field=wrong, got=shown_value(mine[wrong]))
        return DETAIL, _differs("claim_left", wrong, mine[wrong], want[wrong])
    return None


def _unknown_claim_verdict(
    label: str, before: dict, tasks: dict, expected: Outcome, got: Outcome
) -> tuple[str, Message] | None:
    """A claim of a task the ledger does not hold: the kit's raises ``UnknownTask`` and changes
    nothing. One that changes a task took another task for it; one that raises anything else
    looked the refused task up loosely (``LIKE``) and found another."""
    if tasks != before:
        return CORE, say("claim_other_task", task=label)
    if got.error != expected.error:
        return DETAIL, say("claim_unknown_gave", task=label, got=got.shown, want=expected.error)
    return None


def _heartbeat_verdict(
    lease: tuple[Lease, int], before: tuple, ref: tuple, expected: Outcome, got: Outcome, run: _Run
) -> tuple[str, Message] | None:
    (lease, name), task = lease, lease[0].task_id
    tasks = _state(run.raw)[0]
    row, want, mine = before[0][task], ref[0][task], tasks[task]
    if _others(tasks, task) != _others(before[0], task):
        return CORE, say("heartbeat_other_task", n=name)
    if expected.value is not True:
        why = _why_not(row, lease, run.clock.now)
        if got.value is True:
            return CORE, say("heartbeat_true_but", n=name, why=why)
        if _changed(row, mine, _FIELDS):
            return CORE, say("heartbeat_changed_but", n=name, why=why)
        return None
    if _changed(want, mine, _OWNER + ("step",)):
        return CORE, say("heartbeat_changed", field=_changed(want, mine, _OWNER + ("step",)))
    if got.value is not True:
        return HEARTBEAT, say("heartbeat_gave", n=name, got=got.shown)
    wrong = _changed(want, mine, _BUT_UPDATED_AT)
    # The text asks a heartbeat to extend lease_until only: it may leave updated_at as it was.
    if wrong is None and mine.get("updated_at") not in (want.get("updated_at"), row["updated_at"]):
        wrong = "updated_at"
    if wrong is not None:
        return HEARTBEAT, _differs("heartbeat_left", wrong, mine[wrong], want[wrong])
    return None


def _effect_verdict(
    lease: tuple[Lease, int],
    key: str,
    before: tuple,
    ref: tuple,
    expected: Outcome,
    got: Outcome,
    run: _Run,
) -> tuple[str, Message] | None:
    (lease, name), task = lease, lease[0].task_id
    label, key = key, run.world.key(key)
    row = before[0][task]
    tasks, effects = _state(run.raw)
    if tasks != before[0]:
        return CORE, say("record_changed_task")
    old = {k: v for k, v in effects.items() if k in before[1]}
    if old != before[1]:
        return CORE, say("record_changed_key")
    new = set(effects) - set(before[1])
    if expected.value is not True:
        why = (
            say("why_recorded") if (task, key) in before[1] else _why_not(row, lease, run.clock.now)
        )
        if got.value is True or new:
            return CORE, say("record_but", n=name, key=label, why=why)
        return None
    if new - {(task, key)}:
        return CORE, say("record_other_key", n=name, key=label)
    if got.value is not True or not new:
        # A lease whose lease_until has passed is still current while nobody claimed the task
        # since: the feedback says so, as a refusal there is the likeliest reason.
        past = isinstance(row["lease_until"], (int, float)) and row["lease_until"] <= run.clock.now
        return DETAIL, say("record_gave_past" if past else "record_gave", n=name, got=got.shown)
    stored, wanted = effects[(task, key)], ref[1][(task, key)]
    for i, col in enumerate(("task_id", "key", "epoch", "worker", "recorded_at")):
        if stored[i] != wanted[i]:
            return DETAIL, _differs("record_row", col, stored[i], wanted[i], label="column")
    return None


# -- the properties --------------------------------------------------------------------------------


def check(
    plays: Plays,
    moves: st.SearchStrategy[tuple],
    what: str,
    first: Iterable[tuple] = (),
    examples: int = EXAMPLES,
) -> None:
    """The property "no operation of the student's differs from the kit's in a way filed
    under ``what``": fails with the story of the shortest sequence that ends in one."""

    def holds(sequence: tuple, story: Story) -> None:
        played = plays.play(sequence)
        verdict = next((v for v in played.verdicts if v.what == what), None)
        if verdict is None:
            return
        for move in played.moves[: verdict.at + 1]:
            story.add(move)
        raise Fail(verdict.said)

    falsify(moves, holds, examples=examples, first=first)
