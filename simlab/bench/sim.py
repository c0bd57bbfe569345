"""``simlab bench sim``: how fast the simulator runs, over three ledgers, measured side by side.

One seeded scenario (by default the notebook widget's size: 1,000 tasks x 3 steps, 8 workers, every
fault on) is simulated over :class:`~simlab.ledger.memory.MemoryLedger`, ``Ledger(":memory:")`` and
a WAL file ledger, alternating in each round; the best round of each counts. Reported: completed
tasks per wall second, each ledger's ratio to ``MemoryLedger``, and the widget run against the cost
of one million bare SimPy timeouts measured in the same process.

Goals: ``:memory:`` at least 0.6x ``MemoryLedger``; the run over ``:memory:`` at most
:data:`WIDGET_GOAL` of one million bare timeouts, judged on CPU time (this process's: the
simulation and the yardstick are single-threaded), which a machine busy with other work changes
far less than wall time; the wall-clock ratio is reported beside it. The histories of the three
runs must be identical: the ledgers implement one contract, so the same seed tells the same story.
Checking a run (the replay through the protocol's model and every rule,
:func:`simlab.checker.check`) is timed on its own, on the same history, and reported as a share of
the ``simulate`` call that includes it (goal: at most :data:`CHECK_GOAL`).
"""

from __future__ import annotations

import gc
import tempfile
import time
from pathlib import Path
from typing import Any

from simlab.checker.history import history_digest
from simlab.sim.scenario import Scenario
from simlab.sim.simulation import simulate
from simlab.sim.yardstick import bare_timeouts

__all__ = ["bench_sim", "WIDGET", "MEMORY_GOAL", "CHECK_GOAL", "WIDGET_GOAL"]

#: The widget-size scenario the notebooks run interactively (every fault on, at defaults).
WIDGET = Scenario(tasks=1000, steps=3, workers=8)
#: ``Ledger(":memory:")`` should reach this fraction of ``MemoryLedger``'s speed.
MEMORY_GOAL = 0.6
#: Checking a run should cost at most this share of the ``simulate`` call that includes it.
CHECK_GOAL = 0.2
#: The widget-size run over ``:memory:`` should cost at most this share of one million bare
#: SimPy timeouts, in CPU time.
WIDGET_GOAL = 0.3


def _factories(folder: Path, round_no: int) -> list[tuple[str, Any]]:
    from simlab.ledger import Ledger
    from simlab.ledger.memory import MemoryLedger

    wal = folder / f"bench-{round_no}.sqlite"
    return [
        ("MemoryLedger", lambda clock: MemoryLedger(clock=clock)),
        ("Ledger(':memory:')", lambda clock: Ledger(":memory:", clock=clock)),
        ("Ledger(WAL file)", lambda clock: Ledger(str(wal), clock=clock)),
    ]


def _check_seconds(result) -> float:
    """Wall seconds :func:`simlab.checker.check` takes on ``result``'s history, as simulate
    ran it."""
    from simlab.checker import check

    sc = result.scenario
    start = time.perf_counter()
    check(
        result.history,
        result.final,
        steps=sc.steps,
        effects=result.effects,
        ttl=sc.ttl,
        named_results=sc.workload == "opaque",
    )
    return time.perf_counter() - start


def bench_sim(
    scenario: Scenario = WIDGET, *, seed: int = 1, rounds: int = 3, bare: int = 1_000_000
) -> dict[str, Any]:
    """Measure; return ``{"rows": [...], "bare_s": s, "bare_cpu_s": s, "widget_vs_bare": r,
    "widget_vs_bare_cpu": r, "same_history": b}`` (the two ratios: the run over ``:memory:``
    against the yardstick, in wall and in CPU seconds, each the best round of its side).

    Each row has ``ledger``, ``seconds`` (best round), ``completed``, ``per_s``, ``ratio``
    (``per_s`` over ``MemoryLedger``'s), ``check_s`` (the best time of checking that run alone)
    and ``check_share`` (``check_s`` over ``seconds``).
    """
    best: dict[str, float] = {}
    best_cpu: dict[str, float] = {}
    checking: dict[str, float] = {}
    completed: dict[str, int] = {}
    digests: set[str] = set()
    best_bare = best_bare_cpu = float("inf")
    with tempfile.TemporaryDirectory(prefix="simlab-bench-sim-") as tmp:
        for r in range(rounds):
            for name, factory in _factories(Path(tmp), r):
                gc.collect()  # no run pays for the garbage of the one before
                start, cpu = time.perf_counter(), time.process_time()
                result = simulate(scenario, seed=seed, ledger=factory)
                elapsed = time.perf_counter() - start
                best[name] = min(best.get(name, float("inf")), elapsed)
                best_cpu[name] = min(best_cpu.get(name, float("inf")), time.process_time() - cpu)
                checking[name] = min(checking.get(name, float("inf")), _check_seconds(result))
                completed[name] = result.completed
                digests.add(history_digest(result.history))
            if bare:
                cpu = time.process_time()
                best_bare = min(best_bare, bare_timeouts(bare))
                best_bare_cpu = min(best_bare_cpu, time.process_time() - cpu)
    base = completed["MemoryLedger"] / best["MemoryLedger"]
    rows = []
    for name, seconds in best.items():
        per_s = completed[name] / seconds
        rows.append(
            {
                "ledger": name,
                "seconds": seconds,
                "completed": completed[name],
                "per_s": per_s,
                "ratio": per_s / base,
                "check_s": checking[name],
                "check_share": checking[name] / seconds,
            }
        )
    memory = best["Ledger(':memory:')"]
    return {
        "rows": rows,
        "bare": bare,
        "bare_s": best_bare if bare else None,
        "bare_cpu_s": best_bare_cpu if bare else None,
        "widget_vs_bare": memory / best_bare if bare else None,
        "widget_vs_bare_cpu": best_cpu["Ledger(':memory:')"] / best_bare_cpu if bare else None,
        "same_history": len(digests) == 1,
    }
