"""A small, deterministic agent whose steps flow through checkpoints (no LLM, no network).

Modules, along the path of one task: ``world`` (documents, grants, tools, stock, approvals, the
mail server) -> ``retrieval`` (permission filter before ranking, re-verification, a versioned
cache key) and ``business`` (exact facts from an authorized API) -> ``fakemodel`` (deterministic
answers and token counts) -> ``graph`` and ``steps`` (retrieve -> draft -> send, each a pure
function of checkpoint and world) -> ``events`` (numbered, versioned, keyed; duplicates and
reordering absorbed). :mod:`simlab.agent.resume` runs these steps against a ledger, after the
resume guard (:mod:`simlab.agent.guard`) re-checks each checkpoint against the world.
"""

from simlab.agent.business import Fact, InventoryAPI
from simlab.agent.events import EVENT_VERSION, AgentEvent, EventAbsorber
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
]
