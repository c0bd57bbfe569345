"""The task-ledger contract as a type: what the simulator, the grader and a learner rely on.

:class:`TaskLedger` is a :class:`typing.Protocol`: the SQLite :class:`~simlab.ledger.Ledger`,
the in-process :class:`~simlab.ledger.MemoryLedger` and a learner's own ledger satisfy it by
having these methods, without inheriting anything. The behaviour every implementation promises:

* ``submit`` persists a ``queued`` task at step 0, epoch 0 and returns its ID; a duplicate ID
  raises :class:`~simlab.errors.LedgerError` and changes nothing.
* ``claim``/``claim_next`` raise the epoch (the fencing token) atomically with the lease check,
  so no two leases ever share an epoch, and give a lease until ``clock() + ttl``. A live lease
  (``lease_until > clock()``), whoever holds it, the claimer included, raises
  :class:`~simlab.errors.LeaseHeld`; a terminal task :class:`~simlab.errors.TerminalTask`.
  At the very instant a lease ends (``lease_until == clock()``) the contract leaves the answer
  to the ledger: the kit's ledgers grant the claim, one that still counts the lease live there
  is correct too.
  The lease names the claimer and tells its attempt: the claims granted since the submit or the
  last requeue, this one included. The task's record names the worker granted its last claim
  (a ledger may forget it, None, once the task is not running) and counts the same attempts.
* ``save`` and ``heartbeat`` succeed only for the current epoch of a running task (``save`` also
  only for a step greater than the stored one); otherwise they return False and change nothing.
  ``heartbeat`` moves ``lease_until`` to ``clock() + ttl``; ``save`` leaves it as it was (a
  completing save ends the lease). A task that is not running holds no lease: its record's
  ``lease_until`` is None.
* ``release`` hands a running task back to ``queued`` for its current epoch only, keeping that
  epoch (the next claim raises it); otherwise it returns False and changes nothing.
* ``cancel`` sets ``cancelled`` and raises the epoch; ``requeue`` puts a cancelled or dead task
  back to ``queued`` keeping its epoch, with its attempts counted afresh.
* With a limit on attempts (``max_attempts``), the claim that would exceed it, of a task that
  claim would otherwise take, moves the task to ``dead`` (the dead letter), raises its epoch and
  raises :class:`~simlab.errors.TerminalTask`. Without a limit no task ever goes dead.
* ``record_effect`` records an idempotency key once, for the current epoch only; it returns True
  only to the one caller that recorded it.
* ``tasks()`` lists every task once, in submit order; ``tasks(status)`` those of the listing
  with that status, in the same order; ``counts()`` how many tasks have each status (a status
  with none may be left out); ``effects(task_id)`` every recorded key once, in the order
  recorded.
* Time comes from the ``clock`` the ledger was built with, never from the wall.

The epoch only ever rises: the kit's ledgers add one each time, and a ledger may skip numbers
(as one sequence shared by every task does); the checker accepts either.
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
