"""Do the hidden checks of exercise ``events`` replay what they claim, and does the solution get
every point?

The corpus of answers (``tests/submissions/events.py``) is graded against the rubrics in
``test_grading_events_rubric.py``; here: the solution notebook through the whole grader, the
seeded bus streams really duplicate and reorder, the hostile grants really split between true
and false, and every sentence the checks can say is translated and short.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from simlab.agent.events import EventAbsorber
from simlab.grading.checks import EXERCISES
from simlab.grading.checks.events import CHILDREN, PARENT, bus_streams, reference_is_narrowing
from simlab.grading.checks.events.absorber import DIAGNOSES, STREAMS
from simlab.grading.grader import hidden_checks
from simlab.grading.i18n import translate, untranslated
from simlab.grading.notebook import read_notebook
from simlab.grading.questions import FAILURE_CHARS

ROOT = Path(__file__).resolve().parents[2]
EXERCISE = EXERCISES["events"]
SOLUTION = read_notebook(ROOT / "solutions" / EXERCISE.notebook)


def test_does_the_solution_get_every_point():
    grades, _ = hidden_checks(copy.deepcopy(SOLUTION), EXERCISE, timeout=60)
    assert {q: g.points for q, g in grades.items()} == {q.id: q.points for q in EXERCISE.questions}
    assert all(g.feedback.startswith("all ") for g in grades.values()), grades


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
    assert verdicts["a grant repeating names its parent lacks"] == {False}


def test_is_every_sentence_the_checks_can_say_translated_and_short():
    """Each kind of stream with each diagnosis, each kind of grant with each verdict: a Chinese
    rule for the whole sentence (its parts included), and no longer than FAILURE_CHARS."""
    sentences = [
        f"on {what}: the absorber {why}" for what in STREAMS.values() for why in DIAGNOSES.values()
    ]
    for kind in CHILDREN:
        for verdict in (True, False):
            said = f"is_narrowing() said {verdict} when the child is {kind}"
            sentences += [said, said + " (of a revoked parent)"]
    for sentence in sentences:
        assert untranslated(sentence) == [], sentence
        assert len(sentence) <= FAILURE_CHARS, sentence
        zh = translate(sentence, "zh")
        assert not any(words in zh for words in (*STREAMS.values(), *CHILDREN)), zh
