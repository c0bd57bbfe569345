"""Does the simulator exercise the races it claims to, and does fencing survive them?

The default scenario switches every fault on. Over 50 seeds the fenced ledger must break no
invariant while the coverage counters show the races really happened; the unfenced and racy-claim
variants must be caught on those same seeds (the fast lane: the first 20). How often a race may
fail to happen or a variant escape is bounded by the runs it may miss, the same number in both
lanes, so a run the fast lane counts against a bound counts against it in the full one; a count
of stale saves is bounded per run.
"""

from __future__ import annotations

import pytest

from simlab import Ledger, Scenario, simulate
from simlab.ledger.memory import MemoryLedger
from simlab.records import CANCELLED, COMPLETED
from simlab.sim.scenario import RATE_FIELDS
from tests import lanes

#: The seeds every variant runs (the fast lane's: the first 20).
SEEDS = lanes.sweep("seeds each variant runs", range(1, 51), fast=range(1, 21))
FAULTS_OFF = dict.fromkeys(RATE_FIELDS, 0.0)


@pytest.fixture(scope="module")
def runs():
    """Every variant over :data:`SEEDS`, computed once for the whole module."""
    return {
        variant: [simulate(Scenario(variant=variant), seed=s) for s in SEEDS]
        for variant in ("fenced", "unfenced", "racy-claim")
    }


# -- the headline ------------------------------------------------------------------------------


def test_does_the_fenced_ledger_hold_every_invariant_under_every_fault(runs):
    broken = [(r.seed, r.violations[0]) for r in runs["fenced"] if r.violations]
    assert broken == []


def test_did_the_races_really_happen_in_the_fenced_runs(runs):
    keys = (
        "stale_commits_rejected",
        "crashes_after_effect",
        "duplicate_deliveries_absorbed",
        "leases_expired",
    )
    for key in keys:
        missed = sum(1 for r in runs["fenced"] if r.coverage[key] == 0)
        assert missed <= 5, f"{key} did not happen in {missed} of {len(SEEDS)} runs"
    assert all(r.stale_rejected == r.coverage["stale_commits_rejected"] for r in runs["fenced"])


def test_is_the_unfenced_variant_caught_committing_stale_work(runs):
    caught = [r for r in runs["unfenced"] if r.violations]
    assert len(SEEDS) - len(caught) <= 5
    # The fencing rule names the stale worker and the newer epoch that should have won.
    assert all(any("was granted to" in v for v in r.violations) for r in caught)


def test_is_the_racy_claim_caught_handing_one_epoch_to_two_workers(runs):
    caught = [r for r in runs["racy-claim"] if r.violations]
    assert len(SEEDS) - len(caught) <= 10
    named = [r for r in caught if any("had already been granted" in v for v in r.violations)]
    assert len(SEEDS) - len(named) <= 10


# -- what a paused worker does -----------------------------------------------------------------


def _stale_saves_after_pauses(result):
    """(pause event, the same worker's next save outcome) for each pause in a run."""
    h = result.history
    pairs = []
    for p in (e for e in h if e.op == "pause"):
        outcome = next(
            e
            for e in h[p.index + 1 :]
            if e.process == p.process and e.op == "save" and e.type != "invoke"
        )
        claims_between = [
            e
            for e in h[p.index : outcome.index]
            if e.task == p.task and e.op == "claim" and e.type == "ok"
        ]
        pairs.append((p, outcome, claims_between))
    return pairs


def test_does_a_paused_worker_wake_and_get_its_stale_save_refused(runs):
    refused_stale = 0
    for r in runs["fenced"]:
        for pause, outcome, successors in _stale_saves_after_pauses(r):
            assert outcome.epoch == pause.epoch  # it commits with the epoch it had
            if successors:
                assert outcome.type == "fail", "a save after a newer claim must be refused"
                refused_stale += outcome.value.get("reason") == "stale-epoch"
    assert refused_stale >= len(SEEDS)  # one a run, on average


def test_does_a_paused_worker_usually_have_a_successor(runs):
    pairs = [x for r in runs["fenced"] for x in _stale_saves_after_pauses(r)]
    with_successor = sum(1 for _, _, successors in pairs if successors)
    assert with_successor > len(pairs) / 2


def test_does_the_unfenced_stale_save_really_land(runs):
    landed = sum(
        1
        for r in runs["unfenced"]
        for _, outcome, successors in _stale_saves_after_pauses(r)
        if successors and outcome.type == "ok"
    )
    assert landed >= 0.9 * len(SEEDS)


# -- side effects and the mailbox --------------------------------------------------------------


def test_does_every_completed_task_send_its_email_exactly_once(runs):
    for r in runs["fenced"]:
        assert r.duplicate_sends == 0
        for record in r.final:
            if record.status == COMPLETED:
                assert r.mailbox.get(f"{record.task_id}:email:2") == 1, record.task_id


