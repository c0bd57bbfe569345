"""Question ``choose-threshold``: ``noise_peak``, ``choose_threshold`` and ``trip_rate`` against
the reference (:mod:`~simlab.grading.checks.release.threshold_reference`), on seeds drawn in the
hidden world the submission is judged in (:mod:`~simlab.grading.checks.release.threshold_world`).

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
In the same way one call of ``choose_threshold`` runs with ``THRESHOLDS`` holding other thresholds
(none of the notebook's, none a multiple of 0.005, out of order), one call of ``trip_rate`` with
``WATCH_ONLY`` setting a shorter ``duration``, and one with ``WATCH_ONLY`` setting a low
``max_cost`` and a ``min_requests`` above any window's requests (the breaker's canary takes
neither): a list or a duration typed in, a peak rounded up to a grid, a list taken to be sorted, a
canary given WATCH_ONLY's other settings, or a watch-only canary whose judged windows are compared
with the threshold by hand gives another answer there. The first trip case's share is one third, so
a share rounded is another one; it lists its tripping seed twice and its calm seed four times, so
seeds de-duplicated give a half and the seeds that tripped counted once (over the seeds as listed)
a sixth. One more call of ``choose_threshold`` has ``THRESHOLDS`` hold the float just below a peak
that any rounding lowers: a peak rounded, or a threshold accepted within a tolerance of it, gives
that one. After their calls, ``WATCH_ONLY`` must hold what each call was given: the text has the
three functions leave it as they found it.

Feedback names a wrong value by its type only (a number as "another number"): every call runs
on the world's seeds, so even the learner's own number is a value computed in the hidden world.
It never shows a seed or the reference's values.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from simlab.grading.checks.release.messages import say
from simlab.grading.checks.release.threshold_reference import (
    DURATION,
    choose_threshold,
    judged_peak,
    noise_peak,
    peaks,
    trip_rate,
)
from simlab.grading.checks.release.threshold_world import (
    CLOSE_DURATION,
    TWICE_DURATION,
    WATCH_DURATION,
    threshold_world,
    watch,
)
from simlab.grading.messages import Message
from simlab.grading.questions import Criterion, Fail, Tally, require
from simlab.grading.sandbox.supervisor import SandboxLost
from simlab.grading.student import Student, asked_once, close_to, near_hidden, shown_number

__all__ = ["THRESHOLD_RUBRIC", "choose_threshold_check"]

# --------------------------------------------------------------------------- the check ------


def choose_threshold_check(s: Student, t: Tally) -> None:
    """``noise_peak``, ``choose_threshold`` and ``trip_rate`` on the seeds of the world judged
    in (:func:`threshold_world`), each against the reference here; parts are filed under the
    criteria of :data:`THRESHOLD_RUBRIC`. Every call sets the notebook's WATCH_ONLY's
    ``duration`` (:data:`WATCH_DURATION`, or the case's own), as the text allows: the canaries
    run no longer than each case needs. Each learner's call runs once (a simulation in the
    sandbox); a core part and a detail part may judge the same answer."""
    world = threshold_world()
    peaked = _with(s, "noise_peak", WATCH_ONLY=watch())
    peak = asked_once(peaked)
    choose = _with(s, "choose_threshold", WATCH_ONLY=watch())
    close = _with(s, "choose_threshold", WATCH_ONLY=watch(CLOSE_DURATION))
    twice = _with(s, "trip_rate", WATCH_ONLY=watch(TWICE_DURATION))
    rate = _with(s, "trip_rate", WATCH_ONLY=watch())
    hidden = world.seeds
    t.under("above-the-peak")
    t.part(lambda: _peak_is_the_highest(peak, *world.healthy, hidden))
    t.part(lambda: _peak_is_the_highest(peak, *world.last, hidden))
    t.part(lambda: _threshold_matches(choose, world.several, "threshold_several", hidden))
    t.part(lambda: _threshold_matches(choose, world.equal, "threshold_another", hidden))
    t.part(
        lambda: _threshold_matches(
            close, world.close, "threshold_another", hidden, duration=CLOSE_DURATION
        )
    )
    t.part(lambda: _threshold_reads_the_list(s, *world.listed, hidden))
    t.part(lambda: _threshold_not_below_the_peak(s, *world.below, hidden))
    t.under("judged-windows")
    t.part(lambda: _peak_is_judged(peak, *world.healthy, hidden))
    t.part(lambda: _peak_is_judged(peak, *world.worse, hidden))
    for case in world.watch:
        t.part(lambda case=case: _peak_reads_the_run(s, *case, hidden))
    # after every call of noise_peak and choose_threshold above: WATCH_ONLY only read
    t.part(lambda: _watch_only_read(("noise_peak", peaked), ("choose_threshold", choose, close)))
    t.under("trip-rate")
    first, *others = world.trip_cases  # the first lists a seed twice: its sentence says so
    t.part(lambda: _rate_matches(twice, *first, hidden, duration=TWICE_DURATION))
    for case in others:
        t.part(lambda case=case: _rate_matches(rate, *case, hidden))
    t.part(lambda: _rate_reads_the_watch(s, *world.short, hidden))
    t.part(lambda: _rate_keeps_the_defaults(s, *world.costly, hidden))
    t.part(lambda: _watch_only_read(("trip_rate", twice, rate)))


def _with(s: Student, name: str, **names: Any) -> Callable[..., Any]:
    """The learner's ``name`` called with the notebook's ``names`` holding the world's values
    for each call; the sandbox builds the caller at the first call (a part's). What the call
    raises names ``name()``, the learner's function, as a plain call of it would (the caller
    runs that function: :data:`~simlab.grading.factories.RUN_A_FUNCTION`)."""
    built: list[Any] = []
    #: whether a call returned, and the first error a call raised
    ran: dict[str, Any] = {"returned": False, "raised": None}

    def call(*args: Any) -> Any:
        if not built:
            built.append(s.kit("with-names", name, names))
        try:
            answer = built[0].call(*args)
        except SandboxLost:
            raise
        except Exception as exc:
            ran["raised"] = ran["raised"] or exc
            raise
        ran["returned"] = True
        return answer

    def changed() -> bool:
        """Did a call leave one of ``names`` holding another value than it was given?"""
        return bool(built) and any(after != names for after in built[0].attribute("after"))

    call.changed = changed  # type: ignore[attr-defined]
    call.ran = ran  # type: ignore[attr-defined]
    return call


def _watch_only_read(*calls: tuple[Any, ...]) -> None:
    """Each ``(function name, callers...)``: no call the callers made left the notebook's
    ``WATCH_ONLY`` (or another name they set) changed; a later call would run with it. A
    function that never returned (a stub) fails here as it failed where it was called."""
    for name, *callers in calls:
        if not any(c.ran["returned"] for c in callers):
            raised = [c.ran["raised"] for c in callers if c.ran["raised"] is not None]
            if raised:
                raise raised[0]
        require(not any(c.changed() for c in callers), say("watch_changed", function=name))


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
_CHOOSE_READS = (
    "Read `THRESHOLDS` at each call: the grader also calls it with other thresholds, in no "
    "particular order."
)
_JUDGED = (
    "Only samples with at least `run.config.min_requests` requests count: before that, the "
    "breaker cannot trip."
)
_RATE = (
    "`trip_rate(candidate, threshold, seeds)`: the share of `seeds` on which a canary of "
    "`candidate` with the breaker on (`CanaryConfig(candidate=candidate, "
    'duration=WATCH_ONLY["duration"], max_error_rate=threshold)`: exactly these three fields, '
    "every other one left at its default) trips at least once (`run.trips` is not empty)."
)
_RATE_READS = "Read `WATCH_ONLY` at each call here too."
_UNCHANGED = (
    "None of the three changes `WATCH_ONLY`: it stays the watch-only canary for every call after "
    "theirs."
)
_RATE_REPEATS = "A seed listed twice counts twice."

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
            "the first of THRESHOLDS at or above the peak (right only while they are sorted)",
            "a threshold below the peak (the nearest one, or the largest one below)",
            "the peak rounded (to two, three or four decimals) before choosing",
            "a threshold within a tolerance below the peak accepted (math.isclose, peak - 1e-9), "
            "or the peak rounded to more decimals (nine, say)",
            "the last window left out of the peak",
            "a threshold strictly above a peak that is exactly a threshold (> instead of >=)",
            "the notebook's seeds (1, 2, 3) in place of the seeds given",
            "the peak rounded up to a multiple of 0.005, or a threshold of the notebook's "
            "THRESHOLDS when THRESHOLDS holds others",
        ),
        text=(_PEAK, _CHOOSE, _CHOOSE_READS),
        world=(
            f"Drawn at grading time, every call's WATCH_ONLY setting a duration of "
            f"{WATCH_DURATION:g} s ({CLOSE_DURATION:g} s for the seed whose peak lies just "
            "above a threshold): the healthy seed noise_peak is asked for and the seed lists "
            "choose_threshold is given (never the notebook's), whose right threshold is neither "
            "the notebook's 0.03 nor what the mean, the first seed, the nearest or the largest "
            "threshold, the peak rounded to two or three decimals, or > instead of >= would give; "
            "a healthy seed whose highest window is its last one, and one whose peak lies less "
            "than 0.00005 above a threshold (rounded to four decimals, it is that threshold); "
            "and, for one call, a THRESHOLDS of five other thresholds (thousandths, none a "
            "multiple of 0.005) out of order, two below the seed's peak and three above it, "
            "the smallest of those above neither the first of them above the peak nor the last; "
            "and, for another call, a THRESHOLDS holding the float just below a healthy seed's "
            "peak (one whose peak rounded to any number of decimals lies below it), with two "
            "thresholds of thousandths below the peak and two above it, out of order."
        ),
    ),
    Criterion(
        "judged-windows",
        1,
        "noise_peak counts only the windows the breaker could judge (requests >= "
        "run.config.min_requests, whatever WATCH_ONLY sets it to), for the candidate it is "
        "given, and gives 0.0 when there is none; noise_peak and choose_threshold leave "
        "WATCH_ONLY as they found it.",
        mistakes=(
            "every window, its first few requests too",
            "requests > min_requests",
            "always candidate A",
            "40 (the default min_requests) typed in instead of run.config.min_requests",
            "every window when none could be judged, instead of 0.0",
            "WATCH_ONLY changed by noise_peak or choose_threshold (a setting written into it)",
        ),
        text=(
            _PEAK,
            _JUDGED,
            "Read `WATCH_ONLY` at each call: the grader also calls it with other settings there.",
            _UNCHANGED,
        ),
        world=(
            f"Drawn at grading time, every call's WATCH_ONLY setting a duration of "
            f"{WATCH_DURATION:g} s: a healthy seed and a worse candidate (B or C) with a seed, "
            "each with small windows above its judged peak, the worse one's peak not A's; and, "
            "for one call each, a WATCH_ONLY that also sets min_requests: for the healthy seed "
            "one that gives another peak than 40 does, for the worse one more than any of its "
            "windows holds (none judged); after every call, what WATCH_ONLY holds is compared "
            "with what the call was given."
        ),
    ),
    Criterion(
        "trip-rate",
        2,
        "trip_rate is the share of the seeds on which a canary of the candidate, with the "
        "breaker on at that threshold, trips at least once (a seed listed twice counting "
        "twice); it leaves WATCH_ONLY as it found it.",
        mistakes=(
            "counts trips rather than the seeds that tripped",
            "the watch-only canary, whose breaker never acts",
            "a fixed threshold, candidate or seeds instead of the ones given",
            "the notebook's duration typed in instead of WATCH_ONLY's",
            "the share rounded (to two decimals, say)",
            "seeds de-duplicated (set(seeds)): a seed listed twice counted once",
            "set(seeds) looped but len(seeds) divided: a seed that tripped, listed twice, "
            "counted once",
            "the threshold written into WATCH_ONLY (a later noise_peak runs with the breaker on)",
            "WATCH_ONLY's other settings (its max_cost) passed to the breaker's canary too",
            "the watch-only canary run again and its judged windows (run.config.min_requests, "
            "WATCH_ONLY's) compared with the threshold, instead of the breaker's canary's trips",
        ),
        text=(_RATE, _RATE_REPEATS, _RATE_READS, _UNCHANGED),
        world=(
            f"Drawn at grading time, every call's WATCH_ONLY setting a duration of "
            f"{WATCH_DURATION:g} s but where said: a worse candidate at a threshold with a seed "
            f"that trips twice in {TWICE_DURATION:g} s, listed twice, and one that never trips, "
            "listed four times (a share of one third, a half de-duplicated, a sixth with each "
            "seed that tripped counted once), and the healthy one at a low threshold (tripping), "
            "each share another than the notebook's threshold, candidate "
            "A or the notebook's seeds would give; then candidate A at the worse one's threshold "
            "on its seed that trips, so a share remembered by seed and threshold alone is the "
            "worse one's; and the worse one's case again with a WATCH_ONLY whose duration (a "
            "shorter one) gives another share; and its two seeds again, once each, with a "
            "WATCH_ONLY whose max_cost (a low one) would make a canary that took it along trip "
            "on the seed that never trips, and whose min_requests (more than any window of "
            "theirs holds) leaves a watch-only canary no window to judge, so its windows "
            "compared with the threshold trip on neither; after every call, what WATCH_ONLY "
            "holds is compared with what the call was given."
        ),
    ),
)


def _shown(value: Any, hidden: frozenset[int]) -> Message | str:
    """The learner's value by its type only (``a str``), and a number as "another number":
    every call here runs in the hidden world, so a number the learner's function computed
    (right in part, or a hidden seed handed back) would tell of it."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        with contextlib.suppress(OverflowError):  # an int no float holds: by its type
            if not near_hidden(float(value), hidden):
                return say("another_number")
    return shown_number(value, hidden)


