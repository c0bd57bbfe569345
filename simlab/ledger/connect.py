"""``connect(target)``: one entry point for both ledger engines.

``target`` names the ledger:

* a path, ``":memory:"`` or ``sqlite:///PATH`` -> the SQLite :class:`~simlab.ledger.Ledger`
  (SQLAlchemy's spelling: ``sqlite:///jobs.sqlite`` is relative, ``sqlite:////tmp/jobs.sqlite``
  absolute);
* ``postgresql://...`` (or ``postgres://...``) -> :class:`~simlab.ledger.PostgresLedger`.

The same worker code then runs on one machine or on many. The PostgreSQL driver is imported only
when a PostgreSQL target is opened.

:func:`remove_probe` is the one operation outside the task contract that a caller outside this
package needs on an open ledger of either engine (``simlab health`` removes its probe tasks):
it picks the engine's own function, so no SQL leaves :mod:`simlab.ledger`.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from simlab.ledger.arguments import MAX_VALUE_BYTES
from simlab.ledger.targets import is_postgres_url, redact, sqlite_path

__all__ = [
    "connect",
    "is_postgres_url",
    "is_racy_claim_ledger",
    "redact",
    "remove_probe",
    "sqlite_path",
]


def connect(
    target: str | Path,
    *,
    clock: Callable[[], float] = time.time,
    max_attempts: int | None = None,
    chapter: bool = False,
    max_value_bytes: int = MAX_VALUE_BYTES,
) -> Any:
    """Open the ledger ``target`` names: SQLite for a path, PostgreSQL for a URL.

    ``clock``, ``max_attempts`` and ``max_value_bytes`` mean what they mean for ``Ledger``.
    ``chapter=True`` returns the teaching subclass that also has the chapter's broken primitives
    (:class:`~simlab.ledger.RacyClaimLedger` or :class:`~simlab.ledger.PostgresRacyClaimLedger`).
    Raises ``ValueError`` for a target that names neither engine, and
    :class:`~simlab.errors.LedgerError` for a ledger that cannot be opened.
    """
    if not isinstance(target, str | Path):
        raise ValueError(f"target must be a path or a URL, got {target!r}")
    if is_postgres_url(target):
        if chapter:
            from simlab.ledger.postgres.racy import PostgresRacyClaimLedger as engine
        else:
            from simlab.ledger.postgres.ledger import PostgresLedger as engine
        return engine(
            target, clock=clock, max_attempts=max_attempts, max_value_bytes=max_value_bytes
        )
    path = sqlite_path(target)
    if chapter:
        from simlab.ledger.sqlite.racy import RacyClaimLedger as engine
    else:
        from simlab.ledger.sqlite.ledger import Ledger as engine
    return engine(path, clock=clock, max_attempts=max_attempts, max_value_bytes=max_value_bytes)


def is_racy_claim_ledger(ledger: object) -> bool:
    """True for a ledger with the chapter's broken primitives, on either engine.

    Never imports the PostgreSQL driver: an object cannot be a ``PostgresRacyClaimLedger``
    unless its module is already loaded.
    """
    from simlab.ledger.sqlite.racy import RacyClaimLedger

    if isinstance(ledger, RacyClaimLedger):
        return True
    pg_racy = sys.modules.get("simlab.ledger.postgres.racy")
    return pg_racy is not None and isinstance(ledger, pg_racy.PostgresRacyClaimLedger)


def remove_probe(ledger: object, task_id: str) -> bool:
    """Delete health's probe task ``task_id`` (tenant ``__health__``) and its effects from
    ``ledger``; True if it was there. Tasks of any other tenant are never touched.

    For a SQLite :class:`~simlab.ledger.Ledger` or a :class:`~simlab.ledger.PostgresLedger`
    (checked without importing the driver for a SQLite ledger), it runs
    :func:`simlab.ledger.probing.remove_probe` on the engine's own statements. ``TypeError`` for
    any other object; :class:`~simlab.errors.LedgerError` if the engine fails.
    """
    from simlab.ledger import probing
    from simlab.ledger.sqlite.ledger import Ledger

    if not isinstance(ledger, Ledger):
        postgres = sys.modules.get("simlab.ledger.postgres.ledger")
        if postgres is None or not isinstance(ledger, postgres.PostgresLedger):
            raise TypeError(f"remove_probe needs a SQLite or PostgreSQL ledger, got {ledger!r}")
    return probing.remove_probe(ledger, task_id)
