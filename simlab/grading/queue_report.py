"""What ``simlab grade --queue DB --report`` prints and writes, read from the queue alone.

One entry per submission key: the most recently enqueued row for that key (its latest bytes at
its latest grader version), graded or not, read as a grade (:func:`as_grade`: a pending or dead
one has its ``status`` and no points), so every export is the plain grader's: the text report,
``--json`` (:mod:`simlab.grading.report`, which add ``status`` and ``attempts`` for a queue's
grade), the CSV and lateness (:mod:`simlab.grading.late_grades`). Everything a notebook wrote is
stored as the grader left it (as produced, bounded in size) and escaped once by the medium that
shows it (:mod:`simlab.grading.text`); nothing here grades. The queue's own exports:

* :func:`write_feedback` (``--feedback DIR``): one HTML page per student (:func:`page_name`);
* :func:`write_canvas` (``--canvas FILE --roster FILE``): a CSV for Canvas's gradebook import.

What moved between resubmissions and regrades (``--changed``, ``--student``) is
:mod:`simlab.grading.history`; the instructor's overrides, laid over the grades before any of
these is made, :mod:`simlab.grading.overrides`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simlab.grading.grader import NotebookGrade, QuestionGrade
from simlab.grading.late_grades import late_line
from simlab.grading.messages import Message, message, render, stored
from simlab.grading.queue_store.store import Submission
from simlab.grading.report import override_lines
from simlab.grading.roster import FIXED
from simlab.grading.text import (
    FEEDBACK_CHARS,
    SHOWN_CHARS,
    csv_cell,
    csv_writer,
    escape,
    for_html,
    for_people,
    shown_path,
)

__all__ = [
    "as_grade",
    "latest",
    "write_canvas",
    "write_feedback",
    "page_name",
    "feedback_page",
    "Written",
    "CANVAS_FIXED",
]

#: The first columns of a Canvas gradebook CSV, in Canvas's order: a roster's student columns.
CANVAS_FIXED = FIXED


def latest(submissions: Sequence[Submission]) -> list[Submission]:
    """The most recently enqueued row of each key, sorted by key."""
    by_key: dict[str, Submission] = {}
    for s in submissions:  # oldest enqueue first: the last one wins
        by_key[s.notebook] = s
    return [by_key[k] for k in sorted(by_key)]


def as_grade(s: Submission) -> NotebookGrade:
    """The submission as a :class:`NotebookGrade` with its ``status`` and ``attempts`` (a
    pending or dead one scores 0 of 0; a dead one's error says why)."""
    r = s.result
    if s.status != "graded" or r is None:
        if s.status == "dead":
            g = NotebookGrade.failed(s.notebook, message("grader.dead", claims=s.claims))
        else:
            g = NotebookGrade(s.notebook, None, 0, 0)
    else:
        questions = [_question(q) for q in r["questions"]]
        g = NotebookGrade(
            s.notebook, r["exercise"], r["score"], r["max_score"], questions, error=r["error"]
        )
        g.error_said = stored(r.get("error_message"))
        g.world = r.get("world")  # results stored before worlds were drawn have none
    g.status = s.status if s.status in ("graded", "dead") else "pending"
    g.attempts = tuple(s.attempts)
    return g


def _question(data: dict) -> QuestionGrade:
    """A stored question's grade, with its message when it was stored with one."""
    data = dict(data)
    kept = data.pop("message", None)
    override = data.pop("override", None)
    q = QuestionGrade(**data)
    q.said = stored(kept)
    q.override = override
    return q


# -- feedback pages --------------------------------------------------------------------------------

_PAGE = """<!DOCTYPE html>
<html lang="{lang}"><head><meta charset="utf-8"><title>{title}</title>
<style>body{{font-family:sans-serif;max-width:46em;margin:2em auto}}
td,th{{padding:.3em .6em;vertical-align:top;text-align:left}}
tr:nth-child(even){{background:#f4f4f4}}</style></head>
<body><h1>{title}</h1>
{body}
</body></html>
"""


def page_name(student: str) -> str:
    """The file name of a student's feedback page, one-to-one with student IDs: every
    character of the ID but ``a``-``z``, ``0``-``9`` and ``-`` is written as ``_`` and the
    two lowercase hex digits of each of its UTF-8 bytes (``Bob.A`` -> ``_42ob_2e_41``), then
    ``.html``, a ``-`` that starts the ID written out as well (``-x`` -> ``_2dx``); the empty
    ID is ``_.html``. A name so made holds no ``/``, ``\\``, ``.`` (other than its suffix), NUL
    or capital letter and never starts with ``-``: it never leaves the folder, no two names
    differ only in case, and no shell tool takes one for an option. An ID whose name would
    pass :data:`_PAGE_STEM` characters keeps that many and ends with ``~`` and 32 hex digits of
    the ID's SHA-256 (``~`` appears nowhere else)."""
    import hashlib

    out = []
    for i, ch in enumerate(student):
        # a leading "-" is written out too: a name starting with one reads as an option to
        # the shell tools an instructor runs on the folder (ls, rm, cp)
        if ch in _PLAIN and (i or ch != "-"):
            out.append(ch)
        else:
            out.extend(f"_{b:02x}" for b in ch.encode("utf-8", "surrogatepass"))
    stem = "".join(out) or "_"
    if len(stem) > _PAGE_STEM:
        digest = hashlib.sha256(student.encode("utf-8", "surrogatepass")).hexdigest()[:32]
        stem = stem[: _PAGE_STEM - 33] + "~" + digest
    return stem + ".html"


_PLAIN = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-")
#: The longest page name before ``.html`` (file systems allow 255 bytes).
_PAGE_STEM = 200


#: A span the kit's sentences quote in backticks (a name: ``ttl``, ``claim()``).
_QUOTED = re.compile(r"`([^`\n]+)`")


def _prose(text: str) -> str:
    """``text`` (as produced) for a page: escaped once (:func:`~simlab.grading.text.for_html`),
    then each span in backticks set as code (what a reader of the page would otherwise see as
    literal backticks)."""
    return _QUOTED.sub(r"<code>\1</code>", for_html(text, SHOWN_CHARS))


def _said_in(said: Message, lang: str) -> str:
    return _prose(render(said, lang))


def _submission_html(g: NotebookGrade, lang: str) -> str:
    """One submission's part of a page: its file and exercise, its points or its one line,
    each question's points and feedback, and why points are not the count of checks."""
    from simlab.grading.report import _PARTIAL, error_of, feedback_of

    head = f"{Path(g.notebook).name}: {g.exercise}" if g.exercise else Path(g.notebook).name
    parts = [f"<h2>{for_html(head)}</h2>"]
    if g.status == "pending":
        parts.append(f"<p>{_said_in(message('grader.page_pending'), lang)}</p>")
        return "\n".join(parts)
    if g.status == "dead":
        parts.append(f"<p>{_prose(error_of(g, lang))}</p>")
        return "\n".join(parts)
    if g.error and not g.questions:
        label = _said_in(message("grader.page_not_graded"), lang)
        parts.append(f"<p>{label}: {_prose(error_of(g, lang))}</p>")
        return "\n".join(parts)
    points = message("grader.page_points", score=g.score, max=g.max_score)
    parts.append(f"<p>{_said_in(points, lang)}</p>")
    late = late_line(g.late, lang)
    if late:
        parts.append(f"<p>{_prose(late)}</p>")
    if g.error:
        parts.append(f"<p>{_prose(error_of(g, lang))}</p>")
    heads = (message(f"grader.page_{k}") for k in ("question", "points_head", "feedback"))
    parts.append("<table><tr>" + "".join(f"<th>{_said_in(h, lang)}</th>" for h in heads) + "</tr>")
    for q in g.questions:
        parts.append(
            f"<tr><td>{for_html(q.id)}</td><td>{q.points}/{q.max_points}</td>"
            f"<td>{_prose(feedback_of(q, lang))}</td></tr>"
        )
    parts.append("</table>")
    parts.extend(f"<p>{_said_in(said, lang)}</p>" for said in override_lines(g))
    partial = [q for q in g.questions if q.points < q.max_points and _PARTIAL.match(q.feedback)]
    if g.exercise and partial:
        weighted = message("grader.page_weighted", exercise=g.exercise)
        parts.append(f"<p>{_said_in(weighted, lang)}</p>")
        parts.extend(f"<p>{_said_in(w, lang)}</p>" for w in _weights(g.exercise, partial))
    return "\n".join(parts)


def _weights(exercise: str, partial: Sequence[QuestionGrade]) -> list[Message]:
    """For each question that passed some checks without full points, the weights of its
    criteria (``cancel-fences 3, requeue 2``): the rubric's words, no hidden input."""
    from simlab.grading.checks import EXERCISES

    known = EXERCISES.get(exercise)
    rubrics = {q.id: q.rubric for q in known.questions} if known else {}
    out = []
    for q in partial:
        rubric = rubrics.get(q.id)
        if rubric:
            weights = ", ".join(f"{c.id} {c.weight}" for c in rubric)
            out.append(
                message(
                    "grader.page_weights",
                    q=q.id,
                    points=q.points,
                    max=q.max_points,
                    weights=weights,
                )  # fmt: skip
            )
    return out


def feedback_page(student: str, grades: Sequence[NotebookGrade], lang: str = "en") -> str:
    """One learner's page: for each of their submissions its points, each question's points and
    feedback (the sentences the grader wrote), or its one line when it was not graded; no
    hidden input, no other student's submission. Every sentence is in ``lang``."""
    title = _said_in(message("grader.page_title", student=student), lang)
    body = "\n".join(_submission_html(g, lang) for g in grades)
    return _PAGE.format(lang=lang, title=title, body=body)


@dataclass
class Written:
    """What an export wrote: the files (each one really written) and one line per file it
    could not write."""

    files: list[Path] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def write_feedback(
    grades: Sequence[NotebookGrade],
    folder: str | Path,
    lang: str = "en",
    student_of: Callable[[NotebookGrade], str] = lambda g: g.notebook,
) -> Written:
    """Write one HTML page per student (``student_of``: a grade's student ID; by default its
    key) in ``folder``, named by :func:`page_name`. Each page is made and written on its
    own: a page that cannot be written (a folder or a link in its place, a full disk) is one
    line of ``problems`` and the others are written; a link in a page's place is never
    followed. ``files`` holds exactly the pages written."""
    folder = Path(folder)
    out = Written()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        out.problems.append(f"cannot write feedback pages in {shown_path(folder)}: {_why(exc)}")
        return out
    by_student: dict[str, list[NotebookGrade]] = {}
    for g in grades:
        by_student.setdefault(student_of(g), []).append(g)
    for student, theirs in by_student.items():
        path = folder / page_name(student)
        try:
            text = feedback_page(student, theirs, lang).encode("utf-8")
            flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0)
            fd = os.open(path, flags, 0o644)
            with os.fdopen(fd, "wb") as f:
                f.write(text)
        except OSError as exc:
            out.problems.append(
                f"cannot write the page of {for_people(student)} ({shown_path(path)}): {_why(exc)}"
            )
            continue
        out.files.append(path)
    return out


