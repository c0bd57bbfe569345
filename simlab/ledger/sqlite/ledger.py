"""The real task ledger over SQLite, correct across many processes.

Guarantees
----------
* **Atomic claim.** A claim is one ``UPDATE ... RETURNING`` statement: the lease check, the epoch
  bump and the read of the new epoch happen together, so two processes can never both believe
  they hold the same epoch. (The chapter's ``claim`` ran its ``SELECT`` after the ``UPDATE``, in a
  second statement: two processes could both bump, then both read the same latest epoch.)
* **Fenced commit.** ``save`` is one conditional ``UPDATE`` on task ID, epoch and
  ``status='running'``; a worker whose epoch is stale updates zero rows and gets ``False``.
* **Steps only advance.** ``save`` must carry a step greater than the stored one (checked in the
  same ``UPDATE``), so no ``(task, step)`` commit is ever accepted twice and the step never goes
  back. A save that does not advance returns ``False`` and changes nothing: it is a duplicate.
* **Cancellation fences too.** ``cancel`` sets ``cancelled`` and bumps the epoch in one statement,
  so any commit still in flight fails.
* **Nothing is completed unless a save with ``done=True`` landed.** A worker exiting proves nothing.
* **Time comes from ``clock``**, never from SQL's ``CURRENT_TIMESTAMP``, so a simulation can pass
  ``clock=lambda: env.now``.

Concurrency
-----------
Files run in WAL mode with a busy timeout, so readers never block the writer and writers queue
instead of failing. Every write is either a single statement in autocommit mode (atomic on its
own) or a ``BEGIN IMMEDIATE`` transaction, which takes the write lock up front; a deferred
transaction that later upgrades to a write is the classic source of "database is locked" errors
that no busy timeout can fix, and this module never opens one.

An in-memory ledger is private to its one connection: no other connection can see it, so when
its writes commit changes nothing anyone can observe. It therefore keeps one write transaction
open between its statements (each statement is still atomic on its own, and what it wrote is
what every later statement reads), which spares SQLite a commit per statement; for the same
reason it runs a single-row ``UPDATE ... RETURNING`` (the claim by ID, the heartbeat that reads
back its end) as the ``UPDATE`` and then the ``SELECT`` of that row, which nothing can tell
apart and which costs SQLite less than its ``RETURNING``. Whoever takes
the connection itself (``_db``: the grader, a learner's pieces, the probes, a backup) gets it
with that transaction committed, and from then on that ledger commits every statement as a
file ledger does.

``synchronous=NORMAL``: in WAL mode a committed transaction survives a crash of the process (the
case simlab teaches: SIGKILL of a worker); a power loss may roll back the last few commits, never
corrupt the file. ``FULL`` would fsync on every commit and cost an order of magnitude in speed.

Schema
------
Created and upgraded by the numbered :data:`~simlab.ledger.sqlite.schema.MIGRATIONS`, each
recorded in ``schema_migrations``.
Opening a database whose schema is newer than this code raises :class:`LedgerError` and changes
nothing.
"""

from __future__ import annotations

import operator
import os
import re
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

from simlab.errors import LedgerError
from simlab.ledger.arguments import MAX_VALUE_BYTES
from simlab.ledger.arguments import check_ledger_options as _check_ledger_options
from simlab.ledger.core import SqlLedger
from simlab.ledger.sqlite import files
from simlab.ledger.sqlite import statements as stmt
from simlab.ledger.sqlite.opening import prepare, schema_version, stamp
from simlab.ledger.sqlite.schema import MIGRATIONS

__all__ = ["Ledger", "CHECKPOINT_EVERY"]

#: A file ledger checkpoints its write-ahead log after this many of its own writes, then writes
#: its identity into the fresh log (see :mod:`simlab.ledger.sqlite.files`). About as often as
#: SQLite's default automatic checkpoint (1000 pages) for one process.
CHECKPOINT_EVERY = 400
_NEVER = 2**62


