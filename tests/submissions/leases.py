"""Answers to exercise ``leases`` (``02_leases_effects_and_loop.ipynb``): correct alternatives
that must get every point, and classic mistakes with the points each must get at most.

Each entry is ``(name, question, source, points at most, words the feedback must contain)``;
a correct alternative's "at most" is the question's full points and it must get exactly those.
The sources replace the question's answer cell of the solution notebook.
"""

from __future__ import annotations

from tests.submissions.cases import (
    FENCED_HEARTBEAT,
    NO_HEARTBEAT_LOOP,
    SEND_STEP,
    TWO_STATEMENT_CLAIM,
    UNFENCED_EFFECT,
    answer_source,
)

# A transaction that locks the database first (BEGIN IMMEDIATE), then reads and writes.
LOCKED_CLAIM = (
    """
def claim(db, task_id, worker, ttl, now):
    db.execute("BEGIN IMMEDIATE")
    try:
        row = db.execute("SELECT status, worker, lease_until FROM tasks WHERE task_id = ?",
                         (task_id,)).fetchone()
        if row is None:
            raise UnknownTask(task_id)
        status, holder, until = row
        if status == "running" and until > now:
            raise LeaseHeld(task_id, holder, until)
        if status not in ("queued", "running"):
            raise TerminalTask(task_id, status)
        db.execute("UPDATE tasks SET status = 'running', epoch = epoch + 1,"
                   " attempts = attempts + 1, worker = ?, lease_until = ?, updated_at = ?"
                   " WHERE task_id = ?", (worker, now + ttl, now, task_id))
        lease = lease_from_row(db.execute(f"SELECT {LEASE_COLUMNS} FROM tasks WHERE task_id = ?",
                                          (task_id,)).fetchone())
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")
    return lease
"""
    + FENCED_HEARTBEAT
)

# The same transaction without its ROLLBACK: a refused claim raises with the transaction, and
# the write lock, still held (one-owner: "...then `COMMIT`, or `ROLLBACK` when it refuses").
_ROLLBACK = """    except BaseException:
        db.execute("ROLLBACK")
        raise
"""
assert _ROLLBACK in LOCKED_CLAIM
NO_ROLLBACK = LOCKED_CLAIM.replace(_ROLLBACK, "    except BaseException:\n        raise\n")

# Check, then act: a SELECT decides, a separate UPDATE takes the task.
SELECT_THEN_UPDATE = (
    """
def claim(db, task_id, worker, ttl, now):
    row = db.execute("SELECT status, worker, lease_until FROM tasks WHERE task_id = ?",
                     (task_id,)).fetchone()
    if row is None:
        raise UnknownTask(task_id)
    status, holder, until = row
    if status == "running" and until > now:
        raise LeaseHeld(task_id, holder, until)
    if status not in ("queued", "running"):
        raise TerminalTask(task_id, status)
    db.execute("UPDATE tasks SET status = 'running', epoch = epoch + 1, attempts = attempts + 1,"
               " worker = ?, lease_until = ?, updated_at = ? WHERE task_id = ?",
               (worker, now + ttl, now, task_id))
    return lease_from_row(db.execute(f"SELECT {LEASE_COLUMNS} FROM tasks WHERE task_id = ?",
                                     (task_id,)).fetchone())
"""
    + FENCED_HEARTBEAT
)

# Takes any running task, live lease or not.
IGNORES_LEASE_UNTIL = (
    """
def claim(db, task_id, worker, ttl, now):
    row = db.execute(
        "UPDATE tasks SET status = 'running', epoch = epoch + 1, attempts = attempts + 1,"
        " worker = ?, lease_until = ?, updated_at = ?"
        " WHERE task_id = ? AND status IN ('queued', 'running')"
        f" RETURNING {LEASE_COLUMNS}",
        (worker, now + ttl, now, task_id),
    ).fetchone()
    if row is not None:
        return lease_from_row(row)
    found = db.execute("SELECT status FROM tasks WHERE task_id = ?", (task_id,)).fetchone()
    if found is None:
        raise UnknownTask(task_id)
    raise TerminalTask(task_id, found[0])
"""
    + FENCED_HEARTBEAT
)

_ATOMIC_CLAIM = """
def claim(db, task_id, worker, ttl, now):
    row = db.execute(
        "UPDATE tasks SET status = 'running', epoch = epoch + 1, attempts = attempts + 1,"
        " worker = ?, lease_until = ?, updated_at = ?"
        " WHERE task_id = ? AND (status = 'queued' OR (status = 'running' AND lease_until <= ?))"
        f" RETURNING {LEASE_COLUMNS}",
        (worker, now + ttl, now, task_id, now),
    ).fetchone()
    if row is not None:
        return lease_from_row(row)
    found = db.execute("SELECT status, worker, lease_until FROM tasks WHERE task_id = ?",
                       (task_id,)).fetchone()
    if found is None:
        raise UnknownTask(task_id)
    if found[0] == "running":
        raise LeaseHeld(task_id, found[1], found[2])
    raise TerminalTask(task_id, found[0])
"""

# A heartbeat that extends whatever lease the task has, whoever holds it.
UNFENCED_HEARTBEAT = (
    _ATOMIC_CLAIM
    + """

def heartbeat(db, lease, ttl, now):
    cursor = db.execute(
        "UPDATE tasks SET lease_until = ?, updated_at = ? WHERE task_id = ? AND status = 'running'",
        (now + ttl, now, lease.task_id),
    )
    return cursor.rowcount == 1
"""
)

# A fence read first, then a plain insert whose unique key refuses the second (one statement
# decides: the INSERT), written with exceptions rather than OR IGNORE.
CHECK_THEN_UNIQUE_INSERT = (
    """
import sqlite3


def record_effect(db, lease, key, now):
    current = db.execute("SELECT 1 FROM tasks WHERE task_id = ? AND epoch = ? AND status = ?",
                         (lease.task_id, lease.epoch, "running")).fetchone()
    if current is None:
        return False
    try:
        db.execute("INSERT INTO effects (task_id, key, epoch, worker, recorded_at)"
                   " VALUES (?, ?, ?, ?, ?)",
                   (lease.task_id, key, lease.epoch, lease.worker, now))
    except sqlite3.IntegrityError:
        return False
    return True
"""
    + """

def send_step(ledger, lease, step, mailbox):
    key = "{}:email:{}".format(lease.task_id, step)
    first = ledger.record_effect(lease, key)
    if first:
        mailbox.send(key)
    return first
"""
)

ALWAYS_TRUE_EFFECT = (
    """
def record_effect(db, lease, key, now):
    db.execute(
        "INSERT OR IGNORE INTO effects (task_id, key, epoch, worker, recorded_at)"
        " SELECT task_id, ?, epoch, ?, ? FROM tasks"
        " WHERE task_id = ? AND epoch = ? AND status = 'running'",
        (key, lease.worker, now, lease.task_id, lease.epoch),
    )
    return True
"""
    + SEND_STEP
)

