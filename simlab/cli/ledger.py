"""``simlab backup --db SRC DEST``: a consistent copy of a live ledger.

Uses SQLite's online backup API (:meth:`simlab.ledger.Ledger.backup`), so the copy is one
snapshot even while workers write, and it is complete in one file. Copying the ``.sqlite`` file
with ``cp`` is not: recent commits may still be in its ``-wal``, and a ``-wal`` left next to a
copy is replayed over it by SQLite without a word (see the README's ledger section).

Exit 0 when the copy was written; otherwise one line on stderr and exit 2: SRC missing or not a
ledger (another program's database, read-only, a foreign ``-wal``), DEST existing or in a folder
that cannot be written.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from simlab.cli.args import UsageError, new_file

__all__ = ["register"]


def _backup(args: argparse.Namespace) -> int:
    from simlab.errors import LedgerError
    from simlab.ledger import Ledger

    source = Path(args.db)
    if not source.is_file():
        raise UsageError("backup_no_ledger", db=args.db)
    dest = new_file(args.dest, "DEST")
    try:
        with Ledger(source) as ledger:
            counts = ledger.counts()
            ledger.backup(dest)
    except LedgerError as exc:
        raise UsageError.passed_on(exc) from None
    total = sum(counts.values())
    print(f"backed up {args.db} to {dest} ({total} tasks, one consistent snapshot)")
    return 0


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "backup",
        help="copy a live ledger file consistently (SQLite online backup)",
        description="Copy a ledger with SQLite's online backup API: one consistent snapshot, "
        "even while workers write, complete in one file with its own identity. Never copy a "
        "ledger file with cp: its -wal holds recent commits. DEST must not exist. Exit 0 "
        "copied, 2 usage error (missing SRC, existing DEST, not a ledger).",
    )
    p.add_argument("--db", required=True, metavar="SRC", help="the ledger file to copy")
    p.add_argument("dest", metavar="DEST", help="the new file to write")
    p.set_defaults(func=_backup)
