"""The command line's help in Chinese: the translation of every help sentence, keyed by command
and flag, each beside the hash of the English it translates (``cli_help.<key>``).

The English of a help sentence is written once, where its parser defines it: a command's
description and epilog, an argument group's title, a flag's help, a command's one-line summary
in its parent's list. Its Chinese lives in ``helptext.toml`` beside this module::

    "simulate --seed".en_hash = "<sha256 of the English it translates>"
    "simulate --seed".zh = "随机种子 [1]"

A key names the place the sentence first stands, walking ``simlab --help`` and then each
command's help in the order :func:`simlab.cli.parser.commands` lists them (:func:`places`):
``<command> description``, ``<command> epilog``, ``<command> summary``, ``<command> group <N>``
(its N-th argument group of its own, from 1), or ``<command> <flag>`` (an option's first long
flag, a positional's name as usage shows it); ``<command>`` is the command as typed after
``simlab`` (``bench sim``), the top one ``simlab``. A sentence several commands share (the
scenario's flags of simulate, sweep, shrink and bench shrink) has one entry, under its first
place, and every place shows it. argparse's own words (``-h``, the headings) are
:mod:`simlab.cli.messages`'.

The hash rule is the translation stores' (:mod:`simlab.i18n.store`): an entry is current when
its ``en_hash`` is :func:`~simlab.i18n.store.en_hash` of today's English, its ``zh`` is not
empty and it has no ``todo``. The catalog is registered like the others (``cli_help`` in
:data:`simlab.i18n.language.KIT`), its ``EN`` read from the parser and its ``HASH`` beside its
``ZH``, so ``simlab translate --check`` names a sentence without Chinese, an entry whose English
is gone, and one whose English changed since it was translated. A help in Chinese shows each
current translation (:func:`translate`) and leaves any other sentence English: a Chinese help
never says what the English no longer says. ``simlab translate --todo help --write`` adds the
entries a translator has to do (:func:`todo`).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path

from simlab.cli.parser import build_parser, commands
from simlab.i18n.catalog import CatalogError, entries
from simlab.i18n.store import Entry, Store, en_hash

__all__ = ["PATH", "NAME", "places", "english", "store", "translate", "todo", "stored_text"]

#: The catalog file, beside this module.
PATH = Path(__file__).with_suffix(".toml")
#: How checks and todo lists name the help's store, and what ``--todo`` takes for it.
NAME = "help"

#: A place of a help sentence: its key, its English, and how to put another text there.
Place = tuple[str, str, Callable[[str], None]]


def _command(parser: argparse.ArgumentParser) -> str:
    return parser.prog.removeprefix("simlab ") if parser.prog != "simlab" else "simlab"


def _flag(action: argparse.Action) -> str:
    if not action.option_strings:
        return action.metavar if isinstance(action.metavar, str) else action.dest
    return next((s for s in action.option_strings if s.startswith("--")), action.option_strings[0])


def _setter(obj: object, attr: str) -> Callable[[str], None]:
    return lambda text: setattr(obj, attr, text)


def _parser_places(parser: argparse.ArgumentParser) -> Iterator[Place]:
    command = _command(parser)
    for attr in ("description", "epilog"):
        if isinstance(text := getattr(parser, attr), str):
            yield f"{command} {attr}", text, _setter(parser, attr)
    own = [g for g in parser._action_groups if g not in (parser._positionals, parser._optionals)]
    for n, group in enumerate(own, 1):
        if group.title:
            yield f"{command} group {n}", group.title, _setter(group, "title")
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction):
            continue  # argparse's own words, in simlab.cli.messages
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                if choice.help:
                    child = _command(action.choices[choice.dest])
                    yield f"{child} summary", choice.help, _setter(choice, "help")
        elif action.help and action.help is not argparse.SUPPRESS:
            yield f"{command} {_flag(action)}", action.help, _setter(action, "help")


def places(parser: argparse.ArgumentParser) -> list[Place]:
    """Every place of a help sentence under ``parser`` (``simlab``'s), in the order the helps
    show them: ``simlab --help``, then each command's."""
    return [p for each in (parser, *commands(parser)) for p in _parser_places(each)]


@cache
def english() -> dict[str, str]:
    """Every help sentence by its key (its first place), in order: the ``EN`` of the catalog,
    read from the parser as English builds it."""
    from simlab.cli.language import speaking

    with speaking("en"):
        found: dict[str, str] = {}
        for key, text, _ in places(build_parser()):
            if text not in found.values():
                found[key] = text
    return found


def store(path: Path = PATH) -> Store:
    """The entries of the catalog file, as a translation store (its ``cells`` by key); an
    entry without ``en_hash`` raises :class:`~simlab.i18n.catalog.CatalogError`."""
    cells = {}
    for key, entry in entries(str(path)).items():
        if "en_hash" not in entry:
            raise CatalogError(f"{path.name}: {key!r} has no en_hash")
        cells[key] = Entry(entry["en_hash"], entry.get("zh", ""), entry.get("todo"))
    return Store(NAME, cells)


_CELLS = store().cells
#: The Chinese of each entry (empty while it is a ``todo``), and the hash of the English it was
#: made from: what the catalog holds, read by :func:`translate` and the translation check alike.
ZH = {key: entry.zh if entry.todo is None else "" for key, entry in _CELLS.items()}
HASH = {key: entry.en_hash for key, entry in _CELLS.items()}
del _CELLS


def __getattr__(name: str) -> dict[str, str]:
    # EN is read from the parser, which is built only when a check or a catalog reader asks
    # (building it imports every command, and the parser in turn reads this module).
    if name == "EN":
        return english()
    raise AttributeError(name)


def translate(parser: argparse.ArgumentParser, lang: str) -> None:
    """Put the ``lang`` translation of each help sentence under ``parser`` in its place, where
    it is current for the English there (English is left as it is)."""
    if lang == "en":
        return
    book = Store.of(NAME, HASH, ZH)
    first: dict[str, str] = {}
    for key, text, put in places(parser):
        key = first.setdefault(text, key)
        if book.status(key, text) == "ok":
            put(ZH[key])


def stored_text(cells: dict[str, Entry], order: list[str]) -> str:
    """The catalog file holding ``cells``: in ``order`` (then any others), one comment line per
    command before its first entry; writing twice gives the same bytes."""
    lines = [
        "# The command line's help in Chinese (simlab.cli.helptext): each help sentence's",
        "# translation, keyed by command and flag, beside the sha256 of the English it translates.",
    ]
    command = None
    for key in [*(k for k in order if k in cells), *(k for k in cells if k not in order)]:
        if (now := key.rsplit(" ", 1)[0]) != command:
            command = now
            lines += ["", f"# simlab {command}".replace("simlab simlab", "simlab")]
        entry, quoted = cells[key], json.dumps(key, ensure_ascii=False)
        lines.append(f"{quoted}.en_hash = {json.dumps(entry.en_hash)}")
        lines.append(f"{quoted}.zh = {json.dumps(entry.zh, ensure_ascii=False)}")
        if entry.todo is not None:
            lines.append(f"{quoted}.todo = {json.dumps(entry.todo, ensure_ascii=False)}")
    return "\n".join(lines) + "\n"


def todo(*, write: bool = False, path: Path = PATH) -> tuple[list[tuple[str, str, str]], bool]:
    """The help sentences a translator has to do, as ``(key, reason, English)`` (reason:
    missing, pending or changed), and whether the file was written. With ``write=True`` each
    gets a ``todo`` entry (``en_hash`` of today's English, ``todo`` its text, ``zh`` the old
    Chinese if any), and entries of sentences that are gone are removed."""
    current, sentences = store(path), english()
    items = []
    for key, text in sentences.items():
        status = current.status(key, text)
        if status != "ok":
            items.append((key, status, text))
            old = current.cells.get(key)
            current.cells[key] = Entry(en_hash(text), old.zh if old else "", text)
    gone = [key for key in current.cells if key not in sentences]
    for key in gone:
        del current.cells[key]
    if write and (items or gone):
        path.write_text(stored_text(current.cells, list(sentences)), encoding="utf-8")
        return items, True
    return items, False
