"""The ``simlab`` command line: the only package that imports ``argparse``.

One thin module per command group (parse, call the library, print); what they share (one-line
errors, argument types, path checks) is :mod:`simlab.cli.args`. Every module listed in
:data:`~simlab.cli.parser.COMMANDS` exposes ``register(subparsers)``, which adds its sub-parser
to :func:`~simlab.cli.parser.build_parser`'s and sets ``func=handler``; a handler takes the
parsed namespace and returns an exit status. User mistakes raise :class:`UsageError` (or
``argparse`` errors) and end as one line on stderr with exit status 2, never a traceback; so
does an optional part that is not installed (:class:`~simlab.extras.MissingExtra`, naming the
extra to install), and a setting that makes no sense (:class:`~simlab.errors.SettingError`, its
settings named as the command's flags).

Every command takes ``--lang {en,zh}``; the parser reads it from the command line before parsing
(:mod:`simlab.cli.language`), so with ``--lang zh`` argparse's usage mistakes, the usage line,
the help (its headings, and every sentence of it from :mod:`simlab.cli.helptext`) and the
settings that make no sense are Chinese, exit status 2 all the same; so are the mistakes a
command finds itself (:class:`UsageError`, by message ID in :mod:`simlab.cli.mistakes`) and a
library's message it passes on, when :mod:`simlab.cli.causes` knows its English.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from collections.abc import Sequence

from simlab.cli import helptext
from simlab.cli.args import OneLineErrorParser, UsageError, flag_of
from simlab.cli.language import cause_in, lang_in, mistake_says, said, speaking
from simlab.cli.parser import COMMANDS, build_parser
from simlab.errors import SettingError
from simlab.extras import MissingExtra

__all__ = [
    "main",
    "UsageError",
    "COMMANDS",
    "OneLineErrorParser",
    "build_parser",
]


def _command_parser(parser: argparse.ArgumentParser, command: str) -> OneLineErrorParser:
    """The sub-parser of ``command``."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action.choices[command]
    raise LookupError(command)


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    lang = lang_in(argv)
    with speaking(lang):
        parser = build_parser()
        helptext.translate(parser, lang)
        args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except (UsageError, MissingExtra) as exc:
        line = exc.said(lang) if isinstance(exc, UsageError) else cause_in(str(exc), lang)
        print(mistake_says("error", lang, command=args.command, message=line), file=sys.stderr)
        return 2
    except SettingError as exc:
        command = _command_parser(parser, args.command)
        with speaking(lang):  # as argparse says a flag's mistake, in its language
            line = exc.spelled(lambda name: flag_of(command, name), said(exc.template))
            print(command.error_line(line), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(mistake_says("interrupted", lang), file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader of the output left (``simlab ... | head``): stop quietly, as a command
        # killed by SIGPIPE does. Python flushes stdout again at exit; pointing it at devnull
        # keeps that flush from raising a second time.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return 128 + signal.SIGPIPE


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
