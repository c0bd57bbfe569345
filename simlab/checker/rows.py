"""A task's ledger row rebuilt from the history, event by event, and why each refused save was
refused. Pure functions: they read events and return plain records.

:func:`task_rows` replays the events of one task the way the ledger applied them: after each
event, the task's row (``status``, ``step``, ``epoch``, ``worker``, ``lease_until``) and its
effects table (idempotency keys with the epoch and worker that recorded them). The step-through
widget (:mod:`simlab.plots.stepper`) shows it; tests hold it against the real ledger's final
row and effects.

The rules, one per event (everything else leaves the row as it was):

============================ ==============================================================
event                        row after it
============================ ==============================================================
submit ok                    queued, step 0, epoch 0, no worker, no lease
claim ok                     running, the granted epoch and step, the claimer, its
                             ``lease_until`` (the lease's ttl is remembered for heartbeats)
claim fail with status dead  dead, epoch + 1, no lease (the claim past ``max_attempts``)
heartbeat ok                 ``lease_until`` = now + the ttl of the claim
save ok                      the committed step; ``done``: completed, no lease
cancel ok                    cancelled, the bumped epoch (the event carries it), no lease
requeue ok                   queued, step and epoch kept, no lease
effect ok                    a row in the effects table: key, epoch, worker, time
============================ ==============================================================

One limit: with ``variant="racy-claim"`` the epoch is bumped by an ``UPDATE`` that the history
records only as a claim *invoke*, and read a round trip later; two claims that interleave there
can leave the rebuilt ``worker`` and ``epoch`` different from the ledger's. That gap is the
chapter's bug, not the replay's.

:func:`refusal_reasons` says why each refused save was refused: the ledger's own answer when
the event recorded one (``reason``), otherwise the reason read off the rebuilt row just before
it: ``completed``, ``cancelled`` or ``dead`` (the task had ended), ``stale-epoch`` (a newer
epoch was granted), ``step-not-advancing`` (this step was already committed).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from simlab.checker.history import Event, HistoryView

__all__ = [
    "Row",
    "EffectRow",
    "Snapshot",
    "REFUSAL_REASONS",
    "task_rows",
    "refusal_reasons",
    "derived_refusal",
]

#: Why a save can be refused, most telling first.
REFUSAL_REASONS = ("stale-epoch", "cancelled", "completed", "dead", "step-not-advancing")


@dataclass(frozen=True)
class Row:
    """The task's ledger row as the history shows it (``lease_until`` None: no lease)."""

    status: str
    step: int
    epoch: int
    worker: str | None
    lease_until: float | None


@dataclass(frozen=True)
class EffectRow:
    """One recorded side effect: what :meth:`~simlab.ledger.Ledger.effects` would list."""

    key: str
    epoch: int
    worker: str
    recorded_at: float


@dataclass(frozen=True)
class Snapshot:
    """After ``event``: the task's ``row`` (None before its submit) and ``effects`` table."""

    event: Event
    row: Row | None
    effects: tuple[EffectRow, ...]


def _apply(row: Row | None, e: Event, ttl: float | None) -> Row | None:
    """The row after ``e`` (the table in the module doc)."""
    if e.op == "submit" and e.type == "ok":
        return Row("queued", 0, 0, None, None)
    if row is None:
        return None
    if e.op == "claim" and e.type == "ok":
        until = e.value.get("lease_until")
        return Row("running", e.step or 0, e.epoch or 0, e.process, until)
    if e.op == "claim" and e.type == "fail" and e.value.get("status") == "dead":
        if row.status == "dead":
            return row
        return replace(row, status="dead", epoch=row.epoch + 1, lease_until=None)
    if e.op == "heartbeat" and e.type == "ok" and ttl is not None:
        return replace(row, lease_until=e.time + ttl)
    if e.op == "save" and e.type == "ok":
        if e.value.get("done"):
            return replace(row, step=e.step, status="completed", lease_until=None)
        return replace(row, step=e.step)
    if e.op == "cancel" and e.type == "ok":
        return replace(row, status="cancelled", epoch=e.epoch, lease_until=None)
    if e.op == "requeue" and e.type == "ok":
        return replace(row, status="queued", lease_until=None)
    return row


def task_rows(history: Iterable[Event] | HistoryView, task: str) -> list[Snapshot]:
    """One :class:`Snapshot` per event of ``task``, in history order (see the module doc): the
    same for every variant. An unknown task gives an empty list."""
    view = history if isinstance(history, HistoryView) else HistoryView(history)
    row: Row | None = None
    effects: list[EffectRow] = []
    ttl: float | None = None
    out = []
    for e in view.by_task.get(task, []):
        if e.op == "claim" and e.type == "ok" and e.value.get("lease_until") is not None:
            ttl = float(e.value["lease_until"]) - e.time
        row = _apply(row, e, ttl)
        if e.op == "effect" and e.type == "ok":
            effects.append(EffectRow(e.value["key"], e.epoch, e.process, e.time))
        out.append(Snapshot(e, row, tuple(effects)))
    return out


def derived_refusal(row: Row | None, save: Event, *, variant: str = "fenced") -> str | None:
    """Why the ledger in state ``row`` refuses ``save`` (None if it would accept it).

    Ended tasks first (``completed``, ``cancelled``, ``dead``: a cancel also bumps the epoch,
    and the end is the more telling reason), then ``stale-epoch`` (not checked by the
    ``unfenced`` save), then ``step-not-advancing``."""
    if row is None:
        return None
    if row.status in ("completed", "cancelled", "dead"):
        return row.status
    if row.status != "running":
        return "not-running"
    if variant != "unfenced" and save.epoch != row.epoch:
        return "stale-epoch"
    if variant != "unfenced" and save.step is not None and save.step <= row.step:
        return "step-not-advancing"
    return None


def refusal_reasons(
    history: Iterable[Event] | HistoryView,
    *,
    variant: str = "fenced",
    trust_recorded: bool = True,
) -> dict[int, str]:
    """Event index -> reason, for every refused save (``op == "save"``, ``type == "fail"``).

    The reason the ledger gave (the event's ``reason``) when there is one and
    ``trust_recorded``; else :func:`derived_refusal` of the rebuilt row just before the save
    (``"unknown"`` if the row would have accepted it)."""
    view = history if isinstance(history, HistoryView) else HistoryView(history)
    out: dict[int, str] = {}
    for task in view.tasks():
        before: Row | None = None
        for snap in task_rows(view, task):
            e = snap.event
            if e.op == "save" and e.type == "fail":
                recorded = e.value.get("reason")
                if trust_recorded and recorded:
                    out[e.index] = str(recorded)
                else:
                    out[e.index] = derived_refusal(before, e, variant=variant) or "unknown"
            before = snap.row
    return dict(sorted(out.items()))
