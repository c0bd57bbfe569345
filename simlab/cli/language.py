"""The language the command line's parser speaks: chosen from ``--lang`` before parsing, and
argparse's words (usage mistakes, the usage line, the help's headings) in it.

argparse looks up each of its messages through its module's ``_`` and ``ngettext``, which are
gettext's and read compiled catalogues of the process's locale. :func:`speaking` puts the kit's
catalogue (:mod:`simlab.cli.messages`, found by argparse's English) in their place while a
command line is parsed in Chinese and puts gettext's back after, so one parse's language never
leaks into the next. In English nothing is replaced: argparse speaks as it always does.
"""

from __future__ import annotations

import argparse
import unicodedata
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import cache

from simlab.cli import messages
from simlab.i18n.language import LANGS

__all__ = ["lang_in", "speaking", "spoken", "said", "parser_says", "help_in_language"]

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
    for key in ("options", "positional"):
        text = text.replace(f"\n{table[key]}:\n", f"\n{table[key]}：\n")
    prefix = table["usage"]
    if not text.startswith(prefix):
        return text
    usage, blank, rest = text.partition("\n\n")
    wider = " " * (_columns(prefix) - len(prefix))
    lines = usage.split("\n")
    return "\n".join([lines[0], *(wider + line for line in lines[1:])]) + blank + rest


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
