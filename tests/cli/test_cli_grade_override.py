"""Do overrides and the resubmission history of ``simlab grade --queue`` work as they say?

Overrides (``--override``, ``--clear-override``) survive regrades and show with their reason in
every export; ``--report --student`` prints a student's history; ``--changed`` says what moved
between the last two grades of each submission and why. The queue is filled through its own
API with results as a worker commits them, so nothing here grades a notebook.

``data/queue-before-overrides.sqlite`` is a queue made by the kit before overrides and history
existed (its first migration only), through its API on a fake clock: alice's
``class/alice/ex.ipynb`` graded 7 (bytes ``alice 1``) then resubmitted and graded 9 (``alice
2``), bob's graded 2, carol's enqueued and not graded; all at grader version ``v1``, exercise
``fencing``, questions ``q1`` and ``q2`` of 5 points.
"""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest

from simlab.cli import main
from simlab.grading.queue_report import page_name
from simlab.grading.queue_store import sqlite_statements
from simlab.grading.queue_store.store import open_queue

SETTINGS = {"timeout": 60, "notebook_timeout": None, "max_output": 10, "sandbox": True}
ALICE = "class/alice/ex.ipynb"
BOB = "class/bob/ex.ipynb"
QUESTIONS = (("cancel-after-claim", 6), ("cancel-after-first-step", 6), ("cancel-limits", 5))
OLD_QUEUE = Path(__file__).parent / "data" / "queue-before-overrides.sqlite"


def _result(notebook: str, points: list[int]) -> dict:
    questions = [
        {"id": q, "points": p, "max_points": most, "feedback": "f"}
        for (q, most), p in zip(QUESTIONS, points, strict=True)
    ]
    return {
        "notebook": notebook,
        "exercise": "fencing",
        "score": sum(points),
        "max_score": 17,
        "questions": questions,
        "error": None,
    }


def _graded(db, notebook: str, points: list[int], version="v1", content=None) -> None:
    with open_queue(db, create=True) as q:
        q.enqueue(notebook, content or notebook.encode(), version, SETTINGS)
        job = q.claim("w", 30)
        assert job.notebook == notebook
        assert q.finish(job.lease, _result(notebook, points))


def _run(capsys, db, *argv) -> tuple[int, str, str]:
    status = main(["grade", "--queue", str(db), *argv])
    out, err = capsys.readouterr()
    return status, out, err


def _json(capsys, db, *extra) -> dict[str, dict]:
    status, out, _ = _run(capsys, db, "--report", "--json", *extra)
    assert status == 0
    return {d["notebook"]: d for d in map(json.loads, out.splitlines())}


def _question(data: dict, qid: str) -> dict:
    (q,) = [q for q in data["questions"] if q["id"] == qid]
    return q


def test_does_an_override_survive_a_regrade_and_show_its_reason(tmp_path, capsys):
    db = tmp_path / "q.sqlite"
    _graded(db, ALICE, [6, 3, 1])
    _graded(db, BOB, [6, 6, 5])
    why = "her limit test was right; the check misread it"
    status, out, err = _run(
        capsys, db, "--override", ALICE, "fencing/cancel-limits", "4.5", "--why", why
    )
    assert status == 0 and err == "" and "fencing/cancel-limits = 4.5" in out
    alice = _json(capsys, db)[ALICE]
    limits = _question(alice, "cancel-limits")
    assert limits["points"] == 4.5 and alice["score"] == 13.5
    assert limits["override"]["why"] == why and limits["override"]["grader_points"] == 1
    assert limits["override"]["at"].endswith("Z") and "override" not in alice["questions"][0]
    _graded(db, ALICE, [6, 4, 0], version="v2")  # a regrade at a new grader version
    data = _json(capsys, db)
    limits = _question(data[ALICE], "cancel-limits")
    assert limits["points"] == 4.5 and limits["override"]["grader_points"] == 0
    assert data[ALICE]["score"] == 14.5 and data[BOB]["score"] == 17  # bob's own points
    _, text, _ = _run(capsys, db, "--report")
    assert f"by your instructor on {limits['override']['at']} (the grader gave 0): {why}" in text


