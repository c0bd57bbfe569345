"""The requests of the grader's own world for question ``cache-key``
(:mod:`~simlab.grading.checks.checkpoints.cache`), drawn from
:func:`~simlab.grading.checks.hidden_world.rng`: questions the notebook never asks, reworded
or changed a little, also in scripts without ASCII letters (and two that differ only in a
vowel sign that is a combining mark), two without a word (punctuation only), and two whose
words differ only where one space falls; pairs of
searches that differ in one field by a value that holds the other's, by capitals, white space
or Unicode form, or by a version's last digits; and pairs whose fields, written one after the
other, read the same.
Feedback never quotes one (:data:`WORLD_WORDS`)."""

from __future__ import annotations

from typing import Any

from simlab.agent.retrieval import normalize_query
from simlab.grading.checks.hidden_world import look_alikes, rng

__all__ = ["WORLD_WORDS", "JOINS", "drawn_requests", "shifted_requests"]

#: The questions a world of the grader's own asks (none is one the notebook shows), and its
#: tenants: feedback never quotes one (the question's ``hidden``).
_QUESTIONS = (
    "Can I return 2 blenders within 30 days",
    "Is the warranty 2 years for a kettle",
    "Do VIP customers get 60 days to return",
    "What does express shipping cost in euros",
    "Are repairs free during the warranty",
    "How many kettles are left in stock",
)
#: Questions without a single ASCII letter or digit, in two scripts: two of a script are
#: different questions that an ASCII-only normaliser reads as one (both ``""``).
_UNSPACED = ("退货期限是多少天", "订单多快发货", "水壶的保修期是几年", "搅拌机可以退货吗")
_CYRILLIC = ("Сколько стоит доставка", "Когда придёт мой заказ", "Есть ли гарантия на чайник")
#: Pairs of different questions in a script whose vowel signs are combining marks
#: (Devanagari), each pair differing only in one vowel sign ("will I get the mail" and "will I
#: get the goods"; "how much is the oil" and "how much is the lock"): a normaliser that reads a
#: mark as a separator, or drops it, reads the two as one (``normalize_query`` keeps marks in
#: their words).
_MARKED = (
    ("क्या मुझे मेल मिलेगा", "क्या मुझे माल मिलेगा"),
    ("तेल कितने का है", "ताला कितने का है"),
)
#: Questions without a single word (punctuation and spaces only, full width or not):
#: ``normalize_query`` reads each as ``""``, so any two of them share one entry.
_WORDLESS = ("?", "??", "!", "...", "？", "？！", "!?", "…", " ? ", "¿?", "-", "。")
_TENANTS = ("umbrella", "hooli", "vandelay", "wonka", "tyrell", "soylent", "initrode")
#: Words with a composed accent (NFC) a drawn tenant's name may end with.
_ACCENTED = ("café", "zürich", "são-paulo", "malmö")
WORLD_WORDS = frozenset(
    (
        *_QUESTIONS,
        *_UNSPACED,
        *_CYRILLIC,
        *(q for pair in _MARKED for q in pair),
        *_TENANTS,
        *_ACCENTED,
    )
)
#: What may stand between two words of the same question, and after its last: spaces, and
#: punctuation with or without spaces (``normalize_query`` reads each as one space).
_BETWEEN = (" ", "  ", "\t", " \n", ", ", ",", "/", "-", "_", "...", " - ", "; ", ":", " (")
_AFTER = ("", "?", "??", "!", ".", " ?", "?!", "...", ")", " !!")
#: What may stand before and after a question written without spaces between its words (full
#: width or not: ``normalize_query`` reads full-width punctuation as its plain form).
_AROUND_UNSPACED = ("", " ", "\u3000", "“", "「")
_AFTER_UNSPACED = ("", "？", "?", "？？", "！", "。", " ?", "？！", "…", "”", "」")


