"""Hidden checks of exercise ``histories`` (``03_histories_and_ttl.ipynb``), one module per
question:

* ``stale-commits`` (:mod:`~simlab.grading.checks.histories.stale`): the student's rule runs on
  hand-written histories (one property per case) and on histories the simulator recorded with
  and without the fence in the hidden world; its findings must match the kit's own rule
  (:func:`simlab.checker.checker.stale_commits`).
* ``choose-ttl`` (:mod:`~simlab.grading.checks.histories.ttl`): ``recovery_times``, ``measure``
  and ``choose_ttl`` against the reference computed there, on the ttls, seeds, cost tables and
  costs of the hidden world.
"""

from __future__ import annotations

from simlab.grading.checks.histories.stale import STALE_RUBRIC, stale_commits
from simlab.grading.checks.histories.stale_world import UNFENCED, StaleWorld, stale_world
from simlab.grading.checks.histories.ttl import (
    PAUSES,
    TTL_RUBRIC,
    TtlWorld,
    choose_ttl,
    choose_ttl_check,
    measure,
    recovery_times,
    ttl_world,
)
from simlab.grading.questions import Exercise, Question

__all__ = [
    "EXERCISE",
    "UNFENCED",
    "StaleWorld",
    "stale_world",
    "PAUSES",
    "TtlWorld",
    "ttl_world",
    "recovery_times",
    "measure",
    "choose_ttl",
]

EXERCISE = Exercise(
    id="histories",
    notebook="03_histories_and_ttl.ipynb",
    title="Reading histories, and choosing a ttl",
    questions=(
        Question(
            "stale-commits",
            "The checker rule: no stale commit accepted",
            6,
            ("stale_commits",),
            stale_commits,
            STALE_RUBRIC,
        ),
        Question(
            "choose-ttl",
            "Choose a ttl with the simulator",
            6,
            ("recovery_times", "measure", "choose_ttl"),
            choose_ttl_check,
            TTL_RUBRIC,
        ),
    ),
)
