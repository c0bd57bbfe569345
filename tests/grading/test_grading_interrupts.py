"""Does a grader interrupted at any instant leave nothing behind on the host?

Real jailed graders (``simlab grade`` and ``simlab grade --queue``) are interrupted with SIGINT,
SIGTERM or SIGKILL at named instants: while a folder is made, while a folder is capped, while
a control group is made, while a jail starts, while a cell runs, while a check calls the
learner's code, once a result is ready and while it is committed. The instant is driven by the
kit's test hook (``SIMLAB_INTERRUPT_AT``, :func:`simlab.grading.sandbox.host.interrupt_at`): the
grading thread that reaches it sends its process the signal and waits there until the
interrupt is taken. After each run the host is checked for what carries the grader's process
ID: no process of it (this test's process adopts the grader's orphans), no mount, no temporary
folder, no control group; after SIGKILL, the next grader run removes them. On the queue, the
submission held is handed back (or, interrupted while committing, graded once), and a next
worker grades it exactly once.

Not ``serial``: every check looks only at what carries its own grader's process ID and at the
orphans this process adopted, never at the whole machine, so other tests (and their graders)
may run beside it; a killed grader's leftovers are removed by whichever grader starts next,
and the check that nothing of it is left holds either way.
"""

from __future__ import annotations

import ctypes
import glob
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

from simlab.cli import main
from simlab.grading.queue_store.store import open_queue
from simlab.grading.sandbox.jail import Jail, lifeline

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = "01_fencing_and_cancellation.ipynb"
MAX_SCORE = 17
_PR_SET_CHILD_SUBREAPER = 36

pytestmark = pytest.mark.jail


@pytest.fixture(scope="module", autouse=True)
def _jails_work():
    from simlab.grading.sandbox.jail import SandboxUnavailable, require

    try:
        require()
    except SandboxUnavailable as exc:
        pytest.skip(str(exc))


@pytest.fixture(autouse=True)
def _adopt_orphans():
    """This process adopts the orphans of the graders it starts, so that none can hide."""
    libc = ctypes.CDLL(None, use_errno=True)
    before = frozenset(_adopted())  # an earlier test's children are not this test's to end
    assert libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    try:
        yield
    finally:
        libc.prctl(_PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)
        for pid in _adopted(before):
            _kill_and_reap(pid)


def _adopted(known: frozenset[int] = frozenset()) -> list[int]:
    """This process's children besides ``known`` (adopted orphans; zombies are reaped)."""
    out = []
    for entry in glob.glob("/proc/[0-9]*/stat"):
        try:
            with open(entry) as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid = int(entry.split("/")[2])
        if int(fields[1]) != os.getpid() or pid in known:
            continue
        if fields[0] == "Z":
            os.waitpid(pid, 0)
            continue
        out.append(pid)
    return out


