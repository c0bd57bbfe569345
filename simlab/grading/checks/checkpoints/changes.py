"""How the world changes under a paused task, for question ``resume-guard``: the checkpoints of
every example task at every graph position, the kit's codes for them, and the changes a hidden
check makes to the world (:data:`CHANGES`, one at a time or two at once, and the generated ones
the properties draw from)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from simlab.agent.checkpoint import Checkpoint
from simlab.agent.example import example_goals, example_world
from simlab.agent.guard import resume_guard as reference_guard
from simlab.agent.resume import run_step
from simlab.agent.steps import new_checkpoint
from simlab.agent.world import World
from simlab.grading.checks.checkpoints.messages import say
from simlab.grading.messages import Message
from simlab.grading.properties import st
from simlab.ledger.memory import MemoryLedger

__all__ = [
    "POSITIONS",
    "UNCHANGED",
    "CHANGES",
    "CHANGE_PAIRS",
    "PAIR_POSITIONS",
    "WORLD_CHANGES",
    "REVOKED_AFTER_A_LOSS",
    "CORE_CHANGES",
    "STOPPING",
    "STOCK_CHANGES",
    "EVERY_CHANGE",
    "EXAMPLES",
    "CORE_FIRST",
    "STOCK_FIRST",
    "checkpoints_at",
    "reference_codes",
    "Case",
    "case_of",
    "example_checkpoints",
    "changed_cases",
    "played_case",
    "said_change",
    "where",
    "applies",
    "changed",
    "situations",
]


#: The unchanged world, as :func:`said_change` names it.
UNCHANGED = "nothing changed"
#: Graph positions of a checkpoint, in order.
POSITIONS = ("retrieve", "draft", "send", "done")


def checkpoints_at(
    world: World | None = None, goals: dict[str, tuple[str, dict]] | None = None
) -> dict[tuple[str, str], dict]:
    """A checkpoint dict for every task of ``goals`` (the example tasks) at every graph
    position, written by running the agent in ``world`` (the unchanged example world)."""
    world = example_world() if world is None else world
    ledger = MemoryLedger(clock=lambda: 0.0)
    out = {}
    for task, (tenant, goal) in (example_goals() if goals is None else goals).items():
        world.approve(task, "manager")
        ledger.submit(task, tenant=tenant, goal=goal)
        lease = ledger.claim(task, "grader", ttl=60)
        out[(task, "retrieve")] = new_checkpoint(task, tenant, goal).to_dict()
        for position in POSITIONS[1:]:
            report = run_step(ledger, lease, world)
            if report.action not in ("advanced", "completed"):
                raise RuntimeError(f"{task}: {report.action} {report.reasons}")
            out[(task, position)] = report.checkpoint.to_dict()
            lease = report.lease
    return out


def reference_codes(checkpoint: dict, world: dict) -> list[str]:
    """The kit's guard as distinct stop codes, sorted."""
    verdict = reference_guard(Checkpoint.from_dict(checkpoint), World.from_dict(world))
    return sorted(set(verdict.codes))


@dataclass(frozen=True)
class Case:
    """One situation the learner's guard is asked about (a checkpoint dict in a world dict),
    with the kit's codes for it. Its dicts are never changed once made (a change of the world
    makes new dicts), so a case made once serves every grading that asks about it."""

    cp: dict
    world: dict
    #: The kit's codes (:func:`reference_codes`).
    truth: list[str]
    #: ``repr((cp, world))``: a situation reached by several parts is asked of the learner once.
    key: str


def case_of(cp: dict, world: dict) -> Case:
    """The :class:`Case` of ``cp`` in ``world``."""
    return Case(cp, world, reference_codes(cp, world), repr((cp, world)))


@lru_cache(maxsize=1)
def example_checkpoints() -> dict[tuple[str, str], dict]:
    """:func:`checkpoints_at` of the example tasks in the example world, written once per
    process (read only: see :class:`Case`)."""
    return checkpoints_at()


@lru_cache(maxsize=1)
def _example_world() -> dict:
    return example_world().to_dict()


@lru_cache(maxsize=256)
def changed_cases(
    changes: tuple[str, ...], positions: tuple[str, ...]
) -> tuple[tuple[str, str, Case], ...]:
    """(task, position, case) of every example checkpoint at ``positions`` that ``changes``
    (of :data:`CHANGES`) apply to, in the example world changed by them one after the other
    (unchanged without changes), in the order of :func:`checkpoints_at`. Made once per
    process: the example world is the same in every grading."""
    out = []
    for (task, position), cp in example_checkpoints().items():
        if position not in positions or not all(CHANGES[c][0](cp) for c in changes):
            continue
        world = _example_world()
        for change in changes:
            world = CHANGES[change][1](world, cp)
        out.append((task, position, case_of(cp, world)))
    return tuple(out)


