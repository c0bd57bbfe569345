"""``simlab shrink``: the minimal failing story from the command line.

``simlab shrink [every simulate flag] --seed N [--json] [--out schedule.json] [--story
story.png]`` runs the scenario, shrinks a failing run to a 1-minimal fault schedule and prints
its story. Exit status 1 when the run failed (and was shrunk), 0 when it did not fail, 2 for a
usage error (one line on stderr). ``--json`` prints one object with ``faults``, ``violations``,
``story``, ``simulations``, ``original_faults`` and ``replay``. ``--schedule FILE`` shrinks a
saved run instead of running the flags' scenario. (``simlab bench shrink`` lives with the other
benchmarks in :mod:`simlab.cli.bench`.)
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from simlab.cli.args import UsageError, integer, writable_file
from simlab.cli.sim import (
    _db_ledger,
    add_scenario_arguments,
    run_files,
    run_from_args,
    save_run,
    scenario_from_args,
)
from simlab.errors import LedgerError
from simlab.sim.schedule import describe_fault

__all__ = ["register"]


def _handle_shrink(args: argparse.Namespace) -> int:
    from simlab.sim.shrink import shrink

    scenario, seed, schedule = run_from_args(args)
    factory = _db_ledger(args.db, scenario.variant) if args.db else None
    out = writable_file(args.out, "--out") if args.out else None
    story_png = writable_file(args.story, "--story") if args.story else None
    timeline, history_out = run_files(args)
    try:
        shrunk = shrink(scenario, seed=seed, schedule=schedule)
        result = shrunk.result
        if factory is not None:  # the minimal run once more, over a ledger the learner can open
            from simlab.sim.simulation import simulate

            s = shrunk.schedule
            result = simulate(s.scenario, seed=s.seed, ledger=factory, schedule=s)
    except LedgerError as exc:
        raise UsageError.passed_on(exc) from None
    if out is not None:
        shrunk.schedule.save(out)
        replay = f"simlab simulate --schedule {out}"
    else:
        replay = f"{_shrink_command(args)} --out schedule.json && {SIMULATE_SAVED}"
    save_run(result, timeline, history_out)
    if story_png is not None:
        from simlab.plots.story import save_story_png

        save_story_png(shrunk, story_png)
    if args.json:
        print(json.dumps(shrunk.to_dict(replay=replay)))
    else:
        _print_text(shrunk, replay, out, story_png)
    return 0 if shrunk.ok else 1


SIMULATE_SAVED = "simlab simulate --schedule schedule.json"


def _shrink_command(args: argparse.Namespace) -> str:
    """The ``simlab shrink`` line that gives this output again."""
    from simlab.sim.simulation import replay_command

    if args.schedule:
        return f"simlab shrink --schedule {args.schedule}"
    scenario = scenario_from_args(args)
    seed = 1 if args.seed is None else args.seed
    return replay_command(scenario, seed).replace("simlab simulate", "simlab shrink", 1)


def _print_text(shrunk, replay: str, out: Path | None, story_png: Path | None) -> None:
    s = shrunk.schedule
    if shrunk.ok:
        print(f"simlab shrink: variant {s.scenario.variant}, seed {s.seed}: no rule broken")
    else:
        print(
            f"simlab shrink: variant {s.scenario.variant}, seed {s.seed}: "
            f"{shrunk.original_faults} faults -> {len(s)} in {shrunk.simulations} simulations"
        )
        for n, fault in enumerate(s.faults, start=1):
            print(f"  fault {n}: {describe_fault(fault)}")
    print("story:")
    for sentence in shrunk.story:
        print(f"  {sentence}")
    if out is not None:
        print(f"schedule: {out}")
    if story_png is not None:
        print(f"story picture: {story_png}")
    if not shrunk.ok:
        print(f"replay: {replay}")


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "shrink",
        help="shrink a failing run to the fewest faults and tell its story",
        description=(
            "Run a seeded simulation (the same flags as 'simlab simulate'); if an invariant "
            "broke, find a 1-minimal fault schedule that still breaks the same rule (each "
            "remaining fault is needed), with fewer tasks, workers and shorter pauses where "
            "that still fails, and tell it in plain sentences. Exit status 1 when the run "
            "failed and was shrunk, 0 when it did not fail."
        ),
    )
    p.add_argument("--seed", type=integer, default=None, help="random seed [1]")
    add_scenario_arguments(p)
    p.add_argument("--schedule", metavar="FILE", help="shrink a saved schedule instead")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--out", metavar="FILE.json", help="save the minimal schedule to FILE")
    p.add_argument("--story", metavar="FILE.png", help="draw the minimal run's story picture")
    p.add_argument("--timeline", metavar="FILE.png", help="draw the minimal run's timeline")
    p.add_argument("--history", metavar="FILE.jsonl", help="write the minimal run's history")
    p.add_argument(
        "--db", metavar="PATH", help="replay the minimal run over a new SQLite file at PATH"
    )
    p.set_defaults(func=_handle_shrink)
