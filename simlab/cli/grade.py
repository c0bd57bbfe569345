"""``simlab grade`` and ``simlab build-exercises``.

``simlab grade PATH...`` grades notebooks and folders of notebooks and prints one block per
notebook; ``--json`` prints one JSON object per notebook instead, ``--csv FILE`` also writes a
class spreadsheet; ``--lang zh`` gives the feedback in Chinese (the grades are the same).
``simlab grade --rubric EXERCISE`` prints what each question's points are for (no hidden input);
EXERCISE is an exercise's name (``leases``) or its notebook's path.
``simlab grade --nbgrader COURSE_DIR --assignment NAME`` grades an nbgrader course's collected
submissions, and ``--deadline``/``--late-policy``/``--extension``/``--excuse`` apply late
penalties (:mod:`simlab.cli.grade_deadline`).
Exit status 0 when every notebook was graded (whatever its score) and every export written, 1
when a notebook could not be graded at all (not a notebook, unknown exercise, a link or another
file that is not a regular one), 2 for a usage mistake or a missing sandbox, 3 when an export
could not be written (3 wins over 1), 130 after Ctrl-C.

``simlab build-exercises`` writes ``exercises/`` from ``solutions/``; ``--check`` writes nothing
and exits 1 when ``exercises/`` is stale (``make test`` runs the same check as a test).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import PurePath

from simlab.cli.args import UsageError, positive_int, positive_number
from simlab.cli.grade_class import intake, missing_students, show_results
from simlab.cli.language import mistake_says

__all__ = ["register"]


def _rubric(exercise: str, lang: str) -> int:
    from simlab.grading.checks import EXERCISES
    from simlab.grading.report import format_rubric

    by_file = {e.notebook: name for name, e in EXERCISES.items()}
    exercise = by_file.get(PurePath(exercise).name, exercise)  # a notebook's path works too
    if exercise not in EXERCISES:
        raise UsageError("no_exercise", exercise=exercise, known=", ".join(EXERCISES))
    print(format_rubric(EXERCISES[exercise], lang))
    return 0


#: What ``--no-sandbox`` prints before grading.
NO_SANDBOX_WARNING = (
    "simlab grade: warning: --no-sandbox runs the notebooks' code as you, unjailed: "
    "this grade is not safe for other people's code"
)


def _check_sandbox(args: argparse.Namespace) -> None:
    """Refuse to grade without a working jail, unless ``--no-sandbox`` (then warn)."""
    if args.no_sandbox:
        print(NO_SANDBOX_WARNING, file=sys.stderr)
        return
    from simlab.grading.sandbox.jail import SandboxUnavailable, require

    try:
        require()
    except SandboxUnavailable as exc:
        raise UsageError("no_sandbox", why=str(exc)) from None


def _grade(args: argparse.Namespace) -> int:
    from simlab.cli import grade_deadline as deadlines
    from simlab.cli import grade_queue
    from simlab.grading.grader import grade
    from simlab.grading.late_grades import apply_to_grades
    from simlab.grading.report import format_text, json_lines, write_csv
    from simlab.grading.roster import assign
    from simlab.grading.sandbox import host

    deadlines.check(args)
    if grade_queue.uses_queue(args):
        return grade_queue.run(args, _check_sandbox)
    if args.rubric:
        return _rubric(args.rubric, args.lang)
    found, paths, notebooks, terms, given, roster = intake(args, "--rubric EXERCISE")
    dated = roster is not None and any(s.deadline for s in roster.students)
    if "policy" in given and not (terms or dated):
        raise UsageError("late_policy")
    _check_sandbox(args)
    progress = not args.no_progress and sys.stderr.isatty()
    # Ctrl-C or SIGTERM ends the grading at once (nothing is kept: no result is printed), and
    # nothing the grading made on the host outlives it.
    with host.session(kill_at_interrupt=True):
        grades = grade(
            notebooks,
            timeout=args.timeout,
            notebook_timeout=args.notebook_timeout,
            max_output=args.max_output,
            jobs=args.jobs,
            progress=progress,
            sandbox=not args.no_sandbox,
        )
    keys = [g.notebook for g in grades]
    who = assign(keys, roster) if roster is not None else None
    missing = missing_students(who, roster)
    handed = deadlines.handed_in(args, keys, found)
    apply_to_grades(grades, who, handed, terms, roster)

    def write() -> None:
        write_csv(grades, args.csv, paths, who, missing, args.lang)
        if not args.json:
            print(f"\nwrote {args.csv} ({len(grades)} row(s))")

    shown = show_results(args, grades, keys, who, roster, missing, json_lines, format_text, write)
    if shown:
        return shown
    return 1 if any(g.error for g in grades) else 0


def _build(args: argparse.Namespace) -> int:
    from pathlib import Path

    from simlab.grading.notebook import build_exercises

    if not Path(args.solutions).is_dir():
        raise UsageError("no_solutions", folder=args.solutions)
    report = build_exercises(args.solutions, args.exercises, check=args.check)
    for problem in report.problems:
        print(mistake_says("build_problem", args.lang, why=problem), file=sys.stderr)
    verb = "stale" if args.check else "wrote"
    for path in report.written:
        print(f"{verb}: {path}")
    for path in report.removed:
        print(f"{'orphan' if args.check else 'removed'}: {path}")
    if args.check and report.stale:
        print(mistake_says("build_stale", args.lang), file=sys.stderr)
    elif not report.stale and not report.problems:
        print(f"{args.exercises}/ is up to date ({len(report.unchanged)} notebook(s))")
    return 1 if report.problems or (args.check and report.stale) else 0


#: What ``simlab grade --help`` says about isolation (the README's "How it stays fair").
ISOLATION = """\
how it stays fair (isolation):
  Every run of a student's code -- the notebook's run, and the process in which the
  hidden checks call the student's functions -- runs in one bubblewrap jail per
  submission (a fresh one after a cell or a check hangs or crashes):
  - user nobody (uid/gid 65534) inside, and on the host too when you grade as root;
  - its own PID, network (none at all), IPC, UTS, cgroup, mount and user namespaces; it
    cannot see or signal your processes, and cannot make new user namespaces;
  - read-only: /usr, the Python runtime, the virtual environment and simlab's code
    without the hidden checks; nothing else exists in it (no solutions/, tests/, other
    submissions, home folders, your files);
  - a private /tmp (its working folder) that is thrown away; it may write only there
    and in the folder a hidden check hands it;
  - hard limits it cannot raise (soft = hard): address space per process 2 GiB; CPU
    time per process 10 x --timeout; 64 processes and threads per jail; files of at
    most 256 MiB; 512 open files; a 256 MiB /tmp; a wall-clock timeout per cell and
    per call (--timeout), and one budget for all a notebook causes
    (--notebook-timeout). When a notebook's grading ends, every process it started is
    killed.
  As root, each jail also runs in cgroups of its own (one CPU weight however many
  processes it starts; processes and memory capped together), the folders it may
  write are capped tmpfs, and it sees its sources and devices through inodes of its
  own (overlays), so no lock one jail takes is visible to another. The hidden checks
  run only in the grader; only JSON crosses back, with a deadline, and a partial,
  oversized, malformed, too deeply nested or hash-flooded reply gives that question 0;
  ledger files the code wrote are read read-only, with a deadline, views and triggers
  refused.
  Results, JSON lines and the CSV are written by the grader alone; text a notebook wrote
  is cut short where it is taken in and escaped where it is shown (in JSON, in JSON's
  own escapes), so it cannot draw a line of its own. Submissions are
  regular files: a symbolic link is refused in one line, never followed. Without
  bubblewrap, simlab grade refuses to run unless --no-sandbox (your own work only)."""

#: The grader's defaults (simlab.grading.grader), repeated so that registering the command does
#: not import the grader; a test keeps them equal.
DEFAULT_TIMEOUT = 60
DEFAULT_MAX_OUTPUT = 1_000_000
BUDGET_FACTOR = 10


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "grade",
        help="grade exercise notebooks (files or folders) with hidden checks, jailed",
        description=(
            "Run each notebook headless, then the hidden checks against the student's code in\n"
            "a separate process; print points and one line of feedback per question.\n"
            "Submissions are graded in parallel; nothing a notebook does stops the batch.\n"
            "Student code runs jailed unless --no-sandbox (see below)."
        ),
        epilog=ISOLATION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("paths", nargs="*", metavar="PATH", help="notebooks, or folders to search")
    p.add_argument(
        "--rubric",
        metavar="EXERCISE",
        help="print the rubric of EXERCISE (its name, such as leases, or its notebook's "
        "path): its questions' criteria and weights, and exit",
    )
    p.add_argument(
        "--json",
        action="store_true",
        help="print one JSON object per notebook (one per line) instead of text",
    )
    p.add_argument("--csv", metavar="FILE", help="also write one row per submission to FILE")
    p.add_argument(
        "--timeout",
        type=positive_number,
        default=DEFAULT_TIMEOUT,
        metavar="S",
        help=f"seconds one cell or one call of the student's code may run [{DEFAULT_TIMEOUT}]",
    )
    p.add_argument(
        "--notebook-timeout",
        type=positive_number,
        default=None,
        metavar="SECONDS",
        help="seconds everything one notebook causes may take together (its cells, the "
        "hidden checks' calls, the re-runs of its cells in fresh sandboxes); past it, the "
        f"questions left get 0 [{BUDGET_FACTOR} x --timeout]",
    )
    p.add_argument(
        "--jobs",
        "-j",
        type=positive_int,
        default=None,
        metavar="N",
        help="notebooks graded at once [one per CPU]",
    )
    p.add_argument(
        "--max-output",
        type=positive_int,
        default=DEFAULT_MAX_OUTPUT,
        metavar="BYTES",
        help=f"output one cell may print [{DEFAULT_MAX_OUTPUT}]",
    )
    p.add_argument(
        "--lang",
        choices=("en", "zh"),
        default="en",
        help="language of the feedback sentences, of --rubric (its criteria and the "
        "sentences they quote too) and of the help: en (English) or zh (Chinese) [en]",
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument(
        "--no-sandbox",
        action="store_true",
        help="run the student's code unjailed, as you: only to grade your own work "
        "(the grade is not safe for other people's code)",
    )
    from simlab.cli.grade_queue import add_arguments as add_queue_arguments

    add_queue_arguments(p)
    from simlab.cli.grade_deadline import add_arguments as add_deadline_arguments

    add_deadline_arguments(p)
    p.set_defaults(func=_grade)

    b = subparsers.add_parser(
        "build-exercises",
        help="write exercises/ from solutions/ (solution regions become stubs)",
        description=(
            "Generate the student notebooks from the solution notebooks: every region between "
            "'### BEGIN SOLUTION' and '### END SOLUTION' becomes a stub that raises "
            "NotImplementedError with its hint, and outputs are dropped."
        ),
    )
    b.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 if exercises/ is out of date"
    )
    b.add_argument("--solutions", default="solutions", metavar="DIR", help="[solutions]")
    b.add_argument("--exercises", default="exercises", metavar="DIR", help="[exercises]")
    b.set_defaults(func=_build)
