"""The SQL statements of the grading queue over PostgreSQL (``simlab grade --queue``).

The same names, parameters (psycopg's ``%(name)s``) and columns as the SQLite statements of
:mod:`simlab.grading.queue_store.sqlite_statements`; tables carry the ``simlab_`` prefix of
:mod:`simlab.ledger.postgres.schema`. No statement calls ``now()``: times are parameters. The
tables and the queue's probe are written here; every other statement is the SQLite one in
PostgreSQL's words (:func:`_postgres`), so the two dialects cannot drift apart.
"""

from __future__ import annotations

import re

from simlab.grading.queue_store import sqlite_statements as _sqlite

TENANT = _sqlite.TENANT

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


def _postgres(sql: str) -> str:
    """A SQLite statement of the queue in PostgreSQL's words: ``%(name)s`` for each ``:name``,
    the ``simlab_`` prefix on each table (the queue's and the ledger's ``tasks``)."""
    sql = re.sub(r"(?<![:\w]):(\w+)", r"%(\1)s", sql)
    return re.sub(r"\b(grading_\w+|tasks)\b", r"simlab_\1", sql)


MAX_VERSION = _postgres(_sqlite.MAX_VERSION)
RECORD_MIGRATION = _postgres(_sqlite.RECORD_MIGRATION)
OTHER_TASKS = _postgres(_sqlite.OTHER_TASKS)
ADD = _postgres(_sqlite.ADD)
LAST_SEEN = _postgres(_sqlite.LAST_SEEN)
SEEN = _postgres(_sqlite.SEEN)
HISTORY = _postgres(_sqlite.HISTORY)
OVERRIDE = _postgres(_sqlite.OVERRIDE)
OVERRIDES = _postgres(_sqlite.OVERRIDES)
SUBMISSION = _postgres(_sqlite.SUBMISSION)
START = _postgres(_sqlite.START)
END = _postgres(_sqlite.END)
LOST = _postgres(_sqlite.LOST)
SUBMISSIONS = _postgres(_sqlite.SUBMISSIONS)
ATTEMPTS = _postgres(_sqlite.ATTEMPTS)
STATES = _postgres(_sqlite.STATES)
OPEN_VERSIONS = _postgres(_sqlite.OPEN_VERSIONS)
VERSIONS = _postgres(_sqlite.VERSIONS)
HAND_IN = _postgres(_sqlite.HAND_IN)
HANDED_IN = _postgres(_sqlite.HANDED_IN)
SET_TERM = _postgres(_sqlite.SET_TERM)
TERMS = _postgres(_sqlite.TERMS)
