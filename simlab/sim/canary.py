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
   (:func:`simlab.rollout.traffic.serve`), judged by the golden set's business assertions: a
   request is an *error* if it did not complete with exactly one e-mail to the customer and no
   foreign link. The agent is deterministic, so each (version, kind, faults) is run once and
   reused; only latency is jittered per request.
4. **The breaker** (:mod:`simlab.rollout.breaker`) watches the candidate's requests over a sliding
   ``window`` of simulated seconds. With at least ``min_requests`` in the window, an error rate
   above ``max_error_rate`` or mean tokens above ``max_cost`` **trips** it: canary tenants go to
   a read-only path (no model call, no e-mail; a human answers within ``human_delay``). After
   ``cooldown`` it half-opens: only ``probe_requests`` canary requests go to the candidate
   (the probes; the rest stay on the read-only path), and the probes' outcome closes it or
   trips it again. After ``max_trips`` trips it stays open.
5. **Like-for-like slices.** Canary tenants are low risk, so their raw error rate says little
   about the candidate: compare it with all baseline traffic and the riskier tenants' failures
   make the candidate look better than it is. Each (risk tier, kind) slice is compared only
   with baseline requests of the same tier and kind (:mod:`simlab.rollout.slices`).
6. **The decision** (:mod:`simlab.rollout.slices`): ``roll back`` if a comparable slice got worse
   (errors beyond ``error_margin`` and outside noise, or tokens beyond ``cost_margin``) or the
   breaker latched open; ``hold`` if the breaker tripped and recovered, or the canary slices are too
   thin to judge; ``promote`` otherwise.

Time is SimPy's ``env.now`` (simulated seconds); each random source is its own
``random.Random`` seeded from ``(seed, name)``; the same config and seed give the same result.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from typing import TypeVar

import simpy

from simlab.rollout.breaker import Breaker
from simlab.rollout.canary import STREAMS, CanaryConfig, CanaryResult, Tenant
from simlab.rollout.slices import Groups, compare_groups, count_groups, decide, group_requests
from simlab.rollout.stats import simpson_paradox
from simlab.rollout.traffic import KINDS, TIERS, RequestRecord, new_request_record, serve
from simlab.rollout.versions import parse_version

__all__ = ["run_canary"]

T = TypeVar("T")


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
    rngs = {name: random.Random(f"{seed}:canary:{name}") for name in STREAMS}
    tenants = _tenants(config, rngs["tenants"])
    rollout = _Rollout(config, rngs, tenants)
    records = rollout.run()
    breaker = rollout.breaker
    groups = group_requests(records)
    slices = compare_groups(groups, config)
    decision, evidence = decide(slices, breaker.trips, config)
    raw = _raw(groups, len(records))
    if raw["canary_requests"]:
        evidence.append(
            f"raw totals (not like-for-like): canary {raw['canary_error_rate']:.1%} vs baseline "
            f"{raw['baseline_error_rate']:.1%} errors; the canary tenants are the low-risk ones"
        )
    paradox = simpson_paradox(count_groups(groups), min_n=config.min_slice)
    if paradox is not None:
        evidence.append(paradox.sentence)
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
        list(breaker.changes),
    )


