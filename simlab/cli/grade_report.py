"""What ``simlab grade --queue`` shows: the report, a run's results, and the progress bar."""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from simlab.cli.args import UsageError
from simlab.cli.language import cause_in, mistake_says

__all__ = ["QueueBar", "print_results", "report"]


def _write_csv(args: argparse.Namespace, grades, roots, who=None, missing=()) -> None:
    from simlab.grading.report import write_csv

    write_csv(grades, args.csv, roots, who, missing, args.lang)
    if not args.json:
        print(f"\nwrote {args.csv} ({len(grades)} row(s))")


def canvas_titles(given: list[str]) -> dict[str, str]:
    """``--canvas-assignment EXERCISE="Title (id)"`` options as exercise -> column name; an
    unknown exercise, a title without Canvas's ``(id)`` or an exercise named twice is a usage
    mistake (one line)."""
    import re

    from simlab.grading.checks import EXERCISES

    titles: dict[str, str] = {}
    for text in given:
        exercise, sep, title = text.partition("=")
        exercise, title = exercise.strip(), title.strip()
        if not sep or not re.fullmatch(r".*\S.*\(\d+\)", title):
            raise UsageError("canvas_form", text=text)
        if exercise not in EXERCISES:
            raise UsageError("canvas_exercise", exercise=exercise, known=", ".join(EXERCISES))
        if exercise in titles:
            raise UsageError("canvas_twice", exercise=exercise)
        titles[exercise] = title
    return titles


def print_results(args: argparse.Namespace, queue, ids: list[str], course=None) -> int:
    """Print the submissions of this run (``ids``, in path order) as ``simlab grade`` does; exit
    status 1 when one could not be graded (an error, or dead), else 0. ``course``: the nbgrader
    course they came from (its students are the class when no roster is given)."""
    from simlab.cli import grade_deadline as deadlines
    from simlab.cli.grade_class import load_roster, show_results
    from simlab.grading.report import format_text, json_lines
    from simlab.grading.roster import assign

    by_id = {s.task_id: s for s in queue.submissions()}
    subs = [by_id[i] for i in ids]
    roster = load_roster(args.roster)
    if roster is None and course is not None:
        roster = deadlines.layout_roster(course)
    roster, handed, terms, _ = deadlines.queue_class(args, deadlines.kept(queue), subs, roster)
    keys = [s.notebook for s in subs]
    who = assign(keys, roster) if roster is not None else None
    grades, missing = _as_shown(subs, keys, who, roster, queue.overrides(), handed, terms)

    def write() -> None:
        _write_csv(args, grades, args.paths, who, missing)

    shown = show_results(args, grades, keys, who, roster, missing, json_lines, format_text, write)
    if shown:
        return shown
    return 1 if any(g.status != "graded" or g.error for g in grades) else 0


def _roots(grades) -> list[str]:
    """The class folder of a report's CSV: the folder all the keys share, if there is one."""
    import os

    parents = [os.path.dirname(g.notebook) for g in grades]
    try:
        common = os.path.commonpath(parents) if parents and all(parents) else ""
    except ValueError:
        return []
    return [common] if common and Path(common).is_dir() else []


