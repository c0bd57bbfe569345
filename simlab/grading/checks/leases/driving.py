"""How the checks of exercise ``leases`` drive a student's ledger: a clock moved by hand, fresh
ledgers of the student's pieces on it, an expected error, and every schedule of at most one
fault over a small scope, run by the fault explorer and judged by the checker."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from simlab.errors import LeaseHeld, LedgerError, TerminalTask, UnknownTask
from simlab.grading.checks.hidden_world import rng
from simlab.grading.checks.leases.messages import say
from simlab.grading.lending import Lent
from simlab.grading.messages import Message
from simlab.grading.questions import FAILURE_CHARS, Fail
from simlab.grading.sandbox.supervisor import RemoteError
from simlab.grading.student import CheckedLedger, Student, kind_of
from simlab.records import Lease
from simlab.sim.sending import Sender, watched

__all__ = [
    "Clock",
    "Ledgers",
    "raises",
    "explored",
    "explore_seed",
    "EXPLORE_SCOPE",
    "SENDING_STEPS",
]


class Clock:
    """A clock the check moves by hand."""

    def __init__(self, now: float = 0.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


class Ledgers:
    """Fresh ledgers with the student's ``pieces`` plugged in, all on one hand :class:`Clock`
    (the clock of one question: each fresh ledger sets it back to 0); :meth:`close` when done.

    The in-memory ledger is made once and emptied for each case
    (:meth:`simlab.ledger.Ledger.clear`; a piece never leaves a transaction open, nor may its
    statements change the schema: :mod:`simlab.grading.untrusted.sql`), so every case starts
    from what a new ledger holds."""

    def __init__(self, s: Student, **pieces: str):
        self.s = s
        self.pieces = pieces
        self.clock = Clock()
        self._ledger: CheckedLedger | None = None

    def fresh(self) -> CheckedLedger:
        """A ledger at time 0 holding one queued task, ``t1``, and nothing else (kept by the
        grader)."""
        self.clock.now = 0.0
        if self._ledger is None:
            self._ledger = self.s.ledger(clock=self.clock, **self.pieces)
        else:
            self._ledger.raw.clear()
        self._ledger.submit("t1")
        return self._ledger

    def close(self) -> None:
        """Close the ledger (the grader's own connection)."""
        if self._ledger is not None:
            self._ledger.raw.close()
            self._ledger = None


def raises(call: Callable[[], Any], error: type, said: Message) -> None:
    """``call()`` must raise ``error``; otherwise fail with ``said`` and what happened."""
    try:
        value = call()
    except error:
        return
    except (LeaseHeld, TerminalTask, UnknownTask) as other:
        raise Fail(say("but_raised", said=said, kind=type(other).__name__)) from None
    raise Fail(say("but_returned", said=said, kind=kind_of(value)))


#: The scope a learner's ledger pieces are explored in (:func:`explored`): every schedule of at
#: most one fault over 1 task x 2 workers x 2 steps, each fault kind at every point it can
#: strike, a pause lasting 1.5 leases (past the lease and the broker's redelivery, so another
#: worker takes the task over while the sleeper sleeps). Each run crosses the jail for every
#: call of a piece, so the scope is the smallest in which every fault still meets a second
#: worker; a second task's faults would be the same faults on another row, and what a piece
#: does to another task is judged by the generated sequences on two tasks whose IDs share a
#: prefix (:mod:`~simlab.grading.checks.leases.operations`). A shorter pause meets no other
#: worker, and a longer one lets the other worker finish the task, whose new epoch fences the
#: sleeper exactly as the takeover's does; what a piece does to a finished, released or
#: cancelled task is judged by the generated sequences. Where a ``send_step`` is judged, the
#: task has one step, the one that sends its e-mail (:data:`SENDING_STEPS`): every fault before
#: or around the e-mail still meets the second worker.
EXPLORE_SCOPE = {"tasks": 1, "workers": 2, "steps": 2, "max_faults": 1, "lengths": (1.5,)}
#: The steps of the task in the runs that judge a ``send_step`` (see :data:`EXPLORE_SCOPE`).
SENDING_STEPS = 1


def explored(
    s: Student,
    pieces: dict[str, str],
    what: Message,
    label: str,
    send_step: str | None = None,
) -> None:
    """Explore every schedule of :data:`EXPLORE_SCOPE` over a ledger with the student's
    ``pieces`` (and their ``send_step`` sending each e-mail, if given), with the arrivals and
    step times of a seed drawn from the hidden world (``label``): the checker must find
    nothing in any of them, refusals included. The shortest failing run is told as a short
    story in the learner's terms (never its seed).

    With a ``send_step`` the task has :data:`SENDING_STEPS` steps, its e-mail sent at the
    last; without one the runs send no e-mail: the crashes around one would judge only the
    kit's own recording and sending, never the student's pieces."""
    from simlab.sim.explore import explore

    seed = explore_seed(label)
    factory = _Emptied(s, pieces)
    sender = None if send_step is None else factory.remembered.sender(_sender(s, send_step))
    scope = dict(EXPLORE_SCOPE, effects="none")
    if sender is not None:
        scope.update(effects="last", steps=SENDING_STEPS)
    try:
        found = explore(factory, first_seed=seed, sender=sender, **scope)
    finally:
        factory.close()
    if found.certified:
        return
    head = len(str(say("broke_rule", what=what, story="")))
    raise Fail(say("broke_rule", what=what, story=_told(found.story or [], FAILURE_CHARS - head)))


def explore_seed(label: str) -> int:
    """The seed whose arrivals and step times :func:`explored` explores ``label``'s schedules
    with, drawn from the current hidden world (never shown in feedback)."""
    return rng(label).randrange(1, 1_000_000)


class _Kept(CheckedLedger):
    """A ledger a run may close: it stays open for the next run (its owner closes it)."""

    def close(self) -> None:
        pass


class _Emptied:
    """A ledger factory for the explorer's many short runs: one in-memory ledger with the
    student's ``pieces``, made for the first run and emptied for each later one
    (:meth:`simlab.ledger.Ledger.clear`; a piece never leaves a transaction open,
    :meth:`Student.ledger <simlab.grading.student.Student.ledger>` rolls it back), so every run
    starts from what a new ledger holds; :meth:`close` when done. Its pieces (and the
    ``send_step`` its search uses) are :class:`_Remembered`: the runs of a search share the
    moves before their faults."""

    def __init__(self, s: Student, pieces: dict[str, str]):
        self.s = s
        self.pieces = pieces
        self.ledger: CheckedLedger | None = None
        self.remembered = _Remembered()

    def __call__(self, clock: Callable[[], float]) -> CheckedLedger:
        if self.ledger is None:
            self.ledger = self.s.ledger(clock=clock, around=self.remembered.wrap, **self.pieces)
            self.remembered.ledger = self.ledger.raw
        else:
            raw = self.ledger.raw
            raw.clear()
            raw.clock = clock
        return _Kept(self.ledger.raw)

    def close(self) -> None:
        if self.ledger is not None:
            self.ledger.raw.close()
            self.ledger = None


#: What a remembered piece may have raised and is raised again: the kit's errors and the
#: learner's own (a lost sandbox, or anything of the grader's, is never remembered).
_REMEMBERED_ERRORS = (LedgerError, RemoteError)


class _Remembered:
    """Pieces (and a ``send_step``, :meth:`sender`) that answer a call they already answered
    without asking the sandbox again.

    A call is the piece, its arguments (``now`` among them) and the state of :attr:`ledger`
    before it, as the ledger reports it (every task, in submit order, and every recorded effect:
    the state the explorer tells runs apart by); what the piece answered (a value or an error of
    :data:`_REMEMBERED_ERRORS`) and the database it left are kept
    (:meth:`sqlite3.Connection.serialize`), and the same call later gets the same answer and
    leaves the same database (:meth:`sqlite3.Connection.deserialize`). The explorer replays the
    moves before each schedule's fault over and over; its own premise is that a ledger's
    behaviour depends only on that state (:mod:`simlab.sim.explore`), and so a piece's on it and
    its arguments. A call whose arguments cannot be told apart by value, or made in a state the
    ledger cannot report, is never remembered (nor is one inside an open transaction: a piece
    leaves none, :meth:`Student.ledger <simlab.grading.student.Student.ledger>` rolls it back)."""

    def __init__(self) -> None:
        self.seen: dict[tuple, tuple[bool, Any, bytes]] = {}
        #: The ledger whose pieces these are (set once it is made).
        self.ledger: Any = None

    def _state(self) -> str | None:
        try:
            return repr((self.ledger.tasks(), self.ledger.all_effects()))
        except LedgerError:
            return None

    def wrap(self, piece: Callable[..., Any]) -> Callable[..., Any]:
        seen = self.seen

        def remembered(db: Any, *args: Any) -> Any:
            state = self._state()
            if state is None:
                return piece(db, *args)
            key = (piece.__name__, args, state)
            try:
                hit = seen.get(key)
            except TypeError:  # an argument with no value to compare
                return piece(db, *args)
            if hit is not None:
                raised, answer, after = hit
                db.deserialize(after)
                if raised:
                    raise answer.with_traceback(None)
                return answer
            try:
                answer = piece(db, *args)
            except _REMEMBERED_ERRORS as exc:
                seen[key] = (True, exc, db.serialize())
                raise
            seen[key] = (False, answer, db.serialize())
            return answer

        remembered.__name__ = piece.__name__
        return remembered

    def sender(self, sender: Sender) -> Sender:
        """``sender`` (a ``send_step`` as the simulator's sender) remembered the same way: a
        call is the lease, the step, the clock's time and the ledger's state, and what is kept
        is the moves it made (the e-mails it sent, what ``record_effect`` answered it) and the
        database it left. A call that raised is never remembered."""
        seen = self.seen

        def remembering(ledger: Any, clock: Callable[[], float]) -> Callable[[Lease, int], list]:
            send = sender(ledger, clock)
            db = getattr(ledger, "raw", ledger).db

            def remembered(lease: Lease, step: int) -> list:
                state = self._state()
                if state is None:
                    return send(lease, step)
                key = ("send_step", lease, step, clock(), state)
                try:
                    hit = seen.get(key)
                except TypeError:  # a lease with no value to compare
                    return send(lease, step)
                if hit is not None:
                    db.deserialize(hit[2])
                    return list(hit[1])
                moves = send(lease, step)
                seen[key] = (False, list(moves), db.serialize())
                return moves

            return remembered

        return remembering


def _sender(s: Student, name: str) -> Sender:
    """The student's ``name`` (a ``send_step``) as the simulator's sender: it runs in the
    sandbox with stand-ins of a watched ledger and mailbox that stay here
    (:func:`simlab.sim.sending.watched`), so the moves it made are the ones the grader saw."""

    def send_step(ledger: Any, lease: Lease, step: int, mailbox: Any) -> Any:
        return s.call(name, Lent(ledger, "Ledger"), lease, step, Lent(mailbox, "Mailbox"))

    watching = watched(send_step)

    def sender(ledger: Any, clock: Callable[[], float]) -> Callable[[Lease, int], list]:
        return watching(getattr(ledger, "raw", ledger), clock)

    return sender


def _told(story: list[str], chars: int) -> str:
    """The last moves of ``story`` and the rule it broke, without times, seeds or fault
    numbers, in at most ``chars`` characters."""
    events = [_plain(line) for line in story if re.match(r"t=[\d.]+: ", line)]
    rule = next((line for line in story if line.startswith("This breaks rule")), "")
    rule = rule.split(": ")[0] + "." if rule else ""
    told = events[-3:]
    while told and len(" ".join([*told, rule])) > chars:
        told = told[1:]
    return " ".join([*told, rule]).strip()


def _plain(line: str) -> str:
    """One sentence of the story without its time and fault number, cut before its first
    colon or semicolon (what follows explains), and without " of t0001" (a shrunk story is
    about one task, and a short story reads better)."""
    line = re.sub(r"^t=[\d.]+: (fault \d+: )?", "", line)
    line = re.sub(r" of t\d+\b", "", re.split(r"[:;] ", line)[0].rstrip(".") + ".")
    if re.match(r"[a-z]+ ", line):  # "the broker ...", "a user ...", not "w1 ..."
        line = line[0].upper() + line[1:]
    return line
