"""The ledger contract in plain Python: the first lesson, a test oracle and a speed baseline.

:class:`MemoryLedger` keeps every task in a dict inside one process. It has no SQL, no threads
and no locks, because it needs none: one Python call runs to the end before the next begins, so
every method is trivially atomic. That is exactly why it is only a *model*. It shows what the
real ledger (:class:`simlab.ledger.Ledger`, SQLite) must guarantee across processes, where
"compare the epoch, then update" must be a single atomic statement. Never use an in-process dict
as a distributed lock.

The ideas, in the order the lesson meets them:

* **A lease is a promise with a deadline.** ``claim`` gives a worker the task until
  ``lease_until``. When that time passes, another worker may claim the task again.
* **A timeout does not prove the old worker stopped.** It only proves that we stopped *waiting*
  for it. The old worker may be paused (garbage collection, a laptop lid, a slow network) and
  wake up later, convinced it still owns the task.
* **So every claim bumps the epoch (the fencing token),** and every commit (``save``,
  ``record_effect``) must carry the current epoch. The worker that woke up carries an old epoch,
  and its commit is refused. Nobody has to tell it that it lost the lease: the ledger checks.
* **Cancelling bumps the epoch too.** Status ``cancelled`` already stops commits here, but the
  epoch is the one number a worker hands to *other* systems (a store, an idempotency ledger) that
  cannot see the status. Bumping it makes every lease issued before the cancel stale everywhere.
* **Fencing protects the ledger, not the outside world.** An e-mail sent before the stale commit
  was refused stays sent. Side effects go through :meth:`MemoryLedger.record_effect` first (the
  idempotency ledger), so a retry does not send the same e-mail twice.

Checkpoints, results and goals are JSON values: the model stores their JSON text and parses it
on the way out, so callers get fresh copies and the same round trip as SQLite storage (tuples
come back as lists, dict keys as strings). A value that is not JSON raises ``ValueError`` before
anything changes.

The chapter's original dict experiment, smaller still, is :mod:`simlab.props.dict_experiment`.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from typing import Any

from simlab.errors import LeaseHeld, LedgerError, TerminalTask, UnknownTask
from simlab.ledger.arguments import (
    MAX_VALUE_BYTES,
    check_claim,
    check_heartbeat,
    check_lease,
    check_name,
    check_save,
    check_submit,
)
from simlab.ledger.arguments import check_ledger_options as _check_ledger_options
from simlab.ledger.arguments import check_ttl as _check_ttl
from simlab.ledger.arguments import from_json as _from_json
from simlab.ledger.arguments import to_json as _to_json
from simlab.records import (
    CANCELLED,
    COMPLETED,
    DEAD,
    PROBE_TENANT,
    QUEUED,
    RUNNING,
    TERMINAL_STATUSES,
    Effect,
    Lease,
    TaskRecord,
    listing_views,
    new_lease,
    new_task_record,
)

__all__ = ["MemoryLedger"]


class _Task:
    """One task's mutable row. JSON-bearing fields hold JSON *text*, as a database column would."""

    __slots__ = (
        "task_id", "status", "step", "epoch", "result", "tenant", "attempts",
        "lease_until", "checkpoint", "worker", "goal", "created_at", "updated_at", "effects",
    )  # fmt: skip

    def __init__(self, task_id: str, tenant: str, goal: str | None, now: float):
        self.task_id = task_id
        self.status = QUEUED
        self.step = 0
        self.epoch = 0
        self.result: str | None = None
        self.tenant = tenant
        self.attempts = 0
        self.lease_until: float | None = None
        self.checkpoint: str | None = None
        self.worker: str | None = None
        self.goal = goal
        self.created_at = now
        self.updated_at = now
        #: The idempotency ledger of this task: key -> Effect, in the order recorded.
        self.effects: dict[str, Effect] = {}

    def record(self) -> TaskRecord:
        result, checkpoint, goal = self.result, self.checkpoint, self.goal
        return new_task_record(
            self.task_id,
            self.status,
            self.step,
            self.epoch,
            None if result is None else _from_json(result),
            self.tenant,
            self.attempts,
            self.lease_until,
            None if checkpoint is None else _from_json(checkpoint),
            self.worker,
            None if goal is None else _from_json(goal),
            self.created_at,
            self.updated_at,
        )


