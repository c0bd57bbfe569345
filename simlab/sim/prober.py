"""The prober: an omniscient process that claims a task at the very edges of a silent lease.

Workers and the broker never claim near a lease's end: a worker heartbeats long before it, and
the broker redelivers a silent task a visibility timeout after its last extension. So no run
would tell a ledger that takes a task over a hair before its lease ends, or refuses it a hair
after, from a correct one. The ``edge-claim`` fault (:data:`simlab.sim.faults.EDGE_CLAIM`)
strikes as a pause silences a worker holding a lease; the prober then claims the task twice,
:data:`~simlab.sim.faults.EDGE` before the end of that lease and as long after it, at exactly
those times (:func:`~simlab.sim.nemesis.exact_delay`). The checker judges its claims as any
process's (:mod:`simlab.checker.model`): the first must be refused while the lease is live, the
second granted unless something else forbids it (a heartbeat renewed the lease, the task moved
on). A prober granted a lease never heartbeats or commits, as a worker that crashed: its lease
runs out and the broker's redelivery hands the task on.

Its events are those of a worker's one-statement claim, by process :data:`PROBER`, each with
``edge="before"`` or ``edge="after"``; a refused claim acknowledges nothing (the prober is not a
consumer of the broker).
"""

from __future__ import annotations

import contextlib

from simlab.errors import LeaseHeld, TerminalTask, UnknownTask
from simlab.sim.answers import Unanswered, record_claim
from simlab.sim.faults import EDGE
from simlab.sim.nemesis import exact_delay

__all__ = ["Prober", "PROBER"]

#: The process name of the prober's claims (a lane of its own in the timeline).
PROBER = "prober"


class Prober:
    """The prober of one run (:class:`simlab.sim.simulation._Run`): :meth:`claim_at_edges`
    plans its claims; :attr:`pending` lists those not made yet, as ``(time, task, edge)``."""

    def __init__(self, run) -> None:
        self.run = run
        self.pending: list[tuple[float, str, str]] = []

    def claim_at_edges(self, task: str, end: float) -> None:
        """Claim ``task`` at ``end - EDGE`` and at ``end + EDGE`` (``end``: the end of the
        lease its silent worker holds); a time already past is left out."""
        env = self.run.env
        now = env._now
        for edge, at in (("before", end - EDGE), ("after", end + EDGE)):
            if at >= now:
                planned = (at, task, edge)
                self.pending.append(planned)
                event = env.timeout(exact_delay(now, at))
                event.callbacks.append(lambda _ev, planned=planned: self._claim(planned))

    def _claim(self, planned: tuple[float, str, str]) -> None:
        """Make one planned claim now and record it (a raise the contract does not allow is
        recorded as its answer, see :mod:`simlab.sim.answers`)."""
        self.pending.remove(planned)
        _, task, edge = planned
        run = self.run
        now, rec = run.env._now, run.history.record
        rec(now, "invoke", PROBER, "claim", task, edge=edge)
        with contextlib.suppress(Unanswered):
            try:
                answer = run.ledger.claim(task, PROBER, run.scenario.ttl)
            except (LeaseHeld, TerminalTask, UnknownTask) as refusal:
                answer = refusal
            record_claim(run.history, now, PROBER, task, answer, run.scenario.checkpoints,
                         edge=edge)  # fmt: skip
