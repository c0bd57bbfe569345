"""``simlab bench``: speed measured side by side in one run, reported as ratios.

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

import argparse
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from simlab.cli import UsageError
from simlab.ledger import Ledger

__all__ = ["bench_ledger", "register"]


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
                    raw = _rate(ledger, n, f"{r}r", ledger.raw_update_transaction)
                    cycle = _rate(ledger, n, f"{r}c", _cycle(ledger))
                    bare = _rate(ledger, n, f"{r}b", ledger.bare_claim_save)
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


def _handle_ledger(args: argparse.Namespace) -> int:
    if args.n < 1 or args.rounds < 1:
        raise UsageError("-n and --rounds must be positive")
    rows = bench_ledger(args.n, args.rounds)
    print(
        f"{'mode':<10} {'claim+save cycles/s':>20} {'raw tx/s':>10} {'ratio':>6}  goal >= 0.4"
        f"   {'bare SQL ratio':>14}"
    )
    for row in rows:
        verdict = "ok" if row["ratio"] >= 0.4 else "BELOW GOAL"
        print(
            f"{row['mode']:<10} {row['cycles_per_s']:>20,.0f} {row['raw_tx_per_s']:>10,.0f} "
            f"{row['ratio']:>6.2f}  {verdict:<10}   {row['bare_sql_ratio']:>14.2f}"
        )
    print(
        "CPU time of this process, best round. 'bare SQL ratio': the same two statements issued "
        "with no Python around them, the floor this schema allows."
    )
    return 0


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "bench",
        help="measure speed side by side (ledger, sim)",
        description="Benchmarks that report ratios measured side by side in one run.",
    )
    sub = p.add_subparsers(dest="bench", metavar="WHAT")
    sub.required = True
    from simlab.bench_sim import add_parser as add_sim_parser
    from simlab.grading import bench as grading_bench

    add_sim_parser(sub)
    g = sub.add_parser(
        "grade",
        help="grading against bare nbclient execution",
        description="Seconds to grade solution notebooks against the time to merely execute "
        "them with nbclient (the floor); goal: grading costs at most 1.5x bare execution.",
    )
    grading_bench.add_arguments(g)
    g.set_defaults(func=grading_bench.handle)
    q = sub.add_parser(
        "ledger",
        help="claim+save cycles against one raw SQLite transaction",
        description=(
            "Claim+save cycles per second for ':memory:' and a WAL file, against the raw rate "
            "of a minimal single-row UPDATE transaction in the same mode, and their ratio "
            "(goal: >= 0.4)."
        ),
    )
    q.add_argument("-n", type=int, default=5000, help="cycles per round (default 5000)")
    q.add_argument("--rounds", type=int, default=5, help="rounds; the best is kept (default 5)")
    q.set_defaults(func=_handle_ledger)
