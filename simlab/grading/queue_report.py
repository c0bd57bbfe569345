"""What ``simlab grade --queue DB --report`` prints and writes, read from the queue alone.

One entry per submission key: the most recently enqueued row for that key (its latest bytes at
its latest grader version), graded or not. Everything a notebook wrote is shown as the grader
left it (escaped, capped: :mod:`simlab.grading.text`); nothing here grades.

* :func:`report_lines` (``--json``): the object of ``simlab grade --json`` plus ``status``
  (``pending``, ``graded``, ``dead``) and ``attempts`` (``worker``, ``epoch``, ``started``,
  ``ended``, ``outcome``);
* :func:`format_report`: the text report, one block per submission;
* :func:`write_feedback` (``--feedback DIR``): one HTML page per submission for its learner;
* :func:`write_canvas` (``--canvas FILE --roster FILE``): a CSV for Canvas's gradebook import;
* :func:`changes` (``--changed``): points that moved between the last two grader versions.
"""

from __future__ import annotations

import csv
import html
import json
from collections.abc import Sequence
from pathlib import Path, PurePosixPath
from typing import Any

from simlab.grading.grader import NotebookGrade, QuestionGrade
from simlab.grading.messages import Message, message, render, stored
from simlab.grading.queue_store.store import Submission
from simlab.grading.report import format_text, json_lines
from simlab.grading.text import csv_cell, for_people, json_safe, shown_path

__all__ = [
    "RosterError",
    "as_grade",
    "changes",
    "format_changes",
    "format_report",
    "latest",
    "read_roster",
    "report_lines",
    "write_canvas",
    "write_feedback",
    "CANVAS_FIXED",
]

#: The first columns of a Canvas gradebook CSV, in Canvas's order.
CANVAS_FIXED = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")


class RosterError(ValueError):
    """The roster is unreadable or does not match the queue's submissions (one line)."""


def latest(submissions: Sequence[Submission]) -> list[Submission]:
    """The most recently enqueued row of each key, sorted by key."""
    by_key: dict[str, Submission] = {}
    for s in submissions:  # oldest enqueue first: the last one wins
        by_key[s.notebook] = s
    return [by_key[k] for k in sorted(by_key)]


def _not_graded(s: Submission) -> Message | None:
    """The one line of a dead submission (None for any other)."""
    if s.status == "dead":
        return message("grader.dead", claims=s.claims)
    return None


def as_grade(s: Submission) -> NotebookGrade:
    """The submission as a :class:`NotebookGrade` (a pending or dead one scores 0 of 0)."""
    r = s.result
    if s.status != "graded" or r is None:
        dead = _not_graded(s)
        if dead is not None:
            return NotebookGrade.failed(s.notebook, dead)
        return NotebookGrade(s.notebook, None, 0, 0)
    questions = [_question(q) for q in r["questions"]]
    g = NotebookGrade(
        s.notebook, r["exercise"], r["score"], r["max_score"], questions, error=r["error"]
    )
    g.error_said = stored(r.get("error_message"))
    g.world = r.get("world")  # results stored before worlds were drawn have none
    return g


def _question(data: dict) -> QuestionGrade:
    """A stored question's grade, with its message when it was stored with one."""
    data = dict(data)
    kept = data.pop("message", None)
    q = QuestionGrade(**data)
    q.said = stored(kept)
    return q


def report_lines(subs: Sequence[Submission], lang: str = "en") -> str:
    """One JSON object per submission, one per line: ``simlab grade --json``'s keys (score and
    max_score null while not graded) plus ``status`` and ``attempts``."""
    out = []
    for s in subs:
        data = json.loads(json_lines([as_grade(s)], lang))
        if s.status != "graded":
            data["score"] = data["max_score"] = None
        data["status"] = s.status
        data["attempts"] = [a.to_dict() for a in s.attempts]
        out.append(json_safe(json.dumps(data, ensure_ascii=False)) + "\n")
    return "".join(out)


