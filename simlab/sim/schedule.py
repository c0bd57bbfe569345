"""Fault schedules: every fault of a run as plain data, saved as JSON and replayed byte for byte.

A :class:`Schedule` is a seed, a :class:`~simlab.sim.scenario.Scenario` and a list of *faults*. Each
fault is a small dict with a ``kind`` and the fields of that kind (:data:`FAULT_KINDS`):

================ ===================================== =========================================
kind             fields                                what happens
================ ===================================== =========================================
``crash``        task, step, attempt, fraction         the worker dies ``fraction`` of the way
                                                       through the work of that step attempt
``effect-crash`` task, step, attempt                   the worker dies right after that step's
                                                       e-mail left, before its save
``record-crash`` task, step, attempt                   the worker dies right after
                                                       ``record_effect`` recorded that step's
                                                       e-mail key, before sending it (the
                                                       e-mail is lost)
``pause``        task, step, attempt, length           a stop-the-world pause of ``length`` time
                                                       units before the step's save
``work-pause``   task, step, attempt, length           a pause as the step's work begins (the
                                                       worker wakes and heartbeats)
``effect-pause`` task, step, attempt, length           a pause right before the step's e-mail
                                                       is recorded and sent
``send-pause``   task, step, attempt, length           a pause between recording the step's
                                                       e-mail key and sending it
``claim-pause``  task, claim, length                   a pause between the two statements of
                                                       the task's ``claim``-th claim (0: the
                                                       first; two-statement claims only)
``slow``         task, step, attempt, factor           the step's work takes ``factor`` x longer
``duplicate``    task, enqueue                         the broker enqueues a second copy the
                                                       ``enqueue``-th time it enqueues the task
                                                       (0: when it is published, then each
                                                       redelivery)
``cancel``       task, at                              a user cancels the task at time ``at``
``requeue``      task, at                              a user requeues the task at time ``at``
                                                       (the ledger accepts it only for a
                                                       cancelled task)
``doc-change``   at, doc                               agent workload: the editor publishes a
                                                       new version of document ``doc``
================ ===================================== =========================================

``step`` is the 0-based step being worked, as in the history's ``pause``/``crash``/``slow``
events; ``attempt`` counts how many times workers had started that step of that task before
(0: the first attempt). Faults strike only where the random nemesis could have drawn them: step
faults for steps that start before the fault horizon, duplicates for enqueues before it, cancels
and edits before it.

Entries are independent: removing any of them leaves a valid schedule, which is what
:func:`simlab.sim.shrink.shrink` relies on. :meth:`Schedule.from_dict` checks everything a
hand-edited file can get wrong (unknown kind, a task the scenario does not have, a negative
time...) and raises :class:`ScheduleError` with one line naming the entry.

The JSON form is ``{"seed": N, "scenario": {...every Scenario field...}, "faults": [...]}``.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, fields
from functools import cache
from pathlib import Path
from typing import Any

from simlab.sim.scenario import Scenario

__all__ = [
    "Schedule",
    "ScheduleError",
    "FAULT_KINDS",
    "STEP_FAULTS",
    "PAUSES",
    "task_ids",
    "fault_key",
    "describe_fault",
]

#: Every fault kind and its fields, in the order they are written.
FAULT_KINDS: dict[str, tuple[str, ...]] = {
    "crash": ("task", "step", "attempt", "fraction"),
    "effect-crash": ("task", "step", "attempt"),
    "record-crash": ("task", "step", "attempt"),
    "pause": ("task", "step", "attempt", "length"),
    "work-pause": ("task", "step", "attempt", "length"),
    "effect-pause": ("task", "step", "attempt", "length"),
    "send-pause": ("task", "step", "attempt", "length"),
    "claim-pause": ("task", "claim", "length"),
    "slow": ("task", "step", "attempt", "factor"),
    "duplicate": ("task", "enqueue"),
    "cancel": ("task", "at"),
    "requeue": ("task", "at"),
    "doc-change": ("at", "doc"),
}
#: Kinds that strike one attempt at one step of one task.
STEP_FAULTS = (
    "crash",
    "effect-crash",
    "record-crash",
    "pause",
    "work-pause",
    "effect-pause",
    "send-pause",
    "slow",
)
#: Kinds that stop a worker for a ``length`` of time.
PAUSES = ("pause", "work-pause", "effect-pause", "send-pause", "claim-pause")


class ScheduleError(ValueError):
    """A schedule that cannot be replayed; the message is one line naming the problem."""


def task_ids(tasks: int) -> list[str]:
    """The task IDs a run of ``tasks`` tasks submits: ``t0001``, ``t0002``..."""
    width = max(4, len(str(tasks)))
    return [f"t{i:0{width}d}" for i in range(1, tasks + 1)]


def fault_key(fault: dict[str, Any]) -> tuple:
    """What identifies where a fault strikes: two entries with one key cannot both apply."""
    kind = fault["kind"]
    if kind in STEP_FAULTS:
        return (kind, fault["task"], fault["step"], fault["attempt"])
    if kind == "duplicate":
        return (kind, fault["task"], fault["enqueue"])
    if kind == "claim-pause":
        return (kind, fault["task"], fault["claim"])
    if kind in ("cancel", "requeue"):
        return (kind, fault["task"], fault["at"])
    return (kind, fault["doc"], fault["at"])


def describe_fault(fault: dict[str, Any]) -> str:
    """A short phrase for one fault, e.g. ``pause of 4.5 before saving step 2 of t0010``."""
    kind, task = fault["kind"], fault.get("task")
    where = ""
    if kind in STEP_FAULTS:
        again = f", attempt {fault['attempt'] + 1}" if fault["attempt"] else ""
        where = f"step {fault['step'] + 1} of {task}{again}"
    if kind == "crash":
        return f"crash {round(100 * fault['fraction'])}% into the work of {where}"
    if kind == "effect-crash":
        return f"crash right after the e-mail of {where}, before its save"
    if kind == "record-crash":
        return f"crash right after recording the e-mail key of {where}, before sending it"
    if kind == "pause":
        return f"pause of {_num(fault['length'])} before saving {where}"
    if kind == "work-pause":
        return f"pause of {_num(fault['length'])} as the work of {where} begins"
    if kind == "effect-pause":
        return f"pause of {_num(fault['length'])} right before the e-mail of {where}"
    if kind == "send-pause":
        length = _num(fault["length"])
        return f"pause of {length} between recording and sending the e-mail of {where}"
    if kind == "claim-pause":
        which = "first claim" if fault["claim"] == 0 else f"claim {fault['claim'] + 1}"
        return f"pause of {_num(fault['length'])} between the statements of the {which} of {task}"
    if kind == "slow":
        return f"{where} runs {_num(fault['factor'])}x slower"
    if kind == "duplicate":
        which = "when published" if fault["enqueue"] == 0 else f"at redelivery {fault['enqueue']}"
        return f"duplicate delivery of {task} {which}"
    if kind == "cancel":
        return f"a user cancels {task} at t={_num(fault['at'])}"
    if kind == "requeue":
        return f"a user requeues {task} at t={_num(fault['at'])}"
    return f"the editor changes {fault['doc']} at t={_num(fault['at'])}"


def _num(x: float) -> str:
    return f"{round(float(x), 3):g}"


@dataclass(frozen=True)
class Schedule:
    """A replayable run: ``seed``, ``scenario`` and the ``faults`` (dicts, in the order they
    struck). Treat the dicts as read-only; :meth:`with_faults` makes a new schedule."""

    seed: int
    scenario: Scenario
    faults: tuple[dict[str, Any], ...] = ()

    def __len__(self) -> int:
        return len(self.faults)

    def with_faults(self, faults, scenario: Scenario | None = None) -> Schedule:
        """The same seed with other faults (and optionally another scenario), validated."""
        return Schedule.from_dict(
            {
                "seed": self.seed,
                "scenario": _scenario_dict(scenario or self.scenario),
                "faults": [dict(f) for f in faults],
            }
        )

    def without(self, i: int) -> Schedule:
        """This schedule minus fault ``i``."""
        return self.with_faults(self.faults[:i] + self.faults[i + 1 :])

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready form: seed, every scenario field, the faults."""
        return {
            "seed": self.seed,
            "scenario": _scenario_dict(self.scenario),
            "faults": [_ordered(f) for f in self.faults],
        }

    def to_json(self) -> str:
        """Pretty JSON, one fault per line."""
        d = self.to_dict()
        head = json.dumps({"seed": d["seed"], "scenario": d["scenario"]}, indent=1)[:-2]
        rows = ",\n".join("  " + json.dumps(f) for f in d["faults"])
        body = f"[\n{rows}\n ]" if rows else "[]"
        return f'{head},\n "faults": {body}\n}}\n'

    def save(self, path: str | Path) -> Path:
        """Write :meth:`to_json` to ``path``; return the path."""
        p = Path(path)
        p.write_text(self.to_json())
        return p

    @classmethod
    def loads(cls, text: str, *, source: str = "schedule") -> Schedule:
        """Parse and validate JSON text; :class:`ScheduleError` names ``source`` and the fault."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ScheduleError(f"{source}: not JSON ({exc.msg}, line {exc.lineno})") from None
        try:
            return cls.from_dict(data)
        except ScheduleError as exc:
            raise ScheduleError(f"{source}: {exc}") from None

    @classmethod
    def load(cls, path: str | Path) -> Schedule:
        """Read a schedule file; a missing or malformed file raises :class:`ScheduleError`."""
        p = Path(path)
        try:
            text = p.read_text()
        except FileNotFoundError:
            raise ScheduleError(f"{path}: no such file") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise ScheduleError(f"{path}: cannot read it ({type(exc).__name__})") from None
        return cls.loads(text, source=str(path))

    @classmethod
    def from_dict(cls, data: Any) -> Schedule:
        """Validate ``{"seed", "scenario", "faults"}`` and build the schedule.

        Missing scenario fields take their defaults; unknown fields, kinds or fault fields,
        tasks or steps the scenario does not have, negative times and repeated entries raise
        :class:`ScheduleError`.
        """
        if not isinstance(data, dict):
            raise ScheduleError("expected a JSON object with seed, scenario and faults")
        extra = sorted(set(data) - {"seed", "scenario", "faults"})
        if extra:
            raise ScheduleError(f"unknown key {extra[0]!r} (expected seed, scenario, faults)")
        seed = data.get("seed")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ScheduleError(f"seed must be an integer, got {seed!r}")
        scenario = _scenario(data.get("scenario", {}))
        faults = data.get("faults", [])
        if not isinstance(faults, list):
            raise ScheduleError("faults must be a list")
        ids = set(task_ids(scenario.tasks))
        seen: dict[tuple, int] = {}
        checked = []
        for i, fault in enumerate(faults, start=1):
            f = _fault(fault, i, scenario, ids)
            key = fault_key(f)
            if key in seen:
                raise ScheduleError(f"fault {i} repeats fault {seen[key]} ({describe_fault(f)})")
            seen[key] = i
            checked.append(f)
        return cls(seed, scenario, tuple(checked))


def _scenario_dict(scenario: Scenario) -> dict[str, Any]:
    return {f.name: getattr(scenario, f.name) for f in fields(Scenario)}


def _ordered(fault: dict[str, Any]) -> dict[str, Any]:
    return {"kind": fault["kind"], **{k: fault[k] for k in FAULT_KINDS[fault["kind"]]}}


def _scenario(data: Any) -> Scenario:
    if not isinstance(data, dict):
        raise ScheduleError("scenario must be a JSON object of Scenario fields")
    names = {f.name for f in fields(Scenario)}
    unknown = sorted(set(data) - names)
    if unknown:
        raise ScheduleError(f"scenario: unknown field {unknown[0]!r}")
    try:
        return Scenario(**data).validate()
    except (TypeError, ValueError) as exc:
        raise ScheduleError(f"scenario: {exc}") from None


def _fault(fault: Any, i: int, scenario: Scenario, ids: set[str]) -> dict[str, Any]:
    """One validated fault entry (a fresh dict in canonical field order)."""
    if not isinstance(fault, dict):
        raise ScheduleError(f"fault {i}: expected an object with a kind, got {fault!r}")
    kind = fault.get("kind")
    if kind not in FAULT_KINDS:
        raise ScheduleError(
            f"fault {i}: unknown kind {kind!r}; choose one of {', '.join(FAULT_KINDS)}"
        )
    wanted = FAULT_KINDS[kind]
    extra = sorted(set(fault) - {"kind", *wanted})
    if extra:
        raise ScheduleError(f"fault {i} ({kind}): unknown field {extra[0]!r}")
    missing = [k for k in wanted if k not in fault]
    if missing:
        raise ScheduleError(f"fault {i} ({kind}): missing field {missing[0]!r}")
    where = f"fault {i} ({kind})"
    out: dict[str, Any] = {"kind": kind}
    for name in wanted:
        out[name] = _field(where, name, fault[name], scenario, ids)
    emails = ("effect-crash", "record-crash", "effect-pause", "send-pause")
    if kind in emails and not scenario.sends_email(out["step"]):
        raise ScheduleError(f"{where}: step {out['step']} sends no e-mail in this scenario")
    if kind in ("record-crash", "send-pause") and not scenario.idempotency_keys:
        raise ScheduleError(f"{where}: without idempotency keys no e-mail key is recorded")
    if kind == "doc-change" and scenario.workload != "agent":
        raise ScheduleError(f"{where}: document edits need workload 'agent'")
    return out


@cache
def _documents() -> tuple[str, ...]:
    from simlab.agent.example import example_world

    return tuple(d.doc_id for d in example_world().documents())


def _field(where: str, name: str, value: Any, scenario: Scenario, ids: set[str]) -> Any:
    if name == "task":
        if not isinstance(value, str) or value not in ids:
            n = scenario.tasks
            raise ScheduleError(f"{where}: no task {value!r} in a run of {n} tasks")
        return value
    if name == "doc":
        docs = _documents()
        if value not in docs:
            raise ScheduleError(f"{where}: no document {value!r}; choose one of {', '.join(docs)}")
        return value
    if name in ("step", "attempt", "enqueue", "claim"):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ScheduleError(f"{where}: {name} must be an integer >= 0, got {value!r}")
        if name == "step" and value >= scenario.steps:
            raise ScheduleError(
                f"{where}: step {value} does not exist (steps are 0 to {scenario.steps - 1})"
            )
        return value
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ScheduleError(f"{where}: {name} must be a finite number, got {value!r}")
    number = float(value)
    if name == "fraction" and not 0.0 <= number < 1.0:
        raise ScheduleError(f"{where}: fraction must be in [0, 1), got {value!r}")
    if name == "factor" and number < 1.0:
        raise ScheduleError(f"{where}: factor must be >= 1, got {value!r}")
    if name in ("length", "at") and number < 0:
        raise ScheduleError(f"{where}: {name} is a time and must be >= 0, got {value!r}")
    return number
