"""The races of exercise ``leases``, run by the grader: another worker's move scheduled between
two statements of a learner's claim or ``record_effect``.

Random fault seeds rarely hit the one moment a non-atomic piece breaks; these races hit it every
time. The ledger file is the grader's own (in a private folder the sandbox cannot see), the
learner's piece reaches it only through a :class:`~simlab.grading.lending.SqlGate`, and the
gate runs the other worker's move right after the chosen statement finished: a kit ``cancel``
here, or the learner's own piece for the second worker, called into the sandbox while the first
waits. Which statement it was, what each worker got and what the ledger holds afterwards are
all seen here.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from simlab.grading.lending import SqlGate
from simlab.grading.sandbox.supervisor import RemoteError, SandboxLost
from simlab.grading.student import Student
from simlab.ledger import Ledger

__all__ = ["interleaved_claims", "contended_claims", "contended_effects"]


def _outcome(call: Callable[[], Any]) -> Any:
    """What a worker got: the value, or ``"<ErrorType>: <message>"``."""
    try:
        return call()
    except SandboxLost:
        raise
    except RemoteError as exc:
        return f"{exc.type}: {exc.message}"
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"


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
    with Ledger(path, clock=lambda: 0.0) as setup:
        setup.submit("race")
        setup.claim("race", "old", 5.0)  # expired from t=5 on
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
    with tempfile.TemporaryDirectory(prefix="simlab-race-") as folder:
        first = interleaved_claims(s, f"{folder}/count.sqlite", gap=10**6)
        gaps = range(1, max(2, int(first.get("statements", 1))))
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
    with tempfile.TemporaryDirectory(prefix="simlab-race-") as folder:
        for gap in range(1, 4):
            path = str(Path(folder) / f"effect-{gap}.sqlite")
            with Ledger(path, clock=lambda: 0.0) as setup:
                setup.submit("t1")
                lease = setup.claim("t1", "A", 30.0)
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
