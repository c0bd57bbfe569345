"""E-mails that go wrong without breaking an invariant: a crash between ``record_effect`` and
the send loses one (at most once: ``record_crash_rate``, ``Result.lost_emails``), and a gap
between the resume guard's re-check and the send lets one leave citing an outdated document
(``recheck_gap``, ``Result.outdated_emails``). Both are off by default and then change nothing."""

from __future__ import annotations

import json

import pytest

from simlab import Scenario, simulate
from simlab.checker.history import History, HistoryView
from simlab.checker.measures import lost_emails, outdated_sends
from simlab.sim.scenario import RATE_FIELDS
from simlab.sim.schedule import Schedule, ScheduleError, describe_fault
from simlab.sim.story import fault_events
from tests.strategies import run_cli

QUIET = dict.fromkeys(RATE_FIELDS, 0.0)


def _record_crashes(run) -> list:
    return [e for e in run.history if e.op == "crash" and e.value.get("after_record")]


# -- at most once: a crash between the record and the send ---------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_does_a_record_crash_lose_exactly_one_email_and_never_send_two(seed):
    run = simulate(Scenario(tasks=60, record_crash_rate=0.2), seed=seed)
    crashes = _record_crashes(run)
    assert crashes and run.lost_emails == len(crashes)
    assert run.duplicate_sends == 0 and run.ok  # at most once: lost, never doubled
    lost = {(e.task, f"{e.task}:email:{e.step}") for e in crashes}
    assert set(lost_emails(HistoryView(run.history))) == lost
    assert all(run.mailbox.get(key, 0) == 0 for _, key in lost)
    assert run.sent + run.lost_emails == len(
        {e.value["key"] for e in run.history if e.op == "effect" and e.type == "ok"}
    )


def test_is_the_record_crash_stream_its_own():
    # Up to the first record-crash, the run is the run without them, event for event: the new
    # fault draws from its own stream and leaves every other one alone.
    base = simulate(Scenario(tasks=60), seed=4)
    crashy = simulate(Scenario(tasks=60, record_crash_rate=0.3), seed=4)
    first = _record_crashes(crashy)[0].index
    assert crashy.history.events[:first] == base.history.events[:first]
    assert base.lost_emails == 0 and not _record_crashes(base)


def test_does_sending_without_keys_duplicate_instead_of_lose():
    # At least once: no key, no record, so nothing to lose; a crash after the send sends again.
    run = simulate(Scenario(tasks=60, idempotency_keys=False, effect_crash_rate=0.3), seed=1)
    assert run.lost_emails == 0 and run.duplicate_sends > 0
    with pytest.raises(ValueError, match="record_crash_rate needs idempotency keys"):
        Scenario(idempotency_keys=False, record_crash_rate=0.1).validate()


def test_does_the_agent_lose_the_email_too_and_mark_it_unknown():
    run = simulate(
        Scenario(tasks=30, workload="agent", **{**QUIET, "record_crash_rate": 0.5}), seed=2
    )
    crashes = _record_crashes(run)
    assert crashes and run.lost_emails == len(crashes) and run.duplicate_sends == 0
    final = {r.task_id: r for r in run.final}
    for e in crashes:
        record = final[e.task]
        assert record.status == "completed"
        assert record.checkpoint["effects"][f"{e.task}:answer-email"] == "unknown"


def test_is_a_record_crash_a_schedule_entry_that_replays_and_can_be_removed(tmp_path):
    run = simulate(Scenario(tasks=40, record_crash_rate=0.2), seed=1)
    entries = [f for f in run.schedule.faults if f["kind"] == "record-crash"]
    assert len(entries) == len(_record_crashes(run)) == run.lost_emails > 0
    loaded = Schedule.load(run.schedule.save(tmp_path / "s.json"))
    replay = simulate(loaded.scenario, seed=loaded.seed, schedule=loaded)
    assert replay.history.to_jsonl() == run.history.to_jsonl()
    shown = [
        e
        for f, e in zip(run.schedule.faults, fault_events(run), strict=True)
        if f["kind"] == "record-crash"
    ]
    assert shown and all(e is not None and e.value.get("after_record") for e in shown)
    without = run.schedule.with_faults([f for f in run.schedule.faults if f not in entries])
    assert simulate(without.scenario, seed=1, schedule=without).lost_emails == 0
    assert describe_fault(entries[0]).startswith("crash right after recording the e-mail key")


def test_does_a_scheduled_record_crash_strike_where_it_says():
    scenario = Scenario(tasks=3, workers=2, fault_horizon=100.0, **QUIET)
    fault = {"kind": "record-crash", "task": "t0002", "step": 2, "attempt": 0}
    run = simulate(scenario, seed=1, schedule=[fault])
    (crash,) = _record_crashes(run)
    assert (crash.task, crash.step) == ("t0002", 2) and run.lost_emails == 1
    with pytest.raises(ScheduleError, match="sends no e-mail"):
        Schedule(1, scenario).with_faults([{**fault, "step": 0}])
    nokeys = scenario.with_(idempotency_keys=False)
    with pytest.raises(ScheduleError, match="without idempotency keys"):
        Schedule(1, nokeys).with_faults([fault])


