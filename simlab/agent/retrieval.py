"""Permission-aware retrieval with a cache that can never serve what it should not.

:meth:`Retriever.search` follows three rules from the chapter:

1. **Filter before ranking.** Candidates are only the documents the grant may read; a document
   outside the grant never takes part in ranking, so it cannot even push others out of the top k.
2. **Re-verify before returning.** Every hit, fresh or cached, is checked again against the
   tenant's *current* grant and the document's *current* version; a hit that fails is dropped
   (and a cached entry with such a hit is thrown away and recomputed).
3. **Key the cache by everything that can change the answer:** ``(tenant, permission version,
   index version, query)`` (:func:`cache_key`). A revocation bumps the permission version and a
   new document version bumps the index version, so old entries can never match again.

Ranking is deterministic: the score is the number of distinct query words (short function words
left out) in the document, ties broken by document ID.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Hashable
from dataclasses import dataclass

from simlab.agent.checkpoint import EvidenceRef
from simlab.agent.world import RETRIEVAL, Grant, PermissionDenied, World

__all__ = [
    "Evidence",
    "RetrievalCache",
    "Retriever",
    "cache_key",
    "normalize_query",
    "check_live",
]

#: The Unicode categories a word is made of: letters, marks (an accent that has no composed
#: form, a vowel sign) and numbers; anything else (spaces, punctuation, symbols) separates words.
_WORD_CATEGORIES = frozenset("LMN")
#: Words too common to say anything about a document.
_STOPWORDS = frozenset(
    "a an and are can do does for how i in is it many much my of on or the there to what "
    "when where which who why with you".split()
)


@dataclass(frozen=True, slots=True)
class Evidence:
    """A retrieved passage with its source and version."""

    source: str
    doc_id: str
    version: int
    text: str
    score: int

    @property
    def ref(self) -> EvidenceRef:
        return EvidenceRef(self.source, self.doc_id, self.version)


def normalize_query(query: str) -> str:
    """The words of ``query``, case-folded, separated by one space: queries that differ only in
    capitals, spaces or punctuation share an entry, and different words never do.

    A word is a run of Unicode letters, marks and numbers in any script (``"退货期限是多少天"``,
    ``"café"``, ``"2"``); every other character separates words, so a question that holds no
    word at all normalises to ``""``. The query is first put in NFKC form: a composed accent and
    a decomposed one, full-width letters and digits (``"ＶＩＰ"``) and full-width punctuation
    (``"？"``) are the same text a reader sees, so they read as their plain forms; case folding
    (``"Straße"`` is ``"strasse"``) comes after, and NFKC again, since folding may leave a
    character that NFKC writes otherwise. Letters are never dropped or replaced by look-alikes
    (``"café"`` and ``"cafe"`` stay two words).
    """
    text = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", query).casefold())
    return " ".join(_words(text))


def _words(text: str) -> list[str]:
    """The runs of letters, marks and numbers of ``text``, in order."""
    return text.translate(_SEPARATORS).split()


class _Separators(dict):
    """A table for ``str.translate``: every character that is not a letter, a mark or a
    number becomes a space, the others stay; each character is classified once, on first use."""

    def __missing__(self, code: int) -> int:
        kept = unicodedata.category(chr(code))[0] in _WORD_CATEGORIES
        self[code] = code if kept else ord(" ")
        return self[code]


_SEPARATORS = _Separators()


def cache_key(tenant: str, permission_version: str, index_version: int, query: str) -> tuple:
    """The cache key of a search: tenant, permission version, index version, normalized query.

    Leave any part out and some cache entry outlives what it depended on: without the tenant one
    tenant reads another's results; without the permission version a revoked grant is still
    served; without the index version an edited document is served in its old version.
    """
    return (tenant, permission_version, index_version, normalize_query(query))


def check_live(world: World, grant: Grant) -> Grant:
    """The tenant's live grant, if ``grant`` is still valid; else :class:`PermissionDenied`.

    A grant is valid while the tenant's live grant is not revoked and has the same version
    (a changed grant, even a wider one, makes every grant derived from the old one stale).
    """
    live = world.grant_for(grant.tenant)
    if live is None or live.revoked:
        raise PermissionDenied(f"tenant {grant.tenant!r}: permission revoked")
    if live.version != grant.version:
        raise PermissionDenied(
            f"tenant {grant.tenant!r}: grant v{grant.version} is out of date (now v{live.version})"
        )
    return live


class RetrievalCache:
    """A plain dict cache with counters; keys come from :func:`cache_key`."""

    def __init__(self) -> None:
        self.entries: dict[tuple, tuple[Evidence, ...]] = {}
        self.hits = 0
        self.misses = 0
        #: cached entries thrown away because a hit failed re-verification
        self.rejected = 0

    def __len__(self) -> int:
        return len(self.entries)


class Retriever:
    """Search the world's documents for a grant; optionally through a shared cache."""

    def __init__(
        self,
        world: World,
        cache: RetrievalCache | None = None,
        *,
        k: int = 3,
        key: Callable[[str, str, int, str], Hashable] = cache_key,
    ):
        if k < 1:
            raise ValueError(f"k must be at least 1, got {k}")
        self.world = world
        self.cache = cache
        self.k = k
        #: the cache key function (replaceable, so an exercise can plug its own in)
        self.key = key

    def search(self, grant: Grant, query: str) -> tuple[Evidence, ...]:
        """The top ``k`` readable documents for ``query``, best first (score > 0 only).

        Raises :class:`PermissionDenied` if the grant is revoked or out of date, before the
        cache is even looked at.
        """
        live = check_live(self.world, grant)
        if "search" not in grant.tools:
            raise PermissionDenied(f"tenant {grant.tenant!r}: tool 'search' not granted")
        key = self.key(grant.tenant, grant.permission_version, self.world.index_version, query)
        if self.cache is not None and key in self.cache.entries:
            cached = self.cache.entries[key]
            if all(self._verified(grant, live, e) for e in cached):
                self.cache.hits += 1
                return cached
            del self.cache.entries[key]
            self.cache.rejected += 1
        if self.cache is not None:
            self.cache.misses += 1
        hits = tuple(e for e in self._rank(grant, query) if self._verified(grant, live, e))
        if self.cache is not None:
            self.cache.entries[key] = hits
        return hits

    def _rank(self, grant: Grant, query: str) -> list[Evidence]:
        words = set(normalize_query(query).split()) - _STOPWORDS
        # Rule 1: the permission filter runs on the candidate list, before any scoring.
        candidates = [d for d in self.world.documents() if grant.allows(d.collection)]
        scored = []
        for doc in candidates:
            score = len(words & set(normalize_query(doc.text).split()))
            if score > 0:
                scored.append(Evidence(RETRIEVAL, doc.doc_id, doc.version, doc.text, score))
        scored.sort(key=lambda e: (-e.score, e.doc_id))
        return scored[: self.k]

    def _verified(self, grant: Grant, live: Grant, hit: Evidence) -> bool:
        """Rule 2: the hit is still readable by both grants and still at the cited version."""
        doc = self.world.document(hit.doc_id)
        return (
            doc is not None
            and doc.version == hit.version
            and grant.allows(doc.collection)
            and live.allows(doc.collection)
        )
