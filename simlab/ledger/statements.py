"""The SQL statements of the SQLite ledger, apart from the class that runs them.

Every write the ledger makes that must be atomic is one statement here: the claim (lease check,
epoch bump and read of the new epoch together) and the fenced commit (task, epoch, status and an
advancing step compared in the same ``UPDATE``).
"""

from __future__ import annotations

from simlab.records import PROBE_TENANT

SUBMIT = (
    "INSERT INTO tasks (task_id, tenant, goal, status, created_at, updated_at)"
    " VALUES (?, ?, ?, 'queued', ?, ?)"
)

TASK_COLUMNS = (
    "task_id, status, step, epoch, result, tenant, attempts, lease_until, checkpoint, "
    "worker, goal, created_at, updated_at"
)
LEASE_COLUMNS = "task_id, worker, epoch, step, lease_until, checkpoint, attempts, status"

# The claim is one statement, so the lease check, the epoch bump and the read of the new epoch
# cannot be separated. Parameters: ?1 worker, ?2 lease_until, ?3 now, ?4 task_id, ?5 max_attempts.
# A task is claimable when queued, or running with a lease that ran out (lease_until <= now).
CLAIMABLE = "(status = 'queued' OR (status = 'running' AND lease_until <= ?3))"
SET_CLAIM = """
    SET status = 'running', epoch = epoch + 1, attempts = attempts + 1,
        worker = ?1, lease_until = ?2, updated_at = ?3
"""
# With max_attempts, the claim that would exceed it turns the task dead instead (bumping the
# epoch, which fences any straggler); the caller then raises TerminalTask.
SET_CLAIM_OR_DEAD = """
    SET status      = CASE WHEN attempts >= ?5 THEN 'dead' ELSE 'running' END,
        epoch       = epoch + 1,
        attempts    = CASE WHEN attempts >= ?5 THEN attempts ELSE attempts + 1 END,
        worker      = CASE WHEN attempts >= ?5 THEN worker ELSE ?1 END,
        lease_until = CASE WHEN attempts >= ?5 THEN NULL ELSE ?2 END,
        updated_at  = ?3
"""
BY_ID = f"WHERE task_id = ?4 AND {CLAIMABLE} RETURNING {LEASE_COLUMNS}"
OLDEST = f"""
    WHERE seq = (SELECT seq FROM tasks WHERE (status = 'queued' OR status = 'running')
                 AND {CLAIMABLE} AND tenant <> '{PROBE_TENANT}'
                 ORDER BY seq LIMIT 1)
    RETURNING {LEASE_COLUMNS}
"""
CLAIM_ONE = (f"UPDATE tasks {SET_CLAIM} {BY_ID}", f"UPDATE tasks {SET_CLAIM_OR_DEAD} {BY_ID}")
CLAIM_NEXT = (
    f"UPDATE tasks {SET_CLAIM} {OLDEST}",
    f"UPDATE tasks {SET_CLAIM_OR_DEAD} {OLDEST}",
)
# The fenced commit. ?1 step, ?2 result, ?3 checkpoint, ?4 now, ?5 task_id, ?6 epoch.
FENCE = "WHERE task_id = ?5 AND epoch = ?6 AND status = 'running' AND step < ?1"
SAVE = f"UPDATE tasks SET step = ?1, result = ?2, checkpoint = ?3, updated_at = ?4 {FENCE}"
SAVE_DONE = (
    "UPDATE tasks SET step = ?1, result = ?2, checkpoint = ?3, updated_at = ?4,"
    f" status = 'completed', lease_until = NULL {FENCE}"
)

# Conditional writes on one row; each is one statement, so its check and its change are atomic.
HEARTBEAT = (
    "UPDATE tasks SET lease_until = ?, updated_at = ?"
    " WHERE task_id = ? AND epoch = ? AND status = 'running'"
)
RELEASE = (
    "UPDATE tasks SET status = 'queued', lease_until = NULL, updated_at = ?"
    " WHERE task_id = ? AND epoch = ? AND status = 'running'"
)
CANCEL = (
    "UPDATE tasks SET status = 'cancelled', epoch = epoch + 1, lease_until = NULL,"
    " updated_at = ? WHERE task_id = ? AND (status = 'queued' OR status = 'running')"
)
REQUEUE = (
    "UPDATE tasks SET status = 'queued', attempts = 0, lease_until = NULL,"
    " updated_at = ? WHERE task_id = ? AND (status = 'cancelled' OR status = 'dead')"
)
RECORD_EFFECT = (
    "INSERT OR IGNORE INTO effects (task_id, key, epoch, worker, recorded_at)"
    " SELECT task_id, ?, epoch, ?, ? FROM tasks"
    " WHERE task_id = ? AND epoch = ? AND status = 'running'"
)
EFFECTS = (
    "SELECT task_id, key, epoch, worker, recorded_at FROM effects WHERE task_id = ? ORDER BY rowid"
)
