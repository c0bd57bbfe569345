"""Does the grader stay fair where it cannot cap a jail (not root: no cgroups, no tmpfs)?

Every test here forces that path, also when the tests run as root: no control group can be made
(``Group.make`` returns None) and no folder can be capped (``cap_folder`` returns False), which
is what a grader that is not root gets. Then a request is judged by the CPU time its jail used,
with a wall-clock backstop, and the grader measures the host folders a jail may write.

* A correct cell needing half a CPU-second passes while spinning processes, each in a session
  of its own and more of them than cores, saturate the host; a spinning cell still stops near
  its limit, a sleeping one at the backstop (and never past the notebook's budget).
* A cell writing 300 MiB into a shared folder is stopped, the folder is emptied, the grader
  blames the learner, and an honest notebook graded beside it keeps its grade.

Marked ``serial``: the tests load the whole machine and look at the temporary folder.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from simlab.grading import grade
from simlab.grading.notebook import notebook_text, read_notebook
from simlab.grading.sandbox import cgroup, exchange
from simlab.grading.sandbox.jail import make_shared
from simlab.grading.sandbox.meter import BACKSTOP
from simlab.grading.sandbox.supervisor import Sandbox, SandboxLost
from tests.submissions.cases import FENCING, ROOT, answer_source, with_answers

pytestmark = [pytest.mark.serial, pytest.mark.jail]

#: Burns ``seconds`` of its own CPU time, however slowly the host lets it.
BURN = """
import time
def burn(seconds):
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass
    return "done"
def spin():
    while True:
        pass
def nap():
    time.sleep(120)
"""


@pytest.fixture
def no_root_caps(monkeypatch):
    """What a grader that is not root gets: no control group, no capped folder."""
    monkeypatch.setattr(cgroup.Group, "make", classmethod(lambda cls, **kw: None))
    monkeypatch.setattr(exchange, "cap_folder", lambda *args: False)


def _spinners(n: int) -> list[subprocess.Popen]:
    return [
        subprocess.Popen(
            [sys.executable, "-c", "while True: pass"],
            start_new_session=True,
            stdin=subprocess.DEVNULL,
        )
        for _ in range(n)
    ]


def _stop(procs: list[subprocess.Popen]) -> None:
    for proc in procs:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except OSError:
            pass
        proc.wait()


def _ready(timeout: float) -> Sandbox:
    box = Sandbox(timeout=timeout)
    assert box.exec_cell(0, BURN).status == "ok"
    assert box.metered, "the non-root path is forced"
    return box


def _until_lost(box: Sandbox, function: str, match: str) -> float:
    """Seconds from calling ``function()`` in ``box`` until the sandbox is lost with a message
    matching ``match`` (the test fails if it returns or is lost otherwise)."""
    started = time.monotonic()
    with pytest.raises(SandboxLost, match=match):
        box.call(function)
    return time.monotonic() - started


def test_does_a_correct_cell_pass_while_a_neighbour_saturates_the_host(no_root_caps):
    with _ready(1.5) as box:
        spinners = _spinners(3 * (os.cpu_count() or 1))
        try:
            started = time.monotonic()
            assert box.call("burn", 0.5) == "done"
            elapsed = time.monotonic() - started
        finally:
            _stop(spinners)
    # The load was real: by wall-clock time alone the cell would have timed out.
    assert elapsed > 1.5, elapsed


def test_does_a_spinning_cell_still_time_out_near_its_limit(no_root_caps):
    with _ready(1.5) as box:
        elapsed = _until_lost(box, "spin", r"spin\(\) did not finish within 1.5 s of CPU time")
        assert not box.alive
    # Not before its limit, and stopped by its CPU time, well before the backstop (how much
    # later than 1.5 s depends on what else the host runs).
    assert 1.4 < elapsed < 1.5 * BACKSTOP - 0.5, elapsed


def test_does_a_sleeping_cell_time_out_at_the_backstop(no_root_caps):
    with _ready(1.0) as box:
        elapsed = _until_lost(box, "nap", r"within 3 s of wall-clock time")
    assert BACKSTOP - 0.1 < elapsed < BACKSTOP + 1.0, elapsed


def test_does_the_backstop_never_pass_the_notebooks_budget(no_root_caps):
    with _ready(1.0) as box:
        box.set_budget(time.monotonic() + 1.8, "the notebook's time budget ran out")
        elapsed = _until_lost(box, "nap", "budget ran out")
    assert 1.0 < elapsed < 2.5, elapsed


def test_is_the_root_path_still_judged_by_the_wall_clock():
    if os.geteuid() != 0 or cgroup.Group.make(processes=8, memory=2**30) is None:
        pytest.skip("needs root and a writable cgroup v1 hierarchy")
    with Sandbox(timeout=1.0) as box:
        assert box.exec_cell(0, BURN).status == "ok" and not box.metered
        assert _until_lost(box, "nap", r"nap\(\) did not finish within 1 s \(an endless") < 2.0


#: 300 MiB in 10 MiB files into every host folder the jail may write (found as the mount points
#: of simlab's folders), then the solution's answer.
FILL = """
import os as _os
for _line in open("/proc/self/mountinfo"):
    _point = _line.split()[4]
    if "/simlab-" not in _point and "/shared-" not in _point:
        continue
    for _k in range(30):
        try:
            with open(_os.path.join(_point, f"fill{_k}"), "wb") as _f:
                _f.write(bytes(10 * 2**20))
        except OSError:
            pass
