"""Full-width punctuation in Chinese sentences: the lint and the fix.

A Chinese sentence takes full-width ``，：；（）？！`` and the quotation marks ``“”``; the ASCII
``, : ; ( ) ? !`` and ``"`` read as machine-made there. A mark *touches* Chinese when the
character right before or after it is a CJK ideograph or full-width punctuation (``“”``
included); a ``?`` or ``!`` followed by a space or a line's end on a line of Chinese ends a
Chinese sentence and is made full-width too, and so is a ``:`` or ``;`` ending such a line (it
ends a clause). A pair of parentheses counts as one mark (either parenthesis touching Chinese,
outside or inside, or Chinese anywhere between them makes both full-width, and so does a
full-width partner: a pair never mixes widths). ASCII double quotes pair up in order (the first
of two opens, the second closes) and become ``“`` and ``”`` where the words they quote hold
Chinese; quoted words without Chinese (``"A"``, ``"claimed"``) are a literal value and stay.

A full-width mark carries its own spacing, so one space between it and a word (``（纪元 1） 在``),
a placeholder or another mark is a problem too. A space beside a symbol stays (Markdown's list
marks and table pipes, an arrow ``-> （``), and so do several spaces in a row (they align a
printed table's columns).

Code is left alone: Markdown code spans and fenced blocks, and anything :func:`problems` and
:func:`fixed` are not given (callers pass prose: a notebook's markdown, a catalog's Chinese
strings, a README). A mark between two ASCII characters (``t=2.0 (epoch 2)``, a URL, a format
placeholder's inside) never touches Chinese and stays, and so do the empty pair of a call
(``{fn}()``, ``claim()``: a name right before ``()``) and the ``!`` of a Markdown image.
"""

from __future__ import annotations

import re

__all__ = ["FULL_WIDTH", "QUOTES", "problems", "fixed", "is_chinese", "joined"]

#: ASCII mark -> its full-width form.
FULL_WIDTH = {",": "，", ":": "：", ";": "；", "(": "（", ")": "）", "?": "？", "!": "！"}
#: An ASCII double quote that opens, and one that closes, as full-width quotation marks.
QUOTES = ("“", "”")
_CJK = re.compile(r"[\u201c\u201d\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]")
#: Marks that end a sentence: one followed by a space or the end of a line of Chinese ends a
#: Chinese sentence, whatever comes right before it ("还是 1?").
_ENDS = "?!"
#: Marks that end a clause: one at the end of a line of Chinese ends a Chinese clause, whatever
#: comes right before it ("写出 `f(x)`:"); followed by a space it may be code's (``{seq: 键}``,
#: ``"step": 2``).
_CLAUSE_ENDS = ":;"
#: Left as they are: Markdown fenced blocks and inline code spans, a link's or image's target
#: (``](target)``), a URL, a format placeholder (``{name}``), a call's empty pair and the ``!``
#: that starts a Markdown image.
_CODE = re.compile(
    r"```.*?```|`[^`\n]*`|\]\([^)\s]*\)|https?://[^\s)）]+|\{[^{}\s]*\}(?:\(\))?|(?<=\w)\(\)"
    r"|!(?=\[)",
    re.S,
)


#: Marks written full-width in Chinese (the forms of :data:`FULL_WIDTH`, quotation marks and
#: the others Chinese prose uses): a space beside one is one too many.
_SPACED = "".join(FULL_WIDTH.values()) + "".join(QUOTES) + "。、「」《》【】"
#: One space between a full-width mark and a word, a placeholder or another mark (several
#: spaces align the columns of a printed table; ``-> （`` leaves an arrow its room).
_SPACE = re.compile(f"(?<=[{_SPACED}]) (?=[\\w{{{_SPACED}])|(?<=[\\w}}{_SPACED}]) (?=[{_SPACED}])")


def is_chinese(ch: str) -> bool:
    """A CJK ideograph or a full-width mark."""
    return bool(ch) and bool(_CJK.match(ch))


def _touches(text: str, i: int, holes: bool = False) -> bool:
    # Markdown's emphasis marks stand between a mark and its sentence: `a`,**并且** touches.
    b, a = i - 1, i + 1
    while b > 0 and text[b] == "*":
        b -= 1
    while a + 1 < len(text) and text[a] == "*":
        a += 1
    before = text[b] if b >= 0 else ""
    after = text[a] if a < len(text) else ""
    if holes and (before == "}" or after == "{"):
        return True
    return is_chinese(before) or is_chinese(after)


