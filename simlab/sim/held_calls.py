"""Calls the network holds (the ``late-call`` fault kind, with ``Scenario.late``).

A worker's e-mail record, heartbeat or save may be held on its way to the ledger, as a call
over HTTP to a ledger service can be: the worker hears nothing within ``reply_timeout`` and,
not knowing whether the call landed, gives the task back (a release marked ``timeout``) and
leaves it; the held call reaches the ledger later with the lease it was sent with, and its
answer is recorded then, marked ``late``. A correct ledger refuses it: the task is queued
again, or a newer lease holds it. The call lands whatever the worker does meanwhile: it is in
the network, not in the worker.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Generator
from typing import Any

from simlab.sim.answers import Unanswered

__all__ = ["hold", "land_save", "land_heartbeat", "land_effect"]


def hold(
    worker: Any, lease: Any, step: int, delay: float, land: Callable[..., None], *args: Any
) -> Generator[Any, Any, None]:
    """The ``late-call`` fault on a call of ``worker`` (a generator; the call's invoke is
    already recorded, with ``held=True``): after ``reply_timeout`` the worker gives the task
    back and leaves it (its message is delivered again at its deadline); ``delay`` later the
    held call reaches the ledger: ``land(worker, lease, *args)`` makes it and records its
    answer."""
    sim = worker.sim
    yield sim.env.timeout(sim.scenario.reply_timeout)
    worker._release(lease.task_id, lease, step, timeout=True)
    sim.env.timeout(delay).callbacks.append(lambda _ev: _land(land, worker, lease, *args))


def _land(land: Callable[..., None], *args: Any) -> None:
    """``land(*args)``; a raise the contract does not allow is already recorded as the held
    call's answer (:mod:`simlab.sim.answers`), and nobody waits for it: the run goes on."""
    with contextlib.suppress(Unanswered):
        land(*args)


def land_save(worker: Any, lease: Any, step: int, done: bool, kept: dict) -> None:
    """A held save of ``step`` reaches the ledger now: record the ledger's answer with
    ``late=True`` and the lease's epoch (its sender heard nothing: nothing is acknowledged)."""
    sim, task, epoch, name = worker.sim, lease.task_id, lease.epoch, worker.name
    now, rec = sim.env._now, sim.history.record
    if worker._save(lease, step, done, kept):
        rec(now, "ok", name, "save", task, epoch, step, done=done, late=True, **kept)
    else:
        why = worker._why_lost(task, epoch, step, ack=False)
        rec(now, "fail", name, "save", task, epoch, step, done=done, late=True, **why)


def land_heartbeat(worker: Any, lease: Any, step: int) -> None:
    """A held heartbeat reaches the ledger now: record the ledger's answer (an accepted one
    with the lease end it gave, read back) with ``late=True`` and the lease's epoch."""
    sim, task, epoch, name = worker.sim, lease.task_id, lease.epoch, worker.name
    now, rec = sim.env._now, sim.history.record
    given = sim.heartbeat(lease, sim.scenario.ttl)
    if given is not None:
        rec(now, "ok", name, "heartbeat", task, epoch, step, late=True, **given)
    else:
        why = worker._why_lost(task, epoch, step, ack=False)
        rec(now, "fail", name, "heartbeat", task, epoch, step, late=True, **why)


def land_effect(worker: Any, lease: Any, step: int, key: str) -> None:
    """A held e-mail record of ``key`` reaches the ledger now: record the ledger's answer with
    ``late=True`` and the lease's epoch (nobody sends on it)."""
    sim, task, epoch, name = worker.sim, lease.task_id, lease.epoch, worker.name
    ok = sim.ledger.record_effect(lease, key)
    rec = sim.history.record
    rec(sim.env._now, "ok" if ok else "fail", name, "effect", task, epoch, step, key=key,
        late=True)  # fmt: skip
