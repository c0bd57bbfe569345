"""Question ``choose-ttl``: ``recovery_times``, ``measure`` and ``choose_ttl`` against the
reference computed here, on seeds and tables the learner has not seen.

The core idea is that the ttl comes out of the trade-off the simulator measures: recovery after
crashes (timed from the crash to the task's next successful claim) against duplicate work
(refused saves), averaged over several seeds, then weighed with the costs. Feedback shows the
learner's own numbers (numbers only: a value that is not one is named by its type, so an answer
cannot echo a hidden input back) and never the reference's values or the grader's seeds.
"""

from __future__ import annotations

from typing import Any

from simlab.check.history import Event
from simlab.grading.checks.histories.messages import say
from simlab.grading.checks.histories.stale import events_of
from simlab.grading.messages import Message
from simlab.grading.properties import Story, falsify, st
from simlab.grading.questions import Criterion, Tally, require
from simlab.grading.student import Student, close_to, kind_of, shown_number
from simlab.sim.scenario import Scenario
from simlab.sim.simulation import simulate

__all__ = [
    "PAUSES",
    "TTL_SEEDS",
    "TTL_TABLE",
    "TTL_COSTS",
    "HIDDEN_NUMBERS",
    "TTL_RUBRIC",
    "recovery_times",
    "measure",
    "choose_ttl",
    "choose_ttl_check",
]

#: The ttl scenario of the notebook (``PAUSES`` there) and the seeds the grader measures with.
PAUSES = Scenario(
    tasks=20,
    workers=3,
    pause_rate=0.3,
    pause_mean=3.0,
    crash_rate=0.1,
    effect_crash_rate=0.0,
    slow_rate=0.0,
    duplicate_rate=0.0,
    cancel_rate=0.0,
    effects="none",
)
TTL_SEEDS = (31, 32)

#: The cost table ``choose_ttl`` is judged on (not the notebook's), and the costs it is judged
#: with: the cheapest ttl moves with them (4, then 1, then 8), so no fixed answer, nor always
#: the smallest or the largest ttl, nor one cost alone gets them all.
TTL_TABLE = {
    1.0: {"duplicate_work": 6.0, "waiting": 12.0},
    2.0: {"duplicate_work": 4.0, "waiting": 20.0},
    4.0: {"duplicate_work": 1.5, "waiting": 33.0},
    8.0: {"duplicate_work": 0.5, "waiting": 60.0},
}
TTL_COSTS = ((10, 1), (1, 1), (40, 1))
#: What feedback never shows, nor a number near it: the seeds and the table's measured values
#: (its ttls, the answers ``choose_ttl`` chooses from, may be shown).
HIDDEN_NUMBERS = frozenset(TTL_SEEDS) | (
    {value for row in TTL_TABLE.values() for value in row.values()} - set(TTL_TABLE)
)


# --------------------------------------------------------------------------- the reference ---


def recovery_times(history: Any) -> list[float]:
    """For each crash of a task, the time until its next successful claim (none: left out)."""
    events = list(history)
    next_claim: dict[str, float] = {}
    times: list[float] = []
    for e in reversed(events):
        if e.op == "claim" and e.type == "ok" and e.task is not None:
            next_claim[e.task] = e.time
        elif e.op == "crash" and e.task is not None and e.task in next_claim:
            times.append(next_claim[e.task] - e.time)
    times.reverse()
    return times


def measure(ttl: float, seeds: Any) -> dict[str, float]:
    """Mean refused saves and mean total recovery time per run of :data:`PAUSES`."""
    duplicate, waiting = [], []
    for seed in seeds:
        result = simulate(PAUSES.with_(ttl=ttl), seed=seed)
        duplicate.append(result.stale_rejected)
        waiting.append(sum(recovery_times(result.history)))
    return {
        "duplicate_work": sum(duplicate) / len(duplicate),
        "waiting": sum(waiting) / len(waiting),
    }


def choose_ttl(table: dict, step_cost: float, wait_cost: float) -> float:
    """The ttl with the lowest cost, the smaller one on a tie."""

    def cost(ttl: float) -> float:
        return table[ttl]["duplicate_work"] * step_cost + table[ttl]["waiting"] * wait_cost

    return min(sorted(table), key=cost)


# --------------------------------------------------------------------------- the check ------


def choose_ttl_check(s: Student, t: Tally) -> None:
    """``recovery_times`` on a small and a recorded history, ``measure`` on the grader's seeds,
    then ``choose_ttl`` on a hidden table and on a tie, each against the reference here; parts
    are filed under the criteria of :data:`TTL_RUBRIC`."""
    recover, measured, choose = (
        s.function("recovery_times"),
        s.function("measure"),
        s.function("choose_ttl"),
    )
    t.under("measured-trade-off")
    t.part(lambda: _recovery_on_a_small_history(recover))
    t.part(lambda: _recovery_on_a_recorded_run(recover))
    t.part(lambda: _measure_matches(measured, 2.0, TTL_SEEDS))
    t.part(lambda: _measure_matches(measured, 8.0, TTL_SEEDS[:1]))
    t.part(lambda: _chooses_the_cheapest(choose))
    t.part(lambda: falsify(_CRASHES, _recovery_property(recover, claimed=True), examples=_EXAMPLES))
    t.part(lambda: falsify(_TABLES, _choice_property(choose, ties=False), examples=_EXAMPLES))
    t.under("left-out")
    t.part(lambda: _a_crash_never_claimed_is_left_out(recover))
    t.part(
        lambda: falsify(_CRASHES, _recovery_property(recover, claimed=False), examples=_EXAMPLES)
    )
    t.under("tie")
    t.part(lambda: _ties_go_to_the_smaller_ttl(choose))
    t.part(lambda: falsify(_TIES, _choice_property(choose, ties=True), examples=_EXAMPLES))


