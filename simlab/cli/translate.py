"""``simlab translate``: the Chinese notebooks, generated from the English ones and ``i18n/zh/``.

``simlab translate [NOTEBOOK...]`` regenerates ``notebooks/zh/``, ``solutions/zh/`` and
``exercises/zh/`` for every translated notebook (or the ones named), and lists the cells that
still need a translation. ``--check`` writes nothing and exits 1 with one line per problem
(a missing, unfinished or outdated translation, naming notebook and cell; a notebook not
translated yet; a generated notebook that is stale); 0 when all is in order. ``--todo`` prints
the English text of each cell a translator has to do; ``--todo --write`` also adds those cells
to the notebook's store file as ``todo`` entries (creating the file). A NOTEBOOK is a path
(``notebooks/01_fencing_tokens.ipynb``), a file name or a stem. The exercises' rubrics are
checked and listed the same way (:mod:`simlab.i18n.rubric`): each text of a rubric is named as a
cell is, and an exercise's ID (``fencing``) names its rubric where a NOTEBOOK goes. Exit status 2
for a usage mistake.
"""

from __future__ import annotations

import argparse
import sys
import textwrap

from simlab.cli import helptext
from simlab.cli.args import UsageError
from simlab.cli.language import cause_in, mistake_says

__all__ = ["register"]


def _chosen(args: argparse.Namespace):
    from pathlib import Path

    from simlab.i18n.build import PAIRS

    root = Path(args.root)
    if not any((root / pair.english).is_dir() for pair in PAIRS):
        raise UsageError("translate_root", root=args.root)
    return root


def _todo(args: argparse.Namespace, root, names: list[str], help_named: bool) -> int:
    from simlab.i18n.build import TodoItem, todo
    from simlab.i18n.store import StoreError

    items, written = [], []
    if help_named:
        found, wrote = helptext.todo(write=args.write)
        items += [TodoItem(helptext.NAME, key, why, text, "text") for key, why, text in found]
        written += [helptext.__name__.replace(".", "/") + ".toml"] * wrote
    if names or not help_named:
        try:
            more, also = todo(root, names, write=args.write)
        except (LookupError, StoreError) as exc:
            raise UsageError.passed_on(str(exc).strip("'\"")) from None
        items, written = items + more, written + also
    for item in items:
        print(f"== {item.notebook} {item.what} {item.cell} ({item.reason})")
        print(textwrap.indent(item.english, "   ") if item.english else "   (empty)")
    for path in written:
        print(f"wrote todo entries: {path}", file=sys.stderr)
    if not items:
        print("nothing to translate", file=sys.stderr)
    return 0


def _translate(args: argparse.Namespace) -> int:
    from simlab.i18n.build import Report, build, catalog_problems, check

    root = _chosen(args)
    if args.write and not args.todo:
        raise UsageError("translate_write")
    if args.check and args.todo:
        raise UsageError("translate_both")
    # ``help`` names the command line's help (simlab.cli.helptext); without names, the
    # catalog check of every run covers it.
    names = [name for name in args.notebooks if name != helptext.NAME]
    help_named = len(names) < len(args.notebooks)
    if args.todo:
        return _todo(args, root, names, help_named)
    run = check if args.check else build
    if help_named and not names:
        report = Report()
    else:
        try:
            report = run(root, names)
        except LookupError as exc:
            raise UsageError.passed_on(str(exc).strip("'\"")) from None
    if help_named:
        report.problems += [p for p in catalog_problems() if p.split(".")[0].endswith("cli_help")]
    if not args.check:
        for path in report.written:
            print(f"wrote: {path}")
        for path in report.removed:
            print(f"removed: {path}")
    for problem in report.problems:
        print(cause_in(problem, args.lang))
    if report.problems:
        what = "translate_failed" if args.check else "translate_needed"
        print(mistake_says(what, args.lang, n=len(report.problems)), file=sys.stderr)
        return 1 if args.check else 0
    done = len(report.unchanged) + len(report.written)
    what = [f"{done} generated notebook(s)"] if names or not help_named else []
    what += ["the command line's help"] if help_named else []
    print(f"translations in order ({', '.join(what)})", file=sys.stderr)
    return 0


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "translate",
        help="generate the Chinese notebooks (notebooks/zh, solutions/zh, exercises/zh)",
        description=(
            "Generate the Chinese notebooks from the English ones and the translations in "
            "i18n/zh/ (one JSON file per notebook: each markdown cell's Chinese beside the "
            "sha256 of the English it translates). Code cells are copied unchanged. The "
            "exercises' rubrics are checked and listed the same way (simlab/i18n/zh/rubrics/), "
            "and so is the command line's help (simlab/cli/helptext.toml)."
        ),
    )
    p.add_argument(
        "notebooks",
        nargs="*",
        metavar="NOTEBOOK",
        help="English notebooks (path, file name or stem), an exercise's ID for its rubric, "
        "or help for the command line's help [all]",
    )
    p.add_argument(
        "--check",
        action="store_true",
        help="write nothing; exit 1 naming each notebook and cell whose translation is "
        "missing or outdated, and each stale generated notebook",
    )
    p.add_argument(
        "--todo",
        action="store_true",
        help="print the English text of every cell that needs translating",
    )
    p.add_argument(
        "--write",
        action="store_true",
        help="with --todo: add those cells to the store files as 'todo' entries",
    )
    p.add_argument("--root", default=".", metavar="DIR", help="the repository root [.]")
    p.set_defaults(func=_translate)
