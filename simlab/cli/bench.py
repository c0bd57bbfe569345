"""``simlab bench``: speed measured side by side in one run, reported as ratios.

The measurements live with what they measure (:mod:`simlab.bench.ledger`,
:mod:`simlab.bench.sim`, :mod:`simlab.bench.explore`, :mod:`simlab.bench.grading`); this
module parses and prints.

``simlab bench ledger`` times claim+save cycles against one raw single-row transaction on the
same engine (SQLite ``:memory:`` and a WAL file; a PostgreSQL server with ``--db
postgresql://...``) and prints their ratio; how and why is in :mod:`simlab.bench.ledger`.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from simlab.bench.grading import CLASS_GOAL, DEFAULT_NOTEBOOK, GOAL, bench_grade
from simlab.bench.ledger import bench_ledger
from simlab.bench.sim import CHECK_GOAL, MEMORY_GOAL, WIDGET, WIDGET_GOAL, bench_sim
from simlab.cli.args import UsageError, integer, positive_ints
from simlab.errors import LedgerError

__all__ = ["register"]


def _handle_ledger(args: argparse.Namespace) -> int:
    from simlab.bench.ledger import BARE_GOAL

    if args.n < 1 or args.rounds < 1:
        raise UsageError("bench_ledger")
    try:
        rows = bench_ledger(args.n, args.rounds, db=args.db)
    except (ValueError, LedgerError) as exc:
        raise UsageError("db", why=str(exc)) from None
    print(
        f"{'mode':<10} {'claim+save cycles/s':>20} {'raw tx/s':>10} {'ratio':>6}  goal >= 0.4"
        f"   {'bare SQL ratio':>14}  {'vs bare':>7}  goal >= {BARE_GOAL:g}  time"
    )
    for row in rows:
        verdict = "ok" if row["ratio"] >= 0.4 else "BELOW GOAL"
        bare = "ok" if row["vs_bare"] >= BARE_GOAL else "BELOW GOAL"
        print(
            f"{row['mode']:<10} {row['cycles_per_s']:>20,.0f} {row['raw_tx_per_s']:>10,.0f} "
            f"{row['ratio']:>6.2f}  {verdict:<10}   {row['bare_sql_ratio']:>14.2f}  "
            f"{row['vs_bare']:>7.2f}  {bare:<12}  {row['clock']}"
        )
    print(
        "Best round. SQLite: CPU time of this process; PostgreSQL: wall time (the work is in the "
        "server), raw = one single-row UPDATE, one round trip. 'bare SQL ratio': the same two "
        "statements issued with no Python around them, the floor this schema allows; 'vs bare': "
        "cycles over those bare statements."
    )
    if not args.no_schema:
        _print_schema(args.n, args.rounds)
    return 0


def _print_schema(n: int, rounds: int) -> None:
    """The table of :func:`simlab.bench.schema.bench_schema`."""
    from simlab.bench.schema import bench_schema

    out = bench_schema(n, min(rounds, 3))
    print("\nThe schema's cost (SQLite :memory:, the two statements bare, CPU time, best round):")
    print(f"{'table':<20} {'claim+save cycles/s':>20} {'vs minimal':>11}")
    for row in out["rows"]:
        print(f"{row['variant']:<20} {row['cycles_per_s']:>20,.0f} {row['vs_minimal']:>11.2f}")
    print(f"claim_next+save with {out['backlog']:,} finished tasks ahead of the queue:")
    for row in out["claim_next"]:
        print(f"{row['variant']:<20} {row['cycles_per_s']:>20,.0f}")
    print("submit (one INSERT):")
    for row in out["submit"]:
        print(f"{row['variant']:<20} {row['submits_per_s']:>20,.0f}")


def _handle_explore(args: argparse.Namespace) -> int:
    from simlab.bench.explore import bench_explore

    if args.rounds < 1 or args.jobs < 1 or any(k < 0 for k in args.faults):
        raise UsageError("bench_explore")
    print(
        "simlab bench explore: 2 tasks x 2 workers x 2 steps, the kit's SQLite :memory: "
        f"ledger, every schedule of at most K faults (wall time, best round, {args.jobs} "
        "process(es))"
    )
    out = bench_explore(tuple(args.faults), rounds=args.rounds, jobs=args.jobs)
    bare = out["bare_seconds"]
    print(
        f"yardstick: one million bare SimPy timeouts in {bare:.2f} s "
        f"({out['bare_cpu_seconds']:.2f} s CPU)"
    )
    print(
        f"{'K':>2} {'verdict':>10} {'schedules':>10} {'states':>8} {'s':>7} "
        f"{'schedules/s':>12} {'states/s':>9} {'yardsticks':>11} {'CPU':>6}  goal"
    )
    for row in out["rows"]:
        verdict = "certified" if row["certified"] else "FAILED"
        goal = row["goal"]
        judged = (
            ""
            if goal is None
            else f"<= {goal:g}: " + ("ok" if row["yardsticks"] <= goal else "ABOVE GOAL")
        )
        print(
            f"{row['max_faults']:>2} {verdict:>10} {row['schedules']:>10,} {row['states']:>8,} "
            f"{row['seconds']:>7.2f} {row['schedules_per_s']:>12,.0f} "
            f"{row['states_per_s']:>9,.0f} {row['yardsticks']:>11.2f} "
            f"{row['cpu_yardsticks']:>6.2f}  {judged}"
        )
    return 0


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "bench",
        help="measure speed side by side (ledger, sim, shrink, explore, grade)",
        description="Benchmarks that report ratios measured side by side in one run.",
    )
    sub = p.add_subparsers(dest="bench", metavar="WHAT")
    sub.required = True
    _add_sim(sub)
    _add_shrink(sub)
    x = sub.add_parser(
        "explore",
        help="how fast simlab explore certifies the default scope",
        description="Schedules and distinct states per second of 'simlab explore' over its "
        "default scope (2 tasks x 2 workers x 2 steps, SQLite :memory:), and the search's time "
        "in multiples of one million bare SimPy timeouts measured in the same process (goals: "
        "at most 5 with 2 faults, at most 60 with 3).",
    )
    x.add_argument(
        "--faults",
        type=lambda t: [integer(p) for p in t.split(",")],
        default=[2, 3],
        metavar="K,K",
        help="the numbers of faults to certify (default 2,3)",
    )
    x.add_argument("--rounds", type=integer, default=1, help="rounds; the best is kept [1]")
    x.add_argument(
        "--jobs", "-j", type=integer, default=1, help="processes per search (explore --jobs) [1]"
    )
    x.set_defaults(func=_handle_explore)
    g = sub.add_parser(
        "grade",
        help="grading against bare nbclient execution",
        description="Seconds to grade solution notebooks against the time to merely execute "
        f"them with nbclient (the floor), side by side; goals on wall and CPU time alike: one "
        f"notebook at most {GOAL:g}x its bare execution, a class at most {CLASS_GOAL:g}x "
        "(the goal column says ok only when both ratios are within it). Give several "
        "notebooks (solutions/*.ipynb) for one row each; --copies 0 leaves out the class.",
    )
    _add_grade_arguments(g)
    g.set_defaults(func=_handle_grade)
    q = sub.add_parser(
        "ledger",
        help="claim+save cycles against one raw transaction (SQLite; PostgreSQL with --db)",
        description=(
            "Claim+save cycles per second for ':memory:', a WAL file and (with --db "
            "postgresql://...) a PostgreSQL server, against the raw rate of a minimal "
            "single-row UPDATE transaction on the same engine, and their ratio (goal: >= 0.4)."
        ),
    )
    q.add_argument("-n", type=int, default=5000, help="cycles per round (default 5000)")
    q.add_argument("--rounds", type=int, default=5, help="rounds; the best is kept (default 5)")
    q.add_argument(
        "--db",
        metavar="PATH|URL",
        help="measure the WAL file at PATH (a new file, removed afterwards), or add a row for "
        "the PostgreSQL server at postgresql://URL (in a scratch schema, dropped afterwards)",
    )
    q.add_argument(
        "--no-schema",
        action="store_true",
        help="leave out the schema's cost against a minimal table (SQLite)",
    )
    q.set_defaults(func=_handle_ledger)


def _handle_sim(args: argparse.Namespace) -> int:
    if args.rounds < 1 or args.bare < 0:
        raise UsageError("bench_sim")
    if args.mmc:
        return _print_mmc(args)
    if len(args.tasks) > 1:
        return _print_scale(args)
    (tasks,) = args.tasks
    scenario = WIDGET if tasks == WIDGET.tasks else WIDGET.with_(tasks=tasks)
    s = scenario
    print(
        f"simlab bench sim: {s.tasks} tasks x {s.steps} steps, {s.workers} workers, faults on "
        f"(seed {args.seed}), best of {args.rounds} rounds"
    )
    out = bench_sim(scenario, seed=args.seed, rounds=args.rounds, bare=args.bare)
    print(
        f"{'ledger':<20} {'wall s':>7} {'completed/s':>12} {'vs MemoryLedger':>16} {'checking':>9}"
    )
    for row in out["rows"]:
        goal = ""
        if row["ledger"] == "Ledger(':memory:')":
            ok = row["ratio"] >= MEMORY_GOAL
            goal = f"  goal >= {MEMORY_GOAL}: {'ok' if ok else 'BELOW GOAL'}"
        print(
            f"{row['ledger']:<20} {row['seconds']:>7.3f} {row['per_s']:>12,.0f} "
            f"{row['ratio']:>16.2f} {row['check_share']:>8.0%}{goal}"
        )
    worst = max(row["check_share"] for row in out["rows"])
    verdict = "ok" if worst <= CHECK_GOAL else "ABOVE GOAL"
    print(
        f"checking (the model replay and every rule) costs at most {worst:.0%} of a simulate "
        f"call (goal <= {CHECK_GOAL:.0%}: {verdict})"
    )
    if out["bare_s"] is not None:
        r = out["widget_vs_bare_cpu"]
        verdict = "ok" if r <= WIDGET_GOAL else "ABOVE"
        print(
            f"{out['bare']:,} bare SimPy timeouts: {out['bare_cpu_s']:.3f} s CPU "
            f"({out['bare_s']:.3f} s wall); the run over ':memory:' costs {r:.2f} of that in CPU "
            f"time, {out['widget_vs_bare']:.2f} in wall time (goal <= {WIDGET_GOAL} of CPU: "
            f"{verdict})"
        )
    print(f"same history over all three ledgers: {'yes' if out['same_history'] else 'NO'}")
    return 0


def _print_mmc(args: argparse.Namespace) -> int:
    from simlab.bench.mmc import CIW_GOALS, MMC, bench_mmc, ciw_available

    customers = args.tasks[0] if args.tasks != [WIDGET.tasks] else 5000
    c, load = MMC["workers"], MMC["arrival_rate"] / MMC["workers"]
    print(
        f"simlab bench sim --mmc: M/M/{c} at load {load:g}, faults off, {customers} customers, "
        f"best CPU time of {args.rounds} rounds"
    )
    if not ciw_available():
        print("Ciw is not installed (pip install -e '.[bench]'): simlab rows only")
    out = bench_mmc(customers, rounds=args.rounds)
    print(f"{'engine':<20} {'CPU s':>7} {'customers/CPU s':>16} {'vs Ciw':>7}  mean wait [99% CI]")
    for row in out["rows"]:
        ratio = "" if row["ratio"] is None else f"{row['ratio']:.2f}"
        goal = CIW_GOALS.get(row["engine"])
        verdict = ""
        if goal is not None and row["ratio"] is not None:
            verdict = f"  goal >= {goal}: {'ok' if row['ratio'] >= goal else 'BELOW GOAL'}"
        lo, hi = row["ci"]
        inside = "inside" if lo <= out["erlang_wait"] <= hi else "OUTSIDE"
        print(
            f"{row['engine']:<20} {row['cpu_s']:>7.3f} {row['per_cpu_s']:>16,.0f} {ratio:>7}  "
            f"{row['wait']:.3f} [{lo:.3f}, {hi:.3f}] ({inside}){verdict}"
        )
    print(f"Erlang C mean wait: {out['erlang_wait']:.3f}")
    return 0


def _print_scale(args: argparse.Namespace) -> int:
    from simlab.bench.mmc import SCALE_GOAL, bench_scale

    print(
        f"simlab bench sim --tasks {','.join(map(str, args.tasks))}: the widget's scenario "
        f"(faults on) over MemoryLedger, seed {args.seed}, CPU time"
    )
    print(f"{'tasks':>8} {'CPU s':>8} {'ms/task':>8} {'x10 cost':>9}")
    for row in bench_scale(args.tasks, seed=args.seed):
        growth = ""
        if row["growth"] is not None:
            ok = row["growth"] <= SCALE_GOAL
            growth = f"{row['growth']:>9.2f}  goal <= {SCALE_GOAL:g}: {'ok' if ok else 'ABOVE'}"
        print(f"{row['tasks']:>8} {row['cpu_s']:>8.2f} {1000 * row['per_task_s']:>8.3f} {growth}")
    return 0


def _add_sim(bench_subparsers) -> argparse.ArgumentParser:
    """Add ``sim`` to the sub-commands of ``simlab bench``."""
    p = bench_subparsers.add_parser(
        "sim",
        help="simulated tasks per second over MemoryLedger, :memory: and a WAL file",
        description=(
            "Run one seeded widget-size simulation (1,000 tasks x 3 steps, 8 workers, faults on) "
            "over MemoryLedger, Ledger(':memory:') and a WAL file ledger; report completed "
            "tasks per wall second with ratios, against one million bare SimPy timeouts."
        ),
    )
    p.add_argument("--seed", type=int, default=1, help="random seed [1]")
    p.add_argument("--rounds", type=int, default=3, help="rounds; the best counts [3]")
    p.add_argument(
        "--tasks",
        type=positive_ints,
        default=[WIDGET.tasks],
        metavar="N[,N...]",
        help="tasks [1000]; several sizes (1000,10000,100000) print the CPU time per task of "
        "each and how a tenfold size grows the cost; with --mmc, the customers [5000]",
    )
    p.add_argument(
        "--mmc",
        action="store_true",
        help="with faults off and one step per task the simulator is an M/M/c queue: compare "
        "customers per CPU-second with Ciw (pip install -e '.[bench]') and the mean wait "
        "with Erlang C",
    )
    p.add_argument(
        "--bare",
        type=int,
        default=1_000_000,
        help="bare SimPy timeouts for the yardstick, 0 to skip [1000000]",
    )
    p.set_defaults(func=_handle_sim)
    return p


def _add_grade_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``simlab bench grade``."""
    parser.add_argument(
        "notebook",
        nargs="*",
        default=[DEFAULT_NOTEBOOK],
        help=f"solution notebooks, measured one after another [{DEFAULT_NOTEBOOK}]",
    )
    parser.add_argument(
        "--copies", type=int, default=20, help="copies in the class (0: no class) [20]"
    )
    parser.add_argument(
        "--jobs", "-j", type=int, default=None, help="notebooks at once [one per CPU]"
    )
    parser.add_argument(
        "--rounds", type=int, default=3, help="rounds for the single notebook; the best is kept [3]"
    )
    parser.add_argument(
        "--queue",
        action="store_true",
        help="instead: grading through the grading queue against plain grading, with 1 and "
        "2 workers (submissions per minute; --copies, --rounds)",
    )
    parser.add_argument(
        "--worker-processes",
        action="store_true",
        help="--queue: the queue worked by 1, then 2 worker processes (simlab grade --queue DB "
        "--worker --jobs 1) instead of one worker with 1, then 2 grading threads",
    )
    parser.add_argument(
        "--batch-rounds",
        type=int,
        default=1,
        help="rounds for the folder of copies; the best is kept [1]",
    )


