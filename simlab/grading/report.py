"""Grades as people read them: a terminal table, JSON lines, and a class CSV.

* :func:`format_text`: per notebook, the score and one line per question (points, feedback).
* :func:`json_lines`: one JSON object per notebook (``notebook``, ``score``, ``max_score``,
  ``questions`` with ``id``, ``points``, ``max_points``, ``feedback``; plus ``exercise`` and
  ``error``; with a deadline, ``late_days``, ``late_penalty``, ``submitted_at``, ``deadline``
  and ``excused``, ``score`` after the penalty).
* :func:`write_csv`: one row per submitted notebook, with a ``student`` column and one column
  per question, for a spreadsheet or an LMS import.

``lang="zh"`` gives the feedback sentences (and errors) in Chinese: a question's feedback and a
notebook's error are rendered here from their messages (:mod:`simlab.grading.messages`, the
catalogs of each exercise and of the grader); a grade made without one shows its English. IDs,
points and JSON keys never change with the language.

A grade carries every text a notebook can influence as it was produced (bounded in size by the
grader); each medium here escapes it once, as it writes it, through its function in
:mod:`simlab.grading.text`: the text report file names escaped (and quoted when unusual) and
feedback and errors escaped (:func:`~simlab.grading.text.for_people`), the JSON lines each
text in JSON's escapes (:func:`~simlab.grading.text.json_line`), the CSV cells escaped and never
starting like a formula (:func:`~simlab.grading.text.csv_cell`). So each line of a report is one
line, and only the grader writes the start of one.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path

from simlab.grading.grader import NotebookGrade, QuestionGrade
from simlab.grading.late_grades import JSON_KEYS, late_line
from simlab.grading.messages import Message, message, render
from simlab.grading.questions import Exercise
from simlab.grading.text import SHOWN_CHARS, csv_cell, csv_writer, for_people, json_line, shown_path

__all__ = [
    "format_rubric",
    "format_text",
    "json_lines",
    "write_csv",
    "student_of",
    "students",
    "CSV_FIXED",
]

#: The CSV columns before the per-question ones.
CSV_FIXED = ("student", "notebook", "exercise", "score", "max_score")


#: The feedback of a question that passed some checks (and maybe not all its points: they come
#: from weighted criteria, so "10/12 checks passed" may earn 3 of 10).
_PARTIAL = re.compile(r"\d+/\d+ checks passed; ")


def format_text(grades: Sequence[NotebookGrade], lang: str = "en") -> str:
    """A readable report: one block per notebook, feedback in ``lang``; under a notebook where
    a question passed some checks without full points, one line pointing to its rubric. A
    queue's grade not graded is one line (``pending``, with its attempts) or two (``dead``,
    and why)."""
    blocks = []
    for g in grades:
        if g.status == "pending":
            attempts = len(g.attempts or ())
            blocks.append(f"{shown_path(g.notebook)}: pending ({attempts} attempt(s))")
            continue
        if g.status == "dead":
            error = for_people(error_of(g, lang), SHOWN_CHARS)
            blocks.append(f"{shown_path(g.notebook)}: dead\n  {error}")
            continue
        head = f"{shown_path(g.notebook)}: {g.score}/{g.max_score}"
        if g.exercise:
            head += f"  ({g.exercise})"
        lines = [head]
        if g.error:
            label = "未评分：" if lang == "zh" else "not graded: "
            lines.append(f"  {label}{for_people(error_of(g, lang), SHOWN_CHARS)}")
        width = max((len(q.id) for q in g.questions), default=0)
        for q in g.questions:
            lines.append(
                f"  {q.id:<{width}}  {q.points:>2}/{q.max_points:<2}  "
                f"{for_people(feedback_of(q, lang), SHOWN_CHARS)}"
            )
        lines.extend(f"  {for_people(render(said, lang))}" for said in override_lines(g))
        partial = any(q.points < q.max_points and _PARTIAL.match(q.feedback) for q in g.questions)
        if g.exercise and partial:
            lines.append(f"  {render(message('grader.weighted', exercise=g.exercise), lang)}")
        late = late_line(g.late, lang)
        if late:
            lines.append(f"  {for_people(late, SHOWN_CHARS)}")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def override_lines(g: NotebookGrade) -> list[Message]:
    """One line per question of ``g`` whose points the instructor overrode, with the reason
    (:func:`simlab.grading.overrides.override_line`)."""
    from simlab.grading.overrides import override_line

    return [override_line(q.id, q.override) for q in g.questions if q.override is not None]


def feedback_of(q: QuestionGrade, lang: str) -> str:
    """A question's feedback in ``lang``: rendered from its message (else its English), as
    produced: the medium that shows it escapes it."""
    return q.feedback if q.said is None else render(q.said, lang)


def error_of(g: NotebookGrade, lang: str) -> str:
    """A notebook's error in ``lang`` (see :func:`feedback_of`); empty without one."""
    return (g.error or "") if g.error_said is None else render(g.error_said, lang)


