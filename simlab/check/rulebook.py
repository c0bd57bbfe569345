"""The checker's rules by name: which rules a run broke, and the first event that broke them.

:func:`simlab.check.checker.check` returns violation sentences; the shrinker and the story need to
know *which* rule each one breaks and *where* in the history the first one happened. Both are
pure functions over a history and the final records, built from the checker's own rule
functions (nothing here re-implements a rule).

A rule is named by its letter in the checker's table: ``a`` (stale commit), ``a'`` (reused
epoch), ``b`` (duplicate commit), ``c`` (completion after cancel), ``d`` (step regression),
``e`` (short completion), ``f`` (resent e-mail), ``g`` (liveness), and the lease's own fences
of :mod:`simlab.check.fences`: ``h`` (two live leases), ``i`` (stale heartbeat), ``j`` (stale
e-mail record). Every rule but ``e``, ``g`` and the final-state half of ``c`` is judged on the
history alone, and a prefix of a history that breaks it still breaks it later:
:func:`first_violation` finds the shortest such prefix.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from simlab.check.checker import (
    cancelled_completions,
    duplicate_commits,
    resent_effects,
    reused_epochs,
    short_completions,
    stale_commits,
    step_regressions,
    stuck_tasks,
)
from simlab.check.fences import live_leases, stale_effects, stale_heartbeats
from simlab.check.history import Event, HistoryView
from simlab.records import TaskRecord

__all__ = ["Rule", "RULES", "broken_rules", "breaks_any", "first_violation", "rule_phrase"]


@dataclass(frozen=True)
class Rule:
    """One invariant of the checker: its letter, a short name and the property in words."""

    letter: str
    name: str
    says: str
    #: judge(view, final, ks) -> violation sentences
    judge: Callable[[HistoryView, Mapping[str, TaskRecord], Mapping[str, int]], list[str]]
    #: can a prefix of the history show the violation (False: judged on the final state)
    on_prefix: bool = True


RULES: tuple[Rule, ...] = (
    Rule(
        "a",
        "stale commit",
        "no save is accepted after a newer epoch was granted or the task was cancelled",
        lambda v, f, k: stale_commits(v),
    ),
    Rule(
        "a'",
        "reused epoch",
        "every claim grants a higher epoch than any granted before",
        lambda v, f, k: reused_epochs(v),
    ),
    Rule(
        "b",
        "duplicate commit",
        "at most one accepted save per step of a task",
        lambda v, f, k: duplicate_commits(v),
    ),
    Rule(
        "c",
        "completion after cancel",
        "a cancelled task never completes",
        lambda v, f, k: cancelled_completions(v, f),
    ),
    Rule(
        "d",
        "step regression",
        "the committed step of a task never goes back",
        lambda v, f, k: step_regressions(v),
    ),
    Rule(
        "e",
        "short completion",
        "a completed task has all of its steps",
        lambda v, f, k: short_completions(v, f, k),
        on_prefix=False,
    ),
    Rule(
        "f",
        "resent e-mail",
        "an e-mail with an idempotency key is sent at most once",
        lambda v, f, k: resent_effects(v),
    ),
    Rule(
        "g",
        "liveness",
        "once faults stop, every task that was not cancelled ends completed",
        lambda v, f, k: stuck_tasks(v, f, k),
        on_prefix=False,
    ),
    Rule(
        "h",
        "two live leases",
        "a task is never claimed while another lease on it is live",
        lambda v, f, k: live_leases(v),
    ),
    Rule(
        "i",
        "stale heartbeat",
        "no heartbeat is accepted for a lease whose epoch is no longer the newest",
        lambda v, f, k: stale_heartbeats(v),
    ),
    Rule(
        "j",
        "stale e-mail record",
        "no e-mail key is recorded by a lease whose epoch is no longer the newest",
        lambda v, f, k: stale_effects(v),
    ),
)
_BY_LETTER = {r.letter: r for r in RULES}


def rule_phrase(letter: str) -> str:
    """``rule (a), stale commit: no save is accepted after ...``"""
    r = _BY_LETTER[letter]
    return f"rule ({r.letter}), {r.name}: {r.says}"


def _final(final: Mapping[str, TaskRecord] | Iterable[TaskRecord]) -> dict[str, TaskRecord]:
    if isinstance(final, Mapping):
        return dict(final)
    return {r.task_id: r for r in final}


def _ks(view: HistoryView, final: Mapping[str, TaskRecord], steps: int | None) -> dict:
    tasks = [*view.by_task, *final]
    if steps is not None:
        return dict.fromkeys(tasks, steps)
    return {t: view.steps_of(t) for t in tasks}


def broken_rules(
    history: Iterable[Event] | HistoryView,
    final: Mapping[str, TaskRecord] | Iterable[TaskRecord],
    *,
    steps: int | None = None,
) -> dict[str, list[str]]:
    """Rule letter -> its violation sentences, for the rules the run broke (in table order)."""
    view = history if isinstance(history, HistoryView) else HistoryView(history)
    records = _final(final)
    ks = _ks(view, records, steps)
    out = {}
    for rule in RULES:
        sentences = rule.judge(view, records, ks)
        if sentences:
            out[rule.letter] = sentences
    return out


def breaks_any(
    history: Iterable[Event] | HistoryView,
    final: Mapping[str, TaskRecord] | Iterable[TaskRecord],
    rules: Iterable[str],
    *,
    steps: int | None = None,
) -> bool:
    """Does the run break at least one of ``rules``? (Judges only those rules.)"""
    view = history if isinstance(history, HistoryView) else HistoryView(history)
    records = _final(final)
    ks = _ks(view, records, steps)
    return any(_BY_LETTER[letter].judge(view, records, ks) for letter in rules)


def first_violation(
    history: Iterable[Event] | HistoryView,
    final: Mapping[str, TaskRecord] | Iterable[TaskRecord],
    rules: Iterable[str],
    *,
    steps: int | None = None,
) -> tuple[int, str] | None:
    """``(index, letter)``: the first history event at which one of ``rules`` is broken, and
    the rule; None if none of them is broken. A rule judged on the final state counts as
    broken at the last event. Galloping, then binary search over prefixes: O(n log n)."""
    view = history if isinstance(history, HistoryView) else HistoryView(history)
    events = view.events
    records = _final(final)
    best: tuple[int, str] | None = None
    wanted = set(rules)
    for rule in RULES:  # table order, so a tie names the same rule whatever the set order
        if rule.letter not in wanted:
            continue
        letter = rule.letter
        ks = _ks(view, records, steps)
        if not rule.judge(view, records, ks):
            continue
        at = len(events) - 1
        if rule.on_prefix and _breaks(rule, events, at + 1, steps):
            lo, hi = 1, at + 1  # the shortest breaking prefix has length in [lo, hi]
            probe = 64  # gallop first: violations tend to come early, and short prefixes are cheap
            while probe < hi and not _breaks(rule, events, probe, steps):
                lo, probe = probe + 1, 2 * probe
            hi = min(hi, probe)
            while lo < hi:
                mid = (lo + hi) // 2
                if _breaks(rule, events, mid, steps):
                    hi = mid
                else:
                    lo = mid + 1
            at = lo - 1
        if best is None or at < best[0]:
            best = (at, letter)
    return best


def _breaks(rule: Rule, events: list[Event], n: int, steps: int | None) -> bool:
    """Does the prefix of length ``n`` break ``rule`` on its own (no final state)?"""
    view = HistoryView(events[:n])
    return bool(rule.judge(view, {}, _ks(view, {}, steps)))
