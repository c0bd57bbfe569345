"""Fault schedules: does a saved schedule replay a run byte for byte, does each fault strike where
its entry says, and is a bad schedule refused with one clear line?"""

from __future__ import annotations

import json

import pytest

from simlab import Scenario, simulate
from simlab.sim.nemesis import exact_delay
from simlab.sim.scenario import RATE_FIELDS
from simlab.sim.schedule import FAULT_KINDS, Schedule, ScheduleError

QUIET = dict.fromkeys(RATE_FIELDS, 0.0)  # no random faults: only the schedule's


@pytest.mark.parametrize(
    ("scenario", "seed"),
    [
        (Scenario(tasks=40, variant="fenced"), 3),
        (Scenario(tasks=40, variant="unfenced", pause_rate=0.2), 2),
        (Scenario(tasks=40, variant="racy-claim", duplicate_rate=0.2), 5),
        (Scenario(tasks=20, cancel_rate=0.5, effects="all", idempotency_keys=False), 4),
        (Scenario(tasks=12, workload="agent", doc_change_rate=0.3), 1),
    ],
    ids=["fenced", "unfenced", "racy-claim", "cancels", "agent-edits"],
)
def test_does_a_saved_schedule_replay_the_run_byte_for_byte(scenario, seed, tmp_path):
    original = simulate(scenario, seed=seed)
    kinds = {f["kind"] for f in original.schedule.faults}
    assert len(kinds) >= 3  # the run really had faults of several kinds to replay
    path = original.schedule.save(tmp_path / "schedule.json")
    loaded = Schedule.load(path)
    assert loaded == original.schedule
    replay = simulate(loaded.scenario, seed=loaded.seed, schedule=loaded)
    assert replay.history.to_jsonl() == original.history.to_jsonl()
    assert replay.schedule == original.schedule
    assert replay.fault_positions == original.fault_positions
    assert replay.violations == original.violations


def test_does_the_schedule_record_every_fault_the_counters_count():
    r = simulate(Scenario(tasks=60), seed=8)
    kinds = [f["kind"] for f in r.schedule.faults]
    assert kinds.count("crash") + kinds.count("effect-crash") >= r.crashes
    assert kinds.count("effect-crash") == r.coverage.get("crashes_after_effect", 0)
    assert kinds.count("duplicate") == r.duplicates
    assert kinds.count("pause") == sum(1 for e in r.history if e.op == "pause")
    assert kinds.count("slow") == sum(1 for e in r.history if e.op == "slow")
    assert kinds.count("cancel") == sum(
        1 for e in r.history if e.op == "cancel" and e.process == "user" and e.type == "invoke"
    )
    assert r.fault_positions == sorted(r.fault_positions)


def test_does_removing_any_fault_leave_a_valid_schedule_that_runs():
    r = simulate(Scenario(tasks=30, variant="unfenced", pause_rate=0.2), seed=2)
    schedule = r.schedule
    assert len(schedule) >= 4
    for i in range(len(schedule)):
        smaller = schedule.without(i)
        Schedule.loads(smaller.to_json())  # still valid on disk
        replay = simulate(smaller.scenario, seed=smaller.seed, schedule=smaller)
        assert schedule.faults[i] not in replay.schedule.faults


def test_does_each_fault_kind_strike_where_its_entry_says():
    scenario = Scenario(tasks=4, workers=2, fault_horizon=100.0, **QUIET)
    faults = [
        {"kind": "slow", "task": "t0001", "step": 0, "attempt": 0, "factor": 3.0},
        {"kind": "pause", "task": "t0001", "step": 1, "attempt": 0, "length": 7.25},
        {"kind": "effect-crash", "task": "t0002", "step": 2, "attempt": 0},
        {"kind": "crash", "task": "t0003", "step": 1, "attempt": 0, "fraction": 0.5},
        {"kind": "duplicate", "task": "t0004", "enqueue": 0},
        {"kind": "cancel", "task": "t0004", "at": 9.5},
    ]
    r = simulate(scenario, seed=1, schedule=faults)
    by_op = {op: [e for e in r.history if e.op == op] for op in ("slow", "pause", "crash")}
    (slow,) = by_op["slow"]
    assert (slow.task, slow.step, slow.value["factor"]) == ("t0001", 0, 3.0)
    (pause,) = by_op["pause"]
    assert (pause.task, pause.step) == ("t0001", 1)
    assert pause.value["until"] == pytest.approx(pause.time + 7.25)
    crashes = {(e.task, e.step, e.value["after_effect"]) for e in by_op["crash"]}
    assert crashes == {("t0002", 2, True), ("t0003", 1, False)}
    dups = [e for e in r.history if e.op == "deliver" and e.value.get("duplicate")]
    assert [e.task for e in dups] == ["t0004"]
    cancels = [e for e in r.history if e.op == "cancel" and e.process == "user"]
    assert cancels and cancels[0].time == 9.5 and cancels[0].task == "t0004"
    struck = sorted(map(json.dumps, r.schedule.faults))
    assert struck == sorted(map(json.dumps, faults))  # every entry struck, exactly as written


