"""Do the shipped notebooks run? nbval over ``solutions/`` and ``exercises/``, and what the
exercises' public checks say before anyone has written a line.

nbval runs in a child pytest so that ``make test`` (plain ``pytest``, testpaths ``tests``)
covers the notebooks without extra command-line paths. That one run also keeps what every
check cell printed (the plugin :mod:`tests.check_lines`): the exercises' checks are read from
it, not from a second run of each exercise.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.check_lines import OPTION

pytestmark = pytest.mark.kernel

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def nbval_run(tmp_path_factory):
    """The nbval run of ``solutions/`` and ``exercises/``, once; with what each notebook's check
    cells printed (:mod:`tests.check_lines`), by notebook."""
    lines = tmp_path_factory.mktemp("nbval") / "check-lines.json"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--nbval-lax",
            "--nbval-current-env",
            "-p",
            "no:cacheprovider",
            "-p",
            "tests.check_lines",
            OPTION,
            str(lines),
            "-q",
            "--color=no",
            "solutions",
            "exercises",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
    )
    printed = json.loads(lines.read_text(encoding="utf-8")) if lines.exists() else {}
    return done, printed


def test_do_solutions_and_exercises_run_under_nbval(nbval_run):
    done, _ = nbval_run
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert " passed" in done.stdout and "failed" not in done.stdout


#: What a blank exercise's public check starts its line with, by folder (the Chinese exercises
#: set the kit's language in their first cell).
NOT_YET = {"exercises": "[not yet]", "exercises/zh": "[未完成]"}
#: How pytest's summary starts the line of a cell of an exercise that failed.
RAISED = ("FAILED exercises/", "ERROR exercises/")


def test_do_the_exercises_public_checks_say_not_yet(nbval_run):
    done, printed = nbval_run
    # a cell of an exercise that raised fails this test too, as running the exercise alone would
    raised = [line for line in done.stdout.splitlines() if line.startswith(RAISED)]
    assert not raised, raised
    paths = [p for folder in NOT_YET for p in sorted((ROOT / folder).glob("*.ipynb"))]
    assert paths
    for path in paths:
        said = printed.get(path.relative_to(ROOT).as_posix(), {})
        assert said, f"{path.name} has no check output"
        start = NOT_YET[path.parent.relative_to(ROOT).as_posix()]
        for question, lines in said.items():
            assert lines and all(line.startswith(start) for line in lines), (
                path.name,
                question,
                lines,
            )


@pytest.mark.parametrize("ids", ["none", "repeated"])
def test_is_a_notebook_without_cell_ids_read_without_a_warning(tmp_path, ids):
    """A notebook saved before cell IDs existed, or one whose cells repeat an ID, is a valid
    submission: the instructor's terminal shows no nbformat warning about it (read in a
    process of its own, as the command line reads it, with Python's default warning
    filters)."""
    import json

    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.cells.append(nbformat.v4.new_code_cell("x = 1"))
    nb.cells.append(nbformat.v4.new_code_cell("y = 2"))
    data = json.loads(nbformat.writes(nb))
    for cell in data["cells"]:
        if ids == "none":
            del cell["id"]
        else:
            cell["id"] = "same"
    path = tmp_path / "old.ipynb"
    path.write_text(json.dumps(data), encoding="utf-8")
    code = (
        "import sys; from simlab.grading.notebook import read_submission; "
        "print(read_submission(sys.argv[1])[0].cells[0].source)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0 and done.stdout.strip() == "x = 1", done.stderr
    assert done.stderr == ""
