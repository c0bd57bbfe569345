"""The nemesis: who decides which faults strike a run, drawn from the seed or read from a schedule.

The simulator asks its nemesis at the fixed points where a fault may strike (the strike points of
:data:`simlab.sim.faults.POINTS`: the workers around each step attempt and as a pause strikes
one, the broker at each enqueue, the client at each arrival, the editor between edits), and only
while faults are on (before the fault horizon). At each point the kinds of the registry
(:data:`~simlab.sim.faults.KINDS`) whose ``point`` it is may strike. Two nemeses answer the
same questions:

* :class:`RandomNemesis` draws each kind from its own stream of the seed (the kind's name with
  ``_`` for ``-``) at its rate, in exactly the order and number the simulator always drew them,
  so a run without a schedule is unchanged byte for byte. A stream whose rate is 0 is not drawn
  from at all: at a default of 0 a kind changes nothing;
* :class:`ScheduledNemesis` answers from a :class:`~simlab.sim.schedule.Schedule` and draws nothing.

Both record every fault that strikes, in order, as a schedule entry (:attr:`Nemesis.faults`) and
the history index at which it struck (:attr:`Nemesis.positions`): replaying the recorded faults
with the same seed gives the same history, because arrivals, service times and restart delays
come from their own streams, which the nemesis never touches. Every question about where a fault
strikes ends in :meth:`Nemesis.asked` (a hook: the explorer lists there what could have struck).
"""

from __future__ import annotations

import math
from typing import Any

from simlab.sim.faults import (
    CRASH,
    DOC_CHANGE,
    EDGE_CLAIM,
    KINDS,
    LATE_CALL,
    LOST_REPLY,
    SLOW,
    FaultKind,
    kinds_at,
    pause_at,
)
from simlab.sim.scenario import RATE_FIELDS
from simlab.sim.schedule import Schedule

__all__ = ["Nemesis", "RandomNemesis", "ScheduledNemesis", "exact_delay"]

#: The kinds another kind's delay counts from (:attr:`FaultKind.follows`).
_FOLLOWED = frozenset(k.follows for k in KINDS.values() if k.follows is not None)


def exact_delay(now: float, at: float) -> float:
    """The delay ``d >= 0`` for which ``now + d == at`` in floating point (SimPy schedules a
    timeout at ``now + delay``), so a replayed event lands on exactly the recorded time."""
    if at <= now:
        return 0.0
    d = at - now
    while now + d < at:
        d = math.nextafter(d, math.inf)
    while d > 0 and now + d > at:
        d = math.nextafter(d, 0.0)
    return d


