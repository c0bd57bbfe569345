"""Can a hostile notebook escape ``simlab grade``? Every attack of issue 11, graded in one batch.

Each attack sits in the first answer cell of an untouched exercise notebook, so it runs in both
passes (the kernel and the sandbox where the hidden checks call). An attack that works *defines
the solution's answers* (it reads them, or carries them and uses them only when it got past a
limit), so a sandbox that fails shows up as points. The batch also holds an honest solution and
a blank notebook the attacks go after. It runs as a separate ``simlab grade --json --csv``
process, as an instructor would run it. Afterwards: every attack scored 0, the honest notebooks
scored what they deserve (also in a later run), no file of the checkout or the venv changed, no
file landed outside the jails' scratch space, no process is left, and the batch ended in time.
Marked ``serial``: ``make test`` runs it alone, since another test's jail would count as left.

A second batch grades exercise 02 with evidence forged inside the jail: stubs that still raise,
in a notebook that replaces the kit's ledger and races in its sandbox, and a loop that reads the
hidden check's script off the ledger it is handed; neither may gain a point.
"""

from __future__ import annotations

import csv
import json
import os
import site
import subprocess
import sys
import time
from pathlib import Path

import pytest
from submissions.cases import FENCING, LEASES, NO_HEARTBEAT_LOOP, ROOT, answer_source, with_answers

from simlab.grading.notebook import notebook_text, read_notebook
from simlab.grading.sandbox.jail import SANDBOX_UID, require

# The checks look at every process and every file of the machine: no other test may run beside.
pytestmark = pytest.mark.serial

TIMEOUT = "10"
#: The last argument of every process an attack leaves behind.
MARK = "simlab-attack-leftover"
QUESTIONS = ("cancel-after-claim", "cancel-after-first-step", "cancel-limits")
SOLUTION = "\n\n".join(answer_source("solutions", FENCING, q) for q in QUESTIONS)
PUBLIC = ROOT / "simlab" / "grading" / "public.py"
PLANTED_PTH = Path(site.getsitepackages()[0]) / "zz_simlab_attack.pth"

PEEK = """
import json as _json
try:
    _nb = _json.load(open({solution!r}))
    open({checks!r}).read()
except OSError:
    _nb = None
if _nb is not None:
    for _cell in _nb["cells"]:
        if _cell.get("metadata", {{}}).get("simlab", {{}}).get("role") == "answer":
            exec("".join(_cell["source"]), globals())
"""

DETACH = """
import os, subprocess, sys
_LOOP = '''
import os, sys, time
victim, table, folder, solution = sys.argv[1:5]
end = time.time() + 40
while time.time() < end:
    try:
        data = open(solution).read()
        with open(victim, "w") as f:
            f.write(data)
    except OSError:
        pass
    for path in (table, os.path.join(folder, "planted.txt")):
        try:
            with open(path, "a") as f:
                f.write("forged,row,999\\\\n")
        except OSError:
            pass
    time.sleep(0.2)
'''
_argv = [sys.executable, "-c", _LOOP, {victim!r}, {table!r}, {folder!r}, {solution!r}, {mark!r}]
subprocess.Popen(_argv, start_new_session=True, stdin=subprocess.DEVNULL,
                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execv(sys.executable, _argv)
    os._exit(0)
"""

PLANT = """
_done = 0
for _target in ({public!r}, {pth!r}):
    try:
        with open(_target, "a") as _f:
            _f.write("\\nimport os  # planted by a notebook\\n")
        _done += 1
    except OSError:
        pass
if _done:
    exec({solution_source!r}, globals())
"""

FORGE = """
import os
_forged = 0
for _pid in os.listdir("/proc"):
    if not _pid.isdigit() or int(_pid) == os.getpid():
        continue
    try:
        _cmd = open(f"/proc/{{_pid}}/cmdline", "rb").read()
    except OSError:
        continue
    if b"simlab" not in _cmd or b"grade" not in _cmd.split(b"\\0"):
        continue
    try:
        with open(f"/proc/{{_pid}}/fd/1", "w") as _f:
            _f.write('{{"notebook": "forged", "score": 999, "max_score": 17}}\\n')
        _forged += 1
    except OSError:
        pass
    try:
        open(f"/proc/{{_pid}}/mem", "r+b").close()
        _forged += 1
    except OSError:
        pass
if _forged:
    exec({solution_source!r}, globals())
"""

