"""Probes of a SQLite ledger that are not part of the task contract.

* :func:`bare_claim_save` and :func:`raw_update_transaction` are the floors that ``simlab bench
  ledger`` measures a claim+save cycle against.
* :func:`probe_write_read` is the database check of ``simlab health``: a write and a read in one
  transaction on an existing file, leaving nothing behind.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from urllib.parse import quote

from simlab.errors import LedgerError
from simlab.ledger import statements as stmt
from simlab.ledger.schema import SCHEMA_VERSION
from simlab.ledger.sqlite import Ledger

__all__ = ["bare_claim_save", "raw_update_transaction", "probe_write_read"]


def bare_claim_save(ledger: Ledger, task_id: str) -> bool:
    """The floor of one claim+save cycle: the same two statements (the atomic claim and the
    fenced, completing save) with none of the ``Ledger`` class's Python around them."""
    db = ledger._db
    rows = db.execute(stmt.CLAIM_ONE[0], ("bench", 1e300, 0.0, task_id)).fetchall()
    return db.execute(stmt.SAVE_DONE, (1, None, None, 0.0, task_id, rows[0][2])).rowcount == 1


def raw_update_transaction(ledger: Ledger, task_id: str) -> None:
    """The floor a cycle is measured against: ``BEGIN IMMEDIATE``, one single-row
    ``UPDATE``, ``COMMIT``. Touches only ``updated_at``."""
    db = ledger._db
    db.execute("BEGIN IMMEDIATE")
    db.execute("UPDATE tasks SET updated_at = ? WHERE task_id = ?", (0.0, task_id))
    db.execute("COMMIT")


def probe_write_read(path: str | Path, token: str, *, busy_timeout: float = 5.0) -> bool:
    """A write and a read in one transaction on an *existing* ledger file; True if the read
    saw the write. Nothing is left behind, and nothing is created or migrated.

    Opens its own connection in ``mode=rw`` (SQLite refuses a missing file instead of
    creating it), refuses a file whose schema is not exactly this code's (it never migrates),
    then ``BEGIN IMMEDIATE`` (waiting up to ``busy_timeout`` seconds for the write lock),
    inserts a probe task (tenant ``__health__``, status ``completed``, so never claimable),
    reads it back, deletes it and commits. No other connection can ever see the probe row.
    Raises :class:`LedgerError` with SQLite's reason (locked, read-only, not a database...).
    """
    uri = "file:" + quote(str(Path(path).resolve())) + "?mode=rw"
    task_id = f"__health__:{token}"
    try:
        db = sqlite3.connect(uri, uri=True, timeout=busy_timeout, isolation_level=None)
    except sqlite3.Error as exc:
        raise LedgerError(f"cannot open ledger {str(path)!r}: {exc}") from None
    try:
        version = 0
        if db.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
        ).fetchone():
            version = db.execute("SELECT MAX(version) FROM schema_migrations").fetchone()[0]
        if version != SCHEMA_VERSION:
            raise LedgerError(
                f"{str(path)!r} has schema version {version}, this simlab expects {SCHEMA_VERSION}"
            )
        db.execute("BEGIN IMMEDIATE")
        try:
            # Times are 0: the row never outlives this transaction.
            db.execute(
                "INSERT INTO tasks (task_id, tenant, status, created_at, updated_at)"
                " VALUES (?, '__health__', 'completed', 0, 0)",
                (task_id,),
            )
            row = db.execute(
                "SELECT tenant, status FROM tasks WHERE task_id = ?", (task_id,)
            ).fetchone()
            db.execute("DELETE FROM tasks WHERE task_id = ?", (task_id,))
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
    except sqlite3.Error as exc:
        raise LedgerError(f"{str(path)!r}: {exc}") from None
    finally:
        db.close()
    return row == ("__health__", "completed")
