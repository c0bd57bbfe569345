"""Tasks stopped for review: list them, and let a human put one back to work.

A stop (see :mod:`simlab.agent.resume`) leaves the task ``cancelled`` in the ledger with a
checkpoint whose ``status`` is ``needs_review`` and whose ``review`` lists the reasons, each with a
stable code. :func:`needs_review` is the query; :func:`reopen` is the human's decision. Only a
person clears a review: a worker that finds ``needs_review`` stops again.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from simlab.agent.checkpoint import NEEDS_REVIEW, Approval, CheckpointError, StopReason, load
from simlab.records import RUNNING, Lease

__all__ = ["ReviewItem", "needs_review", "reopen"]


@dataclass(frozen=True, slots=True)
class ReviewItem:
    """A task waiting for a human: where it stopped and why."""

    task_id: str
    tenant: str
    ledger_status: str
    next_step: str
    reasons: tuple[StopReason, ...]

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(r.code for r in self.reasons)


def needs_review(ledger: Any) -> list[ReviewItem]:
    """Every task whose stored checkpoint says ``needs_review``, in submit order.

    The ledger status is ``cancelled`` once the stop finished (``running`` only if a worker died
    between the two moves of a stop). Unreadable checkpoints are not listed.
    """
    items = []
    for rec in ledger.tasks():
        raw = rec.checkpoint
        if not isinstance(raw, Mapping) or raw.get("status") != NEEDS_REVIEW:
            continue
        try:
            cp = load(raw).checkpoint
        except CheckpointError:
            continue
        items.append(ReviewItem(rec.task_id, rec.tenant, rec.status, cp.next_step, cp.review))
    return items


def reopen(ledger: Any, task_id: str, *, reviewer: str, ttl: float, rewind: bool = False) -> Lease:
    """A reviewer's decision: put a stopped task back to work, and return the reviewer's lease.

    Re-queues the task, claims it, and saves its checkpoint back to ``running`` without review
    reasons. With ``rewind=True`` the task also forgets its evidence, draft and approval and
    restarts at ``retrieve`` (for a cited document that changed); that is refused once its
    e-mail may have left (an effect ``sent``, ``unknown`` or ``pending``). The guard still runs
    before the next step, so a cause that persists stops the task again.

    ``ValueError`` if the task is not waiting for review or cannot be rewound; ledger errors
    (``LeaseHeld``...) propagate.
    """
    record = ledger.get(task_id)
    cp = load(record.checkpoint).checkpoint if record.checkpoint is not None else None
    if cp is None or cp.status != NEEDS_REVIEW:
        raise ValueError(f"task {task_id!r} is not waiting for review")
    new = cp.cleared()
    if rewind:
        if cp.effects:
            raise ValueError(
                f"task {task_id!r} cannot be rewound: its e-mail may have left "
                f"({', '.join(f'{k}={v}' for k, v in sorted(cp.effects.items()))})"
            )
        new = replace(new, next_step="retrieve", evidence=(), draft=None, approval=Approval())
    if record.status != RUNNING:
        ledger.requeue(task_id)
    lease = ledger.claim(task_id, reviewer, ttl)
    if not ledger.save(lease, lease.step + 1, checkpoint=new.to_dict()):
        raise ValueError(f"task {task_id!r} changed while it was being reopened")
    return replace(lease, step=lease.step + 1, checkpoint=new.to_dict())