@lru_cache(maxsize=4096)
def played_case(
    task: str, position: str, labels: tuple[str, ...]
) -> tuple[Case, tuple[Message, ...], int]:
    """A generated situation: the example checkpoint of ``task`` at ``position`` in the
    example world changed by each of ``labels`` that can still be made (:func:`applies`), the
    moves of its story (where, then each change made, or :data:`UNCHANGED`) and how many
    changes were made. Made once per process and situation, like :func:`changed_cases`."""
    cp = example_checkpoints()[(task, position)]
    moves = [say("at", task=task, position=repr(position))]
    world, made = World.from_dict(_example_world()), 0
    for label in labels:
        if applies(label, world, cp):
            world = changed(label, world, cp)
            moves.append(said_change(label))
            made += 1
    if not made:
        moves.append(said_change(UNCHANGED))
    return case_of(cp, world.to_dict()), tuple(moves), made


def _first_cited(cp: dict, source: str = "retrieval") -> str | None:
    return next((e["doc_id"] for e in cp["evidence"] if e["source"] == source), None)


def _needed(cp: dict) -> str | None:
    """A tool the checkpoint's next step needs (None when done)."""
    return {"retrieve": "search", "draft": "model", "send": "email"}.get(cp["next_step"])


def _on_world(change: Callable[[World, dict], Any]) -> Callable[[dict, dict], dict]:
    """A change written against :class:`World`, applied to a world dict (a new dict)."""

    def apply(world: dict, cp: dict) -> dict:
        w = World.from_dict(world)
        change(w, cp)
        return w.to_dict()

    return apply


def _nothing(cp: dict) -> None:  # noqa: ARG001 - loses nothing
    return None


def _internal(cp: dict) -> str:
    """The collection of the checkpoint's tenant's internal documents."""
    return f"{cp['tenant']}-internal"


def _regrant(
    *,
    lose_collection: Callable[[dict], str | None] = _nothing,
    lose_tool: Callable[[dict], str | None] = _nothing,
) -> Callable[[dict, dict], dict]:
    """Give the checkpoint's tenant a new grant version without one collection or one tool
    (any other collection or tool, one whose name holds the lost one's included, stays)."""

    def change(world: World, cp: dict) -> None:
        old = world.grant_for(cp["tenant"])
        if old is None or old.revoked:  # nothing left to lose
            return
        world.grant(
            cp["tenant"],
            set(old.collections) - {lose_collection(cp)},
            set(old.tools) - {lose_tool(cp)},
        )

    return _on_world(change)


def _lose_cited_collection(world: World, cp: dict) -> None:
    """Give the checkpoint's tenant a new grant version without the collection of the first
    document it cites (public or not: any collection the grant holds counts)."""
    doc = world.document(_first_cited(cp) or "")
    old = world.grant_for(cp["tenant"])
    if doc is None or old is None or old.revoked:
        return
    world.grant(cp["tenant"], set(old.collections) - {doc.collection}, set(old.tools))


def _drop_grant(world: dict, cp: dict) -> dict:
    return {**world, "grants": [g for g in world["grants"] if g["tenant"] != cp["tenant"]]}


def _always(cp: dict) -> bool:  # noqa: ARG001 - every checkpoint
    return True


#: Ways the world changes under a paused task: label -> (applies to this checkpoint?, change).
#: A change maps a world dict to a new world dict; changes compose one after the other. The
#: labels are what the feedback says (short, so two fit in one sentence; each one is a message
#: of the exercise's catalog, see :func:`said_change`).
CHANGES: dict[str, tuple[Callable[[dict], bool], Callable[[dict, dict], dict]]] = {
    "grant revoked": (_always, _on_world(lambda w, cp: w.revoke(cp["tenant"]))),
    "no grant left": (_always, _drop_grant),
    "cited document edited": (
        lambda cp: _first_cited(cp) is not None,
        _on_world(lambda w, cp: w.publish(_first_cited(cp), "Edited.")),
    ),
    "cited stock figure changed": (
        lambda cp: _first_cited(cp, "inventory-api") is not None,
        _on_world(lambda w, cp: w.set_stock(_first_cited(cp, "inventory-api"), 3)),
    ),
    "cited document withdrawn": (
        lambda cp: _first_cited(cp) is not None,
        _on_world(lambda w, cp: w.withdraw(_first_cited(cp))),
    ),
    "internal documents no longer granted": (_always, _regrant(lose_collection=_internal)),
    "cited collection no longer granted": (
        lambda cp: _first_cited(cp) is not None,
        _on_world(_lose_cited_collection),
    ),
    "inventory tool no longer granted": (_always, _regrant(lose_tool=lambda cp: "inventory")),
    "next tool removed": (
        lambda cp: _needed(cp) is not None,
        _on_world(lambda w, cp: w.remove_tool(_needed(cp))),
    ),
    "next tool no longer granted": (
        lambda cp: _needed(cp) is not None,
        _regrant(lose_tool=_needed),
    ),
}

