"""Resuming claimed tasks: the guard, stops for review, side effects, and the old-checkpoint corpus.

Every runner test runs on both ledgers (SQLite and the in-process model) with a fake clock. The
corpus test resumes each stored v1/v2 checkpoint and the same situation written by today's code,
and asks for the same business outcome.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from simlab.agent import (
    GRAPH_VERSION,
    EventAbsorber,
    MailServer,
    email_key,
    new_checkpoint,
    step,
)
from simlab.agent.checkpoint import LATEST_VERSION, Checkpoint, EvidenceRef, StopReason, load
from simlab.agent.example import example_goals, example_world
from simlab.agent.guard import (
    DOCUMENT_CHANGED,
    DOCUMENT_FORBIDDEN,
    DOCUMENT_MISSING,
    GRAPH_UNKNOWN,
    PERMISSION_REVOKED,
    TOOL_MISSING,
    resume_guard,
)
from simlab.agent.resume import commit_plan, plan_step, run_step, run_task
from simlab.agent.review import needs_review, reopen
from simlab.errors import TerminalTask
from simlab.records import CANCELLED, COMPLETED, RUNNING

TTL = 10.0
CORPUS = Path(__file__).resolve().parents[2] / "simlab/grading/checks/checkpoints/corpus"


def submit(ledger, task="ask-returns"):
    tenant, goal = example_goals()[task]
    ledger.submit(task, tenant=tenant, goal=goal)
    return task


def run_until(ledger, world, task, next_step):
    """Run the task until its stored checkpoint's next step is ``next_step``; return the lease."""
    lease = ledger.claim(task, "w1", TTL)
    while (lease.checkpoint or {}).get("next_step", "retrieve") != next_step:
        report = run_step(ledger, lease, world)
        assert report.action == "advanced", report
        lease = report.lease
    return lease


def stored(ledger, task):
    """Everything a failed load must leave alone."""
    rec = ledger.get(task)
    return rec.status, rec.step, rec.checkpoint, rec.result, ledger.effects(task)


# -- the guard -----------------------------------------------------------------------------------


def checkpoint_before(world, next_step="send", task="ask-returns"):
    tenant, goal = example_goals()[task]
    cp = new_checkpoint(task, tenant, goal)
    while cp.next_step != next_step:
        cp = step(cp, world).checkpoint
    return cp


def test_does_an_unchanged_world_pass_the_guard():
    world = example_world()
    assert resume_guard(checkpoint_before(world), world).ok


@pytest.mark.parametrize(
    ("change", "code"),
    [
        (lambda w: w.revoke("acme"), PERMISSION_REVOKED),
        (lambda w: w.publish("kb/returns", "Returns: 14 days."), DOCUMENT_CHANGED),
        (lambda w: w.withdraw("kb/returns"), DOCUMENT_MISSING),
        (lambda w: w.set_stock("blender-01", 3), DOCUMENT_CHANGED),
        (lambda w: w.grant("acme", ["public"]), DOCUMENT_FORBIDDEN),
        (lambda w: w.remove_tool("email"), TOOL_MISSING),
        (
            lambda w: w.grant("acme", ["public", "acme-internal"], tools={"search"}),
            PERMISSION_REVOKED,
        ),
    ],
    ids=[
        "revoked",
        "doc-changed",
        "doc-missing",
        "stock-changed",
        "doc-forbidden",
        "tool-gone",
        "tool-withdrawn",
    ],
)
def test_does_each_change_under_a_paused_task_stop_it_with_its_reason(change, code):
    world = example_world()
    cp = checkpoint_before(world)
    change(world)
    verdict = resume_guard(cp, world)
    assert not verdict.ok
    assert code in verdict.codes


def test_does_the_guard_report_every_reason_at_once():
    world = example_world()
    cp = checkpoint_before(world)
    world.revoke("acme")
    world.publish("kb/returns", "Returns: 14 days.")
    world.remove_tool("email")
    assert set(resume_guard(cp, world).codes) == {
        PERMISSION_REVOKED,
        DOCUMENT_CHANGED,
        TOOL_MISSING,
    }


def test_does_the_guard_check_only_the_tools_the_next_step_needs():
    world = example_world()
    cp = checkpoint_before(world, "draft")
    world.remove_tool("email")
    assert resume_guard(cp, world).ok
    world.remove_tool("model")
    assert resume_guard(cp, world).codes == (TOOL_MISSING,)


