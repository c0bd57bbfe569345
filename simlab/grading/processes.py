"""Grading processes: a batch graded ``jobs`` at a time in ``jobs`` processes, not threads.

The hidden checks judge the learner's answers in the grader's own process (Python work: the
checker, simulations over the learner's pieces). Two grading threads of one process would take
turns on one interpreter lock; two grading processes do not. :class:`GradingProcesses` grades
one job in the grader itself and starts one grading process for each other job, each reused
for notebook after notebook; :meth:`~GradingProcesses.call` runs a module-level function
(pickled by name, with its arguments) wherever it is idle, so the grader's other threads only
wait on a pipe.

A grading process (``python -m simlab.grading.processes``) is started fresh (spawned: never a
fork of a grader that runs threads), in a session of its own, and pays its start (a Python,
simlab's grading modules, the first notebook's warm-up) once per job. It takes the grader's
version (:func:`simlab.grading.version.inherit`), so one batch judges every notebook in the
world of one version. It is the grader's in every way that matters on the host
(:func:`simlab.grading.sandbox.host.serve`): its temporary folder is made inside the grader's,
it removes what it made when the grader ends it (SIGTERM) or when the grader dies (the kernel
sends it SIGTERM then), and the jails it starts die with it. Hence:

* a grader that ends normally stops its processes (each removes what it made, then exits) and
  waits for them, so their CPU time is the grader's children's;
* a grader interrupted (Ctrl-C, SIGTERM) ends them (:meth:`GradingProcesses.close`) and waits,
  however often it is interrupted meanwhile (for at most :data:`END_WAIT` seconds), before it
  removes its own folder;
* a grader killed outright (SIGKILL) leaves them to the kernel's signal; what a process killed
  outright itself leaves is named by its own process ID and swept by the next grader.

A process that dies while it grades costs that call only (:class:`ProcessLost`, raised in the
caller's thread); the next call starts a fresh one. Once :meth:`~GradingProcesses.close` has
begun, nothing new is started and nothing more is graded.
"""

from __future__ import annotations

import contextlib
import gc
import os
import pickle
import queue
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from multiprocessing.connection import Connection
from typing import Any, TypeVar

from simlab.grading.version import grader_version

__all__ = [
    "GradingProcesses",
    "ProcessLost",
    "END_WAIT",
    "SWITCH_INTERVAL",
    "running",
    "tuned_for_grading",
    "settle",
]

#: The longest a grader waits for its grading processes to end once it ended them.
END_WAIT = 15.0

T = TypeVar("T")


class ProcessLost(RuntimeError):
    """The grading process died before it answered."""


class _Process:
    """One grading process and the grader's end of its pipe."""

    def __init__(self) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            self.proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "simlab.grading.processes",
                    str(theirs.fileno()),
                    str(os.getpid()),
                    tempfile.gettempdir(),
                    grader_version(),
                ],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,  # what the grader prints is the grader's alone
                pass_fds=(theirs.fileno(),),
                close_fds=True,
                start_new_session=True,  # the terminal's signals are the grader's to relay
            )
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
        self.conn = Connection(ours.detach())

    def call(self, func: Callable[..., T], args: tuple) -> T:
        try:
            self.conn.send((func, args))
            ok, value = self.conn.recv()
        except (EOFError, OSError) as exc:
            status = self.proc.poll()
            raise ProcessLost(
                f"grading process {self.proc.pid} ended"
                + (f" (exit status {status})" if status is not None else "")
            ) from exc
        if not ok:
            raise RuntimeError(value)
        return value

    def stop(self) -> None:
        """Ask the process to finish and exit (it removes what it made)."""
        with contextlib.suppress(OSError):
            self.conn.send(None)

    def end(self) -> None:
        """End the process at once (it removes what it made on its way out)."""
        with contextlib.suppress(OSError):
            self.proc.send_signal(signal.SIGTERM)


class _Here:
    """The grader's own process, as one of the places a call runs."""

    def call(self, func: Callable[..., T], args: tuple) -> T:
        try:
            return func(*args)
        finally:
            settle()

    def end(self) -> None:
        pass


