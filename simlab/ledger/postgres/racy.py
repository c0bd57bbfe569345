"""The chapter's racy claim on PostgreSQL, kept deliberately broken for teaching. Never use it.

The same three mistakes as :class:`~simlab.ledger.RacyClaimLedger`, on a real server:
:meth:`claim_update_only` + :meth:`read_claim` are two statements (a bump, then a read of
whatever epoch is there *now*), and :meth:`save_unfenced` commits without the epoch. The flow
is :class:`~simlab.ledger.racy.RacyClaimPrimitives`; its SQL is the ``RACY_*`` statements of
:mod:`simlab.ledger.postgres.statements`.
"""

from __future__ import annotations

from simlab.ledger.postgres.ledger import PostgresLedger
from simlab.ledger.racy import RacyClaimPrimitives

__all__ = ["PostgresRacyClaimLedger"]


class PostgresRacyClaimLedger(RacyClaimPrimitives, PostgresLedger):
    """:class:`PostgresLedger` plus the chapter's two-statement claim and unfenced save
    (:class:`~simlab.ledger.racy.RacyClaimPrimitives`)."""
