"""The ``simlab`` command line: one sub-command per feature, each in its own module.

Every feature module listed in :data:`COMMANDS` exposes ``register(subparsers)``, which adds its
sub-parser and sets ``func=handler``; a handler takes the parsed namespace and returns an exit
status. User mistakes raise :class:`UsageError` (or ``argparse`` errors) and end as one line on
stderr with exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

__all__ = ["main", "UsageError", "COMMANDS", "OneLineErrorParser", "build_parser"]

#: Sub-command modules, in the order ``simlab --help`` lists them.
COMMANDS: tuple[str, ...] = (
    "simlab.demo",
    "simlab.simcli",
    "simlab.bench",
    "simlab.grading.commands",
    "simlab.releasecli",
)


class UsageError(Exception):
    """A mistake in what the user asked for: printed as one line, exit status 2."""


class OneLineErrorParser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose mistakes are one line on stderr, exit status 2.

    Sub-parsers inherit the class, so every ``simlab`` command behaves the same way.
    """

    def error(self, message: str):  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineErrorParser(
        prog="simlab",
        description=(
            "simlab: see and break durable background tasks. A real SQLite task ledger with "
            "fencing tokens, a seeded fault simulator, an invariant checker and pictures."
        ),
        epilog="Run 'simlab COMMAND --help' for the options of one command.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMANDS:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except UsageError as exc:
        print(f"simlab {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("simlab: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
