"""The chapter's racy claim, written once for every SQL dialect: kept broken for teaching.

:class:`RacyClaimPrimitives` is the flow of the chapter's deliberately broken primitives (the
two-statement claim and the unfenced save); each dialect's statements module holds their SQL
(``RACY_*``) and its ``racy`` module mixes them into its ledger class. The simulator's variants
``racy-claim`` and ``unfenced`` run on these. Never use them for real work.
"""

from __future__ import annotations

from typing import Any

from simlab.errors import TerminalTask, UnknownTask
from simlab.ledger.arguments import check_step, check_ttl, from_json
from simlab.ledger.arguments import to_json as _to_json
from simlab.records import COMPLETED, RUNNING, Lease

__all__ = ["RacyClaimPrimitives"]


class RacyClaimPrimitives:
    """The chapter's ledger primitives, kept deliberately broken for teaching. Never use them.

    * :meth:`claim_update_only` + :meth:`read_claim` are the chapter's two-statement claim: the
      epoch bump and the read of the epoch are separate statements. Between them another worker
      can bump again, and then both read the same, latest epoch: two owners of one lease.
      It also re-claims a running task without looking at ``lease_until``.
    * :meth:`save_unfenced` commits without comparing the epoch: a stale worker overwrites the
      work of its successor.

    Mixed into a dialect of :class:`~simlab.ledger.core.SqlLedger`
    (:class:`~simlab.ledger.sqlite.racy.RacyClaimLedger`,
    :class:`~simlab.ledger.postgres.racy.PostgresRacyClaimLedger`), whose statements module
    gives ``RACY_CLAIM_UPDATE``, ``RACY_READ`` and ``RACY_SAVE_UNFENCED``.
    """

    def claim_update_only(self, task_id: str, worker: str, ttl: float) -> None:
        """The chapter's UPDATE: bump the epoch, set running; no lease check, no RETURNING."""
        check_ttl(ttl)
        now = float(self.clock())
        params = {"worker": worker, "until": now + ttl, "now": now, "task_id": task_id}
        self._count(self.q.RACY_CLAIM_UPDATE, params)

    def read_claim(self, task_id: str, worker: str) -> Lease:
        """The chapter's separate SELECT after the UPDATE: reads whatever epoch is there *now*."""
        rows = self._rows(self.q.RACY_READ, {"task_id": task_id})
        if not rows:
            raise UnknownTask(task_id)
        tid, _, epoch, step, lease_until, checkpoint, attempts, status = rows[0]
        if status != RUNNING:
            raise TerminalTask(task_id, status)
        return Lease(tid, worker, epoch, step, float(lease_until), from_json(checkpoint), attempts)

    def save_unfenced(
        self,
        lease: Lease,
        step: int,
        *,
        result: Any = None,
        checkpoint: Any = None,
        done: bool = False,
    ) -> bool:
        """A commit that ignores the epoch: any worker that thinks it owns the task may write.
        Everything else is ``save``'s: a completing one ends the lease."""
        check_step(step)
        params = {
            "step": step,
            "result": _to_json(result, "result"),
            "checkpoint": _to_json(checkpoint, "checkpoint"),
            "status": COMPLETED if done else RUNNING,
            "now": float(self.clock()),
            "task_id": lease.task_id,
        }
        return self._write_one(lease.task_id, self.q.RACY_SAVE_UNFENCED, params)