class Nemesis:
    """What both nemeses share: the run they serve, the faults that struck so far, and the
    questions the simulator asks (each answered through :meth:`strike`).

    ``worker.attempt`` is set by :meth:`work` and read by the later questions of the same step:
    one worker runs one step at a time, so it names the attempt in progress.
    """

    #: True when no fault can strike at all, so nobody needs to ask (see :class:`RandomNemesis`)
    idle = False

    def __init__(self, run) -> None:
        self.run = run
        self.scenario = run.scenario
        #: the faults that struck, as schedule entries, in order
        self.faults: list[dict[str, Any]] = []
        #: for each entry of ``faults``, the history index at which it struck
        self.positions: list[int] = []
        self._attempts: dict[tuple[str, int], int] = {}
        self._claims: dict[str, int] = {}
        self._calls: dict[tuple[str, str], int] = {}
        self._held: dict[tuple[str, str], int] = {}
        self._silent: dict[str, int] = {}

    def _struck(self, fault: dict[str, Any]) -> None:
        self.faults.append(fault)
        self.positions.append(len(self.run.history))

    def _attempt(self, worker, task: str, step: int) -> int:
        key = (task, step)
        n = self._attempts.get(key, 0)
        self._attempts[key] = n + 1
        worker.attempt = n
        return n

    def _claim_number(self, task: str) -> int:
        """How many two-statement claims of ``task`` were made before this one."""
        n = self._claims.get(task, 0)
        self._claims[task] = n + 1
        return n

    def _where(self, point: str, worker, task: str, step: int | None) -> dict[str, Any]:
        """Where a fault asked about at ``point`` strikes (the fields that identify it)."""
        if point == "claim":
            return {"task": task, "claim": self._claim_number(task)}
        return {"task": task, "step": step, "attempt": worker.attempt}

    # -- the questions ---------------------------------------------------------------------------
    def strike(self, kind: FaultKind, where: dict[str, Any]) -> dict[str, Any] | None:
        """Does a fault of ``kind`` strike ``where``? The fault (recorded as struck), or None."""
        raise NotImplementedError

    def asked(self, point: str, where: dict[str, Any]) -> None:
        """Called once per question at ``point``, after the faults that struck there."""

    def work(self, worker, task: str, step: int, work: float):
        """A step attempt starts (faults on): return ``(slow factor or None, crash time into
        the work or None)``."""
        n = self._attempt(worker, task, step)
        where = {"task": task, "step": step, "attempt": n}
        factor = None
        slow = self.strike(SLOW, where)  # first: a crash then falls in the longer work
        if slow is not None:
            factor = slow["factor"]
            work *= factor
        crash = self.strike(CRASH, where)
        self.asked(SLOW.point, where)
        return factor, (None if crash is None else crash["fraction"] * work)

    def pauses(self, point: str, worker, task: str, step: int | None = None) -> float | None:
        """At ``point`` (a pause's strike point, e.g. ``"save"``: before the step's save): the
        length of a pause, or None."""
        where = self._where(point, worker, task, step)
        fault = self.strike(pause_at(point), where)
        self.asked(point, where)
        if fault is None:
            return None
        if point != "claim":  # a worker holding a lease goes silent
            self.silent(worker, task)
        return fault["length"]

    def silent(self, worker, task: str) -> None:
        """A pause just struck ``worker``, which holds a lease on ``task``: does a prober claim
        the task at the edges of that lease (``edge-claim``)? Pauses are numbered per task
        (``nth``) in the order they strike; the lease ends ``ttl`` after the worker's last
        claim or heartbeat, as the worker was told."""
        n = self._silent[task] = self._silent.get(task, -1) + 1
        where = {"task": task, "nth": n}
        if self.strike(EDGE_CLAIM, where) is not None:
            self.run.prober.claim_at_edges(task, worker.last_beat + self.scenario.ttl)
        self.asked(EDGE_CLAIM.point, where)

    def crashes(self, point: str, worker, task: str, step: int) -> bool:
        """At ``point`` (``"sent"``: the step's e-mail just left; ``"record"``: its key was just
        recorded): does the worker crash now?"""
        where = self._where(point, worker, task, step)
        struck = [self.strike(kind, where) for kind in kinds_at(point)]
        self.asked(point, where)
        return any(f is not None for f in struck)

    def lost(self, call: str, task: str) -> bool:
        """The ledger just acted on a ``call`` of ``task`` (``submit``, ``heartbeat``,
        ``effect``, ``save``): is its reply lost? Calls are numbered per task and kind of call
        in the order they are asked about (ask only with ``Scenario.retries``)."""
        return self._numbered(LOST_REPLY, self._calls, call, task) is not None

    def late(self, call: str, task: str) -> float | None:
        """A worker is about to send a ``call`` of ``task`` (``effect``, ``heartbeat``,
        ``save``): does the network hold it? The delay after the worker's release at which it
        reaches the ledger, or None. Calls are numbered per task and kind of call in the order
        they are asked about (ask only with ``Scenario.late``)."""
        fault = self._numbered(LATE_CALL, self._held, call, task)
        return None if fault is None else fault["delay"]

    def _numbered(self, kind, counts: dict, call: str, task: str):
        """Strike ``kind`` at the next call of kind ``call`` of ``task``, numbered (``nth``) per
        task and kind of call in ``counts``; the fault, or None."""
        n = counts[task, call] = counts.get((task, call), -1) + 1
        where = {"task": task, "call": call, "nth": n}
        fault = self.strike(kind, where)
        self.asked(kind.point, where)
        return fault

    def duplicate(self, task: str, enqueue: int) -> bool:
        """The broker enqueues ``task`` for the ``enqueue``-th time: add a second copy?"""
        where = {"task": task, "enqueue": enqueue}
        struck = [self.strike(kind, where) for kind in kinds_at("enqueue")]
        self.asked("enqueue", where)
        return any(f is not None for f in struck)

    def first(self, kind: FaultKind, task: str) -> float | None:
        """``task`` just arrived: the delay after which a user does ``kind`` (a kind struck at
        ``"arrival"``: its name is the ledger operation), or None."""
        raise NotImplementedError

    def fired(self, kind: FaultKind, task: str) -> float | None:
        """The user's ``kind`` of ``task`` strikes now; the delay to the next one, or None."""
        raise NotImplementedError

    @property
    def has_edits(self) -> bool:
        """Should the editor process run at all (agent workload)?"""
        raise NotImplementedError


