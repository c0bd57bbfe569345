"""Question ``choose-ttl``: ``recovery_times``, ``measure`` and ``choose_ttl`` against the
reference computed here, in a hidden world the learner has not seen.

The core idea is that the ttl comes out of the trade-off the simulator measures: recovery after
crashes (timed from the crash to the task's next successful claim) against duplicate work
(refused saves), averaged over several seeds, then weighed with the costs. The world
(:func:`ttl_world`) draws the ttls and seeds ``measure`` runs, the recorded run
``recovery_times`` reads, the cost table and costs ``choose_ttl`` weighs and a table with a tie:
numbers typed in from the notebook's table, an argument ignored (the ttl, the seeds, the costs)
or a count read from another source than the ledger's refused saves give a wrong answer there.
Besides, recovery_times returns a list and none of the three changes what it is given: the
arguments come back from the call and are compared with the grader's own copies.
Feedback shows the learner's own numbers (numbers only: a value that is not one is named by its
type, so an answer cannot echo a hidden input back) and never the reference's values, the
world's seeds and ttls, or the numbers of its tables.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

from simlab.checker.history import History
from simlab.grading.checks.histories.messages import measure_wrong, say, times_wrong
from simlab.grading.checks.histories.stale import events_of
from simlab.grading.checks.histories.ttl_histories import (
    crash_types_history,
    named_history,
    shared_times_history,
    taskless_crash_history,
    times_back_history,
)
from simlab.grading.checks.histories.ttl_reference import (
    PAUSES,
    SHOWN_SEEDS,
    choose_ttl,
    measure,
    recovery_times,
)
from simlab.grading.checks.histories.ttl_world import KEYS, TtlWorld, ttl_world
from simlab.grading.messages import Message
from simlab.grading.properties import Story, falsify, st
from simlab.grading.questions import Criterion, Fail, Tally, require
from simlab.grading.student import Student, close_to, kind_of, shown_number
from simlab.sim.simulation import simulate

__all__ = [
    "PAUSES",
    "SHOWN_SEEDS",
    "TtlWorld",
    "ttl_world",
    "TTL_RUBRIC",
    "recovery_times",
    "measure",
    "choose_ttl",
    "choose_ttl_check",
]

# --------------------------------------------------------------------------- the check ------


def choose_ttl_check(s: Student, t: Tally) -> None:
    """``recovery_times`` on a small and a recorded history, ``measure`` in the world's calls,
    then ``choose_ttl`` on the world's table and tie, each against the reference here; parts
    are filed under the criteria of :data:`TTL_RUBRIC`. The world (:func:`ttl_world`) is drawn
    before any part runs."""
    recover, measured, choose = (
        s.function("recovery_times"),
        s.function("measure"),
        s.function("choose_ttl"),
    )
    world = ttl_world()
    t.under("measured-trade-off")
    t.part(lambda: _recovery_on_a_small_history(recover))
    t.part(lambda: _recovery_on_a_recorded_run(recover, world))
    t.part(lambda: _recovery_on_named_tasks(recover, claimed=True))
    t.part(lambda: _recovery_on_shared_times(recover))
    t.part(lambda: _recovery_on_a_crash_without_task(recover))
    t.part(lambda: _recovery_on_times_that_go_back(recover))
    t.part(lambda: _recovery_on_crashes_of_any_type(recover))
    for ttl, seeds in world.measured:
        t.part(functools.partial(_measure_matches, measured, ttl, seeds, world))
    t.part(lambda: _measure_reads_pauses(s, world))
    t.part(lambda: _chooses_the_cheapest(choose, world))
    t.part(lambda: _chooses_on(choose, world, world.close, "not_cheapest_close"))
    t.part(lambda: _chooses_on(choose, world, world.near, "not_cheapest_near"))
    t.part(lambda: falsify(_CRASHES, _recovery_property(recover, claimed=True), examples=_EXAMPLES))
    t.part(lambda: falsify(_TABLES, _choice_property(choose, ties=False), examples=_EXAMPLES))
    t.under("left-out")
    t.part(lambda: _a_crash_never_claimed_is_left_out(recover))
    t.part(lambda: _recovery_on_named_tasks(recover, claimed=False))
    t.part(
        lambda: falsify(_CRASHES, _recovery_property(recover, claimed=False), examples=_EXAMPLES)
    )
    t.under("tie")
    t.part(lambda: _chooses_on(choose, world, world.tie, "not_smaller"))
    t.part(lambda: _chooses_with_free_costs(choose, world))
    t.part(lambda: falsify(_TIES, _choice_property(choose, ties=True), examples=_EXAMPLES))
    t.under("contract")
    t.part(lambda: _recovery_gives_a_list_and_keeps_its_history(recover))
    t.part(lambda: _measure_keeps_its_seeds(measured, world))
    t.part(lambda: _choice_keeps_its_table(choose, world))


#: The rubric of ``choose-ttl``: the ttl comes out of a measured trade-off, not a guess.
TTL_RUBRIC = (
    Criterion(
        "measured-trade-off",
        3,
        "The ttl comes out of the trade-off the simulator measures: recovery_times runs from "
        "each crash to its task's next successful claim, measure simulates the ttl on every seed "
        "it is given and averages the refused saves and the total recovery time per run, and "
        "choose_ttl takes the ttl of lowest cost, so its choice moves with the costs.",
        core=True,
        mistakes=(
            "a ttl typed in rather than chosen from the table",
            "measures on one seed (or a fixed one), not on every seed given",
            "seeds de-duplicated (set(seeds)): a seed listed twice counted once",
            "measures the notebook's numbers typed in, or ignores the ttl it is given",
            "results kept by ttl alone: a second call with the same ttl ignores its seeds",
            "costs rounded before they are compared: close costs tie",
            "costs compared within a tolerance (math.isclose): near costs tie",
            "duplicate work counted from the workers' wasted steps, not the refused saves",
            "always the smallest or the largest ttl, or one cost alone, or fixed costs",
            "recovery timed from the wrong event (a restart, a failed claim, another task's claim)",
            "a crash without a task (task None) timed too, to the next claim of any task",
            "the next claim's task matched by prefix or substring, not whole",
            "the next claim's task matched with names folded, stripped or normalised (NFC, "
            "NFKC), not equal",
            "the grader's costs or seeds known by heart rather than computed",
            "the next claim found by its time, not by its place in the history",
            "only crashes recorded as info timed: a crash event of another type left out",
            "the history sorted by time, or the times given in the order of the crashes' "
            "times, not in the order the history lists them",
            "a scenario of its own (a copy of PAUSES' numbers) simulated in place of PAUSES",
            "results kept between calls (functools.lru_cache on the ttl and seeds): a later "
            "PAUSES is not read",
            "a cost ignored (wait_cost taken as 1, or step_cost as the notebook's 10)",
            "a cost divided by wait_cost (or step_cost): a free cost (0) raises",
            "a claim of unknown outcome (type info: its reply lost) taken for the next claim",
            "times or means rounded",
        ),
        properties=(
            "On generated histories of crashes, claims, refused claims and restarts (every "
            "crash claimed again later), recovery_times equals the reference's.",
            "On generated tables with one cheapest ttl and generated costs, choose_ttl "
            "returns the reference's choice.",
        ),
        text=(
            "* `recovery_times(history)`: a list holding, for every `crash` event that has a "
            'task (`op == "crash"`, `e.task is not None`), the time from the crash to the '
            "**next** successful claim of that task (`claim`, `ok`) in the order the history "
            "lists them (a claim listed after the crash at the same time is the next one), in "
            "the order of the crashes;",
            "* `measure(ttl, seeds)`: simulate `PAUSES.with_(ttl=ttl)` once per seed and return "
            '`{"duplicate_work": ..., "waiting": ...}`: the mean over the seeds of the refused '
            "saves per run, and of the total recovery time per run.",
            "A seed listed twice counts twice.",
            "Read `PAUSES` at each call: the grader also calls it with other scenarios there.",
            "(count the refused saves: `result.stale_rejected`)",
            "Neither `recovery_times` nor `measure` rounds: the grader compares each number with "
            "the kit's by `math.isclose(answer, expected, rel_tol=1e-9, abs_tol=1e-9)`.",
            "`table` maps ttl -> the dict `measure` returns; return the ttl with the lowest "
            "cost `duplicate_work * step_cost + waiting * wait_cost`",
            "Either cost may be 0: that cost is then free.",
        ),
        world=(
            "The ttls and seeds measure() is given (never PAUSES' own ttl nor the notebook's "
            "seeds; ignoring the ttl, using one seed, summing or counting wasted steps each gives "
            "a wrong value), the ttl and seed of the run recovery_times() reads, a history whose "
            "crashed task's name starts and ends two other claimed tasks' names and whose "
            "look-alikes (its first letter in capitals, white space around it, its first "
            "character full-width, its accent decomposed) are claimed too (drawn names and "
            "times), a cost table with three pairs of costs whose cheapest ttls are three "
            "different ones (a choice ignoring either cost is wrong for one of them), and with "
            "each cost free (0) in turn, a table "
            "whose two cheapest costs differ by thousandths, and one whose "
            "two cheapest costs differ by a relative 1e-11 to 2e-10 (exactly, in any order of "
            "computing them: not a tie); measure() is given one ttl twice, with other seeds, and "
            "the second call's seeds again with the first ttl (so runs kept by seed alone answer "
            "the second call's numbers), and the second call again with its first seed listed "
            "twice (so seeds de-duplicated answer its numbers); for one more call, PAUSES holds "
            "another scenario (pauses, "
            "crashes and tasks drawn), measure() having just been given the same ttl and seeds "
            "under the usual PAUSES (so results kept from that call answer its numbers); and "
            "a history where a crash and its task's next claim share "
            "a time, the claim's worker crashing at that time again (task, workers and times "
            "drawn); and a history where a worker crashes holding no task (task None), restarts "
            "and claims a task before another task's crash is claimed again (tasks, workers and "
            "times drawn); and a history whose times go back: a crash listed after another "
            "task's crash stamped later, and the claim listed next for its task stamped before "
            "it, that task claimed again later (tasks, workers and times drawn); and a "
            "history where two tasks crash and are claimed again, one crash recorded as info "
            "and the other with another type (ok, fail or invoke: tasks, workers, times and "
            "type drawn), the first task crashed claimed with an unknown outcome (type info) "
            "before its claim ok."
        ),
    ),
    Criterion(
        "left-out",
        1,
        "A crash that no later claim of its task follows is left out of the recovery times.",
        properties=(
            "On generated histories where some crashes are never claimed again, recovery_times "
            "equals the reference's.",
        ),
        text=("a crash with no later claim is left out.",),
        world=(
            "A crashed task never claimed again, while two tasks whose drawn names hold its "
            "own and its look-alikes (capitals, white space, full-width, decomposed accent) are "
            "claimed after its crash: a claim matched by prefix or substring, or by names "
            "folded, stripped or normalised, fills in a recovery that never happened."
        ),
    ),
    Criterion(
        "tie",
        1,
        "On a tie choose_ttl returns the smaller ttl, whatever the table's order, also when a "
        "free cost (0) makes the tie.",
        properties=("On generated tables with a tie, in any order, the smaller ttl.",),
        mistakes=(
            "the first ttl of the table on a tie, not the smaller",
            "the largest ttl whenever the wait is free (0), or the first listed when both "
            "costs are",
        ),
        text=("(on a tie, the smaller ttl)", "Either cost may be 0: that cost is then free."),
        world=(
            "A table of three ttls and costs in which two ttls tie for the lowest cost, the "
            "larger of them first in the table; and a table of three ttls (drawn) whose two "
            "larger ones see no duplicate work, the largest listed first, judged with the wait "
            "free (those two tie) and with both costs free (all three tie)."
        ),
    ),
    Criterion(
        "contract",
        1,
        "recovery_times returns a list, and none of the three changes what it is given: the "
        "history, the seeds and the table are as they were after the call.",
        mistakes=(
            "recovery_times returns a tuple, not a list",
            "choose_ttl empties or reorders the table it chose from (popping rows, sorting in "
            "place)",
            "measure consumes its list of seeds, or recovery_times its history",
            "measure sorts or reverses its list of seeds in place",
        ),
        text=(
            "* `recovery_times(history)`: a list holding,",
            "None of the three changes what it is given (`history`, `seeds`, `table`): the cells "
            "below read `table` again.",
        ),
        world=(
            "The history of the small hand-written case, a list of the world's seeds and the "
            "world's cost table, each in an order that sorting or reversing changes, come back "
            "from the call and are compared with the grader's own copies."
        ),
    ),
)


def _times(answer: Any, known: Any = ()) -> Message | str:
    """The learner's own times, short: ``times (1.5, 3)`` (as :func:`shown_number` shows them;
    never how many: the learner's code may count what it should not tell)."""
    if not isinstance(answer, (list, tuple)):
        return shown_number(answer, known=known)
    shown = tuple(shown_number(a, known=known) for a in answer[:3])
    if len(answer) == 1:
        return say("time", shown=shown)
    return say("times_cut" if len(answer) > 3 else "times", shown=shown)