_FENCED_EFFECT = """
def record_effect(db, lease, key, now):
    cursor = db.execute(
        "INSERT OR IGNORE INTO effects (task_id, key, epoch, worker, recorded_at)"
        " SELECT task_id, ?, epoch, ?, ? FROM tasks"
        " WHERE task_id = ? AND epoch = ? AND status = 'running'",
        (key, lease.worker, now, lease.task_id, lease.epoch),
    )
    return cursor.rowcount == 1
"""

SEND_BEFORE_RECORD = (
    _FENCED_EFFECT
    + """

def send_step(ledger, lease, step, mailbox):
    key = f"{lease.task_id}:email:{step}"
    mailbox.send(key)
    return ledger.record_effect(lease, key)
"""
)

# A key without the step: step 1's e-mail is never sent.
KEY_WITHOUT_STEP = _FENCED_EFFECT + SEND_STEP.replace(':email:{step}"', ':email"')
assert KEY_WITHOUT_STEP.count(':email"') == 1

# A while loop that reads the step back from the ledger each time.
WHILE_LOOP = """
def run_task(ledger, task_id, worker, work, steps, ttl=30.0):
    try:
        lease = ledger.claim(task_id, worker, ttl)
    except (LeaseHeld, TerminalTask):
        return "refused"
    step = lease.step
    while step < steps:
        if not ledger.heartbeat(lease, ttl):
            return "lost"
        output = work(step)
        last = step == steps - 1
        if not ledger.save(lease, step + 1, checkpoint={"output": output}, done=last,
                           result=output if last else None):
            return "lost"
        step += 1
    return "completed"
"""

# Heartbeats, but never looks at what save answered.
IGNORES_SAVE = """
def run_task(ledger, task_id, worker, work, steps, ttl=30.0):
    try:
        lease = ledger.claim(task_id, worker, ttl)
    except (LeaseHeld, TerminalTask):
        return "refused"
    for step in range(lease.step, steps):
        if not ledger.heartbeat(lease, ttl):
            return "lost"
        output = work(step)
        done = step + 1 == steps
        ledger.save(lease, step + 1, checkpoint={"output": output}, done=done,
                    result=output if done else None)
    return "completed"
"""

# Starts from step 0 every time (ignores the persisted step): a detail.
FROM_ZERO = WHILE_LOOP.replace("step = lease.step", "step = 0")

# Names the worker whose claim was refused in LeaseHeld, not the holder of the live lease: a
# detail (the exercise and LeaseHeld's docstring say it names the holder).
_SOLUTION_CLAIM = answer_source("solutions", "02_leases_effects_and_loop.ipynb", "atomic-claim")
NAMES_THE_ASKER = _SOLUTION_CLAIM.replace(
    "raise LeaseHeld(task_id, holder, lease_until)", "raise LeaseHeld(task_id, worker, lease_until)"
)
assert NAMES_THE_ASKER != _SOLUTION_CLAIM

# LeaseHeld names the holder but says the lease runs out one ttl from now, not the row's
# lease_until (a detail of the claim: "when its lease runs out").
HELD_UNTIL_FROM_NOW = _SOLUTION_CLAIM.replace(
    "raise LeaseHeld(task_id, holder, lease_until)", "raise LeaseHeld(task_id, holder, now + ttl)"
)
assert HELD_UNTIL_FROM_NOW != _SOLUTION_CLAIM

# -- answers that the case-by-case checks let through: each breaks one sentence of the text ------

_SOLUTION_EFFECT = answer_source("solutions", "02_leases_effects_and_loop.ipynb", "idempotent-send")
_SOLUTION_LOOP = answer_source("solutions", "02_leases_effects_and_loop.ipynb", "worker-loop")


def _swap(source: str, old: str, new: str) -> str:
    assert old in source, old
    return source.replace(old, new)


# Looks the lease up by worker name, not by epoch: once A claims the task again, A's own stale
# lease is extended (the core: a stale lease's heartbeat is accepted).
HEARTBEAT_BY_WORKER = _swap(
    _SOLUTION_CLAIM,
    "(now + ttl, now, lease.task_id, lease.epoch),",
    "(now + ttl, now, lease.task_id, lease.worker),",
).replace("AND epoch = ? AND status", "AND worker = ? AND status")

# Fenced by the epoch only: a released or completed task's heartbeat is still accepted.
HEARTBEAT_WITHOUT_STATUS = _swap(
    _SOLUTION_CLAIM,
    " WHERE task_id = ? AND epoch = ? AND status = 'running'\",",
    ' WHERE task_id = ? AND epoch = ?",',
)

# Reads the epoch, then updates by task ID alone: a takeover between the two is extended.
TWO_STATEMENT_HEARTBEAT = (
    _ATOMIC_CLAIM
    + """

def heartbeat(db, lease, ttl, now):
    row = db.execute("SELECT epoch, status FROM tasks WHERE task_id = ?",
                     (lease.task_id,)).fetchone()
    if row is None or row[0] != lease.epoch or row[1] != "running":
        return False
    db.execute("UPDATE tasks SET lease_until = ?, updated_at = ? WHERE task_id = ?",
               (now + ttl, now, lease.task_id))
    return True
"""
)

# `<` where the text says `<=`: a lease is taken over only after its end, never at it. Only a
# clock exactly equal to a lease's end shows it (at most one point).
STRICT_EXPIRY = _swap(_SOLUTION_CLAIM, "lease_until <= ?", "lease_until < ?")

# Never counts the attempt (a detail of the claim's fields).
ATTEMPTS_NOT_COUNTED = _swap(_SOLUTION_CLAIM, " attempts = attempts + 1,", "")

# Takes queued tasks only: a crashed worker's task stays running forever.
NO_TAKEOVER = _swap(
    _SOLUTION_CLAIM,
    "(status = 'queued' OR (status = 'running' AND lease_until <= ?))",
    "status = 'queued' AND ? IS NOT NULL",
)

# TerminalTask always says "completed", whatever the row's status (a detail of the claim: a
# cancelled or dead task must be refused with its own status).
TERMINAL_ALWAYS_COMPLETED = _swap(
    _SOLUTION_CLAIM,
    "raise TerminalTask(task_id, status)",
    'raise TerminalTask(task_id, "completed")',
)

# Also takes a dead task (the core: only a queued task, or a running one whose lease ran out,
# may be claimed).
CLAIMS_DEAD = _swap(
    _SOLUTION_CLAIM, "(status = 'queued' OR (status", "(status IN ('queued', 'dead') OR (status"
)

