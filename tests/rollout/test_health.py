"""``simlab health``: does it prove the database and the queue work, and say why when not?

The read-only case. Tests run as root in CI, and root writes through ``chmod 444``, so a chmod
alone would test nothing. What a user meets is a process *without* write permission on the file
(a service account, a read-only mount). So, as root, the check runs in a forked child that
becomes ``nobody`` first; as any other user, it runs after a ``chmod`` of the file and folder.
Either way the file is readable and not writable by the checking process. (Opening the ledger
with a ``mode=ro`` URI would only test SQLite's flag, not the user's situation.)

The probe tests (repeated checks leave nothing behind, a ``claim_next`` poller never takes a
probe, a probe lost in a race keeps a working queue healthy) run on both engines: a SQLite file
and a PostgreSQL schema on the session's throwaway server.
"""

from __future__ import annotations

import json
import os
import sqlite3
import tempfile
from pathlib import Path

import pytest

from simlab.errors import LedgerError
from simlab.ledger import Ledger, connect
from simlab.ledger.sqlite.probes import probe_write_read
from simlab.records import PROBE_TENANT, QUEUED
from simlab.rollout.health import PROBE_TRIES, check_health, format_health
from tests.strategies import as_nobody, run_cli, usage_error

run = run_cli  # (exit status, stdout, stderr) of simlab ARGV


@pytest.fixture
def ledger_file(tmp_path) -> Path:
    path = tmp_path / "jobs.sqlite"
    with Ledger(path) as ledger:
        ledger.submit("real-1", tenant="acme")
    return path


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.server)])
def target(request, tmp_path) -> str:
    """A ledger holding one real task, on each engine: a file path or a PostgreSQL URL."""
    if request.param == "sqlite":
        where = str(tmp_path / "jobs.sqlite")
    else:
        where = request.getfixturevalue("fresh_postgres")()
    with connect(where) as ledger:
        ledger.submit("real-1", tenant="acme")
    return where


def stored(target: str) -> tuple[list[str], int]:
    """The task IDs in ``target`` (submit order) and how many effects it holds, read with the
    engine's own driver, so nothing the ledger hides (a probe row, an effect) escapes."""
    if target.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(target, autocommit=True) as db:
            ids = db.execute("SELECT task_id FROM simlab_tasks ORDER BY seq").fetchall()
            effects = db.execute("SELECT COUNT(*) FROM simlab_effects").fetchone()[0]
    else:
        with sqlite3.connect(target) as db:
            ids = db.execute("SELECT task_id FROM tasks ORDER BY seq").fetchall()
            effects = db.execute("SELECT COUNT(*) FROM effects").fetchone()[0]
        db.close()
    return [task_id for (task_id,) in ids], effects


def test_is_a_working_ledger_healthy_and_left_as_it_was(target, capsys):
    for _ in range(3):  # repeated checks leave nothing behind
        code, out, _ = run(["health", "--db", target], capsys)
        assert code == 0
        assert out.strip().endswith("healthy") and "unhealthy" not in out
        assert "database ok" in out and "queue    ok" in out
    if not target.startswith("postgresql://"):
        assert [p.name for p in Path(target).parent.iterdir()] == [Path(target).name]
    assert stored(target) == (["real-1"], 0)  # no probe row, no effect stays
    with connect(target) as ledger:
        real = ledger.get("real-1")
        assert (real.status, real.epoch) == (QUEUED, 0)  # untouched
        assert ledger.claim_next("w1", ttl=10).task_id == "real-1"  # nothing else claimable


def test_does_the_write_read_probe_leave_nothing_behind(tmp_path):
    path = tmp_path / "odd name #1?.sqlite"  # a path that needs quoting in a URI
    with Ledger(path) as ledger:
        ledger.submit("real-1")
        before = [(t.task_id, t.status, t.epoch) for t in ledger.tasks()]
    assert probe_write_read(path, "tok", busy_timeout=0.5) is True
    with Ledger(path) as ledger:
        assert [(t.task_id, t.status, t.epoch) for t in ledger.tasks()] == before
    with pytest.raises(LedgerError):
        probe_write_read(tmp_path / "missing.sqlite", "tok")
    assert not (tmp_path / "missing.sqlite").exists()


def test_does_a_missing_database_stay_missing(tmp_path, capsys):
    path = tmp_path / "nope.sqlite"
    code, out, _ = run(["health", "--db", str(path)], capsys)
    assert code == 1 and "does not exist" in out and "unhealthy" in out
    assert not path.exists()
    assert list(tmp_path.iterdir()) == []


