"""The grader's own objects, lent to a learner's code for one call: the grader observes, the
jail only acts.

A hidden check keeps everything that judges in the grader's process: the ledgers the learner's
pieces run against, the mailbox their e-mails land in, the ``work`` of a worker loop, the
competing claim of a race. It lends them to one call of the learner's function
(:meth:`simlab.grading.sandbox.supervisor.Sandbox.offer`); in the sandbox each is a stand-in
(:mod:`simlab.grading.sandbox.remote`) whose every use comes back here as a callback, answered
by the real object. So the state of a ledger, the e-mails sent and the steps worked are what the
grader itself did or saw, and a notebook that replaces kit objects in its sandbox changes only
what its own code asks for.

* :class:`SqlGate` runs the learner's SQL on one of the grader's SQLite connections, one
  statement at a time, within the bounds of :mod:`simlab.grading.untrusted.sql` (only reads and
  writes of ``tasks`` and ``effects`` and transactions; a step budget; a bounded result) and
  within the call's deadline (past it the sandbox is lost, as for code that runs too long).
  ``after`` (optional) runs once a given statement has finished: another worker's move,
  scheduled there.
* :class:`Lent` answers a method call on any other object, from a fixed list of methods.

Both turn an exception the learner's request caused into one the stand-in raises in the sandbox
as its own type; anything else is the grader's own failure and ends the sandbox.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from typing import Any

from simlab import errors
from simlab.grading.questions import Fail
from simlab.grading.sandbox import wire
from simlab.grading.sandbox.remote import METHODS, Crash
from simlab.grading.sandbox.supervisor import RemoteError, Sandbox
from simlab.grading.untrusted import sql as untrusted

__all__ = ["SqlGate", "Lent", "error_info", "grader_folder", "MAX_SENDS", "MAX_KEY_CHARS"]

#: Where the grader keeps the ledger files it lends: memory (no jail sees the host's
#: ``/dev/shm``) when there is one, since closing a ledger file on a disk waits for the disk.
_FAST = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None


def grader_folder(prefix: str) -> tempfile.TemporaryDirectory:
    """A private folder (mode 0700) for the ledger files of one check, removed afterwards."""
    return tempfile.TemporaryDirectory(prefix=prefix, dir=_FAST)


#: The most e-mails one call may send to a lent mailbox, and the longest key it keeps.
MAX_SENDS = 10_000
MAX_KEY_CHARS = 1000

_KIT_FIELDS = ("task_id", "status", "worker", "lease_until")
_PLAIN = (ValueError, TypeError, KeyError, IndexError, OverflowError, AttributeError)


def error_info(exc: BaseException) -> dict | None:
    """How a stand-in in the sandbox re-raises ``exc`` (None: not the learner's doing)."""
    if isinstance(exc, RemoteError):  # the learner's own code raised it, deeper down
        return dict(exc.info)
    message = " ".join(str(exc).split())[:500]
    sqlite_name = untrusted.error_name(exc)
    if sqlite_name is not None:
        return {"type": sqlite_name, "module": "sqlite3", "message": message}
    if isinstance(exc, errors.LedgerError):
        name = next(
            c.__name__
            for c in type(exc).__mro__
            if c.__module__ == errors.__name__ and c.__name__ in errors.__all__
        )
        fields = {k: wire.encode(getattr(exc, k)) for k in _KIT_FIELDS if hasattr(exc, k)}
        return {"type": name, "kit": name, "message": message, "fields": fields}
    if isinstance(exc, Crash):
        return {"type": "Crash", "message": message}
    if isinstance(exc, Fail):  # a wrong type the learner's own piece returned, deeper down
        return {"type": "TypeError", "message": message}
    if isinstance(exc, _PLAIN):
        return {"type": type(exc).__name__, "message": message}
    return None


def _answer(call: Callable[[], Any]) -> tuple[str, Any]:
    try:
        return "value", call()
    except Exception as exc:
        info = error_info(exc)
        if info is None:
            raise
        return "raise", info


class Lent:
    """One of the grader's objects, lent: a callback may call only the methods of ``kind``
    (:data:`simlab.grading.sandbox.remote.METHODS`)."""

    def __init__(self, obj: Any, kind: str):
        self.obj = obj
        self.kind = kind
        self.methods = frozenset(METHODS[kind])
        self.sends = 0

    def __call__(self, method: str, args: list, kwargs: dict) -> tuple[str, Any]:
        if method not in self.methods:
            return "raise", {"type": "AttributeError", "message": method}
        target = self.obj if method == "__call__" else getattr(self.obj, method)
        if self.kind == "Mailbox":
            return _answer(lambda: self._send(target, *args, **kwargs))
        return _answer(lambda: target(*args, **kwargs))

    def _send(self, send: Callable[[Any], None], key: Any) -> None:
        """A mailbox keeps every key it got: only short ones, and not without end."""
        self.sends += 1
        if self.sends > MAX_SENDS:
            raise ValueError(f"one call may send at most {MAX_SENDS} e-mails")
        if len(key if isinstance(key, str) else repr(key)) > MAX_KEY_CHARS:
            raise ValueError(f"an e-mail's key may be at most {MAX_KEY_CHARS} characters")
        send(key)


def _counts(sql: str) -> bool:
    """Does the statement count as one of the learner's (``BEGIN`` and ``SAVEPOINT`` do not:
    nothing another process does right after them can break a claim)?"""
    return not sql.lstrip().upper().startswith(("BEGIN", "SAVEPOINT"))


class SqlGate:
    """The learner's SQL on the grader's connection ``db`` (see the module docstring).

    ``statements`` counts the learner's finished statements (not ``BEGIN`` nor ``SAVEPOINT``).
    ``after`` is ``(n, move)``: ``move()`` runs right after statement ``n`` finished, before the
    learner's code sees its result, once.
    """

    kind = "Connection"

    def __init__(
        self,
        db: Any,
        sandbox: Sandbox,
        after: tuple[int, Callable[[], None]] | None = None,
    ):
        self.db = db
        self.sandbox = sandbox
        self.after = after
        self.statements = 0
        self._due: Callable[[], None] | None = None

    def __call__(self, method: str, args: list, kwargs: dict) -> tuple[str, Any]:
        if method in ("execute", "executemany"):
            answer = _answer(lambda: self._statement(method == "executemany", *args, **kwargs))
            if self._due is not None:  # the grader's own move: its failure is the grader's
                move, self._due = self._due, None
                move()
            return answer
        if method == "commit":
            return _answer(lambda: self._finish(True))
        if method == "rollback":
            return _answer(lambda: self._finish(False))
        if method == "in_transaction":
            return "value", self.db.in_transaction
        if method == "total_changes":
            return "value", self.db.total_changes
        return "raise", {"type": "AttributeError", "message": method}

    def _in_time(self, run: Callable[[float], Any]) -> Any:
        """``run(deadline)`` by the deadline of the call under way; past it the sandbox is lost."""
        deadline, reason = self.sandbox.time_left()
        try:
            return run(deadline)
        except untrusted.Late:
            raise self.sandbox.lose(reason) from None

    def _statement(self, many: bool, sql: Any, parameters: Any = ()) -> dict:
        result = self._in_time(lambda end: untrusted.run(self.db, sql, parameters, many, end))
        if isinstance(sql, str) and _counts(sql):
            self.statements += 1
            if self.after is not None and self.statements == self.after[0]:
                self._due, self.after = self.after[1], None
        return result

    def _finish(self, commit: bool) -> None:
        self._in_time(lambda end: untrusted.finish(self.db, commit, end))
