"""The one host folder a sandbox may write, and how the grader touches files in it safely.

Hidden checks give the student's code a path to write a ledger file at, and then read that file
themselves. The folder holding it is shared: the grader and the jailed sandbox see it at the
same path (the jail binds it read-write). Everything in it is therefore hostile: a name may be
a symbolic link to one of the grader's files, a FIFO that blocks whoever opens it, a huge file,
or a folder swapped for a link. So the grader never opens a path in it directly:

* :meth:`Exchange.folder` makes a fresh folder for one check, owned by the sandbox's user;
* :meth:`Exchange.copy_out` copies a regular file (and its SQLite ``-wal`` companion) into a
  folder only the grader can reach, walking the path one folder at a time without following
  links, refusing anything that is not a regular file or is larger than :data:`MAX_FILE`;
* a copy that is an SQLite database is only handed out after
  :func:`~simlab.grading.untrusted.ledger_file.check_untrusted` passed (no views, triggers,
  virtual tables or generated columns, read within a deadline), and :meth:`Exchange.read_ledger`
  reads one through a read-only :class:`~simlab.grading.untrusted.ledger_file.UntrustedLedger`,
  so a file the student's code wrote cannot make the grader run its queries;
* :meth:`Exchange.copy_in` places a file the grader prepared privately under a name that must
  not exist yet (never through a link), owned by the sandbox's user.

The folder and everything in it are removed when the sandbox closes (both folders are made in the
grader's own temporary folder, which its end removes: :mod:`simlab.grading.sandbox.host`). When
the grader is root,
the folder is a tmpfs of its own, capped at :data:`FOLDER_BYTES` bytes and :data:`FOLDER_FILES`
entries; otherwise the sandbox measures it against the same caps
(:class:`~simlab.grading.sandbox.meter.Watchdog`).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
from collections.abc import Iterator

from simlab.errors import LedgerError
from simlab.grading.sandbox import host
from simlab.grading.sandbox.jail import (
    SANDBOX_GID,
    SANDBOX_UID,
    cap_folder,
    make_shared,
    release_folder,
)
from simlab.grading.untrusted.ledger_file import UntrustedLedger, check_untrusted

__all__ = ["Exchange", "MAX_FILE"]

#: The largest file the grader copies out of the exchange folder.
MAX_FILE = 64 * 1024**2
#: What the sandbox may write in the exchange folder in all (a tmpfs when the grader is root).
FOLDER_BYTES = 2 * MAX_FILE + 16 * 1024**2
FOLDER_FILES = 4096

_SQLITE = b"SQLite format 3\x00"
_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


class Exchange:
    """A fresh shared folder (``path``) and a private one only the grader uses."""

    def __init__(self) -> None:
        self.path = host.mkdtemp("simlab-exchange-")
        self._private = host.mkdtemp("simlab-private-")
        os.chmod(self.path, 0o755)  # the grader's: only it makes entries here
        #: Whether a tmpfs caps the folder (root only); otherwise the grader watches it.
        self.capped = cap_folder(self.path, FOLDER_BYTES, FOLDER_FILES)

    def close(self) -> None:
        """Remove both folders (links inside are removed, never followed)."""
        release_folder(self.path)
        shutil.rmtree(self.path, ignore_errors=True)
        shutil.rmtree(self._private, ignore_errors=True)

    @contextlib.contextmanager
    def folder(self) -> Iterator[str]:
        """A fresh folder the sandbox may write, removed afterwards."""
        path = make_shared(tempfile.mkdtemp(prefix="check-", dir=self.path))
        try:
            yield path
        finally:
            shutil.rmtree(path, ignore_errors=True)

    def _parent_fd(self, path: str) -> tuple[int, str]:
        """An open descriptor of the folder holding ``path`` (reached without following any
        link below :attr:`path`) and the file's name in it."""
        rel = os.path.relpath(os.path.abspath(path), self.path)
        parts = rel.split(os.sep)
        if rel.startswith("..") or os.path.isabs(rel) or not parts[-1] or parts[-1] == ".":
            raise ValueError(f"{path} is not inside the exchange folder")
        fd = os.open(self.path, _DIR)
        try:
            for part in parts[:-1]:
                inner = os.open(part, _DIR, dir_fd=fd)
                os.close(fd)
                fd = inner
        except BaseException:
            os.close(fd)
            raise
        return fd, parts[-1]

    def _copy_file(self, path: str, target: str) -> bool:
        """Copy ``path`` to ``target`` if it is a regular file of at most MAX_FILE bytes."""
        try:
            parent, name = self._parent_fd(path)
        except OSError:
            return False
        try:
            src = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=parent)
        except OSError:
            return False
        finally:
            os.close(parent)
        try:
            info = os.fstat(src)
            if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_FILE:
                return False
            data = bytearray()
            while chunk := os.read(src, MAX_FILE + 1 - len(data)):  # it may grow meanwhile
                data += chunk
                if len(data) > MAX_FILE:
                    return False
        finally:
            os.close(src)
        with open(target, "xb") as out:
            out.write(data)
        return True

    @contextlib.contextmanager
    def copy_out(self, path: str) -> Iterator[str | None]:
        """A private copy of the file at ``path`` (with ``path-wal`` when there is one, so an
        SQLite file reads as its writer left it); None when it is missing, not a regular file,
        too large, or an SQLite database that :func:`check_untrusted` refuses. The copy is
        removed afterwards."""
        holder = tempfile.mkdtemp(dir=self._private)
        try:
            local = os.path.join(holder, os.path.basename(path))
            if not self._copy_file(path, local):
                yield None
                return
            self._copy_file(path + "-wal", local + "-wal")
            yield local if _safe_to_read(local) else None
        finally:
            shutil.rmtree(holder, ignore_errors=True)

    @contextlib.contextmanager
    def read_ledger(self, path: str) -> Iterator[UntrustedLedger | None]:
        """The ledger file at ``path`` opened read-only from a private copy (see
        :mod:`simlab.grading.untrusted.ledger_file`); None when :meth:`copy_out` gives no copy or
        the file is not a ledger that can be read safely."""
        with self.copy_out(path) as local:
            if local is None:
                yield None
                return
            try:
                ledger = UntrustedLedger(local)
            except LedgerError:
                yield None
                return
            with ledger:
                yield ledger

    def copy_in(self, local: str, path: str) -> None:
        """Place the grader's file ``local`` at ``path`` in the exchange folder. Raises
        ``OSError`` when ``path`` already exists (whatever it is)."""
        parent, name = self._parent_fd(path)
        try:
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
            fd = os.open(name, flags, 0o600, dir_fd=parent)
        finally:
            os.close(parent)
        with open(fd, "wb") as out, open(local, "rb") as source:
            shutil.copyfileobj(source, out)
            if os.geteuid() == 0:
                os.fchown(out.fileno(), SANDBOX_UID, SANDBOX_GID)


def _safe_to_read(local: str) -> bool:
    """False for an SQLite database whose schema could make a reader run code (any other file
    is data, and passes)."""
    with open(local, "rb") as f:
        if f.read(len(_SQLITE)) != _SQLITE:
            return True
    try:
        check_untrusted(local, max_bytes=2 * MAX_FILE)
    except LedgerError:
        return False
    return True
