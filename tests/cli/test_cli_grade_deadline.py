"""A class in nbgrader's course layout graded with a deadline and a late policy: is lateness
right at the boundary (exactly at the deadline on time, one second after one started day), are
the cap, the cutoff, extensions and excuses applied, is a submission without a time reported and
not penalized, does a deadline given to ``--report`` replace the stored one without a regrade,
and is each mistake one line, exit status 2?

The course is built exactly as nbgrader's code writes it (nbgrader 0.9.6 from PyPI, read, not
run: ``nbgrader collect`` copies into ``CourseDirectory.format_path(submitted_directory,
student_id, assignment_id)``, default ``submitted/{student_id}/{assignment_id}``, and the
exchange's ``set_timestamp`` writes ``timestamp.txt`` with ``%Y-%m-%d %H:%M:%S.%f %Z`` in UTC).
Grades are committed through the queue's own API, or the grader is replaced by a stand-in for
the plain command, so no test here needs a jail or a kernel.
"""

from __future__ import annotations

import csv
import json
import os
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from simlab.cli import main
from simlab.grading.lateness import parse_time
from simlab.grading.queue_report import page_name
from simlab.grading.queue_store.store import open_queue

DEADLINE = "2026-12-01T23:59:59Z"
POLICY = "10%/day,cap=50%,cutoff=7d"
#: When each student handed hw1 in, after the deadline (None: no timestamp.txt).
HANDED = {
    "ontime": timedelta(0),
    "onesec": timedelta(seconds=1),
    "twodays": timedelta(days=1, seconds=1),
    "capped": timedelta(days=6, hours=1),
    "cutoff": timedelta(days=7, seconds=1),
    "untimed": None,
}


def _as_nbgrader_writes(when: datetime) -> str:
    """nbgrader's ``Exchange.set_timestamp`` with its defaults (timezone UTC, timestamp_format
    ``%Y-%m-%d %H:%M:%S.%f %Z``)."""
    return when.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S.%f %Z")


def _course(tmp_path: Path, handed=HANDED) -> Path:
    """``submitted/<student>/hw1/fencing.ipynb`` and its ``timestamp.txt``, as ``nbgrader
    collect`` leaves them, plus a student who handed in only another assignment (hw0)."""
    root = tmp_path / "course"
    deadline = parse_time(DEADLINE)
    for student, after in handed.items():
        folder = root / "submitted" / student / "hw1"
        folder.mkdir(parents=True)
        (folder / "fencing.ipynb").write_text(json.dumps({"by": student}))
        if after is not None:
            (folder / "timestamp.txt").write_text(_as_nbgrader_writes(deadline + after))
    (root / "submitted" / "zoe" / "hw0").mkdir(parents=True)
    return root


def _result(notebook: str, points: int = 8) -> dict:
    return {
        "notebook": notebook,
        "exercise": "fencing",
        "score": points,
        "max_score": 10,
        "questions": [{"id": "q1", "points": points, "max_points": 10, "feedback": "ok"}],
        "error": None,
    }


def _enqueue_and_grade(db, course, *options) -> None:
    """Enqueue the course's hw1 with ``options`` and commit 8/10 for each submission."""
    argv = ["grade", "--queue", str(db), "--enqueue-only", "--no-sandbox"]
    assert main([*argv, "--nbgrader", str(course), "--assignment", "hw1", *options]) == 0
    with open_queue(db) as q:
        while (job := q.claim("w", 30)) is not None:
            assert q.finish(job.lease, _result(job.notebook))


def _report(capsys, db, *extra) -> tuple[int, str, str]:
    capsys.readouterr()
    status = main(["grade", "--queue", str(db), "--report", *extra])
    out, err = capsys.readouterr()
    return status, out, err


def _by_student(out: str) -> dict[str, dict]:
    rows = [json.loads(line) for line in out.splitlines()]
    return {r["student"]: r for r in rows}


