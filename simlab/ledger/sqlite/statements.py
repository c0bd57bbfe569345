"""The SQL statements of the SQLite ledger, apart from the class that runs them.

Every write the ledger makes that must be atomic is one statement here: the claim (lease check,
epoch bump and read of the new epoch together) and the fenced commit (task, epoch, status and an
advancing step compared in the same ``UPDATE``). Parameters are named (``:task_id``, ``:now``...)
with the same names and meanings as the PostgreSQL statements of
:mod:`simlab.ledger.postgres.statements`, so :class:`simlab.ledger.core.SqlLedger` runs either with
the same arguments.
"""

from __future__ import annotations

from simlab.records import PROBE_TENANT

SUBMIT = (
    "INSERT INTO tasks (task_id, tenant, goal, status, created_at, updated_at)"
    " VALUES (:task_id, :tenant, :goal, 'queued', :now, :now)"
    " ON CONFLICT (task_id) DO NOTHING"
)

TASK_COLUMNS = (
    "task_id, status, step, epoch, result, tenant, attempts, lease_until, checkpoint, "
    "worker, goal, created_at, updated_at"
)
LEASE_COLUMNS = "task_id, worker, epoch, step, lease_until, checkpoint, attempts, status"
#: What a claim by ID returns: the rest of the lease is the claim's own task ID, worker and
#: lease end (each read column costs the driver a conversion).
CLAIMED_COLUMNS = "epoch, step, checkpoint, attempts, status"

# The claim is one statement, so the lease check, the epoch bump and the read of the new epoch
# cannot be separated. A task is claimable when queued, or running with a lease that ran out
# (lease_until <= now).
CLAIMABLE = "(status = 'queued' OR (status = 'running' AND lease_until <= :now))"
SET_CLAIM = """
    SET status = 'running', epoch = epoch + 1, attempts = attempts + 1,
        worker = :worker, lease_until = :until, updated_at = :now
"""
# With max_attempts, the claim that would exceed it turns the task dead instead (bumping the
# epoch, which fences any straggler); the caller then raises TerminalTask.
SET_CLAIM_OR_DEAD = """
    SET status      = CASE WHEN attempts >= :max THEN 'dead' ELSE 'running' END,
        epoch       = epoch + 1,
        attempts    = CASE WHEN attempts >= :max THEN attempts ELSE attempts + 1 END,
        worker      = CASE WHEN attempts >= :max THEN worker ELSE :worker END,
        lease_until = CASE WHEN attempts >= :max THEN NULL ELSE :until END,
        updated_at  = :now
"""
BY_ID = f"WHERE task_id = :task_id AND {CLAIMABLE} RETURNING {CLAIMED_COLUMNS}"
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
# The fenced commit: task, epoch, running, and a step that advances, in one UPDATE.
FENCE = "WHERE task_id = :task_id AND epoch = :epoch AND status = 'running' AND step < :step"
SAVE = (
    "UPDATE tasks SET step = :step, result = :result, checkpoint = :checkpoint,"
    f" updated_at = :now {FENCE}"
)
SAVE_DONE = (
    "UPDATE tasks SET step = :step, result = :result, checkpoint = :checkpoint,"
    f" updated_at = :now, status = 'completed', lease_until = NULL {FENCE}"
)

