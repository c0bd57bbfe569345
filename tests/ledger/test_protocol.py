"""Do the ledgers the simulator and the grader accept all satisfy the TaskLedger contract?"""

from __future__ import annotations

import inspect

import pytest

from simlab.grading.pieces import PiecesLedger
from simlab.ledger import ChapterLedger, Ledger, MemoryLedger, TaskLedger


@pytest.mark.parametrize(
    "make",
    [
        lambda: Ledger(":memory:"),
        lambda: ChapterLedger(":memory:"),
        lambda: MemoryLedger(),
        lambda: PiecesLedger(":memory:"),
    ],
    ids=["Ledger", "ChapterLedger", "MemoryLedger", "PiecesLedger"],
)
def test_does_each_ledger_satisfy_the_protocol(make):
    assert isinstance(make(), TaskLedger)


def test_does_an_object_missing_a_method_fail_the_protocol():
    class NoFence:
        def submit(self, task_id=None, *, tenant="default", goal=None):
            return "t"

    assert not isinstance(NoFence(), TaskLedger)


@pytest.mark.parametrize("cls", [Ledger, MemoryLedger])
def test_do_the_signatures_match_the_protocol(cls):
    for name, member in inspect.getmembers(TaskLedger, inspect.isfunction):
        if name.startswith("_"):
            continue
        expected = list(inspect.signature(member).parameters)
        assert list(inspect.signature(getattr(cls, name)).parameters) == expected, name
