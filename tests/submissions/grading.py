"""Grade one answer the way ``simlab grade`` does, without a kernel: the answer replaces its
question's answer cell in the solution notebook, and only that question's hidden check runs, in
the real sandbox (one sandbox per answer). Shared by the rubric tests of every exercise.

Each corpus module (``tests/submissions/<exercise>.py``) holds ``ANSWERS``, a list of
``(name, question, source, points at most, words the feedback must contain)``: a correct
alternative lists the question's full points; a classic mistake lists the most it may get
(at most half of the question for a mistake of the core idea).
"""

from __future__ import annotations

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

__all__ = [
    "ROOT",
    "exercise_of",
    "graded",
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
    """The grade of ``question`` when its answer cell holds ``source``."""
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
