"""Properties of the ledger pieces: generated sequences of ledger operations, each of the
learner's operations judged against the kit's reference ledger started from the same state.

A sequence moves two tasks through claims by several workers, heartbeats, recorded effects,
fenced saves, releases, cancels and requeues while the clock moves on by generated amounts,
sometimes exactly to the end of a task's lease. It is played on the grader's ledger with the
learner's pieces plugged in (:meth:`simlab.grading.student.Student.ledger`). Right before each
of the learner's operations the grader copies that ledger into the kit's own
``Ledger(":memory:")`` and runs the same operation there: the two must give the same outcome
(the value, or the kind of error and its fields) and leave the same task rows and effects. As
the reference always starts from the learner's state, one wrong field never makes every later
operation look wrong, and each difference is judged on its own.

Each difference is filed under what it breaks (:data:`CORE`, :data:`DETAIL`, :data:`BOUNDARY`),
and each criterion of a question is one property: its part fails on the shortest sequence that
ends in such a difference (:func:`check`). Playing a sequence is remembered, so the parts of
one question share their calls into the sandbox.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from simlab.errors import LeaseHeld, LedgerError, TerminalTask, UnknownTask
from simlab.grading.checks.leases.driving import Clock
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
WORKERS = ("A", "B", "C")
KEYS = ("k1", "k2")
TTLS = (10.0, 20.0)
#: Generated sequences per property, and the longest one.
EXAMPLES = 30
LONGEST = 14

_FIELDS = tuple(f.name for f in dataclasses.fields(TaskRecord))


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
}


def sequences(kinds: Iterable[str]) -> st.SearchStrategy[tuple]:
    """Sequences of the moves named in ``kinds`` (claims first: they shrink towards them)."""
    return st.lists(st.one_of(*(_MOVES[k] for k in kinds)), min_size=1, max_size=LONGEST).map(tuple)


@dataclass
class Outcome:
    """What one call gave: a value, or an error (its kind and the exception)."""

    value: Any = None
    error: str | None = None
    exc: BaseException | None = None

    @property
    def shown(self) -> str:
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
        return Outcome(error="a value of the wrong type", exc=exc)
    except (LeaseHeld, TerminalTask, UnknownTask, LedgerError, ValueError, TypeError) as exc:
        return Outcome(error=type(exc).__name__, exc=exc)


@dataclass
class Verdict:
    """A difference found at move ``at`` (its index in the played moves), and what it breaks."""

    at: int
    what: str
    said: str


@dataclass
class Played:
    """The moves of one sequence as told, and every difference found, in order."""

    moves: list[str] = field(default_factory=list)
    verdicts: list[Verdict] = field(default_factory=list)


def _state(ledger: Ledger) -> tuple[dict[str, dict], dict[tuple, tuple]]:
    """Every task as stored (field -> value) and every effect ((task, key) -> row), read by
    the kit's own methods on the grader's connection."""
    tasks = {r.task_id: dataclasses.asdict(r) for r in ledger.tasks()}
    effects = {
        (e.task_id, e.key): (e.task_id, e.key, e.epoch, e.worker, e.recorded_at)
        for task in tasks
        for e in ledger.effects(task)
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
    """Plays sequences on ledgers with the student's ``pieces`` and remembers what it found."""

    def __init__(self, s: Student, **pieces: str):
        self.s = s
        self.pieces = pieces
        self.seen: dict[tuple, Played] = {}

    def play(self, moves: tuple) -> Played:
        if moves not in self.seen:
            self.seen[moves] = _Run(self).run(moves)
        return self.seen[moves]


