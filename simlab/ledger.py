"""The real task ledger: SQLite, correct across many processes. The only module holding SQL.

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
Created and upgraded by the numbered :data:`MIGRATIONS`, each recorded in ``schema_migrations``.
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
from urllib.parse import quote

from simlab.arguments import check_step as _check_step
from simlab.arguments import check_ttl as _check_ttl
from simlab.arguments import from_json as _from_json
from simlab.arguments import to_json as _to_json
from simlab.errors import LeaseHeld, LedgerError, TerminalTask, UnknownTask
from simlab.records import COMPLETED, DEAD, RUNNING, Effect, Lease, TaskRecord

__all__ = ["Ledger", "ChapterLedger", "MIGRATIONS", "SCHEMA_VERSION"]

#: Numbered schema migrations. Append only: never edit one that has shipped.
MIGRATIONS: tuple[tuple[str, str], ...] = (
    (
        "tasks and effects",
        """
        CREATE TABLE tasks (
            seq         INTEGER PRIMARY KEY AUTOINCREMENT,  -- submit order
            task_id     TEXT    NOT NULL UNIQUE,
            tenant      TEXT    NOT NULL,
            goal        TEXT,                               -- JSON
            -- OR, not IN: SQLite builds an ephemeral table for an IN list in a CHECK on every
            -- write, which once cost a third of each claim+save cycle (simlab bench ledger).
            status      TEXT    NOT NULL CHECK (status = 'queued' OR status = 'running'
                            OR status = 'completed' OR status = 'cancelled' OR status = 'dead'),
            step        INTEGER NOT NULL DEFAULT 0 CHECK (step >= 0),
            epoch       INTEGER NOT NULL DEFAULT 0,         -- the fencing token
            attempts    INTEGER NOT NULL DEFAULT 0,
            worker      TEXT,
            lease_until REAL,
            result      TEXT,                               -- JSON
            checkpoint  TEXT,                               -- JSON
            created_at  REAL    NOT NULL,
            updated_at  REAL    NOT NULL
        );
        -- Only tasks that may still be claimed, in submit order: claim_next reads it, and a claim
        -- (queued -> running) does not touch it, so the hot path pays no index upkeep.
        CREATE INDEX tasks_claimable ON tasks (seq) WHERE status = 'queued' OR status = 'running';
        CREATE TABLE effects (
            task_id     TEXT    NOT NULL REFERENCES tasks (task_id),
            key         TEXT    NOT NULL,
            epoch       INTEGER NOT NULL,
            worker      TEXT    NOT NULL,
            recorded_at REAL    NOT NULL,
            PRIMARY KEY (task_id, key)
        );
        """,
    ),
)
SCHEMA_VERSION = len(MIGRATIONS)

_TASK_COLUMNS = (
    "task_id, status, step, epoch, result, tenant, attempts, lease_until, checkpoint, "
    "worker, goal, created_at, updated_at"
)
_LEASE_COLUMNS = "task_id, worker, epoch, step, lease_until, checkpoint, attempts, status"

# The claim is one statement, so the lease check, the epoch bump and the read of the new epoch
# cannot be separated. Parameters: ?1 worker, ?2 lease_until, ?3 now, ?4 task_id, ?5 max_attempts.
# A task is claimable when queued, or running with a lease that ran out (lease_until <= now).
_CLAIMABLE = "(status = 'queued' OR (status = 'running' AND lease_until <= ?3))"
_SET_CLAIM = """
    SET status = 'running', epoch = epoch + 1, attempts = attempts + 1,
        worker = ?1, lease_until = ?2, updated_at = ?3
"""
# With max_attempts, the claim that would exceed it turns the task dead instead (bumping the
# epoch, which fences any straggler); the caller then raises TerminalTask.
_SET_CLAIM_OR_DEAD = """
    SET status      = CASE WHEN attempts >= ?5 THEN 'dead' ELSE 'running' END,
        epoch       = epoch + 1,
        attempts    = CASE WHEN attempts >= ?5 THEN attempts ELSE attempts + 1 END,
        worker      = CASE WHEN attempts >= ?5 THEN worker ELSE ?1 END,
        lease_until = CASE WHEN attempts >= ?5 THEN NULL ELSE ?2 END,
        updated_at  = ?3
"""
_BY_ID = f"WHERE task_id = ?4 AND {_CLAIMABLE} RETURNING {_LEASE_COLUMNS}"
_OLDEST = f"""
    WHERE seq = (SELECT seq FROM tasks WHERE (status = 'queued' OR status = 'running')
                 AND {_CLAIMABLE}
                 ORDER BY seq LIMIT 1)
    RETURNING {_LEASE_COLUMNS}
