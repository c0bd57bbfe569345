"""Does the text report explain points that do not follow the count of checks passed? And is
every text a notebook can write (file names, feedback, errors) shown as one harmless line: no
forged score line, no terminal escape, no megabyte of feedback, in the report, the JSON lines,
the CSV and the progress bar?"""

from __future__ import annotations

import csv
import io
import json
import re
import unicodedata
from pathlib import Path

import pytest

from simlab.grading import grader
from simlab.grading.grader import NotebookGrade, QuestionGrade, bounded_grade
from simlab.grading.report import format_text, json_lines, write_csv
from simlab.grading.text import FEEDBACK_CHARS, shown_path


def _grade(*questions: QuestionGrade) -> NotebookGrade:
    score = sum(q.points for q in questions)
    return NotebookGrade(
        "ex.ipynb", "leases", score, sum(q.max_points for q in questions), list(questions)
    )


def test_does_a_partial_question_point_to_the_rubric_in_both_languages():
    grade = _grade(
        QuestionGrade("atomic-claim", 3, 10, "10/13 checks passed; two workers both hold epoch 3"),
        QuestionGrade("worker-loop", 6, 6, "all 9 checks passed"),
    )
    english = format_text([grade])
    assert english.splitlines()[-1] == (
        "  points weigh ideas, not checks: `simlab grade --rubric leases` shows each question's "
        "criteria and their weights"
    )
    assert "simlab grade --rubric leases --lang zh" in format_text([grade], "zh").splitlines()[-1]
    assert "加权" in format_text([grade], "zh")


def test_does_a_report_with_full_or_unattempted_questions_say_nothing_more():
    full = _grade(QuestionGrade("atomic-claim", 10, 10, "all 13 checks passed"))
    blank = _grade(QuestionGrade("atomic-claim", 0, 10, "not attempted: claim() is not written"))
    for grade in (full, blank):
        assert "--rubric" not in format_text([grade])


# --------------------------------------------------------------- text a notebook can write ---

#: A folder name that, printed raw, ends the line and draws a full score for someone else (and
#: ends in a byte that is not UTF-8, which a raw print cannot even encode).
FORGED_NAME = (
    "x\n\x1b[2K\rzz-honest/01_fencing_and_cancellation.ipynb: 17/17  (fencing)\x1b[1A\udcff"
)
#: Feedback and errors as a hostile notebook makes them: lines, escapes, a megabyte of text.
FORGED_TEXT = (
    "cancel() raised \x1b[31mError\n"
    "evil/01.ipynb: 17/17  (fencing)\r\n"
    "  cancel-after-claim   6/6  all 6 checks passed\u2028\u202e\x9b2J" + "A" * 1_600_000
)
#: What a score line of the text report looks like (a notebook's head line).
SCORE_LINE = re.compile(r"^\S.*: \d+/\d+")


def _hostile(folder: Path) -> NotebookGrade:
    return NotebookGrade(
        str(folder / FORGED_NAME / "01_fencing_and_cancellation.ipynb"),
        "fencing",
        0,
        17,
        [QuestionGrade(q, 0, 6, FORGED_TEXT) for q in ("cancel-after-claim", "cancel-limits")],
        error=FORGED_TEXT,
    )


def _printable(text: str) -> bool:
    return all(ch == "\n" or unicodedata.category(ch)[0] != "C" for ch in text) and not any(
        ch in text for ch in "\u2028\u2029\u202e"
    )


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_does_a_hostile_name_or_feedback_draw_no_line_of_its_own(tmp_path, lang):
    honest = _grade(QuestionGrade("atomic-claim", 10, 10, "all 13 checks passed"))
    text = format_text([_hostile(tmp_path), honest], lang)
    lines = text.splitlines()
    # two blocks: head, error, two questions / blank / head, one question
    assert len(lines) == 4 + 1 + 2, lines
    assert [line for line in lines if SCORE_LINE.match(line)] == [lines[0], lines[5]]
    assert lines[0].startswith('"') and lines[0].endswith('": 0/17  (fencing)'), lines[0]
    assert "\\n" in lines[0] and "\\x1b" in lines[0], "the name is shown, escaped"
    assert _printable(text), "no control character reaches the terminal"
    assert all(len(line) < 1000 for line in lines), "no megabyte of feedback"


def test_does_the_grader_bound_feedback_and_errors_and_keep_them_as_produced():
    grade = bounded_grade(_hostile(Path("class")))
    for said in [grade.error, *(q.feedback for q in grade.questions)]:
        assert len(said) <= FEEDBACK_CHARS and said.endswith("...")
        assert said.startswith("cancel() raised \x1b[31mError\nevil/01.ipynb: 17/17"), said[:40]


def test_do_json_lines_keep_the_real_name_and_print_harmlessly(tmp_path):
    grade = bounded_grade(_hostile(tmp_path))
    out = json_lines([grade])
    assert out.count("\n") == 1 and _printable(out)
    data = json.loads(out)
    assert data["notebook"] == grade.notebook, "the path is the real one, for a program"
    assert data["error"] == grade.error, "the error as produced, bounded by the grader"


def test_are_csv_cells_escaped_and_never_a_formula(tmp_path):
    folder = tmp_path / "class"
    grades = [
        NotebookGrade(str(folder / FORGED_NAME / "ex.ipynb"), None, 0, 0, error=FORGED_TEXT),
        NotebookGrade(str(folder / "=HYPERLINK(1)" / "ex.ipynb"), None, 0, 0, error="-2+3"),
    ]
    for g in grades:
        Path(g.notebook).parent.mkdir(parents=True)
        Path(g.notebook).write_text("{}")
    table = write_csv(grades, tmp_path / "class.csv", [folder])
    text = table.read_text(encoding="utf-8")
    assert text.count("\n") == 3 and _printable(text.replace("\r", ""))
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [row["student"][:1] for row in rows] == ["x", "'"]
    assert rows[1]["student"] == "'=HYPERLINK(1)" and rows[1]["error"] == "'-2+3"
    assert all(len(cell) < 2000 for row in rows for cell in row.values())


