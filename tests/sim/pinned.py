"""Digests of histories pinned before heartbeats carried the lease end they gave and granted
claims the attempt their lease tells.

An accepted heartbeat's event now holds ``value={"lease_until": t}`` and a granted claim's
``attempts``; every other byte of a history is as before. :func:`pinned_digest` leaves those
fields out, so a digest recorded earlier still pins the rest of the run byte for byte.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from simlab.checker.history import Event, history_digest


def pinned_digest(events: Iterable[Event]) -> str:
    """:func:`history_digest` of ``events`` without the lease end of accepted heartbeats and
    the attempts of granted claims."""
    return history_digest(
        replace(e, value={k: v for k, v in e.value.items() if k != "lease_until"})
        if e.op == "heartbeat" and e.type == "ok"
        else replace(e, value={k: v for k, v in e.value.items() if k != "attempts"})
        if e.op == "claim" and e.type == "ok"
        else e
        for e in events
    )