def _why(exc: OSError) -> str:
    return for_people(exc.strerror or type(exc).__name__)


# -- Canvas ----------------------------------------------------------------------------------------


def _exercise_of(g: NotebookGrade) -> str | None:
    """The exercise a submission answers: its grade's, else the one its file is named for."""
    from simlab.grading.checks import EXERCISES

    if g.exercise:
        return g.exercise
    by_file = {e.notebook: name for name, e in EXERCISES.items()}
    return by_file.get(Path(g.notebook.replace("\\", "/")).name)


def write_canvas(
    grades: Sequence[NotebookGrade],
    roster,
    out: str | Path,
    titles: dict[str, str] | None = None,
    missing: str = "empty",
    lang: str = "en",
    excused: frozenset[str] = frozenset(),
) -> tuple[int, list[str]]:
    """Write the Canvas gradebook CSV: Canvas's five student columns, then one column per
    exercise named ``titles[exercise]`` (``Title (id)``, as Canvas matches an assignment; the
    bare exercise ID when not given), a ``Points Possible`` row, and one row per roster
    student, in the roster's order. A graded submission gives its score; an ungradable one
    (an error, or dead) gives 0 or an empty cell by ``missing`` (``zero`` or ``empty``); no
    submission, or one not graded yet, an empty cell. Returns the number of student rows and
    one line for each cell that is not a score, each submission that is no one's, each
    exercise without a title, each student with two submissions for one exercise, and each
    question whose points the instructor overrode (with the reason). A student whose ID is in
    ``excused`` gets ``EX`` (Canvas's excused) in every column."""
    from simlab.grading.checks import EXERCISES

    titles = dict(titles or {})
    lines: list[str] = []
    exercises: list[str] = list(titles)
    mine: dict[tuple[str, str], list[NotebookGrade]] = {}
    for g in grades:
        student, why = roster.owner(g.notebook)
        exercise = _exercise_of(g)
        if exercise and exercise not in exercises:
            exercises.append(exercise)
        if student is None:
            lines.append(f"{shown_path(g.notebook)}: {for_people(render(why, lang))}")
        elif exercise is None:
            who = for_people(str(student))
            lines.append(f"{shown_path(g.notebook)} ({who}): not in any column: no exercise")
        else:
            mine.setdefault((student.id, exercise), []).append(g)
    for e in exercises:
        if e not in titles:
            lines.append(
                f'column {e}: no --canvas-assignment {e}="Title (id)": Canvas will make a new '
                "assignment of it"
            )
    possible = {}
    for e in exercises:
        seen = [g.max_score for (_, x), gs in mine.items() for g in gs if x == e and g.max_score]
        # the grades' own maximum; the exercise's when nothing of it is graded yet
        possible[e] = max(seen, default=EXERCISES[e].max_score if e in EXERCISES else 0)
    with csv_writer(out) as writer:
        writer.writerow([*CANVAS_FIXED, *(csv_cell(titles.get(e, e)) for e in exercises)])
        writer.writerow(["Points Possible", "", "", "", "", *(possible[e] for e in exercises)])
        for student in roster.students:
            cells = []
            for e in exercises:
                theirs = mine.get((student.id, e), [])
                if student.id in excused:
                    cell, line = "EX", "excused (EX)"
                else:
                    cell, line = _canvas_cell(theirs, missing, lang)
                if line:
                    lines.append(f"{for_people(str(student))}, {e}: {line}")
                lines.extend(
                    f"{for_people(str(student))}, {e}: {for_people(render(said, lang))}"
                    for g in theirs
                    if g.status == "graded"
                    for said in override_lines(g)
                )
                cells.append(cell)
            # Canvas matches a row to its student by the roster's own ID and SIS columns,
            # exactly as its export wrote them: only the name (which a student may choose)
            # and the section, which match nothing, are cut and kept from starting like a
            # formula.
            name, *ids, section = student.columns()
            texts = [csv_cell(name, FEEDBACK_CHARS), *(escape(c) for c in ids)]
            writer.writerow([*texts, csv_cell(section, FEEDBACK_CHARS), *cells])
    return len(roster.students), lines


def _canvas_cell(theirs: Sequence[NotebookGrade], missing: str, lang: str) -> tuple[Any, str]:
    """A student's cell for one exercise and the line that says why it is not their score."""
    if not theirs:
        return "", f"{render(message('grader.no_submission'), lang)} (empty)"
    if len(theirs) > 1:
        names = " and ".join(shown_path(g.notebook) for g in theirs)
        graded = [g for g in theirs if g.status == "graded" and not g.error]
        if graded:
            best = max(graded, key=lambda g: g.score)
            return best.score, f"two submissions ({names}): the best score counts"
        theirs = theirs[:1]
    (g,) = theirs
    if g.status == "pending":
        return "", "not graded yet (empty)"
    if g.status == "dead" or g.error:
        from simlab.grading.report import error_of

        cell = 0 if missing == "zero" else ""
        shown = "0" if cell == 0 else "empty"
        error = for_people(error_of(g, lang), SHOWN_CHARS)
        return cell, f"not graded, {shown} (--missing {missing}): {error}"
    return g.score, ""