class GradingProcesses:
    """Places to grade for the ``jobs`` grading threads of one batch (module doc): the grader's
    own process, and ``jobs - 1`` grading processes."""

    def __init__(self, jobs: int) -> None:
        self._lock = threading.Lock()
        self._closed = False
        self._all: list[_Process] = []
        self._idle: queue.SimpleQueue[_Process | _Here | None] = queue.SimpleQueue()
        self._idle.put(_Here())  # one job needs no other process: the grader's is idle
        # Started by the calling thread, which outlives every grading thread: the kernel's
        # signal at a parent's death follows the thread that started the child.
        try:
            for _ in range(jobs - 1):
                self._idle.put(self._start())
        except BaseException:  # those started already end with the failed start
            self.close(at_once=True)
            raise

    def _start(self) -> _Process:
        with self._lock:
            if self._closed:
                raise ProcessLost("the grader is stopping")
            process = _Process()
            self._all.append(process)
            return process

    def call(self, func: Callable[..., T], *args: Any) -> T:
        """``func(*args)`` in an idle grading process (``func`` a module-level function, its
        arguments and result picklable). Raises :class:`ProcessLost` when the process died
        meanwhile (the next call gets a fresh one), and ``RuntimeError`` with Python's words
        when ``func`` raised there."""
        process = self._idle.get()
        if process is None or self._closed:
            self._idle.put(process)  # closed: every waiting thread is told
            raise ProcessLost("the grader is stopping")
        try:
            return process.call(func, args)
        except ProcessLost:
            process.end()
            try:
                process = self._start()
            except ProcessLost:
                process = None  # closed meanwhile: tells every waiting thread
            raise
        finally:
            self._idle.put(process)

    def close(self, *, at_once: bool = False) -> None:
        """Stop every grading process (at once, with SIGTERM, when ``at_once``: what it was
        doing is lost) and wait until they have ended and removed what they made; start none
        after. An interrupt while it waits does not cut the wait short (it is raised after)."""
        with self._lock:
            self._closed = True
            started = list(self._all)
        self._idle.put(None)
        for process in started:
            if at_once:
                process.end()
            else:
                process.stop()
        deadline = time.monotonic() + END_WAIT
        pending: BaseException | None = None
        for process in started:
            while True:
                try:
                    process.proc.wait(max(0.0, deadline - time.monotonic()))
                except subprocess.TimeoutExpired:
                    process.proc.kill()  # stuck: it leaves its things to the next sweep
                    process.proc.wait()
                except KeyboardInterrupt as exc:  # Ctrl-C again, or SIGTERM: end them now
                    pending = exc
                    for other in started:
                        other.end()
                    continue
                break
            process.conn.close()
        if pending is not None:
            raise pending


#: How long a grading thread runs before it must offer the GIL to another (Python's default
#: is 5 ms). Threads that grade side by side also hand it over at every SQLite statement and
#: every frame to a sandbox; at the default they keep forcing each other off, and the process
#: spends on the handovers much of what a second thread saves.
SWITCH_INTERVAL = 0.02


@contextlib.contextmanager
def tuned_for_grading() -> Iterator[None]:
    """While the body grades: what this process held before (modules, caches, the grader's
    own tables) is left out of the garbage collector's passes, which then walk only what
    grading made (an old object that becomes garbage meanwhile is collected after the body),
    and threads switch every :data:`SWITCH_INTERVAL` seconds. Both are put back after; a heap
    that someone froze before stays frozen for them to thaw."""
    interval, thawed = sys.getswitchinterval(), gc.get_freeze_count() == 0
    gc.freeze()
    sys.setswitchinterval(max(interval, SWITCH_INTERVAL))
    try:
        yield
    finally:
        sys.setswitchinterval(interval)
        if thawed:
            gc.unfreeze()


def settle() -> None:
    """After a call, while :func:`tuned_for_grading` holds: what the call left for good (the
    modules it imported, the caches it filled) joins what the collector's passes leave out, once
    its garbage is collected (none is kept). A grading process starts with nothing imported, and
    its first notebook imports the grader; unsettled, every later full pass would walk all of it
    again."""
    if gc.get_freeze_count():
        gc.collect()
        gc.freeze()


@contextlib.contextmanager
def running(jobs: int) -> Iterator[GradingProcesses]:
    """:class:`GradingProcesses` for the body: stopped when it ends, ended at once when it
    raises (an interrupt, say)."""
    processes = GradingProcesses(jobs)
    try:
        yield processes
    except BaseException:
        processes.close(at_once=True)
        raise
    processes.close()


def _serve(conn: Connection) -> None:
    """Answer calls until the grader says stop (None) or goes away."""
    with tuned_for_grading():
        while True:
            try:
                call = conn.recv()
            except (EOFError, OSError):
                return
            if call is None:
                return
            func, args = call
            try:
                answer = (True, func(*args))
            except Exception as exc:  # the caller's thread raises it
                answer = (False, f"{type(exc).__name__}: {exc}")
            try:
                conn.send(answer)
            except (pickle.PicklingError, TypeError, AttributeError) as exc:  # sent nothing
                conn.send((False, f"{type(exc).__name__}: {exc}"))
            del call, func, args, answer
            settle()


def main(argv: list[str]) -> None:
    """A grading process: ``FD GRADER FOLDER VERSION`` (its end of the pipe, the grader's
    process ID, the grader's temporary folder, the grader's version)."""
    from simlab.grading.sandbox import host

    fd, grader, folder = int(argv[0]), int(argv[1]), argv[2]
    host.serve(grader, folder)
    from simlab.grading import version

    version.inherit(argv[3])
    conn = Connection(fd)
    try:
        _serve(conn)
    finally:
        host.close()


if __name__ == "__main__":
    main(sys.argv[1:])
