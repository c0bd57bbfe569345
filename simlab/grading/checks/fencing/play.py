"""One call of the learner's function in a hidden world of exercise ``fencing``, answered by the
grader: :class:`Play` is lent to that call (:class:`~simlab.grading.lending.Lent`, kind ``Work``),
and every use the sandbox's stand-ins make of the kit's ``Ledger``, ``Mailbox`` and
``run_worker`` comes back to it as a callback, which runs it on the world's ledger files in a
private folder of the grader's (:mod:`simlab.grading.checks.fencing.worlds` holds the worlds);
:func:`played` plays the learner's function so. The number of ledgers, mailboxes and worker runs
one play may open, and of distinct paths it may use, is bounded (:data:`MAX_OPENS`,
:data:`MAX_PATHS`).
"""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from simlab.grading.checks.fencing.worlds import Late, World, WorldLedger, WorldMailbox
from simlab.grading.lending import Lent
from simlab.grading.sandbox.remote import METHODS
from simlab.grading.sandbox.supervisor import RemoteError
from simlab.ledger.sqlite.ledger import Ledger as KitLedger
from simlab.props.processes import resume_one_step

__all__ = ["Play", "played", "MAX_OPENS", "MAX_PATHS"]

#: The most ledgers, mailboxes and worker runs one play may open, and distinct paths it may use.
MAX_OPENS = 64
MAX_PATHS = 8
_LEDGER_METHODS = frozenset(METHODS["Ledger"])
_MAIL_READS = ("received", "sent", "duplicates")


class Play:
    """One call of the learner's function in one world, answered here: lent to that call as
    one callable (kind ``Work``) that the sandbox's stand-ins call as ``(op, *args)``:

    * ``("open", path)`` a ledger on the world's file for ``path``: its number;
      ``("ledger", n, method, args, kwargs)`` a method of ledger ``n`` (the contract's only);
      ``("close", n)``;
    * ``("mailbox",)`` a mailbox: its number; ``("mail", n, "send", key)``, or ``("mail", n,
      name)`` for ``received``, ``sent`` or ``duplicates``;
    * ``("worker", path, task_id)`` one run of the chapter's worker process: its report.

    A path the learner names is a file in a private folder of the grader's (never the path
    itself). :attr:`reports` keeps every worker's report, :meth:`record` reads a task at the
    end. Close it with :meth:`close`.
    """

    def __init__(self, world: World):
        self.world = world
        self._folder = tempfile.TemporaryDirectory(prefix="simlab-world-")
        self._files: dict[str, str] = {}
        self._ledgers: dict[int, WorldLedger] = {}
        self._mailboxes: dict[int, WorldMailbox] = {}
        self._restarting: dict[str, set[str]] = {}
        self._late: dict[str, Late] = {}
        self._opens = 0
        self.reports: list[dict] = []

    def __call__(self, op: Any, *args: Any) -> Any:
        handler = {
            "open": self._open,
            "ledger": self._ledger,
            "close": self._close,
            "mailbox": self._mailbox,
            "mail": self._mail,
            "worker": self._worker,
        }.get(op if isinstance(op, str) else "")
        if handler is None:
            raise ValueError("not something this ledger offers")
        return handler(*args)

    def file(self, path: Any) -> str:
        """The world's file for the learner's ``path``."""
        if not isinstance(path, str):
            raise TypeError("path must be a file path")
        if path not in self._files:
            if len(self._files) >= MAX_PATHS:
                raise ValueError(f"one call may use at most {MAX_PATHS} ledger files")
            self._files[path] = str(Path(self._folder.name) / f"{len(self._files)}.sqlite")
        return self._files[path]

    def _count(self) -> int:
        self._opens += 1
        if self._opens > MAX_OPENS:
            raise ValueError(f"one call may open at most {MAX_OPENS} ledgers and mailboxes")
        return self._opens

    def _open(self, path: Any) -> int:
        n = self._count()
        file = self.file(path)
        restarting = self._restarting.setdefault(file, set())
        late = self._late.setdefault(file, Late())
        self._ledgers[n] = WorldLedger(file, self.world, self._recall, restarting, late)
        return n

    def _ledger(self, n: Any, method: Any, args: Any, kwargs: Any) -> Any:
        ledger = self._ledgers.get(n) if isinstance(n, int) else None
        if ledger is None:
            raise ValueError("this ledger is closed")
        if method not in _LEDGER_METHODS or not isinstance(args, list):
            raise AttributeError(f"a ledger has no method {method!r}")
        if not isinstance(kwargs, dict):
            raise TypeError("keyword arguments must be a dict")
        return getattr(ledger, method)(*args, **kwargs)

    def _close(self, n: Any) -> None:
        ledger = self._ledgers.pop(n, None) if isinstance(n, int) else None
        if ledger is not None:
            ledger.close()

    def _recall(self) -> None:
        for mailbox in self._mailboxes.values():
            mailbox.recall()

    def _mailbox(self) -> int:
        n = self._count()
        self._mailboxes[n] = WorldMailbox(self.world.lost_mail, self.world.other_mail)
        return n

    def _mail(self, n: Any, what: Any, *args: Any) -> Any:
        mailbox = self._mailboxes.get(n) if isinstance(n, int) else None
        if mailbox is None:
            raise ValueError("no such mailbox")
        if what == "send" and len(args) == 1:
            key = args[0]
            if not isinstance(key, str) or len(key) > 1000:
                raise ValueError("an e-mail's key is a string of at most 1000 characters")
            return mailbox.send(key)
        if what in _MAIL_READS and not args:
            value = getattr(mailbox, what)
            return dict(value) if isinstance(value, dict) else value
        raise AttributeError(f"a mailbox has no {what!r}")

    def _worker(self, path: Any, task_id: Any) -> dict:
        n = self._count()
        if not isinstance(task_id, str):
            raise TypeError("task_id must be a string")
        file = self.file(path)
        restarting = self._restarting.setdefault(file, set())
        late = self._late.setdefault(file, Late())
        with WorldLedger(file, self.world, restarting=restarting, late=late) as ledger:
            report = resume_one_step(
                ledger, task_id, f"pid-{4000 + n}", evidence=self.world.evidence
            )
        if self.world.terse_refusals and report.get("event") == "claim-refused":
            report.pop("reason", None)
        self.reports.append(report)
        return dict(report)

    def record(self, path: str, task_id: str) -> Any:
        """Task ``task_id`` as the world's file for ``path`` holds it (None: no such file or
        task)."""
        if path not in self._files:
            return None
        with KitLedger(self._files[path]) as ledger:
            try:
                return ledger.get(task_id)
            except Exception:
                return None

    def close(self) -> None:
        for n in list(self._ledgers):
            self._close(n)
        self._folder.cleanup()


@contextlib.contextmanager
def played(s: Any, name: str, path: str, world: World) -> Iterator[tuple[Any, Play]]:
    """The learner's ``name(path)`` played in ``world`` through the sandbox of ``s`` (a
    :class:`~simlab.grading.student.Student`): ``(what it returned, or the RemoteError it
    raised; the play)``, the play's files kept until the block ends."""
    play = Play(world)
    try:
        player = s.kit("lent-world", name)
        handle = s.sandbox.offer(Lent(play, "Work"), "Work")
        try:
            outcome = s.sandbox.call(
                player.handle, path, handle, method="play", services=[handle], what=f"{name}()"
            )
        except RemoteError as exc:
            outcome = exc
        finally:
            s.sandbox.withdraw(handle)
        yield outcome, play
    finally:
        play.close()
