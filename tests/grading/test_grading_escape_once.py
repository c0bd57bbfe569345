"""Is every text a notebook can influence carried as produced and escaped exactly once, by each
medium that shows it? A hostile string (control characters, a bidi override, a zero width, ANSI
escapes, ``<script>``, a formula-looking start, a megabyte of text) in every field of a grade (the
notebook's name, with a newline, each question's feedback and its message, the error and its
message, the learner's value in a nested message), for the plain grade and for the queue, reaches
the terminal text, the JSON lines, the CSV gradebooks and the HTML pages escaped once: no raw
control character, no escape escaped again (``\\\\x1b`` for ``\\x1b``, ``&amp;lt;`` for ``&lt;``),
and a megabyte bounded where the grade is taken in."""

from __future__ import annotations

import csv
import io
import json
import os
import time
import unicodedata
from pathlib import Path

import pytest

from simlab.grading.grader import NotebookGrade, QuestionGrade, bounded_grade
from simlab.grading.messages import message, sentence
from simlab.grading.queue_report import as_grade, feedback_page, write_canvas
from simlab.grading.queue_store.store import Attempt, Submission
from simlab.grading.report import format_text, json_lines, write_csv
from simlab.grading.roster import Roster, Student
from simlab.grading.text import FEEDBACK_CHARS, escape

#: Everything a notebook may write at once: a formula start, ANSI escapes, a C1 control, HTML,
#: a bidi override, a zero width, a line and paragraph separator, a forged score line, then a
#: megabyte.
HOSTILE = (
    '=HYPERLINK("x")\x1b[31m<script>alert(1)</script>\u202e\u200b\x9b2J\u2028'
    "\r\nevil/01.ipynb: 17/17  (fencing)\x1b[1A" + "A" * 1_000_000
)
#: A folder name with a newline, an escape and HTML in it.
NAME = "=x\n\x1b[2K<b>\u202eb"
#: The characters no output may hold raw (its own line ends aside).
RAW = ("\x1b", "\x9b", "\u202e", "\u200b", "\u2028")


def _grade(folder: Path) -> NotebookGrade:
    """A grade as the grader hands it over: every text a notebook can influence is hostile."""
    said = message("grader.gets_zero", said=sentence(HOSTILE))
    nested = message("grader.not_attempted", why=HOSTILE)
    return bounded_grade(
        NotebookGrade(
            str(folder / NAME / "01_fencing_and_cancellation.ipynb"),
            "fencing",
            0,
            17,
            [
                QuestionGrade("cancel-after-claim", 0, 6, str(said), said),
                QuestionGrade("cancel-limits", 0, 6, str(nested), nested),
                QuestionGrade("cancel-twice", 0, 5, HOSTILE),  # a grade without a message
            ],
            error=HOSTILE,
            error_said=sentence(HOSTILE),
        )
    )


def _queued(g: NotebookGrade) -> NotebookGrade:
    """``g`` as a queue's report reads it: its ``--json`` object with messages, stored as
    JSON, read back as a grade."""
    result = json.loads(json.dumps(g.to_dict(messages=True)))
    attempt = Attempt("w/1", 1, 0.0, 1.0, "graded")
    return as_grade(Submission("t1", g.notebook, "0" * 64, "v", "graded", result, (attempt,), 1))


def _no_raw(text: str) -> None:
    assert not [ch for ch in RAW if ch in text], [ch for ch in RAW if ch in text]
    assert all(
        ch in "\n\r" or unicodedata.category(ch)[0] != "C" for ch in text.replace("\r\n", "\n")
    )


def _once(text: str) -> None:
    """Shown escaped for a terminal once: the escapes are there, none escaped again."""
    _no_raw(text)
    assert "\\x1b[31m<script>" in text and "\\u202e" in text and "\\x9b" in text
    assert "\\\\x1b" not in text and "\\\\u202e" not in text and "&lt;" not in text


