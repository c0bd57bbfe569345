"""Do the rubrics of exercise ``histories`` weigh the core idea, is every question judged in a
hidden world no answer can foresee, and does its feedback keep that world hidden?

Each answer of ``tests/submissions/histories.py`` replaces one answer cell of the solution
notebook; only that question's hidden check runs, in the real sandbox, in a hidden world
(:func:`~simlab.grading.checks.hidden_world.judged_in`). A correct alternative gets every point
in each of several worlds; a classic or foreseeing mistake gets at most its listed points in
each of two (at most half of the question for a mistake of the core idea). The worlds and the
cases the checks are built on are checked against the kit without a sandbox.
"""

from __future__ import annotations

import functools
import math
import unicodedata
from fractions import Fraction

import pytest

from simlab.checker.checker import stale_commit_events, stale_commits
from simlab.grading.checks.hidden_world import judged_in, seed_for
from simlab.grading.checks.histories import (
    PAUSES,
    UNFENCED,
    choose_ttl,
    measure,
    recovery_times,
    stale_world,
    ttl_world,
)
from simlab.grading.checks.histories.stale import CASES, case_rows, events_of, names_task
from simlab.grading.checks.histories.stale_world import SHOWN_SEED
from simlab.grading.checks.histories.ttl import SHOWN_SEEDS, _shown_choice
from simlab.grading.checks.histories.ttl_reference import cost
from simlab.grading.checks.histories.ttl_world import _TABLE_TTLS
from simlab.grading.messages import render
from simlab.sim.simulation import simulate
from tests.submissions import hidden
from tests.submissions.grading import check_answer, check_feedback, each_answer
from tests.submissions.histories import ANSWERS

#: Worlds a correct alternative must get every point in (a mistake is judged in the first: its
#: source's own, as a notebook's bytes give one; the world tests below show that every world
#: holds what defeats the foreseeing answers).
WORLDS = 3
#: The Unicode normal forms a rule may compare names in (an exact comparison must not).
FORMS = ("NFC", "NFD", "NFKC", "NFKD")
#: Seeds the world tests draw worlds from.
SEEDS = (0, 1, 2, 3, 101, 2**63 - 1)


def _worlds(source: str, most: int) -> list[int]:
    own = seed_for(source.encode(), "rubric-test")
    return [own, own ^ 1, own ^ 2][: WORLDS if most == 6 else 1]


@pytest.mark.jail
@each_answer(ANSWERS)
def test_does_each_answer_get_what_its_idea_is_worth_in_every_world(
    name, question, source, most, says
):
    for seed in _worlds(source, most):
        with judged_in(seed):
            grade = check_answer(question, source, most, says)
            check_feedback(f"{name} (world {seed:x})", grade.feedback, hidden.histories(seed))


def test_does_each_hand_written_history_hold_what_its_feedback_says():
    """The count a failure names as expected is the kit's own rule's count on that history,
    with its tasks named as in the notebook's style and as in every world."""
    names = [("t1", "t2")] + [_in(seed, stale_world).tasks for seed in SEEDS]
    for case, (_, want, _) in CASES.items():
        for tasks in names:
            assert len(stale_commits(events_of(*case_rows(case, tasks)))) == want, (case, tasks)


def _in(seed: int, world):
    with judged_in(seed):
        return world()


def test_is_the_world_the_same_for_a_seed_and_another_for_another():
    for world in (stale_world, ttl_world):
        assert _in(5, world) == _in(5, world)
        assert len({repr(_in(seed, world)) for seed in SEEDS}) == len(SEEDS)


