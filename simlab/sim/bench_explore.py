"""``simlab bench explore``: how fast :func:`~simlab.sim.explore.explore` certifies a scope,
against one million bare SimPy timeouts measured in the same process.

The default scope (2 tasks x 2 workers x 2 steps over the kit's SQLite ``:memory:`` ledger) is
certified with at most 2 faults and with at most 3, and each search is timed by the wall clock
beside the yardstick (:func:`~simlab.sim.bench.bare_timeouts`), best of ``rounds``. Reported:
schedules and distinct states per second and the search's time in yardsticks.

Goals (:data:`GOALS`): at most 5 yardsticks with 2 faults, at most 60 with 3.
"""

from __future__ import annotations

from typing import Any

from simlab.sim.bench import bare_timeouts
from simlab.sim.explore import explore

__all__ = ["bench_explore", "GOALS"]

#: max_faults -> the most yardsticks a certified search of the default scope may take.
GOALS = {2: 5.0, 3: 60.0}


def bench_explore(faults=(2, 3), rounds: int = 1, ledger=None) -> dict[str, Any]:
    """Time ``explore`` of the default scope for each number of faults in ``faults`` beside
    one million bare timeouts; the best of ``rounds`` of each. Returns the yardstick (s) and one
    row per number of faults (certified, schedules, states, seconds, their rates, yardsticks
    and the goal where there is one)."""
    best_bare = float("inf")
    rows = []
    for k in faults:
        best = None
        for _ in range(rounds):
            best_bare = min(best_bare, bare_timeouts())
            x = explore(ledger, max_faults=k)
            if best is None or x.seconds < best.seconds:
                best = x
        rows.append(
            {
                "max_faults": k,
                "certified": best.certified,
                "schedules": best.schedules,
                "states": best.states,
                "seconds": best.seconds,
                "schedules_per_s": best.schedules / best.seconds,
                "states_per_s": best.states / best.seconds,
                "goal": GOALS.get(k),
            }
        )
    for row in rows:
        row["yardsticks"] = row["seconds"] / best_bare
    return {"bare_seconds": best_bare, "rows": rows}
