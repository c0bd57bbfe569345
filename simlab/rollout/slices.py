"""Like-for-like comparison of a canary and the decision it leads to.

Canary tenants are chosen for low risk, so their raw error rate says little about the
candidate: set it against all baseline traffic and the riskier tenants' failures make the
candidate look better than it is. Each (risk tier, request kind) slice is compared only with
baseline requests of the same tier and kind (:func:`compare_slices`), and :func:`decide` turns
the slices and the breaker's trips into ``promote``, ``hold`` or ``roll back`` with the
evidence, one sentence each.

A slice's errors **regressed** when both sides have ``min_slice`` requests, the error rate rose
by more than ``error_margin``, and the rise is significant: the one-sided Fisher exact test
(:mod:`simlab.rollout.stats`) gives p < 0.01. Each slice carries its p-value and, when the
evidence is weak (one error fewer would change the verdict, or too few requests to see a
rise), a note that says so. :func:`slice_counts` gives every (tier, kind) slice's counts, those
only the baseline served included, for :func:`~simlab.rollout.stats.simpson_paradox`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from simlab.rollout.breaker import Trip
from simlab.rollout.stats import ALPHA, SliceCounts, error_test
from simlab.rollout.traffic import KINDS, TIERS, RequestRecord

__all__ = [
    "SliceComparison",
    "Rules",
    "compare_slices",
    "slice_counts",
    "Groups",
    "group_requests",
    "compare_groups",
    "count_groups",
    "decide",
    "DECISIONS",
    "Z_99",
]

DECISIONS = ("promote", "hold", "roll back")
#: One-sided 99% normal quantile, for ``error_low`` (the z-test's interval, shown beside the
#: exact test; the decision uses the exact test).
Z_99 = 2.326


class Rules(Protocol):
    """The decision's thresholds (a :class:`~simlab.rollout.canary.CanaryConfig` has them all)."""

    min_slice: int  # requests needed on each side before a slice is judged
    error_margin: float  # an error-rate rise above this (and beyond noise) is a regression
    cost_margin: float  # a relative rise of mean tokens above this is a regression
    max_trips: int  # trips after which the breaker stays open


@dataclass(frozen=True)
class SliceComparison:
    """One (tier, kind) slice: baseline and candidate counts, error rates and mean tokens.

    ``comparable`` when both sides have at least ``min_slice`` requests; ``error_diff`` is
    candidate minus baseline, ``error_low`` the lower end of its one-sided 99% interval by the
    normal approximation (pooled standard error; unreliable with few errors, so only shown);
    ``p_value`` the one-sided Fisher exact test's and ``note`` why the evidence is weak (empty
    when it is not, see :func:`simlab.rollout.stats.error_test`); ``regressed`` names what got
    worse, empty if not.
    """

    tier: str
    kind: str
    baseline_n: int
    baseline_errors: int
    baseline_tokens: float
    candidate_n: int
    candidate_errors: int
    candidate_tokens: float
    comparable: bool
    error_diff: float
    error_low: float
    regressed: tuple[str, ...]
    p_value: float = 1.0
    note: str = ""

    @property
    def name(self) -> str:
        return f"{self.tier}/{self.kind}"

    @property
    def baseline_rate(self) -> float:
        return self.baseline_errors / self.baseline_n if self.baseline_n else 0.0

    @property
    def candidate_rate(self) -> float:
        return self.candidate_errors / self.candidate_n if self.candidate_n else 0.0


#: Requests by ``(tier, kind, route)`` (:func:`group_requests`).
Groups = dict[tuple[str, str, str], list[RequestRecord]]


def group_requests(requests: Sequence[RequestRecord]) -> Groups:
    """The requests by ``(tier, kind, route)``, each list in the order given (one pass): what
    :func:`compare_groups` and :func:`count_groups` read, so a run groups its requests once."""
    out: Groups = {}
    for r in requests:
        key = (r.tier, r.kind, r.route)
        group = out.get(key)
        if group is None:
            out[key] = [r]
        else:
            group.append(r)
    return out


def slice_counts(requests: Sequence[RequestRecord]) -> list[SliceCounts]:
    """Every (tier, kind) slice with a request on either side: baseline and canary (candidate)
    errors and sizes. Fallback (read-only) requests are left out."""
    return count_groups(group_requests(requests))


