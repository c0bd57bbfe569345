"""Do the benchmarks (``simlab.bench``) measure what they say, side by side, on small runs?

Each test runs a bench at a size that takes a moment and checks the shape and the ratios of what
it reports; ``simlab bench`` itself (its flags and mistakes) is tested in ``tests/cli``.
"""

from __future__ import annotations

import pytest

from simlab import explore
from simlab.bench.explore import bench_explore
from simlab.bench.ledger import bench_ledger
from simlab.bench.mmc import bench_mmc, ciw_available
from simlab.bench.schema import _database, bench_schema, variants
from simlab.bench.sim import bench_sim
from simlab.ledger import MemoryLedger
from simlab.ledger.sqlite import statements as q
from simlab.sim.scenario import Scenario


def test_does_the_ledger_benchmark_report_both_modes_side_by_side(tmp_path):
    rows = bench_ledger(n=50, rounds=1, folder=str(tmp_path))
    assert [row["mode"] for row in rows] == [":memory:", "WAL file"]
    for row in rows:
        assert row["cycles_per_s"] > 0 and row["raw_tx_per_s"] > 0
        assert row["ratio"] == row["cycles_per_s"] / row["raw_tx_per_s"]
        assert row["bare_sql_ratio"] > 0
        assert row["vs_bare"] == pytest.approx(row["ratio"] / row["bare_sql_ratio"])


def test_does_each_schema_variant_differ_from_the_ledger_in_what_it_says():
    tables = variants()
    ledger = tables["ledger"]
    assert "CHECK (status" in ledger and "CHECK (step" in ledger and "tasks_claimable" in ledger
    assert "CHECK (status" not in tables["no status CHECK"]
    assert (
        "CHECK (step" not in tables["no step CHECK"] and "CHECK (status" in tables["no step CHECK"]
    )
    assert "tasks_claimable" not in tables["no claimable index"]
    minimal = tables["minimal"]
    assert "CHECK" not in minimal and "INDEX" not in minimal and "seq" not in minimal
    for ddl in tables.values():  # each runs the ledger's claim and save
        db = _database(ddl, ["t1"])
        claim = {"worker": "w", "until": 9.0, "now": 0.0, "task_id": "t1", "max": None}
        (row,) = db.execute(q.CLAIM_ONE[0], claim).fetchall()
        save = {"step": 1, "result": None, "checkpoint": None, "now": 1.0, "epoch": row[0]}
        assert db.execute(q.SAVE_DONE, {**save, "task_id": "t1"}).rowcount == 1
        db.close()


def test_does_the_schema_benchmark_report_every_variant_against_the_minimal_table():
    out = bench_schema(n=40, rounds=1, backlog=40)
    assert [r["variant"] for r in out["rows"]] == list(variants())
    assert out["rows"][-1]["vs_minimal"] == 1.0
    assert [r["variant"] for r in out["claim_next"]] == ["ledger", "no claimable index"]
    assert [r["variant"] for r in out["submit"]] == ["ledger", "no AUTOINCREMENT"]


def test_does_bench_sim_compare_three_ledgers_on_one_story():
    out = bench_sim(Scenario(tasks=40, workers=8), rounds=1, bare=1000)
    assert [r["ledger"] for r in out["rows"]] == [
        "MemoryLedger",
        "Ledger(':memory:')",
        "Ledger(WAL file)",
    ]
    assert out["rows"][0]["ratio"] == 1.0
    assert all(0 < r["check_share"] < 1 for r in out["rows"])
    assert all(r["completed"] == out["rows"][0]["completed"] > 0 for r in out["rows"])
    assert out["same_history"]
    # the widget's ratio to the yardstick is each side's best, in wall and in CPU time
    memory = next(r for r in out["rows"] if r["ledger"] == "Ledger(':memory:')")
    assert out["widget_vs_bare"] == memory["seconds"] / out["bare_s"]
    assert 0 < out["bare_cpu_s"] and 0 < out["widget_vs_bare_cpu"]


def test_does_the_mmc_bench_agree_with_erlang_c_and_name_its_engines():
    out = bench_mmc(100, rounds=1, replications=2, warm_up=10)
    engines = [r["engine"] for r in out["rows"]]
    assert engines[-2:] == ["MemoryLedger", "Ledger(':memory:')"]
    assert ("Ciw" in engines) == ciw_available()
    memory, sqlite = out["rows"][-2:]
    assert memory["wait"] == sqlite["wait"] > 0  # one seed, one story, whatever the ledger
    assert all((r["ratio"] is None) != ciw_available() for r in out["rows"])


def test_does_the_bench_time_a_search_beside_the_yardstick_by_wall_and_cpu():
    out = bench_explore(faults=(1,), jobs=2)
    (row,) = out["rows"]
    assert (
        row["certified"]
        and row["schedules"]
        == explore(lambda clock: MemoryLedger(clock=clock), max_faults=1).schedules
    )
    assert row["cpu_seconds"] > 0 and out["bare_cpu_seconds"] > 0  # the children's CPU counts
    assert row["cpu_yardsticks"] == row["cpu_seconds"] / out["bare_cpu_seconds"]
