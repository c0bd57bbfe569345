"""A ledger file on disk: what may be opened, whose ``-wal`` it is, and how to copy it.

Opening rules (checked before SQLite touches anything, so a refused file is left as it was):

* a missing or zero-byte file is created as a ledger; its folder must exist;
* a dangling symlink is refused (SQLite would create its target somewhere unexpected);
* a folder, or a non-empty file that is not SQLite, is refused;
* a file or folder this process cannot write is refused as **read-only**: SQLite would open it,
  fail on the first write, and a reader of a WAL database leaves ``-wal`` and ``-shm`` behind;
* a ``-wal`` that belongs to another database is refused (:func:`check_wal`).

Why a foreign ``-wal`` matters: SQLite pairs a database with its write-ahead log by *name* only
(``jobs.sqlite`` and ``jobs.sqlite-wal``). Nothing in the WAL format ties it to one database, so
a ledger file copied without its ``-wal`` next to another database's ``-wal`` opens without an
error, and SQLite silently replays the other log's pages over it: tasks are replaced. So every
ledger carries an identity in its file header (``PRAGMA application_id`` = :data:`APPLICATION_ID`
and a random ``PRAGMA user_version``), written straight to the file when the ledger is created.
The header is page 1; every write-ahead log a ledger writes holds a copy of page 1 (the ledger
writes it on open and after each checkpoint it runs), so :func:`check_wal` compares the identity
on disk with the identity SQLite sees through the log. A mismatch is a foreign log. (A log from
another program that never wrote page 1, or an older copy of the same ledger's own log, cannot be
told apart this way; never copy a ledger file without its ``-wal``: use :func:`backup`.)
"""

from __future__ import annotations

import os
import secrets
import sqlite3
import struct
import threading
from pathlib import Path
from urllib.parse import quote

from simlab.errors import LedgerError

__all__ = [
    "APPLICATION_ID",
    "new_identity",
    "read_header",
    "header_identity",
    "check_path",
    "check_wal",
    "connect",
    "Connection",
    "release",
    "backup",
]

#: ``PRAGMA application_id`` of every simlab ledger: "siml" in ASCII.
APPLICATION_ID = 0x73696D6C
_MAGIC = b"SQLite format 3\x00"


def new_identity() -> int:
    """A random database identity for ``PRAGMA user_version`` (a positive 31-bit integer)."""
    return secrets.randbelow(2**31 - 2) + 1


def read_header(path: Path) -> bytes:
    """The first 100 bytes of the file as they are on disk (b"" for a missing or empty file)."""
    try:
        with open(path, "rb") as f:
            return f.read(100)
    except FileNotFoundError:
        return b""
    except OSError as exc:
        raise LedgerError(f"cannot read ledger {str(path)!r}: {exc.strerror}") from None


def header_identity(header: bytes) -> tuple[int, int]:
    """``(application_id, user_version)`` from a database header (0, 0 when there is none)."""
    if len(header) < 72:
        return 0, 0
    (user_version,) = struct.unpack(">i", header[60:64])
    (application_id,) = struct.unpack(">i", header[68:72])
    return application_id, user_version


def _folder(path: Path) -> Path:
    return path.parent if str(path.parent) else Path(".")


def check_path(path: Path) -> bytes:
    """Apply the opening rules of the module doc to ``path``; return its header from disk.

    Raises :class:`LedgerError` naming the path (and saying "read-only" when it is one).
    """
    shown = repr(str(path))
    if path.is_symlink() and not path.exists():
        raise LedgerError(f"{shown} is a dangling symlink; refusing to create its target")
    if path.is_dir():
        raise LedgerError(f"{shown} is a folder, not a ledger file")
    folder = _folder(path)
    if not folder.is_dir():
        raise LedgerError(f"cannot open ledger {shown}: folder {str(folder)!r} does not exist")
    exists = path.exists()
    if exists and not os.access(path, os.W_OK):
        raise LedgerError(f"{shown} is read-only: this process cannot write the ledger file")
    if not os.access(folder, os.W_OK):
        raise LedgerError(
            f"{shown} is in a read-only folder: SQLite needs to create its -wal and -shm files"
        )
    header = read_header(path)
    if header and not header.startswith(_MAGIC):
        raise LedgerError(f"{shown} is not a SQLite database (file is not a database)")
    return header


def _uri(path: Path, mode: str) -> str:
    return "file:" + quote(str(path.resolve())) + f"?mode={mode}"


