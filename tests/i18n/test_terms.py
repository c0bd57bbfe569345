"""One Chinese term per concept: a re-check is 复验, a breaker opening is 熔断.

Every Chinese text a learner reads (the translation stores, hence the zh notebooks and
exercises, and the rubrics' stores; README.zh.md; every catalog's Chinese templates, read
through the registry of catalogs) says a concept with its one term; the words it replaced fail
here with where they are."""

from __future__ import annotations

from pathlib import Path

import pytest

from simlab.grading.messages import catalog, catalog_names

ROOT = Path(__file__).resolve().parents[2]
#: term -> the words that must not stand in for it
TERMS = {"复验": ("重新检查", "再次守卫", "再检查"), "熔断": ("跳闸",)}
TEXTS = [
    *sorted((ROOT / "i18n" / "zh").rglob("*.json")),
    *sorted((ROOT / "simlab" / "i18n" / "zh" / "rubrics").glob("*.json")),
    ROOT / "README.zh.md",
]


def _replaced(text: str) -> list[str]:
    """The words in ``text`` that stand in for a term, each with the term to say instead."""
    return [
        f"{word!r} (say {term!r})"
        for term, others in TERMS.items()
        for word in others
        if word in text
    ]


@pytest.mark.parametrize("path", TEXTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_does_each_concept_have_one_chinese_term(path):
    found = _replaced(path.read_text(encoding="utf-8"))
    assert not found, found


@pytest.mark.parametrize("name", catalog_names())
def test_does_each_catalog_say_a_concept_with_its_one_chinese_term(name):
    found = {key: _replaced(text) for key, text in catalog(name).ZH.items()}
    assert not {key: words for key, words in found.items() if words}
