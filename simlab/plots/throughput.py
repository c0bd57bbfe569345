"""Throughput and latency of a run: completed tasks per time bin, latency of each task."""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np
from matplotlib.ticker import MaxNLocator

from simlab.checker.history import Event, HistoryView
from simlab.plots.messages import say
from simlab.plots.style import below, new_axes

__all__ = ["throughput_latency"]


def _nice(x: float) -> float:
    """The 1-2-5 number nearest above ``x``."""
    if x <= 0:
        return 1.0
    exp = math.floor(math.log10(x))
    for m in (1, 2, 5, 10):
        if m * 10**exp >= x:
            return float(m * 10**exp)
    return float(10 ** (exp + 1))


def _union(intervals: list[tuple[float, float]]) -> list[tuple[float, float]]:
    merged: list[list[float]] = []
    for a, b in sorted(intervals):
        if merged and a <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    return [(a, b) for a, b in merged]


def throughput_latency(history: Iterable[Event], *, ax=None, bin_width: float | None = None):
    """Completed tasks per time bin (bars, left axis) and the latency of each completed task
    from submit to completing save (dots at completion time, right axis; the line is the bin
    mean). The time before ``faults-off`` is shaded pink, times when some worker was paused
    grey. Returns the left Axes; the latency axes is its ``right_ax`` attribute (as in pandas).
    """
    view = HistoryView(history)
    ax = new_axes(ax, (11, 4))
    right = ax.twinx()
    ax.right_ax = right
    ax.set_title(say("throughput_title"))
    ax.set_xlabel(say("simulated_time"))
    ax.set_ylabel(say("completed_per_bin"))
    right.set_ylabel(say("latency_axis"))
    done = _completions(view)
    if not view.events:
        ax.text(
            0.5,
            0.5,
            "empty history: nothing to draw",
            ha="center",
            va="center",
            transform=ax.transAxes,
            color="gray",
        )
        return ax

    t0 = view.events[0].time
    t1 = max(view.events[-1].time, t0 + 1e-9)
    width = bin_width if bin_width and bin_width > 0 else _nice((t1 - t0) / 30)
    edges = np.arange(math.floor(t0 / width) * width, t1 + width, width)
    _throughput_bars(ax, done, edges, width)
    _latency(right, view, done, edges, width)
    _faults_off(ax, view, t0, t1)
    _pauses_and_crashes(ax, view)
    ax.set_xlim(edges[0], edges[-1])
    _legend(ax, right)
    return ax


def _completions(view: HistoryView) -> dict[str, Event]:
    """Each task's first granted save with ``done``, by task."""
    done: dict[str, Event] = {}
    for e in view:
        if e.op == "save" and e.type == "ok" and e.value.get("done") and e.task not in done:
            done[e.task] = e
    return done


def _throughput_bars(ax, done: dict[str, Event], edges, width: float) -> None:
    """Bars: how many tasks completed in each bin of ``edges``."""
    finish = [e.time for e in done.values()]
    counts, _ = np.histogram(finish, bins=edges)
    ax.bar(
        edges[:-1],
        counts,
        width=width,
        align="edge",
        color="tab:blue",
        alpha=0.55,
        edgecolor="white",
        label=say("completed_bar"),
        gid="throughput",
    )


def _latency(right, view: HistoryView, done: dict[str, Event], edges, width: float) -> None:
    """On the right axis: each completed task's latency (a dot at its completion) and the mean
    latency per bin (a line); nothing when no completed task has a submit."""
    lat = [(e.time, e.time - view.submits[t].time) for t, e in done.items() if t in view.submits]
    if not lat:
        return
    xs, ys = zip(*lat, strict=True)
    many = len(xs) > 300
    right.plot(
        xs,
        ys,
        ls="none",
        marker=".",
        ms=3 if many else 5,
        color="tab:orange",
        alpha=0.35 if many else 0.7,
        label=say("latency_dot"),
        gid="latency",
    )
    which = np.digitize(xs, edges) - 1
    sums = np.bincount(which, weights=ys, minlength=len(edges))
    counts_per_bin = np.bincount(which, minlength=len(edges))
    filled = np.nonzero(counts_per_bin)[0]
    right.plot(
        edges[filled] + width / 2,
        sums[filled] / counts_per_bin[filled],
        color="#b35806",
        lw=2,
        label=say("latency_mean"),
        gid="latency-mean",
    )
    right.set_ylim(bottom=0)


def _faults_off(ax, view: HistoryView, t0: float, t1: float) -> None:
    """Shade the time before ``faults-off`` and mark the moment (label on the side with room);
    nothing when the history has no ``faults-off``."""
    if view.faults_off is None:
        return
    ax.axvspan(
        t0,
        view.faults_off.time,
        color="tab:red",
        alpha=0.08,
        lw=0,
        zorder=0,
        label=say("faults_on"),
        gid="faults",
    )
    ax.axvline(view.faults_off.time, color="tab:red", ls="--", lw=1)
    late = view.faults_off.time > (t0 + t1) / 2
    ax.annotate(
        say("faults_off"),
        (view.faults_off.time, 1.0),
        xycoords=("data", "axes fraction"),
        xytext=(-3 if late else 3, -3),
        textcoords="offset points",
        va="top",
        ha="right" if late else "left",
        fontsize=8,
        color="tab:red",
    )


def _pauses_and_crashes(ax, view: HistoryView) -> None:
    """Grey spans while some worker was paused (overlaps merged), a cross at each crash."""
    pauses = _union(
        [(e.time, float(e.value.get("until", e.time))) for e in view if e.op == "pause"]
    )
    for i, (a, b) in enumerate(pauses):
        ax.axvspan(
            a,
            b,
            color="gray",
            alpha=0.2,
            lw=0,
            zorder=0,
            gid="paused",
            label=say("worker_paused") if i == 0 else None,
        )
    crashes = [e.time for e in view if e.op == "crash"]
    if crashes:
        ax.plot(
            crashes,
            [0] * len(crashes),
            ls="none",
            marker="x",
            color="black",
            ms=6,
            clip_on=False,
            label=say("crash"),
            gid="crash",
        )


def _legend(ax, right) -> None:
    """One legend below the plot for both axes (integer ticks on the left axis)."""
    handles = ax.get_legend_handles_labels()
    more = right.get_legend_handles_labels()
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.legend(
        handles[0] + more[0],
        handles[1] + more[1],
        loc="upper center",
        fontsize=8,
        bbox_to_anchor=(0.5, 0),
        bbox_transform=below(ax),
        ncol=6,
        frameon=False,
    )
