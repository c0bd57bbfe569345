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

SETTINGS = {"timeout": 60, "notebook_timeout": None, "max_output": 10, "sandbox": False}


def _result(notebook: str, points: list[int], feedback: str = "ok") -> dict:
    questions = [
        {"id": f"q{i}", "points": p, "max_points": 5, "feedback": feedback}
        for i, p in enumerate(points, start=1)
    ]
    return {
        "notebook": notebook,
        "exercise": "fencing",
        "score": sum(points),
        "max_score": 5 * len(points),
        "questions": questions,
        "error": None,
    }


def _graded(db, notebook: str, points: list[int], version: str = "v1", **kw) -> None:
    with open_queue(db, create=True) as q:
        q.enqueue(notebook, notebook.encode(), version, SETTINGS)
        job = q.claim("w", 30)
        assert q.finish(job.lease, _result(notebook, points, **kw))


def _report(capsys, db, *extra) -> tuple[int, str, str]:
    status = main(["grade", "--queue", str(db), "--report", *extra])
    out, err = capsys.readouterr()
    return status, out, err


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
    assert main(["grade", "--queue", str(db), "--worker", "--no-sandbox", "--no-progress"]) == 0
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
        assert n.endswith(".html") and "." not in n[: -len(".html")]
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
