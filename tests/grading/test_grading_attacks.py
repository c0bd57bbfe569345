"""Can a hostile notebook escape ``simlab grade``? Every known attack, graded in one batch,
with the attacks on the text a person reads, on hidden material in feedback, on links and on
blame (:data:`EXTRA`, :data:`REFUSED`).

Beside them, attacks on the grader's own process and on what jails share with the host: a reply
that floods a set with integers that all hash alike, a ledger file whose ``tasks`` is an endless
view, comm (widget) messages by the hundred megabytes, a jail filling the host folder it may
write, and a notebook whose cells each stay just under the timeout while it starts spinning
processes in sessions of their own (its classmate, graded beside it, must keep every point).

Each attack sits in the first answer cell of an untouched exercise notebook, so it runs in the
notebook's run and on the line where the hidden checks call. An attack that works *defines
the solution's answers* (it reads them, or carries them and uses them only when it got past a
limit), so a sandbox that fails shows up as points. The batch also holds an honest solution and
a blank notebook the attacks go after. It runs as a separate ``simlab grade --json --csv``
process, as an instructor would run it. Afterwards: every attack scored 0, the honest notebooks
scored what they deserve (also in a later run), no file of the checkout or the venv changed, no
file landed outside the jails' scratch space, no process is left, and the batch ended in time.
Text a notebook writes (its file name, feedback, the sandbox's report of what it replaced)
draws no line of its own, escapes nothing to the terminal and stays short; class names, numbers
near a hidden seed and a hidden record's words never reach the feedback; a link is refused in
one line (exit status 1, as for a malformed notebook) and the classmate it points at keeps their
grade; whatever the learner's code or file causes is the learner's, never "grader error".
Marked ``serial``: ``make test`` runs it alone, since another test's jail would count as left.

A second batch grades exercise 02 with evidence forged inside the jail: stubs that still raise,
in a notebook that replaces the kit's ledger and races in its sandbox, and a loop that reads the
hidden check's script off the ledger it is handed; neither may gain a point.
"""

from __future__ import annotations

import csv
import glob
import json
import os
import re
import site
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from nbformat.v4 import new_code_cell

from simlab.grading.checks.checkpoints.migration import HIDDEN_WORDS
from simlab.grading.checks.release.injection import FOREIGN_HOSTS
from simlab.grading.checks.release.threshold_world import HIDDEN_SEEDS
from simlab.grading.notebook import notebook_text, read_notebook
from simlab.grading.sandbox.jail import SANDBOX_UID, require
from simlab.grading.text import FEEDBACK_CHARS
from tests.submissions.cases import (
    FENCING,
    LEASES,
    NO_HEARTBEAT_LOOP,
    ROOT,
    answer_source,
    with_answers,
)

# The checks look at every process and every file of the machine: no other test may run beside.
pytestmark = [pytest.mark.serial, pytest.mark.jail]

TIMEOUT = "10"
RELEASE = "05_release_regression.ipynb"
CHECKPOINTS = "04_checkpoints_and_resume.ipynb"
#: The whole budget of one notebook in the batch (honest ones need a few seconds). The spinner
#: uses all of it and sorts first, so the other notebooks are graded beside it meanwhile.
NOTEBOOK_TIMEOUT = "25"
#: Grading processes of the batch: the spinner holds one for its whole budget, and the other two
#: grade every other notebook beside it, so that they are done before that budget ends and the
#: batch lasts about as long as the budget.
JOBS = "3"
#: The last argument of every process an attack leaves behind.
MARK = "simlab-attack-leftover"
QUESTIONS = ("cancel-after-claim", "cancel-after-first-step", "cancel-limits")
SOLUTION = "\n\n".join(answer_source("solutions", FENCING, q) for q in QUESTIONS)
PUBLIC = ROOT / "simlab" / "learn" / "self_check.py"
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

