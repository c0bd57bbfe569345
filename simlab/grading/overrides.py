"""The instructor's overrides: points set by hand for one student's question, with a reason.

An override names a student (the ``student`` of ``--json``: the roster's ID, or the submission's
key without a roster), a question as ``--json`` prints it (``EXERCISE/QUESTION``, e.g.
``fencing/cancel-limits``), the points, the reason and the time it was given. The queue keeps
every override ever given (:meth:`~simlab.grading.queue_store.store.GradingQueue.override`);
the last one of a student's question is in force, unless it cleared the one before.

Overrides are applied when a report is made, never stored in a grade, so they survive every
regrade: a new grader version or a resubmitted file is graded as usual and the override is laid
over the new grade. The score is made in this order: each question's points (an override's in
place of the grader's), then their sum, then (where a late policy applies) its penalty; the score
is rounded to 2 decimals. In ``--json`` an overridden question's ``points`` is the override's and
its ``override`` holds ``points``, ``why``, ``at`` (ISO 8601, UTC) and ``grader_points`` (what the
grader gave).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

from simlab.grading.messages import Message, message
from simlab.grading.queue_store.store import Override, Submission

__all__ = [
    "Override",
    "OverrideError",
    "apply",
    "in_force",
    "iso",
    "known_questions",
    "number",
    "override_line",
    "overridden",
    "parse_points",
    "parse_question",
]


class OverrideError(ValueError):
    """An override that names no question, or points it cannot have (one line)."""


def iso(at: float) -> str:
    """``at`` (seconds since the epoch) as ISO 8601 in UTC, to the second."""
    return datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def number(x: float) -> int | float:
    """``x`` rounded to 2 decimals, an int when it is whole (``7``, not ``7.0``)."""
    x = round(float(x), 2)
    return int(x) if x == int(x) else x


def known_questions(results: Iterable[dict[str, Any] | None]) -> dict[tuple[str, str], float]:
    """Every question an override may name, with its maximum points: the kit's exercises'
    questions, and those of the grades in ``results`` (a question an older grader version
    asked)."""
    from simlab.grading.checks import EXERCISES

    known: dict[tuple[str, str], float] = {}
    for name, exercise in EXERCISES.items():
        for q in exercise.questions:
            known[(name, q.id)] = q.points
    for r in results:
        if not r or not r.get("exercise"):
            continue
        for q in r.get("questions") or []:
            known.setdefault((r["exercise"], q["id"]), q["max_points"])
    return known


def parse_question(text: str, known: dict[tuple[str, str], float]) -> tuple[str, str]:
    """``EXERCISE/QUESTION`` as (exercise, question); :class:`OverrideError` (one line) when
    it is not written so or names no question of ``known``."""
    exercise, sep, question = text.partition("/")
    if not sep or not exercise or not question:
        raise OverrideError(
            f"{text!r}: write the question as EXERCISE/QUESTION, as --json prints them "
            "(e.g. fencing/cancel-limits)"
        )
    if (exercise, question) in known:
        return exercise, question
    theirs = sorted(q for e, q in known if e == exercise)
    if not theirs:
        exercises = sorted({e for e, _ in known})
        raise OverrideError(f"no exercise {exercise!r}; choose one of {', '.join(exercises)}")
    raise OverrideError(
        f"no question {question!r} in {exercise}; choose one of {', '.join(theirs)}"
    )


def parse_points(text: str, most: float) -> float:
    """The points of an override: a number from 0 to the question's ``most``, at most 2
    decimals; :class:`OverrideError` (one line) otherwise."""
    try:
        points = float(text)
    except ValueError:
        points = math.nan
    if not math.isfinite(points) or not 0 <= points <= most or round(points, 2) != points:
        raise OverrideError(
            f"points {text!r}: give a number from 0 to {number(most)} (the question's "
            "maximum), with at most 2 decimals"
        )
    return points


def in_force(rows: Sequence[Override]) -> dict[tuple[str, str, str], Override]:
    """The overrides in force, by (student, exercise, question): the last row of each, unless
    it cleared the one before."""
    last: dict[tuple[str, str, str], Override] = {}
    for row in rows:  # in the order given: the last one wins
        last[(row.student, row.exercise, row.question)] = row
    return {k: o for k, o in last.items() if o.points is not None}


def apply(result: dict[str, Any], student: str, overrides: dict) -> dict[str, Any]:
    """``result`` (a grade's ``--json`` object) with ``student``'s overrides in force laid
    over it: each overridden question's ``points`` is the override's and its ``override``
    says so; ``score`` is the sum of the questions' points, rounded to 2 decimals. A result
    with no override of its own is returned as it is."""
    exercise = result.get("exercise")
    if not exercise or not result.get("questions"):
        return result
    mine = {q: o for (st, e, q), o in overrides.items() if st == student and e == exercise}
    if not any(q["id"] in mine for q in result["questions"]):
        return result
    questions = []
    for q in result["questions"]:
        o = mine.get(q["id"])
        if o is not None:
            q = {
                **q,
                "points": number(o.points),
                "override": {
                    "points": number(o.points),
                    "why": o.why,
                    "at": iso(o.at),
                    "grader_points": q["points"],
                },
            }
        questions.append(q)
    score = number(sum(q["points"] for q in questions))
    return {**result, "questions": questions, "score": score}


def overridden(
    subs: Sequence[Submission], students: Sequence[str | None], overrides: Sequence[Override]
) -> list[Submission]:
    """``subs`` with the overrides in force applied to each graded one, whose student is
    ``students[i]`` (None: no one's, no override applies)."""
    force = in_force(overrides)
    if not force:
        return list(subs)
    out = []
    for s, student in zip(subs, students, strict=True):
        if student is not None and s.status == "graded" and s.result is not None:
            s = dataclasses.replace(s, result=apply(s.result, student, force))
        out.append(s)
    return out


def override_line(question: str, override: dict[str, Any]) -> Message:
    """The line that shows an overridden question with its reason (every export, both
    languages)."""
    return message(
        "override.line",
        q=question,
        points=override["points"],
        grader=override["grader_points"],
        at=override["at"],
        why=override["why"],
    )