def test_do_the_exports_show_an_override_in_both_languages(tmp_path, capsys):
    db, pages = tmp_path / "q.sqlite", tmp_path / "pages"
    _graded(db, ALICE, [6, 3, 1])
    _run(capsys, db, "--override", ALICE, "fencing/cancel-limits", "5", "--why", "regraded by hand")
    out_csv = tmp_path / "class.csv"
    status, _, _ = _run(capsys, db, "--report", "--csv", str(out_csv), "--feedback", str(pages))
    (row,) = csv.DictReader(out_csv.open(encoding="utf-8"))
    assert status == 0 and row["fencing/cancel-limits"] == "5" and row["score"] == "14"
    assert "regraded by hand" in row["overrides"] and "the grader gave 1" in row["overrides"]
    page = (pages / page_name(ALICE)).read_text(encoding="utf-8")
    assert "14 / 17 points" in page and "regraded by hand" in page
    _run(capsys, db, "--report", "--feedback", str(pages), "--lang", "zh")
    page = (pages / page_name(ALICE)).read_text(encoding="utf-8")
    assert "教师于" in page and "评分程序给了 1 分" in page and "set by your instructor" not in page


def _roster(path) -> str:
    with open(path, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["Student", "ID", "notebook"])
        writer.writerows([["Alice A", "101", ALICE], ["Bob B", "102", BOB]])
    return str(path)


def test_is_an_override_given_by_roster_id_in_canvas_with_its_reason(tmp_path, capsys):
    db, roster = tmp_path / "q.sqlite", _roster(tmp_path / "roster.csv")
    _graded(db, ALICE, [6, 3, 1])
    _graded(db, BOB, [6, 3, 1])
    status, _, _ = _run(
        capsys, db, "--roster", roster, "--override", "101", "fencing/cancel-limits", "5",
        "--why", "accepted late fix",
    )  # fmt: skip
    assert status == 0
    data = _json(capsys, db, "--roster", roster)
    assert data[ALICE]["student"] == "101" and data[ALICE]["score"] == 14
    assert data[BOB]["score"] == 10  # the same file name, another student
    assert data[ALICE] != _json(capsys, db)[ALICE]  # without the roster, no student 101
    out_csv = tmp_path / "canvas.csv"
    status, _, err = _run(capsys, db, "--report", "--roster", roster, "--canvas", str(out_csv))
    rows = list(csv.reader(out_csv.open()))
    assert status == 0 and rows[2][1:2] == ["101"] and rows[2][-1] == "14"
    assert "Alice A" in err and "accepted late fix" in err


def test_is_a_roster_id_starting_with_a_dash_taken_as_the_value_it_is(tmp_path, capsys):
    # argparse alone reads "-7" as an unknown option and says --override lacks its values
    db, roster = tmp_path / "q.sqlite", tmp_path / "roster.csv"
    roster.write_text(f"Student,ID,notebook\nAlice A,-alice,{ALICE}\nBob B,-7b,{BOB}\n")
    _graded(db, ALICE, [6, 3, 1])
    _graded(db, BOB, [6, 3, 1])
    at = ("--roster", str(roster))
    status, _, err = _run(capsys, db, *at, "--override", "-7b", "fencing/cancel-limits", "5",
                          "--why", "-- a reason may start with dashes too")  # fmt: skip
    assert status == 0, err
    data = _json(capsys, db, *at)
    assert data[BOB]["student"] == "-7b" and data[BOB]["score"] == 14
    assert _question(data[BOB], "cancel-limits")["override"]["why"].startswith("-- a reason")
    assert data[ALICE]["score"] == 10
    status, out, _ = _run(capsys, db, *at, "--report", "--student", "-7b")
    assert status == 0 and "fencing/cancel-limits: 5 points: -- a reason" in out
    status, out, _ = _run(capsys, db, *at, "--clear-override", "-7b", "fencing/cancel-limits")
    assert status == 0 and "cleared" in out
    assert _json(capsys, db, *at)[BOB]["score"] == 10
    # a value forgotten before the next option is still that mistake, and nothing is kept
    with pytest.raises(SystemExit) as stop:
        _run(capsys, db, *at, "--override", "--why", "fencing/cancel-limits", "5")
    out, err = capsys.readouterr()
    assert stop.value.code == 2 and out == "" and "--override: expected 3 arguments" in err
    with open_queue(db) as q:
        assert len(q.overrides()) == 2  # the one given above and its clearing