#: A path below the notebook's folder that, printed raw, clears its own line and draws a full
#: score for the honest notebook, then hides the real score (``\x1b[8m``: concealed text).
FORGED_FILE = (
    "x: 17/17  (fencing)\n\x1b[2K\rzz-honest/01_fencing_and_cancellation.ipynb: 17/17  "
    "(fencing)\x1b[8m.ipynb"
)
#: Feedback that would forge lines: an exception class and message made of them (1.6 MB), a
#: sandbox report of replaced names made of them, and ``self_check`` really replaced.
FORGED_TEXT = r"""
import gc
_LINE = "\n\x1b[2K\rzz-honest/01_fencing_and_cancellation.ipynb: 17/17  (fencing)\x1b[1A\n"
_Forged = type(_LINE * 3, (Exception,), {})

def cancel(state):
    raise _Forged(_LINE * 20_000)

def _report(self, message):
    return {"ok": True, "value": [_LINE * 1000, "simlab.ledger.Ledger" + _LINE, "self_check"] * 50}

for _o in gc.get_objects():
    if type(_o).__name__ == "_Child":
        type(_o).op_tampered = _report
        break
self_check = None
raise _Forged(_LINE * 20_000)
"""
#: Hidden inputs handed back through class names and a number near a seed (exercise release).
HIDDEN_NAMES = (
    """
def _named(text):
    return type(str(text)[-70:], (Exception,), {})

def injection_rule(obs):
    import re
    body = obs["deliveries"][0]["body"]
    hosts = re.findall(r"https?://(?:[^/@ ]*@)?([^/?: ]+)", body, re.I)
    words = " ".join(re.findall("[a-z]+", hosts[-1].lower())) if hosts else "no link here"
    raise _named(body)(words)  # the class is named after the body, the message spells a host
""",
    """
def noise_peak(candidate, seed):
    return seed + 0.25

def choose_threshold(seeds):
    return type(repr(seeds), (), {})()

def trip_rate(candidate, threshold, seeds):
    raise _named(seeds)()
""",
)
#: A hidden record's words handed back in plain words (exercise checkpoints).
HIDDEN_WORDS_BACK = """
def migrate_v1_to_v2(v1):
    raise ValueError(v1["query"])
"""
#: A learner's piece that breaks a hidden check outside its parts (exercise leases).
OUTSIDE_A_PART = "\nclaim = None\n"

#: Submissions in the batch beyond the fencing attacks: folder -> (exercise notebook, file
#: name, {question: source added after the stub of its answer cell}).
EXTRA = {
    "forged-report": (FENCING, FORGED_FILE, {QUESTIONS[0]: FORGED_TEXT}),
    "hidden-names": (
        RELEASE,
        RELEASE,
        dict(zip(("injection-rule", "choose-threshold"), HIDDEN_NAMES, strict=True)),
    ),
    "hidden-words": (CHECKPOINTS, CHECKPOINTS, {"pure-migration": HIDDEN_WORDS_BACK}),
    "outside-a-part": (LEASES, LEASES, {"atomic-claim": OUTSIDE_A_PART}),
}
#: Submissions refused without being graded, with the words of their one line.
REFUSED = {
    "link-solution": "a symbolic link, not followed",
    "link-classmate": "a symbolic link, not followed",
    "link-folder": "a symbolic link, not followed",
    "nested": "not a readable notebook (nested too deeply)",
}

HASH_FLOOD = """
import json as _json, os as _os, struct as _struct, sys as _sys
def cancel(state):
    if "simlab.grading.sandbox.child" in _sys.modules:  # only where the hidden checks call
        _m = 2**61 - 1  # hash(n * _m) == 0 for every n: a set of them takes quadratic time
        _same = [_m * _n for _n in range(1, 600_001)]
        _body = _json.dumps({{"ok": True, "value": {{"$s": _same}}}})
        _frame = _struct.pack(">I", len(_body)) + _body.encode()
        for _fd in range(3, 64):
            try:
                _os.write(_fd, _frame)
            except OSError:
                pass
        _os._exit(0)
    raise NotImplementedError
"""

