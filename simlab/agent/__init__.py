"""A small, deterministic agent whose steps flow through checkpoints (no LLM, no network).

Modules, along the path of one task: ``world`` (documents, grants, tools, stock, approvals, the
mail server) -> ``retrieval`` (permission filter before ranking, re-verification, a versioned
cache key) and ``business`` (exact facts from an authorized API) -> ``fakemodel`` (deterministic
answers and token counts) -> ``graph`` and ``steps`` (retrieve -> draft -> send, each a pure
function of checkpoint and world) -> ``events`` (numbered, versioned, keyed; duplicates and
reordering absorbed). :mod:`simlab.agent.resume` runs these steps against a ledger, after the
resume guard (:mod:`simlab.agent.guard`) re-checks each checkpoint against the world.

The checkpoint's versions and migrations (:mod:`~simlab.agent.checkpoint`; its ``load`` is
served here as ``load_checkpoint``), the resume loop, the review queue and the notebooks'
example world are served from here on first use, so that a notebook imports the agent from one
path.
"""

from simlab.agent.business import Fact, InventoryAPI
from simlab.agent.events import EVENT_VERSION, AgentEvent, EventAbsorber, is_known_version
from simlab.agent.fakemodel import Completion, FakeModel, count_tokens
from simlab.agent.graph import GRAPH_VERSION, GRAPHS, Graph, tools_needed
from simlab.agent.retrieval import Evidence, RetrievalCache, Retriever, cache_key, normalize_query
from simlab.agent.steps import EmailIntent, StepOutcome, email_key, new_checkpoint, step
from simlab.agent.world import (
    INVENTORY_API,
    RETRIEVAL,
    TOOLS,
    Delivery,
    Document,
    Grant,
    MailServer,
    PermissionDenied,
    World,
)
from simlab.lazy import served

__all__ = [
    "World",
    "Document",
    "Grant",
    "PermissionDenied",
    "MailServer",
    "Delivery",
    "RETRIEVAL",
    "INVENTORY_API",
    "TOOLS",
    "Evidence",
    "Retriever",
    "RetrievalCache",
    "cache_key",
    "normalize_query",
    "Fact",
    "InventoryAPI",
    "FakeModel",
    "Completion",
    "count_tokens",
    "GRAPH_VERSION",
    "GRAPHS",
    "Graph",
    "tools_needed",
    "EmailIntent",
    "StepOutcome",
    "new_checkpoint",
    "email_key",
    "step",
    "AgentEvent",
    "EventAbsorber",
    "EVENT_VERSION",
    "is_known_version",
]

#: Served on first use: these modules import the ledger's side of a step, or the agent back.
_SERVED = {
    **dict.fromkeys(
        ("Checkpoint", "CheckpointError", "migrate_v1_to_v2", "migrate_v2_to_v3"),
        "simlab.agent.checkpoint",
    ),
    "load_checkpoint": "simlab.agent.checkpoint:load",
    "at_least_once": "simlab.agent.events",
    "check_live": "simlab.agent.retrieval",
    **dict.fromkeys(("example_world", "example_goals"), "simlab.agent.example"),
    **dict.fromkeys(("plan_step", "commit_plan", "run_step", "run_task"), "simlab.agent.resume"),
    "resume_guard": "simlab.agent.guard",
    **dict.fromkeys(("needs_review", "reopen"), "simlab.agent.review"),
}
__all__ += list(_SERVED)
__getattr__, __dir__ = served("simlab.agent", _SERVED)