def _reworded(question: str, r: Any) -> str:
    """``question`` in other capitals, spaces and punctuation (the same question)."""
    words = [
        "".join(c.upper() if r.random() < 0.3 else c.lower() for c in word)
        for word in question.split()
    ]
    text = r.choice(("", " ", "'", "(")) + words[0]
    for word in words[1:]:
        text += r.choice(_BETWEEN) + word
    return text + r.choice(_AFTER)


def _unspaced(question: str, r: Any) -> str:
    """``question`` (its words not separated by spaces) with other spaces and punctuation
    around it (the same question)."""
    return r.choice(_AROUND_UNSPACED) + question + r.choice(_AFTER_UNSPACED)


def _another_question(question: str, r: Any) -> str:
    """Another question close to ``question``: a number changed, two words swapped, or a
    word left out."""
    words = question.split()
    numbers = [i for i, w in enumerate(words) if w.isdigit()]
    how = r.choice(("number", "swap", "drop") if numbers else ("swap", "drop"))
    if how == "number":
        i = r.choice(numbers)
        words[i] = str(int(words[i]) + r.randint(1, 9))
    elif how == "swap":
        i = r.randrange(len(words) - 1)
        words[i], words[i + 1] = words[i + 1], words[i]
    else:
        del words[r.randrange(1, len(words))]
    return " ".join(words)


def drawn_requests() -> tuple[list[tuple[dict, dict, bool]], list[tuple[dict, dict, str]]]:
    """The requests of this grading's world, drawn from
    :func:`~simlab.grading.checks.hidden_world.rng`: pairs of the same question in other
    capitals, spaces and punctuation, or of two close questions (a number changed, two words
    swapped, a word left out), with whether ``normalize_query`` makes them equal, and pairs of
    questions without one ASCII letter (Chinese, Russian), the same one reworded or two
    different ones, and of two Hindi questions that differ only in one vowel sign (a combining
    mark) or of one of them reworded, and of two questions without a word (punctuation only,
    the same empty question), and of two questions whose words differ only where one space
    falls (``a bc`` and ``ab c``, each reworded: other questions); and pairs
    that differ in one field that can change the answer, by a value that holds the other's
    (tenants ``t`` and ``t-labs``, permission versions ``v3:public`` and ``v31:public`` or
    ``v3:public,t-internal``, index versions ``4`` and ``41``), by capitals (``t``, ``T``),
    white space around it (``t ``, `` t``), Unicode form (``ｔ``; a composed accent and a
    decomposed one) or by last digits (index versions ``4127``, ``4128``, ``7127``): with the
    field's name."""
    r = rng("checkpoints/cache-key")
    questions = []
    for question in r.sample(_QUESTIONS, 3):
        tenant = r.choice(_TENANTS)
        base = {
            "tenant": tenant,
            "permission_version": f"v{r.randint(2, 9)}:public,{tenant}-internal",
            "index_version": r.randint(2, 400),
            "query": _reworded(question, r),
        }
        for _ in range(3):
            other = {**base, "query": _reworded(question, r)}
            questions.append((base, other, True))
        for _ in range(2):
            other = {**base, "query": _reworded(_another_question(question, r), r)}
            same = normalize_query(other["query"]) == normalize_query(base["query"])
            questions.append((base, other, same))
    for script, reworded in ((_UNSPACED, _unspaced), (_CYRILLIC, _reworded)):
        first, second = r.sample(script, 2)
        base = {**questions[-1][0], "query": reworded(first, r)}
        questions.append((base, {**base, "query": reworded(first, r)}, True))
        questions.append((base, {**base, "query": reworded(second, r)}, False))
    # Every world holds a pair that differs only in a vowel sign, the same one reworded too.
    first, second = r.sample(r.choice(_MARKED), 2)
    base = {**questions[-1][0], "query": _reworded(first, r)}
    questions.append((base, {**base, "query": _reworded(first, r)}, True))
    questions.append((base, {**base, "query": _reworded(second, r)}, False))
    # And two questions without a word (drawn from a stream of their own, so every other
    # draw stays as it was): one entry, as normalize_query makes both "".
    first, second = rng("checkpoints/cache-key/wordless").sample(_WORDLESS, 2)
    base = {**base, "query": first}
    questions.append((base, {**base, "query": second}, True))
    # And two questions whose words differ only where one space falls (a stream of its own
    # too): other words, so another entry, though their letters run the same.
    joined = rng("checkpoints/cache-key/space-moved")
    words = joined.choice(_QUESTIONS).split()
    i = joined.choice([k for k in range(len(words) - 1) if len(words[k]) > 1])
    moved = [*words[:i], words[i][:-1], words[i][-1] + words[i + 1], *words[i + 2 :]]
    base = {**base, "query": _reworded(" ".join(words), joined)}
    other = {**base, "query": _reworded(" ".join(moved), joined)}
    same = normalize_query(other["query"]) == normalize_query(base["query"])
    questions.append((base, other, same))
    apart = []
    for _ in range(3):
        tenant, n, index = r.choice(_TENANTS), r.randint(1, 9), r.randint(1, 9)
        base = {
            "tenant": tenant,
            "permission_version": f"v{n}:public",
            "index_version": index,
            "query": r.choice(_QUESTIONS),
        }
        # every look-alike kind in every world (a tenant it prefixes, one that ends with it,
        # one it extends), so no family of wrong keys escapes by the luck of a draw
        for field, value in (
            ("tenant", f"{tenant}-labs"),
            ("tenant", f"{tenant[0]}-{tenant}"),
            ("tenant", tenant[:-1]),
            ("tenant", tenant.upper()),
            *(("tenant", alike) for alike in look_alikes(tenant)),
            ("permission_version", f"v{n}{r.randint(0, 9)}:public"),
            ("permission_version", f"v{n}:public,{tenant}-internal"),
            ("index_version", index * 10 + r.randint(0, 9)),
        ):
            apart.append((base, {**base, field: value}, field))
        accented = {**base, "tenant": f"{tenant}-{r.choice(_ACCENTED)}"}  # NFD differs too
        apart += [
            (accented, {**base, "tenant": t}, "tenant") for t in look_alikes(accented["tenant"])
        ]
        edits, field = r.randint(100, 999) * 10 + r.randint(0, 8), "index_version"
        for later in (edits + 1, edits + 1000 * r.randint(1, 9)):  # same first or last digits
            apart.append(({**base, field: edits}, {**base, field: later}, field))
    r.shuffle(questions)
    r.shuffle(apart)
    return questions, apart