# Refuses a dead task with LeaseHeld instead of TerminalTask(task_id, status) (a detail).
DEAD_AS_HELD = _swap(
    _SOLUTION_CLAIM, 'if status == "running":', 'if status in ("running", "dead"):'
)

# The same claim and heartbeat in other words: named parameters, the expiry as a NOT, and a
# heartbeat that counts the rows it returned.
NAMED_CLAIM = """
def claim(db, task_id, worker, ttl, now):
    args = {"task": task_id, "worker": worker, "now": now, "until": now + ttl}
    row = db.execute(
        "UPDATE tasks SET epoch = epoch + 1, attempts = attempts + 1, status = 'running',"
        " worker = :worker, lease_until = :until, updated_at = :now"
        " WHERE task_id = :task AND status IN ('queued', 'running')"
        " AND NOT (status = 'running' AND lease_until > :now)"
        f" RETURNING {LEASE_COLUMNS}",
        args,
    ).fetchone()
    if row:
        return lease_from_row(row)
    found = db.execute("SELECT status, worker, lease_until FROM tasks WHERE task_id = :task",
                       args).fetchone()
    if not found:
        raise UnknownTask(task_id)
    if found[0] != "running":
        raise TerminalTask(task_id, found[0])
    raise LeaseHeld(task_id, found[1], found[2])


def heartbeat(db, lease, ttl, now):
    rows = db.execute(
        "UPDATE tasks SET lease_until = :until, updated_at = :now"
        " WHERE task_id = :task AND epoch = :epoch AND status = 'running' RETURNING epoch",
        {"until": now + ttl, "now": now, "task": lease.task_id, "epoch": lease.epoch},
    ).fetchall()
    return len(rows) > 0
"""

# The fence by epoch only: a completed or released task's lease still records.
EFFECT_WITHOUT_STATUS = _swap(
    _SOLUTION_EFFECT,
    " WHERE task_id = ? AND epoch = ? AND status = 'running'\",",
    ' WHERE task_id = ? AND epoch = ?",',
)

# The recorded row carries the time the task was claimed, not now (a detail).
EFFECT_AT_CLAIM_TIME = _swap(
    _SOLUTION_EFFECT,
    "SELECT task_id, ?, epoch, ?, ? FROM tasks",
    "SELECT task_id, ?, epoch, ?, updated_at + 0 * ? FROM tasks",
)

# "running" read from a lease end left on the row instead of the status: where a ledger ends a
# lease at the instant its task leaves running (the end kept), the claim takes a completed or
# cancelled task whose lease end has come, and the heartbeat and record_effect of the lease it
# completed or released still go through.
CLAIM_BY_LEASE_END = _swap(
    _SOLUTION_CLAIM,
    "(status = 'queued' OR (status = 'running' AND lease_until <= ?))",
    "(status = 'queued' OR lease_until <= ?)",
)
HEARTBEAT_BY_LEASE_END = _swap(
    _SOLUTION_CLAIM,
    " WHERE task_id = ? AND epoch = ? AND status = 'running'\",",
    ' WHERE task_id = ? AND epoch = ? AND lease_until IS NOT NULL",',
)
EFFECT_BY_LEASE_END = _swap(
    _SOLUTION_EFFECT,
    " WHERE task_id = ? AND epoch = ? AND status = 'running'\",",
    ' WHERE task_id = ? AND epoch = ? AND lease_until IS NOT NULL",',
)

# One statement, written with ON CONFLICT and RETURNING; a send_step that names its key apart.
CONFLICT_EFFECT = """
def record_effect(db, lease, key, now):
    inserted = db.execute(
        "INSERT INTO effects (task_id, key, epoch, worker, recorded_at)"
        " SELECT t.task_id, :key, t.epoch, :worker, :now FROM tasks AS t"
        " WHERE t.task_id = :task AND t.epoch = :epoch AND t.status = 'running'"
        " ON CONFLICT (task_id, key) DO NOTHING RETURNING key",
        {"key": key, "worker": lease.worker, "now": now, "task": lease.task_id,
         "epoch": lease.epoch},
    ).fetchall()
    return bool(inserted)


def effect_key(task_id, step):
    return "%s/step-%d/email" % (task_id, step)


def send_step(ledger, lease, step, mailbox):
    key = effect_key(lease.task_id, step)
    if not ledger.record_effect(lease, key):
        return False
    mailbox.send(key)
    return True
"""

# Keeps its own count of steps in the checkpoint and resumes from it, not from the ledger.
STEP_FROM_CHECKPOINT = """
def run_task(ledger, task_id, worker, work, steps, ttl=30.0):
    try:
        lease = ledger.claim(task_id, worker, ttl)
    except (LeaseHeld, TerminalTask):
        return "refused"
    start = lease.step
    if isinstance(lease.checkpoint, dict) and isinstance(lease.checkpoint.get("step"), int):
        start = lease.checkpoint["step"]
    for step in range(start, steps):
        if not ledger.heartbeat(lease, ttl):
            return "lost"
        output = work(step)
        done = step + 1 == steps
        if not ledger.save(lease, step + 1, checkpoint={"output": output, "step": step + 1},
                           done=done, result=output if done else None):
            return "lost"
    return "completed"
"""

# Saves the output itself as the checkpoint, not {"output": output} (a detail).
CHECKPOINT_IS_OUTPUT = _swap(_SOLUTION_LOOP, 'checkpoint={"output": output}', "checkpoint=output")

# No heartbeat before the first step after the claim (the text: before each step): a task
# cancelled or taken over right after the claim still has its first step worked.
SKIPS_FIRST_HEARTBEAT = _swap(
    _SOLUTION_LOOP,
    "if not ledger.heartbeat(lease, ttl):",
    "if step != lease.step and not ledger.heartbeat(lease, ttl):",
)

# The output stored as the result on every save, not only the last (a detail): a task cancelled
# halfway keeps the result of a step that was not its last.
RESULT_EVERY_SAVE = _swap(_SOLUTION_LOOP, "result=output if done else None", "result=output")

