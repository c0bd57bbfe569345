"""``simlab simulate`` and ``simlab sweep``: the simulator from the command line.

Every :class:`~simlab.sim.scenario.Scenario` field is a flag (``crash_rate`` -> ``--crash-rate``;
a mode is a switch, ``pull`` -> ``--pull``/``--no-pull``, ``--pull yes|no`` read as one), so the
replay line a run prints is always a valid command. ``simulate`` prints a summary and the
verdict and exits 1 when an invariant was violated; bad input ends as one line on stderr with
exit status 2. ``simulate --time-limit S`` arms the real timer (:class:`~simlab.sim.timeup.Alarm`:
the library counts time only on clocks it is given) and, when it rings, even inside a ledger
call that never returns, prints no verdict but the call in progress and exits 3 (Ctrl-C: 130).
"""

from __future__ import annotations

import argparse
import json
import sys
import uuid
from dataclasses import MISSING, fields
from pathlib import Path
from typing import Any

from simlab.cli.args import (
    Switch,
    UsageError,
    integer,
    new_file,
    number,
    positive_number,
    writable_file,
)
from simlab.cli.explore import TIME_LIMIT  # the same exit status for the same stop
from simlab.cli.language import parser_says
from simlab.cli.stuck import ended_when_stuck
from simlab.errors import LedgerError, SettingError
from simlab.sim.faults import KINDS
from simlab.sim.scenario import EFFECTS, RATE_FAULTS, VARIANTS, WORKLOADS, Scenario
from simlab.sim.timeup import Alarm, TimeUp

__all__ = ["register", "add_scenario_arguments", "scenario_from_args", "schedule_from_args"]

_CHOICES = {"variant": VARIANTS, "effects": EFFECTS, "workload": WORKLOADS}
#: ``--faults``: the scenario the other flags start from.
FAULT_PRESETS = ("default", "all")


def add_scenario_arguments(parser: argparse.ArgumentParser, *, skip: tuple[str, ...] = ()) -> None:
    """One flag per Scenario field; flags not given stay out of the namespace. A field that is
    a mode (a bool) is a :class:`~simlab.cli.args.Switch`: ``--pull`` on, ``--no-pull`` off,
    spelled as ``simlab explore`` spells its modes."""
    group = parser.add_argument_group("scenario (defaults in brackets)")
    group.add_argument(
        "--faults",
        choices=FAULT_PRESETS,
        default="default",
        help="'all' starts from Scenario.adversarial(): every fault kind on ("
        + ", ".join(k.name for k in KINDS.values() if k.adversarial is not None)
        + ", and early redelivery), the run that checks a ledger against every promise; the "
        "flags below change it further [default]",
    )
    for f in fields(Scenario):
        if f.name in skip:
            continue
        default = f.default if f.default is not MISSING else None
        kwargs: dict[str, Any] = {"dest": f.name, "default": argparse.SUPPRESS}
        if f.name in _CHOICES:
            kwargs["metavar"] = "{" + ",".join(_CHOICES[f.name]) + "}"
        elif isinstance(default, bool):
            kwargs["action"] = Switch
            default = "on" if default else "off"
        elif isinstance(default, int) or f.name == "max_attempts":
            kwargs.update(type=integer, metavar="N")
        else:
            kwargs.update(type=number, metavar="X")
        shown = "auto" if default is None else default
        kwargs["help"] = f"{f.metadata.get('help', '')} [{shown}]"
        group.add_argument("--" + f.name.replace("_", "-"), **kwargs)


def scenario_from_args(args: argparse.Namespace, **overrides: Any) -> Scenario:
    """The Scenario the flags describe, validated; a bad value raises
    :class:`~simlab.errors.SettingError`, which :func:`simlab.cli.main` says with the flags."""
    given = {f.name: getattr(args, f.name) for f in fields(Scenario) if hasattr(args, f.name)}
    given.update(overrides)
    try:
        if getattr(args, "faults", "default") == "all":
            return Scenario.adversarial(**given)
        return Scenario(**given).validate()
    except SettingError:
        raise  # the command line names the settings as its flags
    except ValueError as exc:
        raise UsageError.passed_on(exc) from None


