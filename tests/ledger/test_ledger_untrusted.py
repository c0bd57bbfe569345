"""Does someone else's SQL stay within bounds on a ledger connection
(``simlab.grading.untrusted.sql``), and does the ledger's owner get its connection back as it
was?"""

from __future__ import annotations

import sqlite3
import time

import pytest

from simlab.grading.untrusted import sql as untrusted
from simlab.ledger import Ledger

ENDLESS = "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) SELECT count(*) FROM r"


@pytest.fixture
def ledger():
    with Ledger(":memory:", clock=lambda: 1.0) as ledger:
        ledger.submit("t1")
        yield ledger


def _run(ledger: Ledger, sql: str, params=(), deadline: float | None = None) -> dict:
    deadline = time.monotonic() + 30 if deadline is None else deadline
    return untrusted.run(ledger._db, sql, params, False, deadline)


@pytest.mark.parametrize(
    "sql",
    [
        "ATTACH DATABASE ':memory:' AS other",
        "VACUUM INTO 'copy.sqlite'",
        "PRAGMA writable_schema = ON",
        "SELECT name FROM sqlite_master",
        "CREATE TRIGGER t AFTER UPDATE ON tasks BEGIN DELETE FROM effects; END",
        "CREATE TEMP VIEW v AS SELECT 1",
        "DROP TABLE effects",
        "ALTER TABLE tasks ADD COLUMN x",
        "SELECT load_extension('x')",
        "SELECT * FROM schema_migrations",
        "SELECT zeroblob(1000000000)",
    ],
)
def test_is_everything_but_reading_and_writing_the_ledgers_tables_refused(ledger, sql):
    with pytest.raises(sqlite3.DatabaseError):
        _run(ledger, sql)
    names = {n for (n,) in ledger._db.execute("SELECT name FROM sqlite_master")}
    assert {"tasks", "effects"} <= names and "t" not in names and "v" not in names


def test_do_a_learners_reads_writes_and_transactions_work(ledger):
    _run(ledger, "BEGIN IMMEDIATE")
    got = _run(ledger, "UPDATE tasks SET worker = ? WHERE task_id = ? RETURNING epoch", ("A", "t1"))
    assert got["rows"] == [[0]] and got["description"] == ["epoch"]
    untrusted.finish(ledger._db, True, time.monotonic() + 5)
    with_cte = "WITH t(x) AS (SELECT worker FROM tasks) SELECT x FROM t"
    assert _run(ledger, with_cte)["rows"] == [["A"]]


def test_is_an_endless_statement_stopped_and_a_late_one_reported(ledger):
    started = time.monotonic()
    with pytest.raises(sqlite3.OperationalError, match="steps"):
        _run(ledger, ENDLESS)
    assert time.monotonic() - started <= untrusted.MAX_SECONDS + 0.5
    with pytest.raises(untrusted.Late):
        _run(ledger, ENDLESS, deadline=time.monotonic() + 0.05)


def test_is_a_result_bounded(ledger):
    many = (
        "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r LIMIT 20000)"
        " SELECT x FROM r"
    )
    with pytest.raises(sqlite3.OperationalError, match="at most"):
        _run(ledger, many)


def test_does_the_owner_get_its_connection_back_unguarded(ledger):
    with pytest.raises(sqlite3.DatabaseError):
        _run(ledger, "SELECT zeroblob(1000000000)")
    lease = ledger.claim("t1", "A", 10.0)
    assert ledger.save(lease, 1, checkpoint={"notes": "x" * 900_000})  # the kit's own limit
    assert ledger._db.execute("SELECT count(*) FROM schema_migrations").fetchone()[0] >= 1
    length = sqlite3.SQLITE_LIMIT_LENGTH
    assert ledger._db.getlimit(length) > untrusted.LIMITS[length]
