"""Do the hidden checks of exercise ``events`` tell right answers from classic mistakes?

Each answer of ``tests/submissions/events.py`` replaces one answer cell of
``solutions/06_events_and_permissions.ipynb`` and runs the hidden checks in the real sandbox (no
kernel): a correct alternative gets every point, a classic mistake loses exactly the parts it
should, and the feedback says what went wrong without showing the hidden streams or grants.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from submissions.events import ANSWERS

from simlab.agent.events import EventAbsorber
from simlab.grading.checks import EXERCISES
from simlab.grading.checks.events import CHILDREN, PARENT, bus_streams, reference_is_narrowing
from simlab.grading.grader import hidden_checks
from simlab.grading.notebook import cell_question, cell_role, read_notebook

ROOT = Path(__file__).resolve().parents[2]
EXERCISE = EXERCISES["events"]
SOLUTION = read_notebook(ROOT / "solutions" / EXERCISE.notebook)


def graded(**answers: str) -> dict:
    nb = copy.deepcopy(SOLUTION)
    for cell in nb.cells:
        if cell_role(cell) == "answer" and cell_question(cell) in answers:
            cell.source = answers[cell_question(cell)]
    grades, _ = hidden_checks(nb, EXERCISE, timeout=60)
    return grades


def test_does_the_solution_get_every_point():
    grades = graded()
    assert {q: g.points for q, g in grades.items()} == {q.id: q.points for q in EXERCISE.questions}


@pytest.mark.parametrize(
    ("question", "source", "lost", "says"),
    [a[1:] for a in ANSWERS],
    ids=[a[0] for a in ANSWERS],
)
def test_does_each_answer_get_exactly_its_points(question, source, lost, says):
    grade = graded(**{question: source})[question]
    assert grade.points == grade.max_points - lost, grade.feedback
    assert says in grade.feedback, grade.feedback


def test_does_feedback_keep_the_hidden_inputs_hidden():
    grades = graded(absorber=dict((a[0], a[2]) for a in ANSWERS)["adjacent-dedupe"])
    feedback = grades["absorber"].feedback
    assert "job-" not in feedback and "seq 1" not in feedback and "{" not in feedback
    grades = graded(narrowing=dict((a[0], a[2]) for a in ANSWERS)["by-length"])
    feedback = grades["narrowing"].feedback
    assert "initech" not in feedback and "globex" not in feedback and "[" not in feedback


def _copies_and_overtakes(stream) -> tuple[int, int]:
    """How many deliveries are copies, and how many events arrived before the seq below them."""
    first = {}
    for i, e in enumerate(stream):
        first.setdefault((e.task_id, e.seq), i)
    overtakes = sum(first[(t, s + 1)] < first[(t, s)] for t, s in first if (t, s + 1) in first)
    return len(stream) - len(first), overtakes


@pytest.mark.parametrize(
    ("name", "copies", "overtakes"),
    [("duplicates", True, False), ("reordering", False, True), ("both", True, True)],
)
def test_do_the_hidden_streams_duplicate_and_reorder(name, copies, overtakes):
    """Every seeded stream a part replays has the faults the part's feedback names."""
    for stream in bus_streams(name):
        found = _copies_and_overtakes(stream)
        assert (found[0] > 0, found[1] > 0) == (copies, overtakes), (name, found)
        absorber = EventAbsorber()
        for e in stream:
            absorber.offer(e)
        assert len(absorber.delivered) == len({(e.task_id, e.seq) for e in stream}), "each once"


def test_are_the_hostile_grants_really_split_between_true_and_false():
    verdicts = {
        kind: {reference_is_narrowing(PARENT, c) for c in cs} for kind, cs in CHILDREN.items()
    }
    assert verdicts["the same grant"] == verdicts["a grant with repeated names"] == {True}
    assert verdicts["a grant with an extra tool"] == verdicts["a revoked grant"] == {False}
    assert verdicts["a grant naming a collection with other capitals"] == {False}
