"""What a sandbox's jail uses where the grader could not cap it: its CPU time and its folders.

As root, every jail runs in control groups of its own (one CPU weight however many processes
it starts; :mod:`simlab.grading.sandbox.cgroup`) and every host folder it may write is a capped
tmpfs (:func:`simlab.grading.sandbox.jail.cap_folder`). Without root (or without a writable
cgroup v1 hierarchy) neither exists, and the grader measures instead:

* :class:`Meter` -- the CPU seconds (user and system, plus what reaped children used) of the
  whole process tree rooted at the sandbox's process, read from ``/proc``. The jail's command is
  its PID 1 and orphans reparent to it, so the tree holds every process of the jail. Finding
  the tree reads every process's ``/proc/<pid>/stat``; a reading that may be rough reads only
  the processes the latest full one found, if it is recent.
* :class:`Timer` -- how long one request may take. Its wall-clock deadline is judged as today
  when the jail has a CPU share of its own. Without one, a neighbour's load can slow a correct
  cell, so once the deadline passes the request times out only when the jail used the request's
  limit in CPU time since the request began, or at the backstop (:data:`BACKSTOP` times the
  limit, never past the notebook's budget): a cell that waits or sleeps ends there.
* :class:`Watchdog` -- the total bytes and entries of each shared folder, counted with
  ``os.scandir`` (never following a link, stopping once a cap is passed, so a check costs at
  most the cap in entries), checked every :data:`WATCH_EVERY` seconds for as long as the jail
  lives: the first folder past its cap kills the jail and is emptied.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from simlab.grading.messages import Message, message

__all__ = [
    "Meter",
    "Timer",
    "Watchdog",
    "BACKSTOP",
    "WATCH_EVERY",
    "FRESH",
    "endless",
]

#: The wall-clock backstop of a request judged by CPU time, in multiples of its limit.
BACKSTOP = 3.0
#: Seconds between two checks of the shared folders while a request waits.
WATCH_EVERY = 0.1
#: The shortest pause between two CPU readings after the wall-clock deadline passed.
_CPU_EVERY = 0.05
#: Seconds a full reading of the tree stays good enough for the reading at a request's start.
FRESH = 1.0
_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _read_stat(pid: int | str) -> tuple[int, int, int] | None:
    """``(parent pid, CPU ticks, start time)`` of one process; the ticks are utime + stime +
    cutime + cstime."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            data = f.read()
    except OSError:
        return None
    # The name (field 2) may hold spaces and parentheses: the fields after it follow its last ")".
    fields = data[data.rfind(b")") + 2 :].split()
    try:
        return int(fields[1]), sum(int(v) for v in fields[11:15]), int(fields[19])
    except (IndexError, ValueError):
        return None


def _scan(root: int) -> tuple[float, dict[int, int]] | None:
    """CPU seconds of the tree of ``root`` and its processes (pid -> start time)."""
    try:
        names = os.listdir("/proc")
    except OSError:
        return None
    children: dict[int, list[int]] = {}
    found: dict[int, tuple[int, int]] = {}
    for name in names:
        if not name.isdigit():
            continue
        read = _read_stat(name)
        if read is not None:
            pid = int(name)
            found[pid] = read[1:]
            children.setdefault(read[0], []).append(pid)
    if root not in found:
        return None
    total, stack, tree = 0, [root], {}
    while stack:
        pid = stack.pop()
        total += found[pid][0]
        tree[pid] = found[pid][1]
        stack.extend(child for child in children.get(pid, ()) if child not in tree)
    return total / _TICK, tree


