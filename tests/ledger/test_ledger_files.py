"""What a ledger *file* refuses and how it is copied: the rules of opening one.

Another program's database, a dangling symlink, a read-only file or folder and a foreign
``-wal`` are refused before SQLite writes anything; a zero-byte or missing file becomes a ledger;
``Ledger.backup`` and ``simlab backup`` copy a live ledger consistently while a worker writes.

The read-only cases run in a forked child that became ``nobody``: tests run as root, and root
writes through any ``chmod``.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
import time
from pathlib import Path

import pytest

from simlab.errors import LedgerError
from simlab.ledger import Ledger
from simlab.ledger.sqlite import CHECKPOINT_EVERY
from simlab.ledger.sqlite.files import APPLICATION_ID, header_identity, read_header
from simlab.rollout.health import check_health, format_health
from tests.strategies import as_nobody, run_cli


def other_program_db(path: Path, wal: bool = False) -> bytes:
    db = sqlite3.connect(path, isolation_level=None)
    if wal:
        db.execute("PRAGMA journal_mode=WAL")
    db.execute("CREATE TABLE orders (id INTEGER PRIMARY KEY, item TEXT)")
    db.execute("INSERT INTO orders (item) VALUES ('sku-7')")
    db.close()
    return path.read_bytes()


@pytest.mark.parametrize("wal", [False, True], ids=["rollback", "wal"])
def test_is_another_programs_database_refused_and_left_untouched(tmp_path, wal):
    path = tmp_path / "shop.sqlite"
    before = other_program_db(path, wal)
    with pytest.raises(LedgerError, match="not a simlab ledger") as caught:
        Ledger(path)
    assert str(path) in str(caught.value)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["shop.sqlite"]
    db = sqlite3.connect(path)
    tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    mode = db.execute("PRAGMA journal_mode").fetchone()[0]
    db.close()
    assert tables == ["orders"] and mode == ("wal" if wal else "delete")


@pytest.mark.parametrize("kind", ["missing", "zero bytes"])
def test_is_a_missing_or_empty_file_created_as_a_ledger_with_an_identity(tmp_path, kind):
    path = tmp_path / "new.sqlite"
    if kind == "zero bytes":
        path.touch()
    with Ledger(path) as ledger:
        ledger.submit("t1")
        # The identity is in the file on disk at once, not only in the -wal.
        application_id, identity = header_identity(read_header(path))
        assert application_id == APPLICATION_ID and identity > 0
    with Ledger(path) as ledger:
        assert [t.task_id for t in ledger.tasks()] == ["t1"]
    assert header_identity(read_header(path)) == (APPLICATION_ID, identity)


def test_is_a_dangling_symlink_refused_without_creating_its_target(tmp_path):
    link = tmp_path / "jobs.sqlite"
    link.symlink_to(tmp_path / "elsewhere" / "target.sqlite")
    with pytest.raises(LedgerError, match="dangling symlink"):
        Ledger(link)
    assert not (tmp_path / "elsewhere").exists()
    assert [p.name for p in tmp_path.iterdir()] == ["jobs.sqlite"]


@pytest.fixture
def shared_folder():
    """A folder outside /root (``nobody`` must reach it), removed afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="simlab-ro-"))
    folder.chmod(0o755)
    yield folder
    folder.chmod(0o755)
    shutil.rmtree(folder)


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to become nobody")
@pytest.mark.parametrize("what", ["file", "folder"])
def test_is_a_read_only_ledger_refused_at_open_leaving_nothing(shared_folder, what):
    path = shared_folder / "jobs.sqlite"
    with Ledger(path) as ledger:
        ledger.submit("t1")
    if what == "file":
        shared_folder.chmod(0o777)  # the folder is writable, the file is not
        path.chmod(0o444)
    else:
        path.chmod(0o666)  # the file is writable, the folder (root's, 0755) is not
    before = path.read_bytes()
    text = as_nobody(lambda: Ledger(path).submit("t2"))
    assert text.startswith("LedgerError") and "read-only" in text and str(path) in text
    report = as_nobody(lambda: format_health(check_health(path, timeout=0.5)))
    assert "read-only" in report and report.strip().endswith("unhealthy")
    assert path.read_bytes() == before
    assert [p.name for p in shared_folder.iterdir()] == ["jobs.sqlite"]  # no -wal, no -shm


def test_is_a_locked_ledger_a_ledger_error_naming_the_path(tmp_path):
    path = tmp_path / "jobs.sqlite"
    ledger = Ledger(path)
    ledger._db.execute("PRAGMA busy_timeout = 50")  # wait 50 ms, not a minute
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(LedgerError, match="locked") as caught:
            ledger.submit("t1")
        assert str(path) in str(caught.value)
        with pytest.raises(LedgerError, match="locked"):
            Ledger(path, busy_timeout=0.05)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
        ledger.close()


