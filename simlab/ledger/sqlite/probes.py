"""Probes of a SQLite ledger that are not part of the task contract.

* :func:`bare_claim_save` and :func:`raw_update_transaction` are the floors that ``simlab bench
  ledger`` measures a claim+save cycle against.
* :func:`probe_write_read` is the database check of ``simlab health``: a write and a read in one
  transaction on an existing file, leaving nothing behind.
* :func:`remove_probe` deletes one of ``simlab health``'s probe tasks once the check is done.

:func:`bare_claim_save` and :func:`remove_probe` are written once for every dialect
(:mod:`simlab.ledger.probing`); the statements are :mod:`simlab.ledger.sqlite.statements`.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from urllib.parse import quote

from simlab.errors import LedgerError
from simlab.ledger.probing import bare_claim_save, remove_probe
from simlab.ledger.sqlite import files
from simlab.ledger.sqlite import statements as q
from simlab.ledger.sqlite.ledger import Ledger
from simlab.ledger.sqlite.opening import schema_version
from simlab.ledger.sqlite.schema import SCHEMA_VERSION
from simlab.records import PROBE_TENANT

__all__ = ["bare_claim_save", "raw_update_transaction", "probe_write_read", "remove_probe"]


def raw_update_transaction(ledger: Ledger, task_id: str) -> None:
    """The floor a cycle is measured against: ``BEGIN IMMEDIATE``, one single-row
    ``UPDATE``, ``COMMIT``. Touches only ``updated_at``. Its write counts toward the
    ledger's checkpoints, as every measured write does (see :func:`bare_claim_save`)."""
    db = ledger._db
    db.execute("BEGIN IMMEDIATE")
    db.execute(q.RAW_UPDATE, {"now": 0.0, "task_id": task_id})
    db.execute("COMMIT")
    ledger._wrote()


def probe_write_read(path: str | Path, token: str, *, busy_timeout: float = 5.0) -> bool:
    """A write and a read in one transaction on an *existing* ledger file; True if the read
    saw the write. Nothing is left behind, and nothing is created or migrated.

    Applies the opening rules of :mod:`simlab.ledger.sqlite.files` first (so a read-only file or
    folder is reported as read-only and nothing, not even a ``-wal``, is created, and a foreign
    ``-wal`` is refused before SQLite could replay it), then opens its own connection in
    ``mode=rw`` (SQLite refuses a missing file instead of creating it), refuses a file whose
    schema is not exactly this code's (it never migrates),
    then ``BEGIN IMMEDIATE`` (waiting up to ``busy_timeout`` seconds for the write lock),
    inserts a probe task (tenant ``__health__``, status ``completed``, so never claimable),
    reads it back, deletes it and commits. No other connection can ever see the probe row.
    Raises :class:`LedgerError` with SQLite's reason (locked, read-only, not a database...).
    """
    path = Path(path)
    if not path.exists():
        raise LedgerError(f"{str(path)!r} does not exist")
    files.check_wal(path, files.check_path(path))
    uri = "file:" + quote(str(path.resolve())) + "?mode=rw"
    task_id = f"{PROBE_TENANT}:{token}"
    try:
        db = sqlite3.connect(uri, uri=True, timeout=busy_timeout, isolation_level=None)
    except sqlite3.Error as exc:
        raise LedgerError(f"cannot open ledger {str(path)!r}: {exc}") from None
    try:
        version = schema_version(db) or 0
        if version != SCHEMA_VERSION:
            raise LedgerError(
                f"{str(path)!r} has schema version {version}, this simlab expects "
                f"{SCHEMA_VERSION}: not a simlab ledger"
            )
        db.execute("PRAGMA wal_autocheckpoint = 0")  # checkpoints are the ledger's (files.py)
        db.execute("BEGIN IMMEDIATE")
        try:
            params = {"task_id": task_id}
            db.execute(q.PROBE_INSERT, params)
            row = db.execute(q.PROBE_READ, params).fetchone()
            db.execute(q.PROBE_DELETE, params)
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
    except sqlite3.Error as exc:
        raise LedgerError(f"{str(path)!r}: {exc}") from None
    finally:
        db.close()
    return row == (PROBE_TENANT, "completed")