def test_is_a_locked_database_unhealthy_with_the_reason(ledger_file, capsys):
    holder = sqlite3.connect(ledger_file, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        code, out, _ = run(["health", "--db", str(ledger_file), "--timeout", "0.2"], capsys)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert code == 1
    assert "locked" in out and "unhealthy" in out
    code, _, _ = run(["health", "--db", str(ledger_file), "--timeout", "0.2"], capsys)
    assert code == 0  # and healthy again once the lock is gone


def check_as_nobody(path: Path) -> tuple[bool, str]:
    """``check_health(path)`` in a forked child that became ``nobody`` first: (healthy, text)."""

    def check() -> str:
        report = check_health(path, timeout=0.5)
        return ("1" if report.healthy else "0") + format_health(report)

    text = as_nobody(check)
    assert text.startswith("ok "), text
    return text[3] == "1", text[4:]


def test_is_a_read_only_database_unhealthy_with_the_reason():
    folder = Path(tempfile.mkdtemp(prefix="simlab-health-"))
    try:
        folder.chmod(0o755)  # readable by everyone, writable by its owner only
        path = folder / "jobs.sqlite"
        with Ledger(path) as ledger:
            ledger.submit("real-1")
        path.chmod(0o444)
        before = path.read_bytes()
        if os.geteuid() == 0:
            healthy, text = check_as_nobody(path)
        else:
            folder.chmod(0o555)
            report = check_health(path, timeout=0.5)
            healthy, text = report.healthy, format_health(report)
        assert not healthy
        assert "read-only" in text and text.strip().endswith("unhealthy")
        assert path.read_bytes() == before
        assert [p.name for p in folder.iterdir()] == ["jobs.sqlite"]  # no -wal, no -shm
    finally:
        folder.chmod(0o755)
        for p in folder.iterdir():
            p.unlink()
        folder.rmdir()


def test_is_a_file_that_is_not_a_ledger_left_unchanged(tmp_path, capsys):
    junk = tmp_path / "junk.sqlite"
    junk.write_text("not a database at all\n" * 100)
    other = tmp_path / "other.sqlite"
    db = sqlite3.connect(other)
    db.execute("CREATE TABLE orders (id INTEGER)")
    db.commit()
    db.close()
    for path in (junk, other):
        before = path.read_bytes()
        code, out, _ = run(["health", "--db", str(path)], capsys)
        assert code == 1 and "not a usable simlab ledger" in out
        assert path.read_bytes() == before  # not migrated into a ledger


@pytest.fixture
def racing(monkeypatch):
    """``racing(target, steal)`` makes every probe of a health check raced: right after its
    submit, ``steal(thief, task_id)`` runs on another connection, as a worker would in that
    instant. Returns the list of what each steal returned. The check's own ledger stays of the
    engine's real class, so its probe removal is the engine's own."""
    import simlab.rollout.health as health

    thieves = []

    def race(target: str, steal) -> list:
        thief = connect(target)
        thieves.append(thief)
        taken = []
        opened = health._open

        def raced_open(path, timeout):
            ledger = opened(path, timeout)
            submit = ledger.submit

            def raced_submit(task_id=None, **kw):
                task_id = submit(task_id, **kw)
                taken.append(steal(thief, task_id))
                return task_id

            ledger.submit = raced_submit
            return ledger

        monkeypatch.setattr(health, "_open", raced_open)
        return taken

    yield race
    for thief in thieves:
        thief.close()


def test_does_a_claim_next_poller_never_take_a_probe(target, racing):
    with connect(target) as ledger:
        ledger.claim("real-1", "busy", ttl=600)  # nothing else is claimable
    taken = racing(target, lambda thief, _: thief.claim_next("poller", ttl=60))
    report = check_health(target, timeout=0.5)
    assert report.healthy, format_health(report)
    assert taken == [None]
    assert stored(target) == (["real-1"], 0)


def claim_and_complete(thief, task_id):
    lease = thief.claim(task_id, "thief", ttl=60)
    assert thief.record_effect(lease, "email:1")  # the removal must take effects along
    return thief.save(lease, 1, result="stolen", done=True)


@pytest.mark.parametrize("steal", ["claim", "complete"])
def test_does_a_probe_lost_in_a_race_keep_a_working_queue_healthy(target, racing, steal):
    thief = (
        claim_and_complete
        if steal == "complete"
        else (lambda t, task_id: t.claim(task_id, "thief", ttl=60).epoch)
    )
    taken = racing(target, thief)
    report = check_health(target, timeout=0.5)
    assert report.healthy, format_health(report)
    assert "claimed by other workers" in report.checks[1].detail
    assert len(taken) == PROBE_TRIES
    assert stored(target) == (["real-1"], 0)  # every probe removed, with its effects
    with connect(target) as ledger:
        assert ledger.claim_next("w1", ttl=10).task_id == "real-1"


def test_does_remove_probe_delete_only_probes(target):
    from simlab.ledger.connect import remove_probe

    with connect(target) as ledger:
        probe = f"{PROBE_TENANT}:x"
        ledger.submit(probe, tenant=PROBE_TENANT)
        assert ledger.record_effect(ledger.claim(probe, "health-check", ttl=10), "k")
        assert remove_probe(ledger, probe) is True
        assert remove_probe(ledger, probe) is False  # already gone
        assert remove_probe(ledger, "real-1") is False  # another tenant: never deleted
        assert [t.task_id for t in ledger.tasks()] == ["real-1"]
    with pytest.raises(TypeError):
        remove_probe(object(), probe)


def test_does_health_json_carry_each_check(ledger_file, capsys):
    code, out, _ = run(["health", "--db", str(ledger_file), "--json"], capsys)
    data = json.loads(out)
    assert code == 0 and data["healthy"] is True
    assert [c["name"] for c in data["checks"]] == ["database", "queue"]
    assert all(c["ok"] for c in data["checks"])


@pytest.mark.parametrize(
    "argv",
    [
        ["health"],
        ["health", "--db", "x.sqlite", "--timeout", "0"],
        ["health", "--db", "x.sqlite", "--timeout", "-1"],
        ["health", "--db", "x.sqlite", "--timeout", "nan"],
        ["health", "--db", "x.sqlite", "--timeout", "soon"],
    ],
)
def test_is_bad_health_input_a_usage_error(argv, capsys):
    usage_error(argv, capsys)