def test_does_the_grade_carry_the_text_as_produced_and_bounded(tmp_path):
    g = _grade(tmp_path)
    texts = [g.error, *(q.feedback for q in g.questions)]
    assert all(len(t) <= FEEDBACK_CHARS and t.endswith("...") for t in texts)
    assert all("\x1b[31m<script>" in t and "\r\nevil/01" in t for t in texts), "not escaped"
    assert len(json.dumps(g.to_dict(messages=True))) < 20 * FEEDBACK_CHARS, "no megabyte kept"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_is_the_text_report_escaped_once(tmp_path, lang):
    for text in (
        format_text([_grade(tmp_path)], lang),
        format_text([_queued(_grade(tmp_path))], lang),
    ):
        lines = text.splitlines()
        assert len(lines) == 1 + 1 + 3, lines  # head, error, three questions
        _once(text)
        assert lines[0].startswith('"') and "\\n\\x1b[2K<b>\\u202eb" in lines[0]
        assert all(len(line) < 1000 for line in lines)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_do_json_lines_hold_the_text_in_json_escapes_once(tmp_path, lang):
    g = _grade(tmp_path)
    for out in (json_lines([g], lang), json_lines([_queued(g)], lang)):
        assert out.count("\n") == 1
        _no_raw(out)
        assert "\\u001b[31m<script>" in out and "\\u202e" in out
        assert "\\\\x1b" not in out and "\\\\u" not in out, "no escape escaped again"
        data = json.loads(out)
        assert data["notebook"] == g.notebook
        assert data["error"] == g.error[:FEEDBACK_CHARS], "the text itself, once decoded"
        feedback = [q["feedback"] for q in data["questions"]]
        assert feedback[2] == g.questions[2].feedback
        assert all("\x1b[31m<script>" in f and len(f) <= FEEDBACK_CHARS + 60 for f in feedback)


def test_is_the_csv_gradebook_escaped_once_and_never_a_formula(tmp_path):
    g = _grade(tmp_path)
    (tmp_path / NAME).mkdir()
    table = write_csv([g], tmp_path / "class.csv", [tmp_path]).read_text(encoding="utf-8")
    _no_raw(table.replace("\r\n", "\n"))
    rows = list(csv.DictReader(io.StringIO(table)))
    assert len(rows) == 1
    assert rows[0]["student"] == "'" + escape(NAME), "a formula start is defused, escaped once"
    assert rows[0]["error"].startswith("'=HYPERLINK") and "\\x1b[31m<script>" in rows[0]["error"]
    assert "\\\\x1b" not in table and "&lt;" not in table
    assert all(len(cell) < 2000 for cell in rows[0].values())


def test_is_the_canvas_gradebook_escaped_once(tmp_path):
    g = _grade(tmp_path)
    g.questions.clear()  # an ungradable submission: its error is a line of the export
    queued = _queued(g)
    student = Student("=1+1", HOSTILE[:40], sis_login_id="x")
    roster = Roster("roster.csv", [student], by_notebook={g.notebook: student})
    titles = {"fencing": "Fencing (1)"}
    rows, lines = write_canvas([queued], roster, tmp_path / "canvas.csv", titles)
    table = (tmp_path / "canvas.csv").read_text(encoding="utf-8")
    _no_raw(table.replace("\r\n", "\n"))
    assert rows == 1 and "'=HYPERLINK" in table and "\\x1b[31m<script>" in table
    assert "\\\\x1b" not in table
    text = "\n".join(lines)
    _once(text)
    assert len(lines) == 1, lines


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_is_the_feedback_page_escaped_once(tmp_path, lang):
    page = feedback_page(NAME, [_queued(_grade(tmp_path))], lang)
    _no_raw(page)
    assert "<script>" not in page and "<b>" not in page
    assert "\\x1b[31m&lt;script&gt;alert(1)&lt;/script&gt;" in page and "\\u202e" in page
    assert "&amp;lt;" not in page and "\\\\x1b" not in page, "no escape escaped again"
    assert len(page) < 20_000


def test_does_the_queue_bound_a_refusal_an_older_queue_stored(tmp_path):
    from simlab.grading.queue import grade_job
    from simlab.grading.queue_store.store import Job
    from simlab.records import Lease

    job = Job(Lease("t1", "w", 1, 0, 30.0), NAME, "0" * 64, "v", {}, None, HOSTILE)
    result, outcome = grade_job(job)
    assert outcome == "graded" and result["notebook"] == NAME
    assert result["error"] == HOSTILE[: FEEDBACK_CHARS - 3] + "...", "as stored, bounded"
    g = as_grade(Submission("t1", NAME, "0" * 64, "v", "graded", result, (), 1))
    _once(format_text([g]))
    assert json.loads(json_lines([g]))["error"] == result["error"]


def test_do_the_class_lines_show_a_roster_name_escaped_once(tmp_path):
    from simlab.grading.report import class_lines

    key = str(tmp_path / "x" / "ex.ipynb")
    twins = [
        Student(f"s{n}", HOSTILE[:70], sis_login_id=login) for n, login in ((1, "x"), (2, "ex"))
    ]
    roster = Roster("roster.csv", twins, by_login={s.sis_login_id: s for s in twins})
    lines = class_lines([key], [roster.owner(key)], roster)
    assert len(lines) == 3, lines  # no one's (two students), and each of them without one
    _once("\n".join(lines))


