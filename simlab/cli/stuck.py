"""The last resort of ``--time-limit``: end the command when a ledger call takes no signal.

The alarm (:class:`~simlab.sim.timeup.Alarm`) raises in the main thread, which Python does only
between bytecodes: a C call that neither returns nor takes the signal (SQLite running a query
that never ends) would keep the command waiting for ever. :func:`ended_when_stuck` watches the
alarm's deadline from a thread of its own: when the work it wraps has not returned
:data:`GRACE` seconds past the deadline, the thread has the command say that it stopped (naming
no call: the one in progress cannot be asked) and ends the process at once with the status the
command gives. Either the command's own answer or that word is printed, never both: the work
hands over under a lock before it prints anything.

Only a command that runs its work in this process needs it: one whose work runs in forked
processes waits for them in a call that takes the signal and kills them itself. What the
stuck call holds is not released (a PostgreSQL schema the command made is left), and a C call
that also holds the interpreter's lock stops the watching thread too: nothing within the
process can end that one.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from simlab.sim.timeup import Alarm

__all__ = ["ended_when_stuck", "GRACE"]

#: Seconds past the alarm's deadline that the work has to leave a call the alarm interrupted
#: and answer, before the process is ended.
GRACE = 1.0


@contextmanager
def ended_when_stuck(alarm: Alarm | None, say: Callable[[], int]) -> Iterator[None]:
    """Within the block, when ``alarm`` has rung :data:`GRACE` seconds ago and the block has
    not ended, ``say()`` runs (in another thread) and the process exits at once with the status
    it returns. Without an alarm, the block runs as it is."""
    if alarm is None:
        yield
        return
    handed_over = threading.Lock()
    done = threading.Event()

    def watch() -> None:
        if done.wait(max(alarm.deadline - time.monotonic(), 0.0) + GRACE):
            return
        with handed_over:
            if done.is_set():
                return
            status = 1
            try:
                status = say()
                sys.stdout.flush()
                sys.stderr.flush()
            finally:
                os._exit(status)  # the main thread is in a call no exception reaches

    watcher = threading.Thread(target=watch, name="simlab-time-limit", daemon=True)
    watcher.start()
    try:
        yield
    finally:
        with handed_over:
            done.set()
        watcher.join()
