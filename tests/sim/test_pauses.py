"""Work pauses, effect pauses and a learner's send_step in the simulator: does each pause strike
where it says, replay from a schedule, shrink and tell its story; do the knobs at 0 leave every
history as it was; and does a send_step run in place of the workers' own record-then-send?"""

from __future__ import annotations

import pytest

from simlab import Scenario, simulate
from simlab.checker.history import history_digest
from simlab.checker.rules import broken_rules
from simlab.grading import PiecesLedger
from simlab.sim.scenario import RATE_FIELDS
from simlab.sim.schedule import Schedule, ScheduleError, describe_fault
from simlab.sim.sending import WatchedLedger, WatchedMailbox, watched
from simlab.sim.shrink import shrink
from tests.sim.pinned import pinned_digest

QUIET = dict.fromkeys(RATE_FIELDS, 0.0)
WORK = Scenario(tasks=20, workers=4, work_pause_rate=0.3, pause_time=1.5)
EFFECT = Scenario(tasks=20, workers=4, effects="all", effect_pause_rate=0.4, cancel_rate=0.3)

#: History digests recorded before work and effect pauses existed (same scenario, seed 5): with
#: the new knobs at 0 the simulator draws nothing new, so these runs must not change.
BEFORE = {
    "opaque": (
        Scenario(tasks=30, effects="all", cancel_rate=0.2, duplicate_rate=0.2),
        "675b3982d09b01554b103a4a1bca8683455660963186a0508830e73526bb3b92",
    ),
    "agent": (
        Scenario(tasks=12, workload="agent", doc_change_rate=0.3),
        "a141efde128ced366cc603540be45ba7135481007f3d65ca96bce49d014e7de3",
    ),
}


@pytest.mark.parametrize("name", list(BEFORE))
def test_do_the_new_knobs_at_zero_leave_old_histories_unchanged(name):
    scenario, digest = BEFORE[name]
    assert pinned_digest(simulate(scenario, seed=5).history) == digest


@pytest.mark.parametrize("scenario", [WORK, EFFECT], ids=["work", "effect"])
def test_is_a_run_with_the_new_pauses_deterministic(scenario):
    first, second = simulate(scenario, seed=3), simulate(scenario, seed=3)
    assert first.history.to_jsonl() == second.history.to_jsonl()
    off = scenario.with_(work_pause_rate=0.0, effect_pause_rate=0.0)
    assert history_digest(first.history) != history_digest(simulate(off, seed=3).history)


def _pauses(result, where):
    return [e for e in result.history if e.op == "pause" and e.value.get("where") == where]


def _woken(result, where):
    """Each pause at ``where`` (at least three, in a run that broke no rule) with the next event
    of its process: what it did on waking."""
    pauses = _pauses(result, where)
    assert len(pauses) >= 3 and result.ok
    return [
        (p, next(e for e in result.history[p.index + 1 :] if e.process == p.process))
        for p in pauses
    ]


def test_does_a_work_pause_end_in_a_heartbeat_with_the_old_epoch():
    r = simulate(WORK, seed=2)
    for p, woke in _woken(r, "work"):
        if woke.op == "crash":  # a crash drawn for the same attempt strikes after the pause
            continue
        assert (woke.op, woke.type, woke.epoch) == ("heartbeat", "invoke", p.epoch)
        assert woke.time == p.value["until"]
    refused = [e for e in r.history if e.op == "heartbeat" and e.type == "fail"]
    assert refused, "some sleeper woke after its task was taken over, and the fence refused it"


def test_does_an_effect_pause_end_in_a_record_with_the_old_epoch():
    r = simulate(EFFECT, seed=2)
    for p, woke in _woken(r, "effect"):
        assert (woke.op, woke.type, woke.epoch, woke.step) == ("effect", "invoke", p.epoch, p.step)
        assert woke.time == p.value["until"]
    assert [e for e in r.history if e.op == "effect" and e.type == "fail"]


@pytest.mark.parametrize("scenario", [WORK, EFFECT], ids=["work", "effect"])
def test_do_the_new_pauses_replay_from_a_saved_schedule(scenario, tmp_path):
    original = simulate(scenario, seed=4)
    kinds = {f["kind"] for f in original.schedule.faults}
    assert {"work-pause", "effect-pause"} & kinds
    loaded = Schedule.load(original.schedule.save(tmp_path / "schedule.json"))
    replay = simulate(loaded.scenario, seed=loaded.seed, schedule=loaded)
    assert replay.history.to_jsonl() == original.history.to_jsonl()