def test_does_the_progress_bar_show_nothing_a_notebook_wrote(tmp_path, capsys):
    folder = tmp_path / FORGED_NAME
    folder.mkdir(parents=True)
    (folder / "01_fencing_and_cancellation.ipynb").write_text("{ not json")
    (folder / "02_leases_effects_and_loop.ipynb").write_text("[" * 100_000)
    grades = grader.grade([tmp_path], progress=True, sandbox=False)
    err = capsys.readouterr().err
    assert "grading" in err and "zz-honest" not in err and "17/17" not in err
    assert [g.error is not None for g in grades] == [True, True]
    assert all("grader error" not in g.error for g in grades)


@pytest.mark.parametrize(
    ("name", "quoted"),
    [
        ("class/alice/01_fencing.ipynb", False),
        ("class/王小明/作业 1.ipynb", False),
        ("class/zz-honest\u02d0 17/17  (fencing)/x.ipynb", True),  # a modifier letter colon
        ("class/zz-honest\ua789 17/17  (fencing)/x.ipynb", True),
        ("class/zz-honest\uff1a 17/17  (fencing)/x.ipynb", True),  # a fullwidth colon
        ("class/a: 17/17  (fencing)/x.ipynb", True),
        ('class/a"b/x.ipynb', True),
    ],
)
def test_is_a_name_that_could_read_as_a_score_quoted(name, quoted):
    shown = shown_path(name)
    assert shown.startswith('"') is quoted, shown
    if quoted:
        inner = shown[1:-1]
        assert shown[0] == shown[-1] == '"' and '"' not in inner.replace('\\"', ""), shown
    else:
        assert shown == name


def test_does_the_chinese_rubric_say_everything_in_chinese_and_quote_the_chinese_exercise():
    """``--rubric --lang zh``: the frame and every text of the rubric (titles, criteria,
    properties, mistakes) are Chinese with full-width punctuation and no English prose, each
    quote is the Chinese exercise's (framed as such), no line says the criteria are English,
    and the English rubric is unchanged by the language option's default."""
    from simlab.grading.checks import EXERCISES
    from simlab.grading.report import format_rubric
    from simlab.i18n.prose import english_prose
    from simlab.i18n.punctuation import problems
    from simlab.i18n.rubric import localized

    for exercise in EXERCISES.values():
        english = format_rubric(exercise)
        chinese = format_rubric(exercise, "zh")
        assert english == format_rubric(exercise, "en")
        assert english.splitlines()[0].endswith(f"({exercise.max_score} points)")
        assert "核心思路" not in english and "the text says:" in english
        head, blank, *rest = chinese.splitlines()
        title = localized(exercise, "zh").exercise.title
        assert head == f"{exercise.id}：{title}（{exercise.max_score} 分）", head
        assert title != exercise.title and blank == ""  # no line about English criteria
        assert len(chinese.splitlines()) == len(english.splitlines())
        frames = ("the text says:", "property:", "catches:", "one point per hidden check")
        assert not [line for line in rest if line.strip().startswith(frames)]
        assert "(core idea):" not in chinese and "(detail):" not in chinese
        assert chinese.count("练习原文：") == english.count("the text says: ")
        assert "英文版练习原文" not in chinese and "只有英文" not in chinese
        assert english_prose(chinese) == [], exercise.id
        assert [line for line in chinese.splitlines() if problems(line)] == [], exercise.id
        assert rest[-1].strip().startswith("一条评分标准") and rest[-1].endswith("。")


def test_does_a_rubric_without_current_chinese_say_so_and_show_its_english(tmp_path, monkeypatch):
    """The message for a language without a store is kept: the criteria are English and quote
    the English exercise. A store whose entry is stale shows that text in English, and a line
    counts such texts."""
    import json
    import shutil

    import simlab.i18n.rubric as rubric
    from simlab.grading.checks import EXERCISES
    from simlab.grading.report import format_rubric

    exercise = EXERCISES["fencing"]
    shipped = rubric._PACKAGE / "zh" / "rubrics"
    monkeypatch.setattr(rubric, "_PACKAGE", tmp_path)  # no store for any exercise
    chinese = format_rubric(exercise, "zh").splitlines()
    assert "只有英文" in chinese[1] and exercise.notebook in chinese[1]
    assert chinese[0] == f"fencing：{exercise.title}（{exercise.max_score} 分）"
    assert sum("英文版练习原文：" in line for line in chinese) == sum(
        len(c.text) for q in exercise.questions for c in q.rubric
    )

    store = shutil.copytree(shipped, tmp_path / "zh" / "rubrics")
    path = store / "fencing.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    quote = "cancel-after-claim/cancel-fences/text-1"
    for key in ("title", quote):
        data["cells"][key]["en_hash"] = "0" * 64  # translated from another English
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    chinese = format_rubric(exercise, "zh").splitlines()
    assert chinese[0] == f"fencing：{exercise.title}（{exercise.max_score} 分）"
    assert chinese[1].strip().startswith("本评分标准中有 2 条文字还没有最新的中文翻译")
    (english_quote,) = [line for line in chinese if "英文版练习原文：" in line]
    assert english_quote.strip() == f"英文版练习原文：{exercise.questions[0].rubric[0].text[0]}"
