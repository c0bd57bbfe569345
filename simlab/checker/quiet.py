"""When an accepted operation breaks none of its event rules, told at once: the common case.

Most accepted operations of a run keep every promise, and asking each event rule of
:data:`simlab.checker.rules.RULES` about them one at a time costs a call per rule. A *screen*
here answers for several rules of one operation together: ``screen(state, event, model)`` is
True only when each rule it covers (:data:`SCREENS`) would find nothing in that event, with the
task's state just before it. It is a sufficient condition, never a judge: where it is False (or
unsure) the rules themselves are asked, so it can leave out any case that is not plainly right
without changing what a run is found to break. The rules it does not cover are always asked.

Each screen reads the same state as the rules it covers (see their functions in
:mod:`simlab.checker.operations`): a change to one of those rules must keep its screen a
sufficient condition, which ``tests/checker/test_quiet.py`` checks on every accepted operation of
many runs, over correct and wrong ledgers.
"""

from __future__ import annotations

from collections.abc import Callable

from simlab.checker.history import Event
from simlab.checker.model import Model, TaskState
from simlab.records import QUEUED, RUNNING

__all__ = ["SCREENS"]


def quiet_save(s: TaskState, e: Event, m: Model) -> bool:
    """A save of a running task with its current epoch, of a step above every committed one
    and never committed, with no cancel standing: rules (a), (b), (c), (d) and (l) find
    nothing."""
    step, best = e.step, s.best
    return (
        e.epoch == s.epoch
        and s.status == RUNNING
        and s.cancel is None
        and step is not None
        and step not in s.committed
        and (best is None or step >= best.step)
    )


def _lease_as_asked(s: TaskState, e: Event, m: Model) -> bool:
    """The lease end a granted claim or an accepted heartbeat reports is a float between its
    invoke's time + ttl and its answer's time + ttl, or it is not judged (no ttl known, no end
    recorded): rule (q) finds nothing."""
    ttl, value = m.ttl, e.value
    if ttl is None or "lease_until" not in value:
        return True
    until = value["lease_until"]
    return until.__class__ is float and s.asked.get(e.process, e.time) + ttl <= until <= (
        e.time + ttl
    )


def quiet_claim(s: TaskState, e: Event, m: Model) -> bool:
    """A claim of a queued task (no live lease, not ended) with a higher epoch than it had,
    its lease naming its task and worker, resuming from its committed step (with its
    checkpoint), telling the attempt it is, within the limit, and ending as asked: rules
    (a'), (h), (k), (m), (t) and (q) find nothing."""
    if s.status != QUEUED:
        return False
    epoch, value = e.epoch, e.value
    if not (epoch is None or epoch > s.epoch or s.newest is None):
        return False
    if "lease_worker" in value or "lease_task" in value:
        return False
    if s.submitted:
        if not (e.step is None or e.step == s.step):
            return False
        if "checkpoint" in value and not value["checkpoint"] == s.checkpoint:
            return False
        told = value.get("attempts")
        if told is not None:
            first = s.attempts + 1
            if not (told.__class__ is int and first <= told <= first + s.unanswered):
                return False
    return (m.max_attempts is None or s.attempts < m.max_attempts) and _lease_as_asked(s, e, m)


def quiet_heartbeat(s: TaskState, e: Event, m: Model) -> bool:
    """A heartbeat of a running task with its current epoch, extending the lease as asked:
    rules (i), (l) and (q) find nothing."""
    return e.epoch == s.epoch and s.status == RUNNING and _lease_as_asked(s, e, m)


def quiet_submit(s: TaskState, e: Event, m: Model) -> bool:
    """The first accepted submit of a task that returned its ID: rule (v) finds nothing."""
    return s.submit is None and "returned" not in e.value


#: op -> (its screen, the letters of the rules on its accepted events that the screen answers
#: for).
SCREENS: dict[str, tuple[Callable[[TaskState, Event, Model], bool], frozenset[str]]] = {
    "save": (quiet_save, frozenset({"a", "b", "c", "d", "l"})),
    "claim": (quiet_claim, frozenset({"a'", "h", "k", "m", "t", "q"})),
    "heartbeat": (quiet_heartbeat, frozenset({"i", "l", "q"})),
    "submit": (quiet_submit, frozenset({"v"})),
}
