"""``simlab golden``, ``simlab canary`` and ``simlab health``: release regression from the shell.

* ``golden [--version A] [--compare B]`` runs the golden set; exit 1 when a case fails (or,
  with ``--compare``, when a case regressed).
* ``canary`` runs a seeded rollout and prints the decision; exit 0 on ``promote``, 1 on
  ``hold`` or ``roll back``.
* ``health --db PATH|URL`` checks the database and the queue; exit 0 healthy, 1 unhealthy.

Bad input (an unknown version, a threshold out of range) is one line on stderr, exit 2.
"""

from __future__ import annotations

import argparse
import json
import sys

from simlab.cli.args import UsageError, number, writable_file

__all__ = ["register"]


def _version(spec: str):
    from simlab.rollout.versions import parse_version

    try:
        return parse_version(spec)
    except ValueError as exc:
        raise UsageError.passed_on(exc) from None


# -- golden ----------------------------------------------------------------------------------


def _golden(args: argparse.Namespace) -> int:
    from simlab.rollout.golden import compare, format_comparison, format_report, run_golden

    if args.runs < 1:
        raise UsageError("golden_runs", runs=args.runs)
    version = _version(args.version)
    other = _version(args.compare) if args.compare is not None else None
    report = run_golden(version, runs=args.runs, seed=args.seed)
    if other is None:
        print(json.dumps(report.to_dict(), indent=2) if args.json else format_report(report))
        return 0 if report.passed else 1
    cmp = compare(report, run_golden(other, runs=args.runs, seed=args.seed))
    print(json.dumps(cmp.to_dict(), indent=2) if args.json else format_comparison(cmp))
    return 1 if cmp.regressed else 0


# -- canary ----------------------------------------------------------------------------------

_CANARY_FLAGS = {
    # flag: (field, type, help)
    "--share": ("share", number, "share of traffic the canary tenants carry, in (0, 1)"),
    "--tenants": ("tenants", int, "number of tenants"),
    "--duration": ("duration", number, "simulated seconds of traffic"),
    "--arrival-rate": ("arrival_rate", number, "requests per simulated second"),
    "--max-error-rate": ("max_error_rate", number, "breaker: trip above this error rate"),
    "--max-cost": ("max_cost", number, "breaker: trip above these mean tokens per request"),
    "--window": ("window", number, "breaker: sliding window, simulated seconds"),
    "--min-requests": ("min_requests", int, "breaker: judge only with this many in the window"),
    "--probe-requests": (
        "probe_requests",
        int,
        "breaker: candidate requests let through while half-open",
    ),
}


def _canary(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from simlab.rollout.canary import CanaryConfig, format_canary
    from simlab.sim.canary import run_canary

    _version(args.baseline)
    _version(args.candidate)
    overrides = {
        f: getattr(args, f) for f, *_ in _CANARY_FLAGS.values() if getattr(args, f) is not None
    }
    try:
        config = replace(
            CanaryConfig(baseline=args.baseline, candidate=args.candidate), **overrides
        ).validate()
    except ValueError as exc:
        flags = {field: flag for flag, (field, *_) in _CANARY_FLAGS.items()}
        message = str(exc)
        field = message.split(" ", 1)[0]
        raise UsageError.passed_on(message.replace(field, flags.get(field, field), 1)) from None
    if args.plot is not None:
        writable_file(args.plot, "--plot")
    result = run_canary(config, seed=args.seed)
    print(json.dumps(result.to_dict(), indent=2) if args.json else format_canary(result))
    if args.plot is not None:
        from simlab.plots.files import save_canary_png

        save_canary_png(result, args.plot)
        print(f"plot: {args.plot}", file=sys.stderr)
    return 0 if result.decision == "promote" else 1


# -- health ----------------------------------------------------------------------------------


def _health(args: argparse.Namespace) -> int:
    from simlab.rollout.health import check_health, format_health

    if not args.timeout > 0:
        raise UsageError("health_timeout", timeout=args.timeout)
    report = check_health(args.db, timeout=args.timeout)
    print(json.dumps(report.to_dict(), indent=2) if args.json else format_health(report))
    return 0 if report.healthy else 1


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "golden",
        help="run the golden set against an agent version (and compare two)",
        description="Run the offline golden set (success, empty evidence, tool timeout, "
        "permission revoked, duplicate claim, cancellation, prompt injection) "
        "and report business-assertion success, tool selection, citations, "
        "repeated side effects, tokens and p95 latency. Versions: A (agent-1.0/"
        "fake-1, production), B (framework change), C (model change), D (both), "
        "or FRAMEWORK/MODEL. Exit 1 if a case fails or (with --compare) regressed.",
    )
    p.add_argument("--version", default="A", metavar="V", help="the version to run [A]")
    p.add_argument(
        "--compare",
        default=None,
        metavar="V",
        help="a second version: show the differences and the regressed cases",
    )
    p.add_argument("--runs", type=int, default=20, metavar="N", help="runs per case [20]")
    p.add_argument("--seed", type=int, default=1, metavar="N", help="latency jitter seed [1]")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=_golden)

    p = subparsers.add_parser(
        "canary",
        help="simulate a canary rollout with a circuit breaker and decide",
        description="Route the lowest-risk tenants to a candidate version, trip a breaker to "
        "a read-only path when its error rate or cost crosses a threshold, compare "
        "like-for-like slices (risk tier x request kind) and decide: promote, hold "
        "or roll back. Exit 0 on promote, 1 otherwise.",
    )
    p.add_argument("--baseline", default="A", metavar="V", help="the version in production [A]")
    p.add_argument("--candidate", default="B", metavar="V", help="the version to roll out [B]")
    p.add_argument("--seed", type=int, default=1, metavar="N", help="[1]")
    for flag, (dest, kind, text) in _CANARY_FLAGS.items():
        p.add_argument(
            flag, dest=dest, type=kind, default=None, metavar="N" if kind is int else "X", help=text
        )
    p.add_argument(
        "--plot",
        default=None,
        metavar="FILE.png",
        help="draw the traffic split, the breaker and its trips",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=_canary)

    p = subparsers.add_parser(
        "health",
        help="check the database and the queue of a ledger (file or PostgreSQL)",
        description="Check a ledger: a write and a read in one transaction, and a probe task "
        "submitted, claimed and completed. Never creates a database. Exit 0 "
        "healthy, 1 unhealthy, 2 usage error.",
    )
    p.add_argument(
        "--db",
        required=True,
        metavar="PATH|URL",
        help="the ledger: a SQLite file, or a PostgreSQL database at postgresql://URL",
    )
    p.add_argument(
        "--timeout",
        type=number,
        default=5.0,
        metavar="SECONDS",
        help="how long to wait for a lock before calling it unhealthy [5]",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=_health)
