"""Does the grader observe while the jail only acts? The grader's ledgers, mailboxes and work,
lent to a learner's calls (:mod:`simlab.grading.lending`), seen from both sides.

A learner's piece runs in the sandbox, but the ledger it changes is the grader's: these tests
judge what the grader's own ledger holds afterwards, what the learner's code could reach through
its stand-ins, and that nothing a notebook replaces in its sandbox changes what the grader sees.
"""

from __future__ import annotations

import sqlite3
import time

import pytest

from simlab.grading.checks.leases.driving import Clock
from simlab.grading.checks.leases.scripted import MAX_CALLS, ScriptedWork
from simlab.grading.lending import Lent
from simlab.grading.sandbox.supervisor import RemoteError, Sandbox, SandboxLost
from simlab.grading.student import Student, WrongType
from simlab.ledger import Ledger
from simlab.records import Lease
from simlab.sim.mailbox import Mailbox

pytestmark = pytest.mark.jail

SETUP = """
import json, sqlite3
from simlab.errors import LeaseHeld, TerminalTask, UnknownTask
from simlab.records import Lease

LEASE_COLUMNS = "task_id, worker, epoch, step, lease_until, checkpoint, attempts"

def lease_from_row(row):
    task_id, worker, epoch, step, lease_until, checkpoint, attempts = row
    checkpoint = None if checkpoint is None else json.loads(checkpoint)
    return Lease(task_id, worker, epoch, step, float(lease_until), checkpoint, attempts)
"""


@pytest.fixture
def box():
    with Sandbox(timeout=5) as sandbox:
        assert sandbox.exec_cell(0, SETUP).status == "ok"
        yield sandbox


def _define(box: Sandbox, source: str) -> Student:
    result = box.exec_cell(1, source)
    assert result.status == "ok", result.detail
    return Student(box)


def test_does_a_learners_sql_reach_only_the_ledgers_tables(box, tmp_path):
    copy = tmp_path / "copy.sqlite"
    s = _define(
        box,
        f"""
REFUSED = []

def claim(db, task_id, worker, ttl, now):
    for sql in ("ATTACH DATABASE ':memory:' AS other", "VACUUM INTO {str(copy)!r}",
                "PRAGMA writable_schema = ON", "SELECT sql FROM sqlite_master",
                "CREATE TRIGGER t AFTER UPDATE ON tasks BEGIN DELETE FROM effects; END",
                "CREATE TEMP TABLE mine (x)", "DROP TABLE effects",
                "SELECT * FROM pragma_table_info('tasks')", "SELECT load_extension('x')",
                "SELECT zeroblob(1000000000)"):
        try:
            db.execute(sql)
        except sqlite3.DatabaseError as exc:
            REFUSED.append(sql.split()[0])
    return len(REFUSED)

def count():
    return REFUSED
""",
    )
    ledger = s.ledger(clock=Clock(), claim="claim")
    ledger.submit("t1")
    with pytest.raises(WrongType):  # the claim answered how many statements were refused
        ledger.claim("t1", "A", 10.0)
    assert len(s.call("count")) == 10
    assert not copy.exists()
    tables = ledger.raw._db.execute("SELECT name FROM sqlite_master ORDER BY name").fetchall()
    assert ("effects",) in tables and not any("t" == name for (name,) in tables)
    assert ledger.get("t1").status == "queued"


def test_is_an_endless_query_stopped_within_its_budget(box):
    s = _define(
        box,
        """
ENDLESS = ("WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r)"
           " SELECT count(*) FROM r")

def claim(db, task_id, worker, ttl, now):
    try:
        db.execute(ENDLESS)
    except sqlite3.OperationalError as exc:
        raise ValueError(str(exc))

def heartbeat(db, lease, ttl, now):
    while True:  # retries the endless query until the call's deadline
        try:
            db.execute(ENDLESS)
        except sqlite3.OperationalError:
            pass
""",
    )
    ledger = s.ledger(clock=Clock(), claim="claim", heartbeat="heartbeat")
    ledger.submit("t1")
    started = time.monotonic()
    with pytest.raises(ValueError, match="steps"):
        ledger.claim("t1", "A", 10.0)
    assert time.monotonic() - started < 4.0
    lease = Lease("t1", "A", 1, 0, 10.0, None, 1)
    with pytest.raises(SandboxLost, match="did not finish within"):
        ledger.heartbeat(lease, 10.0)
    assert time.monotonic() - started < 12.0


