"""Question ``cache-key``: the learner's key plugged into the kit's
:class:`~simlab.agent.Retriever`, replaying scripted searches between document edits and
permission changes (rubric :data:`CACHE_RUBRIC`). Each search must return what an uncached search
returns *now*, and the cache may count no more hits and no more entries thrown away by
re-verification than with the kit's key: a key without the tenant, the permission version or the
index version serves an entry that no longer answers the question (a new document or a newly
granted one is missing, another tenant's entry is served) or looks up an entry that
re-verification must throw away. Equal requests must hit exactly as with the kit's key."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from simlab.agent.example import example_world
from simlab.agent.retrieval import RetrievalCache, Retriever, cache_key
from simlab.grading.checks.checkpoints.messages import say
from simlab.grading.checks.checkpoints.requests import drawn_requests, shifted_requests
from simlab.grading.messages import Message
from simlab.grading.properties import Story, screened, st
from simlab.grading.questions import Criterion, Fail, Tally, require
from simlab.grading.student import Student, kind_of

__all__ = ["Script", "CACHE_RUBRIC", "cache_key_check"]

#: A script is a list of steps: ("search", tenant, query[, narrowed collections]),
#: ("publish", doc_id, text, collection or None) or ("grant", tenant, collections).
Script = list[tuple]


def _replay(script: Script, retriever_for: Callable[[Any], Any]) -> list[list[str]]:
    """Replay ``script`` on a fresh example world; ``retriever_for(world)`` gives the retriever
    each search uses. Returns each search's evidence refs."""
    world = example_world()
    retriever = retriever_for(world)
    results = []
    for step in script:
        if step[0] == "publish":
            world.publish(step[1], step[2], step[3])
        elif step[0] == "grant":
            world.grant(step[1], step[2])
        else:
            grant = world.grant_for(step[1])
            if len(step) > 3:
                grant = grant.narrow(collections=step[3])
            searcher = retriever if retriever is not None else Retriever(world)
            results.append([str(e.ref) for e in searcher.search(grant, step[2])])
    return results


def _run(script: Script, key: Callable[..., Any]) -> tuple[list[list[str]], tuple[int, ...]]:
    """Replay ``script`` with a cached retriever using ``key``; return each search's refs and
    the cache counters (hits, misses, rejected)."""
    cache = RetrievalCache()
    results = _replay(script, lambda world: Retriever(world, cache, key=key))
    return results, (cache.hits, cache.misses, cache.rejected)


def _truth(script: Script) -> list[list[str]]:
    """What an uncached retriever, built fresh for each search, finds at each moment."""
    return _replay(script, lambda world: None)