def format_report(subs: Sequence[Submission], lang: str = "en") -> str:
    """The text report: graded submissions as ``simlab grade`` prints them, a pending one as
    one line, a dead one as one line."""
    blocks = []
    for s in subs:
        if s.status == "graded":
            blocks.append(format_text([as_grade(s)], lang))
        elif s.status == "dead":
            blocks.append(f"{shown_path(s.notebook)}: dead\n  {render(_not_graded(s), lang)}")
        else:
            blocks.append(f"{shown_path(s.notebook)}: pending ({len(s.attempts)} attempt(s))")
    return "\n\n".join(blocks)


# -- feedback pages --------------------------------------------------------------------------------

_PAGE = """<!DOCTYPE html>
<html lang="{lang}"><head><meta charset="utf-8"><title>{title}</title>
<style>body{{font-family:sans-serif;max-width:46em;margin:2em auto}}
td,th{{padding:.3em .6em;vertical-align:top;text-align:left}}
tr:nth-child(even){{background:#f4f4f4}}</style></head>
<body><h1>{title}</h1><p>{summary}</p>
{table}</body></html>
"""


def _page_name(notebook: str) -> PurePosixPath:
    """Where a submission's page goes below the folder: its key's path (no root, no ``..``),
    ``.html`` for ``.ipynb``."""
    parts = [p for p in PurePosixPath(notebook.replace("\\", "/")).parts if p not in ("/", "..")]
    name = PurePosixPath(*parts) if parts else PurePosixPath("submission")
    return name.with_suffix(".html")


def feedback_page(s: Submission, lang: str = "en") -> str:
    """One learner's page: each question's points and feedback (the sentences the grader
    wrote, stories of failing runs included); no hidden input, no other submission."""
    from simlab.grading.report import _said, feedback_of

    g = as_grade(s)
    title = html.escape(f"{Path(s.notebook).name}: {g.exercise or 'not graded'}")
    if s.status != "graded":
        summary = html.escape(g.error or "not graded yet")
        return _PAGE.format(lang=lang, title=title, summary=summary, table="")
    summary = html.escape(f"{g.score} / {g.max_score} points")
    if g.error:
        summary += "<br>" + html.escape(_said(g.error, lang))
    rows = ["<table><tr><th>question</th><th>points</th><th>feedback</th></tr>"]
    for q in g.questions:
        rows.append(
            f"<tr><td>{html.escape(q.id)}</td><td>{q.points}/{q.max_points}</td>"
            f"<td>{html.escape(feedback_of(q, lang))}</td></tr>"
        )
    rows.append("</table>")
    return _PAGE.format(lang=lang, title=title, summary=summary, table="\n".join(rows))


def write_feedback(subs: Sequence[Submission], folder: str | Path, lang: str = "en") -> list[Path]:
    """Write one HTML page per submission below ``folder`` (its key's path, ``.html``)."""
    folder = Path(folder)
    written = []
    for s in subs:
        path = folder / _page_name(s.notebook)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(feedback_page(s, lang), encoding="utf-8")
        written.append(path)
    return written


# -- Canvas ----------------------------------------------------------------------------------------


def read_roster(path: str | Path) -> dict[str, dict[str, str]]:
    """The roster: a CSV with a ``notebook`` column (a submission's key, as ``--json`` names
    it), ``Student`` and Canvas's ``ID`` (optional: ``SIS User ID``, ``SIS Login ID``,
    ``Section``). Returns notebook -> that row. Raises :class:`RosterError`."""
    try:
        with open(path, newline="", encoding="utf-8-sig") as f:
            rows = list(csv.DictReader(f))
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise RosterError(f"cannot read the roster {path}: {exc}") from None
    if not rows or not {"notebook", "Student", "ID"} <= set(rows[0]):
        raise RosterError(f"the roster {path} needs the columns notebook, Student and ID")
    roster: dict[str, dict[str, str]] = {}
    for row in rows:
        key = (row.get("notebook") or "").strip()
        if not key or key in roster:
            raise RosterError(f"the roster {path} names {key or 'an empty notebook'!r} twice")
        roster[key] = row
    return roster