def test_is_an_unknown_graph_refused():
    world = example_world()
    cp = replace(checkpoint_before(world, "draft"), graph_version="answer-email/9")
    assert resume_guard(cp, world).codes == (GRAPH_UNKNOWN,)
    cp = replace(checkpoint_before(world, "draft"), next_step="translate")
    assert GRAPH_UNKNOWN in resume_guard(cp, world).codes


# -- stops for review ------------------------------------------------------------------------------


def test_does_a_permission_revoked_mid_task_stop_it_queryably_without_an_email(ledger):
    world = example_world()
    task = submit(ledger)
    lease = run_until(ledger, world, task, "draft")
    world.revoke("acme")
    report = run_step(ledger, lease, world)
    assert report.action == "needs_review"
    rec = ledger.get(task)
    assert rec.status == CANCELLED
    assert rec.checkpoint["status"] == "needs_review"
    assert rec.checkpoint["review"][0]["code"] == PERMISSION_REVOKED
    assert [(i.task_id, i.codes) for i in needs_review(ledger)] == [(task, (PERMISSION_REVOKED,))]
    assert world.mail.deliveries == [] and ledger.effects(task) == []
    with pytest.raises(TerminalTask):
        ledger.claim(task, "w2", TTL)


def test_can_the_stopped_worker_still_commit_or_send(ledger):
    world = example_world()
    task = submit(ledger)
    lease = run_until(ledger, world, task, "send")
    world.remove_tool("email")
    assert run_step(ledger, lease, world).action == "needs_review"
    world.add_tool("email")  # even if the cause goes away, the old lease stays fenced
    later = replace(lease, step=lease.step + 1)
    assert not ledger.record_effect(later, email_key(checkpoint_before(world)))
    assert not ledger.save(later, later.step + 1, checkpoint={"x": 1})
    assert world.mail.deliveries == []


def test_is_a_side_effect_sent_when_the_world_changes_between_plan_and_send(ledger):
    world = example_world()
    task = submit(ledger)
    lease = run_until(ledger, world, task, "send")
    plan = plan_step(ledger, lease, world)
    assert plan.outcome.intents  # the step wants to send ...
    world.revoke("acme")  # ... but permission is revoked while it works
    report = commit_plan(ledger, plan, world)
    assert report.action == "needs_review" and report.reasons[0].code == PERMISSION_REVOKED
    assert world.mail.deliveries == [] and ledger.effects(task) == []


def test_does_a_document_changing_under_a_paused_task_stop_it_until_a_reviewer_rewinds(ledger):
    world = example_world()
    task = submit(ledger)
    lease = run_until(ledger, world, task, "send")
    world.publish("kb/returns", "Returns are accepted within 14 days.")
    report = run_step(ledger, lease, world)
    assert report.action == "needs_review" and report.reasons[0].code == DOCUMENT_CHANGED
    assert world.mail.deliveries == []
    # A reviewer decides the answer must be redone on the new version.
    lease = reopen(ledger, task, reviewer="rev", ttl=TTL, rewind=True)
    assert ledger.get(task).status == RUNNING and needs_review(ledger) == []
    reports = run_task(ledger, task, world, ttl=TTL, lease=lease)
    assert reports[-1].action == "completed"
    (mail,) = world.mail.deliveries
    assert "14 days. [kb/returns v4]" in mail.body
    assert {"source": "retrieval", "doc_id": "kb/returns", "version": 4} in ledger.get(task).result[
        "evidence"
    ]


def test_does_a_reopened_task_stop_again_while_its_cause_remains(ledger):
    world = example_world()
    task = submit(ledger)
    lease = run_until(ledger, world, task, "draft")
    world.revoke("acme")
    run_step(ledger, lease, world)
    lease = reopen(ledger, task, reviewer="rev", ttl=TTL)
    assert run_step(ledger, lease, world).action == "needs_review"
    assert ledger.get(task).status == CANCELLED


def test_does_an_approval_stop_end_once_a_human_approves(ledger):
    world = example_world()
    task = submit(ledger, "ask-warranty")
    reports = run_task(ledger, task, world, ttl=TTL)
    assert [r.action for r in reports] == ["advanced", "advanced", "needs_review"]
    assert needs_review(ledger)[0].codes == ("approval-pending",)
    world.approve(task, "lead")
    reports = run_task(
        ledger, task, world, ttl=TTL, lease=reopen(ledger, task, reviewer="rev", ttl=TTL)
    )
    assert reports[-1].action == "completed"
    assert ledger.get(task).result["approval"] == {"status": "approved", "by": "lead"}
    assert world.mail.count(email_key(checkpoint_before(world, "draft", task))) == 1


