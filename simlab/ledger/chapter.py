"""The chapter's ledger primitives on SQLite, kept deliberately broken for teaching."""

from __future__ import annotations

from simlab.ledger.core import ChapterPrimitives
from simlab.ledger.sqlite import Ledger

__all__ = ["ChapterLedger"]


class ChapterLedger(ChapterPrimitives, Ledger):
    """:class:`~simlab.ledger.Ledger` plus the chapter's two-statement claim and unfenced save
    (:class:`~simlab.ledger.core.ChapterPrimitives`). Never use them."""
