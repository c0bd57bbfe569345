"""Does the story picture number every fault of the minimal run and mark the violating event?"""

from __future__ import annotations

from matplotlib.figure import Figure

from simlab import Scenario, shrink
from simlab.plots.story import story_plot
from simlab.sim.story import fault_events, first_broken


def _artists(ax, gid):
    return [a for a in [*ax.lines, *ax.texts] if a.get_gid() == gid]


def test_does_the_story_picture_number_each_fault_and_ring_the_violation():
    shrunk = shrink(Scenario(variant="unfenced"), seed=7)
    ax = story_plot(shrunk, ax=Figure().subplots())
    discs = _artists(ax, "fault")
    assert sorted(d.get_text() for d in discs) == [
        str(n) for n in range(1, len(shrunk.schedule) + 1)
    ]
    events = fault_events(shrunk.result)
    assert sorted(d.xy[0] for d in discs) == sorted(e.time for e in events)
    (ring,) = _artists(ax, "violation")
    index, letter, _ = first_broken(shrunk.result, shrunk.rules)
    assert list(ring.get_xdata()) == [shrunk.result.history[index].time]
    assert f"rule ({letter}) broken" in ax.get_title()


def test_does_a_clean_run_draw_no_violation():
    shrunk = shrink(Scenario(tasks=20), seed=3)
    ax = story_plot(shrunk, ax=Figure().subplots())
    assert shrunk.ok and not _artists(ax, "violation")
    assert "no rule broken" in ax.get_title()
