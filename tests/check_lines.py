"""What the public checks of each notebook print in an nbval run, kept for a test to read: a
pytest plugin, loaded (``-p tests.check_lines``) by the nbval run of
``tests/grading/test_grading_notebooks.py``, so that the exercises' check lines come from the run
that already executes every exercise, not from a second run of each.

Given :data:`OPTION` (a file), after each cell whose role is ``check`` ran, the lines it printed
that start with ``[`` (a check's verdict, such as ``[not yet]``) are kept under its notebook
(its path relative to the session's root folder, with ``/``) and its question; when the
session ends, the file holds them as JSON: ``{notebook: {question: [line, ...]}}``. A notebook
whose checks printed nothing has no entry.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from simlab.grading.notebook import cell_question, cell_role

#: The option naming the file the lines are written to.
OPTION = "--check-lines"

_said: dict[str, dict[str, list[str]]] = {}


def pytest_addoption(parser):
    parser.addoption(OPTION, metavar="FILE", help="write what each check cell printed (JSON)")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    result = yield
    cell = getattr(item, "cell", None)
    if cell is not None and cell_role(cell) == "check" and item.config.getoption(OPTION):
        printed = "".join(
            "".join(out.get("text", "")) for out in item.test_outputs or () if "text" in out
        )
        notebook = Path(item.path).relative_to(item.config.rootpath).as_posix()
        _said.setdefault(notebook, {}).setdefault(cell_question(cell), []).extend(
            line for line in printed.splitlines() if line.startswith("[")
        )
    return result


def pytest_sessionfinish(session):
    path = session.config.getoption(OPTION)
    if path:
        Path(path).write_text(json.dumps(_said, ensure_ascii=False), encoding="utf-8")
