"""``simlab demo``: the chapter's story across real processes, then the claim race.

The work is :mod:`simlab.ledger.demo`; this module parses and prints.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from simlab.cli.args import UsageError
from simlab.ledger.demo import chapter_story, claim_race

__all__ = ["register"]


def _handle(args) -> int:
    if args.processes < 2:
        raise UsageError("--processes must be at least 2: a race needs two runners")
    with tempfile.TemporaryDirectory(prefix="simlab-demo-") as folder:
        print("== The chapter's ledger across two real processes ==")
        chapter_story(Path(folder) / "jobs.sqlite")
        print()
        print("== Why the chapter's claim is racy: 4 processes claim one task at once ==")
        for chapter in (True, False):
            name = f"race-{'chapter' if chapter else 'atomic'}.sqlite"
            print(claim_race(Path(folder) / name, chapter=chapter, processes=args.processes))
    return 0


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "demo",
        help="the chapter's resume story across real processes, and the claim race",
        description=(
            "Run the chapter's task ledger across two real worker processes on a temporary "
            "SQLite file (the second resumes from step 1), show a stale commit and a "
            "cancellation being refused, then race 4 processes claiming one task with the "
            "chapter's two-statement claim and with simlab's atomic claim."
        ),
    )
    p.add_argument("--processes", type=int, default=4, help="racing processes (default 4)")
    p.set_defaults(func=_handle)
