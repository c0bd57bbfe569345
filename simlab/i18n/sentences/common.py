"""The lines every lab notebook prints, and the kit's own lines several notebooks print (a
simulation's summary, the checker's findings, the stepper's event line), as they reach a
notebook's output (see :mod:`simlab.i18n.sentences`). The kit keeps saying them in English to
its callers (the command line, the code that reads them); only what a notebook prints is
translated."""

from __future__ import annotations

from simlab.i18n.catalog import tables

__all__ = ["EN", "ZH"]

EN, ZH = tables(__file__)
