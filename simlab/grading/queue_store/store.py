"""The grading queue: submissions graded as tasks of the kit's own ledger, fenced like any task.

A grading queue is a ledger (SQLite file or PostgreSQL database) with two more tables: one row
per submission enqueued (its key, the SHA-256 of its bytes, the bytes themselves, the grader
version and the grading options) and one row per attempt to grade it. Each submission is one
task of the ledger's ``tasks`` (tenant ``grading``), so grading runs on the ledger's own
primitives, written once in :class:`~simlab.ledger.core.SqlLedger` (the arrow goes from the
grader to the ledger only: the ledger knows nothing of grading):

* a worker takes a submission with ``claim_next`` (a lease with a new epoch, one statement),
  heartbeats while it grades, and commits the result with the fenced ``save``: a worker whose
  lease was taken over (it stopped, its lease ran out, another worker claimed) gets False and
  its late result is kept only as the attempt's history (outcome ``stale``);
* every claim opens an attempt (worker, epoch, start); it ends ``graded`` or ``timeout`` (the
  result was committed), ``released`` (the worker handed the task back), ``stale`` (the fence
  refused it), or is found ``lost`` (still open when a later epoch exists: its worker vanished);
* ``max_attempts`` claims at most, then the task is ``dead`` (the ledger's dead letter).

Beside them the queue keeps each key's history (one row each time it was enqueued as other
bytes, grader version or options than the time before: resubmissions and regrades, in order,
with their time; :meth:`GradingQueue.history`) and the instructor's overrides of a student's
points for one question (:meth:`GradingQueue.override`; never updated nor deleted: a cleared
override is a row without points, and the last row of a question is in force).

A submission's ``status`` is its task's: ``pending`` (queued or running), ``graded``
(completed) or ``dead``. The flow is written once over both dialects: the statements are
:mod:`simlab.grading.queue_store.sqlite_statements` (SQLite) and
:mod:`simlab.grading.queue_store.postgres_statements` (PostgreSQL), each with its
tables' migrations (``MIGRATIONS``), applied by :mod:`simlab.grading.queue_store.migrate`.

Opening never creates silently: :func:`open_queue` makes a new queue only with ``create=True``,
refuses a path that does not exist, a ledger holding tasks of its own, and anything that is not
a ledger, each with one :class:`NotAQueue` line.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simlab.errors import LedgerError
from simlab.grading.queue_store import sqlite_statements
from simlab.ledger.arguments import from_json
from simlab.ledger.connect import connect
from simlab.ledger.targets import is_postgres_url, redact, sqlite_path
from simlab.records import COMPLETED, DEAD, Lease

__all__ = [
    "Attempt",
    "GradingQueue",
    "Override",
    "Job",
    "NotAQueue",
    "Submission",
    "open_queue",
    "status_of",
    "task_key",
    "OUTCOMES",
]

#: The outcomes of an attempt.
OUTCOMES = ("graded", "timeout", "released", "lost", "stale")
#: The step a grading task commits: one step, its result.
_STEP = 1


class NotAQueue(LedgerError):
    """The database named is not a grading queue (or does not exist, where one must)."""


@dataclass(frozen=True)
class Attempt:
    """One claim of a submission: who, with which epoch, when, and how it ended."""

    worker: str
    epoch: int
    started: float
    ended: float | None
    outcome: str | None  # None while it runs

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class Override:
    """The instructor's points for one student's question, why and when (``at``, seconds since
    the epoch); ``points`` None when this row cleared the override before it."""

    student: str
    exercise: str
    question: str
    points: float | None
    why: str
    at: float


@dataclass(frozen=True)
class Submission:
    """One submission as the queue holds it; ``result`` is the committed grade (or None)."""

    task_id: str
    notebook: str
    sha256: str
    version: str
    status: str  # pending, graded, dead
    result: dict[str, Any] | None
    attempts: tuple[Attempt, ...]
    claims: int  # claims counted towards max_attempts


@dataclass(frozen=True)
class Job:
    """What a worker needs to grade one claimed submission, on any machine."""

    lease: Lease
    notebook: str
    sha256: str
    version: str
    settings: dict[str, Any]
    content: bytes | None
    refused: str | None


def status_of(task_status: str) -> str:
    """A submission's status from its task's: graded, dead or pending."""
    return {COMPLETED: "graded", DEAD: "dead"}.get(task_status, "pending")


def task_key(notebook: str, sha256: str, version: str, settings: dict[str, Any]) -> str:
    """The grading task's ID: one task per key, bytes, grader version and grading options, so
    enqueueing the same submission again finds the same task."""
    text = json.dumps([notebook, sha256, version, settings], sort_keys=True)
    return "grade-" + hashlib.sha256(text.encode()).hexdigest()[:40]


def open_queue(
    target: str | Path,
    *,
    create: bool = False,
    max_attempts: int | None = None,
    clock: Callable[[], float] = time.time,
) -> GradingQueue:
    """Open the grading queue ``target`` (a ledger path or a ``postgresql://`` URL).

    ``max_attempts`` and ``clock`` mean what they mean for the ledger. ``create=True`` makes a
    new queue (a new file, an empty ledger, or an empty PostgreSQL schema) and upgrades an older
    one; otherwise the queue must already exist. Raises :class:`NotAQueue` (one line) for
    anything else, and nothing is created or written then.
    """
    text = str(target)
    if is_postgres_url(text):
        if not create and not _pg_has_queue(text):
            raise NotAQueue(f"{redact(text)} holds no grading queue")
    else:
        path = sqlite_path(text)
        if path == ":memory:" and not create:
            raise NotAQueue("an in-memory ledger holds no grading queue")
        if path != ":memory:" and not create and not _nonempty(path):
            raise NotAQueue(f"no grading queue {text!r}: the file does not exist")
    try:
        ledger = connect(target, max_attempts=max_attempts, clock=clock)
    except LedgerError as exc:
        raise NotAQueue(f"not a grading queue: {exc}") from None
    try:
        return GradingQueue(ledger, create=create)
    except BaseException:
        ledger.close()
        raise


def _nonempty(path: str) -> bool:
    try:
        return os.path.getsize(path) > 0
    except OSError:
        return False


def _pg_has_queue(url: str) -> bool:
    """Does the PostgreSQL database hold a grading queue? Reads only (never migrates)."""
    from simlab.extras import require

    require("postgres")
    import psycopg

    from simlab.grading.queue_store import postgres_statements as pg
    from simlab.ledger.postgres.ledger import reason

    try:
        with psycopg.connect(url, autocommit=True, connect_timeout=10) as db:
            return bool(db.execute(pg.HAS_QUEUE).fetchone()[0])
    except psycopg.Error as exc:
        raise NotAQueue(f"cannot open {redact(url)}: {reason(exc)}") from None


class GradingQueue:
    """The grading flow over one open ledger (either dialect). One object, one thread."""

    def __init__(self, ledger: Any, *, create: bool = False):
        self.ledger = ledger
        self.g = sqlite_statements
        postgres = hasattr(ledger, "_cur")
        if postgres:
            from simlab.grading.queue_store import postgres_statements

            self.g = postgres_statements
        where = getattr(ledger, "url", None) or getattr(ledger, "path", "?")
        has = self._one(self.g.HAS_QUEUE)
        if not has:
            if not create:
                raise NotAQueue(f"{where!r} is a simlab ledger but not a grading queue")
            if self._one(self.g.OTHER_TASKS):
                raise NotAQueue(
                    f"{where!r} is a simlab ledger with tasks of its own, not a grading queue; "
                    "give a new file or an empty database"
                )
        from simlab.grading.queue_store import migrate

        migrate.grading_tables(ledger, self.g, postgres, where, has)

    # -- the ledger's own connection -------------------------------------------------------------

    def close(self) -> None:
        self.ledger.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _one(self, sql: str, params: dict | None = None) -> Any:
        rows = self.ledger._rows(sql, params or {})
        return rows[0][0] if rows else None

    def _now(self) -> float:
        return float(self.ledger.clock())

    # -- enqueue ---------------------------------------------------------------------------------

    def enqueue(
        self,
        notebook: str,
        content: bytes | None,
        version: str,
        settings: dict[str, Any],
        refused: str | None = None,
    ) -> str:
        """Persist one submission and its grading task (idempotent); return the task's ID.

        The same key, bytes, version and settings again find the same task, graded or not:
        nothing is graded twice. ``refused`` (one line) makes a task whose grade is that error.
        """
        sha = hashlib.sha256(content).hexdigest() if content is not None else ""
        task_id = task_key(notebook, sha, version, settings)
        now = self._now()
        params = {
            "task_id": task_id,
            "notebook": notebook,
            "sha256": sha,
            "version": version,
            "settings": json.dumps(settings, sort_keys=True),
            "content": content,
            "refused": refused,
            "now": now,
        }
        last = self.ledger._rows(self.g.LAST_SEEN, {"notebook": notebook})
        if not last or last[0][0] != task_id:  # new bytes, grader version or options
            self.ledger._count(self.g.SEEN, params)
        self.ledger._count(self.g.ADD, params)
        goal = json.dumps({"notebook": notebook, "sha256": sha, "version": version})
        task = {"task_id": task_id, "tenant": self.g.TENANT, "goal": goal, "now": now}
        self.ledger._count(self.ledger.q.SUBMIT, task)  # 0 rows: it was enqueued before
        self.ledger._wrote()
        return task_id

    # -- overrides ------------------------------------------------------------------------------

    def override(
        self, student: str, exercise: str, question: str, points: float | None, why: str
    ) -> Override:
        """Record the instructor's ``points`` for ``student``'s ``exercise``/``question`` (None:
        clear the override in force) with the reason ``why``, at the queue's clock; the
        question's earlier overrides stay as history."""
        row = Override(student, exercise, question, points, why, self._now())
        self.ledger._count(self.g.OVERRIDE, {**dataclasses.asdict(row), "now": row.at})
        self.ledger._wrote()
        return row

    def overrides(self) -> list[Override]:
        """Every override row ever given, in the order given (clears included)."""
        return [
            Override(str(st), str(ex), str(q), None if p is None else float(p), str(why), float(at))
            for st, ex, q, p, why, at in self.ledger._rows(self.g.OVERRIDES, {})
        ]

    def history(self) -> list[tuple[str, str, float]]:
        """(key, task ID, time) each time a key was enqueued as other bytes, grader version or
        options than the time before, oldest first."""
        return [(str(k), str(t), float(at)) for k, t, at in self.ledger._rows(self.g.HISTORY, {})]

    # -- a worker's calls ------------------------------------------------------------------------

    def claim(self, worker: str, ttl: float) -> Job | None:
        """Claim the oldest claimable submission (a lease with a new epoch) and open its
        attempt; None when nothing can be claimed now."""
        lease = self.ledger.claim_next(worker, ttl)
        if lease is None:
            return None
        params = {"task_id": lease.task_id, "epoch": lease.epoch, "worker": worker}
        self.ledger._count(self.g.START, {**params, "now": self._now()})
        rows = self.ledger._rows(self.g.SUBMISSION, {"task_id": lease.task_id})
        notebook, sha, version, settings, content, refused = rows[0]
        return Job(
            lease, notebook, sha, version, json.loads(settings),
            None if content is None else bytes(content), refused,
        )  # fmt: skip

    def heartbeat(self, lease: Lease, ttl: float) -> bool:
        """Extend the lease while it is current (:meth:`SqlLedger.heartbeat`)."""
        return self.ledger.heartbeat(lease, ttl)

    def finish(self, lease: Lease, result: dict[str, Any], outcome: str = "graded") -> bool:
        """Commit ``result`` with the fenced save and close the attempt: ``outcome`` (graded or
        timeout) when the fence accepted it, ``stale`` (result kept as history) when not."""
        if outcome not in ("graded", "timeout"):
            raise ValueError(f"a committed attempt is graded or timeout, not {outcome!r}")
        saved = self.ledger.save(lease, _STEP, result=result, done=True)
        self._end(lease, outcome if saved else "stale", None if saved else result)
        return saved

    def release(self, lease: Lease) -> bool:
        """Hand the task back (the worker stops on purpose) and close the attempt
        ``released``; False (and the attempt untouched) if the lease was no longer current."""
        released = self.ledger.release(lease)
        if released:
            self._end(lease, "released", None)
        return released

    def _end(self, lease: Lease, outcome: str, result: dict[str, Any] | None) -> None:
        params = {
            "task_id": lease.task_id,
            "epoch": lease.epoch,
            "outcome": outcome,
            "result": None if result is None else json.dumps(result),
            "now": self._now(),
        }
        self.ledger._count(self.g.END, params)

    def mark_lost(self) -> list[tuple[str, str, int]]:
        """Close every open attempt that a later claim superseded as ``lost``; return them
        (task ID, worker, epoch)."""
        return [tuple(r) for r in self.ledger._rows(self.g.LOST, {})]

    # -- reading ---------------------------------------------------------------------------------

    def states(self) -> list[tuple[str, str, str | None, float | None]]:
        """(task ID, task status, worker, lease_until) of every submission, enqueue order."""
        return [tuple(r) for r in self.ledger._rows(self.g.STATES, {})]

    def open_settings(self) -> list[tuple[str, dict[str, Any]]]:
        """(grader version, settings) of the submissions still pending."""
        rows = self.ledger._rows(self.g.OPEN_VERSIONS, {})
        return [(version, json.loads(settings)) for version, settings in rows]

    def submissions(self) -> list[Submission]:
        """Every submission ever enqueued with its attempts, oldest enqueue first (a key
        enqueued again comes after its earlier rows)."""
        attempts: dict[str, list[tuple]] = {}
        for row in self.ledger._rows(self.g.ATTEMPTS, {}):
            attempts.setdefault(row[0], []).append(row[1:])
        out = []
        for row in self.ledger._rows(self.g.SUBMISSIONS, {}):
            task_id, notebook, sha, version, status, epoch, result, claims, _ = row
            tried = []
            for worker, at_epoch, started, ended, outcome in attempts.get(task_id, []):
                if outcome is None and status == COMPLETED and at_epoch == epoch:
                    outcome = "graded"  # committed; its worker stopped before closing it
                tried.append(Attempt(worker, at_epoch, started, ended, outcome))
            out.append(
                Submission(
                    task_id,
                    notebook,
                    sha,
                    version,
                    status_of(status),
                    from_json(result),
                    tuple(tried),
                    claims,
                )  # fmt: skip
            )
        return out

    # -- submission times and the class's deadlines ----------------------------------------------

    def hand_in(
        self, task_id: str, student: str | None, submitted_at: str | None, note: str | None
    ) -> None:
        """Record who handed submission ``task_id`` in (the student its course layout names)
        and when (ISO 8601, or None and ``note``: a stored message saying why not); the last
        record of a task wins."""
        params = {
            "task_id": task_id,
            "student": student,
            "submitted_at": submitted_at,
            "note": note,
        }
        self.ledger._count(self.g.HAND_IN, params)
        self.ledger._wrote()

    def handed_in(self) -> dict[str, tuple[str | None, str | None, str | None]]:
        """Task ID -> (student, submitted_at, note) of every submission with a record."""
        return {r[0]: (r[1], r[2], r[3]) for r in self.ledger._rows(self.g.HANDED_IN, {})}

    def set_terms(self, values: dict[str, Any]) -> None:
        """Store the class's deadline terms (``deadline``, ``late_policy``, ``extensions``,
        ``excused``: JSON values), each replacing the one stored under its name."""
        now = self._now()
        for name, value in values.items():
            params = {"name": name, "value": json.dumps(value, sort_keys=True), "now": now}
            self.ledger._count(self.g.SET_TERM, params)
        self.ledger._wrote()

    def terms(self) -> dict[str, Any]:
        """The class's stored deadline terms, by name (:meth:`set_terms`)."""
        return {name: json.loads(value) for name, value in self.ledger._rows(self.g.TERMS, {})}