def test_is_a_stop_interrupted_before_its_cancel_finished_not_resumed(ledger, clock):
    world = example_world()
    task = submit(ledger)
    lease = run_until(ledger, world, task, "send")
    cp = Checkpoint.from_dict(lease.checkpoint)
    stopped = cp.stopped([StopReason(TOOL_MISSING, "tool 'email' is gone")])
    assert ledger.save(lease, lease.step + 1, checkpoint=stopped.to_dict())  # ... then crash
    clock.advance(2 * TTL)
    report = run_task(ledger, task, world, worker="w2", ttl=TTL)[-1]  # the cause is gone now
    assert report.action == "needs_review"
    assert ledger.get(task).status == CANCELLED and world.mail.deliveries == []


@pytest.mark.parametrize("rewind", [False, True])
def test_does_reopen_refuse_a_task_that_is_not_waiting_for_review(ledger, rewind):
    world = example_world()
    task = submit(ledger)
    run_task(ledger, task, world, ttl=TTL)
    with pytest.raises(ValueError, match="not waiting for review"):
        reopen(ledger, task, reviewer="rev", ttl=TTL, rewind=rewind)


def test_can_a_task_be_rewound_after_its_email_may_have_left(ledger):
    world = example_world()
    task = submit(ledger)
    lease = run_until(ledger, world, task, "send")
    cp = Checkpoint.from_dict(lease.checkpoint).with_effect(f"{task}:answer-email", "unknown")
    ledger.save(lease, lease.step + 1, checkpoint=cp.stopped([StopReason("x", "y")]).to_dict())
    ledger.cancel(task)
    with pytest.raises(ValueError, match="may have left"):
        reopen(ledger, task, reviewer="rev", ttl=TTL, rewind=True)
    assert ledger.get(task).status == CANCELLED


# -- side effects and fencing ----------------------------------------------------------------------


def test_does_a_crash_after_recording_the_effect_send_it_twice(ledger, clock):
    world = example_world()
    task = submit(ledger)
    lease = run_until(ledger, world, task, "send")
    plan = plan_step(ledger, lease, world)
    (intent,) = plan.outcome.intents
    assert ledger.record_effect(lease, intent.key)
    world.mail.send(intent.key, intent.to, intent.subject, intent.body)  # ... and crash
    clock.advance(2 * TTL)
    report = run_task(ledger, task, world, worker="w2", ttl=TTL)[-1]
    assert report.action == "completed" and report.sent == ()
    assert world.mail.count(intent.key) == 1
    assert ledger.get(task).result["email"] == {intent.key: "unknown"}


def test_can_a_stale_worker_send_or_commit(ledger, clock):
    world = example_world()
    task = submit(ledger)
    old = run_until(ledger, world, task, "send")
    plan = plan_step(ledger, old, world)
    clock.advance(2 * TTL)  # the old worker pauses; its lease expires
    newer = run_task(ledger, task, world, worker="w2", ttl=TTL)
    assert newer[-1].action == "completed"
    report = commit_plan(ledger, plan, world)  # the old worker wakes up
    assert report.action == "fenced" and report.sent == ()
    assert world.mail.duplicates == 0 and len(world.mail.deliveries) == 1


def test_do_events_carry_seq_version_key_and_the_evidence_each_step_used(ledger):
    world = example_world()
    task = submit(ledger)
    reports = run_task(ledger, task, world, ttl=TTL)
    events = [e for r in reports for e in r.events]
    assert [e.seq for e in events] == [r.ledger_step for r in reports] == [1, 2, 3]
    assert len({e.idempotency_key for e in events}) == 3
    draft = events[1].payload
    assert {"source": "retrieval", "doc_id": "kb/returns", "version": 3} in draft["evidence"]
    assert draft["tokens"] > 0
    absorber = EventAbsorber()
    for e in reversed(events + events[:1]):
        absorber.offer(e)
    assert absorber.delivered == events and absorber.duplicates == 1


# -- refusals: a failed load changes nothing -------------------------------------------------------


def seed(ledger, task, raw, clock):
    """Store ``raw`` as the task's checkpoint the way an old worker would, then let it die."""
    lease = ledger.claim(task, "old-worker", TTL)
    assert ledger.save(lease, 1, checkpoint=raw)
    clock.advance(2 * TTL)


