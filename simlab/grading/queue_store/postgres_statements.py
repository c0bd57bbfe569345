"""The SQL statements of the grading queue over PostgreSQL (``simlab grade --queue``).

The same names, parameters (psycopg's ``%(name)s``) and columns as the SQLite statements of
:mod:`simlab.grading.queue_store.sqlite_statements`; tables carry the ``simlab_`` prefix of
:mod:`simlab.ledger.postgres.schema`. No statement calls ``now()``: times are parameters.
"""

from __future__ import annotations

from simlab.records import PROBE_TENANT

#: The tenant of every grading task.
TENANT = "grading"

#: The grading queue's tables on top of a ledger (``simlab grade --queue``), as in the SQLite
#: :data:`~simlab.grading.queue_store.sqlite_statements.MIGRATIONS`; recorded in
#: ``simlab_grading_migrations``.
MIGRATIONS: tuple[tuple[str, str], ...] = (
    (
        "submissions and attempts",
        """
        CREATE TABLE simlab_grading_submissions (
            seq         BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,  -- enqueue order
            task_id     TEXT    NOT NULL UNIQUE,
            notebook    TEXT    NOT NULL,
            sha256      TEXT    NOT NULL,
            version     TEXT    NOT NULL,
            settings    TEXT    NOT NULL,
            content     BYTEA,
            refused     TEXT,
            enqueued_at DOUBLE PRECISION NOT NULL
        );
        CREATE INDEX simlab_grading_submissions_notebook ON simlab_grading_submissions (notebook);
        CREATE TABLE simlab_grading_attempts (
            task_id     TEXT    NOT NULL,
            epoch       BIGINT  NOT NULL,
            worker      TEXT    NOT NULL,
            started     DOUBLE PRECISION NOT NULL,
            ended       DOUBLE PRECISION,
            outcome     TEXT    CHECK (outcome IN
                            ('graded', 'timeout', 'released', 'lost', 'stale')),
            result      TEXT,
            PRIMARY KEY (task_id, epoch)
        );
        CREATE INDEX simlab_grading_attempts_open ON simlab_grading_attempts (task_id)
            WHERE outcome IS NULL;
        """,
    ),
    (
        "submission times and the class's deadlines",
        """
        CREATE TABLE simlab_grading_handed_in (
            task_id      TEXT    PRIMARY KEY,   -- the submission's grading task
            student      TEXT,                  -- the student its course layout names, or NULL
            submitted_at TEXT,                  -- ISO 8601 with its zone, NULL when unknown
            note         TEXT                   -- JSON message: why it has no time, or NULL
        );
        CREATE TABLE simlab_grading_terms (
            name         TEXT    PRIMARY KEY,   -- deadline, late_policy, extensions, excused
            value        TEXT    NOT NULL,      -- JSON
            set_at       DOUBLE PRECISION NOT NULL
        )
        """,
    ),
    (
        "overrides and submission history",
        """
        CREATE TABLE simlab_grading_overrides (
            seq      BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            student  TEXT    NOT NULL,
            exercise TEXT    NOT NULL,
            question TEXT    NOT NULL,
            points   DOUBLE PRECISION,
            why      TEXT    NOT NULL,
            at       DOUBLE PRECISION NOT NULL
        );
        CREATE INDEX simlab_grading_overrides_student ON simlab_grading_overrides (student);
        CREATE TABLE simlab_grading_history (
            seq      BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            notebook TEXT    NOT NULL,
            task_id  TEXT    NOT NULL,
            at       DOUBLE PRECISION NOT NULL
        );
        CREATE INDEX simlab_grading_history_notebook ON simlab_grading_history (notebook, seq);
        INSERT INTO simlab_grading_history (notebook, task_id, at)
            SELECT notebook, task_id, enqueued_at FROM simlab_grading_submissions
            ORDER BY enqueued_at, seq;
        """,
    ),
)
SCHEMA_VERSION = len(MIGRATIONS)

HAS_QUEUE = "SELECT (to_regclass('simlab_grading_migrations') IS NOT NULL)::int"
MIGRATIONS_TABLE = (
    "CREATE TABLE IF NOT EXISTS simlab_grading_migrations ("
    " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at DOUBLE PRECISION NOT NULL)"
)
MAX_VERSION = "SELECT COALESCE(MAX(version), 0) FROM simlab_grading_migrations"
RECORD_MIGRATION = (
    "INSERT INTO simlab_grading_migrations (version, name, applied_at)"
    " VALUES (%(version)s, %(name)s, %(now)s)"
)
# Tasks that are not grading tasks (health probes aside): such a ledger is not a grading queue.
OTHER_TASKS = (
    f"SELECT COUNT(*) FROM simlab_tasks WHERE tenant <> '{TENANT}' AND tenant <> '{PROBE_TENANT}'"
)