def _kill_and_reap(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except (ProcessLookupError, ChildProcessError):
        pass


def _left_by(pid: int) -> dict[str, list[str]]:
    """What on the host carries the process ID ``pid`` as a grader's tag."""
    name = f"simlab-{pid}"
    with open("/proc/self/mounts") as f:
        mounts = [
            line.split()[1]
            for line in f
            if line.split()[0] == name or f"/{name}/" in line.split()[1] + "/"
        ]
    folders = [
        p
        for p in glob.glob(os.path.join(tempfile.gettempdir(), f"{name}*"))
        if os.path.basename(p) == name or os.path.basename(p).startswith(name + "-")
    ]
    groups = [p for p in glob.glob(f"/sys/fs/cgroup/*/{name}-*") if p.rsplit("-", 1)[1].isdigit()]
    return {"mounts": mounts, "folders": folders, "groups": groups}


def _nothing_left(pid: int) -> dict[str, list]:  # noqa: ARG001 - reads as the check says
    return {"mounts": [], "folders": [], "groups": []}


def _grader(*args: str, point: str | None = None, sig: str = "") -> subprocess.Popen:
    """``simlab grade ...`` (jailed) in a session of its own, Ctrl-C as in a terminal; with
    ``point`` (``name`` or ``name:n``), interrupted by ``sig`` there."""
    env = {k: v for k, v in os.environ.items() if k != "SIMLAB_INTERRUPT_AT"}
    if point:
        name, _, nth = point.partition(":")
        env["SIMLAB_INTERRUPT_AT"] = f"{name}:{sig}:{nth or 1}"
    # This process's children from before (a process an earlier test started, say) are not the
    # grader's orphans.
    known = frozenset(_adopted())
    proc = subprocess.Popen(
        [sys.executable, "-m", "simlab", "grade", "--no-progress", *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    proc.known = known | {proc.pid}
    return proc


def _run(proc: subprocess.Popen) -> tuple[int, str, str]:
    out, err = proc.communicate(timeout=120)
    return proc.returncode, out, err


def _no_process_left(grader: subprocess.Popen) -> None:
    """The grader's orphans (adopted here) end within moments: each jail dies with its parent."""
    end = time.monotonic() + 10
    left = _adopted(grader.known)
    while left and time.monotonic() < end:
        time.sleep(0.05)
        left = _adopted(grader.known)
    told = {pid: _command_line(pid) for pid in left}
    for pid in left:
        _kill_and_reap(pid)
    assert told == {}, f"processes of grader {grader.pid} outlived it"


def _command_line(pid: int) -> str:
    """The command line of process ``pid`` as ``ps`` shows it (empty once it has ended)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return ""


def _class(folder: Path, students: int = 1) -> Path:
    """A class folder of ``students`` students (``s0``, ``s1``...), each handing in the solution."""
    for n in range(students):
        (folder / f"s{n}").mkdir(parents=True)
        shutil.copy(ROOT / "solutions" / NOTEBOOK, folder / f"s{n}" / NOTEBOOK)
    return folder


def _interrupted(proc: subprocess.Popen, sig: str) -> tuple[str, str]:
    """Wait for the interrupted grader; check how it ended and that nothing of it is left
    (after SIGKILL: until the next grader has run; the caller checks that)."""
    status, out, err = _run(proc)
    _no_process_left(proc)
    if sig == "SIGKILL":
        assert status == -signal.SIGKILL, err
    else:
        assert status == 130, err
        assert _left_by(proc.pid) == _nothing_left(proc.pid), err
    return out, err


def _after(proc: subprocess.Popen, sig: str, out: str, err: str, *args: str, graded: int = 1):
    """An interrupted grader printed no grade and said so; a killed one's leftovers are swept
    by the next grader (``simlab grade *args``), which grades all ``graded`` notebooks."""
    if sig != "SIGKILL":
        assert out == "" and err.splitlines()[-1] == "simlab: interrupted"
        return
    status, out, err = _run(_grader(*args))
    assert status == 0, err
    assert out.count(f"{MAX_SCORE}/{MAX_SCORE}") == graded, out
    assert _left_by(proc.pid) == _nothing_left(proc.pid)


#: (point, its n-th arrival), signal: together, every point and every signal in each mode.
PLAIN = [
    ("folder:1", "SIGINT"),
    ("mount:1", "SIGTERM"),  # one mount per runtime: its exchange folder
    ("group:1", "SIGKILL"),
    ("cell:2", "SIGINT"),
    ("check:4", "SIGTERM"),
]


@pytest.mark.parametrize(("point", "sig"), PLAIN)
def test_does_an_interrupted_grade_leave_nothing_behind(tmp_path, point, sig):
    folder = _class(tmp_path / "class")
    proc = _grader(str(folder), point=point, sig=sig)
    out, err = _interrupted(proc, sig)
    _after(proc, sig, out, err, str(folder))


QUEUE = [
    ("claim", "SIGINT"),  # claimed just after the interrupt: handed back all the same
    ("mount:1", "SIGINT"),
    ("jail:1", "SIGKILL"),
    ("check:2", "SIGTERM"),
    ("graded", "SIGINT"),
    ("commit", "SIGTERM"),
    ("commit", "SIGKILL"),
]


@pytest.mark.parametrize(("point", "sig"), QUEUE)
def test_does_an_interrupted_queue_worker_hand_back_and_leave_nothing_behind(tmp_path, point, sig):
    folder, db = _class(tmp_path / "class"), str(tmp_path / "q.sqlite")
    assert main(["grade", str(folder), "--queue", db, "--enqueue-only"]) == 0
    proc = _grader("--queue", db, "--worker", "--lease", "1", point=point, sig=sig)
    _, err = _interrupted(proc, sig)
    (s,) = _submissions(db)
    if sig != "SIGKILL":
        if point == "commit":  # the result was being saved: it is kept, once
            assert s.status == "graded" and [a.outcome for a in s.attempts] == ["graded"]
            assert "0 submission(s) handed back" in err.splitlines()[-1]
        else:
            assert s.status == "pending" and [a.outcome for a in s.attempts] == ["released"]
            assert "1 submission(s) handed back" in err.splitlines()[-1]
    status, _, err = _run(_grader("--queue", db, "--worker", "--lease", "1"))
    assert status == 0, err
    assert _left_by(proc.pid) == _nothing_left(proc.pid)  # swept by the next worker
    (s,) = _submissions(db)
    committed = [a for a in s.attempts if a.outcome in ("graded", "timeout")]
    assert s.status == "graded" and len(committed) == 1, s.attempts
    assert s.result["score"] == s.result["max_score"] == MAX_SCORE


#: A class graded two at a time, one in the grader and one in a grading process: every point
#: and every signal again, reached in both (in the grading process, the hook interrupts the
#: grader, SIGINT its process group).
PROCESSES = [*PLAIN, ("check:4", "SIGKILL")]


@pytest.mark.parametrize(("point", "sig"), PROCESSES)
def test_does_an_interrupted_grade_in_processes_leave_nothing_behind(tmp_path, point, sig):
    folder = _class(tmp_path / "class", students=2)
    proc = _grader(str(folder), "--jobs", "2", point=point, sig=sig)
    children = _grading_processes_of(proc)
    out, err = _interrupted(proc, sig)
    assert len(children) == 1, children  # seen while it ran
    for child in children:  # it removed what it made itself, the grader killed or not
        assert _left_by(child) == _nothing_left(child), err
    _after(proc, sig, out, err, str(folder), "--jobs", "2", graded=2)


#: A queue worker grading two at a time, one in its own process and one in a grading process.
QUEUE_PROCESSES = [
    ("cell:2", "SIGINT"),
    ("check:4", "SIGTERM"),
    ("check:4", "SIGKILL"),
]


@pytest.mark.parametrize(("point", "sig"), QUEUE_PROCESSES)
def test_does_an_interrupted_queue_worker_in_processes_hand_back_and_leave_nothing_behind(
    tmp_path, point, sig
):
    folder, db = _class(tmp_path / "class", students=2), str(tmp_path / "q.sqlite")
    assert main(["grade", str(folder), "--queue", db, "--enqueue-only"]) == 0
    proc = _grader("--queue", db, "--worker", "--jobs", "2", "--lease", "1", point=point, sig=sig)
    children = _grading_processes_of(proc)
    _, err = _interrupted(proc, sig)
    assert len(children) == 1, children  # seen while it ran
    for child in children:  # it removed what it made itself, the worker killed or not
        assert _left_by(child) == _nothing_left(child), err
    if sig != "SIGKILL":  # every submission held is handed back, none graded
        subs = _submissions(db)
        assert all(s.status == "pending" for s in subs), [s.attempts for s in subs]
        assert all(a.outcome == "released" for s in subs for a in s.attempts)
        held = sum(len(s.attempts) for s in subs)
        assert held >= 1 and f"{held} submission(s) handed back" in err.splitlines()[-1]
    status, _, err = _run(_grader("--queue", db, "--worker", "--lease", "1"))
    assert status == 0, err
    assert _left_by(proc.pid) == _nothing_left(proc.pid)  # swept by the next worker
    subs = _submissions(db)
    assert len(subs) == 2
    for s in subs:
        committed = [a for a in s.attempts if a.outcome in ("graded", "timeout")]
        assert s.status == "graded" and len(committed) == 1, s.attempts
        assert s.result["score"] == s.result["max_score"] == MAX_SCORE


def _grading_processes_of(proc: subprocess.Popen) -> set[int]:
    """The process IDs of ``proc``'s grading processes, watched until it ends."""
    seen: set[int] = set()

    def watch() -> None:
        while proc.poll() is None:
            for path in glob.glob(f"/proc/{proc.pid}/task/*/children"):
                try:
                    with open(path) as f:
                        pids = [int(pid) for pid in f.read().split()]
                    for pid in pids:
                        with open(f"/proc/{pid}/cmdline", "rb") as f:
                            if b"simlab.grading.processes" in f.read():
                                seen.add(pid)
                except OSError:
                    pass
            time.sleep(0.02)

    threading.Thread(target=watch, daemon=True).start()
    return seen


def _submissions(db: str) -> list:
    with open_queue(db) as q:
        return list(q.submissions())


#: A program that starts a jail (a Python that sleeps a minute) and dies before the jail could
#: ask to die with it.
_ORPHANING = """
import os, subprocess, sys
from simlab.grading.sandbox.jail import Jail, lifeline
argv = Jail().command([sys.executable, "-c", "import time; time.sleep(60)"])
subprocess.Popen(argv, start_new_session=True, stdin=subprocess.DEVNULL, pass_fds=(lifeline(),),
                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
os._exit(0)
"""


def test_does_a_jail_started_as_its_grader_dies_die_too():
    known = frozenset(_adopted())
    starter = subprocess.Popen([sys.executable, "-c", _ORPHANING])
    starter.known = known | {starter.pid}
    assert starter.wait(60) == 0
    _no_process_left(starter)


def test_does_a_jail_run_only_while_its_starters_lifeline_is_open():
    """A jail's first step runs it only while the lifeline of the process that started it
    is passed and open: one that reads as ended (its starter has ended) or is missing ends
    the jail before anything of it runs."""
    line = lifeline()
    argv = Jail().command([sys.executable, "-c", "print('ran')"])
    passed = subprocess.run(argv, pass_fds=(line,), capture_output=True, text=True, timeout=60)
    assert (passed.returncode, passed.stdout) == (0, "ran\n"), passed.stderr
    missing = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    assert (missing.returncode, missing.stdout) == (1, ""), missing.stderr
    ended_r, ended_w = os.pipe()
    os.close(ended_w)  # nobody holds it open: as the lifeline of a starter that has ended
    try:  # the same descriptor number, now that pipe (the shell execs: same process)
        swap = ["/bin/bash", "-c", f'exec {line}<&{ended_r}; exec "$@"', "bash", *argv]
        ended = subprocess.run(
            swap, pass_fds=(line, ended_r), capture_output=True, text=True, timeout=60
        )
    finally:
        os.close(ended_r)
    assert (ended.returncode, ended.stdout) == (1, ""), ended.stderr


def test_is_a_child_from_before_the_grader_not_taken_for_its_orphan():
    """A child this process had before a grader started (one an earlier test started, say)
    is neither blamed on the grader nor ended by the check."""
    earlier = subprocess.Popen(["sleep", "60"])
    try:
        known = frozenset(_adopted())
        grader = subprocess.Popen([sys.executable, "-c", "pass"])
        grader.known = known | {grader.pid}
        assert grader.wait(60) == 0
        _no_process_left(grader)
        assert earlier.poll() is None
    finally:
        earlier.kill()
        earlier.wait()