class RandomNemesis(Nemesis):
    """Faults drawn from the seed's streams at the scenario's rates."""

    def __init__(self, run) -> None:
        super().__init__(run)
        # Every rate 0: no question would draw or strike anything, so none need be asked.
        self.idle = not any(getattr(run.scenario, name) for name in RATE_FIELDS)
        #: kind -> (its rate, its stream): a scenario is frozen, and every question reads both;
        #: a kind at rate 0 is never drawn from, so its stream is not made (None)
        self._draw = {
            k.name: (rate, run.rng[k.stream] if rate else None)
            for k in KINDS.values()
            for rate in (getattr(run.scenario, k.rate),)
        }
        #: (kind, task) -> the delay after its arrival at which the user's act of that kind
        #: strikes the task, kept only for a kind another one follows, until that one reads it
        self._after: dict[tuple[str, str], float] = {}

    def strike(self, kind: FaultKind, where: dict[str, Any]) -> dict[str, Any] | None:
        """Draw from the kind's stream (nothing is drawn while its rate is 0)."""
        rate, rng = self._draw[kind.name]
        if rate and rng.random() < rate:
            fault = {"kind": kind.name, **where, **kind.draw(rng, self.scenario)}
            self._struck(fault)
            return fault
        return None

    def first(self, kind: FaultKind, task: str) -> float | None:
        """Draw from the kind's stream; the delay counts from the arrival, or from the task's
        strike of the kind it ``follows`` when that struck."""
        rate, rng = self._draw[kind.name]
        if rate and rng.random() < rate:
            after = kind.draw(rng, self.scenario)["after"]
            if kind.follows is not None:
                after += self._after.pop((kind.follows, task), 0.0)
            if kind.name in _FOLLOWED:
                self._after[kind.name, task] = after
            return after
        return None

    def fired(self, kind: FaultKind, task: str) -> float | None:
        """The user acts now (before the horizon), once per kind and task."""
        self._struck({"kind": kind.name, "task": task, "at": self.run.env.now})
        return None

    @property
    def has_edits(self) -> bool:
        return bool(getattr(self.scenario, DOC_CHANGE.rate))

    def edit_delay(self, now: float) -> float | None:
        """Time until the editor's next edit (None: no more edits)."""
        rate, rng = self._draw[DOC_CHANGE.name]
        return rng.expovariate(rate)

    def edit_doc(self, docs: list) -> Any:
        """The document the editor changes now (one of ``docs``)."""
        doc = docs[self._draw[DOC_CHANGE.name][1].randrange(len(docs))]
        self._struck({"kind": DOC_CHANGE.name, "at": self.run.env.now, "doc": doc.doc_id})
        return doc


class ScheduledNemesis(Nemesis):
    """Exactly the faults of a schedule; nothing is drawn."""

    def __init__(self, run, schedule: Schedule) -> None:
        super().__init__(run)
        #: faults that strike at a place: (kind, where it strikes...) -> the entry
        self._placed: dict[tuple, dict[str, Any]] = {}
        #: faults that strike at a time: kind -> task (None: no task) -> its entries by time
        self._timed: dict[str, dict[str | None, list[dict[str, Any]]]] = {}
        self._pending: dict[tuple[str, str], list[dict[str, Any]]] = {}
        for f in schedule.faults:
            kind = KINDS[f["kind"]]
            if "at" in kind.fields:
                by_task = self._timed.setdefault(kind.name, {})
                by_task.setdefault(f.get("task"), []).append(f)
            else:
                self._placed[(kind.name, *(f[name] for name in kind.where))] = f
        for by_task in self._timed.values():
            for entries in by_task.values():
                entries.sort(key=lambda f: f["at"])
        self._edits = self._timed.get(DOC_CHANGE.name, {}).get(None, [])
        #: the kinds of the faults placed: a question about any other kind is answered at once
        #: (most questions of a run, and every one of a schedule without placed faults)
        self._placed_kinds = frozenset(key[0] for key in self._placed)

    def strike(self, kind: FaultKind, where: dict[str, Any]) -> dict[str, Any] | None:
        if kind.name not in self._placed_kinds:
            return None
        f = self._placed.get((kind.name, *where.values()))
        if f is not None:
            self._struck(f)
        return f

    def first(self, kind: FaultKind, task: str) -> float | None:
        """At arrival: the delay to the task's first entry of ``kind`` (the next one after it
        fires)."""
        entries = self._timed.get(kind.name, {}).get(task)
        if not entries:
            return None
        self._pending[(kind.name, task)] = list(entries)
        return exact_delay(self.run.env.now, entries[0]["at"])

    def fired(self, kind: FaultKind, task: str) -> float | None:
        """The entry strikes now; return the delay to the task's next one of ``kind``, if any."""
        pending = self._pending[(kind.name, task)]
        self._struck(pending.pop(0))
        return exact_delay(self.run.env.now, pending[0]["at"]) if pending else None

    @property
    def has_edits(self) -> bool:
        return bool(self._edits)

    def edit_delay(self, now: float) -> float | None:
        if not self._edits:
            return None
        return exact_delay(now, self._edits[0]["at"])

    def edit_doc(self, docs: list) -> Any:
        f = self._edits.pop(0)
        self._struck(f)
        return next(d for d in docs if d.doc_id == f["doc"])
