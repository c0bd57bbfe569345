"""Does a class's export never stop: every student's page written on its own, page names one to
one with student IDs and inside the folder, the count of pages the files written, and the exit
status saying what went wrong (1 not graded, 3 not written)?

The queue is filled through its own API and by a worker over files that never reach a kernel
(refused or unreadable), so these tests need no jail.
"""

from __future__ import annotations

import csv
import json
import os

import pytest

from simlab.cli import main
from simlab.grading.queue_report import page_name
from simlab.grading.queue_store.store import open_queue
from tests.cli.queued import graded, settings
from tests.cli.queued import report as _report

SETTINGS = settings(sandbox=False)
#: Graded one at a time: these files never reach a kernel, so a grading process (``--jobs``
#: above one, one per CPU by default) would start only to be stopped. Grading in processes is
#: judged in tests/grading/test_grading_processes.py and tests/cli/test_cli_grade_queue.py.
ONE_AT_A_TIME = ("--jobs", "1")


def _work(db) -> None:
    """A worker works the queue ``db`` to its end, one submission at a time."""
    worker = ["grade", "--queue", str(db), "--worker", "--no-sandbox", "--no-progress"]
    assert main([*worker, *ONE_AT_A_TIME]) == 0


def _graded(db, notebook: str, points: list[int], version: str = "v1", **kw) -> None:
    graded(db, notebook, points, version, SETTINGS, **kw)


def _broken_class(tmp_path):
    """A class of three broken files (a link, a truncated and an empty notebook) worked by a
    worker, and one graded submission."""
    folder = tmp_path / "class"
    for name in ("ann", "ben", "cat", "dan"):
        (folder / name).mkdir(parents=True)
    target = tmp_path / "elsewhere.ipynb"
    target.write_text("{}")
    (folder / "ann" / "ex.ipynb").symlink_to(target)
    (folder / "ben" / "ex.ipynb").write_text('{"cells": [')
    (folder / "cat" / "ex.ipynb").write_bytes(b"")
    db = tmp_path / "q.sqlite"
    assert main(["grade", "--queue", str(db), "--enqueue-only", "--no-sandbox", str(folder)]) == 0
    _work(db)
    _graded(db, str(folder / "dan" / "ex.ipynb"), [5, 2])
    return db, folder


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_does_a_feedback_export_over_broken_files_write_every_page(tmp_path, capsys, lang):
    db, folder = _broken_class(tmp_path)
    capsys.readouterr()
    pages = tmp_path / "pages"
    status, out, err = _report(capsys, db, "--feedback", str(pages), "--lang", lang)
    written = sorted(os.listdir(pages))
    assert status == 1, "three submissions could not be graded"
    assert "Traceback" not in err and err == ""
    assert len(written) == 4 and f"wrote 4 feedback page(s) in {pages}" in out
    by_student = {str(folder / n / "ex.ipynb"): n for n in ("ann", "ben", "cat", "dan")}
    for key, name in by_student.items():
        page = (pages / page_name(key)).read_text(encoding="utf-8")
        assert name in page
        others = set(by_student.values()) - {name}
        assert not any(f"/{o}/" in page for o in others), "a page shows one student only"
    linked = (pages / page_name(str(folder / "ann" / "ex.ipynb"))).read_text(encoding="utf-8")
    said = "符号链接" if lang == "zh" else "a symbolic link, not followed"
    assert said in linked


def test_is_an_export_that_cannot_be_written_exit_3_and_the_others_written(tmp_path, capsys):
    db = tmp_path / "q.sqlite"
    for name in ("alice", "bob", "carol"):
        _graded(db, f"class/{name}/ex.ipynb", [5, 5])
    pages = tmp_path / "pages"
    pages.mkdir()
    (pages / page_name("class/bob/ex.ipynb")).mkdir()  # a folder where bob's page goes
    status, out, err = _report(capsys, db, "--feedback", str(pages), "--csv", str(tmp_path))
    assert status == 3
    lines = err.splitlines()
    assert len(lines) == 2 and "Traceback" not in err
    assert any(str(tmp_path) in line for line in lines), "the CSV's line"
    assert any("class/bob/ex.ipynb" in line for line in lines), "bob's page's line"
    files = [p for p in os.listdir(pages) if (pages / p).is_file()]
    assert len(files) == 2 and "wrote 2 feedback page(s)" in out


