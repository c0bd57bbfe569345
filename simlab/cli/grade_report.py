"""What ``simlab grade --queue`` shows: the report, a run's results, and the progress bar."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from simlab.cli.args import UsageError

__all__ = ["QueueBar", "print_results", "report"]


def _write_csv(args: argparse.Namespace, subs, roots) -> None:
    from simlab.grading.queue_report import as_grade
    from simlab.grading.report import write_csv

    write_csv([as_grade(s) for s in subs], args.csv, roots)
    if not args.json:
        print(f"\nwrote {args.csv} ({len(subs)} row(s))")


def print_results(args: argparse.Namespace, queue, ids: list[str]) -> int:
    """Print the submissions of this run (``ids``, in path order) as ``simlab grade`` does; exit
    status 1 when one could not be graded (an error, or dead), else 0."""
    from simlab.grading.queue_report import as_grade, format_report, report_lines

    by_id = {s.task_id: s for s in queue.submissions()}
    subs = [by_id[i] for i in ids]
    if args.json:
        sys.stdout.write(report_lines(subs, args.lang))
    else:
        print(format_report(subs, args.lang))
    if args.csv:
        try:
            _write_csv(args, subs, args.paths)
        except OSError as exc:
            why = exc.strerror or type(exc).__name__
            print(f"simlab grade: cannot write {args.csv}: {why}", file=sys.stderr)
            return 3
    return 1 if any(s.status != "graded" or as_grade(s).error for s in subs) else 0


def _roots(subs) -> list[str]:
    """The class folder of a report's CSV: the folder all the keys share, if there is one."""
    import os

    parents = [os.path.dirname(s.notebook) for s in subs]
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
    from simlab.grading import queue_report as qr

    with queue:
        everything = queue.submissions()
        versions = queue.versions()
    subs = qr.latest(everything)
    if args.changed:
        changed = qr.changes(everything, versions)
        if args.json:
            sys.stdout.write("".join(json.dumps(c) + "\n" for c in changed))
        else:
            print(qr.format_changes(changed, versions))
        return 0
    roster = None
    if args.canvas:
        try:
            roster = qr.read_roster(args.roster)
        except qr.RosterError as exc:
            raise UsageError(str(exc)) from None
    problems: list[str] = []
    if args.json:
        sys.stdout.write(qr.report_lines(subs, args.lang))
    else:
        print(qr.format_report(subs, args.lang) if subs else "the queue is empty")
    if args.csv:
        try:
            _write_csv(args, subs, _roots(subs))
        except OSError as exc:
            problems.append(f"cannot write {args.csv}: {exc.strerror or type(exc).__name__}")
    if args.feedback:
        pages = qr.write_feedback(subs, args.feedback, args.lang)
        problems.extend(pages.problems)
        if not args.json:
            print(f"wrote {len(pages.files)} feedback page(s) in {args.feedback}")
    if roster is not None:
        try:
            qr.write_canvas(subs, roster, args.canvas)
        except qr.RosterError as exc:
            raise UsageError(str(exc)) from None
        except OSError as exc:
            problems.append(f"cannot write {args.canvas}: {exc.strerror or type(exc).__name__}")
        else:
            if not args.json:
                print(f"wrote {args.canvas} for Canvas ({len(roster)} submission(s))")
    for line in problems:
        print(f"simlab grade: {line}", file=sys.stderr)
    if problems:
        return 3
    return 1 if any(_not_graded(s) for s in subs) else 0


def _not_graded(s) -> bool:
    """Could this submission not be graded (dead, or graded with an error)?"""
    return s.status == "dead" or (s.status == "graded" and bool((s.result or {}).get("error")))


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
        running = Counter(w for _, status, w, _ in states if status == "running" and w)
        left = sum(status == "queued" for _, status, _, _ in states)
        per = " ".join(f"{w.rsplit('/', 1)[0]}:{n}" for w, n in sorted(_by_host(running).items()))
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


def _by_host(running: Counter) -> Counter:
    """Running submissions per worker process (its threads added up)."""
    out: Counter = Counter()
    for worker, n in running.items():
        out[worker.rsplit("/", 1)[0]] += n
    return out