def schedule_from_args(args: argparse.Namespace):
    """The :class:`~simlab.sim.schedule.Schedule` of ``--schedule FILE``, or None without it.

    The file holds the scenario and the seed, so giving scenario flags or ``--seed`` as well is
    a usage error; so is a missing or malformed file (one line naming the problem), and a
    schedule found over a ledger of the caller's own (``Schedule.ledger``), which no command
    builds: the line says how Python replays it. A file that names no ledger is the kit's.
    """
    if not getattr(args, "schedule", None):
        return None
    from simlab.sim.schedule import Schedule, ScheduleError, own_ledger

    given = [f.name for f in fields(Scenario) if hasattr(args, f.name)]
    if getattr(args, "faults", "default") != "default":
        given.insert(0, "faults")
    if given or args.seed is not None:
        flag = "--" + given[0].replace("_", "-") if given else "--seed"
        raise UsageError("schedule_drop", flag=flag)
    try:
        schedule = Schedule.load(args.schedule)
    except ScheduleError as exc:
        raise UsageError("schedule", why=str(exc)) from None
    if own_ledger(schedule.ledger):
        call = f"simulate(schedule=Schedule.load({args.schedule!r}), ledger=your_ledger_factory)"
        raise UsageError("schedule_own", path=args.schedule, ledger=schedule.ledger, call=call)
    return schedule


def run_from_args(args: argparse.Namespace):
    """``(scenario, seed, schedule)`` of a simulate-like command: from ``--schedule FILE`` when
    given (the file holds scenario and seed), else from the scenario flags and ``--seed`` (1)."""
    schedule = schedule_from_args(args)
    if schedule is None:
        return scenario_from_args(args), 1 if args.seed is None else args.seed, None
    return schedule.scenario, schedule.seed, schedule


def run_files(args: argparse.Namespace) -> tuple[Path | None, Path | None]:
    """The ``--timeline`` and ``--history`` files of a simulate-like command, each checked
    writable before the run (None where not asked for); :func:`save_run` writes them."""
    timeline = writable_file(args.timeline, "--timeline") if args.timeline else None
    history = writable_file(args.history, "--history") if args.history else None
    return timeline, history


def save_run(result, timeline: Path | None, history: Path | None) -> None:
    """Write a run's events to ``history`` (one JSON line each), then draw its timeline to
    ``timeline``; each only where asked for."""
    if history is not None:
        history.write_text(result.history.to_jsonl())
    if timeline is not None:
        from simlab.plots.files import save_timeline_png  # matplotlib only when drawing

        save_timeline_png(result, timeline)


def _db_ledger(db: str, variant: str):
    """The ledger factory for ``--db``: a new SQLite file (an existing one is refused), or a new
    schema in the PostgreSQL database a URL names (kept after the run, so it can be inspected;
    its name goes to stderr). Runs never mix."""
    from simlab.ledger.connect import connect, is_postgres_url, redact, sqlite_path

    chapter = variant != "fenced"
    if is_postgres_url(db):
        from simlab.ledger.postgres.probes import create_schema

        name = f"simlab_sim_{uuid.uuid4().hex[:12]}"
        try:
            target = create_schema(db, name)
        except LedgerError as exc:
            raise UsageError("db", why=str(exc)) from None
        print(f"ledger: schema {name} in {redact(db)}", file=sys.stderr)
    else:
        try:
            target = str(new_file(sqlite_path(db), "--db"))
        except ValueError as exc:
            raise UsageError("db", why=str(exc)) from None
    return lambda clock: connect(target, clock=clock, chapter=chapter)


# -- simulate ----------------------------------------------------------------------------------