def _times_match(recover: Any, history: History, what: Message, public: bool = False) -> None:
    """The recovery times on ``history`` are the kit's (shown if ``public``: never drawn)."""
    answer = recover(history)
    truth = recovery_times(history)
    require(isinstance(answer, (list, tuple)), say("not_a_list", kind=kind_of(answer)))
    same = len(answer) == len(truth) and all(
        close_to(a, b, 1e-9) for a, b in zip(answer, truth, strict=True)
    )
    require(same, times_wrong(answer, truth, what, _times(answer, truth if public else ())))


def _small_history() -> History:
    """Two crashed tasks, a restart and a refused claim before they are claimed again."""
    return events_of(
        (0.0, "ok", "w1", "claim", "t1", 1, 0),
        (0.5, "ok", "w2", "claim", "t2", 1, 0),
        (1.0, "info", "w1", "crash", "t1", 1, 0),
        (2.0, "info", "w2", "crash", "t2", 1, 0),
        (3.0, "ok", "w1", "restart"),
        (4.0, "invoke", "w1", "claim", "t1"),
        (4.0, "fail", "w1", "claim", "t1", None, None, {"reason": "lease-held"}),
        (6.0, "ok", "w3", "claim", "t2", 2, 0),
        (7.5, "ok", "w1", "claim", "t1", 2, 0),
    )


