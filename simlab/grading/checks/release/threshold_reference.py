"""The kit's answers to question ``choose-threshold``: the notebook's constants (its thresholds,
its watch-only canary, its seeds) and ``noise_peak``, ``choose_threshold`` and ``trip_rate`` as
the exercise asks for them, each able to take the value a hidden world gives a constant in its
place; the check (:mod:`simlab.grading.checks.release.threshold`) and its world compare the
learner's with these. The runs are cached, so a class of notebooks pays for each run once.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from simlab.rollout.canary import CanaryConfig
from simlab.sim.canary import run_canary

__all__ = [
    "THRESHOLDS",
    "WATCH_ONLY",
    "NOTEBOOK_SEEDS",
    "NOTEBOOK_THRESHOLD",
    "MAX_COST",
    "DURATION",
    "windows",
    "judged_peak",
    "peaks",
    "noise_peak",
    "at_least",
    "choose_threshold",
    "trip_times",
    "trips",
    "trip_rate",
]

#: The notebook's constants: the thresholds to choose from, and a canary whose breaker records
#: every window and never acts.
THRESHOLDS = (0.01, 0.015, 0.02, 0.025, 0.03, 0.035, 0.04, 0.045, 0.05, 0.06, 0.07, 0.08, 0.09, 0.1)
WATCH_ONLY = {"duration": 1200.0, "max_error_rate": 1.0, "max_cost": 1e9}
#: The seeds the notebook's check cell runs (the threshold is chosen on the first three), and
#: the threshold they give: a world never asks for these, and its answers are never these.
NOTEBOOK_SEEDS = (1, 2, 3, 4, 5, 6, 7)
NOTEBOOK_THRESHOLD = 0.03


#: How long the notebook's canaries run (its WATCH_ONLY's ``duration``); a world may give
#: WATCH_ONLY another one for a call, and every function here takes it as ``duration``.
DURATION = WATCH_ONLY["duration"]


@lru_cache(maxsize=8192)
def windows(candidate: str, seed: int, duration: float = DURATION) -> tuple[tuple[int, float], ...]:
    """``(requests, error_rate)`` of every window a watch-only canary of ``duration`` seconds
    recorded. Its breaker never acts, so they are the same whatever its ``min_requests``: that
    only decides which of them the breaker could judge."""
    watch = {**WATCH_ONLY, "duration": duration}
    run = run_canary(CanaryConfig(candidate=candidate, **watch), seed=seed)
    return tuple((s.requests, s.error_rate) for s in run.samples)


def judged_peak(candidate: str, seed: int, least: int, duration: float = DURATION) -> float:
    """The highest error rate of a watch-only canary whose ``min_requests`` is ``least``,
    among the windows its breaker could judge (0.0 if none)."""
    return max((r for n, r in windows(candidate, seed, duration) if n >= least), default=0.0)


def peaks(candidate: str, seed: int, duration: float = DURATION) -> dict[str, float]:
    """The highest window error rate of a watch-only canary: over the windows the breaker could
    judge (``judged``, the reference), over those of more than ``min_requests`` requests
    (``strict``) and over every window (``every``)."""
    least = CanaryConfig().min_requests
    return {
        "judged": judged_peak(candidate, seed, least, duration),
        "strict": judged_peak(candidate, seed, least + 1, duration),
        "every": max((rate for _, rate in windows(candidate, seed, duration)), default=0.0),
    }


def noise_peak(candidate: str, seed: int, duration: float = DURATION) -> float:
    """The highest error rate among the windows the breaker could judge (0.0 if none)."""
    return peaks(candidate, seed, duration)["judged"]


def at_least(peak: float, thresholds: tuple[float, ...] = THRESHOLDS) -> float:
    """The smallest of ``thresholds`` at or above ``peak`` (1.0 above them all)."""
    return min((t for t in thresholds if t >= peak), default=1.0)


def choose_threshold(
    seeds: Any, thresholds: tuple[float, ...] = THRESHOLDS, duration: float = DURATION
) -> float:
    """The smallest of ``thresholds`` (the notebook's :data:`THRESHOLDS`, or the ones a world
    gives it) at or above the highest A/A peak over ``seeds``."""
    return at_least(max(noise_peak("A", seed, duration) for seed in seeds), thresholds)


#: The breaker's cost limit of the canaries ``trip_rate`` runs: the text fixes their fields to
#: ``candidate``, ``duration`` and ``max_error_rate``, so it is the default's.
MAX_COST = CanaryConfig.max_cost


@lru_cache(maxsize=8192)
def trip_times(
    candidate: str,
    threshold: float,
    seed: int,
    duration: float = DURATION,
    max_cost: float = MAX_COST,
) -> tuple[float, ...]:
    """When the breaker at ``threshold`` trips on a canary of ``candidate`` that runs for
    ``duration`` (the notebook's WATCH_ONLY's, or the one a world gives it); ``max_cost`` other
    than the default only for the mistake of passing WATCH_ONLY's along too."""
    config = CanaryConfig(
        candidate=candidate, duration=duration, max_error_rate=threshold, max_cost=max_cost
    )
    return tuple(trip.t for trip in run_canary(config, seed=seed).trips)


def trips(
    candidate: str,
    threshold: float,
    seed: int,
    duration: float = DURATION,
    max_cost: float = MAX_COST,
) -> int:
    """How many times the breaker at ``threshold`` trips on a canary of ``candidate``."""
    return len(trip_times(candidate, threshold, seed, duration, max_cost))


def trip_rate(
    candidate: str,
    threshold: float,
    seeds: Any,
    duration: float = DURATION,
    max_cost: float = MAX_COST,
) -> float:
    """The share of ``seeds`` on which the breaker at ``threshold`` trips at least once: how
    many of them trip, divided by how many there are."""
    seeds = list(seeds)
    return sum(trips(candidate, threshold, s, duration, max_cost) > 0 for s in seeds) / len(seeds)
