"""The ``simlab`` parser: the top command, one sub-parser per command module, ``--lang`` on
each.

Every module listed in :data:`COMMANDS` exposes ``register(subparsers)``, which adds its
sub-parser and sets ``func=handler``. The parser is built in English and in the language
:mod:`simlab.cli.language` speaks for argparse's own words; its help sentences are put in
another language by :func:`simlab.cli.helptext.translate`, which reads this parser (and so
this module imports no catalog of them).
"""

from __future__ import annotations

import argparse
import importlib

from simlab.cli.args import OneLineErrorParser
from simlab.i18n.language import LANGS

__all__ = ["COMMANDS", "build_parser", "commands"]

#: Sub-command modules, in the order ``simlab --help`` lists them.
COMMANDS: tuple[str, ...] = (
    "simlab.cli.demo",
    "simlab.cli.sim",
    "simlab.cli.shrink",
    "simlab.cli.explore",
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
    for command in commands(parser):
        if "--lang" not in command._option_string_actions:
            command.add_argument(
                "--lang",
                choices=LANGS,
                default="en",
                help="language of its help and usage mistakes; what it prints is English [en]",
            )
    return parser


def commands(parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    """The parsers of every command under ``parser``, sub-commands included (``bench
    shrink``), each once (an alias shares its command's parser)."""
    found: list[argparse.ArgumentParser] = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for command in action.choices.values():
                if command not in found:
                    found += [command, *commands(command)]
    return found
