"""The fields of a fault schedule's entries: what each may hold, checked one by one.

A fault (:mod:`simlab.sim.faults`) is a small dict of fields: where it strikes (``task``,
``step``, ``attempt``, ``claim``, ``enqueue``, ``call``, ``nth``, ``at``, ``doc``) and what
it does (``fraction``, ``length``, ``factor``, ``delay``). :data:`FIELDS` checks each; the
fault kinds of the registry say which fields they have, and which of :data:`NEEDS` (what an
entry needs of its scenario) and :data:`RATE_NEEDS` (what a nonzero rate needs) apply.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import cache
from typing import Any

__all__ = ["FIELDS", "CALLS", "LATE_CALLS", "EFFECT_FIELDS", "NEEDS", "RATE_NEEDS", "check_field"]

#: A :class:`simlab.sim.scenario.Scenario` (not imported: the scenario reads the registry).
Scenario = Any

#: The calls whose answer a ``lost-reply`` fault drops, as its ``call`` field names them (the
#: history's op of each); a ``late-call`` fault holds one of :data:`LATE_CALLS`.
CALLS = ("submit", "heartbeat", "effect", "save", "release", "cancel")
#: The calls the network may hold until after their sender gave the task back (``late-call``):
#: a worker's e-mail record, heartbeat and save.
LATE_CALLS = ("effect", "heartbeat", "save")


@cache
def _documents() -> tuple[str, ...]:
    from simlab.agent.example import example_world

    return tuple(d.doc_id for d in example_world().documents())


def _task(value: Any, sc: Scenario, ids: set[str]) -> str:
    if not isinstance(value, str) or value not in ids:
        raise ValueError(f"no task {value!r} in a run of {sc.tasks} tasks")
    return value


def _call(value: Any, sc: Scenario, ids: set[str]) -> str:
    if value not in CALLS:
        raise ValueError(f"no call {value!r}; choose one of {', '.join(CALLS)}")
    return value


def _doc(value: Any, sc: Scenario, ids: set[str]) -> str:
    docs = _documents()
    if value not in docs:
        raise ValueError(f"no document {value!r}; choose one of {', '.join(docs)}")
    return value


def _count(name: str) -> Callable[[Any, Scenario, set[str]], int]:
    def check(value: Any, sc: Scenario, ids: set[str]) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"{name} must be an integer >= 0, got {value!r}")
        if name == "step" and value >= sc.steps:
            raise ValueError(f"step {value} does not exist (steps are 0 to {sc.steps - 1})")
        return value

    return check


def _number(name: str, ok: Callable[[float], bool], must: str):
    def check(value: Any, sc: Scenario, ids: set[str]) -> float:
        finite = isinstance(value, (int, float)) and not isinstance(value, bool)
        if not finite or not math.isfinite(value):
            raise ValueError(f"{name} must be a finite number, got {value!r}")
        if not ok(float(value)):
            raise ValueError(must.format(value=value))
        return float(value)

    return check


#: Every field a fault may have: ``check(value, scenario, task_ids)`` returns the value as a
#: schedule keeps it or raises ``ValueError`` with the reason. The fields before ``fraction``
#: say where a fault strikes (they identify it, see :func:`simlab.sim.schedule.fault_key`):
#: ``call`` and ``nth`` name the ``nth`` call (0: the first) of kind ``call`` of the task.
FIELDS: dict[str, Callable[[Any, Scenario, set[str]], Any]] = {
    "task": _task,
    "step": _count("step"),
    "attempt": _count("attempt"),
    "claim": _count("claim"),
    "enqueue": _count("enqueue"),
    "call": _call,
    "nth": _count("nth"),
    "at": _number("at", lambda x: x >= 0, "at is a time and must be >= 0, got {value!r}"),
    "doc": _doc,
    "fraction": _number(
        "fraction", lambda x: 0.0 <= x < 1.0, "fraction must be in [0, 1), got {value!r}"
    ),
    "length": _number(
        "length", lambda x: x >= 0, "length is a time and must be >= 0, got {value!r}"
    ),
    "factor": _number("factor", lambda x: x >= 1.0, "factor must be >= 1, got {value!r}"),
    "delay": _number("delay", lambda x: x >= 0, "delay is a time and must be >= 0, got {value!r}"),
}
#: The fields that say what a fault does rather than where it strikes.
EFFECT_FIELDS = ("fraction", "length", "factor", "delay")


def check_field(name: str, value: Any, scenario: Scenario, ids: set[str]) -> Any:
    """The value of field ``name`` as a schedule keeps it; ``ValueError`` says what is wrong."""
    return FIELDS[name](value, scenario, ids)


#: What a kind may need of the scenario (``FaultKind.needs``): ``email`` (its step sends an
#: e-mail), ``keys`` (idempotency keys), ``agent`` or ``opaque`` (the workload), or a mode
#: (``retries``, ``late``). A schedule entry is refused when ``email``, ``keys``, ``agent`` or
#: a mode is missing (the message below; ``late`` also holds only an e-mail record, a heartbeat
#: or a save);
#: a nonzero rate is refused when ``keys``, ``agent``, ``opaque`` or a mode is missing.
NEEDS: dict[str, tuple[Callable[[Scenario, dict[str, Any]], bool], str]] = {
    "email": (
        lambda sc, f: sc.sends_email(f["step"]),
        "step {step} sends no e-mail in this scenario",
    ),
    "keys": (
        lambda sc, f: sc.idempotency_keys,
        "without idempotency keys no e-mail key is recorded",
    ),
    "agent": (lambda sc, f: sc.workload == "agent", "document edits need workload 'agent'"),
    "retries": (
        lambda sc, f: sc.retries,
        "a lost reply needs callers that resend (retries)",
    ),
    "late": (
        lambda sc, f: sc.late and f["call"] in LATE_CALLS,
        "a late call needs workers that give a task back when a call times out (late), and is "
        "an e-mail record, a heartbeat or a save (call effect, heartbeat or save)",
    ),
}

#: What a scenario says when a rate is set without what its kind needs.
RATE_NEEDS: dict[str, tuple[Callable[[Scenario], bool], str]] = {
    "keys": (
        lambda sc: sc.idempotency_keys,
        "{rate} needs idempotency keys: without them nothing is recorded before the send",
    ),
    "agent": (
        lambda sc: sc.workload == "agent",
        "{rate} needs workload 'agent' (opaque tasks cite no documents)",
    ),
    "opaque": (
        lambda sc: sc.workload == "opaque",
        "{rate} needs workload 'opaque' (the agent sends through its resume guard)",
    ),
    "retries": (
        lambda sc: sc.retries,
        "{rate} needs callers that resend a call whose reply was lost (retries)",
    ),
    "late": (
        lambda sc: sc.late,
        "{rate} needs workers that give a task back when a call times out (late)",
    ),
}
