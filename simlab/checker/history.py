"""The recorded history of a run: one plain event per line, Jepsen style.

A history is the evidence the checker and the pictures read. It is a list of :class:`Event`
records in the order they happened; ``index`` is the position in that list.

Event types follow Jepsen: an operation is *invoked*, then completes as ``ok`` (it happened),
``fail`` (it certainly did not happen) or ``info`` (outcome unknown: a crash right after a side
effect, a pause whose end the worker did not see). Faults and facts with no invocation (a crash,
a pause, a delivery, a real e-mail arriving in the mailbox) are recorded as a single event.

Operations (``op``) and what their fields mean:

=========== ============== ===================================================================
op          types          meaning
=========== ============== ===================================================================
submit      ok/fail        client persisted ``task``; ``value={"steps": K}``; a resent submit
                           (``resent``) refused as ``reason="exists"`` carries the ``epoch``,
                           ``step`` and ``status`` the entry point read back
deliver     ok             broker delivered ``task`` to ``process``;
                           ``value={"duplicate": bool, "redelivery": bool}``
claim       invoke/ok/fail worker asks for a lease; ok carries the granted ``epoch`` and the
                           ``step`` to resume from, ``value={"lease_until": t}``; fail carries
                           ``value={"reason": "lease-held"|"terminal"|"unknown"|...}``,
                           a lease-held one the ``holder`` its refusal names, a terminal
                           one the ``status`` it says
heartbeat   invoke/ok/fail worker extends its lease of ``epoch``; ok carries the end the ledger
                           gave, ``value={"lease_until": t}`` (as its ``get()`` reads it
                           right after; left out when the row shows another epoch)
save        invoke/ok/fail fenced commit of ``step`` with ``epoch``; ``value={"done": bool}``;
                           fail means the ledger refused it (stale epoch or not running)
effect      invoke/ok/fail ask the idempotency ledger for ``value={"key": k}``; ok = may send
send        ok             the external mailbox really received an e-mail;
                           ``value={"key": k or None}``
crash       info           ``process`` died in ``task`` at ``step`` holding ``epoch``;
                           ``value={"after_effect": bool}``
restart     ok             ``process`` is back after a crash
pause       info           ``process`` stops the world until ``value={"until": t}``; ``where``
                           says where it struck (``work``, ``effect``, ``send``, ``claim``;
                           none: before a save)
slow        info           the step of ``process`` runs slow, ``value={"factor": f}``
cancel      invoke/ok/fail a user cancels ``task``; ok carries the bumped ``epoch``
requeue     invoke/ok/fail a user puts a cancelled ``task`` back in the queue; ok carries its
                           ``epoch`` (kept); fail carries ``value={"reason": status}``
release     invoke/ok/fail a worker gives back its task (running -> queued) with ``epoch``
faults-off  info           fault injection stops at this time (liveness is judged after it)
publish     info           agent workload: the editor (``nemesis``) published a new document
                           version, ``value={"doc": id, "version": n}``
plan        fail           agent workload: the stored checkpoint cannot be read; nothing written
read        info           a read (``get``, ``tasks``, ``counts``, ``effects``) raised; only a
                           raise is recorded (see below)
=========== ============== ===================================================================

A refused ``save``, ``heartbeat``, ``effect`` or ``release`` of a worker, and an accepted
``release``, carry what the worker's ``get()`` read back right after, at the same simulated
instant: ``value={"read": {"status", "step", "epoch", "lease_until", "checkpoint"}}``
(:func:`read_back`). The checker holds it to the model: a refused call changes nothing, a
released task is queued with no lease.

A call whose reply was lost (fault ``lost-reply``) records the ledger's answer with
``lost=True``, then the caller's resend of the same call with ``resent=True`` (a refused resend
says whether the ledger showed the first call landed: ``mine``). A call the network held
(fault ``late-call``: an ``effect`` or a ``save``) is invoked, with ``held=True``, when its
worker sends it; the
worker, hearing nothing in time, gives the task back (a ``release`` with ``timeout=True``), and
the ledger's answer is recorded when the call reaches it, with ``late=True`` and the epoch of
the lease it was sent with.

A ledger call that raised what the contract does not let it raise is recorded as that call's
answer: an ``info`` event of its operation whose value holds ``raised`` (the exception's type
name), ``message`` and ``call`` (the ledger method), beside the invoke's own values (see
:mod:`simlab.sim.answers`); the checker's rule (x) judges it.

With ``workload="agent"`` (:mod:`simlab.sim.agent_worker`) a ``save`` also names the graph step
(``agent_step``) and the evidence versions it used (``evidence=["kb/returns@v3", ...]``); a save
that stops the task for review carries ``review`` (stop codes) and ``detail`` instead, and is
followed by a ``cancel`` from the same worker. ``submit`` also carries the ``tenant``.

Events are immutable and JSON-serialisable; :func:`dumps_jsonl` writes them in a canonical form
(sorted keys, shortest float repr) so the same run gives the same bytes.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any

__all__ = [
    "Event",
    "History",
    "HistoryView",
    "EVENT_TYPES",
    "OPS",
    "dumps_jsonl",
    "loads_jsonl",
    "history_digest",
    "READ",
    "read_back",
]

EVENT_TYPES = ("invoke", "ok", "fail", "info")
#: ``Event(...)`` without a value: a fresh empty dict.
_NO_VALUE: Any = object()
OPS = (
    "submit",
    "deliver",
    "claim",
    "heartbeat",
    "save",
    "effect",
    "send",
    "crash",
    "restart",
    "pause",
    "slow",
    "cancel",
    "requeue",
    "release",
    "faults-off",
    "publish",
    "plan",
    "read",
)
#: The value key of what a worker read back (``get()``) right after a refused fenced call or an
#: accepted release (see the module doc).
READ = "read"


def read_back(record: Any) -> dict[str, Any]:
    """The value fields that record ``record`` (a :class:`~simlab.records.TaskRecord` read
    right after a call) on that call's event: ``{"read": {...}}`` with the fields a call may
    change and the model predicts (status, step, epoch, lease end, checkpoint)."""
    return {
        READ: {
            "status": record.status,
            "step": record.step,
            "epoch": record.epoch,
            "lease_until": record.lease_until,
            "checkpoint": record.checkpoint,
        }
    }


@dataclass(frozen=True, slots=True, init=False)
class Event:
    """One line of history. ``process`` is a worker name, ``"client"``, ``"broker"``, ``"user"`` or
    ``"nemesis"``; ``task``, ``epoch`` and ``step`` are None where they do not apply."""

    index: int
    time: float
    type: str
    process: str
    op: str
    task: str | None = None
    epoch: int | None = None
    step: int | None = None
    value: Mapping[str, Any] = field(default_factory=dict)

    def __init__(
        self,
        index: int,
        time: float,
        type: str,
        process: str,
        op: str,
        task: str | None = None,
        epoch: int | None = None,
        step: int | None = None,
        value: Mapping[str, Any] = _NO_VALUE,
    ) -> None:
        # The frozen dataclass's own __init__ sets each field through object.__setattr__; the
        # slots' descriptors set them directly, and a run records hundreds of thousands.
        _set_index(self, index)
        _set_time(self, time)
        _set_type(self, type)
        _set_process(self, process)
        _set_op(self, op)
        _set_task(self, task)
        _set_epoch(self, epoch)
        _set_step(self, step)
        _set_value(self, {} if value is _NO_VALUE else value)

    def to_dict(self) -> dict[str, Any]:
        """The fields by name, in field order; ``value`` a dict of its own (the others are
        numbers, strings or None, shared as they are)."""
        d = dict(zip(Event.__slots__, _fields_of(self), strict=True))
        d["value"] = dict(self.value)
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Event:
        return cls(
            index=int(d["index"]),
            time=float(d["time"]),
            type=str(d["type"]),
            process=str(d["process"]),
            op=str(d["op"]),
            task=d.get("task"),
            epoch=d.get("epoch"),
            step=d.get("step"),
            value=dict(d.get("value") or {}),
        )


(_set_index, _set_time, _set_type, _set_process, _set_op, _set_task, _set_epoch, _set_step,
 _set_value) = (getattr(Event, f).__set__ for f in Event.__slots__)  # fmt: skip
_fields_of = attrgetter(*Event.__slots__)
#: What :meth:`History.record`, the simulator's hottest call, fills and then makes an Event,
#: as :func:`~simlab.records.by_position` does, in its own body (one call per event, not two).
_UnfrozenEvent = type("_UnfrozenEvent", (), {"__slots__": Event.__slots__})
_new = object.__new__


class History:
    """An append-only list of events; the simulator's recorder.

    ``record`` numbers events in order, so ``history[i].index == i`` always holds.
    """

    __slots__ = ("_events",)

    def __init__(self, events: Iterable[Event] = ()):
        self._events: list[Event] = []
        for e in events:
            n = len(self._events)
            self._events.append(e if e.index == n else _renumber(e, n))

    def record(
        self,
        time: float,
        type: str,
        process: str,
        op: str,
        task: str | None = None,
        epoch: int | None = None,
        step: int | None = None,
        **value: Any,
    ) -> Event:
        """Append one event and return it."""
        events = self._events
        e = _new(_UnfrozenEvent)
        e.index = len(events)
        e.time = float(time)
        e.type = type
        e.process = process
        e.op = op
        e.task = task
        e.epoch = epoch
        e.step = step
        e.value = value
        e.__class__ = Event
        events.append(e)
        return e

    def __len__(self) -> int:
        return len(self._events)

    def __iter__(self) -> Iterator[Event]:
        return iter(self._events)

    def __getitem__(self, i):
        return self._events[i]

    @property
    def events(self) -> list[Event]:
        return list(self._events)

    def to_jsonl(self) -> str:
        return dumps_jsonl(self._events)


class HistoryView:
    """A history read once and grouped by task: what the checker's rules and the pictures read.

    Building a view is one pass over the events. Iterating a view yields the events in history
    order, so a function written for a plain list of events (like
    :func:`simlab.checker.checker.stale_commits`) also accepts a view. Dicts (from JSON) become
    events.
    """

    def __init__(self, history: Iterable[Event] | HistoryView):
        if isinstance(history, HistoryView):
            history = history.events
        if isinstance(history, History):
            self.events: list[Event] = history.events  # a recorder holds only Events
        else:
            self.events = [e if isinstance(e, Event) else Event.from_dict(e) for e in history]
        by_task: dict[str, list[Event]] = defaultdict(list)
        by_kind: dict[str, dict[str, list[Event]]] = {}  # op -> type -> events
        submits: dict[str, Event] = {}
        faults_off = None
        for e in self.events:
            op, task = e.op, e.task
            kinds = by_kind.get(op)
            if kinds is None:
                kinds = by_kind[op] = defaultdict(list)
            kinds[e.type].append(e)
            if task is not None:
                by_task[task].append(e)
                if op == "submit" and e.type == "ok" and task not in submits:
                    submits[task] = e
            elif op == "faults-off" and faults_off is None:
                faults_off = e
        #: task -> its events, in history order
        self.by_task: dict[str, list[Event]] = dict(by_task)
        #: task -> its (first) submit event
        self.submits = submits
        #: the first ``faults-off`` event, or None
        self.faults_off: Event | None = faults_off
        #: op -> type -> its events, in history order (see :meth:`of`)
        self._by_kind = by_kind
        #: what readers of this view computed once and share (see :meth:`memo`)
        self._memo: dict[str, Any] = {}

    def of(self, op: str, type: str = "ok") -> list[Event]:
        """The events of one operation and type, in history order (do not modify the list)."""
        kinds = self._by_kind.get(op)
        return (kinds.get(type) if kinds is not None else None) or []

    def memo(self, name: str, make: Callable[[HistoryView], Any]) -> Any:
        """``make(self)``, computed once per view: the view is read-only, so readers that need
        the same derived value (the sends grouped by key, say) share it."""
        if name not in self._memo:
            self._memo[name] = make(self)
        return self._memo[name]

    def __iter__(self) -> Iterator[Event]:
        return iter(self.events)

    def __len__(self) -> int:
        return len(self.events)

    def tasks(self) -> list[str]:
        """Task IDs in order of first appearance."""
        return list(self.by_task)

    def steps_of(self, task: str) -> int | None:
        """K, the number of steps of ``task`` as its submit event says, or None."""
        e = self.submits.get(task)
        k = e.value.get("steps") if e is not None else None
        return int(k) if k is not None else None


def _renumber(e: Event, index: int) -> Event:
    return Event(index, e.time, e.type, e.process, e.op, e.task, e.epoch, e.step, e.value)


def dumps_jsonl(events: Iterable[Event]) -> str:
    """Canonical JSON lines: one event per line, keys sorted, no spaces."""
    return "".join(
        json.dumps(e.to_dict(), sort_keys=True, separators=(",", ":")) + "\n" for e in events
    )


def loads_jsonl(text: str) -> list[Event]:
    """Parse what :func:`dumps_jsonl` wrote."""
    return [Event.from_dict(json.loads(line)) for line in text.splitlines() if line.strip()]


def history_digest(events: Iterable[Event]) -> str:
    """SHA-256 of the canonical JSON lines: equal digests mean byte-identical histories."""
    return hashlib.sha256(dumps_jsonl(events).encode()).hexdigest()
