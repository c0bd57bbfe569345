"""Grading a class on the kit's own fenced ledger: ``simlab grade --queue``.

Each submission becomes one grading task of a ledger (:mod:`simlab.grading.queue_store.store`),
keyed by its ``notebook`` value of ``--json``, the SHA-256 of its bytes (stored with it, so a
worker on another machine needs no files) and the grader version, :func:`grader_version`.
Workers claim tasks with leases, grade each with the ordinary grader
(:func:`~simlab.grading.grader.grade_notebook`, unchanged), heartbeat while it runs, and commit
the result with the fenced save. Hence:

* a submission already graded at this grader version is never graded again; a changed file (new
  bytes) or a new grader version is;
* a worker killed mid-submission loses nothing but its attempt: its lease runs out and another
  claim grades the submission (``lost``, then ``graded``), at most ``max_attempts`` claims, then
  the submission is ``dead``;
* a worker that stopped past its lease and comes back finds its epoch taken: its late result is
  refused by the fence and kept only as history (``stale``);
* Ctrl-C hands the submissions being graded back to the queue (``released``).

:func:`work` runs one worker process: ``jobs`` grading threads, each with its own connection,
each grading in a place of its own (:class:`~simlab.grading.processes.GradingProcesses`: the
worker's process and ``jobs - 1`` grading processes, so the hidden checks of two submissions
never take turns on one interpreter lock), and the calling thread, which heartbeats every lease
in flight, draws the progress bar and handles Ctrl-C. A grading process that dies under a
submission costs that attempt only: the submission is handed back (``released``) and claimed
again, at most ``max_attempts`` times in all. A worker grades only submissions enqueued at its
own grader version and with its own choice of jail (:func:`check_compatible`).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simlab.grading import processes
from simlab.grading.messages import capped, message, sentence, stored
from simlab.grading.notebook import MAX_NOTEBOOK_BYTES, too_large
from simlab.grading.queue_store.store import GradingQueue, Job, open_queue
from simlab.grading.sandbox import host
from simlab.grading.submissions import find_notebooks, refusal_message, same_files, unreadable
from simlab.grading.text import FEEDBACK_CHARS, path_text, quoted_path, shown_path
from simlab.grading.version import grader_version
from simlab.records import Lease

__all__ = [
    "DEFAULT_LEASE",
    "DEFAULT_MAX_ATTEMPTS",
    "Incompatible",
    "WorkSummary",
    "check_compatible",
    "enqueue",
    "grade_job",
    "grader_version",
    "settings_for",
    "work",
]

#: Seconds a worker's lease lasts between heartbeats (three heartbeats per lease).
DEFAULT_LEASE = 30.0
#: Claims of one submission before it is dead (``--max-attempts``).
DEFAULT_MAX_ATTEMPTS = 3


class Incompatible(Exception):
    """This worker cannot grade the queue's pending submissions (one line saying why)."""


def settings_for(
    timeout: float, notebook_timeout: float | None, max_output: int, sandbox: bool
) -> dict[str, Any]:
    """The grading options a submission is enqueued with; every worker grades with them."""
    return {
        "timeout": timeout,
        "notebook_timeout": notebook_timeout,
        "max_output": max_output,
        "sandbox": sandbox,
    }


def enqueue(
    queue: GradingQueue, paths: Sequence[str | Path], version: str, settings: dict[str, Any]
) -> list[str]:
    """Persist one grading task per submission found in ``paths`` (as
    :func:`~simlab.grading.submissions.find_notebooks` finds them) and return their task IDs
    in that order. A file that is not a submission (a link, a hard-linked twin, not a regular
    file, unreadable) is enqueued with its one-line refusal and no bytes: it is never read; nor
    is more of a file than a notebook may hold (:data:`MAX_NOTEBOOK_BYTES`), and a larger one
    is enqueued refused the same way."""
    notebooks = find_notebooks(paths)
    twins = same_files(notebooks)
    ids = []
    for nb in notebooks:
        why = refusal_message(nb, twins)
        content = None
        if why is None:
            try:
                with nb.open("rb") as f:  # a file too large to be a notebook is not kept
                    content = f.read(MAX_NOTEBOOK_BYTES + 1)
            except OSError as exc:
                why = unreadable(exc)
            else:
                if len(content) > MAX_NOTEBOOK_BYTES:
                    content, why = None, too_large()
        refused = None
        if why is not None:  # stored as a message, so a report renders it in its own language
            said = message("grader.refused", path=quoted_path(nb), why=why)
            refused = json.dumps(said.to_data(), ensure_ascii=False)
        ids.append(queue.enqueue(path_text(nb), content, version, settings, refused))
    return ids


def replaced(data: Any, old: str, new: str) -> Any:
    """JSON values (a ``--json`` object, its stored messages included) with ``old`` written
    ``new`` in every text value; keys stay as they are."""
    if isinstance(data, dict):
        return {k: replaced(v, old, new) for k, v in data.items()}
    if isinstance(data, list):
        return [replaced(v, old, new) for v in data]
    if isinstance(data, str):
        return data.replace(old, new)
    return data


