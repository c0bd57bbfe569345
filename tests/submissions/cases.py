"""Partly correct and hostile submissions, built from the shipped notebooks, with the exact
points each question must get.

A case starts from a solution or exercise notebook and replaces the answer cell of some
questions (or appends cells), the way a student's notebook would differ. Building the notebooks
from the shipped ones keeps the cases in step with the exercises.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from pathlib import Path

from simlab.grading.notebook import cell_question, cell_role, notebook_text, read_notebook
from tests.submissions.events import ADJACENT_DEDUPE, CASE_BLIND
from tests.submissions.rubric import NO_BUMP

ROOT = Path(__file__).resolve().parents[2]
FENCING = "01_fencing_and_cancellation.ipynb"
LEASES = "02_leases_effects_and_loop.ipynb"
EVENTS = "06_events_and_permissions.ipynb"


def answer_source(base: str, notebook: str, question: str) -> str:
    """The source of a question's answer cell in ``solutions`` or ``exercises``."""
    nb = read_notebook(ROOT / base / notebook)
    for cell in nb.cells:
        if cell_role(cell) == "answer" and cell_question(cell) == question:
            return cell.source
    raise KeyError(question)


def with_answers(nb, answers: dict[str, str]):
    """A copy of ``nb`` whose answer cells for the given questions hold new sources."""
    nb = copy.deepcopy(nb)
    for cell in nb.cells:
        if cell_role(cell) == "answer" and cell_question(cell) in answers:
            cell.source = answers[cell_question(cell)]
    return nb


@dataclass
class Case:
    """One submission: where it starts, what changes, and the points each question must get."""

    name: str
    base: str  # "solutions" or "exercises"
    notebook: str
    answers: dict[str, str]
    expected: dict[str, int]
    feedback: dict[str, str] = field(default_factory=dict)  # question -> words that must appear
    extra_cells: list[str] = field(default_factory=list)

    def write(self, folder: Path) -> Path:
        from nbformat.v4 import new_code_cell

        nb = with_answers(read_notebook(ROOT / self.base / self.notebook), self.answers)
        nb.cells.extend(new_code_cell(source) for source in self.extra_cells)
        path = folder / self.name / self.notebook
        path.parent.mkdir(parents=True)
        path.write_text(notebook_text(nb))
        return path


def _solution(question: str, notebook: str = FENCING) -> str:
    return answer_source("solutions", notebook, question)


def _exercise(question: str, notebook: str = FENCING) -> str:
    return answer_source("exercises", notebook, question)


# A heartbeat and a send_step as the solution writes them (without its docstrings), for the
# answers whose mistake is elsewhere in their cell.
FENCED_HEARTBEAT = """

def heartbeat(db, lease, ttl, now):
    cursor = db.execute(
        "UPDATE tasks SET lease_until = ?, updated_at = ?"
        " WHERE task_id = ? AND epoch = ? AND status = 'running'",
        (now + ttl, now, lease.task_id, lease.epoch),
    )
    return cursor.rowcount == 1
"""

SEND_STEP = """

def send_step(ledger, lease, step, mailbox):
    key = f"{lease.task_id}:email:{step}"
    if ledger.record_effect(lease, key):
        mailbox.send(key)
        return True
    return False
"""

# The chapter's claim: an UPDATE, then a separate SELECT. Every case-by-case check and every
# simulation passes (SimPy never interleaves it); the races the grader replays between its two
# statements catch it, and they belong to the core idea (3 of 10).
TWO_STATEMENT_CLAIM = (
    """
def claim(db, task_id, worker, ttl, now):
    updated = db.execute(
        "UPDATE tasks SET status = 'running', epoch = epoch + 1, attempts = attempts + 1,"
        " worker = ?, lease_until = ?, updated_at = ?"
        " WHERE task_id = ? AND (status = 'queued' OR (status = 'running' AND lease_until <= ?))",
        (worker, now + ttl, now, task_id, now),
    ).rowcount
    row = db.execute(f"SELECT {LEASE_COLUMNS}, status FROM tasks WHERE task_id = ?",
                     (task_id,)).fetchone()
    if row is None:
        raise UnknownTask(task_id)
    if not updated:
        if row[7] == "running":
            raise LeaseHeld(task_id, row[1], row[4])
        raise TerminalTask(task_id, row[7])
    return lease_from_row(row[:7])
"""
    + FENCED_HEARTBEAT
)

# record_effect that forgets the fence (any lease may record), and a loop that never
# heartbeats: each fails the part that looks for it, which is the core idea (3 of 9, 3 of 6).
UNFENCED_EFFECT = (
    """
def record_effect(db, lease, key, now):
    cursor = db.execute(
        "INSERT OR IGNORE INTO effects (task_id, key, epoch, worker, recorded_at)"
        " VALUES (?, ?, ?, ?, ?)",
        (lease.task_id, key, lease.epoch, lease.worker, now),
    )
    return cursor.rowcount == 1
"""
    + SEND_STEP
)

