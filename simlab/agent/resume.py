"""Resuming a claimed task safely: re-check first, then step, then side effects, then commit.

Before a claimed task resumes, the resume guard (:func:`~simlab.agent.guard.resume_guard`,
in :mod:`simlab.agent.guard`) re-checks the checkpoint against the world: permission, cited
documents, graph and tools. Every failure is a stop with a stable code
(:data:`~simlab.agent.guard.GUARD_CODES`). There is no silent continue and no side effect after
a failed check.

**The needs_review state.** The ledger's statuses are fixed (queued, running, completed,
cancelled, dead), so a stop is recorded in two fenced moves: the checkpoint is saved with
``status: needs_review`` and its reasons (one ``save`` by the current lease), *then* the task is
cancelled, which bumps the epoch and fences every lease, so nothing more can be committed or
recorded as an effect. :mod:`simlab.agent.review` lists stopped tasks and lets a human reopen one.
If a worker dies between the save and the cancel, the next worker finds ``needs_review`` in a
running task and finishes the stop; it never treats the stop as reviewed.

**The runner.** :func:`run_step` = :func:`plan_step` then :func:`commit_plan`. Planning loads
and migrates the checkpoint, runs the guard and the pure agent step, and writes nothing.
Committing runs the guard *again* right before any side effect (the world may have changed
while the step ran), records each e-mail in the idempotency ledger before sending it, and ends
with one fenced ``save``; events are numbered by the ledger step that save reached. A checkpoint
that cannot be read (newer version, malformed) is *refused*: nothing is written, so a newer
worker can still take the task once this one's lease expires.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from simlab.agent.checkpoint import (
    NEEDS_REVIEW,
    Checkpoint,
    CheckpointError,
    EvidenceRef,
    StopReason,
    load,
)
from simlab.agent.events import EVENT_VERSION, AgentEvent
from simlab.agent.fakemodel import FakeModel
from simlab.agent.guard import (
    GuardVerdict,
    resume_guard,
)
from simlab.agent.retrieval import Retriever
from simlab.agent.steps import EmailIntent, StepOutcome, new_checkpoint, step
from simlab.agent.world import Delivery, World
from simlab.records import COMPLETED, Lease

__all__ = [
    "Plan",
    "StepReport",
    "plan_step",
    "commit_plan",
    "run_step",
    "run_task",
    "recheck",
    "effect_status",
    "commit_save",
    "stop_save",
    "advance",
    "result_of",
]


@dataclass(frozen=True, slots=True)
class Plan:
    """What :func:`plan_step` decided, before anything is written.

    ``refused`` is set when the checkpoint cannot be read (write nothing); otherwise ``stop``
    holds the reasons to stop for review (the guard's, or those of a step that stopped itself,
    whose ``outcome`` is then kept too), or ``outcome`` holds what the step produced.
    """

    lease: Lease
    checkpoint: Checkpoint | None
    refused: str | None = None
    stop: tuple[StopReason, ...] = ()
    outcome: StepOutcome | None = None
    migrated_from: int | None = None

    @property
    def step_name(self) -> str | None:
        """The graph step this plan ran (or would have run)."""
        if self.outcome is not None:
            return self.outcome.step
        return None if self.checkpoint is None else self.checkpoint.next_step

    @property
    def intents(self) -> tuple[EmailIntent, ...]:
        return () if self.outcome is None or self.stop else self.outcome.intents

    @property
    def used(self) -> tuple[EvidenceRef, ...]:
        """The evidence (source, ID, version) the step used: what a history should show."""
        return () if self.outcome is None else self.outcome.used


@dataclass(frozen=True, slots=True)
class StepReport:
    """What one resumed step did.

    ``action`` is one of ``advanced`` (a step committed; more to do), ``completed`` (the task is
    completed in the ledger), ``needs_review`` (stopped: see ``reasons``), ``fenced`` (the ledger
    refused this lease's commit or effect: another epoch owns the task) or ``refused`` (the
    stored checkpoint cannot be read; nothing was written). ``lease`` is the lease to run the
    next step with (None unless advanced).
    """

    task_id: str
    action: str
    step: str | None
    checkpoint: Checkpoint | None = None
    reasons: tuple[StopReason, ...] = ()
    used: tuple[EvidenceRef, ...] = ()
    tokens: int = 0
    sent: tuple[Delivery, ...] = ()
    events: tuple[AgentEvent, ...] = ()
    ledger_step: int | None = None
    lease: Lease | None = None
    detail: str = ""


def plan_step(
    ledger: Any,
    lease: Lease,
    world: World,
    *,
    retriever: Retriever | None = None,
    model: FakeModel | None = None,
) -> Plan:
    """Load, guard and step, writing nothing. ``ledger`` is a Ledger or MemoryLedger."""
    record = ledger.get(lease.task_id)
    migrated_from = None
    try:
        if lease.checkpoint is None:
            cp = new_checkpoint(lease.task_id, record.tenant, record.goal)
        else:
            loaded = load(lease.checkpoint)
            cp, migrated_from = loaded.checkpoint, loaded.from_version
    except CheckpointError as exc:
        return Plan(lease, None, refused=str(exc))
    if cp.task_id != record.task_id or cp.tenant != record.tenant:
        return Plan(
            lease,
            None,
            refused=(
                f"checkpoint belongs to task {cp.task_id!r} of tenant {cp.tenant!r}, not to task "
                f"{record.task_id!r} of tenant {record.tenant!r}"
            ),
        )
    if cp.status == NEEDS_REVIEW:
        # Only reopen() clears a review; a worker seeing this finishes an interrupted stop.
        return Plan(lease, cp, stop=cp.review, migrated_from=migrated_from)
    if cp.status == COMPLETED or cp.next_step == "done":
        finished = replace(cp, status=COMPLETED, next_step="done")
        return Plan(lease, cp, outcome=StepOutcome("done", finished), migrated_from=migrated_from)
    verdict = resume_guard(cp, world)
    if not verdict.ok:
        return Plan(lease, cp, stop=verdict.reasons, migrated_from=migrated_from)
    outcome = step(cp, world, retriever=retriever, model=model)
    if outcome.checkpoint.status == NEEDS_REVIEW:
        return Plan(
            lease, cp, stop=outcome.checkpoint.review, outcome=outcome, migrated_from=migrated_from
        )
    return Plan(lease, cp, outcome=outcome, migrated_from=migrated_from)


def commit_plan(ledger: Any, plan: Plan, world: World) -> StepReport:
    """Perform a plan: stop, or re-check, send through the idempotency ledger, and save.

    Built from the pieces a simulator interleaves with its own clock and faults:
    :func:`recheck`, :func:`effect_status`, :func:`stop_save` and :func:`commit_save`.
    """
    lease = plan.lease
    task_id = lease.task_id
    if plan.refused is not None:
        return StepReport(task_id, "refused", None, detail=plan.refused)
    step_name = plan.step_name
    reasons = plan.stop or recheck(plan, world).reasons
    if reasons:
        return _stop(ledger, plan, reasons)
    outcome = plan.outcome
    statuses: dict[str, str] = {}
    sent: list[Delivery] = []
    for intent in outcome.intents:
        status = effect_status(ledger, lease, intent.key)
        if status is None:
            return StepReport(
                task_id,
                "fenced",
                step_name,
                sent=tuple(sent),
                detail="record_effect refused: the lease is stale",
            )
        if status == "sent":
            sent.append(world.mail.send(intent.key, intent.to, intent.subject, intent.body))
        statuses[intent.key] = status
    save = commit_save(plan, statuses)
    if not ledger.save(lease, **save):
        return StepReport(
            task_id,
            "fenced",
            step_name,
            sent=tuple(sent),
            detail="save refused: the lease is stale or the task not running",
        )
    cp = Checkpoint.from_dict(save["checkpoint"])
    new_step = save["step"]
    event = _event(task_id, new_step, step_name, cp, outcome.used, outcome.tokens)
    return StepReport(
        task_id,
        "completed" if save["done"] else "advanced",
        step_name,
        cp,
        (),
        outcome.used,
        outcome.tokens,
        tuple(sent),
        (event,),
        new_step,
        None if save["done"] else advance(lease, save),
    )


def recheck(plan: Plan, world: World) -> GuardVerdict:
    """The guard again, right before a plan's side effects (the world may have changed while
    the step worked). Passes trivially for a plan without intents."""
    if plan.outcome is None or not plan.outcome.intents:
        return GuardVerdict()
    return resume_guard(plan.checkpoint, world)


def effect_status(ledger: Any, lease: Lease, key: str) -> str | None:
    """Ask the idempotency ledger about ``key``: ``"sent"`` means *send it now* (recorded for
    the first time by this lease), ``"unknown"`` means an earlier attempt recorded it (it may
    have left: do not send), None means the lease is stale (send nothing, save nothing)."""
    if ledger.record_effect(lease, key):
        return "sent"
    if any(e.key == key for e in ledger.effects(lease.task_id)):
        return "unknown"
    return None


def commit_save(plan: Plan, effects: Mapping[str, str]) -> dict[str, Any]:
    """Keyword arguments of the fenced ``ledger.save(lease, **kwargs)`` that commits a plan,
    with each intended effect's status from :func:`effect_status`."""
    cp = plan.outcome.checkpoint
    for key, status in effects.items():
        cp = cp.with_effect(key, status)
    done = cp.next_step == "done"
    return {
        "step": plan.lease.step + 1,
        "checkpoint": cp.to_dict(),
        "result": result_of(cp) if done else None,
        "done": done,
    }


