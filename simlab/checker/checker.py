"""Which promises did a run break? :func:`check` judges a recorded history and the final ledger.

:func:`check` reads a :mod:`simlab.checker.history` and the ledger's final task records, replays the
history through the protocol's model (:mod:`simlab.checker.model`) and asks every rule of the one
registry (:data:`simlab.checker.rules.RULES`) what it sees. It returns a :class:`Verdict`:
violations (each one plain sentence that names the worker, its epoch, the time and the event
that should have won), warnings, "sometimes" coverage counters and metrics. One event can break
more than one rule (a stale worker that completes a cancelled task breaks both (a) and (c));
each rule reports what it sees.

The history is read in list order, which is the order things happened: an ``ok`` event is
recorded when the ledger applied the operation. Events with ``task=None`` are ignored by the
per-task rules. Judging is one pass over the events; coverage counters and metrics live in
:mod:`simlab.checker.measures`.

:func:`stale_commits` is the exercise's reading of rule (a): a save is stale when an earlier claim
ok or cancel ok *reported* a higher epoch. The checker's rule (a) judges the same saves against
the model, where every cancel bumps the epoch whatever the ledger reports; over a ledger that
keeps its promises the two agree.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from simlab.checker.history import Event, HistoryView
from simlab.checker.measures import coverage, metrics, send_groups
from simlab.checker.outcomes import Sentences, Views
from simlab.checker.rules import Finding, as_records, at, findings, steps_of
from simlab.records import COMPLETED, Effect, TaskRecord

__all__ = [
    "Verdict",
    "check",
    "NOTHING_EXERCISED",
    "stale_commits",
    "stale_commit_events",
    "reused_epochs",
    "reused_epoch_events",
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
    measures the run. ``findings`` are the violations with their rule and history index
    (:class:`simlab.checker.rules.Finding`), in the same order."""

    violations: Sequence[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    coverage: dict[str, int] = field(default_factory=dict)
    metrics: dict[str, float | int] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list, repr=False)

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


# --- the exercise's rule (a), and the events the pictures mark ---------------------------------


def stale_commit_events(history: Iterable[Event]) -> list[tuple[Event, Event]]:
    """``(save, winner)`` for every accepted save whose epoch was below the highest epoch an
    earlier claim ok or cancel ok of its task reported, ``winner`` being that event."""
    newest: dict[str, Event] = {}
    found = []
    for e in history:
        if e.type != "ok" or e.task is None or e.epoch is None:
            continue
        if e.op in ("claim", "cancel"):
            if e.task not in newest or e.epoch > newest[e.task].epoch:
                newest[e.task] = e
        elif e.op == "save" and e.task in newest and newest[e.task].epoch > e.epoch:
            found.append((e, newest[e.task]))
    return found


def stale_commits(history: Iterable[Event]) -> list[str]:
    """The exercise's rule (a): one sentence per finding of :func:`stale_commit_events`."""
    sentences = []
    for e, winner in stale_commit_events(history):
        if winner.op == "cancel":
            why = f"it was cancelled at {at(winner.time)} (epoch {winner.epoch})"
        else:
            why = f"epoch {winner.epoch} was granted to {winner.process} at {at(winner.time)}"
        sentences.append(
            f"{e.process} (epoch {e.epoch}) committed step {e.step} of {e.task} at "
            f"{at(e.time)}, but {why}."
        )
    return sentences


def reused_epochs(history: Iterable[Event]) -> list[str]:
    """Rule (a')'s sentences: every claim ok whose epoch was not higher than the task had."""
    return [f.sentence for f in findings(history, rules=["a'"])]


def reused_epoch_events(history: Iterable[Event]) -> list[tuple[Event, Event | None]]:
    """``(claim, earlier)`` for every claim ok that rule (a') judges: its epoch was not higher
    than the task already had (``earlier`` raised it). The pictures mark these claims."""
    return [(f.event, f.other) for f in findings(history, rules=["a'"])]


