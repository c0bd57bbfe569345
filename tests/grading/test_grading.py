"""Does ``simlab grade`` give every submission exactly the points it deserves?

These tests run real Jupyter kernels, so they are the slow part of the grading suite: the
solutions, the untouched exercises, and a class of partly correct and hostile submissions
(``tests/submissions/cases.py``) graded in one batch through the command line.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from simlab.cli import main
from simlab.grading import grade, report
from simlab.grading.checks import EXERCISES
from simlab.grading.messages import render, untranslated
from tests.submissions.cases import ROOT, cases

pytestmark = pytest.mark.jail

#: Short enough to keep the endless loop cheap, long enough for a slow CI machine.
TIMEOUT = "10"


@pytest.fixture(scope="module")
def shipped():
    """grade() of every English solution and exercise notebook, in one parallel batch (the
    Chinese ones in solutions/zh and exercises/zh are graded by test_grading_zh.py)."""
    english = sorted((ROOT / "solutions").glob("*.ipynb")) + sorted(
        (ROOT / "exercises").glob("*.ipynb")
    )
    results = grade(english, jobs=2)
    return {(Path(g.notebook).parent.name, Path(g.notebook).name): g for g in results}


def test_do_the_solutions_get_full_marks(shipped):
    for exercise in EXERCISES.values():
        g = shipped[("solutions", exercise.notebook)]
        assert g.error is None
        assert g.score == g.max_score == exercise.max_score, [q.feedback for q in g.questions]


def test_do_the_untouched_exercises_get_zero_and_say_why(shipped):
    for exercise in EXERCISES.values():
        g = shipped[("exercises", exercise.notebook)]
        assert g.error is None and g.score == 0 and g.max_score == exercise.max_score
        for q in g.questions:
            assert q.feedback.startswith("not attempted"), q.feedback


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    """The class: every case of tests/submissions, plus two files that are not exercises,
    graded with ``simlab grade --json --csv``."""
    folder = tmp_path_factory.mktemp("class")
    for case in cases():
        case.write(folder)
    (folder / "garbage").mkdir()
    (folder / "garbage" / "broken.ipynb").write_text("{ this is not json")
    (folder / "stranger").mkdir()
    (folder / "stranger" / "unknown.ipynb").write_text(
        (ROOT / "solutions" / "01_fencing_and_cancellation.ipynb")
        .read_text()
        .replace('"exercise": "fencing"', '"exercise": "nothing-like-it"')
    )
    table = folder.parent / "class.csv"
    return folder, table


def test_does_every_submission_score_exactly_what_it_should(hostile, capsys, monkeypatch):
    folder, table = hostile
    graded = {}  # the grades the JSON lines are made from: their feedback as messages
    json_lines = report.json_lines

    def recorded(grades, lang="en", who=None):
        graded.update({Path(g.notebook).parent.name: g for g in grades})
        return json_lines(grades, lang, who)

    monkeypatch.setattr(report, "json_lines", recorded)
    status = main(
        ["grade", "--json", "--csv", str(table), "--timeout", TIMEOUT, "--jobs", "2", str(folder)]
    )
    lines = capsys.readouterr().out.splitlines()
    objects = {Path(o["notebook"]).parent.name: o for o in map(json.loads, lines)}
    assert status == 1, "two notebooks could not be graded at all"
    for case in cases():
        got = objects[case.name]
        assert set(got) >= {"notebook", "score", "max_score", "questions"}
        points = {q["id"]: q["points"] for q in got["questions"]}
        feedback = {q["id"]: q["feedback"] for q in got["questions"]}
        assert points == case.expected, (case.name, feedback)
        for qid, words in case.feedback.items():
            assert words in feedback[qid], (case.name, qid, feedback[qid])
        said = {q.id: q.said for q in graded[case.name].questions}
        for q in got["questions"]:
            assert set(q) == {"id", "points", "max_points", "feedback"}
            assert "\n" not in q["feedback"] and "Traceback" not in q["feedback"]
            assert "require(" not in q["feedback"] and "def " not in q["feedback"]
            # every sentence has Chinese: add a new message to its exercise's catalog
            assert said[q["id"]] is not None and str(said[q["id"]]) == q["feedback"]
            assert untranslated(said[q["id"]]) == [], (case.name, q["feedback"])
            assert render(said[q["id"]], "zh") != q["feedback"]
    assert objects["garbage"]["error"] and objects["garbage"]["score"] == 0
    assert "which exercise" in objects["stranger"]["error"]
    for name in ("garbage", "stranger"):
        error = graded[name].error_said
        assert error is not None and str(error) == objects[name]["error"]
        assert untranslated(error) == [] and render(error, "zh") != str(error), str(error)

    rows = list(csv.DictReader(table.open()))
    assert len(rows) == len(cases()) + 2, "one row per submission"
    by_student = {row["student"]: row for row in rows}
    assert by_student["partial"]["fencing/cancel-after-claim"] == "3"
    assert by_student["noisy-correct"]["score"] == "17"


def test_is_the_process_tuned_only_while_it_grades():
    """While grading, the heap held before is frozen and threads switch less often; both are
    put back afterwards, also when grading raises."""
    import gc
    import sys

    from simlab.grading.processes import SWITCH_INTERVAL, tuned_for_grading

    interval, frozen = sys.getswitchinterval(), gc.get_freeze_count()
    gc.unfreeze()  # this test's own heap starts thawed (the suite may have frozen it)
    try:
        with pytest.raises(RuntimeError), tuned_for_grading():
            assert sys.getswitchinterval() == max(interval, SWITCH_INTERVAL)
            assert gc.get_freeze_count() > 0
            raise RuntimeError("a grader bug")
        assert sys.getswitchinterval() == interval and gc.get_freeze_count() == 0
        gc.freeze()  # frozen by someone else before: left frozen for them
        with tuned_for_grading():
            pass
        assert gc.get_freeze_count() > 0
    finally:
        if frozen:
            gc.freeze()
        else:
            gc.unfreeze()