def _handle_grade(args: argparse.Namespace) -> int:
    """Print the table of :func:`bench_grade`, for each notebook given."""
    for notebook in args.notebook:
        if not Path(notebook).is_file():
            raise UsageError("bench_notebook", notebook=notebook)
    if min(args.rounds, args.batch_rounds, args.jobs or 1) < 1 or args.copies < 0:
        raise UsageError("bench_grade")
    from simlab.grading.sandbox.jail import SandboxUnavailable

    if args.worker_processes and not args.queue:
        raise UsageError("option_of", flag="--worker-processes", mode="--queue")
    if args.queue:
        if len(args.notebook) > 1 or args.copies < 1:
            raise UsageError("bench_queue")
        args.notebook = args.notebook[0]
        return _handle_queue(args)
    print(
        f"{'notebook':<28} {'case':<14} {'jobs':>4} {'nbclient s':>10} {'grade s':>8} "
        f"{'ratio':>6}  {'goal':<14} {'nbclient cpu':>12} {'grade cpu':>9} {'ratio':>6}   "
        f"{'unjailed s':>10} {'cpu':>6}   {'jail s/nb':>9} {'cpu':>6}"
    )
    for notebook in args.notebook:
        try:
            rows = bench_grade(
                notebook,
                copies=args.copies,
                jobs=args.jobs,
                rounds=args.rounds,
                batch_rounds=args.batch_rounds,
            )
        except SandboxUnavailable as exc:
            raise UsageError("bench_jail", why=str(exc)) from None
        for row in rows:
            verdict = f"<= {row['goal']:g}: " + ("ok" if row["met"] else "ABOVE")
            print(
                f"{Path(notebook).stem[:28]:<28} {row['case']:<14} {row['jobs']:>4} "
                f"{row['execute_s']:>10.2f} {row['grade_s']:>8.2f} {row['ratio']:>6.2f}  "
                f"{verdict:<14} {row['execute_cpu_s']:>12.2f} {row['grade_cpu_s']:>9.2f} "
                f"{row['cpu_ratio']:>6.2f}   {row['unjailed_s']:>10.2f} "
                f"{row['unjailed_cpu_s']:>6.2f}   {row['sandbox_s']:>+9.2f} "
                f"{row['sandbox_cpu_s']:>+6.2f}"
            )
    print(
        "grade: jailed (the default); unjailed: grade --no-sandbox; jail s/nb: what the jail "
        "adds per notebook (wall, CPU). CPU: this process and every process it waited for; "
        "the goal holds on both ratios, wall (what an instructor waits for) and CPU."
    )
    return 0


