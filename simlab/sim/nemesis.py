"""The nemesis: who decides which faults strike a run, drawn from the seed or read from a schedule.

The simulator asks its nemesis at the fixed points where a fault may strike (the workers at each
step attempt, the broker at each enqueue, the client at each arrival, the editor between edits),
and only while faults are on (before the fault horizon). Two nemeses answer the same questions:

* :class:`RandomNemesis` draws from the seed's fault streams (``crash``, ``effect_crash``,
  ``pause``, ``slow``, ``duplicate``, ``cancel``, ``doc_change``), in exactly the order and
  number the simulator always drew them, so a run without a schedule is unchanged byte for byte
  (a stream whose rate is 0 is not drawn from at all: no fault of it can strike either way);
  ``record_crash``, ``work_pause``, ``effect_pause``, ``send_pause``, ``claim_pause`` and
  ``requeue`` are drawn only when their rate is above 0, so at their default of 0 they change
  nothing either;
* :class:`ScheduledNemesis` answers from a :class:`~simlab.sim.schedule.Schedule` and draws nothing.

Both record every fault that strikes, in order, as a schedule entry (:attr:`Nemesis.faults`) and
the history index at which it struck (:attr:`Nemesis.positions`): replaying the recorded faults
with the same seed gives the same history, because arrivals, service times and restart delays
come from their own streams, which the nemesis never touches.
"""

from __future__ import annotations

import math
from typing import Any

from simlab.sim.scenario import RATE_FIELDS
from simlab.sim.schedule import STEP_FAULTS, Schedule

