"""The sentences of exercise 06's code (see :mod:`simlab.i18n.sentences`): the hints its stubs
raise and the messages of its public checks' asserts."""

from __future__ import annotations

from simlab.i18n.catalog import tables

__all__ = ["EN", "ZH"]

EN, ZH = tables(__file__)
