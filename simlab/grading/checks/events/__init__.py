"""Hidden checks of exercise ``events`` (``06_events_and_permissions.ipynb``), one module per
question:

* ``absorber`` (:mod:`~simlab.grading.checks.events.absorber`): the learner's ``Absorber``
  replayed on seeded at-least-once streams and hostile ones, against the kit's
  :class:`~simlab.agent.EventAbsorber`; the core idea is each event once and in order, per task.
  Its part on handing back the very dicts given, unchanged, is
  :mod:`~simlab.grading.checks.events.given`.
* ``narrowing`` (:mod:`~simlab.grading.checks.events.narrowing`): ``is_narrowing(parent, child)``
  against :meth:`simlab.agent.Grant.narrow`; the core idea is a subset on every dimension, as
  sets of exact names.
"""

from __future__ import annotations

from simlab.grading.checks.events.absorber import (
    ABSORBER_RUBRIC,
    BUS_STREAMS,
    absorber_check,
    bus_streams,
    reference_releases,
    task_events,
)
from simlab.grading.checks.events.narrowing import (
    KINDS,
    NARROWING_RUBRIC,
    children,
    narrowing_check,
    reference_is_narrowing,
)
from simlab.grading.questions import Exercise, Question

__all__ = [
    "EXERCISE",
    "BUS_STREAMS",
    "KINDS",
    "children",
    "bus_streams",
    "task_events",
    "reference_releases",
    "reference_is_narrowing",
]

EXERCISE = Exercise(
    id="events",
    notebook="06_events_and_permissions.ipynb",
    title="Events once and in order; grants that only narrow",
    questions=(
        Question(
            "absorber", "An event absorber", 6, ("Absorber",), absorber_check, ABSORBER_RUBRIC
        ),
        Question(
            "narrowing",
            "A sub-agent's grant narrows",
            5,
            ("is_narrowing",),
            narrowing_check,
            NARROWING_RUBRIC,
        ),
    ),
)
