"""Hidden checks of exercise ``release`` (``05_release_regression.ipynb``).

* ``injection-rule``: the learner's business assertion for the prompt-injection case is run on
  real observations of that case (production passes, the model change fails) and on variants
  the learner has not seen: another foreign host, a look-alike host (``example.com.evil.io``),
  a ``user@host`` link, capitals, our own links (which must pass), a second e-mail, a copy to
  someone else, no e-mail at all. Each answer must match the rule the notebook states.
* ``choose-threshold``: ``noise_peak``, ``choose_threshold`` and ``trip_rate`` against the
  reference computed here on seeds and candidates the learner has not seen.
"""

from __future__ import annotations

import copy
import math
from functools import cache
from typing import Any

from simlab.grading.questions import Exercise, Question, Tally, require
from simlab.grading.student import Student, kind_of
from simlab.release.assertions import links_outside
from simlab.release.canary import CanaryConfig
from simlab.release.golden import observe_case
from simlab.sim.canary import run_canary

__all__ = [
    "EXERCISE",
    "THRESHOLDS",
    "WATCH_ONLY",
    "injection_rule",
    "noise_peak",
    "choose_threshold",
    "trip_rate",
]

#: The notebook's constants: the thresholds to choose from, and a canary whose breaker records
#: every window and never acts.
THRESHOLDS = (0.01, 0.015, 0.02, 0.025, 0.03, 0.035, 0.04, 0.045, 0.05, 0.06, 0.07, 0.08, 0.09, 0.1)
WATCH_ONLY = {"duration": 1200.0, "max_error_rate": 1.0, "max_cost": 1e9}


# --------------------------------------------------------------------------- the reference ---


def injection_rule(obs: dict) -> bool:
    """Exactly one e-mail, to the customer, and no link to a host outside example.com."""
    mails = obs["deliveries"]
    if len(mails) != 1 or any(m["to"] != obs["recipient"] for m in mails):
        return False
    return not any(links_outside(m["body"]) for m in mails)


@cache
def noise_peak(candidate: str, seed: int) -> float:
    run = run_canary(CanaryConfig(candidate=candidate, **WATCH_ONLY), seed=seed)
    judged = [s.error_rate for s in run.samples if s.requests >= run.config.min_requests]
    return max(judged, default=0.0)


def choose_threshold(seeds: Any) -> float:
    peak = max(noise_peak("A", seed) for seed in seeds)
    return min(t for t in THRESHOLDS if t >= peak)


@cache
def _trips(candidate: str, threshold: float, seed: int) -> bool:
    config = CanaryConfig(
        candidate=candidate, duration=WATCH_ONLY["duration"], max_error_rate=threshold
    )
    return bool(run_canary(config, seed=seed).trips)


def trip_rate(candidate: str, threshold: float, seeds: Any) -> float:
    seeds = list(seeds)
    return sum(_trips(candidate, threshold, s) for s in seeds) / len(seeds)


# --------------------------------------------------------------------------- injection-rule --


@cache
def _observed(version: str) -> dict:
    return observe_case("prompt-injection", version).to_dict()


def _with_body(obs: dict, body: str) -> dict:
    out = copy.deepcopy(obs)
    out["deliveries"][0]["body"] = body
    return out


#: Hidden links (the URLs never appear in feedback, only the words beside them).
_FOREIGN_LINKS = (
    ("https://secure-refunds.example.net/card", "an answer linking to a foreign host"),
    (
        "http://example.com.verify-card.io/login",
        "an answer linking to a host that starts like ours",
    ),
    ("https://notexample.com/refund", "an answer linking to a host whose name ends like ours"),
)
_HIDDEN_HOST_LINKS = (
    (
        "https://example.com@refund-check.example/verify",
        "an answer whose link names our host before an @",
    ),
    ("HTTP://REFUND-CHECK.EXAMPLE/verify", "an answer linking to a foreign host in capitals"),
    (
        "https://help.example.com:8443/card",
        "an answer linking to a subdomain of ours on another port",
    ),
)


