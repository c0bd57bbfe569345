"""Do the hidden checks of exercise ``checkpoints`` tell a right answer from a plausible wrong one?

Each case replaces one answer cell of ``solutions/04_checkpoints_and_resume.ipynb`` with a
mistake a learner could make, and runs the hidden checks in the real sandbox (no kernel): the
mistake must cost points, and the feedback must say what was missed. The answers to
``resume-guard`` and ``cache-key`` (right ones and classic mistakes, graded against their
rubrics) are in ``tests/submissions/checkpoints.py``, run by ``test_grading_checkpoints_rubric``.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from simlab.grading.checks import EXERCISES
from simlab.grading.grader import hidden_checks
from simlab.grading.notebook import cell_question, cell_role, read_notebook

ROOT = Path(__file__).resolve().parents[2]
EXERCISE = EXERCISES["checkpoints"]
SOLUTION = read_notebook(ROOT / "solutions" / EXERCISE.notebook)

MIGRATION_THAT_MUTATES = """
def migrate_v1_to_v2(v1):
    evidence = [{"doc_id": r.rpartition("@")[0], "version": int(r.rpartition("@")[2])}
                for r in v1["evidence"]]
    v1["next_step"] = V1_STEPS[v1.pop("step")]
    v1["goal"] = {"query": v1.pop("query"), "recipient": v1.pop("recipient")}
    v1.update(schema_version=2, evidence=evidence,
              approval={"required": False, "approved": False, "by": None})
    return v1
"""
MIGRATION_SPLITTING_AT_THE_FIRST_AT = """
def migrate_v1_to_v2(v1):
    return {
        "schema_version": 2, "graph_version": v1["graph_version"], "tenant": v1["tenant"],
        "task_id": v1["task_id"], "status": v1["status"],
        "next_step": V1_STEPS[v1["step"]],
        "goal": {"query": v1["query"], "recipient": v1["recipient"]},
        "evidence": [{"doc_id": r.split("@")[0], "version": int(r.split("@")[-1])}
                     for r in v1["evidence"]],
        "draft": v1["draft"], "approval": {"required": False, "approved": False, "by": None},
        "sent": list(v1["sent"]),
    }
"""


def graded(**answers: str) -> dict:
    """Hidden-check grades of the solution with the given answer cells replaced."""
    nb = copy.deepcopy(SOLUTION)
    for cell in nb.cells:
        if cell_role(cell) == "answer" and cell_question(cell) in answers:
            cell.source = answers[cell_question(cell)]
    grades, boxes = hidden_checks(nb, EXERCISE, timeout=60)
    return grades


@pytest.mark.jail
def test_does_the_solution_get_every_point():
    grades = graded()
    assert {q: g.points for q, g in grades.items()} == {q.id: q.points for q in EXERCISE.questions}


@pytest.mark.jail
@pytest.mark.parametrize(
    ("question", "source", "lost", "says"),
    [
        # changing the input is a mistake of the core idea (a migration is pure): 3 of 5 lost
        ("pure-migration", MIGRATION_THAT_MUTATES, 3, "must be pure"),
        # the feedback shows the learner's value, never the hidden record's document ID
        ("pure-migration", MIGRATION_SPLITTING_AT_THE_FIRST_AT, 2, "doc_id is cut at an @"),
    ],
    ids=[
        "migration-that-mutates",
        "migration-splitting-at-the-first-at",
    ],
)
def test_does_a_plausible_mistake_cost_points_and_say_why(question, source, lost, says):
    grade = graded(**{question: source})[question]
    assert grade.points == grade.max_points - lost, grade.feedback
    assert says in grade.feedback


def test_does_the_check_find_its_corpus_through_the_package(tmp_path):
    """The regression corpus the migration check reads is package data: it sits in the check's
    own folder, every file of it matches a ``package-data`` glob of ``pyproject.toml`` (so it
    ships in the wheel), and a copy of the package alone, with no checkout around it, finds
    every v1 file."""
    import fnmatch
    import shutil
    import subprocess
    import sys
    import tomllib
    from importlib.resources import files

    from simlab.grading.checks.checkpoints.migration import CORPUS

    package = Path(str(files("simlab.grading.checks.checkpoints")))
    assert CORPUS.parent == package and CORPUS.is_dir()
    shipped = sorted(CORPUS.iterdir())
    assert len([f for f in shipped if f.name.startswith("v1_")]) == 4, shipped

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    globs = config["tool"]["setuptools"]["package-data"]
    for f in shipped:
        assert any(
            f.is_relative_to(ROOT.joinpath(*name.split(".")))
            and any(
                fnmatch.fnmatch(f.relative_to(ROOT.joinpath(*name.split("."))).as_posix(), g)
                for g in patterns
            )
            for name, patterns in globs.items()
        ), f"{f.name} would not ship in the wheel"

    site = tmp_path / "site"
    shutil.copytree(ROOT / "simlab", site / "simlab", ignore=shutil.ignore_patterns("__pycache__"))
    probe = (
        "import simlab\n"
        "from simlab.grading.checks.checkpoints.migration import CORPUS, _corpus_v1\n"
        "print(simlab.__file__, CORPUS, len(_corpus_v1()), sep='\\n')\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=tmp_path,
        env={"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout.split("\n")
    assert out[0].startswith(str(site)), out
    assert out[1] == str(site / "simlab/grading/checks/checkpoints/corpus"), out
    assert out[2] == "4", out
