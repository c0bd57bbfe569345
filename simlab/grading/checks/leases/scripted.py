"""The grader's ledgers and callbacks with trouble on cue, lent to a learner's worker loop and
``send_step``: they live here, so the trouble happens and is seen in the grader.

* :class:`ScriptedWork` is the ``work(step)`` of a loop under test: it writes down each step it
  is asked for and, on chosen steps, cancels the task, lets another worker take it over, or
  lets a second process with the same lease save the step first.
* :class:`ScriptedLedger` does the same right after an accepted save.
* :class:`CrashLedger` and its ``mailbox`` share one fuse: the worker crashes right after the
  first of an accepted ``record_effect`` and a ``send`` (a :class:`Crash` raised into the
  learner's ``send_step``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from simlab.grading.checks.leases.driving import Clock
from simlab.grading.sandbox.remote import Crash
from simlab.ledger import Ledger
from simlab.records import Lease
from simlab.sim.mailbox import Mailbox

__all__ = ["ScriptedWork", "ScriptedLedger", "CrashLedger", "Crash", "MAX_CALLS", "on"]

#: The most calls of one scripted ``work`` (a loop has a few steps; the grader keeps each call).
MAX_CALLS = 1000


def _trouble(
    where: str | Ledger,
    task_id: str,
    action: str,
    clock: Clock,
    thief: str = "thief",
    output: Any = None,
) -> None:
    """Do ``action`` to the task, as another process would: ``"cancel"``, ``"steal"`` (the
    lease runs out and the worker ``thief`` claims), ``"ahead"`` (a second process of the
    worker that holds the task, with the same lease, saves the step after the stored one first:
    the holder's own save of that step is then refused, its next heartbeat still granted), or
    ``"finish"`` (the same, the step saved as the task's last: done, with ``output`` as its
    checkpoint's output and its result, what the holder's own work returns for it; the
    holder's own last save is then refused, though the stored result equals its output).
    ``where`` is a ledger file, reached through another connection, or an in-memory ledger,
    acted on with the kit's own methods (never its scripted ones): nothing else holds that
    connection and every method commits before it returns, so the same statements there leave
    what another connection leaves on a file."""
    if isinstance(where, Ledger):
        _act(where, task_id, action, clock, thief, output)
        return
    with Ledger(where, clock=clock, busy_timeout=0.0) as other:
        _act(other, task_id, action, clock, thief, output)


def _act(ledger: Ledger, task_id: str, action: str, clock: Clock, thief: str, output: Any) -> None:
    if action == "cancel":
        Ledger.cancel(ledger, task_id)
    elif action == "steal":
        clock.now += 10_000.0
        Ledger.claim(ledger, task_id, thief, 30.0)
    elif action == "ahead":
        row = Ledger.get(ledger, task_id)
        lease = Lease(task_id, row.worker, row.epoch, row.step, row.lease_until, row.checkpoint)
        Ledger.save(ledger, lease, row.step + 1, checkpoint=row.checkpoint)
    elif action == "finish":
        row = Ledger.get(ledger, task_id)
        lease = Lease(task_id, row.worker, row.epoch, row.step, row.lease_until, row.checkpoint)
        checkpoint = {"output": output}
        Ledger.save(ledger, lease, row.step + 1, checkpoint=checkpoint, done=True, result=output)


def on(ledger: Ledger, setup: Callable[[Ledger], None]) -> None:
    """Give the in-memory ``ledger`` what ``setup`` leaves on a new in-memory ledger of the
    kit's on the same clock (through SQLite's backup, so none of ``ledger``'s own scripted
    methods runs)."""
    with Ledger(":memory:", clock=ledger.clock) as plain:
        setup(plain)
        plain._db.backup(ledger._db)


class ScriptedWork:
    """Records every step it is asked to do in ``calls`` and returns ``output(step)`` (a hidden
    world's :meth:`~simlab.grading.checks.leases.world.World.work_output`); for a step listed
    in ``script`` it first does that to the task (see :func:`_trouble`) in ``path``, a ledger
    file or an in-memory ledger."""

    def __init__(
        self,
        path: str | Ledger,
        task_id: str,
        script: dict[int, str],
        clock: Clock,
        output: Callable[[Any], Any],
        thief: str = "thief",
    ):
        self.path = path
        self.task_id = task_id
        self.script = dict(script)
        self.clock = clock
        self.output = output
        self.thief = thief
        self.calls: list[Any] = []

    def __call__(self, step: Any) -> Any:
        if len(self.calls) >= MAX_CALLS:
            raise ValueError(f"work was called more than {MAX_CALLS} times")
        # Only what the checks compare is kept: a step number, or the name of what came instead.
        plain = type(step) is int
        self.calls.append(step if plain else f"<{type(step).__name__}>")
        action = self.script.get(step) if plain else None
        if action is not None:
            self.trouble(action, self.output(step))
        return self.output(step)

    def trouble(self, action: str, output: Any = None) -> None:
        """Do ``action`` to the task (see :func:`_trouble`; ``output``: what this work returns
        for the step it is doing)."""
        _trouble(self.path, self.task_id, action, self.clock, self.thief, output)


class ScriptedLedger(Ledger):
    """A ledger (a file, or in memory) that lets trouble happen right after an accepted save:
    ``after_save`` maps a saved step to an action (see :func:`_trouble`); and right after an
    accepted claim, before the loop's first step: ``after_claim``, an action or None. ``ttls``
    holds the lease length each claim and heartbeat asked for, in order."""

    def __init__(
        self,
        path: str,
        after_save: dict[int, str],
        clock: Clock,
        thief: str = "thief",
        after_claim: str | None = None,
    ):
        super().__init__(path, clock=clock, busy_timeout=0.0)
        self.after_save = dict(after_save)
        self.after_claim = after_claim
        self.thief = thief
        self.ttls: list[Any] = []

    def claim(self, task_id: str, worker: str, ttl: float) -> Lease:
        self.ttls.append(ttl)
        lease = super().claim(task_id, worker, ttl)
        if self.after_claim is not None:
            self.trouble(lease.task_id, self.after_claim)
        return lease

    def heartbeat(self, lease: Lease, ttl: float) -> bool:
        self.ttls.append(ttl)
        return super().heartbeat(lease, ttl)

    def save(self, lease: Lease, step: int, **kwargs: Any) -> bool:
        accepted = super().save(lease, step, **kwargs)
        action = self.after_save.get(step) if accepted else None
        if action is not None:
            self.trouble(lease.task_id, action)
        return accepted

    def trouble(self, task_id: str, action: str) -> None:
        """Do ``action`` to ``task_id`` (see :func:`_trouble`): through another connection to
        its file, or on itself when it is in memory."""
        where: str | Ledger = self if self.path == ":memory:" else self.path
        _trouble(where, task_id, action, self.clock, self.thief)


class CrashLedger(Ledger):
    """A ledger and a mailbox (``.mailbox``) that share one fuse: the worker crashes right
    after the first of an accepted ``record_effect`` and a ``send``, whichever comes first."""

    def __init__(self, path: str, clock: Clock):
        super().__init__(path, clock=clock)
        self.mailbox = _CrashMailbox(self)
        self.fuse = True

    def record_effect(self, lease: Lease, key: str) -> bool:
        accepted = super().record_effect(lease, key)
        if accepted and self.fuse:
            self.fuse = False
            raise Crash("the worker crashed")
        return accepted


class _CrashMailbox(Mailbox):
    def __init__(self, ledger: CrashLedger):
        super().__init__()
        self._ledger = ledger

    def send(self, key: str) -> None:
        super().send(key)
        if self._ledger.fuse:
            self._ledger.fuse = False
            raise Crash("the worker crashed")