def grade_job(job: Job) -> tuple[dict[str, Any], str]:
    """Grade one claimed submission from its stored bytes with the ordinary grader; return its
    ``--json`` object and the attempt's outcome (``timeout`` when the notebook used its whole
    budget, else ``graded``). The bytes are written to a private folder under the submission's
    file name, and that folder's path never reaches the result."""
    from simlab.grading.grader import (
        BUDGET_FACTOR,
        NotebookGrade,
        budget_message,
        crash_message,
        grade_notebook,
    )

    s = job.settings
    if job.refused is not None or job.content is None:
        # A refusal is stored as a message; a queue made before that stored its English line.
        said = message("grader.no_bytes") if job.refused is None else stored(job.refused)
        if said is None:
            said = sentence(job.refused or "")
        failed = NotebookGrade.failed(job.notebook, capped(said, FEEDBACK_CHARS))
        return failed.to_dict(messages=True), "graded"
    folder = host.mkdtemp("simlab-queue-")
    try:
        path = Path(folder) / (Path(job.notebook).name or "submission.ipynb")
        path.write_bytes(job.content)
        try:
            g = grade_notebook(
                path,
                timeout=s["timeout"],
                max_output=s["max_output"],
                sandbox=s["sandbox"],
                notebook_timeout=s["notebook_timeout"],
            )
        except Exception as exc:  # a grader bug must not stop the batch
            g = NotebookGrade.failed(str(path), capped(crash_message(exc), FEEDBACK_CHARS))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    # with its messages: a report renders each in its own language
    result = replaced(g.to_dict(messages=True), str(path), job.notebook)
    result["notebook"] = job.notebook
    budget = str(budget_message(s["notebook_timeout"] or BUDGET_FACTOR * s["timeout"]))
    timed_out = any(q["feedback"] == budget for q in result["questions"])
    return result, "timeout" if timed_out else "graded"


def check_compatible(queue: GradingQueue, version: str, sandbox: bool) -> None:
    """Raise :class:`Incompatible` unless every pending submission was enqueued at this grader
    version and with this worker's choice of jail (an unjailed worker never takes jailed work,
    and a jailed one never silently grades work enqueued ``--no-sandbox``)."""
    for theirs, settings in queue.open_settings():
        if theirs != version:
            raise Incompatible(
                f"the queue holds submissions for grader version {theirs}, this machine's "
                f"grader is {version}: run the same simlab code here"
            )
        if bool(settings.get("sandbox", True)) != sandbox:
            how = "jailed" if settings.get("sandbox", True) else "with --no-sandbox"
            raise Incompatible(f"the queue's submissions are to be graded {how}: say the same")


@dataclass
class WorkSummary:
    """What one worker process did."""

    graded: int = 0
    stale: int = 0
    released: int = 0
    lines: list[str] = field(default_factory=list)  # dead submissions, problems
    interrupted: bool = False


class _Shared:
    """The state a worker process's threads share: leases in flight, the stop flag and the
    lock that orders each claim and each commit against the release on Ctrl-C (so the release
    sees every submission claimed before it, and none is claimed or committed after it)."""

    def __init__(self) -> None:
        self.stop = threading.Event()
        self.commit = threading.Lock()
        self.inflight: dict[str, Any] = {}  # thread name -> lease
        self.summary = WorkSummary()
        self.errors: list[BaseException] = []
        self.names: set[str] = set()  # this process's worker names
        self.graders: processes.GradingProcesses | None = None  # where the threads grade

    def stopping(self) -> bool:
        """Whether the threads are to stop: the flag is set, or the command line's session was
        interrupted already (its handler runs before the flag can be set)."""
        return self.stop.is_set() or host.interrupted()


def _job_loop(target, name: str, ttl: float, max_attempts, version, sandbox, shared, say):
    """One grading thread: claim, grade, commit, until nothing is left or it is stopped."""
    try:
        queue = open_queue(target, max_attempts=max_attempts)
    except BaseException as exc:
        shared.errors.append(exc)
        shared.stop.set()
        return
    try:
        with queue:
            _claim_loop(queue, name, ttl, max_attempts, version, sandbox, shared, say)
    except BaseException as exc:  # ends this thread; work() raises it
        shared.errors.append(exc)
        shared.stop.set()


def _dead_lines(queue: GradingQueue, max_attempts: int) -> list[str]:
    """One line per submission that the last claim sent to the dead letter."""
    lines = []
    for task_id, _worker, _epoch in queue.mark_lost():
        record = queue.ledger.get(task_id)
        if record.status == "dead":
            key = (record.goal or {}).get("notebook", task_id)
            lines.append(
                f"{shown_path(key)}: dead: {max_attempts} attempts and no result "
                f"(--max-attempts {max_attempts}); not graded"
            )
    return lines