def test_are_the_new_pauses_described_and_checked():
    work = {"kind": "work-pause", "task": "t0002", "step": 1, "attempt": 0, "length": 4.5}
    assert describe_fault(work) == "pause of 4.5 as the work of step 2 of t0002 begins"
    effect = {**work, "kind": "effect-pause"}
    assert describe_fault(effect) == "pause of 4.5 right before the e-mail of step 2 of t0002"
    with pytest.raises(ScheduleError, match="sends no e-mail"):
        Schedule(1, Scenario(tasks=3)).with_faults([{**effect, "step": 0}])  # only the last


def test_are_bad_pause_rates_refused():
    with pytest.raises(ValueError, match="work_pause_rate must be a probability"):
        Scenario(work_pause_rate=1.5).validate()
    with pytest.raises(ValueError, match="effect_pause_rate needs workload 'opaque'"):
        Scenario(workload="agent", effect_pause_rate=0.1).validate()


# --- a ledger whose heartbeat forgets the epoch, caught by rule (i) -----------------------------


def _unfenced_heartbeat(db, lease, ttl, now):
    cursor = db.execute(
        "UPDATE tasks SET lease_until = ? WHERE task_id = ? AND status = 'running'",
        (now + ttl, lease.task_id),
    )
    return cursor.rowcount == 1


def test_does_a_work_pause_catch_a_heartbeat_without_the_epoch_and_tell_it():
    scenario = Scenario(tasks=8, workers=3, work_pause_rate=0.5, pause_time=1.5, **_quiet())
    ledger = lambda clock: PiecesLedger(heartbeat=_unfenced_heartbeat, clock=clock)  # noqa: E731
    seed = next(
        s for s in range(1, 20) if "i" in _broken(simulate(scenario, seed=s, ledger=ledger))
    )
    story = shrink(scenario, seed=seed, ledger=ledger).story
    told = "\n".join(story)
    assert "pauses for" in told and "as it starts step" in told
    assert "renews its lease on" in told and "although epoch" in told
    assert "This breaks rule (i), stale heartbeat" in story[-2]


def _quiet():
    return {k: v for k, v in QUIET.items() if k not in ("work_pause_rate",)}


def _broken(result):
    return broken_rules(result.findings)


# --- a learner's send_step as the sender --------------------------------------------------------


def _send_step(ledger, lease, step, mailbox):
    key = f"{lease.task_id}:email:{step}"
    if ledger.record_effect(lease, key):
        mailbox.send(key)
        return True
    return False


def _send_first(ledger, lease, step, mailbox):
    key = f"{lease.task_id}:email:{step}"
    mailbox.send(key)
    return ledger.record_effect(lease, key)


def test_does_a_watched_send_step_record_what_it_did():
    from simlab.ledger import Ledger

    ledger = Ledger(":memory:", clock=lambda: 0.0)
    ledger.submit("t1")
    lease = ledger.claim("t1", "A", 10.0)
    mailbox = WatchedMailbox()
    _send_step(WatchedLedger(ledger, mailbox), lease, 0, mailbox)
    _send_step(WatchedLedger(ledger, mailbox), lease, 0, mailbox)
    assert mailbox.take() == [
        ("effect", "t1:email:0", True, 1),
        ("send", "t1:email:0"),
        ("effect", "t1:email:0", False, 1),
    ]
    assert mailbox.take() == [] and mailbox.sent == 1
    assert WatchedLedger(ledger, mailbox).get("t1").epoch == 1  # the rest is the ledger's


def test_is_the_kits_send_step_as_a_sender_the_same_run_byte_for_byte():
    scenario = Scenario(tasks=30, effects="all", effect_crash_rate=0.3, effect_pause_rate=0.2)
    kit = simulate(scenario, seed=6)
    mine = simulate(scenario, seed=6, sender=watched(_send_step))
    assert mine.history.to_jsonl() == kit.history.to_jsonl()


def test_does_sending_before_recording_resend_after_a_crash():
    scenario = Scenario(tasks=20, effects="all", effect_crash_rate=0.3)
    r = simulate(scenario, seed=1, sender=watched(_send_first))
    assert r.duplicate_sends > 0 and "f" in _broken(r)
    assert "r" in _broken(r)  # a send before its record breaks rule (r) with no fault at all
    shrunk = shrink(scenario, seed=1, sender=watched(_send_first), rules=["f"])
    assert "again" in "\n".join(shrunk.story) and shrunk.rules == ["f"]