def _recovery_on_a_small_history(recover: Any) -> None:
    _times_match(recover, _small_history(), say("history_small"), public=True)


def _recovery_on_a_recorded_run(recover: Any, world: TtlWorld) -> None:
    """The student's times on the world's recorded run; a failure says whether the answer gave
    more times or fewer, never the times themselves (they would be the run's, hidden)."""
    ttl, seed = world.recorded
    history = simulate(PAUSES.with_(ttl=ttl), seed=seed).history
    _hidden_times_match(recover, history, say("history_recorded"))


def _hidden_times_match(recover: Any, history: History, what: Message) -> None:
    """The student's times on a history of the world equal the kit's; a failure says whether
    the answer gave more times or fewer, never how many (the learner's code counted them on a
    hidden input) nor the times (they are the world's)."""
    answer, truth = recover(history), recovery_times(history)
    require(isinstance(answer, (list, tuple)), say("not_a_list", kind=kind_of(answer)))
    same = len(answer) == len(truth) and all(
        close_to(a, b, 1e-9) for a, b in zip(answer, truth, strict=True)
    )
    require(same, times_wrong(answer, truth, what, say("count_hidden")))


def _recovery_on_named_tasks(recover: Any, *, claimed: bool) -> None:
    """The student's times on :func:`named_history`, judged as
    :func:`_hidden_times_match` judges them."""
    _hidden_times_match(recover, named_history(claimed=claimed), say("history_names"))