# Enqueue: the submission first, then its task (both idempotent), so a task always has its bytes.
# Enqueued again, a submission only moves to the front of its key's history.
ADD = """
    INSERT INTO simlab_grading_submissions
        (task_id, notebook, sha256, version, settings, content, refused, enqueued_at)
    VALUES (%(task_id)s, %(notebook)s, %(sha256)s, %(version)s, %(settings)s, %(content)s,
            %(refused)s, %(now)s)
    ON CONFLICT (task_id) DO UPDATE SET enqueued_at = %(now)s
"""
# A key's history (as in the SQLite statements).
LAST_SEEN = (
    "SELECT task_id FROM simlab_grading_history WHERE notebook = %(notebook)s"
    " ORDER BY seq DESC LIMIT 1"
)
SEEN = (
    "INSERT INTO simlab_grading_history (notebook, task_id, at)"
    " VALUES (%(notebook)s, %(task_id)s, %(now)s)"
)
HISTORY = "SELECT notebook, task_id, at FROM simlab_grading_history ORDER BY seq"
# Overrides (as in the SQLite statements).
OVERRIDE = """
    INSERT INTO simlab_grading_overrides (student, exercise, question, points, why, at)
    VALUES (%(student)s, %(exercise)s, %(question)s, %(points)s, %(why)s, %(now)s)
"""
OVERRIDES = (
    "SELECT student, exercise, question, points, why, at FROM simlab_grading_overrides ORDER BY seq"
)
SUBMISSION = (
    "SELECT notebook, sha256, version, settings, content, refused FROM simlab_grading_submissions"
    " WHERE task_id = %(task_id)s"
)

# Attempts: opened when a lease is taken, closed with an outcome. An open attempt whose epoch is
# older than its task's was taken over after its lease ran out: its worker is lost.
START = """
    INSERT INTO simlab_grading_attempts (task_id, epoch, worker, started)
    VALUES (%(task_id)s, %(epoch)s, %(worker)s, %(now)s) ON CONFLICT (task_id, epoch) DO NOTHING
"""
END = """
    UPDATE simlab_grading_attempts SET ended = %(now)s, outcome = %(outcome)s, result = %(result)s
    WHERE task_id = %(task_id)s AND epoch = %(epoch)s
"""
LOST = """
    UPDATE simlab_grading_attempts SET outcome = 'lost'
    WHERE outcome IS NULL
      AND epoch < (SELECT t.epoch FROM simlab_tasks t
                   WHERE t.task_id = simlab_grading_attempts.task_id)
    RETURNING task_id, worker, epoch
"""

# Reading the queue.
_JOINED = "FROM simlab_grading_submissions s JOIN simlab_tasks t ON t.task_id = s.task_id"
SUBMISSIONS = f"""
    SELECT s.task_id, s.notebook, s.sha256, s.version, t.status, t.epoch, t.result, t.attempts,
           s.refused
    {_JOINED} ORDER BY s.enqueued_at, s.seq
"""
ATTEMPTS = (
    "SELECT task_id, worker, epoch, started, ended, outcome FROM simlab_grading_attempts"
    " ORDER BY task_id, epoch"
)
STATES = f"SELECT s.task_id, t.status, t.worker, t.lease_until {_JOINED} ORDER BY s.seq"
OPEN_VERSIONS = f"""
    SELECT DISTINCT s.version, s.settings {_JOINED}
    WHERE t.status = 'queued' OR t.status = 'running'
"""
VERSIONS = "SELECT version FROM simlab_grading_submissions GROUP BY version ORDER BY MIN(seq)"

# Submission times and the class's deadlines: lateness is computed from them at report time.
HAND_IN = """
    INSERT INTO simlab_grading_handed_in (task_id, student, submitted_at, note)
    VALUES (%(task_id)s, %(student)s, %(submitted_at)s, %(note)s)
    ON CONFLICT (task_id) DO UPDATE SET student = excluded.student,
        submitted_at = excluded.submitted_at, note = excluded.note
"""
HANDED_IN = "SELECT task_id, student, submitted_at, note FROM simlab_grading_handed_in"
SET_TERM = """
    INSERT INTO simlab_grading_terms (name, value, set_at) VALUES (%(name)s, %(value)s, %(now)s)
    ON CONFLICT (name) DO UPDATE SET value = excluded.value, set_at = excluded.set_at
"""
TERMS = "SELECT name, value FROM simlab_grading_terms ORDER BY name"