class Meter:
    """The CPU seconds used by ``root`` and every process below it (their reaped children
    included), read from ``/proc``."""

    def __init__(self, root: int):
        self.root = root
        self._tree: dict[int, int] = {}
        self._when = float("-inf")

    def used(self, fresh: float = 0.0) -> float | None:
        """CPU seconds used so far; None once ``root`` is gone. Within ``fresh`` seconds of
        the latest full reading, only the processes it found are read: one born since is not
        counted yet (a later full reading counts all it used, so the difference between the
        two readings can exceed what the tree used between them by what such a process used
        before the first one)."""
        if time.monotonic() - self._when > fresh or self.root not in self._tree:
            scanned = _scan(self.root)
            if scanned is None:
                return None
            self._when = time.monotonic()
            self._tree = scanned[1]
            return scanned[0]
        total = 0
        for pid, started in self._tree.items():
            read = _read_stat(pid)
            if read is not None and read[2] == started:
                total += read[1]
            elif pid == self.root:
                return None
        return total / _TICK


#: The timeout sentence of each request's label and limit seen lately (a few labels recur in
#: thousands of requests: one message each, not one per request).
_ENDLESS: dict[tuple[str, float], Message] = {}


def endless(what: str, limit: float) -> Message:
    """Why a request labelled ``what`` ran out of its own ``limit`` seconds."""
    said = _ENDLESS.get((what, limit))
    if said is None:
        if len(_ENDLESS) >= 1024:
            _ENDLESS.clear()
        said = _ENDLESS[what, limit] = message("grader.endless", what=what, s=f"{limit:g}")
    return said


@dataclass
class Timer:
    """The time one request may take: ``limit`` seconds, by the wall-clock ``deadline``
    (``time.monotonic()``), which runs out with ``reason``.

    With ``meter`` (the sandbox's process tree; its jail has no CPU share of its own), passing
    the deadline is not enough: the request runs out when the tree used ``limit`` CPU seconds
    since :meth:`start` (``cpu_reason``), or at ``end`` (``end_reason``), whichever comes
    first. Without ``meter`` the deadline is final (``end`` is the deadline, ``end_reason`` its
    ``reason``). ``end`` and ``end_reason`` are also the latest time the grader's own work on
    the request may last, and why it ends."""

    limit: float
    deadline: float
    reason: Message
    meter: Meter | None = None
    end: float = 0.0
    cpu_reason: Message | None = None
    end_reason: Message | None = None
    cpu_start: float = 0.0
    _next_cpu: float = 0.0

    @classmethod
    def start(
        cls,
        limit: float,
        reason: Message,
        *,
        meter: Meter | None = None,
        what: str = "",
        hard: float | None = None,
        hard_reason: Message | None = None,
        own_reason: bool = True,
    ) -> Timer:
        """A timer that starts now. ``hard``: a time no backstop passes (the notebook's
        budget, with ``hard_reason``); ``own_reason``: ``reason`` is the request's own timeout
        (not a deadline of the question or the budget), so the CPU limit says "of CPU time"."""
        now = time.monotonic()
        timer = cls(limit, now + limit, reason, end=now + limit, end_reason=reason)
        cpu = meter.used(FRESH) if meter is not None and limit > 0 else None
        if cpu is None:
            return timer
        timer.meter, timer.cpu_start = meter, cpu
        timer.end, timer.end_reason = (
            now + BACKSTOP * limit,
            message("grader.waiting", what=what, s=f"{BACKSTOP * limit:g}"),
        )
        if hard is not None and hard <= timer.end:
            timer.end, timer.end_reason = max(hard, timer.deadline), hard_reason or reason
        timer.cpu_reason = (
            message("grader.endless_cpu", what=what, s=f"{limit:g}") if own_reason else reason
        )
        return timer

    def wake_at(self) -> float:
        """When the waiter should look again (the deadline, then the next CPU reading)."""
        now = time.monotonic()
        if now < self.deadline or self.meter is None:
            return self.deadline
        return min(self.end, max(now, self._next_cpu))

    def expired(self) -> Message | None:
        """Why the request has run out now, or None while it may go on."""
        now = time.monotonic()
        if now < self.deadline:
            return None
        if self.meter is None:
            return self.reason
        if now >= self.end:
            return self.end_reason
        if now < self._next_cpu:
            return None
        used = self._used()
        # A reading races with processes being reaped (their time moves into the parent's):
        # a second reading must agree before the learner is stopped.
        if used is not None and used >= self.limit:
            used = self._used()
            if used is not None and used >= self.limit:
                return self.cpu_reason
        left = self.limit - (used or 0.0)
        # Until then the jail cannot reach the limit, even with every CPU of the host.
        self._next_cpu = time.monotonic() + max(_CPU_EVERY, left / (os.cpu_count() or 1))
        return None

    def _used(self) -> float | None:
        cpu = self.meter.used() if self.meter is not None else None
        return None if cpu is None else cpu - self.cpu_start