def test_are_sqlite_and_kit_errors_raised_as_themselves_in_the_learners_code(box):
    s = _define(
        box,
        """
def record_effect(db, lease, key, now):
    row = (lease.task_id, key, lease.epoch, lease.worker, now)
    db.execute("INSERT INTO effects (task_id, key, epoch, worker, recorded_at)"
               " VALUES (?, ?, ?, ?, ?)", row)
    try:
        db.execute("INSERT INTO effects (task_id, key, epoch, worker, recorded_at)"
                   " VALUES (?, ?, ?, ?, ?)", row)
    except sqlite3.IntegrityError:
        return db.execute("SELECT count(*) FROM effects").fetchone()[0] == 1
    return False

def run_task(ledger, task_id, worker, work, steps, ttl=30.0):
    ledger.claim(task_id, worker, ttl)
    try:
        ledger.claim(task_id, "other", ttl)
    except LeaseHeld as held:
        return [held.worker, work(0), hasattr(ledger, "after_save"), hasattr(ledger, "_db")]
""",
    )
    clock = Clock()
    ledger = s.ledger(clock=clock, record_effect="record_effect")
    ledger.submit("t1")
    lease = ledger.claim("t1", "A", 10.0)
    assert ledger.record_effect(lease, "k") is True
    assert [e.key for e in ledger.effects("t1")] == ["k"]
    kit = Ledger(":memory:", clock=clock)
    kit.submit("t2")
    calls = []
    work = Lent(lambda step: calls.append(step) or f"out-{step}", "Work")
    answer = s.call("run_task", Lent(kit, "Ledger"), "t2", "w1", work, 1)
    assert answer == ["w1", "out-0", False, False]
    assert calls == [0] and kit.get("t2").worker == "w1"


def test_is_a_stand_in_refused_once_its_call_is_over(box):
    s = _define(
        box,
        """
KEPT = []

def send_step(ledger, lease, step, mailbox):
    KEPT.extend([ledger, mailbox])
    return True

def later():
    out = []
    for obj, call in ((KEPT[0], lambda o: o.get("t1")), (KEPT[1], lambda o: o.send("k"))):
        try:
            call(obj)
            out.append("used")
        except Exception as exc:
            out.append(type(exc).__name__)
    return out
""",
    )
    kit, mailbox = Ledger(":memory:"), Mailbox()
    kit.submit("t1")
    lease = kit.claim("t1", "A", 10.0)
    assert s.call("send_step", Lent(kit, "Ledger"), lease, 0, Lent(mailbox, "Mailbox")) is True
    assert s.call("later") == ["ProgrammingError", "ProgrammingError"]
    assert mailbox.received == {}


def test_does_replacing_the_stand_ins_in_the_sandbox_gain_nothing(box):
    s = _define(
        box,
        """
import simlab.grading.sandbox.remote as remote

class _Forged:
    rowcount = 1
    def fetchone(self):
        return ("t1", "A", 1, 0, 10.0, None, 1)

remote.Connection.execute = lambda self, sql, params=(): _Forged()
remote.GraderObject.__call__ = lambda self, *a, **k: "output"

def claim(db, task_id, worker, ttl, now):
    return lease_from_row(db.execute("UPDATE tasks SET ...").fetchone())

def run_task(ledger, task_id, worker, work, steps, ttl=30.0):
    return work(0)
""",
    )
    ledger = s.ledger(clock=Clock(), claim="claim")
    ledger.submit("t1")
    with pytest.raises(SandboxLost) as lost:  # the sandbox sees its kit code replaced...
        ledger.claim("t1", "A", 10.0)
    assert lost.value.kind == "tampered", lost.value
    assert "simlab.grading.sandbox.remote.Connection.execute" in lost.value.reason
    stored = ledger.get("t1")  # ...and the grader's own ledger holds what it did
    assert (stored.status, stored.epoch, stored.worker) == ("queued", 0, None)


def test_is_a_callback_outside_any_lent_call_refused_and_the_sandbox_kept(box):
    s = _define(
        box,
        """
import simlab.grading.sandbox.remote as remote

def ask_unlent():
    try:
        remote.GraderObject(1, "Ledger").get("t1")
    except Exception as exc:
        return type(exc).__name__
""",
    )
    assert s.call("ask_unlent") == "ProgrammingError"
    assert box.alive
    with pytest.raises(RemoteError):
        box.call("no_such_function")
    assert sqlite3.sqlite_version  # the grader's own SQLite still works as before


