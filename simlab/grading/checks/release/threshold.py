"""Question ``choose-threshold``: ``noise_peak``, ``choose_threshold`` and ``trip_rate`` against
the reference computed here, on seeds the learner has not seen.

The core idea is a threshold just above the noise: the smallest of :data:`THRESHOLDS` at or
above the highest error rate a healthy canary (A/A) reached on every seed given. The seeds of
the core's parts are chosen so that its classic mistakes each give another threshold (the mean
of the peaks, the first seed's, the largest threshold, one below the peak, one strictly above a
peak that is exactly a threshold), and so that their windows of fewer than ``min_requests``
requests never reach the peak: a ``noise_peak`` that forgets to leave them out loses only its
own detail (:data:`THRESHOLD_RUBRIC`).

Feedback shows the learner's own numbers (a value that is not one is named by its type, so an
answer cannot echo a hidden input back), never a seed or the reference's values. The reference
values are cached, so a class of notebooks pays for them once.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from simlab.grading.checks.release.messages import say
from simlab.grading.questions import Criterion, Tally, require
from simlab.grading.sandbox.supervisor import SandboxLost
from simlab.grading.student import Student, close_to, shown_number
from simlab.release.canary import CanaryConfig
from simlab.sim.canary import run_canary

__all__ = [
    "THRESHOLDS",
    "WATCH_ONLY",
    "NOISE_CASES",
    "THRESHOLD_SEEDS",
    "TRIP_CASES",
    "HIDDEN_SEEDS",
    "THRESHOLD_RUBRIC",
    "peaks",
    "noise_peak",
    "choose_threshold",
    "trip_rate",
    "choose_threshold_check",
]

#: The notebook's constants: the thresholds to choose from, and a canary whose breaker records
#: every window and never acts.
THRESHOLDS = (0.01, 0.015, 0.02, 0.025, 0.03, 0.035, 0.04, 0.045, 0.05, 0.06, 0.07, 0.08, 0.09, 0.1)
WATCH_ONLY = {"duration": 1200.0, "max_error_rate": 1.0, "max_cost": 1e9}

#: ``noise_peak`` is asked for these (candidate, seed): runs whose windows of fewer than
#: ``min_requests`` requests (and of exactly that many) reach higher than the judged ones.
NOISE_CASES = (("A", 9), ("C", 12))
#: ``choose_threshold`` is asked for these seed lists: the highest peak of the first is in the
#: middle and lies just above a threshold; the peak of the second is exactly a threshold. No
#: window of fewer than ``min_requests`` requests of these runs reaches their peak.
THRESHOLD_SEEDS = ((13, 46, 40), (139,))
#: ``trip_rate`` is asked for these (candidate, threshold, seeds): a seed of each trips more
#: than once, and one of the worse version's never trips.
TRIP_CASES = (("C", 0.05, (21, 23)), ("A", 0.02, (25,)))
#: Every seed above: an answer equal to one is named by its type, never shown.
HIDDEN_SEEDS = frozenset(
    {s for _, s in NOISE_CASES}
    | {s for seeds in THRESHOLD_SEEDS for s in seeds}
    | {s for *_, seeds in TRIP_CASES for s in seeds}
)


# --------------------------------------------------------------------------- the reference ---


@cache
def peaks(candidate: str, seed: int) -> dict[str, float]:
    """The highest window error rate of a watch-only canary: over the windows the breaker could
    judge (``judged``, the reference), over those of more than ``min_requests`` requests
    (``strict``) and over every window (``every``)."""
    run = run_canary(CanaryConfig(candidate=candidate, **WATCH_ONLY), seed=seed)
    least = run.config.min_requests
    return {
        "judged": max((s.error_rate for s in run.samples if s.requests >= least), default=0.0),
        "strict": max((s.error_rate for s in run.samples if s.requests > least), default=0.0),
        "every": max((s.error_rate for s in run.samples), default=0.0),
    }


def noise_peak(candidate: str, seed: int) -> float:
    """The highest error rate among the windows the breaker could judge (0.0 if none)."""
    return peaks(candidate, seed)["judged"]


def choose_threshold(seeds: Any) -> float:
    """The smallest of :data:`THRESHOLDS` at or above the highest A/A peak over ``seeds``."""
    peak = max(noise_peak("A", seed) for seed in seeds)
    return min(t for t in THRESHOLDS if t >= peak)


@cache
def _trips(candidate: str, threshold: float, seed: int) -> bool:
    config = CanaryConfig(
        candidate=candidate, duration=WATCH_ONLY["duration"], max_error_rate=threshold
    )
    return bool(run_canary(config, seed=seed).trips)


def trip_rate(candidate: str, threshold: float, seeds: Any) -> float:
    """The share of ``seeds`` on which the breaker at ``threshold`` trips at least once."""
    seeds = list(seeds)
    return sum(_trips(candidate, threshold, s) for s in seeds) / len(seeds)


# --------------------------------------------------------------------------- the check ------


def choose_threshold_check(s: Student, t: Tally) -> None:
    """``noise_peak`` on :data:`NOISE_CASES`, ``choose_threshold`` on :data:`THRESHOLD_SEEDS`,
    ``trip_rate`` on :data:`TRIP_CASES`, each against the reference here; parts are filed under
    the criteria of :data:`THRESHOLD_RUBRIC`. Each learner's call runs once (a simulation in
    the sandbox); a core part and a detail part may judge the same answer."""
    peak = _once(s.function("noise_peak"))
    choose, rate = s.function("choose_threshold"), s.function("trip_rate")
    healthy, worse = NOISE_CASES
    t.under("above-the-peak")
    t.part(lambda: _peak_is_the_highest(peak, *healthy))
    t.part(lambda: _threshold_matches(choose, THRESHOLD_SEEDS[0], "threshold_several"))
    t.part(lambda: _threshold_matches(choose, THRESHOLD_SEEDS[1], "threshold_another"))
    t.under("judged-windows")
    t.part(lambda: _peak_is_judged(peak, *healthy))
    t.part(lambda: _peak_is_judged(peak, *worse))
    t.under("trip-rate")
    for case in TRIP_CASES:
        t.part(lambda case=case: _rate_matches(rate, *case))


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
            "a threshold strictly above a peak that is exactly a threshold (> instead of >=)",
        ),
    ),
    Criterion(
        "judged-windows",
        1,
        "noise_peak counts only the windows the breaker could judge (requests >= min_requests), "
        "for the candidate it is given.",
        mistakes=(
            "every window, its first few requests too",
            "requests > min_requests",
            "always candidate A",
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
        ),
    ),
)


def _once(fn: Any) -> Any:
    """``fn`` whose answer (or error) for the same arguments is computed once."""
    answers: dict[tuple, tuple[bool, Any]] = {}

    def call(*args: Any) -> Any:
        if args not in answers:
            try:
                answers[args] = (True, fn(*args))
            except SandboxLost:
                raise
            except Exception as exc:  # the learner's error, raised again for each part
                answers[args] = (False, exc)
        ok, value = answers[args]
        if not ok:
            raise value
        return value

    return call


def _shown(value: Any) -> str:
    """The learner's value, never a hidden seed handed back, nor a number near one (see
    :func:`shown_number`)."""
    return shown_number(value, HIDDEN_SEEDS)


def _peak_is_the_highest(peak: Any, candidate: str, seed: int) -> None:
    """The learner's peak is the highest window of the run, judged windows or not (leaving out
    the small windows is the detail :func:`_peak_is_judged` checks)."""
    answer = peak(candidate, seed)
    require(
        any(close_to(answer, v) for v in peaks(candidate, seed).values()),
        say("peak_not_highest", candidate=repr(candidate), got=_shown(answer)),
    )


def _peak_is_judged(peak: Any, candidate: str, seed: int) -> None:
    answer = peak(candidate, seed)
    require(
        close_to(answer, noise_peak(candidate, seed)),
        say("peak_not_judged", candidate=repr(candidate), got=_shown(answer)),
    )


def _threshold_matches(choose: Any, seeds: tuple[int, ...], which: str) -> None:
    """``which``: the key of the sentence that names the seeds (several, or another one)."""
    answer = choose(list(seeds))
    require(close_to(answer, choose_threshold(seeds)), say(which, got=_shown(answer)))


def _rate_matches(rate: Any, candidate: str, threshold: float, seeds: tuple[int, ...]) -> None:
    answer = rate(candidate, threshold, list(seeds))
    require(
        close_to(answer, trip_rate(candidate, threshold, seeds)),
        say("rate", candidate=repr(candidate), threshold=f"{threshold:g}", got=_shown(answer)),
    )