ANSWERS = [
    ("locked-claim", "atomic-claim", LOCKED_CLAIM, 10, "all"),
    ("no-rollback", "atomic-claim", NO_ROLLBACK, 5, "transaction still open"),
    ("chapter-claim", "atomic-claim", TWO_STATEMENT_CLAIM, 5, "between the statements"),
    ("select-then-update", "atomic-claim", SELECT_THEN_UPDATE, 5, "same moment"),
    ("ignores-lease-until", "atomic-claim", IGNORES_LEASE_UNTIL, 5, "LeaseHeld"),
    ("unfenced-heartbeat", "atomic-claim", UNFENCED_HEARTBEAT, 5, "stale lease"),
    ("names-the-asker", "atomic-claim", NAMES_THE_ASKER, 8, "worker holding the live lease"),
    ("held-until-from-now", "atomic-claim", HELD_UNTIL_FROM_NOW, 8, "named the holder but not"),
    ("named-claim", "atomic-claim", NAMED_CLAIM, 10, "all"),
    ("heartbeat-by-worker", "atomic-claim", HEARTBEAT_BY_WORKER, 4, "heartbeat"),
    ("heartbeat-without-status", "atomic-claim", HEARTBEAT_WITHOUT_STATUS, 4, "not running"),
    ("two-statement-heartbeat", "atomic-claim", TWO_STATEMENT_HEARTBEAT, 4, "heartbeat"),
    ("strict-expiry", "atomic-claim", STRICT_EXPIRY, 9, "ran out"),
    ("attempts-not-counted", "atomic-claim", ATTEMPTS_NOT_COUNTED, 8, "attempts"),
    ("no-takeover", "atomic-claim", NO_TAKEOVER, 4, "neither got it"),
    ("terminal-always-completed", "atomic-claim", TERMINAL_ALWAYS_COMPLETED, 8, "TerminalTask"),
    ("claims-dead", "atomic-claim", CLAIMS_DEAD, 4, "dead"),
    ("dead-as-held", "atomic-claim", DEAD_AS_HELD, 8, "expected TerminalTask"),
    ("claim-by-lease-end", "atomic-claim", CLAIM_BY_LEASE_END, 4, "although it was"),
    ("heartbeat-by-lease-end", "atomic-claim", HEARTBEAT_BY_LEASE_END, 4, "not running"),
    ("select-then-insert", "idempotent-send", CHECK_THEN_UNIQUE_INSERT, 3, "one statement"),
    ("conflict-effect", "idempotent-send", CONFLICT_EFFECT, 9, "all"),
    ("effect-without-status", "idempotent-send", EFFECT_WITHOUT_STATUS, 3, "not running"),
    ("effect-by-lease-end", "idempotent-send", EFFECT_BY_LEASE_END, 3, "not running"),
    ("effect-at-claim-time", "idempotent-send", EFFECT_AT_CLAIM_TIME, 7, "recorded_at"),
    ("always-true", "idempotent-send", ALWAYS_TRUE_EFFECT, 4, "twice"),
    ("unfenced-effect", "idempotent-send", UNFENCED_EFFECT, 4, "stale lease"),
    ("send-first", "idempotent-send", SEND_BEFORE_RECORD, 4, "record the effect before"),
    ("key-without-step", "idempotent-send", KEY_WITHOUT_STEP, 8, "own e-mail"),
    ("while-loop", "worker-loop", WHILE_LOOP, 6, "all"),
    ("no-heartbeat", "worker-loop", NO_HEARTBEAT_LOOP, 3, "heartbeat"),
    ("ignores-save", "worker-loop", IGNORES_SAVE, 3, "check what save returns"),
    ("from-zero", "worker-loop", FROM_ZERO, 5, "expected [2, 3]"),
    ("step-from-checkpoint", "worker-loop", STEP_FROM_CHECKPOINT, 4, "step"),
    ("checkpoint-is-output", "worker-loop", CHECKPOINT_IS_OUTPUT, 5, "checkpoint"),
    ("skips-first-heartbeat", "worker-loop", SKIPS_FIRST_HEARTBEAT, 3, "after it lost"),
    ("result-every-save", "worker-loop", RESULT_EVERY_SAVE, 4, "result"),
]

# -- answers that foresee the world they are judged in: each fails in the hidden world ---------

# Ignores the ttl passed in: every lease is the self_check's 10 seconds (one-owner: the fault
# runs' lease-length rule; claim-fields: the lease and the row's lease_until; heartbeat-extends).
FIXED_TTL = _swap(
    _swap(
        _SOLUTION_CLAIM,
        "(worker, now + ttl, now, task_id, now),",
        "(worker, now + 10, now, task_id, now),",
    ),
    "(now + ttl, now, lease.task_id, lease.epoch),",
    "(now + 10.0, now, lease.task_id, lease.epoch),",
)

# Matches the task by prefix (LIKE): a claim of one task also takes every task whose ID starts
# with its ID, and so does a heartbeat (one-owner).
PREFIX_TASK_CLAIM = _swap(
    _swap(
        _SOLUTION_CLAIM,
        " WHERE task_id = ? AND (status = 'queued'",
        " WHERE task_id LIKE ? || '%' AND (status = 'queued'",
    ),
    " WHERE task_id = ? AND epoch = ? AND status = 'running'\",",
    " WHERE task_id LIKE ? || '%' AND epoch = ? AND status = 'running'\",",
)

# Tries to read the world it is judged in from the grader's module (the jail shows that folder
# empty), and falls back on the self_check's lease length: it gains nothing (one-owner and
# claim-fields, as a fixed ttl).
DETECTS_THE_WORLD = """
def _lease_length(ttl):
    try:
        from simlab.grading.checks.hidden_world import current_seed
        from simlab.grading.checks.leases.world import world_of

        current_seed()
        return world_of("atomic-claim").ttls[0]
    except Exception:
        return 10.0
""" + _swap(
    _SOLUTION_CLAIM,
    "(worker, now + ttl, now, task_id, now),",
    "(worker, now + _lease_length(ttl), now, task_id, now),",
)

# A key is "already recorded" when a recorded key is a prefix of it (the key given compared with
# LIKE): a task's second key that starts like its first is never recorded (effect-fields).
PREFIX_KEY_EFFECT = _swap(
    _SOLUTION_EFFECT,
    " WHERE task_id = ? AND epoch = ? AND status = 'running'\",\n"
    "        (key, lease.worker, now, lease.task_id, lease.epoch),",
    " WHERE task_id = ? AND epoch = ? AND status = 'running'\"\n"
    '        " AND NOT EXISTS (SELECT 1 FROM effects AS e WHERE e.task_id = tasks.task_id"\n'
    "        \" AND ? LIKE e.key || '%')\",\n"
    "        (key, lease.worker, now, lease.task_id, lease.epoch, key),",
)

# The task matched by prefix: a lease records the key for every running task of the same epoch
# whose ID starts with its task's (at-most-once).
PREFIX_TASK_EFFECT = _swap(
    _SOLUTION_EFFECT,
    " WHERE task_id = ? AND epoch = ? AND status = 'running'\",\n        (key,",
    " WHERE task_id LIKE ? || '%' AND epoch = ? AND status = 'running'\",\n        (key,",
)

# The time from the wall clock, not the now given (effect-fields).
WALL_CLOCK_EFFECT = _swap(
    _SOLUTION_EFFECT,
    "SELECT task_id, ?, epoch, ?, ? FROM tasks",
    "SELECT task_id, ?, epoch, ?, CAST(strftime('%s', 'now') AS REAL) + 0 * ? FROM tasks",
)

