"""``grade()``: points per question for a batch of notebooks, without the classic grader faults.

A submission's path, all of it in :func:`_grade_notebook`:

1. **Intake.** Read the notebook, refuse a link or anything but a regular file inside the folders
   given (never followed), name its exercise. A notebook that cannot be read, or names no known
   exercise, is reported with an ``error`` and a score of 0.
2. **Run.** One jailed runtime (:class:`~simlab.grading.runtime.Runtime`, over
   :class:`~simlab.grading.sandbox.supervisor.Sandbox`) runs every code cell in notebook order,
   as "Restart & Run All" would: IPython's ``InteractiveShell`` with magics and display hooks,
   no kernel. Each cell gets ``timeout`` seconds and a status: ``ok``, ``error``, ``timeout``,
   ``dead``, ``flood``, ``filled``, ``not run`` or ``budget``. Output is counted, never kept.
   The runtime has two lines: before the first public check or demo cell it splits in two
   processes, the notebook's run (which goes on with every cell) and the hidden checks' line,
   which runs only the learner's cells (every code cell but ``check`` and ``demo`` ones), in
   the same order. A cell that hangs or kills the runtime loses it; a fresh one replays the
   cells before (leaving out every cell that ever hung or killed one) and the run goes on.
3. **Checks.** Once the last cell ran, the run's process ends and each question's hidden check
   (:mod:`simlab.grading.checks`), in the exercise's order, calls the learner's functions on
   the checks' line and judges the answers here: no helper the grader uses lives where the
   learner's code runs, and the learner's output is discarded. A hang or crash during one
   question's check costs that question only: the next one gets a fresh runtime that replays
   the learner's cells.
4. **Combine.** A question whose answer cell raised, or whose answer or check cell hung, died,
   flooded or filled a folder in the run, gets 0 with that reason; otherwise it gets what its
   hidden check gave. The run can only take points away; the checks award them.
5. **Bound** (:func:`grade_notebook`): feedback and errors as they were produced, each cut to
   :data:`~simlab.grading.text.FEEDBACK_CHARS` characters, never escaped: a notebook cannot fill
   memory or the queue's store. Each medium that presents the grade escapes them once
   (:mod:`simlab.grading.report`, :mod:`simlab.grading.text`).

The runtime runs in a jail (:mod:`simlab.grading.sandbox.jail`): user ``nobody``, no network, no
view of the hidden checks, the solutions or other submissions, hard limits. Nothing a
submission does stops the batch. What the learner's code causes is the learner's (0 for the
question, one line); only a bug of a hidden check itself says "grader error".

Everything one notebook causes fits in one budget (``notebook_timeout``, by default
:data:`BUDGET_FACTOR` times ``timeout``): one deadline bounds every cell, every call and every
replay in a fresh runtime; once it has passed, each question not graded yet gets 0 with one
line saying so.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import nbformat

from simlab.grading import processes
from simlab.grading.checks import EXERCISES, exercise_for
from simlab.grading.checks.hidden_world import judged_in, seed_for
from simlab.grading.messages import Message, capped, message, sentence
from simlab.grading.notebook import (
    NotebookError,
    cell_question,
    cell_role,
    exercise_of,
    read_submission,
)
from simlab.grading.processes import tuned_for_grading
from simlab.grading.questions import Exercise, Question, Tally, fault_message, feedback_message
from simlab.grading.runtime import Runtime, plan
from simlab.grading.sandbox.jail import require as require_sandbox
from simlab.grading.sandbox.supervisor import CellResult, SandboxLost
from simlab.grading.student import Student
from simlab.grading.submissions import find_notebooks, refusal_message, same_files
from simlab.grading.text import FEEDBACK_CHARS, bounded, path_text, quiet_feedback, quoted_path
from simlab.grading.version import grader_version

__all__ = [
    "QuestionGrade",
    "NotebookGrade",
    "grade",
    "grade_notebook",
    "find_notebooks",
    "DEFAULT_TIMEOUT",
    "DEFAULT_MAX_OUTPUT",
]

#: Seconds one cell (or one call into the student's code) may run.
DEFAULT_TIMEOUT = 60
#: Bytes of output one cell may print before it counts as a flood.
DEFAULT_MAX_OUTPUT = 1_000_000
#: The default budget of one notebook, in multiples of the timeout of one cell or call.
BUDGET_FACTOR = 10


def budget_message(seconds: float) -> Message:
    """The feedback of a question left ungraded when the notebook's budget ran out."""
    return message("grader.budget", s=f"{seconds:g}")