def stop_save(plan: Plan, reasons: tuple[StopReason, ...]) -> dict[str, Any]:
    """Keyword arguments of the fenced ``ledger.save(lease, **kwargs)`` that records a stop;
    when it returns True, ``ledger.cancel(task_id)`` completes the stop."""
    return {"step": plan.lease.step + 1, "checkpoint": plan.checkpoint.stopped(reasons).to_dict()}


def advance(lease: Lease, save: Mapping[str, Any]) -> Lease:
    """The lease to run the next step with, after ``ledger.save(lease, **save)`` returned True."""
    return replace(lease, step=save["step"], checkpoint=save["checkpoint"])


def run_step(
    ledger: Any,
    lease: Lease,
    world: World,
    *,
    retriever: Retriever | None = None,
    model: FakeModel | None = None,
) -> StepReport:
    """Run the next step of a claimed task: :func:`plan_step`, then :func:`commit_plan`."""
    plan = plan_step(ledger, lease, world, retriever=retriever, model=model)
    return commit_plan(ledger, plan, world)


def run_task(
    ledger: Any,
    task_id: str,
    world: World,
    *,
    worker: str = "agent",
    ttl: float = 30.0,
    retriever: Retriever | None = None,
    model: FakeModel | None = None,
    max_steps: int = 20,
    lease: Lease | None = None,
) -> list[StepReport]:
    """Claim the task (or go on with ``lease``, e.g. from :func:`reopen`) and run steps until
    it completes, stops or loses its lease.

    Claim errors (:class:`~simlab.errors.TerminalTask`, ``LeaseHeld``...) propagate. Between
    steps the lease is renewed with a heartbeat; a refused heartbeat ends the run.
    """
    if lease is None:
        lease = ledger.claim(task_id, worker, ttl)
    elif lease.task_id != task_id:
        raise ValueError(f"lease is for task {lease.task_id!r}, not {task_id!r}")
    reports: list[StepReport] = []
    for _ in range(max_steps):
        report = run_step(ledger, lease, world, retriever=retriever, model=model)
        reports.append(report)
        if report.action != "advanced" or not ledger.heartbeat(report.lease, ttl):
            break
        lease = report.lease
    return reports


