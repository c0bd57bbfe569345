"""Text a person reads: what a submission can put in a report, bounded where it is taken in
and escaped once, where it is shown.

Everything a notebook can influence (feedback built from its answers, exception and class
names, the sandbox's own reports, file and folder names) is untrusted text. A grade carries it
as it was produced, bounded in size where the grader takes it in (:func:`bounded`: no notebook
fills memory or the queue's store), never escaped. Each medium escapes it once, as it writes
it, through its one function here:

* terminal text: :func:`for_people` (feedback, errors, names) and :func:`shown_path` (a file
  name): every control or invisible formatting character shown as a visible escape
  (:func:`escape`: ``\\n``, ``\\x1b``, ``\\u202e``), so no submission can start a line, move
  the cursor or colour the terminal: each report line is one line, and only the grader starts
  one; a file name is quoted when it holds anything but letters, digits, spaces and plain path
  punctuation, so a name such as ``x: 17/17  (fencing)`` never reads as a score line;
* JSON: :func:`json_line`, the text itself in JSON's own escapes, every control or formatting
  character among them;
* CSV: :func:`csv_cell`, escaped as for a terminal and never starting like a formula;
* HTML: :func:`for_html`, escaped as for a terminal, then HTML's entities.

A sentence that names a file holds :func:`quoted_path` (quoted as :func:`shown_path` quotes,
not escaped): the medium that shows the sentence escapes it with the rest.

:func:`plain` is the filter for text that may quote a hidden input (a seed, a URL, a host):
only plain words pass. :func:`plain_name` applies it to class and type names, and
:func:`quotes_hidden` finds the plain words of a question's hidden records in a failure.
"""

from __future__ import annotations

import contextlib
import contextvars
import csv
import functools
import html
import json
import os
import re
import unicodedata
from collections.abc import Callable, Iterator
from pathlib import Path, PurePath
from typing import Any

__all__ = [
    "FEEDBACK_CHARS",
    "SHOWN_CHARS",
    "bounded",
    "escape",
    "for_people",
    "for_html",
    "json_line",
    "quoted_path",
    "path_text",
    "shown_path",
    "plain",
    "plain_name",
    "csv_cell",
    "csv_writer",
    "quotes_hidden",
    "WITHHELD",
]

#: Characters of feedback (or of an error) one grade may carry: the bound where it is taken in.
FEEDBACK_CHARS = 400
#: Characters one line of feedback may take where it is shown escaped (an escape takes up to
#: ten characters for one).
SHOWN_CHARS = 2 * FEEDBACK_CHARS

#: Unicode categories shown escaped: controls, invisible formatting (bidi overrides, zero
#: widths), line and paragraph separators, surrogates, private and unassigned code points.
_HIDDEN = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"})
#: The invisible (default-ignorable) code points of other categories: Hangul fillers, the
#: combining grapheme joiner, Mongolian and other variation selectors (letters and marks).
_IGNORABLE = frozenset(
    [0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x3164, 0xFFA0]
    + [*range(0x180B, 0x1810), *range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)]
)
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _hidden(ch: str) -> bool:
    """Whether ``ch`` does not show as itself (see :data:`_HIDDEN`, :data:`_IGNORABLE`)."""
    return unicodedata.category(ch) in _HIDDEN or ord(ch) in _IGNORABLE


def _escaped(ch: str) -> str:
    if ch in _NAMED:
        return _NAMED[ch]
    if not _hidden(ch):
        return ch
    code = ord(ch)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def escape(text: str) -> str:
    """``text`` with every control, formatting or separator character as a visible escape;
    printable text (Chinese included) is kept. Escaping twice changes nothing more."""
    return "".join(_escaped(ch) for ch in str(text))