def test_does_clear_override_give_the_points_back_to_the_grader(tmp_path, capsys):
    db = tmp_path / "q.sqlite"
    _graded(db, ALICE, [6, 3, 1])
    _run(capsys, db, "--override", ALICE, "fencing/cancel-limits", "5", "--why", "x")
    status, out, _ = _run(capsys, db, "--clear-override", ALICE, "fencing/cancel-limits")
    assert status == 0 and "cleared" in out
    limits = _question(_json(capsys, db)[ALICE], "cancel-limits")
    assert limits["points"] == 1 and "override" not in limits
    status, out, err = _run(capsys, db, "--clear-override", ALICE, "fencing/cancel-limits")
    assert status == 2 and out == "" and len(err.splitlines()) == 1 and "no override" in err
    _, out, _ = _run(capsys, db, "--report", "--student", ALICE)
    assert out.splitlines()[-2:][0].endswith("fencing/cancel-limits: 5 points: x")
    assert out.splitlines()[-1].endswith("fencing/cancel-limits: cleared")


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--override", ALICE, "fencing/no-such", "1", "--why", "w"], "no question 'no-such'"),
        (["--override", ALICE, "fencing", "1", "--why", "w"], "EXERCISE/QUESTION"),
        (["--override", ALICE, "nope/cancel-limits", "1", "--why", "w"], "no exercise 'nope'"),
        (["--override", ALICE, "fencing/cancel-limits", "6", "--why", "w"], "from 0 to 5"),
        (["--override", ALICE, "fencing/cancel-limits", "-1", "--why", "w"], "from 0 to 5"),
        (["--override", ALICE, "fencing/cancel-limits", "nan", "--why", "w"], "from 0 to 5"),
        (["--override", ALICE, "fencing/cancel-limits", "1.234", "--why", "w"], "2 decimals"),
        (["--override", ALICE, "fencing/cancel-limits", "1"], "needs --why"),
        (["--override", ALICE, "fencing/cancel-limits", "1", "--why", " "], "needs --why"),
        (["--override", "class/zed/ex.ipynb", "fencing/cancel-limits", "1", "--why", "w"],
         "no student"),
        (["--override", ALICE, "fencing/cancel-limits", "1", "--why", "w", "--report"],
         "give it alone"),
        (["--clear-override", ALICE, "fencing/cancel-limits", "--override", ALICE,
          "fencing/cancel-limits", "1", "--why", "w"], "give it alone"),
        (["--why", "w", "--report"], "--why is the reason"),
        (["--student", ALICE], "--student is an option of --report"),
        (["--report", "--student", "class/zed/ex.ipynb"], "no student"),
    ],
)  # fmt: skip
def test_is_a_bad_override_one_line_exit_2_and_nothing_kept(tmp_path, capsys, argv, said):
    db = tmp_path / "q.sqlite"
    _graded(db, ALICE, [6, 3, 1])
    status, out, err = _run(capsys, db, *argv)
    assert status == 2 and out == "" and len(err.splitlines()) == 1, err
    assert said in err and "Traceback" not in err
    with open_queue(db) as q:
        assert q.overrides() == []


def test_does_override_need_a_queue(capsys):
    status = main(["grade", "--override", ALICE, "fencing/cancel-limits", "1", "--why", "w"])
    _, err = capsys.readouterr()
    assert status == 2 and err.strip().endswith("--override needs --queue DB")


def _history(capsys, db, student=ALICE) -> list[dict]:
    status, out, _ = _run(capsys, db, "--report", "--student", student, "--json")
    assert status == 0
    (sub,) = json.loads(out)["submissions"]
    return sub["history"]


