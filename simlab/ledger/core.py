"""The ledger contract over SQL, written once: :class:`SqlLedger`.

Both engines run the same flow. The SQLite :class:`~simlab.ledger.Ledger` and the PostgreSQL
:class:`~simlab.ledger.PostgresLedger` are *dialects* of it. Each gives its statements (a module
with the names below and the same named parameters: :mod:`simlab.ledger.sqlite.statements` and
:mod:`simlab.ledger.postgres.statements`), its connection and schema, and two ways to run one
statement: :meth:`SqlLedger._rows` (all rows) and :meth:`SqlLedger._count` (rows changed). Each
turns the driver's errors into :class:`~simlab.errors.LedgerError`. So a fix to the contract
lands once, here, for both.

Every method that must be atomic is one statement of the dialect (the claim with its lease
check, the fenced save, the conditional writes, the idempotent record): the flow around it only
validates arguments, computes times from ``clock`` and says why a statement changed nothing.
:class:`~simlab.ledger.racy.RacyClaimPrimitives` adds the chapter's deliberately broken
two-statement claim and unfenced save to either dialect, for teaching, and
:mod:`simlab.ledger.probing` the probes outside the contract (bench floor, health probe).
"""

from __future__ import annotations

import uuid
from typing import Any

from simlab.errors import LeaseHeld, LedgerError, TerminalTask, UnknownTask
from simlab.ledger.arguments import (
    check_claim,
    check_heartbeat,
    check_lease,
    check_name,
    check_save,
    check_submit,
    check_ttl,
    from_json,
)
from simlab.ledger.arguments import to_json as _to_json
from simlab.records import (
    DEAD,
    RUNNING,
    Effect,
    Lease,
    TaskRecord,
    listing_views,
    new_lease,
    new_task_record,
)

__all__ = ["SqlLedger"]