def result_of(checkpoint: Checkpoint) -> dict[str, Any]:
    """The business result a completed task publishes: the answer, who got it, what it cites,
    the approval and the e-mail status per idempotency key."""
    cp = checkpoint
    return {
        "answer": cp.draft,
        "recipient": cp.goal.recipient,
        "evidence": [
            {"source": e.source, "doc_id": e.doc_id, "version": e.version} for e in cp.evidence
        ],
        "approval": {"status": cp.approval.status, "by": cp.approval.by},
        "email": dict(cp.effects),
    }


def _stop(ledger: Any, plan: Plan, reasons: tuple[StopReason, ...]) -> StepReport:
    lease = plan.lease
    save = stop_save(plan, reasons)
    if not ledger.save(lease, **save):
        return StepReport(
            lease.task_id,
            "fenced",
            plan.step_name,
            reasons=reasons,
            detail="save refused while stopping for review",
        )
    ledger.cancel(lease.task_id)  # fences every lease: nothing more is committed or sent
    stopped = Checkpoint.from_dict(save["checkpoint"])
    event = _event(lease.task_id, save["step"], "needs-review", stopped, (), 0)
    return StepReport(
        lease.task_id,
        "needs_review",
        plan.step_name,
        stopped,
        reasons,
        events=(event,),
        ledger_step=save["step"],
    )


def _event(
    task_id: str, seq: int, kind: str, cp: Checkpoint, used: tuple[EvidenceRef, ...], tokens: int
) -> AgentEvent:
    payload = {
        "next_step": cp.next_step,
        "status": cp.status,
        "evidence": [{"source": e.source, "doc_id": e.doc_id, "version": e.version} for e in used],
        "tokens": tokens,
        "effects": dict(cp.effects),
        "reasons": [r.code for r in cp.review],
    }
    return AgentEvent(task_id, seq, EVENT_VERSION, f"{task_id}:{seq}:{kind}", kind, payload)