@pytest.mark.parametrize("seed", SEEDS)
def test_do_the_recorded_runs_of_stale_commits_defeat_a_count_typed_in(seed):
    """Two unfenced runs other than the notebook's, with stale commits and different counts
    (no count typed in gets both); a fenced run whose fence refused saves and held; two task
    names, one the other's prefix."""
    world = _in(seed, stale_world)
    counts = []
    for scenario, n in world.unfenced:
        assert scenario.variant == "unfenced" and (scenario, n) != (UNFENCED, SHOWN_SEED)
        counts.append(len(stale_commits(simulate(scenario, seed=n).history)))
    assert min(counts) > 0 and counts[0] != counts[1], counts
    scenario, n = world.fenced
    run = simulate(scenario, seed=n)
    assert scenario.variant == "fenced" and run.stale_rejected > 0
    assert stale_commits(run.history) == []
    long, short = world.tasks
    assert long != short and long.startswith(short)


@pytest.mark.parametrize("history_of, op", [("unknown", "save"), ("lost_cancel", "cancel")])
@pytest.mark.parametrize("seed", SEEDS)
def test_does_an_outcome_unknown_defeat_info_taken_for_ok(seed, history_of, op):
    """The world's history with a save of the older epoch, or a cancel, of unknown outcome
    (info): the kit's rule leaves the save out and grants the cancel nothing; a rule that takes
    info for ok finds one stale commit more; its task is one of the world's; both counts occur
    across worlds."""
    world = _in(seed, stale_world)
    rows = getattr(world, history_of)
    history = events_of(*rows)
    truth = len(stale_commits(history))
    assert any(e.type == "info" and e.op == op for e in history)
    as_ok = events_of(*((r[0], "ok", *r[2:]) if r[1] == "info" else r for r in rows))
    assert len(stale_commits(as_ok)) == truth + 1
    assert {e.task for e in history} == {world.tasks[0]}
    counts = {
        len(stale_commits(events_of(*getattr(_in(n, stale_world), history_of)))) for n in SEEDS
    }
    assert counts == {0, 1}


def _renamed(history, name):
    """``history`` with each event's task named ``name(task)``."""
    return events_of(
        *((e.time, e.type, e.process, e.op, name(e.task), e.epoch, e.step) for e in history)
    )


@pytest.mark.parametrize("seed", SEEDS)
def test_does_the_history_of_three_task_names_defeat_tasks_mixed(seed):
    """The world's history of drawn task names: the kit's rule finds one stale commit; tasks
    told apart by any prefix shorter than the names, by names in small letters, stripped of
    white space or normalised (NFC, NFKC), find two. The names are not the world's other
    tasks' and differ across worlds."""
    world = _in(seed, stale_world)
    history = events_of(*world.names)
    tasks = sorted({e.task for e in history})
    assert len(tasks) >= 6 and len(stale_commits(history)) == 1
    loose = (str.lower, str.strip, *(functools.partial(unicodedata.normalize, f) for f in FORMS))
    for fold in loose:
        assert len(stale_commits(_renamed(history, fold))) == 2, fold
    for n in range(1, min(map(len, tasks))):
        assert len(stale_commits(_renamed(history, lambda t, n=n: t[:n]))) == 2, n
    assert not set(tasks) & set(world.tasks)
    assert len({_in(n, stale_world).names for n in SEEDS}) == len(SEEDS)


@pytest.mark.parametrize("seed", SEEDS)
def test_does_the_history_of_a_higher_epoch_defeat_any_other_epoch_taken_for_stale(seed):
    """The world's history with a save above every granted epoch: the kit's rule finds no
    stale commit; a rule that calls stale any epoch other than the highest granted finds one."""
    world = _in(seed, stale_world)
    history = events_of(*world.above)
    assert stale_commits(history) == []
    granted = max(e.epoch for e in history if e.op == "claim")
    assert [e for e in history if e.op == "save" and e.epoch != granted]
    # a save of the granted epoch after the higher one: stale only if a save granted its epoch
    saves_granting = events_of(
        *(
            (
                e.time,
                e.type,
                e.process,
                "claim" if e.epoch > granted else e.op,
                e.task,
                e.epoch,
                e.step,
            )
            for e in history
        )
    )
    assert len(stale_commits(saves_granting)) == 1


