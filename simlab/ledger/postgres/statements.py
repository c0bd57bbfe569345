"""The SQL statements of the PostgreSQL ledger, apart from the class that runs them.

Every statement takes named parameters (psycopg's ``%(name)s``). Times are parameters computed
from the ledger's clock; no statement calls ``now()``. The schema is
:mod:`simlab.ledger.postgres.schema`.
"""

from __future__ import annotations

from simlab.records import PROBE_TENANT

TASK_COLUMNS = (
    "task_id, status, step, epoch, result, tenant, attempts, lease_until, checkpoint, "
    "worker, goal, created_at, updated_at"
)
LEASE_COLUMNS = "task_id, worker, epoch, step, lease_until, checkpoint, attempts, status"
#: What a claim by ID returns: the rest of the lease is the claim's own task ID, worker and
#: lease end (each read column costs the driver a conversion).
CLAIMED_COLUMNS = "epoch, step, checkpoint, attempts, status"

SUBMIT = """
    INSERT INTO simlab_tasks (task_id, tenant, goal, status, created_at, updated_at)
    VALUES (%(task_id)s, %(tenant)s, %(goal)s, 'queued', %(now)s, %(now)s)
    ON CONFLICT (task_id) DO NOTHING
"""

# The claim is one statement: the lease check, the epoch bump and the read of the new epoch
# cannot be separated. A task is claimable when queued, or running with a lease that ran out.
_CLAIMABLE = "(status = 'queued' OR (status = 'running' AND lease_until <= %(now)s))"
_SET_CLAIM = """
    SET status = 'running', epoch = epoch + 1, attempts = attempts + 1,
        worker = %(worker)s, lease_until = %(until)s, updated_at = %(now)s
"""
# With max_attempts, the claim that would exceed it turns the task dead instead (bumping the
# epoch, which fences any straggler); the caller then raises TerminalTask.
_SET_CLAIM_OR_DEAD = """
    SET status      = CASE WHEN attempts >= %(max)s THEN 'dead' ELSE 'running' END,
        epoch       = epoch + 1,
        attempts    = CASE WHEN attempts >= %(max)s THEN attempts ELSE attempts + 1 END,
        worker      = CASE WHEN attempts >= %(max)s THEN worker ELSE %(worker)s END,
        lease_until = CASE WHEN attempts >= %(max)s THEN NULL ELSE %(until)s END,
        updated_at  = %(now)s
"""
_BY_ID = f"WHERE task_id = %(task_id)s AND {_CLAIMABLE} RETURNING {CLAIMED_COLUMNS}"
# The next task: the oldest claimable row that no other transaction has locked. SKIP LOCKED
# lets many workers claim at once without queueing behind one another on the same row; the
# outer condition is checked again on the locked row. Health probes (their tenant) are never
# handed out: only the check claims them, by ID.
_OLDEST = f"""
    WHERE task_id = (SELECT task_id FROM simlab_tasks
                     WHERE open AND {_CLAIMABLE} AND tenant <> '{PROBE_TENANT}'
                     ORDER BY seq LIMIT 1 FOR UPDATE SKIP LOCKED)
      AND {_CLAIMABLE}
    RETURNING {LEASE_COLUMNS}
"""
CLAIM_ONE = (
    f"UPDATE simlab_tasks {_SET_CLAIM} {_BY_ID}",
    f"UPDATE simlab_tasks {_SET_CLAIM_OR_DEAD} {_BY_ID}",
)
CLAIM_NEXT = (
    f"UPDATE simlab_tasks {_SET_CLAIM} {_OLDEST}",
    f"UPDATE simlab_tasks {_SET_CLAIM_OR_DEAD} {_OLDEST}",
)