def _recovery_on_shared_times(recover: Any) -> None:
    """The student's times on :func:`shared_times_history`, judged as
    :func:`_hidden_times_match` judges them."""
    _hidden_times_match(recover, shared_times_history(), say("history_shared_times"))


def _recovery_on_a_crash_without_task(recover: Any) -> None:
    """The student's times on :func:`taskless_crash_history`, judged as
    :func:`_hidden_times_match` judges them."""
    _hidden_times_match(recover, taskless_crash_history(), say("history_taskless"))


def _recovery_on_times_that_go_back(recover: Any) -> None:
    """The student's times on :func:`times_back_history`, judged as
    :func:`_hidden_times_match` judges them."""
    _hidden_times_match(recover, times_back_history(), say("history_times_back"))


def _recovery_on_crashes_of_any_type(recover: Any) -> None:
    """The student's times on :func:`crash_types_history`, judged as
    :func:`_hidden_times_match` judges them."""
    _hidden_times_match(recover, crash_types_history(), say("history_crash_types"))


def _a_crash_never_claimed_is_left_out(recover: Any) -> None:
    _times_match(
        recover,
        events_of(
            (0.0, "ok", "w1", "claim", "t1", 1, 0),
            (1.0, "info", "w1", "crash", "t1", 1, 0),
            (2.5, "ok", "w2", "claim", "t1", 2, 0),
            (3.0, "info", "w2", "crash", "t1", 2, 0),
            (4.0, "ok", "w2", "restart"),
        ),
        say("history_left_out"),
    )