SQLITE_VIEW = """
import sqlite3 as _sqlite3
_honest = dict(globals())
exec({first_step_source!r}, _honest)
def cancel_after_first_step(path):
    answers = _honest["cancel_after_first_step"](path)
    db = _sqlite3.connect(path)  # the ledger's tasks become a view over an endless query
    db.execute("ALTER TABLE tasks RENAME TO stored")
    db.execute("CREATE VIEW tasks AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL "
               "SELECT n + 1 FROM r) SELECT stored.* FROM stored, r")
    db.commit()
    db.close()
    return answers
"""

COMM_FLOOD = """
try:
    import comm as _comm_package  # how ipywidgets opens its comms
    _comm = _comm_package.create_comm(target_name="jupyter.widget",
                  data={{"state": {{"_model_module": "x", "_model_name": "y"}}}})
    for _i in range(60):  # 480 MiB of widget state, which nbclient would keep
        _comm.send({{"state": {{f"k{{_i}}": "x" * (8 * 2**20)}}}})
except Exception:
    pass
"""

FOLDER_FLOOD = """
import os as _os
for _line in open("/proc/self/mountinfo"):
    _point = _line.split()[4]
    if "/simlab-" not in _point:
        continue
    for _k in range(3):  # 300 MiB into each host folder bound read-write
        try:
            with open(_os.path.join(_point, f"fill{{_k}}"), "wb") as _f:
                for _ in range(100):
                    _f.write(bytes(2**20))
        except OSError:
            pass
    for _k in range(5000):
        try:
            open(_os.path.join(_point, f"n{{_k}}"), "w").close()
        except OSError:
            break
"""

SPIN = """
import os as _os, time as _time
for _ in range(40):  # spinning processes, each in a session of its own
    try:
        if _os.fork() == 0:
            _os.setsid()
            _end = _time.time() + 90
            while _time.time() < _end:
                pass
            _os._exit(0)
    except OSError:
        break
"""
#: Cells after the notebook's own: each stays just under the timeout; then the answers.
SLOW_CELLS = [*["import time\ntime.sleep(9)"] * 5, "exec({solution_source!r}, globals())"]

ATTACKS = {
    "peek-solutions": PEEK,
    "detached-process": DETACH,
    "plant-source": PLANT,
    "forge-output": FORGE,
    "half-frame": HALF_FRAME,
    "limits-and-memory": LIMITS_AND_MEMORY,
    "fork-bomb": FORK_BOMB,
    "hash-flood": HASH_FLOOD,
    "sqlite-view": ("cancel-after-first-step", SQLITE_VIEW),
    "comm-flood": COMM_FLOOD,
    "folder-flood": FOLDER_FLOOD,
    "aa-spin-and-wait": SPIN,
}
#: Attacks whose notebook also gets these cells at its end.
EXTRA_CELLS = {"aa-spin-and-wait": SLOW_CELLS}
#: Attacks that define one honest answer: that question may keep some points, no others.
PARTIAL = {"sqlite-view": "cancel-after-first-step"}


_VENV = os.fsencode(os.path.realpath(sys.prefix))


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
        # a jail of ours binds this virtual environment (others' graders may run beside)
        ours = b"bwrap" in argv[0] and b"simlab-" in text and _VENV in text
        if argv[-1] == MARK.encode() or ours:
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
    owned = []
    for p in tmp.iterdir():
        try:
            if p.lstat().st_uid == SANDBOX_UID:
                owned.append(p.name)
        except FileNotFoundError:
            continue  # removed between the listing and the look (a grader's folder): not left
    return sorted(owned)


def _listing(folder: Path) -> list[os.DirEntry]:
    """The entries of ``folder``; none when it is gone (a grader renames its own as it ends)."""
    try:
        with os.scandir(folder) as entries:
            return list(entries)
    except OSError:
        return []


def _shared_bytes(tmp: Path) -> int:
    """Bytes of every file in the host folders jails may write: the exchange folders."""
    total = 0
    # each in its grader's own temporary folder, simlab-<pid> (renamed while a grader closes),
    # or in the folder of one of its grading processes, simlab-<pid> inside the grader's
    graders = [Path(e.path) for e in _listing(tmp) if e.name.startswith("simlab-")]
    graders += [
        Path(e.path)
        for grader in graders
        for e in _listing(grader)
        if re.fullmatch(r"simlab-\d+", e.name)
    ]
    folders = [
        Path(e.path)
        for grader in graders
        for e in _listing(grader)
        if e.name.startswith("simlab-exchange-")
    ]
    for folder in folders:
        for base, _, files in os.walk(folder):
            for name in files:
                try:
                    total += os.lstat(os.path.join(base, name)).st_size
                except OSError:
                    pass
    return total


