"""The hidden world of exercise ``events``: the names a submission meets at grading time.

Every stream and every grant the checks build is first written with *canonical* names (tasks
``A``, ``B``, ``C``..., keys ``k1``, ``c2``..., grants of tenant ``umbrella`` holding ``docs``
and ``search``), which the checks' stories tell. Before the learner's code sees one, the names
are swapped for ones drawn from the world of the submission
(:func:`~simlab.grading.checks.hidden_world.rng`), so no answer can have typed them in, and the
kit's reference is asked about the very same swapped input:

* **tasks** are drawn words with digits where one name is a prefix or a part of another
  (``crawl-3``, ``crawl-31``, ``recrawl-3``): an answer that tells tasks apart by a prefix, or
  by a task name and a ``seq`` run together, mixes two of them up;
* **keys** are opaque and, likewise, prefixes and parts of one another (``qk7``, ``qk7a``,
  ``zqk7a``): they name neither the task nor the ``seq``, so an answer that reads those from
  the key, or compares keys by a part of them, goes wrong; every delivery carries a drawn
  payload;
* **grants** are of a drawn tenant, at a drawn version, holding drawn collections and tools,
  where another tenant's name begins with the parent's (or the parent's with the other's) and
  names the parent lacks begin with, or are part of, names it holds; its tenant and one of
  its collections hold a composed accent, so their decomposed forms are another tenant and a
  name it lacks.

A swap is one to one and keeps capitals as they were (``Docs`` stays the capitalized form of
what ``docs`` became), so every verdict of the kit is the same on both sides of it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from simlab.grading.checks.hidden_world import choice_besides, decomposed, fullwidth, rng

__all__ = [
    "TASK_STEMS",
    "TENANT_STEMS",
    "COLLECTION_STEMS",
    "TOOL_STEMS",
    "ACCENTED",
    "KEY_TAIL",
    "Names",
    "task_names",
    "key_names",
    "twin",
    "GrantWorld",
    "grant_world",
    "stream_names",
]

#: Words task names are made of (none of them the notebook's ``t1``, ``t2``).
TASK_STEMS = ("crawl", "ingest", "embed", "triage", "digest", "backfill", "reindex", "summary")
#: Tenants a parent grant is drawn for (never the notebook's ``acme``).
TENANT_STEMS = ("nakatomi", "tyrell", "wonka", "soylent", "oscorp", "vandelay", "gringotts")
#: Collections and tools of a drawn grant (none of the notebook's ``public`` or ``search``).
COLLECTION_STEMS = ("payroll", "contracts", "roadmap", "tickets", "designs", "invoices", "legal")
TOOL_STEMS = ("lookup", "translate", "calendar", "browser", "calculator", "scanner", "mailer")
#: What makes a name longer (its twin begins with it) or holds it inside.
SUFFIXES = ("-eu", "-archive", "-labs", "2", "-old")
#: Words with a composed accent (NFC) a drawn collection's name, and the parent's tenant's,
#: end with.
ACCENTED = ("café", "zürich", "são-paulo", "malmö", "crème")
PREFIXES = ("sub", "x", "re")

_LETTERS = "abcdefghjkmnpqrstuvwxyz"
#: The characters a drawn key grows by.
KEY_TAIL = "0123456789abcdef"


def task_names(source: random.Random, n: int) -> list[str]:
    """``n`` distinct task names: the first a drawn word and a digit, each next one an earlier
    one with a digit added (it begins with that one) or a syllable put before it (it holds that
    one), in a drawn order."""
    first = f"{source.choice(TASK_STEMS)}-{source.randint(1, 9)}"
    return _grown(
        source,
        first,
        n,
        0.6,
        tail=lambda: str(source.randint(0, 9)),
        head=lambda: source.choice(PREFIXES),
    )


def key_names(source: random.Random, n: int) -> list[str]:
    """``n`` distinct opaque keys: two drawn letters and a digit, each next one an earlier one
    with a character added after it or a letter before it, in a drawn order."""
    stem = "".join(source.choice(_LETTERS) for _ in range(2)) + str(source.randint(1, 9))
    return _grown(
        source,
        stem,
        n,
        0.7,
        tail=lambda: source.choice(KEY_TAIL),
        head=lambda: source.choice(_LETTERS),
    )


def _grown(
    source: random.Random,
    first: str,
    n: int,
    p_tail: float,
    tail: Callable[[], str],
    head: Callable[[], str],
) -> list[str]:
    """``n`` distinct names from ``first``: each next one a drawn earlier one with ``tail()``
    added after it (with probability ``p_tail``) or ``head()`` put before it, all in a drawn
    order. Every draw is from ``source``, in the same order for the same ``source``."""
    names = [first]
    while len(names) < n:
        parent = source.choice(names)
        if source.random() < p_tail:
            grown = parent + tail()
        else:
            grown = head() + parent
        if grown not in names:
            names.append(grown)
    source.shuffle(names)
    return names


@dataclass
class Names:
    """A one-to-one swap of canonical task names and keys for drawn ones, both ways."""

    tasks: dict[str, str] = field(default_factory=dict)
    keys: dict[str, str] = field(default_factory=dict)
    tokens: int = 0

    @property
    def back(self) -> tuple[dict[str, str], dict[str, str]]:
        return {v: k for k, v in self.tasks.items()}, {v: k for k, v in self.keys.items()}

    def delivery(self, event: dict) -> dict:
        """``event`` (a canonical delivery) with drawn names and a drawn payload."""
        out = dict(event)
        out["task_id"] = self.tasks[event["task_id"]]
        out["idempotency_key"] = self.keys[event["idempotency_key"]]
        out["payload"] = {"tokens": self.tokens + 7 * event["seq"]}
        return out

    def canonical(self, ident: tuple) -> tuple:
        """A released event's ``(task, seq, key, ...)`` with its canonical names (a name that
        was never drawn stays as it is)."""
        tasks, keys = self.back
        task, seq, key, *rest = ident
        task = tasks.get(task, task) if isinstance(task, str) else task
        key = keys.get(key, key) if isinstance(key, str) else key
        return (task, seq, key, *rest)

    def strings(self) -> frozenset[str]:
        """Every drawn name (what feedback never quotes)."""
        return frozenset(self.tasks.values()) | frozenset(self.keys.values())


def stream_names(label: str, stream: Iterable[dict], *, tasks: Iterable[str] = ()) -> Names:
    """The swap for the canonical names of ``stream`` (``tasks`` first, then the others in the
    order they first appear), drawn from the world's source ``label``."""
    source = rng(label)
    task_order = list(dict.fromkeys([*tasks, *(d["task_id"] for d in stream)]))
    key_order = list(dict.fromkeys(d["idempotency_key"] for d in stream))
    return Names(
        dict(zip(task_order, task_names(source, len(task_order)), strict=True)),
        dict(zip(key_order, key_names(source, len(key_order)), strict=True)),
        source.randint(100, 999),
    )