@pytest.fixture
def graded(tmp_path):
    db = tmp_path / "q.sqlite"
    _enqueue_and_grade(db, _course(tmp_path), "--deadline", DEADLINE, "--late-policy", POLICY)
    return db


def test_is_an_nbgrader_class_graded_with_a_deadline_and_a_late_policy(graded, capsys):
    status, out, err = _report(capsys, graded, "--json")
    assert status == 0 and err == ""
    rows = _by_student(out)
    late = {s: (r["late_days"], r["late_penalty"], r["score"]) for s, r in rows.items()}
    assert late == {
        "ontime": (0, 0, 8),  # exactly at the deadline: on time
        "onesec": (1, 0.8, 7.2),  # one second after: one started day
        "twodays": (2, 1.6, 6.4),
        "capped": (7, 4, 4),  # 70% capped at 50%
        "cutoff": (8, 8, 0),  # more than 7 days late: 0
        "untimed": (None, 0, 8),  # no timestamp.txt: not penalized
    }
    assert rows["onesec"]["submitted_at"] == "2026-12-02T00:00:00+00:00"
    assert rows["onesec"]["notebook"].endswith(
        os.path.join("submitted", "onesec", "hw1", "fencing.ipynb")
    )
    assert all(r["deadline"] == "2026-12-01T23:59:59+00:00" for r in rows.values())
    assert all(r["questions"][0]["points"] == 8 for r in rows.values()), "points before lateness"


def test_does_the_text_report_say_each_students_lateness(graded, capsys):
    status, out, _ = _report(capsys, graded)
    assert status == 0
    assert "deadline 2026-12-01 23:59:59+00:00: on time" in out
    assert "1 day(s) after the deadline 2026-12-01 23:59:59+00:00: 10% of the points" in out
    assert "more than 7 day(s) late: 0 points" in out
    assert "no submission time (no timestamp.txt beside it): not penalized" in out


def test_does_a_deadline_given_to_report_replace_the_stored_one_without_regrading(graded, capsys):
    with open_queue(graded) as q:
        before = [(s.task_id, s.attempts) for s in q.submissions()]
    _, out, _ = _report(capsys, graded, "--json", "--deadline", "2026-12-02T00:00:00Z")
    rows = _by_student(out)
    assert rows["onesec"]["late_days"] == 0 and rows["onesec"]["score"] == 8
    assert rows["twodays"]["late_days"] == 1 and rows["twodays"]["score"] == 7.2
    _, out, _ = _report(capsys, graded, "--json", "--late-policy", "50%/day")
    assert _by_student(out)["onesec"]["score"] == 4, "the stored deadline, the given policy"
    _, out, _ = _report(capsys, graded, "--json")
    assert _by_student(out)["onesec"]["score"] == 7.2, "the stored terms again"
    with open_queue(graded) as q:
        assert [(s.task_id, s.attempts) for s in q.submissions()] == before, "nothing regraded"


def test_does_a_new_deadline_given_when_grading_again_replace_the_stored_one(tmp_path, capsys):
    db, course = tmp_path / "q.sqlite", _course(tmp_path)
    _enqueue_and_grade(db, course, "--deadline", DEADLINE, "--late-policy", POLICY)
    _enqueue_and_grade(db, course, "--deadline", "2026-12-03T00:00:00Z")
    _, out, _ = _report(capsys, db, "--json")
    rows = _by_student(out)
    assert rows["twodays"]["late_days"] == 0 and rows["capped"]["late_days"] == 6
    assert rows["capped"]["score"] == 4, "the policy stored before still applies"


