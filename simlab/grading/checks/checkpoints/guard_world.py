"""The grader's own world of question ``resume-guard``
(:mod:`~simlab.grading.checks.checkpoints.guard` judges the learner's guard in it): the example
world with every name and version drawn anew
from :func:`~simlab.grading.checks.hidden_world.rng`, a checkpoint of each of its tasks at every
graph position, each task once more with another status than ``running``, and the checkpoint
before retrieval whose goal's SKU is false but not None."""

from __future__ import annotations

from simlab.agent.checkpoint import validate
from simlab.agent.example import example_goals, example_world
from simlab.agent.world import TOOLS, Document, Grant, World
from simlab.grading.checks.checkpoints.changes import (
    MORE_CHANGES,
    POSITIONS,
    UNCHANGED,
    case_of,
    changed,
    checkpoints_at,
)
from simlab.grading.checks.hidden_world import look_alikes, rng

__all__ = [
    "WORLD_TENANTS",
    "WORLD_NAMES",
    "drawn_world",
    "OTHER_STATUSES",
    "not_running",
    "FALSY_SKU",
    "FALSY_SKU_CHANGES",
    "falsy_sku_cases",
]


#: The names a world of the grader's own draws its tenants, task IDs and SKUs from (none is a
#: name the notebook shows); feedback never quotes one (the question's ``hidden``). Each tenant
#: holds a composed accent after its first letter, so its decomposed form (NFC composes it
#: again) is another tenant of the world, as are its internal collection's and its documents'
#: (the first letter stays ASCII: its full-width form is another look-alike).
WORLD_TENANTS = ("umbrélla", "hoolï", "vandélay", "wönka", "tyréll", "soylènt", "initrôde")
_TASK_WORDS = ("refund-query", "order-status", "repair-ask", "late-parcel", "price-check")
_SKUS = ("mixer", "toaster", "juicer", "grinder")
WORLD_NAMES = frozenset(
    (*WORLD_TENANTS, *(t for n in WORLD_TENANTS for t in look_alikes(n)), *_TASK_WORDS, *_SKUS)
)


def _holding(name: str) -> str:
    """A name that holds ``name`` (a tool, collection or tenant beside the real one)."""
    return f"{name}-v2"


def drawn_world() -> tuple[dict, dict[tuple[int, str], dict]]:
    """The world of this grading, drawn from :func:`~simlab.grading.checks.hidden_world.rng`,
    as a dict, and a checkpoint dict of each of its tasks at every graph position, keyed by
    (task number from 1, position), so feedback never names a drawn task.

    It is the example world with every name and version the notebook shows drawn anew: the
    two tenants, each beside its look-alikes
    (:func:`~simlab.grading.checks.hidden_world.look_alikes`, live grants to the public
    collection and the real tools), a tenant whose name it holds (listed before it) and two
    whose names hold its name (one sorting before it, one after), these with live grants to
    everything; the internal
    collection ``<tenant>-internal`` granted beside collections whose names hold it or are held
    by it; every document, stock figure and grant at a drawn version; tools whose names hold a
    real tool's name deployed and granted beside the real ones; drawn task IDs and SKUs; once
    the checkpoints are written, a public document whose ID is the SKU, at the stock figure's
    version, and beside each other document two whose IDs hold its ID (one beginning with it,
    one ending with it); and beside each document, collection granted, tool granted and
    deployed, and stock figure, its look-alikes (the documents and figures at version 1). A
    guard that finds a grant, a collection, a tool or a document by prefix or substring, or a
    grant, a document, a collection, a tool or a stock figure by its name folded, stripped or
    normalised, reads
    versions from anywhere but ``world`` or the checkpoint given (or a stock figure's from a
    document), or knows the example's tasks, goes wrong in it.
    """
    r = rng("checkpoints/resume-guard")
    acme, globex = r.sample(WORLD_TENANTS, 2)
    renamed = {"acme": acme, "globex": globex}
    sku = f"{r.choice(_SKUS)}-{r.randint(10, 99)}"
    # Tools whose names hold a real one's, and its look-alikes (granted and deployed): a guard
    # that finds a tool by part of its name, or with capitals folded, white space stripped or
    # the name normalised, still finds one once the real tool is removed or no longer granted.
    tools = TOOLS | {_holding(t) for t in TOOLS} | {a for t in TOOLS for a in look_alikes(t)}
    example = example_world()
    grants = []
    for old, new in renamed.items():
        scope = {c.replace(old, new) for c in example.grant_for(old).collections}
        # The look-alikes of each collection granted too: one left once the real one is not.
        scope |= {a for c in set(scope) for a in look_alikes(c)}
        scope |= {new, _holding(f"{new}-internal")}  # names that hold or are held by one
        wide = frozenset({"public", f"{new}-internal", *scope})
        # A tenant whose name the real one holds, listed before it: a guard that takes the
        # first grant whose tenant begins the checkpoint's tenant finds this live grant.
        grants.append(Grant(new[:-2], r.randint(1, 9), wide, tools))
        # Names are exact: no look-alike's live grant is its, also once its own is gone (a
        # small scope keeps the world small: a guard that takes one for its own still errs).
        for twin in look_alikes(new):
            grants.append(Grant(twin, r.randint(1, 9), frozenset({"public"}), TOOLS))
        grants.append(Grant(new, r.randint(2, 9), frozenset(scope), tools))
        for decoy in (f"{new[0]}-{new}", f"{new}-labs"):  # sorts before it, and after
            grants.append(Grant(decoy, r.randint(1, 9), wide, tools))
    world = World(
        documents=[
            Document(
                d.doc_id.replace("acme", acme),
                # never the example's, and above 256 (no shared int: `is` tells them apart)
                r.randint(300, 9999),
                d.text,
                d.collection.replace("acme", acme),
            )
            for d in example.documents()
        ],
        grants=grants,
        tools=tools,
        stock={sku if name == "blender-01" else name: 12 for name in ("blender-01", "kettle-02")},
        approval_required=[globex],
    )
    for _ in range(r.randint(1, 4)):
        world.set_stock(sku, 12)
    words = r.sample(_TASK_WORDS, len(example_goals()))
    goals = {}
    for word, (tenant, goal) in zip(words, example_goals().values(), strict=True):
        if "sku" in goal:
            goal = {**goal, "sku": sku}
        goals[f"{word}-{r.randint(10, 99)}"] = (renamed[tenant], goal)
    written = checkpoints_at(world, goals)
    # Published once the tasks have cited what they cite: a product sheet whose ID is the SKU,
    # at the stock figure's version. A stock figure's version is read from the stock figures
    # only; a guard that falls back on a document of the same ID misses a withdrawn figure.
    for _ in range(world.stock(sku)[1]):
        world.publish(sku, "The product sheet of this model.", "public")
    # Beside every document the tasks may cite, in its collection, one whose ID begins with
    # its ID and one whose ID ends with it: a guard that finds a cited document by a part of
    # its ID still finds one once the cited document is withdrawn.
    # Its look-alikes too (other capitals, white space, Unicode form), at version 1 (never a
    # cited one): a guard that folds, strips or normalises IDs finds one in its stead.
    for doc in [d for d in world.documents() if d.doc_id != sku]:
        for other in (_holding(doc.doc_id), f"archive/{doc.doc_id}", *look_alikes(doc.doc_id)):
            world.publish(other, "An older copy of this page.", doc.collection)
    # Stock figures under the look-alikes of each stock ID, at version 1 (the cited SKU's is
    # above it): a withdrawn figure is not found under another capital or white space.
    for name in [name for name, _ in world.to_dict()["stock"].items()]:
        for other in look_alikes(name):
            world.set_stock(other, 12)
    number = {task: n for n, task in enumerate(goals, 1)}
    world.approvals.clear()
    return world.to_dict(), {(number[t], p): cp for (t, p), cp in written.items()}