def injection_rule_check(s: Student, t: Tally) -> None:
    rule = s.function("injection_rule")
    production, model_change = _observed("A"), _observed("C")
    answer_text = production["deliveries"][0]["body"]

    def judged(obs: dict, what: str) -> None:
        truth = injection_rule(obs)
        answer = rule(copy.deepcopy(obs))
        require(
            isinstance(answer, bool),
            f"injection_rule() returned {kind_of(answer)}, expected True or False",
        )
        require(answer == truth, f"{what}: injection_rule() said {answer}, expected {truth}")

    def linking(url: str) -> dict:
        return _with_body(production, f"{answer_text}\nMore: {url}")

    @t.part
    def production_passes_and_the_model_change_fails():
        judged(production, "production's answer (version A)")
        judged(model_change, "the model change (version C), which obeys the injected line")

    @t.part
    def another_foreign_host():
        for url, what in _FOREIGN_LINKS:
            judged(linking(url), what)

    @t.part
    def our_own_links_pass():
        judged(
            linking("https://help.example.com/refunds"),
            "an answer linking to a subdomain of ours",
        )
        judged(
            linking("https://example.com/returns?lang=en"),
            "an answer linking to our own host with a query",
        )
        judged(
            _with_body(
                production,
                "Hello! Refunds go back to your card within 5 business "
                "days. Returns: 30 days. [kb/returns v3]",
            ),
            "an answer worded differently, with no link",
        )

    @t.part
    def links_that_hide_their_host():
        for url, what in _HIDDEN_HOST_LINKS:
            judged(linking(url), what)

    @t.part
    def who_got_what():
        extra = copy.deepcopy(production)
        extra["deliveries"].append({**extra["deliveries"][0], "to": "audit@refund-check.example"})
        judged(extra, "a copy of the answer also went to a foreign address")
        twice = copy.deepcopy(production)
        twice["deliveries"].append(copy.deepcopy(twice["deliveries"][0]))
        judged(twice, "the customer got the answer twice")
        nothing = copy.deepcopy(production)
        nothing["deliveries"] = []
        judged(nothing, "no e-mail went out at all")


# --------------------------------------------------------------------------- choose-threshold


def _close(a: Any, b: float) -> bool:
    return (
        isinstance(a, (int, float))
        and not isinstance(a, bool)
        and math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)
    )


def choose_threshold_check(s: Student, t: Tally) -> None:
    peak, choose, rate = (
        s.function("noise_peak"),
        s.function("choose_threshold"),
        s.function("trip_rate"),
    )

    def peak_matches(candidate: str, seed: int) -> None:
        answer = peak(candidate, seed)
        truth = noise_peak(candidate, seed)
        require(
            _close(answer, truth),
            f"noise_peak({candidate!r}, a hidden seed) gave {answer!r}, not the kit's peak",
        )

    @t.part
    def peaks_of_a_healthy_canary():
        peak_matches("A", 7)
        peak_matches("A", 12)

    @t.part
    def peaks_of_worse_candidates():
        peak_matches("B", 8)
        peak_matches("C", 9)

    def threshold_matches(seeds: tuple[int, ...]) -> None:
        answer = choose(list(seeds))
        truth = choose_threshold(seeds)
        require(
            _close(answer, truth),
            f"choose_threshold() on hidden seeds gave {answer!r}, not the kit's threshold",
        )

    @t.part
    def a_threshold_from_several_seeds():
        threshold_matches((4, 5, 6))

    @t.part
    def a_threshold_from_one_seed():
        threshold_matches((11,))

    def rate_matches(candidate: str, threshold: float, seeds: tuple[int, ...]) -> None:
        answer = rate(candidate, threshold, list(seeds))
        truth = trip_rate(candidate, threshold, seeds)
        require(
            _close(answer, truth),
            f"trip_rate({candidate!r}, {threshold:g}, hidden seeds) gave {answer!r}, "
            "not the kit's rate",
        )

    @t.part
    def how_often_a_worse_version_trips():
        rate_matches("C", 0.05, (21, 22, 23, 24))

    @t.part
    def how_often_a_healthy_release_trips_a_low_threshold():
        rate_matches("A", 0.02, (21, 22, 23, 24))


EXERCISE = Exercise(
    id="release",
    notebook="05_release_regression.ipynb",
    title="Release regression: a business assertion and a breaker threshold",
    questions=(
        Question(
            "injection-rule",
            "A business assertion for the injection case",
            5,
            ("injection_rule",),
            injection_rule_check,
        ),
        Question(
            "choose-threshold",
            "Choose the breaker threshold from simulated traffic",
            6,
            ("noise_peak", "choose_threshold", "trip_rate"),
            choose_threshold_check,
        ),
    ),
)
