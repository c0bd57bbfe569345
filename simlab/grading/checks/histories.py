"""Hidden checks of exercise ``histories`` (``03_histories_and_ttl.ipynb``).

* ``stale-commits``: the student's rule runs on hand-written histories (one property per case)
  and on histories the simulator recorded with and without the fence; its findings must match
  the kit's own rule (:func:`simlab.check.checker.stale_commits`) event for event.
* ``choose-ttl``: ``recovery_times``, ``measure`` and ``choose_ttl`` against the reference
  computed here on seeds and tables the learner has not seen.
"""

from __future__ import annotations

import functools
import math
from typing import Any

from simlab.check.checker import stale_commits as reference_stale_commits
from simlab.check.history import Event, History
from simlab.grading.questions import Exercise, Question, Tally, require
from simlab.grading.student import Student, kind_of
from simlab.sim.scenario import Scenario
from simlab.sim.simulation import simulate

__all__ = [
    "EXERCISE",
    "UNFENCED",
    "UNFENCED_SEEDS",
    "PAUSES",
    "TTL_SEEDS",
    "TTL_TABLE",
    "recovery_times",
    "measure",
    "choose_ttl",
]

#: Recorded histories the student's rule must read like the kit's rule does.
UNFENCED = Scenario(tasks=15, workers=3, variant="unfenced", pause_rate=0.3)
UNFENCED_SEEDS = (4, 6)
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


# --------------------------------------------------------------------------- stale-commits ---


def _history(*rows: tuple) -> list[Event]:
    h = History()
    for row in rows:
        h.record(*row)
    return h.events


def stale_commits(s: Student, t: Tally) -> None:
    """The student's rule on hand-written histories, then on recorded runs with and without
    the fence; every part is judged against :func:`simlab.check.checker.stale_commits`."""
    rule = s.function("stale_commits")
    for part in (
        _a_save_after_a_newer_claim,
        _refused_and_current_saves_are_fine,
        _a_cancel_bumps_the_epoch,
        _tasks_are_independent,
        _recorded_unfenced_histories,
        _recorded_fenced_history,
    ):
        t.part(functools.partial(part, rule))


def _found(rule: Any, history: list[Event]) -> list:
    """The student's findings on ``history``, which must be a list of sentences."""
    answer = rule(history)
    require(
        isinstance(answer, list),
        f"stale_commits() returned {kind_of(answer)}, expected a list of sentences",
    )
    require(
        all(isinstance(x, str) for x in answer),
        "stale_commits() must return sentences (strings)",
    )
    return answer


def _expect(rule: Any, history: list[Event], what: str) -> None:
    """The student's rule must find as many stale commits as the kit's rule."""
    truth = reference_stale_commits(history)
    answer = _found(rule, history)
    require(
        len(answer) == len(truth),
        f"{what}: found {len(answer)} stale commit(s), there are {len(truth)}",
    )


def _a_save_after_a_newer_claim(rule: Any) -> None:
    history = _history(
        (0.0, "ok", "w1", "claim", "t1", 1, 0),
        (4.0, "ok", "w2", "claim", "t1", 2, 0),
        (5.0, "ok", "w1", "save", "t1", 1, 1),
    )
    answer = _found(rule, history)
    require(
        len(answer) == 1,
        f"a save with epoch 1 after epoch 2 was granted: found "
        f"{len(answer)} stale commit(s), expected 1",
    )
    require("t1" in answer[0], "the sentence should name the task (t1)")


def _refused_and_current_saves_are_fine(rule: Any) -> None:
    _expect(
        rule,
        _history(
            (0.0, "ok", "w1", "claim", "t1", 1, 0),
            (1.0, "ok", "w1", "save", "t1", 1, 1),
            (4.0, "ok", "w2", "claim", "t1", 2, 1),
            (5.0, "fail", "w1", "save", "t1", 1, 2),
            (5.5, "invoke", "w1", "save", "t1", 1, 2),
            (6.0, "ok", "w2", "save", "t1", 2, 2),
        ),
        "with a refused save and saves of the current epoch",
    )


def _a_cancel_bumps_the_epoch(rule: Any) -> None:
    _expect(
        rule,
        _history(
            (0.0, "ok", "w1", "claim", "t1", 1, 0),
            (2.0, "ok", "user", "cancel", "t1", 2, None),
            (3.0, "ok", "w1", "save", "t1", 1, 1),
        ),
        "a save after a cancel (the cancel granted epoch 2)",
    )


def _tasks_are_independent(rule: Any) -> None:
    _expect(
        rule,
        _history(
            (0.0, "ok", "w1", "claim", "t1", 1, 0),
            (0.5, "ok", "w2", "claim", "t2", 1, 0),
            (1.0, "ok", "w3", "claim", "t2", 2, 0),
            (2.0, "ok", "w1", "save", "t1", 1, 1),
            (3.0, "ok", "w2", "save", "t2", 1, 1),
        ),
        "with two tasks, each with its own epochs",
    )


def _recorded_unfenced_histories(rule: Any) -> None:
    for seed in UNFENCED_SEEDS:
        _expect(
            rule,
            simulate(UNFENCED, seed=seed).history.events,
            "on a recorded unfenced run",
        )


def _recorded_fenced_history(rule: Any) -> None:
    history = simulate(UNFENCED.with_(variant="fenced"), seed=UNFENCED_SEEDS[0]).history
    answer = _found(rule, history.events)
    require(
        answer == [],
        "on a recorded run with the fence on, "
        f"{len(answer)} stale commit(s) were reported; there are none",
    )