#: The statuses a checkpoint before its last step may hold besides ``running``: stopped for
#: review (:mod:`simlab.agent.review`), or ``completed`` (a v1 record could say so at any
#: step, and its migration keeps it). Only a next step ``done`` exempts a checkpoint.
OTHER_STATUSES = ("needs_review", "completed")


def not_running(in_world: dict[tuple[int, str], dict]) -> dict[tuple[int, str], dict]:
    """Each task of the drawn world (``in_world``, of :func:`drawn_world`) once more, at a
    position before the last drawn from :func:`~simlab.grading.checks.hidden_world.rng`, with
    a status of :data:`OTHER_STATUSES` (each in every world; a task stopped for review says
    why, as a valid record must). The kit's guard judges them as it judges a running one."""
    r = rng("checkpoints/resume-guard-status")
    tasks = sorted({n for n, _ in in_world})
    statuses = [*OTHER_STATUSES, *(r.choice(OTHER_STATUSES) for _ in tasks[2:])]
    r.shuffle(statuses)
    out = {}
    for n, status in zip(tasks, statuses, strict=True):
        position = r.choice(POSITIONS[:-1])
        cp = {**in_world[(n, position)], "status": status, "review": []}
        if status == "needs_review":
            code = r.choice(("document-changed", "permission-revoked", "tool-missing"))
            cp["review"] = [{"code": code, "detail": "stopped by an earlier check"}]
        validate(cp)  # a record the kit refuses would be a bug of this module
        out[(n, position)] = cp
    return out


#: The SKU of one more checkpoint of the grader's own world (:func:`falsy_sku_cases`): false
#: but not None, so its retrieve step needs the inventory tool as any SKU's does.
FALSY_SKU = ""
#: The changes that checkpoint is judged under besides none: each takes the inventory tool
#: from its retrieve step, which the kit's guard then stops (a guard that tests the SKU for
#: truth, not for None, lets it go on).
FALSY_SKU_CHANGES = ("inventory tool no longer granted", "inventory tool removed")


def falsy_sku_cases(world: dict, in_world: dict[tuple[int, str], dict]) -> tuple:
    """``(task number, change label, case)`` for the checkpoint before retrieval of the drawn
    world's task with a SKU (``world`` and ``in_world`` of :func:`drawn_world`), its goal's SKU
    :data:`FALSY_SKU`, in ``world`` unchanged and under each of :data:`FALSY_SKU_CHANGES`."""
    n, cp = next(
        (n, cp)
        for (n, position), cp in sorted(in_world.items())
        if position == POSITIONS[0] and cp["goal"]["sku"] is not None
    )
    cp = {**cp, "goal": {**cp["goal"], "sku": FALSY_SKU}}
    validate(cp)  # a record the kit refuses would be a bug of this module
    out = [(n, UNCHANGED, case_of(cp, world))]
    for label in FALSY_SKU_CHANGES:
        made = World.from_dict(world)
        if label in MORE_CHANGES and not MORE_CHANGES[label][0](made, cp):
            raise RuntimeError(f"the drawn world cannot be changed: {label}")
        out.append((n, label, case_of(cp, changed(label, made, cp).to_dict())))
    return tuple(out)
