"""A health check that proves the database and the queue work, not just that a process is alive.

:func:`check_health` runs two checks against a ledger (a SQLite file, or a ``postgresql://`` URL)
and never creates, migrates or leaves anything claimable behind:

1. **database** -- the file must exist (a missing file is unhealthy: a health check that created
   an empty ledger would report "healthy" for a service pointed at the wrong path), then
   :func:`simlab.ledger.sqlite.probes.probe_write_read` takes the write lock, writes a probe
   row, reads it back, deletes it and commits, all in one transaction. A lock held by someone
   else for longer than ``timeout`` seconds, a read-only file or mount, a file that is not a
   ledger, or a schema from other code makes it unhealthy, with the reason. On PostgreSQL the
   same probe runs in one transaction with ``lock_timeout`` set to ``timeout``
   (:func:`simlab.ledger.postgres.probes.probe_write_read`); an unreachable server is unhealthy.
2. **queue** -- a probe task is submitted (tenant ``__health__``), claimed *by its ID* and
   completed through the ordinary ledger API, and read back as completed with its result.

Probes never disturb a working queue, and never stay. ``claim_next`` passes over every task of
tenant ``__health__`` (in every ledger), and the probe's ID is never published, so no worker is
handed one. Should a worker still claim a probe by its ID in the instant between ``submit`` and
the probe's own claim, that claim is refused (:class:`~simlab.errors.LeaseHeld` or
:class:`~simlab.errors.TerminalTask`); the check tries again with a new probe, up to
:data:`PROBE_TRIES` times, and if every probe was taken by another worker the queue is still
reported working (someone claimed from it). Whatever happens, each probe task is deleted
(:func:`simlab.ledger.connect.remove_probe`, which picks the engine's own deletion) before the
check returns, so repeated checks leave nothing behind, on SQLite and on PostgreSQL alike.

Exit status of ``simlab health``: 0 healthy, 1 unhealthy, 2 usage error.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from simlab.errors import LeaseHeld, LedgerError, TerminalTask
from simlab.ledger import Ledger
from simlab.ledger.connect import is_postgres_url, redact, remove_probe
from simlab.ledger.sqlite.probes import probe_write_read
from simlab.records import COMPLETED, PROBE_TENANT

__all__ = ["Check", "HealthReport", "check_health", "PROBE_TENANT", "PROBE_TRIES", "format_health"]

PROBE_TRIES = 3


@dataclass(frozen=True)
class Check:
    """One check: ``ok``, one sentence of ``detail``, and how long it took (wall seconds)."""

    name: str
    ok: bool | None  # None: not run (an earlier check failed)
    detail: str
    seconds: float | None = None

    def to_dict(self) -> dict:
        return {"name": self.name, "ok": self.ok, "detail": self.detail, "seconds": self.seconds}


@dataclass(frozen=True)
class HealthReport:
    path: str
    checks: tuple[Check, ...]

    @property
    def healthy(self) -> bool:
        return all(c.ok for c in self.checks)

    def to_dict(self) -> dict:
        return {
            "db": self.path,
            "healthy": self.healthy,
            "checks": [c.to_dict() for c in self.checks],
        }


def _reason(exc: BaseException, timeout: float) -> str:
    """The engine's terse errors as a sentence an operator can act on (the original kept)."""
    text = str(exc)
    low = text.lower()
    if "locked" in low or "busy" in low or "lock timeout" in low:
        return (
            f"locked: another connection held the write lock for more than {timeout:g} s ({text})"
        )
    if "readonly" in low or "read-only" in low:
        return f"read-only: this process cannot write the database ({text})"
    if "belongs to another database" in low:
        return f"foreign -wal: {text}"
    if "not a database" in low or "schema version" in low or "not a simlab ledger" in low:
        return f"not a usable simlab ledger ({text})"
    return f"{type(exc).__name__}: {text}"


def _database(path: Path | str, timeout: float) -> Check:
    start = time.perf_counter()
    if is_postgres_url(path):
        from simlab.ledger.postgres.probes import probe_write_read as pg_probe

        return _probed(
            start, lambda: pg_probe(path, uuid.uuid4().hex, busy_timeout=timeout), timeout
        )
    if not path.exists():
        return Check(
            "database", False, f"{path} does not exist (a health check never creates a database)"
        )
    if not path.is_file():
        return Check("database", False, f"{path} is not a regular file")
    token = uuid.uuid4().hex
    return _probed(start, lambda: probe_write_read(path, token, busy_timeout=timeout), timeout)