__all__ = ["Nemesis", "RandomNemesis", "ScheduledNemesis", "exact_delay"]


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
    """What both nemeses share: the run they serve and the faults that struck so far.

    ``worker.attempt`` is set by :meth:`work` and read by :meth:`effect_crash` and :meth:`pause`
    of the same step: one worker runs one step at a time, so it names the attempt in progress.
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
        rng = run.rng
        self._crash, self._effect_crash = rng["crash"], rng["effect_crash"]
        self._pause, self._slow = rng["pause"], rng["slow"]
        self._duplicate, self._cancel = rng["duplicate"], rng["cancel"]
        self._doc_change = rng["doc_change"]
        self._record_crash = rng["record_crash"]
        self._rare = {
            "work-pause": rng["work_pause"],
            "effect-pause": rng["effect_pause"],
            "send-pause": rng["send_pause"],
            "claim-pause": rng["claim_pause"],
        }
        self._requeue = rng["requeue"]

    def _length(self, rng) -> float:
        """A pause's length: ``ttl x U(0.5, 2 pause_time - 0.5)``, or exponential with mean
        ``pause_mean`` when that is set."""
        sc = self.scenario
        if sc.pause_mean is None:
            return sc.ttl * rng.uniform(0.5, 2.0 * sc.pause_time - 0.5)
        return rng.expovariate(1.0 / sc.pause_mean)  # absolute pauses (see Scenario.pause_mean)

    def work(self, worker, task: str, step: int, work: float):
        """A step attempt starts (faults on): return ``(slow factor or None, crash time into
        the work or None)``."""
        sc = self.scenario
        n = self._attempt(worker, task, step)
        factor = None
        if sc.slow_rate and self._slow.random() < sc.slow_rate:
            factor = sc.slow_factor
            work *= factor
            self._struck(
                {"kind": "slow", "task": task, "step": step, "attempt": n, "factor": factor}
            )
        crash_at = None
        if sc.crash_rate and self._crash.random() < sc.crash_rate:
            fraction = self._crash.random()
            crash_at = fraction * work
            self._struck(
                {"kind": "crash", "task": task, "step": step, "attempt": n, "fraction": fraction}
            )
        return factor, crash_at

    def effect_crash(self, worker, task: str, step: int) -> bool:
        """The step's e-mail just left: does the worker crash before its save?"""
        rate = self.scenario.effect_crash_rate
        if rate and self._effect_crash.random() < rate:
            n = worker.attempt
            self._struck({"kind": "effect-crash", "task": task, "step": step, "attempt": n})
            return True
        return False

    def record_crash(self, worker, task: str, step: int) -> bool:
        """The step's e-mail key was just recorded: does the worker crash before sending it?
        Nothing is drawn while ``record_crash_rate`` is 0."""
        rate = self.scenario.record_crash_rate
        if rate and self._record_crash.random() < rate:
            n = worker.attempt
            self._struck({"kind": "record-crash", "task": task, "step": step, "attempt": n})
            return True
        return False

    def pause(self, worker, task: str, step: int) -> float | None:
        """Before the step's save: the length of a stop-the-world pause, or None."""
        rate = self.scenario.pause_rate
        if not rate or self._pause.random() >= rate:
            return None
        return self._paused("pause", self._pause, worker, task, step)

    def work_pause(self, worker, task: str, step: int) -> float | None:
        """As the step's work begins: the length of a pause, or None (nothing is drawn while
        ``work_pause_rate`` is 0)."""
        return self._rare_pause("work-pause", self.scenario.work_pause_rate, worker, task, step)

    def effect_pause(self, worker, task: str, step: int) -> float | None:
        """Right before the step's e-mail: the length of a pause, or None (nothing is drawn
        while ``effect_pause_rate`` is 0)."""
        return self._rare_pause("effect-pause", self.scenario.effect_pause_rate, worker, task, step)

    def send_pause(self, worker, task: str, step: int) -> float | None:
        """Between recording the step's e-mail key and sending it: the length of a pause, or
        None (nothing is drawn while ``send_pause_rate`` is 0)."""
        return self._rare_pause("send-pause", self.scenario.send_pause_rate, worker, task, step)

    def claim_pause(self, worker, task: str) -> float | None:
        """Between the two statements of a claim of ``task``: the length of a pause, or None
        (nothing is drawn while ``claim_pause_rate`` is 0)."""
        rate, rng = self.scenario.claim_pause_rate, self._rare["claim-pause"]
        n = self._claim_number(task)
        if rate and rng.random() < rate:
            length = self._length(rng)
            self._struck({"kind": "claim-pause", "task": task, "claim": n, "length": length})
            return length
        return None

    def _rare_pause(self, kind: str, rate: float, worker, task: str, step: int) -> float | None:
        """A pause of ``kind`` drawn from its own stream, which is not touched at rate 0."""
        rng = self._rare[kind]
        if rate and rng.random() < rate:
            return self._paused(kind, rng, worker, task, step)
        return None

    def _paused(self, kind: str, rng, worker, task: str, step: int) -> float:
        length = self._length(rng)
        n = worker.attempt
        self._struck({"kind": kind, "task": task, "step": step, "attempt": n, "length": length})
        return length

    def duplicate(self, task: str, enqueue: int) -> bool:
        """The broker enqueues ``task`` for the ``enqueue``-th time: add a second copy?"""
        rate = self.scenario.duplicate_rate
        if rate and self._duplicate.random() < rate:
            self._struck({"kind": "duplicate", "task": task, "enqueue": enqueue})
            return True
        return False

    def cancel(self, task: str) -> float | None:
        """``task`` just arrived: the delay after which a user cancels it, or None."""
        sc = self.scenario
        if sc.cancel_rate and self._cancel.random() < sc.cancel_rate:
            return self._cancel.expovariate(1.0 / sc.cancel_after)
        return None

    def cancelled(self, task: str) -> float | None:
        """The cancel of ``task`` strikes now (before the horizon); a user cancels only once."""
        self._struck({"kind": "cancel", "task": task, "at": self.run.env.now})
        return None

    def requeue(self, task: str) -> float | None:
        """``task`` just arrived: the delay after which a user requeues it (mean twice the
        cancel's), or None (nothing is drawn while ``requeue_rate`` is 0)."""
        sc = self.scenario
        if sc.requeue_rate and self._requeue.random() < sc.requeue_rate:
            return self._requeue.expovariate(0.5 / sc.cancel_after)
        return None

    def requeued(self, task: str) -> float | None:
        """The requeue of ``task`` strikes now (before the horizon); a user requeues once."""
        self._struck({"kind": "requeue", "task": task, "at": self.run.env.now})
        return None

    @property
    def has_edits(self) -> bool:
        return bool(self.scenario.doc_change_rate)

    def edit_delay(self, now: float) -> float | None:
        """Time until the editor's next edit (None: no more edits)."""
        return self._doc_change.expovariate(self.scenario.doc_change_rate)

    def edit_doc(self, docs: list) -> Any:
        """The document the editor changes now (one of ``docs``)."""
        doc = docs[self._doc_change.randrange(len(docs))]
        self._struck({"kind": "doc-change", "at": self.run.env.now, "doc": doc.doc_id})
        return doc


