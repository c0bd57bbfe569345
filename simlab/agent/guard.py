"""The resume guard: re-check a checkpoint against the world before its next step runs.

A checkpoint records what a task had seen: the tenant it acts for, the document versions it
cites, the graph whose next step it will run. Time passes between steps (a pause, a crash, a
queue), and the world moves on. Before a claimed task resumes, :func:`resume_guard` re-checks:

* the tenant's permission is not revoked (and still grants the tools the next step needs);
* every cited document or business fact still exists, still has the cited version, and may
  still be read by the tenant;
* the checkpoint's graph is known, and every tool the next step needs still exists.

Every failure becomes a :class:`~simlab.agent.checkpoint.StopReason` with a stable code
(:data:`GUARD_CODES`). The guard is pure: it reads the checkpoint and the world and writes
nothing. The runner that acts on its answer is :mod:`simlab.agent.resume`.
"""

from __future__ import annotations

from dataclasses import dataclass

from simlab.agent.checkpoint import Checkpoint, StopReason
from simlab.agent.graph import GRAPHS, tools_needed
from simlab.agent.world import World

__all__ = [
    "PERMISSION_REVOKED",
    "DOCUMENT_CHANGED",
    "DOCUMENT_MISSING",
    "DOCUMENT_FORBIDDEN",
    "TOOL_MISSING",
    "GRAPH_UNKNOWN",
    "GUARD_CODES",
    "GuardVerdict",
    "resume_guard",
]

PERMISSION_REVOKED = "permission-revoked"
DOCUMENT_CHANGED = "document-changed"
DOCUMENT_MISSING = "document-missing"
DOCUMENT_FORBIDDEN = "document-forbidden"
TOOL_MISSING = "tool-missing"
GRAPH_UNKNOWN = "graph-unknown"
GUARD_CODES = (
    PERMISSION_REVOKED,
    DOCUMENT_CHANGED,
    DOCUMENT_MISSING,
    DOCUMENT_FORBIDDEN,
    TOOL_MISSING,
    GRAPH_UNKNOWN,
)
_EVIDENCE_CODES = frozenset({DOCUMENT_CHANGED, DOCUMENT_MISSING, DOCUMENT_FORBIDDEN})


@dataclass(frozen=True, slots=True)
class GuardVerdict:
    """The guard's answer: ``ok`` when there is no reason to stop."""

    reasons: tuple[StopReason, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.reasons

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(r.code for r in self.reasons)


def resume_guard(checkpoint: Checkpoint, world: World) -> GuardVerdict:
    """Re-check a checkpoint against the world before its next step runs. Pure: reads only.

    Returns every reason to stop, in a fixed order (graph, permission, evidence in citation
    order, tools by name), so a reviewer sees all of them at once. A checkpoint whose next step
    is ``done`` has nothing left to run and passes.
    """
    cp = checkpoint
    if cp.next_step == "done":
        return GuardVerdict()
    reasons: list[StopReason] = []
    graph = GRAPHS.get(cp.graph_version)
    if graph is None:
        reasons.append(StopReason(GRAPH_UNKNOWN, f"graph {cp.graph_version!r} is not deployed"))
    elif cp.next_step not in graph.steps:
        reasons.append(
            StopReason(GRAPH_UNKNOWN, f"graph {cp.graph_version!r} has no step {cp.next_step!r}")
        )
    grant = world.grant_for(cp.tenant)
    permitted = grant is not None and not grant.revoked
    if not permitted:
        reasons.append(
            StopReason(PERMISSION_REVOKED, f"tenant {cp.tenant!r} no longer has permission")
        )
    for ref in cp.evidence:
        current = world.current_version(ref.source, ref.doc_id)
        if current is None:
            reasons.append(
                StopReason(
                    DOCUMENT_MISSING, f"{ref.doc_id} (cited at v{ref.version}) no longer exists"
                )
            )
        elif current != ref.version:
            reasons.append(
                StopReason(
                    DOCUMENT_CHANGED,
                    f"{ref.doc_id} was cited at v{ref.version} and is now v{current}",
                )
            )
        elif permitted and not world.readable(cp.tenant, ref.source, ref.doc_id):
            reasons.append(
                StopReason(
                    DOCUMENT_FORBIDDEN, f"tenant {cp.tenant!r} may no longer read {ref.doc_id}"
                )
            )
    if reasons and reasons[0].code == GRAPH_UNKNOWN:
        return GuardVerdict(tuple(reasons))
    needed = tools_needed(cp)
    for tool in sorted(needed - world.tools):
        reasons.append(
            StopReason(
                TOOL_MISSING, f"tool {tool!r} needed by step {cp.next_step!r} no longer exists"
            )
        )
    if permitted:
        for tool in sorted(needed - grant.tools):
            reasons.append(
                StopReason(
                    PERMISSION_REVOKED,
                    f"tool {tool!r} is no longer granted to tenant {cp.tenant!r}",
                )
            )
    return GuardVerdict(tuple(reasons))
