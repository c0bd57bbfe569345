"""The machine's yardstick: how long SimPy itself takes for a million bare timeouts.

The benchmarks (:mod:`simlab.bench`) report the simulator's speed against this figure measured
in the same process, so a result reads the same on a fast or a slow machine. It lives here
because SimPy is imported only in ``simlab.sim``.
"""

from __future__ import annotations

import gc
import time

import simpy

__all__ = ["bare_timeouts"]


def bare_timeouts(n: int = 1_000_000) -> float:
    """Seconds SimPy needs for ``n`` bare timeouts in one process: the machine's yardstick."""
    env = simpy.Environment()

    def tick(env):
        timeout = env.timeout
        for _ in range(n):
            yield timeout(1)

    env.process(tick(env))
    gc.collect()
    start = time.perf_counter()
    env.run()
    return time.perf_counter() - start
