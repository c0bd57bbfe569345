"""Is the simulator a faithful queue? With faults off and one step per task it is M/M/c.

Poisson arrivals (rate lambda), exponential service (rate mu = 1 / step_time), c workers and a
FIFO broker: the waiting time before a claim must match Erlang C. The comparison uses confidence
intervals across independent replications, not a fixed tolerance. Little's law is checked as
exact bookkeeping on the recorded history.
"""

from __future__ import annotations

import statistics

import pytest

from simlab import Scenario, simulate
from simlab.ledger.memory import MemoryLedger
from simlab.sim.queueing import (
    confidence_interval,
    erlang_c,
    mean_wait,
    mmc_scenario,
    t_quantile,
    waits,
)

REPLICATIONS = 20
TASKS = 1000
WARM_UP = 100  # tasks discarded at the start of each replication (the queue starts empty)


def queue_scenario(workers: int, arrival_rate: float) -> Scenario:
    return mmc_scenario(workers, arrival_rate, TASKS)


def test_t_quantile_matches_known_table_values():
    assert t_quantile(0.995, 29) == pytest.approx(2.756, abs=2e-3)
    assert t_quantile(0.975, 10) == pytest.approx(2.228, abs=2e-3)


#: Each case its own seeds, so the two cases' replications are independent of each other.
SEEDS = {1: range(1, REPLICATIONS + 1), 3: range(1001, 1001 + REPLICATIONS)}


def test_do_the_two_cases_use_disjoint_seeds():
    assert not set(SEEDS[1]) & set(SEEDS[3])
    assert len(SEEDS[1]) == len(SEEDS[3]) == REPLICATIONS


@pytest.mark.parametrize(("workers", "arrival_rate"), [(1, 0.7), (3, 2.1)])
def test_do_waits_match_erlang_c_across_replications(workers, arrival_rate):
    offered = arrival_rate / 1.0  # mu = 1
    p_wait = erlang_c(workers, offered)
    expected_wait = mean_wait(workers, arrival_rate)

    p_hats, w_hats = [], []
    for seed in SEEDS[workers]:
        result = simulate(
            queue_scenario(workers, arrival_rate),
            seed=seed,
            ledger=lambda clock: MemoryLedger(clock=clock),
        )
        assert result.ok and result.completed == TASKS
        granted = [e for e in result.history if e.op == "claim" and e.type == "ok"]
        assert len(granted) == TASKS, "with faults off every task is claimed exactly once"
        w = waits(result)[WARM_UP:]
        p_hats.append(sum(1 for x in w if x > 0) / len(w))
        w_hats.append(statistics.fmean(w))

    lo, hi = confidence_interval(p_hats)
    assert lo <= p_wait <= hi, f"Erlang C P(wait)={p_wait:.4f} outside 99% CI [{lo:.4f}, {hi:.4f}]"
    assert hi - lo < 0.15 * p_wait, "the interval is too wide to tell anything"
    lo, hi = confidence_interval(w_hats)
    assert lo <= expected_wait <= hi, (
        f"mean wait {expected_wait:.4f} outside 99% CI [{lo:.4f}, {hi:.4f}]"
    )
    assert hi - lo < 0.5 * expected_wait, "the interval is too wide to tell anything"


def _area(points: list[tuple[float, int]], end: float) -> float:
    """Integral of a step function given as (time, +1/-1) changes, from 0 to ``end``."""
    area, level, last = 0.0, 0, 0.0
    for t, change in sorted(points):
        area += level * (t - last)
        level += change
        last = t
    return area + level * (end - last)


def test_does_littles_law_hold_as_exact_bookkeeping():
    """L = lambda W over the run: the time-average number of tasks in the system equals the
    arrival rate times the mean time in system (and the same for the queue alone)."""
    result = simulate(queue_scenario(3, 2.1).with_(tasks=500), seed=11)
    arrive, start, leave = {}, {}, {}
    for e in result.history:
        if e.op == "submit":
            arrive[e.task] = e.time
        elif e.op == "claim" and e.type == "ok":
            start[e.task] = e.time
        elif e.op == "save" and e.type == "ok" and e.value.get("done"):
            leave[e.task] = e.time
    assert arrive.keys() == start.keys() == leave.keys()
    end = max(leave.values())
    n = len(arrive)

    in_system = [(t, +1) for t in arrive.values()] + [(t, -1) for t in leave.values()]
    in_queue = [(t, +1) for t in arrive.values()] + [(t, -1) for t in start.values()]
    L = _area(in_system, end) / end
    Lq = _area(in_queue, end) / end
    lam = n / end
    W = statistics.fmean(leave[t] - arrive[t] for t in arrive)
    Wq = statistics.fmean(start[t] - arrive[t] for t in arrive)
    assert L == pytest.approx(lam * W, rel=1e-9)
    assert Lq == pytest.approx(lam * Wq, rel=1e-9)
    assert 0 < Lq < L  # some tasks waited, and service takes time


