"""The real task ledger over SQLite, correct across many processes.

Guarantees
----------
* **Atomic claim.** A claim is one ``UPDATE ... RETURNING`` statement: the lease check, the epoch
  bump and the read of the new epoch happen together, so two processes can never both believe
  they hold the same epoch. (The chapter's ``claim`` ran its ``SELECT`` after the ``UPDATE``, in a
  second statement: two processes could both bump, then both read the same latest epoch.)
* **Fenced commit.** ``save`` is one conditional ``UPDATE`` on task ID, epoch and
  ``status='running'``; a worker whose epoch is stale updates zero rows and gets ``False``.
* **Steps only advance.** ``save`` must carry a step greater than the stored one (checked in the
  same ``UPDATE``), so no ``(task, step)`` commit is ever accepted twice and the step never goes
  back. A save that does not advance returns ``False`` and changes nothing: it is a duplicate.
* **Cancellation fences too.** ``cancel`` sets ``cancelled`` and bumps the epoch in one statement,
  so any commit still in flight fails.
* **Nothing is completed unless a save with ``done=True`` landed.** A worker exiting proves nothing.
* **Time comes from ``clock``**, never from SQL's ``CURRENT_TIMESTAMP``, so a simulation can pass
  ``clock=lambda: env.now``.

Concurrency
-----------
Files run in WAL mode with a busy timeout, so readers never block the writer and writers queue
instead of failing. Every write is either a single statement in autocommit mode (atomic on its
own) or a ``BEGIN IMMEDIATE`` transaction, which takes the write lock up front; a deferred
transaction that later upgrades to a write is the classic source of "database is locked" errors
that no busy timeout can fix, and this module never opens one.

``synchronous=NORMAL``: in WAL mode a committed transaction survives a crash of the process (the
case simlab teaches: SIGKILL of a worker); a power loss may roll back the last few commits, never
corrupt the file. ``FULL`` would fsync on every commit and cost an order of magnitude in speed.

Schema
------
Created and upgraded by the numbered :data:`~simlab.ledger.schema.MIGRATIONS`, each recorded in
``schema_migrations``.
Opening a database whose schema is newer than this code raises :class:`LedgerError` and changes
nothing.
"""

from __future__ import annotations

import sqlite3
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from simlab.errors import LeaseHeld, LedgerError, TerminalTask, UnknownTask
from simlab.ledger import statements as stmt
from simlab.ledger.arguments import check_step as _check_step
from simlab.ledger.arguments import check_ttl as _check_ttl
from simlab.ledger.arguments import from_json as _from_json
from simlab.ledger.arguments import to_json as _to_json
from simlab.ledger.schema import MIGRATIONS, SCHEMA_VERSION
from simlab.records import DEAD, RUNNING, Effect, Lease, TaskRecord

__all__ = ["Ledger"]