class _Rollout:
    """The SimPy part of one run (steps 3 and 4 of the module doc): arrivals, routing, the
    agent's outcome per request and the breaker watching the candidate.

    Every random draw comes from ``rngs`` in a fixed order per arrival, whatever the route, so
    the stream of arrivals is drawn whole before the clock starts (:meth:`arrivals`). Only a
    canary tenant's request can see or change the breaker (its route depends on the breaker's
    state when it arrives, and a canary request feeds the breaker when it finishes), so only
    those requests, and the cooldowns, are SimPy events; a baseline tenant's request is on the
    baseline whatever happens and is recorded as it arrives, finished ``latency`` later.
    """

    def __init__(self, config: CanaryConfig, rngs: dict[str, random.Random], tenants: list[Tenant]):
        self.config = config
        self.rngs = rngs
        self.tenants = tenants
        self.pick_tenant = _picker(rngs["tenant"], tenants, [t.weight for t in tenants])
        self.pick_kind = _picker(rngs["kind"], tuple(KINDS), config.kind_mix)
        self.base_v = parse_version(config.baseline).label
        self.cand_v = parse_version(config.candidate).label
        self.breaker = Breaker(
            max_error_rate=config.max_error_rate,
            max_cost=config.max_cost,
            window=config.window,
            min_requests=config.min_requests,
            max_trips=config.max_trips,
            probe_requests=config.probe_requests,
        )
        self.env = simpy.Environment()
        self.records: list[RequestRecord] = []

    def run(self) -> list[RequestRecord]:
        """Run until the last request finished; the records sorted by arrival, then tenant."""
        env, records, base_v = self.env, self.records, self.base_v
        served: dict[tuple[str, tuple[str, ...]], tuple] = {}
        for arrived, tenant, kind, faults, jitter in self.arrivals():
            if tenant.canary:
                # Scheduled from time 0, so it fires at exactly ``arrived``.
                env.timeout(arrived).callbacks.append(
                    lambda _, a=(tenant, kind, faults, jitter): self.request(*a)
                )
                continue
            outcome = served.get((kind, faults))
            if outcome is None:
                outcome = served[kind, faults] = serve(base_v, kind, faults)
            error, reasons, tokens, base_latency = outcome
            latency = round(base_latency * jitter, 6)
            records.append(
                new_request_record(
                    arrived,
                    arrived + latency,
                    tenant.name,
                    tenant.tier,
                    kind,
                    faults,
                    "baseline",
                    base_v,
                    error,
                    reasons,
                    tokens,
                    latency,
                    False,
                )
            )
        env.run()
        records.sort(key=lambda r: (r.arrived, r.tenant))
        return records

    def arrivals(self) -> list[tuple[float, Tenant, str, tuple[str, ...], float]]:
        """Poisson arrivals until ``duration``, ``(arrived, tenant, kind, faults, jitter)`` in
        time order. Each source of randomness is a stream of its own with one draw per arrival
        (the gap before it, its tenant, kind, each fault, its latency jitter), so each stream's
        draws are made in one go, in arrival order: the same values as drawing them arrival by
        arrival."""
        config, rngs = self.config, self.rngs
        gap, rate, duration = rngs["arrival"].expovariate, config.arrival_rate, config.duration
        times = []
        now = gap(rate)  # the clock a process waiting each gap in turn reaches, to the bit
        while now < duration:
            times.append(now)
            now += gap(rate)
        n = len(times)
        tenants = self.pick_tenant(n)
        kinds = self.pick_kind(n)
        # Each fault from its own stream, one draw each per request, tested in the order of
        # their names, so a request's tuple comes out sorted.
        injection, mail, outage = (rngs[name].random for name in ("injection", "mail", "outage"))
        injected = [injection() < config.injection_rate for _ in times]
        timed_out = [mail() < config.mail_timeout_rate for _ in times]
        by_tier = {t.tier: config.outage_rate[TIERS.index(t.tier)] for t in self.tenants}
        down = [outage() < by_tier[t.tier] for t in tenants]
        jitter = rngs["latency"].lognormvariate
        jitters = [jitter(0.0, 0.25) for _ in times]
        faults = [_FAULTS[f] for f in zip(injected, timed_out, down, strict=True)]
        return list(zip(times, tenants, kinds, faults, jitters, strict=True))

    def route(self, tenant: Tenant) -> tuple[str, str, bool]:
        """(route, version, probe) of a request arriving now: baseline tenants stay on the
        baseline; canary tenants go to the candidate when the breaker admits them (``probe``
        when it is half-open) and to the read-only path otherwise."""
        if not tenant.canary:
            return "baseline", self.base_v, False
        probing = self.breaker.state == "half-open"
        if not self.breaker.admit():
            return "fallback", "read-only", False
        return "canary", self.cand_v, probing

    def request(self, tenant: Tenant, kind: str, faults: tuple[str, ...], jitter: float) -> None:
        """One request arriving now: route it, then record it when its latency has passed.

        Not a SimPy process but a timeout with a callback: a request only waits, once, and a
        process would cost two more events per request. The route is decided at arrival, as
        a process started now would decide it before any other event of this instant."""
        env, config = self.env, self.config
        arrived = env.now
        route, version, probe = self.route(tenant)
        if route == "fallback":
            error, reasons, tokens, latency = False, (), 0, config.human_delay
        else:
            error, reasons, tokens, base_latency = serve(version, kind, faults)
            latency = round(base_latency * jitter, 6)
        # RequestRecord's fields after ``arrived`` and ``done``, in its order.
        rest = (tenant.name, tenant.tier, kind, faults, route, version, error, reasons, tokens)
        rest += (latency, probe)
        env.timeout(latency).callbacks.append(
            lambda _: self.finished(new_request_record(arrived, env.now, *rest))
        )

    def finished(self, r: RequestRecord) -> None:
        """Record a request done now; a canary request feeds the breaker, and a trip that does
        not latch starts the cooldown."""
        self.records.append(r)
        if (
            r.route == "canary"
            and self.breaker.observe(r.done, r.error, r.tokens, probe=r.probe) is not None
            and not self.breaker.latched
        ):
            self.env.process(self.cooldown())

    def cooldown(self):
        """After ``cooldown`` seconds the breaker half-opens."""
        yield self.env.timeout(self.config.cooldown)
        self.breaker.half_open(self.env.now)


def _picker(rng: random.Random, population: Sequence[T], weights: Sequence[float]):
    """A function drawing ``k`` of ``population`` by ``weights`` from ``rng``: what
    ``rng.choices(population, weights, k=k)`` draws (one ``random()`` a pick, bisected into the
    accumulated weights), with the weights accumulated once instead of at every call."""
    cum = list(itertools.accumulate(weights))
    total = cum[-1] + 0.0
    if not (0.0 < total < math.inf):
        raise ValueError(f"weights must have a positive, finite total, got {weights!r}")
    return lambda k: rng.choices(population, cum_weights=cum, k=k)


#: A request's faults by whether it met each of them, in the order of their names.
_FAULTS = {
    (injection, mail, outage): tuple(
        name
        for name, met in (("injection", injection), ("mail-timeout", mail), ("outage", outage))
        if met
    )
    for injection in (False, True)
    for mail in (False, True)
    for outage in (False, True)
}


def _raw(groups: Groups, requests: int) -> dict[str, float]:
    """The totals of every baseline and every canary request (``groups`` holds them all, by
    slice and route), and how many of the ``requests`` took the read-only path."""
    out: dict[str, float] = {}
    for route in ("baseline", "canary"):
        rs = [g for (*_, on), g in groups.items() if on == route]
        n = sum(len(g) for g in rs)
        out[f"{route}_requests"] = n
        out[f"{route}_error_rate"] = sum(r.error for g in rs for r in g) / n if n else 0.0
        out[f"{route}_tokens"] = sum(r.tokens for g in rs for r in g) / n if n else 0.0
    out["fallback_requests"] = requests - out["baseline_requests"] - out["canary_requests"]
    return out