def _cut(text: str, limit: int, piece: Callable[[str], str]) -> str:
    """``text`` with each character written as ``piece`` writes it, cut to at most ``limit``
    characters (ending in ``...`` when cut); a piece is never cut in half. The work is bounded
    by ``limit``, not by the text."""
    text = str(text)
    out: list[str] = []
    size = 0
    for ch in text[: limit + 1]:
        written = piece(ch)
        if size + len(written) > limit:
            break
        out.append(written)
        size += len(written)
    else:
        if len(text) <= limit:
            return "".join(out)
    while out and size > limit - 3:
        size -= len(out.pop())
    return "".join(out).rstrip() + "..."


def _same(ch: str) -> str:
    return ch


def bounded(text: str, limit: int = FEEDBACK_CHARS) -> str:
    """``text`` as it is, cut to at most ``limit`` characters (ending in ``...`` when cut): the
    bound of a text where it is taken in. Nothing is escaped: each medium escapes it."""
    return _cut(text, limit, _same)


def for_people(text: str, limit: int = FEEDBACK_CHARS) -> str:
    """``text`` for a terminal: escaped (:func:`escape`) and cut to at most ``limit``
    characters (ending in ``...`` when cut); an escape is never cut in half. The work is
    bounded by ``limit``."""
    return _cut(text, limit, _escaped)


def for_html(text: str, limit: int = FEEDBACK_CHARS) -> str:
    """``text`` for an HTML page: escaped as for a terminal (:func:`for_people`), then ``&``,
    ``<``, ``>`` and quotes as HTML entities."""
    return html.escape(for_people(text, limit))


def json_line(data: Any) -> str:
    """``data`` as one line of JSON (and its newline): texts as they are, in JSON's escapes,
    every control, formatting or separator character among them (outside ASCII as a
    ``\\uXXXX`` escape), so the line prints as one harmless line and decodes to the very same
    values."""
    line = json.dumps(data, ensure_ascii=False)
    return "".join(_json_escaped(ch) if ord(ch) >= 0x7F else ch for ch in line) + "\n"


def _json_escaped(ch: str) -> str:
    if not _hidden(ch):
        return ch
    return "\\u007f" if ch == "\x7f" else json.dumps(ch)[1:-1]


#: Characters a file name may hold and still be shown bare.
_BARE_PUNCTUATION = frozenset(" ._-+/,~@()[]#=")
#: Categories of the non-ASCII characters a bare name may hold: letters and digits of any
#: script with their marks, not modifier letters or symbols (``ː``, ``꞉`` look like a colon).
_BARE_CATEGORIES = frozenset({"Lu", "Ll", "Lt", "Lo", "Nd", "Mn", "Mc"})


def _bare(ch: str) -> bool:
    if ch.isascii():
        return ch.isalnum() or ch in _BARE_PUNCTUATION
    return unicodedata.category(ch) in _BARE_CATEGORIES and not _hidden(ch)


def path_text(path: str | PurePath) -> str:
    """A file name as text a grade can carry and every medium can write: as it is, but for the
    bytes of it that are not UTF-8 (which the system hands over as lone surrogates, which no
    UTF-8 file, store or strict JSON reader takes), each written as ``\\xNN``."""
    text = str(path)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return os.fsencode(text).decode("utf-8", "backslashreplace")
    return text


def quoted_path(path: str | PurePath) -> str:
    """A file name as a sentence names it, not escaped: as it is when it holds only letters
    and digits (of any script), spaces and ``._-+/,~@()[]#=``, else in double quotes with a
    backslash or a quote inside written with a backslash (so two names never look alike). A
    quoted name (a colon or a look-alike in it, a quote, a control character) cannot be
    mistaken for a score line once the medium escapes it."""
    text = path_text(path)
    if text and all(_bare(ch) for ch in text):
        return text
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def shown_path(path: str | PurePath) -> str:
    """A file name for a terminal: :func:`quoted_path`, escaped (:func:`escape`)."""
    return escape(quoted_path(path))


#: Plain words: letters, spaces and simple punctuation (a final period allowed). No digit,
#: quote, bracket, ``@``, slash, dot inside: nothing that can spell a seed, a URL or a host.
_PLAIN = re.compile(r"[A-Za-z][A-Za-z ,;:!?()_-]*\.?")
#: A class or type name that may be shown: letters and underscores, as Python spells one.
_NAME = re.compile(r"[A-Za-z_][A-Za-z_]*")


