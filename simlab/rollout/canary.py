"""A canary rollout's configuration, result and report; the rollout itself is simulated by
:func:`simlab.sim.canary.run_canary` (the story of one run is told there).

The decision rules live in :mod:`simlab.rollout.slices` (like-for-like slices, promote, hold or
roll back) and :mod:`simlab.rollout.breaker` (the circuit breaker).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from simlab.rollout.breaker import Breaker, BreakerSample, Trip
from simlab.rollout.slices import DECISIONS, SliceComparison, compare_slices, decide
from simlab.rollout.traffic import KINDS, TIERS, RequestRecord, serve
from simlab.rollout.versions import parse_version

__all__ = [
    "CanaryConfig",
    "Tenant",
    "CanaryResult",
    "canary_replay_command",
    "format_canary",
    "STREAMS",
    # re-exported from the modules the canary is built from
    "Breaker",
    "BreakerSample",
    "Trip",
    "RequestRecord",
    "serve",
    "SliceComparison",
    "compare_slices",
    "decide",
    "TIERS",
    "KINDS",
    "DECISIONS",
]

#: Independent random streams of a run, one per source of randomness.
STREAMS = ("tenants", "arrival", "tenant", "kind", "outage", "mail", "injection", "latency")


@dataclass(frozen=True)
class CanaryConfig:
    """Everything a canary run depends on (with its seed). See the module doc."""

    baseline: str = "A"
    candidate: str = "B"
    tenants: int = 40
    share: float = 0.10
    duration: float = 3600.0
    arrival_rate: float = 2.0
    #: share of tenants per risk tier, and per-tier fault rates
    tier_mix: tuple[float, float, float] = (0.5, 0.3, 0.2)
    outage_rate: tuple[float, float, float] = (0.005, 0.06, 0.20)
    mail_timeout_rate: float = 0.08
    injection_rate: float = 0.03
    kind_mix: tuple[float, float, float] = (0.5, 0.3, 0.2)
    #: the breaker
    max_error_rate: float = 0.04
    max_cost: float = 150.0
    window: float = 600.0
    min_requests: int = 40
    cooldown: float = 300.0
    max_trips: int = 3
    #: candidate requests admitted while half-open; their outcome closes or re-opens it
    probe_requests: int = 5
    human_delay: float = 900.0
    #: the decision
    min_slice: int = 30
    error_margin: float = 0.02
    cost_margin: float = 0.10

    def validate(self) -> CanaryConfig:
        """Return self, or raise ``ValueError`` naming the first bad field."""
        parse_version(self.baseline)
        parse_version(self.candidate)
        checks = [
            ("tenants", self.tenants >= 2, "at least 2"),
            ("share", 0 < self.share < 1, "in (0, 1)"),
            ("duration", self.duration > 0, "positive"),
            ("arrival_rate", self.arrival_rate > 0, "positive"),
            ("max_error_rate", 0 < self.max_error_rate <= 1, "in (0, 1]"),
            ("max_cost", self.max_cost > 0, "positive"),
            ("window", self.window > 0, "positive"),
            ("min_requests", self.min_requests >= 1, "at least 1"),
            ("cooldown", self.cooldown > 0, "positive"),
            ("max_trips", self.max_trips >= 1, "at least 1"),
            ("probe_requests", self.probe_requests >= 1, "at least 1"),
            ("human_delay", self.human_delay >= 0, "zero or more"),
            ("min_slice", self.min_slice >= 1, "at least 1"),
            ("error_margin", 0 <= self.error_margin < 1, "in [0, 1)"),
            ("cost_margin", self.cost_margin >= 0, "zero or more"),
            ("mail_timeout_rate", 0 <= self.mail_timeout_rate <= 1, "in [0, 1]"),
            ("injection_rate", 0 <= self.injection_rate <= 1, "in [0, 1]"),
        ]
        for name, ok, want in checks:
            value = getattr(self, name)
            if not ok or (isinstance(value, float) and math.isnan(value)):
                raise ValueError(f"{name} must be {want}, got {value!r}")
        for name in ("tier_mix", "outage_rate", "kind_mix"):
            values = getattr(self, name)
            if len(values) != 3 or any(not 0 <= v <= 1 for v in values):
                raise ValueError(f"{name} must be three numbers in [0, 1], got {values!r}")
        # baseline == candidate is allowed: an A/A canary shows the noise a breaker must bear.
        return self


@dataclass(frozen=True)
class Tenant:
    name: str
    tier: str
    weight: float
    canary: bool


# -- the simulation --------------------------------------------------------------------------


@dataclass
class CanaryResult:
    """What a canary run produced. ``raw`` holds the misleading totals (all baseline traffic
    against all canary traffic), kept to show why slices are compared instead; ``changes``
    the breaker's changes of state, ``(t, state)`` in time order."""

    config: CanaryConfig
    seed: int
    tenants: list[Tenant]
    requests: list[RequestRecord]
    trips: list[Trip]
    samples: list[BreakerSample]
    slices: list[SliceComparison]
    decision: str
    evidence: list[str]
    raw: dict[str, float] = field(default_factory=dict)
    changes: list[tuple[float, str]] = field(default_factory=list)

    @property
    def replay(self) -> str:
        return canary_replay_command(self.config, self.seed)

    @property
    def canary_share(self) -> float:
        """The traffic weight the canary tenants carry."""
        total = sum(t.weight for t in self.tenants)
        return sum(t.weight for t in self.tenants if t.canary) / total

    def to_dict(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "baseline": self.config.baseline,
            "candidate": self.config.candidate,
            "decision": self.decision,
            "evidence": self.evidence,
            "canary_share": self.canary_share,
            "canary_tenants": [t.name for t in self.tenants if t.canary],
            "requests": len(self.requests),
            "routes": {
                r: sum(1 for q in self.requests if q.route == r)
                for r in ("baseline", "canary", "fallback")
            },
            "trips": [asdict(t) for t in self.trips],
            "slices": [{**asdict(s), "name": s.name} for s in self.slices],
            "raw": self.raw,
            "replay": self.replay,
        }


