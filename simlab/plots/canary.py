"""The picture of a canary run: the canary tenants' traffic, the breaker's error rate and cost.

:func:`canary_plot` draws three panels sharing the time axis (simulated seconds):

1. the **canary tenants' requests** per time bin, split by route: served by the candidate,
   a half-open probe, or the read-only path. Baseline tenants never change route, so they are
   left out (the y label says what share of all traffic the canary tenants carry): the story
   is in the canary slice;
2. the candidate's error rate over the breaker's window, with the threshold; each probe as a
   dot at the bottom (green: served well; red: an error);
3. the candidate's mean tokens per request over the same window, with the cost threshold.

In panels 2 and 3 the line is dashed while the window holds fewer than ``min_requests``
candidate requests (the breaker cannot judge yet) and thick where it judges; a red dot marks
the window that tripped it. Every trip is a red vertical line on all three panels; open periods
are shaded orange, half-open ones green. When the breaker latches open the picture stops a
little after the latch (nothing changes after it) and says so in a note.

Artists carry a ``gid`` (``"traffic-canary"``, ``"trip"``, ``"error-rate"``, ``"probe-ok"``...)
so tests and learners can find them. Reads a :class:`~simlab.rollout.canary.CanaryResult`;
changes nothing.
"""

from __future__ import annotations

from typing import Any

from simlab.plots.messages import say, words
from simlab.rollout.canary import CanaryResult

__all__ = ["canary_plot", "ROUTE_COLORS", "breaker_periods", "shown_until"]

ROUTE_COLORS = {"canary": "#2c7bb6", "probe": "#1a9641", "fallback": "#fdae61"}
TRIP_RED = "#d7191c"
HALF_OPEN = "#a6d96a"


def _end(result: CanaryResult) -> float:
    return max([result.config.duration] + [r.done for r in result.requests])


def breaker_periods(result: CanaryResult) -> list[tuple[float, float, str]]:
    """``(start, stop, state)`` for every stretch the breaker was not closed (``open`` or
    ``half-open``), from its recorded changes of state; the last runs to the end of the run."""
    periods = []
    changes = [*result.changes, (_end(result), "end")]
    for (t, state), (stop, _) in zip(changes, changes[1:], strict=False):
        if state in ("open", "half-open"):
            periods.append((t, stop, state))
    return periods


def shown_until(result: CanaryResult) -> float:
    """The right edge of the picture: the run's duration, or, once the breaker latched, the
    latch plus a tenth of the time before it (at least one cooldown), whichever is first."""
    c = result.config
    if len(result.trips) < c.max_trips:
        return c.duration
    latch = result.trips[-1].t
    return min(c.duration, latch + max(0.1 * latch, c.cooldown))


def _window_series(result: CanaryResult) -> dict[str, list[float]]:
    """The breaker's closed-state window error rate and cost after each candidate request, with
    a gap (NaN) at each change of state; ``judged_*`` keeps only the points where the window
    held at least ``min_requests`` requests (the breaker could trip). Probes are left out
    (panel 2 draws them as dots)."""
    nan = float("nan")
    breaks = sorted(t for t, _ in result.changes)
    out: dict[str, list[float]] = {
        k: [] for k in ("t", "rate", "cost", "judged_rate", "judged_cost")
    }
    for s in result.samples:
        while breaks and breaks[0] < s.t:
            for k in out:
                out[k].append(breaks.pop(0) if k == "t" else nan)
        if s.state == "half-open":
            continue
        judged = s.requests >= result.config.min_requests
        out["t"].append(s.t)
        out["rate"].append(s.error_rate)
        out["cost"].append(s.cost)
        out["judged_rate"].append(s.error_rate if judged else nan)
        out["judged_cost"].append(s.cost if judged else nan)
    return out


def canary_plot(result: CanaryResult, *, bins: int = 60, axes: Any = None):
    """Draw the run; ``axes``: three Axes to draw on (default: a new figure). Returns them.

    Panels are drawn in order (traffic, error rate, cost), then the breaker's marks over all of
    them, so the artists stack the same way on every call.
    """
    import matplotlib.pyplot as plt

    if axes is None:
        _, axes = plt.subplots(3, 1, figsize=(12, 7.5), sharex=True, layout="constrained")
    ax_split, ax_err, ax_cost = axes
    right = shown_until(result)
    _split_panel(ax_split, result, bins, right)
    w = _window_series(result)
    _error_panel(ax_err, result, w)
    _cost_panel(ax_cost, result, w)
    _breaker_marks(axes, result, right)
    return axes


def _split_panel(ax: Any, result: CanaryResult, bins: int, right: float) -> None:
    """Panel 1: the canary tenants' requests per time bin up to ``right``, stacked by route
    (candidate, probe, read-only path); titled with the decision."""
    import numpy as np

    c = result.config
    edges = np.linspace(0.0, right, bins + 1)
    centers, width = (edges[:-1] + edges[1:]) / 2, edges[1] - edges[0]
    routes = {
        "canary": [r for r in result.requests if r.route == "canary" and not r.probe],
        "probe": [r for r in result.requests if r.probe],
        "fallback": [r for r in result.requests if r.route == "fallback"],
    }
    bottom = np.zeros(bins)
    for route, rs in routes.items():
        if not rs:
            continue  # a route nobody took has no place in the legend
        counts = np.histogram([r.arrived for r in rs], bins=edges)[0].astype(float)
        ax.bar(
            centers,
            counts,
            width=width,
            bottom=bottom,
            color=ROUTE_COLORS[route],
            label=say(f"route_{route}"),
            gid=f"traffic-{route}",
            linewidth=0,
        )
        bottom += counts
    ax.set_ylabel(say("canary_requests", width=f"{width:.0f}"))
    ax.set_title(
        say(
            "canary_title",
            candidate=c.candidate,
            baseline=c.baseline,
            seed=result.seed,
            decision=words(result.decision),
            share=f"{result.canary_share:.1%}",
        ),
        fontsize="medium",
    )
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize="small")