@pytest.mark.parametrize("seed", SEEDS)
def test_do_the_recorded_runs_hold_stale_commits_of_two_tasks(seed):
    """The unfenced runs' stale commits are in two tasks or more, so a sentence naming one
    task typed in names another task of its history in one of them."""
    world = _in(seed, stale_world)
    tasks = set()
    for scenario, n in world.unfenced:
        tasks |= {e.task for e, _ in stale_commit_events(simulate(scenario, seed=n).history)}
    assert len(tasks) > 1


@pytest.mark.parametrize("seed", SEEDS)
def test_does_the_history_whose_times_go_back_defeat_a_walk_by_time(seed):
    """The world's history whose times go back: the kit's rule, walking it as listed, finds
    one stale commit; walked sorted by time (stable or not), none. Its task is the world's."""
    world = _in(seed, stale_world)
    history = events_of(*world.clocks)
    assert len(stale_commits(history)) == 1
    assert stale_commits(sorted(history, key=lambda e: e.time)) == []
    assert [e.time for e in history] != sorted(e.time for e in history)
    assert {e.task for e in history} == {world.tasks[0]}


@pytest.mark.parametrize("seed", SEEDS)
def test_does_the_history_of_shared_times_defeat_the_next_claim_found_by_time(seed):
    """A crash and its task's next claim share a time: the next claim in the history's order
    gives other times than the first claim at a later time, or at a time no earlier."""
    from simlab.grading.checks.histories.ttl_histories import shared_times_history

    with judged_in(seed):
        history = shared_times_history()

    def by_time(later_than):
        crashes = [e for e in history if e.op == "crash" and e.task is not None]
        claims = [e for e in history if e.op == "claim" and e.type == "ok"]
        return [
            next(c.time - e.time for c in claims if c.task == e.task and later_than(c, e))
            for e in crashes
        ]

    truth = recovery_times(history)
    assert len(truth) == 2 and truth[0] == 0.0 < truth[1]
    assert by_time(lambda c, e: c.time > e.time) != truth
    assert by_time(lambda c, e: c.time >= e.time) != truth


@pytest.mark.parametrize("seed", SEEDS)
def test_does_the_history_of_a_crash_without_task_defeat_timing_it(seed):
    """A worker crashes holding no task, then claims one: the kit times only the crash that has
    a task; timing the task-less crash to the next claim of any task gives one time more."""
    from simlab.grading.checks.histories.ttl_histories import taskless_crash_history

    with judged_in(seed):
        history = taskless_crash_history()
    events = list(history)
    taskless = [i for i, e in enumerate(events) if e.op == "crash" and e.task is None]
    assert len(taskless) == 1
    assert any(e.op == "claim" and e.type == "ok" for e in events[taskless[0] + 1 :])
    crashes = [e for e in events if e.op == "crash" and e.task is not None]
    truth = recovery_times(history)
    assert len(truth) == len(crashes) == 1

    def timing_every_crash():
        return [
            next(
                c.time - e.time
                for c in events[i + 1 :]
                if c.op == "claim" and c.type == "ok" and (e.task is None or c.task == e.task)
            )
            for i, e in enumerate(events)
            if e.op == "crash"
        ]

    assert len(timing_every_crash()) == len(truth) + 1


@pytest.mark.parametrize("seed", SEEDS)
def test_does_the_history_whose_times_go_back_defeat_times_taken_in_time_order(seed):
    """The history whose times go back: the kit's times (one negative, in the order the crashes
    are listed) differ from those of the history sorted by time, and from the right times given
    in the order of the crashes' times."""
    from simlab.grading.checks.histories.ttl_histories import times_back_history

    with judged_in(seed):
        history = times_back_history()

    def walked(events):
        found = []
        for i, e in enumerate(events):
            if e.op == "crash" and e.task is not None:
                later = [c for c in events[i + 1 :] if c.op == "claim" and c.type == "ok"]
                c = next(c for c in later if c.task == e.task)
                found.append((e.time, c.time - e.time))
        return found

    truth = recovery_times(history)
    assert [t for _, t in walked(list(history))] == truth
    assert len(truth) == 2 and truth[1] < 0 < truth[0]
    assert [t for _, t in walked(sorted(history, key=lambda e: e.time))] != truth
    assert [t for _, t in sorted(walked(list(history)))] != truth


