"""Calls shared among processes forked from this one, their answers read back in order.

:class:`Forked` runs one function over a list of arguments in ``jobs`` processes: the list is cut
into chunks handed out in order, and the answers come back in the order of the arguments, so a
caller that reads them one by one sees exactly what running them here one after another would
give. The function is inherited when the processes fork, never pickled, so it may be a closure
over anything (a ledger factory, a lambda); the arguments and answers are pickled. Ctrl-C is the
parent's to handle: the children ignore it and :meth:`Forked.close` stops them. :meth:`Forked.close`
stops them with SIGTERM, so the children take its default action whatever handler they inherited
from this process (one that ignores it, or raises as Ctrl-C does, would leave the close waiting
on a child that never ends), and kills one that SIGTERM did not end (a child still between its
fork and the pool's initializer holds this process's handler).
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any

__all__ = ["Forked", "CHUNK", "GRACE"]

#: The most arguments one process is handed at once (fewer when the list is short).
CHUNK = 64
#: Seconds :meth:`Forked.close` gives a child to end on SIGTERM before it kills it.
GRACE = 2.0
#: The function the children run, set while a pool lives: they inherit it when they fork.
_WORK: list[Callable[[Any], Any]] = []


class Forked:
    """``jobs`` processes forked from this one that run ``work``. Raises ``ValueError`` where the
    platform cannot fork, and when another :class:`Forked` is still open in this process."""

    def __init__(self, jobs: int, work: Callable[[Any], Any]) -> None:
        import multiprocessing

        try:
            context = multiprocessing.get_context("fork")
        except ValueError:
            raise ValueError("several jobs need processes forked from this one: use 1") from None
        if _WORK:
            raise ValueError("one pool of forked processes at a time")
        self.jobs = jobs
        _WORK.append(work)
        try:
            self.pool = context.Pool(jobs, initializer=_signals_for_children)
        except BaseException:
            _WORK.clear()
            raise

    def map(self, args: Sequence[Any]) -> Iterator[Any]:
        """``work(a)`` for each ``a`` of ``args``, in order, computed by the children."""
        size = max(1, min(CHUNK, len(args) // (4 * self.jobs)))
        chunks = (args[i : i + size] for i in range(0, len(args), size))
        for answers in self.pool.imap(_run_chunk, chunks):
            yield from answers

    def close(self) -> None:
        """Stop the children (whatever they were doing) and wait for them. A child that SIGTERM
        has not ended within :data:`GRACE` seconds (one that took a handler of its own, or hung
        before it set its signals, between its fork and the pool's initializer) is killed."""
        children = list(self.pool._pool)  # the pool lists its processes only there
        closed = threading.Event()

        def kill_the_stragglers() -> None:
            if closed.wait(GRACE):
                return
            for child in children:
                if child.is_alive():
                    child.kill()

        watchdog = threading.Thread(target=kill_the_stragglers, daemon=True)
        watchdog.start()
        try:
            self.pool.terminate()
            self.pool.join()
        finally:
            closed.set()
            watchdog.join()
            _WORK.clear()


def _signals_for_children() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # the pool's terminate() relies on it


def _run_chunk(chunk: Sequence[Any]) -> list[Any]:
    (work,) = _WORK
    return [work(a) for a in chunk]
