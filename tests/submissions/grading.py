"""Grade one answer the way ``simlab grade`` does, without a kernel: the answer replaces its
question's answer cell in the solution notebook, and only that question's hidden check runs, in
the real sandbox. Shared by the rubric tests of every exercise.

The answers of one exercise are graded in one batch (:func:`graded`): one sandbox runs the
solution notebook's cells once; each answer then runs in it in place of its question's cell,
followed by the learner's cells after that one, as a fresh sandbox would run the notebook with
the answer in it; the question's check runs; the solution's cells from that one on run again
before the next answer. An answer the batch cannot play as a fresh sandbox would (its cell or a
later one does not run cleanly, or the check loses the sandbox) is graded in a sandbox of its own
(:func:`graded_alone`), and the batch starts afresh.

Each corpus module (``tests/submissions/<exercise>.py``) holds ``ANSWERS``, a list of
``(name, question, source, points at most, words the feedback must contain)``: a correct
alternative lists the question's full points; a classic mistake lists the most it may get
(at most half of the question for a mistake of the core idea).
"""

from __future__ import annotations

import atexit
import copy
import re
from pathlib import Path

import pytest

from simlab.grading.checks import EXERCISES
from simlab.grading.grader import _grade_question
from simlab.grading.messages import untranslated
from simlab.grading.notebook import cell_question, cell_role, read_notebook
from simlab.grading.questions import FAILURE_CHARS
from simlab.grading.runtime import Runtime, plan
from simlab.grading.sandbox.supervisor import SandboxLost

__all__ = [
    "ROOT",
    "exercise_of",
    "graded",
    "graded_alone",
    "close_batch",
    "each_answer",
    "check_answer",
    "check_corpus",
    "check_feedback",
]

ROOT = Path(__file__).resolve().parents[2]


def exercise_of(question: str):
    """The exercise holding ``question``."""
    return next(e for e in EXERCISES.values() for q in e.questions if q.id == question)


def graded(question: str, source: str):
    """The grade of ``question`` when its answer cell holds ``source``: from the batch of its
    exercise (module doc), or from :func:`graded_alone` for an answer the batch cannot play."""
    exercise = exercise_of(question)
    try:
        grade = _batch(exercise.notebook).graded(exercise.question(question), source)
    except SandboxLost:
        grade = None
    if grade is None:
        close_batch()
        grade = graded_alone(question, source)
    return grade


class _Batch:
    """The sandbox of one exercise's batch: the solution notebook's learner cells ran in it."""

    def __init__(self, notebook: str):
        self.notebook = notebook
        nb = read_notebook(ROOT / "solutions" / notebook)
        self.answers = {
            i: cell_question(c) for i, c in enumerate(nb.cells) if cell_role(c) == "answer"
        }
        self.plan = plan(nb)
        self.boxes = Runtime(self.plan, 60)

    def graded(self, q, source: str):
        """The grade of question ``q`` with ``source`` in its answer cell, or None if the batch
        cannot play it as a fresh sandbox would (module doc)."""
        answer = next(i for i, question in self.answers.items() if question == q.id)
        sandbox = self.boxes.get()
        cells = [(answer, source)]
        cells += [(c.index, c.source) for c in self.plan if c.index > answer and not c.isolated]
        for index, text in cells:
            if sandbox.exec_cell(index, text).status != "ok":
                return None
        grade = _grade_question(q, self.boxes, 240)
        if self.boxes.current is not sandbox or not sandbox.alive or not self.restored(answer):
            return None
        return grade

    def restored(self, answer: int) -> bool:
        """Run the solution's learner cells from cell ``answer`` on again; whether all did."""
        sandbox = self.boxes.current
        for cell in self.plan:
            if cell.index >= answer and not cell.isolated:
                if sandbox.exec_cell(cell.index, cell.source).status != "ok":
                    return False
        return sandbox.alive


#: The batch in use (one at a time: a new exercise's closes the one before).
_BATCH: list[_Batch] = []


def _batch(notebook: str) -> _Batch:
    if _BATCH and _BATCH[0].notebook != notebook:
        close_batch()
    if not _BATCH:
        _BATCH.append(_Batch(notebook))
    return _BATCH[0]


@atexit.register
def close_batch() -> None:
    """End the batch in use, if any (its sandbox closed)."""
    while _BATCH:
        _BATCH.pop().boxes.close()


def graded_alone(question: str, source: str):
    """The grade of ``question`` when its answer cell holds ``source``, in a sandbox of its own
    that runs the notebook with the answer in it."""
    exercise = exercise_of(question)
    nb = copy.deepcopy(read_notebook(ROOT / "solutions" / exercise.notebook))
    for cell in nb.cells:
        if cell_role(cell) == "answer" and cell_question(cell) == question:
            cell.source = source
    boxes = Runtime(plan(nb), 60)
    try:
        return _grade_question(exercise.question(question), boxes, 240)
    finally:
        boxes.close()


def each_answer(answers: list[tuple]):
    """The test runs once per answer of ``answers`` (named by it), with the arguments ``name,
    question, source, most, says``."""
    fields = ("name", "question", "source", "most", "says")
    return pytest.mark.parametrize(fields, answers, ids=[a[0] for a in answers])


def check_answer(question: str, source: str, most: int, says: str):
    """Grade one corpus answer and assert what it must get; return the grade."""
    grade = graded(question, source)
    assert says in grade.feedback, grade.feedback
    assert untranslated(grade.said or grade.feedback) == [], grade.feedback
    if most == grade.max_points:
        assert grade.points == grade.max_points, grade.feedback
    else:
        assert grade.points <= most < grade.max_points, grade.feedback
    return grade


#: A hidden word that is a number: found in feedback only as that whole number (``0.008`` is
#: not in ``0.00877``, another number the learner's own).
_NUMBER = re.compile(r"-?\d+(\.\d+)?(e-?\d+)?")


def _shows(feedback: str, word: str) -> bool:
    if _NUMBER.fullmatch(word):
        return re.search(rf"(?<![\d.]){re.escape(word)}(?!\d)", feedback) is not None
    return word in feedback


def check_feedback(key: str, feedback: str, hidden: list[str]) -> None:
    """No hidden input in ``feedback`` (the count of checks passed that leads it is the
    grader's, the same in every world: a hidden number may equal it by chance), and every
    failure in it short enough to read."""
    body = re.sub(r"^\d+/\d+ checks passed; ", "", feedback)
    for word in hidden:
        assert not _shows(body, word), (key, word, feedback)
    for failure in re.sub(r" \(and \d+ more\)$", "", body).split("; also, "):
        assert len(failure) <= FAILURE_CHARS, (key, failure)


def check_corpus(answers: list[tuple], questions) -> None:
    """Per question (ids): at least one correct answer written otherwise than the solution's,
    at least two classic mistakes held to half the question, and a rubric whose core criteria
    weigh at least half and name the mistakes they catch."""
    from tests.submissions.cases import answer_source

    for question in questions:
        exercise = exercise_of(question)
        q = exercise.question(question)
        mine = [a for a in answers if a[1] == question]
        solution = answer_source("solutions", exercise.notebook, question).strip()
        alternatives = [a for a in mine if a[3] == q.points]
        assert alternatives, question
        assert all(a[2].strip() != solution for a in alternatives), question
        assert sum(a[3] <= q.points // 2 for a in mine) >= 2, question
        core = [c for c in q.rubric if c.core]
        assert core and all(c.mistakes for c in core), question
        assert 2 * sum(c.weight for c in core) >= q.points, question
