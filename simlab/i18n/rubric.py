"""The rubrics in Chinese: each text of an exercise's rubric as an entry of a translation store.

``simlab grade --rubric EXERCISE --lang zh`` prints an exercise's rubric in Chinese from
``simlab/i18n/zh/rubrics/<exercise>.json`` (inside the package, so an installed kit prints it
too), a store of :mod:`simlab.i18n.store` whose ``notebook`` is ``rubric <exercise>`` and whose
entries are keyed by where the text stands in the rubric (:func:`texts`):

* ``title``: the exercise's title; ``<question>/title``: a question's;
* ``<question>/<criterion>/says``: what a criterion asks;
* ``<question>/<criterion>/property-N`` and ``.../mistake-N``: its N-th property and classic
  mistake (from 1);
* ``<question>/<criterion>/text-N``: its N-th quote of the exercise text. Its ``zh`` is not a
  translation but the sentence of the Chinese exercise (``exercises/zh/<notebook>``) that says
  the same, copied as it stands there, so a learner finds it (:func:`quote_problems`).

A criterion's ``world`` is never printed by the rubric and has no entry. Each entry's
``en_hash`` is the hash of the English text it was made from (:func:`~simlab.i18n.store.en_hash`
of the text as the record holds it), so a change to the English makes the Chinese stale.

:func:`localized` is the rubric as a language shows it: each text whose translation is current
in Chinese, every other one in English (a Chinese rubric never says what the English no longer
says). :func:`problems` and :func:`todo` are what ``simlab translate --check`` and ``--todo``
report and write for a rubric, as they do for a notebook's cells. The records themselves
(:class:`~simlab.grading.questions.Exercise`) are the grader's; this module only reads their
fields, and reads the Chinese exercise with the kit's one notebook reader (as
:mod:`simlab.i18n.build` does), loaded only by the check.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from simlab.i18n.punctuation import FULL_WIDTH, QUOTES, is_chinese
from simlab.i18n.store import (
    STATUS_SAYS,
    Entry,
    Store,
    StoreError,
    en_hash,
    load_store,
    store_text,
)

__all__ = [
    "FOLDER",
    "Localized",
    "texts",
    "is_quote",
    "source_name",
    "store_path",
    "localized",
    "markdown_of",
    "one_line",
    "problems",
    "quote_problems",
    "todo",
]

#: Where a language's rubric stores live, relative to the repository root (``{lang}``).
FOLDER = "simlab/i18n/{lang}/rubrics"
#: The same folder inside the package this module was imported from.
_PACKAGE = Path(__file__).resolve().parent


def source_name(exercise_id: str) -> str:
    """How checks and todo lists name a rubric (``rubric fencing``), and its store's
    ``notebook``."""
    return f"rubric {exercise_id}"


def store_path(exercise_id: str, lang: str = "zh") -> str:
    """The store of an exercise's rubric, relative to the repository root."""
    return f"{FOLDER.format(lang=lang)}/{exercise_id}.json"


def texts(exercise: Any) -> dict[str, str]:
    """Every text of ``exercise``'s rubric that is printed, by its key (see the module's
    docstring), in the order the rubric prints them."""
    out = {"title": exercise.title}
    for q in exercise.questions:
        out[f"{q.id}/title"] = q.title
        for c in q.rubric:
            at = f"{q.id}/{c.id}"
            out[f"{at}/says"] = c.says
            out.update({f"{at}/text-{n}": t for n, t in enumerate(c.text, 1)})
            out.update({f"{at}/property-{n}": t for n, t in enumerate(c.properties, 1)})
            out.update({f"{at}/mistake-{n}": t for n, t in enumerate(c.mistakes, 1)})
    return out


def is_quote(key: str) -> bool:
    """Is ``key`` a quote of the exercise text (its Chinese is the Chinese exercise's)?"""
    return key.rsplit("/", 1)[-1].startswith("text-")


@dataclass(frozen=True)
class Localized:
    """An exercise's rubric as one language shows it: ``exercise`` is the record with each
    text replaced by its current translation; ``english`` the keys left in English (missing,
    unfinished or stale); ``translated`` whether the language has a store for it at all."""

    exercise: Any
    english: frozenset[str]
    translated: bool

    def quote_in_english(self, question: str, criterion: str, n: int) -> bool:
        """Is the ``n``-th quote (from 1) of a criterion still the English exercise's?"""
        return not self.translated or f"{question}/{criterion}/text-{n}" in self.english


def _read(path: Path) -> Store | None:
    try:
        return load_store(path)
    except StoreError:
        return None


def localized(exercise: Any, lang: str, folder: str | Path | None = None) -> Localized:
    """``exercise``'s rubric in ``lang``: English as it is; another language from its store in
    ``folder`` (the package's, by default). Without a readable store every text stays English."""
    if lang == "en":
        return Localized(exercise, frozenset(), True)
    base = Path(folder) if folder is not None else _PACKAGE / lang / "rubrics"
    path = base / f"{exercise.id}.json"
    store = _read(path) if path.is_file() else None
    english = texts(exercise)
    if store is None:
        return Localized(exercise, frozenset(english), False)
    table = {k: store.cells[k].zh for k, t in english.items() if store.status(k, t) == "ok"}
    return Localized(_replaced(exercise, table), frozenset(english) - set(table), True)


