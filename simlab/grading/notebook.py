"""Exercise notebooks: the cell conventions, and the student version built from the solution.

One source. ``solutions/*.ipynb`` hold the full answers between solution markers, the public
checks, and nothing hidden. :func:`make_exercise` turns a solution notebook into the student's
notebook: every solution region becomes one ``raise NotImplementedError("<hint>")`` line, and all
outputs are dropped. :func:`build_exercises` writes ``exercises/`` from ``solutions/``; with
``check=True`` it writes nothing and reports what is stale, which is how ``make test`` fails when
someone edited a solution and forgot to rebuild.

Conventions (cell and notebook metadata live under the ``"simlab"`` key):

* the notebook says which exercise it answers: ``{"simlab": {"exercise": "fencing"}}``;
* a cell has a ``role``: ``setup`` (imports), ``answer`` (holds
  solution regions; tagged with its ``question``), ``check`` (the public self-check of a
  ``question``) or ``demo`` (pictures and experiments the grader does not need); cells without a
  role are the learner's own and are treated like answers of no question;
* a solution region sits inside a function body, so the stub raises only when it is called and
  the student's notebook still runs from top to bottom::

      def cancel(state):
          ### BEGIN SOLUTION
          ### HINT: refuse terminal tasks, then set the status and bump the epoch together
          ...
          ### END SOLUTION

The written JSON is canonical (``nbformat.writes``: sorted keys, one-space indent, trailing
newline), so building twice gives the same bytes.
"""

from __future__ import annotations

import copy
import json
import re
import warnings
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nbformat

from simlab.grading.messages import Message, Said, message, sentence
from simlab.grading.sandbox.frames import measure

# A notebook written before cell IDs (nbformat 4.4 and older) is a valid submission, and so is
# one whose cells repeat an ID (nbformat gives the repeats new ones): reading either must not
# print nbformat's warnings on the instructor's terminal, where a notebook of many repeated
# cells would bury the other submissions' lines.
warnings.filterwarnings("ignore", category=nbformat.warnings.MissingIDFieldWarning)
warnings.filterwarnings("ignore", category=nbformat.warnings.DuplicateCellId)

__all__ = [
    "META",
    "ROLES",
    "BEGIN",
    "END",
    "HINT",
    "NotebookError",
    "read_notebook",
    "read_submission",
    "notebook_text",
    "exercise_of",
    "cell_role",
    "cell_question",
    "make_exercise",
    "solution_problems",
    "build_exercises",
    "BuildReport",
]

META = "simlab"
ROLES = ("setup", "answer", "check", "demo")
BEGIN = "### BEGIN SOLUTION"
END = "### END SOLUTION"
HINT = "### HINT:"
DEFAULT_HINT = "write this part, then run the check cell below"

#: The largest notebook file the grader reads, in bytes (outputs and pictures included).
MAX_NOTEBOOK_BYTES = 20 * 1024**2
#: The deepest JSON nesting a notebook file may have (nbformat itself needs about 6 levels).
MAX_NOTEBOOK_DEPTH = 100
#: The most JSON values a notebook file may hold.
MAX_NOTEBOOK_VALUES = 2_000_000

_MARKER = re.compile(r"^(\s*)(### (?:BEGIN|END) SOLUTION|### HINT:)(.*)$")


class NotebookError(Said, ValueError):
    """A notebook that breaks the conventions (unpaired markers, a region at top level...);
    its one line a :class:`~simlab.grading.messages.Said`."""


def read_notebook(path: str | Path) -> nbformat.NotebookNode:
    """Read a notebook as nbformat 4; ``NotebookError`` (one line) if it is not one (see
    :func:`read_submission`)."""
    return read_submission(path)[0]


def too_large() -> Message:
    """Why a file larger than :data:`MAX_NOTEBOOK_BYTES` is refused (one line, no path)."""
    return message("grader.larger", mb=MAX_NOTEBOOK_BYTES >> 20)