def write_canvas(
    subs: Sequence[Submission], roster: dict[str, dict[str, str]], out: str | Path
) -> int:
    """Write the Canvas gradebook CSV: one row per student, one column per exercise (its
    points; empty while not graded), a ``Points Possible`` row first. Every submission must be
    in the roster and every roster row in the queue, else :class:`RosterError` and nothing is
    written. Returns the number of students."""
    keys = {s.notebook for s in subs}
    missing = sorted(keys - set(roster))
    if missing:
        raise RosterError(f"the roster has no student for {shown_path(missing[0])}")
    extra = sorted(set(roster) - keys)
    if extra:
        raise RosterError(f"the roster names {shown_path(extra[0])}, which the queue does not hold")
    exercises: list[str] = []
    possible: dict[str, int] = {}
    students: dict[str, dict[str, Any]] = {}
    for s in subs:
        g = as_grade(s)
        row = roster[s.notebook]
        student = students.setdefault(row["ID"], {c: row.get(c, "") for c in CANVAS_FIXED})
        exercise = g.exercise or (s.result or {}).get("exercise")
        if exercise is None:
            continue
        if exercise not in exercises:
            exercises.append(exercise)
        possible[exercise] = max(possible.get(exercise, 0), g.max_score)
        if exercise in student:
            raise RosterError(f"student {row['ID']} has two submissions for {exercise}")
        student[exercise] = g.score if s.status == "graded" else ""
    with open(out, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow([*CANVAS_FIXED, *exercises])
        writer.writerow(["Points Possible", "", "", "", "", *(possible[e] for e in exercises)])
        for student in students.values():
            writer.writerow(
                [csv_cell(str(student[c])) for c in CANVAS_FIXED]
                + [student.get(e, "") for e in exercises]
            )
    return len(students)


# -- regrades --------------------------------------------------------------------------------------


def changes(submissions: Sequence[Submission], versions: Sequence[str]) -> list[dict[str, Any]]:
    """The submissions whose points changed between the last two grader versions of the queue
    (the same bytes graded at both), question by question: ``notebook``, ``before`` and
    ``after`` (versions) and ``questions`` (``id``, ``before``, ``after``: points)."""
    if len(versions) < 2:
        return []
    before, after = versions[-2], versions[-1]
    graded: dict[tuple[str, str, str], dict[str, Any]] = {}
    for s in submissions:
        if s.status == "graded" and s.result is not None:
            graded[(s.notebook, s.sha256, s.version)] = s.result
    out = []
    for notebook, sha, version in sorted(graded):
        if version != after or (notebook, sha, before) not in graded:
            continue
        old = {q["id"]: q["points"] for q in graded[(notebook, sha, before)]["questions"]}
        new = {q["id"]: q["points"] for q in graded[(notebook, sha, after)]["questions"]}
        moved = [
            {"id": q, "before": old.get(q), "after": new.get(q)}
            for q in [*old, *(q for q in new if q not in old)]
            if old.get(q) != new.get(q)
        ]
        if moved:
            out.append({"notebook": notebook, "before": before, "after": after, "questions": moved})
    return out


def format_changes(changed: Sequence[dict[str, Any]], versions: Sequence[str]) -> str:
    """The ``--changed`` text: one block per submission, one line per question that moved."""
    if len(versions) < 2:
        return "one grader version in the queue: nothing to compare"
    head = f"points changed from grader version {versions[-2]} to {versions[-1]}:"
    if not changed:
        return head + " none"
    lines = [head]
    for c in changed:
        lines.append(f"{shown_path(c['notebook'])}")
        for q in c["questions"]:
            was = "-" if q["before"] is None else q["before"]
            now = "-" if q["after"] is None else q["after"]
            lines.append(f"  {for_people(q['id'])}: {was} -> {now}")
    return "\n".join(lines)
