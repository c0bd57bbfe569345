"""The picture of a canary run: traffic split, the breaker's error rate and cost, its trips.

:func:`canary_plot` draws three panels sharing the time axis (simulated seconds):

1. the traffic split per time bin: baseline, canary (candidate) and the read-only path;
2. the candidate's error rate over the breaker's window, with the threshold;
3. the candidate's mean tokens per request over the same window, with the cost threshold.

In panels 2 and 3 the line is faint while the window holds fewer than ``min_requests``
candidate requests (the breaker cannot trip yet) and solid where it judges; a red dot marks
the window that tripped it.

Every trip is a red vertical line on all three panels, and the time the breaker stayed open is
shaded. Artists carry a ``gid`` (``"traffic-canary"``, ``"trip"``, ``"error-rate"``...) so tests
and learners can find them. Reads a :class:`~simlab.release.canary.CanaryResult`; changes nothing.
"""

from __future__ import annotations

from typing import Any

from simlab.release.canary import CanaryResult

__all__ = ["canary_plot", "ROUTE_COLORS"]

ROUTE_COLORS = {"baseline": "#bdbdbd", "canary": "#2c7bb6", "fallback": "#fdae61"}
_LABELS = {"baseline": "baseline", "canary": "canary (candidate)", "fallback": "read-only path"}
TRIP_RED = "#d7191c"


def _open_periods(result: CanaryResult) -> list[tuple[float, float]]:
    """When the breaker was open: from each trip to its half-open (or to the end if latched)."""
    c = result.config
    end = max([c.duration] + [r.done for r in result.requests])
    periods = []
    for i, trip in enumerate(result.trips):
        latched = i + 1 >= c.max_trips
        periods.append((trip.t, end if latched else trip.t + c.cooldown))
    return periods


def _window_series(result: CanaryResult) -> dict[str, list[float]]:
    """The breaker's window error rate and cost after each candidate request, with a gap (NaN)
    after each trip; ``judged`` keeps only the points where the window held at least
    ``min_requests`` requests (the breaker could trip), ``warming`` the others."""
    nan = float("nan")
    trips = sorted(t.t for t in result.trips)
    out: dict[str, list[float]] = {
        k: [] for k in ("t", "rate", "cost", "judged_rate", "judged_cost")
    }
    for s in result.samples:
        while trips and trips[0] < s.t:
            for k in out:
                out[k].append(trips.pop(0) if k == "t" else nan)
        judged = s.requests >= result.config.min_requests
        out["t"].append(s.t)
        out["rate"].append(s.error_rate)
        out["cost"].append(s.cost)
        out["judged_rate"].append(s.error_rate if judged else nan)
        out["judged_cost"].append(s.cost if judged else nan)
    return out


def canary_plot(result: CanaryResult, *, bins: int = 60, axes: Any = None):
    """Draw the run; ``axes``: three Axes to draw on (default: a new figure). Returns them.

    Panels are drawn in order (split, error rate, cost), then the breaker's marks over all of
    them, so the artists stack the same way on every call.
    """
    import matplotlib.pyplot as plt

    if axes is None:
        _, axes = plt.subplots(3, 1, figsize=(10, 7.5), sharex=True, layout="constrained")
    ax_split, ax_err, ax_cost = axes
    _split_panel(ax_split, result, bins)
    w = _window_series(result)
    _error_panel(ax_err, result, w)
    _cost_panel(ax_cost, result, w)
    _breaker_marks(axes, result)
    return axes


