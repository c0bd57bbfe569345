"""Where a learner's pieces plug into the kit, in the notebook and in the grader.

:func:`run_worker` runs the chapter's worker in a separate process (exercise 1).
:class:`PiecesLedger` is the real SQLite ledger with some of its methods replaced by functions a
learner wrote (``claim``, ``heartbeat``, ``record_effect``), each called with the raw
``sqlite3`` connection and the current time. Everything else (submit, the fenced save, cancel...)
stays the kit's own, so the learner's piece is tested in a complete, working system: the
simulator's workers, faults and checker run against it unchanged.

The grader builds the same ledger in its own process, with pieces that call the learner's
functions in the sandbox (:meth:`simlab.grading.student.Student.ledger`).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from simlab.learn.state import SANDBOX
from simlab.ledger import Ledger
from simlab.records import Lease

__all__ = ["PiecesLedger", "run_worker"]


def _positive(ttl: float) -> None:
    if not ttl > 0:
        raise ValueError(f"ttl must be a positive number of seconds, got {ttl!r}")


class PiecesLedger(Ledger):
    """The kit's ledger, with ``claim``, ``heartbeat`` and/or ``record_effect`` supplied as
    plain functions:

    * ``claim(db, task_id, worker, ttl, now) -> Lease``
    * ``heartbeat(db, lease, ttl, now) -> bool``
    * ``record_effect(db, lease, key, now) -> bool``

    ``db`` is the ledger's ``sqlite3`` connection (autocommit mode: each statement commits on
    its own unless you open a transaction) and ``now`` is ``clock()``. A piece left as None is
    the kit's own method. Arguments are validated before a piece is called (ttl > 0, key a
    non-empty string), so a piece only has to get the ledger logic right.
    """

    def __init__(
        self,
        path: str = ":memory:",
        *,
        claim: Callable[..., Lease] | None = None,
        heartbeat: Callable[..., bool] | None = None,
        record_effect: Callable[..., bool] | None = None,
        clock: Callable[[], float] = time.time,
        **kwargs: Any,
    ):
        super().__init__(path, clock=clock, **kwargs)
        self._claim_piece = claim
        self._heartbeat_piece = heartbeat
        self._effect_piece = record_effect

    @property
    def db(self):
        """The raw ``sqlite3`` connection the pieces receive."""
        return self._db

    def claim(self, task_id: str, worker: str, ttl: float) -> Lease:
        if self._claim_piece is None:
            return super().claim(task_id, worker, ttl)
        _positive(ttl)
        return self._claim_piece(self._db, task_id, worker, ttl, float(self.clock()))

    def heartbeat(self, lease: Lease, ttl: float) -> bool:
        if self._heartbeat_piece is None:
            return super().heartbeat(lease, ttl)
        _positive(ttl)
        return self._heartbeat_piece(self._db, lease, ttl, float(self.clock()))

    def record_effect(self, lease: Lease, key: str) -> bool:
        if self._effect_piece is None:
            return super().record_effect(lease, key)
        if not isinstance(key, str) or not key:
            raise ValueError(f"effect key must be a non-empty string, got {key!r}")
        return self._effect_piece(self._db, lease, key, float(self.clock()))


def run_worker(path: str | Path, task_id: str) -> dict:
    """Run the chapter's worker in a new OS process: claim ``task_id`` on the ledger file at
    ``path``, do one step (:func:`simlab.props.processes.resume_one_step`), exit.

    Returns the worker's report, e.g. ``{"event": "claim", "epoch": 1, "saved_step": 1, ...}``
    or ``{"event": "claim-refused", "reason": "..."}``. In a notebook the process is a fresh
    ``python -m simlab.props.worker``; in the grader's sandbox it is a fork (the same separate
    process and connection, without starting Python again); while the grader plays the
    learner's function in one of its worlds, that world's worker.
    """
    if SANDBOX.worker is not None:
        return SANDBOX.worker(str(path), task_id)
    if SANDBOX.fork_workers:
        return _forked_worker(str(path), task_id)
    done = subprocess.run(
        [sys.executable, "-m", "simlab.props.worker", "resume", str(path), task_id],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return json.loads(done.stdout.splitlines()[-1])


def _forked_worker(path: str, task_id: str) -> dict:
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the worker process
        try:
            os.close(read_end)
            from simlab.props.processes import resume_one_step

            with Ledger(path) as ledger:
                report = resume_one_step(ledger, task_id, f"pid-{os.getpid()}")
            os.write(write_end, json.dumps(report).encode())
        finally:
            os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as pipe:
        data = pipe.read()
    os.waitpid(pid, 0)
    if not data:
        raise RuntimeError(f"the worker process for {task_id!r} failed")
    return json.loads(data)
