"""Question ``choose-threshold``: ``noise_peak``, ``choose_threshold`` and ``trip_rate`` against
the reference computed here, on seeds drawn in the hidden world the submission is judged in
(:func:`threshold_world`).

The core idea is a threshold just above the noise: the smallest of :data:`THRESHOLDS` at or above
the highest error rate a healthy canary (A/A) reached on every seed given. Each world's seeds are
drawn (from seeds of each kind found ahead, far from the notebook's) so that the core's classic
mistakes each give another threshold (the mean of the peaks, the first seed's, the largest
threshold, one below the peak, the peak rounded before choosing, one strictly above a peak that is
exactly a threshold), so that the notebook's own numbers (its seeds 1, 2, 3, its threshold 0.03)
give a wrong answer wherever they are typed in or used in place of an argument, and so that the
windows of fewer than ``min_requests`` requests of the core's seed lists never reach their peak: a
``noise_peak`` that forgets to leave them out loses only its own detail (:data:`THRESHOLD_RUBRIC`).
Two more calls of ``noise_peak`` run with the notebook's ``WATCH_ONLY`` setting ``min_requests`` too
(for that call only): the text has the breaker judge windows of ``run.config.min_requests``
requests, so 40 typed in, or every window when none can be judged, gives another peak there.

Feedback shows the learner's own numbers (a value that is not one is named by its type, so an
answer cannot echo a hidden input back), never a seed or the reference's values. The reference
values are cached, so a class of notebooks pays for each run once.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from simlab.grading.checks.hidden_world import current_seed, rng
from simlab.grading.checks.release.messages import say
from simlab.grading.messages import Message
from simlab.grading.questions import Criterion, Fail, Tally, require
from simlab.grading.student import Student, asked_once, close_to, shown_number
from simlab.rollout.canary import CanaryConfig
from simlab.sim.canary import run_canary

__all__ = [
    "THRESHOLDS",
    "WATCH_ONLY",
    "NOTEBOOK_SEEDS",
    "NOTEBOOK_THRESHOLD",
    "THRESHOLD_RUBRIC",
    "HEALTHY_SEEDS",
    "WORSE_SEEDS",
    "HIGH_SEEDS",
    "LOW_SEEDS",
    "EQUAL_SEEDS",
    "WORSE_TRIPS",
    "HEALTHY_TRIPS",
    "HIDDEN_SEEDS",
    "ThresholdWorld",
    "threshold_world",
    "LEASTS",
    "windows",
    "judged_peak",
    "peaks",
    "noise_peak",
    "choose_threshold",
    "trip_rate",
    "trips",
    "choose_threshold_check",
]

#: The notebook's constants: the thresholds to choose from, and a canary whose breaker records
#: every window and never acts.
THRESHOLDS = (0.01, 0.015, 0.02, 0.025, 0.03, 0.035, 0.04, 0.045, 0.05, 0.06, 0.07, 0.08, 0.09, 0.1)
WATCH_ONLY = {"duration": 1200.0, "max_error_rate": 1.0, "max_cost": 1e9}
#: The seeds the notebook's check cell runs (the threshold is chosen on the first three), and
#: the threshold they give: a world never asks for these, and its answers are never these.
NOTEBOOK_SEEDS = (1, 2, 3, 4, 5, 6, 7)
NOTEBOOK_THRESHOLD = 0.03


# --------------------------------------------------------------------------- the reference ---


@lru_cache(maxsize=8192)
def windows(candidate: str, seed: int) -> tuple[tuple[int, float], ...]:
    """``(requests, error_rate)`` of every window a watch-only canary recorded. Its breaker
    never acts, so they are the same whatever its ``min_requests``: that only decides which of
    them the breaker could judge."""
    run = run_canary(CanaryConfig(candidate=candidate, **WATCH_ONLY), seed=seed)
    return tuple((s.requests, s.error_rate) for s in run.samples)


def judged_peak(candidate: str, seed: int, least: int) -> float:
    """The highest error rate of a watch-only canary whose ``min_requests`` is ``least``,
    among the windows its breaker could judge (0.0 if none)."""
    return max((rate for n, rate in windows(candidate, seed) if n >= least), default=0.0)


def peaks(candidate: str, seed: int) -> dict[str, float]:
    """The highest window error rate of a watch-only canary: over the windows the breaker could
    judge (``judged``, the reference), over those of more than ``min_requests`` requests
    (``strict``) and over every window (``every``)."""
    least = CanaryConfig().min_requests
    return {
        "judged": judged_peak(candidate, seed, least),
        "strict": judged_peak(candidate, seed, least + 1),
        "every": max((rate for _, rate in windows(candidate, seed)), default=0.0),
    }


def noise_peak(candidate: str, seed: int) -> float:
    """The highest error rate among the windows the breaker could judge (0.0 if none)."""
    return peaks(candidate, seed)["judged"]


def _at_least(peak: float) -> float:
    """The smallest of :data:`THRESHOLDS` at or above ``peak`` (1.0 above them all)."""
    return min((t for t in THRESHOLDS if t >= peak), default=1.0)


def choose_threshold(seeds: Any) -> float:
    """The smallest of :data:`THRESHOLDS` at or above the highest A/A peak over ``seeds``."""
    return _at_least(max(noise_peak("A", seed) for seed in seeds))


@lru_cache(maxsize=8192)
def trips(candidate: str, threshold: float, seed: int) -> int:
    """How many times the breaker at ``threshold`` trips on a canary of ``candidate``."""
    config = CanaryConfig(
        candidate=candidate, duration=WATCH_ONLY["duration"], max_error_rate=threshold
    )
    return len(run_canary(config, seed=seed).trips)


def trip_rate(candidate: str, threshold: float, seeds: Any) -> float:
    """The share of ``seeds`` on which the breaker at ``threshold`` trips at least once."""
    seeds = list(seeds)
    return sum(trips(candidate, threshold, s) > 0 for s in seeds) / len(seeds)


# --------------------------------------------------------------------------- the world ------

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
#: (worse candidate, threshold, a seed that trips more than once, a seed that never trips):
#: the share (one half) is not the one at the notebook's threshold, for candidate A, or on the
#: notebook's seeds.
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

#: Every seed a world may ask for: feedback never shows a number near one.
HIDDEN_SEEDS = frozenset(
    {*HEALTHY_SEEDS, *HIGH_SEEDS, *LOW_SEEDS, *EQUAL_SEEDS}
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
    #: (candidate, threshold, seeds) for ``trip_rate``: a worse version's share of one half
    #: with a seed that trips more than once, then the healthy one's at a low threshold (1).
    trip_cases: tuple[tuple[str, float, tuple[int, ...]], ...]
    #: (candidate, seed, min_requests) for ``noise_peak`` with a WATCH_ONLY of its own that
    #: sets ``min_requests``: ``healthy``'s run with another judged peak than at the default,
    #: then ``worse``'s with more than any of its windows holds (none judged: 0.0).
    watch: tuple[tuple[str, int, int], ...] = ()

    @property
    def seeds(self) -> frozenset[int]:
        """Every seed the world asks for (feedback never shows a number near one)."""
        return frozenset(
            {self.healthy[1], self.worse[1], *self.several, *self.equal}
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
        and _at_least((noise_peak("A", a) + noise_peak("A", high) + noise_peak("A", b)) / 3) < right
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
    return ThresholdWorld(
        healthy=shown,
        worse=worse,
        several=several,
        equal=(equal,),
        trip_cases=(
            (candidate, threshold, tuple(source.sample((tripping, calm), 2))),
            ("A", low, (healthy,)),
        ),
        watch=((*shown, least), (*worse, most + source.randint(1, 40))),
    )


def _pairs(source: random.Random, seeds: tuple[int, ...]) -> Any:
    """Every ordered pair of two of ``seeds``, in an order drawn from ``source``."""
    order = source.sample(seeds, len(seeds))
    return ((a, b) for a in order for b in order if a != b)


# --------------------------------------------------------------------------- the check ------


def choose_threshold_check(s: Student, t: Tally) -> None:
    """``noise_peak``, ``choose_threshold`` and ``trip_rate`` on the seeds of the world judged
    in (:func:`threshold_world`), each against the reference here; parts are filed under the
    criteria of :data:`THRESHOLD_RUBRIC`. Each learner's call runs once (a simulation in the
    sandbox); a core part and a detail part may judge the same answer."""
    world = threshold_world()
    peak = asked_once(s.function("noise_peak"))
    choose, rate = s.function("choose_threshold"), s.function("trip_rate")
    hidden = world.seeds
    t.under("above-the-peak")
    t.part(lambda: _peak_is_the_highest(peak, *world.healthy, hidden))
    t.part(lambda: _threshold_matches(choose, world.several, "threshold_several", hidden))
    t.part(lambda: _threshold_matches(choose, world.equal, "threshold_another", hidden))
    t.under("judged-windows")
    t.part(lambda: _peak_is_judged(peak, *world.healthy, hidden))
    t.part(lambda: _peak_is_judged(peak, *world.worse, hidden))
    for case in world.watch:
        t.part(lambda case=case: _peak_reads_the_run(s, *case, hidden))
    t.under("trip-rate")
    for case in world.trip_cases:
        t.part(lambda case=case: _rate_matches(rate, *case, hidden))


#: The sentences of the exercise text the criteria check (as they stand in its markdown).
_PEAK = (
    "`noise_peak(candidate, seed)`: run `run_canary(CanaryConfig(candidate=candidate, "
    "**WATCH_ONLY), seed=seed)` and return the highest `error_rate` among the samples the "
    "breaker could judge (`requests >= run.config.min_requests`); `0.0` if there is none."
)
_CHOOSE = (
    "`choose_threshold(seeds)`: the smallest threshold of `THRESHOLDS` that is at least the "
    'highest `noise_peak("A", seed)` over `seeds`: the lowest threshold that healthy canary '
    "(A/A: the candidate *is* production) never went above."
)
_JUDGED = (
    "Only samples with at least `run.config.min_requests` requests count: before that, the "
    "breaker cannot trip."
)
_RATE = (
    "`trip_rate(candidate, threshold, seeds)`: the share of `seeds` on which a canary of "
    "`candidate` with the breaker on (`CanaryConfig(candidate=candidate, "
    'duration=WATCH_ONLY["duration"], max_error_rate=threshold)`) trips at least once '
    "(`run.trips` is not empty)."
)

#: The rubric of ``choose-threshold``: the threshold at or above the highest healthy peak.
THRESHOLD_RUBRIC = (
    Criterion(
        "above-the-peak",
        3,
        "The threshold sits just above the noise: noise_peak is the highest error rate among a "
        "watch-only canary's windows, and choose_threshold is the smallest of THRESHOLDS at or "
        "above the highest noise_peak of the healthy candidate A over every seed given (a "
        "threshold equal to that peak is never crossed: the breaker trips only above it).",
        core=True,
        mistakes=(
            "the mean of the peaks (or of the windows) instead of the highest",
            "the first seed only (or fixed seeds), not every seed given",
            "the largest threshold, or one typed in",
            "a threshold below the peak (the nearest one, or the largest one below)",
            "the peak rounded (to two or three decimals) before choosing",
            "a threshold strictly above a peak that is exactly a threshold (> instead of >=)",
            "the notebook's seeds (1, 2, 3) in place of the seeds given",
        ),
        text=(_PEAK, _CHOOSE),
        world=(
            "Drawn at grading time: the healthy seed noise_peak is asked for and the seed lists "
            "choose_threshold is given (never the notebook's), whose right threshold is neither "
            "the notebook's 0.03 nor what the mean, the first seed, the nearest or the largest "
            "threshold, the peak rounded to two or three decimals, or > instead of >= would give."
        ),
    ),
    Criterion(
        "judged-windows",
        1,
        "noise_peak counts only the windows the breaker could judge (requests >= "
        "run.config.min_requests, whatever WATCH_ONLY sets it to), for the candidate it is "
        "given, and gives 0.0 when there is none.",
        mistakes=(
            "every window, its first few requests too",
            "requests > min_requests",
            "always candidate A",
            "40 (the default min_requests) typed in instead of run.config.min_requests",
            "every window when none could be judged, instead of 0.0",
        ),
        text=(
            _PEAK,
            _JUDGED,
            "Read `WATCH_ONLY` at each call: the grader also calls it with other settings there.",
        ),
        world=(
            "Drawn at grading time: a healthy seed and a worse candidate (B or C) with a seed, "
            "each with small windows above its judged peak, the worse one's peak not A's; and, "
            "for one call each, a WATCH_ONLY that also sets min_requests: for the healthy seed "
            "one that gives another peak than 40 does, for the worse one more than any of its "
            "windows holds (none judged)."
        ),
    ),
    Criterion(
        "trip-rate",
        2,
        "trip_rate is the share of the seeds on which a canary of the candidate, with the "
        "breaker on at that threshold, trips at least once.",
        mistakes=(
            "counts trips rather than the seeds that tripped",
            "the watch-only canary, whose breaker never acts",
            "a fixed threshold, candidate or seeds instead of the ones given",
        ),
        text=(_RATE,),
        world=(
            "Drawn at grading time: a worse candidate at a threshold with two seeds (a share "
            "between 0 and 1, a seed that trips twice) and the healthy one at a low threshold "
            "(tripping), each share another than the notebook's threshold, candidate A or the "
            "notebook's seeds would give."
        ),
    ),
)


def _shown(value: Any, hidden: frozenset[int]) -> Message | str:
    """The learner's value, never a hidden seed handed back, nor a number near one (see
    :func:`shown_number`)."""
    return shown_number(value, hidden)


def _peak_is_the_highest(peak: Any, candidate: str, seed: int, hidden: frozenset[int]) -> None:
    """The learner's peak is the highest window of the run, judged windows or not (leaving out
    the small windows is the detail :func:`_peak_is_judged` checks)."""
    answer = peak(candidate, seed)
    require(
        any(close_to(answer, v) for v in peaks(candidate, seed).values()),
        say("peak_not_highest", candidate=repr(candidate), got=_shown(answer, hidden)),
    )


def _peak_is_judged(peak: Any, candidate: str, seed: int, hidden: frozenset[int]) -> None:
    answer = peak(candidate, seed)
    require(
        close_to(answer, noise_peak(candidate, seed)),
        say("peak_not_judged", candidate=repr(candidate), got=_shown(answer, hidden)),
    )


def _peak_reads_the_run(
    s: Student, candidate: str, seed: int, least: int, hidden: frozenset[int]
) -> None:
    """``noise_peak`` with the notebook's ``WATCH_ONLY`` setting ``min_requests`` to ``least``
    for that call: the windows judged are those of ``run.config.min_requests``, not the
    default's (and none may be: then 0.0)."""
    watch = {**WATCH_ONLY, "min_requests": least}
    answer = s.kit("with-names", "noise_peak", {"WATCH_ONLY": watch}).call(candidate, seed)
    if close_to(answer, judged_peak(candidate, seed, least)):
        return
    # The usual settings' peak (a value remembered from another call): said so, never shown.
    if close_to(answer, noise_peak(candidate, seed)):
        raise Fail(say("peak_usual_watch", candidate=repr(candidate)))
    raise Fail(
        say("peak_own_watch", candidate=repr(candidate), got=_shown(answer, hidden | {least}))
    )


def _threshold_matches(
    choose: Any, seeds: tuple[int, ...], which: str, hidden: frozenset[int]
) -> None:
    """``which``: the key of the sentence that names the seeds (several, or another one)."""
    answer = choose(list(seeds))
    require(close_to(answer, choose_threshold(seeds)), say(which, got=_shown(answer, hidden)))


def _rate_matches(
    rate: Any, candidate: str, threshold: float, seeds: tuple[int, ...], hidden: frozenset[int]
) -> None:
    answer = rate(candidate, threshold, list(seeds))
    require(
        close_to(answer, trip_rate(candidate, threshold, seeds)),
        say(
            "rate",
            candidate=repr(candidate),
            threshold=f"{threshold:g}",
            got=_shown(answer, hidden),
        ),
    )