def test_does_simulate_json_report_lost_emails(capsys):
    code, out, _ = run_cli(
        ["simulate", "--seed", "1", "--tasks", "30", "--record-crash-rate", "0.3", "--json"],
        capsys,
    )
    data = json.loads(out)
    assert code == 0 and data["lost_emails"] > 0 and data["metrics"]["lost_emails"] > 0
    code, out, _ = run_cli(["simulate", "--seed", "1", "--tasks", "10", "--json"], capsys)
    assert json.loads(out)["lost_emails"] == 0
    code, _, err = run_cli(
        ["simulate", "--record-crash-rate", "0.1", "--idempotency-keys", "no"], capsys
    )
    assert code == 2 and len(err.strip().splitlines()) == 1


def test_does_the_summary_say_lost_only_when_it_can_happen():
    assert ", 0 lost" not in simulate(Scenario(tasks=10), seed=1).summary()
    run = simulate(Scenario(tasks=30, record_crash_rate=0.3), seed=1)
    assert f"{run.duplicate_sends} duplicates, {run.lost_emails} lost" in run.summary()


def test_are_lost_emails_read_off_a_hand_written_history():
    h = History()
    h.record(1, "ok", "w1", "effect", "t1", 1, 0, key="k1")
    h.record(1, "info", "w1", "crash", "t1", 1, 0, after_effect=False, after_record=True)
    h.record(2, "ok", "w2", "effect", "t2", 1, 0, key="k2")
    h.record(2, "ok", "w2", "send", "t2", 1, 0, key="k2")
    assert lost_emails(HistoryView(h)) == [("t1", "k1")]


# -- check, then send: the window between them ----------------------------------------------------

AGENT = Scenario(tasks=40, workload="agent", doc_change_rate=0.2)


def test_does_no_email_cite_an_outdated_version_without_a_gap():
    for seed in (1, 2, 3):
        run = simulate(AGENT, seed=seed)
        assert run.outdated_emails == 0 and run.sent > 0


def test_does_a_gap_between_recheck_and_send_let_outdated_emails_out():
    outdated = []
    for seed in (1, 2, 3):
        run = simulate(AGENT.with_(recheck_gap=2.0), seed=seed)
        assert run.outdated_emails == len(outdated_sends(HistoryView(run.history)))
        assert run.ok  # no invariant of the ledger breaks: the world changed, not the ledger
        outdated.append(run.outdated_emails)
    assert sum(outdated) > 0
    assert "e-mails citing an outdated version" in run.summary()
    assert run.to_dict()["outdated_emails"] == run.outdated_emails


def test_is_an_edit_inside_the_gap_the_one_that_makes_the_email_outdated():
    run = simulate(AGENT.with_(recheck_gap=2.0), seed=1)
    gap = run.scenario.recheck_gap
    for send in outdated_sends(HistoryView(run.history)):
        edits = [e for e in run.history if e.op == "publish" and send.time - gap <= e.time]
        assert any(e.time <= send.time for e in edits), send


def test_is_a_gap_refused_outside_the_agent_workload():
    with pytest.raises(ValueError, match="recheck_gap needs workload 'agent'"):
        Scenario(recheck_gap=1.0).validate()
    with pytest.raises(ValueError, match="recheck_gap must be >= 0"):
        AGENT.with_(recheck_gap=-1.0)


def test_are_outdated_sends_read_off_a_hand_written_history():
    h = History()
    h.record(1, "ok", "w1", "save", "t1", 1, 1, agent_step="retrieve", evidence=["kb/a@v1"])
    h.record(2, "ok", "w1", "save", "t2", 1, 1, agent_step="retrieve", evidence=["kb/b@v1"])
    h.record(3, "info", "nemesis", "publish", None, doc="kb/a", version=2)
    h.record(4, "ok", "w1", "send", "t1", 1, 2, key="t1:answer-email")
    h.record(4, "ok", "w1", "send", "t2", 1, 2, key="t2:answer-email")
    assert [e.task for e in outdated_sends(HistoryView(h))] == ["t1"]


def test_does_a_record_crash_sweep_count_lost_emails_and_all_still_run_without_keys():
    from simlab.sim.sweep import sweep

    rows = sweep(
        Scenario(tasks=30),
        fault="record-crash",
        rates=(0.0, 0.3),
        seeds=[1, 2],
        variants=["fenced"],
    )
    lost = {r["rate"]: r["lost_emails"] for r in rows if r["seed"] == 1}
    assert lost[0.0] == 0 < lost[0.3]
    rows = sweep(
        Scenario(tasks=10, idempotency_keys=False),
        fault="all",
        rates=(0.1,),
        seeds=[1],
        variants=["fenced"],
    )
    assert rows[0]["lost_emails"] == 0
