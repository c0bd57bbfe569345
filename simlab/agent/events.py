"""Task events that survive at-least-once delivery: numbered, versioned, keyed, absorbed.

Every event carries the task ID, a sequence number (``seq``, per task, from 1 without gaps), the
event layout ``version`` and an idempotency key. A consumer feeds whatever the bus delivers into
an :class:`EventAbsorber`, which releases each event exactly once and in ``seq`` order:

* a **duplicate** (a ``seq`` already released or buffered with the same key, or a key already
  seen) is counted and dropped;
* an **out-of-order** event (``seq`` beyond the next expected one) waits in a buffer until the
  gap is filled;
* a **conflict** (the same ``seq`` with a different key: two writers disagree) and an event of an
  unknown ``version`` are set aside, never released: reading them would be guessing. A version is
  known only as an ``int`` among the absorber's ``versions``, compared as delivered: ``True``,
  ``1.0`` and ``"1"`` are not version 1 (:func:`is_known_version`).

The runner in :mod:`simlab.agent.resume` numbers events with the ledger's step after each accepted
save, which only the current epoch can advance, so two different events never share a ``seq``
unless something is wrong. It publishes after the save; a crash between the two loses that event
and leaves a gap (a transactional outbox, stored in the same commit, would close it).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any

__all__ = ["EVENT_VERSION", "AgentEvent", "EventAbsorber", "at_least_once", "is_known_version"]

#: The event layout this code writes and understands.
EVENT_VERSION = 1


def is_known_version(version: object, versions: tuple[int, ...] = (EVENT_VERSION,)) -> bool:
    """Is ``version``, as delivered, one of ``versions``: an ``int`` (a bool is none, nor is a
    float or a string that reads as one) equal to one of them?"""
    return type(version) is int and version in versions


@dataclass(frozen=True, slots=True)
class AgentEvent:
    """One task event; ``payload`` is JSON (the step, the evidence versions it used, tokens).

    ``version`` is the value delivered, whatever its type: only :func:`is_known_version` says
    whether it is a version this code understands."""

    task_id: str
    seq: int
    version: int
    idempotency_key: str
    kind: str
    payload: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The event as JSON data: its fields in order, the payload a fresh dict."""
        plain = {f.name: getattr(self, f.name) for f in fields(self)}
        return {**plain, "payload": dict(self.payload)}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> AgentEvent:
        """The event of a delivered dict. The version is kept as given (``"1"`` or ``True``
        stays what it is, so an absorber can set it aside); the other fields are read as
        their types."""
        return cls(
            str(d["task_id"]),
            int(d["seq"]),
            d["version"],
            str(d["idempotency_key"]),
            str(d["kind"]),
            dict(d.get("payload") or {}),
        )


class EventAbsorber:
    """Turns an at-least-once, unordered stream into each event once, in order, per task.

    An event whose version is not exactly one of ``versions`` (:func:`is_known_version`) goes
    to ``rejected`` and changes nothing else."""

    def __init__(self, *, first_seq: int = 1, versions: tuple[int, ...] = (EVENT_VERSION,)):
        self.first_seq = first_seq
        self.versions = versions
        #: released events, in release order
        self.delivered: list[AgentEvent] = []
        self.duplicates = 0
        self.conflicts: list[AgentEvent] = []
        self.rejected: list[AgentEvent] = []
        self._next: dict[str, int] = {}
        self._buffer: dict[str, dict[int, AgentEvent]] = {}
        self._keys: dict[str, dict[int, str]] = {}  # released: task -> seq -> key
        self._seen: set[tuple[str, str]] = set()  # (task, key) released or buffered

    def offer(self, event: AgentEvent) -> list[AgentEvent]:
        """Take one delivered event; return the events it releases (possibly none), in order."""
        if not is_known_version(event.version, self.versions):
            self.rejected.append(event)
            return []
        task = event.task_id
        nxt = self._next.setdefault(task, self.first_seq)
        buffer = self._buffer.setdefault(task, {})
        known_key = self._keys.get(task, {}).get(event.seq)
        if known_key is None and event.seq in buffer:
            known_key = buffer[event.seq].idempotency_key
        if known_key is not None:
            if known_key == event.idempotency_key:
                self.duplicates += 1
            else:
                self.conflicts.append(event)
            return []
        if (task, event.idempotency_key) in self._seen or event.seq < nxt:
            # Same key under another seq, or a seq below the released ones we no longer hold.
            self.duplicates += 1
            return []
        self._seen.add((task, event.idempotency_key))
        buffer[event.seq] = event
        released = []
        while nxt in buffer:
            e = buffer.pop(nxt)
            self._keys.setdefault(task, {})[nxt] = e.idempotency_key
            released.append(e)
            nxt += 1
        self._next[task] = nxt
        self.delivered.extend(released)
        return released

    def waiting(self, task_id: str) -> list[int]:
        """Sequence numbers held back for ``task_id`` because an earlier one has not arrived."""
        return sorted(self._buffer.get(task_id, {}))

    def next_seq(self, task_id: str) -> int:
        """The sequence number the absorber waits for next."""
        return self._next.get(task_id, self.first_seq)


def at_least_once(
    events: Iterable[AgentEvent],
    *,
    seed: int,
    duplicate_rate: float = 0.3,
    max_delay: int = 4,
) -> list[AgentEvent]:
    """What an at-least-once bus delivers for ``events`` published in this order: every event
    at least once, some twice (``duplicate_rate``), each copy late by 0 to ``max_delay``
    positions, so later events can overtake earlier ones.

    Seeded and pure: the same events and seed give the same deliveries; nothing is lost, so an
    absorber fed the result must release exactly ``events`` (per task, in ``seq`` order).
    """
    if not 0.0 <= duplicate_rate <= 1.0:
        raise ValueError(f"duplicate_rate must be between 0 and 1, got {duplicate_rate}")
    if max_delay < 0:
        raise ValueError(f"max_delay must be at least 0, got {max_delay}")
    rng = random.Random(f"at-least-once:{seed}")
    copies = []
    for position, event in enumerate(events):
        times = 2 if rng.random() < duplicate_rate else 1
        for copy in range(times):
            due = position + rng.randint(0, max_delay) + copy  # a duplicate never comes first
            copies.append((due, len(copies), event))
    return [event for _, _, event in sorted(copies, key=lambda c: (c[0], c[1]))]
