"""The races of exercise ``leases``, run by the grader: another worker's move scheduled between
two statements of a learner's claim, heartbeat or ``record_effect``.

Random fault seeds rarely hit the one moment a non-atomic piece breaks; these races hit it every
time. The ledger file is the grader's own (in a private folder the sandbox cannot see), the
learner's piece reaches it only through a :class:`~simlab.grading.lending.SqlGate`, and the
gate runs the other worker's move right after the chosen statement finished: a kit ``cancel``
here, or the learner's own piece for the second worker, called into the sandbox while the first
waits. Which statement it was, what each worker got and what the ledger holds afterwards are
all seen here.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from simlab.grading.checks.leases.messages import say
from simlab.grading.lending import SqlGate, grader_folder
from simlab.grading.messages import Message
from simlab.grading.questions import Fail, require
from simlab.grading.sandbox.supervisor import RemoteError, SandboxLost
from simlab.grading.student import Student
from simlab.ledger import Ledger
from simlab.records import Lease

__all__ = ["interleaved_claims", "contended_claims", "contended_effects", "rivalled", "RIVALS"]


def _written(call: Callable[..., Any]) -> Callable[..., Any]:
    """``call``, but a piece that still raises ``NotImplementedError`` (a stub) is raised as it
    is, not taken for an outcome: a stub's race has no winner to judge, and it passes nothing."""

    def attempted(*args: Any) -> Any:
        try:
            return call(*args)
        except RemoteError as exc:
            if exc.type == "NotImplementedError":
                raise _Stub(exc) from None
            raise

    return attempted


class _Stub(Exception):
    """Carries a stub's ``RemoteError`` past :func:`_outcome`."""

    def __init__(self, exc: RemoteError):
        super().__init__(exc.message)
        self.exc = exc


def _outcome(call: Callable[[], Any]) -> Any:
    """What a worker got: the value, or ``"<ErrorType>: <message>"``."""
    try:
        return call()
    except SandboxLost:
        raise
    except _Stub as stub:
        raise stub.exc from None
    except RemoteError as exc:
        return f"{exc.type}: {exc.message}"
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"


def _race_file(path: str, setup: Callable[[Ledger], Any]) -> Any:
    """Create the ledger file ``path`` holding what ``setup`` leaves on a new ledger at time 0,
    and return what ``setup`` returned: ``setup`` runs on an in-memory ledger, copied to the
    file with :meth:`Ledger.backup <simlab.ledger.Ledger.backup>` (a new file's schema
    statements cost several times the copy, and every race needs a file of its own)."""
    with Ledger(":memory:", clock=lambda: 0.0) as ledger:
        made = setup(ledger)
        ledger.backup(path)
    return made


def _expired(ledger: Ledger) -> None:
    """The task ``race``, claimed by ``old`` at 0 for 5 s: expired from t=5 on."""
    ledger.submit("race")
    ledger.claim("race", "old", 5.0)


def _ran_out(ledger: Ledger) -> Lease:
    """The task ``race`` and worker A's lease of it, claimed at 0 for 5 s: it ran out at 5 and
    nobody has taken it over yet."""
    ledger.submit("race")
    return ledger.claim("race", "A", 5.0)


def _one_task(ledger: Ledger) -> Lease:
    """The task ``t1`` and worker A's live lease of it (30 s from 0)."""
    ledger.submit("t1")
    return ledger.claim("t1", "A", 30.0)


def _statements(
    s: Student, setup: Callable[[Ledger], Any], call: Callable[[SqlGate, Any], Any]
) -> int:
    """How many statements ``call(gate, made)`` runs through ``gate`` when nothing runs
    between them: on an in-memory ledger that ``setup`` prepared at time 0 (``made`` is what
    ``setup`` returned), since an undisturbed run needs neither a file nor a second connection.
    What the call answers is not judged (the raced runs are); a stub's ``NotImplementedError``
    is raised as it is where ``call`` raises it."""
    with Ledger(":memory:", clock=lambda: 0.0) as ledger:
        made = setup(ledger)
        gate = SqlGate(ledger._db, s.sandbox)
        _outcome(lambda: call(gate, made))
        return gate.statements


def interleaved_claims(
    s: Student, path: str, gap: int = 1, later: float = 100.0, rival: str = "claim"
) -> dict[str, Any]:
    """Two workers claim one expired task with the student's ``claim``; worker B's whole claim
    runs right after statement ``gap`` of worker A's, ``later`` seconds after A's (100: when
    A's new lease has already run out; 0: at the same moment, a duplicate delivery). With
    ``rival="cancel"`` a user cancels the task there instead (B's outcome is then the cancel's
    answer).

    Returns ``{"A": Lease | "<error>", "B": Lease | "<error>", "statements": n}``. An atomic
    claim neither hands both the same epoch nor lets both win at one moment; the chapter's
    UPDATE-then-SELECT claim does the first, a SELECT-then-UPDATE claim the second.
    """
    _race_file(path, _expired)
    outcome: dict[str, Any] = {}
    a = Ledger(path, clock=lambda: 100.0, busy_timeout=0.0)
    b = Ledger(path, clock=lambda: 100.0 + later, busy_timeout=0.0)
    try:

        def worker_b() -> None:
            if rival == "cancel":
                outcome["B"] = _outcome(lambda: b.cancel("race"))
            else:
                gate = SqlGate(b._db, s.sandbox)
                outcome["B"] = _outcome(
                    lambda: s.call("claim", gate, "race", "B", 5.0, 100.0 + later)
                )
            b.close()  # whatever B left open, A finds it ended

        gate = SqlGate(a._db, s.sandbox, after=(gap, worker_b))
        outcome["A"] = _outcome(lambda: s.call("claim", gate, "race", "A", 5.0, 100.0))
        outcome.setdefault("B", "B never ran: the claim ran fewer statements")
        outcome["statements"] = gate.statements
    finally:
        a.close()
        b.close()
    return outcome