#: The rubric of ``cache-key``: the key holds everything that can change the answer.
CACHE_RUBRIC = (
    Criterion(
        "changes-the-answer",
        3,
        "The key holds everything that can change the answer for the asker: no entry is shared "
        "between tenants, and none is served or looked up after the grant changed (a new grant "
        "version or a narrower sub-agent grant), a document was edited or a new one published. "
        "Every search returns what an uncached search returns now.",
        core=True,
        mistakes=(
            "keys on the query only",
            "leaves the tenant out",
            "leaves the permission version out",
            "leaves the index version out",
            "folds the tenant's capitals, or keeps only a part of a version",
            "strips the tenant's white space or normalises its Unicode form",
        ),
        properties=(
            "On generated pairs of requests that differ in one field that can change the "
            "answer (tenant, either version, the normalized question), your keys differ.",
        ),
        text=(
            "A retrieval cache must never answer from an entry that outlived a document edit "
            "or a permission change.",
            "So the key must change whenever the answer could: the `Retriever` calls "
            "`key(tenant, permission_version, index_version, query)`, where "
            "`permission_version` names the grant's version and scope (e.g. "
            '`"v1:acme-internal,public"`) and `index_version` grows with every document edit.',
            "with everything that can change the answer.",
            'The tenant, though, is a name, exact and whole: `"acme"`, `"Acme"`, `"acme "` and '
            '`"ａcme"` are four tenants.',
        ),
        world=(
            "Each grading draws pairs of searches that differ in one field by a value that "
            "holds the other's (tenants `t` and `t-labs`, permission versions `v3:public` "
            "and `v31:public` or `v3:public,t-internal`, index versions 4 and 41), by capitals "
            "(tenants `t` and `T`), by white space around it (`t` and `t `) or Unicode form "
            "(full-width letters, a composed or a decomposed accent), or by last digits (index "
            "versions 4127, 4128 and 7127), with drawn tenants and questions; a key that keeps "
            "part of a field, folds capitals, strips or normalises the tenant, or knows the "
            "check's scripts, shares an entry there."
        ),
    ),
    Criterion(
        "equal-requests-hit",
        2,
        "Equal requests get equal keys, each a tuple as the text asks (nothing unstable such as "
        "a timestamp or a counter), and the same question up to case, spaces and punctuation "
        "shares one entry while another question does not; two requests share a key only when "
        "they are equal, whatever characters their fields hold (no separator that a field may "
        "contain).",
        mistakes=(
            "puts a timestamp or a request counter in the key",
            "keys on the raw query, so a question asked in other capitals misses",
            "one string joined with a separator that a field may hold",
            "the words of the question sorted, so two questions share an entry",
            "returns a string or a hash of the fields, not a tuple",
            "a hand-written normaliser that keeps ASCII letters and digits only, so two "
            "questions in another script share an entry",
            "a hand-written normaliser that reads a combining mark as a separator, so two "
            "questions that differ only in a vowel sign share an entry",
            "the raw query where normalize_query gives nothing, so two questions without a "
            "word (punctuation only) miss",
            "the normalised question's spaces taken out, so two questions whose words differ "
            "only where a space falls share an entry",
        ),
        properties=(
            "On generated requests, also with characters moved from one field into the next, "
            "your keys are equal exactly when the requests are equal.",
        ),
        text=(
            "return a **tuple** (a dict key must be hashable) with everything that can change "
            "the answer.",
            "The same question asked with other capitals, spaces or punctuation should share "
            "one entry: use `normalize_query(query)`.",
        ),
        world=(
            "Each grading draws questions the notebook never asks, each in other capitals, "
            "spaces and punctuation (tabs, line breaks, `_`, `/`, `...`, no space after a "
            "comma) and close to other questions (a number changed, two words swapped, a "
            "word left out), and questions without one ASCII letter (Chinese, Russian), the "
            "same one reworded or two different ones, and two Hindi questions that differ only "
            "in a vowel sign (a combining mark), and two questions without a word (punctuation "
            "only), and two whose words differ only where one space falls (a bc, ab c): a "
            "hand-written normalizer that agrees with `normalize_query` on the "
            "notebook's examples only, or a key that keeps the raw query where it normalises to "
            "nothing, gives other keys there; "
            "and pairs of different "
            "searches whose fields, written one after the other with any usual separator or "
            "none, read the same (a tenant ending in a permission version's start, an index "
            "version's digit moved into the question), so a key joined into one string "
            "shares an entry there."
        ),
    ),
)


def cache_key_check(s: Student, t: Tally) -> None:
    """Five scripts replayed with the learner's key, each one part filed under
    :data:`CACHE_RUBRIC` (see the module doc)."""
    keys = _Keys(s.function("cache_key"))
    t.under("equal-requests-hit")
    t.part(functools.partial(_a_tuple, keys))
    t.part(functools.partial(_the_same_question_hits, keys))
    t.part(
        lambda: screened(
            "checkpoints/keys-unequal",
            st.one_of(_requests(), _shifted()),
            keys.apart_only_when_unequal,
            examples=EXAMPLES,
            first=_ODD_FIRST,
        )
    )
    t.part(functools.partial(_same_questions_in_a_world_of_its_own, keys))
    t.part(functools.partial(_shifted_in_a_world_of_its_own, keys))
    t.under("changes-the-answer")
    t.part(functools.partial(_apart_in_a_world_of_its_own, keys))
    for part in (
        _tenants_never_share,
        _an_edited_document_is_not_looked_up_in_an_old_entry,
        _a_new_document_is_found,
        _a_permission_change_is_seen,
    ):
        t.part(functools.partial(part, keys))
    t.part(
        lambda: screened(
            "checkpoints/keys-apart",
            _requests(),
            keys.apart_when_the_answer_may_differ,
            examples=EXAMPLES,
            first=_ONE_FIELD,
        )
    )


#: Generated request lists per property (each request one call into the sandbox).
EXAMPLES = 15

#: What a request may hold (realistic values; two questions with the same words in
#: another order).
VALUES = {
    "tenant": ("acme", "globex", "initech"),
    "permission_version": ("v1:public", "v2:public", "v1:acme-internal,public", "v2:"),
    "index_version": (1, 2, 17),
    "query": ("How fast do orders ship?", "how fast   do ORDERS ship", "ship orders how fast do"),
}
#: The characters a key joined into one string could use to separate its fields.
_SEPARATORS = (":", "|", ",", " ", "/", "-", "_", "", ";", "\t")
#: How two requests of a list differ, as the story tells it (a field's name, never its value):
#: keys of the exercise's catalog.
_FIELD_WORDS = {
    "tenant": "another_tenant",
    "permission_version": "another_permission_version",
    "index_version": "another_index_version",
    "query": "another_query",
}


