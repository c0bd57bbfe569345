"""The hidden world of question ``choose-threshold``
(:mod:`~simlab.grading.checks.release.threshold`): the seeds, candidates and thresholds its calls
ask for, drawn from :func:`~simlab.grading.checks.hidden_world.rng` among seeds of each kind found
ahead (far from the notebook's), the values a world gives the notebook's ``WATCH_ONLY`` and
``THRESHOLDS`` for one call each, and how long its canaries run (every hidden call sets
WATCH_ONLY's ``duration``: :data:`WATCH_DURATION`, or a case's own). Every seed is of its kind
at the duration its case runs for.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from simlab.grading.checks.hidden_world import current_seed, rng
from simlab.grading.checks.release.threshold_reference import (
    DURATION,
    WATCH_ONLY,
    at_least,
    choose_threshold,
    judged_peak,
    noise_peak,
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
    "BELOW_SEEDS",
    "WORSE_TRIPS",
    "HEALTHY_TRIPS",
    "WATCH_DURATION",
    "TWICE_DURATION",
    "CLOSE_DURATION",
    "LEASTS",
    "LISTED",
    "DURATIONS",
    "MAX_COSTS",
    "HIDDEN_SEEDS",
    "watch",
    "ThresholdWorld",
    "threshold_world",
]


#: How long a world's canaries run: the WATCH_ONLY of every hidden call sets this duration (the
#: text has each function read WATCH_ONLY at each call), but for the two cases below. Long enough
#: for 60 to 80 requests, so windows of ``min_requests`` (40) and more, which the breaker judges.
WATCH_DURATION = 300.0
#: The first trip case's duration: long enough for a worse candidate's breaker to trip, cool
#: down and trip again.
TWICE_DURATION = 600.0
#: The close case's duration: long enough for windows of more than 100 requests (a peak less
#: than 0.00005 above a threshold is the error rate of one of those).
CLOSE_DURATION = 600.0

# Seeds of each kind a world needs, found ahead by trying seeds far from the notebook's (some
# kinds come once in hundreds of runs, too rare to look for while grading); the tests check
# each seed is of its kind. A world draws its cases from these, so the seeds, candidates and
# thresholds it asks for are never the notebook's and no answer can foresee them.

#: Healthy (A) runs whose small windows reach above the judged peak, and windows of exactly
#: ``min_requests`` requests matter; no peak of theirs is one the notebook's seeds give.
HEALTHY_SEEDS = (
    804441,
    954657,
    375155,
    780850,
    730102,
    89693,
    717007,
    34265,
    250973,
    979500,
    548828,
    216025,
)
#: (B or C, seed): the same for a worse candidate, whose judged peak is not A's on that seed.
WORSE_SEEDS = (
    ("B", 83053),
    ("B", 696181),
    ("B", 486333),
    ("B", 835217),
    ("B", 224430),
    ("B", 204385),
    ("C", 868441),
    ("C", 911074),
    ("C", 755802),
    ("C", 561020),
    ("C", 318704),
    ("C", 559603),
)
#: Healthy runs with no small window above the peak, whose peak lies less than 0.0005 above
#: 0.01 or 0.02 (so a peak rounded to two or three decimals lands on the threshold below it):
#: nearer the threshold below than the one above, which is neither the notebook's 0.03 nor the
#: largest. (In 300 s, that is one error, at the 49th request: 0.0204.)
HIGH_SEEDS = (
    554722,
    923488,
    866504,
    917475,
    829834,
    186381,
    968334,
    157681,
    39547,
    75220,
    992260,
    927369,
)
#: Healthy runs with no small window above the peak, whose peak is low (above 0, below 0.0195:
#: with a high seed's, the mean of the peaks is below 0.02).
LOW_SEEDS = (
    580147,
    756410,
    509930,
    955894,
    779959,
    936007,
    157195,
    835311,
    70306,
    210883,
    543424,
    664819,
)
#: Healthy runs whose judged peak is exactly a threshold (not 0.03, nor the high seeds'
#: 0.025): no window reaches above it, and the windows of more than ``min_requests`` requests
#: give the same threshold.
EQUAL_SEEDS = (417486, 659222, 913395, 586167, 139670, 271232, 910343, 255304)
#: Healthy runs whose highest window is their last one, alone (every earlier window, judged or
#: not, lower) and of more than ``min_requests`` requests: a peak that leaves the last window
#: out is another one.
LAST_SEEDS = (
    71681,
    346542,
    550509,
    798242,
    81604,
    104592,
    407857,
    298822,
    156021,
    569914,
    945944,
    915998,
)
#: Healthy runs with no small window above the peak, whose peak lies less than 0.00005 above a
#: threshold (so a peak rounded to four decimals, or fewer, lands on that threshold), whose
#: answer is neither the notebook's 0.03 nor the largest (at :data:`CLOSE_DURATION`).
CLOSE_SEEDS = (
    888532,
    823587,
    501587,
    370917,
    980722,
    421638,
    714806,
    631197,
    565651,
    729955,
    740850,
    222662,
)
#: Healthy runs with no small window above the peak, whose peak lies above its value rounded to
#: any number of decimals from 2 to 15 (a peak rounded before choosing is below it): a
#: threshold one float below that peak, which a world's THRESHOLDS holds for one call, is
#: what a peak rounded, or a threshold accepted within a tolerance of it, gives.
BELOW_SEEDS = (
    229368,
    690479,
    298148,
    76869,
    184941,
    456335,
    901572,
    433104,
    380319,
    715310,
    171627,
    395522,
)
#: (worse candidate, threshold, a seed that trips more than once, a seed that never trips), at
#: :data:`TWICE_DURATION`: the share of the tripping seed listed twice and the calm one four
#: times (one third; a half de-duplicated, a sixth when each seed that tripped counts once over
#: the seeds as listed) is not the
#: one at the notebook's threshold, for candidate A, or on the notebook's seeds; candidate A at
#: that threshold does not trip on the first seed.
WORSE_TRIPS = (
    ("B", 0.09, 871168, 424002),
    ("B", 0.09, 621097, 571913),
    ("B", 0.1, 105119, 963893),
    ("B", 0.1, 587814, 877017),
    ("C", 0.045, 425949, 241821),
    ("C", 0.045, 988604, 51111),
    ("C", 0.05, 293051, 710675),
    ("C", 0.05, 724328, 740901),
    ("C", 0.06, 750710, 871850),
    ("C", 0.06, 596438, 386198),
)
#: (a threshold below 0.03, a seed): the healthy canary trips at that threshold, not at 0.03.
HEALTHY_TRIPS = (
    (0.01, 885434),
    (0.01, 294368),
    (0.01, 584005),
    (0.01, 871630),
    (0.01, 322506),
    (0.01, 30388),
    (0.01, 886726),
    (0.01, 41832),
)

#: What a world's WATCH_ONLY may set ``min_requests`` to (the notebook's is the default, 40)
#: for a healthy seed's run: one whose judged peak is not the default's.
LEASTS = (20, 25, 30, 35, 45, 50, 60, 70)

#: What a world's THRESHOLDS may hold for one call of ``choose_threshold``: thousandths that
#: are no multiple of 0.005, so never one of the notebook's THRESHOLDS nor a peak rounded up
#: to a multiple of 0.005.
LISTED = tuple(n / 1000 for n in range(4, 121) if n % 5)

#: What a world's WATCH_ONLY may set ``duration`` to for one call of ``trip_rate``: canaries
#: stopped before the breaker judges any window (it needs 40 requests).
DURATIONS = (60.0, 90.0, 120.0, 150.0)

#: What a world's WATCH_ONLY may set ``max_cost`` to for one call of ``trip_rate``: below what
#: a request costs on average, so a canary that took it along would trip on cost.
MAX_COSTS = (20.0, 40.0, 60.0, 80.0)

#: Every seed a world may ask for: feedback never shows a number near one.
HIDDEN_SEEDS = frozenset(
    {*HEALTHY_SEEDS, *HIGH_SEEDS, *LOW_SEEDS, *EQUAL_SEEDS, *LAST_SEEDS, *CLOSE_SEEDS}
    | {*BELOW_SEEDS}
    | {s for _, s in WORSE_SEEDS}
    | {s for *_, a, b in WORSE_TRIPS for s in (a, b)}
    | {s for _, s in HEALTHY_TRIPS}
)


def watch(duration: float = WATCH_DURATION, **settings: Any) -> dict[str, Any]:
    """The notebook's WATCH_ONLY as a hidden call gets it: setting ``duration`` (and
    ``settings``)."""
    return {**WATCH_ONLY, "duration": duration, **settings}


@dataclass(frozen=True)
class ThresholdWorld:
    """The seeds one hidden world asks for. Every case runs its canaries for
    :data:`WATCH_DURATION` but ``close`` (:data:`CLOSE_DURATION`), the first trip case
    (:data:`TWICE_DURATION`) and ``short`` (its own duration)."""

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
    #: (a seed that trips more than once in :data:`TWICE_DURATION`, listed twice, and one that
    #: never trips, listed four times: a half if the seeds are de-duplicated, a sixth if each
    #: seed that tripped counts once over the seeds as listed), then the healthy one's at a low
    #: threshold (1), then the healthy one at the worse one's threshold on its seed that trips
    #: more than once (one run: a share kept by seed and threshold answers the worse one's 1
    #: there).
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
    #: whose share is another one at that duration than at its own or the notebook's.
    short: tuple[str, float, tuple[int, ...], float] = ("A", 0.0, (), 0.0)
    #: (candidate, threshold, seeds, max_cost, min_requests) for ``trip_rate`` with a
    #: WATCH_ONLY that sets ``max_cost`` (of :data:`MAX_COSTS`) and ``min_requests`` for that
    #: call: the first trip case on its seed that never trips and its seed that trips (one run
    #: of :data:`WATCH_DURATION` each), whose share (a half) a canary that also took that
    #: max_cost would not give (both trip), nor a watch-only canary given that min_requests,
    #: more than any of its windows holds, whose judged windows are compared with the
    #: threshold (none judged, none trips).
    costly: tuple[str, float, tuple[int, ...], float, int] = ("A", 0.0, (), 0.0, 0)
    #: ("A", seed) for ``noise_peak``: a healthy run whose highest window is its last one
    #: (of :data:`LAST_SEEDS`).
    last: tuple[str, int] = ("A", 0)
    #: A seed for ``choose_threshold`` whose A peak lies less than 0.00005 above a threshold
    #: (of :data:`CLOSE_SEEDS`).
    close: tuple[int, ...] = ()
    #: (seeds, thresholds) for ``choose_threshold`` with THRESHOLDS holding ``thresholds`` for
    #: that call: a seed of :data:`BELOW_SEEDS`, and the float just below its peak among
    #: thresholds of :data:`LISTED` (two below the peak, two above), out of order: the answer
    #: is the smallest of those above; a peak rounded, or a tolerance, gives the one just below.
    below: tuple[tuple[int, ...], tuple[float, ...]] = ((), ())

    @property
    def seeds(self) -> frozenset[int]:
        """Every seed the world asks for (feedback never shows a number near one)."""
        return frozenset(
            {self.healthy[1], self.worse[1], *self.several, *self.equal, self.last[1], *self.close}
            | {*self.below[0]}
            | {s for *_, seeds in self.trip_cases for s in seeds}
        )


def threshold_world() -> ThresholdWorld:
    """The seeds of the world being judged in (the same world, the same seeds)."""
    return _world(current_seed())


@lru_cache(maxsize=64)
def _world(seed: int) -> ThresholdWorld:
    source = rng("release/choose-threshold")
    high = source.choice(HIGH_SEEDS)
    right = choose_threshold([high], duration=WATCH_DURATION)

    def peak(seed: int) -> float:
        return noise_peak("A", seed, WATCH_DURATION)

    several = next(
        (a, high, b)
        for a, b in _pairs(source, LOW_SEEDS)
        if peak(a) != peak(b) and at_least((peak(a) + peak(high) + peak(b)) / 3) < right
    )
    # In an order drawn, the first that fits: each seed tried costs the grader a run.
    equal = next(s for s in source.sample(EQUAL_SEEDS, len(EQUAL_SEEDS)) if peak(s) != right)
    candidate, threshold, tripping, calm = source.choice(WORSE_TRIPS)
    low, healthy = source.choice(HEALTHY_TRIPS)
    shown, worse = ("A", source.choice(HEALTHY_SEEDS)), source.choice(WORSE_SEEDS)
    default = noise_peak(*shown, WATCH_DURATION)
    least = source.choice(
        [n for n in LEASTS if judged_peak(*shown, n, WATCH_DURATION) not in (default, 0.0)]
    )
    most = max(n for n, _ in windows(*worse, WATCH_DURATION))
    # one run of each seed, many more calls of it: the tripping seed listed twice and the calm
    # one four times judge a share of one third and that a seed counts as often as it is listed
    # (each counted once, over the seeds given or over the seeds as listed, is another share)
    repeated = tuple(source.sample((tripping, tripping, calm, calm, calm, calm), 6))
    world = ThresholdWorld(
        healthy=shown,
        worse=worse,
        several=several,
        equal=(equal,),
        trip_cases=(
            (candidate, threshold, repeated),
            ("A", low, (healthy,)),
            # the healthy candidate at the worse one's threshold on its seed that trips: a share
            # kept by seed and threshold alone (state kept between calls) answers the worse
            # one's share there, which A's is not: one seed shows it, in one run
            ("A", threshold, (tripping,)),
        ),
        watch=((*shown, least), (*worse, most + source.randint(1, 40))),
        listed=((equal,), _listed(source, peak(equal))),
        short=(candidate, threshold, repeated, _duration(source, candidate, threshold, repeated)),
        costly=(
            candidate,
            threshold,
            (calm, tripping),
            _max_cost(source, candidate, threshold, (calm, tripping)),
            0,
        ),
        last=("A", source.choice(LAST_SEEDS)),
        close=(source.choice(CLOSE_SEEDS),),
        below=_below(source),
    )
    # the costly case's min_requests, drawn last (the values above do not depend on it): more
    # than any window of its two runs holds, so a watch-only canary given it judges none
    most = max(n for s in (calm, tripping) for n, _ in windows(candidate, s, WATCH_DURATION))
    return replace(world, costly=(*world.costly[:4], most + source.randint(1, 40)))


def _below(source: random.Random) -> tuple[tuple[int, ...], tuple[float, ...]]:
    """A seed of :data:`BELOW_SEEDS` and THRESHOLDS for it: the float just below its peak (not
    the peak: it is not at least the peak), two thresholds of :data:`LISTED` below the peak and
    two above it, in an order drawn."""
    seed = source.choice(BELOW_SEEDS)
    peak = noise_peak("A", seed, WATCH_DURATION)
    below = source.sample([t for t in LISTED if t < peak], 2)
    above = source.sample([t for t in LISTED if t > peak], 2)
    thresholds = [*below, math.nextafter(peak, 0.0), *above]
    return (seed,), tuple(source.sample(thresholds, len(thresholds)))


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
    that trip is another one than at the case's own duration and at the notebook's."""
    usual = {trip_rate(candidate, threshold, seeds, d) for d in (TWICE_DURATION, DURATION)}
    return next(
        d
        for d in source.sample(DURATIONS, len(DURATIONS))
        if trip_rate(candidate, threshold, seeds, d) not in usual
    )


def _max_cost(source: random.Random, candidate: str, threshold: float, seeds: tuple) -> float:
    """A max_cost of :data:`MAX_COSTS` (in an order drawn) at which the share of ``seeds`` that
    trip in :data:`WATCH_DURATION` would be another one than with the default max_cost the text
    leaves the canary."""
    usual = trip_rate(candidate, threshold, seeds, WATCH_DURATION)
    return next(
        m
        for m in source.sample(MAX_COSTS, len(MAX_COSTS))
        if trip_rate(candidate, threshold, seeds, WATCH_DURATION, m) != usual
    )


def _pairs(source: random.Random, seeds: tuple[int, ...]) -> Any:
    """Every ordered pair of two of ``seeds``, in an order drawn from ``source``."""
    order = source.sample(seeds, len(seeds))
    return ((a, b) for a in order for b in order if a != b)
