"""The translation store: one JSON file per English notebook, keyed by cell ID.

``i18n/zh/notebooks/01_fencing_tokens.json`` translates ``notebooks/01_fencing_tokens.ipynb``;
``i18n/zh/solutions/<name>.json`` translates ``solutions/<name>.ipynb`` (and therefore the
exercise built from it). The file looks like::

    {
     "notebook": "notebooks/01_fencing_tokens.ipynb",
     "cells": {
      "c00": {"en_hash": "9f2c...", "zh": "# 01 · Fencing token ..."},
      "c02": {"en_hash": "...", "zh": "...", "todo": "the English text to translate"}
     }
    }

A store may also hold ``"comments"``: the Chinese of the comments in the notebook's code cells,
keyed by their English (see :mod:`simlab.i18n.code`: a comment running over several lines is
one key, its lines joined by a space). A store with a ``comments`` object is held to it: every
comment of the notebook's code has its Chinese there, and it holds no comment the notebook no
longer has. A store without one leaves the code cells' comments in English.

The hash rule: ``en_hash`` is ``sha256(source.encode("utf-8")).hexdigest()`` of the English
cell's source as one string (nbformat joins the list of lines), taken when the cell was
translated. A translation is *current* when its ``en_hash`` equals the hash of today's English
source, its ``zh`` is not empty and it has no ``todo`` key. ``todo`` (the English text, written
by ``simlab translate --todo --write``) marks an entry a translator still has to finish: fill
``zh``, then delete ``todo``.

Markdown cells are translated whole; code cells never are (their code is the English code), only
their comments, through ``comments``.

The exercises' rubrics are translated in stores of the same shape (:mod:`simlab.i18n.rubric`):
there ``notebook`` names the rubric (``rubric fencing``) and each key names a text of it instead
of a cell, with the same hash rule over the English text.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "StoreError",
    "Entry",
    "Store",
    "STATUS_SAYS",
    "en_hash",
    "cell_source",
    "is_prose",
    "load_store",
    "store_text",
]


class StoreError(ValueError):
    """A store file that cannot be read (not JSON, wrong shape): one line naming the file."""


def cell_source(cell: Any) -> str:
    """A cell's source as one string (nbformat may hold it as a list of lines)."""
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else str(src)


def en_hash(source: str) -> str:
    """The hash kept beside a translation: sha256 of the English source, UTF-8, hex."""
    return hashlib.sha256(source.encode("utf-8")).hexdigest()


def is_prose(cell: Any) -> bool:
    """Is this a cell the store translates (a markdown cell)?"""
    return cell.get("cell_type") == "markdown"


@dataclass
class Entry:
    """The translation of one cell."""

    en_hash: str
    zh: str
    todo: str | None = None

    def current_for(self, source: str) -> bool:
        """Does this entry translate exactly ``source`` (and is it finished)?"""
        return self.todo is None and bool(self.zh.strip()) and self.en_hash == en_hash(source)

    def to_json(self) -> dict[str, str]:
        out = {"en_hash": self.en_hash, "zh": self.zh}
        if self.todo is not None:
            out["todo"] = self.todo
        return out


@dataclass
class Store:
    """The translations of one notebook: ``cells`` maps cell ID -> :class:`Entry`;
    ``comments`` the English of each code comment -> its Chinese (None: not translated)."""

    notebook: str
    cells: dict[str, Entry]
    comments: dict[str, str] | None = None

    @classmethod
    def of(cls, name: str, hashes: dict[str, str], texts: dict[str, str]) -> Store:
        """The store named ``name`` of a catalog that keeps, per key, the hash of the English
        it translated (``hashes``) and its translation (``texts``; empty: not finished)."""
        return cls(name, {key: Entry(hashes.get(key, ""), text) for key, text in texts.items()})

    def status(self, key: str, source: str) -> str:
        """``ok``, ``missing``, ``pending`` (a todo entry, or no Chinese) or ``changed`` (the
        English changed since): the state of entry ``key``'s translation of ``source``."""
        entry = self.cells.get(key)
        if entry is None:
            return "missing"
        if entry.todo is not None or not entry.zh.strip():
            return "pending"
        return "ok" if entry.current_for(source) else "changed"


#: What a check says of an entry in each state but ``ok`` (``{store}``: the store's path).
STATUS_SAYS = {
    "missing": "no translation",
    "pending": "translation not finished (fill 'zh', then delete 'todo', in {store})",
    "changed": "the English text changed since it was translated (en_hash differs)",
}


def _entry(path: Path, key: str, value: Any) -> Entry:
    if not isinstance(value, dict):
        raise StoreError(f"{path}: cell {key!r} is not an object")
    h, zh, todo = value.get("en_hash"), value.get("zh", ""), value.get("todo")
    if not isinstance(h, str) or not isinstance(zh, str):
        raise StoreError(f"{path}: cell {key!r} needs the strings 'en_hash' and 'zh'")
    if todo is not None and not isinstance(todo, str):
        raise StoreError(f"{path}: cell {key!r}: 'todo' must be a string")
    unknown = set(value) - {"en_hash", "zh", "todo"}
    if unknown:
        raise StoreError(f"{path}: cell {key!r} has unknown keys: {', '.join(sorted(unknown))}")
    return Entry(h, zh, todo)


def load_store(path: str | Path) -> Store:
    """Read a store file; :class:`StoreError` (one line) if it is not one."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise StoreError(f"{path}: cannot read ({exc.strerror})") from None
    except ValueError as exc:
        raise StoreError(f"{path}: not valid JSON ({exc})") from None
    if not isinstance(data, dict) or not isinstance(data.get("cells"), dict):
        raise StoreError(f"{path}: not a translation store (no 'cells' object)")
    notebook = data.get("notebook", "")
    cells = {str(k): _entry(path, str(k), v) for k, v in data["cells"].items()}
    comments = data.get("comments")
    if comments is not None and not (
        isinstance(comments, dict) and all(isinstance(v, str) for v in comments.values())
    ):
        raise StoreError(f"{path}: 'comments' must map each English comment to its Chinese")
    return Store(str(notebook), cells, comments)


def store_text(store: Store, order: list[str] | None = None) -> str:
    """The canonical text of a store: entries in notebook order (``order``), then any others,
    two-space indent, Chinese kept as is, trailing newline. Writing twice gives the same bytes."""
    keys = [k for k in (order or []) if k in store.cells]
    keys += [k for k in store.cells if k not in keys]
    data: dict[str, Any] = {
        "notebook": store.notebook,
        "cells": {k: store.cells[k].to_json() for k in keys},
    }
    if store.comments is not None:
        data["comments"] = store.comments
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"