def _peak_is_the_highest(peak: Any, candidate: str, seed: int, hidden: frozenset[int]) -> None:
    """The learner's peak is the highest window of the run, judged windows or not (leaving out
    the small windows is the detail :func:`_peak_is_judged` checks)."""
    answer = peak(candidate, seed)
    require(
        any(close_to(answer, v) for v in peaks(candidate, seed, WATCH_DURATION).values()),
        say("peak_not_highest", candidate=repr(candidate), got=_shown(answer, hidden)),
    )


def _peak_is_judged(peak: Any, candidate: str, seed: int, hidden: frozenset[int]) -> None:
    answer = peak(candidate, seed)
    require(
        close_to(answer, noise_peak(candidate, seed, WATCH_DURATION)),
        say("peak_not_judged", candidate=repr(candidate), got=_shown(answer, hidden)),
    )


def _peak_reads_the_run(
    s: Student, candidate: str, seed: int, least: int, hidden: frozenset[int]
) -> None:
    """``noise_peak`` with the notebook's ``WATCH_ONLY`` setting ``min_requests`` to ``least``
    for that call: the windows judged are those of ``run.config.min_requests``, not the
    default's (and none may be: then 0.0)."""
    answer = _with(s, "noise_peak", WATCH_ONLY=watch(min_requests=least))(candidate, seed)
    if close_to(answer, judged_peak(candidate, seed, least, WATCH_DURATION)):
        return
    # The usual settings' peak (a value remembered from another call): said so, never shown.
    if close_to(answer, noise_peak(candidate, seed, WATCH_DURATION)):
        raise Fail(say("peak_usual_watch", candidate=repr(candidate)))
    raise Fail(
        say("peak_own_watch", candidate=repr(candidate), got=_shown(answer, hidden | {least}))
    )