class Ledger:
    """The durable task ledger over one SQLite database (``":memory:"`` or a file path).

    Many processes may open the same file at once. One ``Ledger`` object belongs to one thread.
    """

    def __init__(
        self,
        path: str | Path,
        *,
        clock: Callable[[], float] = time.time,
        max_attempts: int | None = None,
        busy_timeout: float = 60.0,
    ):
        if max_attempts is not None and max_attempts < 1:
            raise ValueError(f"max_attempts must be at least 1 or None, got {max_attempts!r}")
        self.path = str(path)
        self.clock = clock
        self.max_attempts = max_attempts
        try:
            self._db = sqlite3.connect(
                self.path, timeout=busy_timeout, isolation_level=None, check_same_thread=True
            )
        except sqlite3.Error as exc:
            raise LedgerError(f"cannot open ledger {self.path!r}: {exc}") from None
        try:
            self._open()
        except sqlite3.Error as exc:
            self._db.close()
            raise LedgerError(f"{self.path!r} is not a usable simlab ledger: {exc}") from None
        except LedgerError:
            self._db.close()
            raise

    # -- opening and schema ------------------------------------------------------------------

    def _open(self) -> None:
        db = self._db
        # Read first: a database from newer code is refused before anything is written to it.
        version = self._schema_version()
        if version > SCHEMA_VERSION:
            raise LedgerError(
                f"{self.path!r} has schema version {version}, newer than this simlab "
                f"({SCHEMA_VERSION}); upgrade simlab to open it"
            )
        if self.path != ":memory:":
            mode = db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if mode.lower() != "wal":
                raise LedgerError(f"{self.path!r}: cannot switch to WAL mode (got {mode})")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA foreign_keys=ON")
        if version < SCHEMA_VERSION:
            self._migrate()

    def _schema_version(self) -> int:
        has_table = self._db.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
        ).fetchone()
        if not has_table:
            return 0
        row = self._db.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations")
        return row.fetchone()[0]

    def _migrate(self) -> None:
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            db.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations ("
                " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)"
            )
            # Re-read inside the write lock: another process may have migrated meanwhile.
            current = self._schema_version()
            if current > SCHEMA_VERSION:
                raise LedgerError(
                    f"{self.path!r} has schema version {current}, newer than this simlab "
                    f"({SCHEMA_VERSION})"
                )
            for number, (name, script) in enumerate(MIGRATIONS, start=1):
                if number <= current:
                    continue
                for statement in script.split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.execute(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                    (number, name, float(self.clock())),
                )
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    @property
    def schema_version(self) -> int:
        return self._schema_version()

    # -- lifecycle ---------------------------------------------------------------------------

    def close(self) -> None:
        """Close the connection. Committed work is durable; nothing is pending between calls."""
        self._db.close()

    def __enter__(self) -> Ledger:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Ledger({self.path!r})"

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
        elif not isinstance(task_id, str) or not task_id:
            raise ValueError(f"task_id must be a non-empty string, got {task_id!r}")
        goal_json = _to_json(goal, "goal")
        now = float(self.clock())
        try:
            self._db.execute(
                "INSERT INTO tasks (task_id, tenant, goal, status, created_at, updated_at)"
                " VALUES (?, ?, ?, 'queued', ?, ?)",
                (task_id, tenant, goal_json, now, now),
            )
        except sqlite3.IntegrityError:
            raise LedgerError(f"task {task_id!r} already exists") from None
        return task_id

    def claim(self, task_id: str, worker: str, ttl: float) -> Lease:
        """Take the lease of ``task_id`` for ``ttl`` seconds and return it with a new epoch.

        Allowed from ``queued``, or from ``running`` once ``lease_until <= clock()``. Raises
        :class:`TerminalTask` (completed, cancelled, dead), :class:`LeaseHeld` (a live lease)
        or :class:`UnknownTask`. With ``max_attempts``, the claim that would exceed it marks the
        task ``dead`` and raises :class:`TerminalTask`.
        """
        _check_ttl(ttl)
        while True:
            now = float(self.clock())
            if self.max_attempts is None:
                params = (worker, now + ttl, now, task_id)
                query = stmt.CLAIM_ONE[0]
            else:
                params = (worker, now + ttl, now, task_id, self.max_attempts)
                query = stmt.CLAIM_ONE[1]
            # fetchall: the statement runs to completion, and so commits, before we return.
            rows = self._db.execute(query, params).fetchall()
            if rows:
                return self._lease(rows[0])
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
        """Atomically claim the oldest claimable task (submit order), or return None."""
        _check_ttl(ttl)
        while True:
            now = float(self.clock())
            if self.max_attempts is None:
                rows = self._db.execute(stmt.CLAIM_NEXT[0], (worker, now + ttl, now))
            else:
                rows = self._db.execute(
                    stmt.CLAIM_NEXT[1], (worker, now + ttl, now, None, self.max_attempts)
                )
            rows = rows.fetchall()
            if not rows:
                return None
            if rows[0][7] != DEAD:
                return self._lease(rows[0])
            # That task just ran out of attempts and went to the dead letter: try the next one.

    def _lease(self, row: tuple) -> Lease:
        task_id, worker, epoch, step, lease_until, checkpoint, attempts, status = row
        if status == DEAD:
            raise TerminalTask(task_id, DEAD)
        # float(): SQLite hands a whole-number REAL back from RETURNING as an integer.
        return Lease(
            task_id, worker, epoch, step, float(lease_until), _from_json(checkpoint), attempts
        )

    def heartbeat(self, lease: Lease, ttl: float) -> bool:
        """Extend the lease to ``clock() + ttl`` while its epoch is current and the task runs.

        Also succeeds after ``lease_until`` passed if nobody claimed the task meanwhile: the
        epoch, not the clock, decides who owns a task.
        """
        _check_ttl(ttl)
        now = float(self.clock())
        return self._write_one(
            lease.task_id,
            "UPDATE tasks SET lease_until = ?, updated_at = ?"
            " WHERE task_id = ? AND epoch = ? AND status = 'running'",
            (now + ttl, now, lease.task_id, lease.epoch),
        )

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
        _check_step(step)
        params = (
            step,
            None if result is None else _to_json(result, "result"),
            None if checkpoint is None else _to_json(checkpoint, "checkpoint"),
            float(self.clock()),
            lease.task_id,
            lease.epoch,
        )
        return self._write_one(lease.task_id, stmt.SAVE_DONE if done else stmt.SAVE, params)

    def release(self, lease: Lease) -> bool:
        """Hand the task back to the queue (``running`` -> ``queued``) before the lease runs out.

        For a worker that stops on purpose between steps. Only a current lease may release; the
        epoch stays, and the next claim bumps it. False for a stale lease or a task not running.
        """
        return self._write_one(
            lease.task_id,
            "UPDATE tasks SET status = 'queued', lease_until = NULL, updated_at = ?"
            " WHERE task_id = ? AND epoch = ? AND status = 'running'",
            (float(self.clock()), lease.task_id, lease.epoch),
        )

    def cancel(self, task_id: str) -> bool:
        """Cancel a queued or running task and bump its epoch, so in-flight commits fail.

        Returns False when the task is already terminal. Cancelling cannot unsend what a worker
        already sent: that is what the idempotency ledger (``record_effect``) is for.
        """
        return self._write_one(
            task_id,
            "UPDATE tasks SET status = 'cancelled', epoch = epoch + 1, lease_until = NULL,"
            " updated_at = ? WHERE task_id = ? AND (status = 'queued' OR status = 'running')",
            (float(self.clock()), task_id),
        )

    def requeue(self, task_id: str) -> bool:
        """Bring a ``cancelled`` or ``dead`` task back to ``queued`` with a fresh attempt budget.

        The epoch is kept, so the next claim gets a higher one than any lease handed out before.
        Returns False for tasks in any other status.
        """
        return self._write_one(
            task_id,
            "UPDATE tasks SET status = 'queued', attempts = 0, lease_until = NULL,"
            " updated_at = ? WHERE task_id = ? AND (status = 'cancelled' OR status = 'dead')",
            (float(self.clock()), task_id),
        )

    def get(self, task_id: str) -> TaskRecord:
        """The task as stored now. Raises :class:`UnknownTask`."""
        record = self._get_or_none(task_id)
        if record is None:
            raise UnknownTask(task_id)
        return record

    def tasks(self, status: str | None = None) -> list[TaskRecord]:
        """Every task (or those with ``status``), in submit order."""
        if status is None:
            rows = self._db.execute(f"SELECT {stmt.TASK_COLUMNS} FROM tasks ORDER BY seq")
        else:
            rows = self._db.execute(
                f"SELECT {stmt.TASK_COLUMNS} FROM tasks WHERE status = ? ORDER BY seq", (status,)
            )
        return [self._record(row) for row in rows.fetchall()]

    def counts(self) -> dict[str, int]:
        """Number of tasks per status (statuses with no task are left out)."""
        rows = self._db.execute("SELECT status, COUNT(*) FROM tasks GROUP BY status ORDER BY 1")
        return dict(rows.fetchall())

    def record_effect(self, lease: Lease, key: str) -> bool:
        """Record that ``lease`` is about to perform the side effect ``key``.

        True the first time ``key`` is recorded for the task by a current lease: the caller may
        send. False when the key is already recorded (it was sent, or may have been: do not send
        again) or when the lease is stale. One statement, so the check and the insert are atomic.
        """
        if not isinstance(key, str) or not key:
            raise ValueError(f"effect key must be a non-empty string, got {key!r}")
        return self._write_one(
            lease.task_id,
            "INSERT OR IGNORE INTO effects (task_id, key, epoch, worker, recorded_at)"
            " SELECT task_id, ?, epoch, ?, ? FROM tasks"
            " WHERE task_id = ? AND epoch = ? AND status = 'running'",
            (key, lease.worker, float(self.clock()), lease.task_id, lease.epoch),
        )

    def effects(self, task_id: str) -> list[Effect]:
        """The side effects recorded for ``task_id``, in the order they were recorded."""
        self._require(task_id)
        rows = self._db.execute(
            "SELECT task_id, key, epoch, worker, recorded_at FROM effects"
            " WHERE task_id = ? ORDER BY rowid",
            (task_id,),
        ).fetchall()
        return [Effect(*row) for row in rows]

    # -- helpers -----------------------------------------------------------------------------

    def _get_or_none(self, task_id: str) -> TaskRecord | None:
        row = self._db.execute(
            f"SELECT {stmt.TASK_COLUMNS} FROM tasks WHERE task_id = ?", (task_id,)
        ).fetchone()
        return None if row is None else self._record(row)

    def _write_one(self, task_id: str, sql: str, params: tuple) -> bool:
        """Run one conditional write on ``task_id``'s row: True if it changed the row.

        False means its condition (current epoch, status...) did not hold and nothing changed;
        :class:`UnknownTask` if there is no such task at all.
        """
        if self._db.execute(sql, params).rowcount == 1:
            return True
        self._require(task_id)
        return False

    def _require(self, task_id: str) -> None:
        if self._db.execute("SELECT 1 FROM tasks WHERE task_id = ?", (task_id,)).fetchone() is None:
            raise UnknownTask(task_id)

    @staticmethod
    def _record(row: tuple) -> TaskRecord:
        (
            task_id,
            status,
            step,
            epoch,
            result,
            tenant,
            attempts,
            lease_until,
            checkpoint,
            worker,
            goal,
            created_at,
            updated_at,
        ) = row
        return TaskRecord(
            task_id,
            status,
            step,
            epoch,
            _from_json(result),
            tenant,
            attempts,
            lease_until,
            _from_json(checkpoint),
            worker,
            _from_json(goal),
            created_at,
            updated_at,
        )