# The step read from the lease instead of the step given: the steps after a claim share one
# e-mail (step-keys).
LEASE_STEP_KEY = _swap(
    _SOLUTION_EFFECT,
    'key = f"{lease.task_id}:email:{step}"',
    'key = f"{lease.task_id}:email:{lease.step}"',
)

# Ignores the ttl argument: the default 30 s lease however long the caller asked for.
FIXED_TTL_LOOP = _swap(
    _swap(
        _SOLUTION_LOOP, "ledger.claim(task_id, worker, ttl)", "ledger.claim(task_id, worker, 30.0)"
    ),
    "ledger.heartbeat(lease, ttl)",
    "ledger.heartbeat(lease, 30.0)",
)

# Claims as the self_check's worker, whatever worker it was given: the self_check passes.
SELF_CHECK_WORKER_LOOP = _swap(
    _SOLUTION_LOOP, "ledger.claim(task_id, worker, ttl)", 'ledger.claim(task_id, "w1", ttl)'
)

# The result typed in from the self_check's work ("out<step>"), not the output work returned.
SELF_CHECK_RESULT_LOOP = _swap(
    _SOLUTION_LOOP, "result=output if done", 'result=f"out{step}" if done'
)

# The holder may claim its own live lease again (a restarted worker takes over from its old
# process), with a new epoch: two leases of one worker are live at once (one-owner).
REENTRANT_CLAIM = _swap(
    _SOLUTION_CLAIM,
    " WHERE task_id = ? AND (status = 'queued' OR (status = 'running' AND lease_until <= ?))\"\n"
    '        f" RETURNING {LEASE_COLUMNS}",\n'
    "        (worker, now + ttl, now, task_id, now),",
    " WHERE task_id = ? AND (status = 'queued' OR (status = 'running'\"\n"
    '        " AND (lease_until <= ? OR worker = ?)))"\n'
    '        f" RETURNING {LEASE_COLUMNS}",\n'
    "        (worker, now + ttl, now, task_id, now, worker),",
)

# The holder's claim of its own live lease hands back the lease it holds (same epoch): two
# processes of one worker both save with it (one-owner).
SAME_LEASE_FOR_HOLDER = _swap(
    _SOLUTION_CLAIM,
    '    if status == "running":\n        raise LeaseHeld(task_id, holder, lease_until)',
    '    if status == "running" and holder == worker:\n'
    "        return lease_from_row(db.execute(\n"
    '            f"SELECT {LEASE_COLUMNS} FROM tasks WHERE task_id = ?",\n'
    "            (task_id,)).fetchone())\n"
    '    if status == "running":\n        raise LeaseHeld(task_id, holder, lease_until)',
)

# send_step says it sent whatever record_effect answered (at-most-once: "Return True if it sent,
# False if it did not").
SAYS_IT_SENT = _swap(
    _SOLUTION_EFFECT,
    "        mailbox.send(key)\n        return True\n    return False",
    "        mailbox.send(key)\n    return True",
)

# The key names the step but not the task: two tasks' e-mails at one step share it, and the
# mailbox takes them for one e-mail (step-keys).
KEY_WITHOUT_TASK = _swap(
    _SOLUTION_EFFECT, 'key = f"{lease.task_id}:email:{step}"', 'key = f"email:{step}"'
)

# Correct: the heartbeat extends lease_until and leaves updated_at as it was (the text asks for
# lease_until only).
HEARTBEAT_LEAVES_UPDATED_AT = _swap(
    _swap(
        _SOLUTION_CLAIM,
        '"UPDATE tasks SET lease_until = ?, updated_at = ?"',
        '"UPDATE tasks SET lease_until = ?"',
    ),
    "(now + ttl, now, lease.task_id, lease.epoch),",
    "(now + ttl, lease.task_id, lease.epoch),",
)

# Any error of the claim counted as a refusal: an unknown task answers "refused" (refuses:
# "any other error of the claim (an unknown task) is not a refusal").
CATCH_ALL_LOOP = _swap(_SOLUTION_LOOP, "except (LeaseHeld, TerminalTask):", "except Exception:")

# The key runs the task and the step together: task t1's step 12 and task t11's step 2 are
# one e-mail for the mailbox (step-keys: "two tasks must never share a key").
KEY_RUN_TOGETHER = _swap(
    _SOLUTION_EFFECT, 'key = f"{lease.task_id}:email:{step}"', 'key = f"{lease.task_id}{step}"'
)

# The heartbeat refuses a lease that has run out even when nobody claimed the task since (its
# epoch is still the task's and the task still runs: the kit's heartbeat renews it).
HEARTBEAT_UNEXPIRED_ONLY = _swap(
    _SOLUTION_CLAIM,
    """        " WHERE task_id = ? AND epoch = ? AND status = 'running'",
        (now + ttl, now, lease.task_id, lease.epoch),""",
    """        " WHERE task_id = ? AND epoch = ? AND status = 'running' AND lease_until > ?",
        (now + ttl, now, lease.task_id, lease.epoch, now),""",
)

# The key is a hash of the task and the step: the same in one process, another in the worker
# process that retries the step (Python salts the hash of a string per process).
KEY_HASHED = _swap(
    _SOLUTION_EFFECT,
    'key = f"{lease.task_id}:email:{step}"',
    'key = f"{lease.task_id}#{hash((lease.task_id, step))}"',
)

ANSWERS += [
    ("key-hashed", "idempotent-send", KEY_HASHED, 3, "same in every process"),
    ("heartbeat-unexpired-only", "atomic-claim", HEARTBEAT_UNEXPIRED_ONLY, 9, "holds the task"),
    ("key-run-together", "idempotent-send", KEY_RUN_TOGETHER, 8, "name the task"),
    ("reentrant-claim", "atomic-claim", REENTRANT_CLAIM, 4, "holds the live lease"),
    ("same-lease-for-holder", "atomic-claim", SAME_LEASE_FOR_HOLDER, 4, "holds the live lease"),
    ("says-it-sent", "idempotent-send", SAYS_IT_SENT, 3, "expected False"),
    ("key-without-task", "idempotent-send", KEY_WITHOUT_TASK, 8, "name the task"),
    ("catch-all-loop", "worker-loop", CATCH_ALL_LOOP, 5, "unknown task is no refusal"),
    ("heartbeat-leaves-updated-at", "atomic-claim", HEARTBEAT_LEAVES_UPDATED_AT, 10, "all"),
]

