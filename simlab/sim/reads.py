"""What the simulator reads of a ledger besides the answers to its calls.

A refused call's worker asks the ledger why (:func:`why_refused`), and records the task's
record it read; the views (``counts()`` and ``tasks(status)``) are read while tasks run
(:func:`read_views`) and at the end (:func:`views_of`), beside the final listing's e-mail keys
(:func:`effects_of`). The checker holds each read to what the model predicts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from simlab.checker.history import read_back
from simlab.checker.outcomes import Views
from simlab.ledger.protocol import TaskLedger
from simlab.records import RUNNING, STATUSES, TERMINAL_STATUSES, Effect, TaskRecord
from simlab.sim.answers import Unanswered
from simlab.sim.fast_paths import fast_path

__all__ = [
    "why_refused",
    "views_of",
    "listing_and_views",
    "final_reads",
    "read_views",
    "id_lister",
    "effects_of",
]


def why_refused(sim: Any, task: str, epoch: int, step: int, ack: bool = True) -> dict:
    """Ask the ledger of run ``sim`` why an operation was refused; acknowledge finished tasks
    (unless ``ack`` is False: the worker did not hear the refusal).

    Reasons: ``stale-epoch`` (a newer claim exists; ``current`` is its epoch), the terminal
    status (``completed``, ``cancelled``, ``dead``), or ``step-not-advancing`` (another
    holder of the *same* epoch committed this step first: only the racy claim allows it).
    The record read for it is returned too (``read``: the checker holds a refusal to
    changing nothing).
    """
    rec = sim.ledger.get(task)
    read = read_back(rec)
    if rec.status in TERMINAL_STATUSES:
        if ack:
            sim.broker.ack(task)
        return {"reason": rec.status, **read}
    if rec.epoch != epoch:
        return {"reason": "stale-epoch", "current": rec.epoch, **read}
    if rec.step >= step:
        return {"reason": "step-not-advancing", "stored_step": rec.step, **read}
    return {"reason": "refused", "status": rec.status, **read}


def effects_of(store: TaskLedger, final: list[TaskRecord], guarded: Any) -> dict[str, list[Effect]]:
    """``store.effects(task)`` of every task in ``final``; one read for all where the ledger
    offers it (``all_effects``) from the class that also defines its ``effects``, instead of a
    round trip per task. A subclass that changes ``effects`` alone is read through its own
    ``effects``: that is the protocol's method, the one judged. Each task's read goes through
    ``guarded`` (the run's :class:`~simlab.sim.answers.Answering`, or ``store`` itself), as is
    the one by one read when the read of all raised."""
    every = fast_path(store, "all_effects", "effects")
    if every is not None:
        try:
            recorded = every()
        except Exception:
            pass  # read again one by one: what they answer is what is recorded
        else:
            return {r.task_id: recorded.get(r.task_id, []) for r in final}
    effects = guarded.effects
    return {r.task_id: effects(r.task_id) for r in final}


def final_reads(
    store: TaskLedger, guarded: Any
) -> tuple[list[TaskRecord] | None, dict[str, list[Effect]] | None, Views | None]:
    """The last reads of a run over ``store``: its listing (``tasks()``), the e-mail keys of
    each listed task (:func:`effects_of`) and its views (:func:`listing_and_views`), each read
    through ``guarded`` (the run's :class:`~simlab.sim.answers.Answering`). A read that raised
    what the contract does not allow is recorded as its answer (rule (x)) and stands as None:
    a listing that raised leaves nothing to hold the records to (and no keys or views read),
    keys that raised leave the keys unjudged."""
    try:
        final, views = listing_and_views(store, guarded)
    except Unanswered:
        return None, None, None
    try:
        return final, effects_of(store, final, guarded), views
    except Unanswered:
        return final, None, views


def views_of(store: Any) -> Views | None:
    """What ``store.counts()`` and ``store.tasks(status)`` (for every status) answer now: the
    ledger's views beside its listing, which the checker holds to that listing. None for a
    ledger without ``counts``."""
    counts = getattr(store, "counts", None)
    if counts is None:
        return None
    listed = store.tasks
    return Views(dict(counts()), {state: listed(state) for state in STATUSES})


def listing_and_views(store: Any, guarded: Any) -> tuple[list[TaskRecord], Views | None]:
    """The last read of a run: ``tasks()`` and :func:`views_of` through ``guarded`` (the run's
    :class:`~simlab.sim.answers.Answering` over ``store``; views None when a view raised: that
    raise is recorded as a read's answer, and a listing that raised raises
    :class:`~simlab.sim.answers.Unanswered`). One read where ``store``'s ``tasks_and_views`` may
    stand for ``tasks`` and ``counts`` (:func:`fast_path`); if that read raises, the reads are
    made one by one (they change nothing), so what is recorded is what they answer."""
    both = fast_path(store, "tasks_and_views", "tasks", "counts")
    if both is not None:
        try:
            final, counts, by_status = both()
        except Exception:
            pass  # read again one by one: what they answer is what is recorded
        else:
            return final, Views(counts, by_status)
    final = guarded.tasks()  # through the run's ledger: a raise is a read's answer (rule (x))
    try:
        return final, views_of(guarded)
    except Unanswered:
        return final, None


def id_lister(ledger: Any, guarded: Any) -> Callable[[str], list[str]] | None:
    """How :func:`read_views` lists the task IDs of ``tasks(status)`` over ``ledger`` (what the
    run's workers call, inside the guard ``guarded``, its :class:`~simlab.sim.answers.Answering`):
    the ledger's ``task_ids`` where it may stand for ``tasks`` (:func:`fast_path`), guarded as
    ``tasks`` is (a raise is recorded as the same read's answer); else None (through
    ``tasks``)."""
    ids = fast_path(ledger, "task_ids", "tasks")
    return None if ids is None else guarded.guarded("tasks", ids)


def read_views(store: Any, ids: Callable[[str], list[str]] | None = None) -> dict[str, Any]:
    """What ``store.counts()`` and ``store.tasks(status)`` (for every status) answer now, as
    the last task's submit and the ``faults-off`` event record it: ``{"counts": {status: n},
    "listed": {status: [task IDs]}, "leases": {task ID: [worker, lease_until]}}`` (the
    running tasks' records as ``tasks("running")`` lists them); empty for a ledger without
    ``counts``. Read while tasks
    run, where a view that mixes statuses up shows (at the end every task has ended); empty
    too when a read raised (:mod:`simlab.sim.answers` recorded the raise). ``ids`` (from
    :func:`id_lister`) stands for ``[r.task_id for r in store.tasks(status)]``."""
    counts = getattr(store, "counts", None)
    if counts is None:
        return {}
    if ids is None:
        listed = store.tasks

        def ids(state: str) -> list[str]:
            return [r.task_id for r in listed(state)]

    try:
        tally = dict(counts())
        running = store.tasks(RUNNING)
        listed = {state: ids(state) for state in STATUSES if state != RUNNING}
    except Unanswered:  # a read that raised: that is its answer, recorded and judged (rule (x))
        return {}
    listed[RUNNING] = [r.task_id for r in running]
    leases = {r.task_id: [r.worker, r.lease_until] for r in running}
    return {"counts": tally, "listed": listed, "leases": leases}
