"""A wall-clock alarm that stops a search or a run even inside a ledger call that never returns.

The library's own time comes only from a clock passed in: ``explore``'s ``time_limit`` is
counted in seconds of its ``clock`` and checked between runs, so a test drives it with a fake
clock and the same arguments give the same answer. A ledger's call that never returns (a
``while True:`` in ``claim``, a lock never released) never reaches that check. An
:class:`Alarm` is the real timer for that case, and it belongs to the edge, the command line,
which makes one and passes it in (``explore(alarm=...)``, ``simulate(alarm=...)``): a signal
handler is state of the whole process, only its main thread may set one, and a library that
set its own would take ``SIGALRM`` from the program that called it (a notebook, a grader) and
answer after a time that depends on the machine.

Armed (:meth:`Alarm.armed`), an alarm sets a one-shot real-time interval timer; when it rings,
its handler raises :class:`TimeUp` in the main thread wherever that thread is: between two
bytecodes of a ledger's loop, or out of a C call that a signal interrupts (``time.sleep``, a
lock's ``acquire`` without a timeout, a blocking read). Where the simulator calls the ledger
(:mod:`simlab.sim.answers`) the call it interrupted is named on the way out
(:attr:`TimeUp.call`). A C call that takes no signal until it returns cannot be stopped from
within its process: a forked process that does not end is killed (:mod:`simlab.sim.forked`).
The alarm rings once; a ledger whose ``close`` hangs after it is not stopped again.
"""

from __future__ import annotations

import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["Alarm", "TimeUp"]


class TimeUp(BaseException):
    """The alarm rang. A ``BaseException``, as ``KeyboardInterrupt`` is: a ledger's (or a
    learner's ``send_step``'s) ``except Exception`` does not swallow it. ``call`` names the
    ledger call it interrupted, when the simulator made it (None otherwise): ``process``,
    ``call`` (the ledger method), ``task`` (None for a call without one) and ``time`` (the run's
    simulated time). The call is its one argument, so a copy made from ``args`` (as SimPy
    makes one of an exception that ends a process) names it too."""

    def __init__(self, call: dict[str, Any] | None = None) -> None:
        super().__init__(call)

    @property
    def call(self) -> dict[str, Any] | None:
        return self.args[0] if self.args else None

    def __str__(self) -> str:
        return "the time limit ran out"


class Alarm:
    """A deadline ``seconds`` of ``time.monotonic`` from now (the clock forked processes
    share, so one made before a pool forks holds in each of its processes)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = float(seconds)
        self.deadline = time.monotonic() + self.seconds

    def rang(self) -> bool:
        """Whether the deadline has passed."""
        return time.monotonic() >= self.deadline

    @contextmanager
    def armed(self) -> Iterator[None]:
        """Within the block, :class:`TimeUp` is raised in this (the main) thread at the
        deadline (at once if it has passed); on leaving, the timer is off and ``SIGALRM``'s
        handler is the one it replaced."""
        previous = signal.signal(signal.SIGALRM, _ring)
        try:
            left = self.deadline - time.monotonic()
            signal.setitimer(signal.ITIMER_REAL, max(left, 1e-6))
            yield
        finally:
            try:
                signal.setitimer(signal.ITIMER_REAL, 0)
            finally:
                signal.signal(signal.SIGALRM, previous)


def _ring(_signum: int, _frame: Any) -> None:
    raise TimeUp()
