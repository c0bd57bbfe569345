"""Someone else's SQL on a ledger connection, kept within bounds (the grader runs a learner's
statements this way; :class:`simlab.grading.lending.SqlGate`).

:func:`run` executes one statement (or one ``executemany``) on ``db``:

* an authorizer allows only reads and writes of the ledger's ``tasks`` and ``effects`` tables in
  the main database, transactions, savepoints and functions (not ``load_extension``): no
  ``ATTACH`` (nor ``VACUUM INTO``), no ``PRAGMA``, no table, index, view or trigger made or
  dropped, so the connection's owner keeps its schema and its files;
* a budget of :data:`MAX_STEPS` steps of SQLite's engine and :data:`MAX_SECONDS` per
  statement, values of at most ``LIMITS`` characters, and a deadline: past the deadline the
  statement stops and :class:`Late` is raised, past the budget an ``OperationalError``;
* at most :data:`MAX_ROWS` rows and :data:`MAX_RESULT_CHARS` characters of text come back.

The result is plain data: ``{"rows": [[...], ...], "rowcount", "lastrowid", "description"}``
(the column names). Every other failure is SQLite's own error, for the caller to hand back.

**One authorizer for the connection's life.** SQLite asks the authorizer only while it prepares
a statement, and installing or removing one expires every statement the connection has
prepared (its owner's included, each then prepared again). So on a connection that can be
referred to weakly (a ledger's: :class:`simlab.ledger.sqlite.files.Connection`) the authorizer
is installed once and stays: a :class:`_Guard` that applies the rules above only while
someone else's statement is under way and allows everything otherwise. Python's ``sqlite3``
keeps prepared statements by their SQL text and runs a kept one without asking again, so
someone else's SQL is prepared with :data:`MARK` appended (a comment: it changes no statement's
meaning, and none of the owner's statements ends with it). The two never share a prepared
statement: a statement of the owner's is never run under someone else's text, and one
prepared under the rules is only ever run as someone else's. On any other connection the
authorizer is installed for each statement and removed after it.
"""

from __future__ import annotations

import secrets
import sqlite3
import time
import weakref
from collections.abc import Callable
from typing import Any

__all__ = [
    "run",
    "finish",
    "Late",
    "error_name",
    "error_of",
    "MAX_ROWS",
    "MAX_RESULT_CHARS",
    "MAX_STEPS",
    "MAX_SECONDS",
    "LIMITS",
    "MARK",
]

#: The most rows one statement may return.
MAX_ROWS = 10_000
#: The most characters (of text and blob values) one statement may return.
MAX_RESULT_CHARS = 4_000_000
#: The most steps of SQLite's engine one statement may take, and the most seconds.
MAX_STEPS = 5_000_000
MAX_SECONDS = 1.0
_CHECK_EVERY = 1000  # steps between two looks at the budget
#: SQLite's own limits while someone else's statement runs: the longest text or blob one value
#: may grow to (one allocation, whatever the step budget), and the longest SQL text.
LIMITS = {sqlite3.SQLITE_LIMIT_LENGTH: 200_000, sqlite3.SQLITE_LIMIT_SQL_LENGTH: 100_000}
#: Appended to someone else's SQL text before it is prepared (module doc): a newline ends any
#: line comment of theirs, and a comment with no quote in it closes no string of theirs. The
#: random part makes sure that no statement of the connection's owner ends with it.
MARK = f"\n-- someone else's statement {secrets.token_hex(8)}"
_IN_FORCE = {
    **LIMITS,
    sqlite3.SQLITE_LIMIT_SQL_LENGTH: LIMITS[sqlite3.SQLITE_LIMIT_SQL_LENGTH] + len(MARK),
}

_TABLES = frozenset({"tasks", "effects"})
_ON_TABLE = frozenset(
    {sqlite3.SQLITE_READ, sqlite3.SQLITE_INSERT, sqlite3.SQLITE_UPDATE, sqlite3.SQLITE_DELETE}
)
_ALLOWED = _ON_TABLE | {
    sqlite3.SQLITE_SELECT,
    sqlite3.SQLITE_TRANSACTION,
    sqlite3.SQLITE_SAVEPOINT,
    sqlite3.SQLITE_FUNCTION,
    sqlite3.SQLITE_RECURSIVE,
}
_NO_FUNCTIONS = frozenset({"load_extension"})


class Late(Exception):
    """The statement was stopped at the caller's deadline."""


class _Guard:
    """The authorizer installed once on a connection (module doc): :func:`_authorize` while
    ``someone`` is set, everything allowed otherwise."""

    __slots__ = ("someone",)

    def __init__(self) -> None:
        self.someone = False

    def __call__(self, action: int, arg1: Any, arg2: Any, database: Any, source: Any) -> int:
        if self.someone:
            return _authorize(action, arg1, arg2, database, source)
        return sqlite3.SQLITE_OK


