"""Do the ledgers the simulator and the grader accept all satisfy the TaskLedger contract?"""

from __future__ import annotations

import inspect

import pytest

from simlab.learn.pieces import PiecesLedger
from simlab.ledger import Ledger, MemoryLedger, RacyClaimLedger, TaskLedger


@pytest.mark.parametrize(
    "make",
    [
        lambda: Ledger(":memory:"),
        lambda: RacyClaimLedger(":memory:"),
        lambda: MemoryLedger(),
        lambda: PiecesLedger(":memory:"),
    ],
    ids=["Ledger", "RacyClaimLedger", "MemoryLedger", "PiecesLedger"],
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


def test_are_the_records_still_frozen_dataclasses_built_by_position_or_keyword():
    import dataclasses

    from simlab.checker.history import Event
    from simlab.records import Effect, Lease, TaskRecord

    lease = Lease("t1", "w1", 2, 1, 9.0)
    assert (lease.checkpoint, lease.attempts) == (None, 1)  # the defaults
    keywords = Lease(task_id="t1", worker="w1", epoch=2, step=1, lease_until=9.0)
    assert keywords == lease and dataclasses.replace(lease, step=2).step == 2
    record = TaskRecord("t1", "queued", 0, 0, None, "default", 0, None, None)
    assert record.worker is None and record.updated_at is None
    event = Event(0, 1.0, "ok", "client", "submit", "t1")
    assert event.value == {} and event.value is not Event(0, 1.0, "ok", "c", "submit").value
    effect = Effect("t1", "k", 1, "w1", 2.0)
    for frozen, name in [(lease, "epoch"), (record, "step"), (effect, "key"), (event, "task")]:
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(frozen, name, 7)
    with pytest.raises(TypeError):
        Lease("t1", "w1")


def test_do_the_fast_builders_make_the_same_frozen_records():
    import dataclasses

    from simlab.checker.history import Event, History
    from simlab.records import Lease, TaskRecord, new_lease, new_task_record

    lease = new_lease("t1", "w1", 2, 1, 9.0, {"a": 1}, 3)
    assert type(lease) is Lease and lease == Lease("t1", "w1", 2, 1, 9.0, {"a": 1}, 3)
    values = ("t1", "running", 1, 2, None, "default", 3, 9.0, None, "w1", None, 0.0, 1.0)
    record = new_task_record(*values)
    assert type(record) is TaskRecord and record == TaskRecord(*values) and record.terminal is False
    event = History().record(1, "ok", "w1", "claim", "t1", 2, 0, lease_until=9.0)
    assert type(event) is Event and event == Event(
        0, 1.0, "ok", "w1", "claim", "t1", 2, 0, event.value
    )
    for frozen, name in [(lease, "epoch"), (record, "step"), (event, "task")]:
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(frozen, name, 7)


def test_does_json_storage_give_json_s_text_values_and_errors_after_a_refused_value():
    import json

    from simlab.ledger.arguments import from_json, to_json

    loop: dict = {}
    loop["self"] = loop
    for bad in [loop, {"a": object()}, [1, [float("nan")]], {"x": {1, 2}}]:
        with pytest.raises(ValueError):
            to_json(bad, "result")
        for good in [{"a": [1, 2.5, None, True]}, [{"k": "é"}]]:
            assert to_json(good, "result") == json.dumps(good)
    # a value refused once and then mended encodes (nothing of the refusal is left behind)
    checkpoint = {"a": {"b": object()}}
    with pytest.raises(ValueError):
        to_json(checkpoint, "checkpoint")
    checkpoint["a"]["b"] = 1
    assert to_json(checkpoint, "checkpoint") == '{"a": {"b": 1}}'
    assert to_json("text", "goal") == '"text"' and to_json(None, "goal") is None
    first = from_json('{"a": [1]}')
    assert first == {"a": [1]} and first is not from_json('{"a": [1]}')  # fresh copies
    assert from_json(' {"a": 1} ') == {"a": 1} and from_json(None) is None
    # a flat value read back again is still a fresh copy, unchanged by what a reader did to it
    for text, value in [('{"worker": "w1", "epoch": 2}', {"worker": "w1", "epoch": 2}),
                        ('[1, "b", null]', [1, "b", None])]:  # fmt: skip
        mine = from_json(text)
        mine.clear()
        assert from_json(text) == value and from_json(text) is not from_json(text)
    for text in ['{"a": 1} x', "", "\ufeff1", "{"]:
        with pytest.raises(ValueError):
            from_json(text)