# --------------------------------------------------------------------------- choose-ttl ------

#: The cost table ``choose_ttl`` is judged on (not the notebook's).
TTL_TABLE = {
    1.0: {"duplicate_work": 6.0, "waiting": 12.0},
    2.0: {"duplicate_work": 4.0, "waiting": 20.0},
    4.0: {"duplicate_work": 1.5, "waiting": 33.0},
    8.0: {"duplicate_work": 0.5, "waiting": 60.0},
}


def _close(a: Any, b: float) -> bool:
    return (
        isinstance(a, (int, float))
        and not isinstance(a, bool)
        and math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)
    )


def choose_ttl_check(s: Student, t: Tally) -> None:
    """``recovery_times`` on a small and a recorded history, ``measure`` on the grader's seeds,
    then ``choose_ttl`` on a hidden table and on a tie, each against the reference here."""
    recover, measured, choose = (
        s.function("recovery_times"),
        s.function("measure"),
        s.function("choose_ttl"),
    )
    t.part(lambda: _recovery_on_a_small_history(recover))
    t.part(lambda: _recovery_on_a_recorded_run(recover))
    t.part(lambda: _measure_matches(measured, 2.0, TTL_SEEDS))
    t.part(lambda: _measure_matches(measured, 8.0, TTL_SEEDS[:1]))
    t.part(lambda: _chooses_the_cheapest(choose))
    t.part(lambda: _ties_go_to_the_smaller_ttl(choose))


def _times_match(recover: Any, history: list[Event], what: str) -> None:
    """The student's recovery times on ``history`` equal :func:`recovery_times`'."""
    answer = recover(history)
    truth = recovery_times(history)
    require(
        isinstance(answer, (list, tuple)),
        f"recovery_times() returned {kind_of(answer)}, expected a list",
    )
    same = len(answer) == len(truth) and all(
        _close(a, b) for a, b in zip(answer, truth, strict=True)
    )
    require(
        same,
        f"{what}: recovery_times() gave {_times(answer)}, not the times the kit measures",
    )


def _times(answer: list) -> str:
    """The learner's own times, short: ``2 times (1.500, 3.000)``."""
    shown = ", ".join(f"{a:.3f}" if isinstance(a, (int, float)) else repr(a) for a in answer[:3])
    more = ", ..." if len(answer) > 3 else ""
    return f"{len(answer)} time{'s' if len(answer) != 1 else ''} ({shown}{more})"


def _recovery_on_a_small_history(recover: Any) -> None:
    _times_match(
        recover,
        _history(
            (0.0, "ok", "w1", "claim", "t1", 1, 0),
            (0.5, "ok", "w2", "claim", "t2", 1, 0),
            (1.0, "info", "w1", "crash", "t1", 1, 0),
            (2.0, "info", "w2", "crash", "t2", 1, 0),
            (3.0, "ok", "w1", "restart"),
            (6.0, "ok", "w3", "claim", "t2", 2, 0),
            (7.5, "ok", "w1", "claim", "t1", 2, 0),
            (8.0, "info", "w1", "crash", "t1", 2, 0),
        ),
        "two crashed tasks claimed again, one crash never followed by a claim",
    )


def _recovery_on_a_recorded_run(recover: Any) -> None:
    history = simulate(PAUSES.with_(ttl=4.0), seed=TTL_SEEDS[0]).history.events
    _times_match(recover, history, "on a recorded run (ttl 4)")


def _measure_matches(measured: Any, ttl: float, seeds: tuple) -> None:
    """The student's ``measure(ttl, seeds)`` equals :func:`measure`'s, key by key."""
    answer = measured(ttl, list(seeds))
    truth = measure(ttl, seeds)
    require(isinstance(answer, dict), f"measure() returned {kind_of(answer)}, expected a dict")
    for key in ("duplicate_work", "waiting"):
        require(
            _close(answer.get(key), truth[key]),
            f"measure({ttl:g}, hidden seeds) gave {key} = {answer.get(key)!r}, not what the "
            "kit measures on the same runs",
        )


def _chooses_the_cheapest(choose: Any) -> None:
    for step_cost, wait_cost in ((10, 1), (1, 1), (40, 1)):
        answer = choose(TTL_TABLE, step_cost, wait_cost)
        truth = choose_ttl(TTL_TABLE, step_cost, wait_cost)
        require(
            _close(answer, truth),
            f"with step_cost={step_cost} and wait_cost="
            f"{wait_cost}, choose_ttl() chose {answer!r}, the "
            f"cheapest is {truth:g}",
        )


def _ties_go_to_the_smaller_ttl(choose: Any) -> None:
    flat = {
        8.0: {"duplicate_work": 1.0, "waiting": 1.0},
        2.0: {"duplicate_work": 1.0, "waiting": 1.0},
        4.0: {"duplicate_work": 1.0, "waiting": 1.0},
    }
    answer = choose(flat, 1, 1)
    require(
        _close(answer, 2.0),
        f"on a tie choose_ttl() chose {answer!r}, expected the smaller ttl (2)",
    )


EXERCISE = Exercise(
    id="histories",
    notebook="03_histories_and_ttl.ipynb",
    title="Reading histories, and choosing a ttl",
    questions=(
        Question(
            "stale-commits",
            "The checker rule: no stale commit accepted",
            6,
            ("stale_commits",),
            stale_commits,
        ),
        Question(
            "choose-ttl",
            "Choose a ttl with the simulator",
            6,
            ("recovery_times", "measure", "choose_ttl"),
            choose_ttl_check,
        ),
    ),
)
