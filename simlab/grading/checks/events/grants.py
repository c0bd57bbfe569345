"""Properties of question ``narrowing``: generated parent and child grants, the learner's
``is_narrowing`` beside the kit's decision
(:func:`~simlab.grading.checks.events.narrowing.reference_is_narrowing`, which asks
:meth:`simlab.agent.Grant.narrow`).

A generated child is made from its parent as a runner makes a sub-agent's grant (some of the
parent's collections and tools, in any order), then maybe changed in one way that makes it
more than a narrowing (:data:`TWISTS`): a name the parent lacks or one of its names in other
capitals, another tenant (maybe the same name in other capitals), another version, either grant
revoked; so each rule of the exercise is tried on its own often. Two kinds, one per criterion of
:data:`~simlab.grading.checks.events.narrowing.NARROWING_RUBRIC`: without repeated names (the
core) and true narrowings whose lists repeat names (``repeats=True``: lists are sets).

A pair is told by how the child differs from its parent, never by the names in it.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from simlab.grading.checks.events.messages import say
from simlab.grading.checks.events.streams import nth_ordering
from simlab.grading.checks.events.world import GrantWorld, grant_world
from simlab.grading.messages import Message
from simlab.grading.properties import Story, falsify, st
from simlab.grading.questions import require
from simlab.grading.student import kind_of

__all__ = [
    "grant_pairs",
    "told",
    "not_bool",
    "narrows_like_the_kit",
    "falsify_narrowing",
    "FIRST_PAIRS",
]

#: The names a generated grant draws from: two of them differ from another only in capitals.
COLLECTIONS = ("docs", "wiki", "hr", "Docs")
TOOLS = ("search", "mail", "shell", "Search")
#: The parent's tenant, then others: the first in other capitals, then another name.
TENANTS = ("umbrella", "Umbrella", "cyberdyne")

#: What can make a child more than a narrowing, one at a time (None: nothing).
TWISTS = (
    None,
    "tenant in other capitals",
    "another tenant",
    "newer version",
    "older version",
    "parent revoked",
    "child revoked",
    "collection lacking",
    "collection in other capitals",
    "tool lacking",
    "tool in other capitals",
)


def _lacking(draw: Any, universe: tuple[str, ...], parent: list[str]) -> str:
    """A name of ``universe`` the parent lacks (it holds three names at most)."""
    return draw(st.sampled_from([n for n in universe if n not in parent]))


def _capitals(draw: Any, universe: tuple[str, ...], parent: list[str]) -> str:
    """One of the parent's names in other capitals (the parent gets one when it has none, so
    the twist always applies)."""
    if not parent:
        parent.append(universe[0])
    return draw(st.sampled_from(parent)).upper()


def _twist(draw: Any, twist: str | None, parent: dict, child: dict) -> None:
    """Make ``child`` differ from a narrowing of ``parent`` by ``twist``."""
    if twist == "tenant in other capitals":
        child["tenant"] = TENANTS[1]
    elif twist == "another tenant":
        child["tenant"] = TENANTS[2]
    elif twist in ("newer version", "older version"):
        child["version"] += 1 if twist == "newer version" else -1
    elif twist in ("parent revoked", "child revoked"):
        (parent if twist == "parent revoked" else child)["revoked"] = True
    elif twist == "collection lacking":
        child["collections"].append(_lacking(draw, COLLECTIONS, parent["collections"]))
    elif twist == "collection in other capitals":
        child["collections"].append(_capitals(draw, COLLECTIONS, parent["collections"]))
    elif twist == "tool lacking":
        child["tools"].append(_lacking(draw, TOOLS, parent["tools"]))
    elif twist == "tool in other capitals":
        child["tools"].append(_capitals(draw, TOOLS, parent["tools"]))


def _subset(draw: Any, names: list[str] | tuple[str, ...], most: int | None = None) -> list[str]:
    """Some of ``names`` (at most ``most``), in their order: one drawn integer (cheap)."""
    mask = draw(st.integers(0, 2 ** len(names) - 1))
    return [n for i, n in enumerate(names) if mask >> i & 1][:most]


def _held(draw: Any, parent: list[str], repeats: bool) -> list[str]:
    """Some of the parent's names, in any order; with ``repeats``, each maybe twice."""
    names = nth_ordering(_subset(draw, parent), draw(st.integers(0, 5)))  # 3! orderings
    if draw(st.booleans()):  # as often as not, against the parent's order
        names.reverse()
    if repeats:
        names += _subset(draw, names)
    return names


@st.composite
def grant_pairs(draw: Any, *, repeats: bool = False) -> tuple[dict, dict]:
    """A parent grant and a child grant, as dicts: a narrowing of the parent, then (without
    ``repeats``) one of :data:`TWISTS`. With ``repeats`` the child is a narrowing whose lists
    (and the parent's) repeat names."""
    parent = {
        "tenant": TENANTS[0],
        "version": draw(st.integers(1, 3)),
        "collections": _subset(draw, COLLECTIONS, 3),
        "tools": _subset(draw, TOOLS, 3),
        "revoked": False,
    }
    child = {
        **parent,
        "collections": _held(draw, parent["collections"], repeats),
        "tools": _held(draw, parent["tools"], repeats),
    }
    if repeats:
        parent["collections"] += parent["collections"][:1]
        return parent, child
    # A third of the children stay narrowings (their verdict is True), each twist the rest.
    _twist(draw, draw(st.sampled_from((None,) * 4 + TWISTS)), parent, child)
    return parent, child


