"""Which invariants did a run break? Pure functions over a recorded history and the final ledger.

:func:`check` reads a :mod:`simlab.check.history` and the ledger's final task records, and returns a
:class:`Verdict`: violations (each one plain sentence that names the worker, its epoch, the time
and the newer epoch that should have won), warnings, "sometimes" coverage counters and metrics.

Each rule is a small function that returns its violation sentences, so a rule can be read, tested
and rewritten on its own. One event can break more than one rule (a stale worker that completes a
cancelled task breaks both (a) and (c)); each rule reports what it sees.

========= ====================== ===========================================================
rule      function               the property
========= ====================== ===========================================================
(a)       stale_commits          no save is accepted after a newer epoch of its task was
                                 granted (claim ok) or after the task was cancelled (cancel ok)
(a')      reused_epochs          every claim ok grants a higher epoch than any granted before
                                 (two leases with one fencing token cannot be told apart)
(b)       duplicate_commits      at most one accepted save per (task, step)
(c)       cancelled_completions  a cancelled task never completes
(d)       step_regressions       accepted saves of a task never go back to an earlier step
(e)       short_completions      a task that ended completed has all of its K steps
(f)       resent_effects         an e-mail with an idempotency key is sent at most once
(g)       stuck_tasks            after ``faults-off``, every task that is not cancelled or dead
                                 ends completed (liveness)
(h)       live_leases            a task is never claimed while another lease on it is live
(i)       stale_heartbeats       no heartbeat is accepted for a lease whose epoch is stale
(j)       stale_effects          no e-mail key is recorded by a lease whose epoch is stale
========= ====================== ===========================================================

Rules (h), (i) and (j) fence the lease itself (holding, renewing, recording an e-mail) and live
in :mod:`simlab.check.fences`; :func:`check` applies them with the others.

The history is read in list order, which is the order things happened: an ``ok`` event is
recorded when the ledger applied the operation. Events with ``task=None`` are ignored by the
per-task rules. Everything here is O(n) or O(n log n) in the number of events. Coverage
counters and metrics live in :mod:`simlab.check.measures`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from simlab.check.fences import live_leases, stale_effects, stale_events, stale_heartbeats
from simlab.check.history import Event, HistoryView
from simlab.check.measures import coverage, metrics, send_groups
from simlab.records import CANCELLED, COMPLETED, DEAD, TaskRecord

__all__ = [
    "Verdict",
    "check",
    "NOTHING_EXERCISED",
    "stale_commits",
    "stale_commit_events",
    "reused_epochs",
    "reused_epoch_events",
    "duplicate_commits",
    "cancelled_completions",
    "step_regressions",
    "short_completions",
    "resent_effects",
    "stuck_tasks",
]

#: The warning for a run in which none of the coverage counters moved.
NOTHING_EXERCISED = (
    "This run exercised none of the interesting cases (no stale commit, no crash after a side "
    "effect, no duplicate delivery, no expired lease): it proves little."
)


@dataclass(frozen=True)
class Verdict:
    """What :func:`check` found. ``ok`` is True when there is no violation; warnings never fail
    a run. ``coverage`` counts the interesting things that *sometimes* happened; ``metrics``
    measures the run."""

    violations: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    coverage: dict[str, int] = field(default_factory=dict)
    metrics: dict[str, float | int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.violations

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready copy (``ok`` included)."""
        return {
            "ok": self.ok,
            "violations": list(self.violations),
            "warnings": list(self.warnings),
            "coverage": dict(self.coverage),
            "metrics": dict(self.metrics),
        }

    def summary(self, limit: int = 10) -> str:
        """A few lines for a terminal: the verdict, up to ``limit`` violations, the warnings."""
        head = "OK: no invariant broken." if self.ok else f"{len(self.violations)} violation(s):"
        lines = [head]
        lines += [f"  - {v}" for v in self.violations[:limit]]
        if len(self.violations) > limit:
            lines.append(f"  ... and {len(self.violations) - limit} more.")
        lines += [f"warning: {w}" for w in self.warnings]
        return "\n".join(lines)


# --- sentence helpers ------------------------------------------------------------------------


def at(time: float) -> str:
    """``t=17.0``: times rounded to the millisecond, always with a decimal point."""
    return f"t={round(float(time), 3)!r}"


def _who(e: Event) -> str:
    return f"{e.process} (epoch {e.epoch})"


def _ok(e: Event, op: str) -> bool:
    return e.op == op and e.type == "ok"


# --- rule (a): the fencing rule, the one learners write themselves ---------------------------


def stale_commit_events(history: Iterable[Event]) -> list[tuple[Event, Event]]:
    """The findings of rule (a): ``(save, winner)`` for every accepted save whose epoch was
    already stale, ``winner`` being the claim ok or cancel ok that gave its task a higher epoch.

    Walk the history in order and remember, per task, the event that gave it its highest epoch
    so far: a ``claim`` ok (a worker got a lease) or a ``cancel`` ok (the cancel bumped the
    epoch). An accepted ``save`` (save ok) that carries a lower epoch came from a worker that had
    already lost the task: the ledger should have refused it. Pictures mark these events
    (:mod:`simlab.plots`) instead of deriving the rule again.
    """
    return stale_events(history, "save")


