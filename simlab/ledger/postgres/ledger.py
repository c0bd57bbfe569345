"""The task ledger on PostgreSQL: the same contract as the SQLite ``Ledger``, for many machines.

Guarantees (the same as the SQLite ledger's)
--------------------------------------------
The statements are in :mod:`simlab.ledger.postgres.statements`.

* **Atomic claim.** A claim is one ``UPDATE ... RETURNING``. ``claim_next`` picks the oldest
  claimable task with ``FOR UPDATE SKIP LOCKED`` inside that same statement, so workers on many
  machines claim different tasks at once instead of queueing on one row.
* **Fenced commit.** ``save`` is one conditional ``UPDATE`` on task ID, epoch,
  ``status='running'`` and a step that advances; a stale worker updates zero rows.
* **Effects for the current epoch only.** ``record_effect`` is one ``INSERT ... SELECT ... FOR
  SHARE ... ON CONFLICT DO NOTHING``: the row lock orders it against any claim or cancel.
* **Time comes from ``clock``**, passed as parameters; no statement calls ``now()``.

Concurrency
-----------
Every call is one statement in autocommit mode (its own transaction) at PostgreSQL's default
``READ COMMITTED``: when a statement finds a row changed by a transaction that committed while it
waited for the row lock, it evaluates its ``WHERE`` again on the newest version. So a claim, a
save or a cancel always decides on the current epoch, as in SQLite where writers take turns.

Schema
------
Created and upgraded by the numbered :data:`~simlab.ledger.postgres.schema.PG_MIGRATIONS` under an
advisory lock, each recorded
in ``simlab_migrations``. A schema newer than this code raises :class:`LedgerError` before
anything is written. Errors from the driver never reach the caller raw: they become
:class:`LedgerError` naming the server (the password left out).

Arguments
---------
Checked by the same functions of :mod:`simlab.ledger.arguments`, at the same places, as in the
SQLite ``Ledger`` and the ``MemoryLedger``: the same bad input raises the same ``ValueError`` or
``TypeError`` with the same message on every engine, before anything reaches the server. (A NUL
character, which PostgreSQL text cannot hold, is refused there for every engine.)
"""

from __future__ import annotations

import time
from collections.abc import Callable

import psycopg

from simlab.errors import LedgerError
from simlab.ledger.arguments import (
    MAX_VALUE_BYTES,
    WrongType,
    check_ledger_options,
)
from simlab.ledger.core import SqlLedger
from simlab.ledger.postgres import schema, statements
from simlab.ledger.postgres.schema import PG_SCHEMA_VERSION
from simlab.ledger.targets import is_postgres_url, redact

__all__ = ["PostgresLedger", "redact", "reason"]


