"""A canary rollout with a circuit breaker, simulated in SimPy over the real agent.

The story of one run (:func:`run_canary`):

1. **Tenants and risk.** ``tenants`` tenants, each with a risk tier (``low``, ``medium``,
   ``high``) and a traffic weight. Riskier tenants see more upstream failures (a search outage
   ends a task ``dead`` whatever the agent version), so their baseline error rate is higher.
2. **Routing by risk.** The canary takes the lowest-risk tenants first, smallest first (fewest
   customers exposed), until they carry ``share`` of the traffic. Their requests go to the
   candidate version; every other tenant stays on the baseline.
3. **Requests.** Poisson arrivals; each request has a kind (``policy``, ``product``, ``stock``)
   and may meet faults (search outage, a mail server that times out after accepting, a poisoned
   document in the index). Every random draw is made for every request whatever its route, so
   two candidates are judged on the same stream of requests. The outcome is the real agent's
   (:func:`simlab.traffic.serve`), judged by the golden set's business assertions: a
   request is an *error* if it did not complete with exactly one e-mail to the customer and no
   foreign link. The agent is deterministic, so each (version, kind, faults) is run once and
   reused; only latency is jittered per request.
4. **The breaker** (:mod:`simlab.breaker`) watches the candidate's requests over a sliding
   ``window`` of simulated seconds. With at least ``min_requests`` in the window, an error rate
   above ``max_error_rate`` or mean tokens above ``max_cost`` **trips** it: canary tenants go to
   a read-only path (no model call, no e-mail; a human answers within ``human_delay``). After
   ``cooldown`` it half-opens and lets the canary through again; it closes after a clean
   window, or trips again. After ``max_trips`` trips it stays open.
5. **Like-for-like slices.** Canary tenants are low risk, so their raw error rate says little
   about the candidate: compare it with all baseline traffic and the riskier tenants' failures
   make the candidate look better than it is. Each (risk tier, kind) slice is compared only
   with baseline requests of the same tier and kind (:mod:`simlab.slices`).
6. **The decision** (:mod:`simlab.slices`): ``roll back`` if a comparable slice got worse (errors
   beyond ``error_margin`` and outside noise, or tokens beyond ``cost_margin``) or the breaker
   latched open; ``hold`` if the breaker tripped and recovered, or the canary slices are too
   thin to judge; ``promote`` otherwise.

Time is SimPy's ``env.now`` (simulated seconds); each random source is its own
``random.Random`` seeded from ``(seed, name)``; the same config and seed give the same result.
"""

from __future__ import annotations

import math
import random
from dataclasses import asdict, dataclass, field, fields
from typing import Any

import simpy

from simlab.breaker import Breaker, BreakerSample, Trip
from simlab.slices import DECISIONS, SliceComparison, compare_slices, decide
from simlab.traffic import KINDS, TIERS, RequestRecord, serve
from simlab.versions import parse_version