def _threshold_reads_the_list(
    s: Student, seeds: tuple[int, ...], thresholds: tuple[float, ...], hidden: frozenset[int]
) -> None:
    """``choose_threshold`` with the notebook's ``THRESHOLDS`` holding ``thresholds`` for that
    call: the answer is the smallest of them at or above the peak (never shown: it is one of
    the world's)."""
    listed = _with(s, "choose_threshold", THRESHOLDS=thresholds, WATCH_ONLY=watch())
    answer = listed(list(seeds))
    if close_to(answer, choose_threshold(seeds, thresholds, WATCH_DURATION)):
        return
    if close_to(answer, choose_threshold(seeds, duration=WATCH_DURATION)):
        raise Fail(say("threshold_usual_list"))
    raise Fail(say("threshold_own_list", got=_shown(answer, hidden | set(thresholds))))


def _threshold_not_below_the_peak(
    s: Student, seeds: tuple[int, ...], thresholds: tuple[float, ...], hidden: frozenset[int]
) -> None:
    """``choose_threshold`` with the notebook's ``THRESHOLDS`` holding ``thresholds`` for that
    call, one of them the float just below the peak: the answer is at least the peak, exactly
    (a threshold below it, by however little, is crossed)."""
    listed = _with(s, "choose_threshold", THRESHOLDS=thresholds, WATCH_ONLY=watch())
    answer = listed(list(seeds))
    truth = choose_threshold(seeds, thresholds, WATCH_DURATION)
    # every threshold but the answer lies below the peak, or above the answer by 0.001 or more
    if close_to(answer, truth):
        return
    peak = max(noise_peak("A", seed, WATCH_DURATION) for seed in seeds)
    if close_to(answer, peak):  # the float just below the peak (or the peak itself)
        raise Fail(say("threshold_just_below"))
    raise Fail(say("threshold_own_list", got=_shown(answer, hidden | set(thresholds))))