def stale_commits(history: Iterable[Event]) -> list[str]:
    """Rule (a): no save is accepted after a newer epoch of its task was granted or cancelled.
    One sentence per finding of :func:`stale_commit_events`."""
    sentences = []
    for e, winner in stale_commit_events(history):
        if winner.op == "cancel":
            why = f"it was cancelled at {at(winner.time)} (epoch {winner.epoch})"
        else:
            why = f"epoch {winner.epoch} was granted to {winner.process} at {at(winner.time)}"
        sentences.append(
            f"{_who(e)} committed step {e.step} of {e.task} at {at(e.time)}, but {why}."
        )
    return sentences


def reused_epoch_events(history: Iterable[Event]) -> list[tuple[Event, Event]]:
    """The findings of rule (a'): ``(claim, earlier)`` for every claim ok whose epoch was not
    higher than one already granted for its task, ``earlier`` being the claim ok or cancel ok
    that granted the highest epoch before it."""
    newest: dict[str, Event] = {}
    found = []
    for e in history:
        if e.type != "ok" or e.op not in ("claim", "cancel") or e.epoch is None:
            continue
        if e.task is None:
            continue
        before = newest.get(e.task)
        if e.op == "claim" and before is not None and e.epoch <= before.epoch:
            found.append((e, before))
        if before is None or e.epoch > before.epoch:
            newest[e.task] = e
    return found


def reused_epochs(view: HistoryView) -> list[str]:
    """Rule (a'): each claim ok grants a strictly higher epoch than any granted before for that
    task (by a claim or a cancel). Two leases with the same fencing token cannot be told apart,
    so the ledger cannot fence either of them: this is what a non-atomic claim looks like."""
    found = [pair for events in view.by_task.values() for pair in reused_epoch_events(events)]
    return [
        f"{e.process} was granted epoch {e.epoch} of {e.task} at {at(e.time)}, but "
        f"epoch {newest.epoch} had already been granted to {newest.process} at "
        f"{at(newest.time)}."
        for e, newest in found
    ]


# --- rules (b) to (e): what the accepted saves must look like ---------------------------------


def _accepted_saves(events: list[Event]) -> Iterator[Event]:
    return (e for e in events if _ok(e, "save"))


def duplicate_commits(view: HistoryView) -> list[str]:
    """Rule (b): at most one accepted save per (task, step); a step runs for real only once."""
    sentences = []
    for task, events in view.by_task.items():
        first: dict[Any, Event] = {}
        for e in _accepted_saves(events):
            if e.step in first:
                f = first[e.step]
                sentences.append(
                    f"{_who(e)} committed step {e.step} of {task} at {at(e.time)}, but step "
                    f"{e.step} had already been committed by {_who(f)} at {at(f.time)}."
                )
            else:
                first[e.step] = e
    return sentences


def cancelled_completions(view: HistoryView, final: Mapping[str, TaskRecord]) -> list[str]:
    """Rule (c): a cancelled task never completes.

    Broken when a save with ``done`` is accepted after a cancel ok and before any new claim ok
    (a requeued task may be claimed again and then complete), or when the ledger says the task
    ended cancelled although a save with ``done`` was accepted.
    """
    sentences = []
    for task, events in view.by_task.items():
        cancel: Event | None = None  # the last cancel not followed by a new claim
        last_done: Event | None = None
        reported = False
        for e in events:
            if _ok(e, "cancel"):
                cancel = e
            elif _ok(e, "claim"):
                cancel = None
            elif _ok(e, "save") and e.value.get("done"):
                last_done = e
                if cancel is not None:
                    reported = True
                    sentences.append(
                        f"{_who(e)} completed {task} at {at(e.time)}, but it was cancelled at "
                        f"{at(cancel.time)} (epoch {cancel.epoch})."
                    )
        record = final.get(task)
        if record is not None and record.status == CANCELLED and last_done and not reported:
            sentences.append(
                f"{task} ended cancelled (epoch {record.epoch}), but {_who(last_done)} completed "
                f"it at {at(last_done.time)}."
            )
    return sentences


def step_regressions(view: HistoryView) -> list[str]:
    """Rule (d): the accepted step of a task never goes back (a repeat of the same step is
    rule (b))."""
    sentences = []
    for task, events in view.by_task.items():
        best: Event | None = None
        for e in _accepted_saves(events):
            if e.step is None:
                continue
            if best is not None and e.step < best.step:
                sentences.append(
                    f"{_who(e)} committed step {e.step} of {task} at {at(e.time)}, but step "
                    f"{best.step} had already been committed by {_who(best)} at {at(best.time)}: "
                    f"the task went back."
                )
            elif best is None or e.step > best.step:
                best = e
    return sentences