@pytest.mark.parametrize(
    ("raw", "needle"),
    [
        ({"schema_version": LATEST_VERSION + 1, "task_id": "ask-returns"}, "newer"),
        ({"schema_version": 3, "task_id": "ask-returns"}, "'graph_version' is missing"),
        ({"schema_version": 2, "graph_version": 5}, "'graph_version' must be"),
        (["not", "an", "object"], "JSON object"),
        ("not json", "not valid JSON"),
    ],
    ids=["newer", "missing-field", "wrong-type", "not-object", "not-json"],
)
def test_does_a_bad_stored_checkpoint_change_anything(ledger, clock, raw, needle):
    world = example_world()
    task = submit(ledger)
    seed(ledger, task, raw, clock)
    before = stored(ledger, task)
    lease = ledger.claim(task, "w2", TTL)
    report = run_step(ledger, lease, world)
    assert report.action == "refused" and needle in report.detail
    assert stored(ledger, task) == before
    assert world.mail.deliveries == []


def test_is_a_task_with_a_malformed_goal_refused(ledger):
    ledger.submit("t", tenant="acme", goal={"query": "q"})
    report = run_task(ledger, "t", example_world(), ttl=TTL)[-1]
    assert report.action == "refused" and "goal.recipient" in report.detail
    assert ledger.get("t").step == 0 and ledger.get("t").checkpoint is None


def test_is_another_tasks_checkpoint_refused(ledger, clock):
    task = submit(ledger)
    other = new_checkpoint("someone-else", "acme", example_goals()[task][1]).to_dict()
    seed(ledger, task, other, clock)
    report = run_task(ledger, task, example_world(), worker="w2", ttl=TTL)[-1]
    assert report.action == "refused" and "someone-else" in report.detail


# -- the regression corpus: old and new inputs, same business outcome ------------------------------


CORPUS_FILES = sorted(CORPUS.glob("v*.json"))


def corpus_world(cp: Checkpoint):
    world = example_world()
    if cp.approval.status == "approved":
        world.approve(cp.task_id, cp.approval.by)
    return world


def outcome(ledger, world, task):
    rec = ledger.get(task)
    cp = load(rec.checkpoint).checkpoint
    return {
        "status": rec.status,
        "result": rec.result,
        "checkpoint": replace(cp, original=None).to_dict(),
        "mail": [(d.key, d.to, d.subject, d.body) for d in world.mail.deliveries],
    }


def resume_old(make_ledger, clock, raw):
    migrated = load(raw).checkpoint
    ledger = make_ledger()
    goal = {"query": migrated.goal.query, "recipient": migrated.goal.recipient}
    ledger.submit(migrated.task_id, tenant=migrated.tenant, goal=goal)
    seed(ledger, migrated.task_id, raw, clock)
    world = corpus_world(migrated)
    run_task(ledger, migrated.task_id, world, worker="new-worker", ttl=TTL)
    return ledger, world, migrated


def resume_new(make_ledger, clock, migrated: Checkpoint):
    """The same situation written by today's code: run the agent to the same next step."""
    ledger = make_ledger()
    goal = {"query": migrated.goal.query, "recipient": migrated.goal.recipient}
    ledger.submit(migrated.task_id, tenant=migrated.tenant, goal=goal)
    world = corpus_world(migrated)
    lease = ledger.claim(migrated.task_id, "today", TTL)
    cp = new_checkpoint(migrated.task_id, migrated.tenant, goal)
    # A stored "done" checkpoint in a running task: the send step ran and the save was lost.
    target = "send" if migrated.next_step == "done" else migrated.next_step
    while cp.next_step != target:
        report = run_step(ledger, lease, world)
        lease, cp = report.lease, report.checkpoint
    if migrated.next_step == "done":
        cp = step(cp, world).checkpoint  # what the send step would have saved
    for key, status in migrated.effects.items():
        cp = cp.with_effect(key, status)  # e-mails the old writer had already sent
    if cp.to_dict() != lease.checkpoint:
        assert ledger.save(lease, lease.step + 1, checkpoint=cp.to_dict())
    clock.advance(2 * TTL)
    world.mail = MailServer()  # count only what the resume sends
    run_task(ledger, migrated.task_id, world, worker="new-worker", ttl=TTL)
    return ledger, world


