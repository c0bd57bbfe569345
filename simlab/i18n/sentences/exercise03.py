"""The sentences of exercise 03's code (see :mod:`simlab.i18n.sentences`): the hints its stubs
raise, the messages of its public checks' asserts and the lines it prints (the solution's stale
commits included)."""

from __future__ import annotations

from simlab.i18n.catalog import tables

__all__ = ["EN", "ZH"]

EN, ZH = tables(__file__)