@st.composite
def _requests(draw: Any) -> list[dict]:
    """Two to five requests: the first drawn whole, each later one the one before with one or
    two fields drawn anew."""
    first = {name: draw(st.sampled_from(options)) for name, options in VALUES.items()}
    out = [first]
    for _ in range(draw(st.integers(1, 4))):
        fields = draw(st.lists(st.sampled_from(sorted(VALUES)), min_size=1, max_size=2))
        out.append({**out[-1], **{f: draw(st.sampled_from(VALUES[f])) for f in fields}})
    return out


@st.composite
def _shifted(draw: Any) -> list[dict]:
    """Two requests whose tenant and permission version, written one after the other with a
    separator between them, read the same: ``a<sep>b`` + ``c`` against ``a`` + ``b<sep>c``."""
    sep = draw(st.sampled_from(_SEPARATORS))
    a, b, c = (draw(st.sampled_from(("acme", "v1", "public", "x"))) for _ in range(3))
    query = "How fast do orders ship?"
    return [
        {"tenant": f"{a}{sep}{b}", "permission_version": c, "index_version": 1, "query": query},
        {"tenant": a, "permission_version": f"{b}{sep}{c}", "index_version": 1, "query": query},
    ]


#: Hand-picked first: requests that differ in one field only (each field once), the same
#: question in other words order, and fields shifted across the usual separators.
_BASE = {
    "tenant": "acme",
    "permission_version": "v1:public",
    "index_version": 1,
    "query": "How fast do orders ship?",
}
_ONE_FIELD = [
    [_BASE, {**_BASE, "tenant": "globex"}],
    [_BASE, {**_BASE, "permission_version": "v2:public"}],
    [_BASE, {**_BASE, "permission_version": "v1:acme-internal,public"}],
    [_BASE, {**_BASE, "index_version": 2}],
]
_ODD_FIRST = [
    [_BASE, {**_BASE, "query": "how fast   do ORDERS ship"}],
    [_BASE, {**_BASE, "query": "ship orders how fast do"}],
    *(
        [
            {**_BASE, "tenant": f"acme{sep}v1", "permission_version": "public"},
            {**_BASE, "permission_version": f"v1{sep}public"},
        ]
        for sep in ("|", ":", ",", " ", "/")
    ),
]


#: Where each field sits in the kit's key (a sentence names a field by its catalog key).
_ORDER = {"tenant": 0, "permission_version": 1, "index_version": 2, "query": 3}


def _told(requests: list[dict], story: Story) -> None:
    story.add(say("a_search"))
    for before, after in zip(requests, requests[1:], strict=False):
        changed = [say(_FIELD_WORDS[f]) for f in _FIELD_WORDS if before[f] != after[f]]
        story.add(_then(changed))


def _then(changed: list[Message]) -> Message:
    """The next search, with the fields it changed (one request draws at most two anew)."""
    if not changed:
        return say("same_search")
    if len(changed) == 1:
        return say("search_with", first=changed[0])
    first, second = changed
    return say("search_with_two", first=first, second=second)


def _compared(got: list[str], want: list[str]) -> Message:
    """How ``got`` differs from ``want`` (what a fresh search finds), without ``want``."""
    if len(got) < len(want):
        return say("more")
    return say("fewer" if len(got) > len(want) else "other_ones")


class _Keys:
    """The learner's ``cache_key``, and the judge of a script replayed with it."""

    def __init__(self, student: Callable[..., Any]):
        self.student = student

    def key(self, tenant: str, permission_version: str, index_version: int, query: str) -> Any:
        """The learner's key; it must be hashable (a dict key)."""
        value = self.student(tenant, permission_version, index_version, query)
        try:
            hash(value)
        except TypeError:
            raise Fail(say("not_hashable", kind=kind_of(value))) from None
        return value

    def _pairs(self, requests: list[dict], story: Story) -> Any:
        """Each pair of requests (numbered from 1), the fields of the kit's key in which they
        differ, and whether the learner's keys and the kit's are equal."""
        _told(requests, story)
        mine = [self.key(**r) for r in requests]
        kits = [cache_key(**r) for r in requests]
        for i in range(len(requests)):
            for j in range(i + 1, len(requests)):
                differ = [f for f in _FIELD_WORDS if kits[i][_ORDER[f]] != kits[j][_ORDER[f]]]
                yield {"i": i + 1, "j": j + 1}, differ, mine[i] == mine[j]

    def apart_when_the_answer_may_differ(self, requests: list[dict], story: Story) -> None:
        """Requests of another tenant, permission version or index version never share a key."""
        for which, differ, same in self._pairs(requests, story):
            core = [f for f in differ if f != "query"]
            if same and core:
                raise Fail(say("same_apart", field=say(core[0]), **which))

    def apart_only_when_unequal(self, requests: list[dict], story: Story) -> None:
        """Equal requests (up to the query's case, spaces and punctuation) share a key; two
        that differ only in the question, or in two or more other fields, do not (a key that
        leaves one field out still tells those apart: that is the core's own property)."""
        for which, differ, same in self._pairs(requests, story):
            if not differ and not same:
                raise Fail(say("equal_apart", **which))
            if same and (differ == ["query"] or len(differ) >= 2):
                raise Fail(say("differ_same", **which))

    def replay(self, script: Script, why: str, *, exact: bool = False) -> None:
        """Replay ``script`` with the learner's key: each search must find what an uncached
        search finds now, and the cache must count no more hits and no more entries thrown
        away by re-verification than with the kit's key (a key that merges what must stay
        apart); ``exact``: the very same hits, misses and entries thrown away. ``why`` is the
        key of the reason the feedback gives."""
        answer, counters = _run(script, self.key)
        truth = _truth(script)
        for got, want in zip(answer, truth, strict=True):
            require(
                got == want,
                say("search_returned", compared=_compared(got, want), why=say(why)),
            )
        _, expected = _run(script, cache_key)
        names = ("hits", "misses", "rejected")
        for name, got, want in zip(names, counters, expected, strict=True):
            if exact:
                require(got == want, say("counted_not", name=say(name), why=say(why)))
            elif name != "misses":
                require(got <= want, say("counted_more", name=say(name), why=say(why)))


