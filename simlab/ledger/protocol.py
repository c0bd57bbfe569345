"""The task-ledger contract as a type: what the simulator, the grader and a learner rely on.

:class:`TaskLedger` is a :class:`typing.Protocol`: the SQLite :class:`~simlab.ledger.Ledger`,
the in-process :class:`~simlab.ledger.MemoryLedger` and a learner's own ledger satisfy it by
having these methods, without inheriting anything. The behaviour every implementation promises:

* ``submit`` persists a ``queued`` task at step 0, epoch 0 and returns its ID; a duplicate ID
  raises :class:`~simlab.errors.LedgerError` and changes nothing.
* ``claim``/``claim_next`` bump the epoch (the fencing token) atomically with the lease check, so
  no two leases ever share an epoch; a live lease held by another raises
  :class:`~simlab.errors.LeaseHeld`, a terminal task :class:`~simlab.errors.TerminalTask`.
* ``save`` and ``heartbeat`` succeed only for the current epoch of a running task (``save`` also
  only for a step greater than the stored one); otherwise they return False and change nothing.
* ``cancel`` sets ``cancelled`` and bumps the epoch; ``requeue`` puts a cancelled or dead task
  back to ``queued`` keeping its epoch.
* ``record_effect`` records an idempotency key once, for the current epoch only; it returns True
  only to the one caller that recorded it.
* Time comes from the ``clock`` the ledger was built with, never from the wall.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from simlab.records import Effect, Lease, TaskRecord

__all__ = ["TaskLedger"]


@runtime_checkable
class TaskLedger(Protocol):
    """The methods of a task ledger (see the module docstring for what each promises)."""

    def submit(
        self, task_id: str | None = None, *, tenant: str = "default", goal: Any = None
    ) -> str: ...

    def claim(self, task_id: str, worker: str, ttl: float) -> Lease: ...

    def claim_next(self, worker: str, ttl: float) -> Lease | None: ...

    def heartbeat(self, lease: Lease, ttl: float) -> bool: ...

    def save(
        self,
        lease: Lease,
        step: int,
        *,
        result: Any = None,
        checkpoint: Any = None,
        done: bool = False,
    ) -> bool: ...

    def release(self, lease: Lease) -> bool: ...

    def cancel(self, task_id: str) -> bool: ...

    def requeue(self, task_id: str) -> bool: ...

    def get(self, task_id: str) -> TaskRecord: ...

    def tasks(self, status: str | None = None) -> list[TaskRecord]: ...

    def counts(self) -> dict[str, int]: ...

    def record_effect(self, lease: Lease, key: str) -> bool: ...

    def effects(self, task_id: str) -> list[Effect]: ...
