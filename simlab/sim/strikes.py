"""Where each fault kind can strike in a run: the explorer's list of strike points.

:class:`StrikePoints` is a scheduled nemesis (:mod:`simlab.sim.nemesis`) that plays a
schedule's faults and, at every question the simulator asks, lists each fault of the registry
(:mod:`simlab.sim.faults`) that could strike there, with each value it tries; a user's cancel
and requeue, which strike between events rather than at a question, are added from the run's
history once it ended (:meth:`StrikePoints.user_points`). :mod:`simlab.sim.explore` extends a
schedule by each point listed after its last fault.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from simlab.sim.faults import CANCEL, REQUEUE, kinds_at
from simlab.sim.nemesis import ScheduledNemesis
from simlab.sim.schedule import Schedule

__all__ = ["StrikePoints", "Key"]

#: A strike point's place in a run: (time, the number of the simulator's question); a cancel or
#: requeue between two events has number -1 (no question is asked at that instant).
Key = tuple[float, int]


class StrikePoints(ScheduledNemesis):
    """A scheduled nemesis that also lists where each fault kind could strike.

    Every question the simulator asks (a step's work begins, a pause may strike before the save,
    an e-mail is about to be recorded...) is numbered in the order it is asked; each fault the
    question could answer with is kept in :attr:`candidates` with its :data:`Key`, when that key
    comes after ``after``. :attr:`signature` is the state just after the schedule's last fault
    struck (see the module docstring), when ``snapshot`` is set. With ``listing`` False
    nothing is listed (the run will not be extended) and :meth:`user_points` adds nothing.
    """

    def __init__(
        self,
        run,
        schedule: Schedule,
        after: Key,
        lengths: Iterable[float],
        listing: bool = True,
    ) -> None:
        super().__init__(run, schedule)
        self.after = after
        #: list the strike points (False: the run is not extended, only judged)
        self.listing = listing
        self.lengths = tuple(lengths)
        self.expected = len(schedule.faults)
        self.candidates: list[tuple[Key, dict[str, Any]]] = []
        self.signature: tuple | None = None
        self.snapshot: Callable[[], tuple] | None = None
        self._seq = 0
        if self.expected == 0:
            self.signature = ()

    # -- what the questions record --------------------------------------------------------------
    def asked(self, point: str, where: dict[str, Any]) -> None:
        """Every kind the registry places at ``point``, with each value it tries there."""
        if not self.listing:
            return
        self._seq += 1
        key = (self.run.env.now, self._seq)
        if key > self.after:
            for kind in kinds_at(point):
                if kind.tries is not None:
                    for values in kind.tries(self.scenario, self.lengths):
                        self.candidates.append((key, {"kind": kind.name, **where, **values}))

    def _struck(self, fault: dict[str, Any]) -> None:
        super()._struck(fault)
        if len(self.faults) == self.expected and self.snapshot is not None:
            # The fault itself is part of the state: a pause's length, say, acts only after
            # the question that struck it has been answered.
            self.signature = (self.snapshot(), tuple(sorted(fault.items())))

    # -- a user's actions: between any two events of the task -----------------------------------
    def user_points(self, scheduled: Iterable[dict[str, Any]]) -> None:
        """Add a cancel of each task between each two of its events and half a ttl after its
        last one, and a requeue between each two of its events after a cancel (it brings the
        task back) or, with no cancel, once while it is live and once after its end (the
        ledger must refuse both); one of each kind per task and schedule, before the
        horizon."""
        if not self.listing:
            return
        kinds = {(f["kind"], f.get("task")) for f in scheduled}
        users = kinds_at("arrival")
        by_task: dict[str, list[float]] = {}
        cancelled: dict[str, float] = {}
        ids = set(self.run.task_ids)  # a pull-mode run's health probe has no user
        for e in self.run.history:
            if e.task in ids:
                by_task.setdefault(e.task, []).append(e.time)
                if e.op == CANCEL.name and e.type == "ok":
                    cancelled.setdefault(e.task, e.time)
        horizon, half = self.run.horizon, self.scenario.ttl / 2
        for task, times in by_task.items():
            for kind in users:
                if (kind.name, task) in kinds:
                    continue
                if kind is REQUEUE and task in cancelled:  # it brings the task back
                    later = [t for t in times if t >= cancelled[task]]
                    self._between(kind.name, task, later, horizon, half)
                elif kind is REQUEUE:  # while it is live and after its end: both refused
                    # (between its first two distinct instants: a task's submit, delivery and
                    # claim often share one)
                    self._between(kind.name, task, sorted(set(times))[:2], horizon, None)
                    self._between(kind.name, task, times[-1:], horizon, half)
                else:  # a cancel, or a user's action to come: between any two events
                    self._between(kind.name, task, times, horizon, half)
        self.candidates.sort(key=lambda c: c[0])

    def _between(
        self, kind: str, task: str, times: list[float], horizon: float, after: float | None
    ) -> None:
        """``kind`` of ``task`` between each two of ``times`` (and ``after`` the last one)."""
        distinct = sorted(set(times))
        instants = [(a + b) / 2 for a, b in zip(distinct, distinct[1:], strict=False)]
        if distinct and after is not None:
            instants.append(distinct[-1] + after)
        for at in instants:
            key = (at, -1)
            if at < horizon and key > self.after:
                self.candidates.append((key, {"kind": kind, "task": task, "at": at}))