#: Worlds in which no scenario drawn for the first call's run differs from PAUSES' in both keys
#: (a long ttl whose run has no refused save): the world was not drawn, and a correct answer
#: got no point.
FIRST_RUN_UNMOVED = (454, 802)


@pytest.mark.parametrize("seed", SEEDS + FIRST_RUN_UNMOVED)
def test_does_the_scenario_of_pauses_defeat_a_copy_of_its_own(seed):
    """The call with PAUSES holding another scenario: at a ttl and seed the world runs anyway
    (a call's ttl and first seed, the first call's when a scenario moves both keys there),
    whose numbers differ from the notebook's PAUSES' in both keys; the scenario is the text's
    PAUSES with pauses, crashes or tasks changed, never its ttl."""
    world = _in(seed, ttl_world)
    scenario, ttl, seeds = world.pauses
    assert (ttl, seeds) in {(t, ns[:1]) for t, ns in world.measured}
    if seed in FIRST_RUN_UNMOVED:
        assert (ttl, seeds) != (world.measured[0][0], world.measured[0][1][:1])
    assert scenario != PAUSES and scenario.ttl == PAUSES.ttl
    theirs, usual = measure(ttl, seeds, scenario), measure(ttl, seeds)
    assert all(theirs[key] != usual[key] for key in usual)
    run = simulate(scenario.with_(ttl=ttl), seed=seeds[0])
    assert theirs == {
        "duplicate_work": run.stale_rejected,
        "waiting": sum(recovery_times(run.history)),
    }


@pytest.mark.parametrize("seed", SEEDS)
def test_do_the_runs_of_choose_ttl_defeat_an_ignored_argument_or_another_count(seed):
    """Each key of measure's result is wrong in some call of the world when the ttl is
    ignored, one seed is used, the notebook's seeds are used, or the runs are summed; the
    duplicate work differs from the workers' wasted steps; the recorded run has crashes, each
    claimed again. The third call asks for the first one's ttl again with other seeds, and the
    fourth for the second one's seeds with the first ttl; each differs in both keys from the
    call it repeats a part of (a result kept by ttl alone, or runs kept by seed alone, are wrong
    there)."""
    world = _in(seed, ttl_world)
    ttls = [t for t, _ in world.measured]
    seeds = [ns for _, ns in world.measured]
    assert len(set(ttls)) >= 2 and ttls[0] == ttls[2] == ttls[3] != ttls[1]
    assert seeds[3] == seeds[1] and seeds[2] != seeds[0]
    # the last call: the second one's seeds with its first listed twice, so seeds
    # de-duplicated give the second call's numbers, the wrong ones there
    assert world.measured[4] == (ttls[1], (*seeds[1], seeds[1][0]))
    assert measure(*world.measured[4]) != measure(*world.measured[1])
    for one, other in ((0, 2), (1, 3)):
        a, b = measure(*world.measured[one]), measure(*world.measured[other])
        assert all(a[key] != b[key] for key in ("duplicate_work", "waiting"))
    for ttl, seeds in world.measured:
        assert ttl != PAUSES.ttl and len(seeds) >= 2 and not set(seeds) & set(SHOWN_SEEDS)
    truths = [measure(t, ns) for t, ns in world.measured]
    foreseen = {
        "ttl ignored": [measure(PAUSES.ttl, ns) for _, ns in world.measured],
        "first seed": [measure(t, ns[:1]) for t, ns in world.measured],
        "notebook's seeds": [measure(t, range(1, 4)) for t, _ in world.measured],
        "summed": [
            {k: v * len(ns) for k, v in truth.items()}
            for (_, ns), truth in zip(world.measured, truths, strict=True)
        ],
    }
    for what, wrongs in foreseen.items():
        for key in ("duplicate_work", "waiting"):
            assert any(w[key] != t[key] for w, t in zip(wrongs, truths, strict=True)), (what, key)
    wasted = [
        sum(simulate(PAUSES.with_(ttl=t), seed=n).metrics["wasted_steps"] for n in ns) / len(ns)
        for t, ns in world.measured
    ]
    assert wasted != [t["duplicate_work"] for t in truths]
    ttl, n = world.recorded
    history = simulate(PAUSES.with_(ttl=ttl), seed=n).history
    crashes = [e for e in history if e.op == "crash" and e.task is not None]
    assert len(crashes) >= 2 and len(recovery_times(history)) == len(crashes)