#: What a key joined into one string might put between two fields (nothing at all, too).
JOINS = ("", ":", "|", ",", " ", "/", "-", "_", ";", "\t", "@", "#", ".", "+", "~", "\x00")


def shifted_requests() -> list[tuple[dict, dict]]:
    """Pairs of requests of this grading's world that differ, while their fields written one
    after the other read the same: characters moved from the tenant into the permission
    version across each separator of :data:`JOINS` (none too), and, with nothing between
    the fields, digits moved from the permission version into the index version and from the
    index version into the question. Every world holds every separator, so no joined key
    passes by the luck of a draw."""
    r = rng("checkpoints/cache-key-shifted")
    tenant, n = r.choice(_TENANTS), r.randint(1, 9)
    index, digit = r.randint(1, 9), r.randint(1, 9)
    question = r.choice(_QUESTIONS)
    base = {
        "tenant": tenant,
        "permission_version": f"v{n}:public",
        "index_version": index,
        "query": question,
    }
    pairs = [
        (
            {**base, "tenant": f"{tenant}{sep}v{n}", "permission_version": "public"},
            {**base, "permission_version": f"v{n}{sep}public"},
        )
        for sep in JOINS
    ]
    pairs += [
        (
            {**base, "permission_version": f"v{n}:public{digit}"},
            {**base, "index_version": int(f"{digit}{index}")},
        ),
        (
            {**base, "index_version": int(f"{index}{digit}")},
            {**base, "query": f"{digit}{question}"},
        ),
    ]
    r.shuffle(pairs)
    return pairs