class PostgresLedger(SqlLedger):
    """The durable task ledger over one PostgreSQL database (a ``postgresql://`` URL).

    Many processes on many machines may open the same database at once. One object holds one
    connection and belongs to one thread. Bad arguments raise ``ValueError``/``TypeError``
    (:mod:`simlab.ledger.arguments`) and change nothing; every failure of the server or the
    driver is a :class:`LedgerError` naming the server, its password replaced by ``***``.
    The contract's flow is :class:`~simlab.ledger.core.SqlLedger`; this class is its
    PostgreSQL dialect (statements, connection, schema, errors).
    """

    q = statements

    def __init__(
        self,
        url: str,
        *,
        clock: Callable[[], float] = time.time,
        max_attempts: int | None = None,
        connect_timeout: float = 10.0,
        max_value_bytes: int = MAX_VALUE_BYTES,
    ):
        check_ledger_options(
            clock, max_attempts, max_value_bytes, (connect_timeout, "connect_timeout")
        )
        if not isinstance(url, str):
            raise WrongType(f"url must be a postgresql:// URL, got {type(url).__name__}")
        if not is_postgres_url(url):
            raise ValueError(f"url must start with postgresql://, got {redact(url)!r}")
        self.url = redact(url)
        self.clock = clock
        self.max_attempts = max_attempts
        self.max_value_bytes = max_value_bytes
        try:
            self._db = psycopg.connect(
                url, autocommit=True, connect_timeout=max(1, round(connect_timeout))
            )
        except psycopg.Error as exc:
            raise LedgerError(f"cannot open ledger {self.url}: {reason(exc)}") from None
        # One cursor for every statement: callers fetch before the next call.
        self._cur = self._db.cursor()
        try:
            self._open()
        except psycopg.Error as exc:
            self._db.close()
            raise LedgerError(f"{self.url} is not a usable simlab ledger: {reason(exc)}") from None
        except BaseException:
            self._db.close()
            raise

    # -- opening and schema ------------------------------------------------------------------

    def _open(self) -> None:
        # Read first: a database from newer code is refused before anything is written to it.
        version = self._schema_version()
        if version > PG_SCHEMA_VERSION:
            raise LedgerError(
                f"{self.url} has schema version {version}, newer than this simlab "
                f"({PG_SCHEMA_VERSION}); upgrade simlab to open it"
            )
        if version < PG_SCHEMA_VERSION:
            self._migrate()

    def _schema_version(self) -> int:
        has_table, current = self._db.execute(schema.HAS_MIGRATIONS).fetchone()
        if current is None:
            raise LedgerError(f"{self.url}: no schema of the search_path exists to hold the ledger")
        if not has_table:
            return 0
        return self._db.execute(schema.MAX_VERSION).fetchone()[0]

    def _migrate(self) -> None:
        db = self._db
        with db.transaction():
            db.execute("SELECT pg_advisory_xact_lock(%s)", (schema.MIGRATION_LOCK,))
            db.execute(schema.MIGRATIONS_TABLE)
            # Re-read under the lock: another process may have migrated meanwhile.
            current = self._schema_version()
            if current > PG_SCHEMA_VERSION:
                raise LedgerError(
                    f"{self.url} has schema version {current}, newer than this simlab "
                    f"({PG_SCHEMA_VERSION})"
                )
            for number, (name, script) in enumerate(schema.PG_MIGRATIONS, start=1):
                if number > current:
                    db.execute(script)
                    db.execute(
                        schema.RECORD_MIGRATION,
                        {"version": number, "name": name, "now": float(self.clock())},
                    )

    @property
    def schema_version(self) -> int:
        """The number of migrations applied to this database."""
        try:
            return self._schema_version()
        except psycopg.Error as exc:
            raise LedgerError(f"{self.url}: {reason(exc)}") from None

    def __repr__(self) -> str:
        return f"PostgresLedger({self.url!r})"

    # -- the dialect: how one statement runs ----------------------------------------------------

    def _rows(self, sql: str, params: dict) -> list[tuple]:
        """All rows of one statement (its own transaction); driver errors become LedgerError."""
        cur = self._execute(sql, params)
        return cur.fetchall() if cur.description is not None else []

    def _count(self, sql: str, params: dict) -> int:
        """Rows changed by one statement (its own transaction)."""
        return self._execute(sql, params).rowcount

    def _in_transaction(self, steps: list[tuple[str, dict]], what: str) -> list[int]:
        """The steps in one transaction (committed when all ran, rolled back when one fails);
        driver errors become :class:`LedgerError` naming the server and ``what``."""
        try:
            with self._db.transaction():
                return [self._cur.execute(sql, params).rowcount for sql, params in steps]
        except psycopg.Error as exc:
            raise LedgerError(f"{self.url}: {what}: {reason(exc)}") from None

    def _execute(self, sql: str, params: dict) -> psycopg.Cursor:
        try:
            return self._cur.execute(sql, params)
        except psycopg.Error as exc:
            raise LedgerError(f"{self.url}: {reason(exc)}") from None


def reason(exc: psycopg.Error) -> str:
    """The server's one-line message (the first line of the driver's text)."""
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__
