"""Pictures of a run: the epoch race, throughput and latency, and a sweep over fault rates.

Every function draws on ``ax`` (a new figure when ``ax`` is None) and returns what it drew on,
so pictures compose in notebooks. They read the same history as :mod:`simlab.checker` and
never change it. Artists carry a ``gid`` naming what they show (``"save-ok"``, ``"save-fail"``,
``"lease"``...), so tests and learners can find them again.

* :func:`timeline` -- one lane per worker: who held which lease, when, and which commits counted.
* :func:`throughput_latency` -- completed tasks per time bin, task latency, fault periods shaded.
* :func:`sweep_plot` -- mean outcome per variant and fault rate over several seeds.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import matplotlib.patches as mpatches
import numpy as np
from matplotlib.colors import to_rgba
from matplotlib.lines import Line2D
from matplotlib.path import Path
from matplotlib.ticker import MaxNLocator
from matplotlib.transforms import offset_copy

from simlab.history import Event, HistoryView

__all__ = ["timeline", "throughput_latency", "sweep_plot", "ENVELOPE"]

#: A small envelope (a box with a flap) used as the marker for e-mails that reached the mailbox.
ENVELOPE = Path(
    [(-1, -0.65), (1, -0.65), (1, 0.65), (-1, 0.65), (-1, -0.65), (-1, 0.65), (0, -0.1), (1, 0.65)],
    [
        Path.MOVETO,
        Path.LINETO,
        Path.LINETO,
        Path.LINETO,
        Path.CLOSEPOLY,
        Path.MOVETO,
        Path.LINETO,
        Path.LINETO,
    ],
)

NOT_WORKERS = frozenset({"client", "broker", "user", "nemesis", "mailbox"})
# Task colours avoid green and red, which mean "accepted" and "refused".
TASK_COLORS = (
    "tab:blue",
    "tab:purple",
    "tab:brown",
    "tab:cyan",
    "tab:olive",
    "tab:pink",
    "tab:gray",
    "goldenrod",
)
VARIANT_COLORS = {"fenced": "tab:green", "unfenced": "tab:red", "racy-claim": "tab:orange"}
OK_GREEN, FAIL_RED, SEND_BLUE, DUP_ORANGE = "#1a9641", "#d7191c", "#2c7bb6", "#fdae61"


def _axes(ax, figsize):
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    return plt.subplots(figsize=figsize, layout="constrained")[1]


def _below(ax):
    """Axes coordinates shifted down past the x label, for a legend under the plot."""
    return offset_copy(ax.transAxes, fig=ax.figure, y=-30, units="points")


def _natural(name: str) -> list:
    """Sort key so that w2 comes before w10."""
    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", name)]


def _is_worker(process: str) -> bool:
    return process not in NOT_WORKERS


# --- timeline ---------------------------------------------------------------------------------


def _default_tasks(view: HistoryView, limit: int = 6, interesting: int = 3) -> list[str]:
    """All tasks when there are few; else the tasks of the first accepted stale commits and
    reused epochs (the fencing failures), then of the first refused commits; else the first
    ``limit`` tasks."""
    tasks = view.tasks()
    if len(tasks) <= limit:
        return tasks
    stale: list[str] = []
    refused: list[str] = []
    newest: dict[str, int] = {}
    for e in view:
        if e.task is None or e.epoch is None:
            continue
        if e.type == "ok" and e.op in ("claim", "cancel"):
            if e.op == "claim" and e.task in newest and e.epoch <= newest[e.task]:
                if e.task not in stale:
                    stale.append(e.task)
            newest[e.task] = max(newest.get(e.task, e.epoch), e.epoch)
        elif e.op == "save" and e.type == "ok" and newest.get(e.task, e.epoch) > e.epoch:
            if e.task not in stale:
                stale.append(e.task)
        elif e.op == "save" and e.type == "fail" and e.task not in refused:
            refused.append(e.task)
        if len(stale) >= interesting:
            break
    picked = list(dict.fromkeys(stale + refused))[:interesting]
    return picked or tasks[:limit]


def _lease_windows(events: list[Event]) -> list[tuple[str, str, int | None, float, float]]:
    """(worker, task, epoch, start, end) for every granted claim.

    A window runs from the claim ok to ``lease_until`` (pushed back by each heartbeat ok of the
    same lease), cut short when the holder completes the task, has a save or heartbeat refused
    (it has just learned that it lost the task), crashes or claims again.
    """
    windows = []
    open_: dict[str, list] = {}  # worker -> [task, epoch, start, until, ttl]

    def close(worker: str, t: float) -> None:
        task, epoch, start, until, _ = open_.pop(worker)
        windows.append((worker, task, epoch, start, max(start, min(until, t))))

    for e in events:
        w = e.process
        if e.op == "claim" and e.type == "ok":
            if w in open_:
                close(w, e.time)
            until = float(e.value.get("lease_until", e.time))
            open_[w] = [e.task, e.epoch, e.time, until, until - e.time]
        elif w in open_:
            lease = open_[w]
            mine = e.task == lease[0] and e.epoch == lease[1]
            if e.op == "heartbeat" and e.type == "ok" and mine:
                lease[3] = float(e.value.get("lease_until", e.time + lease[4]))
            elif e.op == "crash" or (
                mine
                and e.op in ("save", "heartbeat")
                and (e.type == "fail" or (e.type == "ok" and e.value.get("done")))
            ):
                close(w, e.time)
    for w in list(open_):
        close(w, math.inf)
    return windows


def _reused_claims(events: list[Event]) -> set[tuple]:
    """(worker, task, epoch, time) of every claim ok whose epoch was not higher than one
    already granted for its task (rule (a') of the checker)."""
    newest: dict[str, int] = {}
    reused = set()
    for e in events:
        if e.type == "ok" and e.op in ("claim", "cancel") and e.epoch is not None:
            if e.op == "claim" and e.task in newest and e.epoch <= newest[e.task]:
                reused.add((e.process, e.task, e.epoch, e.time))
            newest[e.task] = max(newest.get(e.task, e.epoch), e.epoch)
    return reused


def timeline(
    history: Iterable[Event],
    *,
    ax=None,
    tasks: Sequence[str] | None = None,
    title: str | None = None,
):
    """Draw the epoch race: one lane per worker, time on x. Returns the Axes.

    Boxes are lease windows (colour = task, label = task and epoch); hatched boxes are pauses;
    ``x`` is a crash; green dots are accepted saves (a star completes the task), red crosses are
    refused saves labelled with the epoch they carried; a red ring marks an accepted save whose
    epoch was already stale (a fencing failure); envelopes are e-mails that reached the mailbox
    (orange: a duplicate); a dotted line is a cancel; a small triangle is a duplicate delivery.
    ``tasks`` limits the picture to some tasks; by default a long history shows the tasks of
    its first refused or stale commits, or its first six tasks.
    """
    view = HistoryView(history)
    chosen = list(tasks) if tasks is not None else _default_tasks(view)
    keep = set(chosen)
    events = [e for e in view if e.task in keep or (e.op == "pause" and e.task is None)]
    lanes = sorted(
        {e.process for e in events if _is_worker(e.process) and e.op != "pause"}, key=_natural
    )
    events = [e for e in events if e.op != "pause" or e.process in lanes]
    lane = {w: i for i, w in enumerate(lanes)}
    color = {t: TASK_COLORS[i % len(TASK_COLORS)] for i, t in enumerate(chosen)}
    ax = _axes(ax, (11, 1.6 + 0.55 * max(len(lanes), 1)))
    ax.set_title(title or "Epoch race: who held which lease, and which commits counted")
    ax.set_xlabel("simulated time")
    if not events:
        ax.text(
            0.5,
            0.5,
            "empty history: nothing to draw",
            ha="center",
            va="center",
            transform=ax.transAxes,
            color="gray",
        )
        ax.set_yticks([])
        return ax

    t0 = min(e.time for e in events)
    windows = _lease_windows(events)
    t1 = max(
        [e.time for e in events]
        + [w[4] for w in windows]
        + [float(e.value.get("until", e.time)) for e in events if e.op == "pause"]
    )
    span = max(t1 - t0, 1e-9)
    pad = 0.03 * span
    label_box = dict(boxstyle="round,pad=0.1", fc="white", ec="none", alpha=0.85)
    legend: dict[str, Any] = {}

    # Lease windows, behind everything else; a claim that got an epoch already granted is
    # outlined in red (two leases with one fencing token: the ledger cannot tell them apart).
    reused = _reused_claims(events)
    for task in chosen:
        legend[f"lease on {task}"] = mpatches.Patch(
            facecolor=to_rgba(color[task], 0.28), edgecolor=color[task]
        )
    for worker, task, epoch, start, end in windows:
        y = lane[worker]
        again = (worker, task, epoch, start) in reused
        box = mpatches.Rectangle(
            (start, y - 0.32),
            end - start,
            0.64,
            facecolor=to_rgba(color[task], 0.28),
            edgecolor=FAIL_RED if again else to_rgba(color[task], 0.6),
            lw=2.5 if again else 1.2,
            gid="lease-reused" if again else "lease",
        )
        ax.add_patch(box)
        label = f"{task} e{epoch}" if end - start > 0.06 * span else f"e{epoch}"
        ax.text(
            start + 0.004 * span,
            y - 0.17,
            label + (" again!" if again else ""),
            va="center",
            ha="left",
            fontsize=7.5,
            color=FAIL_RED if again else "black",
            weight="bold" if again else "normal",
            clip_on=True,
        )
        if again:
            legend["lease with an epoch granted twice!"] = mpatches.Patch(
                facecolor="none", edgecolor=FAIL_RED, lw=2.5
            )

    for e in events:
        if e.op == "pause" and e.process in lane:
            until = float(e.value.get("until", e.time))
            ax.add_patch(
                mpatches.Rectangle(
                    (e.time, lane[e.process] - 0.4),
                    until - e.time,
                    0.8,
                    facecolor="none",
                    edgecolor="dimgray",
                    hatch="///",
                    lw=0.8,
                    gid="pause",
                )
            )
            legend["paused"] = mpatches.Patch(facecolor="none", edgecolor="dimgray", hatch="///")

    points: dict[str, list[tuple[float, float]]] = defaultdict(list)
    newest: dict[str, int] = {}
    sent: set[tuple] = set()
    for e in events:
        if e.process not in lane and e.op != "cancel":
            continue
        y = lane.get(e.process)
        if e.type == "ok" and e.op in ("claim", "cancel") and e.epoch is not None:
            newest[e.task] = max(newest.get(e.task, e.epoch), e.epoch)
        if e.op == "save" and e.type == "ok":
            points["save-done" if e.value.get("done") else "save-ok"].append((e.time, y + 0.08))
            if e.epoch is not None and newest.get(e.task, e.epoch) > e.epoch:
                points["save-stale"].append((e.time, y + 0.08))
                ax.annotate(
                    f"e{e.epoch} stale!",
                    (e.time, y + 0.08),
                    xytext=(-10, 0),
                    textcoords="offset points",
                    ha="right",
                    va="center",
                    fontsize=8,
                    color=FAIL_RED,
                    weight="bold",
                    bbox=label_box,
                )
        elif e.op == "save" and e.type == "fail":
            points["save-fail"].append((e.time, y + 0.08))
            ax.annotate(
                f"e{e.epoch}",
                (e.time, y + 0.08),
                xytext=(0, 7),
                textcoords="offset points",
                ha="center",
                va="bottom",
                fontsize=8,
                color=FAIL_RED,
                weight="bold",
                bbox=label_box,
            )
        elif e.op == "crash":
            points["crash"].append((e.time, y + 0.08))
        elif e.op == "send" and e.type == "ok":
            key = e.value.get("key")
            ident = (e.task, key) if key is not None else (e.task, e.step, None)
            points["send-dup" if ident in sent else "send"].append((e.time, y + 0.44))
            sent.add(ident)
        elif e.op == "deliver" and (e.value.get("duplicate") or e.value.get("redelivery")):
            points["deliver-dup"].append((e.time, y - 0.44))
        elif e.op == "cancel" and e.type == "ok":
            ax.axvline(e.time, color=color.get(e.task, "black"), ls=":", lw=1.5, gid="cancel")
            ax.annotate(
                f"cancel {e.task}",
                (e.time, 1.0),
                xycoords=("data", "axes fraction"),
                xytext=(2, -2),
                textcoords="offset points",
                va="top",
                fontsize=8,
                color=color.get(e.task, "black"),
            )
            legend["cancel (epoch bumped)"] = Line2D([], [], color="black", ls=":")

    styles = {
        "save-ok": ("accepted save", dict(marker="o", ms=7, color=OK_GREEN, mec="white")),
        "save-done": (
            "accepted save, task done",
            dict(marker="*", ms=13, color=OK_GREEN, mec="white"),
        ),
        "save-fail": (
            "refused save (its epoch)",
            dict(marker="X", ms=9, color=FAIL_RED, mec="white"),
        ),
        "save-stale": (
            "accepted although stale!",
            dict(marker="o", ms=15, mfc="none", mec=FAIL_RED, mew=2),
        ),
        "crash": ("crash", dict(marker="x", ms=10, mew=2.5, color="black")),
        "send": ("e-mail sent", dict(marker=ENVELOPE, ms=10, mfc="white", mec=SEND_BLUE, mew=1.3)),
        "send-dup": (
            "e-mail sent again",
            dict(marker=ENVELOPE, ms=10, mfc=DUP_ORANGE, mec="black", mew=1.3),
        ),
        "deliver-dup": ("task delivered again", dict(marker="v", ms=6, color="gray")),
    }
    for gid, (label, style) in styles.items():
        if points[gid]:
            xs, ys = zip(*points[gid], strict=True)
            ax.add_line(Line2D(xs, ys, ls="none", gid=gid, zorder=4, **style))
            legend[label] = Line2D([], [], ls="none", **style)

    ax.set_xlim(t0 - pad, t1 + pad)
    ax.set_ylim(len(lanes) - 0.35, -0.65)
    ax.set_yticks(range(len(lanes)), lanes)
    ax.set_ylabel("worker")
    ax.grid(axis="x", alpha=0.3)
    for y in range(len(lanes)):
        ax.axhline(y, color="lightgray", lw=0.6, zorder=0)
    ax.legend(
        legend.values(),
        legend.keys(),
        loc="upper center",
        ncol=min(5, len(legend)),
        fontsize=8,
        frameon=False,
        title_fontsize=8,
        bbox_to_anchor=(0.5, 0),
        bbox_transform=_below(ax),
        title="boxes: leases, labelled task and epoch "
        "(e2 = epoch 2); red labels: the epoch a save carried",
    )
    return ax


# --- throughput and latency -------------------------------------------------------------------


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
    ax = _axes(ax, (11, 4))
    right = ax.twinx()
    ax.right_ax = right
    ax.set_title("Throughput and latency")
    ax.set_xlabel("simulated time")
    ax.set_ylabel("tasks completed per bin")
    right.set_ylabel("latency (submit to completion)")
    done: dict[str, Event] = {}
    for e in view:
        if e.op == "save" and e.type == "ok" and e.value.get("done") and e.task not in done:
            done[e.task] = e
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
        label="completed per bin",
        gid="throughput",
    )

    lat = [(e.time, e.time - view.submits[t].time) for t, e in done.items() if t in view.submits]
    if lat:
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
            label="latency of a task",
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
            label="mean latency per bin",
            gid="latency-mean",
        )
        right.set_ylim(bottom=0)

    if view.faults_off is not None:
        ax.axvspan(
            t0,
            view.faults_off.time,
            color="tab:red",
            alpha=0.08,
            lw=0,
            zorder=0,
            label="faults on",
            gid="faults",
        )
        ax.axvline(view.faults_off.time, color="tab:red", ls="--", lw=1)
        late = view.faults_off.time > (t0 + t1) / 2
        ax.annotate(
            "faults off",
            (view.faults_off.time, 1.0),
            xycoords=("data", "axes fraction"),
            xytext=(-3 if late else 3, -3),
            textcoords="offset points",
            va="top",
            ha="right" if late else "left",
            fontsize=8,
            color="tab:red",
        )
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
            label="a worker paused" if i == 0 else None,
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
            label="crash",
            gid="crash",
        )
    ax.set_xlim(edges[0], edges[-1])
    handles = ax.get_legend_handles_labels()
    more = right.get_legend_handles_labels()
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.legend(
        handles[0] + more[0],
        handles[1] + more[1],
        loc="upper center",
        fontsize=8,
        bbox_to_anchor=(0.5, 0),
        bbox_transform=_below(ax),
        ncol=6,
        frameon=False,
    )
    return ax


