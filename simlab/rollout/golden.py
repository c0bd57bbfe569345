"""The golden set: run every case against an agent version, measure it, compare two versions.

The cases and their business rules live in :mod:`simlab.rollout.golden_cases` (re-exported here).
:func:`run_golden` runs every case ``runs`` times against one agent version. The runs differ
only in simulated latency jitter, seeded by ``(seed, case, run)``: every version gets the same
seeds (common random numbers), so a difference between two versions comes from the agents, not
from luck. It measures, per case and overall:

* ``success`` -- share of runs in which every business assertion held;
* ``tool_selection`` -- mean Jaccard similarity of the tools called and the tools the case needs;
* ``citations`` -- share of answers that cite exactly their evidence (None: nothing to judge);
* ``repeated_side_effects`` -- e-mails beyond the first per idempotency key, per run;
* ``tokens`` -- model tokens per run; ``p95_latency`` -- nearest-rank p95 of simulated seconds.

:func:`compare` lines two reports up, names the cases that regressed and the metric that did,
and says which layer (framework or model) the difference can be traced to.

A drop in success is a regression however small: every failed run broke a business rule, a bug
to read, and the runs share their seeds, so the difference comes from the versions. What the
counts alone would prove is said beside it: the one-sided Fisher exact test of the failed runs
(:mod:`simlab.rollout.stats`), its p-value, and a note when it is weak ("1 failed run in 5: too
few to tell").
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from simlab.rollout.golden_cases import CASE_NAMES, CASES, GoldenCase, observe_case
from simlab.rollout.observation import Observation
from simlab.rollout.stats import ErrorTest, error_test
from simlab.rollout.versions import AgentVersion, layers_changed, parse_version

__all__ = [
    "GoldenCase",
    "CASES",
    "CASE_NAMES",
    "observe_case",
    "CaseMetrics",
    "GoldenReport",
    "Comparison",
    "run_golden",
    "compare",
    "p95",
    "format_report",
    "format_comparison",
    "TOLERANCE",
]

#: A cost or latency rise beyond these fractions counts as a regression in :func:`compare`.
TOLERANCE = {"tokens": 0.10, "p95_latency": 0.25}


# -- metrics ---------------------------------------------------------------------------------


def p95(values: Sequence[float]) -> float:
    """Nearest-rank 95th percentile (the smallest value with at least 95% at or below it)."""
    if not values:
        raise ValueError("p95 of no values")
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    return 1.0 if not a and not b else len(a & b) / len(a | b)


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


@dataclass(frozen=True)
class CaseMetrics:
    """The measures of one case (or, for ``case == "overall"``, of every run of every case).

    ``failures`` lists each distinct failed assertion sentence with the number of runs it
    failed in.
    """

    case: str
    runs: int
    success: float
    tool_selection: float
    citations: float | None
    repeated_side_effects: float
    tokens: float
    p95_latency: float
    failures: tuple[tuple[str, int], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The measures as JSON data, in field order; each failure an object."""
        plain = {f.name: getattr(self, f.name) for f in fields(self)}
        return {**plain, "failures": [{"assertion": a, "runs": n} for a, n in self.failures]}


def _measure(name: str, judged: list[tuple[GoldenCase, Observation, list[str]]]) -> CaseMetrics:
    failures: dict[str, int] = {}
    for _, _, failed in judged:
        for sentence in dict.fromkeys(failed):
            failures[sentence] = failures.get(sentence, 0) + 1
    cites = [o.citations_correct for _, o, _ in judged if o.citations_correct is not None]
    return CaseMetrics(
        case=name,
        runs=len(judged),
        success=sum(1 for *_, failed in judged if not failed) / len(judged),
        tool_selection=_mean([_jaccard(c.tools, frozenset(o.calls)) for c, o, _ in judged]),
        citations=_mean([1.0 if ok else 0.0 for ok in cites]),
        repeated_side_effects=_mean([o.repeated_side_effects for _, o, _ in judged]),
        tokens=_mean([o.tokens for _, o, _ in judged]),
        p95_latency=p95([o.latency for _, o, _ in judged]),
        failures=tuple(failures.items()),
    )


@dataclass(frozen=True)
class GoldenReport:
    """Every case's metrics for one version, plus ``overall`` (all runs of all cases)."""

    version: AgentVersion
    seed: int
    runs: int
    cases: tuple[CaseMetrics, ...]
    overall: CaseMetrics
    observations: tuple[Observation, ...] = field(repr=False, default=())

    @property
    def passed(self) -> bool:
        return all(c.success == 1.0 for c in self.cases)

    def case(self, name: str) -> CaseMetrics:
        for c in self.cases:
            if c.case == name:
                return c
        raise KeyError(name)

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": self.version.name,
            "framework": self.version.framework.name,
            "model": self.version.model.name,
            "seed": self.seed,
            "runs": self.runs,
            "passed": self.passed,
            "cases": [c.to_dict() for c in self.cases],
            "overall": self.overall.to_dict(),
        }


