"""What a run reached and what it cost: the checker's coverage counters and metrics.

Pure functions over a :class:`~simlab.checker.history.HistoryView` and the final task records,
used by :func:`simlab.checker.checker.check`. Coverage counts the interesting cases that
*sometimes* happen (a run that reached none of them proves little); metrics measure throughput,
waste and latency.

=============================== ==================================================================
coverage counter                counts
=============================== ==================================================================
stale_commits_rejected          refused saves (save fail): the fence at work
crashes_after_effect            crashes after an e-mail left and before its save
duplicate_deliveries_absorbed   duplicate or re-deliveries that led to no step committed twice
leases_expired                  claims granted while the task was still running under an older
                                lease (the ledger allows that only once the lease expired)
=============================== ==================================================================

Two metrics count e-mails that went wrong without breaking an invariant:
:func:`lost_emails` (a key recorded, the e-mail never sent: a crash between ``record_effect``
and the send) and :func:`outdated_sends` (agent workload: an e-mail that left citing a document
version the editor had already replaced).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from simlab.checker.history import EVENT_TYPES, Event, HistoryView
from simlab.records import CANCELLED, COMPLETED, DEAD, TaskRecord

__all__ = [
    "coverage",
    "metrics",
    "send_groups",
    "lost_emails",
    "outdated_sends",
    "COVERAGE_KEYS",
]

#: The coverage counters, in the order reports list them.
COVERAGE_KEYS = (
    "stale_commits_rejected",
    "crashes_after_effect",
    "duplicate_deliveries_absorbed",
    "leases_expired",
)


def _ok(e: Event, op: str) -> bool:
    return e.op == op and e.type == "ok"


def send_groups(view: HistoryView) -> tuple[dict[tuple, list[Event]], dict[tuple, list[Event]]]:
    """Sends grouped by (task, key) for keyed e-mails and by (task, step) for unkeyed ones
    (computed once per view)."""
    return view.memo("send_groups", _send_groups)


def _send_groups(view: HistoryView) -> tuple[dict[tuple, list[Event]], dict[tuple, list[Event]]]:
    keyed: dict[tuple, list[Event]] = defaultdict(list)
    unkeyed: dict[tuple, list[Event]] = defaultdict(list)
    for e in view.of("send"):
        key = e.value.get("key")
        if key is None:
            unkeyed[(e.task, e.step)].append(e)
        else:
            keyed[(e.task, key)].append(e)
    return keyed, unkeyed


def lost_emails(view: HistoryView) -> list[tuple[str, str]]:
    """``(task, key)`` of every e-mail whose key was recorded (an ``effect`` ok: "you may send")
    but that no ``send`` ever followed, in the order they were recorded."""
    keyed, _ = send_groups(view)
    recorded = dict.fromkeys((e.task, e.value.get("key")) for e in view.of("effect"))
    return [k for k in recorded if k not in keyed]


def outdated_sends(view: HistoryView) -> list[Event]:
    """Sends that cited a document version already replaced when they left.

    A task cites what its latest accepted ``retrieve`` save names (``evidence``, e.g.
    ``kb/returns@v3``); the editor's ``publish`` events say when each document got a newer
    version. Opaque tasks cite nothing, so they never count."""
    if not view.of("publish", "info"):
        return []  # no document ever changed: nothing sent can be outdated
    newest: dict[str, int] = {}
    cited: dict[str, list[str]] = {}
    out = []
    for e in view:
        if e.op == "publish":
            newest[e.value["doc"]] = max(newest.get(e.value["doc"], 0), int(e.value["version"]))
        elif _ok(e, "save") and e.value.get("agent_step") == "retrieve":
            cited[e.task] = list(e.value.get("evidence") or ())
        elif _ok(e, "send"):
            for ref in cited.get(e.task, ()):
                doc, _, version = ref.rpartition("@v")
                if newest.get(doc, 0) > int(version):
                    out.append(e)
                    break
    return out


def _deliveries_and_expiries(view: HistoryView) -> tuple[int, int]:
    """Two counts, each from the events of the tasks that can add to it.

    *Absorbed*: duplicate or re-deliveries after which the receiving worker committed no step
    that had already been committed (its saves are attributed to its latest delivery of the
    task). *Expired*: claims granted while the history says the task was still running under an
    older lease (the ledger only allows that once the lease expired)."""
    # Only a task delivered twice can have absorbed a delivery, and only a task claimed twice
    # can have been claimed under an older lease: the other tasks' events are not walked.
    redelivered = {
        e.task for e in view.of("deliver") if e.value.get("duplicate") or e.value.get("redelivery")
    }
    claims: dict[str | None, int] = {}
    for e in view.of("claim"):
        claims[e.task] = claims.get(e.task, 0) + 1
    by_task = view.by_task
    absorbed = sum(_absorbed(by_task.get(task, ())) for task in redelivered)
    expired = sum(_expired(by_task.get(task, ())) for task, n in claims.items() if n > 1)
    return absorbed, expired


def _expired(events: Sequence[Event]) -> int:
    """The claims among one task's ``events`` granted while the task was still running under
    an older lease (no completing save or cancel since the previous claim)."""
    expired = 0
    running = False
    for e in events:
        if e.type != "ok":
            continue
        op = e.op
        if op == "claim":
            expired += running
            running = True
        elif (op == "save" and e.value.get("done")) or op == "cancel":
            running = False
    return expired


def _absorbed(events: Sequence[Event]) -> int:
    """The duplicate or re-deliveries among one task's ``events`` after which the receiving
    worker committed no step that had already been committed."""
    absorbed = 0
    committed: set[Any] = set()
    latest: dict[str, list[bool]] = {}  # worker -> [is a duplicate, led to a repeat]
    for e in events:
        if e.type != "ok":
            continue
        op = e.op
        if op == "deliver":
            value = e.value
            worker = value.get("to") or value.get("worker") or e.process
            dup = bool(value.get("duplicate") or value.get("redelivery"))
            if worker in latest and latest[worker][0] and not latest[worker][1]:
                absorbed += 1
            latest[worker] = [dup, False]
        elif op == "save":
            if e.step in committed and e.process in latest:
                latest[e.process][1] = True
            committed.add(e.step)
    return absorbed + sum(1 for dup, repeated in latest.values() if dup and not repeated)


def coverage(view: HistoryView) -> dict[str, int]:
    """The "sometimes" counters: did this run reach the cases the checker exists for?"""
    absorbed, expired = _deliveries_and_expiries(view)
    return {
        "stale_commits_rejected": len(view.of("save", "fail")),
        "crashes_after_effect": sum(
            1 for e in view.of("crash", "info") if e.value.get("after_effect")
        ),
        "duplicate_deliveries_absorbed": absorbed,
        "leases_expired": expired,
    }


def _percentile(sorted_values: list[float], q: float) -> float:
    """Nearest-rank percentile of an already sorted list (0.0 for an empty one)."""
    if not sorted_values:
        return 0.0
    return sorted_values[max(0, math.ceil(q * len(sorted_values)) - 1)]


def metrics(view: HistoryView, final: Mapping[str, TaskRecord]) -> dict[str, float | int]:
    """Counts and times of one run. Latency runs from a task's submit to the save that completed
    it; makespan from the first submit to the last completion or cancellation. Times are 0.0
    when no task finished."""
    statuses = Counter([r.status for r in final.values()])
    keyed, unkeyed = send_groups(view)
    saves = view.of("save")
    done_at: dict[str, float] = {}
    ends = [e.time for e in view.of("cancel")]  # and every completing save's, below
    for e in saves:
        if e.value.get("done"):
            ends.append(e.time)
            if e.task not in done_at:
                done_at[e.task] = e.time
    submits = view.submits
    latencies = sorted([at - submits[t].time for t, at in done_at.items() if t in submits])
    starts = [e.time for e in submits.values()]
    return {
        "tasks": len(final) or len(view.submits),
        "completed": statuses[COMPLETED],
        "cancelled": statuses[CANCELLED],
        "dead": statuses[DEAD],
        "steps_committed": len(saves),
        "wasted_steps": len(view.of("save", "fail"))
        + sum(1 for t in EVENT_TYPES for e in view.of("crash", t) if e.task is not None),
        "sends": sum(len(s) for s in keyed.values()) + sum(len(s) for s in unkeyed.values()),
        "duplicate_sends": sum(len(s) - 1 for s in [*keyed.values(), *unkeyed.values()]),
        "lost_emails": len(lost_emails(view)),
        "outdated_emails": len(outdated_sends(view)),
        "mean_latency": sum(latencies) / len(latencies) if latencies else 0.0,
        "p95_latency": _percentile(latencies, 0.95),
        "makespan": max(ends) - min(starts) if ends and starts else 0.0,
    }
