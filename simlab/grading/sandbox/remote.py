"""The grader's objects as a learner's code in the sandbox sees them: stand-ins that only ask.

A hidden check may hand the learner's function one of the grader's own objects: the SQLite
connection of a ledger the grader keeps, the ledger itself, a mailbox, the ``work`` callback of
a worker loop. None of them lives in the sandbox. The learner's code gets a stand-in from this
module whose every use (a statement, a method call) is sent to the grader as a *callback* on the
pipe of the request being served, and waits for the grader's answer: a value, or an exception
raised right here as the kit's own type (``sqlite3.IntegrityError``, ``LeaseHeld``...). While it
waits, the grader may send requests of its own (another worker's claim, run between two
statements of this one); they are served before the answer comes.

So everything that judges (the ledger's rows, the e-mails sent, the steps worked, where another
claim ran) happens in the grader and is seen there. Replacing these classes in the sandbox
changes only what the learner's code asks for, which is the learner's to decide anyway.

A stand-in answers only during the call it was handed to (the grader refuses it afterwards).
"""

from __future__ import annotations

import builtins
from typing import Any

__all__ = ["METHODS", "Channel", "Crash", "install", "stand_in", "rebuild", "kit_exception"]

#: The methods each kind of grader object offers (the grader enforces the same lists).
METHODS: dict[str, tuple[str, ...]] = {
    "Ledger": (
        "submit",
        "claim",
        "claim_next",
        "heartbeat",
        "save",
        "release",
        "cancel",
        "requeue",
        "record_effect",
        "effects",
        "get",
        "tasks",
        "counts",
    ),
    "Mailbox": ("send",),
    "Work": ("__call__",),
}


class Crash(Exception):
    """The worker process died here (raised into a learner's ``send_step`` by a grader's
    ledger or mailbox that crashes on cue)."""


class Channel:
    """How a stand-in reaches the grader: ``ask(message)`` sends one callback frame and returns
    the grader's answer frame (serving any request that arrives first)."""

    def ask(self, message: dict) -> dict:  # pragma: no cover - replaced by the sandbox's own
        raise RuntimeError("no grader to ask outside a sandbox")


_CHANNEL: list[Channel] = [Channel()]


def install(channel: Channel) -> None:
    """Route the callbacks of every stand-in through ``channel`` (the sandbox's request loop)."""
    _CHANNEL[0] = channel


def _ask(service: int, method: str, args: tuple, kwargs: dict) -> Any:
    from simlab.grading.sandbox import wire

    answer = _CHANNEL[0].ask(
        {
            "cb": service,
            "method": method,
            "args": wire.encode(list(args)),
            "kwargs": wire.encode(dict(kwargs)),
        }
    )
    if "raise" in answer:
        raise rebuild(answer["raise"] if isinstance(answer["raise"], dict) else {})
    return wire.decode(answer.get("value"))


def kit_exception(name: Any, fields: Any, message: str) -> Exception | None:
    """The kit's own exception ``name`` (``LeaseHeld``, ``TerminalTask``, ``UnknownTask``,
    ``LedgerError``) rebuilt from an error's ``fields`` and ``message`` as they cross the pipe
    (either way); None for any other name. Malformed fields raise."""
    from simlab import errors

    if name == "LeaseHeld":
        return errors.LeaseHeld(
            fields.get("task_id"), fields.get("worker"), fields.get("lease_until")
        )
    if name == "TerminalTask":
        return errors.TerminalTask(fields.get("task_id"), fields.get("status"))
    if name == "UnknownTask":
        return errors.UnknownTask(fields.get("task_id"))
    if name == "LedgerError":
        return errors.LedgerError(message)
    return None


def rebuild(info: dict) -> BaseException:
    """The exception an answer describes, as its own type where the sandbox has it."""
    name = str(info.get("type", "Exception"))
    message = str(info.get("message", ""))
    if info.get("module") == "sqlite3":
        from simlab.grading.untrusted.sql import error_of

        return error_of(name, message)
    try:
        kit = kit_exception(name, info.get("fields") or {}, message)
    except Exception:
        return RuntimeError(f"{name}: {message}")
    if kit is not None:
        return kit
    if name == "Crash":
        return Crash(message)
    cls = getattr(builtins, name, None)
    if isinstance(cls, type) and issubclass(cls, Exception):
        try:
            return cls(message)
        except Exception:
            pass
    return RuntimeError(f"{name}: {message}" if message else name)


