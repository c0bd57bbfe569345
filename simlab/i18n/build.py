"""Chinese notebooks generated from the English ones and the translation store.

One source of code: ``notebooks/zh/X.ipynb`` is ``notebooks/X.ipynb`` with each markdown cell
replaced by its current translation (see :mod:`simlab.i18n.store`); code cells, cell IDs and
metadata are the English ones, byte for byte. Outputs are dropped except in the cells nbval
compares (tagged ``nbval-check-output``, or holding a ``# NBVAL_CHECK_OUTPUT`` line), which keep
the English stored output: the code is the same, so is what it prints. ``solutions/zh/X.ipynb``
is made the same way from ``solutions/X.ipynb``, and ``exercises/zh/X.ipynb`` from
``solutions/zh/X.ipynb`` exactly as ``simlab build-exercises`` makes ``exercises/``.

A notebook without a store file is *not translated*: nothing is generated for it, and the check
says so. A cell whose translation is missing, unfinished or older than its English text keeps
the English text in the generated notebook (a Chinese notebook never states something the
English one no longer says), and the check names it. The rubrics of the exercises are
translated the same way, one store per exercise (:mod:`simlab.i18n.rubric`): the check names
each of their texts as it names a cell.

:func:`check` writes nothing and returns one sentence per problem; :func:`build` writes the
generated notebooks and removes generated files that have no source any more; :func:`todo`
lists (and with ``write=True`` adds to the store as ``todo`` entries) the cells a translator has
to do.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

from simlab.grading.notebook import NotebookError, make_exercise, notebook_text, read_notebook
from simlab.i18n import punctuation, rubric
from simlab.i18n.code import comments, set_language_in, translate_comments, translated_outputs
from simlab.i18n.store import (
    STATUS_SAYS,
    Entry,
    Store,
    StoreError,
    cell_source,
    en_hash,
    is_prose,
    load_store,
    store_text,
)

__all__ = [
    "LANG",
    "Pair",
    "PAIRS",
    "CHECK_TAG",
    "CHECK_MARK",
    "Source",
    "Report",
    "TodoItem",
    "is_checked",
    "sources",
    "select",
    "translate_notebook",
    "cell_status",
    "check",
    "build",
    "todo",
]

LANG = "zh"
CHECK_TAG = "nbval-check-output"
CHECK_MARK = "# NBVAL_CHECK_OUTPUT"


@dataclass(frozen=True)
class Pair:
    """An English folder, its Chinese twin, its store folder, and the exercises built from it."""

    english: str
    chinese: str
    store: str
    exercises: str | None = None


#: What is translated, relative to the repository root.
PAIRS = (
    Pair("notebooks", f"notebooks/{LANG}", f"i18n/{LANG}/notebooks"),
    Pair("solutions", f"solutions/{LANG}", f"i18n/{LANG}/solutions", f"exercises/{LANG}"),
)


@dataclass(frozen=True)
class Source:
    """One English notebook and where its translation and generated notebooks live."""

    pair: Pair
    name: str  # file name, e.g. 01_fencing_tokens.ipynb

    @property
    def english(self) -> str:
        return f"{self.pair.english}/{self.name}"

    @property
    def store(self) -> str:
        return f"{self.pair.store}/{Path(self.name).stem}.json"

    def targets(self) -> list[str]:
        out = [f"{self.pair.chinese}/{self.name}"]
        if self.pair.exercises:
            out.append(f"{self.pair.exercises}/{self.name}")
        return out


@dataclass
class Report:
    """What :func:`check` found or :func:`build` did; ``problems`` are one line each."""

    problems: list[str] = field(default_factory=list)
    written: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)


@dataclass
class TodoItem:
    """A cell (or a rubric's text) a translator has to do: ``reason`` is missing, pending or
    changed (or, for a rubric's text, moved: its translation follows it when written, nothing
    left to do); ``what`` says what ``cell`` names (``cell``, or ``text`` for a rubric's key)."""

    notebook: str
    cell: str
    reason: str
    english: str
    what: str = "cell"


def is_checked(cell) -> bool:
    """Does nbval compare this code cell's output (the tag, or the comment line)?"""
    if cell.get("cell_type") != "code":
        return False
    tags = (cell.get("metadata") or {}).get("tags") or []
    if CHECK_TAG in tags:
        return True
    return any(line.strip() == CHECK_MARK for line in cell_source(cell).splitlines())


def sources(root: str | Path) -> list[Source]:
    """Every English notebook that is to be translated, in folder then name order."""
    root = Path(root)
    return [
        Source(pair, p.name)
        for pair in PAIRS
        for p in sorted((root / pair.english).glob("*.ipynb"))
        if p.is_file()
    ]


def select(root: str | Path, names: Sequence[str]) -> list[Source]:
    """The sources ``names`` mean: a path (``notebooks/01_fencing_tokens.ipynb``), a file name
    or a stem (``01_fencing_tokens``). ``LookupError`` names the first that matches none."""
    every = sources(root)
    chosen: list[Source] = []
    for name in names:
        wanted = Path(name).as_posix().removeprefix("./")
        found = [s for s in every if wanted in (s.english, s.name, Path(s.name).stem, s.store)]
        if not found:
            raise LookupError(f"no English notebook {name!r} in notebooks/ or solutions/")
        chosen += [s for s in found if s not in chosen]
    return chosen


def cell_status(cell, store: Store) -> str:
    """``ok``, ``missing``, ``pending`` (a todo entry) or ``changed`` (English changed since)."""
    return store.status(cell.get("id"), cell_source(cell))


# A line that starts a Markdown block of its own: it is never joined to the line before it.
_BLOCK_START = re.compile(r"^\s*(?:[-*+] |\d+[.)] |#|>|\||```|\$\$|$)")
_CJK = "\u3000-\u303f\u3400-\u9fff\uff00-\uffef"
# Ends in a Chinese character, or in the half-width punctuation the chapter uses right after one.
_CJK_END = re.compile(rf"[{_CJK}][,.;:!?)]?$")
_CJK_START = re.compile(rf"^\s*[({_CJK}]")


def unwrap_cjk(text: str) -> str:
    """Join the hard line breaks that fall between two Chinese characters inside a paragraph.

    Markdown renders a soft line break as a space, and a space between two Chinese characters
    reads as a gap; translators wrap lines for review, readers should not see it. Lists,
    headings, tables, quotes and fenced code keep their lines.
    """
    lines = text.split("\n")
    out: list[str] = []
    fenced = False
    for line in lines:
        if line.lstrip().startswith("```"):
            fenced = not fenced
        joinable = (
            out
            and not fenced
            and not _BLOCK_START.match(line)
            and _CJK_END.search(out[-1])
            and _CJK_START.match(line)
        )
        if joinable:
            out[-1] += line.strip()
        else:
            out.append(line)
    return "\n".join(out)


def translate_notebook(nb: nbformat.NotebookNode, store: Store) -> nbformat.NotebookNode:
    """The Chinese notebook of ``nb`` (left unchanged): current translations replace the
    markdown; code cells keep their code, with the store's comments in Chinese and outputs
    only where nbval compares them. A notebook whose comments are translated (the store has
    ``comments``) speaks Chinese: its first code cell sets the language, and the outputs nbval
    compares are the lines the Chinese kernel prints (see :mod:`simlab.i18n.code`)."""
    out = copy.deepcopy(nb)
    speaks = store.comments is not None
    # a notebook that imports matplotlib draws its own figures, whose texts are its own
    draws = any(
        cell.get("cell_type") == "code" and "import matplotlib" in cell_source(cell)
        for cell in out.cells
    )
    first = True
    for cell in out.cells:
        if is_prose(cell):
            if cell_status(cell, store) == "ok":
                cell.source = unwrap_cjk(store.cells[cell.id].zh)
        elif cell.get("cell_type") == "code":
            if speaks:
                cell.source = translate_comments(cell_source(cell), store.comments)
                if first:
                    cell.source = set_language_in(cell.source, draws)
                if is_checked(cell):
                    translated_outputs(cell.outputs)
            first = False
            if not is_checked(cell):
                cell.outputs = []
                cell.execution_count = None
            cell.metadata.pop("execution", None)
    out.metadata.pop("widgets", None)
    return out


def _id_problems(src: Source, nb) -> list[str]:
    problems, seen = [], set()
    for index, cell in enumerate(nb.cells):
        cid = cell.get("id")
        if not cid:
            problems.append(f"{src.english} cell #{index}: no cell id (nbformat 4.5 needs one)")
        elif cid in seen:
            problems.append(f"{src.english} cell {cid}: the cell id is used twice")
        seen.add(cid)
    return problems


def _read(root: Path, src: Source, report: Report) -> tuple[object, Store] | None:
    """The English notebook and its store, or None (with the problem reported)."""
    try:
        nb = read_notebook(root / src.english)
    except NotebookError as exc:
        report.problems.append(str(exc))
        return None
    if not (root / src.store).is_file():
        report.problems.append(
            f"{src.english}: not translated yet (no {src.store}; start with "
            f"'simlab translate --todo {src.english} --write')"
        )
        return None
    try:
        store = load_store(root / src.store)
    except StoreError as exc:
        report.problems.append(str(exc))
        return None
    problems = _id_problems(src, nb)
    report.problems += problems
    return (None, store) if problems else (nb, store)


def _cell_problems(src: Source, nb, store: Store) -> list[str]:
    out = []
    ids = set()
    for cell in nb.cells:
        ids.add(cell.id)
        if is_prose(cell):
            status = cell_status(cell, store)
            if status != "ok":
                say = STATUS_SAYS[status].format(store=src.store)
                out.append(f"{src.english} cell {cell.id}: {say}")
    if store.comments is not None:
        out += _comment_problems(src, nb, store.comments)
    for cid in store.cells:
        if cid not in ids:
            out.append(f"{src.store}: cell {cid} is not a markdown cell of {src.english} any more")
        elif not is_prose(next(c for c in nb.cells if c.id == cid)):
            out.append(f"{src.store}: cell {cid} of {src.english} is not a markdown cell")
    return out


def _comment_problems(src: Source, nb, table: dict[str, str]) -> list[str]:
    """A comment of the code without its Chinese, and a translated comment the code lost."""
    out, seen = [], set()
    for cell in nb.cells:
        if cell.get("cell_type") != "code":
            continue
        for comment in comments(cell_source(cell)):
            seen.add(comment.key)
            if not table.get(comment.key, "").strip():
                out.append(f"{src.english} cell {cell.id}: comment not translated: {comment.key!r}")
    out += [
        f"{src.store}: comment {key!r} is in no code cell of {src.english} any more"
        for key in table
        if key not in seen
    ]
    return out


def _generated(src: Source, nb, store: Store) -> dict[str, str]:
    """Target path -> the text it must hold."""
    zh = translate_notebook(nb, store)
    texts = {src.targets()[0]: notebook_text(zh)}
    if src.pair.exercises:
        texts[src.targets()[1]] = notebook_text(make_exercise(zh, src.targets()[0]))
    return texts


def _orphans(root: Path, translated: Iterable[Source]) -> list[str]:
    """Generated files (in the Chinese folders) that no translated source makes."""
    wanted = {t for s in translated for t in s.targets()}
    out = []
    for pair in PAIRS:
        for folder in filter(None, (pair.chinese, pair.exercises)):
            for p in sorted((root / folder).glob("*.ipynb")):
                rel = f"{folder}/{p.name}"
                if rel not in wanted:
                    out.append(rel)
    return out


def _run(
    root: Path, chosen: list[Source], rubrics: list, *, write: bool, everything: bool
) -> Report:
    report = Report()
    if everything:
        report.problems += catalog_problems()
    for exercise in rubrics:
        report.problems += rubric.problems(root, exercise, LANG)
    translated = []
    for src in chosen:
        got = _read(root, src, report)
        if got is None or got[0] is None:
            continue
        nb, store = got
        translated.append(src)
        report.problems += _cell_problems(src, nb, store)
        try:
            texts = _generated(src, nb, store)
        except NotebookError as exc:
            report.problems.append(str(exc))
            continue
        for rel, text in texts.items():
            target = root / rel
            if target.is_file() and target.read_text(encoding="utf-8") == text:
                report.unchanged.append(rel)
                continue
            report.written.append(rel)
            if write:
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(text, encoding="utf-8")
            else:
                how = "out of date" if target.is_file() else "not generated"
                report.problems.append(f"{rel}: {how} (run 'simlab translate')")
    if everything:
        translated += [s for s in sources(root) if (root / s.store).is_file()]
        for rel in _orphans(root, translated):
            report.removed.append(rel)
            if write:
                (root / rel).unlink()
            else:
                report.problems.append(
                    f"{rel}: no English notebook or translation makes it "
                    "(run 'simlab translate' to remove it)"
                )
    return report


def catalog_problems() -> list[str]:
    """What is wrong with the message catalogs (every one
    :func:`simlab.grading.messages.catalog_names` lists: the grader's, the notebooks', the
    command line's): an ID without a language or with other fields in it
    (:func:`simlab.grading.messages.problems`), and a Chinese template whose punctuation is not
    full-width (:func:`simlab.i18n.punctuation.problems`); one line each."""
    from simlab.grading import messages

    found = messages.problems()
    for name in messages.catalog_names():
        module = messages.catalog(name)
        for key, text in getattr(module, "ZH", {}).items():
            if isinstance(text, str) and (bad := punctuation.problems(text, holes=True)):
                found.append(f"catalog {name}.{key}: not full-width punctuation: {bad[0]}")
        if hasattr(module, "HASH"):
            found += _stale(name, module)
    return found


def _stale(name: str, module) -> list[str]:
    """A catalog that keeps the hash of the English each translation was made from
    (``HASH``, as :mod:`simlab.cli.helptext` does): one line per translation whose English
    changed since, or which is not finished (an empty ``ZH``), as a store's check says it."""
    book = Store.of(name, module.HASH, module.ZH)
    where = module.__name__.replace(".", "/") + ".toml"
    return [
        f"catalog {name}.{key}: {STATUS_SAYS[why].format(store=where)}"
        for key, text in module.EN.items()
        if key in module.ZH and (why := book.status(key, text)) != "ok"
    ]


def _chosen(root: Path, names: Sequence[str]) -> tuple[list[Source], list]:
    """The notebooks and the exercises' rubrics ``names`` mean: a rubric by its exercise's ID
    (``fencing``), its name in a check (``rubric fencing``) or its store's path, a notebook as
    :func:`select` takes it. No names means every notebook and every rubric."""
    from simlab.grading.checks import EXERCISES

    if not names:
        return sources(root), list(EXERCISES.values())
    notebooks, rubrics = [], []
    for name in names:
        wanted = Path(name).as_posix().removeprefix("./")
        named = [
            e
            for e in EXERCISES.values()
            if wanted in (e.id, rubric.source_name(e.id), rubric.store_path(e.id, LANG))
        ]
        if named:
            rubrics += [e for e in named if e not in rubrics]
        else:
            notebooks.append(name)
    return (select(root, notebooks) if notebooks else []), rubrics


def check(root: str | Path = ".", names: Sequence[str] = ()) -> Report:
    """Write nothing; one problem per missing, unfinished or outdated translation (of a
    notebook's cell or a rubric's text, see :mod:`simlab.i18n.rubric`), per notebook or rubric
    without a store, per rubric quote the Chinese exercise does not hold, and per generated
    file that is stale, missing or orphaned. ``names`` limits the check to those notebooks and
    rubrics (see :func:`select`; a rubric by its exercise's ID); no names means all, orphans
    and the message catalogs included (:func:`catalog_problems`)."""
    root = Path(root)
    chosen, rubrics = _chosen(root, names)
    return _run(root, chosen, rubrics, write=False, everything=not names)


def build(root: str | Path = ".", names: Sequence[str] = ()) -> Report:
    """Regenerate the Chinese notebooks of every translated notebook (or of ``names``);
    without names, also remove generated files nothing makes any more. Problems are reported
    as by :func:`check`, except staleness, which this fixes (a rubric generates nothing: its
    store is read as it is)."""
    root = Path(root)
    chosen, rubrics = _chosen(root, names)
    return _run(root, chosen, rubrics, write=True, everything=not names)


def todo(root: str | Path = ".", names: Sequence[str] = (), *, write: bool = False):
    """The cells (and rubric texts) a translator has to do, as :class:`TodoItem` (rubrics
    first, each in its order, then notebooks, in notebook order).

    With ``write=True`` each such cell gets a ``todo`` entry in its store (created if needed):
    ``en_hash`` of today's English, ``todo`` its text, ``zh`` the old translation if any (to
    edit) or empty; entries of cells that are gone are removed; a rubric's store the same way
    (:func:`simlab.i18n.rubric.todo`). Returns ``(items, stores written)``.
    """
    root = Path(root)
    chosen, rubrics = _chosen(root, names)
    items: list[TodoItem] = []
    written: list[str] = []
    for exercise in rubrics:
        mine, wrote = rubric.todo(root, exercise, write=write, lang=LANG)
        name = rubric.source_name(exercise.id)
        items += [TodoItem(name, key, why, english, "text") for key, why, english in mine]
        if wrote:
            written.append(rubric.store_path(exercise.id, LANG))
    for src in chosen:
        nb = read_notebook(root / src.english)
        path = root / src.store
        store = load_store(path) if path.is_file() else Store(src.english, {})
        mine = []
        for cell in nb.cells:
            if is_prose(cell) and (status := cell_status(cell, store)) != "ok":
                english = cell_source(cell)
                mine.append(TodoItem(src.english, cell.id, status, english))
                old = store.cells.get(cell.id)
                store.cells[cell.id] = Entry(en_hash(english), old.zh if old else "", english)
        prose = [c.id for c in nb.cells if is_prose(c)]
        gone = [k for k in store.cells if k not in prose]
        for k in gone:
            del store.cells[k]
        items += mine
        if write and (mine or gone or not path.is_file()):
            store.notebook = src.english
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(store_text(store, prose), encoding="utf-8")
            written.append(src.store)
    return items, written