# The solution's loop without its heartbeat.
NO_HEARTBEAT_LOOP = _solution("worker-loop", LEASES).replace(
    '        if not ledger.heartbeat(lease, ttl):\n            return "lost"\n', ""
)
assert "ledger.heartbeat" not in NO_HEARTBEAT_LOOP and "ledger.save(" in NO_HEARTBEAT_LOOP

HELPER_TAMPERING = """
import contextlib
import sys
import simlab.checker.checker
import simlab.learn.self_check


@contextlib.contextmanager
def self_check(question):
    try:
        yield
    except BaseException:
        pass
    print(f"[pass] {question}: the public checks pass (the grader runs more).")


simlab.learn.self_check.self_check = self_check
sys.modules["simlab.checker.checker"].stale_commits = lambda history: []
print("All tests passed! 17/17")
"""

NOISY = """
import sys, warnings
import ipywidgets
from IPython.display import display
warnings.warn("this answer is noisy")
sys.stderr.write("Traceback (most recent call last): not really\\n")
print("FAILED " * 100)
display(ipywidgets.IntSlider(description="ttl"))
ipywidgets.interact(lambda x: x, x=3)
"""


def cases() -> list[Case]:
    """Every case. Expected points are reasoned in the comments above each source."""
    full = {"cancel-after-claim": 6, "cancel-after-first-step": 6, "cancel-limits": 5}
    return [
        Case(
            "partial",
            "exercises",
            FENCING,
            {"cancel-after-claim": NO_BUMP},
            {"cancel-after-claim": 3, "cancel-after-first-step": 0, "cancel-limits": 0},
            {"cancel-after-claim": "bump the epoch", "cancel-after-first-step": "not attempted"},
        ),
        # An endless loop in one answer cell and os._exit in another: only those two lose.
        Case(
            "loop-and-exit",
            "solutions",
            FENCING,
            {
                "cancel-after-claim": _solution("cancel-after-claim") + "\nwhile True:\n    pass\n",
                "cancel-limits": "import os\nos._exit(1)\n" + _solution("cancel-limits"),
            },
            {"cancel-after-claim": 0, "cancel-after-first-step": 6, "cancel-limits": 0},
            {
                "cancel-after-claim": "did not finish",
                "cancel-limits": "crashed the notebook's process",
            },
        ),
        # Megabytes of output, a syntax error, and an exception after a correct definition.
        Case(
            "flood-syntax-exception",
            "solutions",
            FENCING,
            {
                "cancel-after-claim": _solution("cancel-after-claim")
                + "\nprint('x' * 3_000_000)\n",
                "cancel-after-first-step": "def cancel_after_first_step(path:\n    pass\n",
                "cancel-limits": _solution("cancel-limits") + "\nraise ValueError('oops')\n",
            },
            {"cancel-after-claim": 0, "cancel-after-first-step": 0, "cancel-limits": 0},
            {
                "cancel-after-claim": "printed",
                "cancel-after-first-step": "SyntaxError",
                "cancel-limits": "ValueError",
            },
        ),
        # Stubs, a self_check that always passes, patched kit modules, a fake score printed.
        Case(
            "fake-pass",
            "exercises",
            FENCING,
            {"cancel-after-claim": HELPER_TAMPERING + _exercise("cancel-after-claim")},
            dict.fromkeys(full, 0),
            {"cancel-after-claim": "replaces", "cancel-limits": "not attempted"},
        ),
        # Correct answers that print to stdout (below the limit), write to stderr and show widgets.
        Case("noisy-correct", "solutions", FENCING, {q: NOISY + _solution(q) for q in full}, full),
        # Correct except for the three classic mistakes of exercise 2.
        Case(
            "classic-mistakes",
            "solutions",
            LEASES,
            {
                "atomic-claim": TWO_STATEMENT_CLAIM,
                "idempotent-send": UNFENCED_EFFECT,
                "worker-loop": NO_HEARTBEAT_LOOP,
            },
            # The chapter's claim loses the core (6 of 10): the details stay.
            {"atomic-claim": 4, "idempotent-send": 3, "worker-loop": 3},
            {
                "atomic-claim": "both hold epoch",
                "idempotent-send": "stale lease",
                "worker-loop": "heartbeat",
            },
        ),
        # Exercise 6: an absorber that drops only back-to-back copies, a case-blind narrowing.
        # The absorber keeps the point for handing back the very dicts it was given (criterion
        # "given"): it breaks the core, conflicts and versions, not that.
        Case(
            "events-mistakes",
            "solutions",
            EVENTS,
            {"absorber": ADJACENT_DEDUPE, "narrowing": CASE_BLIND},
            {"absorber": 1, "narrowing": 2},
            {"absorber": "the same seq of a task twice", "narrowing": "other capitals"},
        ),
    ]