def test_does_the_grader_keep_only_bounded_traces_of_what_a_learner_sends(box):
    s = _define(
        box,
        """
def run_task(ledger, task_id, worker, work, steps, ttl=30.0):
    try:
        for _ in range(2000):
            work(list(range(100)))
    except ValueError as exc:
        return str(exc)

def send_step(ledger, lease, step, mailbox):
    try:
        mailbox.send("k" * 100_000)
    except ValueError as exc:
        return str(exc)
""",
    )
    work = ScriptedWork("unused.sqlite", "t1", {}, Clock(), output=str)
    answer = s.call(
        "run_task", Lent(Ledger(":memory:"), "Ledger"), "t1", "w", Lent(work, "Work"), 1
    )
    assert "more than" in answer
    assert len(work.calls) == MAX_CALLS and set(work.calls) == {"<list>"}
    mailbox = Mailbox()
    lease = Lease("t1", "A", 1, 0, 10.0, None, 1)
    said = s.call(
        "send_step", Lent(Ledger(":memory:"), "Ledger"), lease, 0, Lent(mailbox, "Mailbox")
    )
    assert "at most" in said and mailbox.received == {}


def test_does_a_call_asked_while_answering_another_end_with_it(box):
    """The grader may call the learner's code while it answers a callback (a second worker's
    claim in a race); that call ends by the first one's deadline, not a fresh one."""
    s = _define(
        box,
        """
import time

def send_step(ledger, lease, step, mailbox):
    time.sleep(4.0)
    return ledger.record_effect(lease, f"k{step}")

def record_effect(db, lease, key, now):
    time.sleep(20.0)
    return False
""",
    )
    ledger = s.ledger(clock=Clock(), record_effect="record_effect")
    ledger.submit("t1")
    lease = ledger.claim("t1", "A", 10.0)
    started = time.monotonic()
    with pytest.raises(SandboxLost, match="send_step"):
        s.call("send_step", Lent(ledger.raw, "Ledger"), lease, 0, Lent(Mailbox(), "Mailbox"))
    assert time.monotonic() - started < 6.5


def test_is_the_learners_code_asked_once_per_input_and_a_lost_sandbox_never_kept():
    from simlab.grading.student import asked_once

    calls: list[tuple] = []
    lost = [False, True]  # lost the first time only

    def learner(x, y):
        calls.append((x, y))
        if x == "lost" and lost.pop():
            raise SandboxLost("gone")
        if x == "bad":
            raise ValueError(f"bad {y}")
        return [x, y]

    ask = asked_once(learner)
    assert ask(1, 2) == [1, 2] and ask(1, 2) == [1, 2] and ask(2, 1) == [2, 1]
    for _ in range(2):
        with pytest.raises(ValueError, match="bad 3"):
            ask("bad", 3)
    with pytest.raises(SandboxLost):
        ask("lost", 0)
    assert ask("lost", 0) == ["lost", 0]  # asked again: the lost sandbox was no answer
    assert calls == [(1, 2), (2, 1), ("bad", 3), ("lost", 0), ("lost", 0)]
    by_sum = asked_once(learner, key=lambda x, y: x + y)
    assert by_sum(1, 2) == [1, 2] and by_sum(2, 1) == [1, 2]  # the same key, the first answer


def test_do_answers_asked_ahead_in_one_request_equal_those_asked_one_at_a_time(box):
    """Inputs asked ahead (``ahead``: one request for several calls) keep, in their order, the
    answers one call each gives: the values before the first call that raised, that call's
    error for its input, and nothing for the inputs after it, which are asked one at a time
    when a part needs them (so the learner's code sees the calls in the same order)."""
    from simlab.grading.student import asked_once

    s = _define(
        box,
        """
SEEN = []

def guard(x):
    SEEN.append(x)
    if x == "bad":
        raise ValueError("bad input")
    return [x, len(SEEN)]
""",
    )
    guard = s.function("guard")
    ask = asked_once(guard, each=guard.each)
    ask.ahead([("a",), ("b",), ("a",), ("bad",), ("c",)])
    assert s.sandbox.get("SEEN") == ["a", "b", "bad"]
    assert ask("b") == ["b", 2] and ask("a") == ["a", 1]  # kept: not asked again
    with pytest.raises(ValueError, match="bad input"):
        ask("bad")
    assert ask("c") == ["c", 4]  # after the error: asked on its own
    ask.ahead([("a",), ("c",)])  # every one asked already: no request
    assert s.sandbox.get("SEEN") == ["a", "b", "bad", "c"]
    plain = asked_once(guard)
    plain.ahead([("d",)])  # no batch given: asks nothing ahead
    assert s.sandbox.get("SEEN") == ["a", "b", "bad", "c"] and plain("d") == ["d", 5]
