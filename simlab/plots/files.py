"""Pictures written to PNG files, for the command line (no screen, no pyplot state).

Each function draws on a fresh :class:`matplotlib.figure.Figure` (not pyplot, so nothing is
shown and nothing leaks between calls) and saves it to ``path``.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import matplotlib
from matplotlib.figure import Figure

from simlab.plots.sweep import sweep_plot
from simlab.plots.timeline import timeline

__all__ = ["save_timeline_png", "save_sweep_png", "save_canary_png"]

DPI = 110


def save_timeline_png(result: Any, path: str | Path) -> None:
    """The epoch race of a simulation ``result``, titled with its variant, seed and verdict.

    Shows the tasks the first violations name; without any, the picture picks refused commits.
    """
    s = result.scenario
    fig = Figure(figsize=(11, 1.8 + 0.55 * s.workers), layout="constrained")
    verdict = "OK" if result.ok else f"{len(result.violations)} violation(s)"
    named = dict.fromkeys(re.findall(r"\bt\d+\b", " ".join(result.violations[:3])))
    timeline(
        result.history,
        ax=fig.subplots(),
        tasks=list(named)[:3] or None,
        title=f"{s.variant}, seed {result.seed}: {verdict}",
    )
    fig.savefig(path, dpi=DPI)


def save_sweep_png(rows: Iterable[Mapping[str, Any]], path: str | Path) -> None:
    """The four panels of :func:`~simlab.plots.sweep.sweep_plot`."""
    fig = Figure(figsize=(14, 4.2), layout="constrained")
    sweep_plot(rows, ax=fig.subplots(1, 4))
    fig.savefig(path, dpi=DPI)


def save_canary_png(result: Any, path: str | Path) -> None:
    """The canary picture of :func:`~simlab.plots.canary.canary_plot`.

    That picture is drawn with pyplot: when pyplot is not loaded yet (the command line), the
    non-interactive Agg backend is chosen first, so no window ever opens.
    """
    if "matplotlib.pyplot" not in sys.modules:
        matplotlib.use("Agg")
    from simlab.plots.canary import canary_plot

    axes = canary_plot(result)
    axes[0].figure.savefig(path, dpi=DPI)
