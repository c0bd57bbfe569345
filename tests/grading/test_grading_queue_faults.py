"""Does a class graded on the queue get one result per submission, under faults?

Real worker processes (``simlab grade --queue``) are killed, stopped and interrupted in the
middle of a submission; the queue is then read back. Submissions are the shipped exercise
notebooks (they grade fast), one of them held by a first cell that waits until the test opens
its gate, so that a fault lands while it is being graded however loaded the machine, and the
grading that follows need not wait. They are graded ``--no-sandbox`` (the fault is in the queue,
not in the jail); one test compares a jailed queue run with a plain jailed ``simlab grade``.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest

from simlab.cli import main
from simlab.grading import grade
from simlab.grading.queue_store.store import NotAQueue, open_queue

ROOT = Path(__file__).resolve().parents[2]
#: The class's quick students: two exercise notebooks among the quickest to grade blank (the held
#: submission is a copy of the first).
FAST = ["01_fencing_and_cancellation.ipynb", "06_events_and_permissions.ipynb"]
#: The longest the held submission's first cell waits for its gate (a bound, never reached
#: when a test opens the gate).
HOLD = 60
#: The lease of a worker the test kills or stops mid-grading: until then no other worker runs,
#: so nothing can take a lapsed lease over (a heartbeat renews it), and once it is killed the
#: next worker claims the submission as soon as it starts instead of waiting a lease out. The
#: workers that must finish keep :data:`LEASE`, long enough for a loaded machine's pauses
#: between heartbeats.
DOOMED_LEASE = "0.5"
LEASE = "2"
_TMP = ""


@pytest.fixture(autouse=True)
def _worker_tmp(tmp_path, monkeypatch):
    """Each test's workers keep their temporary files in its own folder."""
    folder = tmp_path / "workers-tmp"
    folder.mkdir()
    monkeypatch.setattr(sys.modules[__name__], "_TMP", str(folder))


def _class(folder: Path, slow: bool = True, names=FAST) -> Path:
    """A class folder: one student per exercise notebook, and ``slow/`` (fencing, whose first
    cell waits until :func:`_open` opens the class's gate) when asked."""
    for i, name in enumerate(names):
        (folder / f"s{i}").mkdir(parents=True)
        shutil.copy(ROOT / "exercises" / name, folder / f"s{i}" / name)
    if slow:
        nb = nbformat.read(ROOT / "exercises" / FAST[0], as_version=4)
        wait = (
            f"import os, time\nend = time.monotonic() + {HOLD}\n"
            f"while not os.path.exists({str(_gate(folder))!r}) and time.monotonic() < end:\n"
            "    time.sleep(0.02)"
        )
        nb.cells.insert(0, nbformat.v4.new_code_cell(wait))
        (folder / "slow").mkdir(parents=True)
        nbformat.write(nb, folder / "slow" / FAST[0])
    return folder


def _gate(folder: Path) -> Path:
    return folder.parent / f"{folder.name}.gate"


def _open(folder: Path) -> None:
    """Let the held submission of the class in ``folder`` go on (now and in later gradings)."""
    _gate(folder).touch()


def _mounts_under(folder: Path) -> list[str]:
    """What is mounted below ``folder`` (a grader running as root caps its folders with tmpfs)."""
    with open("/proc/self/mounts") as f:
        return [p for p in (line.split()[1] for line in f) if p.startswith(f"{folder}/")]


def _simlab(*args: str) -> subprocess.Popen:
    """``simlab grade ...`` in a session of its own (so it can be killed with its kernels),
    its temporary files in this test's folder (a killed worker cannot remove them)."""
    cmd = [sys.executable, "-m", "simlab", "grade", "--no-sandbox", "--no-progress", *args]
    return subprocess.Popen(
        cmd,
        env={**os.environ, "TMPDIR": _TMP},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=_ctrl_c_as_in_a_terminal,
    )