def _split_panel(ax: Any, result: CanaryResult, bins: int) -> None:
    """Panel 1: each route's share of the requests that arrived in each of ``bins`` time bins,
    stacked (baseline, canary, read-only path); titled with the decision."""
    import numpy as np

    c = result.config
    edges = np.linspace(0.0, c.duration, bins + 1)
    centers = (edges[:-1] + edges[1:]) / 2
    counts = {
        route: np.histogram([r.arrived for r in result.requests if r.route == route], bins=edges)[
            0
        ].astype(float)
        for route in ROUTE_COLORS
    }
    total = sum(counts.values())
    total[total == 0] = 1.0
    bottom = np.zeros(bins)
    width = edges[1] - edges[0]
    for route, color in ROUTE_COLORS.items():
        share = counts[route] / total
        ax.bar(
            centers,
            share,
            width=width,
            bottom=bottom,
            color=color,
            label=_LABELS[route],
            gid=f"traffic-{route}",
            linewidth=0,
        )
        bottom += share
    ax.set_ylim(0, 1)
    ax.set_ylabel("share of requests")
    ax.set_title(
        f"canary: {c.candidate} vs {c.baseline}, seed {result.seed} -- decision: {result.decision}"
    )
    ax.legend(loc="lower left", fontsize="small", ncols=3, framealpha=0.9)


def _error_panel(ax: Any, result: CanaryResult, w: dict[str, list[float]]) -> None:
    """Panel 2: the window error rate (faint while warming, solid where judged), a dot at each
    trip and the error threshold. ``w`` is :func:`_window_series` of ``result``."""
    import matplotlib.pyplot as plt

    c = result.config
    ax.step(
        w["t"],
        w["rate"],
        where="post",
        color=ROUTE_COLORS["canary"],
        alpha=0.35,
        linewidth=0.8,
        gid="error-rate-warming",
        label=f"fewer than {c.min_requests} requests in the window",
    )
    ax.step(
        w["t"],
        w["judged_rate"],
        where="post",
        color=ROUTE_COLORS["canary"],
        gid="error-rate",
        label="candidate error rate (window)",
    )
    ax.plot(
        [t.t for t in result.trips],
        [t.error_rate for t in result.trips],
        "o",
        color=TRIP_RED,
        gid="trip-point",
    )
    ax.axhline(
        c.max_error_rate,
        color=TRIP_RED,
        linestyle="--",
        gid="threshold-error",
        label=f"threshold {c.max_error_rate:.0%}",
    )
    ax.set_ylabel("error rate")
    ax.yaxis.set_major_formatter(plt.FuncFormatter(lambda v, _: f"{v:.0%}"))
    ax.legend(loc="upper right", fontsize="small")


def _cost_panel(ax: Any, result: CanaryResult, w: dict[str, list[float]]) -> None:
    """Panel 3: the window's tokens per candidate request (faint while warming, solid where
    judged) and the cost threshold; carries the shared time label."""
    c = result.config
    ax.step(
        w["t"],
        w["cost"],
        where="post",
        color=ROUTE_COLORS["canary"],
        alpha=0.35,
        linewidth=0.8,
        gid="cost-warming",
    )
    ax.step(
        w["t"],
        w["judged_cost"],
        where="post",
        color=ROUTE_COLORS["canary"],
        gid="cost",
        label="candidate tokens per request (window)",
    )
    ax.axhline(
        c.max_cost,
        color=TRIP_RED,
        linestyle="--",
        gid="threshold-cost",
        label=f"threshold {c.max_cost:g}",
    )
    ax.set_ylabel("tokens / request")
    ax.set_xlabel("simulated time (s)")
    ax.set_ylim(bottom=0)
    ax.legend(loc="lower right", fontsize="small")


def _breaker_marks(axes: Any, result: CanaryResult) -> None:
    """Over the panels: the open periods shaded on panels 2 and 3, a red line per trip on all
    three (each x axis set to the run's duration), and "trip N" labels on panel 2."""
    c = result.config
    for ax in axes[1:]:
        for start, stop in _open_periods(result):
            ax.axvspan(
                start, stop, color=ROUTE_COLORS["fallback"], alpha=0.15, gid="open", linewidth=0
            )
    for ax in axes:
        for trip in result.trips:
            ax.axvline(trip.t, color=TRIP_RED, linewidth=1.5, gid="trip")
        ax.set_xlim(0, c.duration)
    for i, trip in enumerate(result.trips, start=1):
        axes[1].annotate(
            f"trip {i}",
            (trip.t, 1),
            xycoords=("data", "axes fraction"),
            xytext=(3, -12),
            textcoords="offset points",
            color=TRIP_RED,
            fontsize="small",
        )
