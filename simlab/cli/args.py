"""What every ``simlab`` command shares: one-line errors, argument types and path checks.

Written once so the commands cannot drift apart: every parser is a :class:`OneLineErrorParser`,
every mode is a :class:`Switch` (``--pull``, ``--no-pull``), every number flag rejects NaN and
infinity the same way, and every output path is checked by :func:`writable_file` (or
:func:`new_file` where an existing file must not be touched).
"""

from __future__ import annotations

import argparse
import math
import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from simlab.cli.language import help_in_language, mistake_says, parser_says, spoken, wrapped

__all__ = [
    "UsageError",
    "OneLineErrorParser",
    "Switch",
    "boolean",
    "integer",
    "number",
    "positive_number",
    "positive_int",
    "non_negative_int",
    "new_file",
    "writable_file",
    "flag_of",
]


class UsageError(Exception):
    """A mistake in what the user asked for, found after parsing: the message ``key`` of
    :mod:`simlab.cli.mistakes` with its values, printed as one line in the language chosen
    (:meth:`said`), exit status 2. ``str()`` is the English."""

    def __init__(self, key: str, /, **values: Any):
        super().__init__(key)
        self.key, self.values = key, values

    def __str__(self) -> str:
        return self.said("en")

    def said(self, lang: str) -> str:
        """The mistake in ``lang``, one line: a value typed or read (a path, a roster's
        words) shows its control and invisible characters as escapes
        (:func:`simlab.grading.text.escape`), so it cannot start a line of its own."""
        from simlab.grading.text import escape

        return escape(mistake_says(self.key, lang, **self.values))

    @classmethod
    def passed_on(cls, cause: object) -> UsageError:
        """The mistake a library found (its exception), said as the library says it: in
        Chinese when :mod:`simlab.cli.causes` knows its English."""
        return cls("cause", why=str(cause))


class OneLineErrorParser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose mistakes are one line on stderr, exit status 2, and which
    reads a :class:`Switch` given the old way (``--pull yes``) as the switch.

    Sub-parsers inherit the class, so every ``simlab`` command behaves the same way. The line,
    the usage line and the help's headings are in the language :mod:`simlab.cli.language`
    speaks.
    """

    def error_line(self, message: str) -> str:
        """The one line that says ``message``, the mistake, and points to the help."""
        return parser_says("error_line", prog=self.prog, message=message)

    def error(self, message: str):  # type: ignore[override]
        self.exit(2, self.error_line(message) + "\n")

    def format_help(self) -> str:
        return help_in_language(super().format_help())

    def _get_formatter(self) -> argparse.HelpFormatter:
        formatter = super()._get_formatter()
        if spoken() != "en":
            # argparse wraps with textwrap, which counts a wide character as one column and
            # breaks only at spaces: a Chinese help would run twice the terminal's width.
            # A raw formatter keeps its own line breaks (grade's description and epilog).
            base = argparse.HelpFormatter
            if type(formatter)._split_lines is base._split_lines:
                formatter._split_lines = wrapped  # type: ignore[method-assign]
            if type(formatter)._fill_text is base._fill_text:
                formatter._fill_text = _filled  # type: ignore[method-assign]
        return formatter

    def parse_known_args(self, args: Sequence[str] | None = None, namespace=None):  # type: ignore[override]
        if args is None:
            args = sys.argv[1:]
        parsed, extras = super().parse_known_args(self._respelled(list(args)), namespace)
        for name, value in vars(parsed).items():
            setattr(parsed, name, _unmarked(value))
        return parsed, extras

    def _respelled(self, args: list[str]) -> list[str]:
        """``args`` with each switch of this parser given a value the old way (``--pull yes``,
        ``--pull=no``: any word :func:`boolean` reads) as the switch alone (``--pull``,
        ``--no-pull``), and each text value of an option taken as it is, even when it starts
        with ``-`` (``--student -x``, ``--override -x 01/q 1``: as ``getopt`` reads them); the
        rest as it is, and all of it after ``--``.

        argparse would read a value starting with ``-`` as an unknown option and say the
        option lacks its value. Such a value is marked with a NUL, which no command line can
        contain, so that argparse takes it as a value; :meth:`parse_known_args` takes the mark
        off. A word that is one of this parser's options is never taken as a value, so a
        forgotten value is still the mistake it was (``--queue --report``)."""
        switches = {s for a in self._actions if isinstance(a, Switch) for s in a.option_strings[:1]}
        out: list[str] = []
        i = 0
        while i < len(args):
            token = args[i]
            if token == "--":
                return out + args[i:]
            flag, eq, word = token.partition("=")
            old = None  # the yes or no the switch was given, the old way
            if flag in switches and eq and _is_boolean(word):
                old = word
            elif flag in switches and not eq and i + 1 < len(args) and _is_boolean(args[i + 1]):
                old, i = args[i + 1], i + 1
            if old is not None:
                out.append(flag if boolean(old) else "--no-" + flag.removeprefix("--"))
                i += 1
                continue
            out.append(token)
            i += 1
            action = None if eq else self._text_option(token)
            for _ in range(_arity(action)):
                if i == len(args) or args[i] == "--" or self._is_option(args[i]):
                    break
                value = args[i]
                needs_mark = value[:1] in self.prefix_chars and len(value) > 1
                out.append(_MARK + value if needs_mark and not _NUMBER.match(value) else value)
                i += 1
        return out

    def _text_option(self, token: str) -> argparse.Action | None:
        """The option ``token`` names when its values are texts (no type, no choices), else
        None."""
        named = self._named(token)
        if len(named) != 1:
            return None
        (action,) = named
        return action if action.type is None and action.choices is None else None

    def _is_option(self, word: str) -> bool:
        """Whether ``word`` names one of this parser's options (``--queue``, ``--why=x``)."""
        return bool(self._named(word.partition("=")[0]))

    def _named(self, flag: str) -> set[argparse.Action]:
        """The options ``flag`` names, as argparse reads it: in full, or as the prefix of long
        options (one option: an abbreviation; several: an ambiguous one)."""
        if flag[:1] not in self.prefix_chars:
            return set()
        if flag in self._option_string_actions:
            return {self._option_string_actions[flag]}
        if not (flag.startswith("--") and self.allow_abbrev):
            return set()
        return {a for s, a in self._option_string_actions.items() if s.startswith(flag)}