def run_golden(
    version: AgentVersion | str = "A",
    *,
    runs: int = 20,
    seed: int = 1,
    cases: Sequence[GoldenCase] = CASES,
) -> GoldenReport:
    """Run every case ``runs`` times against ``version`` and measure it (see the module doc)."""
    if runs < 1:
        raise ValueError(f"runs must be at least 1, got {runs}")
    version = parse_version(version)
    per_case, everything, observations = [], [], []
    for case in cases:
        judged = []
        for run in range(runs):
            obs = observe_case(case, version, seed=seed, run=run)
            failed = [f for a in case.assertions if (f := a.failure(obs)) is not None]
            judged.append((case, obs, failed))
            observations.append(obs)
        per_case.append(_measure(case.name, judged))
        everything.extend(judged)
    return GoldenReport(
        version, seed, runs, tuple(per_case), _measure("overall", everything), tuple(observations)
    )


# -- comparing two versions ------------------------------------------------------------------


@dataclass(frozen=True)
class Comparison:
    """``new`` against ``old``: per case, the metrics that got worse (``regressions``: case ->
    list of sentences), the layers that changed, and for each case whose success dropped the
    test of its failed runs (``tests``: case -> :class:`~simlab.rollout.stats.ErrorTest`)."""

    old: GoldenReport
    new: GoldenReport
    regressions: dict[str, tuple[str, ...]]
    layers: tuple[str, ...]
    tests: dict[str, ErrorTest] = field(default_factory=dict)

    @property
    def regressed(self) -> tuple[str, ...]:
        """Names of the cases that regressed, in case order."""
        return tuple(c.case for c in self.new.cases if c.case in self.regressions)

    @property
    def traced_to(self) -> str | None:
        """The one layer a regression traces to, or None (no change, or both layers)."""
        return self.layers[0] if len(self.layers) == 1 else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "old": self.old.to_dict(),
            "new": self.new.to_dict(),
            "layers_changed": list(self.layers),
            "traced_to": self.traced_to,
            "regressed": list(self.regressed),
            "regressions": {k: list(v) for k, v in self.regressions.items()},
            "tests": {
                k: {"test": t.test, "p_value": t.p_value, "weak": t.weak, "note": t.note}
                for k, t in self.tests.items()
            },
        }


def _worse(metric: str, old: Any, new: Any) -> str | None:
    if old is None or new is None:
        return None
    if metric in ("success", "tool_selection", "citations"):
        return f"{metric} {old:.0%} -> {new:.0%}" if new < old - 1e-9 else None
    if metric == "repeated_side_effects":
        if new > old + 1e-9:
            return f"repeated side effects {_num(old)} -> {_num(new)} per run"
        return None
    limit = TOLERANCE[metric]
    if new > old * (1 + limit) + 1e-9:
        what = "tokens" if metric == "tokens" else "p95 latency"
        return f"{what} {old:.4g} -> {new:.4g} (+{(new / old - 1) if old else math.inf:.0%})"
    return None


_METRICS = (
    "success",
    "tool_selection",
    "citations",
    "repeated_side_effects",
    "tokens",
    "p95_latency",
)


def compare(old: GoldenReport, new: GoldenReport) -> Comparison:
    """Which cases got worse from ``old`` to ``new``, on which metric, in which layer.

    Quality metrics regress on any drop (success, tool selection, citations) or any rise
    (repeated side effects); tokens and p95 latency beyond :data:`TOLERANCE`.
    """
    regressions, tests = {}, {}
    for new_case in new.cases:
        old_case = old.case(new_case.case)
        found = [
            s
            for m in _METRICS
            if (s := _worse(m, getattr(old_case, m), getattr(new_case, m))) is not None
        ]
        if new_case.success < old_case.success - 1e-9:
            tests[new_case.case] = _success_test(old_case, new_case)
        if found:
            regressions[new_case.case] = tuple(found)
    return Comparison(old, new, regressions, layers_changed(old.version, new.version), tests)


def _failed_runs(m: CaseMetrics) -> int:
    return round((1 - m.success) * m.runs)


def _success_test(old: CaseMetrics, new: CaseMetrics) -> ErrorTest:
    """The one-sided Fisher exact test of ``new``'s failed runs against ``old``'s."""
    return error_test(_failed_runs(old), old.runs, _failed_runs(new), new.runs, unit="failed run")


# -- text ------------------------------------------------------------------------------------


