"""Resubmissions and regrades: what the queue holds of each key over time, read from it alone.

The queue notes each time a key (a submission's ``notebook``) is enqueued as other bytes, another
grader version or other grading options than the time before
(:meth:`~simlab.grading.queue_store.store.GradingQueue.history`). From that and the grades:

* :func:`student_history` (``--report --student ID``): one student's submissions, each with its
  history: when the queue saw it, the SHA-256 of its bytes, the grader version, what changed
  since the step before (``first``, ``file``, ``grader``, ``options``, or ``back`` to a file and
  version graded before) and the grade given then (grader's points, before any override), and
  the overrides ever given to that student, cleared ones included;
* :func:`changes` (``--changed``): for each key, the last two grades it was given and, when a
  question's points moved between them, why: the file changed, the grader did, or both.

Times are seconds since the epoch in the queue and ISO 8601 (UTC) in what is printed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from simlab.grading.overrides import iso, number
from simlab.grading.queue_store.store import Override, Submission
from simlab.grading.text import for_people, shown_path

__all__ = ["changes", "format_changes", "format_history", "key_history", "student_history"]


def _graded_at(s: Submission) -> float | None:
    """When ``s``'s grade was committed (its last committed attempt's end)."""
    ends = [a.ended for a in s.attempts if a.outcome in ("graded", "timeout") and a.ended]
    return max(ends) if ends else None


def _what_changed(before: Submission | None, after: Submission) -> str:
    if before is None:
        return "first"
    moved = []
    if before.sha256 != after.sha256:
        moved.append("file")
    if before.version != after.version:
        moved.append("grader")
    return " and ".join(moved) or "options"


def key_history(
    history: Sequence[tuple[str, str, float]], subs: Sequence[Submission]
) -> dict[str, list[tuple[float, Submission]]]:
    """Each key's steps, oldest first: (when the queue saw it so, the submission then)."""
    by_task = {s.task_id: s for s in subs}
    out: dict[str, list[tuple[float, Submission]]] = {}
    for key, task_id, at in history:
        s = by_task.get(task_id)
        steps = out.setdefault(key, [])
        if s is not None and (not steps or steps[-1][1].task_id != task_id):
            steps.append((at, s))
    for s in subs:  # a submission enqueued by a kit that kept no history of it
        steps = out.setdefault(s.notebook, [])
        if all(t.task_id != s.task_id for _, t in steps):
            steps.append((_graded_at(s) or 0.0, s))
    return out


def _grade(s: Submission) -> dict[str, Any]:
    r = s.result or {}
    graded = s.status == "graded"
    at = _graded_at(s)
    return {
        "status": s.status,
        "score": r.get("score") if graded else None,
        "max_score": r.get("max_score") if graded else None,
        "error": r.get("error") if graded else None,
        "graded_at": None if at is None else iso(at),
    }


def student_history(
    student: str,
    keys: Sequence[str],
    history: Sequence[tuple[str, str, float]],
    subs: Sequence[Submission],
    overrides: Sequence[Override],
    handed: Mapping[str, tuple] | None = None,
) -> dict[str, Any]:
    """The history of ``student``, whose submissions are ``keys`` (module doc): ``student``,
    ``submissions`` (``notebook``, ``history``: ``at``, ``submitted_at``, ``sha256``,
    ``version``, ``change``, ``status``, ``score``, ``max_score``, ``error``, ``graded_at``)
    and ``overrides`` (``question``, ``points``, null when cleared, ``why``, ``at``).
    ``submitted_at`` is when the file was handed in, as its course layout or modification time
    said when it was enqueued (``handed``: the queue's hand-in records by task), else null."""
    handed = handed or {}
    steps = key_history(history, subs)
    submissions = []
    for key in keys:
        shown = []
        seen: set[str] = set()
        before = None
        for at, s in steps.get(key, []):
            change = _what_changed(before, s)
            if s.task_id in seen:
                change = "back"  # a file and version graded before: not graded again
            seen.add(s.task_id)
            shown.append(
                {
                    "at": iso(at),
                    "submitted_at": handed.get(s.task_id, (None, None, None))[1],
                    "sha256": s.sha256,
                    "version": s.version,
                    "change": change,
                }
                | _grade(s)
            )
            before = s
        submissions.append({"notebook": key, "history": shown})
    given = [
        {
            "question": f"{o.exercise}/{o.question}",
            "points": None if o.points is None else number(o.points),
            "why": o.why,
            "at": iso(o.at),
        }
        for o in overrides
        if o.student == student
    ]
    return {"student": student, "submissions": submissions, "overrides": given}