class MemoryLedger:
    """An in-process task ledger with leases and fencing tokens (epochs).

    Same contract, constructor, methods, errors and return values as
    :class:`simlab.ledger.Ledger`; ``path`` is accepted for symmetry and ignored. Every time value
    comes from ``clock()``. With ``max_attempts`` set, a claim that would exceed it moves the task
    to ``dead`` (the dead letter) and raises :class:`~simlab.errors.TerminalTask`.

    Invariants (they hold after every call):

    * a task's ``epoch`` never decreases: it grows by one on each claim, each cancel and the
      move to the dead letter, and nothing else changes it;
    * a task's ``step`` never decreases, and only a ``save`` by the current epoch changes it;
    * a method that raises has changed nothing (except the dead-letter case above).
    """

    def __init__(
        self,
        path: str = ":memory:",
        *,
        clock: Callable[[], float] = time.time,
        max_attempts: int | None = None,
        max_value_bytes: int = MAX_VALUE_BYTES,
    ):
        _check_ledger_options(clock, max_attempts, max_value_bytes)
        self.path = str(path)
        self.clock = clock
        self.max_attempts = max_attempts
        self.max_value_bytes = max_value_bytes
        # Dicts keep insertion order, so iterating gives submit order for free.
        self._tasks: dict[str, _Task] = {}

    # -- the life of a task -------------------------------------------------------------------

    def submit(
        self, task_id: str | None = None, *, tenant: str = "default", goal: Any = None
    ) -> str:
        """Persist a new task as ``queued`` (step 0, epoch 0) and return its ID.

        Without ``task_id`` a random ID is generated (pass your own for a replayable run). A
        duplicate ID raises :class:`~simlab.errors.LedgerError` and leaves the stored task
        unchanged: the entry point persists the goal *before* it answers, so a retried request
        must not overwrite it.
        """
        if task_id is None:
            task_id = uuid.uuid4().hex  # a valid name: checking it changes nothing
        check_submit(task_id, tenant)
        goal_json = None if goal is None else _to_json(goal, "goal", self.max_value_bytes)
        if task_id in self._tasks:
            raise LedgerError(f"task {task_id!r} already exists")
        self._tasks[task_id] = _Task(task_id, tenant, goal_json, float(self.clock()))
        return task_id

    def claim(self, task_id: str, worker: str, ttl: float) -> Lease:
        """Give ``worker`` a lease on the task until ``clock() + ttl`` and a fresh epoch.

        Allowed from ``queued``, or from ``running`` once the old lease has expired
        (``lease_until <= clock()``). The epoch is bumped on *every* claim because the previous
        holder may still be alive: its lease expired, but an expired lease only means we stopped
        waiting for it, not that it stopped working. With a new epoch, anything it commits later
        is refused.

        Raises :class:`~simlab.errors.LeaseHeld` while another lease is live,
        :class:`~simlab.errors.TerminalTask` for completed, cancelled and dead tasks (and when the
        claim would exceed ``max_attempts``: the task becomes ``dead`` first), and
        :class:`~simlab.errors.UnknownTask`.
        """
        check_claim(task_id, worker, ttl)
        task = self._tasks.get(task_id) or self._task(task_id)
        now = float(self.clock())
        if task.status in TERMINAL_STATUSES:
            raise TerminalTask(task_id, task.status)
        if task.status == RUNNING and task.lease_until > now:
            raise LeaseHeld(task_id, task.worker, task.lease_until)
        if self.max_attempts is not None and self._out_of_attempts(task):
            self._bury(task, now)
            raise TerminalTask(task_id, DEAD)
        return self._grant(task, worker, ttl, now)

    def claim_next(self, worker: str, ttl: float) -> Lease | None:
        """Claim the oldest claimable task in submit order, or return None if there is none.

        A task whose next claim would exceed ``max_attempts`` goes to the dead letter on the way
        and is passed over. Health probes (tenant ``__health__``) are never handed out.
        """
        check_name(worker, "worker")
        _check_ttl(ttl)
        now = float(self.clock())
        for task in self._tasks.values():
            if task.tenant == PROBE_TENANT:
                continue
            if task.status == QUEUED or (task.status == RUNNING and task.lease_until <= now):
                if self._out_of_attempts(task):
                    self._bury(task, now)
                    continue
                return self._grant(task, worker, ttl, now)
        return None

    def heartbeat(self, lease: Lease, ttl: float) -> bool:
        """Extend the lease to ``clock() + ttl``; False if the lease is no longer current.

        A lease is current while its epoch is the task's epoch and the task is running. That still
        holds after ``lease_until`` passed if nobody claimed the task in between: the epoch, not
        the clock, decides who owns a task, and any newer claim would have bumped it.
        """
        check_heartbeat(lease, ttl)
        task = self._tasks.get(lease.task_id) or self._task(lease.task_id)
        if task.epoch != lease.epoch or task.status != RUNNING:
            return False
        now = float(self.clock())
        task.lease_until = now + ttl
        task.updated_at = now
        return True

    def heartbeat_until(self, lease: Lease, ttl: float) -> float | None:
        """:meth:`heartbeat`, answering with the lease end the task holds after it (None when
        refused). Outside the contract, as on the SQLite ledger: one call where a heartbeat
        followed by :meth:`get` costs two."""
        if not self.heartbeat(lease, ttl):
            return None
        return self._task(lease.task_id).lease_until

    def save(
        self,
        lease: Lease,
        step: int,
        *,
        result: Any = None,
        checkpoint: Any = None,
        done: bool = False,
    ) -> bool:
        """The fenced commit: store ``step``, ``result`` and ``checkpoint`` if the lease is current.

        Accepted only if, at this moment, the lease's epoch is the task's epoch, the task is
        running, and ``step`` is greater than the stored step (a step is never committed twice,
        and progress never goes backwards). Otherwise returns False and changes nothing: a stale
        worker learns it lost the task *here*, at the commit, which is the only place the ledger
        can stop it. With ``done=True`` the task becomes ``completed`` and its lease ends.
        ``checkpoint=None`` stores None: pass the whole checkpoint each time.

        In SQLite all of this is one conditional ``UPDATE``; here one Python call is atomic by
        construction. A negative (or non-integer) ``step`` or a non-JSON value raises
        ``ValueError``.
        """
        check_save(lease, step)
        limit = self.max_value_bytes
        result_json = None if result is None else _to_json(result, "result", limit)
        checkpoint_json = None if checkpoint is None else _to_json(checkpoint, "checkpoint", limit)
        task = self._tasks.get(lease.task_id) or self._task(lease.task_id)
        if task.epoch != lease.epoch or task.status != RUNNING or step <= task.step:
            return False
        task.step = step
        task.result = result_json
        task.checkpoint = checkpoint_json
        if done:
            task.status = COMPLETED
            task.lease_until = None
        task.updated_at = float(self.clock())
        return True

    def release(self, lease: Lease) -> bool:
        """Hand the task back to the queue (``running`` -> ``queued``) before the lease runs out.

        For a worker that stops on purpose between steps. Only a current lease may release; the
        epoch stays, and the next claim bumps it. False for a stale lease or a task not running.
        """
        check_lease(lease)
        task = self._task(lease.task_id)
        if task.epoch != lease.epoch or task.status != RUNNING:
            return False
        task.status = QUEUED
        task.lease_until = None
        task.updated_at = float(self.clock())
        return True

    def cancel(self, task_id: str) -> bool:
        """Mark a queued or running task ``cancelled`` and bump its epoch; False if terminal.

        Status ``cancelled`` alone already stops ``save`` here. The epoch bump is for everything
        else: the epoch is the one number a worker hands to other systems (a store, an
        idempotency ledger) that never see the status, and after the bump every lease issued
        before the cancel is stale there too. Cancelling cannot undo what a worker already did
        outside the ledger (an e-mail stays sent); it only guarantees nothing more is committed.
        """
        task = self._task(task_id)
        if task.status in TERMINAL_STATUSES:
            return False
        task.status = CANCELLED
        task.epoch += 1
        task.lease_until = None
        task.updated_at = float(self.clock())
        return True

    def requeue(self, task_id: str) -> bool:
        """Bring a ``cancelled`` or ``dead`` task back to ``queued``; False for other statuses.

        Attempts restart at 0. The epoch is kept, so the next claim gets a higher epoch than any
        lease issued before: an old worker stays fenced out.
        """
        task = self._task(task_id)
        if task.status != CANCELLED and task.status != DEAD:
            return False
        task.status = QUEUED
        task.attempts = 0
        task.lease_until = None
        task.updated_at = float(self.clock())
        return True

    # -- the idempotency ledger --------------------------------------------------------------

    def record_effect(self, lease: Lease, key: str) -> bool:
        """Record that the lease holder is about to perform side effect ``key``.

        True means "you may send": the key was recorded for the first time, by a current lease.
        False means do not send: the key was already recorded (it was sent, or may have been), or
        the lease is stale. Record first, then send: a crash in between loses one e-mail at
        worst, never sends two.
        """
        check_lease(lease)
        check_name(key, "effect key")
        task = self._task(lease.task_id)
        if task.epoch != lease.epoch or task.status != RUNNING or key in task.effects:
            return False
        now = float(self.clock())
        task.effects[key] = Effect(task.task_id, key, task.epoch, lease.worker, now)
        return True

    def effects(self, task_id: str) -> list[Effect]:
        """The side effects recorded for the task, in the order they were recorded."""
        return list(self._task(task_id).effects.values())

    def all_effects(self) -> dict[str, list[Effect]]:
        """:meth:`effects` of every task that has any: task ID -> its effects in the order
        recorded (a task with none is left out)."""
        return {tid: list(t.effects.values()) for tid, t in self._tasks.items() if t.effects}

    # -- reading ------------------------------------------------------------------------------

    def get(self, task_id: str) -> TaskRecord:
        """A snapshot of one task; :class:`~simlab.errors.UnknownTask` if there is none."""
        return self._task(task_id).record()

    def tasks(self, status: str | None = None) -> list[TaskRecord]:
        """Snapshots of every task (or of those with ``status``), in submit order."""
        if status is not None:
            check_name(status, "status")
        return [t.record() for t in self._tasks.values() if status is None or t.status == status]

    def task_ids(self, status: str) -> list[str]:
        """The task IDs of :meth:`tasks` with ``status``, in submit order, without building
        their records. Outside the contract, as on the SQL ledgers."""
        check_name(status, "status")
        return [t.task_id for t in self._tasks.values() if t.status == status]

    def counts(self) -> dict[str, int]:
        """Number of tasks per status, sorted by status (statuses with no task are left out)."""
        counts: dict[str, int] = {}
        for task in self._tasks.values():
            counts[task.status] = counts.get(task.status, 0) + 1
        return dict(sorted(counts.items()))

    def tasks_and_views(self) -> tuple[list[TaskRecord], dict[str, int], dict]:
        """:meth:`tasks`, :meth:`counts` and :meth:`tasks` of every status, read at once, as
        :func:`~simlab.records.listing_views` gives them (each record made once). Outside the
        contract, as on the SQL ledgers: the simulator's last read of a run."""
        return listing_views(self.tasks())

    def close(self) -> None:
        """Nothing to release; present so the model can stand in for the SQLite ledger."""

    def __enter__(self) -> MemoryLedger:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"MemoryLedger({len(self._tasks)} tasks)"

    # -- helpers -------------------------------------------------------------------------------

    def _task(self, task_id: str) -> _Task:
        # Every key was checked by submit, so a str found here is a valid name already.
        task = self._tasks.get(task_id) if task_id.__class__ is str else None
        if task is not None:
            return task
        check_name(task_id, "task_id")
        raise UnknownTask(task_id)

    def _out_of_attempts(self, task: _Task) -> bool:
        return self.max_attempts is not None and task.attempts >= self.max_attempts

    def _bury(self, task: _Task, now: float) -> None:
        """The dead letter: too many attempts, so stop retrying until someone requeues it.

        The epoch is bumped as on a claim: a worker still holding the last lease is fenced out
        even where only the epoch is checked.
        """
        task.status = DEAD
        task.epoch += 1
        task.lease_until = None
        task.updated_at = now

    def _grant(self, task: _Task, worker: str, ttl: float, now: float) -> Lease:
        task.status = RUNNING
        task.epoch += 1
        task.attempts += 1
        task.worker = worker
        task.lease_until = now + ttl
        task.updated_at = now
        checkpoint = task.checkpoint
        return new_lease(
            task.task_id,
            worker,
            task.epoch,
            task.step,
            task.lease_until,
            None if checkpoint is None else _from_json(checkpoint),
            task.attempts,
        )