def check_wal(path: Path, header: bytes) -> None:
    """Refuse a ``-wal`` next to ``path`` that belongs to another database (module doc).

    Reads through a read-only connection, which never checkpoints: a foreign log is never
    written into the file. Nothing to check when there is no ``-wal`` or it is empty.
    """
    wal = Path(f"{path}-wal")
    try:
        if wal.stat().st_size == 0:
            return
    except FileNotFoundError:
        return
    on_disk = header_identity(header)
    try:
        ro = sqlite3.connect(_uri(path, "ro"), uri=True, isolation_level=None)
        try:
            seen = (
                ro.execute("PRAGMA application_id").fetchone()[0],
                ro.execute("PRAGMA user_version").fetchone()[0],
            )
            pages = ro.execute("PRAGMA page_count").fetchone()[0]
        finally:
            ro.close()
    except sqlite3.Error as exc:
        raise LedgerError(f"{str(path)!r} with its -wal is not a usable ledger: {exc}") from None
    foreign = (not header and pages > 0) or (on_disk[0] == APPLICATION_ID and seen != on_disk)
    if foreign:
        raise LedgerError(
            f"{str(path)!r}: its -wal belongs to another database (identity {seen[1]} in the "
            f"log, {on_disk[1]} in the file); SQLite would replay it over the ledger. Move the "
            f"-wal away only if you know it is stale"
        )


#: Ledger files this process holds open: (device, inode) -> connections. Closing *any*
#: descriptor of a file drops every POSIX lock this process holds on it, SQLite's included;
#: reading the header of a file that another connection of this process has open would make
#: the other processes think nobody has it open (the next one to close deletes the -wal that
#: this process still writes to, and its commits vanish from their view).
_OPEN: dict[tuple[int, int], int] = {}
_OPEN_LOCK = threading.Lock()


def _inode(path: Path) -> tuple[int, int] | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_dev, info.st_ino


def release(key: tuple[int, int] | None) -> None:
    """A connection :func:`connect` returned with ``key`` was closed."""
    if key is None:
        return
    with _OPEN_LOCK:
        left = _OPEN.get(key, 0) - 1
        if left > 0:
            _OPEN[key] = left
        else:
            _OPEN.pop(key, None)


class Connection(sqlite3.Connection):
    """A ledger's SQLite connection: a plain one that can also be referred to weakly (a plain
    ``sqlite3.Connection`` cannot), so whoever lends it keeps state per connection without
    keeping the connection alive."""


def connect(path: str, timeout: float) -> tuple[sqlite3.Connection, bytes, tuple | None]:
    """An autocommit connection to the ledger file at ``path`` after every opening rule held,
    the file's header as it was on disk (b"" for a new file) and the key to :func:`release`
    when the connection is closed; ``:memory:`` as is.

    A file this process already holds open was checked when it was first opened and is not
    read again (reading it would drop this process's locks on it: see ``_OPEN``)."""
    if path == ":memory:":
        header, key = b"", None
        uri, is_uri = path, False
    else:
        p = Path(path)
        key = _inode(p)
        with _OPEN_LOCK:
            held = key is not None and _OPEN.get(key, 0) > 0
        header = b""
        if not held:
            header = check_path(p)
            check_wal(p, header)
        uri, is_uri = _uri(p, "rwc"), True
    try:
        db = sqlite3.connect(
            uri, uri=is_uri, timeout=timeout, isolation_level=None, factory=Connection
        )
    except sqlite3.Error as exc:
        raise LedgerError(f"cannot open ledger {path!r}: {exc}") from None
    if path != ":memory:":
        key = _inode(Path(path))
        if key is not None:
            with _OPEN_LOCK:
                _OPEN[key] = _OPEN.get(key, 0) + 1
    return db, header, key


def backup(db: sqlite3.Connection, source: str, dest: str | Path) -> Path:
    """Copy the database of ``db`` to the new file ``dest`` with SQLite's online backup API.

    The copy is one consistent snapshot even while other processes write (in WAL mode the
    backup reads one snapshot and never blocks writers). It is written to a temporary file in
    the same folder, given its own identity (it is a new database from now on: the source's
    ``-wal`` must never be replayed over it) and checkpointed into one file, then renamed to
    ``dest``. ``dest`` must not exist; its folder must exist and be writable.
    """
    dest = Path(dest)
    if dest.exists() or dest.is_symlink():
        raise LedgerError(f"backup destination {str(dest)!r} exists; give a new path")
    folder = _folder(dest)
    if not folder.is_dir() or not os.access(folder, os.W_OK):
        raise LedgerError(f"cannot write the backup {str(dest)!r}: folder is missing or read-only")
    tmp = folder / f".{dest.name}.{os.getpid()}.partial"
    try:
        target = sqlite3.connect(tmp, isolation_level=None)
        try:
            db.backup(target)
            target.execute(f"PRAGMA user_version = {new_identity()}")
        finally:
            target.close()  # the last connection: checkpoints the copy and removes its -wal
        os.link(tmp, dest)  # unlike a rename, never replaces a file that appeared meanwhile
    except FileExistsError:
        raise LedgerError(f"backup destination {str(dest)!r} exists; give a new path") from None
    except (sqlite3.Error, OSError) as exc:
        raise LedgerError(f"backup of {source!r} to {str(dest)!r} failed: {exc}") from None
    finally:
        for leftover in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm"), Path(f"{tmp}-journal")):
            leftover.unlink(missing_ok=True)
    return dest
