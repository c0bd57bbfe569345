"""Do the rubrics of exercise ``events`` weigh the core idea, and does the feedback keep the
hidden streams and grants hidden?

Each answer of ``tests/submissions/events.py`` replaces one answer cell of
``solutions/06_events_and_permissions.ipynb``; only that question's hidden check runs, in the
real sandbox (no kernel, one sandbox per answer). A correct alternative gets every point; a
classic mistake gets at most its listed points (at most half of the question for a mistake of
the core idea). Every feedback line is then scanned for the hidden inputs and its length.
"""

from __future__ import annotations

import functools

import pytest

from simlab.cli import main
from simlab.grading.checks import EXERCISES
from simlab.grading.checks.events import children
from simlab.grading.checks.events.absorber import similar_names
from simlab.grading.checks.events.streams import generated_names
from simlab.grading.checks.events.world import TASK_STEMS, grant_world
from tests.submissions.events import ANSWERS
from tests.submissions.grading import check_answer, check_corpus, check_feedback

EXERCISE = EXERCISES["events"]


@pytest.mark.jail
@pytest.mark.parametrize(
    ("name", "question", "source", "most", "says"), ANSWERS, ids=[a[0] for a in ANSWERS]
)
def test_does_each_answer_get_what_its_idea_is_worth(name, question, source, most, says):
    feedback = check_answer(question, source, most, says).feedback
    check_feedback(name, feedback, _hidden_words())


def test_does_the_corpus_hold_alternatives_and_classic_mistakes_of_the_core():
    """Per question: a correct answer written otherwise than the solution, and at least two
    classic mistakes held to half the question, which only a core criterion can do."""
    check_corpus(ANSWERS, [q.id for q in EXERCISE.questions])
    for q in EXERCISE.questions:
        core = [c for c in q.rubric if c.core]
        assert 2 * max(c.weight for c in core) >= q.points, "one core criterion weighs half"


@functools.cache
def _hidden_words() -> list[str]:
    """What the hidden checks feed the learner's code and must never show: the names the
    world of the answers' grading run (seed 0, as :func:`graded` grades) drew, and the
    canonical names of the fixed stories."""
    words = ["seeds", "job-", "draft-a", "draft-b", ":other", ":v2", "tokens"]
    world = grant_world()
    for kind in children(world).values():
        for child in kind:
            words += [child["tenant"], *child["collections"], *child["tools"]]
    words += sorted(world.strings())
    words += sorted(generated_names().strings()) + sorted(similar_names()[1].strings())
    words += list(TASK_STEMS)  # every drawn task name holds one
    return sorted({w for w in words if len(w) >= 4} | {"[", "{"})


def test_does_the_corpus_name_each_answer_once_and_hide_the_hidden_inputs():
    assert len({a[0] for a in ANSWERS}) == len(ANSWERS), "one name per answer"
    hidden = _hidden_words()
    world = grant_world()
    assert world.tenant in hidden and world.shorter_tool in hidden and "job-" in hidden


def test_does_the_rubric_print_without_hidden_inputs(capsys):
    assert main(["grade", "--rubric", "events"]) == 0
    out = capsys.readouterr().out
    assert "[3] once-in-order (core idea)" in out and "[3] narrows (core idea)" in out
    for word in set(_hidden_words()) - {"[", "{"}:  # the rubric prints weights as [4]
        assert word not in out, word
