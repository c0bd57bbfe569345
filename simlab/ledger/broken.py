"""Ledgers whose cancel is broken on purpose, for the grader's question on what a cancel can
and cannot undo (``cancel-limits`` of exercise ``fencing``). Never use them.

* :class:`UnfencedCancelLedger`: a cancel that fences nothing. A save of any lease is
  acknowledged (True; a stale one is acknowledged and lost, so the stored step reads the same
  whenever it is read), side effects of any lease land, a cancelled task can be claimed again,
  and requeue takes a running task back too.
* :class:`RollbackCancelLedger`: a cancel that rolls the task's steps back to 0, and a requeue
  that starts over.

Each is the real :class:`~simlab.ledger.Ledger` with a few methods replaced, so a story played
on it reads and writes the same file format. Their class name is ``Ledger``, as the notebook
names the kit's.
"""

from __future__ import annotations

from typing import Any

from simlab.ledger.sqlite.ledger import Ledger
from simlab.records import CANCELLED, RUNNING

__all__ = ["UnfencedCancelLedger", "RollbackCancelLedger"]

#: A side effect of any lease, once per key.
RECORD_ANY_EPOCH = (
    "INSERT OR IGNORE INTO effects (task_id, key, epoch, worker, recorded_at)"
    " VALUES (:task_id, :key, :epoch, :worker, :now)"
)
#: A task of ``:status`` back to the queue.
BACK_TO_QUEUE = (
    "UPDATE tasks SET status = 'queued', lease_until = NULL, updated_at = :now"
    " WHERE task_id = :task_id AND status = :status"
)
#: The steps of a task rolled back to 0.
FROM_ZERO = "UPDATE tasks SET step = 0, checkpoint = NULL WHERE task_id = :task_id"


class UnfencedCancelLedger(Ledger):
    """A cancel that fences nothing: every save that moves the step forward is acknowledged
    (a stale one is lost), side effects of any lease land, a cancelled task can be claimed
    again, and requeue takes a running task back too."""

    def save(self, lease: Any, step: int, *, result=None, checkpoint=None, done=False) -> bool:
        if super().save(lease, step, result=result, checkpoint=checkpoint, done=done):
            return True
        return self.get(lease.task_id).step < step

    def record_effect(self, lease: Any, key: str) -> bool:
        if super().record_effect(lease, key):
            return True
        return self._count(RECORD_ANY_EPOCH, self._effect_params(lease, key)) == 1

    def claim(self, task_id: str, worker: str, ttl: float) -> Any:
        self._back_to_queue(task_id, CANCELLED)
        return super().claim(task_id, worker, ttl)

    def requeue(self, task_id: str) -> bool:
        return super().requeue(task_id) or self._back_to_queue(task_id, RUNNING)

    def _back_to_queue(self, task_id: str, status: str) -> bool:
        params = {"now": float(self.clock()), "task_id": task_id, "status": status}
        return self._count(BACK_TO_QUEUE, params) == 1


class RollbackCancelLedger(Ledger):
    """A cancel that rolls the task's steps back to 0 (and a requeue that starts over)."""

    def cancel(self, task_id: str) -> bool:
        return super().cancel(task_id) and self._from_zero(task_id)

    def requeue(self, task_id: str) -> bool:
        return super().requeue(task_id) and self._from_zero(task_id)

    def _from_zero(self, task_id: str) -> bool:
        self._count(FROM_ZERO, {"task_id": task_id})
        return True


for _cls in (UnfencedCancelLedger, RollbackCancelLedger):
    _cls.__name__ = _cls.__qualname__ = "Ledger"
