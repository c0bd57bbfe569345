"""Checkpoints that survive upgrades: a versioned record, pure migrations and a strict loader.

A checkpoint is what a worker needs to resume a task it did not start: not only "which step is
next", but the business state around it. The latest record (:data:`LATEST_VERSION`, 3) holds:

=============== ==========================================================================
field           meaning
=============== ==========================================================================
schema_version  the layout of this record (3); old layouts are migrated, newer ones refused
graph_version   the agent graph that wrote it (which steps exist, which tools each needs)
tenant          whose task this is; every permission check is made for this tenant
task_id         the ledger's task ID
status          ``running``, ``needs_review`` (stopped by a check, see ``review``) or
                ``completed``
next_step       the graph step to run next (``retrieve``, ``draft``, ``send`` or ``done``);
                not the ledger's ``step``, which counts fenced commits
goal            ``{"query", "recipient", "sku"}``: what the task was asked to do
evidence        what the answer cites: ``[{"source", "doc_id", "version"}]``; ``source`` is
                ``retrieval`` (a document) or ``inventory-api`` (an exact business fact)
approval        ``{"status", "by"}``; status ``not_required``, ``pending`` or ``approved``
effects         side-effect status per idempotency key: ``pending`` (decided, not known to
                be sent), ``sent`` (the send call returned) or ``unknown`` (an earlier attempt
                recorded the key and may have sent it; never send again)
draft           the drafted answer, or null before the draft step
review          why the task stopped: ``[{"code", "detail"}]``; empty unless needs_review
original        the raw record this one was migrated from, kept unchanged; null if none
=============== ==========================================================================

Rules this module enforces:

* **Old records are never read with new field meanings.** :func:`migrate` upgrades a raw dict
  one version at a time through pure functions (:data:`MIGRATIONS`); each input is validated
  against *its own* version's layout first, and each output against the next one.
* **Migrations are pure.** They return a new dict and never change their input; :func:`load`
  keeps the untouched input beside the migrated record (``original``), so nothing is lost.
* **Newer, unknown or malformed input is refused** with :class:`CheckpointError`, whose message
  names the offending field (``evidence[1].version``) or version. A failed load changes nothing.

What the old versions meant, and why the migrations are written as they are:

* v1 (graph ``answer-email/1``): ``step`` was the *index* of the next graph step (0 retrieve,
  1 draft, 2 send, 3 done), easy to confuse with the ledger's commit counter; evidence was a
  list of ``"doc_id@version"`` strings; no approvals; ``sent`` listed the idempotency keys whose
  e-mail was sent; ``query`` and ``recipient`` sat at the top level.
* v2: ``next_step`` by name, ``goal`` as an object, evidence as ``{"doc_id", "version"}``
  objects (all from retrieval), and ``approval`` as ``{"required", "approved", "by"}``.
* v3: evidence names its ``source`` (inventory facts joined documents), ``goal`` gains ``sku``,
  approval becomes one ``status``, ``sent`` becomes ``effects`` with three states, and a stopped
  task says why in ``review``.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from simlab.agent.migrations import (
    APPROVAL_STATUSES,
    CHECKPOINT_STATUSES,
    EFFECT_STATUSES,
    EVIDENCE_SOURCES,
    LATEST_VERSION,
    MIGRATIONS,
    NEEDS_REVIEW,
    RUNNING,
    CheckpointError,
    migrate_v1_to_v2,
    migrate_v2_to_v3,
    type_name,
    validate,
)

__all__ = [
    "CheckpointError",
    "Checkpoint",
    "Goal",
    "EvidenceRef",
    "Approval",
    "StopReason",
    "Loaded",
    "LATEST_VERSION",
    "MIGRATIONS",
    "CHECKPOINT_STATUSES",
    "EFFECT_STATUSES",
    "APPROVAL_STATUSES",
    "EVIDENCE_SOURCES",
    "migrate",
    "load",
    "validate",
    "migrate_v1_to_v2",
    "migrate_v2_to_v3",
]

# -- the latest record ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Goal:
    """What the task was asked: answer ``query`` by e-mail to ``recipient``; ``sku`` if the
    answer needs an exact stock figure from the inventory API."""

    query: str
    recipient: str
    sku: str | None = None


@dataclass(frozen=True, slots=True)
class EvidenceRef:
    """A citation: the document (or business fact) ``doc_id`` at ``version``, from ``source``."""

    source: str
    doc_id: str
    version: int

    def __str__(self) -> str:
        return f"{self.doc_id}@v{self.version}"


@dataclass(frozen=True, slots=True)
class Approval:
    """The approval summary: ``status`` and, once approved, who approved (``by``)."""

    status: str = "not_required"
    by: str | None = None


@dataclass(frozen=True, slots=True)
class StopReason:
    """Why a task stopped for review: a stable ``code`` to query and a sentence for people."""

    code: str
    detail: str


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """A checkpoint in the latest layout. Immutable: steps return new checkpoints.

    Invariants (checked by :func:`validate`): ``status`` is needs_review exactly when ``review``
    is non-empty; ``approval.by`` is set exactly when approval is ``approved``; every effect
    status is one of :data:`EFFECT_STATUSES`.
    """

    graph_version: str
    tenant: str
    task_id: str
    goal: Goal
    status: str = RUNNING
    next_step: str = "retrieve"
    evidence: tuple[EvidenceRef, ...] = ()
    approval: Approval = Approval()
    effects: Mapping[str, str] = field(default_factory=dict)
    draft: str | None = None
    review: tuple[StopReason, ...] = ()
    original: Any = None
    schema_version: int = LATEST_VERSION

    # -- JSON -------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The JSON object of this checkpoint (fresh containers, safe to change)."""
        return {
            "schema_version": self.schema_version,
            "graph_version": self.graph_version,
            "tenant": self.tenant,
            "task_id": self.task_id,
            "status": self.status,
            "next_step": self.next_step,
            "goal": {
                "query": self.goal.query,
                "recipient": self.goal.recipient,
                "sku": self.goal.sku,
            },
            "evidence": [
                {"source": e.source, "doc_id": e.doc_id, "version": e.version}
                for e in self.evidence
            ],
            "approval": {"status": self.approval.status, "by": self.approval.by},
            "effects": dict(self.effects),
            "draft": self.draft,
            "review": [{"code": r.code, "detail": r.detail} for r in self.review],
            "original": copy.deepcopy(self.original),
        }

    def to_json(self) -> str:
        """Canonical JSON text (sorted keys): equal checkpoints give equal text."""
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> Checkpoint:
        """Build from a *latest-version* dict; older versions go through :func:`load`."""
        d = validate(raw)
        if d["schema_version"] != LATEST_VERSION:
            raise CheckpointError(
                f"checkpoint schema_version {d['schema_version']} is not the latest "
                f"({LATEST_VERSION}); use simlab.agent.checkpoint.load to migrate it",
                field="schema_version",
                version=d["schema_version"],
            )
        g = d["goal"]
        return cls(
            graph_version=d["graph_version"],
            tenant=d["tenant"],
            task_id=d["task_id"],
            goal=Goal(g["query"], g["recipient"], g["sku"]),
            status=d["status"],
            next_step=d["next_step"],
            evidence=tuple(
                EvidenceRef(e["source"], e["doc_id"], e["version"]) for e in d["evidence"]
            ),
            approval=Approval(d["approval"]["status"], d["approval"]["by"]),
            effects=dict(d["effects"]),
            draft=d["draft"],
            review=tuple(StopReason(r["code"], r["detail"]) for r in d["review"]),
            original=copy.deepcopy(d["original"]),
        )

    @classmethod
    def from_json(cls, text: str | bytes) -> Checkpoint:
        return cls.from_dict(_parse_json(text))

    # -- transitions (each returns a new checkpoint) ----------------------------------------
    def with_effect(self, key: str, status: str) -> Checkpoint:
        """A copy with the side effect ``key`` in ``status``."""
        if status not in EFFECT_STATUSES:
            raise ValueError(f"unknown effect status {status!r}")
        return replace(self, effects={**self.effects, key: status})

    def stopped(self, reasons: tuple[StopReason, ...] | list[StopReason]) -> Checkpoint:
        """A copy stopped for review with ``reasons`` (at least one); nothing else changes, so
        a reviewer sees exactly where the task stood."""
        reasons = tuple(reasons)
        if not reasons:
            raise ValueError("a stopped checkpoint needs at least one reason")
        return replace(self, status=NEEDS_REVIEW, review=reasons)

    def cleared(self) -> Checkpoint:
        """A copy back to running with no review reasons (after a reviewer re-queued it)."""
        return replace(self, status=RUNNING, review=())