HALF_FRAME = """
import os, struct
for _fd in range(3, 1024):
    try:
        os.write(_fd, struct.pack(">I", 4096) + b'{{"ok": true, "value": ')
    except OSError:
        pass
"""

LIMITS_AND_MEMORY = """
import resource
_raised = 0
for _name in ("RLIMIT_AS", "RLIMIT_NPROC", "RLIMIT_CPU", "RLIMIT_FSIZE", "RLIMIT_NOFILE"):
    try:
        _inf = resource.RLIM_INFINITY
        resource.setrlimit(getattr(resource, _name), (_inf, _inf))
        _raised += 1
    except (ValueError, OSError):
        pass
_chunks = []
try:
    while len(_chunks) < 128:  # at most 8 GiB of address space, 64 MiB at a time
        _chunks.append(bytearray(64 * 2**20))
except MemoryError:
    pass
_got = len(_chunks)
del _chunks
if _raised or _got * 64 > 5 * 1024:
    exec({solution_source!r}, globals())
"""

FORK_BOMB = """
import os, sys
_kids = 0
for _ in range(150):
    try:
        _pid = os.fork()
    except OSError:
        break
    if _pid == 0:
        try:
            _sleep = [sys.executable, "-c", "import time; time.sleep(60)", {mark!r}]
            os.execv(sys.executable, _sleep)
        finally:
            os._exit(0)
    _kids += 1
if _kids > 100:
    exec({solution_source!r}, globals())
"""

ATTACKS = {
    "peek-solutions": PEEK,
    "detached-process": DETACH,
    "plant-source": PLANT,
    "forge-output": FORGE,
    "half-frame": HALF_FRAME,
    "limits-and-memory": LIMITS_AND_MEMORY,
    "fork-bomb": FORK_BOMB,
}


def _leftovers() -> list[str]:
    """Processes an attack or a jail left: MARK as last argument, or a jail of ours."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            argv = Path(f"/proc/{entry}/cmdline").read_bytes().rstrip(b"\0").split(b"\0")
        except OSError:
            continue
        text = b" ".join(argv)
        if argv[-1] == MARK.encode() or (b"bwrap" in argv[0] and b"simlab-" in text):
            found.append(f"{entry}: {text[:120]!r}")
    return found


def _snapshot(folder: Path, skip: tuple[str, ...] = ()) -> dict[str, tuple[int, int]]:
    """path -> (size, mtime) of every file below ``folder`` (caches and ``skip`` left out)."""
    caches = {".git", ".venv", "__pycache__", ".pytest_cache", ".hypothesis", ".ruff_cache"}
    out = {}
    for base, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if d not in caches and d not in skip]
        for name in files:
            stat = os.stat(os.path.join(base, name))
            out[os.path.join(base, name)] = (stat.st_size, stat.st_mtime_ns)
    return out


def _venv_snapshot() -> dict[str, tuple[int, int]]:
    out = {}
    for folder in (Path(site.getsitepackages()[0]), Path(sys.prefix) / "bin"):
        for entry in os.scandir(folder):
            stat = entry.stat(follow_symlinks=False)
            out[entry.path] = (stat.st_size, stat.st_mtime_ns)
    return out


def _tmp_owned_by_jail() -> list[str]:
    """Entries of the temporary folder owned by the jail's user (only meaningful as root)."""
    tmp = Path(os.environ.get("TMPDIR", "/tmp"))
    return sorted(p.name for p in tmp.iterdir() if p.lstat().st_uid == SANDBOX_UID)