#: The rubric of ``choose-ttl``: the ttl comes out of a measured trade-off, not a guess.
TTL_RUBRIC = (
    Criterion(
        "measured-trade-off",
        4,
        "The ttl comes out of the trade-off the simulator measures: recovery_times runs from "
        "each crash to its task's next successful claim, measure simulates the ttl on every seed "
        "it is given and averages the refused saves and the total recovery time per run, and "
        "choose_ttl takes the ttl of lowest cost, so its choice moves with the costs.",
        core=True,
        mistakes=(
            "a ttl typed in rather than chosen from the table",
            "measures on one seed (or a fixed one), not on every seed given",
            "always the smallest or the largest ttl, or one cost alone",
            "recovery timed from the wrong event (a restart, a failed claim, another task's claim)",
            "the grader's costs known by heart rather than the cheapest ttl computed",
        ),
        properties=(
            "On generated histories of crashes, claims, refused claims and restarts (every "
            "crash claimed again later), recovery_times equals the reference's.",
            "On generated tables with one cheapest ttl and generated costs, choose_ttl "
            "returns the reference's choice.",
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
    ),
    Criterion(
        "tie",
        1,
        "On a tie choose_ttl returns the smaller ttl, whatever the table's order.",
        properties=("On generated tables with a tie, in any order, the smaller ttl.",),
    ),
)


def _times(answer: Any) -> Message | str:
    """The learner's own times, short: ``2 times (1.5, 3)``."""
    if not isinstance(answer, (list, tuple)):
        return shown_number(answer)
    shown = ", ".join(shown_number(a) for a in answer[:3])
    if len(answer) == 1:
        return say("time", shown=shown)
    return say("times_cut" if len(answer) > 3 else "times", n=len(answer), shown=shown)


def _times_match(recover: Any, history: list[Event], what: Message) -> None:
    """The student's recovery times on ``history`` equal :func:`recovery_times`'."""
    answer = recover(history)
    truth = recovery_times(history)
    require(isinstance(answer, (list, tuple)), say("not_a_list", kind=kind_of(answer)))
    same = len(answer) == len(truth) and all(
        close_to(a, b, 1e-9) for a, b in zip(answer, truth, strict=True)
    )
    require(same, say("times_differ", what=what, got=_times(answer)))


def _recovery_on_a_small_history(recover: Any) -> None:
    _times_match(
        recover,
        events_of(
            (0.0, "ok", "w1", "claim", "t1", 1, 0),
            (0.5, "ok", "w2", "claim", "t2", 1, 0),
            (1.0, "info", "w1", "crash", "t1", 1, 0),
            (2.0, "info", "w2", "crash", "t2", 1, 0),
            (3.0, "ok", "w1", "restart"),
            (4.0, "invoke", "w1", "claim", "t1"),
            (4.0, "fail", "w1", "claim", "t1", None, None, {"reason": "lease-held"}),
            (6.0, "ok", "w3", "claim", "t2", 2, 0),
            (7.5, "ok", "w1", "claim", "t1", 2, 0),
        ),
        say("history_small"),
    )


def _recovery_on_a_recorded_run(recover: Any) -> None:
    ttl = 4.0
    history = simulate(PAUSES.with_(ttl=ttl), seed=TTL_SEEDS[0]).history.events
    _times_match(recover, history, say("history_recorded", ttl=f"{ttl:g}"))


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


def _measure_matches(measured: Any, ttl: float, seeds: tuple) -> None:
    """The student's ``measure(ttl, seeds)`` equals :func:`measure`'s, key by key."""
    answer = measured(ttl, list(seeds))
    truth = measure(ttl, seeds)
    require(isinstance(answer, dict), say("not_a_dict", kind=kind_of(answer)))
    for key in ("duplicate_work", "waiting"):
        require(
            close_to(answer.get(key), truth[key], 1e-9),
            say(
                "measure_differs",
                ttl=f"{ttl:g}",
                key=key,
                got=shown_number(answer.get(key), TTL_SEEDS),
            ),
        )


def _chooses_the_cheapest(choose: Any) -> None:
    for step_cost, wait_cost in TTL_COSTS:
        answer = choose(TTL_TABLE, step_cost, wait_cost)
        require(
            close_to(answer, choose_ttl(TTL_TABLE, step_cost, wait_cost), 1e-9),
            say("not_cheapest", got=shown_number(answer, HIDDEN_NUMBERS)),
        )


def _ties_go_to_the_smaller_ttl(choose: Any) -> None:
    flat = {
        8.0: {"duplicate_work": 1.0, "waiting": 1.0},
        2.0: {"duplicate_work": 1.0, "waiting": 1.0},
        4.0: {"duplicate_work": 1.0, "waiting": 1.0},
    }
    answer = choose(flat, 1, 1)
    require(
        close_to(answer, 2.0, 1e-9),
        say("not_smaller", got=shown_number(answer)),
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

#: A generated table: per ttl (in the order drawn) two costs, and the step and wait costs.
_TABLES = st.tuples(
    st.lists(
        st.tuples(st.sampled_from(_TTLS), st.integers(0, 12), st.integers(0, 12)),
        min_size=1,
        max_size=4,
        unique_by=lambda row: row[0],
    ),
    st.integers(1, 5),
    st.integers(1, 5),
)
#: Tables where ties are common (and only those with one count for their property).
_TIES = st.tuples(
    st.lists(
        st.tuples(st.sampled_from(_TTLS), st.integers(0, 1), st.integers(0, 1)),
        min_size=2,
        max_size=4,
        unique_by=lambda row: row[0],
    ),
    st.just(1),
    st.just(1),
)


def _history(moves: list[tuple], story: Story, *, claimed: bool) -> list[Event]:
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