def in_system_average(history, start: float, end: float) -> float:
    """Time-average number of tasks in the system over [start, end], from the events in time
    order (+1 at a submit, -1 at a completing save), pairing nothing per task (notebook 06)."""
    area, level, last = 0.0, 0, start
    for e in history:
        completes = e.op == "save" and e.type == "ok" and e.value.get("done")
        if e.op != "submit" and not completes:
            continue
        if e.time > start:
            now = min(e.time, end)
            area += level * (now - last)
            last = now
        if e.time > end:
            break
        level += 1 if e.op == "submit" else -1
    return (area + level * (end - last)) / (end - start)


def test_does_littles_law_hold_when_measured_independently_over_a_busy_window():
    """Notebook 06, section 3: L from the event walk against lambda * W from the tasks, over a
    window that neither starts nor ends empty, agree within edge effects (1%); losing the
    completion of 1% of the tasks makes them disagree by far more: the check catches it."""
    result = simulate(
        queue_scenario(3, 2.1).with_(tasks=2000),
        seed=1,
        ledger=lambda clock: MemoryLedger(clock=clock),
    )
    start, end = 100.0, 850.0
    submitted, done = {}, {}
    for e in result.history:
        if e.op == "submit":
            submitted[e.task] = e.time
        elif e.op == "save" and e.type == "ok" and e.value.get("done"):
            done[e.task] = e.time
    assert max(done.values()) > end  # the window ends before the run does
    assert in_system_average(result.history, start, start + 1e-6) > 0  # not empty at the start

    def lam_w(lost: set) -> float:
        stays = [done[t] - s for t, s in submitted.items() if start <= s < end and t not in lost]
        return len(stays) / (end - start) * statistics.fmean(stays)

    L = in_system_average(result.history, start, end)
    assert L == pytest.approx(lam_w(set()), rel=0.01)
    assert L != pytest.approx(lam_w(set()), rel=1e-6), "not the same numbers by construction"

    lost = set(sorted(submitted)[::100])  # 1% of the completions missing from the history
    lossy = [e for e in result.history if not (e.task in lost and e.op == "save")]
    assert in_system_average(lossy, start, end) > 1.5 * lam_w(lost)


#: The run sizes of notebook 06's precision rows.
RUN_SIZES = (200, 800, 3200)


def _queue_waits(arrival_rate: float, tasks: int, seed: int) -> list[float]:
    ledger = lambda clock: MemoryLedger(clock=clock)  # noqa: E731
    return waits(
        simulate(queue_scenario(3, arrival_rate).with_(tasks=tasks), seed=seed, ledger=ledger)
    )


def test_is_a_shorter_run_the_start_of_a_longer_one():
    """What the precision rows rest on: with faults off, a run of n tasks waits as the first n
    tasks of a longer run with the same seed do (the seed draws the same arrivals and service
    times, and a later arrival never moves an earlier task in a FIFO queue), so each row reads
    its waits off the longest run."""
    longest = _queue_waits(2.7, RUN_SIZES[1], seed=3)
    assert _queue_waits(2.7, RUN_SIZES[0], seed=3) == longest[: RUN_SIZES[0]]


def _precision_rows(arrival_rate: float) -> tuple[dict, dict, dict]:
    """Notebook 06, section 4, at one load: per run size, the mean wait over seeds 1-8 (the
    first tenth of each run dropped), its spread, and the tasks needed for +-5% at 95%. A run
    of n tasks is the first n tasks of the longest run with its seed
    (:func:`test_is_a_shorter_run_the_start_of_a_longer_one`)."""
    target = 0.05 * mean_wait(3, arrival_rate)
    longest = [_queue_waits(arrival_rate, max(RUN_SIZES), seed) for seed in range(1, 9)]
    means, spread, needed = {}, {}, {}
    for n in RUN_SIZES:
        estimates = [statistics.fmean(w[:n][n // 10 :]) for w in longest]
        means[n], spread[n] = statistics.fmean(estimates), statistics.stdev(estimates)
        needed[n] = n * (1.96 * spread[n] / target) ** 2
    return means, spread, needed


def test_do_the_precision_rows_agree_at_utilisation_07_and_not_at_09():
    """Notebook 06, section 4: at utilisation 0.7 "the three rows give similar answers" and the
    spread falls like 1/sqrt(n); at lam = 2.7 "the rows stop agreeing: the longer the runs, the
    more tasks they ask for (about ten times more in the last row than in the first), and the
    first row asks for fewer than at utilisation 0.7", a run of 200 tasks "comes out below
    Erlang C", and "the spread no longer falls like 1/sqrt(n)"."""
    _, spread, needed = _precision_rows(2.1)
    assert max(needed.values()) < 2 * min(needed.values())
    assert spread[200] / spread[3200] == pytest.approx(4, rel=0.25)
    means, spread_09, needed_09 = _precision_rows(2.7)
    assert needed_09[200] < needed_09[800] < needed_09[3200]
    assert needed_09[3200] > 5 * needed_09[200]
    assert needed_09[200] < min(needed.values())
    assert means[200] < mean_wait(3, 2.7)
    assert spread_09[200] / spread_09[3200] < 2, "far from the factor 4 of 1/sqrt(16)"