def json_lines(
    grades: Sequence[NotebookGrade],
    lang: str = "en",
    who: Sequence[tuple[str | None, Message | None]] | None = None,
) -> str:
    """One JSON object per notebook, one per line; ``feedback`` and ``error`` in ``lang``. Every
    text is the real one (the notebook's path, the feedback as produced), each control or
    formatting character in it a JSON escape (:func:`~simlab.grading.text.json_line`), so a line
    prints as one harmless line. With
    ``who`` (:func:`simlab.grading.roster.assign`), each object also has ``student``: its
    student's ID, or null and ``unknown`` (the one line why) when it is no one's. A queue's
    grade (:func:`simlab.grading.queue_report.as_grade`) also has ``status`` (``pending``,
    ``graded``, ``dead``; ``score`` and ``max_score`` null while not graded) and ``attempts``
    (``worker``, ``epoch``, ``started``, ``ended``, ``outcome``)."""
    out = []
    for i, g in enumerate(grades):
        data = g.to_dict()
        if data["error"]:
            data["error"] = error_of(g, lang)
        for q, grade in zip(data["questions"], g.questions, strict=True):
            q["feedback"] = feedback_of(grade, lang)
        if g.late is not None:
            data.update({k: g.late[k] for k in JSON_KEYS})
        if who is not None:
            student, why = who[i]
            data["student"] = student
            if why is not None:
                data["unknown"] = render(why, lang)
        if g.attempts is not None:
            if g.status != "graded":
                data["score"] = data["max_score"] = None
            data["status"] = g.status
            data["attempts"] = [a.to_dict() for a in g.attempts]
        out.append(json_line(data))
    return "".join(out)


def missing_lines(ids: Sequence[str], lang: str = "en") -> str:
    """One JSON object per roster student with no submission: ``student``, ``notebook`` null,
    ``score`` and ``max_score`` null, no questions, ``error`` saying so."""
    out = []
    for sid in ids:
        data = {
            "student": sid,
            "notebook": None,
            "exercise": None,
            "score": None,
            "max_score": None,
            "questions": [],
            "error": render(message("grader.no_submission"), lang),
        }
        out.append(json_line(data))
    return "".join(out)


def class_lines(
    keys: Sequence[str],
    who: Sequence[tuple[str | None, Message | None]],
    roster,
    lang: str = "en",
) -> list[str]:
    """The lines that account for the class against its roster: one per submission that is no
    one's (why), one per roster student without a submission."""
    lines = []
    for key, (_, why) in zip(keys, who, strict=True):
        if why is not None:
            lines.append(f"{shown_path(key)}: {for_people(render(why, lang))}")
    seen = {sid for sid, _ in who if sid is not None}
    for student in roster.students:
        if student.id not in seen:
            said = render(message("grader.no_submission"), lang)
            lines.append(f"{for_people(str(student))}: {said}")
    return lines


def student_of(notebook: str | Path, roots: Sequence[str | Path]) -> str:
    """Who handed ``notebook`` in: the first folder below the class folder it was found in
    (``class/alice/ex1.ipynb`` -> ``alice``), or the file's stem when it sits directly in it."""
    path = _unfollowed(notebook)
    for root in roots:
        root = _unfollowed(root)
        if root.is_dir() and root in path.parents:
            rel = path.relative_to(root)
            return rel.parts[0] if len(rel.parts) > 1 else path.stem
    return path.stem


def _unfollowed(path: str | Path) -> Path:
    """``path`` made absolute without following any link: a refused link (or a file in a
    linked folder) keeps the name it was handed in under, never its target's."""
    return Path(os.path.abspath(path))


def students(notebooks: Sequence[str | Path], roots: Sequence[str | Path] = ()) -> list[str]:
    """The ``student`` value of each notebook (:func:`student_of`), except that notebooks
    passed one by one (not found in a class folder) never share one: when their file names
    clash, each is named by its path below the folder they all share, without ``.ipynb``
    (``alice/ex1`` and ``bob/ex1``)."""
    names = [student_of(n, roots) for n in notebooks]
    folders = [_unfollowed(r) for r in roots if Path(r).is_dir()]
    loose = [
        i for i, n in enumerate(notebooks) if not any(f in _unfollowed(n).parents for f in folders)
    ]
    clashes: dict[str, list[int]] = {}
    for i in loose:
        clashes.setdefault(names[i], []).append(i)
    for group in clashes.values():
        if len(group) < 2:
            continue
        paths = [_unfollowed(notebooks[i]).with_suffix("") for i in group]
        common = Path(os.path.commonpath([p.parent for p in paths]))
        for i, path in zip(group, paths, strict=True):
            names[i] = path.relative_to(common).as_posix()
    return names


