"""Sentences of the notebooks about a picture or a pointer, held to what the kit draws and to
where the pointer leads.

Each test quotes the sentence it holds (in English and in the generated Chinese notebook), so a
change of a picture or a page that makes the sentence false fails here, naming it.
"""

from __future__ import annotations

import re
from pathlib import Path

import matplotlib
import nbformat
import numpy as np
import pytest

matplotlib.use("Agg")

ROOT = Path(__file__).resolve().parent.parent


def markdown(name: str, zh: bool = False) -> list[str]:
    folder = ROOT / "notebooks" / ("zh" if zh else "")
    nb = nbformat.read(folder / f"{name}.ipynb", as_version=4)
    return [c.source for c in nb.cells if c.cell_type == "markdown"]


def the_cell(name: str, words: str, zh: bool = False) -> str:
    """The one markdown cell of notebook ``name`` that holds ``words``."""
    found = [s for s in markdown(name, zh) if words in s]
    assert len(found) == 1, (name, words, len(found))
    return found[0]


# --- notebook 09: the absorber's picture -------------------------------------------------------


def _deliveries():
    from simlab import Ledger
    from simlab.agent import at_least_once, example_goals, example_world, run_step

    world, ledger, leases = example_world(), Ledger(":memory:"), {}
    for task_id, (tenant, goal) in example_goals().items():
        world.approve(task_id, "manager")
        ledger.submit(task_id, tenant=tenant, goal=goal)
        leases[task_id] = ledger.claim(task_id, "w1", ttl=30)
    events = []
    while leases:
        for task_id in list(leases):
            report = run_step(ledger, leases[task_id], world)
            events += report.events
            if report.lease is None:
                del leases[task_id]
            else:
                leases[task_id] = report.lease
    return at_least_once(events, seed=150)


def _marker(collection) -> str:
    """The marker ("o" or "x") a scatter collection draws."""
    from matplotlib.markers import MarkerStyle

    drawn = collection.get_paths()[0].vertices
    for name in "ox":
        style = MarkerStyle(name)
        shape = style.get_path().transformed(style.get_transform()).vertices
        if shape.shape == drawn.shape and np.allclose(shape, drawn):
            return name
    return "?"


def _drawn(ax) -> set[tuple[str, str]]:
    """(marker, face colour) of every point the panel draws (legend handles have no point)."""
    from matplotlib.colors import to_hex

    return {
        (_marker(c), to_hex(c.get_facecolor()[0]))
        for c in ax.collections
        if len(c.get_offsets()) and len(c.get_facecolor())
    }


@pytest.fixture(scope="module")
def absorb_panels():
    import matplotlib.pyplot as plt

    from simlab.plots import absorb_plot

    raw, absorbed = absorb_plot(_deliveries())
    yield _drawn(raw), _drawn(absorbed), [line.get_color() for line in absorbed.lines]
    plt.close("all")


@pytest.mark.parametrize("zh", [False, True], ids=["en", "zh"])
def test_does_notebook_09_name_the_shapes_its_absorber_picture_draws(absorb_panels, zh):
    """09: "On the left, red circles are copies of an event already applied ... On the right,
    green circles are the events the absorber released, a grey cross is a copy it dropped, and
    a grey bar is an event waiting in its buffer"."""
    from simlab.plots.style import DUP_ORANGE, FAIL_RED, OK_GREEN

    raw, absorbed, bars = absorb_panels
    words = (
        ("红色圆圈", "橙色圆圈", "绿色圆圈", "灰叉", "灰条")
        if zh
        else ("red circles", "orange circles", "green circles", "grey cross", "grey bar")
    )
    text = the_cell("09_events_and_permissions", words[0], zh)
    assert all(w in text for w in words), [w for w in words if w not in text]
    assert not re.search(r"red cross|红叉", text), "the duplicates are circles, not crosses"
    assert ("o", FAIL_RED) in raw and ("o", DUP_ORANGE) in raw
    assert not any(marker == "x" for marker, _ in raw), "no cross on the left"
    assert ("o", OK_GREEN) in absorbed and ("x", "#808080") in absorbed
    assert "lightgrey" in bars


# --- notebook 04: where synchronous=NORMAL is explained --------------------------------------


@pytest.mark.parametrize("zh", [False, True], ids=["en", "zh"])
def test_does_notebook_04_point_to_the_page_that_explains_synchronous_normal(zh, tmp_path):
    """04: "simlab runs SQLite with `synchronous=NORMAL` (see "Across processes" in the ledger
    reference)": the link reaches a heading of docs/ledger.md whose section says what a power cut
    does to the idempotency ledger, and the kit's ledger really runs that way."""
    from simlab import Ledger

    text = the_cell("04_crashes_and_side_effects", "synchronous=NORMAL", zh)
    (target,) = re.findall(r"\]\(((?:\.\./)+docs/ledger\.md)#([\w-]+)\)", text)
    page, anchor = target
    path = (ROOT / "notebooks" / ("zh" if zh else "") / page).resolve()
    assert path == ROOT / "docs" / "ledger.md"
    sections = re.split(r"^## ", path.read_text(), flags=re.M)
    section = next(s for s in sections[1:] if _anchor(s.splitlines()[0]) == anchor)
    assert "**Across processes.**" in section and "`synchronous=NORMAL`" in section
    assert "power cut" in section and "at most once" in section
    with Ledger(tmp_path / "l.sqlite") as ledger:
        assert ledger._db.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL


def _anchor(heading: str) -> str:
    """GitHub's (and the site's) anchor of a heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