class _Run:
    """One sequence on a fresh pair of ledgers (the student's and the reference)."""

    def __init__(self, plays: Plays):
        self.clock = Clock(0.0)
        self.pieces = plays.pieces
        self.ledger = plays.s.ledger(clock=self.clock, **plays.pieces)
        self.raw = self.ledger.raw
        self.ref = Ledger(":memory:", clock=self.clock)
        self.leases: list[Lease] = []
        self.played = Played()

    def run(self, moves: tuple) -> Played:
        try:
            for task in TASKS:
                self.ledger.submit(task)
            for move in moves:
                told = getattr(self, f"_{move[0]}")(*move[1:])
                if told:
                    self.played.moves.append(told)
        finally:
            self.ref.close()
            self.ledger.close()
        return self.played

    def _lease(self, ref: int) -> tuple[Lease, str] | None:
        if not self.leases:
            return None
        n = len(self.leases) - 1 - ref % len(self.leases)
        return self.leases[n], f"lease {n + 1}"

    def _judge(self, said: Callable[..., tuple[str, str] | None], *args: Any) -> None:
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

    def _wait(self, seconds: int) -> str:
        self.clock.now += float(seconds)
        return f"the clock moves {seconds} s on"

    def _expire(self, task: str) -> str | None:
        until = _state(self.raw)[0][task]["lease_until"]
        if not isinstance(until, (int, float)) or until <= self.clock.now:
            return None
        self.clock.now = float(until)
        return f"the clock reaches the end of the lease on {task}"

    def _cancel(self, task: str) -> str:
        self.ledger.raw.cancel(task)
        return f"a user cancels {task}"

    def _requeue(self, task: str) -> str:
        self.ledger.raw.requeue(task)
        return f"a user requeues {task}"

    def _save(self, ref: int, done: bool) -> str | None:
        lease = self._lease(ref)
        if lease is None:
            return None
        step = _state(self.raw)[0][lease[0].task_id]["step"]
        step = step + 1 if type(step) is int else 1
        self.ledger.raw.save(lease[0], step, done=done, result="out" if done else None)
        return f"{lease[1]} saves step {step}{' as done' if done else ''}"

    def _release(self, ref: int) -> str | None:
        lease = self._lease(ref)
        if lease is None:
            return None
        self.ledger.raw.release(lease[0])
        return f"{lease[1]} releases {lease[0].task_id}"

    def _claim(self, task: str, worker: str, ttl: float) -> str:
        if "claim" not in self.pieces:
            got = _outcome(lambda: self.ledger.raw.claim(task, worker, ttl))
            if isinstance(got.value, Lease):
                self.leases.append(got.value)
            return _claimed(task, worker, ttl, got, len(self.leases))
        before, expected, got = self._both("claim", task, worker, ttl)
        self._judge(_claim_verdict, task, before, _state(self.ref), expected, got, self)
        lease = got.value if _well_formed(got.value) else expected.value
        if isinstance(lease, Lease) and isinstance(got.value, Lease):
            self.leases.append(lease)
        return _claimed(task, worker, ttl, got, len(self.leases))

    def _heartbeat(self, ref: int, ttl: float) -> str | None:
        lease = self._lease(ref)
        if lease is None:
            return None
        if "heartbeat" not in self.pieces:
            self.ledger.raw.heartbeat(lease[0], ttl)
            return f"{lease[1]} heartbeats"
        before, expected, got = self._both("heartbeat", lease[0], ttl)
        self._judge(_heartbeat_verdict, lease, before, _state(self.ref), expected, got, self)
        return f"{lease[1]} heartbeats"

    def _record(self, ref: int, key: str) -> str | None:
        lease = self._lease(ref)
        if lease is None:
            return None
        if "record_effect" not in self.pieces:
            self.ledger.raw.record_effect(lease[0], key)
            return f"{lease[1]} records {key}"
        before, expected, got = self._both("record_effect", lease[0], key)
        self._judge(_effect_verdict, lease, key, before, _state(self.ref), expected, got, self)
        return f"{lease[1]} records {key}"


def _claimed(task: str, worker: str, ttl: float, got: Outcome, leases: int) -> str:
    if isinstance(got.value, Lease):
        return f"{worker} claims {task} for {ttl:g} s (lease {leases})"
    return f"{worker} claims {task} for {ttl:g} s (refused)"


# -- judging one operation ---------------------------------------------------------------------


def _why_not(row: dict, lease: Lease, now: float) -> str:
    """Why the kit refuses ``lease`` on ``row``."""
    if row["epoch"] != lease.epoch:
        return "a newer lease holds the task"
    return "the task is not running"


def _changed(before: dict, after: dict, fields: Iterable[str]) -> str | None:
    return next((f for f in fields if before.get(f) != after.get(f)), None)


_OWNER = ("status", "epoch", "worker")


