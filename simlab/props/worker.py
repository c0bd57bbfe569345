"""``python -m simlab.props.worker COMMAND ...``: the real worker processes' command line.

Not a ``simlab`` sub-command: the demo, the race, the stress test and a learner's notebook start
these processes themselves, so the entry point sits with the props it runs (the packages that
start a worker may point here; none of them may point at ``simlab.cli``). The work is
:mod:`simlab.props.processes`; this module only reads the command line, from each command's
signature:

* a parameter without a default that is not keyword-only is a positional argument, in order;
* every other parameter is an option ``--name VALUE`` (``--name`` alone for one whose default is
  a bool), of the type of its default (a string when the default is ``None``);
* a keyword-only parameter without a default is a required option.

A mistake is one line on stderr, exit status 2, as for every ``simlab`` command.
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable
from typing import Any

from simlab.props import processes

__all__ = ["COMMANDS", "main"]

PROG = "python -m simlab.props.worker"

#: command -> the function of :mod:`simlab.props.processes` it runs
COMMANDS: dict[str, Callable[..., int]] = {
    "resume": processes.resume,
    "race": processes.race,
    "fleet": processes.fleet,
}


class _Usage(Exception):
    """A mistake on the worker's command line."""


def _usage(command: str, function: Callable[..., int]) -> str:
    words = [command]
    for p in inspect.signature(function).parameters.values():
        if p.default is p.empty and p.kind is not p.KEYWORD_ONLY:
            words.append(p.name.upper())
        elif p.default is p.empty:
            words.append(f"--{p.name} VALUE")
        elif isinstance(p.default, bool):
            words.append(f"[--{p.name}]")
        else:
            words.append(f"[--{p.name} VALUE]")
    return " ".join(words)


_KINDS = {int: "an integer", float: "a number"}


def _convert(name: str, default: Any, text: str) -> Any:
    kind = str if default is None or default is inspect.Parameter.empty else type(default)
    try:
        return kind(text)
    except ValueError:
        raise _Usage(f"--{name} takes {_KINDS.get(kind, kind.__name__)}, not {text!r}") from None


def _parse(argv: list[str]) -> tuple[Callable[..., int], list[Any], dict[str, Any]]:
    """``(function, args, kwargs)`` for ``argv``; a mistake raises :class:`_Usage`, one line."""
    if not argv or argv[0] not in COMMANDS:
        got = repr(argv[0]) if argv else "nothing"
        raise _Usage(f"a command is one of {', '.join(COMMANDS)}, got {got}")
    command, rest = argv[0], argv[1:]
    function = COMMANDS[command]
    params = inspect.signature(function).parameters
    positional = [
        p.name for p in params.values() if p.default is p.empty and p.kind is not p.KEYWORD_ONLY
    ]
    options = {name.replace("_", "-"): p for name, p in params.items() if name not in positional}
    args: list[Any] = []
    kwargs: dict[str, Any] = {}
    i = 0
    while i < len(rest):
        word = rest[i]
        if word.startswith("--"):
            param = options.get(word[2:])
            if param is None:
                raise _Usage(
                    f"{command}: unknown option {word} (usage: {_usage(command, function)})"
                )
            if isinstance(param.default, bool):
                kwargs[param.name] = True
                i += 1
                continue
            if i + 1 >= len(rest):
                raise _Usage(f"{command}: {word} needs a value")
            kwargs[param.name] = _convert(param.name, param.default, rest[i + 1])
            i += 2
        else:
            args.append(word)
            i += 1
    missing = positional[len(args) :] + [
        f"--{p.name}" for p in options.values() if p.default is p.empty and p.name not in kwargs
    ]
    if len(args) > len(positional) or missing:
        raise _Usage(f"usage: {PROG} {_usage(command, function)}")
    return function, args, kwargs


def main(argv: list[str] | None = None) -> int:
    """Run the command ``argv`` names (``sys.argv[1:]`` by default) and return its exit status."""
    try:
        function, args, kwargs = _parse(sys.argv[1:] if argv is None else argv)
    except _Usage as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 2
    return function(*args, **kwargs)


if __name__ == "__main__":
    sys.exit(main())