"""


def test_is_a_cell_filling_a_shared_folder_stopped_and_the_folder_emptied(no_root_caps):
    folder = make_shared(tempfile.mkdtemp(prefix="shared-"))
    try:
        with Sandbox(timeout=20, shared=[folder]) as box:
            started = time.monotonic()
            result = box.exec_cell(0, FILL)
            elapsed = time.monotonic() - started
            assert result.status == "filled", result
            assert result.detail == "wrote more than 144 MiB into a shared folder"
            assert not box.alive and not os.path.exists(box.exchange.path)
        assert os.listdir(folder) == [], "the folder was emptied"
        assert elapsed < 10, elapsed
    finally:
        os.rmdir(folder)


def _simlab_folders() -> set[str]:
    """The folders this process's grader shares with jails (and its private copies of their
    files), at any depth of its own temporary folder, ``simlab-<pid>``: its grading processes
    make theirs inside it. Another grader's folders (a run beside this one) are not looked at."""
    top = Path(tempfile.gettempdir()) / f"simlab-{os.getpid()}"
    prefixes = tuple(f"simlab-{kind}-" for kind in ("exchange", "private", "sandbox"))
    found = set()
    for folder, subfolders, _ in os.walk(top):  # one removed meanwhile is skipped
        found.update(os.path.join(folder, s) for s in subfolders if s.startswith(prefixes))
    return found


def test_does_a_filler_of_the_notebooks_run_cost_no_honest_grade(no_root_caps, tmp_path):
    solution = read_notebook(ROOT / "solutions" / FENCING)
    question = "cancel-after-claim"
    answer = answer_source("solutions", FENCING, question) + FILL
    filler = with_answers(solution, {question: answer})
    paths = []
    for name, nb in (("filler", filler), ("honest", solution)):
        path = tmp_path / name / FENCING
        path.parent.mkdir()
        path.write_text(notebook_text(nb))
        paths.append(path)
    before = _simlab_folders()
    filled, honest = grade(paths, jobs=2, timeout=20)
    assert honest.score == honest.max_score == 17, [q.feedback for q in honest.questions]
    if os.geteuid() == 0:
        # The only host folder the jail sees is the exchange folder, the grader's own (the jail's
        # user may write only in a folder a check makes in it): the filler wrote nothing and keeps
        # what its answer is worth.
        assert filled.score == 17, [q.feedback for q in filled.questions]
    else:
        # Without root the jail's user maps to the grader's, the folder's owner: the flood is
        # caught, its question gets 0, the others keep theirs.
        first = filled.questions[0]
        assert first.id == question and first.points == 0, first
        assert "into a shared folder" in first.feedback
        assert filled.score == 17 - first.max_points, [q.feedback for q in filled.questions]
    assert not any("grader error" in q.feedback for q in filled.questions)
    assert _simlab_folders() - before == set(), "a shared folder was left behind"


def _run(cells: list, timeout: int):
    """The notebook's run of ``cells`` (sources or cells), and the runtime it ran in."""
    from nbformat.v4 import new_code_cell, new_notebook

    from simlab.grading.runtime import Runtime, plan

    cells = [new_code_cell(c) if isinstance(c, str) else c for c in cells]
    boxes = Runtime(plan(new_notebook(cells=cells)), timeout, max_output=10**6)
    try:
        return boxes.run(), boxes
    finally:
        boxes.close()


def test_does_a_correct_cell_of_the_run_pass_while_a_neighbour_saturates_the_host(no_root_caps):
    # The notebook's own run is judged by CPU time too.
    spinners = _spinners(3 * (os.cpu_count() or 1))
    try:
        started = time.monotonic()
        runs, _ = _run([BURN + "\nburn(0.6)"], timeout=1)
        elapsed = time.monotonic() - started
    finally:
        _stop(spinners)
    assert runs[0].status == "ok", runs[0]
    assert elapsed > 1, elapsed


def test_do_spinning_and_sleeping_cells_of_the_run_stop_by_cpu_and_by_the_backstop(no_root_caps):
    started = time.monotonic()
    runs, _ = _run(["while True: pass", "import time; time.sleep(120)"], timeout=1)
    assert (runs[0].status, runs[0].detail) == ("timeout", "ran past the 1 s limit of CPU time")
    assert runs[1].status == "timeout", runs[1]
    assert runs[1].detail == f"ran past the {BACKSTOP:.0f} s limit of wall-clock time"
    assert time.monotonic() - started < 60
