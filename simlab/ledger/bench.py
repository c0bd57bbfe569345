"""The ledger benchmark: claim+save cycles against one raw transaction, as a ratio.

``simlab bench ledger`` times claim+save cycles (two transactions: the atomic claim, the fenced
save) against the floor of one raw single-row transaction (``BEGIN IMMEDIATE``, ``UPDATE``,
``COMMIT``) in the same SQLite mode, for ``:memory:`` and for a WAL file. The goal is a ratio of
cycles per second to raw transactions per second of at least 0.4 (one cycle costs at most 2.5
raw transactions). Rounds alternate between the measures so machine noise hits them alike, and
time is the CPU time of this process, which other load on a shared machine barely moves. A third
measure, the same two statements with no Python around them, shows the floor of the schema.

Like for like: each raw transaction updates a different task row of the same table, just as each
cycle claims and saves a different task. (Updating one hot row over and over would measure the
CPU cache, not SQLite: it runs about twice as fast as updating distinct rows.)
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from simlab.ledger.probes import bare_claim_save, raw_update_transaction
from simlab.ledger.sqlite import Ledger

__all__ = ["bench_ledger"]


def _rate(ledger: Ledger, n: int, prefix: str, one: Callable[[str], object]) -> float:
    """Operations per CPU second: ``one(task_id)`` over ``n`` freshly submitted tasks."""
    ids = [ledger.submit(f"{prefix}{i}") for i in range(n)]
    start = time.process_time()
    for task_id in ids:
        one(task_id)
    return n / (time.process_time() - start)


def _cycle(ledger: Ledger) -> Callable[[str], object]:
    """One claim+save cycle through the public API."""

    def one(task_id: str) -> object:
        return ledger.save(ledger.claim(task_id, "bench", 60.0), 1, done=True)

    return one


def bench_ledger(n: int = 5000, rounds: int = 5, folder: str | None = None) -> list[dict]:
    """Return one row per mode: cycles/s, raw transactions/s and their ratio (best round)."""
    rows = []
    with tempfile.TemporaryDirectory(prefix="simlab-bench-", dir=folder) as tmp:
        for mode, path in ((":memory:", ":memory:"), ("WAL file", str(Path(tmp) / "b.sqlite"))):
            with Ledger(path) as ledger:
                best_cycle = best_raw = best_bare = 0.0
                for r in range(rounds):
                    raw = _rate(ledger, n, f"{r}r", lambda t: raw_update_transaction(ledger, t))
                    cycle = _rate(ledger, n, f"{r}c", _cycle(ledger))
                    bare = _rate(ledger, n, f"{r}b", lambda t: bare_claim_save(ledger, t))
                    best_raw, best_cycle = max(best_raw, raw), max(best_cycle, cycle)
                    best_bare = max(best_bare, bare)
                rows.append(
                    {
                        "mode": mode,
                        "cycles_per_s": best_cycle,
                        "raw_tx_per_s": best_raw,
                        "ratio": best_cycle / best_raw,
                        "bare_sql_ratio": best_bare / best_raw,
                    }
                )
    return rows