#: Every two changes of :data:`CHANGES`, made one after the other.
CHANGE_PAIRS = tuple(
    (first, second) for i, first in enumerate(CHANGES) for second in list(CHANGES)[i + 1 :]
)
#: Where two changes at once are judged. Each pair gives every task the same codes at
#: ``draft`` as at ``send`` (the same documents cited, a next tool of each step), so ``send``
#: alone holds every way two reasons meet; what each position's own next tool does is judged
#: one change at a time, at every position.
PAIR_POSITIONS = ("send",)


def _drop_stock(world: dict, cp: dict) -> dict:
    sku = _first_cited(cp, "inventory-api")
    return {**world, "stock": {k: v for k, v in world["stock"].items() if k != sku}}


def _then(*labels: str) -> Callable[[dict, dict], dict]:
    """The changes ``labels`` of :data:`CHANGES`, made one after the other in this order."""

    def change(world: dict, cp: dict) -> dict:
        for label in labels:
            world = CHANGES[label][1](world, cp)
        return world

    return change


#: The grant loses a collection or a tool a cited item needs, and is then revoked: the order
#: :data:`CHANGE_PAIRS` never makes (a grant revoked first can lose nothing more). The kit's
#: guard says only permission-revoked: document-forbidden applies while the grant stands.
REVOKED_AFTER_A_LOSS = (
    "grant revoked after losing the internal documents",
    "grant revoked after losing the inventory tool",
)

#: Changes made in the grader's drawn world only (never in the example world, and never two of
#: them at once): label -> (applies to this checkpoint?, change), as in :data:`CHANGES`. A stock
#: figure withdrawn while a document of the same ID stays (the drawn world publishes one) no
#: longer exists: its version is read from the stock figures, never from a document.
WORLD_CHANGES: dict[str, tuple[Callable[[dict], bool], Callable[[dict, dict], dict]]] = {
    "cited stock figure withdrawn": (
        lambda cp: _first_cited(cp, "inventory-api") is not None,
        _drop_stock,
    ),
    # Every grant but the checkpoint's tenant's revoked: its own grant decides, no other.
    "other tenants' grants revoked": (_always, _on_world(lambda w, cp: _revoke_others(w, cp))),
    REVOKED_AFTER_A_LOSS[0]: (
        _always,
        _then("internal documents no longer granted", "grant revoked"),
    ),
    REVOKED_AFTER_A_LOSS[1]: (_always, _then("inventory tool no longer granted", "grant revoked")),
}


def _revoke_others(world: World, cp: dict) -> None:
    for grant in world.to_dict()["grants"]:
        if grant["tenant"] != cp["tenant"] and not grant["revoked"]:
            world.revoke(grant["tenant"])


def _other_tool(cp: dict) -> str | None:
    """A tool of another step that the next step does not need (never ``inventory``)."""
    needed = _needed(cp)
    return next((t for t in ("email", "model", "search") if t != needed), None)


def _uncited(cp: dict, world: World) -> str | None:
    cited = {e["doc_id"] for e in cp["evidence"]}
    return next((d.doc_id for d in world.documents() if d.doc_id not in cited), None)


def _live(world: World, cp: dict) -> Any:
    grant = world.grant_for(cp["tenant"])
    return None if grant is None or grant.revoked else grant


def _republish(world: World, cp: dict) -> None:
    doc = world.document(_first_cited(cp) or "")
    world.withdraw(doc.doc_id)
    world.publish(doc.doc_id, "Published again.", doc.collection)


