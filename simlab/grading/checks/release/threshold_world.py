"""The hidden world of question ``choose-threshold``
(:mod:`~simlab.grading.checks.release.threshold`): the seeds, candidates and thresholds its calls
ask for, drawn from :func:`~simlab.grading.checks.hidden_world.rng` among seeds of each kind found
ahead (far from the notebook's), and the values a world gives the notebook's ``WATCH_ONLY`` and
``THRESHOLDS`` for one call each.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from simlab.grading.checks.hidden_world import current_seed, rng
from simlab.grading.checks.release.threshold_reference import (
    at_least,
    choose_threshold,
    judged_peak,
    noise_peak,
    peaks,
    trip_rate,
    windows,
)

__all__ = [
    "HEALTHY_SEEDS",
    "WORSE_SEEDS",
    "HIGH_SEEDS",
    "LOW_SEEDS",
    "EQUAL_SEEDS",
    "LAST_SEEDS",
    "CLOSE_SEEDS",
    "WORSE_TRIPS",
    "HEALTHY_TRIPS",
    "LEASTS",
    "LISTED",
    "DURATIONS",
    "MAX_COSTS",
    "HIDDEN_SEEDS",
    "ThresholdWorld",
    "threshold_world",
]


# Seeds of each kind a world needs, found ahead by trying seeds far from the notebook's (some
# kinds come once in hundreds of runs, too rare to look for while grading); the tests check
# each seed is of its kind. A world draws its cases from these, so the seeds, candidates and
# thresholds it asks for are never the notebook's and no answer can foresee them.

#: Healthy (A) runs whose small windows reach above the judged peak, and windows of exactly
#: ``min_requests`` requests matter; no peak of theirs is one the notebook's seeds give.
HEALTHY_SEEDS = (
    182702,
    390294,
    394900,
    125452,
    52621,
    670725,
    967032,
    33117,
    117165,
    636235,
    143724,
    580573,
)
#: (B or C, seed): the same for a worse candidate, whose judged peak is not A's on that seed.
WORSE_SEEDS = (
    ("B", 204699),
    ("B", 465303),
    ("B", 765931),
    ("B", 616913),
    ("B", 795727),
    ("B", 428571),
    ("C", 34959),
    ("C", 853128),
    ("C", 687600),
    ("C", 897923),
    ("C", 361987),
    ("C", 348269),
)
#: Healthy runs with no small window above the peak, whose peak lies less than 0.0005 above
#: 0.01 or 0.02 (so a peak rounded to two or three decimals lands on the threshold below it):
#: nearer the threshold below than the one above, which is neither the notebook's 0.03 nor the
#: largest.
HIGH_SEEDS = (
    826496,
    317535,
    353245,
    842417,
    380113,
    460157,
    491993,
    381379,
    123527,
    430776,
    669986,
    212443,
)
#: Healthy runs with no small window above the peak, whose peak is low (at most 0.0085).
LOW_SEEDS = (
    879216,
    421345,
    105174,
    581663,
    208726,
    128900,
    823562,
    838920,
    76897,
    794791,
    785708,
    591026,
)
#: Healthy runs whose judged peak is exactly a threshold (not 0.03): no window reaches above
#: it, and the windows of more than ``min_requests`` requests give the same threshold.
EQUAL_SEEDS = (417912, 419526, 194289, 749884, 849650, 332970, 118193, 5788)
#: Healthy runs whose highest window is their last one, alone (every earlier window, judged or
#: not, lower) and of more than ``min_requests`` requests: a peak that leaves the last window
#: out is another one.
LAST_SEEDS = (
    173248,
    429407,
    163616,
    161818,
    676129,
    479324,
    129294,
    674919,
    914672,
    196672,
    385129,
    990857,
)
#: Healthy runs with no small window above the peak, whose peak lies less than 0.00005 above a
#: threshold (so a peak rounded to four decimals, or fewer, lands on that threshold), whose
#: answer is neither the notebook's 0.03 nor the largest.
CLOSE_SEEDS = (
    637145,
    152826,
    328448,
    873061,
    229254,
    979548,
    813203,
    985379,
    824517,
    240807,
    370974,
    228159,
)
#: (worse candidate, threshold, a seed that trips more than once, a seed that never trips): the
#: share of both seeds, the calm one listed twice (one third; a half de-duplicated), is not the
#: one at the notebook's threshold, for candidate A, or on the notebook's seeds.
WORSE_TRIPS = (
    ("B", 0.09, 542333, 972825),
    ("B", 0.09, 953174, 559026),
    ("B", 0.1, 544551, 749480),
    ("B", 0.1, 371818, 931610),
    ("C", 0.045, 684167, 661756),
    ("C", 0.045, 205352, 350702),
    ("C", 0.05, 129692, 649572),
    ("C", 0.05, 988731, 54896),
    ("C", 0.06, 966809, 777433),
    ("C", 0.06, 834304, 546829),
)
#: (a threshold below 0.03, a seed): the healthy canary trips at that threshold, not at 0.03.
HEALTHY_TRIPS = (
    (0.01, 678217),
    (0.01, 993879),
    (0.01, 244277),
    (0.01, 69981),
    (0.01, 402284),
    (0.01, 46457),
    (0.01, 805540),
    (0.01, 394774),
)

#: What a world's WATCH_ONLY may set ``min_requests`` to (the notebook's is the default, 40)
#: for a healthy seed's run: one whose judged peak is not the default's.
LEASTS = (20, 25, 30, 35, 45, 50, 60, 70)

#: What a world's THRESHOLDS may hold for one call of ``choose_threshold``: thousandths that
#: are no multiple of 0.005, so never one of the notebook's THRESHOLDS nor a peak rounded up
#: to a multiple of 0.005.
LISTED = tuple(n / 1000 for n in range(4, 121) if n % 5)

#: What a world's WATCH_ONLY may set ``duration`` to for one call of ``trip_rate``: canaries
#: short enough to cost little, stopped before most of the worse seeds' first trip.
DURATIONS = (60.0, 90.0, 120.0, 150.0)

#: What a world's WATCH_ONLY may set ``max_cost`` to for one call of ``trip_rate``: below what
#: a request costs on average, so a canary that took it along would trip on cost.
MAX_COSTS = (20.0, 40.0, 60.0, 80.0)

#: Every seed a world may ask for: feedback never shows a number near one.
HIDDEN_SEEDS = frozenset(
    {*HEALTHY_SEEDS, *HIGH_SEEDS, *LOW_SEEDS, *EQUAL_SEEDS, *LAST_SEEDS, *CLOSE_SEEDS}
    | {s for _, s in WORSE_SEEDS}
    | {s for *_, a, b in WORSE_TRIPS for s in (a, b)}
    | {s for _, s in HEALTHY_TRIPS}
)


@dataclass(frozen=True)
class ThresholdWorld:
    """The seeds one hidden world asks for."""

    #: ("A", seed): a healthy run whose small windows (fewer than ``min_requests`` requests,
    #: and exactly that many) reach above its judged peak.
    healthy: tuple[str, int]
    #: (B or C, seed): the same for a worse candidate, whose judged peak is not A's there.
    worse: tuple[str, int]
    #: Seeds whose highest A peak is in the middle, less than 0.0005 above a threshold; the
    #: mean of the peaks, the first seed's and the peak rounded give a lower threshold.
    several: tuple[int, ...]
    #: A seed whose A peak is exactly a threshold, another than ``several``'s.
    equal: tuple[int, ...]
    #: (candidate, threshold, seeds) for ``trip_rate``: a worse version's share of one third
    #: (a seed that trips more than once and one that never trips, listed twice: a half if the
    #: seeds are de-duplicated), then the healthy one's at a low threshold (1), then the healthy
    #: one at the worse one's threshold on its seed that trips more than once (one run: a share
    #: kept by seed and threshold answers the worse one's 1 there).
    trip_cases: tuple[tuple[str, float, tuple[int, ...]], ...]
    #: (candidate, seed, min_requests) for ``noise_peak`` with a WATCH_ONLY of its own that
    #: sets ``min_requests``: ``healthy``'s run with another judged peak than at the default,
    #: then ``worse``'s with more than any of its windows holds (none judged: 0.0).
    watch: tuple[tuple[str, int, int], ...] = ()
    #: (seeds, thresholds) for ``choose_threshold`` with THRESHOLDS holding ``thresholds``
    #: (of :data:`LISTED`, out of order) for that call: ``equal``'s seed, two of them below its
    #: peak and three above it; the answer is neither the first nor the last of them, nor the
    #: first at or above the peak in their order.
    listed: tuple[tuple[int, ...], tuple[float, ...]] = ((), ())
    #: (candidate, threshold, seeds, duration) for ``trip_rate`` with a WATCH_ONLY whose
    #: ``duration`` is ``duration`` (of :data:`DURATIONS`) for that call: the first trip case,
    #: whose share is another one at that duration than at the notebook's.
    short: tuple[str, float, tuple[int, ...], float] = ("A", 0.0, (), 0.0)
    #: (candidate, threshold, seeds, max_cost) for ``trip_rate`` with a WATCH_ONLY whose
    #: ``max_cost`` is ``max_cost`` (of :data:`MAX_COSTS`) for that call: the first trip case
    #: on its seed that never trips (one run), whose share (0) a canary that also took that
    #: max_cost would not give.
    costly: tuple[str, float, tuple[int, ...], float] = ("A", 0.0, (), 0.0)
    #: ("A", seed) for ``noise_peak``: a healthy run whose highest window is its last one
    #: (of :data:`LAST_SEEDS`).
    last: tuple[str, int] = ("A", 0)
    #: A seed for ``choose_threshold`` whose A peak lies less than 0.00005 above a threshold
    #: (of :data:`CLOSE_SEEDS`).
    close: tuple[int, ...] = ()

    @property
    def seeds(self) -> frozenset[int]:
        """Every seed the world asks for (feedback never shows a number near one)."""
        return frozenset(
            {self.healthy[1], self.worse[1], *self.several, *self.equal, self.last[1], *self.close}
            | {s for *_, seeds in self.trip_cases for s in seeds}
        )


def threshold_world() -> ThresholdWorld:
    """The seeds of the world being judged in (the same world, the same seeds)."""
    return _world(current_seed())


@lru_cache(maxsize=64)
def _world(seed: int) -> ThresholdWorld:
    source = rng("release/choose-threshold")
    high = source.choice(HIGH_SEEDS)
    right = choose_threshold([high])
    several = next(
        (a, high, b)
        for a, b in _pairs(source, LOW_SEEDS)
        if noise_peak("A", a) != noise_peak("A", b)
        and at_least((noise_peak("A", a) + noise_peak("A", high) + noise_peak("A", b)) / 3) < right
    )
    # In an order drawn, the first that fits: each seed tried costs the grader a run.
    equal = next(
        s for s in source.sample(EQUAL_SEEDS, len(EQUAL_SEEDS)) if noise_peak("A", s) != right
    )
    candidate, threshold, tripping, calm = source.choice(WORSE_TRIPS)
    low, healthy = source.choice(HEALTHY_TRIPS)
    shown, worse = ("A", source.choice(HEALTHY_SEEDS)), source.choice(WORSE_SEEDS)
    default = peaks(*shown)["judged"]
    least = source.choice([n for n in LEASTS if judged_peak(*shown, n) not in (default, 0.0)])
    most = max(n for n, _ in windows(*worse))
    # one run of each seed more than the seeds it holds: its calm seed listed twice judges a
    # share of one third and a seed that counts twice at once
    trio = tuple(source.sample((tripping, calm, calm), 3))
    return ThresholdWorld(
        healthy=shown,
        worse=worse,
        several=several,
        equal=(equal,),
        trip_cases=(
            (candidate, threshold, trio),
            ("A", low, (healthy,)),
            # the healthy candidate at the worse one's threshold on its seed that trips: a share
            # kept by seed and threshold alone (state kept between calls) answers the worse
            # one's share there, which A's is not: one seed shows it, in one run
            ("A", threshold, (tripping,)),
        ),
        watch=((*shown, least), (*worse, most + source.randint(1, 40))),
        listed=((equal,), _listed(source, noise_peak("A", equal))),
        short=(candidate, threshold, trio, _duration(source, candidate, threshold, trio)),
        costly=(candidate, threshold, (calm,), _max_cost(source, candidate, threshold, (calm,))),
        last=("A", source.choice(LAST_SEEDS)),
        close=(source.choice(CLOSE_SEEDS),),
    )


def _listed(source: random.Random, peak: float) -> tuple[float, ...]:
    """Five thresholds of :data:`LISTED`, two below ``peak`` and three above it, in an order
    drawn where the answer (the smallest above) is neither the first nor the last, nor the
    first above ``peak``: only the smallest of them all at or above it gives the answer."""
    below = source.sample([t for t in LISTED if t < peak], 2)
    above = sorted(source.sample([t for t in LISTED if t > peak], 3))
    while True:
        order = source.sample(below + above, 5)
        if order[-1] != above[0] != next(t for t in order if t > peak):
            return tuple(order)


def _duration(source: random.Random, candidate: str, threshold: float, seeds: tuple) -> float:
    """A duration of :data:`DURATIONS` (in an order drawn) at which the share of ``seeds``
    that trip is another one than at the notebook's duration."""
    usual = trip_rate(candidate, threshold, seeds)
    return next(
        d
        for d in source.sample(DURATIONS, len(DURATIONS))
        if trip_rate(candidate, threshold, seeds, d) != usual
    )


def _max_cost(source: random.Random, candidate: str, threshold: float, seeds: tuple) -> float:
    """A max_cost of :data:`MAX_COSTS` (in an order drawn) at which the share of ``seeds`` that
    trip would be another one than with the default max_cost the text leaves the canary."""
    usual = trip_rate(candidate, threshold, seeds)
    return next(
        m
        for m in source.sample(MAX_COSTS, len(MAX_COSTS))
        if trip_rate(candidate, threshold, seeds, max_cost=m) != usual
    )


def _pairs(source: random.Random, seeds: tuple[int, ...]) -> Any:
    """Every ordered pair of two of ``seeds``, in an order drawn from ``source``."""
    order = source.sample(seeds, len(seeds))
    return ((a, b) for a in order for b in order if a != b)
