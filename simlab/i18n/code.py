"""A Chinese notebook's code cells: the English code byte for byte, its comments in Chinese.

The code of a Chinese notebook is the English notebook's (one source of code); what changes is
what a learner reads there:

* each comment (a ``#`` line or a trailing ``#``) is replaced by its translation from the
  store's ``comments`` (English -> Chinese, see :mod:`simlab.i18n.store`). Consecutive comment
  lines that start in the same column are one comment, one sentence often running over
  several lines: the key is their texts joined by one space; a translation holding line
  breaks is written as that many comment lines, each with the English's mark (``#``, or
  ``#:`` for a documentation comment). Markers tools read (``# NBVAL_...``, ``# noqa``,
  ``# fmt:``, ``# type:``, ``### BEGIN/END ...``, ``### HINT:``) are never translated: an
  exercise's hint becomes the code of its stub (``raise NotImplementedError("...")``), the same
  in both languages, and the self-check shows it in the notebook's language
  (:func:`simlab.i18n.language.sentence`);
* the first code cell ends by setting the notebook's language (:data:`LANGUAGE_LINES`), so the
  kit speaks Chinese from there on (:mod:`simlab.i18n.language`);
* the outputs nbval compares are the English ones as the Chinese kernel prints them: each line
  through the notebooks' sentence catalogs (:func:`simlab.i18n.language.lines`), which is what
  the kernel's translated ``stdout`` writes.

Only the tokens ``tokenize`` calls comments change, so the code is the same token for token; a
cell ``tokenize`` cannot read (an IPython magic it chokes on) keeps its comments in English
and :func:`comments` names none of them.
"""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass

from simlab.i18n.language import lines

__all__ = [
    "Comment",
    "comments",
    "translate_comments",
    "LANGUAGE_LINES",
    "PICTURE_LINE",
    "set_language_in",
    "translated_outputs",
]

#: What the first code cell of a Chinese notebook ends with.
LANGUAGE_LINES = (
    "\n\nfrom simlab.learn import set_language\n\n"
    'set_language("zh")  # 从这里起，预测的揭晓、自检、打印的行和图的标题都用中文\n'
)
_MARKER = re.compile(r"#+\s*(NBVAL|noqa|fmt:|type:|BEGIN |END |HINT:|pragma)", re.I)


@dataclass(frozen=True)
class Comment:
    """One comment of a cell: its lines' positions ``(row, start col, end col)`` (rows from 1)
    and its English ``key`` (the lines' texts joined by one space)."""

    key: str
    spans: tuple[tuple[int, int, int], ...]
    alone: bool  # on lines of their own (else a trailing comment after code)


def comments(source: str) -> list[Comment]:
    """The translatable comments of a code cell's source, in order (none if it cannot be
    tokenized)."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return []
    found: list[Comment] = []
    rows = source.splitlines()
    for tok in tokens:
        if tok.type != tokenize.COMMENT or _MARKER.match(tok.string):
            continue
        text = tok.string.lstrip("#").removeprefix(":").strip()
        if not re.search(r"[A-Za-z]", text):
            continue
        (row, col), (_, end) = tok.start, tok.end
        alone = not rows[row - 1][:col].strip()
        last = found[-1] if found else None
        if (
            last is not None
            and alone
            and last.alone
            and last.spans[-1][0] == row - 1
            and last.spans[-1][1] == col
        ):
            found[-1] = Comment(f"{last.key} {text}", (*last.spans, (row, col, end)), True)
        else:
            found.append(Comment(text, ((row, col, end),), alone))
    return found


def translate_comments(source: str, table: dict[str, str]) -> str:
    """``source`` with each comment ``table`` translates replaced (the rest byte for byte)."""
    rows = source.split("\n")
    for comment in reversed(comments(source)):
        zh = table.get(comment.key)
        if not zh:
            continue
        first, col, _ = comment.spans[0]
        indent = " " * col
        mark = "#:" if rows[first - 1][col:].startswith("#:") else "#"
        new = [f"{mark} {part}" for part in zh.split("\n")]
        start = rows[first - 1][:col]
        last_row, _, last_end = comment.spans[-1]
        rest = rows[last_row - 1][last_end:]
        joined = ("\n" + indent).join(new) if comment.alone else " ".join(new)
        rows[first - 1 : last_row] = (start + joined + rest).split("\n")
    return "\n".join(rows)


#: What follows :data:`LANGUAGE_LINES` in a notebook that draws with matplotlib itself: the kit's
#: pictures translate every text a figure draws (:mod:`simlab.plots.fonts`) once imported.
PICTURE_LINE = "\nimport simlab.plots  # 图里由 notebook 自己的代码写的标题、坐标轴和图例也用中文\n"


def set_language_in(source: str, draws: bool = False) -> str:
    """The first code cell's source with the language set at its end (and, when the notebook
    ``draws`` with matplotlib itself, the kit's pictures imported, so its figures speak it)."""
    lines = LANGUAGE_LINES + (PICTURE_LINE if draws else "")
    return source.rstrip("\n") + lines.rstrip("\n")


def translated_outputs(outputs: list, lang: str = "zh") -> list:
    """Stored stream outputs as the ``lang`` kernel prints them (each line through the sentence
    catalogs); other outputs unchanged. The list is changed in place and returned."""
    for out in outputs:
        if out.get("output_type") == "stream":
            text = out.get("text", "")
            text = "".join(text) if isinstance(text, list) else text
            out["text"] = lines(text, lang)
    return outputs
