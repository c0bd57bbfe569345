"""The class a grade command accounts for: the roster read once (a usage mistake when it cannot
be), the roster's students no submission belongs to, and the lines that account for everyone.
Shared by ``simlab grade``, its queue and its reports."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from simlab.cli.args import UsageError
from simlab.cli.language import mistake_says

__all__ = ["intake", "load_roster", "missing_students", "print_class", "show_results"]


def unwritable(path: str) -> str | None:
    """Why the file ``path`` cannot be written (``"folder"``, ``"denied"`` or ``"no_folder"``,
    the message ``cannot_write.<why>`` says it), or None; checked without creating it, so a
    run stopped before it writes leaves no empty file behind."""
    target = Path(path)
    if target.is_dir():
        return "folder"
    if target.exists():
        return None if os.access(target, os.W_OK) else "denied"
    folder = target.parent
    if not folder.is_dir():
        return "no_folder"
    return None if os.access(folder, os.W_OK | os.X_OK) else "denied"


def intake(args, hint: str):
    """What a grading command grades, checked before anything is: (the nbgrader course or None,
    the paths, the notebooks, the terms given and their names, the roster or None). No path
    (``hint`` says what else to give), no notebook, a CSV that cannot be written, a roster that
    cannot be read, an ``--extension`` or ``--excuse`` for no student: a usage mistake."""
    from simlab.cli import grade_deadline as deadlines
    from simlab.grading.submissions import find_notebooks

    found = deadlines.course(args)
    paths = found.paths if found else args.paths
    if not paths:
        raise UsageError("grade_paths", hint=hint)
    terms, given = deadlines.given_terms(args)
    try:
        notebooks = find_notebooks(paths)
    except FileNotFoundError as exc:
        raise UsageError("grade_no_path", path=str(exc)) from None
    if not notebooks:
        raise UsageError("grade_no_notebooks", paths=", ".join(paths))
    if args.csv:
        why = unwritable(args.csv)
        if why is not None:
            raise UsageError(f"cannot_write.{why}", path=args.csv)
    roster = load_roster(args.roster)
    if roster is None and found is not None:
        roster = deadlines.layout_roster(found)
    known = [s.id for s in roster.students] if roster else [str(nb) for nb in notebooks]
    deadlines.check_students(terms, given, known, roster.path if roster else None, "paths")
    deadlines.warn_untimed(args, terms)
    return found, paths, notebooks, terms, given, roster


def load_roster(path: str | None):
    """The roster at ``path`` (:func:`simlab.grading.roster.read_roster`), None without one; a
    roster that cannot be read is a usage mistake (one line)."""
    if not path:
        return None
    from simlab.grading.roster import RosterError, read_roster

    try:
        return read_roster(path)
    except RosterError as exc:
        raise UsageError.passed_on(exc) from None


def missing_students(who, roster) -> list[str]:
    """The IDs of the roster's students that no submission belongs to (roster order)."""
    if roster is None:
        return []
    seen = {sid for sid, _ in who if sid is not None}
    return [s.id for s in roster.students if s.id not in seen]


def print_class(keys, who, roster, lang: str) -> None:
    """The lines that account for the class (:func:`simlab.grading.report.class_lines`)."""
    from simlab.grading.messages import message, render
    from simlab.grading.report import class_lines
    from simlab.grading.text import shown_path

    lines = class_lines(keys, who, roster, lang)
    n = len(roster.students) - len(missing_students(who, roster))
    said = message(
        "grader.class_head", path=shown_path(roster.path), n=n, total=len(roster.students)
    )
    print("\n  ".join(["\n" + render(said, lang), *lines]))


def show_results(
    args,
    rows: list,
    keys,
    who,
    roster,
    missing: list[str],
    as_json: Callable[[list, str, Any], str],
    as_text: Callable[[list, str], str],
    write_csv: Callable[[], None],
) -> int:
    """Print a class's results (``rows``, in path order) as ``simlab grade`` does: with
    ``--json``, ``as_json(rows, lang, who)`` (one JSON object per notebook) and one object per
    ``missing`` student; else ``as_text(rows, lang)`` and, with a roster, the class's lines
    (:func:`print_class`). Then, with ``--csv``, ``write_csv()``. Returns 3 when the
    spreadsheet could not be written (one line on stderr), else 0."""
    from simlab.grading.report import missing_lines

    if args.json:
        sys.stdout.write(as_json(rows, args.lang, who))
        sys.stdout.write(missing_lines(missing, args.lang))
    else:
        print(as_text(rows, args.lang))
        if roster is not None:
            print_class(keys, who, roster, args.lang)
    if args.csv:
        try:
            write_csv()
        except OSError as exc:
            why = exc.strerror or type(exc).__name__
            line = mistake_says("cannot_write", args.lang, path=args.csv, why=why)
            print(mistake_says("grade_line", args.lang, message=line), file=sys.stderr)
            return 3
    return 0
