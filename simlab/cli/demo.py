"""``simlab demo``: the chapter's story across real processes, then the claim race.

The work is :mod:`simlab.props.demo`; this module parses and prints.
"""

from __future__ import annotations

import contextlib
import tempfile
from pathlib import Path

from simlab.cli.args import UsageError
from simlab.errors import LedgerError
from simlab.ledger.connect import is_postgres_url, redact
from simlab.props.demo import chapter_story, claim_race

__all__ = ["register"]


def _targets(db: str | None, stack: contextlib.ExitStack):
    """A function giving a new, empty ledger target for each part of the demo: files in a
    temporary folder, or scratch schemas in the PostgreSQL database ``--db`` names (all
    removed when the demo ends)."""
    if db is None:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="simlab-demo-")))
        return lambda name: str(folder / f"{name}.sqlite")
    if not is_postgres_url(db):
        raise UsageError("demo_url", db=db)
    from simlab.ledger.postgres.probes import scratch_schema

    return lambda name: stack.enter_context(scratch_schema(db, f"simlab_demo_{name}"))


def _handle(args) -> int:
    if args.processes < 2:
        raise UsageError("demo_processes")
    try:
        with contextlib.ExitStack() as stack:
            target = _targets(args.db, stack)
            where = "SQLite files" if args.db is None else f"PostgreSQL at {redact(args.db)}"
            print(f"== The chapter's ledger across two real processes ({where}) ==")
            chapter_story(target("jobs"))
            print()
            print(
                f"== Why the chapter's claim is racy: {args.processes} processes claim one task "
                "at once =="
            )
            for chapter in (True, False):
                name = f"race_{'chapter' if chapter else 'atomic'}"
                print(claim_race(target(name), chapter=chapter, processes=args.processes))
    except LedgerError as exc:
        raise UsageError("db", why=str(exc)) from None
    return 0


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "demo",
        help="the chapter's resume story across real processes, and the claim race",
        description=(
            "Run the chapter's task ledger across two real worker processes on a temporary "
            "SQLite file, or on PostgreSQL with --db (the second resumes from step 1), show a "
            "stale commit and a cancellation being refused, then race 4 processes claiming one "
            "task with the "
            "chapter's two-statement claim and with simlab's atomic claim."
        ),
    )
    p.add_argument("--processes", type=int, default=4, help="racing processes (default 4)")
    p.add_argument(
        "--db",
        metavar="URL",
        help="run it all on the PostgreSQL database at postgresql://URL instead (in scratch "
        "schemas, dropped afterwards)",
    )
    p.set_defaults(func=_handle)