@pytest.mark.parametrize("seed", SEEDS)
def test_do_the_tables_of_choose_ttl_defeat_a_fixed_choice(seed):
    """The cheapest ttls of the world's three costs are three different ones, the smallest and
    the largest among them, each alone cheapest, and no value of the table is a ttl; the tie
    is exact, between two ttls cheaper than the third, the larger first in the table."""
    world = _in(seed, ttl_world)
    table = world.table
    chosen = [choose_ttl(table, step, wait) for step, wait in world.costs]
    assert len(set(chosen)) == 3 and min(table) in chosen and max(table) in chosen
    # a choice is shown as itself: no value of the table may look like a ttl
    assert not {v for row in table.values() for v in row.values()} & set(_TABLE_TTLS)
    for step, wait in world.costs:
        costs = sorted(r["duplicate_work"] * step + r["waiting"] * wait for r in table.values())
        assert costs[1] > costs[0]
    tie, step, wait = world.tie

    def cost(t):
        return tie[t]["duplicate_work"] * step + tie[t]["waiting"] * wait

    low = sorted(tie, key=cost)
    assert cost(low[0]) == cost(low[1]) < cost(low[2])
    smaller, larger = sorted(low[:2])
    assert choose_ttl(tie, step, wait) == smaller
    assert list(tie).index(larger) < list(tie).index(smaller)


@pytest.mark.parametrize("seed", SEEDS)
def test_does_every_argument_of_choose_ttl_matter_in_every_world(seed):
    """A choose_ttl that puts a constant in place of step_cost, or of wait_cost, chooses wrong
    for one of the world's three costs on its table, whatever the constant (wait_cost among
    them 1, where ignoring it would coincide with the costs of 1 the world draws)."""
    world = _in(seed, ttl_world)
    table = world.table
    truths = [choose_ttl(table, step, wait) for step, wait in world.costs]
    for constant in (0, 0.5, 1, 2, 3, 4, 10, 60, 1000):
        ignores_wait = [choose_ttl(table, step, constant) for step, _ in world.costs]
        ignores_step = [choose_ttl(table, constant, wait) for _, wait in world.costs]
        assert ignores_wait != truths, ("wait_cost", constant)
        assert ignores_step != truths, ("step_cost", constant)


@pytest.mark.parametrize("seed", SEEDS)
def test_does_the_close_table_of_choose_ttl_defeat_rounded_costs(seed):
    """The two cheapest costs of the close table differ by thousandths: the reference takes the
    larger ttl, the cheaper one, while costs rounded to 0, 1 or 2 decimals tie and give the
    smaller ttl, listed before it."""
    table, step, wait = _in(seed, ttl_world).close

    def cost(t, digits=None):
        exact = table[t]["duplicate_work"] * step + table[t]["waiting"] * wait
        return exact if digits is None else round(exact, digits)

    low = sorted(table, key=cost)
    assert 0 < cost(low[1]) - cost(low[0]) < 0.005 and cost(low[2]) > cost(low[1]) + 1
    smaller, larger = sorted(low[:2])
    assert choose_ttl(table, step, wait) == larger == low[0]
    for digits in (0, 1, 2):
        assert min(sorted(table), key=lambda t, d=digits: cost(t, d)) == smaller
    assert list(table).index(smaller) < list(table).index(larger)