@dataclass
class QuestionGrade:
    """Points for one question, and one line that says what failed (never the test code):
    ``feedback`` in English, ``said`` the same line as a message, rendered in the report's
    language (None for a grade made without one: the report then shows ``feedback``)."""

    id: str
    points: int
    max_points: int
    feedback: str
    said: Message | None = field(default=None, compare=False, repr=False)
    #: The instructor's override laid over the grader's points (:mod:`simlab.grading.overrides`),
    #: None for points the grader gave.
    override: dict[str, Any] | None = field(default=None, compare=False, repr=False)

    def to_dict(self, messages: bool = False) -> dict[str, Any]:
        """The ``--json`` object of the question (with its message when ``messages``, its
        override when it has one)."""
        data: dict[str, Any] = {
            "id": self.id,
            "points": self.points,
            "max_points": self.max_points,
            "feedback": self.feedback,
        }
        if messages and self.said is not None:
            data["message"] = self.said.to_data()
        if self.override is not None:
            data["override"] = self.override
        return data


def _graded(q: Question, points: int, said: Message | str) -> QuestionGrade:
    """The grade of ``q``: ``points`` and the line ``said``."""
    said = sentence(said)
    return QuestionGrade(q.id, points, q.points, str(said), said)


@dataclass
class NotebookGrade:
    """The grade of one notebook. ``error`` is set when it could not be graded at all: in
    English, and as a message in ``error_said`` (rendered in the report's language; None for
    a grade made without one: the report then shows ``error``)."""

    notebook: str
    exercise: str | None
    score: int
    max_score: int
    questions: list[QuestionGrade] = field(default_factory=list)
    error: str | None = None
    seconds: float = 0.0
    error_said: Message | None = field(default=None, compare=False, repr=False)
    #: The hidden world it was judged in (:mod:`~simlab.grading.checks.hidden_world`), for the
    #: instructor: never shown to the learner.
    world: str | None = field(default=None, compare=False)
    #: Its lateness when a deadline is in force (:mod:`simlab.grading.late_grades`): made at
    #: report time, never stored with the grade; ``score`` is then the score after it.
    late: dict[str, Any] | None = field(default=None, compare=False, repr=False)
    #: ``graded``, or for a grade read from a queue (:func:`simlab.grading.queue_report.as_grade`)
    #: ``pending`` or ``dead``: not graded (yet), so it has no points.
    status: str = field(default="graded", compare=False, repr=False)
    #: The queue's claims of it (:class:`~simlab.grading.queue_store.store.Attempt`), oldest
    #: first; None for a grade that did not come from a queue.
    attempts: tuple[Any, ...] | None = field(default=None, compare=False, repr=False)

    @classmethod
    def failed(cls, notebook: str, said: Message) -> NotebookGrade:
        """The grade of a notebook that could not be graded at all, for the reason ``said``."""
        return cls(notebook, None, 0, 0, error=str(said), error_said=said)

    def to_dict(self, messages: bool = False) -> dict[str, Any]:
        """The ``--json`` object: notebook, score, max_score, questions (and exercise, error);
        with ``messages``, each question's feedback also as a message (``message``), so a
        report made later renders it in its own language; so is ``error``
        (``error_message``)."""
        data: dict[str, Any] = {
            "notebook": self.notebook,
            "exercise": self.exercise,
            "score": self.score,
            "max_score": self.max_score,
            "questions": [q.to_dict(messages) for q in self.questions],
            "error": self.error,
        }
        if self.world is not None:
            data["world"] = self.world
        if messages and self.error_said is not None:
            data["error_message"] = self.error_said.to_data()
        return data