_FLAGS = (
    "baseline",
    "candidate",
    "tenants",
    "share",
    "duration",
    "arrival_rate",
    "max_error_rate",
    "max_cost",
    "window",
    "min_requests",
    "probe_requests",
)


def canary_replay_command(config: CanaryConfig, seed: int) -> str:
    """The ``simlab canary`` command that replays this run (non-default flags only).

    Fields without a flag that differ from the default are named after a ``#``: replay those
    from Python, ``run_canary(CanaryConfig(...), seed=...)``.
    """
    default = CanaryConfig()
    parts = ["simlab canary", f"--seed {seed}"]
    others = []
    for f in fields(CanaryConfig):
        value = getattr(config, f.name)
        if value == getattr(default, f.name):
            continue
        if f.name not in _FLAGS:
            others.append(f"{f.name}={value!r}")
        elif isinstance(value, float):
            parts.append(f"--{f.name.replace('_', '-')} {value:g}")
        else:
            parts.append(f"--{f.name.replace('_', '-')} {value}")
    if others:
        parts.append("# and " + ", ".join(others))
    return " ".join(parts)


# -- text ------------------------------------------------------------------------------------


def format_canary(result: CanaryResult) -> str:
    """The run in a few lines: routing, breaker, slice table, raw totals, decision."""
    c = result.config
    canary = [t for t in result.tenants if t.canary]
    tiers = sorted({t.tier for t in canary}, key=TIERS.index)
    routes = result.to_dict()["routes"]
    lines = [
        f"simlab canary: candidate {parse_version(c.candidate)} vs baseline "
        f"{parse_version(c.baseline)}, seed {result.seed}",
        f"  routing: {len(canary)} of {len(result.tenants)} tenants (risk: {', '.join(tiers)}) "
        f"carry {result.canary_share:.1%} of traffic; {len(result.requests)} requests over "
        f"{c.duration:g} s: {routes['baseline']} baseline, {routes['canary']} canary, "
        f"{routes['fallback']} read-only",
        f"  breaker: error rate > {c.max_error_rate:.1%} or cost > {c.max_cost:g} tokens over "
        f"{c.window:g} s (min {c.min_requests} requests): "
        + (
            f"tripped {len(result.trips)} time(s) at t="
            + ", ".join(f"{t.t:.0f}" for t in result.trips)
            + " s"
            if result.trips
            else "never tripped"
        ),
        f"  {'slice':<16}{'baseline':>17}{'canary':>17}{'diff':>9}{'p':>8}{'tokens':>13}",
    ]
    for s in result.slices:
        mark = "  REGRESSED" if s.regressed else ("" if s.comparable else "  (too few)")
        lines.append(
            f"  {s.name:<16}{s.baseline_rate:>9.1%} ({s.baseline_n:>4}){s.candidate_rate:>9.1%}"
            f" ({s.candidate_n:>4}){100 * s.error_diff:>+7.1f}pt{s.p_value:>8.2g}"
            f"{s.baseline_tokens:>6.0f}>{s.candidate_tokens:<6.0f}{mark}"
        )
        if s.note:
            lines.append(f"  {'':<16}weak evidence: {s.note}")
    lines.append(
        "  (p: one-sided Fisher exact test of 'the canary errs more'; REGRESSED needs p < 0.01 "
        f"and a rise above {c.error_margin:.0%})"
    )
    lines.append(f"decision: {result.decision.upper()}")
    lines += [f"  - {e}" for e in result.evidence]
    lines.append(f"replay: {result.replay}")
    return "\n".join(lines)