def test_does_an_error_and_an_export_failure_exit_3(tmp_path, capsys):
    db, _ = _broken_class(tmp_path)
    capsys.readouterr()
    status, _, err = _report(capsys, db, "--csv", str(tmp_path))
    assert status == 3 and len(err.splitlines()) == 1


def test_is_a_class_all_graded_and_exported_exit_0(tmp_path, capsys):
    db = tmp_path / "q.sqlite"
    _graded(db, "class/alice/ex.ipynb", [5, 2])
    out_csv = tmp_path / "class.csv"
    status, _, err = _report(capsys, db, "--feedback", str(tmp_path / "p"), "--csv", str(out_csv))
    assert status == 0 and err == ""
    assert list(csv.reader(out_csv.open()))[1][3] == "7"


IDS = [
    "alice",
    "Alice",
    "ALICE",
    "a/b",
    "a\\b",
    "a_2fb",
    "_2f",
    "..",
    "../../etc/passwd",
    "a\x00b",
    "",
    "_",
    ".",
    "con",
    "-",
    "_2d",
    "-x",
    "_2dx",
    "a-",
    "学生",
    '=HYPERLINK("x")',
    "x" * 300,
    "x" * 299 + "y",
    "a" * 170 + "/",
]


def test_are_page_names_one_to_one_with_ids_and_inside_the_folder(tmp_path):
    names = [page_name(i) for i in IDS]
    assert len(set(names)) == len(IDS), "two IDs share a page"
    assert len({n.lower() for n in names}) == len(IDS), "two names differ only in case"
    for n in names:
        assert n.endswith(".html") and "." not in n[: -len(".html")] and not n.startswith("-")
        assert "/" not in n and "\\" not in n and "\x00" not in n and len(n) <= 255
        assert (tmp_path / n).resolve().parent == tmp_path.resolve()


def test_are_students_whose_ids_differ_by_a_backslash_on_pages_of_their_own(tmp_path, capsys):
    """Keys that a slash-for-backslash page path would merge keep a page each, and a key shaped
    like another's page path writes no file outside its own."""
    db = tmp_path / "q.sqlite"
    _graded(db, "class/a\\b/ex.ipynb", [5, 5])  # 10/10
    _graded(db, "class/a/b/ex.ipynb", [0, 0])  # 0/10
    _graded(db, "class/alice/ex.html", [1, 0])  # shaped like alice's old page path
    _graded(db, "class/alice/ex.ipynb", [0, 1])
    pages = tmp_path / "pages"
    status, out, _ = _report(capsys, db, "--feedback", str(pages))
    assert status == 0 and "wrote 4 feedback page(s)" in out
    assert len(os.listdir(pages)) == 4
    top = (pages / page_name("class/a\\b/ex.ipynb")).read_text()
    assert "<p>10 / 10 points</p>" in top and "<p>0 / 10 points</p>" not in top


def test_does_the_json_report_of_a_broken_file_have_its_one_line(tmp_path, capsys):
    db, _ = _broken_class(tmp_path)
    capsys.readouterr()
    status, out, _ = _report(capsys, db, "--json")
    rows = [json.loads(line) for line in out.splitlines()]
    assert status == 1 and len(rows) == 4
    assert sum(bool(r["error"]) for r in rows) == 3


OLD_MALFORMED = {  # nbformat 3, a code cell without its outputs: nbformat cannot convert it
    "metadata": {"name": ""},
    "nbformat": 3,
    "nbformat_minor": 0,
    "worksheets": [{"cells": [{"cell_type": "code", "input": "x = 1", "language": "python"}]}],
}


