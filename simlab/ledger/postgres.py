"""The task ledger on PostgreSQL: the same contract as the SQLite ``Ledger``, for many machines.

Guarantees (the same as the SQLite ledger's; the statements are in :mod:`pg_statements`)
---------------------------------------------------------------------------------------
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
Created and upgraded by the numbered :data:`~simlab.ledger.pg_schema.PG_MIGRATIONS` under an
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
import uuid
from collections.abc import Callable
from typing import Any

import psycopg

from simlab.errors import LeaseHeld, LedgerError, TerminalTask, UnknownTask
from simlab.ledger import pg_schema as schema
from simlab.ledger import pg_statements as q
from simlab.ledger.arguments import (
    MAX_VALUE_BYTES,
    WrongType,
    check_lease,
    check_max_attempts,
    check_max_value_bytes,
    check_name,
    check_seconds,
)
from simlab.ledger.arguments import check_step as _check_step
from simlab.ledger.arguments import check_ttl as _check_ttl
from simlab.ledger.arguments import from_json as _from_json
from simlab.ledger.arguments import to_json as _to_json
from simlab.ledger.pg_schema import PG_SCHEMA_VERSION
from simlab.ledger.targets import is_postgres_url, redact
from simlab.records import DEAD, RUNNING, Effect, Lease, TaskRecord

__all__ = ["PostgresLedger", "redact", "reason"]


class PostgresLedger:
    """The durable task ledger over one PostgreSQL database (a ``postgresql://`` URL).

    Many processes on many machines may open the same database at once. One object holds one
    connection and belongs to one thread. Bad arguments raise ``ValueError``/``TypeError``
    (:mod:`simlab.ledger.arguments`) and change nothing; every failure of the server or the
    driver is a :class:`LedgerError` naming the server, its password replaced by ``***``.
    """

    def __init__(
        self,
        url: str,
        *,
        clock: Callable[[], float] = time.time,
        max_attempts: int | None = None,
        connect_timeout: float = 10.0,
        max_value_bytes: int = MAX_VALUE_BYTES,
    ):
        check_max_attempts(max_attempts)
        check_max_value_bytes(max_value_bytes)
        check_seconds(connect_timeout, "connect_timeout")
        if not callable(clock):
            raise TypeError(f"clock must be a function returning the time, got {clock!r}")
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

    # -- lifecycle ---------------------------------------------------------------------------

    def close(self) -> None:
        """Close the connection. Committed work is durable; nothing is pending between calls."""
        self._db.close()

    def __enter__(self) -> PostgresLedger:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"PostgresLedger({self.url!r})"

    # -- the contract ------------------------------------------------------------------------

    def submit(
        self, task_id: str | None = None, *, tenant: str = "default", goal: Any = None
    ) -> str:
        """Persist a new task (``queued``, step 0, epoch 0), then return its ID.

        The ID is generated when not given. A duplicate ID raises :class:`LedgerError` and
        leaves the stored task unchanged.
        """
        if task_id is None:
            task_id = uuid.uuid4().hex
        else:
            check_name(task_id, "task_id")
        check_name(tenant, "tenant")
        params = {
            "task_id": task_id,
            "tenant": tenant,
            "goal": _to_json(goal, "goal", self.max_value_bytes),
            "now": float(self.clock()),
        }
        if self._run(q.SUBMIT, params).rowcount != 1:
            raise LedgerError(f"task {task_id!r} already exists")
        return task_id

    def claim(self, task_id: str, worker: str, ttl: float) -> Lease:
        """Take the lease of ``task_id`` for ``ttl`` seconds and return it with a new epoch.

        Allowed from ``queued``, or from ``running`` once ``lease_until <= clock()``. Raises
        :class:`TerminalTask` (completed, cancelled, dead), :class:`LeaseHeld` (a live lease)
        or :class:`UnknownTask`. With ``max_attempts``, the claim that would exceed it marks the
        task ``dead`` and raises :class:`TerminalTask`.
        """
        check_name(task_id, "task_id")
        check_name(worker, "worker")
        _check_ttl(ttl)
        sql = q.CLAIM_ONE[self.max_attempts is not None]
        while True:
            now = float(self.clock())
            params = {
                "worker": worker,
                "until": now + ttl,
                "now": now,
                "task_id": task_id,
                "max": self.max_attempts,
            }
            row = self._run(sql, params).fetchone()
            if row is not None:
                return self._lease(row)
            # Refused. Say why; the reason is read after the fact, so if another process made
            # the task claimable in between (a release), simply try again.
            record = self._get_or_none(task_id)
            if record is None:
                raise UnknownTask(task_id)
            if record.terminal:
                raise TerminalTask(task_id, record.status)
            if record.status == RUNNING and record.lease_until is not None:
                raise LeaseHeld(task_id, record.worker, record.lease_until)

    def claim_next(self, worker: str, ttl: float) -> Lease | None:
        """Atomically claim the oldest claimable task (submit order) that no other transaction
        holds locked at this instant, or return None.

        Health probes (tenant ``__health__``) are never handed out: only the check claims them.
        """
        check_name(worker, "worker")
        _check_ttl(ttl)
        sql = q.CLAIM_NEXT[self.max_attempts is not None]
        while True:
            now = float(self.clock())
            params = {"worker": worker, "until": now + ttl, "now": now, "max": self.max_attempts}
            row = self._run(sql, params).fetchone()
            if row is None:
                return None
            if row[7] != DEAD:
                return self._lease(row)
            # That task just ran out of attempts and went to the dead letter: try the next one.

    @staticmethod
    def _lease(row: tuple) -> Lease:
        task_id, worker, epoch, step, lease_until, checkpoint, attempts, status = row
        if status == DEAD:
            raise TerminalTask(task_id, DEAD)
        return Lease(task_id, worker, epoch, step, lease_until, _from_json(checkpoint), attempts)

    def heartbeat(self, lease: Lease, ttl: float) -> bool:
        """Extend the lease to ``clock() + ttl`` while its epoch is current and the task runs.

        Also succeeds after ``lease_until`` passed if nobody claimed the task meanwhile: the
        epoch, not the clock, decides who owns a task.
        """
        check_lease(lease)
        _check_ttl(ttl)
        now = float(self.clock())
        params = {"until": now + ttl, "now": now, "task_id": lease.task_id, "epoch": lease.epoch}
        return self._write_one(lease.task_id, q.HEARTBEAT, params)

    def save(
        self,
        lease: Lease,
        step: int,
        *,
        result: Any = None,
        checkpoint: Any = None,
        done: bool = False,
    ) -> bool:
        """The fenced commit: store ``step`` (and result, checkpoint) if ``lease`` is current.

        One conditional ``UPDATE`` on task ID, epoch, ``status='running'`` and ``step`` greater
        than the stored step. ``done=True`` marks the task ``completed``. Returns False and
        changes nothing for a stale epoch, a task that is no longer running, or a step that does
        not advance. ``checkpoint=None`` stores None: pass the whole checkpoint each time.
        """
        check_lease(lease)
        _check_step(step)
        limit = self.max_value_bytes
        params = {
            "step": step,
            "result": None if result is None else _to_json(result, "result", limit),
            "checkpoint": None if checkpoint is None else _to_json(checkpoint, "checkpoint", limit),
            "now": float(self.clock()),
            "task_id": lease.task_id,
            "epoch": lease.epoch,
        }
        return self._write_one(lease.task_id, q.SAVE_DONE if done else q.SAVE, params)

    def release(self, lease: Lease) -> bool:
        """Hand the task back to the queue (``running`` -> ``queued``) before the lease runs out.

        Only a current lease may release; the epoch stays, and the next claim bumps it.
        """
        check_lease(lease)
        params = {"now": float(self.clock()), "task_id": lease.task_id, "epoch": lease.epoch}
        return self._write_one(lease.task_id, q.RELEASE, params)

    def cancel(self, task_id: str) -> bool:
        """Cancel a queued or running task and bump its epoch, so in-flight commits fail.

        Returns False when the task is already terminal.
        """
        check_name(task_id, "task_id")
        params = {"now": float(self.clock()), "task_id": task_id}
        return self._write_one(task_id, q.CANCEL, params)

    def requeue(self, task_id: str) -> bool:
        """Bring a ``cancelled`` or ``dead`` task back to ``queued`` with a fresh attempt budget.

        The epoch is kept, so the next claim gets a higher one than any lease handed out before.
        """
        check_name(task_id, "task_id")
        params = {"now": float(self.clock()), "task_id": task_id}
        return self._write_one(task_id, q.REQUEUE, params)

    def get(self, task_id: str) -> TaskRecord:
        """The task as stored now. Raises :class:`UnknownTask`."""
        check_name(task_id, "task_id")
        record = self._get_or_none(task_id)
        if record is None:
            raise UnknownTask(task_id)
        return record

    def tasks(self, status: str | None = None) -> list[TaskRecord]:
        """Every task (or those with ``status``), in submit order."""
        if status is None:
            rows = self._run(q.TASKS, {}).fetchall()
        else:
            check_name(status, "status")
            rows = self._run(q.TASKS_WITH, {"status": status}).fetchall()
        return [self._record(row) for row in rows]

    def counts(self) -> dict[str, int]:
        """Number of tasks per status (statuses with no task are left out)."""
        return dict(self._run(q.COUNTS, {}).fetchall())

    def record_effect(self, lease: Lease, key: str) -> bool:
        """Record that ``lease`` is about to perform the side effect ``key``.

        True the first time ``key`` is recorded for the task by a current lease: the caller may
        send. False when the key is already recorded or the lease is stale. One statement.
        """
        check_lease(lease)
        check_name(key, "effect key")
        params = {
            "key": key,
            "worker": lease.worker,
            "now": float(self.clock()),
            "task_id": lease.task_id,
            "epoch": lease.epoch,
        }
        return self._write_one(lease.task_id, q.RECORD_EFFECT, params)

    def effects(self, task_id: str) -> list[Effect]:
        """The side effects recorded for ``task_id``, in the order they were recorded."""
        check_name(task_id, "task_id")
        self._require(task_id)
        rows = self._run(q.EFFECTS, {"task_id": task_id}).fetchall()
        return [Effect(*row) for row in rows]

    # -- helpers -----------------------------------------------------------------------------

    def _run(self, sql: str, params: dict) -> psycopg.Cursor:
        """Execute one statement (its own transaction); driver errors become LedgerError."""
        try:
            return self._cur.execute(sql, params)
        except psycopg.Error as exc:
            raise LedgerError(f"{self.url}: {reason(exc)}") from None

    def _get_or_none(self, task_id: str) -> TaskRecord | None:
        row = self._run(q.GET, {"task_id": task_id}).fetchone()
        return None if row is None else self._record(row)

    def _write_one(self, task_id: str, sql: str, params: dict) -> bool:
        """Run one conditional write on ``task_id``'s row: True if it changed the row.

        False means its condition (current epoch, status...) did not hold and nothing changed;
        :class:`UnknownTask` if there is no such task at all.
        """
        if self._run(sql, params).rowcount == 1:
            return True
        self._require(task_id)
        return False

    def _require(self, task_id: str) -> None:
        if self._run(q.EXISTS, {"task_id": task_id}).fetchone() is None:
            raise UnknownTask(task_id)

    @staticmethod
    def _record(row: tuple) -> TaskRecord:
        values = list(row)
        for i in (4, 8, 10):  # result, checkpoint, goal
            values[i] = _from_json(values[i])
        return TaskRecord(*values)


def reason(exc: psycopg.Error) -> str:
    """The server's one-line message (the first line of the driver's text)."""
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__