def read_submission(path: str | Path) -> tuple[nbformat.NotebookNode, bytes]:
    """Read a notebook as nbformat 4, with the bytes it was read from (one read: what is
    graded and what names the submission are the same bytes); ``NotebookError`` (one line)
    if it is not one.

    The work is bounded before nbformat sees the file: at most :data:`MAX_NOTEBOOK_BYTES` are
    read, and JSON nested deeper than :data:`MAX_NOTEBOOK_DEPTH` or holding more than
    :data:`MAX_NOTEBOOK_VALUES` values is refused, and so is a notebook nbformat cannot
    read or convert (in its own words): all the file's fault, never the grader's."""
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_NOTEBOOK_BYTES + 1)
        if len(raw) > MAX_NOTEBOOK_BYTES:
            raise NotebookError(message("grader.refused", path=str(path), why=too_large()))
        text = raw.decode("utf-8")
        deepest, count = measure(json.loads(text), MAX_NOTEBOOK_DEPTH, MAX_NOTEBOOK_VALUES)
        if deepest > MAX_NOTEBOOK_DEPTH or count > MAX_NOTEBOOK_VALUES:
            raise NotebookError(
                message(
                    "grader.too_deep",
                    path=str(path),
                    n=MAX_NOTEBOOK_DEPTH,
                    v=f"{MAX_NOTEBOOK_VALUES:,}",
                )
            )
        nb = nbformat.reads(text, as_version=4)  # raises for what it cannot read or convert
    except nbformat.ValidationError as exc:  # malformed: the file's fault, in nbformat's words
        raise NotebookError(
            message("grader.invalid", path=str(path), reason=sentence(_reason(exc)))
        ) from None
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        if isinstance(exc, NotebookError):
            raise
        said = message("grader.unreadable", path=str(path), exc=_unreadable_why(exc))
        raise NotebookError(said) from None
    except RecursionError:  # JSON nested deeper than a parser follows: the file's fault
        raise NotebookError(message("grader.nested", path=str(path))) from None
    if not isinstance(nb.get("cells"), list):
        raise NotebookError(message("grader.no_cells", path=str(path)))
    for n, cell in enumerate(nb.cells, start=1):
        # what is run and shown is a cell's source: anything but text would be run as
        # something else (an integer 5 as the code "5")
        if not _is_text(cell.get("source", "")):
            why = message("grader.source_not_text", n=n)
            raise NotebookError(message("grader.invalid", path=str(path), reason=why))
    return nb, raw


def _is_text(source: Any) -> bool:
    """Is ``source`` a cell's text as nbformat writes it: a string, or a list of strings?"""
    if isinstance(source, str):
        return True
    return isinstance(source, list) and all(isinstance(line, str) for line in source)


def _unreadable_why(exc: Exception) -> Message | str:
    """Why a file is no readable notebook, in words a learner can act on: not UTF-8, not
    JSON, JSON of another layout, or what the system said of the file."""
    if isinstance(exc, UnicodeDecodeError):
        return message("grader.not_utf8")
    if isinstance(exc, json.JSONDecodeError):
        return message("grader.not_json")
    if isinstance(exc, OSError):
        return sentence(exc.strerror or type(exc).__name__)
    return message("grader.not_laid_out")  # parsed, but nbformat found no notebook in it


def _reason(exc: Exception) -> str:
    """nbformat's reason a notebook is malformed, as one line of at most 200 characters."""
    text = " ".join((getattr(exc, "message", None) or str(exc) or type(exc).__name__).split())
    return text if len(text) <= 200 else text[:199] + "…"


def notebook_text(nb: nbformat.NotebookNode) -> str:
    """The canonical JSON text of ``nb`` (what :func:`build_exercises` writes and compares)."""
    return nbformat.writes(nb, version=4) + "\n"


def _meta(node: Any) -> dict:
    meta = node.get("metadata") or {}
    value = meta.get(META) if isinstance(meta, dict) else None
    return value if isinstance(value, dict) else {}


def exercise_of(nb: nbformat.NotebookNode) -> str | None:
    """The exercise ID a notebook declares in its metadata, or None."""
    value = _meta(nb).get("exercise")
    return value if isinstance(value, str) else None


def cell_role(cell: Any) -> str | None:
    value = _meta(cell).get("role")
    return value if value in ROLES else None


def cell_question(cell: Any) -> str | None:
    value = _meta(cell).get("question")
    return value if isinstance(value, str) else None


def _source(cell: Any) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else str(src)


