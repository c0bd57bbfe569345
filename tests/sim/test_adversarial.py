"""The all-faults preset: every fault kind on, and the kit's own ledgers keep every promise.

``Scenario.adversarial()`` (``simlab simulate --faults all``) is the run that checks a ledger
against every promise of the protocol. The kit's ledgers, SQLite, the in-process model and
PostgreSQL, pass seeds 1-20 of it; each fault kind really strikes in those runs (else the preset
would prove less than it says); and a run replays byte for byte from its schedule.
"""

from __future__ import annotations

from collections import Counter

import pytest

from simlab import MemoryLedger, Scenario, simulate
from simlab.ledger import connect
from simlab.sim.faults import CALLS, KINDS, LOST_REPLY
from simlab.sim.prober import PROBER
from simlab.sim.scenario import MODE_NEEDS
from simlab.sim.schedule import FAULT_KINDS
from tests import lanes

SEEDS = range(1, 21)
#: The seeds of each mode (the fast lane's: the first, each ledger run once in every mode with
#: every fault kind of the preset on; the plain preset's seeds all run in both lanes).
MODE_SEEDS = lanes.sweep("seeds the kit's ledgers pass in each mode", SEEDS, fast=SEEDS[:1])

#: The modes a scenario turns on (off by default), each over the all-faults preset: the kit's
#: ledgers keep every promise there too, and the checker predicts every answer they give.
MODES = {
    "pull": {"pull": True},
    "checkpoints": {"checkpoints": True},
    "pull-and-checkpoints": {"pull": True, "checkpoints": True},
    "retries": {"retries": True},
    "releases": {"releases": True},
    "retries-and-releases": {"retries": True, "releases": True},
    "late": {"late": True},
    "late-retries-and-releases": {"late": True, "retries": True, "releases": True},
}


def test_does_the_kits_sqlite_ledger_pass_every_seed_with_every_fault_kind_striking():
    struck = Counter()
    for seed in SEEDS:
        r = simulate(Scenario.adversarial(), seed=seed)
        assert r.ok, (seed, r.violations[:2])
        struck.update(f["kind"] for f in r.schedule.faults)
    # claim pauses need a two-statement claim, document edits the agent workload, lost
    # replies callers that resend (a mode: tests below)
    moded = {k.name for k in KINDS.values() if set(k.needs) & set(MODE_NEEDS)}
    assert set(struck) == set(FAULT_KINDS) - {"claim-pause", "doc-change"} - moded, struck


def test_does_the_in_process_model_pass_every_seed():
    factory = lambda clock: MemoryLedger(clock=clock)  # noqa: E731
    failing = [s for s in SEEDS if not simulate(Scenario.adversarial(), seed=s, ledger=factory).ok]
    assert failing == []


def test_does_the_two_statement_claim_meet_its_pause_and_fail():
    r = simulate(Scenario.adversarial(variant="racy-claim"), seed=1)
    assert "claim-pause" in {f["kind"] for f in r.schedule.faults}
    assert not r.ok


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_does_a_preset_run_replay_byte_for_byte(seed):
    r = simulate(Scenario.adversarial(), seed=seed)
    again = simulate(r.scenario, seed=seed, schedule=r.schedule)
    assert again.history.to_jsonl() == r.history.to_jsonl()


def test_does_postgres_pass_every_seed(fresh_postgres):
    for seed in SEEDS:
        url = fresh_postgres()
        r = simulate(Scenario.adversarial(), seed=seed, ledger=lambda c, u=url: connect(u, clock=c))
        assert r.ok, (seed, r.violations[:2])


@pytest.mark.parametrize("mode", sorted(MODES))
def test_do_the_kits_sqlite_ledger_and_model_pass_every_seed_of_each_mode(mode):
    preset = Scenario.adversarial(**MODES[mode])
    memory = lambda clock: MemoryLedger(clock=clock)  # noqa: E731
    for factory in (None, memory):
        failing = [s for s in MODE_SEEDS if not simulate(preset, seed=s, ledger=factory).ok]
        assert failing == [], (mode, factory, failing)


def test_does_a_pulling_run_leave_its_health_probe_queued_and_judge_every_claim_next():
    r = simulate(Scenario.adversarial(pull=True), seed=1)
    probe = next(t for t in r.final if t.tenant == "__health__")
    assert probe.status == "queued" and r.unfinished == 1 and r.ok
    asked = [e for e in r.history if e.op == "claim-next" and e.type == "invoke"]
    pulled = [e for e in r.history if e.op == "claim" and e.type == "ok" and e.value.get("next")]
    assert asked and pulled and len(pulled) <= len(asked)
    # the workers only pull; the one process that claims a named task is the prober, at the
    # edges of a paused worker's lease (edge-claim)
    claimers = {e.process for e in r.history if e.op == "claim" and e.type == "invoke"}
    assert claimers == {PROBER}


def test_does_a_retrying_run_lose_the_reply_of_every_call_and_resend_it():
    r = simulate(Scenario.adversarial(retries=True, releases=True), seed=1)
    assert r.ok, r.violations[:2]
    lost = Counter(f["call"] for f in r.schedule.faults if f["kind"] == LOST_REPLY.name)
    assert set(lost) == set(CALLS), lost
    shown = Counter(e.op for e in r.history if e.type != "invoke" and e.value.get("lost"))
    resent = Counter(e.op for e in r.history if e.type != "invoke" and e.value.get("resent"))
    # each lost reply shows once; each is resent once (a heartbeat's helper dies with a crash)
    assert shown == lost and resent["submit"] == lost["submit"]
    assert resent["save"] == lost["save"] and resent["effect"] == lost["effect"]
    assert 0 < resent["heartbeat"] <= lost["heartbeat"]
    refused = [e for e in r.history if e.value.get("resent") and e.type == "fail"]
    assert {e.op for e in refused} >= {"submit", "save"}  # the first call landed
    assert all(e.value["reason"] == "exists" for e in refused if e.op == "submit")
    released = Counter(e.type for e in r.history if e.op == "release" and e.type != "invoke")
    assert released["ok"] and released["fail"], released  # a stale release is refused


def test_does_every_held_call_land_after_its_workers_release_and_get_refused():
    from simlab.sim.faults import LATE_CALL, LATE_CALLS

    r = simulate(Scenario.adversarial(late=True), seed=1)
    assert r.ok, r.violations[:2]
    held = Counter(f["call"] for f in r.schedule.faults if f["kind"] == LATE_CALL.name)
    assert set(held) == set(LATE_CALLS), held
    landed = [e for e in r.history if e.value.get("late")]
    timed_out = [e for e in r.history if e.op == "release" and e.type != "invoke"]
    assert all(e.value.get("timeout") for e in timed_out)
    # a held call lands unless the run ended first, always after its worker's release, and
    # a correct ledger refuses each (the task is queued, or a newer lease holds it)
    assert 0 < len(landed) <= sum(held.values()) == len(timed_out)
    assert all(e.type == "fail" for e in landed)
    for e in landed:
        assert any(
            g.process == e.process and g.task == e.task and g.epoch == e.epoch
            and g.time < e.time for g in timed_out
        )  # fmt: skip


@pytest.mark.parametrize("mode", sorted(MODES))
def test_does_postgres_pass_every_seed_of_each_mode(fresh_postgres, mode):
    for seed in SEEDS:
        url = fresh_postgres()
        preset = Scenario.adversarial(**MODES[mode])
        r = simulate(preset, seed=seed, ledger=lambda c, u=url: connect(u, clock=c))
        assert r.ok, (mode, seed, r.violations[:2])
