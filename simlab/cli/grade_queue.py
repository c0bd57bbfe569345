"""``simlab grade --queue DB``: grading a class on the kit's own fenced ledger.

* ``simlab grade PATH... --queue DB [--jobs N]`` enqueues every submission (key, bytes, grader
  version), works the queue with N grading threads, then prints the results as ``simlab grade``
  does (``--json``: with ``status`` and ``attempts``). Run again after a crash or Ctrl-C, it
  resumes: what is graded at this grader version is not graded again.
* ``--enqueue-only`` persists the tasks and exits.
* ``--worker [--jobs N] [--lease S] [--max-attempts N]`` only works the queue (any machine that
  reaches DB) and exits when nothing is left to claim.
* ``--report [--json] [--csv FILE] [--feedback DIR] [--canvas FILE --roster FILE]
  [--changed] [--student ID]`` prints from the queue without grading, with the instructor's
  overrides laid over the grades.
* ``--override STUDENT EXERCISE/QUESTION POINTS --why TEXT`` and ``--clear-override STUDENT
  EXERCISE/QUESTION`` change one student's points for one question
  (:mod:`simlab.cli.grade_override`).

``--roster FILE`` names the class's students (:mod:`simlab.grading.roster`) for grading and for
every report. A DB that is not a grading queue, a DB that does not exist given to ``--worker``
or ``--report`` (never created), a roster that cannot be read: one line, exit status 2. Ctrl-C
hands the submissions in flight back to the queue, exit status 130.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from simlab.cli.args import UsageError, positive_int, positive_number
from simlab.cli.grade_override import MODES
from simlab.cli.language import mistake_says

__all__ = ["add_arguments", "uses_queue", "run"]

_QUEUE_ONLY = ("enqueue_only", "worker", "report", "feedback", "canvas", "changed", *MODES)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The queue's options of ``simlab grade``."""
    g = p.add_argument_group("grading a class on a queue (the kit's fenced ledger)")
    g.add_argument(
        "--queue",
        metavar="DB",
        help="grade through the grading queue DB (a ledger file or a postgresql:// URL): "
        "crash-safe, resumable, shared by workers on many machines",
    )
    g.add_argument(
        "--enqueue-only", action="store_true", help="only put the submissions in the queue"
    )
    g.add_argument(
        "--worker", action="store_true", help="only work the queue, until nothing is left"
    )
    g.add_argument(
        "--lease",
        type=positive_number,
        default=30.0,
        metavar="S",
        help="seconds a worker's lease lasts, renewed by heartbeats [30]",
    )
    g.add_argument(
        "--max-attempts",
        type=positive_int,
        default=3,
        metavar="N",
        help="claims of one submission before it is dead [3]",
    )
    g.add_argument("--report", action="store_true", help="print from the queue; grade nothing")
    g.add_argument("--feedback", metavar="DIR", help="--report: one HTML page per submission")
    g.add_argument("--canvas", metavar="FILE", help="--report: a Canvas gradebook CSV")
    g.add_argument(
        "--roster",
        metavar="FILE",
        help="the class's students, for every command: a CSV of notebook, Student, ID (one "
        "row per submission), or Canvas's gradebook export as it is (a submission is the "
        "student's whose SIS Login ID is one of its folders or its file name)",
    )
    g.add_argument(
        "--canvas-assignment",
        action="append",
        default=[],
        metavar='EXERCISE="Title (id)"',
        help="--canvas: name EXERCISE's column as Canvas names its assignment, with its ID, "
        "so that the import fills that assignment (repeat for each exercise)",
    )
    g.add_argument(
        "--missing",
        choices=("zero", "empty"),
        default=None,
        help="--canvas: what an ungradable submission exports as, 0 or an empty cell [empty]",
    )
    g.add_argument(
        "--changed",
        action="store_true",
        help="--report: the points that moved between the last two grades of each "
        "submission (the grader's points, before any --override), and whether the file or "
        "the grader changed",
    )
    from simlab.cli.grade_override import add_arguments as add_override_arguments

    add_override_arguments(p)


def uses_queue(args: argparse.Namespace) -> bool:
    """Does this ``simlab grade`` ask for the queue (or for one of its options)?"""
    return bool(args.queue) or any(getattr(args, name) for name in _QUEUE_ONLY)