class SqlLedger:
    """The ledger contract (:mod:`simlab.ledger.protocol`) as a flow over one dialect's
    statements ``q``. A dialect sets ``q``, ``clock``, ``max_attempts`` and
    ``max_value_bytes`` and implements :meth:`_rows` and :meth:`_count`; :meth:`_wrote` is told
    of every write that changed something."""

    q: Any

    # -- what a dialect provides ----------------------------------------------------------------

    def _rows(self, sql: str, params: dict) -> list[tuple]:
        """Run one statement (its own transaction) and return all its rows."""
        raise NotImplementedError

    def _count(self, sql: str, params: dict) -> int:
        """Run one statement (its own transaction) and return how many rows it changed."""
        raise NotImplementedError

    def _in_transaction(self, steps: list[tuple[str, dict]], what: str) -> list[int]:
        """Run ``steps`` (statement, parameters) in one write transaction; the rows each changed.

        All or nothing: committed when every step ran, rolled back when one fails. The driver's
        errors become :class:`~simlab.errors.LedgerError` naming the ledger and ``what``.
        """
        raise NotImplementedError

    def _wrote(self) -> None:
        """One write changed the database (a file dialect may checkpoint now and then)."""

    # -- lifecycle -------------------------------------------------------------------------------

    def close(self) -> None:
        """Close the connection. Committed work is durable; nothing is pending between calls."""
        self._db.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the contract ----------------------------------------------------------------------------

    def submit(
        self, task_id: str | None = None, *, tenant: str = "default", goal: Any = None
    ) -> str:
        """Persist a new task (``queued``, step 0, epoch 0), then return its ID.

        The ID is generated when not given. A duplicate ID raises :class:`LedgerError` and
        leaves the stored task unchanged.
        """
        if task_id is None:
            task_id = uuid.uuid4().hex  # a valid name: checking it changes nothing
        check_submit(task_id, tenant)
        params = {
            "task_id": task_id,
            "tenant": tenant,
            "goal": None if goal is None else _to_json(goal, "goal", self.max_value_bytes),
            "now": float(self.clock()),
        }
        if self._count(self.q.SUBMIT, params) != 1:
            raise LedgerError(f"task {task_id!r} already exists")
        self._wrote()
        return task_id

    def claim(self, task_id: str, worker: str, ttl: float) -> Lease:
        """Take the lease of ``task_id`` for ``ttl`` seconds and return it with a new epoch.

        Allowed from ``queued``, or from ``running`` once ``lease_until <= clock()``. Raises
        :class:`TerminalTask` (completed, cancelled, dead), :class:`LeaseHeld` (a live lease,
        naming its holder) or :class:`UnknownTask`. With ``max_attempts``, the claim that would
        exceed it marks the task ``dead`` and raises :class:`TerminalTask`. A row the claim
        refuses twice though nothing moved it (running without a lease end: its statements
        broke an invariant) raises :class:`~simlab.errors.LedgerError` rather than try for ever.
        """
        check_claim(task_id, worker, ttl)
        sql = self.q.CLAIM_ONE[self.max_attempts is not None]
        refused = None
        while True:
            now = float(self.clock())
            until = now + ttl
            params = {
                "worker": worker,
                "until": until,
                "now": now,
                "task_id": task_id,
                "max": self.max_attempts,
            }
            rows = self._rows(sql, params)
            if rows:
                self._wrote()
                # The rest of the lease is this claim's own: it stored worker and lease end.
                epoch, step, checkpoint, attempts, status = rows[0]
                if status == DEAD:
                    raise TerminalTask(task_id, DEAD)
                if checkpoint is not None:
                    checkpoint = from_json(checkpoint)
                return new_lease(task_id, worker, epoch, step, until, checkpoint, attempts)
            # Refused. Say why; the reason is read after the fact, so if another process made
            # the task claimable in between (a release), simply try again.
            record = self._get_or_none(task_id)
            if record is None:
                raise UnknownTask(task_id)
            if record.terminal:
                raise TerminalTask(task_id, record.status)
            if record.status == RUNNING and record.lease_until is not None:
                raise LeaseHeld(task_id, record.worker, record.lease_until)
            if record == refused:
                # Refused twice over the same row, which the claim's own statement should have
                # taken: no other process moved it, so trying again would loop for ever.
                raise LedgerError(
                    f"task {task_id!r} is {record.status} (lease until {record.lease_until}) "
                    "yet its claim is refused: its row breaks the ledger's own invariants"
                )
            refused = record

    def claim_next(self, worker: str, ttl: float) -> Lease | None:
        """Atomically claim the oldest claimable task (submit order), or return None.

        Health probes (tenant ``__health__``) are never handed out: only the check claims them.
        """
        check_name(worker, "worker")
        check_ttl(ttl)
        sql = self.q.CLAIM_NEXT[self.max_attempts is not None]
        while True:
            now = float(self.clock())
            params = {"worker": worker, "until": now + ttl, "now": now, "max": self.max_attempts}
            rows = self._rows(sql, params)
            if not rows:
                return None
            self._wrote()
            if rows[0][7] != DEAD:
                return self._lease(rows[0])
            # That task just ran out of attempts and went to the dead letter: try the next one.

    @staticmethod
    def _lease(row: tuple) -> Lease:
        task_id, worker, epoch, step, lease_until, checkpoint, attempts, status = row
        if status == DEAD:
            raise TerminalTask(task_id, DEAD)
        # float(): SQLite hands a whole-number REAL back from RETURNING as an integer.
        return new_lease(
            task_id, worker, epoch, step, float(lease_until), from_json(checkpoint), attempts
        )

    def heartbeat(self, lease: Lease, ttl: float) -> bool:
        """Extend the lease to ``clock() + ttl`` while its epoch is current and the task runs.

        Also succeeds after ``lease_until`` passed if nobody claimed the task meanwhile: the
        epoch, not the clock, decides who owns a task.
        """
        params = self._heartbeat_params(lease, ttl)
        if self._count(self.q.HEARTBEAT, params) == 1:  # _write_one inline: every few seconds
            self._wrote()
            return True
        self._require(lease.task_id)
        return False

    def heartbeat_until(self, lease: Lease, ttl: float) -> float | None:
        """:meth:`heartbeat`, answering with the lease end the task's row holds after it (None
        when refused). Outside the contract: one statement both extends the lease and reads
        back the end it stored, where a heartbeat followed by :meth:`get` costs two."""
        rows = self._rows(self.q.HEARTBEAT_UNTIL, self._heartbeat_params(lease, ttl))
        if rows:
            self._wrote()
            # float(): SQLite hands a whole-number REAL back from RETURNING as an integer.
            return float(rows[0][0])
        self._require(lease.task_id)
        return None

    def _heartbeat_params(self, lease: Lease, ttl: float) -> dict:
        """The checked arguments of a heartbeat as its statement's parameters, at ``clock()``."""
        check_heartbeat(lease, ttl)
        now = float(self.clock())
        return {"until": now + ttl, "now": now, "task_id": lease.task_id, "epoch": lease.epoch}

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
        check_save(lease, step)
        limit = self.max_value_bytes
        task_id = lease.task_id
        params = {
            "step": step,
            "result": None if result is None else _to_json(result, "result", limit),
            "checkpoint": None if checkpoint is None else _to_json(checkpoint, "checkpoint", limit),
            "now": float(self.clock()),
            "task_id": task_id,
            "epoch": lease.epoch,
        }
        # _write_one inline: with claim, the hot path of every worker.
        if self._count(self.q.SAVE_DONE if done else self.q.SAVE, params) == 1:
            self._wrote()
            return True
        self._require(task_id)
        return False

    def release(self, lease: Lease) -> bool:
        """Hand the task back to the queue (``running`` -> ``queued``) before the lease runs out.

        For a worker that stops on purpose between steps. Only a current lease may release; the
        epoch stays, and the next claim bumps it. False for a stale lease or a task not running.
        """
        check_lease(lease)
        params = {"now": float(self.clock()), "task_id": lease.task_id, "epoch": lease.epoch}
        return self._write_one(lease.task_id, self.q.RELEASE, params)

    def cancel(self, task_id: str) -> bool:
        """Cancel a queued or running task and bump its epoch, so in-flight commits fail.

        Returns False when the task is already terminal. Cancelling cannot unsend what a worker
        already sent: that is what the idempotency ledger (``record_effect``) is for.
        """
        check_name(task_id, "task_id")
        params = {"now": float(self.clock()), "task_id": task_id}
        return self._write_one(task_id, self.q.CANCEL, params)

    def requeue(self, task_id: str) -> bool:
        """Bring a ``cancelled`` or ``dead`` task back to ``queued`` with a fresh attempt budget.

        The epoch is kept, so the next claim gets a higher one than any lease handed out before.
        Returns False for tasks in any other status.
        """
        check_name(task_id, "task_id")
        params = {"now": float(self.clock()), "task_id": task_id}
        return self._write_one(task_id, self.q.REQUEUE, params)

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
            rows = self._rows(self.q.TASKS, {})
        else:
            check_name(status, "status")
            rows = self._rows(self.q.TASKS_WITH, {"status": status})
        return [self._record(row) for row in rows]

    def task_ids(self, status: str) -> list[str]:
        """The task IDs of :meth:`tasks` with ``status``, in submit order, reading no other
        column. Outside the contract: the simulator lists a view's IDs with it (see
        :mod:`simlab.sim.fast_paths`)."""
        check_name(status, "status")
        return [row[0] for row in self._rows(self.q.TASK_IDS_WITH, {"status": status})]

    def counts(self) -> dict[str, int]:
        """Number of tasks per status (statuses with no task are left out)."""
        return dict(self._rows(self.q.COUNTS, {}))

    def tasks_and_views(self) -> tuple[list[TaskRecord], dict[str, int], dict]:
        """:meth:`tasks`, :meth:`counts` and :meth:`tasks` of every status, read in one
        statement, as :func:`~simlab.records.listing_views` gives them (each row converted
        once). Outside the contract: the simulator's last read of a run (see
        :mod:`simlab.sim.fast_paths`)."""
        return listing_views(self.tasks())

    def record_effect(self, lease: Lease, key: str) -> bool:
        """Record that ``lease`` is about to perform the side effect ``key``.

        True the first time ``key`` is recorded for the task by a current lease: the caller may
        send. False when the key is already recorded (it was sent, or may have been: do not send
        again) or when the lease is stale. One statement, so the check and the insert are atomic.
        """
        check_lease(lease)
        check_name(key, "effect key")
        return self._write_one(lease.task_id, self.q.RECORD_EFFECT, self._effect_params(lease, key))

    def effects(self, task_id: str) -> list[Effect]:
        """The side effects recorded for ``task_id``, in the order they were recorded."""
        check_name(task_id, "task_id")
        self._require(task_id)
        return [Effect(*row) for row in self._rows(self.q.EFFECTS, {"task_id": task_id})]

    def all_effects(self) -> dict[str, list[Effect]]:
        """:meth:`effects` of every task that has any, in one statement: task ID -> its effects
        in the order recorded (a task with none is left out)."""
        out: dict[str, list[Effect]] = {}
        for row in self._rows(self.q.ALL_EFFECTS, {}):
            out.setdefault(row[0], []).append(Effect(*row))
        return out

    # -- helpers ---------------------------------------------------------------------------------

    def _effect_params(self, lease: Lease, key: str) -> dict:
        """The parameters of an effect record: ``key`` for ``lease``, stamped with the clock."""
        return {
            "key": key,
            "worker": lease.worker,
            "now": float(self.clock()),
            "task_id": lease.task_id,
            "epoch": lease.epoch,
        }

    def _get_or_none(self, task_id: str) -> TaskRecord | None:
        rows = self._rows(self.q.GET, {"task_id": task_id})
        return self._record(rows[0]) if rows else None

    def _write_one(self, task_id: str, sql: str, params: dict) -> bool:
        """Run one conditional write on ``task_id``'s row: True if it changed the row.

        False means its condition (current epoch, status...) did not hold and nothing changed;
        :class:`UnknownTask` if there is no such task at all.
        """
        if self._count(sql, params) == 1:
            self._wrote()
            return True
        self._require(task_id)
        return False

    def _require(self, task_id: str) -> None:
        if not self._rows(self.q.EXISTS, {"task_id": task_id}):
            raise UnknownTask(task_id)

    @staticmethod
    def _record(row: tuple) -> TaskRecord:
        (task_id, status, step, epoch, result, tenant, attempts, lease_until, checkpoint,
         worker, goal, created_at, updated_at) = row  # fmt: skip
        return new_task_record(
            task_id, status, step, epoch, None if result is None else from_json(result), tenant,
            attempts, lease_until, None if checkpoint is None else from_json(checkpoint), worker,
            None if goal is None else from_json(goal), created_at, updated_at,
        )  # fmt: skip