#: The answers that foresee their world (in ANSWERS too).
FORESEEING = [
    ("fixed-ttl", "atomic-claim", FIXED_TTL, 1, "lease length"),
    ("prefix-task-claim", "atomic-claim", PREFIX_TASK_CLAIM, 4, "another task"),
    ("detects-the-world", "atomic-claim", DETECTS_THE_WORLD, 2, "lease length"),
    ("prefix-key-effect", "idempotent-send", PREFIX_KEY_EFFECT, 7, "new key"),
    ("prefix-task-effect", "idempotent-send", PREFIX_TASK_EFFECT, 3, "another key"),
    ("wall-clock-effect", "idempotent-send", WALL_CLOCK_EFFECT, 7, "recorded_at"),
    ("lease-step-key", "idempotent-send", LEASE_STEP_KEY, 8, "own e-mail"),
    ("fixed-ttl-loop", "worker-loop", FIXED_TTL_LOOP, 4, "ttl"),
    ("self-check-worker-loop", "worker-loop", SELF_CHECK_WORKER_LOOP, 4, "worker"),
    ("self-check-result-loop", "worker-loop", SELF_CHECK_RESULT_LOOP, 4, "result"),
]
ANSWERS += FORESEEING

# The task matched with LIKE (which ignores case) or COLLATE NOCASE: a claim of one task also
# takes the task whose ID differs from it only in case; a heartbeat or a record of one task's
# lease changes that task too (one-owner; at-most-once).
LIKE_CLAIM = _swap(
    _SOLUTION_CLAIM,
    " WHERE task_id = ? AND (status = 'queued'",
    " WHERE task_id LIKE ? AND (status = 'queued'",
)
NOCASE_CLAIM = _swap(
    _SOLUTION_CLAIM,
    " WHERE task_id = ? AND (status = 'queued'",
    " WHERE task_id = ? COLLATE NOCASE AND (status = 'queued'",
)
LIKE_HEARTBEAT = _swap(
    _SOLUTION_CLAIM,
    " WHERE task_id = ? AND epoch = ? AND status = 'running'\",",
    " WHERE task_id LIKE ? AND epoch = ? AND status = 'running'\",",
)
NOCASE_EFFECT = _swap(
    _SOLUTION_EFFECT,
    " WHERE task_id = ? AND epoch = ? AND status = 'running'\",\n        (key,",
    " WHERE task_id = ? COLLATE NOCASE AND epoch = ? AND status = 'running'\",\n        (key,",
)

# LeaseHeld names the holder this process's own claims remember (a module-level dict), not the
# row's worker: a lease another process's claim took is named after the last one of this
# process (claim-fields).
REMEMBERED_HOLDER = "_HOLDERS = {}\n" + _swap(
    _swap(
        _SOLUTION_CLAIM,
        "    if row is not None:\n        return lease_from_row(row)",
        "    if row is not None:\n        _HOLDERS[task_id] = worker\n"
        "        return lease_from_row(row)",
    ),
    "raise LeaseHeld(task_id, holder, lease_until)",
    "raise LeaseHeld(task_id, _HOLDERS.get(task_id, holder), lease_until)",
)
ANSWERS += [
    ("like-claim", "atomic-claim", LIKE_CLAIM, 4, "changed another task"),
    ("nocase-claim", "atomic-claim", NOCASE_CLAIM, 4, "changed another task"),
    ("like-heartbeat", "atomic-claim", LIKE_HEARTBEAT, 4, "changed another task"),
    ("nocase-effect", "idempotent-send", NOCASE_EFFECT, 3, "another key"),
    ("remembered-holder", "atomic-claim", REMEMBERED_HOLDER, 8, "did not name the holder"),
]

# A refused save lets the loop go on unless it was the last step's: the heartbeat before the next
# step usually refuses too, but not when a second process with the same lease saved the step
# first (stops-when-lost: "if the save is refused, return `"lost"`").
LAST_SAVE_CHECKED_ONLY = _swap(
    _SOLUTION_LOOP, "        if not saved:\n", "        if not saved and done:\n"
)
ANSWERS += [
    ("last-save-checked-only", "worker-loop", LAST_SAVE_CHECKED_ONLY, 3, "after it lost"),
]

# The last save is done only for a task of more than two steps (runs-and-resumes: "for the last
# step `done=True, result=output`"): the feedback names the status the task should have, which
# no world hides.
SHORT_TASK_NOT_DONE = _swap(
    _SOLUTION_LOOP, "done = step + 1 == steps\n", "done = step + 1 == steps and steps > 2\n"
)
# Resumes from the step the ledger stores after the claim, not the lease's (runs-and-resumes:
# "resume **from the step the lease says** (`lease.step`)"): they differ when a second process
# with the same lease saves right after the claim.
STEP_FROM_GET = _swap(
    _SOLUTION_LOOP, "range(lease.step, steps)", "range(ledger.get(task_id).step, steps)"
)
ANSWERS += [
    ("step-from-get", "worker-loop", STEP_FROM_GET, 4, "your loop worked"),
    ("short-task-not-done", "worker-loop", SHORT_TASK_NOT_DONE, 4, "expected 'completed'"),
]

# Correct, written otherwise: the lease's end added up in SQL, the ttl passed by keyword.
SQL_SUM_CLAIM = _swap(
    _swap(
        _SOLUTION_CLAIM,
        '" worker = ?, lease_until = ?, updated_at = ?"',
        '" worker = ?, lease_until = ? + ?, updated_at = ?"',
    ),
    "(worker, now + ttl, now, task_id, now),",
    "(worker, now, ttl, now, task_id, now),",
)
KEYWORD_TTL_LOOP = _swap(
    _swap(
        _SOLUTION_LOOP,
        "ledger.claim(task_id, worker, ttl)",
        "ledger.claim(task_id, worker, ttl=ttl)",
    ),
    "ledger.heartbeat(lease, ttl)",
    "ledger.heartbeat(lease, ttl=ttl)",
)
ANSWERS += [
    ("sql-sum-claim", "atomic-claim", SQL_SUM_CLAIM, 10, "all"),
    ("keyword-ttl-loop", "worker-loop", KEYWORD_TTL_LOOP, 6, "all"),
]

# The last output stored as text, not as work returned it (runs-and-resumes: "for the last step
# `done=True, result=output`"): the same as the output only where work returns strings.
RESULT_AS_TEXT = _swap(
    _SOLUTION_LOOP, "result=output if done else None", "result=str(output) if done else None"
)
# ... or each step's output stored as text in the checkpoint of every save but the last
# (runs-and-resumes: "`ledger.save(lease, step + 1, checkpoint={"output": output})`"): a worker
# that resumes after a crash reads another checkpoint than the one its step wrote.
CHECKPOINT_AS_TEXT = _swap(
    _SOLUTION_LOOP,
    'checkpoint={"output": output}',
    'checkpoint={"output": output if done else str(output)}',
)
ANSWERS += [
    ("result-as-text", "worker-loop", RESULT_AS_TEXT, 4, "result"),
    ("checkpoint-as-text", "worker-loop", CHECKPOINT_AS_TEXT, 4, "checkpoint"),
]

