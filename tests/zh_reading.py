"""The nbval run of the Chinese notebooks is also their reading test: every prediction wrong,
and no line a learner reads in English.

A pytest plugin (the repository's ``conftest.py`` loads it), so that it holds wherever nbval
runs a Chinese notebook: the lab notebooks (``notebooks/zh``, ``make test``'s nbval run), the
solutions and the exercises (``solutions/zh``, ``exercises/zh``, the nbval run of
``tests/grading/test_grading_notebooks.py``): an exercise's public checks print each stub's hint,
a solution's print its lines and each check's verdict.

In a notebook that speaks Chinese (its first code cell sets ``set_language("zh")``, see
:mod:`simlab.i18n.code`), each predict cell runs with ``prediction = "?"`` instead of ``None``, a
prediction no run gives, so each reveal prints its verdict and its why; after each cell, the
lines it printed must hold no English prose (:func:`simlab.i18n.prose.english_prose`), except in
a cell that prints the kit's source code (``inspect.getsource``), which is code. The same run
that compares outputs does this: the notebooks run once.
"""

from __future__ import annotations

import re

import pytest

from simlab.i18n.prose import english_prose

WRONG = 'prediction = "?"'
_BLANK = re.compile(r"^prediction = None\b", re.M)


def _speaks(item) -> bool:
    nb = getattr(item.parent, "nb", None)
    cells = [c for c in (nb.cells if nb else []) if c.cell_type == "code"]
    return bool(cells) and 'set_language("zh")' in cells[0].source


def _is_cell(item) -> bool:
    return hasattr(item, "cell") and hasattr(item, "test_outputs")


def pytest_runtest_setup(item):
    if _is_cell(item) and _speaks(item):
        if (item.cell.metadata.get("simlab") or {}).get("role") == "predict":
            item.cell.source = _BLANK.sub(WRONG, item.cell.source)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    result = yield
    if _is_cell(item) and _speaks(item) and "getsource" not in item.cell.source:
        printed = "".join(
            "".join(out.get("text", "")) for out in item.test_outputs or () if "text" in out
        )
        english = english_prose(printed)
        assert not english, f"English prose in what a learner reads: {english}"
    return result