@pytest.mark.parametrize("path", CORPUS_FILES, ids=lambda p: p.name)
def test_do_an_old_checkpoint_and_its_new_twin_resume_to_the_same_business_outcome(
    make_ledger, clock, path
):
    raw = json.loads(path.read_text())
    old_ledger, old_world, migrated = resume_old(make_ledger, clock, raw)
    new_ledger, new_world = resume_new(make_ledger, clock, migrated)
    old = outcome(old_ledger, old_world, migrated.task_id)
    new = outcome(new_ledger, new_world, migrated.task_id)
    assert old == new
    assert old["status"] in (COMPLETED, CANCELLED)
    # The stored record keeps the untouched old checkpoint beside the migrated one.
    assert old_ledger.get(migrated.task_id).checkpoint["original"] == raw


def test_does_the_corpus_cover_every_old_version_and_position():
    raws = [json.loads(p.read_text()) for p in CORPUS_FILES]
    assert {r["schema_version"] for r in raws} == {1, 2}
    positions = {load(r).checkpoint.next_step for r in raws}
    assert positions == {"retrieve", "draft", "send", "done"}
    assert all(r["graph_version"] == GRAPH_VERSION for r in raws)


@pytest.mark.parametrize(
    ("name", "emails"),
    [
        ("v1_before_send.json", 1),
        ("v1_done.json", 0),
        ("v2_sent_before_save.json", 0),
        ("v2_approved_before_send.json", 1),
        ("v2_approval_pending.json", 0),
    ],
)
def test_does_an_old_checkpoint_send_exactly_the_emails_still_owed(
    make_ledger, clock, name, emails
):
    raw = json.loads((CORPUS / name).read_text())
    _, world, _ = resume_old(make_ledger, clock, raw)
    assert len(world.mail.deliveries) == emails


def test_does_a_resumed_old_checkpoint_cite_the_versions_it_was_written_with(make_ledger, clock):
    raw = json.loads((CORPUS / "v1_before_send.json").read_text())
    ledger, world, _ = resume_old(make_ledger, clock, raw)
    evidence = ledger.get(raw["task_id"]).result["evidence"]
    assert [EvidenceRef(**e) for e in evidence] == [EvidenceRef("retrieval", "kb/shipping", 1)]


# -- the building blocks a simulator interleaves with its clock ------------------------------------


def test_do_the_building_blocks_compose_into_the_same_run_as_run_task(make_ledger):
    from simlab.agent.resume import advance, commit_save, effect_status, recheck, stop_save

    def by_hand(ledger, world, task):
        lease = ledger.claim(task, "w1", TTL)
        while True:
            plan = plan_step(ledger, lease, world)
            assert plan.refused is None
            reasons = plan.stop or recheck(plan, world).reasons
            if reasons:
                assert ledger.save(lease, **stop_save(plan, reasons))
                ledger.cancel(task)
                return
            statuses = {}
            for intent in plan.intents:
                statuses[intent.key] = effect_status(ledger, lease, intent.key)
                if statuses[intent.key] == "sent":
                    world.mail.send(intent.key, intent.to, intent.subject, intent.body)
            save = commit_save(plan, statuses)
            assert ledger.save(lease, **save)
            if save["done"]:
                return
            lease = advance(lease, save)

    for task in ("ask-returns", "ask-warranty"):
        results = []
        for runner in (by_hand, lambda lg, w, t: run_task(lg, t, w, ttl=TTL)):
            ledger, world = make_ledger(), example_world()
            submit(ledger, task)
            runner(ledger, world, task)
            rec = ledger.get(task)
            results.append(
                (rec.status, rec.step, rec.checkpoint, rec.result, world.mail.deliveries)
            )
        assert results[0] == results[1]


def test_does_the_review_query_skip_unreadable_and_healthy_tasks(ledger, clock):
    world = example_world()
    healthy = submit(ledger, "ask-shipping")
    run_task(ledger, healthy, world, ttl=TTL)
    stopped = submit(ledger, "ask-warranty")
    run_task(ledger, stopped, world, ttl=TTL)
    ledger.submit("odd", tenant="acme")
    seed(ledger, "odd", {"schema_version": 99, "status": "needs_review"}, clock)
    assert [i.task_id for i in needs_review(ledger)] == [stopped]


def test_is_the_guard_offered_by_its_own_module_only():
    from simlab.agent import guard, resume

    assert not set(guard.__all__) & set(resume.__all__)