def _stub_regions(source: str, where: str) -> tuple[str, int]:
    """Replace each solution region of ``source`` with a one-line stub; return (text, regions)."""
    out: list[str] = []
    regions = 0
    inside: tuple[str, list[str]] | None = None  # (indent, hints) of the open region
    for number, line in enumerate(source.splitlines(keepends=True), start=1):
        m = _MARKER.match(line.rstrip("\n"))
        marker = m.group(2) if m else None
        if marker == BEGIN:
            if inside is not None:
                raise NotebookError(f"{where}, line {number}: nested {BEGIN}")
            indent = m.group(1)
            if not indent:
                raise NotebookError(
                    f"{where}, line {number}: a solution region must sit inside a function "
                    "body, so the stub raises only when called"
                )
            inside = (indent, [])
        elif marker == END:
            if inside is None:
                raise NotebookError(f"{where}, line {number}: {END} without {BEGIN}")
            indent, hints = inside
            hint = " ".join(hints) or DEFAULT_HINT
            out.append(f"{indent}raise NotImplementedError({hint!r})\n")
            regions += 1
            inside = None
        elif inside is not None:
            if marker == HINT:
                inside[1].append(m.group(3).strip())
        else:
            if marker == HINT:
                raise NotebookError(f"{where}, line {number}: {HINT} outside a solution region")
            out.append(line)
    if inside is not None:
        raise NotebookError(f"{where}: {BEGIN} without {END}")
    return "".join(out), regions


def make_exercise(solution: nbformat.NotebookNode, name: str = "notebook") -> nbformat.NotebookNode:
    """The student's notebook for ``solution`` (which is left unchanged).

    Solution regions become stubs, outputs and execution counts are dropped, everything else
    (prose, public checks, cell IDs, metadata) is kept. Raises :class:`NotebookError` for a
    notebook that breaks the conventions.
    """
    nb = copy.deepcopy(solution)
    for index, cell in enumerate(nb.cells):
        if cell.get("cell_type") != "code":
            if BEGIN in _source(cell):
                raise NotebookError(f"{name}, cell {index}: solution markers in a non-code cell")
            continue
        text, regions = _stub_regions(_source(cell), f"{name}, cell {index}")
        if regions and cell_role(cell) != "answer":
            raise NotebookError(
                f"{name}, cell {index}: solution region in a cell whose role is not 'answer'"
            )
        cell.source = text
        cell.outputs = []
        cell.execution_count = None
    return nb


def solution_problems(nb: nbformat.NotebookNode, name: str = "notebook") -> list[str]:
    """What is wrong with a solution notebook as a source: one sentence per problem.

    A source carries no outputs, declares its exercise, and every answer cell names a question
    and holds at least one solution region (markers themselves are checked by
    :func:`make_exercise`).
    """
    problems = []
    if exercise_of(nb) is None:
        problems.append(f"{name}: notebook metadata lacks simlab.exercise")
    for index, cell in enumerate(nb.cells):
        if cell.get("cell_type") != "code":
            continue
        if cell.get("outputs") or cell.get("execution_count") is not None:
            problems.append(f"{name}, cell {index}: carries outputs; clear them before saving")
        role = cell_role(cell)
        if role in ("answer", "check") and not cell_question(cell):
            problems.append(f"{name}, cell {index}: {role} cell without a question ID")
        if role == "answer" and BEGIN not in _source(cell):
            problems.append(f"{name}, cell {index}: answer cell without a solution region")
    try:
        make_exercise(nb, name)
    except NotebookError as exc:
        problems.append(str(exc))
    return problems


@dataclass
class BuildReport:
    """What :func:`build_exercises` did (or, with ``check``, would do)."""

    written: list[str]
    removed: list[str]
    unchanged: list[str]
    problems: list[str]

    @property
    def stale(self) -> bool:
        return bool(self.written or self.removed)


def _notebooks(folder: Path) -> Iterable[Path]:
    return sorted(p for p in folder.glob("*.ipynb") if p.is_file())


def build_exercises(
    solutions: str | Path, exercises: str | Path, *, check: bool = False
) -> BuildReport:
    """Write ``exercises/X.ipynb`` for every ``solutions/X.ipynb``; remove orphans.

    With ``check=True`` nothing is written: the report lists the files that would change, so a
    test can fail when ``exercises/`` is stale. Solutions with problems (see
    :func:`solution_problems`) are reported and not built.
    """
    src, dst = Path(solutions), Path(exercises)
    report = BuildReport([], [], [], [])
    wanted = set()
    for path in _notebooks(src):
        wanted.add(path.name)
        try:
            nb = read_notebook(path)
        except NotebookError as exc:
            report.problems.append(str(exc))
            continue
        problems = solution_problems(nb, str(path))
        if problems:
            report.problems.extend(problems)
            continue
        text = notebook_text(make_exercise(nb, str(path)))
        target = dst / path.name
        if target.is_file() and target.read_text(encoding="utf-8") == text:
            report.unchanged.append(str(target))
            continue
        report.written.append(str(target))
        if not check:
            dst.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
    if dst.is_dir():
        for path in _notebooks(dst):
            if path.name not in wanted:
                report.removed.append(str(path))
                if not check:
                    path.unlink()
    return report