def count_groups(groups: Groups) -> list[SliceCounts]:
    """:func:`slice_counts` of the requests ``groups`` holds."""
    out = []
    for tier in TIERS:
        for kind in KINDS:
            base = groups.get((tier, kind, "baseline"), ())
            cand = groups.get((tier, kind, "canary"), ())
            if base or cand:
                name = f"{tier}/{kind}"
                eb, ec = sum(r.error for r in base), sum(r.error for r in cand)
                out.append(SliceCounts(name, eb, len(base), ec, len(cand)))
    return out


def compare_slices(requests: Sequence[RequestRecord], config: Rules) -> list[SliceComparison]:
    """Like-for-like: each (tier, kind) slice that the candidate served, against baseline
    requests of the same tier and kind. Fallback (read-only) requests are left out."""
    return compare_groups(group_requests(requests), config)


def compare_groups(groups: Groups, config: Rules) -> list[SliceComparison]:
    """:func:`compare_slices` of the requests ``groups`` holds."""
    out = []
    for tier in TIERS:
        for kind in KINDS:
            cand = groups.get((tier, kind, "canary"))
            if cand:
                base = groups.get((tier, kind, "baseline"), [])
                out.append(_compare(tier, kind, base, cand, config))
    return out


def _compare(tier: str, kind: str, base: list, cand: list, config: Rules) -> SliceComparison:
    nb, nc = len(base), len(cand)
    eb, ec = sum(r.error for r in base), sum(r.error for r in cand)
    tb = sum(r.tokens for r in base) / nb if nb else 0.0
    tc = sum(r.tokens for r in cand) / nc
    comparable = nb >= config.min_slice and nc >= config.min_slice
    pb, pc = (eb / nb if nb else 0.0), ec / nc
    diff = pc - pb
    # Under "no difference" both sides share one error rate: the pooled standard error.
    pooled = (eb + ec) / (nb + nc)
    low = diff - Z_99 * math.sqrt(pooled * (1 - pooled) * (1 / max(nb, 1) + 1 / nc))
    test = error_test(eb, nb, ec, nc, alpha=ALPHA)
    regressed = []
    if comparable and diff > config.error_margin and test.significant:
        regressed.append(f"errors {pb:.1%} -> {pc:.1%} (Fisher exact p = {test.p_value:.2g})")
    if comparable and tb and tc > tb * (1 + config.cost_margin):
        regressed.append(f"tokens {tb:.0f} -> {tc:.0f}")
    return SliceComparison(
        tier,
        kind,
        nb,
        eb,
        tb,
        nc,
        ec,
        tc,
        comparable,
        diff,
        low,
        tuple(regressed),
        test.p_value,
        test.note if comparable else "",
    )


def decide(
    slices: Sequence[SliceComparison], trips: Sequence[Trip], config: Rules
) -> tuple[str, list[str]]:
    """The decision (one of :data:`DECISIONS`) and the evidence for it, one sentence each."""
    evidence = []
    regressed = [s for s in slices if s.regressed]
    thin = [s for s in slices if not s.comparable]
    if trips:
        first = trips[0]
        evidence.append(
            f"the breaker tripped {len(trips)} time(s); first at t={first.t:.0f} s: {first.reason}"
        )
    for s in regressed:
        evidence.append(
            f"slice {s.name} regressed: {'; '.join(s.regressed)} "
            f"({s.candidate_n} canary vs {s.baseline_n} baseline requests)"
            + (f"; weak evidence: {s.note}" if s.note else "")
        )
    if len(trips) >= config.max_trips:
        evidence.append(f"the breaker latched open after {config.max_trips} trips")
    if regressed or len(trips) >= config.max_trips:
        return "roll back", evidence
    if trips:
        evidence.append(
            "the breaker recovered, but a trip needs an explanation before the rollout widens"
        )
        return "hold", evidence
    if not slices or thin:
        names = ", ".join(s.name for s in thin) or "none"
        evidence.append(
            f"too few requests to compare slices (fewer than {config.min_slice} on a side): {names}"
        )
        return "hold", evidence
    evidence.append(
        f"no breaker trip; all {len(slices)} canary slices within "
        f"{config.error_margin:.0%} errors and {config.cost_margin:.0%} cost of "
        f"the baseline"
    )
    return "promote", evidence