class _Watch:
    """While a grader runs: the peak resident memory (``VmHWM``) of the grader and of each of
    its grading processes (:mod:`simlab.grading.processes`), the largest, and the most bytes
    the host folders jails may write held at once."""

    def __init__(self, pid: int):
        self.pid = pid
        self.peak_memory = 0
        self.shared_bytes = 0
        self._tmp = Path(os.environ.get("TMPDIR", "/tmp"))
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(0.1):
            self.shared_bytes = max(self.shared_bytes, _shared_bytes(self._tmp))
            for pid in [self.pid, *_grading_processes(self.pid)]:
                try:
                    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                        if line.startswith("VmHWM:"):
                            self.peak_memory = max(self.peak_memory, int(line.split()[1]) * 1024)
                except OSError:
                    pass

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()


def _grading_processes(grader: int) -> list[int]:
    """The process IDs of ``grader``'s grading processes now."""
    found = []
    for path in glob.glob(f"/proc/{grader}/task/*/children"):
        try:
            for pid in Path(path).read_text().split():
                if b"simlab.grading.processes" in Path(f"/proc/{pid}/cmdline").read_bytes():
                    found.append(int(pid))
        except OSError:
            pass
    return found


def _grade(*args: str, timeout: float, watch: list | None = None) -> subprocess.CompletedProcess:
    argv = [sys.executable, "-m", "simlab", "grade", "--json", "--timeout", TIMEOUT, *args]
    with subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT
    ) as proc:
        watcher = _Watch(proc.pid)
        try:
            out, err = proc.communicate(timeout=timeout)
        finally:
            proc.kill()
            watcher.stop()
    if watch is not None:
        watch.append(watcher)
    return subprocess.CompletedProcess(argv, proc.returncode, out, err)


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
        "checks": str(ROOT / "simlab" / "grading" / "checks" / "fencing" / "__init__.py"),
        "victim": str(victim),
        "table": str(table),
        "folder": str(folder),
        "mark": MARK,
        "public": str(PUBLIC),
        "pth": str(PLANTED_PTH),
        "solution_source": SOLUTION,
        "first_step_source": answer_source("solutions", FENCING, QUESTIONS[1]),
    }
    for name, attack in ATTACKS.items():
        question, attack = attack if isinstance(attack, tuple) else (QUESTIONS[0], attack)
        cell = answer_source("exercises", FENCING, question) + "\n" + attack.format(**values)
        nb = with_answers(exercise, {question: cell})
        nb.cells.extend(new_code_cell(c.format(**values)) for c in EXTRA_CELLS.get(name, ()))
        path = folder / name / FENCING
        path.parent.mkdir()
        path.write_text(notebook_text(nb))
    _extra(folder, honest)
    before = {
        "checkout": _snapshot(ROOT),
        "venv": _venv_snapshot(),
        "victim": victim.read_bytes(),
        "public": PUBLIC.read_bytes(),
        "tmp": _tmp_owned_by_jail(),
    }
    started = time.monotonic()
    watch: list[_Watch] = []
    try:
        budget = ("--notebook-timeout", NOTEBOOK_TIMEOUT)
        done = _grade(
            "--jobs", JOBS, *budget, "--csv", str(table), str(folder), timeout=900, watch=watch
        )
        elapsed = time.monotonic() - started
        seen = watch[0]
        print(  # the budget figures, shown with pytest -s
            f"attack batch: {elapsed:.0f} s, grader peak memory {seen.peak_memory / 2**20:.0f} "
            f"MiB, shared folders at most {seen.shared_bytes / 2**20:.1f} MiB"
        )
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
            "watch": watch[0],
        }
    finally:  # a failed jail must not leave the checkout or the venv changed
        if PUBLIC.read_bytes() != before["public"]:
            PUBLIC.write_bytes(before["public"])
        PLANTED_PTH.unlink(missing_ok=True)


