"""Does blame go where it belongs? Whatever the learner's code or file causes is the learner's:
0 for that question and one line saying what their code did, never "grader error". Only a bug
of the kit's own (here a hidden check made to raise) says "grader error ... tell your
instructor". Each case runs the real sandbox (unjailed: the jail is not what is judged here)."""

from __future__ import annotations

import dataclasses
import json

import pytest

from simlab.grading.checks.fencing import EXERCISE
from simlab.grading.grader import grade_notebook, hidden_checks
from simlab.grading.notebook import read_notebook
from simlab.grading.questions import require
from tests.submissions.cases import FENCING, ROOT

QUESTION = EXERCISE.questions[0]  # cancel-after-claim


def _graded(base: str, before_the_parts) -> tuple[int, str]:
    """Points and feedback of cancel-after-claim when its hidden check first runs
    ``before_the_parts(student)``, outside any part, then its parts as usual."""

    def check(s, t):
        before_the_parts(s)
        QUESTION.check(s, t)

    question = dataclasses.replace(QUESTION, check=check)
    exercise = dataclasses.replace(EXERCISE, questions=(question,))
    nb = read_notebook(ROOT / base / FENCING)
    grades, _ = hidden_checks(nb, exercise, timeout=20, jailed=False)
    got = grades[QUESTION.id]
    return got.points, got.feedback


def _learner_raises(s) -> None:
    s.function("cancel")({})  # the solution's cancel reads state["status"]: KeyError


def _learner_raises_through_the_kit(s) -> None:
    # the kit's object that runs the learner's cancel with some names changed: what it raises
    # is cancel()'s, not the object's
    s.kit("with-names", "cancel", {}).call({})


def _stub_raises(s) -> None:
    s.function("cancel")({"status": "running", "epoch": 1, "result": None})


def _answer_refused(s) -> None:
    require(False, "cancel() gave an answer this check refuses")


def _kit_bug(s) -> None:
    raise ZeroDivisionError("a bug of the kit's own")


@pytest.mark.parametrize(
    ("base", "before", "said"),
    [
        ("solutions", _learner_raises, "cancel() raised KeyError; the question gets 0"),
        (
            "solutions",
            _learner_raises_through_the_kit,
            "cancel() raised KeyError; the question gets 0",
        ),
        ("exercises", _stub_raises, "not attempted: cancel() is not written yet"),
        ("solutions", _answer_refused, "cancel() gave an answer this check refuses"),
    ],
    ids=["raises", "raises-through-the-kit", "stub", "refused"],
)
def test_is_the_learners_fault_outside_a_part_the_learners(base, before, said):
    points, feedback = _graded(base, before)
    assert points == 0
    assert feedback.startswith(said), feedback
    assert "grader error" not in feedback and "instructor" not in feedback


def test_is_a_bug_of_the_kit_still_a_grader_error():
    points, feedback = _graded("solutions", _kit_bug)
    assert points == 0
    assert feedback == (
        f"grader error in the hidden check of {QUESTION.id} (ZeroDivisionError); "
        "tell your instructor"
    )


def test_does_the_unchanged_check_still_give_the_solution_full_points():
    points, feedback = _graded("solutions", lambda s: None)
    assert points == QUESTION.points
    assert feedback.startswith("all ") and feedback.endswith(" checks passed"), feedback


@pytest.mark.parametrize("depth", [100_000, 5_000])
def test_is_a_notebook_nested_too_deeply_a_malformed_notebook(tmp_path, depth):
    nb = json.loads((ROOT / "exercises" / FENCING).read_text())
    nb["metadata"]["deep"] = "@@"
    path = tmp_path / FENCING
    path.write_text(json.dumps(nb).replace('"@@"', "[" * depth + "]" * depth))
    graded = grade_notebook(path, sandbox=False)
    assert (graded.score, graded.max_score, graded.questions) == (0, 0, [])
    assert graded.error.endswith("not a readable notebook (nested too deeply)"), graded.error
    assert "grader error" not in graded.error
