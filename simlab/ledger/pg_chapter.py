"""The chapter's broken ledger primitives on PostgreSQL, kept for teaching. Never use them.

The same three mistakes as :class:`~simlab.ledger.ChapterLedger`, on a real server:
:meth:`claim_update_only` + :meth:`read_claim` are two statements (a bump, then a read of
whatever epoch is there *now*), and :meth:`save_unfenced` commits without the epoch.
"""

from __future__ import annotations

from simlab.ledger.core import ChapterPrimitives
from simlab.ledger.postgres import PostgresLedger

__all__ = ["PostgresChapterLedger"]


class PostgresChapterLedger(ChapterPrimitives, PostgresLedger):
    """:class:`PostgresLedger` plus the chapter's two-statement claim and unfenced save
    (:class:`~simlab.ledger.core.ChapterPrimitives`)."""
