"""The chapter's broken ledger primitives on PostgreSQL, kept for teaching. Never use them.

The same three mistakes as :class:`~simlab.ledger.ChapterLedger`, on a real server:
:meth:`claim_update_only` + :meth:`read_claim` are two statements (a bump, then a read of
whatever epoch is there *now*), and :meth:`save_unfenced` commits without the epoch.
"""

from __future__ import annotations

from typing import Any

from simlab.errors import TerminalTask, UnknownTask
from simlab.ledger import pg_statements as q
from simlab.ledger.arguments import check_step as _check_step
from simlab.ledger.arguments import check_ttl as _check_ttl
from simlab.ledger.arguments import from_json as _from_json
from simlab.ledger.arguments import to_json as _to_json
from simlab.ledger.postgres import PostgresLedger
from simlab.records import COMPLETED, RUNNING, Lease

__all__ = ["PostgresChapterLedger"]


class PostgresChapterLedger(PostgresLedger):
    """:class:`PostgresLedger` plus the chapter's two-statement claim and unfenced save."""

    def claim_update_only(self, task_id: str, worker: str, ttl: float) -> None:
        """The chapter's UPDATE: bump the epoch, set running; no lease check, no RETURNING."""
        _check_ttl(ttl)
        now = float(self.clock())
        params = {"worker": worker, "until": now + ttl, "now": now, "task_id": task_id}
        self._run(q.CHAPTER_CLAIM_UPDATE, params)

    def read_claim(self, task_id: str, worker: str) -> Lease:
        """The chapter's separate SELECT after the UPDATE: reads whatever epoch is there *now*."""
        row = self._run(q.CHAPTER_READ, {"task_id": task_id}).fetchone()
        if row is None:
            raise UnknownTask(task_id)
        tid, _, epoch, step, lease_until, checkpoint, attempts, status = row
        if status != RUNNING:
            raise TerminalTask(task_id, status)
        return Lease(tid, worker, epoch, step, lease_until, _from_json(checkpoint), attempts)

    def save_unfenced(
        self,
        lease: Lease,
        step: int,
        *,
        result: Any = None,
        checkpoint: Any = None,
        done: bool = False,
    ) -> bool:
        """A commit that ignores the epoch: any worker that thinks it owns the task may write."""
        _check_step(step)
        params = {
            "step": step,
            "result": _to_json(result, "result"),
            "checkpoint": _to_json(checkpoint, "checkpoint"),
            "status": COMPLETED if done else RUNNING,
            "now": float(self.clock()),
            "task_id": lease.task_id,
        }
        return self._write_one(lease.task_id, q.CHAPTER_SAVE_UNFENCED, params)
