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
fork and the pool's initializer holds this process's handler). With an alarm
(:class:`~simlab.sim.timeup.Alarm`) each child arms it over each call of the function: one it
rang in answers :class:`Cut`, naming the ledger call it cut, and so does each call after it
(without running), so the parent reads where the time ran out in the order of the arguments.
When the alarm rings in this process while it waits for the children, :meth:`Forked.map` gives
them :data:`REPORT` seconds more to answer, and raises :class:`~simlab.sim.timeup.TimeUp`
(naming no call) if they do not: a child whose call takes no signal is ended by
:meth:`Forked.close`.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from simlab.sim.timeup import Alarm, TimeUp

__all__ = ["Forked", "Cut", "CHUNK", "GRACE", "REPORT"]

#: The most arguments one process is handed at once (fewer when the list is short).
CHUNK = 64
#: Seconds :meth:`Forked.close` gives a child to end on SIGTERM before it kills it.
GRACE = 2.0
#: Seconds past the alarm's deadline the parent waits for a child's word (:class:`Cut`) of
#: where the time ran out.
REPORT = 1.0
#: The function the children run, set while a pool lives: they inherit it when they fork.
_WORK: list[Callable[[Any], Any]] = []
#: The alarm the children arm over each call, set with the function.
_ALARM: list[Alarm | None] = []


@dataclass
class Cut:
    """A child's answer for an argument whose call the alarm cut (``call``: the ledger call
    in progress, as :attr:`~simlab.sim.timeup.TimeUp.call` names it), or that it did not start
    since the alarm had rung (``call`` None)."""

    call: dict[str, Any] | None


class Forked:
    """``jobs`` processes forked from this one that run ``work`` (each call under ``alarm``,
    when given). Raises ``ValueError`` where the platform cannot fork, and when another
    :class:`Forked` is still open in this process."""

    def __init__(self, jobs: int, work: Callable[[Any], Any], alarm: Alarm | None = None) -> None:
        import multiprocessing

        try:
            context = multiprocessing.get_context("fork")
        except ValueError:
            raise ValueError("several jobs need processes forked from this one: use 1") from None
        if _WORK:
            raise ValueError("one pool of forked processes at a time")
        self.jobs, self.alarm = jobs, alarm
        _WORK.append(work)
        _ALARM.append(alarm)
        try:
            self.pool = context.Pool(jobs, initializer=_signals_for_children)
        except BaseException:
            _WORK.clear()
            _ALARM.clear()
            raise

    def map(self, args: Sequence[Any]) -> Iterator[Any]:
        """``work(a)`` for each ``a`` of ``args``, in order, computed by the children (a
        :class:`Cut` for each one the alarm cut or found rung)."""
        from multiprocessing import TimeoutError as NoWord

        size = max(1, min(CHUNK, len(args) // (4 * self.jobs)))
        chunks = (args[i : i + size] for i in range(0, len(args), size))
        answers = self.pool.imap(_run_chunk, chunks)
        ending: float | None = None  # once the alarm rang here: until when to wait for a word
        while True:
            try:
                if ending is None:
                    chunk = next(answers)
                else:
                    chunk = answers.next(timeout=max(0.0, ending - time.monotonic()))
            except StopIteration:
                return
            except TimeUp:
                if self.alarm is None or ending is not None:
                    raise
                ending = self.alarm.deadline + REPORT
                continue
            except NoWord:
                raise TimeUp() from None
            yield from chunk

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
            _ALARM.clear()


def _signals_for_children() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # the pool's terminate() relies on it


def _run_chunk(chunk: Sequence[Any]) -> list[Any]:
    (work,), (alarm,) = _WORK, _ALARM
    if alarm is None:
        return [work(a) for a in chunk]
    return [_under(alarm, work, a) for a in chunk]


def _under(alarm: Alarm, work: Callable[[Any], Any], a: Any) -> Any:
    """``work(a)`` with ``alarm`` armed over it; :class:`Cut` when it rang (before or within)."""
    if alarm.rang():
        return Cut(None)
    try:
        with alarm.armed():
            return work(a)
    except TimeUp as up:
        return Cut(up.call)
