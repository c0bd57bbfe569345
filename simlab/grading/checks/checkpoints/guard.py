"""Question ``resume-guard``: the learner's ``resume_guard(checkpoint, world)`` (plain dicts)
against the kit's :func:`simlab.agent.guard.resume_guard`, for checkpoints of every example task
at every graph position, in worlds changed one way (:data:`CHANGES`) and two ways at once."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from simlab.agent.checkpoint import Checkpoint
from simlab.agent.example import example_goals, example_world
from simlab.agent.guard import resume_guard as reference_guard
from simlab.agent.resume import run_step
from simlab.agent.steps import new_checkpoint
from simlab.agent.world import World
from simlab.grading.questions import Tally, require
from simlab.grading.student import Student, kind_of
from simlab.ledger.memory import MemoryLedger

__all__ = ["POSITIONS", "CHANGES", "checkpoints_at", "reference_codes", "resume_guard_check"]

#: Graph positions of a checkpoint, in order.
POSITIONS = ("retrieve", "draft", "send", "done")


def checkpoints_at() -> dict[tuple[str, str], dict]:
    """A checkpoint dict for every example task at every graph position, written by running
    the agent in the unchanged example world."""
    world = example_world()
    ledger = MemoryLedger(clock=lambda: 0.0)
    out = {}
    for task, (tenant, goal) in example_goals().items():
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


def _regrant(
    *, lose_collection: str | None = None, lose_tool: Callable[[dict], str | None] = lambda cp: None
) -> Callable[[dict, dict], dict]:
    """Give the checkpoint's tenant a new grant version without one collection or one tool."""

    def change(world: World, cp: dict) -> None:
        old = world.grant_for(cp["tenant"])
        if old is None or old.revoked:  # nothing left to lose
            return
        world.grant(
            cp["tenant"], set(old.collections) - {lose_collection}, set(old.tools) - {lose_tool(cp)}
        )

    return _on_world(change)


def _drop_grant(world: dict, cp: dict) -> dict:
    return {**world, "grants": [g for g in world["grants"] if g["tenant"] != cp["tenant"]]}


def _always(cp: dict) -> bool:  # noqa: ARG001 - every checkpoint
    return True


#: Ways the world changes under a paused task: name -> (applies to this checkpoint?, change).
#: A change maps a world dict to a new world dict; changes compose one after the other.
CHANGES: dict[str, tuple[Callable[[dict], bool], Callable[[dict, dict], dict]]] = {
    "the tenant's permission was revoked": (
        _always,
        _on_world(lambda w, cp: w.revoke(cp["tenant"])),
    ),
    "the tenant has no grant at all": (_always, _drop_grant),
    "a cited document was edited": (
        lambda cp: _first_cited(cp) is not None,
        _on_world(lambda w, cp: w.publish(_first_cited(cp), "Edited.")),
    ),
    "the cited stock figure changed": (
        lambda cp: _first_cited(cp, "inventory-api") is not None,
        _on_world(lambda w, cp: w.set_stock(_first_cited(cp, "inventory-api"), 3)),
    ),
    "a cited document was withdrawn": (
        lambda cp: _first_cited(cp) is not None,
        _on_world(lambda w, cp: w.withdraw(_first_cited(cp))),
    ),
    "the tenant may no longer read internal documents": (
        _always,
        _regrant(lose_collection="acme-internal"),
    ),
    "the tenant lost the inventory tool": (_always, _regrant(lose_tool=lambda cp: "inventory")),
    "the next step's tool is no longer deployed": (
        lambda cp: _needed(cp) is not None,
        _on_world(lambda w, cp: w.remove_tool(_needed(cp))),
    ),
    "the next step's tool is no longer granted": (
        lambda cp: _needed(cp) is not None,
        _regrant(lose_tool=_needed),
    ),
}


def resume_guard_check(s: Student, t: Tally) -> None:
    guard = s.function("resume_guard")
    checkpoints = checkpoints_at()
    unchanged = example_world().to_dict()

    def agrees(cp: dict, world: dict, what: str) -> None:
        answer = guard(copy.deepcopy(cp), copy.deepcopy(world))
        require(
            isinstance(answer, list),
            f"resume_guard() returned {kind_of(answer)}, expected a list of stop codes",
        )
        require(
            all(isinstance(code, str) for code in answer),
            "resume_guard() must return stop codes (strings)",
        )
        require(
            len(answer) == len(set(answer)),
            f"{what}: resume_guard() returned {answer}; list each code once",
        )
        truth = reference_codes(cp, world)
        require(
            sorted(answer) == truth,
            f"{what}: resume_guard() returned {sorted(answer)}, expected {truth}",
        )

    def under(*changes: str, positions: tuple[str, ...] = POSITIONS) -> None:
        for (task, position), cp in checkpoints.items():
            if position not in positions or not all(CHANGES[c][0](cp) for c in changes):
                continue
            world = unchanged
            for change in changes:
                world = CHANGES[change][1](world, cp)
            agrees(cp, world, f"{' and '.join(changes)}, task {task} at {position!r}")

    @t.part
    def unchanged_passes_and_revoked_stops():
        under()
        under("the tenant's permission was revoked")

    @t.part
    def other_losses_of_permission():
        under("the tenant has no grant at all")
        under("the next step's tool is no longer granted")

    @t.part
    def cited_versions_changed():
        under("a cited document was edited")
        under("the cited stock figure changed")

    @t.part
    def documents_missing_or_forbidden():
        under("a cited document was withdrawn")
        under("the tenant may no longer read internal documents")
        under("the tenant lost the inventory tool")

    @t.part
    def tools_no_longer_deployed():
        under("the next step's tool is no longer deployed")

    @t.part
    def several_changes_at_once():
        names = list(CHANGES)
        for i, first in enumerate(names):
            for second in names[i + 1 :]:
                under(first, second, positions=("draft", "send"))