def _handle_simulate(args: argparse.Namespace) -> int:
    from simlab.sim.simulation import simulate

    scenario, seed, schedule = run_from_args(args)
    factory = _db_ledger(args.db, scenario.variant) if args.db else None
    timeline, history_out = run_files(args)
    saved = writable_file(args.save_schedule, "--save-schedule") if args.save_schedule else None
    alarm = Alarm(args.time_limit) if args.time_limit is not None else None
    try:
        with ended_when_stuck(alarm, lambda: _stopped(None, args)):
            result = simulate(scenario, seed=seed, ledger=factory, schedule=schedule, alarm=alarm)
    except LedgerError as exc:
        raise UsageError.passed_on(exc) from None
    except TimeUp as up:
        return _stopped(up.call, args)
    if schedule is not None:
        result.replay = f"simlab simulate --schedule {args.schedule}"
    if saved is not None:
        result.schedule.save(saved)
    save_run(result, timeline, history_out)
    if args.json:
        print(json.dumps(result.to_dict()))
    else:
        print(result.summary())
        if timeline is not None:
            print(f"timeline: {timeline}")
    return 1 if result.violations else 0


def _stopped(call: dict[str, Any] | None, args: argparse.Namespace) -> int:
    """Say that the time limit stopped the run, with no verdict, and the ledger call that was
    in progress (``call``, :attr:`TimeUp.call`), if any; :data:`TIME_LIMIT`."""
    from simlab.checker.operations import at

    if args.json:
        print(json.dumps({"stopped": "time-limit", "time_limit": args.time_limit,
                          "in_progress": call}))  # fmt: skip
        return TIME_LIMIT
    line = f"stopped by --time-limit after {args.time_limit:g} s, no verdict"
    if call is None:
        print(f"{line}: the run did not end")
    else:
        on = f" on {call['task']}" if call["task"] is not None else ""
        print(f"{line}: in progress when the time ran out, {call['process']}'s call "
              f"{call['call']}{on} at {at(call['time'])}")  # fmt: skip
    return TIME_LIMIT


# -- sweep -------------------------------------------------------------------------------------