def _claim_verdict(
    task: str, before: tuple, ref: tuple, expected: Outcome, got: Outcome, run: _Run
) -> tuple[str, str] | None:
    row, want, mine = before[0][task], ref[0][task], _state(run.raw)[0][task]
    took = isinstance(expected.value, Lease)
    if not took:
        if isinstance(got.value, Lease) or _changed(row, mine, _OWNER + ("lease_until",)):
            reason = (
                "its lease was still live"
                if row["status"] == "running"
                else f"it was {row['status']}"
            )
            return CORE, f"your claim took {task} although {reason}"
        if got.error != expected.error:
            return DETAIL, f"your claim gave {got.shown}, expected {expected.error}"
        if isinstance(expected.exc, LeaseHeld) and isinstance(got.exc, LeaseHeld):
            if (got.exc.worker, got.exc.lease_until) != (row["worker"], row["lease_until"]):
                return DETAIL, "your LeaseHeld did not name the holder and its lease_until"
        return None
    if not isinstance(got.value, Lease):
        if row["status"] == "running" and row["lease_until"] == run.clock.now:
            return BOUNDARY, (
                "your claim refused a lease that ran out at this very moment "
                "(it may be taken once lease_until <= now)"
            )
        return CORE, f"your claim refused {task} although it was free to claim"
    lease = got.value
    if mine["epoch"] != want["epoch"] or lease.epoch != want["epoch"]:
        return CORE, (
            f"your claim gave epoch {shown_value(lease.epoch)} while the task was at "
            f"epoch {row['epoch']} (a claim raises it by one)"
        )
    wrong = _changed(want, mine, _OWNER)
    if wrong is not None or (lease.task_id, lease.worker) != (task, want["worker"]):
        return CORE, "after your claim the task is not running under the new lease"
    for name in ("step", "lease_until", "attempts"):
        if getattr(lease, name) != getattr(expected.value, name):
            return DETAIL, (
                f"your claim returned a lease whose {name} is "
                f"{shown_value(getattr(lease, name))}, expected {getattr(expected.value, name):g}"
            )
    wrong = _changed(want, mine, _FIELDS)
    if wrong is not None:
        return DETAIL, f"after your claim the task's {wrong} is {shown_value(mine[wrong])}" + (
            "" if want[wrong] is None else f", expected {shown_value(want[wrong])}"
        )
    return None


def _heartbeat_verdict(
    lease: tuple[Lease, str], before: tuple, ref: tuple, expected: Outcome, got: Outcome, run: _Run
) -> tuple[str, str] | None:
    (lease, name), task = lease, lease[0].task_id
    row, want, mine = before[0][task], ref[0][task], _state(run.raw)[0][task]
    if expected.value is not True:
        why = _why_not(row, lease, run.clock.now)
        if got.value is True:
            return CORE, f"your heartbeat of {name} returned True but {why}"
        if _changed(row, mine, _FIELDS):
            return CORE, f"your heartbeat of {name} changed the task but {why}"
        return None
    if _changed(want, mine, _OWNER + ("step",)):
        return CORE, f"your heartbeat changed the task's {_changed(want, mine, _OWNER + ('step',))}"
    if got.value is not True:
        return HEARTBEAT, f"your heartbeat of {name} gave {got.shown} though it holds the task"
    wrong = _changed(want, mine, _FIELDS)
    if wrong is not None:
        return HEARTBEAT, (
            f"after your heartbeat the task's {wrong} is {shown_value(mine[wrong])}, "
            f"expected {shown_value(want[wrong])}"
        )
    return None


def _effect_verdict(
    lease: tuple[Lease, str],
    key: str,
    before: tuple,
    ref: tuple,
    expected: Outcome,
    got: Outcome,
    run: _Run,
) -> tuple[str, str] | None:
    (lease, name), task = lease, lease[0].task_id
    row = before[0][task]
    tasks, effects = _state(run.raw)
    if tasks != before[0]:
        return CORE, "your record_effect changed the task"
    old = {k: v for k, v in effects.items() if k in before[1]}
    if old != before[1]:
        return CORE, "your record_effect changed or removed a key already recorded"
    new = set(effects) - set(before[1])
    if expected.value is not True:
        why = (
            "the key was already recorded"
            if (task, key) in before[1]
            else _why_not(row, lease, run.clock.now)
        )
        if got.value is True or new:
            return CORE, f"your record_effect of {name} recorded {key} but {why}"
        return None
    if new - {(task, key)}:
        return CORE, f"your record_effect of {name} recorded another key than {key}"
    if got.value is not True or not new:
        return (
            DETAIL,
            f"your record_effect of {name} gave {got.shown} for a new key of a live lease",
        )
    stored, wanted = effects[(task, key)], ref[1][(task, key)]
    for i, col in enumerate(("task_id", "key", "epoch", "worker", "recorded_at")):
        if stored[i] != wanted[i]:
            return DETAIL, (
                f"the row your record_effect stored has {col} {shown_value(stored[i])}, "
                f"expected {shown_value(wanted[i])}"
            )
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