def test_is_a_malformed_old_notebook_the_files_fault_in_nbformats_words(tmp_path, capsys):
    path = tmp_path / "old.ipynb"
    path.write_text(json.dumps(OLD_MALFORMED))
    status = main(["grade", "--no-sandbox", "--no-progress", "--json", str(path)])
    out, _ = capsys.readouterr()
    (row,) = [json.loads(line) for line in out.splitlines()]
    assert status == 1
    assert "grader error" not in row["error"]
    reason = "The notebook is invalid and is missing an expected key: outputs"
    assert row["error"] == f"{path}: not a valid notebook ({reason})"
    status = main(["grade", "--no-sandbox", "--no-progress", "--json", "--lang", "zh", str(path)])
    out, _ = capsys.readouterr()
    assert "不是有效的 notebook（The notebook is invalid" in json.loads(out)["error"]


# -- students by ID --------------------------------------------------------------------------

CANVAS_HEAD = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Fencing (7)"]
CANVAS_ROWS = [
    ["    Points Possible", "", "", "", "", "17"],
    ["Oscar O", "201", "S201", "oscar", "section-a", ""],
    ["Peggy P", "202", "S202", "peggy", "section-a", ""],
    ["Quinn Q", "203", "S203", "quinn", "section-b", ""],
]


def _canvas_roster(path) -> str:
    """A gradebook CSV as Canvas exports it (its points row, an assignment column)."""
    with open(path, "w", newline="", encoding="utf-8-sig") as f:
        writer = csv.writer(f)
        writer.writerow(CANVAS_HEAD)
        writer.writerows(CANVAS_ROWS)
    return str(path)


def _sections(tmp_path):
    """oscar and peggy hand in under section-a/, zed (in no roster) under section-b/; quinn
    hands in nothing. The notebooks are truncated: refused before any kernel runs."""
    folder = tmp_path / "class"
    for who in ("section-a/oscar", "section-a/peggy", "section-b/zed"):
        (folder / who / "hw").mkdir(parents=True)
        (folder / who / "hw" / "ex.ipynb").write_text('{"cells": [')
    return folder


def _grade_json(capsys, *argv) -> tuple[int, list[dict], str]:
    status = main(["grade", "--no-sandbox", "--no-progress", "--json", *ONE_AT_A_TIME, *argv])
    out, err = capsys.readouterr()
    return status, [json.loads(line) for line in out.splitlines()], err


def test_is_identity_the_rosters_not_the_folder_layouts(tmp_path, capsys):
    folder = _sections(tmp_path)
    roster = _canvas_roster(tmp_path / "canvas.csv")
    _, by_folder, _ = _grade_json(capsys, "--roster", roster, str(folder))
    given = sorted(str(p) for p in folder.glob("*/*/hw/ex.ipynb"))
    _, by_glob, _ = _grade_json(capsys, "--roster", roster, *given)
    for rows in (by_folder, by_glob):
        owners = {r["notebook"]: r["student"] for r in rows}
        assert owners == {
            str(folder / "section-a/oscar/hw/ex.ipynb"): "201",
            str(folder / "section-a/peggy/hw/ex.ipynb"): "202",
            str(folder / "section-b/zed/hw/ex.ipynb"): None,
            None: "203",  # quinn: no submission, one row saying so
        }
    (zed,) = [r for r in by_folder if r["student"] is None]
    assert zed["unknown"].startswith("not in the roster")
    (quinn,) = [r for r in by_folder if r["notebook"] is None]
    assert quinn["error"] == "no submission" and quinn["score"] is None


def test_does_the_text_report_account_for_the_class(tmp_path, capsys):
    folder = _sections(tmp_path)
    roster = _canvas_roster(tmp_path / "canvas.csv")
    table = tmp_path / "class.csv"
    status = main(
        ["grade", "--no-sandbox", "--no-progress", "--roster", roster, "--csv", str(table)]
        + [*ONE_AT_A_TIME, str(folder)]
    )
    out = capsys.readouterr().out
    assert status == 1
    assert f"roster {roster}: 2 of 3 student(s) handed in" in out
    assert f"{folder}/section-b/zed/hw/ex.ipynb: not in the roster" in out
    assert "203 (Quinn Q): no submission" in out
    rows = list(csv.DictReader(table.open()))
    assert [r["student"] for r in rows] == ["201", "202", "", "203"]
    assert "not in the roster" in rows[2]["error"] and rows[3]["error"] == "no submission"


