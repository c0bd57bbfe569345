"""The kit's optional parts (pip extras): what each needs, and the one line a missing one gives.

The core (the ledger over SQLite, the simulator, the checker, the notebooks, the grader) installs
with ``pip install simlab``. Each part in :data:`EXTRAS` needs libraries of its own, installed
with ``pip install 'simlab[NAME]'`` (``make`` installs every part, through the ``dev`` extra).
Code that needs one calls :func:`require` before using it: a missing part raises
:class:`MissingExtra`, an ``ImportError`` whose message is one line naming the extra, which the
command line prints as it prints a usage mistake. ``python -m simlab.extras NAME`` checks one
part from a shell (``make app`` does).
"""

from __future__ import annotations

import importlib
import sys
from dataclasses import dataclass
from types import ModuleType

__all__ = ["EXTRAS", "Extra", "MissingExtra", "require"]


@dataclass(frozen=True)
class Extra:
    """One optional part: its extra's name, the module it needs, and what it is for."""

    name: str
    module: str
    purpose: str


#: name -> the optional part (pyproject.toml's ``[project.optional-dependencies]`` lists each).
EXTRAS: dict[str, Extra] = {
    e.name: e
    for e in (
        Extra("postgres", "psycopg", "PostgreSQL ledgers and grading queues, postgresql:// URLs"),
        Extra("app", "voila", "the classroom app, make app: the dashboard served as a page"),
    )
}


class MissingExtra(ImportError):
    """An optional part is not installed; the message names the extra that installs it."""

    def __init__(self, extra: Extra):
        super().__init__(
            f"{extra.module} is not installed ({extra.purpose}): "
            f"pip install 'simlab[{extra.name}]'",
            name=extra.module,
        )
        self.extra = extra


def require(name: str) -> ModuleType:
    """The module optional part ``name`` needs, imported; :class:`MissingExtra` when it is not
    installed."""
    extra = EXTRAS[name]
    try:
        return importlib.import_module(extra.module)
    except ImportError:
        raise MissingExtra(extra) from None


def main(argv: list[str]) -> int:
    """Check the parts named in ``argv``: exit status 0, or 1 and one line per missing part."""
    status = 0
    for name in argv:
        try:
            require(name)
        except MissingExtra as exc:
            print(exc, file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