def _grade_question(q: Question, boxes: Runtime, budget: float) -> QuestionGrade:
    tally = Tally(hidden=q.hidden)
    lost: Message | None = None
    if boxes.not_judged is not None:
        return _graded(q, 0, boxes.not_judged)
    if boxes.spent():
        return _graded(q, 0, boxes.out_of_budget or "")
    try:
        sandbox = boxes.get()
    except SandboxLost as exc:
        return _graded(q, 0, _lost(exc, boxes))
    sandbox.set_deadline(budget, message("grader.question_time", q=q.id, s=f"{budget:g}"))
    try:
        missing = [n for n, kind in Student(sandbox).defined(*q.names).items() if kind is None]
        if missing:
            names = ", ".join(f"`{n}`" for n in missing)
            return _graded(q, 0, _not_defined(names, boxes))
        with quiet_feedback(tally.quiet):  # a Fail the check raises outside its parts too
            q.check(Student(sandbox), tally)
    except SandboxLost as exc:
        lost = exc.said
        if exc.kind == "tampered":
            return _graded(q, 0, _lost(exc, boxes))
    except Exception as exc:
        said = fault_message(exc, quiet=tally.quiet)
        if said is not None:  # the learner's code raised, or its answer was refused
            return _graded(q, 0, message("grader.gets_zero", said=tally.said(said)))
        bug = message("grader.check_bug", q=q.id, exc=type(exc).__name__)
        return _graded(q, 0, bug)  # a bug in a hidden check: this question only, and say so
    finally:
        sandbox.set_deadline(None)
    if lost is None and not q.consistent(tally):
        parts = message("grader.check_parts", q=q.id, n=tally.count, p=q.points)
        return _graded(q, 0, parts)
    if lost is not None and lost == boxes.out_of_budget:
        return _graded(q, 0, lost)
    points = 0 if lost is not None else q.score(tally)
    return _graded(q, points, feedback_message(tally, tally.count, lost))


def _lost(exc: SandboxLost, boxes: Runtime) -> Message:
    """What a lost sandbox costs: the question's points, and, when the sandbox found the
    grader's code in it replaced, every later question's too (the whole question, not the
    criteria that rest on the sandbox's word: every value the sandbox sends was read by that
    code, and a correct answer has no reason to replace it)."""
    if exc.kind == "tampered":
        boxes.not_judged = exc.said
    return exc.said


def _not_defined(names: str, boxes: Runtime) -> Message:
    """Why the checks find ``names`` undefined: a cell that raised on the checks' line only
    (its error), a cell left out after it hung or crashed, or nothing the grader saw."""
    if boxes.raised:
        first = boxes.raised[min(boxes.raised)]
        return message("grader.not_defined_raised", names=names, detail=first.said)
    key = "grader.not_defined_skipped" if boxes.bad else "grader.not_defined"
    return message(key, names=names)


def hidden_checks(
    nb: nbformat.NotebookNode,
    exercise: Exercise,
    *,
    timeout: float,
    budget: float | None = None,
    jailed: bool = True,
    deadline: float | None = None,
    out_of_budget: Message | None = None,
) -> tuple[dict[str, QuestionGrade], Runtime]:
    """The hidden checks alone, without the notebook's run: the learner's cells in a sandbox
    (jailed unless ``jailed=False``), then every question's hidden check; ``budget`` bounds one
    question's checks, ``deadline`` (``time.monotonic()``) all of it (questions after it get
    ``out_of_budget``)."""
    boxes = Runtime(plan(nb), timeout, jailed, deadline, out_of_budget)
    try:
        budget = budget or 4 * timeout
        return {q.id: _grade_question(q, boxes, budget) for q in exercise.questions}, boxes
    finally:
        boxes.close()


# ------------------------------------------------------------------------ combining -----------

_BROKEN = {"timeout", "dead", "flood", "filled", "not run"}


def _cell_failure(
    nb: nbformat.NotebookNode, runs: dict[int, CellResult], qid: str, out_of_budget: Message
) -> Message | None:
    """Why the notebook's run fails question ``qid``: its answer cell raised, or one of its
    cells hung, died, flooded or filled a folder, or the notebook's budget ran out before its
    cells ran. None if its cells ran."""
    for i, cell in enumerate(nb.cells):
        if cell_question(cell) != qid or i not in runs:
            continue
        run, role = runs[i], cell_role(cell) or "code"
        if run.status == "budget":
            return out_of_budget
        if run.status in _BROKEN or (run.status == "error" and role == "answer"):
            what = message("grader.cell_" + run.status.replace(" ", "_"))
            role = message(f"grader.role_{role}")  # one of ROLES, or "code"
            return message("grader.cell_failed", role=role, what=what, detail=run.said)
    return None