def _ends_a_chinese_line(
    text: str, i: int, masked: list[bool], *, at_line_end: bool = False
) -> bool:
    """Is the mark at ``i`` followed by a space or a line's end (``at_line_end``: a line's end
    only), on a line holding Chinese outside code?"""
    if i + 1 < len(text) and not (text[i + 1] == "\n" if at_line_end else text[i + 1].isspace()):
        return False
    if i == 0 or text[i - 1].isspace():  # a mark standing alone (SQL's ``= ? AND``) ends nothing
        return False
    start, end = text.rfind("\n", 0, i) + 1, text.find("\n", i)
    end = len(text) if end < 0 else end
    return any(is_chinese(text[j]) and not masked[j] for j in range(start, end))


def _holds_chinese(text: str, start: int, end: int, masked: list[bool]) -> bool:
    """Does the text between ``start`` and ``end`` hold Chinese outside code?"""
    return any(is_chinese(text[j]) and not masked[j] for j in range(start + 1, end))


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


def _masked(text: str) -> list[bool]:
    """For each character of ``text``: is it code (see :data:`_CODE`)?"""
    masked = [False] * len(text)
    for m in _CODE.finditer(text):
        for i in range(m.start(), m.end()):
            masked[i] = True
    return masked


def _spaces(text: str) -> list[tuple[int, int]]:
    """The spaces beside a full-width mark (see :data:`_SPACE`) outside code, as
    ``(start, end)``."""
    masked = _masked(text)
    return [m.span() for m in _SPACE.finditer(text) if not masked[m.start()]]


def _marks(text: str, holes: bool = False) -> list[int]:
    """Indexes of the ASCII marks that touch Chinese (outside code), pairs together."""
    masked = _masked(text)
    pairs = _pairs(text, masked)
    out: set[int] = set()
    quotes = [i for i, ch in enumerate(text) if ch == '"' and not masked[i]]
    for j, k in zip(quotes[::2], quotes[1::2], strict=False):  # an odd one out stays
        # Quoted words with no Chinese inside ("A", "claimed") are a literal value: they stay.
        if any(is_chinese(ch) for ch in text[j + 1 : k]):
            out.update((j, k))
    for i, ch in enumerate(text):
        if masked[i] or ch not in FULL_WIDTH:
            continue
        other = pairs.get(i)
        if (
            _touches(text, i, holes)
            or (other is not None and text[other] in "（）")
            or (ch == "(" and other is not None and _holds_chinese(text, i, other, masked))
            or (ch in _ENDS and _ends_a_chinese_line(text, i, masked))
            or (ch in _CLAUSE_ENDS and _ends_a_chinese_line(text, i, masked, at_line_end=True))
        ):
            out.add(i)
            if other is not None and text[other] in "()":
                out.add(other)
    return sorted(out)


def problems(text: str, holes: bool = False) -> list[str]:
    """Each ASCII mark that touches Chinese in ``text`` and each space beside a full-width
    mark, shown with a few characters around it (empty when there is none). ``holes``:
    ``text`` is a Chinese message template, whose ``{placeholders}`` stand for Chinese text
    too, so a mark beside one touches Chinese."""
    marks = [(i, i + 1) for i in _marks(text, holes)]
    return [repr(text[max(0, i - 8) : j + 8]) for i, j in sorted(marks + _spaces(text))]


def fixed(text: str, holes: bool = False) -> str:
    """``text`` with every ASCII mark that touches Chinese made full-width, until none does
    (a mark made full-width can make its neighbour touch Chinese), then every space beside a
    full-width mark dropped: full-width marks carry their own. ``holes`` as for
    :func:`problems`."""
    while True:
        marks = _marks(text, holes)
        if not marks:
            for start, end in reversed(_spaces(text)):
                text = text[:start] + text[end:]
            return text
        chars = list(text)
        quotes = iter(QUOTES * len(marks))
        for i in marks:
            chars[i] = next(quotes) if text[i] == '"' else FULL_WIDTH[text[i]]
        text = "".join(chars)


#: A space between two Chinese ideographs (a Chinese sentence puts none between its words).
_IDEOGRAPH = r"[\u3400-\u4dbf\u4e00-\u9fff]"
_BETWEEN_IDEOGRAPHS = re.compile(rf"(?<={_IDEOGRAPH}) +(?={_IDEOGRAPH})")


def joined(text: str) -> str:
    """``text`` without the spaces between two Chinese ideographs: a sentence built from parts
    (a subject, then its verb, as English word order spaces them) reads as Chinese writes it.
    A space between Chinese and Latin text (``w1 取消了``) stays."""
    return _BETWEEN_IDEOGRAPHS.sub("", text)