# The fenced commit: task, epoch, running, and a step that advances, in one UPDATE.
_FENCE = (
    "WHERE task_id = %(task_id)s AND epoch = %(epoch)s AND status = 'running' AND step < %(step)s"
)
SAVE = (
    "UPDATE simlab_tasks SET step = %(step)s, result = %(result)s, "
    f"checkpoint = %(checkpoint)s, updated_at = %(now)s {_FENCE}"
)
SAVE_DONE = (
    "UPDATE simlab_tasks SET step = %(step)s, result = %(result)s, "
    "checkpoint = %(checkpoint)s, updated_at = %(now)s, status = 'completed', "
    f"lease_until = NULL {_FENCE}"
)
_CURRENT = "WHERE task_id = %(task_id)s AND epoch = %(epoch)s AND status = 'running'"
HEARTBEAT = f"UPDATE simlab_tasks SET lease_until = %(until)s, updated_at = %(now)s {_CURRENT}"
HEARTBEAT_UNTIL = f"{HEARTBEAT} RETURNING lease_until"
RELEASE = (
    "UPDATE simlab_tasks SET status = 'queued', lease_until = NULL, updated_at = %(now)s "
    f"{_CURRENT}"
)
CANCEL = """
    UPDATE simlab_tasks SET status = 'cancelled', epoch = epoch + 1, lease_until = NULL,
        updated_at = %(now)s
    WHERE task_id = %(task_id)s AND status IN ('queued', 'running')
"""
REQUEUE = """
    UPDATE simlab_tasks SET status = 'queued', attempts = 0, lease_until = NULL,
        updated_at = %(now)s
    WHERE task_id = %(task_id)s AND status IN ('cancelled', 'dead')
"""
# One statement that records only for the current epoch: FOR SHARE locks the task row, so a
# claim or cancel that bumps the epoch waits for this insert, or this insert sees its new epoch
# (READ COMMITTED re-checks the condition on the latest row) and inserts nothing.
RECORD_EFFECT = f"""
    INSERT INTO simlab_effects (task_id, key, epoch, worker, recorded_at)
    SELECT task_id, %(key)s, epoch, %(worker)s, %(now)s FROM simlab_tasks {_CURRENT}
    FOR SHARE
    ON CONFLICT (task_id, key) DO NOTHING
"""
EFFECTS = """
    SELECT task_id, key, epoch, worker, recorded_at FROM simlab_effects
    WHERE task_id = %(task_id)s ORDER BY seq
"""
ALL_EFFECTS = "SELECT task_id, key, epoch, worker, recorded_at FROM simlab_effects ORDER BY seq"
GET = f"SELECT {TASK_COLUMNS} FROM simlab_tasks WHERE task_id = %(task_id)s"
EXISTS = "SELECT 1 FROM simlab_tasks WHERE task_id = %(task_id)s"
TASKS = f"SELECT {TASK_COLUMNS} FROM simlab_tasks ORDER BY seq"
TASKS_WITH = f"SELECT {TASK_COLUMNS} FROM simlab_tasks WHERE status = %(status)s ORDER BY seq"
TASK_IDS_WITH = "SELECT task_id FROM simlab_tasks WHERE status = %(status)s ORDER BY seq"
COUNTS = 'SELECT status, COUNT(*) FROM simlab_tasks GROUP BY status ORDER BY status COLLATE "C"'

# The floor of ``simlab bench ledger``: one single-row UPDATE, committed on its own.
RAW_UPDATE = "UPDATE simlab_tasks SET updated_at = %(now)s WHERE task_id = %(task_id)s"

# The chapter's racy claim and unfenced save (simlab.ledger.racy), for teaching only.
RACY_CLAIM_UPDATE = """
    UPDATE simlab_tasks SET epoch = epoch + 1, status = 'running', attempts = attempts + 1,
        worker = %(worker)s, lease_until = %(until)s, updated_at = %(now)s
    WHERE task_id = %(task_id)s AND status IN ('queued', 'running')
"""
RACY_READ = f"SELECT {LEASE_COLUMNS} FROM simlab_tasks WHERE task_id = %(task_id)s"
RACY_SAVE_UNFENCED = """
    UPDATE simlab_tasks SET step = %(step)s, result = %(result)s, checkpoint = %(checkpoint)s,
        status = %(status)s, updated_at = %(now)s,
        lease_until = CASE WHEN %(status)s = 'running' THEN lease_until END
    WHERE task_id = %(task_id)s AND status = 'running'
"""

# The health probe: a write and a read in one transaction, then the row is deleted.
PROBE_INSERT = f"""
    INSERT INTO simlab_tasks (task_id, tenant, status, created_at, updated_at)
    VALUES (%(task_id)s, '{PROBE_TENANT}', 'completed', 0, 0)
"""
PROBE_READ = "SELECT tenant, status FROM simlab_tasks WHERE task_id = %(task_id)s"
PROBE_DELETE = "DELETE FROM simlab_tasks WHERE task_id = %(task_id)s"
# Removing a health probe task once the check is done (one transaction, effects first: they
# reference the task). Only a task of the probe tenant is ever deleted.
PROBE_REMOVE_EFFECTS = f"""
    DELETE FROM simlab_effects WHERE task_id = %(task_id)s
      AND task_id IN (SELECT task_id FROM simlab_tasks WHERE tenant = '{PROBE_TENANT}')
"""
PROBE_REMOVE_TASK = (
    f"DELETE FROM simlab_tasks WHERE task_id = %(task_id)s AND tenant = '{PROBE_TENANT}'"
)
