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

import os
import sqlite3
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from simlab.errors import LeaseHeld, LedgerError, TerminalTask, UnknownTask
from simlab.ledger import files
from simlab.ledger import statements as stmt
from simlab.ledger.arguments import MAX_VALUE_BYTES, check_lease, check_name, check_step, check_ttl
from simlab.ledger.arguments import check_max_attempts as _check_max_attempts
from simlab.ledger.arguments import check_max_value_bytes as _check_max_value_bytes
from simlab.ledger.arguments import check_seconds as _check_seconds
from simlab.ledger.arguments import from_json as _from_json
from simlab.ledger.arguments import to_json as _to_json
from simlab.ledger.opening import prepare, schema_version, stamp
from simlab.records import DEAD, RUNNING, Effect, Lease, TaskRecord

__all__ = ["Ledger", "CHECKPOINT_EVERY"]

#: A file ledger checkpoints its write-ahead log after this many of its own writes, then writes
#: its identity into the fresh log (see :mod:`simlab.ledger.files`). About as often as SQLite's
#: default automatic checkpoint (1000 pages) for one process.
CHECKPOINT_EVERY = 400
_NEVER = 2**62


class Ledger:
    """The durable task ledger over one SQLite database (``":memory:"`` or a file path).

    Many processes may open the same file at once. One ``Ledger`` object belongs to one thread.
    Bad arguments raise ``ValueError``/``TypeError`` (:mod:`simlab.ledger.arguments`) and change
    nothing; every failure of SQLite itself is a :class:`LedgerError` naming the path. Opening
    follows :mod:`simlab.ledger.files` and :mod:`simlab.ledger.opening`: another program's
    database, a dangling symlink, a read-only file or folder and a foreign ``-wal`` are refused
    before anything is written.
    """

    def __init__(
        self,
        path: str | Path,
        *,
        clock: Callable[[], float] = time.time,
        max_attempts: int | None = None,
        busy_timeout: float = 60.0,
        max_value_bytes: int = MAX_VALUE_BYTES,
    ):
        _check_max_attempts(max_attempts)
        _check_max_value_bytes(max_value_bytes)
        _check_seconds(busy_timeout, "busy_timeout")
        if not callable(clock):
            raise TypeError(f"clock must be a function returning the time, got {clock!r}")
        if not isinstance(path, (str, os.PathLike)):
            raise TypeError(f"path must be a file path or ':memory:', got {path!r}")
        self.path = str(path)
        self.clock = clock
        self.max_attempts = max_attempts
        self.max_value_bytes = max_value_bytes
        self._db, _ = files.connect(self.path, busy_timeout)
        try:
            self._identity = prepare(self._db, self.path, clock)
        except sqlite3.Error as exc:
            self._db.close()
            raise LedgerError(f"cannot open ledger {self.path!r}: {exc}") from None
        except LedgerError:
            self._db.close()
            raise
        self._writes_left = _NEVER if self.path == ":memory:" else CHECKPOINT_EVERY

    @property
    def schema_version(self) -> int:
        return schema_version(self._db) or 0

    def _failed(self, exc: sqlite3.Error) -> LedgerError:
        """SQLite's error as a :class:`LedgerError` naming the file."""
        return LedgerError(f"ledger {self.path!r}: {exc}")

    def _checkpoint(self) -> None:
        """Checkpoint the log, then put page 1 (the identity) into the log that follows."""
        self._writes_left = CHECKPOINT_EVERY
        try:
            self._db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
            stamp(self._db, self._identity)
        except sqlite3.Error as exc:
            raise self._failed(exc) from None

    def backup(self, dest: str | Path) -> Path:
        """Copy this ledger to the new file ``dest``, consistently, while others write.

        SQLite's online backup API (:func:`simlab.ledger.files.backup`). ``dest`` must not
        exist. The copy is a complete ledger in one file, with its own identity.
        """
        return files.backup(self._db, self.path, dest)

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
        else:
            check_name(task_id, "task_id")
        check_name(tenant, "tenant")
        goal_json = _to_json(goal, "goal", self.max_value_bytes)
        now = float(self.clock())
        try:
            self._db.execute(stmt.SUBMIT, (task_id, tenant, goal_json, now, now))
        except sqlite3.IntegrityError as exc:
            if "UNIQUE" not in str(exc):
                raise self._failed(exc) from None
            raise LedgerError(f"task {task_id!r} already exists") from None
        except sqlite3.Error as exc:
            raise self._failed(exc) from None
        self._wrote()
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
        check_ttl(ttl)
        while True:
            now = float(self.clock())
            if self.max_attempts is None:
                params = (worker, now + ttl, now, task_id)
                query = stmt.CLAIM_ONE[0]
            else:
                params = (worker, now + ttl, now, task_id, self.max_attempts)
                query = stmt.CLAIM_ONE[1]
            # fetchall: the statement runs to completion, and so commits, before we return.
            try:
                rows = self._db.execute(query, params).fetchall()
            except sqlite3.Error as exc:
                raise self._failed(exc) from None
            if rows:
                self._wrote()
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
        """Atomically claim the oldest claimable task (submit order), or return None.

        Health probes (tenant ``__health__``) are never handed out: only the check claims them.
        """
        check_name(worker, "worker")
        check_ttl(ttl)
        while True:
            now = float(self.clock())
            if self.max_attempts is None:
                query, params = stmt.CLAIM_NEXT[0], (worker, now + ttl, now)
            else:
                query = stmt.CLAIM_NEXT[1]
                params = (worker, now + ttl, now, None, self.max_attempts)
            try:
                rows = self._db.execute(query, params).fetchall()
            except sqlite3.Error as exc:
                raise self._failed(exc) from None
            if not rows:
                return None
            self._wrote()
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
        check_lease(lease)
        check_ttl(ttl)
        now = float(self.clock())
        return self._write_one(
            lease.task_id, stmt.HEARTBEAT, (now + ttl, now, lease.task_id, lease.epoch)
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
        check_lease(lease)
        check_step(step)
        params = (
            step,
            None if result is None else _to_json(result, "result", self.max_value_bytes),
            None
            if checkpoint is None
            else _to_json(checkpoint, "checkpoint", self.max_value_bytes),
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
        check_lease(lease)
        params = (float(self.clock()), lease.task_id, lease.epoch)
        return self._write_one(lease.task_id, stmt.RELEASE, params)

    def cancel(self, task_id: str) -> bool:
        """Cancel a queued or running task and bump its epoch, so in-flight commits fail.

        Returns False when the task is already terminal. Cancelling cannot unsend what a worker
        already sent: that is what the idempotency ledger (``record_effect``) is for.
        """
        check_name(task_id, "task_id")
        return self._write_one(task_id, stmt.CANCEL, (float(self.clock()), task_id))

    def requeue(self, task_id: str) -> bool:
        """Bring a ``cancelled`` or ``dead`` task back to ``queued`` with a fresh attempt budget.

        The epoch is kept, so the next claim gets a higher one than any lease handed out before.
        Returns False for tasks in any other status.
        """
        check_name(task_id, "task_id")
        return self._write_one(task_id, stmt.REQUEUE, (float(self.clock()), task_id))

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
            rows = self._run(f"SELECT {stmt.TASK_COLUMNS} FROM tasks ORDER BY seq", ())
        else:
            check_name(status, "status")
            rows = self._run(
                f"SELECT {stmt.TASK_COLUMNS} FROM tasks WHERE status = ? ORDER BY seq", (status,)
            )
        return [self._record(row) for row in rows]

    def counts(self) -> dict[str, int]:
        """Number of tasks per status (statuses with no task are left out)."""
        return dict(self._run("SELECT status, COUNT(*) FROM tasks GROUP BY status ORDER BY 1", ()))

    def record_effect(self, lease: Lease, key: str) -> bool:
        """Record that ``lease`` is about to perform the side effect ``key``.

        True the first time ``key`` is recorded for the task by a current lease: the caller may
        send. False when the key is already recorded (it was sent, or may have been: do not send
        again) or when the lease is stale. One statement, so the check and the insert are atomic.
        """
        check_lease(lease)
        check_name(key, "effect key")
        params = (key, lease.worker, float(self.clock()), lease.task_id, lease.epoch)
        return self._write_one(lease.task_id, stmt.RECORD_EFFECT, params)

    def effects(self, task_id: str) -> list[Effect]:
        """The side effects recorded for ``task_id``, in the order they were recorded."""
        check_name(task_id, "task_id")
        self._require(task_id)
        return [Effect(*row) for row in self._run(stmt.EFFECTS, (task_id,))]

    # -- helpers -----------------------------------------------------------------------------

    def _wrote(self) -> None:
        """Count one write; every :data:`CHECKPOINT_EVERY` writes, checkpoint and stamp."""
        self._writes_left -= 1
        if self._writes_left <= 0:
            self._checkpoint()

    def _run(self, sql: str, params: tuple) -> list[tuple]:
        """All rows of one statement; SQLite's errors as :class:`LedgerError`."""
        try:
            return self._db.execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            raise self._failed(exc) from None

    def _get_or_none(self, task_id: str) -> TaskRecord | None:
        rows = self._run(f"SELECT {stmt.TASK_COLUMNS} FROM tasks WHERE task_id = ?", (task_id,))
        return self._record(rows[0]) if rows else None

    def _write_one(self, task_id: str, sql: str, params: tuple) -> bool:
        """Run one conditional write on ``task_id``'s row: True if it changed the row.

        False means its condition (current epoch, status...) did not hold and nothing changed;
        :class:`UnknownTask` if there is no such task at all.
        """
        try:
            changed = self._db.execute(sql, params).rowcount == 1
        except sqlite3.Error as exc:
            raise self._failed(exc) from None
        if changed:
            self._wrote()
            return True
        self._require(task_id)
        return False

    def _require(self, task_id: str) -> None:
        if not self._run("SELECT 1 FROM tasks WHERE task_id = ?", (task_id,)):
            raise UnknownTask(task_id)

    @staticmethod
    def _record(row: tuple) -> TaskRecord:
        (task_id, status, step, epoch, result, tenant, attempts, lease_until, checkpoint,
         worker, goal, created_at, updated_at) = row  # fmt: skip
        return TaskRecord(
            task_id, status, step, epoch, _from_json(result), tenant, attempts, lease_until,
            _from_json(checkpoint), worker, _from_json(goal), created_at, updated_at,
        )  # fmt: skip