def test_does_a_dead_submission_line_show_its_name_escaped_once(tmp_path):
    from simlab.grading.queue import _dead_lines
    from simlab.grading.queue_store.store import open_queue

    with open_queue(tmp_path / "q.db", create=True, max_attempts=1) as queue:
        queue.enqueue(NAME, b"{}", "v", {}, None)
        assert queue.claim("w/1", 0.001) is not None
        time.sleep(0.01)  # the lease runs out: the one claim allowed is spent
        assert queue.claim("w/2", 30.0) is None  # ... and the next claim sends it to the dead
        (line,) = _dead_lines(queue, 1)
    assert line.startswith('"=x\\n\\x1b[2K<b>\\u202eb": dead: 1 attempts'), line
    _no_raw(line)


def test_does_json_hold_a_declared_exercise_once(tmp_path):
    """The exercise a notebook's metadata names is quoted in the error, not ``repr``-ed: a
    repr would escape it before the medium does."""
    declared = "\x1b[31mfencing\nFORGED"
    said = message("grader.unknown_exercise", declared=declared, known="fencing")
    g = bounded_grade(NotebookGrade.failed(str(tmp_path / "ex.ipynb"), said))
    for lang in ("en", "zh"):
        error = json.loads(json_lines([g], lang))["error"]
        assert declared in error and "\\x1b" not in error, error
        text = format_text([g], lang)
        _no_raw(text)
        assert "\\x1b[31mfencing\\nFORGED" in text and "\\\\x1b" not in text


def test_is_a_name_that_is_not_utf8_written_as_its_bytes(tmp_path):
    from simlab.grading.queue import enqueue
    from simlab.grading.queue_store.store import open_queue
    from simlab.grading.text import path_text, quoted_path

    path = Path(os.fsdecode(bytes(tmp_path) + b"/bad\xff.ipynb"))
    path.write_bytes(b"{}")
    assert path_text(path) == f"{tmp_path}/bad\\xff.ipynb"
    assert path_text("plain/名字.ipynb") == "plain/名字.ipynb"
    assert quoted_path(path).startswith('"') and "bad\\\\xff" in quoted_path(path)
    with open_queue(tmp_path / "q.db", create=True) as queue:
        enqueue(queue, [path], "v", {})  # a name no UTF-8 store takes, stored as text it takes
        (sub,) = queue.submissions()
    assert sub.notebook == path_text(path)
    line = json_lines([bounded_grade(NotebookGrade.failed(path_text(path), sentence("x")))])
    assert json.loads(line.encode("utf-8"))["notebook"] == path_text(path)  # strict UTF-8


def test_are_canvas_name_and_section_cut_and_never_a_formula(tmp_path):
    student = Student("s1", "N" * 100_000, sis_login_id="x", section="@SUM(A1)")
    roster = Roster("roster.csv", [student], by_notebook={})
    write_canvas([], roster, tmp_path / "canvas.csv", {"fencing": "Fencing (1)"})
    row = list(csv.reader(io.StringIO((tmp_path / "canvas.csv").read_text("utf-8"))))[2]
    assert row[4] == "'@SUM(A1)" and len(row[0]) <= FEEDBACK_CHARS and row[0].endswith("...")
    assert row[1] == "s1", "Canvas matches by the ID, written as the roster gives it"


@pytest.mark.parametrize("ch", ["\u034f", "\u115f", "\u3164", "\uffa0", "\ufe0f", "\U000e0100"])
def test_is_an_invisible_letter_or_mark_shown_escaped(ch):
    from simlab.grading.text import json_line, shown_path

    name = f"alice{ch}.ipynb"
    shown = f"\\U{ord(ch):08x}" if ord(ch) > 0xFFFF else f"\\u{ord(ch):04x}"
    assert shown_path(name) == f'"alice{shown}.ipynb"', "quoted, and the letter made visible"
    assert ch not in escape(name) and ch not in json_line({"n": name})
    assert json.loads(json_line({"n": name}))["n"] == name


def test_is_a_command_line_mistake_one_line_whatever_path_it_names():
    from simlab.cli.args import UsageError

    said = UsageError("cannot_write.no_folder", path="x\n\x1b[2Jalice: 17/17").said("en")
    assert "\n" not in said and "\x1b" not in said and "\\n\\x1b[2Jalice" in said
