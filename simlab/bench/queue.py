"""What grading through the queue costs over a plain ``simlab grade`` of the same files.

:func:`bench_queue` grades a class of ``copies`` copies of one notebook, side by side in one
run, ``jobs`` at a time for each ``jobs`` asked (1 and 2 by default):

* plain: :func:`~simlab.grading.grader.grade` of the folder;
* queue: the same folder enqueued into a new ledger file and worked by one worker with ``jobs``
  grading threads (:func:`simlab.grading.queue.work`): claim, heartbeat, fenced save, attempts;
  with ``processes=True``, by ``jobs`` worker processes of one grading thread each, started as
  an instructor starts them (``simlab grade --queue DB --worker --jobs 1``), the way a class is
  shared by workers on several machines.

Each round runs both sides one after the other, alternating which goes first, and the best of
``rounds`` is kept, so machine noise hits both alike. Reported: submissions per minute of each
side and their ratio (queue wall time over plain wall time). The goal is a ratio of at most
:data:`GOAL`.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

__all__ = ["bench_queue", "GOAL"]

GOAL = 1.05


def _plain(folder: Path, jobs: int, sandbox: bool) -> None:
    from simlab.grading.grader import grade

    grades = grade(folder, jobs=jobs, sandbox=sandbox)
    if any(g.error for g in grades):
        raise RuntimeError(f"a notebook could not be graded: {grades[0].error}")


def _queued(folder: Path, jobs: int, sandbox: bool, db: Path, processes: bool = False) -> None:
    from simlab.grading.grader import DEFAULT_MAX_OUTPUT, DEFAULT_TIMEOUT
    from simlab.grading.queue import enqueue, grader_version, settings_for, work
    from simlab.grading.queue_store.store import open_queue

    settings = settings_for(DEFAULT_TIMEOUT, None, DEFAULT_MAX_OUTPUT, sandbox)
    with open_queue(db, create=True) as queue:
        enqueue(queue, [folder], grader_version(), settings)
    stale = (
        _worker_processes(db, jobs, sandbox)
        if processes
        else work(db, jobs=jobs, sandbox=sandbox).stale
    )
    with open_queue(db) as queue:
        if any(s.status != "graded" for s in queue.submissions()) or stale:
            raise RuntimeError("the queue did not grade every submission exactly once")


def _worker_processes(db: Path, n: int, sandbox: bool) -> int:
    """Work the queue ``db`` with ``n`` worker processes of one grading thread each, started
    at once; 0 when every one ended well (raises otherwise)."""
    import subprocess
    import sys

    argv = [sys.executable, "-m", "simlab", "grade", "--queue", str(db), "--worker"]
    argv += ["--jobs", "1", "--no-progress", *([] if sandbox else ["--no-sandbox"])]
    procs = [
        subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        for _ in range(n)
    ]
    failed = [(p.wait(), p.stderr.read()) for p in procs]
    for p in procs:
        p.stderr.close()
    bad = [err.strip() for code, err in failed if code != 0]
    if bad:
        raise RuntimeError(f"a worker process failed: {bad[0]}")
    return 0


def bench_queue(
    notebook: str | Path,
    *,
    copies: int = 8,
    jobs: Sequence[int] = (1, 2),
    rounds: int = 2,
    sandbox: bool = True,
    processes: bool = False,
) -> list[dict]:
    """One row per ``jobs`` (``processes``: the queue worked by that many worker processes;
    module doc): ``plain_s``, ``queue_s`` (best wall seconds), ``plain_per_min``,
    ``queue_per_min`` (submissions per minute) and ``ratio`` (queue / plain)."""
    rows = []
    with tempfile.TemporaryDirectory(prefix="simlab-bench-queue-") as tmp:
        folder = Path(tmp) / "class"
        for i in range(copies):
            (folder / f"s{i:03d}").mkdir(parents=True)
            shutil.copy(notebook, folder / f"s{i:03d}" / Path(notebook).name)
        for n in jobs:
            best = {"plain": float("inf"), "queue": float("inf")}
            for r in range(rounds):
                order = ["plain", "queue"] if r % 2 == 0 else ["queue", "plain"]
                for side in order:
                    db = Path(tmp) / f"q-{n}-{r}.sqlite"
                    started = time.perf_counter()
                    if side == "plain":
                        _plain(folder, n, sandbox)
                    else:
                        _queued(folder, n, sandbox, db, processes)
                    best[side] = min(best[side], time.perf_counter() - started)
            rows.append(
                {
                    "jobs": n,
                    "processes": processes,
                    "copies": copies,
                    "plain_s": best["plain"],
                    "queue_s": best["queue"],
                    "plain_per_min": 60 * copies / best["plain"],
                    "queue_per_min": 60 * copies / best["queue"],
                    "ratio": best["queue"] / best["plain"],
                }
            )
    return rows