def test_is_a_folder_linked_one_level_up_refused_and_the_classmate_graded_as_themself(
    tmp_path, capsys
):
    """``simlab grade class/*/hw/*.ipynb`` where oscar's folder links to peggy's."""
    folder = tmp_path / "class"
    (folder / "peggy" / "hw").mkdir(parents=True)
    (folder / "peggy" / "hw" / "ex.ipynb").write_text('{"cells": [')
    (folder / "oscar").symlink_to("peggy", target_is_directory=True)
    given = sorted(str(p) for p in folder.glob("*/hw/*.ipynb"))
    assert len(given) == 2
    status, rows, _ = _grade_json(capsys, *given)
    by = {r["notebook"]: r["error"] for r in rows}
    assert status == 1 and len(rows) == 2
    assert "in a folder that is a symbolic link" in by[str(folder / "oscar/hw/ex.ipynb")]
    assert "not a readable notebook" in by[str(folder / "peggy/hw/ex.ipynb")]
    db = tmp_path / "q.sqlite"
    assert main(["grade", "--queue", str(db), "--enqueue-only", "--no-sandbox", *given]) == 0
    _work(db)
    capsys.readouterr()
    _, out, _ = _report(capsys, db, "--json")
    queued = {json.loads(line)["notebook"]: json.loads(line)["error"] for line in out.splitlines()}
    assert queued == by


def test_is_every_path_accounted_for_with_one_line(tmp_path, capsys):
    """Not a notebook, the same file spelled twice, a link deep in the path, unreadable."""
    folder = tmp_path / "class"
    (folder / "ann").mkdir(parents=True)
    (folder / "ann" / "ex.ipynb").write_text('{"cells": [')
    (folder / "ann" / "notes.txt").write_text("not a notebook")
    (folder / "deep" / "a" / "b").mkdir(parents=True)
    (folder / "deep" / "a" / "b" / "c").symlink_to(folder / "ann", target_is_directory=True)
    again = folder / "ann" / ".." / "ann" / "ex.ipynb"
    deep = folder / "deep" / "a" / "b" / "c" / "ex.ipynb"
    status, rows, _ = _grade_json(capsys, str(folder), str(again), str(deep))
    by = {r["notebook"]: r["error"] for r in rows}
    assert status == 1 and len(rows) == 5
    assert "not a readable notebook" in by[str(folder / "ann" / "ex.ipynb")]
    assert by[str(folder / "ann" / "notes.txt")].endswith(
        "not a notebook: only *.ipynb files are graded (not graded)"
    )
    assert f"the same file as {folder / 'ann' / 'ex.ipynb'}, given twice" in by[str(again)]
    assert "a symbolic link, not followed" in by[str(folder / "deep" / "a" / "b" / "c")]
    assert "in a folder that is a symbolic link" in by[str(deep)]


def test_are_the_kits_roster_and_canvass_export_both_read(tmp_path):
    from simlab.grading.roster import read_roster

    canvas = read_roster(_canvas_roster(tmp_path / "canvas.csv"))
    assert [s.id for s in canvas.students] == ["201", "202", "203"]
    assert canvas.owner("submitted/peggy/ps1/ex.ipynb")[0].name == "Peggy P"
    assert canvas.owner("class/peggy.ipynb")[0].id == "202"
    assert canvas.owner("class/oscar/peggy/ex.ipynb")[0] is None, "two students: no one's"
    kit = tmp_path / "kit.csv"
    kit.write_text("notebook,Student,ID\na/ex1.ipynb,Al,1\na/ex2.ipynb,Al,1\nb/ex1.ipynb,Bo,2\n")
    ours = read_roster(kit)
    assert [s.id for s in ours.students] == ["1", "2"]
    assert ours.owner("a/ex2.ipynb")[0].id == "1" and ours.owner("c/ex1.ipynb")[0] is None


# -- Canvas ----------------------------------------------------------------------------------

FENCING = "01_fencing_and_cancellation.ipynb"


