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


#: Statements the ledger's owner runs on its connection and someone else may not.
OWNERS_ONLY = [
    "SELECT * FROM schema_migrations",
    "PRAGMA user_version",
    "SELECT name FROM sqlite_master",
]


@pytest.mark.parametrize("sql", OWNERS_ONLY)
def test_is_a_statement_the_owner_prepared_refused_to_someone_else_sending_its_text(ledger, sql):
    # The owner's statement is prepared and kept by its text before and after someone else's
    # turn; the same text sent by someone else must be prepared again, under the rules.
    owners = ledger._db.execute(sql).fetchall()
    for text in (sql, sql + " ", sql + "\n", sql + " -- ", sql + " /* "):
        with pytest.raises(sqlite3.DatabaseError):
            _run(ledger, text)
        assert ledger._db.execute(sql).fetchall() == owners  # the owner's rights are whole
    with pytest.raises(sqlite3.DatabaseError):
        _run(ledger, sql + untrusted.MARK)  # the mark twice is no way round it either


def test_does_someone_elses_allowed_statement_do_only_what_it_did_under_the_rules(ledger):
    text = "SELECT task_id FROM tasks"
    assert _run(ledger, text)["rows"] == [["t1"]]
    assert ledger._db.execute(text).fetchall() == [("t1",)]  # the owner's own, unaffected
    with pytest.raises(sqlite3.DatabaseError):
        _run(ledger, "SELECT task_id FROM tasks UNION SELECT name FROM sqlite_master")
    assert _run(ledger, text)["rows"] == [["t1"]]


@pytest.mark.parametrize(
    ("sql", "verdict"),
    [
        ("SELECT 'x", sqlite3.OperationalError),  # a string left open stays open
        ('SELECT "x', sqlite3.OperationalError),
        ("SELECT 1 /* a comment left open", None),
        ("SELECT 1 -- a line comment", None),
        ("SELECT 1; SELECT name FROM sqlite_master", sqlite3.ProgrammingError),
    ],
)
def test_does_the_mark_leave_the_meaning_of_someone_elses_text_as_it_was(ledger, sql, verdict):
    if verdict is None:
        assert _run(ledger, sql)["rows"] == [[1]]
    else:
        with pytest.raises(verdict):
            _run(ledger, sql)


def test_is_the_rule_kept_on_a_connection_that_gets_the_authorizer_for_each_statement():
    db = sqlite3.connect(":memory:", isolation_level=None)  # a plain connection: no guard kept
    db.execute("CREATE TABLE tasks (task_id TEXT)")
    db.execute("CREATE TABLE secret (x)")
    db.execute("SELECT * FROM secret").fetchall()
    with pytest.raises(sqlite3.DatabaseError):
        untrusted.run(db, "SELECT * FROM secret", (), False, time.monotonic() + 5)
    assert untrusted.run(db, "SELECT * FROM tasks", (), False, time.monotonic() + 5)["rows"] == []
    assert db.execute("SELECT * FROM secret").fetchall() == []
    db.close()


def test_are_the_owners_prepared_statements_kept_across_someone_elses_turn(ledger):
    # Installing or removing an authorizer would expire them (each prepared again, the
    # authorizer asked again): the guard stays installed, asked only while one is prepared.
    _run(ledger, "SELECT 1")
    guard = untrusted._GUARDS[ledger._db]
    asked = []

    class Counting(type(guard)):
        __slots__ = ()

        def __call__(self, *args):
            asked.append(args)
            return super().__call__(*args)

    guard.__class__ = Counting
    own = "SELECT status FROM tasks WHERE task_id = ?"
    for turn in range(3):
        before = len(asked)
        assert ledger._db.execute(own, ("t1",)).fetchall() == [("queued",)]
        assert (len(asked) > before) == (turn == 0)  # prepared on its first run only
        _run(ledger, "SELECT 2")
