"""``simlab bench shrink``: what shrinking costs, in simulations of the same scenario.

For each variant and seed, one plain :func:`~simlab.sim.simulation.simulate` and one
:func:`~simlab.sim.shrink.shrink` of the same scenario and seed are timed side by side, alternating,
for a few rounds; the best round of each counts. Time is the CPU time of this process (both are
single-threaded and CPU-bound), which other load on a shared machine barely moves. The ratio
``shrink / simulate`` is the cost of shrinking in *simulate-equivalents*: the goal is at most
:data:`GOAL` (60). Seeds that do not fail cost one simulation and are reported as such.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

from simlab.sim.scenario import Scenario
from simlab.sim.shrink import shrink
from simlab.sim.simulation import simulate

__all__ = ["bench_shrink", "GOAL"]

#: Shrinking should cost at most this many simulations of the original scenario.
GOAL = 60.0


def _timed(fn) -> tuple[float, Any]:
    start = time.process_time()
    out = fn()
    return time.process_time() - start, out


def bench_shrink(
    scenario: Scenario | None = None,
    *,
    variants: Iterable[str] = ("unfenced", "racy-claim"),
    seeds: Iterable[int] = range(1, 6),
    rounds: int = 3,
) -> list[dict[str, Any]]:
    """One row per (variant, seed): ``simulate_s`` and ``shrink_s`` (best of ``rounds``, each
    round timing both), ``ratio``, ``simulations``, ``original_faults``, ``faults`` (after
    shrinking; 0 for a seed that does not fail) and ``ok`` (the run did not fail)."""
    base = (scenario or Scenario()).validate()
    rows = []
    for variant in variants:
        sc = base.with_(variant=variant)
        for seed in seeds:
            sim_best = shrink_best = float("inf")
            shrunk = None
            for _ in range(rounds):
                t, _result = _timed(lambda sc=sc, seed=seed: simulate(sc, seed=seed))
                sim_best = min(sim_best, t)
                t, shrunk = _timed(lambda sc=sc, seed=seed: shrink(sc, seed=seed))
                shrink_best = min(shrink_best, t)
            rows.append(
                {
                    "variant": variant,
                    "seed": seed,
                    "simulate_s": sim_best,
                    "shrink_s": shrink_best,
                    "ratio": shrink_best / sim_best,
                    "simulations": shrunk.simulations,
                    "original_faults": shrunk.original_faults,
                    "faults": 0 if shrunk.ok else len(shrunk.schedule),
                    "ok": shrunk.ok,
                }
            )
    return rows
