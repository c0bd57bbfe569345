"""A sweep over fault rates: the mean outcome per variant and rate, with the range over seeds."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from simlab.plots.style import VARIANT_COLORS

__all__ = ["sweep_plot", "SWEEP_METRICS", "SWEEP_TITLES"]


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
