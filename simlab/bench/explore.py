"""``simlab bench explore``: how fast :func:`~simlab.sim.explore.explore` certifies a scope,
against one million bare SimPy timeouts measured in the same process.

The default scope (2 tasks x 2 workers x 2 steps over the kit's SQLite ``:memory:`` ledger) is
certified with at most 2 faults and with at most 3, and each search is timed by the wall clock
beside the yardstick (:func:`~simlab.sim.yardstick.bare_timeouts`), best of ``rounds``. Reported:
schedules and distinct states per second and the search's time in yardsticks, by the wall
clock (the goals') and by CPU time (the search's processes and the yardstick's, which a machine
busy with other work changes less than it changes wall times).

Goals (:data:`GOALS`): at most 5 yardsticks with 2 faults, at most 60 with 3.
"""

from __future__ import annotations

import os
import time
from typing import Any

from simlab.sim.explore import explore
from simlab.sim.yardstick import bare_timeouts

__all__ = ["bench_explore", "GOALS"]

#: max_faults -> the most yardsticks a certified search of the default scope may take.
GOALS = {2: 5.0, 3: 60.0}


def bench_explore(faults=(2, 3), rounds: int = 1, ledger=None, jobs: int = 1) -> dict[str, Any]:
    """Time ``explore`` of the default scope for each number of faults in ``faults`` beside
    one million bare timeouts; the best of ``rounds`` of each, each search in ``jobs``
    processes. Returns the yardstick (s) and one row per number of faults (certified,
    schedules, states, seconds, their rates, yardsticks and the goal where there is one)."""
    best_bare = best_bare_cpu = float("inf")
    rows = []
    for k in faults:
        best, best_cpu = None, float("inf")
        for _ in range(rounds):
            cpu = time.process_time()
            best_bare = min(best_bare, bare_timeouts())
            best_bare_cpu = min(best_bare_cpu, time.process_time() - cpu)
            cpu = _cpu()
            x = explore(ledger, max_faults=k, jobs=jobs)
            best_cpu = min(best_cpu, _cpu() - cpu)
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
                "cpu_seconds": best_cpu,
            }
        )
    for row in rows:
        row["yardsticks"] = row["seconds"] / best_bare
        row["cpu_yardsticks"] = row["cpu_seconds"] / best_bare_cpu
    return {"bare_seconds": best_bare, "bare_cpu_seconds": best_bare_cpu, "rows": rows}


def _cpu() -> float:
    """CPU seconds of this process and of its children that have ended (a search's forked
    processes are waited for before it returns)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system