def _replaced(exercise: Any, table: dict[str, str]) -> Any:
    """A copy of the record with each text whose key is in ``table`` replaced by its value."""

    def one(key: str, text: str) -> str:
        return table.get(key, text)

    def many(at: str, field: str, values: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(one(f"{at}/{field}-{n}", t) for n, t in enumerate(values, 1))

    questions = []
    for q in exercise.questions:
        rubric = []
        for c in q.rubric:
            at = f"{q.id}/{c.id}"
            rubric.append(
                replace(
                    c,
                    says=one(f"{at}/says", c.says),
                    text=many(at, "text", c.text),
                    properties=many(at, "property", c.properties),
                    mistakes=many(at, "mistake", c.mistakes),
                )
            )
        questions.append(replace(q, title=one(f"{q.id}/title", q.title), rubric=tuple(rubric)))
    return replace(exercise, title=one("title", exercise.title), questions=tuple(questions))


def problems(root: str | Path, exercise: Any, lang: str = "zh") -> list[str]:
    """One line per problem of ``exercise``'s rubric store under ``root``: no store, a text
    whose translation is missing, unfinished or older than its English, an entry of a text the
    rubric no longer has, and a quote the Chinese exercise does not hold
    (:func:`quote_problems`)."""
    root, rel, name = Path(root), store_path(exercise.id, lang), source_name(exercise.id)
    if not (root / rel).is_file():
        return [
            f"{name}: not translated yet (no {rel}; start with "
            f"'simlab translate --todo {exercise.id} --write')"
        ]
    try:
        store = load_store(root / rel)
    except StoreError as exc:
        return [str(exc)]
    english = texts(exercise)
    out = []
    for key, text in english.items():
        status = store.status(key, text)
        if status != "ok":
            out.append(f"{name} text {key}: {STATUS_SAYS[status].format(store=rel)}")
    out += [
        f"{rel}: text {key} is not in the rubric of {exercise.id} any more"
        for key in store.cells
        if key not in english
    ]
    return out + quote_problems(root, exercise, store, lang)


def _folded(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def one_line(text: str) -> str:
    """A quote as the rubric prints it, on one line: each run of white space one space, except
    a run with a line break between two Chinese characters or beside a full-width mark, which
    goes (a full-width mark carries its own spacing, and the generated notebook's markdown
    joins two Chinese lines)."""

    def joined(run: re.Match) -> str:
        before, after = text[run.start() - 1], text[run.end()]
        gone = before in _MARKS or after in _MARKS or (is_chinese(before) and is_chinese(after))
        return "" if "\n" in run.group() and gone else " "

    text = text.strip()
    return re.sub(r"\s+", joined, text)


#: The full-width marks of Chinese prose (a line break beside one is no gap).
_MARKS = frozenset([*FULL_WIDTH.values(), *QUOTES, "。", "、"])


def markdown_of(notebook: str | Path) -> str:
    """The markdown cells of a notebook as one text, white space folded to single spaces."""
    from simlab.grading.notebook import read_notebook  # the kit's one reader of notebooks

    nb = read_notebook(notebook)
    return _folded(" ".join(c.source for c in nb.cells if c.cell_type == "markdown"))


def quote_problems(root: str | Path, exercise: Any, store: Store, lang: str = "zh") -> list[str]:
    """One line per current quote of ``store`` that the markdown of the exercise in ``lang``
    (``exercises/<lang>/<notebook>`` under ``root``) does not hold, white space folded; none
    when that exercise is not generated (the notebooks' own check says so)."""
    notebook = Path(root) / "exercises" / lang / exercise.notebook
    if not notebook.is_file():
        return []
    markdown = markdown_of(notebook)
    return [
        f"{source_name(exercise.id)} text {key}: the quote is not in the markdown of "
        f"exercises/{lang}/{exercise.notebook}: {store.cells[key].zh!r}"
        for key, text in texts(exercise).items()
        if is_quote(key)
        and store.status(key, text) == "ok"
        and _folded(store.cells[key].zh) not in markdown
    ]


def todo(
    root: str | Path, exercise: Any, *, write: bool = False, lang: str = "zh"
) -> tuple[list[tuple[str, str, str]], bool]:
    """The texts of ``exercise``'s rubric a translator has to do, as ``(key, reason,
    English)`` in rubric order (reason: missing, pending, changed or moved), and whether the
    store was written. With ``write=True`` each gets a ``todo`` entry in the store (created if
    needed), as :func:`simlab.i18n.build.todo` does for a notebook's cells: ``en_hash`` of
    today's English, ``todo`` its text, ``zh`` the old Chinese if any; entries of texts that are
    gone are removed. A text that is only *moved* (a mistake or property inserted before it
    shifts its key; the store holds a finished translation of exactly that English under another
    key) takes that translation along, finished: nothing is left to do for it."""
    path = Path(root) / store_path(exercise.id, lang)
    store = load_store(path) if path.is_file() else Store(source_name(exercise.id), {})
    english = texts(exercise)
    finished = {e.en_hash: e.zh for e in store.cells.values() if e.todo is None and e.zh.strip()}
    items = []
    for key, text in english.items():
        status = store.status(key, text)
        if status == "ok":
            continue
        hashed = en_hash(text)
        if hashed in finished:
            items.append((key, "moved", text))
            store.cells[key] = Entry(hashed, finished[hashed])
            continue
        items.append((key, status, text))
        old = store.cells.get(key)
        store.cells[key] = Entry(hashed, old.zh if old else "", text)
    gone = [k for k in store.cells if k not in english]
    for k in gone:
        del store.cells[k]
    if write and (items or gone or not path.is_file()):
        store.notebook = source_name(exercise.id)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(store_text(store, list(english)), encoding="utf-8")
        return items, True
    return items, False
