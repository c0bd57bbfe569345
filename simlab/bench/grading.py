"""How much grading costs on top of merely running the notebooks.

The floor is what any notebook grader must pay: executing the notebook with nbclient (a kernel
start, every cell). :func:`bench_grade` measures, side by side in one run:

* one notebook: ``grade`` against one plain nbclient execution (best of ``rounds``, the two
  alternating, so machine noise hits both alike);
* a class: ``grade`` of a folder of ``copies`` copies, ``jobs`` at a time, against executing
  the same copies with nbclient, ``jobs`` at a time.

A third side grades the same notebooks without the jail (``--no-sandbox``), so the jail's own
cost per notebook is measured side by side too (``sandbox_s``, ``sandbox_cpu_s``: jailed minus
unjailed grading, divided by the number of notebooks).

Each side is measured in wall-clock seconds and in CPU seconds (this process, the kernels of the
floor, the grader's sandboxes and the worker processes they start). On a shared machine the CPU
figures are the steadier ones. The goals hold on both: grading one notebook costs at most
:data:`GOAL` times its bare execution in wall-clock time (what an instructor waits for) and in
CPU time (what a shared machine pays), a class at most :data:`CLASS_GOAL` times on both. The
floor stops its kernels at once.
"""

from __future__ import annotations

import copy
import gc
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # every command's parser imports this module: nbformat only when used
    import nbformat

__all__ = ["bench_grade", "execute_plain", "GOAL", "CLASS_GOAL", "DEFAULT_NOTEBOOK"]

#: The most grading one notebook may cost against executing it with nbclient, in wall time
#: and in CPU time alike.
GOAL = 0.8
#: The same for a class of copies graded side by side.
CLASS_GOAL = 0.8
DEFAULT_NOTEBOOK = "solutions/02_leases_effects_and_loop.ipynb"


def _cpu() -> float:
    """CPU seconds of this process and of every child it has waited for (kernels, workers,
    sandboxes)."""
    own, children = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _measured(run, *args) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of ``run(*args)``; the garbage of what ran before is
    collected first, outside the measurement."""
    gc.collect()  # no side pays for the garbage another left (nbclient's event loops)
    cpu, wall = _cpu(), time.perf_counter()
    run(*args)
    return time.perf_counter() - wall, _cpu() - cpu


def execute_plain(
    nb: nbformat.NotebookNode, *, timeout: int = 60, cwd: str | None = None
) -> nbformat.NotebookNode:
    """Just execute (a copy of) ``nb`` with nbclient, in a kernel of this interpreter's
    ipykernel (never a kernelspec installed elsewhere), and return it with its outputs: what
    every notebook grader has to pay at least, the benchmark's floor.

    It stops the kernel at once when done (nbclient's default waits for a graceful shutdown,
    which would make the floor look slower than it is).
    """
    from jupyter_client.kernelspec import KernelSpec
    from jupyter_client.manager import AsyncKernelManager
    from nbclient import NotebookClient

    class CurrentEnvKernelManager(AsyncKernelManager):
        @property
        def kernel_spec(self) -> KernelSpec:
            if self._kernel_spec is None:
                self._kernel_spec = KernelSpec(
                    argv=[sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
                    display_name="Python 3 (simlab)",
                    language="python",
                )
            return self._kernel_spec

    client = NotebookClient(
        copy.deepcopy(nb),
        timeout=timeout,
        kernel_name="python3",
        kernel_manager_class=CurrentEnvKernelManager,
        shutdown_kernel="immediate",
        resources={"metadata": {"path": cwd or os.getcwd()}},
    )
    return client.execute(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _plain(paths: list[Path], jobs: int, timeout: int) -> None:
    from simlab.grading.notebook import read_notebook

    def one(path: Path) -> None:
        execute_plain(read_notebook(path), timeout=timeout, cwd=str(path.parent))

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        list(pool.map(one, paths))


def _graded(paths: list[Path], jobs: int, timeout: int, sandbox: bool = True) -> None:
    from simlab.grading.grader import grade

    grades = grade(paths, jobs=jobs, timeout=timeout, sandbox=sandbox)
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
    "execute_cpu_s", "grade_cpu_s", "cpu_ratio", "unjailed_s", "unjailed_cpu_s", "sandbox_s",
    "sandbox_cpu_s", "goal", "met"}``: one notebook (best of ``rounds``), then, unless ``copies`` is
    0, a folder of ``copies`` copies graded ``jobs`` at a time (best of ``batch_rounds``).
    ``met`` says whether both ``ratio`` (wall) and ``cpu_ratio`` are at most ``goal``. The
    sides alternate within a round, so noise hits them alike; CPU seconds do not depend on what
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
        cases = [("one notebook", [source], 1, rounds)]
        if copies:
            cases.append((f"{copies} copies", paths, jobs, batch_rounds))
        rows = []
        for case, batch, width, repeat in cases:
            sides: tuple[list, list, list] = ([], [], [])
            for _ in range(repeat):
                sides[0].append(_measured(_plain, batch, width, timeout))
                sides[1].append(_measured(_graded, batch, width, timeout, True))
                sides[2].append(_measured(_graded, batch, width, timeout, False))
            wall = [min(m[0] for m in side) for side in sides]
            cpu = [min(m[1] for m in side) for side in sides]
            goal = GOAL if len(batch) == 1 else CLASS_GOAL
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
                    "unjailed_s": wall[2],
                    "unjailed_cpu_s": cpu[2],
                    "sandbox_s": (wall[1] - wall[2]) / len(batch),
                    "sandbox_cpu_s": (cpu[1] - cpu[2]) / len(batch),
                    "goal": goal,
                    "met": wall[1] / wall[0] <= goal and cpu[1] / cpu[0] <= goal,
                }
            )
    return rows
