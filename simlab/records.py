"""Plain records that ledgers hand out: statuses, leases, task snapshots and effects.

Records are immutable snapshots. A :class:`Lease` is the worker's proof of a claim; the ledger,
not the lease, is the truth: a lease whose epoch is no longer current commits nothing.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, fields
from typing import Any

__all__ = [
    "QUEUED",
    "RUNNING",
    "COMPLETED",
    "CANCELLED",
    "DEAD",
    "STATUSES",
    "TERMINAL_STATUSES",
    "PROBE_TENANT",
    "Lease",
    "TaskRecord",
    "Effect",
    "by_position",
    "new_lease",
    "new_task_record",
    "listing_views",
]

QUEUED = "queued"
RUNNING = "running"
COMPLETED = "completed"
CANCELLED = "cancelled"
DEAD = "dead"

#: Every status a task can have, in lifecycle order.
STATUSES = (QUEUED, RUNNING, COMPLETED, CANCELLED, DEAD)
#: Statuses from which no claim succeeds (``requeue`` brings cancelled and dead tasks back).
TERMINAL_STATUSES = frozenset({COMPLETED, CANCELLED, DEAD})
#: The tenant of ``simlab health``'s probe tasks: ``claim_next`` never hands them to a worker.
PROBE_TENANT = "__health__"


def _slots_set_directly(cls: type) -> type:
    """Give the frozen slots dataclass ``cls`` an ``__init__`` with the same parameters that sets
    each slot through its descriptor. (The dataclass's own ``__init__`` calls
    ``object.__setattr__`` once per field, which costs more, and a ledger makes one of these
    records on every claim.) The instances stay frozen: assignment still raises."""
    env: dict[str, Any] = {}
    params, body = [], []
    for f in fields(cls):
        env[f"_set_{f.name}"] = getattr(cls, f.name).__set__
        if f.default is MISSING:
            params.append(f.name)
        else:
            env[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        body.append(f"    _set_{f.name}(self, {f.name})")
    exec(f"def __init__(self, {', '.join(params)}):\n" + "\n".join(body), env)
    init = env["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = init
    return cls


def by_position(cls: type) -> Any:
    """A function that returns a ``cls`` from every field's value, by position: the record
    ``cls(*values)`` returns, for a hot path (a ledger's records, the history's events). It
    fills an unfrozen twin of ``cls`` (the same slots) with plain stores and then makes it a
    ``cls``, skipping the frozen slots' setters."""
    names = [f.name for f in fields(cls)]
    twin = type(f"_Unfrozen{cls.__name__}", (), {"__slots__": cls.__slots__})
    env: dict[str, Any] = {"_new": object.__new__, "_twin": twin, "_cls": cls}
    body = "".join(f"    r.{n} = {n}\n" for n in names)
    exec(
        f"def build({', '.join(names)}):\n    r = _new(_twin)\n{body}"
        "    r.__class__ = _cls\n    return r\n",
        env,
    )
    build = env["build"]
    build.__qualname__ = build.__name__ = f"new_{cls.__name__}"
    return build


@_slots_set_directly
@dataclass(frozen=True, slots=True)
class Lease:
    """A granted claim: ``worker`` may run the task from ``step`` while ``epoch`` is current.

    ``epoch`` is the fencing token. Every claim and every cancellation bumps the task's epoch, so a
    worker holding an older lease finds its ``save`` and ``record_effect`` refused.
    ``lease_until`` is the clock time at which another worker may claim the task again.
    """

    task_id: str
    worker: str
    epoch: int
    step: int
    lease_until: float
    checkpoint: Any = None
    attempts: int = 1


@_slots_set_directly
@dataclass(frozen=True, slots=True)
class TaskRecord:
    """A snapshot of one task as the ledger stores it."""

    task_id: str
    status: str
    step: int
    epoch: int
    result: Any
    tenant: str
    attempts: int
    lease_until: float | None
    checkpoint: Any
    worker: str | None = None
    goal: Any = None
    created_at: float | None = None
    updated_at: float | None = None

    @property
    def terminal(self) -> bool:
        """True for completed, cancelled and dead tasks."""
        return self.status in TERMINAL_STATUSES


@_slots_set_directly
@dataclass(frozen=True, slots=True)
class Effect:
    """An external side effect recorded in the idempotency ledger before it was sent."""

    task_id: str
    key: str
    epoch: int
    worker: str
    recorded_at: float


#: ``Lease(task_id, worker, epoch, step, lease_until, checkpoint, attempts)``, faster: every
#: claim makes one.
new_lease = by_position(Lease)
#: ``TaskRecord(...)`` with all thirteen fields by position, faster: every read makes one.
new_task_record = by_position(TaskRecord)


def listing_views(
    listing: list[TaskRecord],
) -> tuple[list[TaskRecord], dict[str, int], dict[str, list[TaskRecord]]]:
    """``(listing, counts, by_status)``: a ledger's listing (what ``tasks()`` answered) with
    what its views answer at the same instant, as one ledger that holds the listing's records
    answers them: ``counts()`` (the number of tasks per status present, sorted by status) and
    ``tasks(status)`` for every status of :data:`STATUSES` (its records in listing order; the
    listing's own record objects)."""
    by_status: dict[str, list[TaskRecord]] = {status: [] for status in STATUSES}
    for record in listing:
        by_status[record.status].append(record)
    counts = {status: len(by_status[status]) for status in sorted(STATUSES) if by_status[status]}
    return listing, counts, by_status
