"""Preparing a connection to be a ledger: create, refuse or migrate, then WAL and identity.

:func:`prepare` is what :class:`~simlab.ledger.Ledger` runs on every new connection (the file
rules come first, in :mod:`simlab.ledger.sqlite.files`):

* an empty database (a missing or zero-byte file, or ``:memory:``) is created as a ledger: the
  schema and the file's identity are written *before* the switch to WAL mode, straight into the
  file, so the identity on disk is there before any write-ahead log exists;
* a non-empty database without ``schema_migrations`` is another program's: refused, and nothing
  was written to it (no table added, not switched to WAL);
* a schema newer than this code is refused the same way; an older one is migrated;
* the identity (``PRAGMA user_version``) is written once more, which puts page 1 in the
  current write-ahead log: see :mod:`simlab.ledger.sqlite.files` for why.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable

from simlab.errors import LedgerError
from simlab.ledger.sqlite.files import APPLICATION_ID, new_identity
from simlab.ledger.sqlite.schema import MIGRATIONS, SCHEMA_VERSION

__all__ = ["prepare", "schema_version", "stamp"]


def schema_version(db: sqlite3.Connection) -> int | None:
    """The schema version recorded in the database; None when it has no ``schema_migrations``."""
    has_table = db.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
    ).fetchone()
    if not has_table:
        return None
    return db.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations").fetchone()[0]


def stamp(db: sqlite3.Connection, identity: int) -> None:
    """Write the identity into page 1 again (same value): page 1 is now in the current log."""
    db.execute(f"PRAGMA user_version = {int(identity)}")


def _too_new(path: str, version: int) -> LedgerError:
    return LedgerError(
        f"{path!r} has schema version {version}, newer than this simlab ({SCHEMA_VERSION}); "
        "upgrade simlab to open it"
    )


def _migrate(db: sqlite3.Connection, path: str, clock: Callable[[], float]) -> None:
    """Apply the migrations the database lacks, in one ``BEGIN IMMEDIATE`` transaction; a new
    database also gets its identity in the same transaction."""
    db.execute("BEGIN IMMEDIATE")
    try:
        if schema_version(db) is None:  # new (inside the lock: no other process created it)
            db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            db.execute(f"PRAGMA user_version = {new_identity()}")
        db.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)"
        )
        # Re-read inside the write lock: another process may have migrated meanwhile.
        current = schema_version(db) or 0
        if current > SCHEMA_VERSION:
            raise _too_new(path, current)
        for number, (name, script) in enumerate(MIGRATIONS, start=1):
            if number <= current:
                continue
            for statement in script.split(";"):
                if statement.strip():
                    db.execute(statement)
            db.execute(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                (number, name, float(clock())),
            )
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise


#: The page size of an in-memory ledger, in bytes. Every write statement copies each page it
#: touches into the rollback journal first (kept in memory), so smaller pages make each claim,
#: save and submit cheaper. A new file ledger keeps SQLite's default (a backup of an in-memory
#: ledger keeps its pages: any page size makes a valid ledger file).
MEMORY_PAGE_SIZE = 2048
#: One in-memory ledger migrated once per process, copied into every new in-memory ledger.
_TEMPLATE: list[sqlite3.Connection] = []
_TEMPLATE_LOCK = threading.Lock()


def _copy_new_memory_ledger(db: sqlite3.Connection, clock: Callable[[], float]) -> None:
    """Make the empty in-memory ``db`` a new ledger: a page copy of a ledger migrated once per
    process (the schema's statements cost far more than the copy, and simulations and graders
    open many), then an identity and migration times of its own, on ``clock``. The copy
    takes the template's page size, :data:`MEMORY_PAGE_SIZE`."""
    with _TEMPLATE_LOCK:
        if not _TEMPLATE:
            template = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
            template.execute(f"PRAGMA page_size = {MEMORY_PAGE_SIZE}")
            _migrate(template, ":memory:", clock)
            _TEMPLATE.append(template)
        _TEMPLATE[0].backup(db)
    db.execute(f"PRAGMA user_version = {new_identity()}")
    db.execute("UPDATE schema_migrations SET applied_at = ?", (float(clock()),))


def prepare(db: sqlite3.Connection, path: str, clock: Callable[[], float]) -> int:
    """Make ``db`` a ready ledger connection (module doc) and return the ledger's identity."""
    version = schema_version(db)
    if version is None:
        if db.execute("PRAGMA page_count").fetchone()[0] > 0:
            raise LedgerError(
                f"{path!r} is a SQLite database but not a simlab ledger (it has no "
                "schema_migrations table); it was left untouched"
            )
        if path == ":memory:":
            _copy_new_memory_ledger(db, clock)
        else:  # a new ledger: written in rollback mode, straight to the file
            _migrate(db, path, clock)
        version = SCHEMA_VERSION
    if version > SCHEMA_VERSION:
        raise _too_new(path, version)
    if path != ":memory:":
        mode = db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if mode.lower() != "wal":
            raise LedgerError(f"{path!r}: cannot switch to WAL mode (got {mode})")
        # The ledger runs its own checkpoints, each followed by a stamp (Ledger._wal_checkpoint).
        db.execute("PRAGMA wal_autocheckpoint = 0")
    db.execute("PRAGMA synchronous=NORMAL")
    db.execute("PRAGMA foreign_keys=ON")
    if version < SCHEMA_VERSION:
        _migrate(db, path, clock)
    identity = db.execute("PRAGMA user_version").fetchone()[0]
    if db.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
        # A ledger from before identities: give it one now (through the log, so until the next
        # checkpoint its file cannot prove which -wal is its own).
        db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        identity = new_identity()
    stamp(db, identity)
    return identity
