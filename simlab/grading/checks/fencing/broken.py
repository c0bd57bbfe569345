"""Statements that break a ledger's cancel on purpose, for the hidden worlds of the grader's
exercise ``fencing`` (its checks build ledgers from them that differ from this kit's in ways
drawn at grading time). Never use them in a ledger.

Each is one statement of the SQLite ledger's schema, run with the ledger's own ``_count``.
"""

from __future__ import annotations

__all__ = [
    "RECORD_ANY_EPOCH",
    "SAVE_ANY_EPOCH",
    "RESULT_ANY_STATUS",
    "BACK_TO_QUEUE",
    "FROM_ZERO",
    "CANCEL_LEAVES_LEASE",
]

#: A side effect of any lease, once per key.
RECORD_ANY_EPOCH = (
    "INSERT OR IGNORE INTO effects (task_id, key, epoch, worker, recorded_at)"
    " VALUES (:task_id, :key, :epoch, :worker, :now)"
)
#: A save of any lease, whatever the task's status, as long as it advances the step.
SAVE_ANY_EPOCH = (
    "UPDATE tasks SET step = :step, updated_at = :now WHERE task_id = :task_id AND step < :step"
)
#: A result stored on a task, whatever its status.
RESULT_ANY_STATUS = "UPDATE tasks SET result = :result WHERE task_id = :task_id"
#: A task of ``:status`` back to the queue.
BACK_TO_QUEUE = (
    "UPDATE tasks SET status = 'queued', lease_until = NULL, updated_at = :now"
    " WHERE task_id = :task_id AND status = :status"
)
#: The steps of a task rolled back to 0.
FROM_ZERO = "UPDATE tasks SET step = 0, checkpoint = NULL WHERE task_id = :task_id"
#: The kit's cancel (status and epoch) without ending the lease: ``worker`` and ``lease_until``
#: stay as the last claim left them.
CANCEL_LEAVES_LEASE = (
    "UPDATE tasks SET status = 'cancelled', epoch = epoch + 1, updated_at = :now"
    " WHERE task_id = :task_id AND (status = 'queued' OR status = 'running')"
)
#: The kit's requeue (status and a fresh attempt budget) without ending the lease:
#: ``lease_until`` stays as the last claim left it.
REQUEUE_LEAVES_LEASE = (
    "UPDATE tasks SET status = 'queued', attempts = 0, updated_at = :now"
    " WHERE task_id = :task_id AND (status = 'cancelled' OR status = 'dead')"
)