def _floats(text: str) -> list[float]:
    try:
        return [float(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(parser_says("numbers", text)) from None


def _names(text: str) -> list[str]:
    return [x.strip() for x in text.split(",") if x.strip()]


def _handle_sweep(args: argparse.Namespace) -> int:
    from simlab.sim.sweep import FAULTS, sweep, write_csv

    base = scenario_from_args(args)
    if args.fault not in FAULTS:
        raise UsageError("sweep_fault", fault=args.fault, known=", ".join(FAULTS))
    for v in args.variants:
        if v not in VARIANTS:
            raise UsageError("sweep_variant", v=v, known=", ".join(VARIANTS))
    if not args.rates:
        raise UsageError("sweep_rates")
    bad = [r for r in args.rates if not 0.0 <= r <= 1.0]
    if bad:
        raise UsageError("sweep_rate", rate=bad[0])
    if args.seeds < 1:
        raise UsageError("sweep_seeds", seeds=args.seeds)
    csv_path = writable_file(args.csv, "--csv")
    plot_path = writable_file(args.plot, "--plot") if args.plot else None
    seeds = range(args.first_seed, args.first_seed + args.seeds)
    try:
        rows = sweep(
            base,
            fault=args.fault,
            rates=args.rates,
            seeds=seeds,
            variants=args.variants,
            progress=not args.quiet,
        )
    except SettingError:
        raise  # the command line names the settings as its flags
    except ValueError as exc:
        raise UsageError.passed_on(exc) from None
    write_csv(rows, csv_path)
    print(
        f"{len(rows)} runs ({len(args.variants)} variants x {len(args.rates)} rates x "
        f"{args.seeds} seeds), fault {args.fault}"
    )
    print(
        f"{'variant':<11} {'rate':>6} {'completed':>9} {'wasted':>7} {'dup e-mails':>11} "
        f"{'runs with violations':>21}"
    )
    for v in args.variants:
        for r in args.rates:
            sel = [row for row in rows if row["variant"] == v and row["rate"] == r]
            n = len(sel)
            print(
                f"{v:<11} {r:>6g} {sum(x['completed'] for x in sel) / n:>9.1f} "
                f"{sum(x['wasted_steps'] for x in sel) / n:>7.1f} "
                f"{sum(x['duplicate_sends'] for x in sel) / n:>11.2f} "
                f"{sum(1 for x in sel if x['violations']):>17} / {n}"
            )
    print(f"csv: {csv_path}")
    if plot_path is not None:
        from simlab.plots.files import save_sweep_png

        save_sweep_png(rows, plot_path)
        print(f"plot: {plot_path}")
    return 0


# -- registration ------------------------------------------------------------------------------


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "simulate",
        help="run one seeded fault simulation over the real ledger and check it",
        description=(
            "Simulate tasks, an at-least-once broker and workers with leases over the real "
            "SQLite ledger, inject faults (crashes, pauses longer than the ttl, slow steps, "
            "duplicate deliveries, cancellations), then check every invariant. Prints a "
            "summary and the verdict with a replay command; exit status 1 if an invariant "
            "broke, 3 if --time-limit stopped the run (no verdict)."
        ),
    )
    p.add_argument("--seed", type=integer, default=None, help="random seed [1]")
    add_scenario_arguments(p)
    p.add_argument(
        "--schedule",
        metavar="FILE.json",
        help="replay a saved fault schedule (its scenario and seed come from the file)",
    )
    p.add_argument(
        "--save-schedule", metavar="FILE.json", help="save this run's fault schedule to FILE"
    )
    p.add_argument(
        "--db",
        metavar="PATH|URL",
        help="run over a new SQLite file ledger at PATH (an existing file is refused), or over a "
        "new schema in the PostgreSQL database at postgresql://URL",
    )
    p.add_argument(
        "--json", action="store_true", help="print one JSON object instead of the summary"
    )
    p.add_argument("--timeline", metavar="FILE.png", help="draw the epoch-race timeline to FILE")
    p.add_argument("--history", metavar="FILE.jsonl", help="write the history as JSON lines")
    p.add_argument(
        "--time-limit",
        type=positive_number,
        default=None,
        metavar="S",
        help="stop after S s of wall-clock time, even inside a ledger call that never returns, "
        "naming the call in progress (exit 3, no verdict) [no limit]",
    )
    p.set_defaults(func=_handle_simulate)

    s = subparsers.add_parser(
        "sweep",
        help="run seeds x fault rates x variants; write a CSV and a plot",
        description=(
            "Vary one fault rate (or all of them) over several seeds and variants, with a "
            "progress bar; write one CSV row per run and a plot of the means."
        ),
    )
    s.add_argument(
        "--fault",
        default="pause",
        help=f"which rate to vary: all, {', '.join(RATE_FAULTS)} [pause]",
    )
    s.add_argument(
        "--rates",
        type=_floats,
        default=[0.0, 0.05, 0.1, 0.2],
        help="comma-separated rates [0,0.05,0.1,0.2]",
    )
    s.add_argument("--seeds", type=integer, default=5, metavar="N", help="seeds per point [5]")
    s.add_argument("--first-seed", type=integer, default=1, help="first seed [1]")
    s.add_argument(
        "--variants",
        type=_names,
        default=list(VARIANTS),
        help="comma-separated variants [fenced,unfenced,racy-claim]",
    )
    s.add_argument("--csv", default="sweep.csv", metavar="FILE", help="CSV output [sweep.csv]")
    s.add_argument(
        "--plot",
        default="sweep.png",
        metavar="FILE.png",
        help="plot output, '' for none [sweep.png]",
    )
    s.add_argument("--quiet", action="store_true", help="no progress bar")
    add_scenario_arguments(s, skip=("variant",))
    s.set_defaults(func=_handle_sweep)
