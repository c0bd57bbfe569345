"""The PostgreSQL ledger's schema: numbered migrations, append only.

Tables carry a ``simlab_`` prefix: a PostgreSQL database is often shared with other applications,
and names like ``tasks`` or ``schema_migrations`` are taken there (Rails keeps its own
``schema_migrations``). The ledger lives in the connection's current schema (the first existing
entry of ``search_path``); a URL picks another one with libpq's standard
``?options=-csearch_path%3DNAME``.

Each migration is recorded in ``simlab_migrations``; :data:`PG_SCHEMA_VERSION` is how many this
code knows. A database whose recorded version is newer is refused by
:class:`~simlab.ledger.PostgresLedger` before anything is written.

Differences from the SQLite schema, each for a reason:

* ``task_id`` is the primary key and ``seq`` (submit order) a plain identity column: an index
  fewer for every write to maintain.
* ``open`` is a stored generated column, true while the task is queued or running, and the
  claimable index depends on it instead of on ``status``. A claim (queued -> running, or a
  re-claim of an expired running task) leaves ``open`` unchanged, so PostgreSQL can make it a
  HOT update (no index touched); ``fillfactor = 70`` keeps room on each page for that.
* JSON stays ``TEXT``, exactly as ``json.dumps`` wrote it (``jsonb`` would reorder keys and
  normalise numbers, and values would no longer come back as they went in).
"""

from __future__ import annotations

__all__ = [
    "PG_MIGRATIONS",
    "PG_SCHEMA_VERSION",
    "MIGRATION_LOCK",
]

#: Numbered schema migrations. Append only: never edit one that has shipped.
PG_MIGRATIONS: tuple[tuple[str, str], ...] = (
    (
        "tasks and effects",
        """
        CREATE TABLE simlab_tasks (
            task_id     TEXT    PRIMARY KEY,
            seq         BIGINT  GENERATED ALWAYS AS IDENTITY,  -- submit order
            tenant      TEXT    NOT NULL,
            goal        TEXT,                   -- JSON text, exactly as json.dumps wrote it
            status      TEXT    NOT NULL CHECK (status IN
                            ('queued', 'running', 'completed', 'cancelled', 'dead')),
            step        BIGINT  NOT NULL DEFAULT 0 CHECK (step >= 0),
            epoch       BIGINT  NOT NULL DEFAULT 0,     -- the fencing token
            attempts    BIGINT  NOT NULL DEFAULT 0,
            worker      TEXT,
            lease_until DOUBLE PRECISION,
            result      TEXT,
            checkpoint  TEXT,
            created_at  DOUBLE PRECISION NOT NULL,
            updated_at  DOUBLE PRECISION NOT NULL,
            -- True while the task may still be claimed. The index below depends on this column
            -- and not on status, so a claim (queued -> running: still open) is a HOT update.
            open        BOOLEAN GENERATED ALWAYS AS (status IN ('queued', 'running')) STORED
        ) WITH (fillfactor = 70);  -- room on each page for HOT updates (heartbeats, saves)
        -- Only tasks that may still be claimed, in submit order: claim_next walks it.
        CREATE INDEX simlab_tasks_claimable ON simlab_tasks (seq) WHERE open;
        CREATE TABLE simlab_effects (
            seq         BIGINT  GENERATED ALWAYS AS IDENTITY,  -- record order
            task_id     TEXT    NOT NULL REFERENCES simlab_tasks (task_id),
            key         TEXT    NOT NULL,
            epoch       BIGINT  NOT NULL,
            worker      TEXT    NOT NULL,
            recorded_at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (task_id, key)
        );
        """,
    ),
)
PG_SCHEMA_VERSION = len(PG_MIGRATIONS)

#: Key of the advisory lock held while migrating, so two processes never migrate at once.
MIGRATION_LOCK = 0x73696D6C6162  # "simlab"

MIGRATIONS_TABLE = """
    CREATE TABLE IF NOT EXISTS simlab_migrations (
        version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at DOUBLE PRECISION NOT NULL)
"""
HAS_MIGRATIONS = "SELECT to_regclass('simlab_migrations') IS NOT NULL, current_schema()"
MAX_VERSION = "SELECT COALESCE(MAX(version), 0) FROM simlab_migrations"
RECORD_MIGRATION = (
    "INSERT INTO simlab_migrations (version, name, applied_at) "
    "VALUES (%(version)s, %(name)s, %(now)s)"
)