@dataclass(frozen=True, slots=True)
class Loaded:
    """What :func:`load` returns: the migrated record and the untouched input beside it."""

    checkpoint: Checkpoint
    original: dict[str, Any]
    from_version: int

    @property
    def migrated(self) -> bool:
        return self.from_version != LATEST_VERSION


# -- loading --------------------------------------------------------------------------------------


def load(text_or_dict: str | bytes | Mapping[str, Any]) -> Loaded:
    """Parse, validate and migrate a stored checkpoint; never changes its input.

    Accepts JSON text or an already parsed dict, of any known version. The result carries the
    latest :class:`Checkpoint` and a deep copy of the input (``original``). A migrated
    checkpoint also keeps that copy in its own ``original`` field, so saving it back stores the
    old record beside the new one; a record that already carries an ``original`` keeps it.
    Raises :class:`CheckpointError` naming the field or version.
    """
    if isinstance(text_or_dict, (str, bytes, bytearray)):
        raw = _parse_json(text_or_dict)
    elif isinstance(text_or_dict, Mapping):
        raw = text_or_dict
    else:
        raise CheckpointError(
            f"checkpoint must be a JSON object (or its JSON text), got {type_name(text_or_dict)}"
        )
    original = copy.deepcopy(dict(raw))
    latest = migrate(raw)
    version = original["schema_version"]
    if version != LATEST_VERSION and latest["original"] is None:
        latest["original"] = copy.deepcopy(original)
    return Loaded(Checkpoint.from_dict(latest), original, version)


def migrate(raw: dict) -> dict:
    """Upgrade a raw checkpoint dict of any known version to the latest layout.

    Pure: ``raw`` is never changed and the result shares no containers with it. Each version is
    validated before its migration runs and the result is validated again, so a bad record
    fails with :class:`CheckpointError` naming the field. A newer or unknown ``schema_version``
    is refused: reading it with this code's field meanings would silently misread it.
    """
    d = validate(raw)
    version = d["schema_version"]
    while version < LATEST_VERSION:
        d = validate(MIGRATIONS[version](d))
        version = d["schema_version"]
    # Migrations build fresh dicts, but a latest-version input passes through untouched:
    # copy it so the caller's dict and the result never share a container.
    return copy.deepcopy(d)


def _parse_json(text: str | bytes | bytearray) -> dict[str, Any]:
    try:
        raw = json.loads(text)
    except (ValueError, UnicodeDecodeError) as exc:
        raise CheckpointError(f"checkpoint is not valid JSON: {exc}") from None
    if not isinstance(raw, dict):
        raise CheckpointError(f"checkpoint must be a JSON object, got {type_name(raw)}")
    return raw
