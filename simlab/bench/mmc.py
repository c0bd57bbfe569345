"""``simlab bench sim --mmc`` and ``--tasks A,B,C``: the simulator against a queueing library,
and how its cost grows with the number of tasks.

**Against Ciw.** With faults off and one step per task the simulator is an M/M/c queue
(:mod:`simlab.sim.queueing`). The same queue is simulated by Ciw, a discrete-event library for
queueing networks (an optional dependency: ``pip install -e '.[bench]'``), and by simlab over
:class:`~simlab.ledger.memory.MemoryLedger` and over ``Ledger(":memory:")``, each for the same
number of customers, alternating in every round; the best CPU time of each counts. Each timed
run starts after a full collection, so none pays for the garbage another left. Reported:
customers served per CPU-second, each simlab row's ratio to Ciw, and each one's mean wait with a
99% confidence interval across independent replications, beside Erlang C's exact value (all
three models must agree with it; simlab checks its whole history as well, Ciw checks nothing).

**Scale.** One seeded faults-on run per size, over ``MemoryLedger``: CPU seconds per task, and
for each size ten times the previous the ratio of the costs (at most 11 means no super-linear
part in the broker, the history or the checker).
"""

from __future__ import annotations

import gc
import statistics
import time
from typing import Any

from simlab.bench.sim import WIDGET
from simlab.sim.queueing import confidence_interval, mean_wait, mmc_scenario, waits
from simlab.sim.simulation import simulate

__all__ = ["bench_mmc", "bench_scale", "ciw_available", "MMC", "CIW_GOALS", "SCALE_GOAL"]

#: The queue compared: c servers, arrival rate, service rate 1 (load 0.7).
MMC = {"workers": 3, "arrival_rate": 2.1}
#: simlab's customers per CPU-second should reach these fractions of Ciw's.
CIW_GOALS = {"MemoryLedger": 0.5, "Ledger(':memory:')": 0.3}
#: A run ten times larger should cost at most this many times as much.
SCALE_GOAL = 11.0


def ciw_available() -> bool:
    """Is the optional Ciw installed?"""
    try:
        import ciw  # noqa: F401
    except ImportError:
        return False
    return True


def _simlab(factory, customers: int, seed: int) -> tuple[float, list[float]]:
    scenario = mmc_scenario(MMC["workers"], MMC["arrival_rate"], customers)
    gc.collect()  # no engine pays for the garbage another one left
    start = time.process_time()
    result = simulate(scenario, seed=seed, ledger=factory)
    return time.process_time() - start, waits(result)


def _ciw(customers: int, seed: int) -> tuple[float, list[float]]:
    import ciw

    gc.collect()
    start = time.process_time()
    ciw.seed(seed)
    network = ciw.create_network(
        arrival_distributions=[ciw.dists.Exponential(rate=MMC["arrival_rate"])],
        service_distributions=[ciw.dists.Exponential(rate=1.0)],
        number_of_servers=[MMC["workers"]],
    )
    q = ciw.Simulation(network)
    q.simulate_until_max_customers(customers, method="Finish")
    records = sorted(q.get_all_records(), key=lambda r: r.arrival_date)
    return time.process_time() - start, [r.waiting_time for r in records]


def _engines() -> list[tuple[str, Any]]:
    from simlab.ledger import Ledger
    from simlab.ledger.memory import MemoryLedger

    rows: list[tuple[str, Any]] = [
        ("MemoryLedger", lambda c, s: _simlab(lambda clock: MemoryLedger(clock=clock), c, s)),
        ("Ledger(':memory:')", lambda c, s: _simlab(lambda k: Ledger(":memory:", clock=k), c, s)),
    ]
    if ciw_available():
        rows.insert(0, ("Ciw", _ciw))
    return rows


def bench_mmc(
    customers: int = 5000, *, rounds: int = 3, replications: int = 10, warm_up: int = 500
) -> dict[str, Any]:
    """Measure; return ``{"rows": [...], "erlang_wait": w, "ciw": bool}``. Each row has
    ``engine``, ``cpu_s`` (best round), ``per_cpu_s`` (customers served per CPU-second),
    ``ratio`` (over Ciw's; None without Ciw), ``wait`` (mean over replications) and ``ci``
    (its 99% interval); the first ``warm_up`` customers of each replication are left out."""
    engines = _engines()
    best: dict[str, float] = {}
    for r in range(rounds):
        for name, run in engines:
            cpu, _ = run(customers, 1 + r)
            best[name] = min(best.get(name, float("inf")), cpu)
    rows = []
    for name, run in engines:
        means = [
            statistics.fmean(run(customers, 100 + i)[1][warm_up:]) for i in range(replications)
        ]
        rows.append(
            {
                "engine": name,
                "cpu_s": best[name],
                "per_cpu_s": customers / best[name],
                "wait": statistics.fmean(means),
                "ci": confidence_interval(means),
            }
        )
    base = best.get("Ciw")
    for row in rows:
        row["ratio"] = None if base is None else (customers / row["cpu_s"]) / (customers / base)
    return {"rows": rows, "erlang_wait": mean_wait(MMC["workers"], MMC["arrival_rate"])}


def bench_scale(sizes: list[int], *, seed: int = 1) -> list[dict[str, Any]]:
    """One faults-on run per size (the widget's scenario with ``tasks`` changed) over
    ``MemoryLedger``: ``tasks``, ``cpu_s``, ``per_task_s`` and ``growth`` (cost over the
    previous size's, scaled to a tenfold size; None for the first)."""
    from simlab.ledger.memory import MemoryLedger

    rows: list[dict[str, Any]] = []
    for tasks in sizes:
        gc.collect()
        start = time.process_time()
        simulate(WIDGET.with_(tasks=tasks), seed=seed, ledger=lambda c: MemoryLedger(clock=c))
        cpu = time.process_time() - start
        growth = None
        if rows:
            prev = rows[-1]
            growth = (cpu / prev["cpu_s"]) * (10.0 * prev["tasks"] / tasks)
        rows.append({"tasks": tasks, "cpu_s": cpu, "per_task_s": cpu / tasks, "growth": growth})
    return rows
