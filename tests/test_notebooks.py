"""Are the notebooks fit to commit and fit to learn from?

The notebooks themselves run under nbval (``pytest --nbval-lax --nbval-current-env notebooks/``);
these tests check what nbval cannot: that git holds no stray outputs, that the few cells CI
compares for determinism store exactly the text they must print, that each notebook states its
goal and ends by checking itself, and that notebooks reach ``simlab`` only through its public API.

The determinism check. nbval with ``--nbval-lax`` executes every cell but compares outputs only
for cells tagged ``nbval-check-output`` (cell metadata ``"tags": ["nbval-check-output"]``, which
a learner does not see in the code, unlike nbval's ``# NBVAL_CHECK_OUTPUT`` comment), against
the outputs stored in the notebook; it also refuses a stored output whose cell has no execution
count ("unrun reference cell"). So those tagged cells, and only those, keep in git their
``stdout`` text and the execution count a fresh top-to-bottom run gives them (their position
among the code cells).
Every other cell has no output and no execution count; images are never stored.
After changing a notebook, refresh the stored text and strip the rest with::

    .venv/bin/python tests/test_notebooks.py            # every notebook
    .venv/bin/python tests/test_notebooks.py notebooks/03_epoch_races.ipynb
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import re
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK_DIR = ROOT / "notebooks"
README = ROOT / "README.md"
CHECK_TAG = "nbval-check-output"

#: The learning path, in order. A new notebook must be added here and to the README.
LEARNING_PATH = (
    "01_fencing_tokens",
    "02_sqlite_ledger",
    "03_epoch_races",
    "04_crashes_and_side_effects",
    "05_tuning_dashboard",
    "06_queueing_sanity",
    "07_checkpoints_and_resume",
    "08_release_regression",
    "09_events_and_permissions",
)


def notebook_paths() -> list[Path]:
    return sorted(NOTEBOOK_DIR.glob("*.ipynb"))


def is_checked(cell) -> bool:
    """Is this a code cell whose output nbval compares (tagged ``nbval-check-output``)?"""
    return cell.cell_type == "code" and CHECK_TAG in cell.metadata.get("tags", [])


def strip(nb):
    """Remove outputs and execution counts, except the stdout text of checked cells.

    A checked cell keeps its stdout chunks joined into one stream output, and its position among
    the code cells as execution count (what a fresh top-to-bottom run gives it); anything else
    a checked cell printed (stderr, images, rich displays) is dropped, and the no-outputs test
    then fails on the missing text, pointing at the cell that needs fixing.
    """
    for number, cell in enumerate(code_cells(nb), start=1):
        kept = []
        if is_checked(cell):
            text = "".join(
                o.text for o in cell.outputs if o.output_type == "stream" and o.name == "stdout"
            )
            if text:
                kept = [nbformat.v4.new_output("stream", name="stdout", text=text)]
        cell.outputs = kept
        cell.execution_count = number if kept else None
        cell.metadata.pop("execution", None)
    nb.metadata.pop("widgets", None)  # saved widget state: big, and different on every run
    return nb


def refresh(path: Path, timeout: int = 300) -> None:
    """Run ``path`` top to bottom in a fresh kernel, then store it stripped (see :func:`strip`)."""
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    NotebookClient(
        nb,
        timeout=timeout,
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
    ).execute()
    nbformat.write(strip(nb), path)


def code_cells(nb) -> list:
    return [cell for cell in nb.cells if cell.cell_type == "code"]


def code_sources(nb) -> list[str]:
    """Code cells as Python: IPython magics and shell lines are blanked out."""
    out = []
    for cell in nb.cells:
        if cell.cell_type == "code":
            out.append(
                "\n".join(
                    "" if line.lstrip().startswith(("%", "!")) else line
                    for line in cell.source.splitlines()
                )
            )
    return out


@pytest.fixture(scope="module", params=notebook_paths(), ids=lambda p: p.stem)
def notebook(request):
    return request.param, nbformat.read(request.param, as_version=4)


# --- the learning path ----------------------------------------------------------------------


def test_are_the_notebooks_there_in_learning_order():
    assert tuple(p.stem for p in notebook_paths()) == LEARNING_PATH


def test_does_the_readme_list_every_notebook_in_the_learning_path():
    text = README.read_text()
    assert "## Learning path" in text
    section = text.split("## Learning path", 1)[1].split("\n## ", 1)[0]
    positions = [section.find(f"{name}.ipynb") for name in LEARNING_PATH]
    assert all(p >= 0 for p in positions), "a notebook is missing from the learning path"
    assert positions == sorted(positions), "the learning path lists notebooks out of order"


# --- what git holds -------------------------------------------------------------------------


def test_does_git_hold_no_outputs_and_no_execution_counts(notebook):
    path, nb = notebook
    for number, cell in enumerate(code_cells(nb), start=1):
        where = f"{path.name} code cell {number}"
        assert "execution" not in cell.metadata, f"{where} keeps execution timestamps"
        if is_checked(cell):
            assert cell.execution_count == number, (
                f"{where} is checked: it must keep the count a fresh run gives it, {number}"
            )
        else:
            assert cell.outputs == [], f"{where} has outputs (strip them, see this module)"
            assert cell.execution_count is None, f"{where} has an execution count"
    assert "widgets" not in nb.metadata, f"{path.name} stores widget state"


def test_does_every_checked_cell_store_exactly_one_stdout_text(notebook):
    path, nb = notebook
    for number, cell in enumerate(code_cells(nb), start=1):
        if is_checked(cell):
            where = f"{path.name} code cell {number}"
            assert len(cell.outputs) == 1, f"{where} must store one output"
            out = cell.outputs[0]
            assert (out.output_type, out.get("name")) == ("stream", "stdout"), where
            assert out.text.strip(), f"{where} stores an empty text"


def test_does_every_notebook_compare_some_deterministic_text(notebook):
    path, nb = notebook
    assert any(is_checked(c) for c in nb.cells), f"{path.name} has no {CHECK_TAG} cell"


def test_do_no_nbval_comments_clutter_the_code(notebook):
    # nbval reads its markers from cell tags too; comments in the code are noise to a learner.
    path, nb = notebook
    for number, cell in enumerate(code_cells(nb), start=1):
        marks = [line for line in cell.source.splitlines() if line.strip().startswith("# NBVAL_")]
        assert not marks, f"{path.name} code cell {number}: use a cell tag, not {marks[0]!r}"


def test_is_the_kernel_the_plain_python3_kernel(notebook):
    _, nb = notebook
    assert nb.metadata.kernelspec.name == "python3"


# --- how each notebook teaches --------------------------------------------------------------


def test_does_each_notebook_start_with_its_learning_goal(notebook):
    path, nb = notebook
    first = nb.cells[0]
    assert first.cell_type == "markdown" and first.source.startswith("# "), path.name
    assert re.search(r"learning goal", first.source, re.I), f"{path.name} states no goal"


def test_does_each_notebook_end_with_a_check_yourself_cell_of_asserts(notebook):
    path, nb = notebook
    last = nb.cells[-1]
    assert last.cell_type == "code", f"{path.name} must end with a code cell"
    assert "check yourself" in last.source.lower(), f"{path.name} ends without 'check yourself'"
    tree = ast.parse(code_sources(nbformat.v4.new_notebook(cells=[last]))[0])
    asserts = [n for n in ast.walk(tree) if isinstance(n, ast.Assert)]
    assert len(asserts) >= 3, f"{path.name}: the check-yourself cell needs real asserts"


def test_do_notebooks_use_only_the_public_simlab_api(notebook):
    path, nb = notebook
    for source in code_sources(nb):
        tree = ast.parse(source)
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("simlab"):
                module = importlib.import_module(node.module)
                public = getattr(module, "__all__", None)
                for alias in node.names:
                    assert not alias.name.startswith("_"), f"{path.name} imports {alias.name}"
                    if public is not None and alias.name not in public:
                        # a sub-module is public when its parent package is
                        assert importlib.util.find_spec(f"{node.module}.{alias.name}"), (
                            f"{path.name} imports {node.module}.{alias.name}, not in __all__"
                        )
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    assert not any(part.startswith("_") for part in alias.name.split("."))
            elif isinstance(node, ast.Attribute):
                name = node.attr
                private = name.startswith("_") and not name.startswith("__")
                assert not private, f"{path.name} reaches private attribute {name}"


# --- a maintainer's tool: refresh the stored text, strip everything else ----------------------


def main(argv: list[str]) -> int:
    paths = [Path(a) for a in argv] or notebook_paths()
    for path in paths:
        refresh(path.resolve())
        print(f"refreshed {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
