"""What only the SQLite ledger has to get right: files, schema, bad paths, durability."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from types import SimpleNamespace

import pytest

from simlab.errors import LedgerError, TerminalTask
from simlab.ledger import SCHEMA_VERSION, Ledger, RacyClaimLedger
from simlab.ledger.sqlite import statements as stmt
from simlab.ledger.sqlite.probes import bare_claim_save


class Clock:
    def __init__(self, now: float = 0.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_does_a_file_ledger_run_in_wal_mode_with_a_busy_timeout(tmp_path):
    with Ledger(tmp_path / "l.sqlite") as ledger:
        assert ledger._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert ledger._db.execute("PRAGMA busy_timeout").fetchone()[0] >= 1000
        assert ledger._db.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL


def test_does_a_task_survive_closing_and_reopening_the_file(tmp_path):
    path = tmp_path / "l.sqlite"
    clock = Clock()
    with Ledger(path, clock=clock) as ledger:
        ledger.submit("t1", tenant="acme", goal={"q": "stock of SKU-1"})
        lease = ledger.claim("t1", "w1", ttl=10)
        assert ledger.save(lease, 1, checkpoint={"evidence": ["doc@v2"]})
    with Ledger(path, clock=clock) as ledger:
        record = ledger.get("t1")
    assert (record.status, record.step, record.epoch, record.tenant) == ("running", 1, 1, "acme")
    assert record.checkpoint == {"evidence": ["doc@v2"]}
    assert record.goal == {"q": "stock of SKU-1"}


def test_are_schema_migrations_numbered_and_recorded(tmp_path):
    path = tmp_path / "l.sqlite"
    Ledger(path, clock=Clock(5.0)).close()
    Ledger(path).close()  # opening again applies nothing twice
    rows = (
        sqlite3.connect(path)
        .execute("SELECT version, applied_at FROM schema_migrations ORDER BY version")
        .fetchall()
    )
    assert rows == [(v, 5.0) for v in range(1, SCHEMA_VERSION + 1)]


def test_is_a_database_from_newer_code_refused_and_left_unchanged(tmp_path):
    path = tmp_path / "l.sqlite"
    with Ledger(path) as ledger:
        ledger.submit("t1")
    db = sqlite3.connect(path)
    db.execute(
        "INSERT INTO schema_migrations VALUES (?, 'from the future', 0)", (SCHEMA_VERSION + 1,)
    )
    db.commit()
    db.close()
    before = path.read_bytes()
    with pytest.raises(LedgerError, match="newer"):
        Ledger(path)
    assert path.read_bytes() == before


def test_is_a_file_that_is_not_sqlite_refused_with_its_path_named(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("these are not the pages you are looking for\n" * 50)
    before = path.read_bytes()
    with pytest.raises(LedgerError, match="notes.txt"):
        Ledger(path)
    assert path.read_bytes() == before


def test_is_a_directory_refused_as_a_ledger_path(tmp_path):
    with pytest.raises(LedgerError, match=str(tmp_path)):
        Ledger(tmp_path)


def test_is_a_bad_max_attempts_refused():
    with pytest.raises(ValueError):
        Ledger(":memory:", max_attempts=0)


def test_does_a_dead_letter_survive_reopening(tmp_path):
    path = tmp_path / "l.sqlite"
    clock = Clock()
    with Ledger(path, clock=clock, max_attempts=1) as ledger:
        ledger.submit("t1")
        ledger.claim("t1", "w1", ttl=1)
        clock.now = 2
        with pytest.raises(TerminalTask):
            ledger.claim("t1", "w2", ttl=1)
    with Ledger(path, clock=clock) as ledger:
        assert ledger.get("t1").status == "dead"


def test_does_the_chapter_two_statement_claim_hand_one_epoch_to_two_workers():
    """The flaw the chapter leaves open, reproduced in one process by interleaving by hand."""
    ledger = RacyClaimLedger(":memory:", clock=Clock())
    ledger.submit("j1")
    ledger.claim_update_only("j1", "w1", ttl=10)  # w1's UPDATE: epoch 1
    ledger.claim_update_only("j1", "w2", ttl=10)  # w2's UPDATE lands before w1's SELECT: epoch 2
    first = ledger.read_claim("j1", "w1")
    second = ledger.read_claim("j1", "w2")
    assert first.epoch == second.epoch == 2  # both believe they own epoch 2
    assert ledger.save(first, 1)
    assert not ledger.save(second, 1)  # the fence cannot tell them apart; only the step saves us


def test_does_the_unfenced_save_let_a_stale_worker_overwrite_its_successor():
    clock = Clock()
    ledger = RacyClaimLedger(":memory:", clock=clock)
    ledger.submit("j1")
    old = ledger.claim("j1", "w1", ttl=1)
    clock.now = 2
    new = ledger.claim("j1", "w2", ttl=10)
    assert ledger.save(new, 2)
    assert not ledger.save(old, 1)  # the real save fences
    assert ledger.save_unfenced(old, 1)  # the broken one does not, and the step goes back
    assert ledger.get("j1").step == 1


def test_does_a_whole_number_lease_deadline_come_back_as_a_float():
    ledger = Ledger(":memory:", clock=Clock(0.0))
    ledger.submit("t1")
    lease = ledger.claim("t1", "w1", ttl=5)
    assert isinstance(lease.lease_until, float) and lease.lease_until == 5.0


def test_can_a_worker_release_its_lease_so_the_next_claim_resumes_at_once():
    clock = Clock()
    ledger = Ledger(":memory:", clock=clock)
    ledger.submit("t1")
    first = ledger.claim("t1", "w1", ttl=100)
    assert ledger.save(first, 1)
    assert ledger.release(first)
    assert ledger.get("t1").status == "queued"
    second = ledger.claim("t1", "w2", ttl=100)  # no waiting for the lease to run out
    assert (second.epoch, second.step) == (2, 1)
    assert not ledger.release(first)  # a stale lease releases nothing
    assert not ledger.save(first, 2)


@pytest.mark.parametrize(
    ("edit", "leave"),
    [
        # a completing save that forgets to complete: the task stays running, no lease
        (
            {"SAVE_DONE": stmt.SAVE_DONE.replace(" status = 'completed',", "")},
            lambda ledger, lease: ledger.save(lease, 1, done=True),
        ),
        # a release that forgets to queue the task again: running, no lease
        (
            {"RELEASE": stmt.RELEASE.replace("status = 'queued', ", "")},
            lambda ledger, lease: ledger.release(lease),
        ),
    ],
    ids=["save-done-keeps-running", "release-keeps-running"],
)
def test_is_a_claim_of_a_row_its_statements_broke_refused_instead_of_tried_for_ever(edit, leave):
    class Edited(Ledger):
        q = SimpleNamespace(**{**vars(stmt), **edit})

    now = [0.0]
    ledger = Edited(":memory:", clock=lambda: now[0])
    ledger.submit("t1")
    leave(ledger, ledger.claim("t1", "w1", 3.0))
    assert (ledger.get("t1").status, ledger.get("t1").lease_until) == ("running", None)
    now[0] = 10.0
    with pytest.raises(LedgerError, match="'t1' is running .* breaks the ledger's own invariants"):
        ledger.claim("t1", "w2", 3.0)


def test_counts_per_status():
    ledger = Ledger(":memory:", clock=Clock())
    for name in ("a", "b", "c"):
        ledger.submit(name)
    ledger.cancel("a")
    ledger.claim("b", "w", ttl=1)
    assert ledger.counts() == {"cancelled": 1, "queued": 1, "running": 1}
    assert [t.task_id for t in ledger.tasks("queued")] == ["c"]


def test_do_the_bare_measures_count_their_writes_toward_the_checkpoints(tmp_path):
    from simlab.ledger.sqlite.probes import raw_update_transaction

    ledger = Ledger(str(tmp_path / "b.sqlite"), clock=Clock())
    for task_id in ["t1", "t2"]:
        ledger.submit(task_id)
    left = ledger._writes_left
    bare_claim_save(ledger, "t1")
    raw_update_transaction(ledger, "t2")
    assert ledger._writes_left == left - 3  # a claim, a save, one raw UPDATE
    ledger.close()


def test_does_the_bare_cycle_really_claim_and_complete_the_task():
    ledger = Ledger(":memory:", clock=Clock())
    ledger.submit("t1")
    assert bare_claim_save(ledger, "t1")
    record = ledger.get("t1")
    assert (record.status, record.step, record.epoch) == ("completed", 1, 1)


def test_does_a_cleared_memory_ledger_answer_as_a_new_one(tmp_path):
    clock = Clock(5.0)
    ledger, new = Ledger(":memory:", clock=clock), Ledger(":memory:", clock=clock)
    ledger.submit("t1")
    lease = ledger.claim("t1", "w1", ttl=10)
    assert ledger.record_effect(lease, "mail-1") and ledger.save(lease, 1, done=True)
    ledger.clear()
    assert ledger.tasks() == [] and ledger.all_effects() == {}
    for each in (ledger, new):  # the same answers, submit order and epochs from the start
        each.submit("t2")
        each.submit("t1")
        lease = each.claim("t1", "w2", ttl=10)
        assert each.record_effect(lease, "mail-1")
    assert ledger.tasks() == new.tasks() and ledger.all_effects() == new.all_effects()
    assert [r.task_id for r in ledger.tasks()] == ["t2", "t1"] and lease.epoch == 1
    with Ledger(tmp_path / "l.sqlite", clock=clock) as durable:
        durable.submit("t1")
        with pytest.raises(ValueError, match="in-memory"):
            durable.clear()
        assert [r.task_id for r in durable.tasks()] == ["t1"]


def test_is_an_in_memory_ledgers_connection_handed_out_with_every_write_committed():
    ledger = Ledger(":memory:", clock=Clock(5.0))
    ledger.submit("t1")
    lease = ledger.claim("t1", "w1", ttl=10)
    assert ledger.record_effect(lease, "mail-1")
    db = ledger._db  # as the grader and a learner's pieces take it
    assert not db.in_transaction
    assert db.execute("SELECT status, epoch FROM tasks").fetchall() == [("running", 1)]
    db.execute("BEGIN IMMEDIATE")  # the holder may open its own transaction
    db.execute("UPDATE tasks SET step = 1")
    db.execute("COMMIT")
    assert ledger.save(lease, 2, done=True)  # and from then on each statement commits
    assert not db.in_transaction
    assert (ledger.get("t1").step, ledger.get("t1").status) == (2, "completed")
    ledger.close()


def test_does_a_learners_piece_that_opens_a_transaction_run_on_an_in_memory_ledger():
    from simlab.learn.pieces import PiecesLedger

    def heartbeat(db, lease, ttl, now):
        db.execute("BEGIN IMMEDIATE")
        changed = db.execute(
            "UPDATE tasks SET lease_until = ? WHERE task_id = ? AND epoch = ?",
            (now + ttl, lease.task_id, lease.epoch),
        ).rowcount
        db.execute("COMMIT")
        return changed == 1

    with PiecesLedger(":memory:", heartbeat=heartbeat, clock=Clock(5.0)) as ledger:
        ledger.submit("t1")
        lease = ledger.claim("t1", "w1", ttl=10)
        assert ledger.heartbeat(lease, 20.0)
        assert ledger.save(lease, 1) and ledger.heartbeat(lease, 30.0)
        assert ledger.get("t1").lease_until == 35.0


def test_does_a_failed_transaction_in_an_in_memory_ledger_undo_only_its_own_steps():
    ledger = Ledger(":memory:", clock=Clock(5.0))
    ledger.submit("t1")
    lease = ledger.claim("t1", "w1", ttl=10)
    assert ledger.record_effect(lease, "mail-1")
    steps = [("DELETE FROM effects", {}), ("DELETE FROM no_such_table", {})]
    with pytest.raises(LedgerError, match="wipe"):
        ledger._in_transaction(steps, "wipe")
    assert [e.key for e in ledger.effects("t1")] == ["mail-1"]  # the delete was undone
    assert ledger.get("t1").epoch == 1  # and the writes before it kept
    assert ledger.save(lease, 1)  # the ledger goes on
    ledger.clear()
    assert ledger.tasks() == []
    ledger.close()


def test_does_an_in_memory_ledger_use_small_pages_and_a_file_the_default(tmp_path):
    from simlab.ledger.sqlite.opening import MEMORY_PAGE_SIZE

    memory, file = Ledger(":memory:", clock=Clock()), Ledger(tmp_path / "l.sqlite", clock=Clock())
    try:
        assert memory._db.execute("PRAGMA page_size").fetchone()[0] == MEMORY_PAGE_SIZE
        default = sqlite3.connect(":memory:").execute("PRAGMA page_size").fetchone()[0]
        assert MEMORY_PAGE_SIZE != default
        assert file._db.execute("PRAGMA page_size").fetchone()[0] == default
        memory.submit("t1")
        copy = memory.backup(tmp_path / "copy.sqlite")  # its small pages make a valid file ledger
    finally:
        memory.close()
        file.close()
    with Ledger(copy, clock=Clock()) as reopened:
        reopened.submit("t2")
        assert [r.task_id for r in reopened.tasks()] == ["t1", "t2"]


def test_does_an_in_memory_ledger_answer_a_claim_and_a_heartbeat_as_one_statement_would():
    from simlab.ledger.sqlite import statements as q
    from simlab.ledger.sqlite.ledger import _SPLIT

    # The claim by ID (both forms) and the heartbeat that reads back its end run in two
    # statements while the ledger keeps its transaction; RETURNING once the connection is out.
    assert set(_SPLIT) == {*q.CLAIM_ONE, q.HEARTBEAT_UNTIL}

    def story(ledger, clock):
        out = []
        for task in ("t1", "t2"):
            ledger.submit(task)
        lease = ledger.claim("t1", "w1", ttl=10)
        out.append(lease)
        clock.now = 7.5
        out += [
            ledger.heartbeat_until(lease, 10),
            ledger.heartbeat_until(replace(lease, epoch=9), 10),
        ]
        out.append(ledger.claim("t2", "w2", ttl=4))
        for who in ("w3", "w4", "w5"):  # a live lease, a claim, then one past max_attempts
            try:
                out.append(ledger.claim("t1", who, ttl=10))
            except Exception as exc:
                out.append(repr(exc))
            clock.now += 20
        return out, ledger.tasks()

    answers = []
    for hand_out in (False, True):
        clock = Clock(5.0)
        with Ledger(":memory:", clock=clock, max_attempts=2) as ledger:
            if hand_out:
                assert ledger._db is not None and not ledger._batching
            else:
                assert ledger._batching
            answers.append(story(ledger, clock))
    assert answers[0] == answers[1]
    assert answers[0][0][1] == 17.5 and answers[0][0][2] is None
    assert "LeaseHeld" in answers[0][0][4] and answers[0][0][5].attempts == 2
    assert "dead" in answers[0][0][6] and answers[0][1][0].status == "dead"


@pytest.mark.parametrize("start", [-10.0, -9.999999999999998, 2.5, 1e15, 1e300])
def test_does_an_in_memory_heartbeat_answer_the_end_its_row_holds(start):
    from simlab.ledger.sqlite import statements as q
    from simlab.ledger.sqlite.ledger import _WRITTEN

    # Only the heartbeat answers without reading its row back: it returns the end it set.
    assert set(_WRITTEN) == {q.HEARTBEAT_UNTIL}
    answer = _WRITTEN[q.HEARTBEAT_UNTIL]
    assert answer({"until": 12.5}) == (12.5,)
    # ends SQLite would not read back as given are read back: NaN (NULL) and a signed zero
    assert answer({"until": float("nan")}) is None and answer({"until": -0.0}) is None
    assert answer({"until": 0.0}) is None and answer({"until": 3}) is None

    ends = []
    for hand_out in (False, True):  # kept transaction (two statements) or RETURNING
        clock = Clock(0.0)
        with Ledger(":memory:", clock=clock) as ledger:
            if hand_out:
                assert ledger._db is not None and not ledger._batching
            ledger.submit("t1")
            lease = ledger.claim("t1", "w1", ttl=10)
            clock.now = start  # an end of 0.0, a tiny one, a whole number, a huge one
            end = ledger.heartbeat_until(lease, 10)
            assert end == ledger.get("t1").lease_until and isinstance(end, float)
            ends.append(repr(end))
    assert ends[0] == ends[1] == repr(start + 10)


def test_does_a_numbered_statement_bind_what_its_named_form_binds():
    from simlab.ledger.sqlite import statements
    from simlab.ledger.sqlite.ledger import _NUMBERED, _numbered

    text, pick = _numbered("UPDATE t SET a = :now, b = :until WHERE id = :task_id AND c = :now")
    assert text == "UPDATE t SET a = ?1, b = ?2 WHERE id = ?3 AND c = ?1"
    assert pick({"task_id": "t1", "until": 2.0, "now": 1.0, "unused": 0}) == (1.0, 2.0, "t1")
    assert _numbered("SELECT 1 FROM tasks WHERE task_id = :task_id")[1]({"task_id": "x"}) == ("x",)
    assert _numbered("SELECT COUNT(*) FROM tasks")[1]({}) == ()
    # every statement the contract runs has its numbered form, with no name left in it
    q = statements
    for sql in (q.SUBMIT, q.SAVE, q.HEARTBEAT, q.GET, *q.CLAIM_ONE, *q.CLAIM_NEXT, q.RECORD_EFFECT):
        numbered, _ = _NUMBERED[sql]
        assert ":" not in numbered and "?1" in numbered