class ScheduledNemesis(Nemesis):
    """Exactly the faults of a schedule; nothing is drawn."""

    def __init__(self, run, schedule: Schedule) -> None:
        super().__init__(run)
        self._step: dict[tuple, dict[str, Any]] = {}
        self._dups: dict[tuple[str, int], dict[str, Any]] = {}
        #: the user's actions: kind ("cancel", "requeue") -> task -> its entries by time
        self._user: dict[str, dict[str, list[dict[str, Any]]]] = {"cancel": {}, "requeue": {}}
        self._claim_pauses: dict[tuple[str, int], dict[str, Any]] = {}
        self._pending: dict[tuple[str, str], list[dict[str, Any]]] = {}
        edits = []
        for f in schedule.faults:
            kind = f["kind"]
            if kind in STEP_FAULTS:
                self._step[(kind, f["task"], f["step"], f["attempt"])] = f
            elif kind == "duplicate":
                self._dups[(f["task"], f["enqueue"])] = f
            elif kind in self._user:
                self._user[kind].setdefault(f["task"], []).append(f)
            elif kind == "claim-pause":
                self._claim_pauses[(f["task"], f["claim"])] = f
            else:
                edits.append(f)
        for by_task in self._user.values():
            for entries in by_task.values():
                entries.sort(key=lambda f: f["at"])
        self._edits = sorted(edits, key=lambda f: f["at"])

    def _get(self, kind: str, task: str, step: int, attempt: int) -> dict[str, Any] | None:
        f = self._step.get((kind, task, step, attempt))
        if f is not None:
            self._struck(f)
        return f

    def work(self, worker, task: str, step: int, work: float):
        n = self._attempt(worker, task, step)
        factor = None
        slow = self._get("slow", task, step, n)
        if slow is not None:
            factor = slow["factor"]
            work *= factor
        crash = self._get("crash", task, step, n)
        return factor, (None if crash is None else crash["fraction"] * work)

    def effect_crash(self, worker, task: str, step: int) -> bool:
        return self._get("effect-crash", task, step, worker.attempt) is not None

    def record_crash(self, worker, task: str, step: int) -> bool:
        return self._get("record-crash", task, step, worker.attempt) is not None

    def pause(self, worker, task: str, step: int) -> float | None:
        return self._length_of("pause", worker, task, step)

    def work_pause(self, worker, task: str, step: int) -> float | None:
        return self._length_of("work-pause", worker, task, step)

    def effect_pause(self, worker, task: str, step: int) -> float | None:
        return self._length_of("effect-pause", worker, task, step)

    def send_pause(self, worker, task: str, step: int) -> float | None:
        return self._length_of("send-pause", worker, task, step)

    def claim_pause(self, worker, task: str) -> float | None:
        f = self._claim_pauses.get((task, self._claim_number(task)))
        if f is not None:
            self._struck(f)
        return None if f is None else f["length"]

    def _length_of(self, kind: str, worker, task: str, step: int) -> float | None:
        """The length of the scheduled pause of ``kind`` for this attempt, or None."""
        f = self._get(kind, task, step, worker.attempt)
        return None if f is None else f["length"]

    def duplicate(self, task: str, enqueue: int) -> bool:
        f = self._dups.get((task, enqueue))
        if f is not None:
            self._struck(f)
        return f is not None

    def cancel(self, task: str) -> float | None:
        """At arrival: the delay to the task's first cancel (the next one after it fires)."""
        return self._first("cancel", task)

    def cancelled(self, task: str) -> float | None:
        """The cancel strikes now; return the delay to the task's next cancel, if any."""
        return self._fired("cancel", task)

    def requeue(self, task: str) -> float | None:
        """At arrival: the delay to the task's first requeue."""
        return self._first("requeue", task)

    def requeued(self, task: str) -> float | None:
        """The requeue strikes now; return the delay to the task's next requeue, if any."""
        return self._fired("requeue", task)

    def _first(self, kind: str, task: str) -> float | None:
        entries = self._user[kind].get(task)
        if not entries:
            return None
        self._pending[(kind, task)] = list(entries)
        return exact_delay(self.run.env.now, entries[0]["at"])

    def _fired(self, kind: str, task: str) -> float | None:
        pending = self._pending[(kind, task)]
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