def _gradebook(path: Path, deadlines: dict[str, str] | None = None) -> str:
    """Canvas's gradebook export with a deadline column: SIS login IDs are nbgrader's IDs."""
    deadlines = deadlines or {}
    with open(path, "w", newline="", encoding="utf-8-sig") as f:
        writer = csv.writer(f)
        writer.writerow(["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "deadline"])
        writer.writerow(["    Points Possible", "", "", "", "", ""])
        for n, login in enumerate([*HANDED, "zoe"], start=1):
            name = login.title()
            writer.writerow([name, str(100 + n), f"S{n}", login, "a", deadlines.get(login, "")])
    return str(path)


def test_are_extensions_excuses_and_the_rosters_deadlines_applied(graded, tmp_path, capsys):
    roster = _gradebook(tmp_path / "gradebook.csv", {"twodays": "2026-12-03T00:00:00Z"})
    canvas = tmp_path / "canvas.csv"
    status, out, err = _report(
        capsys, graded, "--json", "--roster", roster,
        "--extension", "104=2026-12-08T09:00:00+08:00",  # capped: 6 days 1 hour late before
        "--excuse", "105",  # cutoff
        "--canvas", str(canvas), "--canvas-assignment", "fencing=HW1 (42)",
    )  # fmt: skip
    assert status == 0, err
    rows = {r["student"]: r for r in map(json.loads, out.splitlines())}
    assert (rows["103"]["late_days"], rows["103"]["score"]) == (0, 8), "the roster's deadline"
    assert (rows["104"]["late_days"], rows["104"]["score"]) == (0, 8), "--extension"
    assert rows["105"]["excused"] is True and rows["105"]["late_penalty"] == 0
    assert (rows["102"]["late_days"], rows["102"]["score"]) == (1, 7.2), "the class's deadline"
    with open(canvas, newline="", encoding="utf-8") as f:
        table = list(csv.reader(f))
    assert table[0][5:] == ["HW1 (42)"]
    cells = {row[3]: row[5] for row in table[2:]}
    assert cells == {
        "ontime": "8", "onesec": "7.2", "twodays": "8", "capped": "8", "cutoff": "EX",
        "untimed": "8", "zoe": "",
    }  # fmt: skip
    assert "excused (EX)" in err


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_does_the_feedback_page_show_lateness_in_its_language(graded, tmp_path, capsys, lang):
    pages = tmp_path / "pages"
    status, _, err = _report(capsys, graded, "--feedback", str(pages), "--lang", lang)
    assert status == 0 and err == ""
    onesec = (pages / page_name("onesec")).read_text(encoding="utf-8")
    untimed = (pages / page_name("untimed")).read_text(encoding="utf-8")
    if lang == "en":
        assert "7.2 / 10 points" in onesec
        assert "1 day(s) after the deadline 2026-12-01 23:59:59+00:00" in onesec
        assert "no submission time (no timestamp.txt beside it): not penalized" in untimed
    else:
        assert "7.2 / 10 分" in onesec
        assert "比截止时间 2026-12-01 23:59:59+00:00 晚了 1 天" in onesec
        assert "扣 0.8 分" in onesec
        assert "没有提交时间（旁边没有 timestamp.txt）：不扣分" in untimed
        for english in ("handed in", "deadline", "penalized", "points", "beside"):
            assert english not in onesec + untimed


def test_is_a_submission_time_never_when_it_was_enqueued(tmp_path, capsys):
    """A deadline without nbgrader's timestamps or --submitted-at: every submission untimed."""
    folder = tmp_path / "class" / "ann"
    folder.mkdir(parents=True)
    (folder / "fencing.ipynb").write_text("{}")
    db = tmp_path / "q.sqlite"
    argv = ["grade", "--queue", str(db), "--enqueue-only", "--no-sandbox", "--deadline", DEADLINE]
    assert main([*argv, str(tmp_path / "class")]) == 0
    assert "no submission times" in capsys.readouterr().err
    with open_queue(db) as q:
        job = q.claim("w", 30)
        q.finish(job.lease, _result(job.notebook))
    _, out, _ = _report(capsys, db, "--json")
    (row,) = map(json.loads, out.splitlines())
    assert (row["late_days"], row["late_penalty"], row["submitted_at"]) == (None, 0, None)


# -- the plain command (no queue): the grader replaced by a stand-in --------------------------


@pytest.fixture
def stand_in(monkeypatch):
    """``simlab grade`` without the grader: every notebook earns 8/10 on fencing."""
    from simlab.grading.grader import NotebookGrade, QuestionGrade

    def grade(notebooks, **_):
        return [
            NotebookGrade(str(nb), "fencing", 8, 10, [QuestionGrade("q1", 8, 10, "ok")])
            for nb in notebooks
        ]

    monkeypatch.setattr("simlab.grading.grader.grade", grade)


def _plain(capsys, *argv) -> tuple[int, str, str]:
    capsys.readouterr()
    status = main(["grade", "--no-sandbox", "--no-progress", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_is_the_plain_command_on_an_nbgrader_course_the_same(stand_in, tmp_path, capsys):
    course = _course(tmp_path)
    status, out, _ = _plain(
        capsys, "--json", "--nbgrader", str(course), "--assignment", "hw1",
        "--deadline", DEADLINE, "--late-policy", POLICY, "--excuse", "untimed",
    )  # fmt: skip
    assert status == 0
    rows = _by_student(out)
    assert (rows["onesec"]["late_days"], rows["onesec"]["score"]) == (1, 7.2)
    assert (rows["ontime"]["late_days"], rows["ontime"]["score"]) == (0, 8)
    assert (rows["cutoff"]["score"], rows["untimed"]["excused"]) == (0, True)
    assert rows["zoe"]["notebook"] is None and rows["zoe"]["error"] == "no submission"
    status, out, _ = _plain(capsys, "--nbgrader", str(course), "--assignment", "hw1")
    assert status == 0 and "late" not in out and "deadline" not in out, "no deadline, no word"


def test_does_submitted_at_mtime_take_the_files_modification_time(stand_in, tmp_path, capsys):
    folder = tmp_path / "class"
    folder.mkdir()
    deadline = parse_time(DEADLINE).timestamp()
    for name, after in (("ann", 0), ("bob", 1)):
        path = folder / f"{name}.ipynb"
        path.write_text("{}")
        os.utime(path, ns=(0, int((deadline + after) * 1e9)))
    csv_out = tmp_path / "grades.csv"
    status, out, _ = _plain(
        capsys, "--json", str(folder), "--submitted-at", "mtime", "--deadline", DEADLINE,
        "--late-policy", "25%/day", "--csv", str(csv_out),
    )  # fmt: skip
    assert status == 0
    rows = {Path(r["notebook"]).stem: r for r in map(json.loads, out.splitlines())}
    assert (rows["ann"]["late_days"], rows["ann"]["score"]) == (0, 8)
    assert (rows["bob"]["late_days"], rows["bob"]["score"]) == (1, 6)
    with open(csv_out, newline="", encoding="utf-8") as f:
        table = list(csv.DictReader(f))
    assert [(r["score"], r["late_days"], r["late_penalty"]) for r in table] == [
        ("8", "0", "0"),
        ("6", "1", "2"),
    ]


# -- mistakes: one line, exit status 2 ------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (["--deadline", "2026-12-01T23:59:59"], "no time zone"),
        (["--deadline", "next friday"], "not an ISO 8601 time"),
        (["--deadline", DEADLINE, "--late-policy", "10%"], "P%/day"),
        (["--deadline", DEADLINE, "--late-policy", "10%/day,cap=500%"], "at most 100%"),
        (["--deadline", DEADLINE, "--extension", "nobody=2026-12-05T00:00:00Z"], "'nobody'"),
        (["--deadline", DEADLINE, "--extension", "onesec"], "ID=TIME"),
        (["--deadline", DEADLINE, "--extension", "onesec=2026-12-05"], "no time zone"),
        (["--deadline", DEADLINE, "--excuse", "nobody"], "--excuse: no student 'nobody'"),
        (["--late-policy", "10%/day"], "--late-policy needs --deadline"),
    ],
)
def test_is_a_bad_deadline_one_line_and_exit_2(stand_in, tmp_path, capsys, options, said):
    course = _course(tmp_path)
    status, out, err = _plain(capsys, "--nbgrader", str(course), "--assignment", "hw1", *options)
    assert status == 2 and len(err.splitlines()) == 1 and said in err and out == ""


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (["--deadline", "2026-12-01 23:59"], "no time zone"),
        (["--late-policy", "ten%/day"], "P%/day"),
        (["--extension", "nobody=2026-12-05T00:00:00Z"], "no student 'nobody'"),
        (["--submitted-at", "mtime"], "--submitted-at"),
    ],
)
def test_is_a_bad_deadline_given_to_report_one_line_and_exit_2(graded, capsys, options, said):
    status, out, err = _report(capsys, graded, *options)
    assert status == 2 and len(err.splitlines()) == 1 and said in err and out == ""


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--nbgrader", "{course}"], "needs --assignment"),
        (["--assignment", "hw1"], "--assignment is an option of --nbgrader"),
        (["--nbgrader", "{course}", "--assignment", "hw9"], "no submission of 'hw9'"),
        (["--nbgrader", "{course}", "--assignment", "../x"], "folder name"),
        (["--nbgrader", "{course}/submitted", "--assignment", "hw1"], "not an nbgrader course"),
        (["--nbgrader", "{course}", "--assignment", "hw1", "{course}"], "takes no PATH"),
        (["{course}", "--submitted-at", "timestamp"], "give --nbgrader"),
    ],
)
def test_is_a_bad_course_one_line_and_exit_2(stand_in, tmp_path, capsys, argv, said):
    course = _course(tmp_path)
    status, out, err = _plain(capsys, *(a.format(course=course) for a in argv))
    assert status == 2 and len(err.splitlines()) == 1 and said in err and out == ""


