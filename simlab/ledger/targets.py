"""What a ledger target names: a SQLite path or a PostgreSQL URL (pure string functions).

Used by :func:`~simlab.ledger.connect` to pick the engine, and by everything that prints a
target: :func:`redact` keeps passwords out of messages.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

__all__ = ["is_postgres_url", "redact", "sqlite_path"]


def is_postgres_url(target: object) -> bool:
    """True for a ``postgresql://`` (or ``postgres://``) URL."""
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))


def redact(url: str) -> str:
    """``url`` with any password (``user:PASSWORD@`` or ``?password=``) replaced by ``***``."""
    parts = urlsplit(url)
    netloc = parts.netloc
    if parts.password is not None:
        credentials, host = netloc.rsplit("@", 1)
        netloc = f"{credentials.split(':', 1)[0]}:***@{host}"
    query = "&".join(
        "password=***" if p.startswith("password=") else p for p in parts.query.split("&")
    )
    return urlunsplit(parts._replace(netloc=netloc, query=query))


def sqlite_path(target: str | Path) -> str:
    """The SQLite path ``target`` names; ``ValueError`` for a URL of any other kind."""
    target = str(target)
    if target.startswith("sqlite:///") and len(target) > len("sqlite:///"):
        return target[len("sqlite:///") :]
    if "://" in target or not target:
        raise ValueError(
            f"unknown ledger {target!r}: give a path, ':memory:', sqlite:///PATH or postgresql://..."
        )
    return target