def report(args: argparse.Namespace, queue) -> int:
    """``--report``: print (and write) from the queue; grade nothing. Exit status 0 when
    every submission is graded and every export written, 1 when one could not be graded (an
    error, or dead), 3 when an export could not be written (each export, and each page, is
    written on its own: one that fails is one line on stderr and the others carry on)."""
    from simlab.cli import grade_deadline as deadlines
    from simlab.cli.grade_class import load_roster, print_class
    from simlab.grading import queue_report as qr
    from simlab.grading.report import format_text, json_lines, missing_lines
    from simlab.grading.roster import assign
    from simlab.grading.text import shown_path

    with queue:
        everything = queue.submissions()
        history = queue.history()
        overrides = queue.overrides()
        kept = deadlines.kept(queue)
    roster = load_roster(args.roster)
    subs = qr.latest(everything)
    roster, handed, terms, given = deadlines.queue_class(args, kept, subs, roster)
    keys = [s.notebook for s in subs]
    known = [s.id for s in roster.students] if roster is not None else keys
    deadlines.check_students(terms, given, known, roster.path if roster else None, "queue")
    who = assign(keys, roster) if roster is not None else None
    if args.student:
        from simlab.cli.grade_override import print_history

        return print_history(
            args, everything, history, overrides, keys, who or assign(keys, None), kept[0]
        )
    if args.changed:
        return _print_changes(args, history, everything, keys, who)
    titles = canvas_titles(args.canvas_assignment)
    grades, missing = _as_shown(subs, keys, who, roster, overrides, handed, terms)
    problems: list[str] = []
    if args.json:
        sys.stdout.write(json_lines(grades, args.lang, who))
        sys.stdout.write(missing_lines(missing, args.lang))
    else:
        print(format_text(grades, args.lang) if grades else "the queue is empty")
        if args.roster:
            print_class(keys, who, roster, args.lang)
    if args.csv:
        try:
            _write_csv(args, grades, _roots(grades), who, missing)
        except OSError as exc:
            why = exc.strerror or type(exc).__name__
            problems.append(mistake_says("cannot_write", args.lang, path=args.csv, why=why))
    if args.feedback:
        if who is None:
            pages = qr.write_feedback(grades, args.feedback, args.lang)
        else:  # a submission that is no one's has no page (the class lines said so)
            owned = [(g, sid) for g, (sid, _) in zip(grades, who, strict=True) if sid is not None]
            by_grade = {id(g): sid for g, sid in owned}
            pages = qr.write_feedback(
                [g for g, _ in owned], args.feedback, args.lang, lambda g: by_grade[id(g)]
            )
        problems.extend(cause_in(p, args.lang) for p in pages.problems)
        if not args.json:
            print(f"wrote {len(pages.files)} feedback page(s) in {shown_path(args.feedback)}")
    if args.canvas:
        try:
            rows, lines = qr.write_canvas(
                grades, roster, args.canvas, titles, args.missing or "empty", args.lang,
                terms.excused,
            )  # fmt: skip
        except OSError as exc:
            why = exc.strerror or type(exc).__name__
            problems.append(mistake_says("cannot_write", args.lang, path=args.canvas, why=why))
        else:
            for line in lines:
                print(f"simlab grade: canvas: {line}", file=sys.stderr)
            if not args.json:
                print(f"wrote {args.canvas} for Canvas ({rows} student(s))")
    for line in problems:
        print(mistake_says("grade_line", args.lang, message=line), file=sys.stderr)
    if problems:
        return 3
    return 1 if any(g.status == "dead" or g.error for g in grades) else 0


def _as_shown(subs, keys, who, roster, overrides, handed, terms):
    """``subs`` as grades, as every export shows them: the instructor's overrides laid over
    them (a submission's student is its roster ID with ``who``, its key without), then
    lateness, as for the plain grader's; and the IDs of the roster's students without a
    submission."""
    from simlab.cli.grade_class import missing_students
    from simlab.grading.late_grades import apply_to_grades
    from simlab.grading.overrides import overridden
    from simlab.grading.queue_report import as_grade

    subs = overridden(subs, keys if who is None else [sid for sid, _ in who], overrides)
    grades = [as_grade(s) for s in subs]
    apply_to_grades(grades, who, handed, terms, roster)
    return grades, missing_students(who, roster)


def _print_changes(args: argparse.Namespace, history, everything, keys, who) -> int:
    """``--changed``: what moved between the last two grades of each submission."""
    from simlab.grading.history import changes, format_changes
    from simlab.grading.text import json_line

    students = None if who is None else {k: sid for k, (sid, _) in zip(keys, who, strict=True)}
    changed, still = changes(history, everything, students)
    if args.json:
        sys.stdout.write("".join(json_line(c) for c in changed))
    else:
        print(format_changes(changed, still))
    return 0


class QueueBar:
    """A progress bar over the whole queue: done (graded or dead), running, left, and the
    submissions each worker is grading. Shows only counts and worker names."""

    def __init__(self, enabled: bool):
        self.enabled = enabled
        self._bar = None

    def __enter__(self):
        return self

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.close()

    def update(self, states) -> None:
        if not self.enabled:
            return
        if self._bar is None:
            from tqdm import tqdm

            self._bar = tqdm(total=len(states), desc="grading queue", unit="nb", leave=False)
        done = sum(status in ("completed", "dead") for _, status, _, _ in states)
        # running submissions per worker process (its threads added up)
        running = Counter(
            w.rsplit("/", 1)[0] for _, status, w, _ in states if status == "running" and w
        )
        left = sum(status == "queued" for _, status, _, _ in states)
        per = " ".join(f"{w.rsplit('/', 1)[0]}:{n}" for w, n in sorted(running.items()))
        self._bar.total = len(states)
        self._bar.n = done
        self._bar.set_postfix_str(f"running {sum(running.values())} left {left} {per}".strip())

    def say(self, line: str) -> None:
        """One line above the bar (or on stderr)."""
        text = f"simlab grade: {line}"
        if self._bar is not None:
            self._bar.write(text, file=sys.stderr)
        else:
            print(text, file=sys.stderr)
