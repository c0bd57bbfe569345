"""Can the simulator run the checkpointed agent, and does its history show what each step cited?

``Scenario(workload="agent")`` runs the deterministic agent (retrieve, draft, send) under every
fault, while an editor publishes new document versions. Over many seeds the fenced ledger must
break no invariant, tasks stopped for review must end cancelled (and count as finished), and no
e-mail may ever leave citing a document version that was no longer current.
"""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from simlab import Ledger, Scenario, simulate
from simlab.agent.example import example_world
from simlab.checker.history import history_digest
from simlab.cli import main
from simlab.ledger.memory import MemoryLedger
from simlab.records import CANCELLED, COMPLETED
from tests import lanes
from tests.strategies import printed_under_hash_seeds

#: The seeds of the agent workload's runs (the fast lane's: the first ten). How often a race may
#: fail to happen is bounded by the runs it may miss, the same number in both lanes; a count of
#: what happened is bounded per run.
SEEDS = lanes.sweep("seeds of the agent workload's runs", range(1, 21), fast=range(1, 11))
AGENT = Scenario(workload="agent", doc_change_rate=0.1)
REF = re.compile(r"^[\w/-]+@v\d+$")


@pytest.fixture(scope="module")
def runs():
    """The fenced agent workload over :data:`SEEDS`, every fault on, documents changing."""
    return [simulate(AGENT, seed=s) for s in SEEDS]


def _initial_versions() -> dict[str, int]:
    world = example_world()
    versions = {d.doc_id: d.version for d in world.documents()}
    versions.update({sku: world.stock(sku)[1] for sku in ("blender-01", "kettle-02")})
    return versions


def _accepted_saves(result, task):
    return [e for e in result.history if e.task == task and e.op == "save" and e.type == "ok"]


# -- the checker over many seeds ------------------------------------------------------------------


def test_does_the_fenced_agent_workload_hold_every_invariant(runs):
    broken = [(r.seed, r.violations[0]) for r in runs if r.violations]
    assert broken == []
    assert all(r.duplicate_sends == 0 for r in runs)


def test_did_the_races_and_the_stops_really_happen(runs):
    for key in ("stale_commits_rejected", "crashes_after_effect", "leases_expired"):
        assert sum(1 for r in runs if r.coverage[key] == 0) <= 5, key
    assert sum(r.needs_review for r in runs) >= len(SEEDS)  # one a run, on average
    assert all(r.doc_edits > 0 for r in runs)


def test_does_a_task_stopped_for_review_end_cancelled_and_count_as_finished(runs):
    for r in runs:
        assert r.unfinished == 0
        stopped = [
            rec for rec in r.final if rec.checkpoint and rec.checkpoint["status"] == "needs_review"
        ]
        assert len(stopped) == r.needs_review
        assert sum(r.review_codes.values()) >= r.needs_review
        for rec in stopped:
            assert rec.status == CANCELLED and rec.result is None
            assert rec.checkpoint["review"], rec.task_id
            # Stopped by its own worker: a save with the reasons, then a cancel by that worker.
            stop = [e for e in _accepted_saves(r, rec.task_id) if "review" in e.value]
            cancel = [
                e
                for e in r.history
                if e.task == rec.task_id
                and e.op == "cancel"
                and e.type == "ok"
                and e.value.get("reason") == "needs-review"
            ]
            assert len(stop) == 1 and len(cancel) == 1
            assert cancel[0].process == stop[0].process and cancel[0].index > stop[0].index


def test_is_every_completed_task_a_business_success(runs):
    for r in runs:
        for rec in r.final:
            if rec.status != COMPLETED:
                continue
            assert rec.step == 3
            assert rec.result["email"] in (
                {f"{rec.task_id}:answer-email": "sent"},
                {f"{rec.task_id}:answer-email": "unknown"},
            )
            assert r.mailbox.get(f"{rec.task_id}:answer-email") == 1, (r.seed, rec.task_id)


# -- evidence versions in the history ---------------------------------------------------------


