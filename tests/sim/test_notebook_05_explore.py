"""The claims of notebook 05, section 5 ("Certify a ledger"), held to what ``explore`` finds.

Each test restates sentences of the section (quoted in its docstring) and fails when the kit
stops supporting them. The notebook's ``StrictLedger`` is read from the notebook itself, so the
tests judge the very ledger a learner reads. The notebook's printed numbers are compared by nbval
as well; these tests say which sentence broke.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from simlab import MemoryLedger, explore, simulate
from simlab.sim.explore import DEFAULT_LENGTHS

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "05_tuning_dashboard.ipynb"


def _cell(cell_id: str) -> str:
    nb = nbformat.read(NOTEBOOK, as_version=4)
    (source,) = [c.source for c in nb.cells if c.get("id") == cell_id]
    return source


@pytest.fixture(scope="module")
def strict_ledger():
    """The notebook's ``StrictLedger`` class, defined by its own cell."""
    space: dict = {}
    exec(compile(_cell("x5-ledger"), str(NOTEBOOK), "exec"), space)
    return space["StrictLedger"]


@pytest.fixture(scope="module")
def strict(strict_ledger):
    return explore(lambda clock: strict_ledger(clock=clock), max_faults=2)


def _ok(history, op, task):
    return [e for e in history if e.type == "ok" and e.op == op and e.task == task]


def _pause(result):
    (pause,) = [e for e in result.history if e.op == "pause"]
    return pause


def _taken_over_mid_task(result) -> None:
    """The sleeper's task was claimed by another worker while it slept, and that worker had
    not completed it when the sleeper woke and committed its stale save."""
    pause = _pause(result)
    woke, task = pause.value["until"], pause.task
    successors = [
        e
        for e in _ok(result.history, "claim", task)
        if e.process != pause.process and pause.time < e.time < woke
    ]
    assert successors, "nobody took the task over while the first worker slept"
    done = [e.time for e in _ok(result.history, "save", task) if e.value.get("done")]
    assert all(t > woke for t in done), "the successor had finished before the sleeper woke"
    stale = [e for e in _ok(result.history, "save", task) if e.process == pause.process]
    assert stale and stale[0].time == pytest.approx(woke)
    assert stale[0].epoch < successors[0].epoch


def test_does_one_pause_longer_than_the_lease_break_the_strict_ledger(strict):
    """Reveal: the smallest schedule has 1 fault, "one pause longer than the lease", and "the
    checker judges refusals too (rule s)"; the printed line says every schedule of 0 faults
    passed. Section text: `w1` "freezes before its save, for 1.5 ttl"."""
    assert (strict.certified, strict.faults, strict.covered) == (False, 1, 0)
    (fault,) = strict.result.schedule.faults
    ttl = strict.result.scenario.ttl
    assert fault["kind"] == "pause" and fault["length"] == 1.5 * ttl > ttl
    assert {f.letter for f in strict.result.findings} == {"s"}
    (refused,) = [e for e in strict.result.history if e.op == "save" and e.type == "fail"]
    pause = _pause(strict.result)
    assert (refused.process, refused.epoch) == (pause.process, 1) == ("w1", 1)
    assert refused.time == pytest.approx(pause.value["until"])


def test_is_the_task_left_alone_while_w1_sleeps_and_redone_by_w1(strict):
    """Section text: "the only other worker is busy with `t0002`, so nobody claims `t0001`
    while `w1` sleeps. When `w1` wakes, epoch 1 is still the newest ... `w1` then takes the
    redelivered task itself with epoch 2 and does step 1 again"."""
    history, scenario = strict.result.history, strict.result.scenario
    pause = _pause(strict.result)
    woke = pause.value["until"]
    assert pause.task == "t0001" and scenario.workers == 2
    (first,) = [e for e in _ok(history, "claim", "t0001") if e.time < woke]
    assert first.process == "w1" and first.epoch == 1
    ready = first.time + scenario.redelivery_after  # the broker's visibility timeout
    assert ready < woke, "the task was back in the queue before w1 woke"
    (busy,) = _ok(history, "claim", "t0002")
    (busy_done,) = [e for e in _ok(history, "save", "t0002") if e.value.get("done")]
    assert busy.process == "w2" and busy.time < ready and busy_done.time > woke
    second = [e for e in _ok(history, "claim", "t0001") if e.time >= woke]
    assert [(e.process, e.epoch) for e in second[:1]] == [("w1", 2)]
    redone = [(e.process, e.epoch, e.step) for e in _ok(history, "save", "t0001")]
    assert redone[0] == ("w1", 2, 1)
    delivered = [e for e in history if e.op == "deliver" and e.task == "t0001"]
    assert delivered[-1].value["redelivery"] and delivered[-1].process == "w1"


