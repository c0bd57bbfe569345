"""Fixtures shared by the test modules: both ledgers on one fake clock."""

from __future__ import annotations

import pytest
from strategies import FakeClock

from simlab.ledger import Ledger
from simlab.ledger.memory import MemoryLedger

#: Every implementation of the ledger contract; tests using ``ledger`` run once per entry.
IMPLEMENTATIONS = {"memory": MemoryLedger, "sqlite": Ledger}


@pytest.fixture
def clock() -> FakeClock:
    """A clock that only moves when a test advances it."""
    return FakeClock(1000.0)


@pytest.fixture(params=sorted(IMPLEMENTATIONS))
def make_ledger(request, clock):
    """Build a ledger of the parametrised kind on the shared fake clock; closed at teardown."""
    opened = []

    def make(**options):
        ledger = IMPLEMENTATIONS[request.param](":memory:", clock=clock, **options)
        opened.append(ledger)
        return ledger

    yield make
    for ledger in opened:
        ledger.close()


@pytest.fixture
def ledger(make_ledger):
    return make_ledger()
