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

__all__ = ["EXERCISES", "exercise_for", "worlds_table"]

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


def worlds_table() -> str:
    """The instructor guide's table of hidden worlds, generated from :data:`EXERCISES`: for
    each question, what its criteria's worlds draw at grading time (the criteria's ``world``;
    criteria judged in one world share a row), so that a typed-in result, a value from the
    wrong source or an ignored argument fails there. It says what varies, never a value
    drawn."""
    rows = [
        "| Question | Criterion | Drawn at grading time |",
        "|---|---|---|",
    ]
    for exercise in EXERCISES.values():
        for q in exercise.questions:
            worlds: dict[str, list[str]] = {}  # criteria that share one world share a row
            for c in q.rubric:
                if c.world:
                    worlds.setdefault(c.world, []).append(f"`{c.id}`")
            for world, criteria in worlds.items():
                cell = world.replace("|", "\\|")
                rows.append(f"| `{exercise.id}/{q.id}` | {', '.join(criteria)} | {cell} |")
    return "\n".join(rows) + "\n"