def _measure_matches(measured: Any, ttl: float, seeds: tuple, world: TtlWorld) -> None:
    """The student's ``measure(ttl, seeds)`` equals :func:`measure`'s, key by key."""
    answer = measured(ttl, list(seeds))
    truth = measure(ttl, seeds)
    require(isinstance(answer, dict), say("not_a_dict", kind=kind_of(answer)))
    for key in KEYS:
        got = answer.get(key)
        require(close_to(got, truth[key], 1e-9), measure_wrong(key, got, truth[key], len(seeds)))


def _measure_reads_pauses(s: Student, world: TtlWorld) -> None:
    """``measure`` with the notebook's ``PAUSES`` holding the world's scenario for that call
    (made in the sandbox and handed over by its handle: a scenario is no data the wire
    carries), right after a plain call with the same ttl and seeds: "at each call" means a
    result kept from an earlier call (a cache keyed on the arguments) is not read either.
    Feedback shows no number the learner's measure gave (one measured on the world's
    scenario, ttl and seed would tell of them)."""
    scenario, ttl, seeds = world.pauses
    s.function("measure")(ttl, list(seeds))  # judged by the other calls; here it fills a cache
    pauses = s.kit("scenario", dataclasses.asdict(scenario))
    answer = s.kit("with-names", "measure", {"PAUSES": pauses.handle}).call(ttl, list(seeds))
    require(isinstance(answer, dict), say("not_a_dict", kind=kind_of(answer)))
    truth, usual = measure(ttl, seeds, scenario), measure(ttl, seeds)
    for key in KEYS:
        got = answer.get(key)
        if close_to(got, truth[key], 1e-9):
            continue
        if close_to(got, usual[key], 1e-9):
            raise Fail(say("measure_usual_pauses", key=key))
        raise Fail(say("measure_own_pauses", key=key))


def _unchanged(after: Any, before: Any, fn: str, argument: str) -> None:
    """The argument ``after`` the learner's call equals the grader's copy ``before``."""
    require(after == before, say("changed_argument", fn=fn, argument=argument))


def _recovery_gives_a_list_and_keeps_its_history(recover: Any) -> None:
    """On the small history: a list (the text's type, not a tuple), the history unchanged."""
    history = _small_history()
    answer, (after,) = recover.echo(history)
    require(isinstance(answer, list), say("not_a_list", kind=kind_of(answer)))
    _unchanged(list(after) if isinstance(after, History) else after, list(history),
               "recovery_times()", "history")  # fmt: skip


