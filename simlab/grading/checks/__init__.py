"""The hidden checks, keyed by exercise ID and question ID. They never appear in a notebook.

Each module holds one exercise: its :class:`~simlab.grading.questions.Exercise` record (the
notebook it belongs to, its questions, their points) and the check functions. An exercise with
many checks is a package with one module per question (``leases``, ``checkpoints``); its
``__init__`` holds the record. A check runs its parts in a fixed order, each a named function.
The grader finds the exercise of a submitted notebook by its metadata (``simlab.exercise``), or
else by its file name.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from typing import Any

from simlab.grading.notebook import exercise_of
from simlab.grading.questions import Exercise

__all__ = ["EXERCISES", "exercise_for", "worlds_table"]

#: The exercises in the order of the learning path: each one's ID is the name of its module here.
_IDS = ("fencing", "leases", "histories", "checkpoints", "release", "events")


class _Exercises(Mapping[str, Exercise]):
    """Exercise ID -> :class:`Exercise`, each exercise's checks imported on first use: a grader
    of one exercise's notebooks never imports the others'."""

    def __getitem__(self, key: str) -> Exercise:
        if key not in _IDS:
            raise KeyError(key)
        return importlib.import_module(f"{__name__}.{key}").EXERCISE

    def __iter__(self) -> Iterator[str]:
        return iter(_IDS)

    def __len__(self) -> int:
        return len(_IDS)

    def __contains__(self, key: object) -> bool:
        return key in _IDS


#: exercise ID -> Exercise, in the order of the learning path.
EXERCISES: Mapping[str, Exercise] = _Exercises()


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
