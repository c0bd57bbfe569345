"""The kit in the chapter's language: Chinese notebooks generated from one source.

:mod:`simlab.i18n.store` holds the translations (one JSON file per English notebook under
``i18n/zh/``, each markdown cell's Chinese beside the hash of the English it translates);
:mod:`simlab.i18n.build` generates ``notebooks/zh/``, ``solutions/zh/`` and ``exercises/zh/``
from the English notebooks and the store, checks that every translation is current, and lists
the cells a translator still has to do. ``simlab translate`` is the command line
(:mod:`simlab.cli.translate`); the grader's Chinese feedback comes from
its message catalogs (:mod:`simlab.grading.messages`). :mod:`simlab.i18n.language` is the
language a notebook sets once, and the kit's sentences (reveals, self-checks, printed lines,
pictures' titles) in it.
"""

from __future__ import annotations

from simlab.lazy import served

__all__ = [
    "PAIRS",
    "Report",
    "TodoItem",
    "check",
    "todo",
    "translate_notebook",
    "Entry",
    "Store",
    "StoreError",
    "en_hash",
    "load_store",
    "store_text",
    "set_language",
    "language",
]

# A notebook imports simlab.i18n.language for its language alone: the build (which reads
# notebooks through the grader's reader) loads only when one of its names is first read. Its
# function ``build`` is read from simlab.i18n.build (the package's attribute of that name is the
# module once it is loaded).
_BUILD = ("PAIRS", "Report", "TodoItem", "check", "todo", "translate_notebook")
_STORE = ("Entry", "Store", "StoreError", "en_hash", "load_store", "store_text")
__getattr__, __dir__ = served(
    "simlab.i18n",
    {
        **dict.fromkeys(_BUILD, "simlab.i18n.build"),
        **dict.fromkeys(_STORE, "simlab.i18n.store"),
        **dict.fromkeys(("set_language", "language"), "simlab.i18n.language"),
    },
)
