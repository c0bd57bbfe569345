"""Do the rubrics of exercise ``events`` weigh the core idea, and does the feedback keep the
hidden streams and grants hidden?

Each answer of ``tests/submissions/events.py`` replaces one answer cell of
``solutions/06_events_and_permissions.ipynb``; only that question's hidden check runs, in the real
sandbox (no kernel; the corpus in one batch, :mod:`tests.submissions.grading`). A correct
alternative gets every point; a classic mistake gets at most its listed points (at most half of the
question for a mistake of the core idea); one in ``EXACTLY`` gets exactly them (it loses one
criterion, no more). Every feedback line is then scanned for the hidden inputs and its length.
"""

from __future__ import annotations

import pytest

from simlab.grading.checks import EXERCISES
from simlab.grading.checks.events.world import grant_world
from tests.submissions import hidden
from tests.submissions.events import ANSWERS, EXACTLY
from tests.submissions.grading import check_answer, check_feedback, each_answer

EXERCISE = EXERCISES["events"]


@pytest.mark.jail
@each_answer(ANSWERS)
def test_does_each_answer_get_what_its_idea_is_worth(name, question, source, most, says):
    grade = check_answer(question, source, most, says)
    if name in EXACTLY:  # it keeps every other criterion's points
        assert grade.points == most, grade.feedback
    check_feedback(name, grade.feedback, hidden.events())


def test_does_one_core_criterion_weigh_half():
    """A classic mistake is held to half the question by one core criterion alone."""
    for q in EXERCISE.questions:
        core = [c for c in q.rubric if c.core]
        assert 2 * max(c.weight for c in core) >= q.points, "one core criterion weighs half"


def test_does_the_corpus_name_each_answer_once_and_hide_the_hidden_inputs():
    words = hidden.events()
    world = grant_world()
    assert world.tenant in words and world.shorter_tool in words and "job-" in words