def _probed(start: float, probe: Callable[[], bool], timeout: float) -> Check:
    """The database check's verdict from ``probe()`` (True when the read saw the write)."""
    try:
        seen = probe()
    except (LedgerError, OSError) as exc:
        return Check("database", False, _reason(exc, timeout))
    elapsed = time.perf_counter() - start
    if not seen:
        return Check(
            "database", False, "a write was not visible to a read in the same transaction", elapsed
        )
    return Check(
        "database", True, "wrote, read back and removed a probe row in one transaction", elapsed
    )


def _probe(ledger: Ledger, timeout: float, start: float) -> Check | None:
    """One probe through the ordinary API; None when another worker claimed it first."""
    token = uuid.uuid4().hex[:12]
    task_id = f"{PROBE_TENANT}:{token}"
    try:
        ledger.submit(task_id, tenant=PROBE_TENANT, goal={"probe": token})
        try:
            lease = ledger.claim(task_id, "health-check", ttl=max(10.0, 2 * timeout))
        except (LeaseHeld, TerminalTask):
            return None
        if not ledger.save(lease, 1, result={"probe": token}, done=True):
            return Check("queue", False, f"the fenced save of probe {task_id} was refused")
        record = ledger.get(task_id)
        if record.status != COMPLETED or record.result != {"probe": token}:
            return Check(
                "queue",
                False,
                f"probe {task_id} reads back as {record.status} with {record.result!r}",
            )
        return Check(
            "queue",
            True,
            f"probe task {task_id} submitted, claimed by ID (epoch {lease.epoch}), completed "
            "and removed",
            time.perf_counter() - start,
        )
    finally:
        remove_probe(ledger, task_id)


def _open(path: Path | str, timeout: float):
    if is_postgres_url(path):
        from simlab.ledger import PostgresLedger

        return PostgresLedger(path, connect_timeout=timeout)
    return Ledger(path, busy_timeout=timeout)


def _queue(path: Path | str, timeout: float) -> Check:
    start = time.perf_counter()
    try:
        ledger = _open(path, timeout)
    except (LedgerError, OSError) as exc:
        return Check("queue", False, _reason(exc, timeout))
    try:
        for _ in range(PROBE_TRIES):
            check = _probe(ledger, timeout, start)
            if check is not None:
                return check
        return Check(
            "queue",
            True,
            f"{PROBE_TRIES} probes in a row were claimed by other workers before the check could "
            "claim them: the queue hands out work; each probe was removed",
            time.perf_counter() - start,
        )
    except Exception as exc:  # noqa: BLE001 -- every failure is a reason to report, not raise
        return Check("queue", False, _reason(exc, timeout))
    finally:
        ledger.close()


def check_health(path: str | Path, *, timeout: float = 5.0) -> HealthReport:
    """Check the database, then (if it passed) the queue. See the module doc.

    ``timeout``: seconds to wait for a lock before calling the database unhealthy.
    """
    if not timeout > 0:
        raise ValueError(f"timeout must be a positive number of seconds, got {timeout!r}")
    path = path if is_postgres_url(path) else Path(path)
    shown = redact(str(path))
    database = _database(path, timeout)
    if not database.ok:
        return HealthReport(
            shown, (database, Check("queue", None, "not checked: the database check failed"))
        )
    return HealthReport(shown, (database, _queue(path, timeout)))


def format_health(report: HealthReport) -> str:
    """A few lines: one per check, then ``healthy`` or ``unhealthy``."""
    lines = [f"simlab health: {report.path}"]
    for c in report.checks:
        status = {True: "ok", False: "FAIL", None: "skip"}[c.ok]
        took = f" ({1000 * c.seconds:.1f} ms)" if c.seconds is not None and c.ok else ""
        lines.append(f"  {c.name:<9}{status:<6}{c.detail}{took}")
    lines.append("healthy" if report.healthy else "unhealthy")
    return "\n".join(lines)
