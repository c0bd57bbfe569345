"""What only the PostgreSQL ledger has to prove: opening and migrating a shared database, the
claim's SKIP LOCKED pick, the fence and the effect record under real concurrent transactions,
clear errors and ``connect()``'s dispatch.

The contract itself (every method, result and refusal) runs on PostgreSQL in
``test_ledger_contract.py``; these tests use a second, raw connection to hold row locks the way
another machine's worker would.
"""

from __future__ import annotations

import re
import threading
import time
from pathlib import Path

import psycopg
import pytest

from simlab.errors import LedgerError
from simlab.ledger import (
    Ledger,
    PostgresLedger,
    PostgresRacyClaimLedger,
    RacyClaimLedger,
    connect,
)
from simlab.ledger.connect import redact, remove_probe
from simlab.ledger.memory import MemoryLedger
from simlab.ledger.postgres import statements as pg_statements
from simlab.ledger.postgres.schema import PG_MIGRATIONS, PG_SCHEMA_VERSION
from simlab.records import PROBE_TENANT, Lease

TTL = 10.0


def tables(url: str) -> list[str]:
    with psycopg.connect(url, autocommit=True) as db:
        rows = db.execute(
            "SELECT table_name FROM information_schema.tables"
            " WHERE table_schema = current_schema() ORDER BY 1"
        ).fetchall()
    return [name for (name,) in rows]


# -- connect() ---------------------------------------------------------------------------------


def test_does_connect_pick_the_engine_from_the_target(tmp_path, fresh_postgres):
    url = fresh_postgres()
    with connect(url) as pg, connect(":memory:") as memory, connect(tmp_path / "a.sqlite") as f:
        assert type(pg) is PostgresLedger and type(memory) is Ledger and type(f) is Ledger
    with connect(f"sqlite:///{tmp_path}/b.sqlite") as absolute:
        assert absolute.path == f"{tmp_path}/b.sqlite"
    with connect(url, chapter=True) as a, connect(":memory:", chapter=True) as b:
        assert type(a) is PostgresRacyClaimLedger and type(b) is RacyClaimLedger


def test_does_connect_pass_the_clock_and_max_attempts_through(fresh_postgres, tmp_path):
    with connect(fresh_postgres(), clock=lambda: 42.0, max_attempts=1) as ledger:
        ledger.submit("j1")
        assert ledger.claim("j1", "w1", TTL).lease_until == 52.0
        assert ledger.max_attempts == 1
    for target in (fresh_postgres(), str(tmp_path / "jobs.sqlite")):
        with connect(target, max_value_bytes=10) as ledger:
            with pytest.raises(ValueError, match="goal"):
                ledger.submit("j1", goal="x" * 9)
            assert ledger.tasks() == []


@pytest.mark.parametrize("target", ["mysql://db/jobs", "", "sqlite:///", 7])
def test_is_a_target_that_names_no_engine_refused(target):
    with pytest.raises(ValueError):
        connect(target)


# -- schema ------------------------------------------------------------------------------------


def test_does_the_first_open_create_the_schema_by_numbered_migrations(fresh_postgres):
    url = fresh_postgres()
    assert tables(url) == []
    with PostgresLedger(url, clock=lambda: 5.0) as ledger:
        assert ledger.schema_version == PG_SCHEMA_VERSION
    assert tables(url) == ["simlab_effects", "simlab_migrations", "simlab_tasks"]
    with psycopg.connect(url) as db:
        rows = db.execute("SELECT version, name, applied_at FROM simlab_migrations").fetchall()
    assert rows == [(n, name, 5.0) for n, (name, _) in enumerate(PG_MIGRATIONS, start=1)]
    with PostgresLedger(url) as again:  # a second open migrates nothing
        assert again.schema_version == PG_SCHEMA_VERSION