def grade_notebook(
    path: str | Path,
    *,
    timeout: float = DEFAULT_TIMEOUT,
    max_output: int = DEFAULT_MAX_OUTPUT,
    sandbox: bool = True,
    notebook_timeout: float | None = None,
) -> NotebookGrade:
    """Grade one notebook (never raises for anything the notebook contains). ``sandbox``
    jails its runtime (:func:`grade` checks first that jails work here);
    ``notebook_timeout`` (default :data:`BUDGET_FACTOR` times ``timeout``) bounds its run and
    its checks together. A link or anything but a regular file is refused
    (:func:`~simlab.grading.submissions.refusal_message`). Feedback and errors are the text as
    produced, bounded (:func:`bounded_grade`), not escaped."""
    return bounded_grade(_grade_notebook(path, timeout, max_output, sandbox, notebook_timeout))


def bounded_grade(grade: NotebookGrade) -> NotebookGrade:
    """``grade`` with its feedback and error cut to at most
    :data:`~simlab.grading.text.FEEDBACK_CHARS` characters each (their messages too, in every
    language), as they were produced: not escaped, since each medium that shows them escapes
    them (:mod:`simlab.grading.text`). The bound where a grade is taken in: no notebook fills
    memory, a report or the queue's store."""
    for q in grade.questions:
        q.feedback = bounded(q.feedback)
        if q.said is not None:
            q.said = capped(q.said, FEEDBACK_CHARS)
    if grade.error is not None:
        grade.error = bounded(grade.error)
        if grade.error_said is not None:
            grade.error_said = capped(grade.error_said, FEEDBACK_CHARS)
    return grade


def _grade_notebook(
    path: str | Path,
    timeout: float,
    max_output: int,
    sandbox: bool,
    notebook_timeout: float | None,
) -> NotebookGrade:
    """Intake, run, checks, combine (:func:`grade_notebook` bounds)."""
    started = time.perf_counter()
    seconds = notebook_timeout or BUDGET_FACTOR * timeout
    deadline = time.monotonic() + seconds
    out_of_budget = budget_message(seconds)
    name = path_text(path)
    # intake: read, refuse, name the exercise
    refused = refusal_message(path)
    if refused is not None:
        return NotebookGrade.failed(
            name, message("grader.refused", path=quoted_path(path), why=refused)
        )
    try:
        nb, raw = read_submission(path)
    except NotebookError as exc:
        return NotebookGrade.failed(name, exc.said)
    seed = seed_for(raw, grader_version())
    exercise = exercise_for(nb, Path(path).name)
    if exercise is None:
        known = ", ".join(sorted(EXERCISES))
        declared = exercise_of(nb)
        if declared is None:
            return NotebookGrade.failed(name, message("grader.no_exercise", known=known))
        said = message("grader.unknown_exercise", declared=declared[:60], known=known)
        return NotebookGrade.failed(name, said)

    # run, then checks, in one runtime
    boxes = Runtime(plan(nb), timeout, sandbox, deadline, out_of_budget, max_output)
    grades: dict[str, QuestionGrade] = {}
    broke: Message | None = None
    try:
        boxes.run()
        with judged_in(seed):
            grades = {q.id: _grade_question(q, boxes, 4 * timeout) for q in exercise.questions}
    except Exception as exc:  # a grader bug must not stop the batch
        error = sentence(f"{type(exc).__name__}: {exc}")  # Python's words, as they are
        broke = message("grader.checks_broke", error=error)
    finally:
        boxes.close()

    # combine: a broken cell of the run costs its question what the checks gave
    tampered = boxes.tampered or []
    note = ", ".join(tampered[:5]) + (f" and {len(tampered) - 5} more" if len(tampered) > 5 else "")
    questions = []
    for q in exercise.questions:
        failed = _cell_failure(nb, boxes.runs, q.id, out_of_budget)
        if failed == out_of_budget:
            questions.append(_graded(q, 0, failed))
        elif failed is not None:
            questions.append(_graded(q, 0, _with_note(failed, note)))
        elif broke is not None or q.id not in grades:
            questions.append(_graded(q, 0, broke or out_of_budget))
        else:
            g = grades[q.id]
            if g.points < g.max_points and g.said != out_of_budget:
                g = _graded(q, g.points, _with_note(g.said or sentence(g.feedback), note))
            questions.append(g)
    return NotebookGrade(
        name,
        exercise.id,
        sum(g.points for g in questions),
        exercise.max_score,
        questions,
        seconds=time.perf_counter() - started,
        world=f"{seed:016x}",
    )


