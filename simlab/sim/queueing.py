"""The simulator as a queue: with faults off and one step per task it is M/M/c.

Poisson arrivals (rate lambda), exponential service (rate mu = 1 / step_time), c workers and a
FIFO broker: the wait before a claim must match Erlang C. These are the pieces the queueing
tests, notebook 06 and ``simlab bench sim --mmc`` share: the scenario, the waits read off a
history, Erlang C, and a confidence interval across independent replications.
"""

from __future__ import annotations

import math
import statistics
from statistics import NormalDist

from simlab.sim.scenario import RATE_FIELDS, Scenario

__all__ = [
    "FAULTS_OFF",
    "mmc_scenario",
    "waits",
    "erlang_c",
    "mean_wait",
    "t_quantile",
    "confidence_interval",
]

#: Every fault rate at 0.
FAULTS_OFF = dict.fromkeys(RATE_FIELDS, 0.0)


def mmc_scenario(workers: int, arrival_rate: float, tasks: int = 1000) -> Scenario:
    """An M/M/c queue: ``tasks`` one-step tasks, no e-mail, no fault, mean service time 1."""
    return Scenario(
        tasks=tasks,
        steps=1,
        workers=workers,
        arrival_rate=arrival_rate,
        step_time=1.0,
        effects="none",
        **FAULTS_OFF,
    )


def waits(result) -> list[float]:
    """Per task in submit order: time from its submit to its first granted claim (a task never
    claimed is left out)."""
    submitted, claimed = {}, {}
    for e in result.history:
        if e.op == "submit":
            submitted[e.task] = e.time
        elif e.op == "claim" and e.type == "ok":
            claimed.setdefault(e.task, e.time)
    return [claimed[t] - submitted[t] for t in submitted if t in claimed]


def erlang_c(c: int, offered: float) -> float:
    """P(an arriving customer waits) in M/M/c with offered load a = lambda / mu (a < c)."""
    rho = offered / c
    below = sum(offered**k / math.factorial(k) for k in range(c))
    top = offered**c / math.factorial(c) / (1.0 - rho)
    return top / (below + top)


def mean_wait(c: int, arrival_rate: float, service_rate: float = 1.0) -> float:
    """Erlang C's mean wait in queue, Wq = C(c, a) / (c mu - lambda)."""
    return erlang_c(c, arrival_rate / service_rate) / (c * service_rate - arrival_rate)


def t_quantile(p: float, dof: int) -> float:
    """Student t quantile by the Cornish-Fisher expansion around the normal quantile
    (accurate to about 1e-4 for dof >= 10, enough for a confidence interval)."""
    z = NormalDist().inv_cdf(p)
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    return z + g1 / dof + g2 / dof**2 + g3 / dof**3


def confidence_interval(values: list[float], level: float = 0.99) -> tuple[float, float]:
    """The two-sided ``level`` interval of the mean of independent ``values`` (t distribution)."""
    n = len(values)
    mean = statistics.fmean(values)
    half = t_quantile(0.5 + level / 2, n - 1) * statistics.stdev(values) / math.sqrt(n)
    return mean - half, mean + half
