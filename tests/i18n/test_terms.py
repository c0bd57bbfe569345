"""One Chinese term per concept: a re-check is 复验, a breaker opening is 熔断.

Every Chinese text a learner reads (the translation stores, hence the zh notebooks and
exercises, and the rubrics' stores; README.zh.md; every catalog's Chinese templates) says a
concept with its one term; the words it replaced fail here with where they are."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: term -> the words that must not stand in for it
TERMS = {"复验": ("重新检查", "再次守卫", "再检查"), "熔断": ("跳闸",)}
TEXTS = [
    *sorted((ROOT / "i18n" / "zh").rglob("*.json")),
    *sorted((ROOT / "simlab" / "i18n" / "zh" / "rubrics").glob("*.json")),
    ROOT / "README.zh.md",
    ROOT / "simlab" / "grading" / "frame_messages.py",
    ROOT / "simlab" / "learn" / "messages.py",
    ROOT / "simlab" / "plots" / "messages.py",
    *sorted((ROOT / "simlab" / "i18n" / "sentences").glob("*.py")),
    *sorted((ROOT / "simlab" / "grading" / "checks").glob("*/messages.py")),
]


@pytest.mark.parametrize("path", TEXTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_does_each_concept_have_one_chinese_term(path):
    text = path.read_text(encoding="utf-8")
    found = [
        f"{word!r} (say {term!r})"
        for term, others in TERMS.items()
        for word in others
        if word in text
    ]
    assert not found, found