def write_csv(
    grades: Sequence[NotebookGrade],
    path: str | Path,
    roots: Sequence[str | Path] = (),
    who: Sequence[tuple[str | None, Message | None]] | None = None,
    missing: Sequence[str] = (),
    lang: str = "en",
) -> Path:
    """Write one row per notebook: student, notebook, exercise, score, max_score, one column
    per question (``exercise/question``, its points), ``error``, and ``overrides`` (the
    instructor's overrides of its points, each with its reason). Without ``who`` the
    student is a label made from the paths (:func:`students`); with it (a roster's
    :func:`~simlab.grading.roster.assign`), the roster's student ID, empty for a notebook that
    is no one's (its ``error`` says why); each ID of ``missing`` (roster students without a
    submission) has a row of its own with empty points. When a deadline is in force, the
    columns ``late_days`` and ``late_penalty`` come before ``error``, and ``score`` is the score
    after the penalty (:mod:`simlab.grading.late_grades`)."""
    columns: list[str] = []
    for g in grades:
        for q in g.questions:
            name = f"{g.exercise}/{q.id}"
            if name not in columns:
                columns.append(name)
    late = [c for c in ("late_days", "late_penalty") if any(g.late for g in grades)]
    path = Path(path)
    if who is None:
        names = students([g.notebook for g in grades], roots)
        whys: list[str] = [""] * len(grades)
    else:
        names = [sid or "" for sid, _ in who]
        whys = ["" if why is None else render(why, lang) for _, why in who]
    with csv_writer(path) as writer:
        writer.writerow([*CSV_FIXED, *columns, *late, "error", "overrides"])
        for g, student, why in zip(grades, names, whys, strict=True):
            points = {f"{g.exercise}/{q.id}": q.points for q in g.questions}
            error = "; ".join(e for e in (error_of(g, lang) if g.error else "", why) if e)
            writer.writerow(
                [
                    csv_cell(student),
                    csv_cell(g.notebook),
                    g.exercise or "",
                    g.score,
                    g.max_score,
                    *(points.get(c, "") for c in columns),
                    *(_late_cell(g, c) for c in late),
                    csv_cell(error, SHOWN_CHARS),
                    csv_cell("; ".join(render(o, lang) for o in override_lines(g))),
                ]
            )
        nothing = render(message("grader.no_submission"), lang)
        for sid in missing:
            blank = ["" for _ in (*columns, *late)]
            writer.writerow([csv_cell(sid), "", "", "", "", *blank, nothing, ""])
    return path


def _late_cell(g: NotebookGrade, column: str):
    """A notebook's ``late_days`` or ``late_penalty`` cell (empty when it has none)."""
    value = (g.late or {}).get(column)
    return "" if value is None else value


def format_rubric(exercise: Exercise, lang: str = "en") -> str:
    """The rubric of ``exercise`` for instructors, in ``lang``: per question its criteria,
    weights, which are the core idea, the sentences of the exercise text each checks, the
    properties checked on generated inputs and the classic mistakes they catch (words only,
    no hidden input; the hidden worlds are not described, since learners read it too).

    In another language than English every text comes from its translation store
    (:func:`simlab.i18n.rubric.localized`), a quote being the sentence of that language's
    exercise, so a learner finds it there. A text whose translation is missing or stale stays
    English (its quote framed as the English exercise's) and a line under the title counts
    them; a language with no store for the exercise says its criteria are English only."""
    from simlab.i18n.rubric import localized, one_line

    def say(key: str, **values) -> str:
        return render(message(f"grader.rubric_{key}", **values), lang)

    shown = localized(exercise, lang)
    ex = shown.exercise
    lines = [say("exercise", exercise=ex.id, title=ex.title, points=ex.max_score)]
    if not shown.translated:
        lines.append(f"  {say('in_english', notebook=ex.notebook)}")
    elif shown.english:
        lines.append(f"  {say('untranslated', n=len(shown.english), notebook=ex.notebook)}")
    for q in ex.questions:
        lines.append("\n  " + say("question", question=q.id, title=q.title, points=q.points))
        if not q.rubric:
            lines.append(f"    {say('per_check', points=q.points)}")
        for c in q.rubric:
            kind = say("core" if c.core else "detail")
            said = say("criterion", weight=c.weight, criterion=c.id, kind=kind, says=c.says)
            lines.append(f"    {said}")
            for n, quote in enumerate(c.text, 1):
                english = shown.quote_in_english(q.id, c.id, n)
                frame = "english_text_says" if english else "text_says"
                lines.append(f"        {say(frame, quote=one_line(quote))}")
            for sentence in c.properties:
                lines.append(f"        {say('property', sentence=sentence)}")
            if c.mistakes:
                mistakes = say("separator").join(c.mistakes)
                lines.append(f"        {say('catches', mistakes=mistakes)}")
    lines.append(f"\n  {say('footer')}")
    return "\n".join(lines)