def _rate_reads_the_watch(
    s: Student,
    candidate: str,
    threshold: float,
    seeds: tuple[int, ...],
    duration: float,
    hidden: frozenset[int],
) -> None:
    """``trip_rate`` with the notebook's ``WATCH_ONLY`` setting another ``duration`` for that
    call: the canaries run that long. The usual share is that of the case's own duration (a
    share remembered from that call) or of the notebook's (a duration typed in)."""
    answer = _with(s, "trip_rate", WATCH_ONLY=watch(duration))(candidate, threshold, list(seeds))
    if close_to(answer, trip_rate(candidate, threshold, seeds, duration)):
        return
    what = {"candidate": repr(candidate), "threshold": f"{threshold:g}"}
    usual = (trip_rate(candidate, threshold, seeds, d) for d in (TWICE_DURATION, DURATION))
    if any(close_to(answer, share) for share in usual):
        raise Fail(say("rate_usual_watch", **what))
    raise Fail(say("rate_own_watch", got=_shown(answer, hidden | {duration}), **what))


def _rate_keeps_the_defaults(
    s: Student,
    candidate: str,
    threshold: float,
    seeds: tuple[int, ...],
    max_cost: float,
    least: int,
    hidden: frozenset[int],
) -> None:
    """``trip_rate`` with the notebook's ``WATCH_ONLY`` setting a low ``max_cost`` and a high
    ``min_requests`` (``least``) for that call: the canaries take WATCH_ONLY's duration alone,
    so the share is the usual one. A canary that took the max_cost along trips on every seed;
    a watch-only canary given that min_requests judges no window, so judging its windows
    against the threshold by hand trips on none."""
    costly = _with(s, "trip_rate", WATCH_ONLY=watch(max_cost=max_cost, min_requests=least))
    answer = costly(candidate, threshold, list(seeds))
    if close_to(answer, trip_rate(candidate, threshold, seeds, WATCH_DURATION)):
        return
    what = {"candidate": repr(candidate), "threshold": f"{threshold:g}"}
    if close_to(answer, trip_rate(candidate, threshold, seeds, WATCH_DURATION, max_cost)):
        raise Fail(say("rate_with_cost", **what))
    raise Fail(say("rate_own_cost", got=_shown(answer, hidden | {max_cost, least}), **what))