def _num(x: float) -> str:
    return f"{x:.2f}".rstrip("0").rstrip(".")


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{x:.0%}"


_HEADER = (
    f"{'case':<19}{'success':>8}{'tools':>7}{'cites':>7}{'repeats':>9}{'tokens':>8}{'p95 s':>8}"
)


def _row(m: CaseMetrics) -> str:
    return (
        f"{m.case:<19}{_pct(m.success):>8}{_pct(m.tool_selection):>7}{_pct(m.citations):>7}"
        f"{_num(m.repeated_side_effects):>9}{m.tokens:>8.0f}{m.p95_latency:>8.2f}"
    )


def format_report(report: GoldenReport) -> str:
    """The per-case table, the overall line, each failed assertion, and a verdict."""
    v = report.version
    lines = [
        f"simlab golden: {len(report.cases)} cases x {report.runs} runs, version {v}, "
        f"seed {report.seed}",
        _HEADER,
    ]
    lines += [_row(m) for m in report.cases]
    lines.append(_row(report.overall))
    failed = [(m, s, n) for m in report.cases for s, n in m.failures]
    for _, sentence, n in failed:
        lines.append(f"  FAILED in {n}/{report.runs} runs: {sentence}")
    if report.passed:
        lines.append("verdict: PASS, every business assertion held in every run.")
    else:
        bad = sum(1 for m in report.cases if m.success < 1)
        lines.append(f"verdict: FAIL in {bad} of {len(report.cases)} cases.")
    return "\n".join(lines)


def _arrow(old: str, new: str, width: int) -> str:
    return f"{old if old == new else old + '>' + new:>{width}}"


def format_comparison(cmp: Comparison) -> str:
    """Old and new side by side (``old>new`` where they differ), the layer that changed, the
    regressed cases with the metric and the failed assertions, and a verdict."""
    old, new = cmp.old, cmp.new
    lines = [
        f"simlab golden: {len(new.cases)} cases x {new.runs} runs, {old.version} vs "
        f"{new.version}, seed {new.seed}"
    ]
    if not cmp.layers:
        lines.append("layers: framework and model unchanged (same agent)")
    elif cmp.traced_to:
        other = "model" if cmp.traced_to == "framework" else "framework"
        before = getattr(old.version, cmp.traced_to).name
        after = getattr(new.version, cmp.traced_to).name
        lines.append(
            f"layers: {cmp.traced_to} {before} -> {after}, {other} unchanged: a "
            f"regression below traces to the {cmp.traced_to}"
        )
    else:
        lines.append(
            f"layers: framework {old.version.framework.name} -> "
            f"{new.version.framework.name} AND model {old.version.model.name} -> "
            f"{new.version.model.name}: a regression cannot be traced to one layer; "
            f"roll them out separately"
        )
    lines.append(
        f"{'case':<19}{'success':>12}{'tools':>11}{'cites':>11}{'repeats':>10}"
        f"{'tokens':>9}{'p95 s':>12}"
    )
    for o, n in [*zip(old.cases, new.cases, strict=True), (old.overall, new.overall)]:
        mark = " <" if n.case in cmp.regressions else ""
        lines.append(
            f"{n.case:<19}{_arrow(_pct(o.success), _pct(n.success), 12)}"
            f"{_arrow(_pct(o.tool_selection), _pct(n.tool_selection), 11)}"
            f"{_arrow(_pct(o.citations), _pct(n.citations), 11)}"
            f"{_arrow(_num(o.repeated_side_effects), _num(n.repeated_side_effects), 10)}"
            f"{_arrow(f'{o.tokens:.0f}', f'{n.tokens:.0f}', 9)}"
            f"{_arrow(f'{o.p95_latency:.2f}', f'{n.p95_latency:.2f}', 12)}{mark}"
        )
    lines.append("(old>new where they differ; < marks a case that regressed)")
    for name in cmp.regressed:
        lines.append(f"  regressed {name}: {'; '.join(cmp.regressions[name])}")
        if name in cmp.tests:
            t = cmp.tests[name]
            o, n = _failed_runs(old.case(name)), _failed_runs(new.case(name))
            lines.append(
                f"    failed runs {o}/{old.runs} -> {n}/{new.runs}: one-sided Fisher exact "
                f"p = {t.p_value:.2g}" + (f"; weak evidence: {t.note}" if t.weak else "")
            )
        for sentence, count in new.case(name).failures:
            lines.append(f"    FAILED in {count}/{new.runs} runs: {sentence}")
    if cmp.regressed:
        lines.append(
            f"verdict: REGRESSION in {len(cmp.regressed)} of {len(new.cases)} cases "
            f"({', '.join(cmp.regressed)})."
        )
    else:
        lines.append("verdict: no regression.")
    return "\n".join(lines)
