"""One source for exercises: are the student notebooks exactly what the solutions generate?

No kernel runs here; these tests are fast. The slow ones (grading real notebooks) are in
``test_grading.py``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from simlab.cli import grade as commands
from simlab.cli import main
from simlab.grading import grader
from simlab.grading.checks import EXERCISES
from simlab.grading.notebook import (
    NotebookError,
    build_exercises,
    cell_question,
    cell_role,
    exercise_of,
    make_exercise,
    notebook_text,
    read_notebook,
    solution_problems,
)

ROOT = Path(__file__).resolve().parents[2]
SOLUTIONS = ROOT / "solutions"
EXERCISES_DIR = ROOT / "exercises"


def test_are_the_exercises_up_to_date_with_the_solutions():
    report = build_exercises(SOLUTIONS, EXERCISES_DIR, check=True)
    assert report.problems == []
    assert not report.stale, (
        f"exercises/ is stale ({report.written + report.removed}): run 'simlab build-exercises'"
    )
    assert len(report.unchanged) == len(EXERCISES)


@pytest.mark.parametrize("path", sorted(SOLUTIONS.glob("*.ipynb")), ids=lambda p: p.name)
def test_does_each_solution_follow_the_conventions(path):
    assert solution_problems(read_notebook(path), path.name) == []


def test_does_every_exercise_have_its_notebook_answer_cells_and_checks():
    questions = 0
    for exercise in EXERCISES.values():
        nb = read_notebook(SOLUTIONS / exercise.notebook)
        assert exercise_of(nb) == exercise.id
        answered = {cell_question(c) for c in nb.cells if cell_role(c) == "answer"}
        checked = {cell_question(c) for c in nb.cells if cell_role(c) == "check"}
        ids = {q.id for q in exercise.questions}
        assert answered == ids, f"{exercise.notebook}: answer cells vs hidden checks"
        assert checked == ids, f"{exercise.notebook}: every question needs a public check"
        questions += len(ids)
    assert questions >= 8


def test_do_the_hidden_checks_stay_out_of_the_notebooks():
    for folder in (SOLUTIONS, EXERCISES_DIR):
        for path in folder.glob("*.ipynb"):
            text = path.read_text()
            assert "simlab.grading.checks" not in text
            assert "simlab.grading.grader" not in text


def _solution(*cells):
    return new_notebook(cells=list(cells), metadata={"simlab": {"exercise": "demo"}})


def _answer(source, question="q1"):
    return new_code_cell(source, metadata={"simlab": {"role": "answer", "question": question}})


def test_does_a_solution_region_become_a_stub_that_raises_its_hint():
    nb = _solution(
        new_markdown_cell("Write `double`."),
        _answer(
            "def double(x):\n"
            '    """Twice x."""\n'
            "    ### BEGIN SOLUTION\n"
            "    ### HINT: multiply by two\n"
            "    return 2 * x\n"
            "    ### END SOLUTION\n"
            "\n"
            "KEPT = True\n"
        ),
    )
    nb.cells[1].outputs = [nbformat.v4.new_output("stream", text="old output")]
    nb.cells[1].execution_count = 3
    exercise = make_exercise(nb)
    source = exercise.cells[1].source
    assert "return 2 * x" not in source and "BEGIN SOLUTION" not in source
    assert "KEPT = True" in source and '"""Twice x."""' in source
    assert exercise.cells[1].outputs == [] and exercise.cells[1].execution_count is None
    assert nb.cells[1].outputs, "the solution itself is left unchanged"
    namespace: dict = {}
    exec(source, namespace)
    with pytest.raises(NotImplementedError, match="multiply by two"):
        namespace["double"](2)


@pytest.mark.parametrize(
    "source, problem",
    [
        ("def f():\n    ### BEGIN SOLUTION\n    return 1\n", "without"),
        ("def f():\n    ### END SOLUTION\n", "without"),
        ("def f():\n    ### BEGIN SOLUTION\n    ### BEGIN SOLUTION\n", "nested"),
        ("### BEGIN SOLUTION\nx = 1\n### END SOLUTION\n", "inside a function"),
    ],
)
def test_are_broken_markers_refused(source, problem):
    with pytest.raises(NotebookError, match=problem):
        make_exercise(_solution(_answer(source)))


def test_is_a_region_outside_an_answer_cell_refused():
    cell = new_code_cell("def f():\n    ### BEGIN SOLUTION\n    pass\n    ### END SOLUTION\n")
    with pytest.raises(NotebookError, match="role is not 'answer'"):
        make_exercise(_solution(cell))


def test_does_a_solution_with_outputs_count_as_a_problem():
    nb = _solution(_answer("def f():\n    ### BEGIN SOLUTION\n    pass\n    ### END SOLUTION\n"))
    nb.cells[0].execution_count = 1
    assert any("outputs" in p for p in solution_problems(nb))


def test_does_build_exercises_write_check_and_remove_orphans(tmp_path):
    src, dst = tmp_path / "solutions", tmp_path / "exercises"
    src.mkdir()
    shutil.copy(SOLUTIONS / "01_fencing_and_cancellation.ipynb", src)
    first = build_exercises(src, dst)
    assert [Path(p).name for p in first.written] == ["01_fencing_and_cancellation.ipynb"]
    again = build_exercises(src, dst, check=True)
    assert not again.stale
    (dst / "old.ipynb").write_text(notebook_text(new_notebook()))
    orphan = build_exercises(src, dst, check=True)
    assert orphan.stale and (dst / "old.ipynb").exists(), "check mode writes nothing"
    build_exercises(src, dst)
    assert not (dst / "old.ipynb").exists()


def test_does_build_exercises_check_fail_on_a_stale_folder(tmp_path, capsys):
    src, dst = tmp_path / "solutions", tmp_path / "exercises"
    src.mkdir()
    shutil.copy(SOLUTIONS / "01_fencing_and_cancellation.ipynb", src)
    assert main(["build-exercises", "--solutions", str(src), "--exercises", str(dst)]) == 0
    assert (
        main(["build-exercises", "--check", "--solutions", str(src), "--exercises", str(dst)]) == 0
    )
    nb = read_notebook(src / "01_fencing_and_cancellation.ipynb")
    nb.cells[0].source += "\nOne more sentence."
    (src / "01_fencing_and_cancellation.ipynb").write_text(notebook_text(nb))
    assert (
        main(["build-exercises", "--check", "--solutions", str(src), "--exercises", str(dst)]) == 1
    )
    assert "out of date" in capsys.readouterr().err


def test_does_a_missing_solutions_folder_give_a_one_line_error(tmp_path, capsys):
    assert main(["build-exercises", "--solutions", str(tmp_path / "none")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no solutions folder" in err


def test_does_grade_refuse_a_missing_path_with_exit_status_2(tmp_path, capsys):
    assert main(["grade", str(tmp_path / "nothing.ipynb")]) == 2
    assert "no such file or folder" in capsys.readouterr().err


def test_do_the_cli_defaults_match_the_graders():
    assert commands.DEFAULT_TIMEOUT == grader.DEFAULT_TIMEOUT
    assert commands.DEFAULT_MAX_OUTPUT == grader.DEFAULT_MAX_OUTPUT
    assert commands.BUDGET_FACTOR == grader.BUDGET_FACTOR


def test_do_the_graders_fixed_seeds_reach_the_cases_they_are_meant_to_test():
    from simlab.grading.checks import histories

    short, long = (histories.measure(ttl, histories.ttl.SHOWN_SEEDS) for ttl in (1.0, 16.0))
    assert short["duplicate_work"] > long["duplicate_work"], "a short ttl duplicates more work"
    assert short["waiting"] < long["waiting"], "a long ttl makes crashed tasks wait longer"
