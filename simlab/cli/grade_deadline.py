"""``simlab grade``'s course layout and deadlines: ``--nbgrader COURSE_DIR --assignment NAME``,
``--deadline``, ``--late-policy``, ``--submitted-at``, ``--extension`` and ``--excuse``.

* ``--nbgrader COURSE_DIR --assignment NAME`` grades ``COURSE_DIR/submitted/<student>/NAME/
  *.ipynb`` (:mod:`simlab.grading.nbgrader`): the student ID is the folder's name, the
  submission time the ``timestamp.txt`` that ``nbgrader collect`` left beside the notebooks.
* ``--submitted-at mtime`` takes each notebook's modification time instead (with or without
  ``--nbgrader``); ``--submitted-at timestamp`` (the default with ``--nbgrader``) nbgrader's.
  Without either, a submission has no time and is never penalized (a line says so).
* ``--deadline``, ``--late-policy``, ``--extension ID=TIME`` (repeatable) and ``--excuse ID``
  (repeatable) are the class's terms (:class:`simlab.grading.lateness.Terms`). Given with a
  grading command on ``--queue``, each is stored in the queue (replacing the one stored) and
  used by every report; given with ``--report``, each replaces the stored one for that report
  only. Lateness is computed at report time, so a changed deadline needs no regrade.

A malformed time (a deadline without its zone included) or policy, an extension or excuse for
no student of the class, a course folder that is not nbgrader's layout: one line, exit status 2.
"""

from __future__ import annotations

import argparse
import os
import sys
from datetime import UTC, datetime, timedelta

from simlab.cli.args import UsageError
from simlab.cli.language import mistake_says

__all__ = [
    "add_arguments",
    "check",
    "check_students",
    "course",
    "given_terms",
    "handed_in",
    "kept",
    "layout_roster",
    "queue_class",
    "record",
    "store_terms",
]

