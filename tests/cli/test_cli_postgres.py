"""``--db postgresql://...`` from the shell: demo, simulate, health and bench ledger on the
session's throwaway server, and one-line errors for targets that name no engine."""

from __future__ import annotations

import pytest

from simlab.ledger import connect
from tests.strategies import run_cli


def test_does_the_demo_run_the_chapters_story_and_race_on_postgres(postgres_server, capsys):
    code, out, err = run_cli(["demo", "--db", postgres_server, "--processes", "2"], capsys)
    assert code == 0, err
    assert "process 2: claimed j1 at step 1 with epoch 2; save step 2 accepted" in out
    assert "stale worker (epoch 1) tries to save after epoch 2 was granted: refused" in out
    assert "atomic UPDATE ... RETURNING:" in out and ", 0 epochs believed owned" in out


def test_does_simulate_run_over_a_new_schema_and_keep_it(fresh_postgres, capsys):
    url = fresh_postgres()
    code, out, err = run_cli(["simulate", "--seed", "3", "--tasks", "20", "--db", url], capsys)
    assert code == 0 and "verdict: OK" in out
    schema = err.split("ledger: schema ")[1].split()[0]
    from simlab.ledger.postgres.probes import with_schema

    with connect(with_schema(url, schema)) as ledger:
        assert len(ledger.tasks()) == 20


def test_is_a_postgres_ledger_healthy_and_an_empty_database_not(fresh_postgres, capsys):
    url = fresh_postgres()
    code, out, _ = run_cli(["health", "--db", url], capsys)
    assert code == 1 and "schema version 0" in out  # a health check never creates a ledger
    connect(url).close()
    code, out, _ = run_cli(["health", "--db", url, "--json"], capsys)
    assert code == 0 and '"healthy": true' in out
    with connect(url) as ledger:
        assert all(t.tenant == "__health__" and t.terminal for t in ledger.tasks())


def test_is_an_unreachable_server_unhealthy_without_its_password(capsys):
    code, out, _ = run_cli(
        ["health", "--db", "postgresql://u:secret@127.0.0.1:1/x", "--timeout", "1"], capsys
    )
    assert code == 1 and "unhealthy" in out and "secret" not in out


def test_does_bench_ledger_put_postgres_beside_sqlite(postgres_server, capsys):
    argv = ["bench", "ledger", "-n", "50", "--rounds", "1", "--db", postgres_server]
    code, out, _ = run_cli(argv, capsys)
    assert code == 0
    modes = [line.split()[0] for line in out.splitlines()[1:4]]
    assert modes == [":memory:", "WAL", "PostgreSQL"]


@pytest.mark.parametrize(
    "argv",
    [
        ["demo", "--db", "mysql://db/x"],
        ["simulate", "--db", "mysql://db/x"],
        ["bench", "ledger", "-n", "5", "--db", "mysql://db/x"],
    ],
)
def test_is_a_db_that_names_no_engine_one_line_and_exit_2(argv, capsys):
    code, out, err = run_cli(argv, capsys)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