def _numbered(sql: str) -> tuple[str, Callable[[dict], tuple]]:
    """``sql`` with its named parameters (``:task_id``) numbered (``?1``), and the function
    that picks their values from a dict of named parameters, in that order. SQLite binds a
    tuple by position without looking up each name as a new string in the dict."""
    names: list[str] = []

    def number(found: re.Match) -> str:
        if found.group(1) not in names:
            names.append(found.group(1))
        return f"?{names.index(found.group(1)) + 1}"

    text = re.sub(r"(?<![:\w]):([A-Za-z_]\w*)", number, sql)
    if not names:
        return text, lambda params: ()
    if len(names) == 1:
        name = names[0]
        return text, lambda params: (params[name],)
    return text, operator.itemgetter(*names)


#: Each statement of the contract (named parameters) -> its numbered form and value picker.
_NUMBERED = {
    sql: _numbered(sql)
    for value in vars(stmt).values()
    for sql in (value if isinstance(value, tuple) else (value,))
    if isinstance(sql, str) and sql.lstrip().split(None, 1)[0] in ("SELECT", "INSERT", "UPDATE")
}


def _split(sql: str) -> tuple[str, tuple[str, Callable[[dict], tuple]]] | None:
    """For an ``UPDATE tasks ... WHERE task_id = :task_id ... RETURNING columns`` (one row at
    most: ``task_id`` is unique), the ``UPDATE`` without its ``RETURNING`` and the numbered
    ``SELECT columns`` of that row with its value picker; None for any other statement."""
    found = re.fullmatch(
        r"\s*(UPDATE tasks\s.*\sWHERE task_id = :task_id(?:\s+AND\s.*)?)\s+RETURNING\s+(.*?)\s*",
        sql,
        re.DOTALL,
    )
    if found is None:
        return None
    update, columns = found.groups()
    return _numbered(update)[0], _numbered(f"SELECT {columns} FROM tasks WHERE task_id = :task_id")


#: Each single-row ``UPDATE ... RETURNING`` of the contract (the claim by ID, the heartbeat that
#: reads back its end) -> the same ``UPDATE`` without ``RETURNING`` and the ``SELECT`` of what it
#: returned. SQLite runs a ``RETURNING`` clause through a temporary table of its rows, which
#: costs more than the statement itself; an in-memory ledger, whose database no other
#: connection sees, runs the two statements back to back inside the transaction it keeps open
#: instead, which nothing can tell from the one statement.
_SPLIT = {sql: parts for sql in _NUMBERED if (parts := _split(sql)) is not None}

#: The columns the schema declares ``REAL``.
_REAL_COLUMNS = frozenset(
    re.findall(r"^\s*(\w+)\s+REAL\b", "\n".join(script for _, script in MIGRATIONS), re.MULTILINE)
)


def _written(sql: str) -> Callable[[dict], tuple | None] | None:
    """For a split statement (:data:`_SPLIT`) that returns only ``REAL`` columns its ``UPDATE``
    sets each to a parameter (the heartbeat's lease end), the function that answers, from a
    dict of named parameters, the row its ``SELECT`` would read back right after the
    ``UPDATE`` changed the row: those parameters' values when each is a float SQLite keeps as
    it is (not NaN, which it stores as NULL, and not a zero, whose sign it may drop), else None
    (the ``SELECT`` then runs). None for any other statement."""
    found = re.fullmatch(
        r"\s*UPDATE tasks\s+SET\s+(.*?)\s+WHERE\s.*\sRETURNING\s+(.*?)\s*", sql, re.DOTALL
    )
    if found is None:
        return None
    assigned = dict(re.findall(r"(\w+)\s*=\s*:(\w+)\s*(?:,|$)", found.group(1)))
    columns = [c.strip() for c in found.group(2).split(",")]
    if not all(c in _REAL_COLUMNS and c in assigned for c in columns):
        return None
    names = tuple(assigned[c] for c in columns)

    def row(params: dict) -> tuple | None:
        values = tuple(params[name] for name in names)
        kept = all(v.__class__ is float and v == v and v != 0.0 for v in values)
        return values if kept else None

    if len(names) > 1:
        return row
    (name,) = names

    def one(params: dict) -> tuple | None:  # row() for the one column a heartbeat returns
        v = params[name]
        return (v,) if v.__class__ is float and v == v and v != 0.0 else None

    return one


