"""Digests of histories pinned before heartbeats carried the lease end they gave.

An accepted heartbeat's event now holds ``value={"lease_until": t}``; every other byte of a
history is as before. :func:`pinned_digest` leaves that one field out, so a digest recorded
earlier still pins the rest of the run byte for byte.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from simlab.checker.history import Event, history_digest


def pinned_digest(events: Iterable[Event]) -> str:
    """:func:`history_digest` of ``events`` without the lease end of accepted heartbeats."""
    return history_digest(
        replace(e, value={k: v for k, v in e.value.items() if k != "lease_until"})
        if e.op == "heartbeat" and e.type == "ok"
        else e
        for e in events
    )
