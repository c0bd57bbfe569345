"""Fault schedules: every fault of a run as plain data, saved as JSON and replayed byte for byte.

A :class:`Schedule` is a seed, a :class:`~simlab.sim.scenario.Scenario` and a list of *faults*. Each
fault is a small dict with a ``kind`` and the fields of that kind (:data:`FAULT_KINDS`, read from
the registry :mod:`simlab.sim.faults`; the list of kinds below is generated from it).

``step`` is the 0-based step being worked, as in the history's ``pause``/``crash``/``slow``
events; ``attempt`` counts how many times workers had started that step of that task before
(0: the first attempt). Faults strike only where the random nemesis could have drawn them: step
faults for steps that start before the fault horizon, duplicates for enqueues before it, cancels
and edits before it.

Entries are independent: removing any of them leaves a valid schedule, which is what
:func:`simlab.sim.shrink.shrink` relies on. :meth:`Schedule.from_dict` checks everything a
hand-edited file can get wrong (unknown kind, a task the scenario does not have, a negative
time...) and raises :class:`ScheduleError` with one line naming the entry.

The JSON form is ``{"seed": N, "ledger": NAME, "scenario": {...every Scenario field...},
"faults": [...]}``. ``ledger`` names the ledger the run was over (:func:`ledger_name`): one of
:data:`KIT_LEDGERS` (the kit's ledger of the scenario's variant, in memory or at a ``--db``
target), which ``simlab simulate --schedule`` replays, or ``module:qualname`` of the class of a
ledger of the caller's own, which only Python can build again (:func:`own_ledger`). It is
written only when it is not ``"kit"`` (the kit's ledger in memory), so a schedule saved before
it was recorded, or written by hand, reads as the kit's and writes as it always did.

The kinds, their fields and what happens:

"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from simlab.sim.fault_tables import docstring_table
from simlab.sim.faults import KINDS, NEEDS, check_field, describe
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
    "KIT_LEDGERS",
    "ledger_name",
    "own_ledger",
]

__doc__ += docstring_table()

#: Every fault kind and its fields, in the order they are written.
FAULT_KINDS: dict[str, tuple[str, ...]] = {k.name: k.fields for k in KINDS.values()}
#: Kinds that strike one attempt at one step of one task.
STEP_FAULTS = tuple(k.name for k in KINDS.values() if "step" in k.fields)
#: Kinds that stop a worker for a ``length`` of time.
PAUSES = tuple(k.name for k in KINDS.values() if k.is_pause)


#: ``Schedule.ledger`` of a run over the kit's ledger: in memory, or the SQLite file or the
#: PostgreSQL schema of ``--db``. The command line builds each of them again.
KIT_LEDGERS = ("kit", "kit-sqlite-file", "kit-postgresql")


def ledger_name(store: Any) -> str:
    """What ``Schedule.ledger`` calls ``store``: one of :data:`KIT_LEDGERS` when it is one of
    the kit's SQL ledgers (a variant wraps the kit's ledger), else ``module:qualname`` of its
    class (the caller's own ledger, a subclass of the kit's included)."""
    from simlab.ledger.core import SqlLedger

    target = getattr(store, "raw", store)
    kind = type(target)
    if isinstance(target, SqlLedger) and kind.__module__.startswith("simlab.ledger."):
        if kind.__module__.startswith("simlab.ledger.postgres"):
            return "kit-postgresql"
        return "kit" if getattr(target, "path", ":memory:") == ":memory:" else "kit-sqlite-file"
    kind = type(store)
    return f"{kind.__module__}:{kind.__qualname__}"


def own_ledger(name: str) -> bool:
    """Whether a schedule's ``ledger`` is the caller's own, which no command builds."""
    return name not in KIT_LEDGERS


class ScheduleError(ValueError):
    """A schedule that cannot be replayed; the message is one line naming the problem."""


def task_ids(tasks: int) -> list[str]:
    """The task IDs a run of ``tasks`` tasks submits: ``t0001``, ``t0002``..."""
    width = max(4, len(str(tasks)))
    return ["t" + str(i).zfill(width) for i in range(1, tasks + 1)]  # no format spec per ID


def fault_key(fault: dict[str, Any]) -> tuple:
    """What identifies where a fault strikes: two entries with one key cannot both apply."""
    kind = fault["kind"]
    return (kind, *(fault[name] for name in KINDS[kind].where))


#: A short phrase for one fault, e.g. ``pause of 4.5 before saving step 2 of t0010``.
describe_fault = describe


@dataclass(frozen=True)
class Schedule:
    """A replayable run: ``seed``, ``scenario`` and the ``faults`` (dicts, in the order they
    struck), and the ``ledger`` it was over (:func:`ledger_name`; ``"kit"`` when a file names
    none). Treat the dicts as read-only; :meth:`with_faults` makes a new schedule."""

    seed: int
    scenario: Scenario
    faults: tuple[dict[str, Any], ...] = ()
    ledger: str = "kit"

    def __len__(self) -> int:
        return len(self.faults)

    def with_faults(self, faults, scenario: Scenario | None = None) -> Schedule:
        """The same seed and ledger with other faults (and optionally another scenario),
        validated."""
        return Schedule.from_dict(
            {
                "seed": self.seed,
                **_ledger_dict(self.ledger),
                "scenario": _scenario_dict(scenario or self.scenario),
                "faults": [dict(f) for f in faults],
            }
        )

    def without(self, i: int) -> Schedule:
        """This schedule minus fault ``i``."""
        return self.with_faults(self.faults[:i] + self.faults[i + 1 :])

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready form: seed, ledger (unless ``"kit"``), every scenario field, the
        faults."""
        return {
            "seed": self.seed,
            **_ledger_dict(self.ledger),
            "scenario": _scenario_dict(self.scenario),
            "faults": [_ordered(f) for f in self.faults],
        }

    def to_json(self) -> str:
        """Pretty JSON, one fault per line."""
        d = self.to_dict()
        head = json.dumps({k: v for k, v in d.items() if k != "faults"}, indent=1)[:-2]
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
        """Validate ``{"seed", "ledger", "scenario", "faults"}`` and build the schedule.

        Missing scenario fields take their defaults, a missing ledger is ``"kit"``; unknown fields,
        kinds or fault fields, a ledger that is neither a kit's name nor ``module:qualname``,
        tasks or steps the scenario does not have, negative times and repeated entries raise
        :class:`ScheduleError`.
        """
        if not isinstance(data, dict):
            raise ScheduleError("expected a JSON object with seed, scenario and faults")
        extra = sorted(set(data) - {"seed", "ledger", "scenario", "faults"})
        if extra:
            raise ScheduleError(
                f"unknown key {extra[0]!r} (expected seed, ledger, scenario, faults)"
            )
        seed = data.get("seed")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ScheduleError(f"seed must be an integer, got {seed!r}")
        ledger = data.get("ledger", "kit")
        if not (ledger in KIT_LEDGERS or (isinstance(ledger, str) and _QUALIFIED.match(ledger))):
            raise ScheduleError(
                f"ledger must be one of {', '.join(KIT_LEDGERS)} or module:qualname of your "
                f"ledger's class, got {ledger!r}"
            )
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
        return cls(seed, scenario, tuple(checked), ledger)