def test_would_the_kits_ledger_accept_the_save_the_strict_ledger_refused(strict):
    """Section text: "the kit's ledger would accept its save"."""
    s = strict.result.schedule
    again = simulate(
        s.scenario, seed=s.seed, schedule=s, ledger=lambda clock: MemoryLedger(clock=clock)
    )
    assert again.ok
    pause = _pause(again)
    (save,) = [
        e
        for e in again.history
        if e.op == "save" and e.type != "invoke" and e.time == pytest.approx(pause.value["until"])
    ]
    assert (save.type, save.process, save.epoch) == ("ok", "w1", 1)


def test_does_the_default_scope_try_three_pause_lengths():
    """Section text: "by default 2 tasks × 2 workers × 2 steps, the arrivals and step times of
    seed 1", "a pause of one of three lengths"; "the pauses tried last 0.5, 1.5 and 4 ttl"."""
    assert DEFAULT_LENGTHS == (0.5, 1.5, 4.0)
    x = explore(variant="racy-claim", max_faults=1)
    assert (x.scope["tasks"], x.scope["workers"], x.scope["steps"]) == (2, 2, 2)
    assert x.scope["seeds"] == [1] and x.lengths == [1.5, 4.5, 12.0]


def test_is_unfenced_certified_for_one_fault_and_broken_with_two():
    """Section text: "`unfenced` is certified for 1 fault here, and broken with 2"."""
    assert explore(variant="unfenced", max_faults=1).certified
    assert explore(variant="unfenced", max_faults=2).faults == 2


def test_does_one_pause_break_unfenced_with_seed_2():
    """Section text: "With seed 2, one pause breaks `unfenced`: its timing lets the other
    worker take the task over while the first one sleeps, and still be at work when it
    wakes"."""
    x = explore(variant="unfenced", max_faults=1, seeds=2)
    assert (x.faults, x.result.seed) == (1, 2)
    assert [f["kind"] for f in x.result.schedule.faults] == ["pause"]
    _taken_over_mid_task(x.result)


def test_does_the_strict_ledgers_pause_break_unfenced_with_three_tasks_and_workers(strict):
    """Section text: "with 3 tasks and 3 workers, the very pause that broke `StrictLedger`
    breaks `unfenced`: a third worker takes the task over while the first one sleeps, and is
    still at work when it wakes (with only 2 tasks the third worker finishes the task before
    the sleeper wakes, and a completed task refuses the stale save even unfenced"."""
    x = explore(variant="unfenced", max_faults=1, tasks=3, workers=3)
    assert x.faults == 1 and x.result.schedule.faults == strict.result.schedule.faults
    _taken_over_mid_task(x.result)
    assert {e.process for e in _ok(x.result.history, "claim", "t0001")} == {"w1", "w3"}

    assert explore(variant="unfenced", max_faults=1, workers=3).certified
    s = x.result.schedule
    two = s.scenario.with_(tasks=2)
    replay = simulate(two, seed=s.seed, schedule=s.with_faults(s.faults, two))
    pause = _pause(replay)
    (taker,) = [e for e in _ok(replay.history, "claim", "t0001") if e.process == "w3"]
    assert pause.time < taker.time < pause.value["until"]
    (done,) = [e for e in _ok(replay.history, "save", "t0001") if e.value.get("done")]
    assert done.process == "w3" and done.time < pause.value["until"]
    (refused,) = [
        e for e in replay.history if e.op == "save" and e.type == "fail" and e.process == "w1"
    ]
    assert refused.value["reason"] == "completed" and replay.ok
