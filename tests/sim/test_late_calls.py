"""Calls that reach the ledger late (``Scenario.late``, fault kind ``late-call``): the network
holds a worker's e-mail record, heartbeat or save, the worker hears nothing within
``reply_timeout`` and gives the task back, and the held call lands afterwards with the lease it
was sent with. The mode is off unless asked for, and then changes nothing of a run or a
search."""

from __future__ import annotations

import pytest

from simlab import Scenario, simulate
from simlab.ledger import MemoryLedger
from simlab.sim.explore import explore, scope_scenario
from simlab.sim.faults import LATE_CALL
from simlab.sim.schedule import ScheduleError

#: One task of two steps, one worker, an e-mail at every step, faults only from schedules.
SCOPE = dict(tasks=1, workers=1, steps=2, horizon=30.0)


def _held(call: str, delay: float = 0.25) -> dict:
    return {"kind": LATE_CALL.name, "task": "t0001", "call": call, "nth": 0, "delay": delay}


def _run(call: str, ledger=None, delay: float = 0.25):
    scenario = scope_scenario(**SCOPE, late=True).with_(effects="all")
    return simulate(scenario, seed=1, schedule=[_held(call, delay)], ledger=ledger)


def test_is_the_mode_off_unless_asked_for():
    assert Scenario().late is False and getattr(Scenario(), LATE_CALL.rate) == 0.0
    assert LATE_CALL.rate not in Scenario.adversarial().non_defaults()
    assert getattr(Scenario.adversarial(late=True), LATE_CALL.rate) == LATE_CALL.adversarial
    with pytest.raises(ValueError, match="late"):
        Scenario(**{LATE_CALL.rate: 0.1}).validate()
    with pytest.raises(ValueError, match="late needs variant 'fenced'"):
        Scenario(late=True, variant="unfenced").validate()


def test_is_a_late_call_scheduled_only_in_its_mode_and_only_on_a_workers_call():
    with pytest.raises(ScheduleError, match="late"):
        simulate(scope_scenario(**SCOPE), seed=1, schedule=[_held("save")])
    with pytest.raises(ScheduleError, match="an e-mail record, a heartbeat or a save"):
        simulate(scope_scenario(**SCOPE, late=True), seed=1, schedule=[_held("submit")])


def test_does_a_held_heartbeat_land_after_its_workers_release_and_get_refused():
    """A heartbeat the network holds: its worker gives the task back after reply_timeout and
    leaves the step, and the heartbeat lands later with its lease, refused by a correct
    ledger (the task is queued again, or a newer lease holds it)."""
    run = simulate(Scenario.adversarial(late=True), seed=1)
    assert run.ok, run.findings
    held = [e for e in run.history if e.op == "heartbeat" and e.value.get("held")]
    landed = [e for e in run.history if e.op == "heartbeat" and e.value.get("late")]
    assert held and len(landed) == len(held)
    timeout = run.scenario.reply_timeout
    for sent in held:
        who = (sent.process, sent.task, sent.epoch, sent.step)
        (gave_back,) = [
            e
            for e in run.history
            if e.op == "release"
            and e.type != "invoke"
            and e.value.get("timeout")
            and (e.process, e.task, e.epoch) == who[:3]
            and e.time == pytest.approx(sent.time + timeout)
        ]
        (late,) = [e for e in landed if (e.process, e.task, e.epoch, e.step) == who]
        assert late.type == "fail" and late.time > gave_back.time


@pytest.mark.parametrize("call", ["save", "effect"])
def test_does_a_held_call_land_after_its_workers_release_with_its_lease(call):
    run = _run(call)
    assert run.ok, run.findings
    timeout = run.scenario.reply_timeout
    (sent,) = [e for e in run.history if e.op == call and e.type == "invoke" and e.epoch == 1][:1]
    assert sent.value.get("held") is True
    (released,) = [e for e in run.history if e.op == "release" and e.type == "ok"]
    (landed,) = [e for e in run.history if e.value.get("late")]
    assert released.value.get("timeout") and released.epoch == sent.epoch
    assert released.time == pytest.approx(sent.time + timeout)
    assert landed.time == pytest.approx(released.time + 0.25)
    assert (landed.type, landed.op, landed.epoch, landed.step) == ("fail", call, 1, sent.step)
    if call == "save":  # the worker asks why, as for every refused save
        assert landed.value.get("reason") == "refused" and landed.value.get("status") == "queued"
    # the worker leaves the task: the broker delivers it again, a new lease finishes it
    assert run.final[0].status == "completed" and run.final[0].epoch == 2


def test_does_the_story_tell_the_held_call_the_timeout_and_the_late_answer():
    from simlab.sim.story import tell
    from tests.checker.wrong_ledgers import WRONG_LEDGERS

    wrong = WRONG_LEDGERS["save-ignores-status"]
    run = _run("save", ledger=lambda clock: wrong(clock=clock))
    told = " ".join(tell(run))
    for said in (
        "w1 (epoch 1) sends its save of step 1 of t0001; the network holds it.",
        "w1 (epoch 1) hears no answer in time and gives t0001 back: the ledger queues it again.",
        "fault 1: w1's save of step 1 of t0001 (epoch 1), held in the network, reaches the "
        "ledger now: the ledger accepts it.",
    ):
        assert said in told, told
    zh = " ".join(tell(run, lang="zh"))
    assert "网络扣住了它" in zh and "没有及时等到回答" in zh and "曾被网络扣住" in zh


def test_does_a_held_save_landing_after_the_takeover_meet_a_newer_lease():
    run = _run("save", delay=20.0)
    assert run.ok, run.findings
    (landed,) = [e for e in run.history if e.value.get("late")]
    assert landed.type == "fail" and landed.epoch == 1
    assert landed.value.get("reason") in ("stale-epoch", "completed")


def test_is_the_default_search_unchanged_and_the_mode_added_only_when_asked():
    x = explore(lambda clock: MemoryLedger(clock=clock), max_faults=2)
    # the default scope without late calls (edge-claim, tried after each pause, is part of it)
    assert (x.certified, x.schedules, x.states) == (True, 2178, 1580)
    assert "late" not in x.scope
    sqlite = explore(max_faults=1)
    assert (sqlite.certified, sqlite.schedules, sqlite.states) == (True, 63, 63)
    held = explore(max_faults=1, late=True)
    assert held.certified and held.scope["late"] is True and held.schedules > sqlite.schedules
