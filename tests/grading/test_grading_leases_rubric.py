"""Is exercise ``leases`` judged in worlds no answer can foresee, fairly in each of them?

The worlds are drawn from the hidden world's seed (:mod:`simlab.grading.checks.leases.world`).
Correct answers written otherwise than the solution get every point in several worlds; the
answers that foresee their world (``FORESEEING`` in ``tests/submissions/leases.py``, graded in
the world of seed 0 by ``test_grading_rubric.py``) lose the points of the "must" they break in
another world too, and no feedback quotes a value the world drew.
"""

from __future__ import annotations

import fnmatch
import json
import unicodedata

import pytest

from simlab.grading.checks.hidden_world import judged_in
from simlab.grading.checks.leases.claim import _some_lease
from simlab.grading.checks.leases.world import LOOK_ALIKES, SHOWN_TTLS, UNKNOWN, world_of
from simlab.grading.questions import Fail
from tests.submissions.cases import answer_source
from tests.submissions.grading import check_answer, each_answer
from tests.submissions.leases import ANSWERS, FORESEEING

QUESTIONS = ("atomic-claim", "idempotent-send", "worker-loop")
NOTEBOOK = "02_leases_effects_and_loop.ipynb"

#: Correct answers written otherwise than the solution, one or two per question.
ALTERNATIVES = ("locked-claim", "sql-sum-claim", "conflict-effect", "keyword-ttl-loop")


def test_is_every_world_one_the_notebook_never_shows():
    seen = set()
    for seed in range(200):
        with judged_in(seed):
            for question in QUESTIONS:
                world = world_of(question)
                assert world == world_of(question)  # the same world for the same seed
                short, long = world.ttls
                assert long == 2 * short and short % 1 and not {short, long} & SHOWN_TTLS
                assert (short / 10).as_integer_ratio()[1] <= 8  # scaled stories stay exact
                assert world.start >= 1000
                assert world.tasks[1].startswith(world.tasks[0]) and len(set(world.tasks)) == 2
                assert world.workers[1].startswith(world.workers[0])
                assert len(set(world.workers) | {world.thief}) == 4
                assert world.keys[1].startswith(world.keys[0]) and len(set(world.keys)) == 2
                alike = world.look_alikes  # tasks only an exact comparison tells from t1
                first = world.tasks[0]
                assert tuple(alike) == LOOK_ALIKES and alike["T1"] == world.twin
                assert len({first, world.tasks[1], *alike.values()}) == 2 + len(LOOK_ALIKES)
                assert alike["' t1'"].strip() == alike["'t1 '"].rstrip() == first
                assert alike["T1"].lower() == first
                assert unicodedata.normalize("NFKC", alike["ｔ1"]) == first
                assert fnmatch.fnmatchcase(first, alike["t1*"])  # GLOB matches as fnmatch does
                # a task no ledger holds, whose ID as a LIKE pattern matches t1's
                unknown = world.task(UNKNOWN)
                assert unknown not in {first, world.tasks[1], *alike.values()}
                assert unknown == f"{first}%" and unknown in world.shown()
                shown = {"t1", "t2", "race", "A", "B", "w0", "w1", "w2", "thief", "output"}
                assert not shown & {*world.tasks, *world.workers, world.thief, world.output}
                outputs = [world.work_output(n) for n in range(5)]
                assert all(o and not isinstance(o, str) for o in outputs)  # str(output) differs
                assert len({json.dumps(o) for o in outputs}) == 5
                assert all(json.loads(json.dumps(o)) == o for o in outputs)  # a ledger keeps it
                seen.add((question, world))
    assert len(seen) > 500  # the seed decides the world


@pytest.mark.jail
@pytest.mark.parametrize("seed", [3, 11])
@pytest.mark.parametrize("question", QUESTIONS)
def test_does_the_solution_get_every_point_in_other_worlds(question, seed):
    from simlab.grading.checks import EXERCISES

    points = EXERCISES["leases"].question(question).points
    with judged_in(seed):
        check_answer(question, answer_source("solutions", NOTEBOOK, question), points, "all")


@pytest.mark.jail
@pytest.mark.parametrize("seed", [5, 8])
@pytest.mark.parametrize("name", ALTERNATIVES)
def test_does_a_correct_alternative_get_every_point_in_other_worlds(name, seed):
    _, question, source, most, says = next(a for a in ANSWERS if a[0] == name)
    with judged_in(seed):
        check_answer(question, source, most, says)


@pytest.mark.jail
@each_answer(FORESEEING)
def test_does_a_foreseeing_answer_lose_in_another_world_without_seeing_it(
    name, question, source, most, says
):
    seed = 9
    with judged_in(seed):
        grade = check_answer(question, source, most, says)
        world = world_of(question)
    for value in [*world.tasks, *world.workers, *world.keys, world.output, world.thief]:
        assert value not in grade.feedback, (name, value)
    for number in (f"{x:g}" for x in (*world.ttls, world.start)):
        if "." in number:  # a whole number may be a story's own (its seconds, its steps)
            assert number not in grade.feedback, (name, number)


@pytest.mark.parametrize(
    ("got", "told"),
    [
        ("LeaseHeld: race held by 'B' until 105.0", "it raised LeaseHeld"),
        (None, "it returned None"),
        ({"epoch": 2}, "it returned dict"),
    ],
)
def test_does_a_claim_that_never_wins_a_race_hear_what_it_did_instead(got, told):
    runs = [{"A": got, "B": None, "gap": 1, "later": 0.0, "rival": "claim"}]
    with pytest.raises(Fail) as failed:
        _some_lease(runs)
    said = str(failed.value)
    assert said.endswith(f"the first time, {told}"), said
    assert "105" not in said  # the refusal's text is the learner's own; only its kind is told