def _grade(*args: str, timeout: float) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "simlab", "grade", "--json", "--timeout", TIMEOUT, *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
    )


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    """The attack batch, graded once; yields what the assertions need."""
    require()
    folder = tmp_path_factory.mktemp("class")
    table = folder.parent / "class.csv"
    exercise = read_notebook(ROOT / "exercises" / FENCING)
    solution_nb = read_notebook(ROOT / "solutions" / FENCING)
    victim = folder / "zz-victim" / FENCING
    honest = folder / "zz-honest" / FENCING
    for path, nb in ((victim, exercise), (honest, solution_nb)):
        path.parent.mkdir()
        path.write_text(notebook_text(nb))
    values = {
        "solution": str(ROOT / "solutions" / FENCING),
        "checks": str(ROOT / "simlab" / "grading" / "checks" / "fencing.py"),
        "victim": str(victim),
        "table": str(table),
        "folder": str(folder),
        "mark": MARK,
        "public": str(PUBLIC),
        "pth": str(PLANTED_PTH),
        "solution_source": SOLUTION,
    }
    stub = answer_source("exercises", FENCING, QUESTIONS[0])
    for name, attack in ATTACKS.items():
        cell = stub + "\n" + attack.format(**values)
        path = folder / name / FENCING
        path.parent.mkdir()
        path.write_text(notebook_text(with_answers(exercise, {QUESTIONS[0]: cell})))
    before = {
        "checkout": _snapshot(ROOT),
        "venv": _venv_snapshot(),
        "victim": victim.read_bytes(),
        "public": PUBLIC.read_bytes(),
        "tmp": _tmp_owned_by_jail(),
    }
    started = time.monotonic()
    try:
        done = _grade("--jobs", "2", "--csv", str(table), str(folder), timeout=600)
        elapsed = time.monotonic() - started
        csv_text = table.read_text()
        time.sleep(1.0)  # anything still alive would write again now
        yield {
            "done": done,
            "elapsed": elapsed,
            "folder": folder,
            "table": table,
            "csv_text": csv_text,
            "victim": victim,
            "honest": honest,
            "before": before,
        }
    finally:  # a failed jail must not leave the checkout or the venv changed
        if PUBLIC.read_bytes() != before["public"]:
            PUBLIC.write_bytes(before["public"])
        PLANTED_PTH.unlink(missing_ok=True)


def _objects(done: subprocess.CompletedProcess) -> dict[str, dict]:
    lines = done.stdout.splitlines()
    objects = [json.loads(line) for line in lines]
    assert all(isinstance(o, dict) and "notebook" in o for o in objects), lines
    return {Path(o["notebook"]).parent.name: o for o in objects}


def test_does_every_attack_gain_nothing_and_the_honest_keep_theirs(batch):
    done = batch["done"]
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    got = _objects(done)
    assert set(got) == {*ATTACKS, "zz-victim", "zz-honest"}, "one object per notebook, no forgery"
    assert "999" not in done.stdout
    for name in ATTACKS:
        assert got[name]["error"] is None
        assert got[name]["score"] == 0, (name, [q["feedback"] for q in got[name]["questions"]])
    assert got["zz-victim"]["score"] == 0
    assert got["zz-honest"]["score"] == got["zz-honest"]["max_score"] == 17


def test_is_the_half_frame_a_lost_question_not_a_stuck_batch(batch):
    first, *others = _objects(batch["done"])["half-frame"]["questions"]
    reasons = ("incomplete reply", "cannot read", "did not finish")
    assert any(words in first["feedback"] for words in reasons), first["feedback"]
    for q in others:  # the notebook went on: its other questions were graded as usual
        assert q["feedback"].startswith("not attempted"), q["feedback"]
    # nine notebooks, two at a time: the half frame costs its own timeouts, not a hang
    assert batch["elapsed"] < 200, batch["elapsed"]


def test_is_nothing_left_running_or_written_outside_the_jails(batch):
    assert _leftovers() == []
    before = batch["before"]
    assert _snapshot(ROOT) == before["checkout"], "the checkout changed"
    assert _venv_snapshot() == before["venv"], "the virtual environment changed"
    assert PUBLIC.read_bytes() == before["public"] and not PLANTED_PTH.exists()
    assert batch["victim"].read_bytes() == before["victim"], "the victim notebook changed"
    assert not (batch["folder"] / "planted.txt").exists()
    assert batch["table"].read_text() == batch["csv_text"], "the CSV changed after grading"
    if os.geteuid() == 0:
        assert _tmp_owned_by_jail() == before["tmp"], "a jail left files in the temporary folder"


def test_do_the_csv_rows_come_from_the_grader_alone(batch):
    rows = list(csv.DictReader(batch["table"].open()))
    assert len(rows) == len(ATTACKS) + 2
    assert all(row["score"] in ("0", "17") for row in rows)
    assert {row["student"] for row in rows} == {*ATTACKS, "zz-victim", "zz-honest"}