@pytest.mark.parametrize("seed", SEEDS)
def test_does_the_near_table_of_choose_ttl_defeat_a_tolerance(seed):
    """The two cheapest costs of the near table differ by a relative 1e-11 to 2e-10, exactly
    and in every order of computing them (so no correct answer sees a tie); the reference
    takes the larger ttl, the cheaper one, while costs equal within math.isclose tie and give
    the smaller ttl, listed before it."""
    table, step, wait = _in(seed, ttl_world).near
    orders = (
        lambda r: r["duplicate_work"] * step + r["waiting"] * wait,
        lambda r: wait * r["waiting"] + step * r["duplicate_work"],
        lambda r: (r["duplicate_work"] * step / wait + r["waiting"]) * wait,
        lambda r: math.fsum((r["waiting"] * wait, r["duplicate_work"] * step)),
    )
    for t, row in table.items():
        exact = Fraction(row["duplicate_work"]) * step + Fraction(row["waiting"]) * wait
        assert all(cost(row) == exact for cost in orders), t

    def cost(t):
        return orders[0](table[t])

    low = sorted(table, key=cost)
    assert 1e-11 <= (cost(low[1]) - cost(low[0])) / cost(low[1]) <= 2e-10
    assert math.isclose(cost(low[0]), cost(low[1])) and cost(low[2]) > cost(low[1]) + 1
    smaller, larger = sorted(low[:2])
    assert choose_ttl(table, step, wait) == larger == low[0]
    assert list(table).index(smaller) < list(table).index(larger)


def test_does_a_sentence_name_its_task_whole():
    assert names_task("w2 (epoch 1) committed step 2 of t10 at t=3", "t10")
    assert names_task("task 't1': stale", "t1")
    assert not names_task("w2 (epoch 1) committed step 2 of t10 at t=3", "t1")
    assert not names_task("at1 saved", "t1")
    assert not names_task(("t1",), "t1")


def test_is_a_choice_told_without_its_ttl_rank_or_a_value_of_a_hidden_table():
    """Every ttl of the table is "another ttl of the table": neither the ttl nor which of
    them (its rank would be a number the learner's code chose on a hidden table)."""
    world = _in(0, ttl_world)
    table, hidden = world.table, world.hidden_tables
    said = {render(_shown_choice(ttl, table, hidden)) for ttl in table}
    assert said == {"another ttl of the table"}, said
    value = next(iter(table.values()))["waiting"]
    assert render(_shown_choice(value, table, hidden)) == "a float"
    assert render(_shown_choice(min(table) + 0.25, table, hidden)) == "a float"
    assert render(_shown_choice("4", table, hidden)) == "a str"


@pytest.mark.parametrize("seed", SEEDS)
def test_does_the_history_of_named_tasks_defeat_a_recovery_matched_loosely(seed):
    """The world's histories of named tasks: a recovery whose claim's task is matched with
    names folded, stripped or normalised gives other times than the kit's on one of them."""
    from simlab.grading.checks.histories.ttl_histories import named_history

    def matched(history, fold):
        events, out = list(history), []
        for i, e in enumerate(events):
            if e.op == "crash" and e.task is not None:
                for later in events[i + 1 :]:
                    if (
                        later.op == "claim"
                        and later.type == "ok"
                        and fold(later.task) == fold(e.task)
                    ):
                        out.append(later.time - e.time)
                        break
        return out

    with judged_in(seed):
        histories = [named_history(claimed=c) for c in (True, False)]
    loose = (str.casefold, str.strip, *(functools.partial(unicodedata.normalize, f) for f in FORMS))
    for fold in loose:
        for history in histories:
            assert matched(history, fold) != recovery_times(history), (seed, fold)


