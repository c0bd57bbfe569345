"""A sweep over fault rates: the mean outcome per variant and rate, with the range over seeds.

Two panels need a sentence to be read right, and :func:`sweep_captions` gives it under them
(checked against ``simlab sweep --fault pause --rates 0,0.05,0.1,0.2``, 20 seeds):

* **wasted steps** are refused saves plus crashed steps. ``unfenced`` shows fewer because its
  save never refuses a stale epoch: the stale work the fence would refuse is accepted there (a
  violation), not counted as waste. At pause rate 0.2, fenced refuses 35.4 saves per run;
  unfenced refuses 17.9 and accepts 19.9 stale ones (35.8 violations).
* **violations** of ``racy-claim`` change kind as pauses rise, not number. Its claim hands one
  epoch to two workers (rule a') only when two claims of one task start within one round trip
  (the two copies of a duplicated message taken by two idle workers at once); paused workers
  are busy, so the second copy waits in the queue: copies delivered within a round trip fell
  from 62 to 13 (20 seeds, pause rate 0 to 0.2) and those violations from 3.1 to 0.6 per run.
  But its claim has no lease check, so a copy that waited takes the live lease over (rule h),
  and so does a redelivery queued while a worker slept, once the worker woke and renewed its
  lease: from 4.8 to 8.7 per run. In all, 7.9 violations per run at pause rate 0, 9.3 at 0.2.

A panel whose outcome is zero in every run (duplicate e-mails, with idempotency keys on) draws
no flat line but says so.
"""

from __future__ import annotations

import textwrap
from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from simlab.plots.messages import say
from simlab.plots.style import VARIANT_COLORS

__all__ = ["sweep_plot", "sweep_captions", "SWEEP_METRICS", "SWEEP_TITLES"]


SWEEP_METRICS = ("completed", "wasted_steps", "duplicate_sends", "violations")
#: Each outcome's panel title in English (drawn as ``plots.sweep_<metric>`` in the notebook's
#: language).
SWEEP_TITLES = {
    "completed": "tasks completed",
    "wasted_steps": "wasted steps",
    "duplicate_sends": "duplicate e-mails",
    "violations": "invariant violations",
}


#: What a panel whose outcome is zero in every row says instead (a key of
#: :mod:`simlab.plots.messages`; ``zero`` for the others).
_ZERO = {"duplicate_sends": "zero_duplicate_sends"}


def sweep_captions(rows: Iterable[Mapping[str, Any]], *, x: str = "rate") -> dict[str, str]:
    """Metric -> the sentence to print under its panel, for the variants and fault ``rows``
    hold (see the module doc); metrics without one are left out."""
    rows = list(rows)
    variants = {str(r["variant"]) for r in rows}
    faults = {str(r.get("fault", "")) for r in rows}
    out = {}
    if "unfenced" in variants:
        out["wasted_steps"] = say("caption_wasted")
    if "racy-claim" in variants and x == "rate" and faults == {"pause"}:
        out["violations"] = say("caption_racy")
    return out


def sweep_plot(rows: Iterable[Mapping[str, Any]], *, x: str = "rate", ax=None):
    """One small panel per outcome (completed, wasted steps, duplicate e-mails, violations):
    the mean over seeds for each (variant, ``x``) as a line per variant, with the range over
    seeds as vertical bars (nudged sideways per variant so they do not hide each other). ``rows``
    are dicts with keys ``variant``, ``x`` (default ``"rate"``), ``seed``
    and the four outcomes (and ``fault``, for the captions). ``ax`` may be None (a new 1x4
    figure) or four Axes. Under a panel, its caption (:func:`sweep_captions`); a panel whose
    outcome is zero in every row draws no line and says so instead (gid ``"all-zero"``).

    Returns a numpy array of the four Axes.
    """
    rows = list(rows)
    if ax is None:
        import matplotlib.pyplot as plt

        axes = plt.subplots(1, 4, figsize=(14, 4.2), layout="constrained")[1]
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
    captions = sweep_captions(rows, x=x)
    zero = {m for m in SWEEP_METRICS if rows and all(float(r[m]) == 0 for r in rows)}
    for metric, a in zip(SWEEP_METRICS, axes, strict=True):
        a.set_title(say(f"sweep_{metric}"), fontsize=10)
        caption = captions.get(metric)
        a.set_xlabel(x + ("\n" + textwrap.fill(caption, 48) if caption else ""), fontsize=9)
        a.grid(alpha=0.3)
        if not rows or metric in zero:
            text = say("no_rows" if not rows else _ZERO.get(metric, "zero"))
            a.text(0.5, 0.5, textwrap.fill(text, 30), ha="center", va="center",
                   transform=a.transAxes, color="gray", gid="all-zero")  # fmt: skip
            a.set_yticks([])
            a.set_xticks([])
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
            if metric in zero:
                continue
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
        axes[0].legend(
            fontsize=8, title=say("variant"), title_fontsize=8, loc="best", framealpha=0.8
        )
        axes[0].figure.suptitle(say("mean_over_seeds", x=x), fontsize=11)
    return axes
