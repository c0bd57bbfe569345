"""The SQLite ledger's schema: numbered migrations, append only.

Each migration is recorded in ``schema_migrations``; :data:`SCHEMA_VERSION` is how many this code
knows. A database whose recorded version is newer is refused by :class:`~simlab.ledger.Ledger`.
"""

from __future__ import annotations

__all__ = ["MIGRATIONS", "SCHEMA_VERSION"]

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
