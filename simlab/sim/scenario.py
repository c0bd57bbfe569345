"""What a simulation run is made of: the :class:`Scenario` dataclass and its validation.

A scenario is plain data. Every field has a default, so ``Scenario()`` is a small run with every
fault switched on at a modest rate, and ``Scenario(crash_rate=0, ...)`` switches one off. Time is
in abstract *time units* (think seconds); all durations below use them.

Rates are probabilities in ``[0, 1]``, one per fault kind of the registry
(:mod:`simlab.sim.faults`), each drawn from its own random stream; the list below is generated
from it. ``doc_change_rate`` is not a probability but a Poisson rate (edits per time unit): with
``workload="agent"`` an editor publishes new document versions under running and paused tasks.
``recheck_gap`` (agent workload, default 0) is the time between the resume guard's last re-check
and the send: at 0 they happen at the same simulated instant, and no edit can fall between them.

:meth:`Scenario.validate` raises :class:`~simlab.errors.SettingError` (a ``ValueError``) with a
one-line message naming the bad field (the command line names its flag instead); the simulator
and the command line call it before running anything.

The fault rates (field, default, what it is drawn for, what strikes):

"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields, replace
from typing import Any

from simlab.errors import SettingError
from simlab.sim.fault_fields import RATE_NEEDS
from simlab.sim.faults import DOC_CHANGE, KINDS, LATE_CALL, LOST_REPLY, FaultKind

__all__ = [
    "Scenario",
    "VARIANTS",
    "EFFECTS",
    "WORKLOADS",
    "AGENT_STEPS",
    "RATE_FIELDS",
    "RATE_FAULTS",
    "ADVERSARIAL",
    "MODE_NEEDS",
]

#: Teaching variants of the ledger the workers see (see :mod:`simlab.sim.variants`).
VARIANTS = ("fenced", "unfenced", "racy-claim")
#: Which steps send an e-mail through ``record_effect``.
EFFECTS = ("last", "all", "none")
#: What a task does: ``opaque`` steps are timed work with no content; ``agent`` steps are the
#: deterministic agent of :mod:`simlab.agent` (retrieve, draft, send) resumed from checkpoints.
WORKLOADS = ("opaque", "agent")
#: The agent graph's steps (retrieve, draft, send): ``workload="agent"`` needs ``steps == 3``.
AGENT_STEPS = 3
#: The kinds whose rate is a probability in [0, 1], drawn per strike point.
_RATE_KINDS: tuple[FaultKind, ...] = tuple(k for k in KINDS.values() if not k.poisson)
#: Fault rates: probabilities in [0, 1], each with its own random stream.
RATE_FIELDS = tuple(k.rate for k in _RATE_KINDS)
#: The fault each rate draws, as flags and sweeps name it (``work_pause_rate`` -> ``work-pause``).
RATE_FAULTS = tuple(k.name for k in _RATE_KINDS)

__doc__ += "".join(
    f"* ``{k.rate}`` ({k.default_rate:g}): {k.per}, {k.does}.\n" for k in KINDS.values()
)

#: The needs of a fault kind that are modes of a scenario, off by default (a ``Scenario`` field
#: of the same name): such a kind strikes only where a scenario asks for its mode, so the
#: all-faults preset turns it on, at its ``adversarial`` rate, only with that mode.
MODE_NEEDS = ("retries", "late")


def _moded(kind: FaultKind) -> bool:
    return any(need in MODE_NEEDS for need in kind.needs)


#: What :meth:`Scenario.adversarial` changes: every fault kind on (but those that need a mode:
#: :data:`MODE_NEEDS`), at rates that exercise each promise of the ledger in most runs, and a
#: broker that redelivers before a silent lease ends.
ADVERSARIAL: dict[str, Any] = {
    "tasks": 60,
    "workers": 6,
    "effects": "all",
    **{
        k.rate: k.adversarial for k in KINDS.values() if k.adversarial is not None and not _moded(k)
    },
    "cancel_mean": 12.0,
    "visibility_timeout": 2.5,
    # A correct ledger is done within about 40 time units of the horizon; a ledger that never
    # lets a task finish would otherwise keep redelivering it until the default, far later, cap.
    "time_cap": 400.0,
}


def _f(default: Any, help: str) -> Any:
    return field(default=default, metadata={"help": help})


@dataclass(frozen=True)
class Scenario:
    """One simulated system: tasks, workers, ledger variant and fault rates.

    Defaults: 100 tasks of 3 steps arrive as a Poisson stream (one every 2 time units) at 4
    workers whose steps take 1 time unit on average (exponential), so the workers are busy about
    40% of the time and duplicate deliveries often reach two idle workers at once. Leases last
    ``ttl`` = 3 and workers heartbeat every ``ttl / 3``, so a step usually needs one heartbeat.
    """

    tasks: int = _f(100, "number of tasks submitted")
    workers: int = _f(4, "number of worker processes")
    steps: int = _f(3, "steps per task (K); each step is committed with a fenced save")
    ttl: float = _f(3.0, "lease time-to-live; workers heartbeat every ttl/3")
    arrival_rate: float = _f(0.5, "Poisson arrival rate of tasks (tasks per time unit)")
    step_time: float = _f(1.0, "mean service time of one step (exponential)")
    # One probability per fault kind, generated from the registry in its order (so a new kind
    # needs no line here): ``crash_rate``, ``effect_crash_rate``... (see RATE_FIELDS).
    for _kind in _RATE_KINDS:
        __annotations__[_kind.rate] = "float"
        locals()[_kind.rate] = _f(_kind.default_rate, _kind.help)
    del _kind
    cancel_mean: float | None = _f(
        None,
        "mean time from a task's arrival to its cancel, exponential (default steps x "
        "step_time); a requeue comes twice that on average after the task's cancel (or "
        "its arrival, when no cancel strikes it)",
    )
    variant: str = _f("fenced", "ledger variant: " + ", ".join(VARIANTS))
    effects: str = _f("last", "steps that send an e-mail: " + ", ".join(EFFECTS))
    idempotency_keys: bool = _f(
        True,
        "ask the idempotency ledger (record_effect) before each e-mail; without "
        "(--no-idempotency-keys), workers just send, and a redelivered step sends its e-mail "
        "again",
    )
    slow_factor: float = _f(4.0, "how many times longer a slow step takes")
    pause_time: float = _f(
        2.0, "mean pause length in ttl units (uniform on [0.5, 2*pause_time-0.5] x ttl)"
    )
    pause_mean: float | None = _f(
        None,
        "if set, pauses last an absolute time, exponential with this mean, instead of "
        "pause_time x ttl: a longer ttl then outlasts more of them (for choosing a ttl)",
    )
    restart_delay: float = _f(2.0, "mean time a crashed worker takes to restart (exponential)")
    visibility_timeout: float | None = _f(
        None,
        "broker redelivers an unacknowledged task after this long without a heartbeat "
        "(default 1.25 x ttl)",
    )
    round_trip: float = _f(
        0.05, "racy-claim only: time between the chapter claim's UPDATE and its SELECT"
    )
    fault_horizon: float | None = _f(
        None, "faults stop at this time (default: tasks / arrival_rate, the arrival span)"
    )
    time_cap: float | None = _f(
        None, "stop the run here even if tasks are unfinished (default: generous)"
    )
    workload: str = _f(
        "opaque",
        "what a task does: " + ", ".join(WORKLOADS) + " (agent: retrieve, draft and "
        "send an e-mail through checkpoints and the resume guard; needs steps 3)",
    )
    doc_change_rate: float = _f(DOC_CHANGE.default_rate, DOC_CHANGE.help)
    recheck_gap: float = _f(
        0.0,
        "agent workload: time between the resume guard's re-check and the send (a document "
        "edited in between is cited outdated)",
    )
    max_attempts: int | None = _f(
        None,
        "claims of one task before the ledger moves it to the dead letter instead of granting "
        "another (default: no limit); a requeue gives it fresh attempts",
    )
    checkpoints: bool = _f(
        False,
        "opaque workload: each save carries a checkpoint naming its step, worker and epoch (the "
        "completing save None) and each save before the last a partial result, and each granted "
        "claim records the checkpoint its lease hands back, which must be the last accepted "
        "save's",
    )
    pull: bool = _f(
        False,
        "a delivered message only wakes a worker, which takes the oldest claimable task with "
        "claim_next instead of claiming the task the message names; the client also submits "
        "one health probe, which claim_next must never hand out",
    )
    retries: bool = _f(
        False,
        f"callers resend a call whose reply was lost (fault kind {LOST_REPLY.name}, "
        f"{LOST_REPLY.rate}): a user resends a submit or a cancel, a worker's heartbeat helper a "
        "heartbeat, a worker an e-mail record, a save or a release, each after reply_timeout",
    )
    releases: bool = _f(
        False,
        "a worker that wakes from a pause before its save after its lease's end releases the "
        "task (release) instead of saving the step, and leaves it",
    )
    late: bool = _f(
        False,
        f"the network may hold a worker's e-mail record, heartbeat or save (fault kind "
        f"{LATE_CALL.name}, "
        f"{LATE_CALL.rate}): after reply_timeout without an answer the worker gives the task "
        "back (release) and leaves it, and the held call reaches the ledger later",
    )

    # ------------------------------------------------------------------ derived values
    @property
    def heartbeat_every(self) -> float:
        """Workers renew their lease this often while they work."""
        return self.ttl / 3.0

    @property
    def reply_timeout(self) -> float:
        """How long a caller waits for a reply before it resends the call (``retries``), or
        gives its task back (``late``): half the heartbeat interval."""
        return self.ttl / 6.0

    @property
    def cancel_after(self) -> float:
        """Mean time from a task's arrival to a user's cancel of it."""
        return self.steps * self.step_time if self.cancel_mean is None else self.cancel_mean

    @property
    def redelivery_after(self) -> float:
        """The broker's visibility timeout."""
        return 1.25 * self.ttl if self.visibility_timeout is None else self.visibility_timeout

    @property
    def horizon(self) -> float:
        """Time at which fault injection stops (a ``faults-off`` event is recorded there)."""
        if self.fault_horizon is not None:
            return self.fault_horizon
        return self.tasks / self.arrival_rate

    @property
    def cap(self) -> float:
        """Simulated time after which the run stops even with unfinished tasks."""
        if self.time_cap is not None:
            return self.time_cap
        work = self.tasks * self.steps * self.step_time * self.slow_factor / self.workers
        return self.horizon + 10.0 * work + 100.0 * self.ttl + 1000.0 * self.step_time

    @classmethod
    def adversarial(cls, **changes: Any) -> Scenario:
        """Every fault kind on (:data:`ADVERSARIAL`): the run that checks a ledger against every
        promise of the protocol. ``changes`` override fields, as in :meth:`with_`; a kind that
        needs a mode (:data:`MODE_NEEDS`) is on at its ``adversarial`` rate when ``changes``
        turn that mode on (``retries=True``) and set no rate of its own."""
        preset = {**ADVERSARIAL, **changes}
        for k in KINDS.values():
            modes = [need for need in k.needs if need in MODE_NEEDS]
            if modes and k.adversarial is not None and k.rate not in changes:
                if all(preset.get(mode) for mode in modes):
                    preset[k.rate] = k.adversarial
        return cls(**preset).validate()

    def with_(self, **changes: Any) -> Scenario:
        """A copy with some fields changed (validated)."""
        return replace(self, **changes).validate()

    # ------------------------------------------------------------------ validation
    def validate(self) -> Scenario:
        """Return ``self`` if every field makes sense, else raise ``ValueError`` naming it."""
        for name in ("tasks", "workers", "steps"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int):
                raise SettingError("{name} must be an integer, got {v!r}", {"name": name}, v=v)
        if self.tasks < 0:
            raise SettingError("{tasks} must be >= 0, got {v}", ["tasks"], v=self.tasks)
        if self.workers < 1:
            raise SettingError("{workers} must be >= 1, got {v}", ["workers"], v=self.workers)
        if self.steps < 1:
            raise SettingError("{steps} must be >= 1, got {v}", ["steps"], v=self.steps)
        m = self.max_attempts
        if m is not None and (isinstance(m, bool) or not isinstance(m, int) or m < 1):
            raise SettingError(
                "{max_attempts} must be a whole number >= 1 or None, got {m!r}",
                ["max_attempts"],
                m=m,
            )
        for name in RATE_FIELDS:
            v = _number(self, name)
            if not 0.0 <= v <= 1.0:
                raise SettingError(
                    "{name} must be a probability in [0, 1], got {v}", {"name": name}, v=v
                )
        for name in ("ttl", "arrival_rate", "step_time", "slow_factor", "pause_time"):
            if not _number(self, name) > 0:
                raise SettingError(
                    "{name} must be > 0, got {v}", {"name": name}, v=getattr(self, name)
                )
        if self.slow_factor < 1:
            raise SettingError(
                "{slow_factor} must be >= 1, got {v}", ["slow_factor"], v=self.slow_factor
            )
        if self.pause_time < 0.5:
            raise SettingError(
                "{pause_time} must be >= 0.5 (ttl units), got {v}",
                ["pause_time"],
                v=self.pause_time,
            )
        for name in ("restart_delay", "round_trip"):
            if not _number(self, name) >= 0:
                raise SettingError(
                    "{name} must be >= 0, got {v}", {"name": name}, v=getattr(self, name)
                )
        for name in (
            "pause_mean",
            "cancel_mean",
            "visibility_timeout",
            "fault_horizon",
            "time_cap",
        ):
            if getattr(self, name) is not None and not _number(self, name) > 0:
                raise SettingError(
                    "{name} must be > 0, got {v}", {"name": name}, v=getattr(self, name)
                )
        if self.time_cap is not None and self.time_cap <= self.horizon:
            raise SettingError(
                "{time_cap} ({cap}) must be later than the fault horizon ({horizon}), or "
                "liveness cannot be judged",
                ["time_cap"],
                cap=self.time_cap,
                horizon=self.horizon,
            )
        if self.variant not in VARIANTS:
            raise SettingError(
                "unknown {variant} {v!r}; choose one of {known}",
                ["variant"],
                v=self.variant,
                known=", ".join(VARIANTS),
            )
        if self.effects not in EFFECTS:
            raise SettingError(
                "unknown {effects} {v!r}; choose one of {known}",
                ["effects"],
                v=self.effects,
                known=", ".join(EFFECTS),
            )
        for name in ("idempotency_keys", "checkpoints", "pull", "retries", "releases", "late"):
            if not isinstance(getattr(self, name), bool):
                v = getattr(self, name)
                raise SettingError("{name} must be True or False, got {v!r}", {"name": name}, v=v)
        self._validate_modes()
        self._validate_workload()
        return self

    def _validate_modes(self) -> None:
        """The modes that need the fenced variant or the opaque workload, or no limit on
        attempts (see :meth:`validate`)."""
        if self.checkpoints and self.workload != "opaque":
            raise SettingError(
                "{checkpoints} needs {workload} 'opaque' (the agent saves its own)",
                ["checkpoints", "workload"],
            )
        for name in ("pull", "retries", "releases", "late"):
            if getattr(self, name) and (self.variant != "fenced" or self.workload != "opaque"):
                raise SettingError(
                    "{name} needs {variant} 'fenced' and {workload} 'opaque'",
                    {"name": name, "variant": "variant", "workload": "workload"},
                )
        if self.pull and self.max_attempts is not None:
            # claim_next moves a task past its limit to the dead letter on the way, unseen:
            # no history would show which claim did it
            raise SettingError(
                "{pull} needs no limit on attempts: leave {max_attempts} unset",
                ["pull", "max_attempts"],
            )

    def _validate_workload(self) -> None:
        """The fields that only make sense with one workload (see :meth:`validate`)."""
        if self.workload == "agent" and not self.idempotency_keys:
            raise SettingError(
                "{workload} 'agent' always sends through the idempotency ledger "
                "({idempotency_keys} cannot be off)",
                ["workload", "idempotency_keys"],
            )
        if self.workload not in WORKLOADS:
            raise SettingError(
                "unknown {workload} {v!r}; choose one of {known}",
                ["workload"],
                v=self.workload,
                known=", ".join(WORKLOADS),
            )
        if not _number(self, "doc_change_rate") >= 0:
            raise SettingError(
                "{doc_change_rate} must be >= 0, got {v}",
                ["doc_change_rate"],
                v=self.doc_change_rate,
            )
        if self.workload == "agent":
            if self.steps != AGENT_STEPS:
                raise SettingError(
                    "{workload} 'agent' runs the {n} steps of its graph (retrieve, draft, "
                    "send): {steps} must be {n}, got {v}",
                    ["workload", "steps"],
                    n=AGENT_STEPS,
                    v=self.steps,
                )
            if self.effects != "last":
                raise SettingError(
                    "{workload} 'agent' sends its e-mail in its last step: {effects} must be "
                    "'last', got {v!r}",
                    ["workload", "effects"],
                    v=self.effects,
                )
        self._rates_need("agent")
        if not _number(self, "recheck_gap") >= 0:
            raise SettingError(
                "{recheck_gap} must be >= 0, got {v}", ["recheck_gap"], v=self.recheck_gap
            )
        if self.recheck_gap and self.workload != "agent":
            raise SettingError(
                "{recheck_gap} needs {workload} 'agent' (opaque tasks re-check nothing)",
                ["recheck_gap", "workload"],
            )
        self._rates_need("opaque")
        self._rates_need("keys")
        self._rates_need("retries")
        self._rates_need("late")

    def _rates_need(self, need: str) -> None:
        """Refuse a nonzero rate of a kind that needs ``need`` (:data:`RATE_NEEDS`) here."""
        holds, message = RATE_NEEDS[need]
        for kind in KINDS.values():
            if need in kind.needs and getattr(self, kind.rate) and not holds(self):
                raise SettingError(message, {"rate": kind.rate})

    # ------------------------------------------------------------------ helpers
    def non_defaults(self) -> dict[str, Any]:
        """Fields whose value differs from the default, in declaration order."""
        return {
            f.name: getattr(self, f.name)
            for f in fields(self)
            if getattr(self, f.name) != f.default
        }

    def sends_email(self, step: int) -> bool:
        """Does step ``step`` (0-based) perform the external side effect?"""
        if self.effects == "all":
            return True
        if self.effects == "last":
            return step == self.steps - 1
        return False


def _number(s: Scenario, name: str) -> float:
    v = getattr(s, name)
    if isinstance(v, bool) or not isinstance(v, (int, float)) or math.isnan(v):
        raise SettingError("{name} must be a number, got {v!r}", {"name": name}, v=v)
    if math.isinf(v):
        raise SettingError("{name} must be finite, got {v}", {"name": name}, v=v)
    return float(v)
