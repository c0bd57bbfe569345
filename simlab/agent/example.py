"""The example world used by the tests, the regression corpus, notebook 07 and the simulator.

Two tenants share a public knowledge base; ``acme`` also reads its internal collection, and
``globex`` mails only with a human approval. Documents start at different versions on purpose,
so a citation such as ``kb/returns@v3`` is visibly a version, not a counter. The corpus of old
checkpoints in ``simlab/grading/checks/checkpoints/corpus`` cites exactly these versions: change
them and the corpus stops describing this world.
"""

from __future__ import annotations

from simlab.agent.world import TOOLS, Document, Grant, World

__all__ = ["example_world", "example_goals"]


def example_world() -> World:
    """A fresh example world (every call returns a new, independent one)."""
    return World(
        documents=[
            Document(
                "kb/returns",
                3,
                "Returns are accepted within 30 days of delivery. "
                "Refunds are paid within 5 business days.",
                "public",
            ),
            Document(
                "kb/warranty",
                2,
                "Every blender has a two year warranty. Repairs are free during the warranty.",
                "public",
            ),
            Document(
                "kb/shipping",
                1,
                "Orders ship within 2 days. Express shipping costs 9 euros.",
                "public",
            ),
            Document(
                "acme/vip-returns",
                1,
                "VIP customers may return a blender within 60 days. Ask a manager first.",
                "acme-internal",
            ),
        ],
        grants=[
            Grant("acme", 1, frozenset({"public", "acme-internal"}), TOOLS),
            Grant("globex", 1, frozenset({"public"}), TOOLS),
        ],
        stock={"blender-01": 12, "kettle-02": 0},
        approval_required=["globex"],
    )


def example_goals() -> dict[str, tuple[str, dict]]:
    """Example tasks: task_id -> (tenant, goal)."""
    return {
        "ask-returns": (
            "acme",
            {
                "query": "How many days do I have to return a blender?",
                "recipient": "ana@example.com",
                "sku": "blender-01",
            },
        ),
        "ask-warranty": (
            "globex",
            {"query": "Is there a warranty on the blender?", "recipient": "bo@example.com"},
        ),
        "ask-shipping": (
            "acme",
            {"query": "How fast do orders ship?", "recipient": "cy@example.com"},
        ),
    }