def test_do_processes_opening_a_new_database_at_once_all_succeed(fresh_postgres):
    url = fresh_postgres()
    outcomes: list[object] = []

    def open_one() -> None:
        try:
            with PostgresLedger(url) as ledger:
                outcomes.append(ledger.schema_version)
        except Exception as exc:  # noqa: BLE001 -- the test reports it
            outcomes.append(exc)

    threads = [threading.Thread(target=open_one) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert outcomes == [PG_SCHEMA_VERSION] * 6


def test_is_a_newer_schema_refused_without_writing_anything(fresh_postgres):
    url = fresh_postgres()
    with PostgresLedger(url) as ledger:
        ledger.submit("j1")
    with psycopg.connect(url, autocommit=True) as db:
        db.execute("INSERT INTO simlab_migrations VALUES (%s, 'from the future', 0)", (99,))
        before = db.execute("SELECT * FROM simlab_tasks").fetchall()
    with pytest.raises(LedgerError, match="schema version 99, newer than this simlab"):
        PostgresLedger(url)
    with psycopg.connect(url) as db:
        assert db.execute("SELECT * FROM simlab_tasks").fetchall() == before


def test_is_a_foreign_table_with_our_name_reported_as_a_ledger_error(fresh_postgres):
    url = fresh_postgres()
    with psycopg.connect(url, autocommit=True) as db:
        db.execute("CREATE TABLE simlab_tasks (id INTEGER)")
    with pytest.raises(LedgerError, match="not a usable simlab ledger"):
        PostgresLedger(url)
    assert tables(url) == ["simlab_tasks"]  # the failed migration was rolled back


def test_is_a_search_path_naming_no_schema_refused(postgres_server):
    from simlab.ledger.postgres.probes import with_schema

    with pytest.raises(LedgerError, match="no schema of the search_path exists"):
        PostgresLedger(with_schema(postgres_server, "no_such_schema"))


def test_does_no_statement_read_the_servers_clock():
    sql = [v for k, v in vars(pg_statements).items() if isinstance(v, str) and k.isupper()]
    text = " ".join(sql).lower()
    assert "update simlab_tasks" in text
    assert not re.search(r"now\(\)|current_timestamp|clock_timestamp|localtimestamp", text)


# -- concurrency: what another machine's transaction does to ours -------------------------------


def test_does_claim_next_skip_a_task_another_transaction_holds_locked(fresh_postgres):
    url = fresh_postgres()
    with PostgresLedger(url) as ledger, psycopg.connect(url) as other:
        for task_id in ["a", "b"]:
            ledger.submit(task_id)
        other.execute("SELECT 1 FROM simlab_tasks WHERE task_id = 'a' FOR UPDATE")
        started = time.monotonic()
        assert ledger.claim_next("w1", TTL).task_id == "b"  # not blocked behind 'a'
        assert time.monotonic() - started < 2
        assert ledger.claim_next("w1", TTL) is None
        other.rollback()
        assert ledger.claim_next("w1", TTL).task_id == "a"


def _in_thread(call):
    box: dict = {}
    thread = threading.Thread(target=lambda: box.update(value=call()))
    thread.start()
    return thread, box


@pytest.mark.parametrize("action", ["save", "record_effect", "heartbeat"])
def test_does_a_write_waiting_on_a_takeover_see_the_new_epoch(fresh_postgres, action):
    """Another worker's claim (epoch + 1) is in flight while ours writes: ours waits for the
    row, then checks the epoch on the row as committed, and changes nothing."""
    url = fresh_postgres()
    with PostgresLedger(url) as ledger, psycopg.connect(url) as other:
        ledger.submit("j1")
        lease = ledger.claim("j1", "w1", TTL)
        other.execute(
            "UPDATE simlab_tasks SET epoch = epoch + 1, worker = 'w2' WHERE task_id = 'j1'"
        )
        with PostgresLedger(url) as mine:  # the write runs on its own connection
            calls = {
                "save": lambda: mine.save(lease, 1, result="stale", done=True),
                "record_effect": lambda: mine.record_effect(lease, "email:1"),
                "heartbeat": lambda: mine.heartbeat(lease, TTL),
            }
            thread, box = _in_thread(calls[action])
            time.sleep(0.3)
            assert thread.is_alive(), "the write did not wait for the row lock"
            other.commit()
            thread.join(timeout=10)
        assert box["value"] is False
        record = ledger.get("j1")
        assert (record.status, record.step, record.result, record.epoch) == ("running", 0, None, 2)
        assert ledger.effects("j1") == []


def test_does_a_cancel_wait_for_an_effect_being_recorded_and_fence_after_it(fresh_postgres):
    """An effect recorded for the current epoch holds the row (FOR SHARE) until it commits; a
    cancel waits for it, so the record and the fence are ordered, never interleaved."""
    url = fresh_postgres()
    with PostgresLedger(url) as ledger, psycopg.connect(url) as other:
        ledger.submit("j1")
        lease = ledger.claim("j1", "w1", TTL)
        other.execute(
            pg_statements.RECORD_EFFECT,
            {"key": "email:1", "worker": "w1", "now": 1.0, "task_id": "j1", "epoch": lease.epoch},
        )
        with PostgresLedger(url) as canceller:
            thread, box = _in_thread(lambda: canceller.cancel("j1"))
            time.sleep(0.3)
            assert thread.is_alive(), "the cancel did not wait for the effect's row lock"
            other.commit()
            thread.join(timeout=10)
        assert box["value"] is True
        assert [e.key for e in ledger.effects("j1")] == ["email:1"]
        assert not ledger.record_effect(lease, "email:2")


# -- errors --------------------------------------------------------------------------------------


def test_is_an_unreachable_server_a_ledger_error_without_the_password():
    url = "postgresql://app:s3cret@127.0.0.1:1/jobs"
    with pytest.raises(LedgerError) as caught:
        PostgresLedger(url, connect_timeout=2)
    assert "s3cret" not in str(caught.value) and "app:***@127.0.0.1:1" in str(caught.value)


def test_does_redact_hide_every_password():
    assert redact("postgresql://u:pw@h/db") == "postgresql://u:***@h/db"
    assert redact("postgresql://h/db?password=pw&sslmode=off") == (
        "postgresql://h/db?password=***&sslmode=off"
    )
    assert redact("postgresql://u@h:5/db") == "postgresql://u@h:5/db"


def test_is_a_lost_connection_a_ledger_error(fresh_postgres):
    ledger = PostgresLedger(fresh_postgres())
    ledger.submit("j1")
    ledger.close()
    with pytest.raises(LedgerError):
        ledger.get("j1")


GONE_LEASE = Lease("j1", "w1", 1, 0, 1e12)
CALLS_ON_A_CLOSED_LEDGER = {
    "submit": lambda lg: lg.submit("j2"),
    "claim": lambda lg: lg.claim("j1", "w1", TTL),
    "claim_next": lambda lg: lg.claim_next("w1", TTL),
    "heartbeat": lambda lg: lg.heartbeat(GONE_LEASE, TTL),
    "save": lambda lg: lg.save(GONE_LEASE, 1, result="x", done=True),
    "release": lambda lg: lg.release(GONE_LEASE),
    "cancel": lambda lg: lg.cancel("j1"),
    "requeue": lambda lg: lg.requeue("j1"),
    "get": lambda lg: lg.get("j1"),
    "tasks": lambda lg: lg.tasks("queued"),
    "counts": lambda lg: lg.counts(),
    "record_effect": lambda lg: lg.record_effect(GONE_LEASE, "email:1"),
    "effects": lambda lg: lg.effects("j1"),
    "schema_version": lambda lg: lg.schema_version,
    "remove_probe": lambda lg: remove_probe(lg, f"{PROBE_TENANT}:1"),
}


@pytest.mark.parametrize("call", sorted(CALLS_ON_A_CLOSED_LEDGER))
def test_does_no_driver_exception_reach_the_caller_raw(fresh_postgres, call):
    """Every method on a connection that is gone: a LedgerError naming the server, one line."""
    url = fresh_postgres()
    ledger = PostgresLedger(url)
    ledger.submit("j1")
    ledger.close()
    with pytest.raises(LedgerError) as caught:
        CALLS_ON_A_CLOSED_LEDGER[call](ledger)
    message = str(caught.value)
    assert type(caught.value).__module__.startswith("simlab")
    assert redact(url) in message and "\n" not in message


def test_is_a_bad_url_refused_with_one_sentence_and_no_password():
    with pytest.raises(TypeError, match="url"):
        PostgresLedger(Path("/tmp/x"))
    with pytest.raises(ValueError, match="postgresql://") as caught:
        PostgresLedger("mysql://app:s3cret@h/db")
    assert "s3cret" not in str(caught.value)


def nested(depth):
    value = "leaf"
    for _ in range(depth):
        value = [value]
    return value


BAD_CALLS = {
    "submit list id": lambda lg, lease: lg.submit(["j1"]),
    "submit NUL tenant": lambda lg, lease: lg.submit("new", tenant="a\x00b"),
    "submit big goal": lambda lg, lease: lg.submit("new", goal="x" * 200),
    "claim inf ttl": lambda lg, lease: lg.claim("j2", "w1", float("inf")),
    "claim surrogate worker": lambda lg, lease: lg.claim("j2", "\ud800", TTL),
    "claim_next bool ttl": lambda lg, lease: lg.claim_next("w1", True),
    "heartbeat tuple lease": lambda lg, lease: lg.heartbeat(("j1", 1), TTL),
    "save deep result": lambda lg, lease: lg.save(lease, 1, result=nested(101)),
    "save bool step": lambda lg, lease: lg.save(lease, True),
    "save NaN checkpoint": lambda lg, lease: lg.save(lease, 1, checkpoint=float("nan")),
    "record_effect NUL key": lambda lg, lease: lg.record_effect(lease, "k\x00"),
    "cancel long id": lambda lg, lease: lg.cancel("x" * 201),
    "get int id": lambda lg, lease: lg.get(123),
    "tasks int status": lambda lg, lease: lg.tasks(5),
}


def test_does_every_engine_refuse_bad_input_with_the_same_exception_and_message(
    fresh_postgres, clock
):
    answers = {}
    for name, make in [
        ("memory", lambda: MemoryLedger(clock=clock, max_value_bytes=100)),
        ("sqlite", lambda: Ledger(":memory:", clock=clock, max_value_bytes=100)),
        ("postgres", lambda: PostgresLedger(fresh_postgres(), clock=clock, max_value_bytes=100)),
    ]:
        with make() as ledger:
            ledger.submit("j1")
            ledger.submit("j2")
            lease = ledger.claim("j1", "w1", TTL)
            before = ledger.tasks()
            answers[name] = {}
            for call, run in BAD_CALLS.items():
                with pytest.raises(ValueError) as caught:
                    run(ledger, lease)
                answers[name][call] = (type(caught.value).__name__, str(caught.value))
            assert ledger.tasks() == before and ledger.effects("j1") == []
    assert answers["postgres"] == answers["sqlite"] == answers["memory"]


@pytest.mark.parametrize("where", ["task_id", "tenant", "worker", "key"])
def test_is_a_nul_character_refused_as_bad_input(fresh_postgres, where):
    """PostgreSQL text cannot hold NUL: a ValueError, before anything is stored."""
    with PostgresLedger(fresh_postgres()) as ledger:
        ledger.submit("j1")
        lease = ledger.claim("j1", "w1", TTL)
        before = ledger.tasks()
        with pytest.raises(ValueError, match="NUL"):
            if where in ("task_id", "tenant"):
                ledger.submit(**{where: "a\x00b"})
            elif where == "worker":
                ledger.claim_next("w\x00", TTL)
            else:
                ledger.record_effect(lease, "email\x00")
        assert ledger.tasks() == before and ledger.effects("j1") == []
