"""The SQLite ledger's schema: numbered migrations, append only.

Each migration is recorded in ``schema_migrations``; :data:`SCHEMA_VERSION` is how many this code
knows. A database whose recorded version is newer is refused by :class:`~simlab.ledger.Ledger`.
"""

from __future__ import annotations

__all__ = ["MIGRATIONS", "SCHEMA_VERSION", "GRADING_MIGRATIONS", "GRADING_SCHEMA_VERSION"]

#: Numbered schema migrations. Append only: never edit one that has shipped.
MIGRATIONS: tuple[tuple[str, str], ...] = (
    (
        "tasks and effects",
        """
        CREATE TABLE tasks (
            seq         INTEGER PRIMARY KEY AUTOINCREMENT,  -- submit order
            task_id     TEXT    NOT NULL UNIQUE,
            tenant      TEXT    NOT NULL,
            goal        TEXT,                               -- JSON
            -- OR, not IN: SQLite builds an ephemeral table for an IN list in a CHECK on every
            -- write, which once cost a third of each claim+save cycle (simlab bench ledger).
            status      TEXT    NOT NULL CHECK (status = 'queued' OR status = 'running'
                            OR status = 'completed' OR status = 'cancelled' OR status = 'dead'),
            step        INTEGER NOT NULL DEFAULT 0 CHECK (step >= 0),
            epoch       INTEGER NOT NULL DEFAULT 0,         -- the fencing token
            attempts    INTEGER NOT NULL DEFAULT 0,
            worker      TEXT,
            lease_until REAL,
            result      TEXT,                               -- JSON
            checkpoint  TEXT,                               -- JSON
            created_at  REAL    NOT NULL,
            updated_at  REAL    NOT NULL
        );
        -- Only tasks that may still be claimed, in submit order: claim_next reads it, and a claim
        -- (queued -> running) does not touch it, so the hot path pays no index upkeep.
        CREATE INDEX tasks_claimable ON tasks (seq) WHERE status = 'queued' OR status = 'running';
        CREATE TABLE effects (
            task_id     TEXT    NOT NULL REFERENCES tasks (task_id),
            key         TEXT    NOT NULL,
            epoch       INTEGER NOT NULL,
            worker      TEXT    NOT NULL,
            recorded_at REAL    NOT NULL,
            PRIMARY KEY (task_id, key)
        );
        """,
    ),
)
SCHEMA_VERSION = len(MIGRATIONS)

#: The grading queue's tables on top of a ledger (``simlab grade --queue``), numbered and append
#: only like :data:`MIGRATIONS`, recorded in ``grading_migrations``. A ledger holds them only once
#: it is made a grading queue, so a plain task ledger is never changed by them.
GRADING_MIGRATIONS: tuple[tuple[str, str], ...] = (
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
)
GRADING_SCHEMA_VERSION = len(GRADING_MIGRATIONS)
