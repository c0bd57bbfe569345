"""The hidden checks, keyed by exercise ID and question ID. They never appear in a notebook.

Each module holds one exercise: its :class:`~simlab.grading.questions.Exercise` record (the
notebook it belongs to, its questions, their points) and the check functions. An exercise with
many checks is a package with one module per question (``leases``, ``checkpoints``); its
``__init__`` holds the record. A check runs its parts in a fixed order, each a named function.
The grader finds the exercise of a submitted notebook by its metadata (``simlab.exercise``), or
else by its file name.
"""

from __future__ import annotations

from typing import Any

from simlab.grading.checks import checkpoints, events, fencing, histories, leases, release
from simlab.grading.notebook import exercise_of
from simlab.grading.questions import Exercise

__all__ = ["EXERCISES", "exercise_for"]

#: exercise ID -> Exercise, in the order of the learning path.
EXERCISES: dict[str, Exercise] = {
    e.id: e
    for e in (
        fencing.EXERCISE,
        leases.EXERCISE,
        histories.EXERCISE,
        checkpoints.EXERCISE,
        release.EXERCISE,
        events.EXERCISE,
    )
}


def exercise_for(nb: Any, filename: str = "") -> Exercise | None:
    """The exercise a notebook answers: its metadata first, then its file name."""
    declared = exercise_of(nb)
    if declared in EXERCISES:
        return EXERCISES[declared]
    for exercise in EXERCISES.values():
        if filename == exercise.notebook:
            return exercise
    return None
