"""Reading a ledger file that someone else wrote (a learner's code in a jail), with bounded work.

A SQLite file is a program as much as data: its schema can make a plain ``SELECT ... FROM tasks``
run for ever (``tasks`` a view over an endless recursive query), run triggers, or call functions
from generated columns and virtual tables. :class:`UntrustedLedger` reads such a file without
running any of that:

* files larger than ``max_bytes`` (the database and its ``-wal`` together) are refused before
  SQLite opens them;
* the connection is read-only (a ``file:...?mode=ro`` URI and ``PRAGMA query_only``): nothing is
  ever written to the file, and no migration runs;
* ``PRAGMA trusted_schema=OFF``, and a schema holding anything but plain tables and indexes
  (views, triggers, virtual tables, generated columns) is refused: what the grader reads is
  what a table stores;
* every statement stops at a deadline (a progress handler), and values are capped in length
  (``Connection.setlimit``).

Every refusal and every failure is a :class:`~simlab.errors.LedgerError` with one line. Reading
methods are those of :class:`~simlab.ledger.Ledger` (``get``, ``tasks``, ``effects``, ...);
writing methods fail the same way.
"""

from __future__ import annotations

import os
import sqlite3
import stat
import time
from pathlib import Path
from urllib.parse import quote

from simlab.errors import LedgerError
from simlab.ledger.arguments import MAX_VALUE_BYTES
from simlab.ledger.sqlite.ledger import Ledger

__all__ = ["UntrustedLedger", "check_untrusted", "MAX_UNTRUSTED_BYTES", "UNTRUSTED_SECONDS"]

#: The largest untrusted ledger (file and ``-wal`` together) that is read at all.
MAX_UNTRUSTED_BYTES = 64 * 1024**2
#: Seconds all the statements run on one untrusted ledger may take together.
UNTRUSTED_SECONDS = 5.0
#: The longest value (text or blob) SQLite builds while reading one.
_MAX_LENGTH = max(MAX_VALUE_BYTES * 4, 1 << 20)
_STEPS = 1000  # virtual-machine steps between two looks at the deadline
_FORBIDDEN = ("view", "trigger")


def _size(path: Path) -> int:
    """Bytes of ``path`` and its ``-wal``; ``LedgerError`` unless ``path`` is a regular file."""
    try:
        info = os.stat(path, follow_symlinks=False)
    except OSError as exc:
        raise LedgerError(f"cannot read {str(path)!r}: {exc.strerror}") from None
    if not stat.S_ISREG(info.st_mode):
        raise LedgerError(f"{str(path)!r} is not a regular file")
    total = info.st_size
    try:
        total += os.stat(f"{path}-wal", follow_symlinks=False).st_size
    except OSError:
        pass
    return total


def _open(path: Path, seconds: float, max_bytes: int) -> sqlite3.Connection:
    """A read-only, deadline-bound connection to ``path`` whose schema has been checked."""
    size = _size(path)
    if size > max_bytes:
        raise LedgerError(f"{str(path)!r} is larger than {max_bytes:,} bytes; refusing to read it")
    uri = "file:" + quote(str(path.resolve())) + "?mode=ro"
    deadline = time.monotonic() + seconds
    try:
        db = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=0.0)
    except sqlite3.Error as exc:
        raise LedgerError(f"cannot open {str(path)!r}: {exc}") from None
    try:
        db.set_progress_handler(lambda: int(time.monotonic() > deadline), _STEPS)
        db.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, _MAX_LENGTH)
        db.setlimit(sqlite3.SQLITE_LIMIT_ATTACHED, 0)
        db.execute("PRAGMA trusted_schema=OFF")
        db.execute("PRAGMA query_only=ON")
        db.execute("PRAGMA cell_size_check=ON")
        _check_schema(db, str(path))
    except sqlite3.Error as exc:
        db.close()
        raise LedgerError(f"cannot read {str(path)!r} safely: {exc}") from None
    except BaseException:
        db.close()
        raise
    return db


def _check_schema(db: sqlite3.Connection, shown: str) -> None:
    """Refuse anything in the schema that would run code when a table is read."""
    rows = db.execute("SELECT type, name, sql FROM sqlite_master").fetchall()
    for kind, name, sql in rows:
        text = str(sql or "").lstrip().upper()
        if kind in _FORBIDDEN or text.startswith("CREATE VIRTUAL"):
            what = "virtual table" if kind == "table" else kind
            raise LedgerError(f"{shown} holds a {what} ({name!r}); refusing to read it")
        if kind == "table":
            hidden = db.execute("SELECT hidden FROM pragma_table_xinfo(?)", (name,)).fetchall()
            if any(h in (2, 3) for (h,) in hidden):
                raise LedgerError(f"{shown} has generated columns in {name!r}; refusing to read it")


def check_untrusted(
    path: str | os.PathLike,
    *,
    seconds: float = UNTRUSTED_SECONDS,
    max_bytes: int = MAX_UNTRUSTED_BYTES,
) -> None:
    """Raise :class:`LedgerError` unless the file at ``path`` passes every rule of the module
    doc (checked through a read-only connection: the file is not changed)."""
    _open(Path(path), seconds, max_bytes).close()


class UntrustedLedger(Ledger):
    """A ledger file written by someone else, read as the module doc says (never written)."""

    def __init__(
        self,
        path: str | os.PathLike,
        *,
        seconds: float = UNTRUSTED_SECONDS,
        max_bytes: int = MAX_UNTRUSTED_BYTES,
    ):
        # Only what Ledger's reading methods use: no migration, no identity, no checkpoint.
        self.path = str(path)
        self.clock = lambda: 0.0
        self.max_attempts = None
        self.max_value_bytes = MAX_VALUE_BYTES
        self._db = _open(Path(path), seconds, max_bytes)
        # No hold on the file (see simlab.ledger.sqlite.files.connect): it is never written.
        self._file = None
        self._identity = 0
        self._writes_left = 1 << 62
        self._cursor = self._db.cursor()

    def _failed(self, exc: sqlite3.Error) -> LedgerError:
        if isinstance(exc, sqlite3.OperationalError) and "interrupt" in str(exc):
            return LedgerError(f"reading {self.path!r} took too long; stopped")
        return super()._failed(exc)