def test_does_every_committed_step_name_the_evidence_versions_it_used(runs):
    for r in runs[:5]:
        for rec in r.final:
            saves = [e for e in _accepted_saves(r, rec.task_id) if "review" not in e.value]
            assert [e.value["agent_step"] for e in saves] == ["retrieve", "draft", "send"][
                : len(saves)
            ]
            if not saves:
                continue
            cited = saves[0].value["evidence"]
            assert cited and all(REF.match(ref) for ref in cited), cited
            # Draft and send use exactly what retrieve cited: the checkpoint carries it.
            assert all(e.value["evidence"] == cited for e in saves)
            if rec.status == COMPLETED:
                expected = [f"{e['doc_id']}@v{e['version']}" for e in rec.result["evidence"]]
                assert expected == cited


def test_does_no_email_ever_cite_a_stale_document_version(runs):
    """Replay the editor's publish events: at the moment each e-mail left, every version its
    task cited must still have been the current one."""
    checked = 0
    for r in runs:
        current = _initial_versions()
        cited: dict[str, list[str]] = {}
        for e in r.history:
            if e.op == "publish":
                assert e.value["version"] == current[e.value["doc"]] + 1
                current[e.value["doc"]] = e.value["version"]
            elif e.op == "save" and e.type == "ok" and e.value.get("agent_step") == "retrieve":
                cited[e.task] = e.value["evidence"]
            elif e.op == "send":
                for ref in cited[e.task]:
                    doc, _, version = ref.rpartition("@v")
                    assert current[doc] == int(version), (r.seed, e.task, ref)
                checked += 1
    assert checked >= 50 * len(SEEDS)


def test_does_a_document_changing_under_a_paused_task_stop_it(runs):
    """A worker paused holding a citation, before the e-mail left; a cited document changed
    during the pause, before anyone sent the e-mail. The task must not complete: it stops for
    review with ``document-changed`` (unless its user cancelled it first)."""
    found = 0
    for r in runs:
        h = r.history
        final = {rec.task_id: rec for rec in r.final}
        for p in (e for e in h if e.op == "pause" and e.step < 2):  # step 2 is the send
            saves = _accepted_saves(r, p.task)
            retrieve = next(
                (e for e in saves if e.value.get("agent_step") == "retrieve" and e.index < p.index),
                None,
            )
            if retrieve is None:
                continue
            cited = {ref.rpartition("@v")[0] for ref in retrieve.value["evidence"]}
            # Edits during the pause that came before the e-mail left (a successor may have
            # sent it first, citing what was current then: that is correct).
            sent_at = next((e.time for e in h if e.task == p.task and e.op == "send"), float("inf"))
            edited = {
                e.value["doc"]
                for e in h
                if e.op == "publish" and p.time <= e.time <= min(p.value["until"], sent_at)
            }
            if not cited & edited:
                continue
            record = final[p.task]
            assert record.status == CANCELLED, (r.seed, p.task)
            if record.checkpoint["status"] == "needs_review":
                stop = next(e for e in saves if "review" in e.value)
                assert "document-changed" in stop.value["review"], (r.seed, p.task)
                assert "was cited at" in stop.value["detail"]
                found += 1
    assert found >= len(SEEDS) / 2


# -- determinism, replay and ledgers ----------------------------------------------------------

DIGEST_SCRIPT = """
from simlab import Scenario, simulate
from simlab.checker.history import history_digest
r = simulate(Scenario(tasks=40, workload="agent", doc_change_rate=0.2), seed=6)
print(history_digest(r.history))
"""


def test_is_an_agent_run_byte_identical_across_reruns_and_hash_seeds():
    scenario = Scenario(tasks=40, workload="agent", doc_change_rate=0.2)
    first, second = simulate(scenario, seed=6), simulate(scenario, seed=6)
    assert first.history.to_jsonl() == second.history.to_jsonl()
    assert history_digest(first.history) != history_digest(simulate(scenario, seed=7).history)
    digests = {out.strip() for out in printed_under_hash_seeds(DIGEST_SCRIPT)}
    assert digests == {history_digest(first.history)}