def _with_note(said: Message, replaced: str) -> Message:
    """``said`` with the note that the notebook replaces ``replaced`` (when it replaces
    anything), cut short enough that the note still fits in one question's feedback."""
    if not replaced:
        return said
    room = FEEDBACK_CHARS - len(str(message("grader.note", body="", names=replaced)))
    return message("grader.note", body=capped(said, room), names=replaced)


# ------------------------------------------------------------------------ batches -------------


def default_jobs() -> int:
    """Notebooks graded at once: one per CPU (each uses one sandbox at a time)."""
    return max(1, os.cpu_count() or 1)


def grade(
    paths: Sequence[str | Path] | str | Path,
    *,
    timeout: float = DEFAULT_TIMEOUT,
    max_output: int = DEFAULT_MAX_OUTPUT,
    jobs: int | None = None,
    progress: bool = False,
    sandbox: bool = True,
    notebook_timeout: float | None = None,
) -> list[NotebookGrade]:
    """Grade notebooks and folders of notebooks, ``jobs`` at a time; results in path order.
    One at a time grades in this process; with ``jobs`` above one, each other job grades in a
    grading process of its own (:mod:`simlab.grading.processes`), started once for the batch.

    ``progress=True`` shows a progress bar on stderr. Raises ``FileNotFoundError`` for a path
    that does not exist, and :class:`~simlab.grading.sandbox.jail.SandboxUnavailable` when
    ``sandbox`` (the default) is asked for and bubblewrap cannot jail here (both before grading
    anything); never for what a notebook contains. ``sandbox=False`` runs the student's code as
    this user, unjailed: safe for one's own work only. ``notebook_timeout`` bounds all the work
    of one notebook (default :data:`BUDGET_FACTOR` times ``timeout``).
    """
    if isinstance(paths, (str, Path)):
        paths = [paths]
    if sandbox:
        require_sandbox()
    notebooks = find_notebooks(paths)
    if not notebooks:
        return []
    results: list[NotebookGrade | None] = [None] * len(notebooks)
    twins = same_files(notebooks)
    todo = []
    for i, nb in enumerate(notebooks):
        refused = refusal_message(nb, twins)
        if refused is None:
            todo.append(i)
        else:  # never opened, never graded
            error = message("grader.refused", path=quoted_path(nb), why=refused)
            results[i] = bounded_grade(NotebookGrade.failed(path_text(nb), error))
    jobs = max(1, min(jobs or default_jobs(), len(todo)))
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(notebooks), desc="grading", unit="notebook", leave=False)
        bar.update(len(notebooks) - len(todo))
    # One job grades here (the pool's own process); more, each other in a grading process.
    try:
        with (
            tuned_for_grading(),
            ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="grade") as pool,
            processes.running(jobs) as graded_in,  # left first: the processes end, then threads
        ):
            args = (timeout, max_output, sandbox, notebook_timeout)
            futures = {pool.submit(_grade_in, graded_in, notebooks[i], *args): i for i in todo}
            for future in as_completed(futures):
                results[futures[future]] = future.result()
                if bar is not None:
                    bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    return [r for r in results if r is not None]


def _grade_in(
    graders: processes.GradingProcesses,
    path: Path,
    timeout: float,
    max_output: int,
    sandbox: bool,
    notebook_timeout: float | None,
) -> NotebookGrade:
    """:func:`_safe_grade` in one of the places of ``graders`` (this process or a grading
    process); a grading process lost meanwhile fails this notebook only."""
    try:
        return graders.call(_safe_grade, path, timeout, max_output, sandbox, notebook_timeout)
    except (processes.ProcessLost, RuntimeError) as exc:
        return bounded_grade(NotebookGrade.failed(path_text(path), crash_message(exc)))


def _safe_grade(
    path: Path, timeout: float, max_output: int, sandbox: bool, notebook_timeout: float | None
) -> NotebookGrade:
    try:
        return bounded_grade(_grade_notebook(path, timeout, max_output, sandbox, notebook_timeout))
    except Exception as exc:  # a grader bug must not stop the batch
        return bounded_grade(NotebookGrade.failed(path_text(path), crash_message(exc)))


def crash_message(exc: Exception) -> Message:
    """The error of a notebook the grader itself failed on (Python's words, as they are)."""
    return message("grader.grader_error", error=sentence(f"{type(exc).__name__}: {exc}"))
