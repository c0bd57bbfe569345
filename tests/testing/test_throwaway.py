"""Does the throwaway PostgreSQL server clean up, and say in one sentence why it cannot start?
(:mod:`simlab.testing.throwaway`; the session's server is the fixture in ``tests/conftest.py``.)"""

from __future__ import annotations

import glob
from pathlib import Path

import psycopg
import pytest

from simlab.testing import throwaway
from tests.conftest import postgres_unavailable


@pytest.mark.server
def test_does_the_throwaway_server_clean_up_after_an_error():
    before = set(glob.glob("/tmp/simlab-pg-*"))
    with pytest.raises(RuntimeError, match="boom"):
        try:
            with throwaway.throwaway_postgres() as url:
                with psycopg.connect(url, autocommit=True) as db:
                    assert db.execute("SELECT 1").fetchone() == (1,)
                raise RuntimeError("boom")
        except throwaway.PostgresUnavailable as exc:
            postgres_unavailable(str(exc))
    assert set(glob.glob("/tmp/simlab-pg-*")) == before
    with pytest.raises(psycopg.OperationalError):
        psycopg.connect(url, connect_timeout=2)


def test_does_a_machine_without_server_binaries_get_one_sentence(monkeypatch):
    monkeypatch.setattr(throwaway, "find_postgres_bin", lambda: None)
    with pytest.raises(throwaway.PostgresUnavailable, match="binaries .* not found"):
        with throwaway.throwaway_postgres():
            pass


def test_do_the_postgres_tests_skip_locally_and_fail_under_ci(monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="PostgreSQL tests skipped: no initdb"):
        postgres_unavailable("no initdb")
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="cannot run under CI=true: no initdb"):
        postgres_unavailable("no initdb")


def test_are_the_binaries_found_where_debian_puts_them():
    found = throwaway.find_postgres_bin()
    if found is None:
        postgres_unavailable("no initdb on this machine")
    assert all((Path(found) / name).is_file() for name in ("initdb", "pg_ctl", "postgres"))
