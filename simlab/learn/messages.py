"""What a notebook's checks say, by ID (``learn.<key>``), in English (``EN``) and Chinese
(``ZH``): a prediction's reveal (:mod:`simlab.learn.predict`) and a self-check's line
(:mod:`simlab.learn.self_check`). Rendered by :func:`simlab.i18n.language.say` in the language
the notebook set; the English is what these lines have always been, byte for byte. A question's
ID stays as the notebook names it (in Chinese between 「」: an ID such as ``tasks needed at 0.9``
is a name, not a sentence to translate)."""

from __future__ import annotations

from simlab.i18n.catalog import tables

__all__ = ["EN", "ZH"]

EN, ZH = tables(__file__)
