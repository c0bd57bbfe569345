"""The three steps of the deterministic agent: retrieve evidence, draft an answer, send it.

A step is a function of ``(checkpoint, world)`` that returns a :class:`StepOutcome`: the new
checkpoint and the side effects it *intends* (:class:`EmailIntent`). It reads the world and never
changes it, sends nothing, and uses no clock or randomness, so the same checkpoint and world give
the same outcome. The runner (:func:`simlab.agent.resume.run_step`) performs the intents through the
idempotency ledger and commits the checkpoint with the fenced ``save``.

* ``retrieve``: a *researcher* sub-agent, whose grant is narrowed to the search (and, for a stock
  question, inventory) tools, fetches documents through permission-aware retrieval and the exact
  stock figure from the business API. The checkpoint cites each by source, ID and version.
* ``draft``: the fake model answers from the cited versions; it stops for review if there is no
  evidence. Tenants whose mail needs approval get ``approval: pending``.
* ``send``: waits for approval (stops for review while it is missing), then intends one e-mail
  under the task's idempotency key, unless that key is already ``sent`` or ``unknown``.

A step that must not go on returns a checkpoint stopped for review (``status: needs_review``,
with reasons), and no intents.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from simlab.agent.business import InventoryAPI, stock_text
from simlab.agent.checkpoint import (
    Approval,
    Checkpoint,
    CheckpointError,
    EvidenceRef,
    Goal,
    StopReason,
)
from simlab.agent.fakemodel import FakeModel
from simlab.agent.graph import GRAPH_VERSION, GRAPHS
from simlab.agent.retrieval import Retriever
from simlab.agent.world import INVENTORY_API, RETRIEVAL, PermissionDenied, World

__all__ = [
    "EmailIntent",
    "StepOutcome",
    "new_checkpoint",
    "email_key",
    "step",
    "EVIDENCE_EMPTY",
    "APPROVAL_PENDING",
    "PERMISSION_DENIED",
]

#: Stop codes a step can return (the resume guard has its own, see simlab.agent.resume).
EVIDENCE_EMPTY = "evidence-empty"
APPROVAL_PENDING = "approval-pending"
PERMISSION_DENIED = "permission-denied"


@dataclass(frozen=True, slots=True)
class EmailIntent:
    """An e-mail the step wants sent, at most once, under idempotency ``key``."""

    key: str
    to: str
    subject: str
    body: str


@dataclass(frozen=True, slots=True)
class StepOutcome:
    """What one step produced: the checkpoint to commit, the side effects to perform, the
    evidence (source, ID, version) the step used, and the model tokens it spent."""

    step: str
    checkpoint: Checkpoint
    intents: tuple[EmailIntent, ...] = ()
    used: tuple[EvidenceRef, ...] = ()
    tokens: int = 0


def new_checkpoint(task_id: str, tenant: str, goal: Goal | Mapping[str, Any]) -> Checkpoint:
    """The checkpoint of a task nobody has started: next step ``retrieve``.

    ``goal`` is a :class:`Goal` or the task's stored goal ``{"query", "recipient", "sku"?}``;
    a malformed goal raises :class:`CheckpointError` naming the field (``goal.query``).
    """
    if not isinstance(goal, Goal):
        goal = _goal_from(goal)
    return Checkpoint(GRAPH_VERSION, tenant, task_id, goal)


def email_key(checkpoint: Checkpoint) -> str:
    """The idempotency key of the task's answer e-mail: one per task, whatever the retries."""
    return f"{checkpoint.task_id}:answer-email"


def step(
    checkpoint: Checkpoint,
    world: World,
    *,
    retriever: Retriever | None = None,
    model: FakeModel | None = None,
) -> StepOutcome:
    """Run the checkpoint's next step against ``world``; see the module docstring.

    ``retriever`` (default: one without cache) and ``model`` (default :class:`FakeModel`) may be
    shared across calls. Raises ``ValueError`` for a checkpoint that has nothing to run.
    """
    if checkpoint.status != "running" or checkpoint.next_step not in _STEPS:
        raise ValueError(
            f"task {checkpoint.task_id!r}: nothing to run (status {checkpoint.status!r}, "
            f"next step {checkpoint.next_step!r})"
        )
    return _STEPS[checkpoint.next_step](
        checkpoint, world, retriever or Retriever(world), model or FakeModel()
    )


