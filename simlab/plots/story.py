"""The picture of a shrunk run: the epoch-race timeline with each fault numbered and the
violating commit marked.

:func:`story_plot` draws :func:`simlab.plots.timeline` for the task of the first violation and
the tasks its faults struck (at most :data:`MAX_TASKS`), then puts a numbered disc on each fault
of those tasks and each fault of no task (the numbers of the story's sentences: ``fault 1``,
``fault 2``...; a fault no worker's lane holds, a user's cancel, sits in a band above the first
lane) and a red ring with the rule's letter on the event that broke the rule. Artists carry
gids: ``"fault"`` for the discs, ``"violation"`` for the ring.
"""

from __future__ import annotations

import re
from pathlib import Path

from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from simlab.plots.messages import say
from simlab.plots.style import FAIL_RED
from simlab.plots.timeline import timeline
from simlab.sim.story import fault_events, first_broken

__all__ = ["story_plot", "save_story_png"]

#: How many tasks the picture shows at most.
MAX_TASKS = 4


def story_plot(shrunk, *, ax=None, title: str | None = None):
    """Draw the story of ``shrunk`` (a :class:`~simlab.sim.shrink.Shrunk` or a
    :class:`~simlab.sim.simulation.Result`) on ``ax`` (a new figure when None); return the Axes."""
    result = getattr(shrunk, "result", shrunk)
    rules = getattr(shrunk, "rules", None) or None
    broken = first_broken(result, rules) or first_broken(result)
    events = fault_events(result)
    tasks: list[str] = []
    if broken is not None:
        found = re.search(r"\bt\d+\b", broken[2])
        tasks.append(found.group(0) if found else result.history[broken[0]].task)
    tasks += [e.task for e in events if e is not None and e.task is not None]
    tasks = [t for t in dict.fromkeys(tasks) if t is not None][:MAX_TASKS]
    s = result.scenario
    if title is None:
        what = say("no_rule_broken") if broken is None else say("rule_broken", rule=broken[1])
        title = say(
            "story_title", variant=s.variant, seed=result.seed, faults=len(events), what=what
        )
    ax = timeline(result.history, ax=ax, tasks=tasks or None, title=title)
    lanes = {t.get_text(): i for i, t in enumerate(ax.get_yticklabels())}
    # A fault on a task the picture leaves out would float over an empty lane: only the faults
    # of the tasks drawn (and those of no task) get their disc, numbered as in the story.
    shown = [
        (n, e)
        for n, e in enumerate(events, start=1)
        if e is not None and (e.task is None or not tasks or e.task in tasks)
    ]
    _show_times(ax, [e.time for _, e in shown])
    top = min(lanes.values(), default=0) - 0.5
    if any(e.process not in lanes for _, e in shown):
        _band_above(ax, top)
    for n, e in shown:
        y = lanes.get(e.process, top)
        ax.annotate(
            str(n),
            (e.time, y - 0.3),
            ha="center",
            va="center",
            fontsize=8,
            weight="bold",
            color="white",
            gid="fault",
            zorder=6,
            annotation_clip=False,
            bbox=dict(boxstyle="circle,pad=0.25", fc="black", ec="white"),
        )
    if broken is not None:
        e = result.history[broken[0]]
        y = lanes.get(e.process, top) + 0.08
        ax.add_line(
            Line2D(
                [e.time],
                [y],
                ls="none",
                marker="o",
                ms=22,
                mfc="none",
                mec=FAIL_RED,
                mew=2.5,
                gid="violation",
                zorder=5,
            )
        )
        ax.annotate(
            f"rule ({broken[1]}) broken",
            (e.time, y),
            xytext=(13, -9),
            textcoords="offset points",
            va="top",
            bbox=dict(boxstyle="round,pad=0.15", fc="white", ec="none", alpha=0.85),
            fontsize=9,
            weight="bold",
            color=FAIL_RED,
            zorder=6,
        )
    return ax


def _band_above(ax, top: float) -> None:
    """Room above the first lane for the discs of faults no worker's lane holds (a user's
    cancel, a duplicate delivery), inside the axes, clear of the title."""
    low, high = ax.get_ylim()
    if low > high:  # the lanes run downwards: the first lane is at the top
        ax.set_ylim(low, min(high, top - 0.75))
    else:
        ax.set_ylim(min(low, top - 0.75), high)


def _show_times(ax, times: list[float]) -> None:
    """Widen the x axis so that every fault's event is in the picture (a document edit, say,
    may fall before the first event of the tasks drawn)."""
    if not times:
        return
    left, right = ax.get_xlim()
    pad = 0.03 * max(right - left, 1e-9)
    ax.set_xlim(min(left, min(times) - pad), max(right, max(times) + pad))


def save_story_png(shrunk, path: str | Path, dpi: int = 110) -> None:
    """:func:`story_plot` on a fresh figure (not pyplot), saved to ``path``."""
    result = getattr(shrunk, "result", shrunk)
    fig = Figure(figsize=(11, 2.2 + 0.55 * result.scenario.workers), layout="constrained")
    story_plot(shrunk, ax=fig.subplots())
    fig.savefig(path, dpi=dpi)