def test_does_the_history_keep_resubmissions_regrades_and_a_step_back(tmp_path, capsys):
    db = tmp_path / "q.sqlite"
    _graded(db, ALICE, [6, 3, 1], content=b"first try")
    _graded(db, ALICE, [6, 6, 1], content=b"second try")  # resubmitted
    _graded(db, ALICE, [6, 6, 3], version="v2", content=b"second try")  # regraded
    with open_queue(db) as q:
        q.enqueue(ALICE, b"first try", "v1", SETTINGS)  # handed in again: graded before
    steps = _history(capsys, db)
    assert [s["change"] for s in steps] == ["first", "file", "grader", "back"]
    assert [s["score"] for s in steps] == [10, 13, 15, 10]
    assert [s["version"] for s in steps] == ["v1", "v1", "v2", "v1"]
    assert steps[0]["sha256"] == steps[3]["sha256"] != steps[1]["sha256"] == steps[2]["sha256"]
    assert all(s["status"] == "graded" and s["graded_at"] for s in steps)
    _, text, _ = _run(capsys, db, "--report", "--student", ALICE)
    assert text.splitlines()[:2] == [f"history of {ALICE}:", ALICE] and len(text.splitlines()) == 6


@pytest.mark.parametrize("cause", ["file", "grader"])
def test_does_changed_say_what_moved_and_whether_file_or_grader_changed(tmp_path, capsys, cause):
    db = tmp_path / "q.sqlite"
    _graded(db, ALICE, [6, 3, 1], content=b"first try")
    _graded(db, BOB, [6, 3, 1])
    if cause == "file":
        _graded(db, ALICE, [6, 6, 1], content=b"second try")
    else:
        _graded(db, ALICE, [6, 6, 1], version="v2", content=b"first try")
        _graded(db, BOB, [6, 3, 1], version="v2")
    status, out, _ = _run(capsys, db, "--report", "--changed", "--json")
    (moved,) = map(json.loads, out.splitlines())
    assert status == 0 and moved["notebook"] == ALICE and moved["cause"] == cause
    assert moved["questions"] == [{"id": "cancel-after-first-step", "before": 3, "after": 6}]
    assert (moved["before"]["score"], moved["after"]["score"]) == (10, 13)
    _, text, _ = _run(capsys, db, "--report", "--changed")
    assert f"{ALICE}: {cause} changed: 10 -> 13" in text
    assert ("1 other submission" in text) == (cause == "grader")


def test_does_changed_say_so_when_nothing_was_graded_twice(tmp_path, capsys):
    db = tmp_path / "q.sqlite"
    _graded(db, ALICE, [6, 3, 1])
    status, out, _ = _run(capsys, db, "--report", "--changed")
    assert status == 0 and out.startswith("nothing to compare: no submission has been graded twice")


def test_does_a_queue_made_before_overrides_open_migrate_and_keep_its_history(tmp_path, capsys):
    db = tmp_path / "old.sqlite"
    shutil.copy(OLD_QUEUE, db)
    import sqlite3

    with sqlite3.connect(db) as raw:
        assert raw.execute("SELECT MAX(version) FROM grading_migrations").fetchone() == (1,)
    data = _json(capsys, db)  # opening migrates it
    assert data[ALICE]["score"] == 9 and data[BOB]["score"] == 2
    assert data["class/carol/ex.ipynb"]["status"] == "pending"
    steps = _history(capsys, db)
    assert [(s["change"], s["score"]) for s in steps] == [("first", 7), ("file", 9)]
    status, out, _ = _run(capsys, db, "--report", "--changed", "--json")
    (moved,) = map(json.loads, out.splitlines())
    assert moved["cause"] == "file" and moved["questions"] == [
        {"id": "q2", "before": 2, "after": 4}
    ]
    status, _, _ = _run(capsys, db, "--override", BOB, "fencing/q1", "3", "--why", "w")
    assert status == 0 and _json(capsys, db)[BOB]["score"] == 4
    with sqlite3.connect(db) as raw:
        (version,) = raw.execute("SELECT MAX(version) FROM grading_migrations").fetchone()
    assert version == len(sqlite_statements.MIGRATIONS)


def test_does_an_override_survive_a_regrade_on_postgres(fresh_postgres, capsys):
    url = fresh_postgres()
    _graded(url, ALICE, [6, 3, 1], content=b"first try")
    status, _, _ = _run(
        capsys, url, "--override", ALICE, "fencing/cancel-limits", "5", "--why", "w"
    )
    assert status == 0
    _graded(url, ALICE, [6, 6, 0], content=b"second try")  # resubmitted
    limits = _question(_json(capsys, url)[ALICE], "cancel-limits")
    assert limits["points"] == 5 and limits["override"]["grader_points"] == 0
    assert [s["change"] for s in _history(capsys, url)] == ["first", "file"]
