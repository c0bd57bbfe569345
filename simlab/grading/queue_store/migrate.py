"""Creating and upgrading a grading queue's tables on an open ledger, on either engine.

The migrations are :data:`~simlab.grading.queue_store.sqlite_statements.MIGRATIONS` (SQLite, in
one ``BEGIN IMMEDIATE`` transaction) and
:data:`~simlab.grading.queue_store.postgres_statements.MIGRATIONS` (PostgreSQL, in one
transaction under the ledger's migration advisory lock); each applied one is recorded in the
queue's migrations table. A queue whose recorded version is newer than this
code is refused before anything is written.
"""

from __future__ import annotations

from typing import Any

from simlab.errors import LedgerError

__all__ = ["grading_tables"]


def _too_new(where: str, version: int, known: int) -> LedgerError:
    return LedgerError(
        f"{where!r} has grading queue version {version}, newer than this simlab ({known}); "
        "upgrade simlab to open it"
    )


def grading_tables(ledger: Any, g: Any, postgres: bool, where: str, exists: bool) -> None:
    """Make sure ``ledger`` holds the grading tables of this code's version, by the statements
    of its engine ``g`` (``exists``: the queue's migrations table is already there)."""
    if exists:
        current = ledger._rows(g.MAX_VERSION, {})[0][0]
        if current > len(g.MIGRATIONS):
            raise _too_new(where, current, len(g.MIGRATIONS))
        if current == len(g.MIGRATIONS):
            return
    (_postgres if postgres else _sqlite)(ledger, g, where)


def _apply(run, g: Any, where: str, now: float) -> None:
    run(g.MIGRATIONS_TABLE, {})
    current = run(g.MAX_VERSION, {})[0][0]  # again, inside the lock
    if current > len(g.MIGRATIONS):
        raise _too_new(where, current, len(g.MIGRATIONS))
    for number, (name, script) in enumerate(g.MIGRATIONS, start=1):
        if number > current:
            for statement in script.split(";"):
                if statement.strip():
                    run(statement, {})
            run(g.RECORD_MIGRATION, {"version": number, "name": name, "now": now})


def _sqlite(ledger: Any, g: Any, where: str) -> None:
    import sqlite3

    db = ledger._db

    def run(sql: str, params: dict) -> list:
        return db.execute(sql, params).fetchall()

    try:
        db.execute("BEGIN IMMEDIATE")
        try:
            _apply(run, g, where, float(ledger.clock()))
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
    except sqlite3.Error as exc:
        raise LedgerError(f"{where!r}: cannot create the grading queue: {exc}") from None


def _postgres(ledger: Any, g: Any, where: str) -> None:
    import psycopg

    from simlab.ledger.postgres.ledger import reason
    from simlab.ledger.postgres.schema import MIGRATION_LOCK

    db = ledger._db

    def run(sql: str, params: dict) -> list:
        cur = db.execute(sql, params)
        return cur.fetchall() if cur.description is not None else []

    try:
        with db.transaction():
            db.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            _apply(run, g, where, float(ledger.clock()))
    except psycopg.Error as exc:
        raise LedgerError(f"{where}: cannot create the grading queue: {reason(exc)}") from None