def _ctrl_c_as_in_a_terminal() -> None:
    """A job started in the background of a script inherits SIGINT ignored; a worker started
    from a terminal does not."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _finish(proc: subprocess.Popen, timeout: float = 60) -> tuple[int, str, str]:
    out, err = proc.communicate(timeout=timeout)
    return proc.returncode, out, err


def _subs(db) -> dict:
    with open_queue(db) as q:
        return {Path(s.notebook).parent.name: s for s in q.submissions()}


def _wait_for(db, test, proc: subprocess.Popen, timeout: float = 30) -> None:
    end = time.monotonic() + timeout
    seen = None
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise AssertionError(f"the worker ended first: {_brief(seen)}, {proc.communicate()[1]}")
        try:
            seen = _subs(db)
            if test(seen):
                return
        except NotAQueue as exc:  # not created yet
            seen = exc
        time.sleep(0.05)
    raise AssertionError("the queue never got there")


def _brief(subs) -> object:
    if not isinstance(subs, dict):
        return subs
    now = time.time()
    return {
        n: (s.status, [(a.outcome, a.started - now, a.ended and a.ended - now) for a in s.attempts])
        for n, s in subs.items()
    }


def _grading(name: str):
    """Is ``name`` being graded now (an open attempt)?"""
    return lambda subs: name in subs and any(a.outcome is None for a in subs[name].attempts)


def _kill_group(proc: subprocess.Popen, sig: int) -> None:
    os.killpg(proc.pid, sig)


def _alive(group: int) -> bool:
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    return True


def _committed(s) -> list:
    return [a for a in s.attempts if a.outcome in ("graded", "timeout")]


def test_is_a_submission_whose_worker_is_killed_mid_grading_graded_exactly_once(tmp_path):
    folder, db = _class(tmp_path / "class", names=[]), str(tmp_path / "q.sqlite")
    assert main(["grade", "--no-sandbox", str(folder), "--queue", db, "--enqueue-only"]) == 0
    first = _simlab("--queue", db, "--worker", "--lease", DOOMED_LEASE)
    _wait_for(db, _grading("slow"), first)
    _kill_group(first, signal.SIGKILL)  # the machine died: no heartbeat, no release
    assert first.wait(10) == -signal.SIGKILL
    _open(folder)
    status, _, err = _finish(_simlab("--queue", db, "--worker", "--lease", LEASE))
    assert status == 0, err
    s = _subs(db)["slow"]
    assert s.status == "graded" and s.result["max_score"] == 17
    assert [a.outcome for a in s.attempts] == ["lost", "graded"]
    assert s.attempts[0].ended is None and len(_committed(s)) == 1


def _grading_processes(pid: int) -> list[int]:
    """The grading processes (``python -m simlab.grading.processes``) that ``pid`` started."""
    found = []
    for path in Path(f"/proc/{pid}/task").glob("*/children"):
        for child in path.read_text().split():
            try:
                cmdline = Path(f"/proc/{child}/cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if b"simlab.grading.processes" in cmdline:
                found.append(int(child))
    return found


def test_is_a_submission_whose_grading_process_dies_handed_back_and_graded_once(tmp_path):
    """With --jobs 2 a worker grades in its own process and in one grading process. With a
    held submission in each, the grading process is killed: its submission is handed back
    (``released``) and graded again, the other is graded once, and the worker ends normally."""
    folder, db = _class(tmp_path / "class", names=[]), str(tmp_path / "q.sqlite")
    shutil.copytree(folder / "slow", folder / "slow2")
    assert main(["grade", "--no-sandbox", str(folder), "--queue", db, "--enqueue-only"]) == 0
    worker = _simlab("--queue", db, "--worker", "--jobs", "2", "--lease", LEASE)
    _wait_for(db, lambda subs: _grading("slow")(subs) and _grading("slow2")(subs), worker)
    (child,) = _grading_processes(worker.pid)
    os.kill(child, signal.SIGKILL)

    def released(subs) -> bool:
        return any(a.outcome == "released" for s in subs.values() for a in s.attempts)

    _wait_for(db, released, worker)
    _open(folder)
    status, _, err = _finish(worker)
    assert status == 0, err
    assert "its grading process ended; handed back for another attempt" in err
    subs = _subs(db)
    assert sorted([a.outcome for a in s.attempts] for s in subs.values()) == [
        ["graded"],
        ["released", "graded"],
    ]
    assert all(s.status == "graded" and s.result["max_score"] == 17 for s in subs.values())
    assert _grading_processes(worker.pid) == []


def test_is_a_late_result_of_a_stopped_worker_refused_and_recorded_stale(tmp_path):
    folder, db = _class(tmp_path / "class", names=[]), str(tmp_path / "q.sqlite")
    assert main(["grade", "--no-sandbox", str(folder), "--queue", db, "--enqueue-only"]) == 0
    stopped = _simlab("--queue", db, "--worker", "--lease", DOOMED_LEASE)
    _wait_for(db, _grading("slow"), stopped)
    _kill_group(stopped, signal.SIGSTOP)  # paused past its lease, kernel and all
    _open(folder)
    try:
        status, _, err = _finish(_simlab("--queue", db, "--worker", "--lease", LEASE))
        assert status == 0, err
        taken_over = _subs(db)["slow"]
        assert taken_over.status == "graded"
    finally:
        _kill_group(stopped, signal.SIGCONT)
    status, _, err = _finish(stopped)
    assert status == 0, err
    assert "refused by the fence (stale)" in err
    s = _subs(db)["slow"]
    assert [a.outcome for a in s.attempts] == ["stale", "graded"]
    assert s.result == taken_over.result  # the late result changed nothing
    assert len(_committed(s)) == 1


def test_does_a_killed_batch_resumed_grade_nothing_twice(tmp_path):
    folder, db = _class(tmp_path / "class"), str(tmp_path / "q.sqlite")
    batch = ["grade", "--no-sandbox", "--no-progress", str(folder), "--queue", db, "--json"]
    assert main([*batch[:4], "--queue", db, "--enqueue-only"]) == 0
    proc = _simlab(*batch[3:], "--jobs", "1", "--lease", DOOMED_LEASE)
    _wait_for(db, _grading("slow"), proc)  # the last, after the two fast ones
    _kill_group(proc, signal.SIGKILL)
    proc.wait(10)
    _open(folder)
    before = {n: s for n, s in _subs(db).items() if s.status == "graded"}
    assert sorted(before) == ["s0", "s1"]
    status, out, err = _finish(_simlab(*batch[3:], "--jobs", "2", "--lease", LEASE))
    assert status == 0, err
    assert _mounts_under(tmp_path) == [], "the killed grader's folders are still mounted"
    after = _subs(db)
    assert all(s.status == "graded" and len(_committed(s)) == 1 for s in after.values())
    for name, s in before.items():
        assert after[name].attempts == s.attempts  # not graded again
    objects = [json.loads(line) for line in out.splitlines()]
    assert len(objects) == 3 and {o["status"] for o in objects} == {"graded"}
    plain = {g.notebook: g.to_dict() for g in grade(folder, sandbox=False, jobs=2)}
    for o in objects:
        assert {k: v for k, v in o.items() if k not in ("status", "attempts")} == plain[
            o["notebook"]
        ]


def test_do_two_workers_on_one_postgres_queue_give_one_result_per_submission(
    tmp_path, fresh_postgres
):
    folder, url = _class(tmp_path / "class", slow=False, names=FAST * 2), fresh_postgres()
    assert main(["grade", "--no-sandbox", str(folder), "--queue", url, "--enqueue-only"]) == 0
    workers = [_simlab("--queue", url, "--worker") for _ in range(2)]
    for w in workers:
        status, _, err = _finish(w, timeout=90)
        assert status == 0, err
    subs = _subs(url)
    assert len(subs) == 4
    assert all(s.status == "graded" and len(_committed(s)) == 1 for s in subs.values())
    assert all(len(s.attempts) == 1 for s in subs.values())


@pytest.mark.serial
def test_does_ctrl_c_hand_the_submission_back_and_leave_nothing_running(tmp_path):
    folder, db = _class(tmp_path / "class", names=[]), str(tmp_path / "q.sqlite")
    assert main(["grade", "--no-sandbox", str(folder), "--queue", db, "--enqueue-only"]) == 0
    worker = _simlab("--queue", db, "--worker")
    _wait_for(db, _grading("slow"), worker)
    worker.send_signal(signal.SIGINT)
    status, _, err = _finish(worker)
    assert status == 130 and "handed back to the queue" in err.splitlines()[-1]
    s = _subs(db)["slow"]
    assert s.status == "pending" and [a.outcome for a in s.attempts] == ["released"]
    end = time.monotonic() + 10  # an unjailed kernel notices its parent is gone in a moment
    while time.monotonic() < end and _alive(worker.pid):
        time.sleep(0.2)
    assert not _alive(worker.pid), "a process of the worker outlived it"
    assert _mounts_under(tmp_path) == [], "an interrupted grader left a folder mounted"
    _open(folder)
    status, _, err = _finish(_simlab("--queue", db, "--worker"))
    assert status == 0 and _subs(db)["slow"].status == "graded"


def _all_at_once(*commands: list[str], timeout: float) -> list[subprocess.CompletedProcess]:
    """Run ``commands`` side by side; each one's exit status and output, in order."""
    procs = [
        subprocess.Popen(c, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for c in commands
    ]
    done = []
    try:
        for proc in procs:
            out, err = proc.communicate(timeout=timeout)
            done.append(subprocess.CompletedProcess(proc.args, proc.returncode, out, err))
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()
    return done


@pytest.mark.jail
@pytest.mark.serial
def test_are_jailed_queue_results_those_of_a_plain_jailed_grade(tmp_path):
    folder, db = _class(tmp_path / "class", slow=False), str(tmp_path / "q.sqlite")
    cmd = [sys.executable, "-m", "simlab", "grade", "--no-progress", "--json", str(folder)]
    # both graders at once: neither writes what the other reads (the queue is the first's own)
    queued, plain = _all_at_once([*cmd, "--queue", db], cmd, timeout=120)
    assert queued.returncode == plain.returncode == 0, queued.stderr + plain.stderr
    got = [json.loads(line) for line in queued.stdout.splitlines()]
    for o in got:
        assert o.pop("status") == "graded" and [a["outcome"] for a in o.pop("attempts")] == [
            "graded"
        ]
    assert got == [json.loads(line) for line in plain.stdout.splitlines()]


def test_is_a_notebook_past_its_budget_recorded_timeout_and_its_result_kept(tmp_path, capsys):
    folder, db = _class(tmp_path / "class", names=[]), str(tmp_path / "q.sqlite")
    argv = ["grade", "--no-sandbox", "--no-progress", str(folder), "--queue", db, "--json"]
    assert main([*argv, "--notebook-timeout", "0.5"]) == 0
    (got,) = map(json.loads, capsys.readouterr().out.splitlines())
    assert got["status"] == "graded" and [a["outcome"] for a in got["attempts"]] == ["timeout"]
    assert got["score"] == 0 and "budget" in got["questions"][0]["feedback"]
