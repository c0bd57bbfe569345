"""What the SQLite schema costs: the ledger's own claim+save statements on variants of its table.

``simlab bench ledger`` also runs :func:`bench_schema`: the same two statements the ledger runs
(the atomic claim by ID and the fenced, completing save of :mod:`simlab.ledger.sqlite.statements`),
bare, on tables that differ from the ledger's in one thing each, and on a minimal table:

* ``ledger``: the table of the first migration, as every ledger has it;
* ``no status CHECK``, ``no step CHECK``: without one of the two CHECK constraints;
* ``no claimable index``: without the partial index of the tasks that may still be claimed;
* ``minimal``: only the columns the two statements touch, ``task_id`` as the primary key, no
  CHECK, no partial index, no submit order (so no ``claim_next``).

Each variant is read off the migration's own text (a variant whose text is not found raises, so a
new schema cannot leave this measure behind silently). Every variant lives in its own
``:memory:`` database; the variants alternate every :data:`~simlab.bench.ledger.CHUNK` cycles and
the best round counts, in CPU time. Reported: cycles per CPU-second and the ratio to the minimal
table. A second measure says what the partial index buys: ``claim_next`` (the oldest claimable
task) with ``backlog`` finished tasks ahead of the queue, with and without the index. A third
times the ledger's ``submit`` statement with and without ``AUTOINCREMENT`` on ``seq`` (which
only ever matters to an insert: it keeps a counter in ``sqlite_sequence``).
"""

from __future__ import annotations

import re
import sqlite3
import time
from typing import Any

from simlab.ledger.sqlite import statements as q
from simlab.ledger.sqlite.schema import MIGRATIONS

__all__ = ["bench_schema", "variants", "MINIMAL"]

_TABLES = MIGRATIONS[0][1]
_STATUS_CHECK = re.compile(r"\s*CHECK \(status = 'queued'.*?'dead'\)", re.DOTALL)
_STEP_CHECK = " CHECK (step >= 0)"
_INDEX = re.compile(r"\s*CREATE INDEX tasks_claimable ON tasks \(seq\) WHERE[^;]*;")
_AUTOINCREMENT = " AUTOINCREMENT"

#: The smallest table the ledger's claim and save can run on.
MINIMAL = """
    CREATE TABLE tasks (
        task_id     TEXT    PRIMARY KEY,
        status      TEXT    NOT NULL,
        step        INTEGER NOT NULL DEFAULT 0,
        epoch       INTEGER NOT NULL DEFAULT 0,
        attempts    INTEGER NOT NULL DEFAULT 0,
        worker      TEXT,
        lease_until REAL,
        result      TEXT,
        checkpoint  TEXT,
        updated_at  REAL    NOT NULL
    );
"""


def _without(text: str, part: re.Pattern[str] | str) -> str:
    """``text`` with ``part`` (a pattern or an exact string) removed; it must be there."""
    if isinstance(part, str):
        if part not in text:
            raise ValueError(f"the schema no longer contains {part!r}")
        return text.replace(part, "", 1)
    out, found = part.subn("", text, count=1)
    if not found:
        raise ValueError(f"the schema no longer matches {part.pattern!r}")
    return out


def variants() -> dict[str, str]:
    """The tables measured: name -> its DDL."""
    return {
        "ledger": _TABLES,
        "no status CHECK": _without(_TABLES, _STATUS_CHECK),
        "no step CHECK": _without(_TABLES, _STEP_CHECK),
        "no claimable index": _without(_TABLES, _INDEX),
        "minimal": MINIMAL,
    }


def _database(ddl: str, task_ids: list[str]) -> sqlite3.Connection:
    """A ``:memory:`` database with the table ``ddl`` and one queued task per ID."""
    db = sqlite3.connect(":memory:", isolation_level=None)
    db.executescript(ddl)
    if "tenant" in ddl:
        sql = (
            "INSERT INTO tasks (task_id, status, updated_at, tenant, created_at)"
            " VALUES (?, 'queued', 0, 'default', 0)"
        )
    else:
        sql = "INSERT INTO tasks (task_id, status, updated_at) VALUES (?, 'queued', 0)"
    db.executemany(sql, [(t,) for t in task_ids])
    return db