def _error_panel(ax: Any, result: CanaryResult, w: dict[str, list[float]]) -> None:
    """Panel 2: the window error rate (dashed while warming, thick where judged), a dot at
    each trip, the threshold, and the probes' outcomes at the bottom. ``w`` is
    :func:`_window_series` of ``result``."""
    import matplotlib.pyplot as plt

    c = result.config
    _window_lines(
        ax, w, "rate", "error-rate", say("error_window"), say("warming", n=c.min_requests)
    )
    ax.plot(
        [t.t for t in result.trips],
        [t.error_rate for t in result.trips],
        "o",
        color=TRIP_RED,
        ms=7,
        gid="trip-point",
    )
    _threshold(ax, w["rate"], c.max_error_rate, "threshold-error", ".0%")
    for gid, error, colour, label in (
        ("probe-ok", False, ROUTE_COLORS["probe"], say("probe_ok")),
        ("probe-error", True, TRIP_RED, say("probe_failed")),
    ):
        done = [r.done for r in result.requests if r.probe and r.error == error]
        if done:
            ax.plot(
                done,
                [0.0] * len(done),
                "o",
                ms=5,
                color=colour,
                mec="white",
                gid=gid,
                label=label,
                clip_on=False,
                zorder=5,
            )
    ax.set_ylabel(say("error_rate"))
    ax.yaxis.set_major_formatter(plt.FuncFormatter(lambda v, _: f"{v:.0%}"))
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize="small")


def _window_lines(
    ax: Any,
    w: dict[str, list[float]],
    key: str,
    gid: str,
    label: str,
    warming_label: str | None = None,
) -> None:
    """The window's ``key`` series of ``w`` in the candidate's colour: dashed while warming
    (``{gid}-warming``, in the legend only with a ``warming_label``), thick where judged
    (``judged_{key}``, ``gid``)."""
    color = ROUTE_COLORS["canary"]
    warming = {} if warming_label is None else {"label": warming_label}
    ax.step(
        w["t"],
        w[key],
        where="post",
        color=color,
        alpha=0.7,
        linewidth=1.2,
        linestyle=(0, (3, 2)),
        gid=f"{gid}-warming",
        **warming,
    )
    ax.step(
        w["t"], w[f"judged_{key}"], where="post", color=color, linewidth=2.4, gid=gid, label=label
    )


def _threshold(ax: Any, values: list[float], threshold: float, gid: str, spec: str) -> None:
    """The dashed red ``threshold`` line (``gid``, its value written with format ``spec``),
    the y axis fitted to it and ``values`` (:func:`_fit_threshold`)."""
    top = _fit_threshold(ax, values, threshold)
    ax.axhline(
        threshold,
        color=TRIP_RED,
        linestyle="--",
        gid=gid,
        label=say("threshold", value=format(threshold, spec), above=top),
    )


def _fit_threshold(ax: Any, values: list[float], threshold: float) -> str:
    """Scale the y axis to the line and, when it is near, the threshold; a threshold more than
    twice the highest value stays off the panel (a watch-only breaker would flatten the line),
    and the returned label suffix says so."""
    import math

    high = max((v for v in values if not math.isnan(v)), default=0.0)
    if threshold > 2 * high > 0:
        ax.set_ylim(-0.03 * high, 1.15 * high)
        return say("above_panel")
    ax.set_ylim(-0.03 * max(high, threshold), 1.1 * max(high, threshold))
    return ""


def _cost_panel(ax: Any, result: CanaryResult, w: dict[str, list[float]]) -> None:
    """Panel 3: the window's tokens per candidate request (dashed while warming, thick where
    judged) and the cost threshold; carries the shared time label."""
    c = result.config
    _window_lines(ax, w, "cost", "cost", say("tokens_window"))
    _threshold(ax, w["cost"], c.max_cost, "threshold-cost", "g")
    ax.set_ylabel(say("tokens_axis"))
    ax.set_xlabel(say("simulated_time_s"))
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize="small")


def _breaker_marks(axes: Any, result: CanaryResult, right: float) -> None:
    """Over the panels: open (orange) and half-open (green) periods shaded on panels 2 and 3,
    a red line per trip on all three, "trip N" labels on panel 2, the x axis up to ``right``,
    and a note when the picture stops before the end of the run."""
    c = result.config
    colors = {"open": ROUTE_COLORS["fallback"], "half-open": HALF_OPEN}
    for ax in axes[1:]:
        for start, stop, state in breaker_periods(result):
            ax.axvspan(start, stop, color=colors[state], alpha=0.18, gid=state, linewidth=0)
    for ax in axes:
        for trip in result.trips:
            ax.axvline(trip.t, color=TRIP_RED, linewidth=1.5, gid="trip")
        ax.set_xlim(0, right)
    for i, trip in enumerate(result.trips, start=1):
        axes[1].annotate(
            say("trip", n=i),
            (trip.t, 1),
            xycoords=("data", "axes fraction"),
            xytext=(3, -12),
            textcoords="offset points",
            color=TRIP_RED,
            fontsize="small",
        )
    if right < c.duration:
        axes[-1].set_xlabel(say("latched", t=f"{result.trips[-1].t:.0f}", end=f"{c.duration:g}"))