# The task matched regardless of spaces (trim(), COLLATE RTRIM) or as a pattern (GLOB): a claim
# of one task also takes a task whose ID is its own after or before a space, a claim of an ID
# that holds a wildcard takes the tasks it matches, a heartbeat or a record of one task's lease
# changes those tasks too (one-owner; at-most-once).
_CLAIM_WHERE = " WHERE task_id = ? AND (status = 'queued'"
_HEARTBEAT_WHERE = " WHERE task_id = ? AND epoch = ? AND status = 'running'\","
_EFFECT_WHERE = " WHERE task_id = ? AND epoch = ? AND status = 'running'\",\n        (key,"


def _loosely(source: str, where: str, match: str) -> str:
    """``source`` with the task ID of ``where`` matched by ``match`` (``{}``: the column)."""
    return _swap(source, where, where.replace("task_id = ?", match.format("task_id"), 1))


TRIM_CLAIM = _loosely(
    _loosely(_SOLUTION_CLAIM, _CLAIM_WHERE, "trim({}) = trim(?)"),
    _HEARTBEAT_WHERE,
    "trim({}) = trim(?)",
)
RTRIM_CLAIM = _loosely(_SOLUTION_CLAIM, _CLAIM_WHERE, "{} = ? COLLATE RTRIM")
GLOB_CLAIM = _loosely(
    _loosely(_SOLUTION_CLAIM, _CLAIM_WHERE, "{} GLOB ?"), _HEARTBEAT_WHERE, "{} GLOB ?"
)
TRIM_HEARTBEAT = _loosely(_SOLUTION_CLAIM, _HEARTBEAT_WHERE, "trim({}) = trim(?)")
RTRIM_HEARTBEAT = _loosely(_SOLUTION_CLAIM, _HEARTBEAT_WHERE, "{} = ? COLLATE RTRIM")
GLOB_HEARTBEAT = _loosely(_SOLUTION_CLAIM, _HEARTBEAT_WHERE, "{} GLOB ?")
TRIM_EFFECT = _loosely(_SOLUTION_EFFECT, _EFFECT_WHERE, "trim({}) = trim(?)")
RTRIM_EFFECT = _loosely(_SOLUTION_EFFECT, _EFFECT_WHERE, "{} = ? COLLATE RTRIM")
GLOB_EFFECT = _loosely(_SOLUTION_EFFECT, _EFFECT_WHERE, "{} GLOB ?")

# The e-mail's key made of the task ID stripped, lower-cased, NFKC-normalised or cut to its last
# six characters: two tasks whose IDs differ only there share one key, and the mailbox takes
# their two e-mails for one (step-keys: "two tasks must never share a key").
_KEY = 'key = f"{lease.task_id}:email:{step}"'
KEY_STRIPPED = _swap(_SOLUTION_EFFECT, _KEY, 'key = f"{lease.task_id.strip()}:email:{step}"')
KEY_LOWERED = _swap(_SOLUTION_EFFECT, _KEY, 'key = f"{lease.task_id.lower()}:email:{step}"')
KEY_NFKC = _swap(
    _SOLUTION_EFFECT,
    _KEY,
    "import unicodedata\n"
    "    key = f\"{unicodedata.normalize('NFKC', lease.task_id)}:email:{step}\"",
)
KEY_SUFFIX = _swap(_SOLUTION_EFFECT, _KEY, 'key = f"{lease.task_id[-6:]}:email:{step}"')

# record_effect also asks for a lease that has not run out: a current lease whose lease_until
# has passed, nobody having claimed the task since, is refused where the kit records
# (effect-fields: "only if the lease is current (its epoch is the task's, and the task is
# running)").
EFFECT_LIVE_ONLY = _swap(
    _SOLUTION_EFFECT,
    " AND status = 'running'\",\n        (key, lease.worker, now, lease.task_id, lease.epoch),",
    " AND status = 'running' AND lease_until > ?\",\n"
    "        (key, lease.worker, now, lease.task_id, lease.epoch, now),",
)

# A refused last save still reported "completed" when the stored result is the output: a second
# process with the same lease completed the task first (stops-when-lost: "if the save is
# refused, return `"lost"`"; "`"completed"` only after the last save was accepted").
COMPLETED_BY_RESULT = _swap(
    _SOLUTION_LOOP,
    "        if not saved:\n",
    "        if not saved and not (done and ledger.get(task_id).result == output):\n",
)
ANSWERS += [
    ("trim-claim", "atomic-claim", TRIM_CLAIM, 4, "changed another task"),
    ("rtrim-claim", "atomic-claim", RTRIM_CLAIM, 4, "changed another task"),
    ("glob-claim", "atomic-claim", GLOB_CLAIM, 4, "changed another task"),
    ("trim-heartbeat", "atomic-claim", TRIM_HEARTBEAT, 4, "changed another task"),
    ("rtrim-heartbeat", "atomic-claim", RTRIM_HEARTBEAT, 4, "changed another task"),
    ("glob-heartbeat", "atomic-claim", GLOB_HEARTBEAT, 4, "changed another task"),
    ("trim-effect", "idempotent-send", TRIM_EFFECT, 3, "another key"),
    ("rtrim-effect", "idempotent-send", RTRIM_EFFECT, 3, "another key"),
    ("glob-effect", "idempotent-send", GLOB_EFFECT, 3, "another key"),
    ("key-stripped", "idempotent-send", KEY_STRIPPED, 8, "the task ID exactly"),
    ("key-lowered", "idempotent-send", KEY_LOWERED, 8, "the task ID exactly"),
    ("key-nfkc", "idempotent-send", KEY_NFKC, 8, "the task ID exactly"),
    ("key-suffix", "idempotent-send", KEY_SUFFIX, 8, "the task ID exactly"),
    ("effect-live-only", "idempotent-send", EFFECT_LIVE_ONLY, 7, "nobody claimed the task since"),
    ("completed-by-result", "worker-loop", COMPLETED_BY_RESULT, 3, "after it lost"),
]