def _measure_keeps_its_seeds(measured: Any, world: TtlWorld) -> None:
    """The first call's ttl with a list of the world's lowest and highest seeds in an order
    that sorting it either way, reversing it, de-duplicating it or taking a seed out all
    change (high, low, high, high): the same list after ``measure`` ran on it. (The world's
    own lists may happen to be sorted already.)"""
    ttl, _ = world.measured[0]
    drawn = sorted({n for _, seeds in world.measured for n in seeds})
    low, high = drawn[0], drawn[-1]
    seeds = [high, low, high, high]
    _, (_, after) = measured.echo(ttl, list(seeds))
    _unchanged(after, seeds, "measure()", "seeds")


def _choice_keeps_its_table(choose: Any, world: TtlWorld) -> None:
    """The world's table with its rows in an order that sorting them either way or reversing
    them changes (every other ttl from the second smallest, then the rest): the same table
    (rows and their order) after ``choose_ttl``. (The world's own order is drawn, so it may be
    sorted already.)"""
    step_cost, wait_cost = world.costs[0]
    ttls = sorted(world.table)
    table = {t: world.table[t] for t in ttls[1::2] + ttls[0::2]}
    _, (after, _, _) = choose.echo(table, step_cost, wait_cost)
    same = isinstance(after, dict) and list(after.items()) == list(table.items())
    require(same, say("changed_argument", fn="choose_ttl()", argument="table"))


def _shown_choice(answer: Any, table: dict, hidden: frozenset[float]) -> Message | str:
    """The learner's choice on a hidden table for feedback, never one of its ttls (they are
    the world's too), nor which of them (the learner's code chose it): "another ttl of the
    table", anything else as :func:`shown_number` shows it (by its type when near ``hidden``)."""
    if any(close_to(answer, ttl, 1e-9) for ttl in table):
        return say("choice_other")
    return shown_number(answer, hidden)


def _chooses_the_cheapest(choose: Any, world: TtlWorld) -> None:
    """The world's table with each of its costs, and with each cost free (0) in turn."""
    for step_cost, wait_cost in (*world.costs, *world.free):
        _chooses_on(choose, world, (world.table, step_cost, wait_cost), "not_cheapest")


def _chooses_with_free_costs(choose: Any, world: TtlWorld) -> None:
    """The world's free-cost tie (:attr:`TtlWorld.free_tie`) with the wait free (its two larger
    ttls tie at no cost) and with both costs free (every ttl ties): each time the smaller ttl of
    the tie, whatever the table's order, never the largest or the first listed for a free cost."""
    table, step_cost = world.free_tie
    for costs in ((step_cost, 0), (0, 0)):
        _chooses_on(choose, world, (table, *costs), "not_smaller_free")


def _chooses_on(choose: Any, world: TtlWorld, case: tuple, key: str) -> None:
    """On ``case`` (a table and its step and wait costs) the learner's choice is the kit's; else
    the sentence ``key`` tells it: the world's close table, whose two cheapest costs differ by
    thousandths (the lower one still wins: a cost rounded before comparing makes them tie), its
    near table, whose two cheapest differ by a relative 1e-11 to 2e-10, exactly, however the cost
    is computed (a tolerance such as math.isclose's makes them tie), and its tie, whose smaller
    ttl of two equal costs wins."""
    table, step_cost, wait_cost = case
    answer = choose(table, step_cost, wait_cost)
    require(
        close_to(answer, choose_ttl(table, step_cost, wait_cost), 1e-9),
        say(key, got=_shown_choice(answer, table, world.hidden_tables)),
    )


# ------------------------------------------------------------------ generated inputs ---

_TTLS = (1.0, 2.0, 4.0, 8.0, 16.0)
#: Generated inputs per property (a table that does not count for its property costs no call).
_EXAMPLES = 10

#: A generated history: moves ``(op, task, worker)`` one time unit apart; ops are a claim ok,
#: a refused claim, a crash of the worker's task, and a restart.
_CRASHES = st.lists(
    st.tuples(
        st.sampled_from(("crash", "claim", "refused", "restart")),
        st.sampled_from(("t3", "t7")),
        st.sampled_from(("w1", "w2")),
    ),
    min_size=1,
    max_size=10,
)