def _handle_queue(args: argparse.Namespace) -> int:
    """Print the table of :func:`simlab.bench.queue.bench_queue`."""
    from simlab.bench.queue import GOAL as QUEUE_GOAL
    from simlab.bench.queue import bench_queue
    from simlab.grading.sandbox.jail import SandboxUnavailable, require

    try:
        require()
    except SandboxUnavailable as exc:
        raise UsageError("bench_jail", why=str(exc)) from None
    rows = bench_queue(
        args.notebook, copies=args.copies, rounds=args.rounds, processes=args.worker_processes
    )
    print(
        f"{'workers':>7} {'copies':>6} {'plain s':>8} {'queue s':>8} {'plain /min':>10} "
        f"{'queue /min':>10} {'ratio':>6}  goal <= {QUEUE_GOAL}"
    )
    for row in rows:
        verdict = "ok" if row["ratio"] <= QUEUE_GOAL else "ABOVE GOAL"
        print(
            f"{row['jobs']:>7} {row['copies']:>6} {row['plain_s']:>8.2f} {row['queue_s']:>8.2f} "
            f"{row['plain_per_min']:>10.1f} {row['queue_per_min']:>10.1f} {row['ratio']:>6.3f}"
            f"  {verdict}"
        )
    how = (
        "that many worker processes of one grading thread each"
        if args.worker_processes
        else "one worker with that many grading threads"
    )
    print(
        "plain: simlab grade of the folder with --jobs workers; queue: the same folder "
        f"enqueued in a new ledger file and graded by {how} (claim, heartbeat, fenced save). "
        "Wall time, best of --rounds, jailed."
    )
    return 0