def twin(source: random.Random, name: str) -> str:
    """Another name that begins with ``name`` or holds it: ``payroll-eu``, ``subpayroll``."""
    if source.random() < 0.6:
        return name + source.choice(SUFFIXES)
    return source.choice(PREFIXES) + name


def _unicode_forms(name: str) -> tuple[str, str]:
    return fullwidth(name[:1]) + name[1:], decomposed(name)


def _as_cased(name: str, like: str) -> str:
    """``name`` in the capitals of ``like`` (all capitals, a capital first, or as it is)."""
    if like.isupper():
        return name.upper()
    if like[:1].isupper():
        return name[:1].upper() + name[1:]
    return name


@dataclass(frozen=True)
class GrantWorld:
    """The drawn grant names of one world: the parent's tenant and version, its collections
    and tools, and names it lacks that begin with or are part of names it holds."""

    tenant: str
    #: Other tenants: the drawn twin (it begins with the tenant's name, or the tenant's name
    #: begins with it), one beginning with the tenant's name, one holding it, and the first
    #: letters of the tenant's name.
    similar_tenants: tuple[str, ...]
    other_tenant: str  # no relation to the tenant
    version: int
    collections: tuple[str, ...]  # the parent's (three)
    tools: tuple[str, ...]  # the parent's (four)
    #: Collections the parent lacks: one beginning with a name it holds, one holding one.
    longer_collections: tuple[str, ...]
    shorter_tool: str  # a tool the parent lacks, the first letters of one it holds
    other_collection: str
    other_tool: str
    #: Canonical names of the generated grants (lower case) -> drawn ones.
    swap: dict[str, str] = field(default_factory=dict)

    def parent(self) -> dict:
        return {
            "tenant": self.tenant,
            "version": self.version,
            "collections": list(self.collections),
            "tools": list(self.tools),
            "revoked": False,
        }

    def name(self, canonical: str) -> str:
        """A canonical name of a generated grant swapped, its capitals kept."""
        return _as_cased(self.swap[canonical.lower()], canonical)

    def grant(self, canonical: dict) -> dict:
        """A generated (canonical) grant with drawn names."""
        return {
            **canonical,
            "tenant": self.name(canonical["tenant"]),
            "collections": [self.name(c) for c in canonical["collections"]],
            "tools": [self.name(t) for t in canonical["tools"]],
        }

    def strings(self) -> frozenset[str]:
        """Every drawn name (what feedback never quotes)."""
        names = {self.tenant, *self.similar_tenants, self.other_tenant, *self.collections}
        names |= {*self.tools, *self.longer_collections, self.shorter_tool}
        names |= {self.other_collection, self.other_tool, *self.swap.values()}
        # the look-alikes a child names without holding the name itself (full-width, NFD)
        return frozenset(names | {twin for n in names for twin in _unicode_forms(n)})