def _canvas_class(tmp_path, capsys):
    """oscar graded 7/10 on fencing; peggy's fencing notebook is truncated; quinn hands in
    nothing; the roster is Canvas's own export, with a formula-shaped name."""
    db = tmp_path / "q.sqlite"
    (tmp_path / "class" / "peggy").mkdir(parents=True)
    (tmp_path / "class" / "peggy" / FENCING).write_text('{"cells": [')
    given = str(tmp_path / "class" / "peggy" / FENCING)
    assert main(["grade", "--queue", str(db), "--enqueue-only", "--no-sandbox", given]) == 0
    _work(db)
    _graded(db, f"class/oscar/{FENCING}", [5, 2])
    rows = [r[:] for r in CANVAS_ROWS]
    rows[3][0] = '=HYPERLINK("http://x")'
    roster = tmp_path / "canvas.csv"
    with open(roster, "w", newline="", encoding="utf-8-sig") as f:
        csv.writer(f).writerows([CANVAS_HEAD, *rows])
    capsys.readouterr()
    return db, str(roster)


@pytest.mark.parametrize("missing, cell", [("zero", "0"), ("empty", "")])
def test_does_the_canvas_csv_read_back_with_every_roster_student(tmp_path, capsys, missing, cell):
    db, roster = _canvas_class(tmp_path, capsys)
    out_csv = tmp_path / "out.csv"
    status, out, err = _report(
        capsys,
        db,
        "--canvas",
        str(out_csv),
        "--roster",
        roster,
        "--canvas-assignment",
        "fencing=Fencing and cancellation (4711)",
        "--missing",
        missing,
    )
    rows = list(csv.reader(out_csv.open(encoding="utf-8")))
    assert status == 1, "peggy's notebook could not be graded"
    assert rows[0] == [*CANVAS_HEAD[:5], "Fencing and cancellation (4711)"]
    assert rows[1] == ["Points Possible", "", "", "", "", "10"]
    assert [r[1] for r in rows[2:]] == ["201", "202", "203"], "one row per roster student"
    assert rows[2][5] == "7" and rows[3][5] == cell and rows[4][5] == ""
    assert rows[4][0] == '\'=HYPERLINK("http://x")', "a formula-shaped name is not a formula"
    assert f"202 (Peggy P), fencing: not graded, {cell or 'empty'} (--missing {missing})" in err
    assert "203 (=HYPERLINK" in err and "fencing: no submission (empty)" in err
    assert "Canvas will make a new assignment" not in err
    assert "wrote" in out and "(3 student(s))" in out


def test_does_a_bare_exercise_column_say_canvas_makes_a_new_assignment(tmp_path, capsys):
    db, roster = _canvas_class(tmp_path, capsys)
    out_csv = tmp_path / "out.csv"
    status, _, err = _report(capsys, db, "--canvas", str(out_csv), "--roster", roster)
    assert 'column fencing: no --canvas-assignment fencing="Title (id)"' in err
    assert list(csv.reader(out_csv.open()))[0][5] == "fencing"


@pytest.mark.parametrize(
    "given",
    ["fencing=Fencing", "nosuch=Thing (12)", "fencing", "fencing=(12)"],
)
def test_is_a_bad_canvas_assignment_one_line_and_exit_2(tmp_path, capsys, given):
    db, roster = _canvas_class(tmp_path, capsys)
    out_csv = tmp_path / "out.csv"
    argv = ["--canvas", str(out_csv), "--roster", roster, "--canvas-assignment", given]
    status, _, err = _report(capsys, db, *argv)
    assert status == 2 and len(err.splitlines()) == 1 and not out_csv.exists()


# -- the feedback page -----------------------------------------------------------------------


