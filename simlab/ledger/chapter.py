"""The chapter's ledger primitives, kept deliberately broken for teaching."""

from __future__ import annotations

from typing import Any

from simlab.errors import TerminalTask, UnknownTask
from simlab.ledger import statements as stmt
from simlab.ledger.arguments import check_step as _check_step
from simlab.ledger.arguments import check_ttl as _check_ttl
from simlab.ledger.arguments import from_json as _from_json
from simlab.ledger.arguments import to_json as _to_json
from simlab.ledger.sqlite import Ledger
from simlab.records import COMPLETED, RUNNING, Lease

__all__ = ["ChapterLedger"]


class ChapterLedger(Ledger):
    """The chapter's ledger primitives, kept deliberately broken for teaching. Never use them.

    * :meth:`claim_update_only` + :meth:`read_claim` are the chapter's two-statement claim: the
      epoch bump and the read of the epoch are separate statements. Between them another worker
      can bump again, and then both read the same, latest epoch: two owners of one lease.
      It also re-claims a running task without looking at ``lease_until``.
    * :meth:`save_unfenced` commits without comparing the epoch: a stale worker overwrites the
      work of its successor.
    """

    def claim_update_only(self, task_id: str, worker: str, ttl: float) -> None:
        """The chapter's UPDATE: bump the epoch, set running; no lease check, no RETURNING."""
        _check_ttl(ttl)
        now = float(self.clock())
        self._db.execute(
            "UPDATE tasks SET epoch = epoch + 1, status = 'running', attempts = attempts + 1,"
            " worker = ?, lease_until = ?, updated_at = ?"
            " WHERE task_id = ? AND (status = 'queued' OR status = 'running')",
            (worker, now + ttl, now, task_id),
        )

    def read_claim(self, task_id: str, worker: str) -> Lease:
        """The chapter's separate SELECT after the UPDATE: reads whatever epoch is there *now*."""
        row = self._db.execute(
            f"SELECT {stmt.LEASE_COLUMNS} FROM tasks WHERE task_id = ?", (task_id,)
        ).fetchone()
        if row is None:
            raise UnknownTask(task_id)
        tid, _, epoch, step, lease_until, checkpoint, attempts, status = row
        if status != RUNNING:
            raise TerminalTask(task_id, status)
        return Lease(tid, worker, epoch, step, float(lease_until), _from_json(checkpoint), attempts)

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
        return self._write_one(
            lease.task_id,
            "UPDATE tasks SET step = ?, result = ?, checkpoint = ?, status = ?, updated_at = ?"
            " WHERE task_id = ? AND status = 'running'",
            (
                step,
                _to_json(result, "result"),
                _to_json(checkpoint, "checkpoint"),
                COMPLETED if done else RUNNING,
                float(self.clock()),
                lease.task_id,
            ),
        )
