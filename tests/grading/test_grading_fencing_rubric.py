"""Do the properties of exercise ``fencing`` catch what its hand-picked stories let pass, and do
the ledgers built otherwise make typed-in facts fail?

Each answer of ``tests/submissions/fencing.py`` replaces one answer cell of the solution
notebook; only that question's hidden check runs, in the real sandbox. A correct alternative gets
every point; a mistake gets at most its listed points. The worlds of ``cancel-limits`` are
checked against the kit without a sandbox.
"""

from __future__ import annotations

import pytest
from submissions.cases import FENCING
from submissions.fencing import ANSWERS
from submissions.grading import check_answer, check_corpus, check_feedback
from submissions.rubric import ANSWERS as FIRST_ANSWERS

from simlab.grading.checks.fencing.claim import reference_cancel, reference_requeue
from simlab.grading.checks.fencing.limits import LIMIT_FACTS
from simlab.grading.worlds import FACTS, WORLDS, play_in_world, reference_facts
from simlab.ledger import Ledger
from simlab.sim.mailbox import Mailbox

QUESTIONS = ("cancel-after-claim", "cancel-limits")


@pytest.mark.parametrize(
    ("name", "question", "source", "most", "says"), ANSWERS, ids=[a[0] for a in ANSWERS]
)
def test_does_each_answer_get_what_its_idea_is_worth(name, question, source, most, says):
    grade = check_answer(question, source, most, says)
    check_feedback(name, grade.feedback, ["_UnfencedLedger", "_RollbackLedger", "_LostMail"])


def test_does_the_corpus_hold_alternatives_and_classic_mistakes_per_question():
    check_corpus(ANSWERS + [a for a in FIRST_ANSWERS if a[1] in QUESTIONS], QUESTIONS)


def test_does_every_fact_come_out_otherwise_in_some_world():
    """A fact typed in (the kit's value) fails in at least one world, and the kit's story on
    the kit's ledger gives what the check expects there."""
    assert reference_facts(None) == LIMIT_FACTS
    seen = {world: reference_facts(world) for world in WORLDS}
    for fact in FACTS:
        assert any(facts[fact] is not LIMIT_FACTS[fact] for facts in seen.values()), fact


def test_does_playing_in_a_world_put_the_kit_back_even_when_the_answer_raises():
    import simlab.ledger
    import simlab.ledger.sqlite

    seen = []

    def answer(path):
        seen.append((ns["L"], simlab.ledger.Ledger, simlab.ledger.sqlite.Ledger, ns["Mailbox"]))
        raise RuntimeError("boom")

    ns = {"L": Ledger, "Mailbox": Mailbox, "answer": answer}
    with pytest.raises(RuntimeError):
        play_in_world(ns, "answer", "unused.sqlite", "unfenced")
    world_ledger, world_mailbox = WORLDS["unfenced"]
    assert seen == [(world_ledger, world_ledger, world_ledger, world_mailbox)]
    assert ns["L"] is Ledger and ns["Mailbox"] is Mailbox
    assert simlab.ledger.Ledger is Ledger and simlab.ledger.sqlite.Ledger is Ledger


@pytest.mark.parametrize("world", sorted(WORLDS))
def test_does_the_solution_played_in_a_world_measure_what_the_story_gives_there(world, tmp_path):
    from submissions.cases import answer_source

    from simlab.errors import TerminalTask

    ns = {"Ledger": Ledger, "Mailbox": Mailbox, "TerminalTask": TerminalTask}
    exec(answer_source("solutions", FENCING, "cancel-limits"), ns)
    path = str(tmp_path / "story.sqlite")
    assert play_in_world(ns, "what_cancel_does", path, world) == reference_facts(world)
    assert ns["Ledger"] is Ledger and ns["Mailbox"] is Mailbox


def test_is_the_reference_state_machine_the_exercise_text():
    for status in ("queued", "running", "completed", "cancelled"):
        state = {"epoch": 4, "status": status, "result": None}
        assert reference_cancel(state) is (status in ("queued", "running"))
        assert state["epoch"] == (5 if status in ("queued", "running") else 4)
        state = {"epoch": 4, "status": status, "result": None}
        assert reference_requeue(state) is (status == "cancelled")
        assert state == {
            "epoch": 4,
            "status": "queued" if status == "cancelled" else status,
            "result": None,
        }