def test_does_a_successor_skip_the_email_after_a_crash_after_effect(runs):
    skipped = 0
    for r in runs["fenced"]:
        crashed = {
            (e.task, e.step) for e in r.history if e.op == "crash" and e.value.get("after_effect")
        }
        for e in r.history:
            if e.op == "effect" and e.type == "fail" and (e.task, e.step) in crashed:
                skipped += 1
    assert skipped >= 50


# -- resuming, liveness and the fault horizon --------------------------------------------------


def test_does_a_successor_resume_from_the_last_committed_step(runs):
    for r in runs["fenced"]:
        committed: dict[str, int] = {}
        for e in r.history:
            if e.op == "save" and e.type == "ok":
                committed[e.task] = e.step
            elif e.op == "claim" and e.type == "ok":
                assert e.step == committed.get(e.task, 0), (r.seed, e)


def test_does_every_task_end_terminal_once_faults_stop(runs):
    for r in runs["fenced"]:
        assert r.unfinished == 0
        assert {rec.status for rec in r.final} <= {COMPLETED, CANCELLED}
        assert r.completed + r.cancelled == r.scenario.tasks


def test_do_faults_stop_at_the_horizon(runs):
    for r in runs["fenced"][:10]:
        offs = [e for e in r.history if e.op == "faults-off"]
        assert len(offs) == 1 and offs[0].time == r.scenario.horizon
        late = [
            e for e in r.history if e.op in ("crash", "pause", "slow") and e.time > offs[0].time
        ]
        # A pause or crash recorded after the horizon must have been drawn before it: it belongs
        # to a step that started before faults stopped.
        for e in late:
            assert e.op != "slow", e


def test_does_a_run_with_faults_off_refuse_nothing():
    r = simulate(Scenario(**FAULTS_OFF), seed=3)
    assert r.ok and r.completed == r.scenario.tasks
    assert r.stale_rejected == 0 and r.crashes == 0 and r.redeliveries == 0
    assert any("proves little" in w for w in r.warnings)


def test_does_each_completed_task_commit_exactly_k_steps(runs):
    r = runs["fenced"][0]
    saves: dict[str, list[int]] = {}
    for e in r.history:
        if e.op == "save" and e.type == "ok":
            saves.setdefault(e.task, []).append(e.step)
    for record in r.final:
        if record.status == COMPLETED:
            assert saves[record.task_id] == [1, 2, 3]


# -- the ledger factory ------------------------------------------------------------------------


def test_is_the_ledger_factory_called_with_the_simulation_clock():
    calls = []

    def factory(clock):
        calls.append(clock)
        return MemoryLedger(clock=clock)

    r = simulate(Scenario(tasks=20), seed=5, ledger=factory)
    assert len(calls) == 1
    assert r.ok and r.completed + r.cancelled == 20
    # The ledger's timestamps are simulated times, not wall-clock times.
    assert all(rec.created_at < 1000 for rec in r.final)


def test_do_memory_and_sqlite_ledgers_tell_the_same_story():
    a = simulate(Scenario(tasks=40), seed=9, ledger=lambda c: MemoryLedger(clock=c))
    b = simulate(Scenario(tasks=40), seed=9, ledger=lambda c: Ledger(":memory:", clock=c))
    assert a.history.to_jsonl() == b.history.to_jsonl()


def test_do_the_broken_variants_refuse_a_ledger_they_cannot_wrap():
    with pytest.raises(ValueError, match="built-in ledger"):
        simulate(Scenario(variant="unfenced"), seed=1, ledger=lambda c: MemoryLedger(clock=c))


# -- scenario validation and the result --------------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"crash_rate": -0.1}, "crash_rate"),
        ({"pause_rate": 1.5}, "pause_rate"),
        ({"workers": 0}, "workers"),
        ({"steps": 0}, "steps"),
        ({"ttl": 0}, "ttl"),
        ({"variant": "optimistic"}, "unknown variant"),
        ({"tasks": 2.5}, "tasks"),
        ({"arrival_rate": float("nan")}, "arrival_rate"),
    ],
)
def test_is_a_bad_scenario_refused_with_a_clear_message(changes, message):
    with pytest.raises(ValueError, match=message):
        simulate(Scenario(**changes), seed=1)


def test_does_the_replay_name_only_the_fields_that_differ():
    r = simulate(Scenario(tasks=10, pause_rate=0.2, variant="unfenced"), seed=7)
    assert r.replay == "simlab simulate --seed 7 --tasks 10 --pause-rate 0.2 --variant unfenced"
    assert r.seed == 7


