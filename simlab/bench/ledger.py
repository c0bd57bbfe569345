"""The ledger benchmark: claim+save cycles against one raw transaction, as a ratio.

``simlab bench ledger`` times claim+save cycles (two transactions: the atomic claim, the fenced
save) against the floor of one raw single-row transaction in the same engine and mode: for
SQLite (``:memory:`` and a WAL file) ``BEGIN IMMEDIATE``, ``UPDATE``, ``COMMIT``; for PostgreSQL
(``--db postgresql://...``, in a scratch schema dropped afterwards) one single-row ``UPDATE``
committed on its own, one round trip. The goal is a ratio of cycles per second to raw
transactions per second of at least 0.4 (one cycle costs at most 2.5 raw transactions; on
PostgreSQL a cycle is two round trips, so 0.5 is the ceiling). The measures alternate every 100
operations, so machine noise hits them alike; the best round of each is kept. SQLite time is
the CPU time of this process, which other load on a shared machine barely moves; PostgreSQL time
is wall time, since the work happens in the server process and on the wire. A third measure, the
same two statements with no Python around them, shows the floor of the schema; ``vs_bare`` is
the cycles' rate over theirs, the share of a cycle that is SQLite (goal: :data:`BARE_GOAL`). What
the schema itself costs against a minimal table is :mod:`simlab.bench.schema`.

Each measure counts its writes toward the ledger's checkpoints (a file ledger checkpoints its
write-ahead log every :data:`~simlab.ledger.sqlite.CHECKPOINT_EVERY` writes), so each pays for
the log it writes and not for the log of the measures interleaved with it.

Like for like: each raw transaction updates a different task row of the same table, just as each
cycle claims and saves a different task. (Updating one hot row over and over would measure the
CPU cache, not the engine: it runs about twice as fast as updating distinct rows.)
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from simlab.ledger.connect import is_postgres_url, sqlite_path
from simlab.ledger.sqlite.ledger import Ledger
from simlab.ledger.sqlite.probes import bare_claim_save, raw_update_transaction

__all__ = ["bench_ledger", "BARE_GOAL"]

#: A claim+save cycle should run at this fraction of its own two statements run bare.
BARE_GOAL = 0.9


#: Operations per timed chunk: the three measures alternate every chunk, so a burst of load from
#: elsewhere on the machine slows all three alike instead of one whole round of one measure.
CHUNK = 100


def _cycle(ledger: Any, task_id: str) -> object:
    """One claim+save cycle through the public API."""
    return ledger.save(ledger.claim(task_id, "bench", 60.0), 1, done=True)


def _round(ledger: Any, n: int, r: int, ops: dict, timer: Callable[[], float]) -> dict:
    """Operations per second of each measure in ``ops`` over ``n`` fresh tasks apiece, the
    measures interleaved chunk by chunk."""
    ids = {name: [ledger.submit(f"{r}{name}{i}") for i in range(n)] for name in ops}
    spent = dict.fromkeys(ops, 0.0)
    for lo in range(0, n, CHUNK):
        for name, one in ops.items():
            start = timer()
            for task_id in ids[name][lo : lo + CHUNK]:
                one(ledger, task_id)
            spent[name] += timer() - start
    return {name: n / seconds for name, seconds in spent.items()}


def _measure(ledger: Any, mode: str, n: int, rounds: int, probes, timer) -> dict:
    """One row: the best round of cycles, raw transactions and bare statements."""
    raw_tx, bare = probes
    ops = {"r": raw_tx, "c": _cycle, "b": bare}
    best = dict.fromkeys(ops, 0.0)
    for r in range(rounds):
        rates = _round(ledger, n, r, ops, timer)
        best = {name: max(best[name], rates[name]) for name in ops}
    return {
        "mode": mode,
        "clock": "CPU" if timer is time.process_time else "wall",
        "cycles_per_s": best["c"],
        "raw_tx_per_s": best["r"],
        "ratio": best["c"] / best["r"],
        "bare_sql_ratio": best["b"] / best["r"],
        "vs_bare": best["c"] / best["b"],
    }


@contextlib.contextmanager
def _wal_file(db: str | None, folder: str | None) -> Iterator[str]:
    """The WAL file to measure: a new file at ``db`` (refused if it exists), else a temporary
    one; removed afterwards either way."""
    if db is None:
        with tempfile.TemporaryDirectory(prefix="simlab-bench-", dir=folder) as tmp:
            yield str(Path(tmp) / "b.sqlite")
        return
    path = Path(sqlite_path(db))
    if path.exists():
        raise ValueError(f"{path} exists: the bench writes thousands of tasks; give a new path")
    try:
        yield str(path)
    finally:
        for suffix in ("", "-wal", "-shm"):
            with contextlib.suppress(FileNotFoundError):
                os.remove(f"{path}{suffix}")


def bench_ledger(
    n: int = 5000, rounds: int = 5, folder: str | None = None, db: str | None = None
) -> list[dict]:
    """Return one row per mode: cycles/s, raw transactions/s and their ratio (best round).

    Always ``:memory:`` and a WAL file (at ``db`` when it is a path); with a ``postgresql://``
    ``db``, a third row measured on that server in a scratch schema that is dropped afterwards.
    """
    sqlite_probes = (raw_update_transaction, bare_claim_save)
    rows = []
    with Ledger(":memory:") as ledger:
        rows.append(_measure(ledger, ":memory:", n, rounds, sqlite_probes, time.process_time))
    wal_db = None if db is None or is_postgres_url(db) else db
    with _wal_file(wal_db, folder) as path, Ledger(path) as ledger:
        rows.append(_measure(ledger, "WAL file", n, rounds, sqlite_probes, time.process_time))
    if db is not None and is_postgres_url(db):
        from simlab.ledger.postgres import probes as pg_probes
        from simlab.ledger.postgres.ledger import PostgresLedger

        pg = (pg_probes.raw_update_transaction, pg_probes.bare_claim_save)
        with pg_probes.scratch_schema(db, "simlab_bench") as url, PostgresLedger(url) as ledger:
            rows.append(_measure(ledger, "PostgreSQL", n, rounds, pg, time.perf_counter))
    return rows