def _extra(folder: Path, honest: Path) -> None:
    """Write :data:`EXTRA` and :data:`REFUSED` into the class ``folder``."""
    for name, (notebook, file_name, added) in EXTRA.items():
        nb = read_notebook(ROOT / "exercises" / notebook)
        answers = {q: answer_source("exercises", notebook, q) + "\n" + a for q, a in added.items()}
        path = folder / name / file_name
        path.parent.mkdir(parents=True)
        path.write_text(notebook_text(with_answers(nb, answers)))
    for name, target in (
        ("link-solution", ROOT / "solutions" / FENCING),
        ("link-classmate", Path("..") / honest.parent.name / FENCING),
    ):
        (folder / name).mkdir()
        (folder / name / FENCING).symlink_to(target)
    (folder / "link-folder").symlink_to(honest.parent.name, target_is_directory=True)
    (folder / "nested").mkdir()
    (folder / "nested" / FENCING).write_text("[" * 100_000 + "]" * 100_000)


def _objects(done: subprocess.CompletedProcess, folder: Path) -> dict[str, dict]:
    """The JSON objects of a run, by the entry of the class ``folder`` each sits in."""
    lines = done.stdout.splitlines()
    objects = [json.loads(line) for line in lines]
    assert all(isinstance(o, dict) and "notebook" in o for o in objects), lines
    named = {Path(o["notebook"]).relative_to(folder).parts[0]: o for o in objects}
    assert len(named) == len(objects), "one object per submission"
    return named


GRADED = (*ATTACKS, *EXTRA)


def test_does_every_attack_gain_nothing_and_the_honest_keep_theirs(batch):
    done = batch["done"]
    assert done.returncode == 1, "the refused links and the nested file, as malformed notebooks"
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    got = _objects(done, batch["folder"])
    assert set(got) == {*GRADED, *REFUSED, "zz-victim", "zz-honest"}, "no forgery, none lost"
    # the forged rows' score (a world's hex seed may hold the digits: not a score)
    assert "999" not in re.sub(r'"world": "[0-9a-f]+"', "", done.stdout)
    for name in GRADED:
        assert got[name]["error"] is None, (name, got[name]["error"])
        kept = {
            q["id"]: q["points"] for q in got[name]["questions"] if q["id"] == PARTIAL.get(name)
        }
        assert got[name]["score"] == sum(kept.values()), (
            name,
            [q["feedback"] for q in got[name]["questions"]],
        )
    for name, words in REFUSED.items():
        assert got[name]["score"] == 0 and got[name]["questions"] == []
        assert words in got[name]["error"] and name in got[name]["error"], got[name]["error"]
    assert got["zz-victim"]["score"] == 0
    assert got["zz-honest"]["score"] == got["zz-honest"]["max_score"] == 17


def _feedback(obj: dict) -> list[str]:
    return [q["feedback"] for q in obj["questions"]] + ([obj["error"]] if obj["error"] else [])


def test_is_every_feedback_one_short_harmless_line(batch):
    lines = batch["done"].stdout.splitlines()
    assert all(line.isprintable() for line in lines), "each JSON line prints as one harmless line"
    for name, obj in _objects(batch["done"], batch["folder"]).items():
        for said in _feedback(obj):
            assert len(said) <= FEEDBACK_CHARS, (name, len(said))
    forged = _objects(batch["done"], batch["folder"])["forged-report"]
    assert forged["notebook"] == str(batch["folder"] / "forged-report" / FORGED_FILE)
    first = forged["questions"][0]["feedback"]
    assert "\x1b" in first and "17/17" in first, "the exception's class name, as produced"
    # Its forged report of replaced names never shows: replacing the child's op_tampered is
    # itself a change of the grader's code, seen by the guard, and no later question is judged.
    said = [q["feedback"] for q in forged["questions"]]
    assert not any("simlab.ledger.Ledger" in text for text in said), "the forged names"
    assert all("replaced the grader's simlab.grading.sandbox.child._Child.op_tampered" in text
               for text in said[1:])  # fmt: skip
    assert [q["points"] for q in forged["questions"]] == [0] * len(said)


