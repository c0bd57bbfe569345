"""Question ``narrowing`` of exercise ``events``: ``is_narrowing(parent, child)`` (grants as
dicts) against the kit's own definition, :meth:`simlab.agent.Grant.narrow`: ``child`` is a
narrowing of ``parent`` exactly when ``parent.narrow(...)`` could have produced it. Hostile
grants: another tenant, another version, a revoked parent or child, an extra tool with fewer
collections, sets of the same size but other members, names differing only in case, repeated
names (with and without a name the parent lacks). Beside them, each criterion has a property on
generated pairs of grants (:mod:`~simlab.grading.checks.events.grants`), whose shortest
counterexample is the feedback.

The parts are filed under :data:`NARROWING_RUBRIC`: the core idea (the child is a subset on
every dimension, as sets of exact names) weighs 3 of 5 points; reading lists as sets 2. Feedback
names the kind of child grant and the learner's verdict, never the grant itself.
"""

from __future__ import annotations

import copy
from typing import Any

from simlab.agent.world import Grant, PermissionDenied
from simlab.grading.checks.events.grants import falsify_narrowing, not_bool
from simlab.grading.checks.events.messages import say
from simlab.grading.questions import Criterion, Tally, require
from simlab.grading.student import Student

__all__ = ["CHILDREN", "NARROWING_RUBRIC", "PARENT", "narrowing_check", "reference_is_narrowing"]


def _grant(d: dict) -> Grant:
    return Grant(
        d["tenant"], d["version"], frozenset(d["collections"]), frozenset(d["tools"]), d["revoked"]
    )


def reference_is_narrowing(parent: dict, child: dict) -> bool:
    """The kit's definition: could ``Grant.narrow`` have made ``child`` from ``parent``?"""
    p, c = _grant(parent), _grant(child)
    try:
        return p.narrow(collections=c.collections, tools=c.tools) == c
    except PermissionDenied:
        return False


PARENT = {
    "tenant": "initech",
    "version": 4,
    "collections": ["public", "initech-internal", "initech-finance"],
    "tools": ["search", "inventory", "model", "email"],
    "revoked": False,
}


def _child(**changes: Any) -> dict:
    return {**copy.deepcopy(PARENT), **changes}


#: Kinds of child grant, each with the children the grader tries (all against ``PARENT``); the
#: feedback names kind ``k`` by message ``child_k``.
CHILDREN: dict[str, list[dict]] = {
    "same": [_child()],
    "fewer_collections": [
        _child(collections=["public"]),
        _child(collections=["initech-finance", "public"]),
    ],
    "fewer_tools": [_child(tools=["search"]), _child(tools=["model", "search"])],
    "empty": [_child(collections=[], tools=[])],
    "extra_collection": [_child(collections=["public", "globex-internal"])],
    "extra_tool_fewer_collections": [_child(collections=["public"], tools=["admin"])],
    "extra_tool": [_child(tools=["search", "inventory", "model", "email", "shell"])],
    "other_tenant": [_child(tenant="globex", collections=["public"])],
    "other_version": [_child(version=5), _child(version=3, tools=["search"])],
    "revoked": [_child(revoked=True, tools=["search"])],
    "other_collections": [_child(collections=["public", "initech-internal", "initech-hr"])],
    "capitals": [_child(collections=["Public"])],
    "repeated": [_child(collections=["public", "public"], tools=["search", "search"])],
    "repeated_lacking": [
        _child(
            collections=["public", "globex-internal", "globex-internal"],
            tools=["search", "shell", "shell"],
        )
    ],
}

#: The rubric of ``narrowing``: a subset on every dimension, as sets of exact names, is the core.
NARROWING_RUBRIC = (
    Criterion(
        "narrows",
        3,
        "The child narrows on every dimension: the same tenant, the same version, neither grant "
        "revoked, and every collection and every tool of the child held by the parent, compared "
        "as sets of exact names (the same grant, fewer rights and the empty grant pass; an extra "
        "name, as many names but other ones, or other capitals, in a name or the tenant, fail). "
        "Also checked on generated grants against Grant.narrow.",
        core=True,
        mistakes=(
            "compares sizes instead of members",
            "checks only the tools (or only the collections)",
            "compares names (or the tenant) without case",
            "ignores the tenant, the version or revocation",
        ),
        properties=(
            "On generated parent and child grants, each child differing in at most one way "
            "(an extra name, a name in other capitals, another tenant, version or a revoked "
            "grant), your answer is Grant.narrow's.",
        ),
    ),
    Criterion(
        "as-sets",
        2,
        "Lists are read as sets: repeated names do not matter, but names the parent lacks are "
        "refused however often they are repeated. Also checked on generated grants.",
        mistakes=("counts repeated names (a multiset instead of a set)",),
        properties=(
            "On the same generated grants with names repeated in either list, your answer is "
            "Grant.narrow's.",
        ),
    ),
)


#: Generated pairs of grants of the core property (each one call into the sandbox); half as
#: many with repeated names.
EXAMPLES = 24


def narrowing_check(s: Student, t: Tally) -> None:
    """Judge ``is_narrowing`` on every kind of child in :data:`CHILDREN`; parts are filed under
    the criteria of :data:`NARROWING_RUBRIC`."""
    student = s.function("is_narrowing")

    def judge(kinds: tuple[str, ...], parent: dict = PARENT) -> None:
        for kind in kinds:
            for child in CHILDREN[kind]:
                answer = student(copy.deepcopy(parent), copy.deepcopy(child))
                not_bool(answer)
                truth = reference_is_narrowing(parent, child)
                require(
                    answer == truth,
                    say(
                        "said_when" if parent is PARENT else "said_when_revoked",
                        got=str(answer),
                        kind=say(f"child_{kind}"),
                    ),
                )

    t.under("narrows")

    @t.part
    def true_narrowings():
        judge(("same", "fewer_collections", "fewer_tools", "empty"))

    @t.part
    def wider_grants():
        judge(("extra_collection", "extra_tool", "extra_tool_fewer_collections"))

    @t.part
    def another_tenant_or_version():
        judge(("other_tenant", "other_version"))

    @t.part
    def revoked_grants():
        judge(("revoked",))
        revoked = {**PARENT, "revoked": True}
        judge(("same", "fewer_tools"), parent=revoked)

    @t.part
    def exact_names():
        judge(("other_collections", "capitals"))

    @t.part
    def generated_grants():
        falsify_narrowing(student, reference_is_narrowing, repeats=False, examples=EXAMPLES)

    t.under("as-sets")

    @t.part
    def repeated_names():
        judge(("repeated", "repeated_lacking"))

    @t.part
    def generated_grants_with_repeated_names():
        falsify_narrowing(student, reference_is_narrowing, repeats=True, examples=EXAMPLES // 2)