def _told_names(parent: list[str], child: list[str], plural: str) -> list[Message]:
    """How the child's list of ``plural`` (``collections``, ``tools``) differs from its
    parent's, in a few short sentences."""
    held = [n for n in child if n in parent]
    lacking = [n for n in child if n not in parent]
    lower = {n.lower() for n in parent}
    out = []
    if not child:
        out.append(say(f"told_no_{plural}" if parent else f"told_no_{plural}_either"))
    elif set(held) == set(parent):
        out.append(say(f"told_all_{plural}"))
    elif held:
        out.append(say(f"told_some_{plural}"))
    if any(n.lower() not in lower for n in lacking):
        out.append(say(f"told_lacking_{plural}"))
    if any(n.lower() in lower for n in lacking):
        out.append(say(f"told_capitals_{plural}"))
    if len(set(child)) < len(child):
        out.append(say(f"told_twice_{plural}"))
    order = [n for n in parent if n in set(held)]
    if list(dict.fromkeys(held)) != order:
        out.append(say(f"told_order_{plural}"))
    return out


def told(parent: dict, child: dict) -> list[Message]:
    """The moves of a story: how ``child`` differs from ``parent`` (its names first)."""
    out = _told_names(parent["collections"], child["collections"], "collections")
    out += _told_names(parent["tools"], child["tools"], "tools")
    if child["tenant"] == parent["tenant"] and child["version"] == parent["version"]:
        out.append(say("told_same_tenant_version"))
    elif child["tenant"] == parent["tenant"]:
        out.append(say("told_same_tenant"))
    elif child["tenant"].lower() == parent["tenant"].lower():
        out.append(say("told_tenant_capitals"))
    else:
        out.append(say("told_other_tenant"))
    if child["version"] != parent["version"]:
        newer = child["version"] > parent["version"]
        out.append(say("told_newer_version" if newer else "told_older_version"))
    out += [say("told_parent_revoked")] if parent["revoked"] else []
    out += [say("told_child_revoked")] if child["revoked"] else []
    return out


def not_bool(answer: Any) -> None:
    """Fail unless the learner's ``is_narrowing`` answered True or False."""
    require(isinstance(answer, bool), say("not_bool", kind=kind_of(answer)))


def narrows_like_the_kit(
    student: Callable[..., Any],
    reference: Callable[[dict, dict], bool],
    world: GrantWorld | None = None,
) -> Callable[[tuple[dict, dict], Story], None]:
    """The property: ``is_narrowing(parent, child)``, asked with the names of ``world`` (by
    default :func:`grant_world`), is True or False, and what ``reference`` (the kit's
    decision) says of the same grants. The story tells the canonical pair."""
    world = world or grant_world()

    def holds(pair: tuple[dict, dict], story: Story) -> None:
        for move in told(*pair):
            story.add(move)
        parent, child = (world.grant(g) for g in pair)
        answer = student(copy.deepcopy(parent), copy.deepcopy(child))
        not_bool(answer)
        require(answer == reference(parent, child), say("said_of_child", got=str(answer)))

    return holds


def _pair(**child: Any) -> tuple[dict, dict]:
    parent = {
        "tenant": TENANTS[0],
        "version": 2,
        "collections": ["docs", "wiki"],
        "tools": ["search", "mail"],
        "revoked": False,
    }
    return parent, {**parent, **child}


#: Pairs played before the generated ones: each twist once, on a parent holding two names of
#: each kind, then a reordered narrowing, then a child naming one of the parent's tools as a
#: collection and one of its collections as a tool; repeated names.
FIRST_PAIRS = {
    "core": [
        _pair(tools=["mail", "search", "SEARCH"]),
        _pair(collections=["DOCS"]),
        _pair(tenant=TENANTS[1]),
        _pair(tenant=TENANTS[2], tools=["search"]),
        _pair(version=3),
        _pair(version=1, collections=["wiki"]),
        _pair(revoked=True, tools=[]),
        ({**_pair()[0], "revoked": True}, _pair(tools=["mail"])[1]),
        _pair(collections=["docs", "hr"]),
        _pair(tools=["shell"]),
        _pair(tools=["mail", "search"], collections=["wiki", "docs"]),
        _pair(collections=["docs", "search"], tools=["wiki"]),
    ],
    "repeats": [_pair(collections=["docs", "docs"])],
}


def falsify_narrowing(
    student: Callable[..., Any],
    reference: Callable[[dict, dict], bool],
    *,
    repeats: bool,
    examples: int,
    world: GrantWorld | None = None,
) -> None:
    """Check the property on ``examples`` generated pairs (with repeated names when
    ``repeats``), the hand-picked ones first, asked with ``world``'s names."""
    falsify(
        grant_pairs(repeats=repeats),
        narrows_like_the_kit(student, reference, world),
        examples=examples,
        first=FIRST_PAIRS["repeats" if repeats else "core"],
    )
