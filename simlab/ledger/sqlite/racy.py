"""The chapter's racy claim on SQLite, kept deliberately broken for teaching. Never use it.

The flow is :class:`~simlab.ledger.racy.RacyClaimPrimitives`, written once for every dialect;
its SQL is the ``RACY_*`` statements of :mod:`simlab.ledger.sqlite.statements`.
"""

from __future__ import annotations

from simlab.ledger.racy import RacyClaimPrimitives
from simlab.ledger.sqlite.ledger import Ledger

__all__ = ["RacyClaimLedger"]


class RacyClaimLedger(RacyClaimPrimitives, Ledger):
    """:class:`~simlab.ledger.Ledger` plus the chapter's two-statement claim and unfenced save
    (:class:`~simlab.ledger.racy.RacyClaimPrimitives`). Never use them. The simulator's
    ``racy-claim`` and ``unfenced`` variants run on it."""