_SHIP = "How fast do orders ship?"


def _a_tuple(keys: _Keys) -> None:
    """The key is a tuple (a subclass of tuple too), as the text asks: for the notebook's
    request and for the drawn ones. A string joined from the fields or a number hashed from
    them is hashable, but not what the text asks for (a hash of strings also changes from one
    process to the next)."""
    drawn = drawn_requests()[0]
    for request in (_BASE, drawn[0][0], drawn[-1][1]):
        value = keys.key(**request)
        require(isinstance(value, tuple), say("not_a_tuple", kind=kind_of(value)))


def _the_same_question_hits(keys: _Keys) -> None:
    first = keys.key("acme", "v1:public", 1, _SHIP)
    require(
        first == keys.key("acme", "v1:public", 1, _SHIP),
        say("two_keys"),
    )
    keys.replay(
        [
            ("search", "acme", _SHIP),
            ("search", "acme", _SHIP),
            ("search", "acme", "how fast   do ORDERS ship"),
            ("search", "acme", "Is there a warranty on the blender?"),
        ],
        "why_normalize",
        exact=True,
    )


def _tenants_never_share(keys: _Keys) -> None:
    keys.replay(
        [
            ("grant", "initech", ["public"]),
            ("search", "globex", _SHIP),
            ("search", "initech", _SHIP),
            ("search", "globex", _SHIP),
        ],
        "why_tenants",
    )


def _an_edited_document_is_not_looked_up_in_an_old_entry(keys: _Keys) -> None:
    keys.replay(
        [
            ("search", "acme", _SHIP),
            ("publish", "kb/shipping", "Orders ship within 5 days.", None),
            ("search", "acme", _SHIP),
            ("search", "acme", _SHIP),
        ],
        "why_edited",
    )


def _a_new_document_is_found(keys: _Keys) -> None:
    keys.replay(
        [
            ("search", "globex", _SHIP),
            ("publish", "kb/express", "Express orders ship the same day.", "public"),
            ("search", "globex", _SHIP),
        ],
        "why_new_document",
    )


def _a_permission_change_is_seen(keys: _Keys) -> None:
    keys.replay(
        [
            (
                "publish",
                "globex/warranty-plus",
                "Globex blenders have a three year warranty.",
                "globex-internal",
            ),
            ("search", "globex", "Is there a warranty on the blender?"),
            ("grant", "globex", ["public", "globex-internal"]),
            ("search", "globex", "Is there a warranty on the blender?"),
        ],
        "why_grant",
    )
    keys.replay(
        [
            ("search", "acme", "return a blender within days"),
            ("search", "acme", "return a blender within days", ["public"]),
        ],
        "why_narrower",
    )


def _shifted_in_a_world_of_its_own(keys: _Keys) -> None:
    """Drawn pairs of different requests whose fields, written one after the other, read the
    same never share a key."""
    for first, second in shifted_requests():
        require(keys.key(**first) != keys.key(**second), say("world_shifted"))


def _same_questions_in_a_world_of_its_own(keys: _Keys) -> None:
    """Drawn pairs of requests share a key exactly when ``normalize_query`` makes their
    questions equal."""
    for first, second, same in drawn_requests()[0]:
        equal = keys.key(**first) == keys.key(**second)
        require(equal or not same, say("world_same_question"))
        require(same or not equal, say("world_other_question"))


def _apart_in_a_world_of_its_own(keys: _Keys) -> None:
    """Drawn pairs of requests that differ in the tenant or a version, by a value that holds
    the other's, never share a key."""
    for first, second, field in drawn_requests()[1]:
        require(keys.key(**first) != keys.key(**second), say("world_apart", field=say(field)))
