"""The language the command line speaks: chosen from ``--lang`` before parsing; argparse's words
(usage mistakes, the usage line, the help's headings) and the mistakes a command finds itself in
it.

argparse looks up each of its messages through its module's ``_`` and ``ngettext``, which are
gettext's and read compiled catalogues of the process's locale. :func:`speaking` puts the kit's
catalogue (:mod:`simlab.cli.messages`, found by argparse's English) in their place while a
command line is parsed in Chinese and puts gettext's back after, so one parse's language never
leaks into the next. In English nothing is replaced: argparse speaks as it always does. A help
in Chinese is laid out for Chinese (:func:`help_in_language`, :func:`wrapped`); its sentences
are :mod:`simlab.cli.helptext`'s.

A mistake a command finds after parsing is a message of :mod:`simlab.cli.mistakes` by ID
(:func:`mistake_says`). A field of it named ``why`` holds text another part of the kit wrote
in English (a library's exception); :func:`cause_in` says it in the language chosen when
:mod:`simlab.cli.causes` holds its English, and leaves it as it is otherwise.
"""

from __future__ import annotations

import argparse
import re
import unicodedata
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import cache

from simlab.cli import causes, messages, mistakes
from simlab.i18n import reading
from simlab.i18n.language import LANGS

__all__ = [
    "lang_in",
    "speaking",
    "spoken",
    "said",
    "parser_says",
    "help_in_language",
    "mistake_says",
    "cause_in",
]

_STATE = {"lang": "en"}


def lang_in(argv: Sequence[str]) -> str:
    """The language ``argv`` asks for with ``--lang X`` or ``--lang=X`` (the last one given,
    as argparse reads it; none after ``--``); ``"en"`` when it asks none, or one the kit does
    not speak (the parser then refuses that value, in English)."""
    lang = "en"
    tokens = list(argv)
    for i, token in enumerate(tokens):
        if token == "--":
            break
        if token == "--lang" and i + 1 < len(tokens):
            lang = tokens[i + 1]
        elif token.startswith("--lang="):
            lang = token.partition("=")[2]
    return lang if lang in LANGS else "en"


def spoken() -> str:
    """The language of the parse under way (``"en"`` outside :func:`speaking`)."""
    return _STATE["lang"]


@cache
def _by_english(lang: str) -> dict[str, str]:
    """English template -> its ``lang`` template, for every ID of the catalogue."""
    table = getattr(messages, lang.upper())
    return {english: table[key] for key, english in messages.EN.items()}


def said(english):
    """``english`` (a message argparse or the kit looks up by its English) in the language
    spoken; unchanged in English, and for text the catalogue does not hold (argparse passes
    ``None`` for a missing description, which stays ``None``)."""
    if spoken() == "en" or not isinstance(english, str):
        return english
    return _by_english(spoken()).get(english, english)


def _said_n(singular: str, plural: str, n: int) -> str:
    return said(singular if n == 1 else plural)


def parser_says(key: str, /, *args, **values) -> str:
    """The catalogue's message ``key`` in the language spoken, filled ``%``-style with
    ``values`` (or the one positional value)."""
    template = getattr(messages, spoken().upper())[key]
    return template % (values if values else args[0] if len(args) == 1 else args)


def help_in_language(text: str) -> str:
    """A help text as the language spoken writes it: in Chinese the section titles end with a
    full-width colon (argparse writes an ASCII one after every title), and the usage line's
    continuation lines stay under its first argument (argparse counts the prefix's characters,
    and each of the Chinese prefix's takes two columns)."""
    if spoken() == "en":
        return text
    table = getattr(messages, spoken().upper())
    text = _TITLE.sub(r"\1：", text)
    prefix = table["usage"]
    if not text.startswith(prefix):
        return text
    usage, blank, rest = text.partition("\n\n")
    wider = " " * (_columns(prefix) - len(prefix))
    lines = usage.split("\n")
    return "\n".join([lines[0], *(wider + line for line in lines[1:])]) + blank + rest


#: A section title of a help that ends in a wide character, and the ASCII colon argparse adds.
_TITLE = re.compile(r"(?m)^([^ \n][^\n]*[^\x00-\x7f]):$")
#: Full-width marks that close a clause: a line never starts with one.
_NO_LINE_START = frozenset("，。：；）”、！？")
#: Full-width marks that open one: a line never ends with one.
_NO_LINE_END = frozenset("（“")