def test_does_no_hidden_input_come_back_in_feedback(batch):
    got = _objects(batch["done"], batch["folder"])
    said = " ".join(_feedback(got["hidden-names"])).lower()
    for seed in HIDDEN_SEEDS:
        assert f"{seed + 0.25:g}" not in said, seed
    for host in FOREIGN_HOSTS:  # every host a world may draw, nor spelt in plain words
        words = " ".join(re.findall("[a-z]+", host))
        assert host not in said and (not words or words not in said), host
    assert "(13, 46, 40)" not in said and "[13, 46, 40]" not in said
    assert "raised an exception" in said and "gave a float" in said
    words = " ".join(_feedback(got["hidden-words"])).lower()
    assert not [w for w in HIDDEN_WORDS if len(w) > 3 and w.lower() in words], words
    # Where hidden records reach the learner's code, its exceptions show no message at all.
    assert "migrate_v1_to_v2() raised valueerror;" in words, words


def test_is_the_blame_the_learners_for_what_the_learners_code_caused(batch):
    got = _objects(batch["done"], batch["folder"])
    claim = got["outside-a-part"]["questions"][0]
    assert claim["id"] == "atomic-claim" and claim["points"] == 0
    # The hidden checks lend the ledger to the learner's claim, so a claim that is no function
    # fails inside the parts (each part names it); either way the learner's claim is named.
    said = claim["feedback"]
    assert said.endswith("the question gets 0") or "claim() raised TypeError" in said, said
    for obj in got.values():
        assert not any("grader error" in f or "instructor" in f for f in _feedback(obj)), obj


@pytest.fixture(scope="module")
def reruns(batch, tmp_path_factory):
    """After the batch, two graders side by side: the text report (no ``--json``) of three of its
    entries, and a later JSON run of the victim and the honest notebook with a CSV of its own."""
    folder, table = batch["folder"], tmp_path_factory.mktemp("later") / "later.csv"
    grade = [sys.executable, "-m", "simlab", "grade", "--timeout", TIMEOUT]
    text = [
        *grade,
        *map(str, (folder / "forged-report", batch["honest"], folder / "link-classmate")),
    ]
    later = [*grade, "--json", "--csv", str(table), str(batch["victim"]), str(batch["honest"])]
    procs = [
        subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
        for argv in (text, later)
    ]
    done = []
    try:
        for proc in procs:
            out, err = proc.communicate(timeout=300)
            done.append(subprocess.CompletedProcess(proc.args, proc.returncode, out, err))
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()
    return {"text": done[0], "later": done[1], "table": table}


def test_does_the_text_report_draw_one_line_per_question_and_no_forged_line(batch, reruns):
    done = reruns["text"]
    assert done.returncode == 1, done.stderr[-2000:]
    out = done.stdout
    assert all(ch == "\n" or ch.isprintable() for ch in out), "no escape reaches the terminal"
    heads = [line for line in out.splitlines() if re.match(r"^\S.*: \d+/\d+", line)]
    assert len(heads) == 3, heads
    assert heads[0].startswith('"') and heads[0].endswith('": 0/17  (fencing)'), heads[0]
    assert heads[1] == f"{batch['honest']}: 17/17  (fencing)"
    assert heads[2].endswith(": 0/0") and "link-classmate" in heads[2]
    blocks = out.split("\n\n")
    assert [len(b.splitlines()) for b in blocks] == [4, 4, 2], blocks