def test_does_an_empty_scenario_run():
    r = simulate(Scenario(tasks=0), seed=1)
    assert r.completed == 0 and r.ok
    assert [e.op for e in r.history] == ["faults-off"]


def test_without_idempotency_keys_does_a_redelivered_step_send_its_email_twice():
    """The same seed with and without the idempotency ledger: only the keyed run is clean."""
    from simlab import Scenario, simulate

    base = Scenario(duplicate_rate=0.2)
    keyed = simulate(base, seed=3)
    unkeyed = simulate(base.with_(idempotency_keys=False), seed=3)
    assert keyed.duplicate_sends == 0
    assert unkeyed.duplicate_sends > 0
    assert max(unkeyed.mailbox.values()) > 1
    assert unkeyed.metrics["duplicate_sends"] == unkeyed.duplicate_sends
    assert any("without an idempotency key" in w for w in unkeyed.warnings)
    assert not unkeyed.violations  # unkeyed duplicates are counted, not blamed on the ledger
    assert "--no-idempotency-keys" in unkeyed.replay.split()


def test_is_a_non_boolean_idempotency_keys_refused():
    from simlab import Scenario

    with pytest.raises(ValueError, match="idempotency_keys"):
        Scenario(idempotency_keys="no").validate()


def test_does_a_worker_that_takes_a_waiting_message_at_once_record_what_waiting_records(
    monkeypatch,
):
    """A worker takes a waiting message without a SimPy event when nothing else is due at that
    instant; the history is the one the event would have given, faults on and off."""
    from simlab.checker.history import history_digest
    from simlab.sim.broker import Broker
    from simlab.sim.queueing import mmc_scenario

    scenarios = [
        Scenario(tasks=60, workers=4, duplicate_rate=0.3, crash_rate=0.1, pause_rate=0.1),
        mmc_scenario(2, 1.8, 200),
    ]
    take, taken = Broker.take, []

    def counted(self):
        msg = take(self)
        taken.append(msg is not None)
        return msg

    monkeypatch.setattr(Broker, "take", counted)
    fast = [history_digest(simulate(s, seed=3).history) for s in scenarios]
    assert sum(taken) > 10  # the shortcut was taken
    monkeypatch.setattr(Broker, "take", lambda self: None)  # always wait for get()'s event
    assert [history_digest(simulate(s, seed=3).history) for s in scenarios] == fast


def test_does_a_worker_wait_for_its_message_behind_an_event_due_at_the_same_instant():
    """Two messages wait and another process's event is due at this very instant: the worker
    handles the second message only after that event, as if it had waited for get()'s event."""
    from types import SimpleNamespace

    import simpy

    from simlab.sim.broker import Broker
    from simlab.sim.worker import Worker

    env, seen = simpy.Environment(), []
    broker = Broker(env, visibility_timeout=5.0, duplicate_rate=0.0, rng=None, faults_on=None)

    class Handler(Worker):
        def _handle(self, task):
            seen.append((env.now, task))
            return False
            yield  # a generator, like the real one

    def client():
        yield env.timeout(1.0)
        broker.publish("m1")
        broker.publish("m2")
        yield env.timeout(0)  # due at the same instant, scheduled after the delivery of m1
        seen.append((env.now, "other"))

    record = lambda *a, **k: None  # noqa: E731
    run = SimpleNamespace(
        env=env,
        broker=broker,
        history=SimpleNamespace(record=record),
        rng={"restart": None},
        scenario=SimpleNamespace(restart_delay=0.0),
    )
    env.process(Handler("w1", run).run())
    env.process(client())
    env.run(until=3.0)
    assert seen == [(1.0, "m1"), (1.0, "other"), (1.0, "m2")]


def test_does_the_ledgers_clock_read_what_env_now_says():
    import simpy

    from simlab.sim.simulation import clock_of

    env = simpy.Environment()
    clock = clock_of(env)
    env.run(until=2.5)
    assert clock() == env.now == 2.5

    class Shifted(simpy.Environment):  # an environment with its own now is asked for it
        now = property(lambda self: self._now + 1.0)

    assert clock_of(Shifted())() == 1.0


def test_does_a_bad_setting_name_its_field_and_cross_processes_whole():
    """A refused field is named as Python names it; the command line spells it as its flag,
    and the error survives pickling (a forked search sends errors back pickled)."""
    import pickle

    from simlab.errors import SettingError

    with pytest.raises(SettingError) as caught:
        Scenario(pull=True, max_attempts=2).validate()
    assert str(caught.value) == "pull needs no limit on attempts: leave max_attempts unset"
    again = pickle.loads(pickle.dumps(caught.value))
    assert str(again) == str(caught.value)
    flags = again.spelled(lambda name: "--" + name.replace("_", "-"))
    assert flags == "--pull needs no limit on attempts: leave --max-attempts unset"