__all__ = [
    "CanaryConfig",
    "Tenant",
    "CanaryResult",
    "run_canary",
    "replay_command",
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
    against all canary traffic), kept to show why slices are compared instead."""

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

    @property
    def replay(self) -> str:
        return replay_command(self.config, self.seed)

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
)


def replay_command(config: CanaryConfig, seed: int) -> str:
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


def _tenants(config: CanaryConfig, rng: random.Random) -> list[Tenant]:
    drawn = []
    for i in range(config.tenants):
        tier = rng.choices(TIERS, weights=config.tier_mix)[0]
        drawn.append((f"tenant-{i + 1:02d}", tier, round(rng.lognormvariate(0.0, 0.8), 6)))
    total = sum(w for *_, w in drawn)
    # Lowest risk first, smallest first within a tier: the fewest customers exposed.
    order = sorted(drawn, key=lambda t: (TIERS.index(t[1]), t[2], t[0]))
    canary, carried = set(), 0.0
    for name, _, weight in order:
        if carried >= config.share * total:
            break
        canary.add(name)
        carried += weight
    return [Tenant(name, tier, weight, name in canary) for name, tier, weight in drawn]


def run_canary(config: CanaryConfig | None = None, *, seed: int = 1) -> CanaryResult:
    """Simulate one seeded rollout (see the module doc) and decide."""
    config = (config or CanaryConfig()).validate()
    base_v = parse_version(config.baseline).label
    cand_v = parse_version(config.candidate).label
    rngs = {name: random.Random(f"{seed}:canary:{name}") for name in STREAMS}
    tenants = _tenants(config, rngs["tenants"])
    weights = [t.weight for t in tenants]
    breaker = Breaker(
        max_error_rate=config.max_error_rate,
        max_cost=config.max_cost,
        window=config.window,
        min_requests=config.min_requests,
        max_trips=config.max_trips,
    )
    env = simpy.Environment()
    records: list[RequestRecord] = []

    def cooldown():
        yield env.timeout(config.cooldown)
        breaker.half_open()

    def request(tenant: Tenant, kind: str, faults: tuple[str, ...], jitter: float):
        arrived = env.now
        if not tenant.canary:
            route, version = "baseline", base_v
        elif breaker.state == "open":
            route, version = "fallback", "read-only"
        else:
            route, version = "canary", cand_v
        if route == "fallback":
            error, reasons, tokens, latency = False, (), 0, config.human_delay
        else:
            error, reasons, tokens, base_latency = serve(version, kind, faults)
            latency = round(base_latency * jitter, 6)
        yield env.timeout(latency)
        records.append(
            RequestRecord(
                arrived,
                env.now,
                tenant.name,
                tenant.tier,
                kind,
                faults,
                route,
                version,
                error,
                reasons,
                tokens,
                latency,
            )
        )
        if (
            route == "canary"
            and breaker.observe(env.now, error, tokens) is not None
            and not breaker.latched
        ):
            env.process(cooldown())

    def arrivals():
        while True:
            yield env.timeout(rngs["arrival"].expovariate(config.arrival_rate))
            if env.now >= config.duration:
                return
            tenant = rngs["tenant"].choices(tenants, weights=weights)[0]
            kind = rngs["kind"].choices(tuple(KINDS), weights=config.kind_mix)[0]
            tier = TIERS.index(tenant.tier)
            faults = []
            if rngs["outage"].random() < config.outage_rate[tier]:
                faults.append("outage")
            if rngs["mail"].random() < config.mail_timeout_rate:
                faults.append("mail-timeout")
            if rngs["injection"].random() < config.injection_rate:
                faults.append("injection")
            jitter = rngs["latency"].lognormvariate(0.0, 0.25)
            env.process(request(tenant, kind, tuple(sorted(faults)), jitter))

    env.process(arrivals())
    env.run()
    records.sort(key=lambda r: (r.arrived, r.tenant))
    slices = compare_slices(records, config)
    decision, evidence = decide(slices, breaker.trips, config)
    raw = _raw(records)
    if raw["canary_requests"]:
        evidence.append(
            f"raw totals (not like-for-like): canary {raw['canary_error_rate']:.1%} vs baseline "
            f"{raw['baseline_error_rate']:.1%} errors; the canary tenants are the low-risk ones"
        )
    return CanaryResult(
        config,
        seed,
        tenants,
        records,
        list(breaker.trips),
        list(breaker.samples),
        slices,
        decision,
        evidence,
        raw,
    )


def _raw(records: list[RequestRecord]) -> dict[str, float]:
    out: dict[str, float] = {}
    for route in ("baseline", "canary"):
        rs = [r for r in records if r.route == route]
        out[f"{route}_requests"] = len(rs)
        out[f"{route}_error_rate"] = sum(r.error for r in rs) / len(rs) if rs else 0.0
        out[f"{route}_tokens"] = sum(r.tokens for r in rs) / len(rs) if rs else 0.0
    out["fallback_requests"] = sum(1 for r in records if r.route == "fallback")
    return out


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
        f"  {'slice':<16}{'baseline':>17}{'canary':>17}{'diff':>9}{'tokens':>13}",
    ]
    for s in result.slices:
        mark = "  REGRESSED" if s.regressed else ("" if s.comparable else "  (too few)")
        lines.append(
            f"  {s.name:<16}{s.baseline_rate:>9.1%} ({s.baseline_n:>4}){s.candidate_rate:>9.1%}"
            f" ({s.candidate_n:>4}){100 * s.error_diff:>+7.1f}pt"
            f"{s.baseline_tokens:>6.0f}>{s.candidate_tokens:<6.0f}{mark}"
        )
    lines.append(f"decision: {result.decision.upper()}")
    lines += [f"  - {e}" for e in result.evidence]
    lines.append(f"replay: {result.replay}")
    return "\n".join(lines)