#: How the text history says what changed since the step before.
_CHANGES = {
    "first": "handed in",
    "file": "new file",
    "grader": "new grader version",
    "file and grader": "new file and grader",
    "options": "new grading options",
    "back": "back to an earlier",
}


def format_history(h: dict[str, Any]) -> str:
    """The text of :func:`student_history`: a block per submission, a line per step."""
    lines = [f"history of {for_people(h['student'])}:"]
    for sub in h["submissions"]:
        lines.append(shown_path(sub["notebook"]))
        for step in sub["history"]:
            if step["status"] == "graded" and step["error"]:
                grade = "not graded: " + for_people(step["error"], 120)
            elif step["status"] == "graded":
                grade = f"{step['score']}/{step['max_score']}"
            else:
                grade = step["status"]
            change = _CHANGES.get(step["change"], step["change"])
            if step.get("submitted_at"):
                change = f"{change} (handed in {step['submitted_at']})"
            lines.append(
                f"  {step['at']}  {change:<20} file {step['sha256'][:12] or '-':<12}  "
                f"grader {step['version'][:12]}  {grade}"
            )
    if h["overrides"]:
        lines.append("overrides:")
        for o in h["overrides"]:
            what = "cleared" if o["points"] is None else f"{o['points']} points"
            why = f": {for_people(o['why'])}" if o["why"] else ""
            lines.append(f"  {o['at']}  {for_people(o['question'])}: {what}{why}")
    return "\n".join(lines)


def changes(
    history: Sequence[tuple[str, str, float]],
    subs: Sequence[Submission],
    students: dict[str, str | None] | None = None,
) -> tuple[list[dict[str, Any]], int]:
    """What moved between the last two grades of each key (its last two graded steps), and
    how many keys have two grades whose points did not move. Each entry: ``student`` (with
    ``students``, key -> ID), ``notebook``, ``cause`` (``file``, ``grader``, ``file and
    grader`` or ``options``), ``before`` and ``after`` (``sha256``, ``version``, ``score``,
    ``at``: when enqueued) and ``questions`` (``id``, ``before``, ``after``: points), in key
    order."""
    out, still = [], 0
    for key, steps in sorted(key_history(history, subs).items()):
        graded = [(at, s) for at, s in steps if s.status == "graded" and s.result is not None]
        distinct: list[tuple[float, Submission]] = []
        for at, s in graded:  # a step back to an earlier grade counts as the latest
            distinct = [(a, t) for a, t in distinct if t.task_id != s.task_id] + [(at, s)]
        if len(distinct) < 2:
            continue
        (at0, old), (at1, new) = distinct[-2:]
        was = {q["id"]: q["points"] for q in old.result.get("questions", [])}
        now = {q["id"]: q["points"] for q in new.result.get("questions", [])}
        moved = [
            {"id": q, "before": was.get(q), "after": now.get(q)}
            for q in [*was, *(q for q in now if q not in was)]
            if was.get(q) != now.get(q)
        ]
        if not moved and old.result.get("score") == new.result.get("score"):
            still += 1
            continue
        entry: dict[str, Any] = {} if students is None else {"student": students.get(key)}
        entry |= {
            "notebook": key,
            "cause": _what_changed(old, new),
            "before": _side(old, at0),
            "after": _side(new, at1),
            "questions": moved,
        }
        out.append(entry)
    return out, still


def _side(s: Submission, at: float) -> dict[str, Any]:
    r = s.result or {}
    return {"sha256": s.sha256, "version": s.version, "score": r.get("score"), "at": iso(at)}


def format_changes(changed: Sequence[dict[str, Any]], still: int) -> str:
    """The ``--changed`` text: one block per submission whose points moved (its student, why,
    the two grades), one line per question that moved."""
    if not changed:
        if still:
            return (
                f"nothing moved: {still} submission(s) graded twice or more got the same points "
                "in their last two grades"
            )
        return "nothing to compare: no submission has been graded twice (resubmitted or regraded)"
    lines = ["points that moved between the last two grades of each submission:"]
    for c in changed:
        who = f" ({for_people(c['student'])})" if c.get("student") else ""
        b, a = c["before"], c["after"]
        lines.append(
            f"{shown_path(c['notebook'])}{who}: {c['cause']} changed: "
            f"{b['score']} -> {a['score']} ({_short(b)} -> {_short(a)})"
        )
        for q in c["questions"]:
            was = "-" if q["before"] is None else q["before"]
            now = "-" if q["after"] is None else q["after"]
            lines.append(f"  {for_people(q['id'])}: {was} -> {now}")
    if still:
        lines.append(f"{still} other submission(s) got the same points in their last two grades")
    return "\n".join(lines)


def _short(side: dict[str, Any]) -> str:
    return f"file {side['sha256'][:8] or '-'}, grader {side['version'][:12]}"