def test_is_an_override_applied_before_the_late_penalty(tmp_path, capsys):
    """The order the guide states: question points (overrides applied), then their sum, then the
    late penalty on that sum."""
    db = tmp_path / "q.sqlite"
    course = _course(tmp_path, {"onesec": timedelta(seconds=1), "twodays": HANDED["twodays"]})
    _enqueue_and_grade(db, course, "--deadline", DEADLINE, "--late-policy", POLICY)
    given = ["--override", "onesec", "fencing/q1", "10", "--why", "the check misread q1"]
    status, _, err = _report_like(capsys, db, *given)
    assert status == 0, err
    status, out, err = _report(capsys, db, "--json")
    assert status == 0 and err == ""
    rows = _by_student(out)
    onesec = rows["onesec"]
    assert onesec["questions"][0]["points"] == 10
    assert onesec["questions"][0]["override"]["grader_points"] == 8
    # one started day late at 10%/day: 10% of the overridden 10, not of the grader's 8
    assert (onesec["late_days"], onesec["late_penalty"], onesec["score"]) == (1, 1, 9)
    assert (rows["twodays"]["late_penalty"], rows["twodays"]["score"]) == (1.6, 6.4)


def _report_like(capsys, db, *argv) -> tuple[int, str, str]:
    capsys.readouterr()
    status = main(["grade", "--queue", str(db), *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_does_a_students_history_say_when_each_file_was_handed_in(graded, capsys):
    status, out, err = _report(capsys, graded, "--student", "onesec", "--json")
    assert status == 0 and err == ""
    (sub,) = json.loads(out)["submissions"]
    assert [s["submitted_at"] for s in sub["history"]] == ["2026-12-02T00:00:00+00:00"]
    status, out, _ = _report(capsys, graded, "--student", "untimed", "--json")
    assert [s["submitted_at"] for s in json.loads(out)["submissions"][0]["history"]] == [None]
    status, text, _ = _report(capsys, graded, "--student", "onesec")
    assert status == 0 and "handed in 2026-12-02T00:00:00+00:00" in text
