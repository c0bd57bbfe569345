"""The SQL statements of the grading queue over PostgreSQL (``simlab grade --queue``).

The same names, parameters (psycopg's ``%(name)s``) and columns as the SQLite statements of
:mod:`simlab.grading.queue_store.sqlite_statements`; tables carry the ``simlab_`` prefix of
:mod:`simlab.ledger.postgres.schema`. No statement calls ``now()``: times are parameters. The
queue's probe and its migrations table are written here; every other statement and every table
is the SQLite one in PostgreSQL's words (:func:`_postgres`, :func:`_postgres_tables`), so the two
dialects cannot drift apart.
"""

from __future__ import annotations

import re

from simlab.grading.queue_store import sqlite_statements as _sqlite

TENANT = _sqlite.TENANT


def _postgres(sql: str) -> str:
    """A SQLite statement of the queue in PostgreSQL's words: ``%(name)s`` for each ``:name``,
    the ``simlab_`` prefix on each table (the queue's and the ledger's ``tasks``)."""
    return _prefixed(re.sub(r"(?<![:\w]):(\w+)", r"%(\1)s", sql))


def _prefixed(sql: str) -> str:
    """``sql`` with the ``simlab_`` prefix on the queue's tables and indexes and the ledger's
    ``tasks``."""
    return re.sub(r"\b(grading_\w+|tasks)\b", r"simlab_\1", sql)


#: SQLite's column types in PostgreSQL's words: its row ID counter as an identity column, its
#: 8-byte numbers as PostgreSQL's (``REAL`` there is 4 bytes: a time would lose its seconds).
_TYPES = {
    "INTEGER PRIMARY KEY AUTOINCREMENT": "BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
    "INTEGER": "BIGINT",
    "REAL": "DOUBLE PRECISION",
    "BLOB": "BYTEA",
}
_TYPE_WORDS = re.compile("|".join(rf"\b{re.escape(t)}\b" for t in _TYPES))  # longest first


def _postgres_tables(script: str) -> str:
    """A SQLite migration of the queue in PostgreSQL's words: the ``simlab_`` prefix on each
    table and index, and each column type as :data:`_TYPES` says."""
    return _prefixed(_TYPE_WORDS.sub(lambda m: _TYPES[m.group(0)], script))


#: The grading queue's tables on top of a ledger (``simlab grade --queue``): the SQLite
#: :data:`~simlab.grading.queue_store.sqlite_statements.MIGRATIONS` in PostgreSQL's words,
#: recorded in ``simlab_grading_migrations``.
MIGRATIONS: tuple[tuple[str, str], ...] = tuple(
    (name, _postgres_tables(script)) for name, script in _sqlite.MIGRATIONS
)
SCHEMA_VERSION = len(MIGRATIONS)

HAS_QUEUE = "SELECT (to_regclass('simlab_grading_migrations') IS NOT NULL)::int"
MIGRATIONS_TABLE = (
    "CREATE TABLE IF NOT EXISTS simlab_grading_migrations ("
    " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at DOUBLE PRECISION NOT NULL)"
)


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
HAND_IN = _postgres(_sqlite.HAND_IN)
HANDED_IN = _postgres(_sqlite.HANDED_IN)
SET_TERM = _postgres(_sqlite.SET_TERM)
TERMS = _postgres(_sqlite.TERMS)
