"""The kit in the chapter's language: Chinese notebooks generated from one source.

:mod:`simlab.i18n.store` holds the translations (one JSON file per English notebook under
``i18n/zh/``, each markdown cell's Chinese beside the hash of the English it translates);
:mod:`simlab.i18n.build` generates ``notebooks/zh/``, ``solutions/zh/`` and ``exercises/zh/``
from the English notebooks and the store, checks that every translation is current, and lists
the cells a translator still has to do. ``simlab translate`` is the command line
(:mod:`simlab.cli.translate`); the grader's Chinese feedback comes from
its message catalogs (:mod:`simlab.grading.messages`).
"""

from __future__ import annotations

from simlab.i18n.build import PAIRS, Report, TodoItem, build, check, todo, translate_notebook
from simlab.i18n.store import Entry, Store, StoreError, en_hash, load_store, store_text

__all__ = [
    "PAIRS",
    "Report",
    "TodoItem",
    "build",
    "check",
    "todo",
    "translate_notebook",
    "Entry",
    "Store",
    "StoreError",
    "en_hash",
    "load_store",
    "store_text",
]
