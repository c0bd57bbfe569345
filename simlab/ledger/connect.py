"""``connect(target)``: one entry point for both ledger engines.

``target`` names the ledger:

* a path, ``":memory:"`` or ``sqlite:///PATH`` -> the SQLite :class:`~simlab.ledger.Ledger`
  (SQLAlchemy's spelling: ``sqlite:///jobs.sqlite`` is relative, ``sqlite:////tmp/jobs.sqlite``
  absolute);
* ``postgresql://...`` (or ``postgres://...``) -> :class:`~simlab.ledger.PostgresLedger`.

The same worker code then runs on one machine or on many. The PostgreSQL driver is imported only
when a PostgreSQL target is opened.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from simlab.ledger.targets import is_postgres_url, redact, sqlite_path

__all__ = ["connect", "is_chapter_ledger", "is_postgres_url", "redact", "sqlite_path"]


def connect(
    target: str | Path,
    *,
    clock: Callable[[], float] = time.time,
    max_attempts: int | None = None,
    chapter: bool = False,
) -> Any:
    """Open the ledger ``target`` names: SQLite for a path, PostgreSQL for a URL.

    ``clock`` and ``max_attempts`` mean what they mean for ``Ledger``. ``chapter=True`` returns
    the teaching subclass that also has the chapter's broken primitives
    (:class:`~simlab.ledger.ChapterLedger` or :class:`~simlab.ledger.PostgresChapterLedger`).
    Raises ``ValueError`` for a target that names neither engine, and
    :class:`~simlab.errors.LedgerError` for a ledger that cannot be opened.
    """
    if not isinstance(target, str | Path):
        raise ValueError(f"target must be a path or a URL, got {target!r}")
    if is_postgres_url(target):
        if chapter:
            from simlab.ledger.pg_chapter import PostgresChapterLedger as engine
        else:
            from simlab.ledger.postgres import PostgresLedger as engine
        return engine(target, clock=clock, max_attempts=max_attempts)
    path = sqlite_path(target)
    if chapter:
        from simlab.ledger.chapter import ChapterLedger as engine
    else:
        from simlab.ledger.sqlite import Ledger as engine
    return engine(path, clock=clock, max_attempts=max_attempts)


def is_chapter_ledger(ledger: object) -> bool:
    """True for a ledger with the chapter's broken primitives, on either engine.

    Never imports the PostgreSQL driver: an object cannot be a ``PostgresChapterLedger`` unless
    its module is already loaded.
    """
    from simlab.ledger.chapter import ChapterLedger

    if isinstance(ledger, ChapterLedger):
        return True
    pg_chapter = sys.modules.get("simlab.ledger.pg_chapter")
    return pg_chapter is not None and isinstance(ledger, pg_chapter.PostgresChapterLedger)