"""
_CLAIM_ONE = (f"UPDATE tasks {_SET_CLAIM} {_BY_ID}", f"UPDATE tasks {_SET_CLAIM_OR_DEAD} {_BY_ID}")
_CLAIM_NEXT = (
    f"UPDATE tasks {_SET_CLAIM} {_OLDEST}",
    f"UPDATE tasks {_SET_CLAIM_OR_DEAD} {_OLDEST}",
)
# The fenced commit. ?1 step, ?2 result, ?3 checkpoint, ?4 now, ?5 task_id, ?6 epoch.
_FENCE = "WHERE task_id = ?5 AND epoch = ?6 AND status = 'running' AND step < ?1"
_SAVE = f"UPDATE tasks SET step = ?1, result = ?2, checkpoint = ?3, updated_at = ?4 {_FENCE}"
_SAVE_DONE = (
    "UPDATE tasks SET step = ?1, result = ?2, checkpoint = ?3, updated_at = ?4,"
    f" status = 'completed', lease_until = NULL {_FENCE}"
)


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
                sql = _CLAIM_ONE[0]
            else:
                params = (worker, now + ttl, now, task_id, self.max_attempts)
                sql = _CLAIM_ONE[1]
            # fetchall: the statement runs to completion, and so commits, before we return.
            rows = self._db.execute(sql, params).fetchall()
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
                rows = self._db.execute(_CLAIM_NEXT[0], (worker, now + ttl, now))
            else:
                rows = self._db.execute(
                    _CLAIM_NEXT[1], (worker, now + ttl, now, None, self.max_attempts)
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
        return self._write_one(lease.task_id, _SAVE_DONE if done else _SAVE, params)

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
            rows = self._db.execute(f"SELECT {_TASK_COLUMNS} FROM tasks ORDER BY seq")
        else:
            rows = self._db.execute(
                f"SELECT {_TASK_COLUMNS} FROM tasks WHERE status = ? ORDER BY seq", (status,)
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
            f"SELECT {_TASK_COLUMNS} FROM tasks WHERE task_id = ?", (task_id,)
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

    # -- raw speed reference (for ``simlab bench ledger``) ------------------------------------

    def bare_claim_save(self, task_id: str) -> bool:
        """The floor of one claim+save cycle: the same two statements (the atomic claim and the
        fenced, completing save) with none of this class's Python around them."""
        db = self._db
        rows = db.execute(_CLAIM_ONE[0], ("bench", 1e300, 0.0, task_id)).fetchall()
        return db.execute(_SAVE_DONE, (1, None, None, 0.0, task_id, rows[0][2])).rowcount == 1

    def raw_update_transaction(self, task_id: str) -> None:
        """The floor a cycle is measured against: ``BEGIN IMMEDIATE``, one single-row
        ``UPDATE``, ``COMMIT``. Touches only ``updated_at``."""
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        db.execute("UPDATE tasks SET updated_at = ? WHERE task_id = ?", (0.0, task_id))
        db.execute("COMMIT")

    # -- health probe (for ``simlab health``) --------------------------------------------------

    @classmethod
    def probe_write_read(cls, path: str | Path, token: str, *, busy_timeout: float = 5.0) -> bool:
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
                    f"{str(path)!r} has schema version {version}, this simlab "
                    f"expects {SCHEMA_VERSION}"
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


class ChapterLedger(Ledger):
    """The chapter's ledger primitives, kept deliberately broken for teaching. Never use them.

    * :meth:`claim_update_only` + :meth:`read_claim` are the chapter's two-statement claim: the
      epoch bump and the read of the epoch are separate statements. Between them another worker
      can bump again, and then both read the same, latest epoch: two owners of one lease.
      It also re-claims a running task without looking at ``lease_until``.
    * :meth:`save_unfenced` commits without comparing the epoch: a stale worker overwrites the
      work of its successor.
    """

    def claim_update_only(self, task_id: str, worker: str, ttl: float) -> None:
        """The chapter's UPDATE: bump the epoch, set running; no lease check, no RETURNING."""
        _check_ttl(ttl)
        now = float(self.clock())
        self._db.execute(
            "UPDATE tasks SET epoch = epoch + 1, status = 'running', attempts = attempts + 1,"
            " worker = ?, lease_until = ?, updated_at = ?"
            " WHERE task_id = ? AND (status = 'queued' OR status = 'running')",
            (worker, now + ttl, now, task_id),
        )

    def read_claim(self, task_id: str, worker: str) -> Lease:
        """The chapter's separate SELECT after the UPDATE: reads whatever epoch is there *now*."""
        row = self._db.execute(
            f"SELECT {_LEASE_COLUMNS} FROM tasks WHERE task_id = ?", (task_id,)
        ).fetchone()
        if row is None:
            raise UnknownTask(task_id)
        tid, _, epoch, step, lease_until, checkpoint, attempts, status = row
        if status != RUNNING:
            raise TerminalTask(task_id, status)
        return Lease(tid, worker, epoch, step, float(lease_until), _from_json(checkpoint), attempts)

    def save_unfenced(
        self,
        lease: Lease,
        step: int,
        *,
        result: Any = None,
        checkpoint: Any = None,
        done: bool = False,
    ) -> bool:
        """A commit that ignores the epoch: any worker that thinks it owns the task may write."""
        _check_step(step)
        return self._write_one(
            lease.task_id,
            "UPDATE tasks SET step = ?, result = ?, checkpoint = ?, status = ?, updated_at = ?"
            " WHERE task_id = ? AND status = 'running'",
            (
                step,
                _to_json(result, "result"),
                _to_json(checkpoint, "checkpoint"),
                COMPLETED if done else RUNNING,
                float(self.clock()),
                lease.task_id,
            ),
        )