class Switch(argparse.BooleanOptionalAction):
    """A mode's switch: ``--X`` turns it on, ``--no-X`` off (the one given last wins), as the
    standard library's ``BooleanOptionalAction`` reads it.

    The old spelling with a value (``--X yes``, ``--X no``) still works:
    :class:`OneLineErrorParser` reads it as the switch before parsing, so saved commands run as
    they did. Usage and help show only the switch.
    """


#: Put before a value that starts with ``-`` so that argparse takes it as a value; no word of
#: a command line can hold it (the operating system passes NUL-terminated strings).
_MARK = "\0"

#: What argparse reads as a negative number, a value already (``--late-policy -5``).
_NUMBER = re.compile(r"^-\d+$|^-\d*\.\d+$")


def _arity(action: argparse.Action | None) -> int:
    """How many words after the option are its values, when that is fixed (0 otherwise:
    ``nargs`` of ``?``, ``*``, ``+``, or an option without values)."""
    if action is None or action.nargs == 0:
        return 0
    if action.nargs is None:
        return 1
    return action.nargs if isinstance(action.nargs, int) else 0


def _unmarked(value: Any) -> Any:
    """``value`` with :data:`_MARK` taken off its texts (a list's too)."""
    if isinstance(value, str):
        return value.removeprefix(_MARK)
    if isinstance(value, list):
        return [_unmarked(v) for v in value]
    return value


def _filled(text: str, width: int, indent: str) -> str:
    """A description or epilog as :func:`wrapped` breaks it, each line after ``indent``."""
    return "\n".join(indent + line for line in wrapped(text, width - len(indent)))


def flag_of(parser: argparse.ArgumentParser, name: str) -> str:
    """The flag of ``parser`` whose value is the setting ``name`` (its ``dest``): its long
    option (``max_faults`` -> ``--max-faults``; a switch's ``--pull``, not ``--no-pull``), or
    ``name`` itself when no flag sets it."""
    for action in parser._actions:
        if action.dest == name and action.option_strings:
            strings = (
                action.option_strings[:1] if isinstance(action, Switch) else action.option_strings
            )
            return max(strings, key=len)
    return name


def _is_boolean(text: str) -> bool:
    try:
        boolean(text)
    except argparse.ArgumentTypeError:
        return False
    return True


def boolean(text: str) -> bool:
    """``yes``/``no`` (also true/false, on/off, 1/0)."""
    lowered = text.strip().lower()
    if lowered in ("yes", "true", "on", "1"):
        return True
    if lowered in ("no", "false", "off", "0"):
        return False
    raise argparse.ArgumentTypeError(parser_says("yes_or_no", text))


def integer(text: str) -> int:
    """A whole number."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(parser_says("whole_number", text)) from None


def number(text: str) -> float:
    """A finite number: NaN and infinity are refused (they would silently disable a check)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(parser_says("number", text)) from None
    if math.isnan(value) or math.isinf(value):
        raise argparse.ArgumentTypeError(parser_says("finite", text))
    return value


def positive_number(text: str) -> float:
    """A finite number greater than zero."""
    value = number(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(parser_says("positive", text))
    return value


def _at_least(least: int, text: str) -> int:
    value = integer(text)
    if value < least:
        raise argparse.ArgumentTypeError(parser_says("at_least", least=least, text=text))
    return value


def positive_int(text: str) -> int:
    """A whole number of at least 1."""
    return _at_least(1, text)


def non_negative_int(text: str) -> int:
    """A whole number of at least 0."""
    return _at_least(0, text)


def positive_ints(text: str) -> list[int]:
    """A comma-separated list of whole numbers of at least 1 (``1000,10000``)."""
    return [positive_int(part.strip()) for part in text.split(",")]


def _folder(p: Path) -> Path:
    return p.parent if str(p.parent) else Path(".")


def new_file(path: str, flag: str) -> Path:
    """A path we may create: it must not exist, and its folder must exist and be writable."""
    p = Path(path)
    if p.exists() or p.is_symlink():
        raise UsageError("file_exists", flag=flag, path=path)
    parent = _folder(p)
    if not parent.is_dir():
        raise UsageError("no_folder", flag=flag, path=path, folder=str(parent))
    if not os.access(parent, os.W_OK):
        raise UsageError("folder_not_writable", flag=flag, path=path, folder=str(parent))
    return p


def writable_file(path: str, flag: str) -> Path:
    """An output file: not a folder, in a folder that exists and is writable (an old file is
    replaced)."""
    p = Path(path)
    parent = _folder(p)
    if p.is_dir():
        raise UsageError("is_folder", flag=flag, path=path)
    if not parent.is_dir() or not os.access(parent, os.W_OK):
        raise UsageError("cannot_write_there", flag=flag, path=path)
    return p
