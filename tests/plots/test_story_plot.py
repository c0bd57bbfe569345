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


def test_does_a_run_with_many_faults_number_only_the_faults_of_the_tasks_it_draws():
    shrunk = shrink(Scenario(tasks=100, workers=4, pause_rate=0.05, crash_rate=0.02), seed=1)
    ax = story_plot(shrunk, ax=Figure().subplots())
    legends = [x for x in (ax.get_legend(), *ax.figure.legends) if x is not None]
    labels = [t.get_text() for x in legends for t in x.get_texts()]
    drawn = {label.split()[-1] for label in labels if label.startswith("lease on ")}
    events = fault_events(shrunk.result)
    assert shrunk.ok and len(events) > 10
    numbers = {int(d.get_text()) for d in _artists(ax, "fault")}
    # the discs keep the story's numbers, and are exactly the faults of the lanes' tasks
    assert numbers == {n for n, e in enumerate(events, 1) if e.task in drawn}
    assert 0 < len(numbers) < len(events)


def test_is_every_fault_disc_inside_the_axes_clear_of_the_title():
    shrunk = shrink(Scenario(tasks=3, cancel_rate=0.9, crash_rate=0.0, pause_rate=0.0), seed=2)
    events = fault_events(shrunk.result)
    assert any(e.process == "user" for e in events if e is not None)
    ax = story_plot(shrunk, ax=Figure().subplots())
    low, high = sorted(ax.get_ylim())
    discs = _artists(ax, "fault")
    assert discs and all(low < d.xy[1] < high for d in discs)