#: Each split statement whose returned row is the values of its own parameters -> the function
#: that answers that row (:func:`_written`).
_WRITTEN = {sql: known for sql in _SPLIT if (known := _written(sql)) is not None}


class Ledger(SqlLedger):
    """The durable task ledger over one SQLite database (``":memory:"`` or a file path).

    Many processes may open the same file at once. One ``Ledger`` object belongs to one thread.
    Bad arguments raise ``ValueError``/``TypeError`` (:mod:`simlab.ledger.arguments`) and change
    nothing; every failure of SQLite itself is a :class:`LedgerError` naming the path. Opening
    follows :mod:`simlab.ledger.sqlite.files` and :mod:`simlab.ledger.sqlite.opening`: another
    program's database, a dangling symlink, a read-only file or folder and a foreign ``-wal``
    are refused before anything is written. The contract's flow is
    :class:`~simlab.ledger.core.SqlLedger`; this class is its SQLite dialect (statements,
    connection, schema, errors).
    """

    q = stmt

    def __init__(
        self,
        path: str | Path,
        *,
        clock: Callable[[], float] = time.time,
        max_attempts: int | None = None,
        busy_timeout: float = 60.0,
        max_value_bytes: int = MAX_VALUE_BYTES,
    ):
        _check_ledger_options(clock, max_attempts, max_value_bytes, (busy_timeout, "busy_timeout"))
        if not isinstance(path, (str, os.PathLike)):
            raise TypeError(f"path must be a file path or ':memory:', got {path!r}")
        self.path = str(path)
        self.clock = clock
        self.max_attempts = max_attempts
        self.max_value_bytes = max_value_bytes
        self._conn, _, self._file = files.connect(self.path, busy_timeout)
        try:
            self._identity = prepare(self._conn, self.path, clock)
        except sqlite3.Error as exc:
            self.close()
            raise LedgerError(f"cannot open ledger {self.path!r}: {exc}") from None
        except LedgerError:
            self.close()
            raise
        self._writes_left = _NEVER if self.path == ":memory:" else CHECKPOINT_EVERY
        #: every statement of the contract runs on this one cursor (each is run to completion
        #: before the next): ``Connection.execute`` would make a new cursor for every call
        self._cursor = self._conn.cursor()
        if self.path == ":memory:":
            self._conn.execute("BEGIN IMMEDIATE")
            self._batching = True

    #: True while an in-memory ledger keeps its write transaction open between statements
    #: (module doc); it then always is in that transaction.
    _batching = False

    @property
    def _db(self) -> sqlite3.Connection:
        """The connection, for code beyond the contract's statements: an in-memory ledger
        first commits the transaction it keeps open and stops keeping one (module doc), so the
        holder finds a connection in autocommit mode with every write committed."""
        if self._batching:
            self._batching = False
            if self._conn.in_transaction:
                self._conn.execute("COMMIT")
        return self._conn

    @_db.setter
    def _db(self, conn: sqlite3.Connection) -> None:
        self._batching = False
        self._conn = conn

    def close(self) -> None:
        """Close the connection (committed work is durable); the file is no longer held. An
        in-memory ledger's open transaction goes with its database."""
        try:
            self._conn.close()
        finally:
            files.release(self._file)
            self._file = None

    def clear(self) -> None:
        """Delete every task and recorded effect of an in-memory ledger, which then answers as a
        new one (submit order starts again); the connection and its prepared statements are
        kept, so a search that runs thousands of short simulations pays for neither again.
        Refused (``ValueError``) for a file: a durable ledger is never emptied."""
        if self.path != ":memory:":
            raise ValueError(f"clear() empties only an in-memory ledger, not {self.path!r}")
        self._in_transaction([(sql, {}) for sql in self.q.CLEAR], "clear")

    @property
    def schema_version(self) -> int:
        return schema_version(self._conn) or 0

    def _failed(self, exc: sqlite3.Error) -> LedgerError:
        """SQLite's error as a :class:`LedgerError` naming the file."""
        self._after_error()
        return LedgerError(f"ledger {self.path!r}: {exc}")

    def _after_error(self) -> None:
        """An error that ended the transaction an in-memory ledger keeps open (SQLite rolls
        the whole transaction back on a few, such as running out of memory) ends its keeping
        one: from then on each statement commits on its own."""
        if self._batching and not self._conn.in_transaction:
            self._batching = False

    def _wal_checkpoint(self) -> None:
        """Checkpoint the log, then put page 1 (the identity) into the log that follows."""
        self._writes_left = CHECKPOINT_EVERY
        try:
            self._db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
            stamp(self._db, self._identity)
        except sqlite3.Error as exc:
            raise self._failed(exc) from None

    def backup(self, dest: str | Path) -> Path:
        """Copy this ledger to the new file ``dest``, consistently, while others write.

        SQLite's online backup API (:func:`simlab.ledger.sqlite.files.backup`). ``dest`` must not
        exist. The copy is a complete ledger in one file, with its own identity.
        """
        return files.backup(self._db, self.path, dest)

    def __repr__(self) -> str:
        return f"Ledger({self.path!r})"

    # -- the dialect: how one statement runs ----------------------------------------------------

    def _rows(self, sql: str, params: dict) -> list[tuple]:
        """All rows of one statement (run to completion, so a write is done before we return);
        SQLite's errors as :class:`LedgerError`. A statement of the contract runs in its
        numbered form."""
        numbered = _NUMBERED.get(sql)
        try:
            if numbered is None:
                return self._cursor.execute(sql, params).fetchall()
            if self._batching and sql in _SPLIT:
                update, (select, pick) = _SPLIT[sql]
                if self._cursor.execute(update, numbered[1](params)).rowcount != 1:
                    return []
                written = _WRITTEN.get(sql)
                if written is not None and (row := written(params)) is not None:
                    return [row]  # what the SELECT would read: the row holds what was set
                return self._cursor.execute(select, pick(params)).fetchall()
            return self._cursor.execute(numbered[0], numbered[1](params)).fetchall()
        except sqlite3.Error as exc:
            raise self._failed(exc) from None

    def _count(self, sql: str, params: dict) -> int:
        """Rows changed by one statement; SQLite's errors as :class:`LedgerError`."""
        numbered = _NUMBERED.get(sql)
        try:
            if numbered is None:
                return self._cursor.execute(sql, params).rowcount
            return self._cursor.execute(numbered[0], numbered[1](params)).rowcount
        except sqlite3.Error as exc:
            raise self._failed(exc) from None

    def _in_transaction(self, steps: list[tuple[str, dict]], what: str) -> list[int]:
        """``BEGIN IMMEDIATE`` (the write lock up front), the steps, ``COMMIT``; any failure
        rolls back. Inside the transaction an in-memory ledger keeps open, a savepoint does
        that part. SQLite's errors as :class:`LedgerError` naming the file and ``what``."""
        db = self._conn
        if self._batching:
            begin, end, undo = "SAVEPOINT steps", "RELEASE steps", "ROLLBACK TO steps"
        else:
            begin, end, undo = "BEGIN IMMEDIATE", "COMMIT", "ROLLBACK"
        try:
            db.execute(begin)
            try:
                counts = [db.execute(sql, params).rowcount for sql, params in steps]
                db.execute(end)
            except BaseException:
                db.execute(undo)
                if self._batching:
                    db.execute(end)
                raise
        except sqlite3.Error as exc:
            self._after_error()
            raise LedgerError(f"ledger {self.path!r}: {what}: {exc}") from None
        return counts

    def _wrote(self) -> None:
        """Count one write; every :data:`CHECKPOINT_EVERY` writes, checkpoint and stamp."""
        self._writes_left -= 1
        if self._writes_left <= 0:
            self._wal_checkpoint()