def test_is_the_half_frame_a_lost_question_not_a_stuck_batch(batch):
    first, *others = _objects(batch["done"], batch["folder"])["half-frame"]["questions"]
    reasons = ("incomplete reply", "cannot read", "did not finish")
    assert any(words in first["feedback"] for words in reasons), first["feedback"]
    for q in others:  # the notebook went on: its other questions were graded as usual
        assert q["feedback"].startswith("not attempted"), q["feedback"]
    # every notebook of the batch, JOBS at a time: the half frame costs its own timeouts, not a hang
    assert batch["elapsed"] < 360, batch["elapsed"]


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
    rows = list(csv.DictReader(batch["table"].open(encoding="utf-8")))
    assert len(rows) == len(GRADED) + len(REFUSED) + 2
    assert all(row["score"] in ("0", "17") for row in rows)
    assert {row["student"] for row in rows} == {*GRADED, *REFUSED, "zz-victim", "zz-honest"}
    assert all(cell.isprintable() for row in rows for cell in row.values())
    assert [row["score"] for row in rows if row["student"] == "zz-honest"] == ["17"]


def test_does_a_later_run_grade_the_same_and_name_loose_files_apart(batch, reruns):
    done, table = reruns["later"], reruns["table"]
    assert done.returncode == 0, done.stderr[-2000:]
    got = _objects(done, batch["folder"])
    assert (got["zz-victim"]["score"], got["zz-honest"]["score"]) == (0, 17)
    students = [row["student"] for row in csv.DictReader(table.open())]
    assert sorted(students) == [
        f"zz-honest/{Path(FENCING).stem}",
        f"zz-victim/{Path(FENCING).stem}",
    ]
    assert _leftovers() == []


def _questions(batch, name: str) -> dict[str, dict]:
    return {q["id"]: q for q in _objects(batch["done"], batch["folder"])[name]["questions"]}


def test_do_a_hash_flood_and_an_endless_view_cost_their_question_not_the_batch(batch):
    flood = _questions(batch, "hash-flood")[QUESTIONS[0]]
    assert flood["points"] == 0 and "malformed" in flood["feedback"], flood
    view = _questions(batch, "sqlite-view")[QUESTIONS[1]]
    assert view["points"] < view["max_points"], view
    assert "holds no task" in view["feedback"], view
    assert batch["elapsed"] < 300, batch["elapsed"]


def test_does_one_budget_bound_everything_a_notebook_causes(batch):
    # Without a budget: 5 cells of 9 s, then 17/17.
    for q in _questions(batch, "aa-spin-and-wait").values():
        assert q["points"] == 0 and "budget" in q["feedback"], q
    assert f"its {NOTEBOOK_TIMEOUT} s budget" in q["feedback"], q


def test_do_comm_messages_count_as_output_and_cost_the_grader_no_memory(batch):
    comm = _questions(batch, "comm-flood")[QUESTIONS[0]]
    assert comm["points"] == 0 and "printed too much" in comm["feedback"], comm
    # nbclient would have kept 480 MiB of widget state
    assert batch["watch"].peak_memory < 400 * 2**20, batch["watch"].peak_memory


def test_does_no_jail_fill_a_host_folder_it_may_write(batch):
    # the folder flood tried 300 MiB and 5,000 files in every host folder its jail may write
    assert batch["watch"].shared_bytes < 16 * 2**20, batch["watch"].shared_bytes


def test_does_no_classmate_run_past_its_timeout_beside_a_spinning_jail(batch):
    # Every jail gets one CPU weight, however many sessions it starts: the spinner's neighbours
    # (it sorts first, so every other notebook of the batch runs beside it) finish in time.
    for name, graded in _objects(batch["done"], batch["folder"]).items():
        if name == "aa-spin-and-wait":
            continue
        late = [q["feedback"] for q in graded["questions"] if "ran past the" in q["feedback"]]
        assert not late, (name, late)


# -- evidence made inside the jail (notebook 02) ---------------------------------------------------

#: Replaces, in the sandbox only, every kit object that judges a ledger piece there: the ledger
#: the pieces are plugged into answers with the kit's own claim, heartbeat and record_effect, and
#: the replayed races report what atomic pieces would. The learner's stubs still raise.
FORGED_EVIDENCE = """
import sys as _sys
if "simlab.grading.sandbox.child" in _sys.modules:
    from simlab.ledger import Ledger as _Kit
    from simlab.records import Lease as _Lease
    import simlab.learn.pieces as _pieces
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
    yield _objects(done, folder), done


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