def _tables(counts: st.SearchStrategy, fewest_ttls: int, costs: st.SearchStrategy):
    """Generated tables: per ttl (in the order drawn, each once) two counts drawn from
    ``counts``, then the step and wait costs drawn from ``costs``."""
    return st.tuples(
        st.lists(
            st.tuples(st.sampled_from(_TTLS), counts, counts),
            min_size=fewest_ttls,
            max_size=4,
            unique_by=lambda row: row[0],
        ),
        costs,
        costs,
    )


#: A generated table: per ttl (in the order drawn) two costs, and the step and wait costs.
_TABLES = _tables(st.integers(0, 12), 1, st.integers(1, 5))
#: Tables where ties are common (and only those with one count for their property).
_TIES = _tables(st.integers(0, 1), 2, st.just(1))


def _history(moves: list[tuple], story: Story, *, claimed: bool) -> History:
    """The history of ``moves``; with ``claimed``, each task crashed last is claimed at the end
    (so every crash has a later claim)."""
    rows: list[tuple] = []
    epochs = {"t3": 0, "t7": 0}
    pending: set[str] = set()
    for i, (op, task, worker) in enumerate(moves):
        time = float(i)
        if op == "claim":
            epochs[task] += 1
            rows.append((time, "ok", worker, "claim", task, epochs[task], 0))
            pending.discard(task)
            story.add(say("move_claims_at", worker=worker, task=task, at=f"{time:g}"))
        elif op == "refused":
            rows.append((time, "fail", worker, "claim", task, None, None, {"reason": "lease-held"}))
            story.add(say("move_refused_at", worker=worker, task=task, at=f"{time:g}"))
        elif op == "crash":
            rows.append((time, "info", worker, "crash", task, epochs[task], 0))
            pending.add(task)
            story.add(say("move_crashes_at", worker=worker, task=task, at=f"{time:g}"))
        else:
            rows.append((time, "ok", worker, "restart"))
            story.add(say("move_restarts_at", worker=worker, at=f"{time:g}"))
    if claimed:
        for task in sorted(pending):
            time = float(len(rows))
            epochs[task] += 1
            rows.append((time, "ok", "w3", "claim", task, epochs[task], 0))
            story.add(say("move_claims_at", worker="w3", task=task, at=f"{time:g}"))
    return events_of(*rows)


def _recovery_property(recover: Any, *, claimed: bool) -> Any:
    """recovery_times on a generated history equals :func:`recovery_times`' (``claimed``: each
    crash is claimed again later, so a crash left out is judged by the other property)."""

    def holds(moves: list[tuple], story: Story) -> None:
        history = _history(moves, story, claimed=claimed)
        answer, truth = recover(history), recovery_times(history)
        require(isinstance(answer, (list, tuple)), say("not_a_list", kind=kind_of(answer)))
        same = len(answer) == len(truth) and all(
            close_to(a, b, 1e-9) for a, b in zip(answer, truth, strict=True)
        )
        got = _times(answer)
        require(
            same,
            say("gave_expected", got=got, want=_times(truth))
            if truth
            else say("gave_expected_none", got=got),
        )

    return holds


def _choice_property(choose: Any, *, ties: bool) -> Any:
    """choose_ttl on a generated table equals :func:`choose_ttl`'s. Without ``ties`` only
    tables with one cheapest ttl count (a tie is the other property's); with ``ties`` only
    tables with a tie."""

    def holds(drawn: tuple, story: Story) -> None:
        rows, step_cost, wait_cost = drawn
        table = {ttl: {"duplicate_work": float(d), "waiting": float(w)} for ttl, d, w in rows}
        costs = sorted(d * step_cost + w * wait_cost for _, d, w in rows)
        if (len(costs) > 1 and costs[0] == costs[1]) is not ties:
            return
        for ttl, d, w in rows:
            story.add(say("move_row", ttl=f"{ttl:g}", duplicate=d, waiting=w))
        story.add(say("move_costs", step=step_cost, wait=wait_cost))
        answer, truth = choose(table, step_cost, wait_cost), choose_ttl(table, step_cost, wait_cost)
        require(
            close_to(answer, truth, 1e-9),
            say(
                "chose_tie" if ties else "chose_cheapest",
                got=shown_number(answer),
                want=f"{truth:g}",
            ),
        )

    return holds