def _cycle(db: sqlite3.Connection, claim: str, task_id: str | None) -> None:
    """One bare claim+save: the claim (by ID, or the oldest claimable), then the fenced save."""
    params = {"worker": "bench", "until": 1e300, "now": 0.0, "task_id": task_id, "max": None}
    row = db.execute(claim, params).fetchall()[0]
    if task_id is None:  # the oldest claimable: its LEASE_COLUMNS name the task
        task_id, epoch = row[0], row[2]
    else:  # by ID: CLAIMED_COLUMNS
        epoch = row[0]
    save = {"step": 1, "result": None, "checkpoint": None, "now": 0.0}
    db.execute(q.SAVE_DONE, {**save, "task_id": task_id, "epoch": epoch})


def _rates(dbs: dict[str, Any], claim: str, ids: list[str | None], chunk: int) -> dict:
    """Cycles per CPU-second of each database over ``ids``, interleaved chunk by chunk."""
    spent = dict.fromkeys(dbs, 0.0)
    for lo in range(0, len(ids), chunk):
        for name, db in dbs.items():
            start = time.process_time()
            for task_id in ids[lo : lo + chunk]:
                _cycle(db, claim, task_id)
            spent[name] += time.process_time() - start
    return {name: len(ids) / max(s, 1e-9) for name, s in spent.items()}


def bench_schema(n: int = 5000, rounds: int = 3, backlog: int = 5000) -> dict[str, Any]:
    """Measure; return ``{"rows": [...], "claim_next": [...]}``.

    ``rows``: one per variant, ``variant``, ``cycles_per_s`` (best round, claim by ID) and
    ``vs_minimal``. ``claim_next``: ``variant`` (``ledger``, ``no claimable index``),
    ``cycles_per_s`` of claim_next+save with ``backlog`` completed tasks ahead of the queue.
    """
    from simlab.bench.ledger import CHUNK

    tables = variants()
    best = dict.fromkeys(tables, 0.0)
    for r in range(rounds):
        ids = [f"{r}-{i}" for i in range(n)]
        dbs = {name: _database(ddl, ids) for name, ddl in tables.items()}
        rates = _rates(dbs, q.CLAIM_ONE[0], ids, CHUNK)
        best = {name: max(best[name], rates[name]) for name in tables}
        for db in dbs.values():
            db.close()
    rows = [
        {"variant": name, "cycles_per_s": rate, "vs_minimal": rate / best["minimal"]}
        for name, rate in best.items()
    ]
    queued = max(1, n // 10)
    ids = [f"b{i}" for i in range(backlog)] + [f"q{i}" for i in range(queued)]
    indexed = {name: tables[name] for name in ("ledger", "no claimable index")}
    dbs = {name: _database(ddl, ids) for name, ddl in indexed.items()}
    for db in dbs.values():  # the backlog: finished tasks, ahead of the queue in submit order
        db.executemany(
            "UPDATE tasks SET status = 'completed' WHERE task_id = ?",
            [(t,) for t in ids[:backlog]],
        )
    next_rates = _rates(dbs, q.CLAIM_NEXT[0], [None] * queued, CHUNK)
    for db in dbs.values():
        db.close()
    return {
        "rows": rows,
        "backlog": backlog,
        "claim_next": [{"variant": k, "cycles_per_s": v} for k, v in next_rates.items()],
        "submit": _submits(n, rounds),
    }


def _submits(n: int, rounds: int) -> list[dict[str, Any]]:
    """Submits per CPU-second (best round) of the ledger's table, with and without
    ``AUTOINCREMENT``, interleaved chunk by chunk."""
    from simlab.bench.ledger import CHUNK

    tables = {"ledger": _TABLES, "no AUTOINCREMENT": _without(_TABLES, _AUTOINCREMENT)}
    best = dict.fromkeys(tables, 0.0)
    for r in range(rounds):
        dbs = {name: _database(ddl, []) for name, ddl in tables.items()}
        spent = dict.fromkeys(tables, 0.0)
        for lo in range(0, n, CHUNK):
            for name, db in dbs.items():
                start = time.process_time()
                for i in range(lo, min(lo + CHUNK, n)):
                    params = {"task_id": f"{r}-{i}", "tenant": "default", "goal": None, "now": 0.0}
                    db.execute(q.SUBMIT, params)
                spent[name] += time.process_time() - start
        for name, db in dbs.items():
            best[name] = max(best[name], n / max(spent[name], 1e-9))
            db.close()
    return [{"variant": name, "submits_per_s": rate} for name, rate in best.items()]
