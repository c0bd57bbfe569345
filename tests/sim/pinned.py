"""Digests of histories pinned before some events carried what the simulator reads back.

Since those digests were recorded, an accepted heartbeat's event holds the lease end it gave
(``value={"lease_until": t}``), a granted claim's the attempt its lease tells (``attempts``), a
claim refused as lease-held the holder its refusal names (``holder``), a refused fenced call's
and an accepted release's the record read right after it (``read``), the last task's submit
and the ``faults-off`` event the ledger's views at that instant (``counts``, ``listed``,
``leases``), and a submit the goal it carried (``goal``); every other byte of a history is as
before.
:func:`pinned_digest` leaves those fields out, so a digest recorded earlier still pins the rest
of the run byte for byte.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from simlab.checker.history import READ, Event, history_digest

#: (op, type) -> the value fields added since the pinned digests were recorded (``READ`` is
#: left out of every event).
ADDED: dict[tuple[str, str], frozenset[str]] = {
    ("heartbeat", "ok"): frozenset({"lease_until"}),
    ("claim", "fail"): frozenset({"holder"}),
    ("claim", "ok"): frozenset({"attempts"}),
    ("faults-off", "info"): frozenset({"counts", "listed", "leases"}),
    ("submit", "ok"): frozenset({"counts", "listed", "leases", "goal"}),
}


def pinned_digest(events: Iterable[Event]) -> str:
    """:func:`history_digest` of ``events`` without the fields in :data:`ADDED` and ``READ``."""
    return history_digest(_as_pinned(e) for e in events)


def _as_pinned(e: Event) -> Event:
    added = ADDED.get((e.op, e.type), frozenset())
    if READ not in e.value and not added & e.value.keys():
        return e
    return replace(e, value={k: v for k, v in e.value.items() if k != READ and k not in added})
