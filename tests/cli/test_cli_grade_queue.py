"""Does ``simlab grade --queue`` report, export and refuse as it says, without grading?

The queue is filled through its own API with results as a worker commits them (claim, fenced
save), so these tests need no kernel and no jail; the fault tests that grade for real are in
``tests/grading/test_grading_queue_faults.py``.
"""

from __future__ import annotations

import csv
import json

import pytest

from simlab.cli import main
from simlab.grading.queue_report import page_name
from simlab.grading.queue_store.store import open_queue
from simlab.ledger import Ledger
from tests.cli.queued import graded, settings
from tests.cli.queued import report as _report

SETTINGS = settings(sandbox=True)


def _graded(db, notebook: str, points: list[int], version: str = "v1", **kw) -> None:
    graded(db, notebook, points, version, SETTINGS, **kw)


def test_does_the_json_report_hold_every_submission_with_status_and_attempts(tmp_path, capsys):
    db = tmp_path / "q.sqlite"
    _graded(db, "class/alice/ex.ipynb", [5, 2])
    with open_queue(db) as q:
        q.enqueue("class/bob/ex.ipynb", b"bob", "v1", SETTINGS)
    status, out, _ = _report(capsys, db, "--json")
    alice, bob = (json.loads(line) for line in out.splitlines())
    assert status == 0
    assert alice["status"] == "graded" and alice["score"] == 7 and alice["max_score"] == 10
    assert [a["outcome"] for a in alice["attempts"]] == ["graded"]
    assert set(alice["attempts"][0]) == {"worker", "epoch", "started", "ended", "outcome"}
    assert bob["status"] == "pending" and bob["score"] is None and bob["attempts"] == []
    keys = {"notebook", "exercise", "score", "max_score", "questions", "error"}
    assert set(alice) == set(bob) == keys | {"status", "attempts"}


def test_does_changed_list_the_points_a_regrade_moved(tmp_path, capsys):
    db = tmp_path / "q.sqlite"
    _graded(db, "class/alice/ex.ipynb", [5, 2], "v1")
    _graded(db, "class/bob/ex.ipynb", [1, 1], "v1")
    _graded(db, "class/alice/ex.ipynb", [5, 4], "v2")  # the fixed check gives alice 2 more
    _graded(db, "class/bob/ex.ipynb", [1, 1], "v2")
    status, out, _ = _report(capsys, db, "--changed")
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "points that moved between the last two grades of each submission:"
    assert lines[1].startswith("class/alice/ex.ipynb: grader changed: 7 -> 9 (")
    assert lines[2:] == ["  q2: 2 -> 4", "1 other submission(s) got the same points in their "
                         "last two grades"]  # fmt: skip
    _, out, _ = _report(capsys, db, "--changed", "--json")
    (moved,) = map(json.loads, out.splitlines())
    assert moved["questions"] == [{"id": "q2", "before": 2, "after": 4}]
    assert moved["cause"] == "grader"
    assert (moved["before"]["version"], moved["after"]["version"]) == ("v1", "v2")


def test_is_the_feedback_page_the_learners_own_and_escaped(tmp_path, capsys):
    db, pages = tmp_path / "q.sqlite", tmp_path / "pages"
    feedback = "<script>alert(1)</script> failed; `claim()` with `<b>`"
    _graded(db, "class/alice/ex.ipynb", [5, 0], feedback=feedback)
    _graded(db, "class/bob/ex.ipynb", [1, 1])
    status, _, _ = _report(capsys, db, "--feedback", str(pages))
    page = (pages / page_name("class/alice/ex.ipynb")).read_text()
    assert status == 0 and (pages / page_name("class/bob/ex.ipynb")).is_file()
    assert "<script>" not in page and "&lt;script&gt;" in page
    # a name quoted in backticks is set as code (escaped first: nothing in it runs)
    assert "<code>claim()</code> with <code>&lt;b&gt;</code>" in page and "`" not in page
    assert "5 / 10 points" in page and "bob" not in page


def _roster(path, rows) -> str:
    with open(path, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["Student", "ID", "notebook"])
        writer.writerows(rows)
    return str(path)


def test_does_the_canvas_export_give_each_student_their_points(tmp_path, capsys):
    db = tmp_path / "q.sqlite"
    _graded(db, "class/alice/ex.ipynb", [5, 2])
    _graded(db, "class/bob/ex.ipynb", [1, 1])
    roster = _roster(
        tmp_path / "roster.csv",
        [["Alice A", "101", "class/alice/ex.ipynb"], ["Bob B", "102", "class/bob/ex.ipynb"]],
    )
    out_csv = tmp_path / "canvas.csv"
    status, _, _ = _report(capsys, db, "--canvas", str(out_csv), "--roster", roster)
    rows = list(csv.reader(out_csv.open()))
    assert status == 0
    assert rows[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "fencing"]
    assert rows[1][0] == "Points Possible" and rows[1][-1] == "10"
    assert rows[2] == ["Alice A", "101", "", "", "", "7"] and rows[3][-1] == "2"