def _size(info: os.stat_result) -> int:
    """What one entry costs: its size or the disk blocks it holds, the larger."""
    return max(info.st_size, getattr(info, "st_blocks", 0) * 512)


def usage(path: str, max_bytes: int, max_entries: int) -> tuple[int, int]:
    """``(bytes, entries)`` below ``path`` (every folder, never through a link); the count
    stops as soon as either passes its cap, so it costs at most ``max_entries + 1`` entries."""
    total = entries = 0
    stack = [path]
    while stack:
        folder = stack.pop()
        try:
            listing = os.scandir(folder)
        except OSError:
            continue
        with listing:
            for entry in listing:
                entries += 1
                try:
                    info = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                total += _size(info)
                if total > max_bytes or entries > max_entries:
                    return total, entries
                if stat.S_ISDIR(info.st_mode):
                    stack.append(entry.path)
    return total, entries


def empty(path: str) -> None:
    """Remove everything inside ``path`` (links are removed, never followed); keep ``path``."""
    with contextlib.suppress(OSError), os.scandir(path) as listing:
        for entry in list(listing):
            with contextlib.suppress(OSError):
                if entry.is_dir(follow_symlinks=False):
                    shutil.rmtree(entry.path, ignore_errors=True)
                else:
                    os.unlink(entry.path)


class Watchdog(threading.Thread):
    """A cap on the total bytes and entries of each of ``folders`` (host folders a jail may
    write that no tmpfs caps), checked every :data:`WATCH_EVERY` seconds until :meth:`stop`;
    at the first folder past its cap it keeps the line saying so in :attr:`reason`, calls
    ``kill`` (which ends the jail) and empties the folders. A daemon thread: it never holds
    the grader up."""

    def __init__(
        self, folders: Sequence[str], max_bytes: int, max_entries: int, kill: Callable[[], None]
    ):
        super().__init__(name="simlab-folder-watch", daemon=True)
        self.folders = list(folders)
        self.max_bytes = max_bytes
        self.max_entries = max_entries
        self.kill = kill
        self.reason: Message | None = None
        self._stopped = threading.Event()

    def over(self) -> Message | None:
        """One line saying which cap a folder went past, or None."""
        for folder in self.folders:
            used, entries = usage(folder, self.max_bytes, self.max_entries)
            if used > self.max_bytes:
                return message("grader.folder_bytes", n=f"{self.max_bytes / 2**20:g}")
            if entries > self.max_entries:
                return message("grader.folder_files", n=f"{self.max_entries:,}")
        return None

    def empty(self) -> None:
        """Empty every folder (its jail must be gone, or it writes on)."""
        for folder in self.folders:
            empty(folder)

    def run(self) -> None:
        while not self._stopped.wait(WATCH_EVERY):
            if self.check():
                return

    def check(self) -> bool:
        """Check once (from any thread); True when a folder is past its cap (and the jail was
        killed)."""
        if self.reason is not None:
            return True
        why = self.over()
        if why is None:
            return False
        self.reason = why
        self.kill()
        self.empty()
        return True

    def stop(self) -> None:
        """Stop checking (before the jail's process is reaped, so ``kill`` never reaches a
        process that reused its ID)."""
        self._stopped.set()
        if self.is_alive() and self is not threading.current_thread():
            self.join()