#: Each term: its option, and the name it is stored under in the queue (a key of
#: :meth:`Terms.to_data`).
_TERMS = {
    "deadline": ("--deadline", "deadline"),
    "policy": ("--late-policy", "late_policy"),
    "extensions": ("--extension", "extensions"),
    "excused": ("--excuse", "excused"),
}


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The course layout's and the deadlines' options of ``simlab grade``."""
    g = p.add_argument_group("nbgrader's course layout, deadlines and late penalties")
    g.add_argument(
        "--nbgrader",
        metavar="COURSE_DIR",
        help="grade an nbgrader course: COURSE_DIR/submitted/<student>/<assignment>/*.ipynb, "
        "as nbgrader collect leaves it (the student ID is the folder's name; the submission "
        "time is its timestamp.txt); needs --assignment",
    )
    g.add_argument("--assignment", metavar="NAME", help="--nbgrader: the assignment's folder name")
    g.add_argument(
        "--deadline",
        metavar="TIME",
        help="the deadline, ISO 8601 with its zone (2026-12-01T23:59:59+08:00, or ...Z for "
        "UTC); exactly at it is on time. Stored in the queue; with --report, replaces the "
        "stored one for that report",
    )
    g.add_argument(
        "--late-policy",
        metavar="P%/day[,cap=C%][,cutoff=Dd]",
        help="each started day late takes P%% of the points earned, at most C%% in all; more "
        "than D days late earns 0 (for example 10%%/day,cap=50%%,cutoff=7d) [no penalty]",
    )
    g.add_argument(
        "--submitted-at",
        choices=("timestamp", "mtime"),
        default=None,
        help="where a submission's time comes from: nbgrader's timestamp.txt (the default with "
        "--nbgrader) or the notebook's modification time; never from when it was enqueued",
    )
    g.add_argument(
        "--extension",
        action="append",
        default=[],
        metavar="ID=TIME",
        help="student ID's own deadline (repeat for each student); a roster's deadline column "
        "does the same",
    )
    g.add_argument(
        "--excuse",
        action="append",
        default=[],
        metavar="ID",
        help="student ID is excused: no lateness, and EX in the Canvas export (repeat)",
    )


def check(args: argparse.Namespace) -> None:
    """Options that contradict each other (one line each)."""
    if args.assignment and not args.nbgrader:
        raise UsageError("option_of", flag="--assignment", mode="--nbgrader COURSE_DIR")
    if args.nbgrader:
        if not args.assignment:
            raise UsageError("needs", flag="--nbgrader COURSE_DIR", other="--assignment NAME")
        if args.paths:
            raise UsageError("nbgrader_paths")
        if getattr(args, "worker", False) or getattr(args, "report", False):
            mode = "--worker" if args.worker else "--report"
            raise UsageError("mode_nbgrader", mode=mode)
    if args.submitted_at == "timestamp" and not args.nbgrader:
        raise UsageError("timestamp")
    if args.submitted_at and (getattr(args, "worker", False) or getattr(args, "report", False)):
        raise UsageError("submitted_at")
    if getattr(args, "worker", False):
        for name, (option, _) in _TERMS.items():
            if _given(args, name):
                raise UsageError("term_worker", option=option)
    if args.rubric and (args.nbgrader or any(_given(args, n) for n in _TERMS)):
        raise UsageError("rubric_course")


def _given(args: argparse.Namespace, name: str) -> bool:
    """Whether term ``name`` was given: its option's value (argparse's dest of the option)."""
    return bool(getattr(args, _TERMS[name][0].removeprefix("--").replace("-", "_")))


def course(args: argparse.Namespace):
    """The nbgrader course's assignment (:func:`simlab.grading.nbgrader.read_course`), None
    without ``--nbgrader``; a usage mistake when it cannot be read or holds no submission."""
    if not args.nbgrader:
        return None
    from simlab.grading.nbgrader import CourseError, read_course

    try:
        found = read_course(args.nbgrader, args.assignment)
    except CourseError as exc:
        raise UsageError.passed_on(exc) from None
    if not found.handed:
        folder = os.path.join(args.nbgrader, "submitted")
        raise UsageError(
            "no_submission", assignment=args.assignment, folder=folder, n=len(found.students)
        )
    return found


def given_terms(args: argparse.Namespace):
    """(the terms given on the command line, the names of those given)."""
    from simlab.grading.lateness import LateError, Terms, parse_policy, parse_time

    try:
        deadline = parse_time(args.deadline) if args.deadline else None
    except LateError as exc:
        raise UsageError("deadline", why=str(exc)) from None
    try:
        policy = parse_policy(args.late_policy) if args.late_policy else None
    except LateError as exc:
        raise UsageError.passed_on(exc) from None
    extensions = {}
    for text in args.extension:
        sid, sep, when = text.partition("=")
        if not sep or not sid.strip():
            raise UsageError("extension_form", text=text)
        try:
            extensions[sid.strip()] = parse_time(when)
        except LateError as exc:
            raise UsageError("extension_time", sid=sid.strip(), why=str(exc)) from None
    given = {name for name in _TERMS if _given(args, name)}
    return Terms(deadline, policy, extensions, frozenset(args.excuse)), given


def check_students(
    terms, given: set[str], known: list[str] | None, roster: str | None, alone: str
) -> None:
    """Every ``--extension`` and ``--excuse`` names a student of the class (``known``, the
    students' IDs; None: no class to check against): of the roster at path ``roster``, or
    without one of the ``"paths"`` given or the ``"queue"`` (``alone``)."""
    if known is None:
        return
    ids = set(known)
    named = []
    if "extensions" in given:
        named += [("--extension", s) for s in terms.extensions]
    if "excused" in given:
        named += [("--excuse", s) for s in sorted(terms.excused)]
    for option, sid in named:
        if sid not in ids:
            if roster is not None:
                raise UsageError("term_student.roster", option=option, sid=sid, roster=roster)
            raise UsageError(f"term_student.{alone}", option=option, sid=sid)


def _utc(ns: int) -> datetime:
    """A file time in nanoseconds since the epoch, as an aware UTC datetime (exact to the
    microsecond)."""
    return datetime(1970, 1, 1, tzinfo=UTC) + timedelta(microseconds=ns // 1000)


def handed_in(args: argparse.Namespace, keys: list[str], found=None) -> list:
    """Each submission's (time, why none) as the options say (module doc)."""
    from simlab.grading.messages import message, sentence

    by_path = {h.path: (h.submitted, h.note) for h in found.handed} if found else {}
    out = []
    for key in keys:
        if args.submitted_at == "mtime":
            try:
                out.append((_utc(os.lstat(key).st_mtime_ns), None))
            except OSError as exc:
                why = sentence(exc.strerror or type(exc).__name__)
                out.append((None, message("grader.no_mtime", why=why)))
        elif found is not None:
            out.append(by_path.get(key, (None, None)))
        else:
            out.append((None, None))
    return out


def warn_untimed(args: argparse.Namespace, terms) -> None:
    """Say once that a deadline without any source of submission times penalizes no one."""
    if (terms.deadline or terms.extensions) and not (args.nbgrader or args.submitted_at):
        print(mistake_says("untimed", args.lang), file=sys.stderr)


def record(queue, ids: list[str], keys: list[str], args, found) -> None:
    """Store who handed each enqueued submission in and when (nothing without a source)."""
    if not (found or args.submitted_at):
        return
    import json

    students = {h.path: h.student for h in found.handed} if found else {}
    for task_id, key, (when, note) in zip(ids, keys, handed_in(args, keys, found), strict=True):
        said = None if note is None else json.dumps(note.to_data(), ensure_ascii=False)
        queue.hand_in(task_id, students.get(key), None if when is None else when.isoformat(), said)


def store_terms(queue, terms, given: set[str]) -> None:
    """Store each term given (replacing the stored one)."""
    if given:
        data = terms.to_data()
        queue.set_terms({_TERMS[n][1]: data[_TERMS[n][1]] for n in given})


def kept(queue) -> tuple[dict, dict]:
    """What the queue keeps for lateness: its hand-in records and its stored terms."""
    return queue.handed_in(), queue.terms()


def queue_class(args: argparse.Namespace, kept_: tuple[dict, dict], subs, roster):
    """A queue report's class: (roster, handed, terms, given), from what the queue keeps
    (:func:`kept`). The roster is the one given, else one made of the students the course
    layout named when the submissions were enqueued (None when none did); handed is each
    submission's (time, why none); terms the stored ones with each one given replacing its
    own; given the names of the terms given (:func:`given_terms`)."""
    from simlab.grading.lateness import LateError, Terms, parse_time
    from simlab.grading.messages import stored

    records, stored_terms = kept_
    try:
        terms = Terms.from_data(stored_terms)
    except LateError as exc:  # written by this code; a hand-edited queue says so
        raise UsageError("stored_deadline", why=str(exc)) from None
    new, given = given_terms(args)
    terms = terms.over(new, given)
    handed = []
    for s in subs:
        student, when, note = records.get(s.task_id, (None, None, None))
        handed.append((None if when is None else parse_time(when), stored(note)))
    if roster is None:
        roster = stored_roster(records, subs)
    return roster, handed, terms, given


def stored_roster(records: dict, subs):
    """The roster of the students the course layout named when ``subs`` were enqueued
    (``records``: the queue's hand-in records, :func:`kept`), or None when none did."""
    if not any(r[0] for r in records.values()):
        return None
    return _layout_roster([(s.notebook, records.get(s.task_id, (None,))[0]) for s in subs])


def _layout_roster(owners: list[tuple[str, str | None]]):
    """A roster of the students a course layout named: each key is its student's."""
    from simlab.grading.roster import Roster, Student

    roster = Roster("the course's folders", [])
    by_id: dict[str, Student] = {}
    for key, sid in owners:
        if sid is None:
            continue
        student = by_id.get(sid)
        if student is None:
            student = by_id[sid] = Student(sid, "")
            roster.students.append(student)
        roster.by_notebook[key] = student
        student.notebooks.append(key)
    return roster


def layout_roster(found):
    """The roster of an nbgrader course: every student folder of ``submitted/``, each
    submission its folder's student."""
    roster = _layout_roster([(h.path, h.student) for h in found.handed])
    roster.path = os.path.join(found.root, "submitted")
    have = {s.id for s in roster.students}
    from simlab.grading.roster import Student

    for name in found.students:
        if name not in have:
            roster.students.append(Student(name, ""))
    order = {name: i for i, name in enumerate(found.students)}
    roster.students.sort(key=lambda s: order.get(s.id, len(order)))
    return roster