def _retrieve(cp: Checkpoint, world: World, retriever: Retriever, model: FakeModel) -> StepOutcome:
    grant = world.grant_for(cp.tenant)
    needed = {"search"} | ({"inventory"} if cp.goal.sku is not None else set())
    try:
        if grant is None:
            raise PermissionDenied(f"tenant {cp.tenant!r} has no grant")
        researcher = grant.narrow(tools=needed)  # the sub-agent: no model, no e-mail
        found = retriever.search(researcher, cp.goal.query)
        refs = [e.ref for e in found]
        if cp.goal.sku is not None:
            refs.append(InventoryAPI(world).lookup(researcher, cp.goal.sku).ref)
    except (PermissionDenied, LookupError) as exc:
        return _stop(
            cp,
            "retrieve",
            PERMISSION_DENIED if isinstance(exc, PermissionDenied) else EVIDENCE_EMPTY,
            str(exc),
        )
    refs_t = tuple(refs)
    new = replace(cp, evidence=refs_t, next_step=_after(cp, "retrieve"))
    return StepOutcome("retrieve", new, used=refs_t)


def _draft(cp: Checkpoint, world: World, retriever: Retriever, model: FakeModel) -> StepOutcome:
    if not cp.evidence:
        return _stop(cp, "draft", EVIDENCE_EMPTY, f"no evidence found for {cp.goal.query!r}")
    lines = [f"Question: {cp.goal.query}"]
    for ref in cp.evidence:
        text = _cited_text(world, ref)
        if text is None:  # the guard checks this first; never draft from another version
            return _stop(
                cp,
                "draft",
                "document-changed",
                f"{ref.doc_id} is no longer at the cited v{ref.version}",
            )
        lines.append(f"[{ref.doc_id} v{ref.version}] {text}")
    completion = model.complete("\n".join(lines) + "\n")
    approval = Approval("pending") if cp.tenant in world.approval_required else Approval()
    new = replace(cp, draft=completion.text, approval=approval, next_step=_after(cp, "draft"))
    return StepOutcome("draft", new, used=cp.evidence, tokens=completion.tokens)


def _send(cp: Checkpoint, world: World, retriever: Retriever, model: FakeModel) -> StepOutcome:
    approval = cp.approval
    if approval.status == "pending":
        by = world.approvals.get(cp.task_id)
        if by is None:
            return _stop(
                cp,
                "send",
                APPROVAL_PENDING,
                f"the e-mail of task {cp.task_id!r} waits for a human approval",
            )
        approval = Approval("approved", by)
    key = email_key(cp)
    new = replace(cp, approval=approval, next_step=_after(cp, "send"), status="completed")
    if cp.effects.get(key) in ("sent", "unknown"):
        return StepOutcome("send", new, used=cp.evidence)  # never send twice
    intent = EmailIntent(key, cp.goal.recipient, f"Re: {cp.goal.query}", cp.draft or "")
    return StepOutcome("send", new.with_effect(key, "pending"), (intent,), used=cp.evidence)


_STEPS = {"retrieve": _retrieve, "draft": _draft, "send": _send}


def _after(cp: Checkpoint, name: str) -> str:
    return GRAPHS[cp.graph_version].after(name)


def _stop(cp: Checkpoint, name: str, code: str, detail: str) -> StepOutcome:
    return StepOutcome(name, cp.stopped([StopReason(code, detail)]))


def _cited_text(world: World, ref: EvidenceRef) -> str | None:
    if ref.source == RETRIEVAL:
        doc = world.document(ref.doc_id)
        return doc.text if doc is not None and doc.version == ref.version else None
    if ref.source == INVENTORY_API:
        found = world.stock(ref.doc_id)
        if found is None or found[1] != ref.version:
            return None
        return stock_text(ref.doc_id, found[0])
    return None


def _goal_from(goal: Any) -> Goal:
    if not isinstance(goal, Mapping):
        raise CheckpointError(f"task field 'goal' must be an object, got {goal!r}", field="goal")
    for name in ("query", "recipient"):
        if name not in goal:
            raise CheckpointError(f"task field 'goal.{name}' is missing", field=f"goal.{name}")
        if not isinstance(goal[name], str) or not goal[name]:
            raise CheckpointError(
                f"task field 'goal.{name}' must be a non-empty string, got {goal[name]!r}",
                field=f"goal.{name}",
            )
    sku = goal.get("sku")
    if sku is not None and not isinstance(sku, str):
        raise CheckpointError(
            f"task field 'goal.sku' must be a string or null, got {sku!r}", field="goal.sku"
        )
    extra = sorted(set(goal) - {"query", "recipient", "sku"})
    if extra:
        raise CheckpointError(
            f"task field 'goal.{extra[0]}' is not part of a goal", field=f"goal.{extra[0]}"
        )
    return Goal(goal["query"], goal["recipient"], sku)