def test_does_the_replay_command_reproduce_an_agent_run(tmp_path, capsys):
    original = simulate(Scenario(tasks=25, workload="agent", doc_change_rate=0.3), seed=2)
    argv = original.replay.split()
    assert "--workload agent" in original.replay and "--doc-change-rate 0.3" in original.replay
    out = tmp_path / "replayed.jsonl"
    assert main([*argv[1:], "--history", str(out)]) == (1 if original.violations else 0)
    assert "agent:" in capsys.readouterr().out
    assert out.read_text() == original.history.to_jsonl()


def test_do_memory_and_sqlite_ledgers_tell_the_same_agent_story():
    scenario = Scenario(tasks=30, workload="agent", doc_change_rate=0.2)
    a = simulate(scenario, seed=4, ledger=lambda c: MemoryLedger(clock=c))
    b = simulate(scenario, seed=4, ledger=lambda c: Ledger(":memory:", clock=c))
    assert a.history.to_jsonl() == b.history.to_jsonl()


def test_is_the_unfenced_variant_still_caught_with_the_agent_workload():
    scenario = Scenario(tasks=50, workload="agent", variant="unfenced")
    caught = sum(1 for s in range(1, 9) if simulate(scenario, seed=s).violations)
    assert caught >= 6


def test_does_the_opaque_workload_stay_as_it_was():
    r = simulate(Scenario(tasks=30), seed=3)
    assert "workload" not in r.replay and "workload" not in r.to_dict()
    assert {e.op for e in r.history}.isdisjoint({"publish", "plan"})
    assert all(set(e.value) == {"done"} for e in r.history if e.op == "save" and e.type == "ok")


class NewerCheckpointFor:
    """MemoryLedger, except that one task's stored checkpoint comes back from a newer release."""

    def __init__(self, task: str, clock):
        self.task, self.ledger = task, MemoryLedger(clock=clock)

    def __getattr__(self, name):
        return getattr(self.ledger, name)

    def claim(self, task_id, worker, ttl):
        lease = self.ledger.claim(task_id, worker, ttl)
        if task_id == self.task:
            return replace(lease, checkpoint={"schema_version": 99})
        return lease


def test_does_an_unreadable_checkpoint_make_the_worker_write_nothing():
    scenario = Scenario(
        tasks=3, workload="agent", crash_rate=0, pause_rate=0, cancel_rate=0, time_cap=60.0
    )
    r = simulate(scenario, seed=1, ledger=lambda c: NewerCheckpointFor("t0002", c))
    refused = [e for e in r.history if e.op == "plan"]
    assert refused and all(e.task == "t0002" and e.type == "fail" for e in refused)
    assert "newer" in refused[0].value["detail"]
    assert not [e for e in r.history if e.task == "t0002" and e.op in ("save", "effect")]
    # Nothing written, nothing acknowledged: the task stays running, and liveness says so.
    assert {rec.task_id: rec.status for rec in r.final}["t0002"] == "running"
    assert any(v.startswith("t0002 ended running") for v in r.violations)
    assert r.completed == 2


def test_without_edits_does_every_agent_task_complete_or_get_cancelled_by_its_user():
    r = simulate(Scenario(tasks=60, workload="agent"), seed=5)
    assert r.ok and r.needs_review == 0 and r.doc_edits == 0
    user_cancels = sum(1 for e in r.history if e.op == "cancel" and e.type == "ok")
    assert r.completed + user_cancels == 60


# -- validation -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"workload": "llm"}, "unknown workload"),
        ({"workload": "agent", "steps": 4}, "steps must be 3"),
        ({"workload": "agent", "effects": "all"}, "effects must be 'last'"),
        ({"doc_change_rate": 0.1}, "needs workload 'agent'"),
        ({"workload": "agent", "doc_change_rate": -1.0}, "doc_change_rate"),
        ({"workload": "agent", "doc_change_rate": float("inf")}, "doc_change_rate"),
    ],
)
def test_is_a_bad_agent_scenario_refused_with_a_clear_message(changes, message):
    with pytest.raises(ValueError, match=message):
        simulate(Scenario(**changes), seed=1)


@pytest.mark.parametrize(
    "argv",
    [["--workload", "agent", "--steps", "2"], ["--workload", "llm"], ["--doc-change-rate", "0.5"]],
)
def test_is_a_bad_workload_flag_one_line_and_exit_2(argv, capsys):
    try:
        code = main(["simulate", *argv])
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
