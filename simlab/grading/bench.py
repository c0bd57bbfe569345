"""How much grading costs on top of merely running the notebooks.

The floor is what any notebook grader must pay: executing the notebook with nbclient (a kernel
start, every cell). :func:`bench_grade` measures, side by side in one run:

* one notebook: ``grade`` against one plain nbclient execution (best of ``rounds``, the two
  alternating, so machine noise hits both alike);
* a class: ``grade`` of a folder of ``copies`` copies, ``jobs`` at a time, against executing
  the same copies with nbclient, ``jobs`` at a time.

Each side is measured in wall-clock seconds and in CPU seconds (this process, its kernels, the
worker processes they start, and the sandboxes). On a shared machine the CPU figures are the
steadier ones. The goal is a ratio of at most 1.5. Both sides stop their kernels at once.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

__all__ = ["bench_grade", "add_arguments", "handle", "GOAL"]

GOAL = 1.5
DEFAULT_NOTEBOOK = "solutions/02_leases_effects_and_loop.ipynb"


def _cpu() -> float:
    """CPU seconds of this process and of every child it has waited for (kernels, workers,
    and, after :func:`simlab.grading.zygote.shutdown`, the sandboxes)."""
    own, children = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _measured(run, *args) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of ``run(*args)``; the zygote is stopped before and after,
    so each grading run pays for starting one, and its sandboxes' CPU time is counted."""
    from simlab.grading import zygote

    zygote.shutdown()
    cpu, wall = _cpu(), time.perf_counter()
    run(*args)
    zygote.shutdown()
    return time.perf_counter() - wall, _cpu() - cpu


def _plain(paths: list[Path], jobs: int, timeout: int) -> None:
    from simlab.grading.execute import execute_plain
    from simlab.grading.notebook import read_notebook

    def one(path: Path) -> None:
        execute_plain(read_notebook(path), timeout=timeout, cwd=str(path.parent))

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        list(pool.map(one, paths))


def _graded(paths: list[Path], jobs: int, timeout: int) -> None:
    from simlab.grading.grader import grade

    grades = grade(paths, jobs=jobs, timeout=timeout)
    short = [g.notebook for g in grades if g.score != g.max_score or g.error]
    if short:
        raise RuntimeError(f"a solution notebook did not get full marks: {short[0]}")


def bench_grade(
    notebook: str | Path = DEFAULT_NOTEBOOK,
    *,
    copies: int = 20,
    jobs: int | None = None,
    rounds: int = 3,
    batch_rounds: int = 1,
    timeout: int = 60,
) -> list[dict]:
    """One row per case, ``{"case", "notebooks", "jobs", "execute_s", "grade_s", "ratio",
    "execute_cpu_s", "grade_cpu_s", "cpu_ratio"}``: one notebook (best of ``rounds``), then a
    folder of ``copies`` copies graded ``jobs`` at a time (best of ``batch_rounds``). The two
    sides alternate within a round, so noise hits both alike; CPU seconds do not depend on what
    else the machine runs."""
    from simlab.grading.grader import default_jobs

    jobs = jobs or default_jobs()
    source = Path(notebook)
    with tempfile.TemporaryDirectory(prefix="simlab-bench-") as folder:
        paths = []
        for i in range(copies):
            target = Path(folder) / f"student{i:02d}" / source.name
            target.parent.mkdir()
            shutil.copy(source, target)
            paths.append(target)
        cases = (
            ("one notebook", [source], 1, rounds),
            (f"{copies} copies", paths, jobs, batch_rounds),
        )
        rows = []
        for case, batch, width, repeat in cases:
            execute, graded = [], []
            for _ in range(repeat):
                execute.append(_measured(_plain, batch, width, timeout))
                graded.append(_measured(_graded, batch, width, timeout))
            wall = (min(e[0] for e in execute), min(g[0] for g in graded))
            cpu = (min(e[1] for e in execute), min(g[1] for g in graded))
            rows.append(
                {
                    "case": case,
                    "notebooks": len(batch),
                    "jobs": width,
                    "execute_s": wall[0],
                    "grade_s": wall[1],
                    "ratio": wall[1] / wall[0],
                    "execute_cpu_s": cpu[0],
                    "grade_cpu_s": cpu[1],
                    "cpu_ratio": cpu[1] / cpu[0],
                }
            )
    return rows


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``simlab bench grade``."""
    parser.add_argument(
        "notebook",
        nargs="?",
        default=DEFAULT_NOTEBOOK,
        help=f"a solution notebook [{DEFAULT_NOTEBOOK}]",
    )
    parser.add_argument("--copies", type=int, default=20, help="copies in the class [20]")
    parser.add_argument(
        "--jobs", "-j", type=int, default=None, help="notebooks at once [one per CPU]"
    )
    parser.add_argument(
        "--rounds", type=int, default=3, help="rounds for the single notebook; the best is kept [3]"
    )
    parser.add_argument(
        "--batch-rounds",
        type=int,
        default=1,
        help="rounds for the folder of copies; the best is kept [1]",
    )


def handle(args: argparse.Namespace) -> int:
    """Print the table of :func:`bench_grade`."""
    from simlab.cli import UsageError

    if not Path(args.notebook).is_file():
        raise UsageError(f"no such notebook: {args.notebook}")
    if min(args.copies, args.rounds, args.batch_rounds, args.jobs or 1) < 1:
        raise UsageError("--copies, --rounds, --batch-rounds and --jobs must be positive")
    rows = bench_grade(
        args.notebook,
        copies=args.copies,
        jobs=args.jobs,
        rounds=args.rounds,
        batch_rounds=args.batch_rounds,
    )
    print(
        f"{'case':<14} {'jobs':>4} {'nbclient s':>10} {'grade s':>8} {'ratio':>6}   "
        f"{'nbclient cpu':>12} {'grade cpu':>9} {'ratio':>6}  goal <= {GOAL}"
    )
    for row in rows:
        verdict = "ok" if max(row["ratio"], row["cpu_ratio"]) <= GOAL else "ABOVE GOAL"
        print(
            f"{row['case']:<14} {row['jobs']:>4} {row['execute_s']:>10.2f} "
            f"{row['grade_s']:>8.2f} {row['ratio']:>6.2f}   {row['execute_cpu_s']:>12.2f} "
            f"{row['grade_cpu_s']:>9.2f} {row['cpu_ratio']:>6.2f}  {verdict}"
        )
    return 0