def grant_world(label: str = "events/narrowing") -> GrantWorld:
    """The grant names of the current world (:func:`rng` ``label``)."""
    source = rng(label)
    stem = choice_besides(source, list(TENANT_STEMS), "acme")
    # the tenant holds a composed accent: its decomposed form is another tenant (a stream of
    # its own, so the rest is drawn as before)
    tenant = f"{stem}-{rng(f'{label}/tenant-accent').choice(ACCENTED)}"
    twin_tenant = twin(source, tenant)
    if source.random() < 0.5:  # either name may be the shorter one
        tenant, twin_tenant = twin_tenant, tenant
    other_tenant = source.choice([t for t in TENANT_STEMS if t not in tenant + twin_tenant])
    stems = source.sample(COLLECTION_STEMS, 5)
    tool_stems = source.sample(TOOL_STEMS, 6)
    # the third collection's name holds a composed accent: its decomposed form is another name
    accent = rng(f"{label}/accent").choice(ACCENTED)  # a stream of its own: the rest as drawn
    collections = (stems[0], stems[1], f"{stems[2]}-{accent}")
    tools = tuple(tool_stems[:4])
    longer = (
        source.choice(collections) + source.choice(SUFFIXES),
        source.choice(PREFIXES) + source.choice(collections),
    )
    # the tenant's first letters (a stream of its own: the rest as drawn), so a tenant the
    # parent's name begins with is there whichever of the twins is the shorter
    cut = rng(f"{label}/shorter-tenant").randint(4, len(tenant) - 2)
    similar = (
        twin_tenant,
        tenant + source.choice(SUFFIXES),
        source.choice(PREFIXES) + tenant,
        tenant[:cut],
    )
    held = source.choice(tools)
    shorter = held[: source.randint(3, len(held) - 2)]
    # The generated grants: docs, wiki, hr; search, mail, shell; umbrella and cyberdyne.
    docs = stems[3]
    search = tool_stems[4]
    generated_tenant = choice_besides(source, [t for t in TENANT_STEMS if t != stem], "acme")
    swap = {
        "docs": docs,
        "wiki": twin(source, docs),  # begins with, or holds, what docs became
        "hr": docs[: source.randint(3, len(docs) - 2)],  # the first letters of it
        "search": search,
        "mail": twin(source, search),
        "shell": search[: source.randint(3, len(search) - 2)],
        "umbrella": generated_tenant,
        "cyberdyne": twin(source, generated_tenant),
    }
    return GrantWorld(
        tenant=tenant,
        similar_tenants=tuple(dict.fromkeys(similar)),
        other_tenant=other_tenant,
        # above 256, where CPython shares no int object: versions compared with `is` differ
        version=source.randint(300, 9999),
        collections=collections,
        tools=tools,
        longer_collections=longer,
        shorter_tool=shorter,
        other_collection=stems[4],
        other_tool=tool_stems[5],
        swap=swap,
    )


def world_strings(*names: Any) -> frozenset[str]:
    """The drawn names of several swaps and worlds together."""
    out: frozenset[str] = frozenset()
    for n in names:
        out |= n.strings()
    return out
