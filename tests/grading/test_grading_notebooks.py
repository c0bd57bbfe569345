"""Do the shipped notebooks run? nbval over ``solutions/`` and ``exercises/``, and what the
exercises' public checks say before anyone has written a line.

nbval runs in a child pytest so that ``make test`` (plain ``pytest``, testpaths ``tests``)
covers the notebooks without extra command-line paths.
"""

from __future__ import annotations

import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from simlab.bench.grading import execute_plain
from simlab.grading.notebook import cell_question, cell_role, read_notebook

pytestmark = pytest.mark.kernel

ROOT = Path(__file__).resolve().parents[2]


def test_do_solutions_and_exercises_run_under_nbval():
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--nbval-lax",
            "--nbval-current-env",
            "-p",
            "no:cacheprovider",
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
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert " passed" in done.stdout and "failed" not in done.stdout


def _check_lines(path: Path) -> dict[str, list[str]]:
    nb = execute_plain(read_notebook(path), cwd=str(path.parent))
    said: dict[str, list[str]] = {}
    for cell in nb.cells:
        if cell_role(cell) == "check":
            text = "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")
            said.setdefault(cell_question(cell), []).extend(
                line for line in text.splitlines() if line.startswith("[")
            )
    return said


#: What a blank exercise's public check starts its line with, by folder (the Chinese exercises
#: set the kit's language in their first cell).
NOT_YET = {"exercises": "[not yet]", "exercises/zh": "[未完成]"}


def test_do_the_exercises_public_checks_say_not_yet():
    paths = [p for folder in NOT_YET for p in sorted((ROOT / folder).glob("*.ipynb"))]
    with ThreadPoolExecutor(max_workers=2) as pool:
        reports = list(pool.map(_check_lines, paths))
    for path, said in zip(paths, reports, strict=True):
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