# -- a foreign -wal --------------------------------------------------------------------------


def foreign_wal_next_to(path: Path, other: Path, writes) -> Ledger:
    """Give ``path`` (a closed ledger) the live ``-wal`` of the ledger at ``other`` (kept open
    and returned), as a copy without its own ``-wal`` next to another database's would."""
    live = Ledger(other)
    writes(live)
    shutil.copy(f"{other}-wal", f"{path}-wal")
    return live


def submit_one(ledger: Ledger) -> None:
    ledger.submit("b-1", tenant="other")


def many_claims_and_saves(ledger: Ledger) -> None:
    """Enough writes for the ledger's own checkpoints to restart its log more than once,
    with no write that grows the file (claims and saves touch existing pages only)."""
    for i in range(50):
        ledger.submit(f"b-{i}")
    for i in range(50):
        lease = ledger.claim(f"b-{i}", "w", 60.0)
        for step in range(1, 2 * CHECKPOINT_EVERY // 50 + 2):
            ledger.save(lease, step)


@pytest.mark.parametrize("writes", [submit_one, many_claims_and_saves])
def test_is_a_foreign_wal_refused_and_the_file_left_as_it_was(tmp_path, capsys, writes):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    path, other = tmp_path / "a" / "jobs.sqlite", tmp_path / "b" / "jobs.sqlite"
    with Ledger(path) as ledger:
        ledger.submit("a-1", tenant="mine")
    before = path.read_bytes()
    live = foreign_wal_next_to(path, other, writes)
    try:
        with pytest.raises(LedgerError, match="belongs to another database") as caught:
            Ledger(path)
        assert str(path) in str(caught.value)
        report = check_health(path, timeout=0.5)
        assert not report.healthy and "foreign -wal" in report.checks[0].detail
        code, out, err = run_cli(["backup", "--db", str(path), str(tmp_path / "copy")], capsys)
        assert code == 2 and "another database" in err and len(err.strip().splitlines()) == 1
    finally:
        live.close()
    assert path.read_bytes() == before  # never replayed into the file
    Path(f"{path}-wal").unlink()
    Path(f"{path}-shm").unlink(missing_ok=True)
    with Ledger(path) as ledger:
        assert [(t.task_id, t.tenant) for t in ledger.tasks()] == [("a-1", "mine")]


def test_is_the_wal_of_a_crashed_process_still_recovered(tmp_path):
    """The -wal a killed worker leaves behind is the ledger's own: it must be replayed."""
    path = tmp_path / "jobs.sqlite"
    Ledger(path).close()
    pid = os.fork()
    if pid == 0:  # a worker that dies without closing anything
        try:
            ledger = Ledger(path)
            for i in range(CHECKPOINT_EVERY + 10):
                ledger.submit(f"t{i}")
            lease = ledger.claim("t0", "w1", 60.0)
            ledger.save(lease, 1, checkpoint={"done": "half"})
        finally:
            os._exit(0)
    os.waitpid(pid, 0)
    assert Path(f"{path}-wal").stat().st_size > 0
    with Ledger(path) as ledger:
        assert len(ledger.tasks()) == CHECKPOINT_EVERY + 10
        assert ledger.get("t0").checkpoint == {"done": "half"}


# -- backup ----------------------------------------------------------------------------------


def start_writer(path: Path, count: int) -> int:
    """A forked worker: submit, claim and complete tasks w0, w1, ... in order."""
    pid = os.fork()
    if pid == 0:
        try:
            with Ledger(path) as ledger:
                for i in range(count):
                    ledger.submit(f"w{i}", goal={"i": i})
                    lease = ledger.claim(f"w{i}", "writer", 60.0)
                    ledger.save(lease, 1, result={"i": i}, done=True)
        finally:
            os._exit(0)
    return pid


def test_is_a_backup_taken_while_a_worker_writes_consistent(tmp_path):
    path = tmp_path / "jobs.sqlite"
    with Ledger(path) as ledger:
        ledger.submit("first")
    pid = start_writer(path, 3000)
    copies = []
    with Ledger(path) as ledger:
        for n in range(5):
            time.sleep(0.05)
            copies.append(ledger.backup(tmp_path / f"copy{n}.sqlite"))
    os.waitpid(pid, 0)
    sizes = []
    for copy in copies:
        with Ledger(copy) as backup:
            assert backup._db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            tasks = backup.tasks()
        ids = [t.task_id for t in tasks]
        n = len(ids) - 1
        assert ids == ["first"] + [f"w{i}" for i in range(n)]  # a prefix: no gap, no tear
        assert all(
            t.status == "completed" and t.result == {"i": i} for i, t in enumerate(tasks[1:-1])
        )
        sizes.append(n)
    assert sizes == sorted(sizes) and 0 < sizes[-1]  # taken while the writer ran on
    assert sorted(p.name for p in tmp_path.iterdir() if "copy" in p.name) == [
        f"copy{n}.sqlite" for n in range(5)
    ]  # no -wal, no partial file left beside the copies
    assert header_identity(read_header(copies[0]))[1] != header_identity(read_header(path))[1]


def test_does_a_backup_refuse_an_existing_destination(tmp_path):
    path, dest = tmp_path / "jobs.sqlite", tmp_path / "taken.sqlite"
    dest.write_text("keep me")
    with Ledger(path) as ledger:
        with pytest.raises(LedgerError, match="exists"):
            ledger.backup(dest)
        with pytest.raises(LedgerError, match="folder"):
            ledger.backup(tmp_path / "no" / "such" / "folder.sqlite")
    assert dest.read_text() == "keep me"


def test_does_simlab_backup_copy_a_ledger(tmp_path, capsys):
    path, dest = tmp_path / "jobs.sqlite", tmp_path / "copy.sqlite"
    with Ledger(path) as ledger:
        ledger.submit("t1", goal={"q": 1})
    code, out, err = run_cli(["backup", "--db", str(path), str(dest)], capsys)
    assert code == 0 and err == "" and "1 tasks" in out
    with Ledger(dest) as copy:
        assert [(t.task_id, t.goal) for t in copy.tasks()] == [("t1", {"q": 1})]


@pytest.mark.parametrize("mistake", ["missing SRC", "existing DEST", "no folder", "not a ledger"])
def test_is_a_backup_mistake_one_line_and_exit_2(tmp_path, capsys, mistake):
    path, dest = tmp_path / "jobs.sqlite", tmp_path / "copy.sqlite"
    Ledger(path).close()
    if mistake == "missing SRC":
        path = tmp_path / "nope.sqlite"
    elif mistake == "existing DEST":
        dest.write_text("x")
    elif mistake == "no folder":
        dest = tmp_path / "no" / "copy.sqlite"
    else:
        path = tmp_path / "shop.sqlite"
        other_program_db(path)
    code, out, err = run_cli(["backup", "--db", str(path), str(dest)], capsys)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "Traceback" not in err
    assert not (tmp_path / "nope.sqlite").exists()


def test_does_a_second_ledger_on_a_file_in_one_process_keep_its_commits_visible(tmp_path):
    """Reading a file's header through a descriptor of its own drops every lock the process
    holds on the file (POSIX): another process would then delete the -wal this one writes."""
    import subprocess
    import sys

    path = str(tmp_path / "shared.sqlite")
    with Ledger(path) as ledger:
        ledger.submit("t1")
    child = f"""
import sys
from simlab.ledger import Ledger
a, b = Ledger({path!r}), Ledger({path!r})  # the second open must not cost the first its locks
print("open", flush=True)
sys.stdin.readline()
a.save(a.claim_next("w", 60), 1, done=True)
print("saved", flush=True)
sys.stdin.readline()
"""
    proc = subprocess.Popen(
        [sys.executable, "-c", child], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout.readline().strip() == "open"
        with Ledger(path) as reader:  # closing it, it must not think it was the last one out
            assert reader.get("t1").status == "queued"
        proc.stdin.write("\n")
        proc.stdin.flush()
        assert proc.stdout.readline().strip() == "saved"
        with Ledger(path) as reader:
            assert reader.get("t1").status == "completed"
    finally:
        proc.communicate("\n", timeout=30)


def test_is_every_new_memory_ledger_its_own_with_its_own_clock():
    # New in-memory ledgers are copies of one migrated once per process: each must still be
    # empty, have an identity of its own and migration times from its own clock.
    from simlab.ledger import Ledger

    first = Ledger(":memory:", clock=lambda: 5.0)
    first.submit("a")
    second = Ledger(":memory:", clock=lambda: 9.0)
    try:
        assert second.tasks() == [] and [t.task_id for t in first.tasks()] == ["a"]
        times = second._db.execute("SELECT DISTINCT applied_at FROM schema_migrations").fetchall()
        assert times == [(9.0,)]
        ids = [db._db.execute("PRAGMA user_version").fetchone()[0] for db in (first, second)]
        assert ids[0] != ids[1]
    finally:
        first.close()
        second.close()