def test_do_the_send_pause_claim_pause_and_requeue_strike_where_their_entries_say():
    scenario = Scenario(tasks=3, workers=2, fault_horizon=100.0, **QUIET)
    faults = [
        {"kind": "send-pause", "task": "t0001", "step": 2, "attempt": 0, "length": 6.5},
        {"kind": "cancel", "task": "t0002", "at": 3.0},
        {"kind": "requeue", "task": "t0002", "at": 20.0},
    ]
    r = simulate(scenario, seed=1, schedule=faults)
    (pause,) = [e for e in r.history if e.op == "pause"]
    assert (pause.task, pause.step, pause.value["where"]) == ("t0001", 2, "send")
    record = next(e for e in r.history if e.op == "effect" and e.type == "ok" and e.step == 2)
    send = next(e for e in r.history if e.op == "send" and e.task == "t0001" and e.step == 2)
    assert record.time == pause.time and send.time == pytest.approx(pause.time + 6.5)
    (requeue,) = [e for e in r.history if e.op == "requeue" and e.type == "ok"]
    assert requeue.time == 20.0 and r.ok
    assert {t.task_id: t.status for t in r.final}["t0002"] == "completed"  # delivered again
    assert sorted(map(json.dumps, r.schedule.faults)) == sorted(map(json.dumps, faults))
    racy = Scenario(tasks=1, workers=1, variant="racy-claim", fault_horizon=100.0, **QUIET)
    r = simulate(
        racy, seed=1, schedule=[{"kind": "claim-pause", "task": "t0001", "claim": 0, "length": 2.0}]
    )
    invoke, ok = [e for e in r.history if e.op == "claim" and e.type in ("invoke", "ok")][:2]
    assert ok.time == pytest.approx(invoke.time + racy.round_trip + 2.0)


def test_does_an_empty_schedule_switch_every_fault_off():
    r = simulate(Scenario(tasks=30), seed=3, schedule=[])
    fault_ops = {"crash", "pause", "slow"}
    assert not [e for e in r.history if e.op in fault_ops]
    assert r.duplicates == 0 and len(r.schedule) == 0 and r.ok


def test_is_a_schedule_for_another_seed_refused():
    r = simulate(Scenario(tasks=10), seed=3)
    with pytest.raises(ValueError, match="seed 3"):
        simulate(r.scenario, seed=4, schedule=r.schedule)


@pytest.mark.parametrize("now", [0.0, 0.1, 3.7, 17.25, 1e6 / 3])
@pytest.mark.parametrize("at", [0.3, 5.123456789, 17.250000000000004, 1e6 / 3 + 0.1])
def test_does_a_replayed_time_land_exactly_on_the_recorded_one(now, at):
    d = exact_delay(now, at)
    assert d >= 0
    assert now + d == (at if at > now else now)


def _saved() -> dict:
    r = simulate(Scenario(tasks=10, pause_rate=0.3, variant="unfenced"), seed=2)
    return r.schedule.to_dict()


BAD = [
    (lambda d: d["faults"].append({"kind": "meteor", "task": "t0001"}), "unknown kind 'meteor'"),
    (lambda d: d["faults"].append({"kind": "cancel", "task": "t0099", "at": 1.0}), "no task"),
    (lambda d: d["faults"].append({"kind": "cancel", "task": "t0001", "at": -1}), "time"),
    (
        lambda d: d["faults"].append(
            {"kind": "pause", "task": "t0001", "step": 0, "attempt": 0, "length": -3}
        ),
        "time",
    ),
    (
        lambda d: d["faults"].append(
            {"kind": "slow", "task": "t0001", "step": 5, "attempt": 0, "factor": 2}
        ),
        "step 5",
    ),
    (
        lambda d: d["faults"].append({"kind": "effect-crash", "task": "t0001", "step": 0}),
        "missing field 'attempt'",
    ),
    (
        lambda d: d["faults"].append(
            {"kind": "send-pause", "task": "t0001", "step": 0, "attempt": 0, "length": 1}
        ),
        "sends no e-mail",
    ),
    (
        lambda d: d["faults"].append(
            {"kind": "claim-pause", "task": "t0001", "claim": -1, "length": 1}
        ),
        "claim must be an integer",
    ),
    (lambda d: d["faults"].append(d["faults"][0]), "repeats"),
    (lambda d: d["scenario"].update(tasks=-1), "tasks"),
    (lambda d: d["scenario"].update(colour="red"), "unknown field"),
    (lambda d: d.update(seed="seven"), "seed"),
]


@pytest.mark.parametrize(("spoil", "message"), BAD)
def test_is_a_bad_schedule_refused_with_one_line(spoil, message, tmp_path):
    data = _saved()
    assert data["faults"]  # something to spoil next to
    spoil(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ScheduleError, match=message) as err:
        Schedule.load(path)
    assert "\n" not in str(err.value) and str(path) in str(err.value)


def test_is_every_fault_kind_documented_in_the_module():
    import simlab.sim.schedule as module

    for kind, names in FAULT_KINDS.items():
        assert f"``{kind}``" in module.__doc__
        for name in names:
            assert name in module.__doc__


def test_is_a_scheduled_fault_the_run_never_reaches_reported_not_dropped():
    from simlab import Scenario, simulate

    never = {"kind": "crash", "task": "t0001", "step": 1, "attempt": 5, "fraction": 0.5}
    struck = {"kind": "duplicate", "task": "t0001", "enqueue": 0}
    r = simulate(Scenario(tasks=2, steps=2), seed=1, schedule=[struck, never])
    assert r.unreached == [never]
    assert list(r.schedule.faults) == [struck]
    assert any("never struck" in w and "attempt 6" in w for w in r.warnings)
    # the warning says when faults stopped: a fault past that horizon never strikes either
    off = next(e.time for e in r.history if e.op == "faults-off")
    assert any(f"faults stopped at t={off:g}" in w for w in r.warnings), r.warnings
    assert simulate(Scenario(tasks=2, steps=2), seed=1, schedule=[struck]).unreached == []