# Conditional writes on one row; each is one statement, so its check and its change are atomic.
CURRENT = "WHERE task_id = :task_id AND epoch = :epoch AND status = 'running'"
HEARTBEAT = f"UPDATE tasks SET lease_until = :until, updated_at = :now {CURRENT}"
#: The heartbeat that also answers with the lease end it stored (one statement, so the end read
#: is the one this heartbeat wrote).
HEARTBEAT_UNTIL = f"{HEARTBEAT} RETURNING lease_until"
RELEASE = f"UPDATE tasks SET status = 'queued', lease_until = NULL, updated_at = :now {CURRENT}"
CANCEL = (
    "UPDATE tasks SET status = 'cancelled', epoch = epoch + 1, lease_until = NULL,"
    " updated_at = :now WHERE task_id = :task_id AND (status = 'queued' OR status = 'running')"
)
REQUEUE = (
    "UPDATE tasks SET status = 'queued', attempts = 0, lease_until = NULL,"
    " updated_at = :now WHERE task_id = :task_id AND (status = 'cancelled' OR status = 'dead')"
)
RECORD_EFFECT = (
    "INSERT OR IGNORE INTO effects (task_id, key, epoch, worker, recorded_at)"
    f" SELECT task_id, :key, epoch, :worker, :now FROM tasks {CURRENT}"
)
EFFECTS = (
    "SELECT task_id, key, epoch, worker, recorded_at FROM effects WHERE task_id = :task_id"
    " ORDER BY rowid"
)
ALL_EFFECTS = "SELECT task_id, key, epoch, worker, recorded_at FROM effects ORDER BY rowid"
GET = f"SELECT {TASK_COLUMNS} FROM tasks WHERE task_id = :task_id"
EXISTS = "SELECT 1 FROM tasks WHERE task_id = :task_id"
TASKS = f"SELECT {TASK_COLUMNS} FROM tasks ORDER BY seq"
# `+status`: a parameter compared with a column that a partial index's WHERE names
# (tasks_claimable) makes SQLite prepare the statement again at every bind, to see whether the
# index applies to that value; the unary plus keeps the comparison off any index, so the
# cached statement is reused (the price: a scan of the table instead of the index).
TASKS_WITH = f"SELECT {TASK_COLUMNS} FROM tasks WHERE +status = :status ORDER BY seq"
#: The task IDs alone of ``TASKS_WITH``, in the same order (``+status`` for the same reason).
TASK_IDS_WITH = "SELECT task_id FROM tasks WHERE +status = :status ORDER BY seq"
COUNTS = "SELECT status, COUNT(*) FROM tasks GROUP BY status ORDER BY 1"

# The chapter's racy claim and unfenced save (simlab.ledger.racy), for teaching only.
RACY_CLAIM_UPDATE = (
    "UPDATE tasks SET epoch = epoch + 1, status = 'running', attempts = attempts + 1,"
    " worker = :worker, lease_until = :until, updated_at = :now"
    " WHERE task_id = :task_id AND (status = 'queued' OR status = 'running')"
)
RACY_READ = f"SELECT {LEASE_COLUMNS} FROM tasks WHERE task_id = :task_id"
RACY_SAVE_UNFENCED = (
    "UPDATE tasks SET step = :step, result = :result, checkpoint = :checkpoint,"
    " status = :status, updated_at = :now,"
    " lease_until = CASE WHEN :status = 'running' THEN lease_until END"
    " WHERE task_id = :task_id AND status = 'running'"
)

# The floor of ``simlab bench ledger``: one single-row UPDATE (in its own BEGIN IMMEDIATE).
RAW_UPDATE = "UPDATE tasks SET updated_at = :now WHERE task_id = :task_id"

# The health probe: a write and a read in one transaction, then the row is deleted. Times are
# 0: the row never outlives that transaction.
PROBE_INSERT = (
    "INSERT INTO tasks (task_id, tenant, status, created_at, updated_at)"
    f" VALUES (:task_id, '{PROBE_TENANT}', 'completed', 0, 0)"
)
PROBE_READ = "SELECT tenant, status FROM tasks WHERE task_id = :task_id"
PROBE_DELETE = "DELETE FROM tasks WHERE task_id = :task_id"
# Removing a health probe task once the check is done (one transaction, effects first: they
# reference the task). Only a task of the probe tenant is ever deleted.
PROBE_REMOVE_EFFECTS = (
    "DELETE FROM effects WHERE task_id = :task_id"
    f" AND task_id IN (SELECT task_id FROM tasks WHERE tenant = '{PROBE_TENANT}')"
)
PROBE_REMOVE_TASK = f"DELETE FROM tasks WHERE task_id = :task_id AND tenant = '{PROBE_TENANT}'"

# Emptying an in-memory ledger for its next run (Ledger.clear): effects first (they reference
# tasks), then the tasks and their submit-order counter, as a new ledger has them.
CLEAR = (
    "DELETE FROM effects",
    "DELETE FROM tasks",
    "DELETE FROM sqlite_sequence WHERE name = 'tasks'",
)
