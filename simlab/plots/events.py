"""An at-least-once event stream, side by side: as the bus delivered it, and as an absorber
released it.

:func:`absorb_plot` draws one lane per task in each of two panels that share the x axis, the
position of a delivery in the stream:

* left, **without an absorber**: every delivery as a consumer would apply it, labelled with its
  ``seq``; a copy whose key was already delivered is red (a duplicate), an event that arrived
  after a later ``seq`` of its task is orange (overtaken);
* right, **with** :class:`~simlab.agent.events.EventAbsorber`: each event at the delivery that
  released it, green; a grey bar from its arrival to its release is the time it waited for a gap
  to fill; a dropped duplicate is a grey cross.

The plot feeds a fresh absorber itself and never changes the deliveries.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from simlab.agent.events import AgentEvent, EventAbsorber
from simlab.plots.messages import say
from simlab.plots.style import DUP_ORANGE, FAIL_RED, OK_GREEN

__all__ = ["absorb_plot"]


def _lanes(deliveries: Sequence[AgentEvent]) -> dict[str, int]:
    lanes: dict[str, int] = {}
    for e in deliveries:
        lanes.setdefault(e.task_id, len(lanes))
    return lanes


def _draw_raw(ax: Any, deliveries: Sequence[AgentEvent], lanes: dict[str, int]) -> None:
    seen: set[tuple[str, str]] = set()
    highest: dict[str, int] = {}
    for x, e in enumerate(deliveries):
        y = lanes[e.task_id]
        if (e.task_id, e.idempotency_key) in seen:
            color, text = FAIL_RED, "white"
        else:
            color = DUP_ORANGE if e.seq < highest.get(e.task_id, 0) else "white"
            text = "black"
        ax.scatter(x, y, marker="o", s=260, color=color, edgecolors="black", zorder=3)
        ax.annotate(str(e.seq), (x, y), ha="center", va="center", fontsize=8, color=text, zorder=4)
        seen.add((e.task_id, e.idempotency_key))
        highest[e.task_id] = max(highest.get(e.task_id, 0), e.seq)


def _draw_absorbed(ax: Any, deliveries: Sequence[AgentEvent], lanes: dict[str, int]) -> None:
    absorber = EventAbsorber()
    arrived: dict[tuple[str, int], int] = {}
    for x, e in enumerate(deliveries):
        y = lanes[e.task_id]
        arrived.setdefault((e.task_id, e.seq), x)
        before = absorber.duplicates + len(absorber.conflicts) + len(absorber.rejected)
        released = absorber.offer(e)
        after = absorber.duplicates + len(absorber.conflicts) + len(absorber.rejected)
        if after > before:
            ax.scatter(x, y, marker="x", s=70, color="grey", zorder=3)
        for i, r in enumerate(released):
            at = x + 0.4 * i  # several released by one delivery: side by side
            start = arrived[(r.task_id, r.seq)]
            if start < at:
                ax.plot([start, at], [y, y], color="lightgrey", lw=6, zorder=1)
            ax.scatter(at, y, marker="o", s=260, color=OK_GREEN, edgecolors="black", zorder=3)
            ax.annotate(str(r.seq), (at, y), ha="center", va="center", fontsize=8, zorder=4)


def absorb_plot(deliveries: Sequence[AgentEvent], *, axes: Sequence[Any] | None = None) -> Any:
    """Draw ``deliveries`` raw (left) and through an :class:`EventAbsorber` (right).

    ``axes`` is a pair of Axes (a new 1x2 figure when None); returns the pair.
    """
    if axes is None:
        import matplotlib.pyplot as plt

        _, axes = plt.subplots(1, 2, figsize=(13, 3.2), sharey=True, layout="constrained")
    raw, absorbed = axes
    lanes = _lanes(deliveries)
    _draw_raw(raw, deliveries, lanes)
    _draw_absorbed(absorbed, deliveries, lanes)
    raw.set_title(say("raw"), fontsize=10)
    absorbed.set_title(say("absorbed"), fontsize=10)
    for ax in axes:
        ax.set_yticks(range(len(lanes)), list(lanes))
        ax.set_ylim(len(lanes) - 0.5, -0.5)
        ax.set_xlim(-0.8, max(len(deliveries) + 0.2, 1))
        ax.set_xlabel(say("stream_position"))
        ax.grid(axis="x", alpha=0.3)
    raw.scatter([], [], marker="o", color=FAIL_RED, edgecolors="black", label=say("duplicate"))
    raw.scatter([], [], marker="o", color=DUP_ORANGE, edgecolors="black", label=say("after_later"))
    absorbed.scatter([], [], marker="o", color=OK_GREEN, edgecolors="black", label=say("released"))
    absorbed.scatter([], [], marker="x", color="grey", label=say("duplicate_dropped"))
    absorbed.plot([], [], color="lightgrey", lw=6, label=say("waited"))
    for ax in axes:
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.3), ncol=3, fontsize=8)
    return axes
