"""Ledger pieces attacked on purpose, in the sandbox: another process scheduled between every
two statements of a learner's SQL, a worker that crashes between ``record_effect`` and the send,
and a migration whose result is probed for objects it shares with its input.

Random fault seeds rarely hit the one moment a non-atomic piece breaks; these objects hit it
every time. Each returns plain data (JSON crosses the wire), never the objects themselves.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from simlab.grading.pieces import PiecesLedger
from simlab.ledger import Ledger
from simlab.records import Lease
from simlab.sim.mailbox import Mailbox

__all__ = [
    "interleaved_claims",
    "contended_claims",
    "contended_effects",
    "Crash",
    "CrashLedger",
    "shared_containers",
]


class _Rows:
    """The finished result of one statement: the rows, already fetched, and its counters."""

    def __init__(self, cursor: Any):
        self._rows = cursor.fetchall() if cursor.description is not None else []
        self.rowcount = cursor.rowcount
        self.lastrowid = cursor.lastrowid
        self.description = cursor.description

    def fetchone(self) -> Any:
        return self._rows.pop(0) if self._rows else None

    def fetchall(self) -> list:
        rows, self._rows = self._rows, []
        return rows

    def fetchmany(self, size: int = 1) -> list:
        rows, self._rows = self._rows[:size], self._rows[size:]
        return rows

    def __iter__(self):
        return iter(self.fetchall())

    def close(self) -> None:
        self._rows = []


class _Interleaved:
    """A connection that runs ``between()`` once, right after the ``gap``-th statement of a
    piece finished (``BEGIN`` and ``SAVEPOINT`` do not count), as if another process got
    scheduled there. ``statements`` counts the statements the piece ran."""

    def __init__(self, db: Any, between: Callable[[], None] | None, gap: int = 1):
        self._db = db
        self._between = between
        self._gap = gap
        self.statements = 0

    def execute(self, sql: str, params: Any = ()) -> _Rows:
        rows = _Rows(self._db.execute(sql, params))
        if not sql.lstrip().upper().startswith(("BEGIN", "SAVEPOINT")):
            self.statements += 1
            if self._between is not None and self.statements == self._gap:
                between, self._between = self._between, None
                between()
        return rows

    def cursor(self) -> _Interleaved:
        return self

    def __enter__(self) -> Any:
        return self._db.__enter__()

    def __exit__(self, *exc: Any) -> Any:
        return self._db.__exit__(*exc)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._db, name)


def _outcome(call: Callable[[], Any]) -> Any:
    try:
        return call()
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"


def interleaved_claims(
    claim: Callable[..., Lease], path: str, gap: int = 1, later: float = 100.0, rival: str = "claim"
) -> dict[str, Any]:
    """Two workers claim one expired task with ``claim``; worker B's whole claim runs right
    after statement ``gap`` of worker A's, ``later`` seconds after A's (100: when A's new lease
    has already run out; 0: at the same moment, a duplicate delivery). With ``rival="cancel"``
    a user cancels the task there instead (B's outcome is then the cancel's answer).

    Returns ``{"A": Lease | "<error>", "B": Lease | "<error>", "statements": n}``. An atomic
    claim neither hands both the same epoch nor lets both win at one moment; the chapter's
    UPDATE-then-SELECT claim does the first, a SELECT-then-UPDATE claim the second.
    """
    with Ledger(path, clock=lambda: 0.0) as setup:
        setup.submit("race")
        setup.claim("race", "old", 5.0)  # expired from t=5 on
    outcome: dict[str, Any] = {}
    a = PiecesLedger(path, clock=lambda: 100.0)
    b = PiecesLedger(path, clock=lambda: 100.0 + later, busy_timeout=0.0)
    try:

        def worker_b() -> None:
            if rival == "cancel":
                outcome["B"] = _outcome(lambda: b.cancel("race"))
            else:
                outcome["B"] = _outcome(lambda: claim(b.db, "race", "B", 5.0, 100.0 + later))

        conn = _Interleaved(a.db, worker_b, gap)
        outcome["A"] = _outcome(lambda: claim(conn, "race", "A", 5.0, 100.0))
        outcome.setdefault("B", "B never ran: the claim ran fewer statements")
        outcome["statements"] = conn.statements
    finally:
        a.close()
        b.close()
    return outcome


def contended_claims(claim: Callable[..., Lease], folder: str) -> list[dict[str, Any]]:
    """:func:`interleaved_claims` with B at every gap between two statements of A's claim (and
    after its only one): a claim at the same moment, one after A's lease ran out, and a
    cancel."""
    first = interleaved_claims(claim, f"{folder}/count.sqlite", gap=10**6)
    gaps = range(1, max(2, int(first.get("statements", 1))))
    runs = []
    for gap in gaps:
        for later, rival in ((0.0, "claim"), (100.0, "claim"), (0.0, "cancel")):
            path = f"{folder}/race-{gap}-{later:g}-{rival}.sqlite"
            run = interleaved_claims(claim, path, gap, later, rival)
            runs.append({**run, "gap": gap, "later": later, "rival": rival})
    return runs


def contended_effects(record_effect: Callable[..., bool], folder: str) -> list[dict[str, Any]]:
    """The same step delivered twice within one round trip: a second ``record_effect`` of the
    same key by the same lease runs between every two statements of the first. Returns, per
    gap, both answers and how many rows the key has."""
    runs = []
    for gap in range(1, 4):
        path = f"{folder}/effect-{gap}.sqlite"
        with Ledger(path, clock=lambda: 0.0) as setup:
            setup.submit("t1")
            lease = setup.claim("t1", "A", 30.0)
        a = PiecesLedger(path, clock=lambda: 1.0)
        b = PiecesLedger(path, clock=lambda: 1.0, busy_timeout=0.0)
        out: dict[str, Any] = {"gap": gap}
        try:

            def again(b=b, out=out, lease=lease) -> None:
                out["B"] = _outcome(lambda: record_effect(b.db, lease, "t1:email:0", 1.0))

            conn = _Interleaved(a.db, again, gap)
            out["A"] = _outcome(
                lambda conn=conn, lease=lease: record_effect(conn, lease, "t1:email:0", 1.0)
            )
            out["rows"] = len(a.effects("t1"))
            out["statements"] = conn.statements
        finally:
            a.close()
            b.close()
        runs.append(out)
        if gap >= out["statements"]:
            break
    return runs


class Crash(Exception):
    """The worker process died here (raised into a learner's ``send_step``)."""


class CrashLedger(Ledger):
    """A ledger and a mailbox (``.mailbox``) that share one fuse: the worker crashes right
    after the first of an accepted ``record_effect`` and a ``send``, whichever comes first."""

    def __init__(self, path: str, clock: Callable):
        super().__init__(path, clock=clock)
        self.mailbox = _CrashMailbox(self)
        self.fuse = True

    def record_effect(self, lease: Lease, key: str) -> bool:
        accepted = super().record_effect(lease, key)
        if accepted and self.fuse:
            self.fuse = False
            raise Crash("the worker crashed")
        return accepted


class _CrashMailbox(Mailbox):
    def __init__(self, ledger: CrashLedger):
        super().__init__()
        self._ledger = ledger

    def send(self, key: str) -> None:
        super().send(key)
        if self._ledger.fuse:
            self._ledger.fuse = False
            raise Crash("the worker crashed")


def _dump(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=repr)


def shared_containers(migrate: Callable[[dict], Any], record: dict) -> list[str] | None:
    """Run ``migrate(record)``, then change every list and dict of the input in place: the
    fields of the result that changed with it share objects with the input (JSON cannot show
    that; here, where the objects live, it is plain). Returns those fields' names (None when
    the migration raised)."""
    import copy

    original = copy.deepcopy(record)
    try:
        result = migrate(original)
    except Exception:  # a migration that raises is judged elsewhere
        return None
    if not isinstance(result, dict):
        return []
    snapshot = {k: _dump(v) for k, v in result.items()}
    for value in original.values():
        if isinstance(value, list):
            value.append("changed-after-migrating")
        elif isinstance(value, dict):
            value["changed-after-migrating"] = True
    return sorted(str(k) for k, v in result.items() if _dump(v) != snapshot.get(k))