def test_does_a_later_run_grade_the_same_and_name_loose_files_apart(batch, tmp_path):
    table = tmp_path / "later.csv"
    victim, honest = batch["victim"], batch["honest"]
    done = _grade("--csv", str(table), str(victim), str(honest), timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    got = _objects(done)
    assert (got["zz-victim"]["score"], got["zz-honest"]["score"]) == (0, 17)
    students = [row["student"] for row in csv.DictReader(table.open())]
    assert sorted(students) == [
        f"zz-honest/{Path(FENCING).stem}",
        f"zz-victim/{Path(FENCING).stem}",
    ]
    assert _leftovers() == []


# -- evidence made inside the jail (notebook 02) ---------------------------------------------------

#: Replaces, in the sandbox only, every kit object that judges a ledger piece there: the ledger
#: the pieces are plugged into answers with the kit's own claim, heartbeat and record_effect, and
#: the replayed races report what atomic pieces would. The learner's stubs still raise.
FORGED_EVIDENCE = """
import sys as _sys
if "simlab.grading.sandbox.child" in _sys.modules:
    from simlab.ledger import Ledger as _Kit
    from simlab.records import Lease as _Lease
    import simlab.grading.pieces as _pieces
    import simlab.grading.factories as _factories
    for _name in ("claim", "heartbeat", "record_effect"):
        setattr(_pieces.PiecesLedger, _name, getattr(_Kit, _name))
    _A = _Lease("race", "A", 2, 0, 105.0, None, 2)
    _B = _Lease("race", "B", 3, 0, 205.0, None, 3)
    _RUNS = [
        {"A": _A, "B": "LeaseHeld: race", "gap": 1, "later": 0.0, "rival": "claim"},
        {"A": _A, "B": _B, "gap": 1, "later": 100.0, "rival": "claim"},
        {"A": _A, "B": True, "gap": 1, "later": 0.0, "rival": "cancel"},
    ]
    _EFFECTS = [{"gap": 1, "A": True, "B": False, "rows": 1, "statements": 1}]
    _factories.FACTORIES["contended-claims"] = lambda ns, *a, **k: _factories._Result(_RUNS)
    _factories.FACTORIES["contended-effects"] = lambda ns, *a, **k: _factories._Result(_EFFECTS)
"""

#: A loop without a heartbeat (worth 3 of 6) that reads the hidden check's script off the ledger
#: object it is handed and stops where the script steals the task.
PEEKING_LOOP = NO_HEARTBEAT_LOOP.replace(
    "    for step in range(lease.step, steps):",
    "    trouble = getattr(ledger, 'after_save', None) or {}\n"
    "    for step in range(lease.step, steps):",
).replace(
    '            return "lost"\n    return "completed"',
    '            return "lost"\n        if trouble.get(step + 1) == "steal":\n'
    '            return "lost"\n    return "completed"',
)
assert PEEKING_LOOP.count("trouble") == 2


@pytest.fixture(scope="module")
def evidence_batch(tmp_path_factory):
    """Notebook 02 with stubs and forged evidence, one with a peeking loop, and the solution,
    graded in one batch."""
    require()
    folder = tmp_path_factory.mktemp("evidence")
    exercise = read_notebook(ROOT / "exercises" / LEASES)
    solution = read_notebook(ROOT / "solutions" / LEASES)
    stub = answer_source("exercises", LEASES, "atomic-claim")
    notebooks = {
        "forged-evidence": with_answers(exercise, {"atomic-claim": stub + FORGED_EVIDENCE}),
        "peeking-loop": with_answers(solution, {"worker-loop": PEEKING_LOOP}),
        "zz-honest": solution,
    }
    for name, nb in notebooks.items():
        (folder / name).mkdir()
        (folder / name / LEASES).write_text(notebook_text(nb))
    done = _grade("--jobs", "2", str(folder), timeout=600)
    yield _objects(done), done


def test_does_evidence_forged_in_the_jail_gain_nothing(evidence_batch):
    got, done = evidence_batch
    assert done.returncode == 0, done.stderr[-2000:]
    points = {name: {q["id"]: q["points"] for q in o["questions"]} for name, o in got.items()}
    assert points["forged-evidence"] == {
        "atomic-claim": 0,
        "idempotent-send": 0,
        "worker-loop": 0,
    }, [q["feedback"] for q in got["forged-evidence"]["questions"]]
    assert points["peeking-loop"]["worker-loop"] == 3, got["peeking-loop"]["questions"]
    assert got["zz-honest"]["score"] == got["zz-honest"]["max_score"] == 25
    assert _leftovers() == []
