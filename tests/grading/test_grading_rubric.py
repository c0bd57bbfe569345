"""Do the rubrics weigh the core idea, and does the feedback keep hidden inputs hidden?

Each answer of ``tests/submissions/leases.py`` and ``tests/submissions/rubric.py`` replaces one
answer cell of its solution notebook; only that question's hidden check runs, in the real sandbox
(no kernel; each corpus in one batch, :mod:`tests.submissions.grading`). A correct alternative gets
every point; a classic mistake gets at most its listed points (at most half of the question for a
mistake of the core idea). Every feedback line is then scanned for the grader's hidden inputs and
its length.
"""

from __future__ import annotations

import copy

import pytest

from simlab.cli import main
from simlab.grading.checks import EXERCISES
from simlab.grading.messages import untranslated
from simlab.grading.notebook import cell_question, cell_role, read_notebook
from simlab.grading.questions import FAILURE_CHARS
from simlab.grading.runtime import Runtime, plan
from tests.submissions.grading import (
    ROOT,
    check_answer,
    check_feedback,
    each_answer,
    exercise_of,
    graded,
    graded_alone,
)
from tests.submissions.hidden import leases_and_rubric
from tests.submissions.leases import ANSWERS as LEASES
from tests.submissions.rubric import ANSWERS as RUBRIC

ANSWERS = LEASES + RUBRIC


@pytest.mark.jail
@each_answer(ANSWERS)
def test_does_each_answer_get_what_its_idea_is_worth(name, question, source, most, says):
    grade = check_answer(question, source, most, says)
    check_feedback(name, grade.feedback, leases_and_rubric())


@pytest.mark.jail
def test_is_an_answer_graded_in_the_batch_as_in_a_sandbox_of_its_own():
    """The batch (:func:`~tests.submissions.grading.graded`) gives the last answer of each
    question of a corpus, graded after the others, the grade a sandbox of its own gives it: the
    answers graded before leave nothing behind."""
    last = {question: answer for answer in RUBRIC for question in [answer[1]]}
    for name, question, source, _, _ in RUBRIC:
        batch = graded(question, source)
        if last[question][0] == name:
            alone = graded_alone(question, source)
            assert (batch.points, batch.feedback) == (alone.points, alone.feedback), name


def test_does_every_classic_mistake_of_the_core_idea_lose_half():
    for name, question, _, most, _ in ANSWERS:
        q = exercise_of(question).question(question)
        if most < q.points and most <= q.points // 2:
            core = sum(c.weight for c in q.rubric if c.core)
            assert 2 * core >= q.points, name


def test_does_the_rubric_print_without_hidden_inputs(capsys):
    for exercise in EXERCISES:
        assert main(["grade", "--rubric", exercise]) == 0
    out = capsys.readouterr().out
    assert "core idea" in out and "[6] one-owner" in out
    for word in leases_and_rubric():
        assert word not in out, word
    assert main(["grade", "--rubric", "exercises/02_leases_effects_and_loop.ipynb"]) == 0
    assert "[6] one-owner" in capsys.readouterr().out  # a notebook's path names its exercise
    assert main(["grade", "--rubric", "nothing"]) == 2
    assert "no exercise" in capsys.readouterr().err


@pytest.mark.jail
def test_does_a_failing_fault_run_tell_its_shortest_story():
    """record_effect that always says True records an e-mail after its task was cancelled in
    one of the explored schedules: the feedback is the run with the fewest faults in a few
    sentences, with the broken rule and without the seed."""
    from simlab.grading.checks.leases.driving import explored
    from simlab.grading.checks.leases.messages import say
    from simlab.grading.questions import Fail
    from simlab.grading.student import Student
    from tests.submissions.leases import ALWAYS_TRUE_EFFECT

    exercise = EXERCISES["leases"]
    nb = copy.deepcopy(read_notebook(ROOT / "solutions" / exercise.notebook))
    for cell in nb.cells:
        if cell_role(cell) == "answer" and cell_question(cell) == "idempotent-send":
            cell.source = ALWAYS_TRUE_EFFECT
    boxes = Runtime(plan(nb), 60)
    try:
        with pytest.raises(Fail) as failed:
            explored(
                Student(boxes.get()),
                {"record_effect": "record_effect"},
                say("by_email_code"),
                "leases/idempotent-send/explore",
                send_step="send_step",
            )
    finally:
        boxes.close()
    story = str(failed.value)
    assert story.startswith("with faults on, your e-mail code broke a rule: ")
    assert "rule (j), stale e-mail record" in story and "cancel" in story
    assert 3 <= story.count(". ") + 1 <= 5 and len(story) <= FAILURE_CHARS
    assert "seed" not in story and "t=" not in story
    assert untranslated(failed.value.said) == []


#: The criteria checked on hand-made cases only, and why no generated input is played there.
WITHOUT_PROPERTIES = {
    # the learner runs one story with real worker processes; its ledger file is the evidence
    ("cancel-after-first-step", "from-the-ledger"),
    ("cancel-after-first-step", "observations"),
    # one key per step: the hand-made steps play two steps in a row, and two tasks at one step
    ("idempotent-send", "step-keys"),
    # identity, not value: each event dict handed in is kept in the sandbox, so only the
    # hand-made and drawn streams, whose dicts the check made there, can tell one from a copy
    ("absorber", "given"),
    # a changed argument, or a tuple for a list, shows on any input: the hand-made history, the
    # first measure() call's seeds and the world's table, each handed back after the call
    ("choose-ttl", "contract"),
    # each input is a seeded canary simulation, too costly to generate by the dozen
    ("choose-threshold", "above-the-peak"),
    ("choose-threshold", "judged-windows"),
    ("choose-threshold", "trip-rate"),
}


def test_does_every_criterion_state_its_generated_property_or_say_why_not():
    exercises = EXERCISES.values()
    bare = {
        (q.id, c.id)
        for ex in exercises
        for q in ex.questions
        for c in q.rubric or ()
        if not c.properties
    }
    assert bare == WITHOUT_PROPERTIES
