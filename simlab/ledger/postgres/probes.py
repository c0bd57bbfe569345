"""Probes of a PostgreSQL ledger that are not part of the task contract, and scratch schemas.

* :func:`bare_claim_save` and :func:`raw_update_transaction` are the floors that ``simlab bench
  ledger --db postgresql://...`` measures a claim+save cycle against.
* :func:`probe_write_read` is the database check of ``simlab health``: a write and a read in one
  transaction on an existing ledger, leaving nothing behind.
* :func:`remove_probe` deletes one of ``simlab health``'s probe tasks once the check is done.
* :func:`create_schema`, :func:`drop_schema` and :func:`scratch_schema` give a run its own empty
  ledger inside one database (tests, the simulator, the bench): a schema per ledger, picked by
  the URL's ``options=-csearch_path%3DNAME``.

:func:`bare_claim_save` and :func:`remove_probe` are written once for every dialect
(:mod:`simlab.ledger.probing`); the statements are :mod:`simlab.ledger.postgres.statements`.
"""

from __future__ import annotations

import contextlib
import re
import uuid
from collections.abc import Iterator
from urllib.parse import urlsplit, urlunsplit

import psycopg

from simlab.errors import LedgerError
from simlab.ledger.postgres import schema
from simlab.ledger.postgres import statements as q
from simlab.ledger.postgres.ledger import PostgresLedger, reason
from simlab.ledger.probing import bare_claim_save, remove_probe
from simlab.ledger.targets import redact
from simlab.records import PROBE_TENANT

__all__ = [
    "bare_claim_save",
    "raw_update_transaction",
    "probe_write_read",
    "remove_probe",
    "with_schema",
    "create_schema",
    "drop_schema",
    "scratch_schema",
]

_SCHEMA_NAME = re.compile(r"[a-z_][a-z0-9_]{0,62}")


def raw_update_transaction(ledger: PostgresLedger, task_id: str) -> None:
    """The floor a cycle is measured against: one single-row ``UPDATE`` committed on its own
    (autocommit: one round trip, one transaction). Touches only ``updated_at``."""
    ledger._cur.execute(q.RAW_UPDATE, {"now": 0.0, "task_id": task_id})


def probe_write_read(url: str, token: str, *, busy_timeout: float = 5.0) -> bool:
    """A write and a read in one transaction on an *existing* ledger; True if the read saw the
    write. Nothing is left behind, and nothing is created or migrated.

    Refuses a database whose schema is not exactly this code's; waits at most ``busy_timeout``
    seconds to connect and for any lock. No other connection can ever see the probe row.
    Raises :class:`LedgerError` with the server's reason.
    """
    shown = redact(url)
    task_id = f"{PROBE_TENANT}:{token}"
    try:
        db = psycopg.connect(url, autocommit=True, connect_timeout=max(1, round(busy_timeout)))
    except psycopg.Error as exc:
        raise LedgerError(f"cannot open ledger {shown}: {reason(exc)}") from None
    try:
        has_table, _ = db.execute(schema.HAS_MIGRATIONS).fetchone()
        version = db.execute(schema.MAX_VERSION).fetchone()[0] if has_table else 0
        if version != schema.PG_SCHEMA_VERSION:
            raise LedgerError(
                f"{shown} has schema version {version}, this simlab expects "
                f"{schema.PG_SCHEMA_VERSION}"
            )
        with db.transaction():
            db.execute(f"SET LOCAL lock_timeout = {max(1, int(busy_timeout * 1000))}")
            db.execute(q.PROBE_INSERT, {"task_id": task_id})
            row = db.execute(q.PROBE_READ, {"task_id": task_id}).fetchone()
            db.execute(q.PROBE_DELETE, {"task_id": task_id})
    except psycopg.Error as exc:
        raise LedgerError(f"{shown}: {reason(exc)}") from None
    finally:
        db.close()
    return row == (PROBE_TENANT, "completed")


def with_schema(url: str, name: str) -> str:
    """``url`` with libpq's ``options=-csearch_path=NAME``: a ledger opened on it lives in NAME."""
    if not isinstance(name, str) or not _SCHEMA_NAME.fullmatch(name):
        raise ValueError(f"a schema name is lower-case letters, digits and _, got {name!r}")
    parts = urlsplit(url)
    query = "&".join(p for p in parts.query.split("&") if p and not p.startswith("options="))
    option = f"options=-csearch_path%3D{name}"
    return urlunsplit(parts._replace(query=f"{query}&{option}" if query else option))


def _admin(url: str, sql: str, what: str) -> None:
    try:
        with psycopg.connect(url, autocommit=True, connect_timeout=10) as db:
            db.execute(sql)
    except psycopg.Error as exc:
        raise LedgerError(f"{redact(url)}: cannot {what}: {reason(exc)}") from None


def create_schema(url: str, name: str) -> str:
    """Create schema ``name`` in the database at ``url`` if missing; return the URL using it."""
    target = with_schema(url, name)
    _admin(url, f'CREATE SCHEMA IF NOT EXISTS "{name}"', f"create schema {name}")
    return target


def drop_schema(url: str, name: str) -> None:
    """Drop schema ``name`` and every table in it from the database at ``url``."""
    with_schema(url, name)  # checks the name before it reaches SQL
    _admin(url, f'DROP SCHEMA IF EXISTS "{name}" CASCADE', f"drop schema {name}")


@contextlib.contextmanager
def scratch_schema(url: str, prefix: str = "simlab_scratch") -> Iterator[str]:
    """A new, empty schema for one run: yields the URL that uses it, drops it afterwards."""
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    target = create_schema(url, name)
    try:
        yield target
    finally:
        drop_schema(url, name)
