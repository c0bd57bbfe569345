"""Question ``narrowing`` of exercise ``events``: ``is_narrowing(parent, child)`` (grants as
dicts) against the kit's own definition, :meth:`simlab.agent.Grant.narrow`: ``child`` is a
narrowing of ``parent`` exactly when ``parent.narrow(...)`` could have produced it. Hostile
grants: another tenant, another version, a revoked parent or child (a revoked parent's own
grant as its child too), an extra tool with fewer collections, a name of the notebook's grant
the parent lacks, a tool of a parent holding no tools (and a collection of one holding no
collections), sets of the same size but other members, names (the tenant's too) differing
only in case, in white space around them or in Unicode form (full-width, decomposed; the
tenant holds a composed accent), a version written as text, one of the parent's tools named
as a collection (and the reverse), repeated names (with and without a name the parent lacks),
and the same two dicts changed in place between calls. Beside them, each criterion has a
property on generated pairs of grants (:mod:`~simlab.grading.checks.events.grants`), whose
shortest counterexample is the feedback.

The parent and every child are drawn from the submission's hidden world
(:func:`~simlab.grading.checks.events.world.grant_world`): a tenant, version, collections and
tools no answer can type in, with tenants and names that begin with or hold one another.

The parts are filed under :data:`NARROWING_RUBRIC`: the core idea (the child is a subset on
every dimension, as sets of exact names) weighs 3 of 5 points; reading lists as sets 2. Feedback
names the kind of child grant and the learner's verdict, never the grant itself.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from simlab.agent.world import Grant, PermissionDenied
from simlab.grading.checks.events.grants import falsify_narrowing, not_bool
from simlab.grading.checks.events.messages import say
from simlab.grading.checks.events.world import GrantWorld, grant_world
from simlab.grading.checks.hidden_world import decomposed, fullwidth
from simlab.grading.questions import Criterion, Tally, require
from simlab.grading.student import Student

__all__ = [
    "KINDS",
    "NARROWING_RUBRIC",
    "NOTEBOOK_COLLECTION",
    "NOTEBOOK_TOOL",
    "children",
    "narrowing_check",
    "parents",
    "reference_is_narrowing",
]


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


#: A collection and a tool of the notebook's example grant, which no drawn parent holds.
NOTEBOOK_COLLECTION, NOTEBOOK_TOOL = "public", "search"


def parents(world: GrantWorld) -> dict[str, dict]:
    """The parents children are judged against: the world's (:meth:`GrantWorld.parent`), it
    revoked, it holding no tools and it holding no collections; the feedback names the
    parent ``p`` by message ``said_when_p`` (``said_when`` for the world's own)."""
    parent = world.parent()
    return {
        "": parent,
        "revoked": {**parent, "revoked": True},
        "no_tools": {**parent, "tools": []},
        "no_collections": {**parent, "collections": []},
    }


def children(world: GrantWorld) -> dict[str, list[dict]]:
    """Kinds of child grant, each with the children the grader tries, all against
    ``world``'s parent (:meth:`GrantWorld.parent`); the feedback names kind ``k`` by message
    ``child_k``."""
    parent = world.parent()
    c, tl = world.collections, world.tools
    other_c, other_t = world.other_collection, world.other_tool

    def wide(name: str) -> str:  # another name, which NFKC folds back into ``name``
        return fullwidth(name[:1]) + name[1:]

    def child(**changes: Any) -> dict:
        return {**copy.deepcopy(parent), **changes}

    return {
        "same": [child()],
        "fewer_collections": [child(collections=[c[0]]), child(collections=[c[2], c[0]])],
        "fewer_tools": [child(tools=[tl[0]]), child(tools=[tl[2], tl[0]])],
        "empty": [child(collections=[], tools=[])],
        # the notebook's names too: an answer may let them through whatever the parent holds
        "extra_collection": [
            child(collections=[c[0], other_c]),
            child(collections=[c[1], NOTEBOOK_COLLECTION]),
        ],
        "extra_tool_fewer_collections": [child(collections=[c[0]], tools=[other_t])],
        "extra_tool": [child(tools=[*tl, other_t]), child(tools=[tl[1], NOTEBOOK_TOOL])],
        # judged against parents holding no tools, or no collections (:func:`parents`)
        "one_of_each": [child(collections=[c[0]], tools=[tl[0]])],
        "crossed": [child(collections=[c[0], tl[0]]), child(tools=[tl[1], c[1]])],
        "other_tenant": [child(tenant=world.other_tenant, collections=[c[0]])],
        "other_version": [
            child(version=world.version + 1),
            child(version=world.version - 1, tools=[tl[0]]),
        ],
        # the parent's number written as text: narrow() keeps the parent's int
        "version_as_text": [child(version=str(world.version), collections=[c[0]])],
        # the parent's own grant revoked: against the parent revoked, the child equals it
        "revoked": [child(revoked=True, tools=[tl[0]]), child(revoked=True)],
        # the empty grant is a subset of any grant, but still of one tenant, version and state
        "empty_elsewhere": [
            child(tenant=world.other_tenant, collections=[], tools=[]),
            child(version=world.version + 1, collections=[], tools=[]),
        ],
        "empty_revoked": [child(revoked=True, collections=[], tools=[])],
        "other_collections": [child(collections=[c[0], c[1], other_c])],
        "capitals": [child(collections=[c[0].capitalize()])],
        "spaces": [
            child(tenant=f"{world.tenant} ", collections=[c[0]]),
            child(tenant=f" {world.tenant}", collections=[c[0]]),
            child(collections=[f" {c[0]}"]),
            child(tools=[f"{tl[0]} "]),
        ],
        "unicode_forms": [
            child(collections=[decomposed(c[2])]),  # it holds a composed accent
            child(collections=[c[1], wide(c[0])]),
            child(tools=[wide(tl[0])]),
            child(tenant=wide(world.tenant), collections=[c[0]]),
            child(tenant=decomposed(world.tenant), collections=[c[0]]),  # it holds an accent
        ],
        "similar_tenant": [child(tenant=t, collections=[c[0]]) for t in world.similar_tenants],
        "longer_name": [child(collections=[c[1], n]) for n in world.longer_collections],
        "shorter_name": [child(tools=[tl[1], world.shorter_tool])],
        "repeated": [child(collections=[c[0], c[0]], tools=[tl[0], tl[0]])],
        "repeated_lacking": [
            child(collections=[c[0], other_c, other_c], tools=[tl[0], other_t, other_t])
        ],
    }


#: The kinds of child grant, in the order the feedback may name them.
KINDS = tuple(children(grant_world()))

#: The sentences of the exercise text each criterion checks.
SUBSET_TEXT = (
    "The kit gives a sub-agent `parent.narrow(collections=..., tools=...)`: same tenant, same "
    "version, a subset of each, and nothing at all from a revoked grant."
)
SAME_TEXT = (
    "Both grants must be for the same tenant, at the same version, and neither may be revoked."
)
#: What ``True`` means: a version written as text is no version ``narrow`` keeps.
MADE_TEXT = (
    "Write `is_narrowing(parent, child)`: `True` exactly when `child` could have been made that "
    "way from `parent`,"
)
HELD_TEXT = (
    "Every collection and every tool of the child must be held by the parent (the same grant, "
    "or an empty one, counts as a narrowing)."
)
NAMES_TEXT = "Names are exact (case matters); the order of a list and repeated names do not matter."
#: The sentence that says how exact a name is (the tenant's too).
EXACT_TEXT = (
    "A name, the tenant's too, is compared whole and exactly as given: white space around it "
    'and its Unicode form count (`"public "` and `"ｐublic"` are not `"public"`).'
)

#: The rubric of ``narrowing``: a subset on every dimension, as sets of exact names, is the core.
NARROWING_RUBRIC = (
    Criterion(
        "narrows",
        3,
        "The child narrows on every dimension: the same tenant, the same version, neither grant "
        "revoked, and every collection and every tool of the child held by the parent, compared "
        "as sets of exact names, the child's collections among the parent's collections and its "
        "tools among its tools (the same grant, fewer rights and the empty grant pass; an extra "
        "name, as many names but other ones, other capitals, white space around a name or "
        "another Unicode form of it, a name that begins with or is part of a held one, in a "
        "name or the tenant, or a collection named like one of the parent's "
        "tools or the reverse, fail); each call is judged on the grants as they are then, "
        "also the same dicts changed in place since an earlier call. Also checked on generated "
        "grants against Grant.narrow.",
        core=True,
        mistakes=(
            "compares sizes instead of members",
            "checks only the tools (or only the collections)",
            "compares names (or the tenant) without case",
            "strips names (or the tenant) of white space, or normalises their Unicode form",
            "ignores the tenant, the version or revocation",
            "takes a child equal to its parent for a narrowing before testing revocation",
            'compares versions as text, so a child at version "1234" passes for 1234',
            "compares names (or the tenant) by a prefix or a part",
            "ignores the parent (a grant typed in from the notebook)",
            "pools collections and tools into one set of names",
            "takes a parent with no tools (or no collections) to allow every one",
            "lets a name of the notebook's grant (public, search) through whatever the parent "
            "holds",
            "remembers verdicts by the grants' id(), so the same dicts changed since (or new "
            "ones at a reused address) get an earlier verdict",
        ),
        properties=(
            "On generated parent and child grants, each child differing in at most one way "
            "(an extra name, a name in other capitals, another tenant, version or a revoked "
            "grant), your answer is Grant.narrow's.",
        ),
        text=(SUBSET_TEXT, MADE_TEXT, SAME_TEXT, HELD_TEXT, NAMES_TEXT, EXACT_TEXT),
        world=(
            "The parent's tenant, version (above 256), collections and tools are drawn from the "
            "world "
            "(never the notebook's acme grant; the tenant holds a composed accent), with "
            "another tenant whose name begins with the "
            "parent's or the reverse, and names the parent lacks that begin with or are part of "
            "names it holds, names and tenants that differ from the parent's only in white "
            "space around them or in Unicode form (full-width letters, a decomposed accent), "
            "a child at the parent's version written as text, "
            "children naming one of the parent's tools as a collection or the reverse, and "
            "empty children of another tenant or version, or revoked, or of the parent "
            "revoked, and a revoked parent's own grant as its child (equal to it); children "
            "of the parent without its tools, or without its collections; children naming "
            "the notebook's public collection or search tool, which the parent lacks; the "
            "same parent and child dicts, kept between calls, changed in place in between (a "
            "tool the parent lacks added to the child, then to the parent); the "
            "generated grants are offered with drawn names too."
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
        text=(NAMES_TEXT,),
        world=(
            "The repeated names are those of the parent drawn from the world, and names it "
            "lacks drawn likewise."
        ),
    ),
)


#: The parts of ``narrows``, in order: each judges the children of some kinds
#: (:func:`children`) against some parents (:func:`parents`), as ``(parent, kinds)`` pairs.
_NARROWS: tuple[tuple[tuple[str, tuple[str, ...]], ...], ...] = (
    (("", ("same", "fewer_collections", "fewer_tools", "empty")),),
    (
        ("", ("extra_collection", "extra_tool", "extra_tool_fewer_collections")),
        # a parent holds no name of a kind it has none of: not all of them
        ("no_tools", ("one_of_each", "empty")),
        ("no_collections", ("one_of_each", "empty")),
    ),
    (("", ("other_tenant", "other_version", "version_as_text", "empty_elsewhere")),),
    (("", ("revoked", "empty_revoked")), ("revoked", ("same", "fewer_tools", "empty", "revoked"))),
    (("", ("other_collections", "capitals", "spaces", "unicode_forms")),),
    (("", ("similar_tenant", "longer_name", "shorter_name")),),
    (("", ("crossed",)),),
)


def _changed_between_calls(s: Student, student: Callable[..., Any], world: GrantWorld) -> None:
    """``is_narrowing`` called with the same two dicts, made in the sandbox and kept there,
    changed in place between calls: the child a narrowing, then naming a tool the parent
    lacks, then the parent holding that tool too. Before each call both are set to the grants
    of that step (every field, whatever an earlier call did to them); each verdict must be the
    one for the grants as they are at that call: a verdict remembered by the dicts' ``id()``
    (or by any other mark of the objects rather than their values) fails."""
    parent = world.parent()
    child = {**copy.deepcopy(parent), "tools": [world.tools[0]]}
    kept = tuple(s.sandbox.kit("given", copy.deepcopy(grant)) for grant in (parent, child))
    wider = [world.tools[0], world.other_tool]
    steps = (
        (parent, child),
        (parent, {**child, "tools": wider}),
        ({**parent, "tools": [*world.tools, world.other_tool]}, {**child, "tools": wider}),
    )
    for grants in steps:
        for handle, grant in zip(kept, grants, strict=True):
            s.sandbox.call(handle, copy.deepcopy(grant), method="update", what="is_narrowing()")
        answer = student(*kept)
        not_bool(answer)
        truth = reference_is_narrowing(*grants)
        require(answer == truth, say("said_when_changed", got=str(answer)))


#: Generated pairs of grants of the core property (each one call into the sandbox); half as
#: many with repeated names.
EXAMPLES = 24


def narrowing_check(s: Student, t: Tally) -> None:
    """Judge ``is_narrowing`` on every kind of child (:func:`children`) of the world's parent
    or of one of its variants (:func:`parents`); parts are filed under the criteria of
    :data:`NARROWING_RUBRIC`. Every name the world drew is hidden from the feedback
    (:attr:`Tally.hidden`)."""
    student = s.function("is_narrowing")
    world = grant_world()
    t.hidden = t.hidden | world.strings()
    kinds, of = children(world), parents(world)

    def judge(names: tuple[str, ...], parent: str = "") -> None:
        for kind in names:
            for child in kinds[kind]:
                answer = student(copy.deepcopy(of[parent]), copy.deepcopy(child))
                not_bool(answer)
                require(
                    answer == reference_is_narrowing(of[parent], child),
                    say(
                        f"said_when_{parent}" if parent else "said_when",
                        got=str(answer),
                        kind=say(f"child_{kind}"),
                    ),
                )

    def judge_all(pairs: tuple[tuple[str, tuple[str, ...]], ...]) -> None:
        for parent, names in pairs:
            judge(names, parent)

    t.under("narrows")
    for pairs in _NARROWS:
        t.part(lambda pairs=pairs: judge_all(pairs))

    @t.part
    def the_same_dicts_changed_between_calls():
        _changed_between_calls(s, student, world)

    @t.part
    def generated_grants():
        falsify_narrowing(
            student, reference_is_narrowing, repeats=False, examples=EXAMPLES, world=world
        )

    t.under("as-sets")

    @t.part
    def repeated_names():
        judge(("repeated", "repeated_lacking"))

    @t.part
    def generated_grants_with_repeated_names():
        falsify_narrowing(
            student, reference_is_narrowing, repeats=True, examples=EXAMPLES // 2, world=world
        )
