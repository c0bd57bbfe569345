"""The SQL statements of the grading queue over SQLite (``simlab grade --queue``).

The same names, with the same named parameters and the same columns in the same order, as the
PostgreSQL statements of :mod:`simlab.grading.queue_store.postgres_statements`, so
:class:`simlab.grading.queue_store.store.GradingQueue` runs either, and the queue's tables
(:data:`MIGRATIONS`). The grading tasks themselves are the ledger's own ``tasks`` (claimed,
heartbeated and committed by :class:`~simlab.ledger.core.SqlLedger`); these statements keep what
a task grades (the submission's bytes and key) and what happened to each attempt.
"""

from __future__ import annotations

from simlab.records import PROBE_TENANT

#: The tenant of every grading task.
TENANT = "grading"

#: The grading queue's tables on top of a ledger (``simlab grade --queue``), numbered and append
#: only like the ledger's own :data:`~simlab.ledger.sqlite.schema.MIGRATIONS`, recorded in
#: ``grading_migrations``. A ledger holds them only once it is made a grading queue, so a plain
#: task ledger is never changed by them.
MIGRATIONS: tuple[tuple[str, str], ...] = (
    (
        "submissions and attempts",
        """
        CREATE TABLE grading_submissions (
            seq         INTEGER PRIMARY KEY AUTOINCREMENT,  -- enqueue order
            task_id     TEXT    NOT NULL UNIQUE,            -- its grading task in tasks
            notebook    TEXT    NOT NULL,                   -- the key: --json's notebook
            sha256      TEXT    NOT NULL,                   -- of its bytes ('' when refused)
            version     TEXT    NOT NULL,                   -- the grader version
            settings    TEXT    NOT NULL,                   -- JSON: the grading options
            content     BLOB,                               -- the notebook's bytes
            refused     TEXT,                               -- why it is not graded at all
            enqueued_at REAL    NOT NULL                    -- the last time it was enqueued
        );
        CREATE INDEX grading_submissions_notebook ON grading_submissions (notebook);
        CREATE TABLE grading_attempts (
            task_id     TEXT    NOT NULL,
            epoch       INTEGER NOT NULL,                   -- the lease's fencing token
            worker      TEXT    NOT NULL,
            started     REAL    NOT NULL,
            ended       REAL,
            outcome     TEXT    CHECK (outcome IS NULL OR outcome = 'graded'
                            OR outcome = 'timeout' OR outcome = 'released' OR outcome = 'lost'
                            OR outcome = 'stale'),
            result      TEXT,                               -- a refused (stale) result: history
            PRIMARY KEY (task_id, epoch)
        );
        CREATE INDEX grading_attempts_open ON grading_attempts (task_id) WHERE outcome IS NULL
        """,
    ),
    (
        "submission times and the class's deadlines",
        """
        CREATE TABLE grading_handed_in (
            task_id      TEXT    PRIMARY KEY,   -- the submission's grading task
            student      TEXT,                  -- the student its course layout names, or NULL
            submitted_at TEXT,                  -- ISO 8601 with its zone, NULL when unknown
            note         TEXT                   -- JSON message: why it has no time, or NULL
        );
        CREATE TABLE grading_terms (
            name         TEXT    PRIMARY KEY,   -- deadline, late_policy, extensions, excused
            value        TEXT    NOT NULL,      -- JSON
            set_at       REAL NOT NULL
        )
        """,
    ),
    (
        "overrides and submission history",
        """
        CREATE TABLE grading_overrides (
            seq      INTEGER PRIMARY KEY AUTOINCREMENT,  -- the order they were given in
            student  TEXT    NOT NULL,                   -- the student ID of --json
            exercise TEXT    NOT NULL,
            question TEXT    NOT NULL,
            points   REAL,                               -- NULL: the override was cleared
            why      TEXT    NOT NULL,
            at       REAL    NOT NULL
        );
        CREATE INDEX grading_overrides_student ON grading_overrides (student);
        CREATE TABLE grading_history (
            seq      INTEGER PRIMARY KEY AUTOINCREMENT,  -- the order the queue saw them in
            notebook TEXT    NOT NULL,                   -- the key
            task_id  TEXT    NOT NULL,                   -- what the key was then
            at       REAL    NOT NULL
        );
        CREATE INDEX grading_history_notebook ON grading_history (notebook, seq);
        INSERT INTO grading_history (notebook, task_id, at)
            SELECT notebook, task_id, enqueued_at FROM grading_submissions
            ORDER BY enqueued_at, seq
        """,
    ),
)
SCHEMA_VERSION = len(MIGRATIONS)

