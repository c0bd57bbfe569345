"""The epoch race as a picture: one lane per worker, leases as boxes, commits as marks.

:func:`timeline` draws what :mod:`simlab.checker.checker` judges: accepted saves that were already
stale and claims that reused an epoch are marked from the checker's own findings
(:func:`~simlab.checker.checker.stale_commit_events` and
:func:`~simlab.checker.checker.reused_epoch_events`), never from a second copy of the rules. A
refused save shows why it was refused, from :func:`simlab.checker.rows.refusal_reasons`: a stale
epoch, a cancelled task, a task already completed, or another reason, each its own marker.
Artists carry a ``gid`` naming what they show (``"save-ok"``, ``"save-fail-stale-epoch"``,
``"save-fail-cancelled"``, ``"save-fail-completed"``, ``"save-fail-other"``, ``"lease"``...),
so tests and learners can find them again.

The x axis spans the events drawn, plus the leases and pauses that end within a quarter of that
span after the last event, plus a small margin: a lease or a pause that runs on further (a
lease with a ``lease_until`` far ahead) is cut at the right edge, and a label there says until
when it ran (gid ``"clipped"``).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import matplotlib.patches as mpatches
from matplotlib.colors import to_rgba
from matplotlib.lines import Line2D

from simlab.checker.checker import reused_epoch_events, stale_commit_events
from simlab.checker.history import Event, HistoryView
from simlab.checker.rows import refusal_reasons
from simlab.plots.messages import say, words
from simlab.plots.style import (
    DUP_ORANGE,
    ENVELOPE,
    FAIL_RED,
    OK_GREEN,
    SEND_BLUE,
    TASK_COLORS,
    below,
    is_worker,
    natural,
    new_axes,
)

__all__ = ["timeline"]

LABEL_BOX = dict(boxstyle="round,pad=0.1", fc="white", ec="none", alpha=0.85)


@dataclass
class _Canvas:
    """What the drawing steps of one timeline share."""

    ax: Any
    lane: dict[str, int]
    color: dict[str, str]
    span: float
    legend: dict[str, Any] = field(default_factory=dict)


def _default_tasks(view: HistoryView, limit: int = 6, interesting: int = 3) -> list[str]:
    """All tasks when there are few; else the tasks of the first accepted stale commits and
    reused epochs (the checker's findings for rules (a) and (a')), then of the first refused
    commits; else the first ``limit`` tasks."""
    tasks = view.tasks()
    if len(tasks) <= limit:
        return tasks
    order = {id(e): i for i, e in enumerate(view)}
    found = [e for e, _ in stale_commit_events(view)] + [e for e, _ in reused_epoch_events(view)]
    stale = [e.task for e in sorted(found, key=lambda e: order[id(e)])]
    refused = [e.task for e in view if e.op == "save" and e.type == "fail"]
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


def timeline(
    history: Iterable[Event],
    *,
    ax=None,
    tasks: Sequence[str] | None = None,
    title: str | None = None,
):
    """Draw the epoch race: one lane per worker, time on x. Returns the Axes.

    Boxes are lease windows (colour = task, label = task and epoch); hatched boxes are pauses;
    ``x`` is a crash; green dots are accepted saves (a star completes the task); red marks are
    refused saves labelled with the epoch they carried, shaped by why they were refused (a
    cross: stale epoch; a square: task cancelled; a diamond: task already completed; a
    triangle: another reason); a red ring marks an accepted save whose
    epoch was already stale (a fencing failure); envelopes are e-mails that reached the mailbox
    (orange: a duplicate); a dotted line is a cancel, a dash-dotted one a requeue, a thin grey
    one a document edit; a small triangle is a duplicate delivery; a right triangle a slow step.
    ``tasks`` limits the picture to some tasks; by default a long history shows the tasks of
    its first refused or stale commits, or its first six tasks.
    """
    view = HistoryView(history)
    chosen = list(tasks) if tasks is not None else _default_tasks(view)
    keep = set(chosen)
    events = [e for e in view if e.task in keep or (e.op == "pause" and e.task is None)]
    lanes = sorted(
        {e.process for e in events if is_worker(e.process) and e.op != "pause"}, key=natural
    )
    events = [e for e in events if e.op != "pause" or e.process in lanes]
    lane = {w: i for i, w in enumerate(lanes)}
    color = {t: TASK_COLORS[i % len(TASK_COLORS)] for i, t in enumerate(chosen)}
    ax = new_axes(ax, (11, 1.6 + 0.55 * max(len(lanes), 1)))
    ax.set_title(words(title) if title else say("timeline_title"))
    ax.set_xlabel(say("simulated_time"))
    if not events:
        ax.text(
            0.5,
            0.5,
            say("empty_history"),
            ha="center",
            va="center",
            transform=ax.transAxes,
            color="gray",
        )
        ax.set_yticks([])
        return ax

    t0 = min(e.time for e in events)
    windows = _lease_windows(events)
    t1 = max(e.time for e in events)
    # Leases and pauses may run a quarter of the events' span past the last event; further out
    # they are cut at the edge (a late lease_until does not stretch the axis).
    reach = t1 + 0.25 * (t1 - t0)
    ends = [w[4] for w in windows] + [
        float(e.value.get("until", e.time)) for e in events if e.op == "pause"
    ]
    t1 = max([t1] + [end for end in ends if end <= reach])
    span = max(t1 - t0, 1e-9)
    pad = 0.03 * span
    c = _Canvas(ax, lane, color, span)
    _draw_leases(c, events, windows, chosen)
    _draw_pauses(c, events)
    _draw_markers(c, _event_points(c, events))
    _draw_edits(c, [e for e in view if e.op == "publish"])
    _note_clipped(c, windows, events, t1 + pad)
    _finish(c, lanes, t0 - pad, t1 + pad)
    return ax


def _note_clipped(c: _Canvas, windows: list, events: list[Event], right: float) -> None:
    """An arrow label at the right edge for each lease or pause that runs on past it."""
    ends: dict[str, float] = {}
    for worker, _, _, _, end in windows:
        if end > right:
            ends[worker] = max(ends.get(worker, end), end)
    for e in events:
        until = float(e.value.get("until", e.time)) if e.op == "pause" else e.time
        if until > right and e.process in c.lane:
            ends[e.process] = max(ends.get(e.process, until), until)
    for worker, end in ends.items():
        c.ax.annotate(
            say("until", t="inf" if math.isinf(end) else f"{end:.4g}"),
            (right, c.lane[worker]),
            xytext=(-2, 0),
            textcoords="offset points",
            ha="right",
            va="center",
            fontsize=7,
            color="dimgray",
            bbox=LABEL_BOX,
            gid="clipped",
            annotation_clip=False,
        )
        c.legend[say("runs_on")] = Line2D(
            [], [], ls="none", marker=r"$\rightarrow$", ms=9, color="dimgray"
        )


# --- lease windows and pauses, behind everything else ----------------------------------------


def _draw_leases(c: _Canvas, events: list[Event], windows: list, chosen: list[str]) -> None:
    # A claim that got an epoch already granted is
    # outlined in red (two leases with one fencing token: the ledger cannot tell them apart).
    reused = {id(e) for e, _ in reused_epoch_events(events)}
    claims = {(e.process, e.task, e.epoch, e.time): id(e) for e in events if e.op == "claim"}
    for task in chosen:
        c.legend[say("lease_on", task=task)] = mpatches.Patch(
            facecolor=to_rgba(c.color[task], 0.28), edgecolor=c.color[task]
        )
    for worker, task, epoch, start, end in windows:
        y = c.lane[worker]
        again = claims.get((worker, task, epoch, start)) in reused
        box = mpatches.Rectangle(
            (start, y - 0.32),
            end - start,
            0.64,
            facecolor=to_rgba(c.color[task], 0.28),
            edgecolor=FAIL_RED if again else to_rgba(c.color[task], 0.6),
            lw=2.5 if again else 1.2,
            gid="lease-reused" if again else "lease",
        )
        c.ax.add_patch(box)
        label = f"{task} e{epoch}" if end - start > 0.06 * c.span else f"e{epoch}"
        c.ax.text(
            start + 0.004 * c.span,
            y - 0.17,
            label + (say("again") if again else ""),
            va="center",
            ha="left",
            fontsize=7.5,
            color=FAIL_RED if again else "black",
            weight="bold" if again else "normal",
            clip_on=True,
        )
        if again:
            c.legend[say("granted_twice")] = mpatches.Patch(
                facecolor="none", edgecolor=FAIL_RED, lw=2.5
            )


def _draw_pauses(c: _Canvas, events: list[Event]) -> None:
    for e in events:
        if e.op == "pause" and e.process in c.lane:
            until = float(e.value.get("until", e.time))
            c.ax.add_patch(
                mpatches.Rectangle(
                    (e.time, c.lane[e.process] - 0.4),
                    until - e.time,
                    0.8,
                    facecolor="none",
                    edgecolor="dimgray",
                    hatch="///",
                    lw=0.8,
                    gid="pause",
                )
            )
            c.legend[say("paused")] = mpatches.Patch(
                facecolor="none", edgecolor="dimgray", hatch="///"
            )


#: The gids of the marks that show a fault (each kind's ``mark`` in :mod:`simlab.sim.faults`).
FAULT_MARKS = (
    "crash",
    "pause",
    "slow",
    "deliver-dup",
    "cancel",
    "requeue",
    "doc-edit",
    "reply-lost",
    "held-call",
    "lease-edge",
)


# --- events as marks ---------------------------------------------------------------------------


def _red_label(
    c: _Canvas, text: str, xy: tuple[float, float], offset: tuple[int, int], ha: str, va: str
) -> None:
    """A bold red label on a white box (a save gone wrong: stale, or refused), ``offset``
    points from its mark at ``xy`` and aligned by ``ha`` and ``va``."""
    c.ax.annotate(
        text,
        xy,
        xytext=offset,
        textcoords="offset points",
        ha=ha,
        va=va,
        fontsize=8,
        color=FAIL_RED,
        weight="bold",
        bbox=LABEL_BOX,
    )


def _event_points(c: _Canvas, events: list[Event]) -> dict[str, list[tuple[float, float]]]:
    """Where each kind of mark goes (by gid); labels and cancel lines are drawn on the way."""
    points: dict[str, list[tuple[float, float]]] = defaultdict(list)
    stale = {id(e) for e, _ in stale_commit_events(events)}
    why = refusal_reasons(events)
    sent: set[tuple] = set()
    for e in events:
        if e.type != "invoke" and e.value.get("lost"):  # its caller resends the call
            if e.process in c.lane:
                points["reply-lost"].append((e.time, c.lane[e.process] - 0.3))
            else:  # the client's submit: no lane
                c.ax.axvline(e.time, color="gray", ls="--", lw=0.8, gid="reply-lost")
                c.legend[say("reply_lost")] = Line2D([], [], color="gray", ls="--", lw=0.8)
        if e.type != "invoke" and e.value.get("late") and e.process in c.lane:
            # a held call reaches the ledger, after its worker gave the task back
            points["held-call"].append((e.time, c.lane[e.process] - 0.3))
        if e.op == "claim" and e.type != "invoke" and "edge" in e.value and e.process in c.lane:
            # the prober claims at an edge of a silent lease
            points["lease-edge"].append((e.time, c.lane[e.process] - 0.3))
        if e.process not in c.lane and e.op not in ("cancel", "requeue"):
            continue
        y = c.lane.get(e.process)
        if e.op == "save" and e.type == "ok":
            points["save-done" if e.value.get("done") else "save-ok"].append((e.time, y + 0.08))
            if id(e) in stale:
                points["save-stale"].append((e.time, y + 0.08))
                _red_label(
                    c,
                    say("stale_mark", epoch=e.epoch),
                    (e.time, y + 0.08),
                    (-10, 0),
                    "right",
                    "center",
                )
        elif e.op == "save" and e.type == "fail":
            reason = why.get(e.index, "other")
            shown = reason if f"save-fail-{reason}" in _REFUSED else "other"
            points[f"save-fail-{shown}"].append((e.time, y + 0.08))
            _red_label(c, f"e{e.epoch}", (e.time, y + 0.08), (0, 7), "center", "bottom")
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
            c.ax.axvline(e.time, color=c.color.get(e.task, "black"), ls=":", lw=1.5, gid="cancel")
            c.ax.annotate(
                say("cancel_task", task=e.task),
                (e.time, 1.0),
                xycoords=("data", "axes fraction"),
                xytext=(2, -2),
                textcoords="offset points",
                va="top",
                fontsize=8,
                color=c.color.get(e.task, "black"),
            )
            c.legend[say("cancel_bumped")] = Line2D([], [], color="black", ls=":")
        elif e.op == "cancel" and e.type == "fail" and e.process == "user":
            c.ax.axvline(e.time, color="gray", ls=":", lw=1.0, gid="cancel")
            c.legend[say("cancel_refused")] = Line2D([], [], color="gray", ls=":")
        elif e.op == "requeue" and e.type in ("ok", "fail"):
            ok = e.type == "ok"
            color = c.color.get(e.task, "black") if ok else "gray"
            c.ax.axvline(e.time, color=color, ls="-.", lw=1.2 if ok else 1.0, gid="requeue")
            label = say("requeue" if ok else "requeue_refused")
            c.legend[label] = Line2D([], [], color="black" if ok else "gray", ls="-.")
        elif e.op == "slow":
            points["slow"].append((e.time, y - 0.2))
    return points


def _draw_edits(c: _Canvas, edits: list[Event]) -> None:
    """A thin grey line at each document edit (agent workload: the editor has no lane); the
    axis is not widened for them."""
    for e in edits:
        c.ax.axvline(e.time, color="gray", ls="-", lw=0.8, alpha=0.7, gid="doc-edit")
        c.legend[say("document_edited")] = Line2D([], [], color="gray", lw=0.8)


#: Refused saves, one marker (and its size) per reason (see
#: :func:`simlab.checker.rows.refusal_reasons`); the legend's text is a key of
#: :mod:`simlab.plots.messages`.
_REFUSED = {
    "save-fail-stale-epoch": ("refused_stale", "X", 9),
    "save-fail-cancelled": ("refused_cancelled", "s", 7),
    "save-fail-completed": ("refused_completed", "D", 7),
    "save-fail-other": ("refused_other", "^", 7),
}


def _draw_markers(c: _Canvas, points: dict[str, list[tuple[float, float]]]) -> None:
    styles = {
        "save-ok": ("accepted", dict(marker="o", ms=7, color=OK_GREEN, mec="white")),
        "save-done": (
            "accepted_done",
            dict(marker="*", ms=13, color=OK_GREEN, mec="white"),
        ),
        # every refused save is red on a white edge; its marker tells the reason
        **{
            gid: (label, dict(marker=marker, ms=ms, color=FAIL_RED, mec="white"))
            for gid, (label, marker, ms) in _REFUSED.items()
        },
        "save-stale": (
            "accepted_stale",
            dict(marker="o", ms=15, mfc="none", mec=FAIL_RED, mew=2),
        ),
        "crash": ("crash", dict(marker="x", ms=10, mew=2.5, color="black")),
        "send": ("sent", dict(marker=ENVELOPE, ms=10, mfc="white", mec=SEND_BLUE, mew=1.3)),
        "send-dup": (
            "sent_again",
            dict(marker=ENVELOPE, ms=10, mfc=DUP_ORANGE, mec="black", mew=1.3),
        ),
        "deliver-dup": ("delivered_again", dict(marker="v", ms=6, color="gray")),
        "slow": ("slow_step", dict(marker=">", ms=6, color="dimgray")),
        "reply-lost": ("reply_lost", dict(marker="d", ms=6, mfc="white", mec="dimgray")),
        "held-call": ("held_call", dict(marker="h", ms=7, mfc="white", mec=FAIL_RED)),
        "lease-edge": ("lease_edge", dict(marker="|", ms=10, mew=2, color="black")),
    }
    for gid, (label, style) in styles.items():
        if points[gid]:
            xs, ys = zip(*points[gid], strict=True)
            c.ax.add_line(Line2D(xs, ys, ls="none", gid=gid, zorder=4, **style))
            c.legend[say(label)] = Line2D([], [], ls="none", **style)


def _finish(c: _Canvas, lanes: list[str], left: float, right: float) -> None:
    c.ax.set_xlim(left, right)
    c.ax.set_ylim(len(lanes) - 0.35, -0.65)
    c.ax.set_yticks(range(len(lanes)), lanes)
    c.ax.set_ylabel(say("worker"))
    c.ax.grid(axis="x", alpha=0.3)
    for y in range(len(lanes)):
        c.ax.axhline(y, color="lightgray", lw=0.6, zorder=0)
    c.ax.legend(
        c.legend.values(),
        c.legend.keys(),
        loc="upper center",
        ncol=min(5, len(c.legend)),
        fontsize=8,
        frameon=False,
        title_fontsize=8,
        bbox_to_anchor=(0.5, 0),
        bbox_transform=below(c.ax),
        title=say("legend_title"),
    )