#: More ways the world changes, for the generated properties: label -> (may it happen in
#: this world for this checkpoint?, the change, made on a World). Several of them change
#: nothing the guard should stop for.
MORE_CHANGES: dict[str, tuple[Callable[[World, dict], bool], Callable[[World, dict], Any]]] = {
    "an uncited document edited": (
        lambda w, cp: _uncited(cp, w) is not None,
        lambda w, cp: w.publish(_uncited(cp, w), "Edited."),
    ),
    "a new document published": (
        lambda w, cp: w.document("kb/new-policy") is None,
        lambda w, cp: w.publish("kb/new-policy", "A new policy.", "public"),
    ),
    "grant renewed with the same scope": (
        lambda w, cp: _live(w, cp) is not None,
        lambda w, cp: w.grant(cp["tenant"], _live(w, cp).collections, _live(w, cp).tools),
    ),
    "another step's tool removed": (
        lambda w, cp: _other_tool(cp) in w.tools,
        lambda w, cp: w.remove_tool(_other_tool(cp)),
    ),
    "cited document withdrawn and published again": (
        lambda w, cp: w.document(_first_cited(cp) or "") is not None,
        _republish,
    ),
    "inventory tool removed": (
        lambda w, cp: "inventory" in w.tools,
        lambda w, cp: w.remove_tool("inventory"),
    ),
}


def said_change(label: str) -> Message:
    """The change ``label`` (of :data:`CHANGES`, :data:`WORLD_CHANGES`, :data:`MORE_CHANGES` or
    :data:`UNCHANGED`) as feedback says it: its words are the key of its message."""
    return say(label.replace("'", "").replace(" ", "_"))


def where(task: str, position: str, changes: tuple[str, ...]) -> Message:
    """The task, its position and up to two changes of the world (none: :data:`UNCHANGED`)."""
    if len(changes) == 2:
        first, second = map(said_change, changes)
        return say("at_two", task=task, position=repr(position), first=first, second=second)
    (change,) = changes or (UNCHANGED,)
    return say("at_one", task=task, position=repr(position), change=said_change(change))


def applies(label: str, world: World, cp: dict) -> bool:
    """Can the change ``label`` still be made (a cited document may be gone already)?"""
    if label in MORE_CHANGES:
        return MORE_CHANGES[label][0](world, cp)
    if not CHANGES[label][0](cp):
        return False
    if label.startswith("cited document"):
        return world.document(_first_cited(cp) or "") is not None
    if label == "grant revoked" or label.endswith("no longer granted"):
        return _live(world, cp) is not None
    if label == "next tool removed":
        return _needed(cp) in world.tools
    return True


def changed(label: str, world: World, cp: dict) -> World:
    if label in MORE_CHANGES:
        MORE_CHANGES[label][1](world, cp)
        return world
    return World.from_dict(CHANGES[label][1](world.to_dict(), cp))


#: The changes each generated property draws from. The core's leave stock figures and the
#: inventory tool alone (their own detail), and a finished task out (a detail too).
#: The changes that must stop a task (one at a time), as the core judges them.
STOPPING = (
    "grant revoked",
    "no grant left",
    "cited document edited",
    "cited document withdrawn",
    "internal documents no longer granted",
    "cited collection no longer granted",
    "next tool removed",
    "next tool no longer granted",
)
CORE_CHANGES = (
    *STOPPING,
    "an uncited document edited",
    "a new document published",
    "grant renewed with the same scope",
    "another step's tool removed",
    "cited document withdrawn and published again",
)
STOCK_CHANGES = (
    "cited stock figure changed",
    "inventory tool no longer granted",
    "inventory tool removed",
    "an uncited document edited",
    "grant renewed with the same scope",
)
EVERY_CHANGE = (*CORE_CHANGES, *STOCK_CHANGES[:3])
#: Generated worlds per property (each one call into the sandbox).
EXAMPLES = 20
#: Played first: each change that the scenario checks above never make, where it matters.
CORE_FIRST = [
    (("ask-warranty", "draft"), ["cited document withdrawn and published again"]),
    (("ask-returns", "draft"), ["another step's tool removed"]),
    (("ask-shipping", "send"), ["grant renewed with the same scope", "an uncited document edited"]),
]
STOCK_FIRST = [(("ask-returns", "draft"), ["inventory tool removed"])]


def situations(changes: tuple[str, ...], positions: tuple[str, ...]) -> Any:
    """(task, position, change labels): at most two changes, so a story stays short."""
    keys = sorted(k for k in example_checkpoints() if k[1] in positions)
    return st.tuples(st.sampled_from(keys), st.lists(st.sampled_from(changes), max_size=2))
