"""What every ``simlab`` command shares: one-line errors, argument types and path checks.

Written once so the commands cannot drift apart: every parser is a :class:`OneLineErrorParser`,
every number flag rejects NaN and infinity the same way, and every output path is checked by
:func:`writable_file` (or :func:`new_file` where an existing file must not be touched).
"""

from __future__ import annotations

import argparse
import math
import os
from pathlib import Path

__all__ = [
    "UsageError",
    "OneLineErrorParser",
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
    """A mistake in what the user asked for: printed as one line, exit status 2."""


class OneLineErrorParser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose mistakes are one line on stderr, exit status 2.

    Sub-parsers inherit the class, so every ``simlab`` command behaves the same way.
    """

    def error_line(self, message: str) -> str:
        """The one line that says ``message``, the mistake, and points to the help."""
        return f"{self.prog}: error: {message} (see '{self.prog} --help')"

    def error(self, message: str):  # type: ignore[override]
        self.exit(2, self.error_line(message) + "\n")


def flag_of(parser: argparse.ArgumentParser, name: str) -> str:
    """The flag of ``parser`` whose value is the setting ``name`` (its ``dest``): its long
    option (``max_faults`` -> ``--max-faults``), or ``name`` itself when no flag sets it."""
    for action in parser._actions:
        if action.dest == name and action.option_strings:
            return max(action.option_strings, key=len)
    return name


def boolean(text: str) -> bool:
    """``yes``/``no`` (also true/false, on/off, 1/0)."""
    lowered = text.strip().lower()
    if lowered in ("yes", "true", "on", "1"):
        return True
    if lowered in ("no", "false", "off", "0"):
        return False
    raise argparse.ArgumentTypeError(f"expected yes or no, got {text!r}")


def integer(text: str) -> int:
    """A whole number."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None


def number(text: str) -> float:
    """A finite number: NaN and infinity are refused (they would silently disable a check)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if math.isnan(value) or math.isinf(value):
        raise argparse.ArgumentTypeError(f"not a finite number: {text!r}")
    return value


def positive_number(text: str) -> float:
    """A finite number greater than zero."""
    value = number(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be positive, got {text}")
    return value


def positive_int(text: str) -> int:
    """A whole number of at least 1."""
    value = integer(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {text}")
    return value


def non_negative_int(text: str) -> int:
    """A whole number of at least 0."""
    value = integer(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be at least 0, got {text}")
    return value


def positive_ints(text: str) -> list[int]:
    """A comma-separated list of whole numbers of at least 1 (``1000,10000``)."""
    return [positive_int(part.strip()) for part in text.split(",")]


def _folder(p: Path) -> Path:
    return p.parent if str(p.parent) else Path(".")


def new_file(path: str, flag: str) -> Path:
    """A path we may create: it must not exist, and its folder must exist and be writable."""
    p = Path(path)
    if p.exists() or p.is_symlink():
        raise UsageError(f"{flag} {path}: the file exists; give a new path (runs never mix)")
    parent = _folder(p)
    if not parent.is_dir():
        raise UsageError(f"{flag} {path}: folder {str(parent)!r} does not exist")
    if not os.access(parent, os.W_OK):
        raise UsageError(f"{flag} {path}: folder {str(parent)!r} is not writable")
    return p


def writable_file(path: str, flag: str) -> Path:
    """An output file: not a folder, in a folder that exists and is writable (an old file is
    replaced)."""
    p = Path(path)
    parent = _folder(p)
    if p.is_dir():
        raise UsageError(f"{flag} {path}: is a folder")
    if not parent.is_dir() or not os.access(parent, os.W_OK):
        raise UsageError(f"{flag} {path}: cannot write there")
    return p