def _unkeyed_warning(unkeyed: dict[tuple, list[Event]]) -> str | None:
    dupes = [(k, s) for k, s in unkeyed.items() if len(s) > 1]
    if not dupes:
        return None
    extra = sum(len(s) - 1 for _, s in dupes)
    (task, step), sends = dupes[0]
    a, b = sends[0], sends[1]
    return (
        f"{extra} e-mail(s) without an idempotency key were sent more than once, first step "
        f"{step} of {task}: by {a.process} (epoch {a.epoch}) at {at(a.time)} and again by "
        f"{b.process} (epoch {b.epoch}) at {at(b.time)}."
    )


# --- the verdict ------------------------------------------------------------------------------


def check(
    history: Iterable[Event],
    final: Mapping[str, TaskRecord] | Iterable[TaskRecord],
    *,
    steps: int | Mapping[str, int] | None = None,
    effects: Mapping[str, Sequence[Effect]] | None = None,
    ttl: float | None = None,
    named_results: bool = False,
    listing: bool | None = None,
    max_attempts: int | None = None,
    views: Views | None = None,
) -> Verdict:
    """Check a run: ``history`` (events in order) against ``final`` (the ledger's last records,
    as an iterable of :class:`TaskRecord` or a mapping task_id -> record).

    ``steps`` is K, the number of steps of each task: one int for all tasks, a mapping
    task_id -> K, or None to read ``value["steps"]`` of each task's ``submit`` event.
    ``effects`` (task_id -> the ledger's :meth:`effects`) and ``ttl`` (the lease length the
    workers asked for) let rules (p) and (q) judge the recorded keys and the leases' length;
    ``named_results`` (every completing save stored ``{"worker", "epoch"}``) lets rule (p)
    judge each completed task's result. The simulator passes all three (the last for opaque
    tasks). ``listing``: ``final`` is the ledger's whole listing (``tasks()``), so every
    submitted task must be in it (rule (p)); by default a non-empty ``final`` is taken as the
    whole listing, and an empty one as no listing at all (a history checked on its own).
    ``max_attempts``: the ledger's limit on the claims of one task (rules (s) and (t)); None
    when it is not known (any dead letter is taken as right), and
    :data:`~simlab.checker.model.NO_LIMIT` for a ledger without one (no task may go dead).
    ``views``: what the ledger's ``counts()`` and ``tasks(status)`` answered at the end
    (:class:`~simlab.checker.outcomes.Views`), judged against the whole listing (rule (p)).
    """
    view = HistoryView(history)
    if not isinstance(final, Mapping):
        final = list(final)  # the listing itself goes to the rules: they count its repeats
    records = as_records(final)
    ks = steps_of(view, records, steps)
    whole = bool(records) if listing is None else listing
    found = findings(
        view,
        final,
        steps=ks,
        effects=effects,
        ttl=ttl,
        named_results=named_results,
        listing=whole,
        max_attempts=max_attempts,
        views=views if whole else None,
    )

    warnings = []
    unknown_k = [t for t, r in records.items() if r.status == COMPLETED and ks.get(t) is None]
    if unknown_k:
        warnings.append(
            f"{len(unknown_k)} completed task(s) have no known number of steps (first "
            f"{unknown_k[0]}): pass steps= or record it in submit, or rule (e) cannot judge them."
        )
    missing = [t for t in view.submits if t not in records]
    if missing and not whole:
        warnings.append(
            f"{len(missing)} submitted task(s) are missing from the final ledger state (first "
            f"{missing[0]}): rules (e), (g) and (p) did not judge them."
        )
    unkeyed = _unkeyed_warning(send_groups(view)[1])
    if unkeyed:
        warnings.append(unkeyed)
    cov = coverage(view)
    if not any(cov.values()):
        warnings.append(NOTHING_EXERCISED)
    return Verdict(Sentences(found), warnings, cov, metrics(view, records), found)