def _walked(history, *, grants=("claim", "cancel"), forgets=(), refused_grant=False, key=int):
    """The tasks of the stale commits a rule finds walking ``history`` as listed, each event
    judged as the kit's rule judges it unless told otherwise: ``grants`` (ops whose ok grants
    its epoch), ``forgets`` (ops whose ok forgets the task's epoch), ``refused_grant`` (a
    refused save grants its epoch), ``key`` (what epochs are compared as)."""
    newest, found = {}, []
    for e in history:
        if e.task is None or e.epoch is None:
            continue
        granting = (e.type == "ok" and e.op in grants) or (
            refused_grant and e.type == "fail" and e.op == "save"
        )
        if e.type == "ok" and e.op in forgets:
            newest.pop(e.task, None)
        elif granting:
            if e.task not in newest or key(e.epoch) > key(newest[e.task]):
                newest[e.task] = e.epoch
        elif e.type == "ok" and e.op == "save" and e.task in newest:
            if key(e.epoch) < key(newest[e.task]):
                found.append(e.task)
    return found


@pytest.mark.parametrize("seed", SEEDS)
def test_does_the_history_of_a_refused_higher_save_defeat_a_refused_save_taken_for_a_grant(seed):
    """The world's history with a save above every granted epoch also holds a refused save of
    a higher epoch still: the kit's rule finds nothing, a rule that lets the refused save grant
    its epoch finds the saves of the granted epoch stale."""
    history = events_of(*_in(seed, stale_world).above)
    granted = max(e.epoch for e in history if e.op == "claim")
    assert [e for e in history if e.op == "save" and e.type == "fail" and e.epoch > granted]
    assert _walked(history) == [] == stale_commits(history)
    assert len(_walked(history, refused_grant=True)) >= 2


@pytest.mark.parametrize("seed", SEEDS)
def test_does_the_history_of_kept_grants_defeat_a_grant_forgotten_or_epochs_as_strings(seed):
    """The world's history of a release, then a cancel and a requeue: the kit's rule finds two
    stale commits; a rule that forgets the task's epoch on a release ok, or on a requeue ok,
    finds one; one that compares epochs as strings finds none (the older epoch 9 or 99, the
    newer ones a digit longer). Its task is the world's."""
    world = _in(seed, stale_world)
    history = events_of(*world.kept)
    assert len(stale_commits(history)) == 2 == len(_walked(history))
    assert {e.op for e in history if e.type == "ok"} >= {"release", "requeue", "cancel"}
    assert len(_walked(history, forgets=("release",))) == 1
    assert len(_walked(history, forgets=("requeue",))) == 1
    assert _walked(history, key=str) == []
    assert {e.task for e in history} == {world.tasks[0]}
    assert {min(row[5] for row in _in(n, stale_world).kept if len(row) > 5) for n in SEEDS} == {
        9,
        99,
    }


@pytest.mark.parametrize("seed", SEEDS)
def test_does_the_history_of_a_cancel_first_defeat_a_cancel_counted_after_a_claim_only(seed):
    """The world's history where a cancel ok is the task's first grant (its only claim of
    unknown outcome): the kit's rule finds one stale commit, a rule that counts a cancel only
    for a task a claim ok was granted finds none, as does one that ignores cancels."""
    history = events_of(*_in(seed, stale_world).cancel_first)
    assert len(stale_commits(history)) == 1 == len(_walked(history))
    assert not [e for e in history if e.op == "claim" and e.type == "ok"]
    assert _walked(history, grants=("claim",)) == []