def short_completions(
    view: HistoryView, final: Mapping[str, TaskRecord], steps: Mapping[str, int | None]
) -> list[str]:
    """Rule (e): a task that ended completed has all of its K steps (final step == K)."""
    sentences = []
    for task, record in final.items():
        k = steps.get(task)
        if record.status != COMPLETED or k is None or record.step == k:
            continue
        done = [e for e in _accepted_saves(view.by_task.get(task, [])) if e.value.get("done")]
        by = f": {_who(done[-1])} marked it done at {at(done[-1].time)}" if done else ""
        sentences.append(f"{task} ended completed at step {record.step} of {k}{by}.")
    return sentences


# --- rule (f): side effects -------------------------------------------------------------------


def resent_effects(view: HistoryView) -> list[str]:
    """Rule (f): an e-mail with an idempotency key reaches the mailbox at most once."""
    keyed, _ = send_groups(view)
    sentences = []
    for (task, key), sends in keyed.items():
        if len(sends) > 1:
            a, b = sends[0], sends[1]
            sentences.append(
                f"{_who(b)} sent the e-mail {key!r} of {task} again at {at(b.time)}, although "
                f"{_who(a)} had sent it at {at(a.time)} ({len(sends)} copies in all)."
            )
    return sentences


def _unkeyed_warning(unkeyed: dict[tuple, list[Event]]) -> str | None:
    dupes = [(k, s) for k, s in unkeyed.items() if len(s) > 1]
    if not dupes:
        return None
    extra = sum(len(s) - 1 for _, s in dupes)
    (task, step), sends = dupes[0]
    return (
        f"{extra} e-mail(s) without an idempotency key were sent more than once, first step "
        f"{step} of {task}: by {_who(sends[0])} at {at(sends[0].time)} and again by "
        f"{_who(sends[1])} at {at(sends[1].time)}."
    )


# --- rule (g): liveness -----------------------------------------------------------------------


def stuck_tasks(
    view: HistoryView,
    final: Mapping[str, TaskRecord],
    steps: Mapping[str, int | None] | None = None,
) -> list[str]:
    """Rule (g): once faults stop (a ``faults-off`` event), every task that was not cancelled
    and did not die must end completed. Without ``faults-off`` nothing is judged. ``steps``
    (task -> K) only makes the sentence say "step 1 of 3"."""
    off = view.faults_off
    if off is None:
        return []
    end = view.events[-1].time
    sentences = []
    for task, record in final.items():
        if record.status in (COMPLETED, CANCELLED, DEAD):
            continue
        k = steps.get(task) if steps is not None else view.steps_of(task)
        of_k = f" of {k}" if k is not None else ""
        sentences.append(
            f"{task} ended {record.status} at step {record.step}{of_k} (epoch {record.epoch}), "
            f"although faults stopped at {at(off.time)} and the run went on until {at(end)}."
        )
    return sentences


# --- the verdict ------------------------------------------------------------------------------


def _as_mapping(final: Mapping[str, TaskRecord] | Iterable[TaskRecord]) -> dict[str, TaskRecord]:
    if isinstance(final, Mapping):
        return dict(final)
    return {r.task_id: r for r in final}


def check(
    history: Iterable[Event],
    final: Mapping[str, TaskRecord] | Iterable[TaskRecord],
    *,
    steps: int | Mapping[str, int] | None = None,
) -> Verdict:
    """Check a run: ``history`` (events in order) against ``final`` (the ledger's last records,
    as an iterable of :class:`TaskRecord` or a mapping task_id -> record).

    ``steps`` is K, the number of steps of each task: one int for all tasks, a mapping
    task_id -> K, or None to read ``value["steps"]`` of each task's ``submit`` event.
    """
    view = HistoryView(history)
    records = _as_mapping(final)
    ks: dict[str, int | None] = {t: view.steps_of(t) for t in [*view.by_task, *records]}
    if isinstance(steps, int):
        ks = dict.fromkeys(ks, steps)
    elif steps is not None:
        ks.update(steps)

    violations = [
        *stale_commits(view),
        *reused_epochs(view),
        *duplicate_commits(view),
        *cancelled_completions(view, records),
        *step_regressions(view),
        *short_completions(view, records, ks),
        *resent_effects(view),
        *stuck_tasks(view, records, ks),
        *live_leases(view),
        *stale_heartbeats(view),
        *stale_effects(view),
    ]

    warnings = []
    unknown_k = [t for t, r in records.items() if r.status == COMPLETED and ks.get(t) is None]
    if unknown_k:
        warnings.append(
            f"{len(unknown_k)} completed task(s) have no known number of steps (first "
            f"{unknown_k[0]}): pass steps= or record it in submit, or rule (e) cannot judge them."
        )
    missing = [t for t in view.submits if t not in records]
    if missing:
        warnings.append(
            f"{len(missing)} submitted task(s) are missing from the final ledger state (first "
            f"{missing[0]}): rules (c), (e) and (g) did not judge them."
        )
    unkeyed = _unkeyed_warning(send_groups(view)[1])
    if unkeyed:
        warnings.append(unkeyed)
    cov = coverage(view)
    if not any(cov.values()):
        warnings.append(NOTHING_EXERCISED)
    return Verdict(violations, warnings, cov, metrics(view, records))