#: The guard of each connection that has one (module doc).
_GUARDS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _guard_of(db: sqlite3.Connection) -> _Guard | None:
    """The connection's guard, installed now if it has none yet; None for a connection that
    cannot be referred to weakly (it gets the authorizer for each statement)."""
    try:
        guard = _GUARDS.get(db)
    except TypeError:
        return None
    if guard is None:
        guard = _Guard()
        db.set_authorizer(guard)
        _GUARDS[db] = guard
    return guard


def _authorize(action: int, arg1: Any, arg2: Any, database: Any, _source: Any) -> int:
    if action not in _ALLOWED:
        return sqlite3.SQLITE_DENY
    if action == sqlite3.SQLITE_READ and database is None:
        return sqlite3.SQLITE_OK  # a common table expression of the statement itself
    if action in _ON_TABLE and (arg1 not in _TABLES or database != "main"):
        return sqlite3.SQLITE_DENY
    if action == sqlite3.SQLITE_FUNCTION and str(arg2).lower() in _NO_FUNCTIONS:
        return sqlite3.SQLITE_DENY
    return sqlite3.SQLITE_OK


def _parameters(params: Any) -> tuple | dict:
    if params is None:
        return ()
    if isinstance(params, (list, tuple)):
        return tuple(params)
    if isinstance(params, dict) and all(isinstance(k, str) for k in params):
        return params
    raise sqlite3.ProgrammingError("parameters are of unsupported type")


def run(db: sqlite3.Connection, sql: Any, parameters: Any, many: bool, deadline: float) -> dict:
    """Execute one statement within bounds (see the module docstring); ``deadline`` is in
    ``time.monotonic()`` time."""
    if not isinstance(sql, str):
        raise sqlite3.ProgrammingError("the SQL of a statement must be a str")
    sql += MARK
    if many:
        if not isinstance(parameters, list) or len(parameters) > MAX_ROWS:
            raise sqlite3.ProgrammingError("executemany takes a list of parameter sets")
        seq = [_parameters(p) for p in parameters]
        return _guarded(db, deadline, lambda: _rows(db.executemany(sql, seq)))
    params = _parameters(parameters)
    return _guarded(db, deadline, lambda: _rows(db.execute(sql, params)))


def finish(db: sqlite3.Connection, commit: bool, deadline: float) -> None:
    """Commit (or roll back) the connection's open transaction, within the same bounds."""
    _guarded(db, deadline, db.commit if commit else db.rollback)


def _rows(cursor: sqlite3.Cursor) -> dict:
    rows: list[list] = []
    chars = 0
    try:
        if cursor.description is not None:
            for batch in iter(lambda: cursor.fetchmany(256), []):
                for row in batch:
                    chars += sum(len(v) for v in row if isinstance(v, (str, bytes)))
                    if len(rows) >= MAX_ROWS or chars > MAX_RESULT_CHARS:
                        raise sqlite3.OperationalError(
                            f"a statement may return at most {MAX_ROWS} rows and "
                            f"{MAX_RESULT_CHARS} characters"
                        )
                    rows.append(list(row))
        names = [d[0] for d in cursor.description] if cursor.description else None
        return {
            "rows": rows,
            "rowcount": cursor.rowcount,
            "lastrowid": cursor.lastrowid,
            "description": names,
        }
    finally:
        cursor.close()


def _guarded(db: sqlite3.Connection, deadline: float, call: Callable[[], Any]) -> Any:
    own = time.monotonic() + MAX_SECONDS
    state = {"steps": 0, "late": False, "over": False}

    def progress() -> int:
        state["steps"] += _CHECK_EVERY
        now = time.monotonic()
        if now > deadline:
            state["late"] = True
            return 1
        state["over"] = state["steps"] > MAX_STEPS or now > own
        return 1 if state["over"] else 0

    before = {limit: db.setlimit(limit, value) for limit, value in _IN_FORCE.items()}
    guard = _guard_of(db)
    if guard is None:
        db.set_authorizer(_authorize)
    else:
        guard.someone = True
    db.set_progress_handler(progress, _CHECK_EVERY)
    try:
        return call()
    except sqlite3.OperationalError:
        if state["late"]:
            raise Late() from None
        if state["over"]:
            raise sqlite3.OperationalError(
                f"the statement ran past {MAX_STEPS} steps of SQLite's engine or {MAX_SECONDS:g} s"
            ) from None
        raise
    finally:
        if guard is None:
            db.set_authorizer(None)
        else:
            guard.someone = False
        db.set_progress_handler(None, 0)
        for limit, value in before.items():
            db.setlimit(limit, value)


def error_name(exc: BaseException) -> str | None:
    """The class name of SQLite's error ``exc`` (None when it is not one)."""
    return type(exc).__name__ if isinstance(exc, sqlite3.Error) else None


def error_of(name: str, message: str) -> Exception:
    """SQLite's error class ``name`` (``sqlite3.Error`` when there is none) with ``message``."""
    cls = getattr(sqlite3, name, None)
    if isinstance(cls, type) and issubclass(cls, sqlite3.Error):
        return cls(message)
    return sqlite3.Error(message)
