"""The ``simlab`` command line: the only package that imports ``argparse``.

One thin module per command group (parse, call the library, print); what they share (one-line
errors, argument types, path checks) is :mod:`simlab.cli.args`. Every module listed in
:data:`COMMANDS` exposes ``register(subparsers)``, which adds its
sub-parser and sets ``func=handler``; a handler takes the parsed namespace and returns an exit
status. User mistakes raise :class:`UsageError` (or ``argparse`` errors) and end as one line on
stderr with exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from simlab.cli.args import OneLineErrorParser, UsageError

__all__ = ["main", "UsageError", "COMMANDS", "OneLineErrorParser", "build_parser"]

#: Sub-command modules, in the order ``simlab --help`` lists them.
COMMANDS: tuple[str, ...] = (
    "simlab.cli.demo",
    "simlab.cli.sim",
    "simlab.cli.shrink",
    "simlab.cli.bench",
    "simlab.cli.grade",
    "simlab.cli.release",
    "simlab.cli.ledger",
    "simlab.cli.translate",
)


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