class GraderObject:
    """A grader's object (a ledger, a mailbox, a ``work`` callback): calling a method asks the
    grader to call it on the real one."""

    def __init__(self, service: int, kind: str):
        self._service = service
        self._kind = kind
        self._methods = METHODS.get(kind, ())

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or name not in self._methods:
            raise AttributeError(f"{self._kind!r} object has no attribute {name!r}")

        def method(*args: Any, **kwargs: Any) -> Any:
            return _ask(self._service, name, args, kwargs)

        method.__name__ = name
        return method

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if "__call__" not in self._methods:
            raise TypeError(f"{self._kind!r} object is not callable")
        return _ask(self._service, "__call__", args, kwargs)

    def __repr__(self) -> str:
        return f"<{self._kind}>"


class Cursor:
    """The result of a statement the grader ran, fetched already, as ``sqlite3.Cursor`` offers
    it; ``execute`` on it runs another statement on the same connection."""

    arraysize = 1

    def __init__(self, connection: Connection):
        self.connection = connection
        self._rows: list[tuple] = []
        self.rowcount = -1
        self.lastrowid: int | None = None
        self.description: tuple | None = None

    def _take(self, result: Any) -> Cursor:
        result = result if isinstance(result, dict) else {}
        rows = result.get("rows")
        self._rows = [tuple(row) for row in rows] if isinstance(rows, list) else []
        self.rowcount = result.get("rowcount", -1)
        self.lastrowid = result.get("lastrowid")
        names = result.get("description")
        self.description = (
            tuple((str(n), None, None, None, None, None, None) for n in names)
            if isinstance(names, list)
            else None
        )
        return self

    def execute(self, sql: str, parameters: Any = ()) -> Cursor:
        return self._take(_ask(self.connection._service, "execute", (sql, parameters), {}))

    def executemany(self, sql: str, seq_of_parameters: Any) -> Cursor:
        seq = list(seq_of_parameters)
        return self._take(_ask(self.connection._service, "executemany", (sql, seq), {}))

    def fetchone(self) -> tuple | None:
        return self._rows.pop(0) if self._rows else None

    def fetchmany(self, size: int | None = None) -> list[tuple]:
        size = self.arraysize if size is None else size
        rows, self._rows = self._rows[:size], self._rows[size:]
        return rows

    def fetchall(self) -> list[tuple]:
        rows, self._rows = self._rows, []
        return rows

    def __iter__(self):
        return iter(self.fetchall())

    def close(self) -> None:
        self._rows = []


class Connection:
    """The SQLite connection of a ledger the grader keeps: each statement runs there, in
    autocommit mode (a statement commits on its own unless a transaction was opened)."""

    def __init__(self, service: int):
        self._service = service

    def cursor(self) -> Cursor:
        return Cursor(self)

    def execute(self, sql: str, parameters: Any = ()) -> Cursor:
        return Cursor(self).execute(sql, parameters)

    def executemany(self, sql: str, seq_of_parameters: Any) -> Cursor:
        return Cursor(self).executemany(sql, seq_of_parameters)

    def commit(self) -> None:
        _ask(self._service, "commit", (), {})

    def rollback(self) -> None:
        _ask(self._service, "rollback", (), {})

    @property
    def in_transaction(self) -> bool:
        return bool(_ask(self._service, "in_transaction", (), {}))

    @property
    def total_changes(self) -> int:
        return _ask(self._service, "total_changes", (), {})

    @property
    def isolation_level(self) -> None:
        return None

    def close(self) -> None:
        """The grader's connection stays open: closing the stand-in does nothing."""

    def __enter__(self) -> Connection:
        return self

    def __exit__(self, kind: Any, *exc: Any) -> bool:
        if kind is None:
            self.commit()
        else:
            self.rollback()
        return False

    def __repr__(self) -> str:
        return "<sqlite3.Connection of the grader's ledger>"


def stand_in(service: int, kind: str) -> Any:
    """The stand-in for grader object ``service`` of ``kind``."""
    if kind == "Connection":
        return Connection(service)
    return GraderObject(service, kind)
