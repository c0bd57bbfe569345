"""What every picture shares: colours that keep one meaning, the e-mail marker, lane order.

Green always means "accepted" and red "refused"; task colours avoid both.
"""

from __future__ import annotations

import re

from matplotlib.path import Path
from matplotlib.transforms import offset_copy

__all__ = [
    "ENVELOPE",
    "NOT_WORKERS",
    "TASK_COLORS",
    "VARIANT_COLORS",
    "OK_GREEN",
    "FAIL_RED",
    "SEND_BLUE",
    "DUP_ORANGE",
    "new_axes",
    "below",
    "natural",
    "is_worker",
]

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


def new_axes(ax, figsize):
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    return plt.subplots(figsize=figsize, layout="constrained")[1]


def below(ax):
    """Axes coordinates shifted down past the x label, for a legend under the plot."""
    return offset_copy(ax.transAxes, fig=ax.figure, y=-30, units="points")


def natural(name: str) -> list:
    """Sort key so that w2 comes before w10."""
    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", name)]


def is_worker(process: str) -> bool:
    return process not in NOT_WORKERS
