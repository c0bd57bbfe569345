"""Full-width punctuation in Chinese sentences: the lint and the fix.

A Chinese sentence takes full-width ``，：；（）``; the ASCII ``, : ; ( )`` reads as machine-made
there. A mark *touches* Chinese when the character right before or after it is a CJK ideograph
or full-width punctuation; a pair of parentheses counts as one mark (either parenthesis
touching Chinese, outside or inside, makes both full-width, and so does a full-width partner:
a pair never mixes widths).

Code is left alone: Markdown code spans and fenced blocks, and anything :func:`problems` and
:func:`fixed` are not given (callers pass prose: a notebook's markdown, a catalog's Chinese
strings, a README). A mark between two ASCII characters (``t=2.0 (epoch 2)``, a URL, a format
placeholder's inside) never touches Chinese and stays, and so does the empty pair of a call
(``{fn}()``, ``claim()``: a name right before ``()``).
"""

from __future__ import annotations

import re

__all__ = ["FULL_WIDTH", "problems", "fixed", "is_chinese"]

#: ASCII mark -> its full-width form.
FULL_WIDTH = {",": "，", ":": "：", ";": "；", "(": "（", ")": "）"}
_CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]")
#: Left as they are: Markdown fenced blocks and inline code spans, a link's or image's target
#: (``](target)``), a URL, a format placeholder (``{name}``) and a call's empty pair.
_CODE = re.compile(
    r"```.*?```|`[^`\n]*`|\]\([^)\s]*\)|https?://[^\s)）]+|\{[^{}\s]*\}(?:\(\))?|(?<=\w)\(\)", re.S
)


def is_chinese(ch: str) -> bool:
    """A CJK ideograph or a full-width mark."""
    return bool(ch) and bool(_CJK.match(ch))


def _touches(text: str, i: int, holes: bool = False) -> bool:
    before = text[i - 1] if i > 0 else ""
    after = text[i + 1] if i + 1 < len(text) else ""
    if holes and (before == "}" or after == "{"):
        return True
    return is_chinese(before) or is_chinese(after)


def _pairs(text: str, masked: list[bool]) -> dict[int, int]:
    """Matching parentheses outside code: index of each '(' <-> index of its ')'."""
    stack: list[int] = []
    pairs: dict[int, int] = {}
    for i, ch in enumerate(text):
        if masked[i]:
            continue
        if ch in "(（":
            stack.append(i)
        elif ch in ")）" and stack:
            j = stack.pop()
            pairs[i], pairs[j] = j, i
    return pairs


def _marks(text: str, holes: bool = False) -> list[int]:
    """Indexes of the ASCII marks that touch Chinese (outside code), pairs together."""
    masked = [False] * len(text)
    for m in _CODE.finditer(text):
        for i in range(m.start(), m.end()):
            masked[i] = True
    pairs = _pairs(text, masked)
    out: set[int] = set()
    for i, ch in enumerate(text):
        if masked[i] or ch not in FULL_WIDTH:
            continue
        other = pairs.get(i)
        if _touches(text, i, holes) or (other is not None and text[other] in "（）"):
            out.add(i)
            if other is not None and text[other] in "()":
                out.add(other)
    return sorted(out)


def problems(text: str, holes: bool = False) -> list[str]:
    """Each ASCII mark that touches Chinese in ``text``, shown with a few characters around
    it (empty when there is none). ``holes``: ``text`` is a Chinese message template, whose
    ``{placeholders}`` stand for Chinese text too, so a mark beside one touches Chinese."""
    return [repr(text[max(0, i - 8) : i + 9]) for i in _marks(text, holes)]


def fixed(text: str, holes: bool = False) -> str:
    """``text`` with every ASCII mark that touches Chinese made full-width, until none does
    (a mark made full-width can make its neighbour touch Chinese), and a space right after
    such a comma, colon or semicolon dropped: full-width marks carry their own. ``holes`` as
    for :func:`problems`."""
    while True:
        marks = _marks(text, holes)
        if not marks:
            text = re.sub(r"([，：；]) (?=\S)", r"\1", text)
            return re.sub(r"(?<=\S) （", "（", text)
        chars = list(text)
        for i in marks:
            chars[i] = FULL_WIDTH[text[i]]
        text = "".join(chars)