def test_does_the_canvas_export_keep_each_id_as_canvas_wrote_it(tmp_path, capsys):
    """Canvas matches a row by the roster's ID: an ID that starts like a formula stays as it
    is, and only a name that does is kept from running in a spreadsheet."""
    db = tmp_path / "q.sqlite"
    _graded(db, "class/dash/ex.ipynb", [5, 2])
    roster = _roster(tmp_path / "roster.csv", [["=Dash", "-x", "class/dash/ex.ipynb"]])
    out_csv = tmp_path / "canvas.csv"
    status, _, _ = _report(capsys, db, "--canvas", str(out_csv), "--roster", roster)
    rows = list(csv.reader(out_csv.open()))
    assert status == 0 and rows[2] == ["'=Dash", "-x", "", "", "", "7"]


@pytest.mark.parametrize("which", ["missing student", "unknown notebook"])
def test_is_a_roster_that_does_not_match_accounted_for_line_by_line(tmp_path, capsys, which):
    """A submission no roster student owns, and a roster student without a submission, are
    each one line; the export is written, every roster student with a row."""
    db = tmp_path / "q.sqlite"
    _graded(db, "class/alice/ex.ipynb", [5, 2])
    rows = [["Alice A", "101", "class/alice/ex.ipynb"]]
    if which == "missing student":
        _graded(db, "class/bob/ex.ipynb", [1, 1])
    else:
        rows.append(["Carol C", "103", "class/carol/ex.ipynb"])
    out_csv = tmp_path / "canvas.csv"
    status, _, err = _report(
        capsys, db, "--canvas", str(out_csv), "--roster", _roster(tmp_path / "r.csv", rows)
    )
    assert status == 0 and "Traceback" not in err
    students = [r[1] for r in csv.reader(out_csv.open())][2:]
    assert students == [r[1] for r in rows]
    if which == "missing student":
        assert "class/bob/ex.ipynb: not in the roster" in err
    else:
        assert "103 (Carol C), fencing: no submission (empty)" in err


@pytest.mark.parametrize(
    ("text", "says"),
    [
        (b"name,number\nAlice,101\n", "needs the columns Student and ID"),
        (b"Student,ID,notebook\n", "lists no students"),
        ("Student,ID,notebook\nJos\u00e9,1,a.ipynb\n".encode("cp1252"), "save it as CSV UTF-8"),
    ],
)
def test_is_a_roster_without_its_columns_one_line_and_exit_2(tmp_path, capsys, text, says):
    """A roster without its columns, one with only its header, and one saved in another
    encoding than UTF-8 are each refused in one line that says which."""
    db = tmp_path / "q.sqlite"
    _graded(db, "class/alice/ex.ipynb", [5, 2])
    bad = tmp_path / "r.csv"
    bad.write_bytes(text)
    out_csv = tmp_path / "canvas.csv"
    status, _, err = _report(capsys, db, "--canvas", str(out_csv), "--roster", str(bad))
    assert status == 2 and len(err.splitlines()) == 1 and not out_csv.exists()
    assert says in err


@pytest.mark.parametrize("mode", ["--worker", "--report"])
def test_is_a_queue_that_does_not_exist_refused_and_never_created(tmp_path, capsys, mode):
    db = tmp_path / "nothing.sqlite"
    status = main(["grade", "--queue", str(db), mode])
    _, err = capsys.readouterr()
    assert status == 2 and len(err.splitlines()) == 1 and "does not exist" in err
    assert not db.exists()


@pytest.mark.parametrize("kind", ["text file", "ledger with tasks"])
def test_is_a_db_that_is_not_a_grading_ledger_refused_in_one_line(tmp_path, capsys, kind):
    db = tmp_path / "db.sqlite"
    if kind == "text file":
        db.write_text("not a database")
    else:
        with Ledger(db) as ledger:
            ledger.submit("job-1")
    before = db.read_bytes()
    for argv in (["--report"], ["--worker"], ["--enqueue-only", str(tmp_path)]):
        status = main(["grade", "--queue", str(db), *argv])
        _, err = capsys.readouterr()
        assert status == 2 and len(err.splitlines()) == 1, err
    if kind == "text file":
        assert db.read_bytes() == before