HAS_QUEUE = (
    "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'grading_migrations'"
)
MIGRATIONS_TABLE = (
    "CREATE TABLE IF NOT EXISTS grading_migrations ("
    " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)"
)
MAX_VERSION = "SELECT COALESCE(MAX(version), 0) FROM grading_migrations"
RECORD_MIGRATION = (
    "INSERT INTO grading_migrations (version, name, applied_at) VALUES (:version, :name, :now)"
)
# Tasks that are not grading tasks (health probes aside): such a ledger is not a grading queue.
OTHER_TASKS = (
    f"SELECT COUNT(*) FROM tasks WHERE tenant <> '{TENANT}' AND tenant <> '{PROBE_TENANT}'"
)

# Enqueue: the submission first, then its task (both idempotent), so a task always has its bytes.
# Enqueued again, a submission only moves to the front of its key's history.
ADD = """
    INSERT INTO grading_submissions
        (task_id, notebook, sha256, version, settings, content, refused, enqueued_at)
    VALUES (:task_id, :notebook, :sha256, :version, :settings, :content, :refused, :now)
    ON CONFLICT (task_id) DO UPDATE SET enqueued_at = :now
"""
# A key's history: one row each time it was enqueued as other bytes, grader version or options
# than the last time (its first enqueue too).
LAST_SEEN = (
    "SELECT task_id FROM grading_history WHERE notebook = :notebook ORDER BY seq DESC LIMIT 1"
)
SEEN = "INSERT INTO grading_history (notebook, task_id, at) VALUES (:notebook, :task_id, :now)"
HISTORY = "SELECT notebook, task_id, at FROM grading_history ORDER BY seq"
# Overrides: never updated nor deleted; the last row of a student's question is in force.
OVERRIDE = """
    INSERT INTO grading_overrides (student, exercise, question, points, why, at)
    VALUES (:student, :exercise, :question, :points, :why, :now)
"""
OVERRIDES = (
    "SELECT student, exercise, question, points, why, at FROM grading_overrides ORDER BY seq"
)
SUBMISSION = (
    "SELECT notebook, sha256, version, settings, content, refused FROM grading_submissions"
    " WHERE task_id = :task_id"
)

# Attempts: opened when a lease is taken, closed with an outcome. An open attempt whose epoch is
# older than its task's was taken over after its lease ran out: its worker is lost.
START = """
    INSERT INTO grading_attempts (task_id, epoch, worker, started)
    VALUES (:task_id, :epoch, :worker, :now) ON CONFLICT (task_id, epoch) DO NOTHING
"""
END = """
    UPDATE grading_attempts SET ended = :now, outcome = :outcome, result = :result
    WHERE task_id = :task_id AND epoch = :epoch
"""
LOST = """
    UPDATE grading_attempts SET outcome = 'lost'
    WHERE outcome IS NULL
      AND epoch < (SELECT t.epoch FROM tasks t WHERE t.task_id = grading_attempts.task_id)
    RETURNING task_id, worker, epoch
"""

# Reading the queue.
_JOINED = "FROM grading_submissions s JOIN tasks t ON t.task_id = s.task_id"
SUBMISSIONS = f"""
    SELECT s.task_id, s.notebook, s.sha256, s.version, t.status, t.epoch, t.result, t.attempts,
           s.refused
    {_JOINED} ORDER BY s.enqueued_at, s.seq
"""
ATTEMPTS = (
    "SELECT task_id, worker, epoch, started, ended, outcome FROM grading_attempts"
    " ORDER BY task_id, epoch"
)
STATES = f"SELECT s.task_id, t.status, t.worker, t.lease_until {_JOINED} ORDER BY s.seq"
OPEN_VERSIONS = f"""
    SELECT DISTINCT s.version, s.settings {_JOINED}
    WHERE t.status = 'queued' OR t.status = 'running'
"""

# Submission times and the class's deadlines: lateness is computed from them at report time.
HAND_IN = """
    INSERT INTO grading_handed_in (task_id, student, submitted_at, note)
    VALUES (:task_id, :student, :submitted_at, :note)
    ON CONFLICT (task_id) DO UPDATE SET student = excluded.student,
        submitted_at = excluded.submitted_at, note = excluded.note
"""
HANDED_IN = "SELECT task_id, student, submitted_at, note FROM grading_handed_in"
SET_TERM = """
    INSERT INTO grading_terms (name, value, set_at) VALUES (:name, :value, :now)
    ON CONFLICT (name) DO UPDATE SET value = excluded.value, set_at = excluded.set_at
"""
TERMS = "SELECT name, value FROM grading_terms ORDER BY name"
