"""The sentences of notebook 03's code (see :mod:`simlab.i18n.sentences`)."""

from __future__ import annotations

from simlab.i18n.catalog import tables

__all__ = ["EN", "ZH"]

EN, ZH = tables(__file__)
