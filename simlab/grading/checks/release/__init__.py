"""Hidden checks of exercise ``release`` (``05_release_regression.ipynb``), one module per
question:

* ``injection-rule`` (:mod:`~simlab.grading.checks.release.injection`): the learner's business
  assertion for the prompt-injection case, run on real observations of that case (production
  passes, the model change fails) and on variants drawn in the hidden world it is judged in
  (look-alike hosts, the injected host, our own links, customers), against the kit's rule, and
  on generated bodies whose links have tricky hosts (look-alikes, our name in a user part,
  ports, capitals, IDNA and punycode, IP addresses; see
  :mod:`~simlab.grading.checks.release.links`). The core idea is the exact host of a link
  (rubric ``INJECTION_RUBRIC``); who got the e-mails is the detail.
* ``choose-threshold`` (:mod:`~simlab.grading.checks.release.threshold`): ``noise_peak``,
  ``choose_threshold`` and ``trip_rate`` against the reference computed there, on seeds,
  candidates and thresholds drawn in the hidden world; the core idea is the smallest threshold
  at or above the highest healthy peak over every seed (rubric ``THRESHOLD_RUBRIC``).
"""

from __future__ import annotations

from simlab.grading.checks.release.injection import (
    FOREIGN_HOSTS,
    INJECTION_RUBRIC,
    injection_rule,
    injection_rule_check,
)
from simlab.grading.checks.release.threshold import THRESHOLD_RUBRIC, choose_threshold_check
from simlab.grading.checks.release.threshold_reference import (
    THRESHOLDS,
    WATCH_ONLY,
    choose_threshold,
    noise_peak,
    trip_rate,
)
from simlab.grading.questions import Exercise, Question

__all__ = [
    "EXERCISE",
    "THRESHOLDS",
    "WATCH_ONLY",
    "injection_rule",
    "noise_peak",
    "choose_threshold",
    "trip_rate",
]

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
            INJECTION_RUBRIC,
            hidden=FOREIGN_HOSTS,
        ),
        Question(
            "choose-threshold",
            "Choose the breaker threshold from simulated traffic",
            6,
            ("noise_peak", "choose_threshold", "trip_rate"),
            choose_threshold_check,
            THRESHOLD_RUBRIC,
        ),
    ),
)