@pytest.mark.parametrize("seed", SEEDS)
def test_does_the_history_of_sentences_defeat_sentences_merged_or_put_in_time_order(seed):
    """The world's history for the sentences: stale commits of t7, the same row again, then
    t3, stamped before them; sentences given once each are two, and sentences put in the order
    of their times start with t3."""
    history = events_of(*_in(seed, stale_world).sentences)
    found = stale_commit_events(history)
    assert [e.task for e, _ in found] == ["t7", "t7", "t3"]
    assert len(set(stale_commits(history))) == 2
    by_time = sorted(found, key=lambda pair: pair[0].time)
    assert by_time[0][0].task == "t3"


@pytest.mark.parametrize("seed", SEEDS)
def test_does_the_history_of_crash_types_defeat_a_claim_of_unknown_outcome_taken_for_the_next(
    seed,
):
    """The history of crash types holds a claim of unknown outcome (info) of a crashed task
    before its claim ok, stamped earlier: timing the crash to the next claim ok or info gives
    other times than the kit's."""
    from simlab.grading.checks.histories.ttl_histories import crash_types_history

    with judged_in(seed):
        history = crash_types_history()
    events = list(history)

    def timed(types):
        return [
            next(
                c.time - e.time
                for c in events[i + 1 :]
                if c.op == "claim" and c.type in types and c.task == e.task
            )
            for i, e in enumerate(events)
            if e.op == "crash" and e.task is not None
        ]

    assert any(e.op == "claim" and e.type == "info" for e in events)
    assert timed(("ok",)) == recovery_times(history)
    assert timed(("ok", "info")) != recovery_times(history)


@pytest.mark.parametrize("seed", SEEDS)
def test_do_the_free_costs_of_choose_ttl_defeat_a_cost_divided_by_the_other(seed):
    """With each cost free (0) in turn, the world's table has one cheapest ttl (no tie), and a
    choice that divides the cost by wait_cost, or by step_cost, raises on one of them."""
    world = _in(seed, ttl_world)
    table = world.table
    assert sorted(pair.index(0) for pair in world.free) == [0, 1]

    def by_wait(step, wait):
        return min(
            table, key=lambda t: table[t]["duplicate_work"] * step / wait + table[t]["waiting"]
        )

    def by_step(step, wait):
        return min(
            table, key=lambda t: table[t]["duplicate_work"] + table[t]["waiting"] * wait / step
        )

    for divided in (by_wait, by_step):
        with pytest.raises(ZeroDivisionError):
            for step, wait in world.free:
                divided(step, wait)
    for step, wait in world.free:
        costs = sorted(cost(table, t, step, wait) for t in table)
        assert costs[0] < costs[1]


@pytest.mark.parametrize("seed", SEEDS)
def test_does_the_free_cost_tie_of_choose_ttl_defeat_the_largest_or_the_first_ttl(seed):
    """On the world's free-cost tie: with the wait free two ttls tie at cost 0 and the smaller
    wins, which is not the largest ttl of the table; with both costs free every ttl ties and
    the smallest wins, which is not the first listed; no value of the table is a ttl, and the
    table is among the hidden ones (a choice is told by its rank)."""
    world = _in(seed, ttl_world)
    table, step = world.free_tie
    assert len(table) == 3 and step > 0
    assert not {v for row in table.values() for v in row.values()} & set(_TABLE_TTLS)
    assert set(table) <= world.hidden_tables
    costs = sorted(cost(table, t, step, 0) for t in table)
    assert costs[0] == costs[1] == 0 < costs[2]
    wait_free = choose_ttl(table, step, 0)
    assert wait_free != max(table) and cost(table, max(table), step, 0) == 0
    both_free = choose_ttl(table, 0, 0)
    assert both_free == min(table) != next(iter(table))
    # the waiting grows with the ttl, as a measured table's does
    assert [table[t]["waiting"] for t in sorted(table)] == sorted(
        table[t]["waiting"] for t in table
    )