def _partial_result(notebook: str) -> dict:
    """fencing graded as a worker stores it: cancel-after-claim passed 7 of 9 checks and
    earned 3 of 6 (its criteria weigh 3, 2, 1), every sentence with its message."""
    from simlab.grading.messages import message

    said = message("grader.partial", passed=7, count=9, first=message("grader.withheld"))
    full = message("grader.all_passed", n=6)
    questions = [
        ("cancel-after-claim", 3, 6, said),
        ("cancel-after-first-step", 6, 6, full),
        ("cancel-limits", 5, 5, full),
    ]
    return {
        "notebook": notebook,
        "exercise": "fencing",
        "score": 14,
        "max_score": 17,
        "questions": [
            {"id": q, "points": p, "max_points": m, "feedback": str(s), "message": s.to_data()}
            for q, p, m, s in questions
        ],
        "error": None,
    }


def _page(tmp_path, capsys, lang: str) -> str:
    import re

    db = tmp_path / f"q-{lang}.sqlite"
    with open_queue(db, create=True) as q:
        q.enqueue("class/oscar/ex.ipynb", b"x", "v1", SETTINGS)
        job = q.claim("w", 30)
        assert q.finish(job.lease, _partial_result("class/oscar/ex.ipynb"))
    pages = tmp_path / f"pages-{lang}"
    assert _report(capsys, db, "--feedback", str(pages), "--lang", lang)[0] == 0
    page = (pages / page_name("class/oscar/ex.ipynb")).read_text(encoding="utf-8")
    return re.sub(r"<[^>]+>", " ", page.split("<body>")[1])


def test_does_the_feedback_page_say_why_7_of_9_checks_earned_3_of_6(tmp_path, capsys):
    text = _page(tmp_path, capsys, "en")
    assert "7/9 checks passed" in text and "3/6" in text
    assert "simlab grade --rubric fencing" in text
    assert (
        "cancel-after-claim earned 3 of 6: its criteria weigh cancel-fences 3, requeue 2, "
        "terminal 1; each counts only when all its checks pass"
    ) in text


def test_is_the_chinese_feedback_page_without_an_english_sentence(tmp_path, capsys):
    import re

    text = _page(tmp_path, capsys, "zh")
    assert "7/9 项检查通过" in text and "它的评分标准权重为" in text
    assert "simlab grade --rubric fencing --lang zh" in text
    left = re.sub(r"simlab grade --rubric \S+ --lang zh", " ", text)
    left = re.sub(r"[\w.-]+\.ipynb|[a-z]+(-[a-z]+)+", " ", left)  # file names, IDs
    words = re.findall(r"[A-Za-z]{2,}(?:\s+[A-Za-z]{2,})+", left)
    assert words == [], words


def test_is_a_csv_checked_for_writing_without_being_made(tmp_path, capsys):
    """The --csv file is checked before grading without creating it (a run stopped before it
    writes leaves no empty file), and a file that cannot be written is one line, exit 2."""
    from simlab.cli.grade_class import unwritable

    new = tmp_path / "grades.csv"
    assert unwritable(str(new)) is None and not new.exists()
    assert unwritable(str(tmp_path)) == "folder"
    assert unwritable(str(tmp_path / "nowhere" / "grades.csv")) == "no_folder"
    notebook = tmp_path / "ex.ipynb"
    notebook.write_text("{}")
    status = main(["grade", str(notebook), "--csv", str(tmp_path / "nowhere" / "g.csv")])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and "no such folder" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ex.ipynb"]


def test_is_a_csv_written_whole_or_not_at_all(tmp_path, monkeypatch):
    """A CSV is written beside its file and renamed over it: a write that fails part-way
    leaves the file as it was and no partial file beside it."""
    from simlab.grading import report
    from simlab.grading.grader import NotebookGrade

    out = tmp_path / "grades.csv"
    out.write_text("the old grades\n")
    grades = [NotebookGrade.failed(str(tmp_path / "a.ipynb"), "broken")]

    class Broken:
        def __init__(self, f):
            self.rows = 0

        def writerow(self, row):
            self.rows += 1
            if self.rows == 2:
                raise OSError(28, "No space left on device")

    monkeypatch.setattr(csv, "writer", Broken)
    with pytest.raises(OSError):
        report.write_csv(grades, out)
    assert out.read_text() == "the old grades\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["grades.csv"]
    monkeypatch.undo()
    report.write_csv(grades, out)
    assert out.read_text().startswith("student,") and len(list(tmp_path.iterdir())) == 1