def _check(args: argparse.Namespace) -> None:
    if not args.queue:
        given = next(n for n in _QUEUE_ONLY if getattr(args, n))
        raise UsageError("needs", flag="--" + given.replace("_", "-"), other="--queue DB")
    if args.rubric:
        raise UsageError("rubric_queue")
    from simlab.cli import grade_override

    grade_override.check(args)
    modes = [n for n in ("enqueue_only", "worker", "report") if getattr(args, n)]
    if len(modes) > 1:
        raise UsageError("modes_exclude", modes=tuple(f"--{m.replace('_', '-')}" for m in modes))
    if (args.worker or args.report) and args.paths:
        raise UsageError("mode_paths", flag=f"--{modes[0]}")
    if not args.report:
        for name in ("feedback", "canvas", "changed"):
            if getattr(args, name):
                raise UsageError("option_of", flag=f"--{name}", mode="--report")
    for name in ("canvas_assignment", "missing"):
        if getattr(args, name) and not args.canvas:
            raise UsageError("option_of", flag="--" + name.replace("_", "-"), mode="--canvas")
    if args.canvas and not args.roster:
        raise UsageError("canvas_roster")


def _open(target: str, create: bool = False, max_attempts: int | None = None):
    from simlab.grading.queue_store.store import NotAQueue, open_queue

    try:
        return open_queue(target, create=create, max_attempts=max_attempts)
    except NotAQueue as exc:
        raise UsageError.passed_on(exc) from None


def run(args: argparse.Namespace, check_sandbox: Callable[[argparse.Namespace], None]) -> int:
    """``simlab grade`` with ``--queue`` (module doc); ``check_sandbox`` refuses to grade
    without a jail unless ``--no-sandbox`` (as ``simlab grade`` does)."""
    _check(args)
    if args.override or args.clear_override:
        from simlab.cli import grade_override

        return grade_override.run(args, _open(args.queue))
    if args.report:
        from simlab.cli.grade_report import report

        return report(args, _open(args.queue))
    if args.worker:
        return _worker(args, check_sandbox)
    return _grade_class(args, check_sandbox)


def _left(queue) -> tuple[int, int, int]:
    """(queued or running, graded, dead) over the whole queue."""
    states = [status for _, status, _, _ in queue.states()]
    open_ = sum(s in ("queued", "running") for s in states)
    return open_, states.count("completed"), states.count("dead")


def _worker(args: argparse.Namespace, check_sandbox) -> int:
    with _open(args.queue) as queue:
        left, graded, dead = _left(queue)
    if not left:
        print(
            f"simlab grade: nothing left to grade in {_name(args.queue)} "
            f"({graded} graded, {dead} dead)"
        )
        return 0
    check_sandbox(args)
    status = _work(args)
    if status == 0:
        with _open(args.queue) as queue:
            left, graded, dead = _left(queue)
        print(
            f"simlab grade: the queue {_name(args.queue)} has {graded} graded, {dead} dead and "
            f"{left} left to grade (--report shows them)"
        )
    return status


def _name(target: str) -> str:
    from simlab.ledger.targets import redact

    return redact(target)


def _work(args: argparse.Namespace) -> int:
    from simlab.cli.grade_report import QueueBar
    from simlab.grading.grader import default_jobs
    from simlab.grading.queue import Incompatible, work
    from simlab.grading.sandbox import host

    bar = QueueBar(enabled=not args.no_progress and sys.stderr.isatty())
    try:
        # SIGTERM stops a worker as Ctrl-C does (its submissions go back to the queue), and
        # nothing the grading made on the host outlives the worker.
        with host.session(), bar:
            summary = work(
                args.queue,
                jobs=args.jobs or default_jobs(),
                lease=args.lease,
                max_attempts=args.max_attempts,
                sandbox=not args.no_sandbox,
                progress=bar.update,
                say=bar.say,
            )
    except Incompatible as exc:
        raise UsageError.passed_on(exc) from None
    if summary.interrupted:
        print(mistake_says("grade_interrupted", args.lang, n=summary.released), file=sys.stderr)
        return 130
    return 0


def _grade_class(args: argparse.Namespace, check_sandbox) -> int:
    from simlab.cli import grade_deadline as deadlines
    from simlab.cli.grade_class import intake
    from simlab.grading.queue import enqueue, grader_version, settings_for

    found, paths, notebooks, terms, given, _ = intake(args, "--worker, --report")
    keys = [str(nb) for nb in notebooks]
    if not args.enqueue_only:
        check_sandbox(args)
    settings = settings_for(
        args.timeout, args.notebook_timeout, args.max_output, not args.no_sandbox
    )
    version = grader_version()
    with _open(args.queue, create=True) as queue:
        ids = enqueue(queue, paths, version, settings)
        deadlines.record(queue, ids, keys, args, found)
        deadlines.store_terms(queue, terms, given)
    if args.enqueue_only:
        print(
            f"enqueued {len(ids)} submission(s) in {_name(args.queue)} (grader version {version})"
        )
        return 0
    status = _work(args)
    if status:
        return status
    from simlab.cli.grade_report import print_results

    with _open(args.queue) as queue:
        return print_results(args, queue, ids, found)