def test_is_a_worker_with_nothing_left_one_line_and_exit_0(tmp_path, capsys):
    db = tmp_path / "q.sqlite"
    _graded(db, "class/alice/ex.ipynb", [5, 2])
    status = main(["grade", "--queue", str(db), "--worker"])
    out, err = capsys.readouterr()
    assert status == 0 and out.splitlines() == [
        f"simlab grade: nothing left to grade in {db} (1 graded, 0 dead)"
    ]
    assert err == ""


@pytest.mark.parametrize(
    "argv",
    [
        ["--worker"],
        ["--queue", "q.sqlite", "--worker", "--report"],
        ["--queue", "q.sqlite", "--report", "class"],
        ["--queue", "q.sqlite", "--canvas", "c.csv"],
        ["--queue", "q.sqlite", "--report", "--canvas", "c.csv"],
    ],
)
def test_are_contradictory_queue_options_one_line_and_exit_2(tmp_path, capsys, argv, monkeypatch):
    monkeypatch.chdir(tmp_path)
    status = main(["grade", *argv])
    _, err = capsys.readouterr()
    assert status == 2 and len(err.splitlines()) == 1
    assert not (tmp_path / "q.sqlite").exists()


def test_is_a_refused_submission_reported_in_the_reports_language(tmp_path, capsys):
    """A refusal is stored with the submission as a message, so a Chinese report renders it in
    Chinese and an English one in English, whichever language the batch was enqueued in."""
    folder = tmp_path / "class"
    folder.mkdir()
    target = tmp_path / "elsewhere.ipynb"
    target.write_text("{}")
    (folder / "linked.ipynb").symlink_to(target)
    db = tmp_path / "q.sqlite"
    assert main(["grade", "--queue", str(db), "--enqueue-only", "--no-sandbox", str(folder)]) == 0
    assert main(["grade", "--queue", str(db), "--worker", "--no-sandbox", "--no-progress"]) == 0
    capsys.readouterr()
    zh = _report(capsys, db, "--json", "--lang", "zh")[1]
    en = _report(capsys, db, "--json")[1]
    (said_zh,) = [json.loads(line)["error"] for line in zh.splitlines()]
    (said_en,) = [json.loads(line)["error"] for line in en.splitlines()]
    assert said_en.endswith(
        "linked.ipynb: a symbolic link, not followed: submissions must be "
        "regular files inside the folders given (the link is not graded)"
    )
    assert said_zh.endswith(
        "linked.ipynb：是符号链接，不会跟随：提交的作业必须是所给文件夹里的普通文件（链接不评分）"
    )


def test_is_a_file_too_large_for_a_notebook_refused_unread_beside_the_class(tmp_path, capsys):
    """A 1 GiB file in a class (sparse: it takes no disk) is enqueued refused, without its
    bytes: the queue stays small, the batch goes on, and the report says why in one line."""
    from simlab.grading.notebook import MAX_NOTEBOOK_BYTES

    folder = tmp_path / "class"
    folder.mkdir()
    with open(folder / "huge.ipynb", "wb") as f:
        f.truncate(1 << 30)
    target = tmp_path / "elsewhere.ipynb"
    target.write_text("{}")
    (folder / "linked.ipynb").symlink_to(target)
    db = tmp_path / "q.sqlite"
    assert main(["grade", "--queue", str(db), "--enqueue-only", "--no-sandbox", str(folder)]) == 0
    assert db.stat().st_size < MAX_NOTEBOOK_BYTES
    assert main(["grade", "--queue", str(db), "--worker", "--no-sandbox", "--no-progress"]) == 0
    # a worker that finishes says what the queue holds
    assert "has 2 graded, 0 dead and 0 left to grade" in capsys.readouterr().out
    rows = [json.loads(line) for line in _report(capsys, db, "--json")[1].splitlines()]
    errors = sorted(row["error"] for row in rows)
    assert len(errors) == 2 and errors[0].endswith(
        "huge.ipynb: not a readable notebook (larger than 20 MB)"
    )
    assert "symbolic link" in errors[1]


def test_is_a_refusal_stored_by_an_older_queue_shown_as_it_was_stored(tmp_path):
    from simlab.grading.queue import grade_job
    from simlab.grading.queue_store.store import Job
    from simlab.records import Lease

    lease = Lease("t1", "w", 1, 0, 30.0)
    job = Job(lease, "alice/ex.ipynb", "0" * 64, "v", {}, None, "alice/ex.ipynb: refused\x1b[2J")
    result, outcome = grade_job(job)
    assert outcome == "graded" and result["score"] == 0
    assert result["error"] == "alice/ex.ipynb: refused\x1b[2J", "as stored: each report escapes it"