def plain(text: str, limit: int = 80) -> bool:
    """Is ``text`` plain words of at most ``limit`` characters (see :data:`_PLAIN`)?"""
    return isinstance(text, str) and 0 < len(text) <= limit and bool(_PLAIN.fullmatch(text))


def plain_name(name: str, limit: int = 40) -> str | None:
    """``name`` when it may be shown as a class or type name (letters and underscores, at most
    ``limit`` characters: it cannot spell a seed, a URL or a host), else None."""
    if isinstance(name, str) and 0 < len(name) <= limit and _NAME.fullmatch(name):
        return name
    return None


_NOT_LETTERS = re.compile(r"[^0-9a-z]")


def _letters(text: str) -> str:
    return _NOT_LETTERS.sub("", text.lower())


@functools.lru_cache(maxsize=256)
def _hidden_forms(hidden: frozenset[str] | tuple[str, ...]) -> tuple[tuple[str, ...], Any]:
    """What :func:`quotes_hidden` looks for, once per set of hidden strings: the letters and
    digits of the long ones, and one pattern of the short ones as whole words (None: none)."""
    cores = tuple(c for h in hidden if len(c := _letters(h)) >= 6)
    shorts = sorted(h for h in hidden if len(_letters(h)) < 6 and len(h) >= 3)
    words = "|".join(rf"(?<!\w){re.escape(h)}(?!\w)" for h in shorts)
    return cores, re.compile(words, re.IGNORECASE) if shorts else None


def quotes_hidden(text: str, hidden: frozenset[str] | tuple[str, ...]) -> bool:
    """Does ``text`` quote one of the ``hidden`` strings (a hidden record's values)? A long
    one (six letters and digits or more) counts however it is spelt: any case, with spaces or
    punctuation in between or left out; a shorter one counts as a whole word in any case."""
    if not hidden:
        return False
    cores, words = _hidden_forms(hidden)
    squeezed = _letters(text)
    return any(core in squeezed for core in cores) or (
        words is not None and words.search(text) is not None
    )


#: What feedback says instead of a failure that would quote a hidden input.
WITHHELD = "a hidden case failed (what your code said there is not shown: it quotes a hidden input)"


def csv_cell(text: str, limit: int | None = None) -> str:
    """A text cell of a CSV: escaped as for a terminal (cut to ``limit`` characters when
    given), and with a leading ``'`` when it starts like a spreadsheet formula (``=``, ``+``,
    ``-``, ``@``), so opening the CSV runs nothing."""
    text = escape(text) if limit is None else for_people(text, limit)
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


@contextlib.contextmanager
def csv_writer(path: str | PurePath) -> Iterator[Any]:
    """A :func:`csv.writer` whose rows reach ``path`` whole: they are written to a file beside
    it, renamed over it when the block ends, and removed when it raises. A run stopped while
    writing leaves the old file (or none), never a part of one."""
    target = Path(path)
    partial = target.with_name(f".{target.name}.partial-{os.getpid()}")
    try:
        with partial.open("w", newline="", encoding="utf-8") as f:
            yield csv.writer(f)
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)


_QUIET: contextvars.ContextVar[bool] = contextvars.ContextVar("simlab_quiet", default=False)


@contextlib.contextmanager
def quiet_feedback(on: bool = True) -> Iterator[None]:
    """While it lasts (in this thread), feedback quotes no free text of the learner's: no
    string it returned, no name of a class of its own. For the parts of a question whose hidden
    inputs reach the learner's code, where any free text could spell one in code words."""
    token = _QUIET.set(on or _QUIET.get())
    try:
        yield
    finally:
        _QUIET.reset(token)


def is_quiet() -> bool:
    """Is feedback quiet here (see :func:`quiet_feedback`)?"""
    return _QUIET.get()
