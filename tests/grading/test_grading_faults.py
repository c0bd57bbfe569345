"""Do the explored fault runs of exercise ``leases`` catch the classic mistakes in every world?

The hidden checks run the learner's ledger pieces under every schedule of at most one fault
over a small scope (:func:`simlab.grading.checks.leases.driving.explored`), with the timings of
a seed drawn from the hidden world, and the checker judges each history. Here each answer of
the corpus (``tests/submissions``) is loaded into a real sandbox, as the grader does, and
explored in several worlds: each classic mistake must break a rule in *every* world (the rule
it is meant to break among them), the reference and the correct alternatives in none. A
failure must read as a short story: a few sentences, the broken rule, no seed, no time, within
the feedback's length, in Chinese too.

A heartbeat without the epoch breaks rule (i) there only in the worlds whose timings wake the
sleeper while the other worker still holds the task; the hand-made case and the story of the
generated sequences that replay a stale heartbeat take the core idea from it in every world
(``tests/grading/test_grading_rubric.py``, and ``SIMLAB_WORLDS`` in
``tests/grading/test_grading_fairness.py``).

Two mistakes are beyond the simulator: the chapter's UPDATE-then-SELECT claim and a
SELECT-then-UPDATE claim. The simulator calls a claim as one ledger operation at one simulated
instant, so no other claim can run between its statements, and run one at a time both behave
like the atomic claim: they pass every explored run. The races the grader replays between every
two of their statements catch them (``tests/grading/test_grading_rubric.py``).
"""

from __future__ import annotations

import copy
import re

import pytest

from simlab.grading.checks.hidden_world import judged_in
from simlab.grading.checks.leases.driving import explored
from simlab.grading.checks.leases.messages import say
from simlab.grading.messages import Message, untranslated
from simlab.grading.notebook import cell_question, cell_role, read_notebook
from simlab.grading.questions import FAILURE_CHARS, Fail
from simlab.grading.runtime import Runtime, plan
from simlab.grading.student import Student
from tests.submissions.cases import TWO_STATEMENT_CLAIM, UNFENCED_EFFECT
from tests.submissions.grading import ROOT, exercise_of
from tests.submissions.leases import (
    ALWAYS_TRUE_EFFECT,
    ATTEMPTS_NOT_COUNTED,
    CHECK_THEN_UNIQUE_INSERT,
    FIXED_TTL,
    IGNORES_LEASE_UNTIL,
    KEY_WITHOUT_STEP,
    LOCKED_CLAIM,
    SELECT_THEN_UPDATE,
    SEND_BEFORE_RECORD,
)

pytestmark = pytest.mark.jail

CLAIM = ("atomic-claim", {"claim": "claim", "heartbeat": "heartbeat"}, say("by_claim_heartbeat"))
EFFECT = ("idempotent-send", {"record_effect": "record_effect"}, say("by_email_code"))
#: The hidden worlds (their seeds) each answer is explored in.
WORLDS = (0, 3, 9)

#: (name, question, answer source or None for the solution's, the rules it must break or ()).
ANSWERS = [
    ("solution-claim", CLAIM, None, ()),
    ("locked-claim", CLAIM, LOCKED_CLAIM, ()),
    ("ignores-lease-until", CLAIM, IGNORES_LEASE_UNTIL, ("h",)),
    # the explored runs alone hold these to the core: a wrong count or lease length breaks
    # the protocol the checker judges every accepted claim against
    ("attempts-not-counted", CLAIM, ATTEMPTS_NOT_COUNTED, ("t",)),
    ("fixed-ttl", CLAIM, FIXED_TTL, ("q",)),
    ("solution-effect", EFFECT, None, ()),
    ("unique-insert", EFFECT, CHECK_THEN_UNIQUE_INSERT, ()),
    ("key-without-step", EFFECT, KEY_WITHOUT_STEP, ()),  # a detail, caught case by case
    ("unfenced-effect", EFFECT, UNFENCED_EFFECT, ("j",)),
    ("always-true", EFFECT, ALWAYS_TRUE_EFFECT, ("f", "j")),
    ("send-first", EFFECT, SEND_BEFORE_RECORD, ("f", "r")),
]
#: Classic mistakes the explored runs cannot see (see the module docstring): they pass them all.
SERIAL_ONLY = [("chapter-claim", TWO_STATEMENT_CLAIM), ("select-then-update", SELECT_THEN_UPDATE)]


def _student(question: str, source: str | None) -> Runtime:
    exercise = exercise_of(question)
    nb = copy.deepcopy(read_notebook(ROOT / "solutions" / exercise.notebook))
    if source is not None:
        for cell in nb.cells:
            if cell_role(cell) == "answer" and cell_question(cell) == question:
                cell.source = source
    return Runtime(plan(nb), 60)


def _runs(what: tuple, source: str | None) -> dict[int, Message | None]:
    """World seed -> the failure of the explored runs in that world (None when all passed)."""
    question, pieces, said = what
    send_step = None if question == "atomic-claim" else "send_step"
    boxes = _student(question, source)
    out: dict[int, Message | None] = {}
    try:
        s = Student(boxes.get())
        for world in WORLDS:
            with judged_in(world):
                try:
                    explored(s, pieces, said, f"leases/{question}/explore", send_step=send_step)
                    out[world] = None
                except Fail as failed:
                    out[world] = failed.said
    finally:
        boxes.close()
    return out


@pytest.mark.parametrize(("name", "what", "source", "rules"), ANSWERS, ids=[a[0] for a in ANSWERS])
def test_does_every_world_catch_each_classic_mistake_and_pass_each_correct_answer(
    name, what, source, rules
):
    runs = _runs(what, source)
    if not rules:
        assert runs == dict.fromkeys(runs), (name, runs)
        return
    for world, said in runs.items():
        assert said is not None, f"{name} passed the world of seed {world}"
        failure = str(said)
        assert failure.startswith(f"with faults on, {what[2]} broke a rule: "), failure
        found = re.search(r"This breaks rule \((\w)\), [\w -]+\.$", failure)
        assert found and found.group(1) in rules, (name, world, failure)
        _reads_well(said)


def _reads_well(said: Message) -> None:
    """A short story in plain sentences: 2 to 4 of them with the rule, no seed, no time."""
    failure = str(said)
    story = failure.split(" broke a rule: ", 1)[1]
    sentences = re.split(r"(?<=\.) (?=[A-Zwt])", story)
    assert 2 <= len(sentences) <= 4, failure
    assert len(failure) <= FAILURE_CHARS, failure
    assert "seed" not in failure and "t=" not in failure and "fault 1" not in failure
    assert untranslated(said) == [], failure


@pytest.mark.parametrize(("name", "source"), SERIAL_ONLY, ids=[a[0] for a in SERIAL_ONLY])
def test_do_the_two_statement_claims_pass_the_explored_runs(name, source):
    """What the simulator cannot do: interleave two statements of one claim."""
    assert set(_runs(CLAIM, source).values()) == {None}, name
