"""Probes of a SQL ledger outside the task contract, written once for every dialect.

* :func:`bare_claim_save` is the floor of one claim+save cycle that ``simlab bench ledger``
  measures: the dialect's own two statements with none of the flow's Python around them.
* :func:`remove_probe` deletes one of ``simlab health``'s probe tasks once the check is done.

Each runs the dialect's statements (``q``) through the dialect's connection; what differs
between engines (the one-transaction floor, the health check's own connection) stays in each
dialect's ``probes`` module.
"""

from __future__ import annotations

from simlab.ledger.core import SqlLedger

__all__ = ["bare_claim_save", "remove_probe"]


def bare_claim_save(ledger: SqlLedger, task_id: str) -> bool:
    """The floor of one claim+save cycle that ``simlab bench ledger`` measures: the dialect's
    own two statements (the atomic claim and the fenced, completing save) on its connection,
    with none of the flow's Python around them. True if the save was accepted.

    Its two writes count toward the dialect's own upkeep
    (:meth:`~simlab.ledger.core.SqlLedger._wrote`: a file ledger checkpoints its log every so
    many writes), as a cycle's do: each measure pays for the log it writes, not for the
    other's."""
    conn = getattr(ledger, "_cur", None) or ledger._db  # psycopg: a cursor; sqlite3: the db
    claim = {"worker": "bench", "until": 1e300, "now": 0.0, "task_id": task_id, "max": None}
    epoch = conn.execute(ledger.q.CLAIM_ONE[0], claim).fetchall()[0][0]  # CLAIMED_COLUMNS
    save = {"step": 1, "result": None, "checkpoint": None, "now": 0.0}
    saved = (
        conn.execute(ledger.q.SAVE_DONE, {**save, "task_id": task_id, "epoch": epoch}).rowcount == 1
    )
    ledger._wrote()
    ledger._wrote()
    return saved


def remove_probe(ledger: SqlLedger, task_id: str) -> bool:
    """Delete the probe task ``task_id`` and its effects; True if it was there.

    Only a task of tenant ``__health__`` is ever deleted (the statements say so), in one
    transaction with its effects, effects first: they reference the task. A worker that somehow
    still held its lease can commit nothing afterwards: there is no row. Raises
    :class:`~simlab.errors.LedgerError` naming the ledger when the engine refuses or is gone.
    """
    params = {"task_id": task_id}
    _, gone = ledger._in_transaction(
        [(ledger.q.PROBE_REMOVE_EFFECTS, params), (ledger.q.PROBE_REMOVE_TASK, params)],
        f"cannot remove {task_id!r}",
    )
    return gone == 1
