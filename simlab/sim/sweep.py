"""Sweeps: run many seeds at several fault rates and variants, one row per run.

A single run is an anecdote; a sweep shows the trend. :func:`sweep` varies one fault rate (or
all of them together) over ``rates``, for each variant and each seed, and returns plain dict rows
that :func:`write_csv` writes and :func:`simlab.plots.sweep_plot` draws. Every row carries its
seed and the replay command, so any surprising point can be replayed alone.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from simlab.sim.fault_fields import RATE_NEEDS
from simlab.sim.faults import KINDS
from simlab.sim.scenario import RATE_FAULTS, RATE_FIELDS, VARIANTS, Scenario
from simlab.sim.simulation import simulate

__all__ = ["sweep", "write_csv", "FAULTS", "ROW_FIELDS"]

#: What ``--fault`` may name: one rate (without ``_rate``) or ``all`` of them at once.
FAULTS = ("all", *RATE_FAULTS)

#: Columns of a sweep row, in CSV order.
ROW_FIELDS = (
    "variant",
    "fault",
    "rate",
    "seed",
    "completed",
    "cancelled",
    "unfinished",
    "wasted_steps",
    "stale_rejected",
    "sends",
    "duplicate_sends",
    "lost_emails",
    "violations",
    "events",
    "replay",
)


def _rates_for(fault: str, rate: float, base: Scenario) -> dict[str, float]:
    if fault == "all":
        # Only the kinds that can strike in this scenario (a kind that needs idempotency keys
        # or the opaque workload is left out where the base has none).
        return {name: rate for name in RATE_FIELDS if _applies(name, base)}
    name = fault.replace("-", "_") + "_rate"
    if name not in RATE_FIELDS:
        raise ValueError(f"unknown fault {fault!r}; choose one of {', '.join(FAULTS)}")
    return {name: rate}


def _applies(rate: str, base: Scenario) -> bool:
    """Can the kind of ``rate`` strike in ``base`` (what it needs holds there)?"""
    kind = next(k for k in KINDS.values() if k.rate == rate)
    return all(RATE_NEEDS[need][0](base) for need in kind.needs if need in RATE_NEEDS)


def sweep(
    base: Scenario,
    *,
    fault: str = "pause",
    rates: Sequence[float] = (0.0, 0.05, 0.1, 0.2),
    seeds: Iterable[int] = range(1, 6),
    variants: Sequence[str] = VARIANTS,
    progress: bool = False,
) -> list[dict[str, Any]]:
    """One row per (variant, rate, seed): outcomes of :func:`simulate` on ``base`` with the
    rate of ``fault`` (``"all"``: every rate) set to ``rate``. ``violations`` is a count.

    Raises ``ValueError`` for an unknown fault or variant, or a rate outside [0, 1].
    """
    seeds = list(seeds)
    for v in variants:
        if v not in VARIANTS:
            raise ValueError(f"unknown variant {v!r}; choose one of {', '.join(VARIANTS)}")
    scenarios = [
        (v, r, replace(base, variant=v, **_rates_for(fault, r, base)).validate())
        for v in variants
        for r in rates
    ]
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(scenarios) * len(seeds), unit="run", desc="sweep", leave=False)
    rows = []
    try:
        for variant, rate, scenario in scenarios:
            for seed in seeds:
                res = simulate(scenario, seed=seed)
                m = res.metrics
                rows.append(
                    {
                        "variant": variant,
                        "fault": fault,
                        "rate": rate,
                        "seed": seed,
                        "completed": res.completed,
                        "cancelled": res.cancelled,
                        "unfinished": res.unfinished,
                        "wasted_steps": int(m.get("wasted_steps", 0)),
                        "stale_rejected": res.stale_rejected,
                        "sends": res.sent,
                        "duplicate_sends": res.duplicate_sends,
                        "lost_emails": res.lost_emails,
                        "violations": len(res.violations),
                        "events": len(res.history),
                        "replay": res.replay,
                    }
                )
                if bar is not None:
                    bar.update()
    finally:
        if bar is not None:
            bar.close()
    return rows


def write_csv(rows: Iterable[dict[str, Any]], path: str | Path) -> Path:
    """Write sweep rows as CSV with a header (columns :data:`ROW_FIELDS`)."""
    path = Path(path)
    with path.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=ROW_FIELDS, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)
    return path