def _claim_loop(queue, name, ttl, max_attempts, version, sandbox, shared, say) -> None:
    """Claim, grade and commit until nothing is left or ``shared.stop``."""
    poll = min(1.0, ttl / 4)
    mine = shared.names
    while not shared.stopping():
        with shared.commit:
            if shared.stopping():
                return
            host.interrupt_at("claim")
            job = queue.claim(name, ttl)
        for line in _dead_lines(queue, max_attempts):
            shared.summary.lines.append(line)
            say(line)
        if job is None:
            others = [
                w for _, status, w, _ in queue.states() if status == "running" and w not in mine
            ]
            if not others:
                return  # nothing queued; what is running, this process's threads will commit
            shared.stop.wait(poll)  # another process's lease may still run out
            continue
        if job.version != version or bool(job.settings.get("sandbox", True)) != sandbox:
            queue.release(job.lease)
            shared.errors.append(
                Incompatible(f"{shown_path(job.notebook)}: enqueued for another grader")
            )
            shared.stop.set()
            return
        shared.inflight[name] = job.lease
        if shared.stopping():
            return  # stopped since the claim: work() hands its submission back
        try:
            result, outcome = shared.graders.call(grade_job, job)
        except processes.ProcessLost:
            if shared.stopping():
                return  # the worker is ending its grading processes: work() hands it back
            with shared.commit:
                shared.inflight.pop(name, None)
                queue.release(job.lease)
            say(
                f"{shown_path(job.notebook)}: its grading process ended; handed back for "
                "another attempt"
            )
            continue
        host.interrupt_at("graded")
        with shared.commit:
            if shared.stopping():
                return  # stopped meanwhile: work() hands its submission back
            shared.inflight.pop(name, None)
            host.interrupt_at("commit")
            if queue.finish(job.lease, result, outcome):
                shared.summary.graded += 1
            else:
                shared.summary.stale += 1
                say(f"{shown_path(job.notebook)}: a late result, refused by the fence (stale)")


def work(
    target: str | Path,
    *,
    jobs: int = 1,
    lease: float = DEFAULT_LEASE,
    max_attempts: int = DEFAULT_MAX_ATTEMPTS,
    sandbox: bool = True,
    progress: Callable[[list[tuple]], None] | None = None,
    say: Callable[[str], None] = lambda line: None,
    worker: str | None = None,
) -> WorkSummary:
    """Work the queue ``target`` with ``jobs`` grading threads (each grading in a place of its
    own: this process or a grading process) until nothing is left to claim
    (no submission queued, none held by a live lease), or until Ctrl-C, which releases the
    submissions in flight (``interrupted`` is then set). The calling thread heartbeats every
    ``lease / 3`` seconds and calls ``progress`` with the queue's states. Raises
    :class:`Incompatible` before grading anything if this worker cannot grade the queue."""
    version = grader_version()
    base = worker or f"{socket.gethostname()}:{os.getpid()}"
    shared = _Shared()
    shared.names = {f"{base}/{n}" for n in range(1, jobs + 1)}
    with open_queue(target, max_attempts=max_attempts) as main:
        check_compatible(main, version, sandbox)
        threads = [
            threading.Thread(
                target=_job_loop,
                args=(target, f"{base}/{n}", lease, max_attempts, version, sandbox, shared, say),
                name=f"queue-{n}",
                daemon=True,  # Ctrl-C: the queue has the work back; nothing waits for it
            )
            for n in range(1, jobs + 1)
        ]
        try:  # a Ctrl-C while the threads start may come after one has claimed already
            with processes.tuned_for_grading(), processes.running(jobs) as shared.graders:
                for t in threads:
                    t.start()
                _supervise(main, threads, lease, shared, progress)
        except KeyboardInterrupt:
            shared.stop.set()
            with shared.commit:  # after a claim or a commit under way, before any other
                shared.summary.released = _hand_back(main, base)
            shared.summary.interrupted = True
    if shared.errors:
        raise shared.errors[0]
    return shared.summary


def _hand_back(main: GradingQueue, base: str) -> int:
    """Release every submission this worker process holds (also one claimed a moment ago,
    before its thread could say so) and return how many."""
    released = 0
    for task_id, status, worker, _ in main.states():
        if status == "running" and worker and worker.startswith(base + "/"):
            record = main.ledger.get(task_id)
            lease = Lease(task_id, record.worker, record.epoch, record.step, 0.0, None, 0)
            released += main.release(lease)
    return released


def _supervise(main: GradingQueue, threads, ttl: float, shared: _Shared, progress) -> None:
    """Heartbeat the leases in flight and show progress until every grading thread ended."""
    beat = ttl / 3
    last = 0.0
    while any(t.is_alive() for t in threads):
        now = time.monotonic()
        if now - last >= beat:
            last = now
            for held in list(shared.inflight.values()):
                main.heartbeat(held, ttl)  # False: taken over; its commit will be refused
        if progress is not None:
            progress(main.states())
        for t in threads:
            t.join(timeout=min(0.5, beat) / len(threads))
    if progress is not None:
        progress(main.states())
