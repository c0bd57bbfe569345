"""The kit's own ledgers' optional fast paths, and when a run may take one.

A fast path is a method outside the ledger contract (:mod:`simlab.ledger.protocol`) that answers
what a sequence of the contract's calls would, in one call: ``all_effects`` for ``effects`` of
every task, ``heartbeat_until`` for a ``heartbeat`` followed by ``get``, ``task_ids(status)`` for
the task IDs of ``tasks(status)``, ``tasks_and_views`` for ``tasks()`` with ``counts()`` and
``tasks(status)`` of every status. A run takes one only
when the class that defines it also defines every contract method it stands for, and the
instance replaces none of them: a subclass (or a patched instance) that changes one of those
methods is judged through its own methods, as any other ledger is. A ledger that runs statements
(``q``, as the SQL ledgers do) takes one only with the kit's own statements: a fast path runs
statements of its own beside the ones its contract methods run, so a ledger whose statements
were edited (a subclass's or the instance's ``q``) is judged through its contract methods too.
Whichever path it takes, a run records the same history.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["definer", "fast_path", "heartbeat_reader"]


def definer(obj: object, name: str) -> type | None:
    """The class in ``obj``'s method resolution order that defines attribute ``name``."""
    for k in type(obj).__mro__:
        if name in k.__dict__:
            return k
    return None


def fast_path(ledger: Any, name: str, *stands_for: str) -> Callable | None:
    """``ledger``'s bound method ``name`` when it may stand for the contract methods
    ``stands_for``: one class of ``ledger``'s own defines them all and the instance replaces
    none, and its statements (``q``), if it has any, are the kit's own; else None. A method
    ``ledger`` only hands on from another object (a wrapper that forwards what it lacks) is
    not its own: that object's contract methods may be others."""
    method = getattr(ledger, name, None)
    if method is None or getattr(method, "__self__", None) is not ledger:
        return None
    owner = definer(ledger, name)
    mine = getattr(ledger, "__dict__", {})
    for other in (name, *stands_for):
        if other in mine or definer(ledger, other) is not owner:
            return None
    if hasattr(ledger, "q"):
        statements = definer(ledger, "q")
        if "q" in mine or statements is None or not statements.__module__.startswith(_KIT_LEDGERS):
            return None
    return method


#: Where the kit's own ledgers, and so their statements, are defined.
_KIT_LEDGERS = "simlab.ledger."


def heartbeat_reader(ledger: Any) -> Callable[[Any, float], dict | None]:
    """How a worker heartbeats over ``ledger``: a function ``(lease, ttl)`` that returns None
    when the heartbeat was refused, else what the accepted heartbeat's ``ok`` event records:
    ``{"lease_until": end}``, the end the task's row holds right after it, or ``{}`` when the
    row no longer carries the lease's epoch. Through ``heartbeat_until`` where the ledger
    offers it (:func:`fast_path`), else ``heartbeat`` and then ``get``."""
    until = fast_path(ledger, "heartbeat_until", "heartbeat", "get")
    if until is not None:

        def beat_and_read(lease: Any, ttl: float) -> dict | None:
            end = until(lease, ttl)
            return None if end is None else {"lease_until": end}

        return beat_and_read

    def beat_then_get(lease: Any, ttl: float) -> dict | None:
        if not ledger.heartbeat(lease, ttl):
            return None
        row = ledger.get(lease.task_id)
        return {"lease_until": row.lease_until} if row.epoch == lease.epoch else {}

    return beat_then_get
