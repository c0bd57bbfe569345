"""Lateness applied to a class's grades (the grader's, or a queue's read as grades), for every
export (text, ``--json``, CSV, feedback pages, Canvas), at report time.

Order: a submission's question points, their sum (its ``score``), then the late penalty
(:func:`simlab.grading.lateness.assess`): ``score`` is the score after it. Each graded
submission gets a ``late`` record: the ``--json`` keys ``late_days``, ``late_penalty``,
``submitted_at``, ``deadline``, ``excused`` and the one line that says it (``said``, a stored
message, rendered in the report's language). A submission not graded yet, or dead, is left
as it is (a submission graded with an error scores 0, so its lateness costs nothing, but is
said). A student's deadline is their ``--extension``, else their roster ``deadline`` column, else
the class's ``--deadline``.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from simlab.grading.lateness import Lateness, Policy, Terms, assess, show_time
from simlab.grading.messages import Message, message, stored

__all__ = ["JSON_KEYS", "Handed", "apply_to_grades", "late_line"]

#: The keys lateness adds to a ``--json`` object.
JSON_KEYS = ("late_days", "late_penalty", "submitted_at", "deadline", "excused")

#: When a submission was handed in (None when unknown) and, then, the one line why.
Handed = tuple[datetime | None, Message | None]


def _said(late: Lateness, policy: Policy | None, note: Message | None) -> Message:
    if late.excused:
        return message("grader.late_excused")
    if late.deadline is None:
        return message("grader.late_no_deadline")
    deadline = show_time(late.deadline)
    if late.submitted is None:
        if note is not None:
            return message("grader.late_no_time_why", why=note, deadline=deadline)
        return message("grader.late_no_time", deadline=deadline)
    submitted = show_time(late.submitted, late.deadline)
    if not late.late_days:
        return message("grader.late_on_time", submitted=submitted, deadline=deadline)
    days = late.late_days
    if late.cutoff and policy is not None:
        return message(
            "grader.late_cutoff",
            submitted=submitted,
            days=days,
            deadline=deadline,
            cutoff=policy.cutoff,
        )  # fmt: skip
    if not late.penalty and not late.percent:
        return message("grader.late_unpenalized", submitted=submitted, days=days, deadline=deadline)
    return message(
        "grader.late_late",
        submitted=submitted,
        days=days,
        deadline=deadline,
        percent=format(late.percent.normalize(), "f"),
        penalty=late.penalty,
    )  # fmt: skip


def _late(
    score: float, student: str | None, handed: Handed, terms: Terms, roster_deadlines
) -> tuple[dict[str, Any], float]:
    """The ``late`` record of one graded submission and its score after the penalty."""
    submitted, note = handed
    deadline = terms.deadline_for(student, roster_deadlines.get(student))
    excused = student is not None and student in terms.excused
    late = assess(score, submitted, deadline, terms.policy, excused)
    record = late.to_data()
    record["said"] = _said(late, terms.policy, note).to_data()
    return record, late.score


def _roster_deadlines(roster) -> dict[str, datetime]:
    if roster is None:
        return {}
    return {s.id: s.deadline for s in roster.students if getattr(s, "deadline", None)}


def apply_to_grades(grades, who, handed: Sequence[Handed], terms: Terms, roster=None) -> None:
    """Set each graded notebook's ``late`` record and its score after the penalty (in place;
    one pending or dead in a queue is left as it is; ``who`` as
    :func:`simlab.grading.roster.assign` gives it, None: each is known by its key). Nothing
    changes when no deadline is in force (none given, none in the roster)."""
    deadlines = _roster_deadlines(roster)
    if not (terms or deadlines):
        return
    for i, g in enumerate(grades):
        if g.status != "graded":
            continue
        student = g.notebook if who is None else who[i][0]
        g.late, g.score = _late(g.score, student, handed[i], terms, deadlines)


def late_line(late: dict[str, Any] | None, lang: str) -> str | None:
    """The one line a ``late`` record says, in ``lang`` (None without one)."""
    if not late:
        return None
    from simlab.grading.messages import render

    said = stored(late.get("said"))
    return None if said is None else render(said, lang)