def wrapped(text: str, width: int) -> list[str]:
    """``text``, its white space folded, in lines of at most ``width`` terminal columns, as
    argparse wraps a help in English: broken at a space, and in Chinese also before a wide
    character, never before a full-width mark that closes a clause nor after one that opens it
    (the character before the mark goes to the next line with it). A word longer than the line
    keeps a line of its own."""
    lines: list[str] = []
    line: list[str] = []
    for unit in _units(" ".join(text.split())):
        if unit != " " and _columns("".join(line) + unit) > width:
            cut = len(line)
            if unit in _NO_LINE_START:
                while cut and line[cut - 1] in _NO_LINE_START:
                    cut -= 1
                cut -= 1
            while cut > 0 and line[cut - 1] in _NO_LINE_END:
                cut -= 1
            if "".join(line[:cut]).strip():
                lines.append("".join(line[:cut]).rstrip())
                line = line[cut:] if line[cut:] != [" "] else []
        if unit != " " or line:
            line.append(unit)
    return [*lines, "".join(line).rstrip()] if line else lines


def _units(text: str) -> Iterator[str]:
    """``text`` as what a line may break between: a space, one wide character, or a run of
    narrow ones."""
    word = ""
    for c in text:
        if c != " " and _columns(c) == 1:
            word += c
            continue
        if word:
            yield word
            word = ""
        yield c
    if word:
        yield word


def _columns(text: str) -> int:
    """The terminal columns ``text`` takes: two for each wide (East Asian) character."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


@contextmanager
def speaking(lang: str) -> Iterator[None]:
    """Parse in ``lang`` within the block: argparse's lookups answer from the kit's catalogue
    (in English they stay gettext's). The previous language and lookups come back after."""
    saved = _STATE["lang"], argparse._, argparse.ngettext
    _STATE["lang"] = lang
    if lang != "en":
        # argparse reads these two names of its module at each message; the kit's catalogue is
        # plain data, not a compiled gettext catalogue gettext could find.
        argparse._ = said
        argparse.ngettext = _said_n
    try:
        yield
    finally:
        _STATE["lang"], argparse._, argparse.ngettext = saved


# ------------------------------------------------------ the mistakes a command finds itself ---


def mistake_says(key: str, lang: str, /, **values) -> str:
    """The message ``key`` of :mod:`simlab.cli.mistakes` in ``lang``, filled with ``values``
    (``str.format``): a tuple is joined as the language lists names (``mistakes.and``), and a
    field named ``why...`` is said through :func:`cause_in`."""
    table = getattr(mistakes, lang.upper())
    filled = {}
    for name, value in values.items():
        if isinstance(value, tuple):
            value = table["and"].join(str(v) for v in value)
        elif name.startswith("why") and isinstance(value, str):
            value = cause_in(value, lang)
        filled[name] = value
    return table[key].format(**filled)


def cause_in(english: str, lang: str) -> str:
    """``english`` (a library's message) in ``lang``: the template of :mod:`simlab.cli.causes`
    whose English it is, its fields kept as the English has them (a ``why...`` field said the
    same way, a template matching only where that field does too); unchanged in English, or
    when no template matches. Of several readings the most specific wins
    (:func:`simlab.i18n.reading.best`)."""
    if lang == "en":
        return english
    found = _cause(english, lang)
    return english if found is None else found[0]


@cache
def _cause(english: str, lang: str) -> tuple[str, int] | None:
    """(``english`` said in ``lang``, how many of its characters the templates' literal text
    matched), by its most specific reading; None when no template matches."""
    found = reading.best(_causes(lang), english, lambda name, value: _why(name, value, lang))
    if found is None:
        return None
    translation, values, score = found
    return reading.filled(translation, values), score


def _why(name: str, value: str, lang: str) -> tuple[str, int] | None:
    """A field's value as :func:`_cause` reads it: a ``why...`` field's by its own reading (no
    reading refuses it), any other's as it stands."""
    return _cause(value, lang) if name.startswith("why") else (value, 0)


@cache
def _causes(lang: str) -> list[tuple[tuple[str, ...], str]]:
    """(the English template as :func:`simlab.i18n.reading.parts` splits it, its ``lang``
    template), for every template :func:`cause_in` reads."""
    tables = [(causes, lambda key: True), (messages, lambda key: key.startswith("setting."))]
    # A setting's template (the simulator's SettingError) names its settings as fields too.
    return [
        (reading.parts(english), getattr(module, lang.upper())[key])
        for module, wanted in tables
        for key, english in module.EN.items()
        if wanted(key)
    ]