# The claim matches the task exactly, but the refusal finds the row with LIKE or COLLATE NOCASE
# (claim-fields: "when nothing was updated, find out why: no such task -> `UnknownTask(task_id)`;
# a live lease -> `LeaseHeld(task_id, holder, lease_until)`, where `holder` and `lease_until` are
# the row's"): a claim of a task the ledger never held whose ID matches another's as a LIKE
# pattern raises LeaseHeld, not UnknownTask, and a refused claim of a task whose ID differs
# from another's only in case names the other's holder. The third answer prefers the row whose
# ID is the task's own, so only the unknown task tells it.
_DIAGNOSIS = '"SELECT status, worker, lease_until FROM tasks WHERE task_id = ?", (task_id,)'
LIKE_DIAGNOSIS = _swap(_SOLUTION_CLAIM, _DIAGNOSIS, _DIAGNOSIS.replace("= ?", "LIKE ?"))
NOCASE_DIAGNOSIS = _swap(_SOLUTION_CLAIM, _DIAGNOSIS, _DIAGNOSIS.replace("?", "? COLLATE NOCASE"))
OWN_FIRST_LIKE_DIAGNOSIS = _swap(
    _SOLUTION_CLAIM,
    _DIAGNOSIS,
    _DIAGNOSIS.replace("task_id = ?", "task_id LIKE ?1 ORDER BY task_id <> ?1"),
)
ANSWERS += [
    ("like-diagnosis", "atomic-claim", LIKE_DIAGNOSIS, 8, "did not name the holder"),
    ("nocase-diagnosis", "atomic-claim", NOCASE_DIAGNOSIS, 8, "did not name the holder"),
    ("own-first-like-diagnosis", "atomic-claim", OWN_FIRST_LIKE_DIAGNOSIS, 8, "does not hold"),
]

# The claim matches the task exactly, but the refusal finds the row with GLOB (claim-fields:
# "no such task -> `UnknownTask(task_id)`"): a claim of a task the ledger never held whose ID
# matches another's as a GLOB pattern (`?`) raises LeaseHeld or TerminalTask.
GLOB_DIAGNOSIS = _swap(_SOLUTION_CLAIM, _DIAGNOSIS, _DIAGNOSIS.replace("= ?", "GLOB ?"))

# The heartbeat gives up on a lease that ran out long ago, though nobody claimed the task since
# ("extend `lease_until` ... exactly when the lease's epoch is the task's epoch and the task is
# running (also once `lease_until` has passed, if nobody claimed the task since)").
HEARTBEAT_GIVES_UP = _swap(
    _SOLUTION_CLAIM,
    " WHERE task_id = ? AND epoch = ? AND status = 'running'\",\n"
    "        (now + ttl, now, lease.task_id, lease.epoch),",
    " WHERE task_id = ? AND epoch = ? AND status = 'running' AND lease_until > ?\",\n"
    "        (now + ttl, now, lease.task_id, lease.epoch, now - 3 * ttl),",
)

# A lease with less than half a second left counts as run out ("`running` with a lease that ran
# out (`lease_until <= now`); a live lease is refused whoever asks"): a live lease is taken.
CLAIM_MARGIN = _swap(
    _SOLUTION_CLAIM,
    "(worker, now + ttl, now, task_id, now),",
    "(worker, now + ttl, now, task_id, now + 0.5),",
)

# The claim also clears the checkpoint (the claim sets the fields the text lists and returns
# the new lease): a resumed task's lease carries no checkpoint.
CLAIM_CLEARS_CHECKPOINT = _swap(
    _SOLUTION_CLAIM,
    ' worker = ?, lease_until = ?, updated_at = ?"',
    ' worker = ?, lease_until = ?, updated_at = ?, checkpoint = NULL"',
)

# record_effect stores the key in small letters ("insert `(lease.task_id, key, ...)`"): a key
# with capitals is stored as another key, and two keys of a task that differ only in case
# collide.
KEY_LOWERED_IN_SQL = _swap(
    _SOLUTION_EFFECT,
    '" SELECT task_id, ?, epoch, ?, ? FROM tasks"',
    '" SELECT task_id, lower(?), epoch, ?, ? FROM tasks"',
)

# The loop works a step again when its work returned None ("do the step: `output =
# work(step)`"): such a step is done twice.
WORK_TWICE_ON_NONE = _swap(
    _SOLUTION_LOOP,
    "        output = work(step)\n",
    "        output = work(step)\n        if output is None:\n            output = work(step)\n",
)
ANSWERS += [
    ("glob-diagnosis", "atomic-claim", GLOB_DIAGNOSIS, 8, "does not hold"),
    ("heartbeat-gives-up", "atomic-claim", HEARTBEAT_GIVES_UP, 9, "though it holds the task"),
    ("claim-margin", "atomic-claim", CLAIM_MARGIN, 4, "still live"),
    ("claim-clears-checkpoint", "atomic-claim", CLAIM_CLEARS_CHECKPOINT, 8, "checkpoint"),
    ("key-lowered-in-sql", "idempotent-send", KEY_LOWERED_IN_SQL, 1, "another key"),
    ("work-twice-on-none", "worker-loop", WORK_TWICE_ON_NONE, 4, "work was called"),
]

# The key holds a value of the process, reached otherwise than through the builtins at call
# time: the same in the sandbox's process, another in the worker process that retries the step
# (the retry runs in a process of its own, where every hash the cell holds is salted otherwise).
_KEY = 'key = f"{lease.task_id}:email:{step}"'
KEY_GETPID_BY_NAME = "from os import getpid\n\n" + _swap(
    _SOLUTION_EFFECT, _KEY, 'key = f"{lease.task_id}:email:{step}:{getpid()}"'
)
KEY_HASH_BOUND = "_hash = hash\n\n" + _swap(
    _SOLUTION_EFFECT, _KEY, 'key = f"{_hash(lease.task_id)}:email:{step}"'
)
KEY_HASH_DEFAULT = _swap(
    _swap(
        _SOLUTION_EFFECT,
        "def send_step(ledger, lease, step, mailbox",
        "def send_step(ledger, lease, step, mailbox, _h=hash",
    ),
    _KEY,
    'key = f"{_h(lease.task_id)}:email:{step}"',
)
KEY_THREAD_ID = "import threading\n\n" + _swap(
    _SOLUTION_EFFECT, _KEY, 'key = f"{lease.task_id}:email:{step}:{threading.get_native_id()}"'
)
KEY_PROC_SELF = "import os\n\n" + _swap(
    _SOLUTION_EFFECT, _KEY, "key = f\"{lease.task_id}:email:{step}:{os.readlink('/proc/self')}\""
)
#: The answers whose key holds a value of the process (in ANSWERS too).
PER_PROCESS_KEYS = [
    ("key-getpid-by-name", "idempotent-send", KEY_GETPID_BY_NAME, 3, "same in every process"),
    ("key-hash-bound", "idempotent-send", KEY_HASH_BOUND, 3, "same in every process"),
    ("key-hash-default", "idempotent-send", KEY_HASH_DEFAULT, 3, "same in every process"),
    ("key-thread-id", "idempotent-send", KEY_THREAD_ID, 3, "same in every process"),
    ("key-proc-self", "idempotent-send", KEY_PROC_SELF, 3, "same in every process"),
]
ANSWERS += PER_PROCESS_KEYS
