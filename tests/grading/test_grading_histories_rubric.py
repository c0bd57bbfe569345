"""Do the rubrics of exercise ``histories`` weigh the core idea, and does its feedback keep the
grader's seeds, tables and expected values hidden?

Each answer of ``tests/submissions/histories.py`` replaces one answer cell of the solution
notebook; only that question's hidden check runs, in the real sandbox. A correct alternative
gets every point; a classic mistake gets at most its listed points (at most half of the question
for a mistake of the core idea). The cases the check is built on are checked against the kit
without a sandbox.
"""

from __future__ import annotations

import functools

import pytest
from submissions.grading import check_answer, check_corpus, check_feedback
from submissions.histories import ANSWERS

from simlab.check.checker import stale_commits
from simlab.cli import main
from simlab.grading.checks.histories import (
    PAUSES,
    TTL_SEEDS,
    TTL_TABLE,
    UNFENCED_SEEDS,
    choose_ttl,
    measure,
    recovery_times,
)
from simlab.grading.checks.histories.stale import CASES, events_of
from simlab.grading.checks.histories.ttl import TTL_COSTS
from simlab.sim.simulation import simulate


@pytest.mark.parametrize(
    ("name", "question", "source", "most", "says"), ANSWERS, ids=[a[0] for a in ANSWERS]
)
def test_does_each_answer_get_what_its_idea_is_worth(name, question, source, most, says):
    grade = check_answer(question, source, most, says)
    check_feedback(name, grade.feedback, _hidden_words())


def test_does_the_corpus_hold_alternatives_and_classic_mistakes_per_question():
    check_corpus(ANSWERS, ("stale-commits", "choose-ttl"))


@functools.cache
def _hidden_words() -> list[str]:
    """The seeds in the forms a sentence would print them, the hidden table's numbers, and the
    kit's values on the hidden runs (as repr and as the feedback formats numbers)."""
    seeds = (*TTL_SEEDS, *UNFENCED_SEEDS)
    words = [f"seed {s}" for s in seeds] + [f"seed={s}" for s in seeds]
    words += [f"seeds [{s}" for s in seeds] + [f"seeds ({s}" for s in seeds]
    words += [f"{TTL_SEEDS[0]}, {TTL_SEEDS[1]}", f"{UNFENCED_SEEDS[0]}, {UNFENCED_SEEDS[1]}"]
    words += [f"{v!r}" for row in TTL_TABLE.values() for v in row.values() if v >= 10]
    values = [
        v
        for ttl, seeds in ((2.0, TTL_SEEDS), (8.0, TTL_SEEDS[:1]))
        for v in measure(ttl, seeds).values()
    ]
    history = simulate(PAUSES.with_(ttl=4.0), seed=TTL_SEEDS[0]).history
    values += recovery_times(history)
    words += [f"{v:.6g}" for v in values if v >= 10 or v != int(v)]
    words += [repr(v) for v in values if v != int(v)]
    return words + ["cheapest is", "there are 3", "there are 2"]


def test_does_the_rubric_print_its_criteria_without_hidden_inputs(capsys):
    assert main(["grade", "--rubric", "histories"]) == 0
    out = capsys.readouterr().out
    for line in ("[4] newer-epoch (core idea)", "[4] measured-trade-off (core idea)", "[1] tie"):
        assert line in out
    for word in _hidden_words():
        assert word not in out, word


def test_does_each_hand_written_history_hold_what_its_feedback_says():
    """The count a failure names as expected is the kit's own rule's count on that history."""
    for case, (what, want, rows) in CASES.items():
        assert len(stale_commits(events_of(*rows))) == want, (case, what)


def test_do_the_hidden_runs_and_table_reach_what_the_check_is_built_on():
    """The recorded unfenced runs have stale commits and the fenced one none; every crash of
    the recorded ttl run is claimed again (the left-out case is its own detail); the cheapest
    ttl of the hidden table moves with the costs (no fixed or extreme answer gets them all)."""
    from simlab.grading.checks.histories import UNFENCED

    for seed in UNFENCED_SEEDS:
        assert stale_commits(simulate(UNFENCED, seed=seed).history), seed
    fenced = simulate(UNFENCED.with_(variant="fenced"), seed=UNFENCED_SEEDS[0]).history
    assert stale_commits(fenced) == []
    history = simulate(PAUSES.with_(ttl=4.0), seed=TTL_SEEDS[0]).history
    crashes = [e for e in history if e.op == "crash" and e.task is not None]
    assert crashes and len(recovery_times(history)) == len(crashes)
    chosen = [choose_ttl(TTL_TABLE, step, wait) for step, wait in TTL_COSTS]
    assert len(set(chosen)) == len(chosen) and min(TTL_TABLE) in chosen
    assert max(TTL_TABLE) in chosen