# --- sweep ------------------------------------------------------------------------------------

SWEEP_METRICS = ("completed", "wasted_steps", "duplicate_sends", "violations")
SWEEP_TITLES = {
    "completed": "tasks completed",
    "wasted_steps": "wasted steps",
    "duplicate_sends": "duplicate e-mails",
    "violations": "invariant violations",
}


def sweep_plot(rows: Iterable[Mapping[str, Any]], *, x: str = "rate", ax=None):
    """One small panel per outcome (completed, wasted steps, duplicate e-mails, violations):
    the mean over seeds for each (variant, ``x``) as a line per variant, with the range over
    seeds as vertical bars (nudged sideways per variant so they do not hide each other). ``rows``
    are dicts with keys ``variant``, ``x`` (default ``"rate"``), ``seed``
    and the four outcomes. ``ax`` may be None (a new 1x4 figure) or four Axes.

    Returns a numpy array of the four Axes.
    """
    rows = list(rows)
    if ax is None:
        import matplotlib.pyplot as plt

        axes = plt.subplots(1, 4, figsize=(14, 3.6), layout="constrained")[1]
    else:
        axes = np.asarray(ax, dtype=object).ravel()
        if axes.size != len(SWEEP_METRICS):
            raise ValueError(f"sweep_plot needs {len(SWEEP_METRICS)} Axes, got {axes.size}")
    groups: dict[str, dict[Any, list[Mapping[str, Any]]]] = defaultdict(lambda: defaultdict(list))
    for r in rows:
        groups[str(r["variant"])][r[x]].append(r)
    others = iter(
        c
        for c in ("tab:blue", "tab:purple", "tab:brown", "tab:gray")
        if c not in VARIANT_COLORS.values()
    )
    for metric, a in zip(SWEEP_METRICS, axes, strict=True):
        a.set_title(SWEEP_TITLES[metric], fontsize=10)
        a.set_xlabel(x)
        a.grid(alpha=0.3)
        if not rows:
            a.text(
                0.5, 0.5, "no rows", ha="center", va="center", transform=a.transAxes, color="gray"
            )
    all_x = sorted({r[x] for r in rows})
    # Ranges drawn as vertical bars, nudged sideways per variant so overlapping ranges stay
    # readable (shaded bands of three variants merge into one muddy block).
    step = min((b - a for a, b in zip(all_x, all_x[1:], strict=False)), default=1.0) or 1.0
    nudge = 0.06 * step
    for i, (variant, by_x) in enumerate(groups.items()):
        c = VARIANT_COLORS.get(variant) or next(others, "black")
        xs = sorted(by_x)
        shift = (i - (len(groups) - 1) / 2) * nudge
        for metric, a in zip(SWEEP_METRICS, axes, strict=True):
            vals = [[float(r[metric]) for r in by_x[v]] for v in xs]
            a.plot(
                xs,
                [np.mean(v) for v in vals],
                marker="o",
                color=c,
                label=variant,
                gid=f"sweep-{variant}",
            )
            if any(len(v) > 1 for v in vals):
                a.vlines(
                    [float(v) + shift for v in xs],
                    [min(v) for v in vals],
                    [max(v) for v in vals],
                    colors=c,
                    lw=2.5,
                    alpha=0.45,
                )
    if groups:
        axes[0].legend(fontsize=8, title="variant", title_fontsize=8, loc="best", framealpha=0.8)
        axes[0].figure.suptitle(f"Mean over seeds (bars: min to max) by {x}", fontsize=11)
    return axes