def _names(text: str) -> list[str]:
    return [x.strip() for x in text.split(",") if x.strip()]


def _handle_shrink(args: argparse.Namespace) -> int:
    from simlab.bench.shrink import GOAL as SHRINK_GOAL
    from simlab.bench.shrink import bench_shrink
    from simlab.cli.sim import scenario_from_args
    from simlab.sim.scenario import VARIANTS

    if args.rounds < 1 or args.seeds < 1:
        raise UsageError("bench_seeds")
    for v in args.variants:
        if v not in VARIANTS:
            raise UsageError("bench_variant", v=v, known=", ".join(VARIANTS))
    base = scenario_from_args(args)
    seeds = range(args.first_seed, args.first_seed + args.seeds)
    print(
        f"simlab bench shrink: {base.tasks} tasks, {base.workers} workers, seeds "
        f"{seeds.start}-{seeds.stop - 1}, best of {args.rounds} rounds (simulate and shrink "
        "timed side by side)"
    )
    rows = bench_shrink(base, variants=args.variants, seeds=seeds, rounds=args.rounds)
    print(
        f"{'variant':<11} {'seed':>4} {'simulate':>10} {'shrink':>9} {'ratio':>6} "
        f"{'runs':>5} {'faults':>10}"
    )
    for r in rows:
        faults = "no failure" if r["ok"] else f"{r['original_faults']} -> {r['faults']}"
        print(
            f"{r['variant']:<11} {r['seed']:>4} {r['simulate_s']:>10.3f} {r['shrink_s']:>9.3f} "
            f"{r['ratio']:>6.1f} {r['simulations']:>5} {faults:>10}"
        )
    print("CPU seconds of this process, best round of each.")
    worst = max(r["ratio"] for r in rows)
    verdict = "ok" if worst <= SHRINK_GOAL else "ABOVE GOAL"
    print(f"worst ratio {worst:.1f} simulate-equivalents (goal <= {SHRINK_GOAL:g}): {verdict}")
    return 0


def _add_shrink(bench_subparsers) -> argparse.ArgumentParser:
    """Add ``shrink`` to the sub-commands of ``simlab bench``."""
    p = bench_subparsers.add_parser(
        "shrink",
        help="shrink time against one simulate of the same scenario",
        description=(
            "Time simulate and shrink of the same scenario and seed side by side, for each "
            "variant and seed; report the ratio (goal: shrinking costs at most 60 "
            "simulate-equivalents)."
        ),
    )
    p.add_argument("--variants", type=_names, default=["unfenced", "racy-claim"], help="[both]")
    from simlab.cli.sim import add_scenario_arguments

    p.add_argument("--seeds", type=integer, default=5, help="how many seeds [5]")
    p.add_argument("--first-seed", type=integer, default=1, help="first seed [1]")
    p.add_argument("--rounds", type=integer, default=3, help="rounds; the best counts [3]")
    add_scenario_arguments(p, skip=("variant",))
    p.set_defaults(func=_handle_shrink)
    return p