def contended_claims(s: Student) -> list[dict[str, Any]]:
    """:func:`interleaved_claims` with B at every gap between two statements of A's claim (and
    after its only one): a claim at the same moment, one after A's lease ran out, and a
    cancel."""
    with grader_folder(prefix="simlab-race-") as folder:
        count = _statements(
            s, _expired, lambda gate, _: s.call("claim", gate, "race", "A", 5.0, 100.0)
        )
        gaps = range(1, max(2, count))
        runs = []
        for gap in gaps:
            for later, rival in ((0.0, "claim"), (100.0, "claim"), (0.0, "cancel")):
                path = f"{folder}/race-{gap}-{later:g}-{rival}.sqlite"
                run = interleaved_claims(s, path, gap, later, rival)
                runs.append({**run, "gap": gap, "later": later, "rival": rival})
    return runs


def contended_effects(s: Student) -> list[dict[str, Any]]:
    """The same step delivered twice within one round trip: a second ``record_effect`` of the
    same key by the same lease runs between every two statements of the first. Returns, per
    gap, both answers and how many rows the key has."""
    runs = []
    with grader_folder(prefix="simlab-race-") as folder:
        for gap in range(1, 4):
            path = str(Path(folder) / f"effect-{gap}.sqlite")
            lease = _race_file(path, _one_task)
            out: dict[str, Any] = {"gap": gap}
            a = Ledger(path, clock=lambda: 1.0, busy_timeout=0.0)
            b = Ledger(path, clock=lambda: 1.0, busy_timeout=0.0)
            try:

                def again(b=b, out=out, lease=lease) -> None:
                    gate = SqlGate(b._db, s.sandbox)
                    out["B"] = _outcome(
                        lambda: s.call("record_effect", gate, lease, "t1:email:0", 1.0)
                    )
                    b.close()

                gate = SqlGate(a._db, s.sandbox, after=(gap, again))
                out["A"] = _outcome(
                    lambda gate=gate, lease=lease: s.call(
                        "record_effect", gate, lease, "t1:email:0", 1.0
                    )
                )
                out["rows"] = len(a.effects("t1"))
                out["statements"] = gate.statements
            finally:
                a.close()
                b.close()
            runs.append(out)
            if gap >= out["statements"]:
                break
    return runs


#: The moves run between two statements of a learner's heartbeat or record_effect: a user's
#: cancel, and another worker taking over the lease that ran out.
RIVALS = ("cancel", "takeover")
#: The most statement boundaries raced in one piece (a piece of more statements is raced at its
#: first ones).
MOST_GAPS = 6


def _snapshot(ledger: Ledger) -> tuple:
    """The task ``race`` and its effects, as the kit reads them."""
    return ledger.get("race"), ledger.effects("race")


def _rivalled_once(
    s: Student, path: str, piece: str, args: tuple, gap: int, rival: str
) -> dict[str, Any]:
    lease = _race_file(path, _ran_out)
    out: dict[str, Any] = {"gap": gap, "rival": rival}
    a = Ledger(path, clock=lambda: 100.0, busy_timeout=0.0)
    b = Ledger(path, clock=lambda: 100.0, busy_timeout=0.0)
    try:

        def move() -> None:
            if rival == "cancel":
                out["rivalled"] = _outcome(lambda: b.cancel("race")) is True
            else:
                out["rivalled"] = isinstance(_outcome(lambda: b.claim("race", "B", 30.0)), Lease)
            out["after"] = _snapshot(b)
            b.close()

        gate = SqlGate(a._db, s.sandbox, after=(gap, move))
        out["A"] = _outcome(_written(lambda: s.call(piece, gate, lease, *args, 100.0)))
        out["statements"] = gate.statements
        out["end"] = _snapshot(a)
    finally:
        a.close()
        b.close()
    return out


def rivalled(s: Student, piece: str, args: tuple) -> list[dict[str, Any]]:
    """The student's ``piece`` (``heartbeat`` or ``record_effect``, called with a lease of
    worker A that ran out but was not taken over, then ``args``, then the time) with each move
    of :data:`RIVALS` run right after each of its statements but the last (after its only one).
    Returns one run per gap and rival: whether the rival's move succeeded (``rivalled``), the
    task and its effects right after it (``after``) and at the end (``end``). A piece that is
    one statement, or that holds the database locked meanwhile, changes nothing once the rival
    has moved."""
    runs = []
    with grader_folder(prefix="simlab-race-") as folder:
        count = _statements(
            s, _ran_out, _written(lambda gate, lease: s.call(piece, gate, lease, *args, 100.0))
        )
        last = min(MOST_GAPS, max(2, count))
        for gap in range(1, last):
            for rival in RIVALS:
                path = f"{folder}/{piece}-{gap}-{rival}.sqlite"
                runs.append(_rivalled_once(s, path, piece, args, gap, rival))
    return runs


def require_one_statement(runs: list[dict[str, Any]], piece: str, did: Message) -> None:
    """Fail when the student's ``piece`` changed the task or its effects after a rival's move
    that succeeded between two of its statements (``did`` says what changed)."""
    require(runs, say("race_not_run"))
    for run in runs:
        if run.get("rivalled") and run.get("end") != run.get("after"):
            rival = say("rival_cancel" if run["rival"] == "cancel" else "rival_takeover")
            raise Fail(say("one_statement", rival=rival, piece=piece, did=did))