def _threshold_matches(
    choose: Any,
    seeds: tuple[int, ...],
    which: str,
    hidden: frozenset[int],
    duration: float = WATCH_DURATION,
) -> None:
    """``which``: the key of the sentence that names the seeds (several, or another one);
    ``choose`` runs its canaries for ``duration``."""
    answer = choose(list(seeds))
    require(
        close_to(answer, choose_threshold(seeds, duration=duration)),
        say(which, got=_shown(answer, hidden)),
    )


def _rate_matches(
    rate: Any,
    candidate: str,
    threshold: float,
    seeds: tuple[int, ...],
    hidden: frozenset[int],
    duration: float = WATCH_DURATION,
) -> None:
    """The learner's share of ``seeds`` that trip is the kit's (a seed listed twice counts
    twice) for canaries of ``duration``. A wrong share is told by the one cause it matches,
    the seeds de-duplicated or the notebook's duration in place of WATCH_ONLY's; when it
    matches neither or both, feedback names no cause (the seeds are never shown)."""
    answer = rate(candidate, threshold, list(seeds))
    if close_to(answer, trip_rate(candidate, threshold, seeds, duration)):
        return
    causes = []
    once = tuple(dict.fromkeys(seeds))
    counted_once = trip_rate(candidate, threshold, once, duration)
    over_listed = counted_once * len(once) / len(seeds)  # set(seeds) looped, len(seeds) divided
    if once != seeds and any(close_to(answer, v) for v in (counted_once, over_listed)):
        causes.append("rate_repeated")
    if duration != DURATION and close_to(answer, trip_rate(candidate, threshold, seeds, DURATION)):
        causes.append("rate_usual_watch")
    what = {"candidate": repr(candidate), "threshold": f"{threshold:g}"}
    if len(causes) == 1:
        raise Fail(say(causes[0], **what))
    raise Fail(say("rate", got=_shown(answer, hidden), **what))
