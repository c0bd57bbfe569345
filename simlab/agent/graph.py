"""The agent graph: which steps exist, in which order, and which tools each one needs.

A checkpoint names its ``graph_version``; the resume guard refuses a graph this code does not
know, and checks that every tool the *next* step needs is still deployed and granted.
"""

from __future__ import annotations

from dataclasses import dataclass

from simlab.agent.checkpoint import Checkpoint

__all__ = ["GRAPH_VERSION", "Graph", "GRAPHS", "tools_needed"]

GRAPH_VERSION = "answer-email/1"


@dataclass(frozen=True, slots=True)
class Graph:
    """Steps in order (``done`` follows the last) and the tools each step calls."""

    version: str
    steps: tuple[str, ...]
    tools: dict[str, frozenset[str]]

    def after(self, step: str) -> str:
        i = self.steps.index(step)
        return self.steps[i + 1] if i + 1 < len(self.steps) else "done"


GRAPHS: dict[str, Graph] = {
    GRAPH_VERSION: Graph(
        GRAPH_VERSION,
        ("retrieve", "draft", "send"),
        {
            "retrieve": frozenset({"search"}),
            "draft": frozenset({"model"}),
            "send": frozenset({"email"}),
        },
    ),
}


def tools_needed(checkpoint: Checkpoint) -> frozenset[str]:
    """The tools the checkpoint's next step will call (none once done).

    ``retrieve`` also needs ``inventory`` when the goal asks for an exact stock figure.
    Raises ``KeyError`` for an unknown graph or step (the guard checks those first).
    """
    if checkpoint.next_step == "done":
        return frozenset()
    graph = GRAPHS[checkpoint.graph_version]
    tools = graph.tools[checkpoint.next_step]
    if checkpoint.next_step == "retrieve" and checkpoint.goal.sku is not None:
        tools = tools | {"inventory"}
    return tools
