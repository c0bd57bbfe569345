"""``simlab grade --queue DB --override ...``, ``--clear-override ...`` and ``--report --student``.

* ``--override STUDENT EXERCISE/QUESTION POINTS --why TEXT`` sets that student's points for one
  question, kept in the queue with the time and the reason; every report lays it over the grade
  (:mod:`simlab.grading.overrides`), whatever grader version or file graded it.
* ``--clear-override STUDENT EXERCISE/QUESTION`` gives the question back to the grader (the
  override stays in the queue's history).
* ``--report --student ID`` prints one student's history (:mod:`simlab.grading.history`).

STUDENT is the ``student`` of ``--json``: the roster's ID with ``--roster``, the submission's key
(its path as given) without. A question that does not exist, points out of range, no reason, a
student the queue and the roster do not know, nothing to clear: one line, exit status 2.
"""

from __future__ import annotations

import argparse
import sys

from simlab.cli.args import UsageError

__all__ = ["add_arguments", "MODES", "run", "print_history"]

#: The options of this module that need ``--queue``.
MODES = ("override", "clear_override", "student", "why")


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The overrides' and the history's options of ``simlab grade``."""
    g = p.add_argument_group("overrides and history (with --queue)")
    g.add_argument(
        "--override",
        nargs=3,
        metavar=("STUDENT", "EXERCISE/QUESTION", "POINTS"),
        help="set STUDENT's points for one question, with --why; STUDENT and the question "
        "as --json prints them (the roster's ID with --roster, else the submission's path; "
        "fencing/cancel-limits); POINTS from 0 to the question's maximum. Kept in the queue "
        "with its time, laid over every regrade, shown with its reason in every report",
    )
    g.add_argument("--why", metavar="TEXT", help="--override: the reason, shown with the points")
    g.add_argument(
        "--clear-override",
        nargs=2,
        metavar=("STUDENT", "EXERCISE/QUESTION"),
        help="give that question's points back to the grader (the override stays in the "
        "student's history)",
    )
    g.add_argument(
        "--student",
        metavar="ID",
        help="--report: one student's history: each submission's files, grader versions "
        "and grades over time, and the overrides given (ID as --json prints it)",
    )


def check(args: argparse.Namespace) -> None:
    """Usage mistakes of this module's options (one line each)."""
    given = [m for m in ("override", "clear_override") if getattr(args, m)]
    if args.why is not None and not given:
        raise UsageError("why_override")
    if not given:
        if args.student and not args.report:
            raise UsageError("option_of", flag="--student", mode="--report")
        return
    other = [m for m in ("enqueue_only", "worker", "report") if getattr(args, m)]
    if len(given) > 1 or other or args.paths:
        raise UsageError("override_alone", flag="--" + given[0].replace("_", "-"))
    if args.override and not (args.why or "").strip():
        raise UsageError("override_why")


def _student_keys(student: str, keys: list[str], roster) -> list[str]:
    from simlab.grading.roster import assign

    return [k for k, (sid, _) in zip(keys, assign(keys, roster), strict=True) if sid == student]


def run(args: argparse.Namespace, queue) -> int:
    """Record or clear one override in ``queue`` (already open; closed here)."""
    from simlab.cli.grade_class import load_roster
    from simlab.grading.overrides import (
        OverrideError,
        in_force,
        known_questions,
        number,
        parse_points,
        parse_question,
    )
    from simlab.grading.text import for_people

    student, question = (args.override or args.clear_override)[:2]
    with queue:
        roster = load_roster(args.roster)
        subs = queue.submissions()
        if roster is None:  # a class enqueued from a course layout: its students by their IDs
            from simlab.cli.grade_deadline import stored_roster

            roster = stored_roster(queue.handed_in(), subs)
        keys = sorted({s.notebook for s in subs})
        try:
            known = known_questions(s.result for s in subs)
            exercise, qid = parse_question(question, known)
            points = (
                parse_points(args.override[2], known[(exercise, qid)]) if args.override else None
            )
        except OverrideError as exc:
            raise UsageError.passed_on(exc) from None
        in_roster = roster is not None and any(s.id == student for s in roster.students)
        if not in_roster and not _student_keys(student, keys, roster):
            if roster is not None:
                raise UsageError("override_student.roster", student=student, roster=roster.path)
            raise UsageError("override_student.queue", student=student)
        if args.clear_override:
            if (student, exercise, qid) not in in_force(queue.overrides()):
                raise UsageError("override_none", student=student, exercise=exercise, qid=qid)
            queue.override(student, exercise, qid, None, (args.why or "").strip())
            print(f"cleared: {for_people(student)} {exercise}/{qid} is the grader's again")
            return 0
        o = queue.override(student, exercise, qid, points, args.why.strip())
    print(
        f"override: {for_people(student)} {exercise}/{qid} = {number(o.points)} point(s) "
        f"({for_people(o.why)}); every report shows it"
    )
    return 0


def print_history(
    args: argparse.Namespace, everything, history, overrides, keys, who, handed=None
) -> int:
    """``--report --student ID``: that student's history (text, or one JSON object)."""
    from simlab.grading.history import format_history, student_history

    mine = [k for k, (sid, _) in zip(keys, who, strict=True) if sid == args.student]
    given = [o for o in overrides if o.student == args.student]
    if not mine and not given:
        key = "history_student" if args.roster else "history_student.hint"
        raise UsageError(key, student=args.student)
    h = student_history(args.student, mine, history, everything, overrides, handed)
    if args.json:
        from simlab.grading.text import json_line

        sys.stdout.write(json_line(h))
    else:
        print(format_history(h))
    return 0
