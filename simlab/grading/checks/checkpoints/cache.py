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
        ),
    ),
    Criterion(
        "equal-requests-hit",
        2,
        "Equal requests get equal, hashable keys (nothing unstable such as a timestamp or a "
        "counter), and the same question up to case, spaces and punctuation shares one entry "
        "while another question does not.",
        mistakes=(
            "puts a timestamp or a request counter in the key",
            "keys on the raw query, so a question asked in other capitals misses",
        ),
    ),
)


def cache_key_check(s: Student, t: Tally) -> None:
    """Five scripts replayed with the learner's key, each one part filed under
    :data:`CACHE_RUBRIC` (see the module doc)."""
    keys = _Keys(s.function("cache_key"))
    t.under("equal-requests-hit")
    t.part(functools.partial(_the_same_question_hits, keys))
    t.under("changes-the-answer")
    for part in (
        _tenants_never_share,
        _an_edited_document_is_not_looked_up_in_an_old_entry,
        _a_new_document_is_found,
        _a_permission_change_is_seen,
    ):
        t.part(functools.partial(part, keys))


def _compared(got: list[str], want: list[str]) -> str:
    """How ``got`` differs from ``want`` (what a fresh search finds), without ``want``."""
    if len(got) < len(want):
        return "more"
    return "fewer" if len(got) > len(want) else "other ones"


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
            raise Fail(
                f"cache_key() returned {kind_of(value)}, which cannot be a dict key; return a tuple"
            ) from None
        return value

    def replay(self, script: Script, why: str, *, exact: bool = False) -> None:
        """Replay ``script`` with the learner's key: each search must find what an uncached
        search finds now, and the cache must count no more hits and no more entries thrown
        away by re-verification than with the kit's key (a key that merges what must stay
        apart); ``exact``: the very same hits, misses and entries thrown away."""
        answer, counters = _run(script, self.key)
        truth = _truth(script)
        for got, want in zip(answer, truth, strict=True):
            require(
                got == want,
                f"a search returned {len(got)} document(s) where a fresh search now finds "
                f"{_compared(got, want)}: {why}",
            )
        _, expected = _run(script, cache_key)
        names = ("hits", "misses", "entries thrown away by re-verification")
        for name, got, want in zip(names, counters, expected, strict=True):
            if exact:
                require(
                    got == want,
                    f"the cache counted {got} {name} over hidden searches, not what the kit's "
                    f"key gives: {why}",
                )
            elif name != "misses":
                require(
                    got <= want,
                    f"the cache counted {got} {name} over hidden searches, more than the kit's "
                    f"key gives: {why}",
                )


_SHIP = "How fast do orders ship?"


def _the_same_question_hits(keys: _Keys) -> None:
    first = keys.key("acme", "v1:public", 1, _SHIP)
    require(
        first == keys.key("acme", "v1:public", 1, _SHIP),
        "cache_key() gave two different keys for the same arguments",
    )
    keys.replay(
        [
            ("search", "acme", _SHIP),
            ("search", "acme", _SHIP),
            ("search", "acme", "how fast   do ORDERS ship"),
            ("search", "acme", "Is there a warranty on the blender?"),
        ],
        "equal questions (up to case, spaces and punctuation) must share one entry, others "
        "must not; normalize the query",
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
        "two tenants must never share an entry, even with the same permissions",
    )


def _an_edited_document_is_not_looked_up_in_an_old_entry(keys: _Keys) -> None:
    keys.replay(
        [
            ("search", "acme", _SHIP),
            ("publish", "kb/shipping", "Orders ship within 5 days.", None),
            ("search", "acme", _SHIP),
            ("search", "acme", _SHIP),
        ],
        "after a document changes, the index version changes, and so must the key",
    )


def _a_new_document_is_found(keys: _Keys) -> None:
    keys.replay(
        [
            ("search", "globex", _SHIP),
            ("publish", "kb/express", "Express orders ship the same day.", "public"),
            ("search", "globex", _SHIP),
        ],
        "a new document changes the answer: the key must include the index version",
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
        "a changed grant changes the answer: the key must include the permission version",
    )
    keys.replay(
        [
            ("search", "acme", "return a blender within days"),
            ("search", "acme", "return a blender within days", ["public"]),
        ],
        "a sub-agent's narrower grant needs its own entry: include the permission version",
    )
