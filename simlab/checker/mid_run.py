"""Rule (z): the ledger's views read while tasks run.

The last task's submit and the ``faults-off`` event record what ``counts()`` and
``tasks(status)`` answered at that instant (and each running task's holder and lease end, as
``tasks("running")`` lists them); the replay notes each task's state as it passes that event
(:func:`noted`), and :func:`views_mid_run` holds the views to it.
"""

from __future__ import annotations

from typing import Any

from simlab.checker.history import Event, HistoryView
from simlab.checker.model import TaskState, is_time
from simlab.checker.operations import at, status
from simlab.checker.outcomes import Finding, Run, tallied, worker_named
from simlab.checker.words import Said, said
from simlab.records import RUNNING

__all__ = ["view_reads", "views_mid_run", "noted"]


def view_reads(view: HistoryView) -> list[Event]:
    """The events that recorded the ledger's views while tasks ran (``counts`` and ``listed``
    in their value: the last task's submit, the ``faults-off`` event), in history order
    (found once per view: do not modify the list)."""
    return view.memo("view_reads", _view_reads)


def _view_reads(view: HistoryView) -> list[Event]:
    candidates = [*view.of("submit"), *([view.faults_off] if view.faults_off else [])]
    return sorted((e for e in candidates if "counts" in e.value), key=lambda e: e.index)


def views_mid_run(run: Run) -> list[Finding]:
    """The views each read event recorded (:func:`view_reads`) agree with the model's
    statuses right after it: ``tasks(status)`` lists exactly the tasks of that status (as a
    set: the order is judged at the end), and ``counts()`` counts them (a status with none may
    be left out). A task with a claim that may have been granted unseen may be running
    instead (its counts are then not judged). A task listed running names the worker granted
    its last claim and the lease end the ledger last reported for it (where both are known:
    no claim of it in flight or cut off)."""
    out: list[Finding] = []
    reads = view_reads(run.view)
    if not reads:
        return out
    # A task whose events ended before a read is as its final state says at every read.
    at_end = {task: noted(s) for task, s in run.states.items() if s.submit is not None}
    for e in reads:
        out.extend(_views_then(e, *_states_then(at_end, run.then.get(e.index, {}))))
    return out


#: What :func:`noted` tells of one task: status, unsure, holder, lease end.
_Noted = tuple[str, bool, str | None, float | None]


def noted(s: TaskState) -> _Noted:
    """What the views read at an instant are held to for task ``s`` then: its status, whether
    a claim of it may have been granted unseen, and (when neither is in doubt) the worker
    granted its last claim and the lease end the ledger last reported (None: not known)."""
    unsure = s.unanswered > 0
    if unsure or s.status != RUNNING:
        return s.status, unsure, None, None
    return s.status, unsure, s.claimer, s.given


def _states_then(
    at_end: dict[str, _Noted], noted_then: dict[str, _Noted | None]
) -> tuple[dict[str, set[str]], dict[str, str], dict[str, tuple[str | None, float | None]]]:
    """The statuses right after a read of every task submitted by then: ``(sure, maybe,
    leases)``, ``sure`` mapping each status to the tasks that have it for certain, ``maybe``
    each task a claim of which may have been granted unseen (so it may be running instead) to
    its status, when that is not running, ``leases`` each task surely running to its holder
    and lease end (:func:`noted`). A task whose events go on after the read is as the replay
    noted it then (``noted_then``, from :attr:`Run.then`; None: not submitted yet), any other
    as its final state says (``at_end``: every task submitted by the end)."""
    sure: dict[str, set[str]] = {}
    maybe: dict[str, str] = {}
    leases: dict[str, tuple[str | None, float | None]] = {}
    for task, then in (at_end | noted_then).items():
        if then is None:
            continue
        state, unsure, holder, until = then
        if unsure and state != RUNNING:
            maybe[task] = state
        elif state in sure:
            sure[state].add(task)
        else:
            sure[state] = {task}
        if state == RUNNING and not unsure:
            leases[task] = holder, until
    return sure, maybe, leases


def _views_then(
    e: Event,
    sure: dict[str, set[str]],
    maybe: dict[str, str],
    leases: dict[str, tuple[str | None, float | None]],
) -> list[Finding]:
    out: list[Finding] = []
    for task, (worker, until) in e.value.get("leases", {}).items():
        if task not in leases:
            continue  # not running for certain: the listing by status is judged above
        holder, given = leases[task]
        if (holder is not None and worker != holder) or (given is not None and until != given):
            holder = worker if holder is None else holder
            ends = {"until": _end(until, given), "given": _end(given, until)}
            sentence = _s("views.lease", t=at(e.time), task=task, worker=worker_named(worker),
                          holder=holder, **ends)  # fmt: skip
            out.append(Finding.of("z", e.index, sentence))
    none: set[str] = set()
    for state, listed in e.value.get("listed", {}).items():
        got, want = set(listed), sure.get(state, none)
        allowed = want | {x for x, st in maybe.items() if state in (st, RUNNING)} if maybe else want
        if not got <= allowed or not want <= got:
            sentence = _s("views.status", t=at(e.time), s=status(state), listed=_names(got),
                          held=_names(want))  # fmt: skip
            out.append(Finding.of("z", e.index, sentence))
    counted = {k: v for k, v in e.value["counts"].items() if v != 0}
    tally = {state: len(tasks) for state, tasks in sure.items()}
    if not maybe and counted != tally:
        sentence = _s("views.counts", t=at(e.time), counted=tallied(counted), held=tallied(tally))
        out.append(Finding.of("z", e.index, sentence))
    return out


def _names(tasks: set[str]) -> Any:
    """Task IDs, sorted, as words (``none`` for none)."""
    return sorted(tasks) if tasks else _s("keys.none")


def _end(until: Any, beside: Any) -> Any:
    """A lease end as words, to the digit that parts it from ``beside`` (None or no number: no
    end)."""
    if not is_time(until):
        return _s("lease.no_end")
    return at(until, beside if is_time(beside) else None)


def _s(name: str, /, **values: Any) -> Said:
    return said("check." + name, **values)
