"""The sentences of notebook 05's code and of the stories, shrinks and certificates it prints
(see :mod:`simlab.i18n.sentences`)."""

from __future__ import annotations

from simlab.i18n.catalog import tables

__all__ = ["EN", "ZH"]

EN, ZH = tables(__file__)
