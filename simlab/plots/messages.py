"""What the pictures write, by ID (``plots.<key>``), in English (``EN``) and Chinese (``ZH``):
titles, axis labels, legends and marks, rendered by :func:`say` in the language the notebook
set (:func:`simlab.i18n.language.set_language`). A title a notebook passes in is its own
sentence, translated through the notebooks' sentence catalogs (:func:`words`)."""

from __future__ import annotations

from simlab.i18n.catalog import tables
from simlab.i18n.language import say as _say
from simlab.i18n.language import sentence

__all__ = ["EN", "ZH", "say", "words"]

EN, ZH = tables(__file__)


def say(key: str, /, **values: object) -> str:
    """The picture's text ``key`` in the notebook's language."""
    return _say(f"plots.{key}", **values)


def words(text: str) -> str:
    """A title a notebook passed in, in the notebook's language (as it is when no catalog
    knows it)."""
    return sentence(text)