#: ``module:qualname`` of a class (a class defined in a function has ``<locals>`` in its name).
_QUALIFIED = re.compile(r"[A-Za-z_][\w.]*:[A-Za-z_<][\w.<>]*\Z")


def _ledger_dict(ledger: str) -> dict[str, str]:
    return {} if ledger == "kit" else {"ledger": ledger}


#: Scenario fields added after the schedule format's first version: written only when set, so
#: a schedule that does not use them reads and writes as it always did.
LATER_FIELDS = {
    "max_attempts": None,
    "checkpoints": False,
    "pull": False,
    "retries": False,
    "releases": False,
    "lost_reply_rate": 0.0,
    "late": False,
    "late_call_rate": 0.0,
    "edge_claim_rate": 0.0,
}


def _scenario_dict(scenario: Scenario) -> dict[str, Any]:
    return {
        f.name: getattr(scenario, f.name)
        for f in fields(Scenario)
        if f.name not in LATER_FIELDS or getattr(scenario, f.name) != LATER_FIELDS[f.name]
    }


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
        try:
            out[name] = check_field(name, fault[name], scenario, ids)
        except ValueError as exc:
            raise ScheduleError(f"{where}: {exc}") from None
    for need in KINDS[kind].needs:
        if need in NEEDS and not NEEDS[need][0](scenario, out):
            raise ScheduleError(f"{where}: " + NEEDS[need][1].format(**out))
    return out
