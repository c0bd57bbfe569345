"""Fixtures shared by the test modules: every ledger on one fake clock, and one real PostgreSQL
server for the whole session.

The server is a throwaway one (:func:`simlab.testing.throwaway_postgres`), started on first use
and stopped when the session ends; each test gets its own empty schema in it. When the server
binaries are missing, the PostgreSQL tests skip with one line saying so, except under CI
(``CI=true``), where they fail: CI must run them.

The hooks below keep the lanes honest (:mod:`tests.lanes`): a test that needs a jail, a kernel,
a server or a browser carries its marker, or fails.
"""

from __future__ import annotations

import contextlib
import gc
import itertools
import os
import signal
import threading

import pytest

from simlab.ledger import Ledger
from simlab.ledger.memory import MemoryLedger
from tests import lanes
from tests.strategies import FakeClock

#: Every implementation of the ledger contract; tests using ``ledger`` run once per entry.
IMPLEMENTATIONS = ("memory", "sqlite", pytest.param("postgres", marks=pytest.mark.server))
#: The engines that persist across processes; tests using ``ledger_target`` run once per entry.
ENGINES = ("sqlite", pytest.param("postgres", marks=pytest.mark.server))
_schemas = itertools.count(1)
#: The module of the test being set up (a new one sets aside what the ones before left).
_module = None


def pytest_addoption(parser):
    lanes.add_option(parser)


def pytest_configure(config):
    lanes.configure(config)
    stop_on_sigterm()


def stop_on_sigterm() -> None:
    """A session stopped with SIGTERM (a CI timeout, a ``kill``) ends as Ctrl-C ends it: pytest
    tears its fixtures down, so the throwaway PostgreSQL servers and the folders they made go
    with it (SIGTERM's default ends the process with no teardown at all). Only in the main
    thread, and only where nothing else handles the signal. A process forked from the session
    inherits the handler but not the session: there SIGTERM takes its default action."""
    if threading.current_thread() is not threading.main_thread():
        return
    if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
        session = os.getpid()

        def interrupted(signum: int, frame: object) -> None:
            if os.getpid() != session:
                signal.signal(signum, signal.SIG_DFL)
                os.kill(os.getpid(), signum)
                return
            raise KeyboardInterrupt(f"stopped by signal {signum}")

        signal.signal(signal.SIGTERM, interrupted)


@pytest.hookimpl(wrapper=True)
def pytest_collection(session):
    """Pause Python's cycle collector while the session collects (imports every test module,
    builds every item): nearly all it makes lives on, and each collection of the collector's
    oldest generation would walk it all again. The first test's setup collects once and sets
    it aside (:func:`set_aside`)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return (yield)
    finally:
        if was_enabled:
            gc.enable()


def pytest_collection_modifyitems(items):
    lanes.mark_by_fixture(items)


def pytest_itemcollected(item):
    lanes.serial_spelled(item)  # every item, before a -m expression deselects any


def pytest_collection_finish(session):
    lanes.check_serial_spelled()


def set_aside() -> None:
    """Collect the garbage, then set aside (``gc.freeze``) every object still alive.

    What is alive between test modules (modules, collected items, caches of helper modules)
    mostly lives on, and each collection of Python's oldest generation (its own, and every
    ``gc.collect()`` a bench makes before timing) walks all of it again: the later a test runs,
    the more it pays. Set aside, it is walked no more. Refcounting still frees what is dropped
    later; only a cycle among such objects is never collected, a little memory."""
    gc.collect()
    gc.freeze()


def forget(module: object) -> None:
    """Empty the ``functools`` caches a finished test module defines (parsed sources, searches,
    graded answers), which only its own tests read.

    A module's tests run one after another, so nothing reads them again (were one to, it would
    compute its answer again). Kept, they would be set aside (:func:`set_aside`) with everything
    else for the rest of the session, and whatever is set aside is walked by every
    ``gc.get_freeze_count()``, which the kit asks after each large simulated run and around
    each grading (:mod:`simlab.sim.collector`, :mod:`simlab.grading.processes`)."""
    name = getattr(module, "__name__", None)
    for value in list(vars(module).values()) if name else ():
        if getattr(value, "__module__", None) == name and hasattr(value, "cache_clear"):
            value.cache_clear()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item):
    global _module
    if getattr(item, "module", None) is not _module:
        if _module is not None:
            forget(_module)
        _module = getattr(item, "module", None)
        set_aside()  # what collection and the modules before left alive outlives them
    lanes.running(item)
    return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    lanes.running(item)
    return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item):
    lanes.running(None)  # what a test's teardown stops or starts is not its own need
    result = yield
    lanes.check(item)
    return result


def postgres_unavailable(reason: str) -> None:
    """Skip (one line, with the reason), or fail under CI, where the tests must run."""
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"PostgreSQL tests cannot run under CI=true: {reason}", pytrace=False)
    pytest.skip(f"PostgreSQL tests skipped: {reason}")


@pytest.fixture(scope="session")
def postgres_server():
    """The URL of one throwaway PostgreSQL server shared by the whole test session."""
    from simlab.testing.throwaway import PostgresUnavailable, throwaway_postgres

    with contextlib.ExitStack() as stack:
        try:
            url = stack.enter_context(throwaway_postgres())
        except PostgresUnavailable as exc:
            postgres_unavailable(str(exc))
        yield url


@pytest.fixture
def fresh_postgres(request, postgres_server):
    """A function returning the URL of a new, empty schema on the session's server; every
    schema it made is dropped at teardown."""
    lanes.need(request.node, "server")
    from simlab.ledger.postgres.probes import create_schema, drop_schema

    made = []

    def fresh() -> str:
        name = f"test_{os.getpid()}_{next(_schemas)}"
        made.append(name)
        return create_schema(postgres_server, name)

    yield fresh
    for name in made:
        drop_schema(postgres_server, name)


@pytest.fixture
def clock() -> FakeClock:
    """A clock that only moves when a test advances it."""
    return FakeClock(1000.0)


@pytest.fixture(params=IMPLEMENTATIONS)
def make_ledger(request, clock):
    """Build a ledger of the parametrised kind on the shared fake clock; closed at teardown."""
    opened = []

    def make(**options):
        if request.param == "memory":
            ledger = MemoryLedger(":memory:", clock=clock, **options)
        elif request.param == "sqlite":
            ledger = Ledger(":memory:", clock=clock, **options)
        else:
            from simlab.ledger import PostgresLedger

            url = request.getfixturevalue("fresh_postgres")()
            ledger = PostgresLedger(url, clock=clock, **options)
        opened.append(ledger)
        return ledger

    yield make
    for ledger in opened:
        ledger.close()


@pytest.fixture
def ledger(make_ledger):
    return make_ledger()


@pytest.fixture(params=ENGINES)
def ledger_target(request, tmp_path):
    """A target for :func:`simlab.ledger.connect` naming a new, empty ledger that several
    processes can share: a file path, or a PostgreSQL URL with its own schema."""
    if request.param == "sqlite":
        return str(tmp_path / "ledger.sqlite")
    return request.getfixturevalue("fresh_postgres")()
