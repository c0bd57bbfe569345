"""The state a grader makes on the host, and how none of it outlives the grader.

Besides its own process, a grader makes temporary folders (the exchange folders, an unjailed
sandbox's working folder, scratch space), capped tmpfs mounts on some of them and control
groups (as root), and jail processes in sessions of their own. Grading threads make them while
the process may be ending (Ctrl-C, SIGTERM), so:

* every folder is made inside the process's own temporary folder, ``<tmp>/simlab-<pid>``
  (:func:`mkdtemp`; the command line also makes it :data:`tempfile.tempdir`, so every other
  temporary folder of the grading lands there too);
* a folder, a mount, a control group or a jail process is made and recorded in one step, under
  the lock :func:`close` takes (:func:`making`), and once :func:`close` has begun nothing new is
  made: :class:`Closing` is raised instead. So whatever a thread is doing when the process
  ends, each thing was either recorded before :func:`close` took its records, and is removed,
  or is never made;
* :func:`close` runs when the command line's grading ends or is interrupted
  (:func:`session`), and at the exit of the process otherwise (registered when this module is
  imported, before any grading thread exists): it kills the jails (their process groups, and
  every process in their control groups), unmounts, removes the groups, and removes the
  temporary folder, renamed first so that no thread still running can make anything inside it;
* a grader killed before it could (SIGKILL) leaves all of it named by its process ID (the
  folder, each group, the ``source`` of each mount: :func:`tag`), and the next grader removes
  it (:func:`sweep`, at its start) once that process is gone (:func:`left_by_a_gone_grader`);
  its jails died with it (each dies with its parent).

:func:`serve` makes a process a grading process of a grader (:mod:`simlab.grading.processes`):
it has its own records and temporary folder inside the grader's, makes them with its own tag,
and removes them when the grader ends it (SIGTERM) or dies (the kernel sends the same signal).

:func:`interrupt_at` is a test hook: ``SIMLAB_INTERRUPT_AT=<point>:<signal>[:<n>]`` makes the
process send itself ``signal`` the ``n``-th time a grading thread reaches ``point`` (the points
are named where :func:`interrupt_at` is called), so a test can interrupt a grader at a chosen
instant; in a grading process, the grader is sent the signal instead (SIGINT to its process
group, as a terminal sends it).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import re
import shutil
import signal
import tempfile
import threading
import time
from collections.abc import Iterator

__all__ = [
    "Closing",
    "CGROUPS",
    "making",
    "mkdtemp",
    "record",
    "forget",
    "close",
    "sweep",
    "remove_group",
    "session",
    "interrupt_at",
    "interrupted",
    "tag",
    "left_by_a_gone_grader",
    "serve",
]

#: Where control groups live (cgroup v1), one folder per controller.
CGROUPS = "/sys/fs/cgroup"
_CONTROLLERS = ("cpu", "pids", "memory")
_MOUNTS = "/proc/self/mounts"
_MNT_DETACH = 2
#: The longest :func:`close` waits for a killed jail's processes to leave its groups.
_GROUP_WAIT = 5.0


_TAG = re.compile(r"simlab-(\d+)(?:-\d+|-closed)?")


def tag() -> str:
    """The name prefix of what this process makes: ``simlab-<pid>``."""
    return f"simlab-{os.getpid()}"


def left_by_a_gone_grader(name: str) -> bool:
    """Whether ``name`` was made by a grader (``simlab-<pid>``, ``simlab-<pid>-<n>`` or
    ``simlab-<pid>-closed``, its temporary folder being removed) whose process no longer
    exists. False for this process's own names, for a process still alive, and for names of
    any other form."""
    match = _TAG.fullmatch(name)
    if match is None or int(match.group(1)) == os.getpid():
        return False
    try:
        os.kill(int(match.group(1)), 0)
    except ProcessLookupError:
        return True
    except OSError:  # alive, another user's
        return False
    return False


class Closing(RuntimeError):
    """The grader is ending: nothing new is made on the host."""

    def __init__(self) -> None:
        super().__init__("the grader is stopping")


# Reentrant: a maker may record more than one thing in one step (a folder, then its mount).
_LOCK = threading.RLock()
_closing = False
_swept = False
_root: str | None = None
#: What this process made and has not removed yet, by kind: "mount" (paths), "group" (paths),
#: "process" (process group IDs).
_MADE: dict[str, set] = {"mount": set(), "group": set(), "process": set()}


@contextlib.contextmanager
def making() -> Iterator[None]:
    """Hold the lock :func:`close` takes while making and recording one thing on the host;
    raise :class:`Closing` (making nothing) once :func:`close` has begun."""
    with _LOCK:
        if _closing:
            raise Closing()
        _sweep_once()
        yield


def record(kind: str, item: object) -> None:
    """Record ``item`` (of ``kind``: ``mount``, ``group`` or ``process``) as made by this
    process (call inside :func:`making`)."""
    with _LOCK:
        _MADE[kind].add(item)


def forget(kind: str, item: object) -> None:
    """``item`` was removed (or ended) by its owner: :func:`close` leaves it alone."""
    with _LOCK:
        _MADE[kind].discard(item)


def _make_root() -> str:
    global _root
    if _root is None or not os.path.isdir(_root):
        path = os.path.join(tempfile.gettempdir(), tag())
        # A folder of this name is a gone grader's (a process ID used again): never ours.
        _remove_tree(path)
        os.mkdir(path, 0o755)  # the jail's user goes through it to its shared folders
        os.chmod(path, 0o755)
        _root = path
    return _root


def mkdtemp(prefix: str) -> str:
    """A fresh folder (mode 0700) in this process's temporary folder; its real path."""
    with making():
        path = tempfile.mkdtemp(prefix=prefix, dir=_make_root())
    interrupt_at("folder")
    return os.path.realpath(path)


# ------------------------------------------------------------------------- the end -----------


def close() -> None:
    """Remove everything this process made on the host, and make nothing more (module doc).
    Safe to call again, and from any thread."""
    global _closing
    with _LOCK:
        _closing = True
        processes = sorted(_MADE["process"])
        groups = sorted(_MADE["group"])
        mounts = sorted(_MADE["mount"])
        for made in _MADE.values():
            made.clear()
        folder = _root
    for pgid in processes:
        with contextlib.suppress(OSError):
            os.killpg(pgid, signal.SIGKILL)
    for path in groups:
        remove_group(path)
    for path in mounts:
        unmount(path)
    if folder is not None:
        gone = f"{folder}-closed"
        try:
            os.rename(folder, gone)
        except OSError:
            gone = folder
        _remove_tree(gone)


def remove_group(path: str, wait: float = _GROUP_WAIT) -> bool:
    """Kill every process in the control group ``path`` and remove it (a group can be removed
    only once its killed processes are gone; a process that enters it meanwhile is killed too);
    True once it is gone, False when it is still there after ``wait`` seconds."""
    end = time.monotonic() + wait
    while True:
        try:
            with open(os.path.join(path, "cgroup.procs")) as f:
                pids = [int(line) for line in f if line.strip()]
        except OSError:
            return True  # gone already
        for pid in pids:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        try:
            os.rmdir(path)
            return True
        except FileNotFoundError:
            return True
        except OSError:
            if time.monotonic() >= end:
                return False  # left for the next grader's sweep
            time.sleep(0.01)  # killed processes take a moment to leave


def _libc():
    import ctypes

    return ctypes.CDLL(None, use_errno=True)


def mount_tmpfs(path: str, options: str) -> bool:
    """Mount a tmpfs with ``options`` on ``path``, this process's tag as its source, and record
    it (call inside :func:`making`); False when it cannot."""
    try:
        done = _libc().mount(tag().encode(), os.fsencode(path), b"tmpfs", 0, options.encode())
    except (OSError, AttributeError):
        return False
    if done != 0:
        return False
    record("mount", path)
    return True


def unmount(path: str) -> None:
    """Detach the tmpfs on ``path`` (nothing can hold it up)."""
    with contextlib.suppress(OSError, AttributeError):
        if os.path.ismount(path):
            _libc().umount2(os.fsencode(path), _MNT_DETACH)


def _remove_tree(path: str) -> None:
    """Remove the folder ``path`` and everything in it, unmounting what is mounted below it
    first (a tmpfs below it would otherwise stay mounted, and the folder with it)."""
    if not os.path.lexists(path):
        return
    prefix = os.path.realpath(path) + "/"
    for mounted in sorted((fields[1] for fields in _mounts()), reverse=True):
        if mounted.startswith(prefix):
            unmount(mounted)
    shutil.rmtree(path, ignore_errors=True)


def _mounts() -> list[list[str]]:
    """The fields of every line of this process's mount table (paths unescaped)."""
    try:
        with open(_MOUNTS, encoding="utf-8", errors="replace") as f:
            lines = [line.split() for line in f]
    except OSError:
        return []
    out = []
    for fields in lines:
        if len(fields) > 2:
            # /proc/mounts escapes blanks and backslashes in octal
            fields[1] = fields[1].encode("latin-1").decode("unicode_escape")
            out.append(fields)
    return out


# ------------------------------------------------------------------------- a killed grader ----


def sweep() -> None:
    """Remove what graders that are gone left on the host (they were killed before they could):
    their mounts, their control groups (killing what still runs in them) and their temporary
    folders in this process's temporary folder's parent."""
    for fields in _mounts():
        if fields[2] == "tmpfs" and left_by_a_gone_grader(fields[0]):
            unmount(fields[1])
    for controller in _CONTROLLERS:
        folder = os.path.join(CGROUPS, controller)
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        for name in filter(left_by_a_gone_grader, names):
            remove_group(os.path.join(folder, name), wait=1.0)
    base = tempfile.gettempdir()
    if os.path.basename(base) == tag():  # the command line's session made it ours
        base = os.path.dirname(base)
    try:
        names = os.listdir(base)
    except OSError:
        return
    for name in filter(left_by_a_gone_grader, names):
        _remove_tree(os.path.join(base, name))


def _sweep_once() -> None:
    global _swept
    if not _swept:
        _swept = True
        sweep()


# ------------------------------------------------------------------------- the command line ---


@contextlib.contextmanager
def session(*, kill_at_interrupt: bool = False) -> Iterator[None]:
    """Around one grading run of the command line: sweep what killed graders left, make this
    process's temporary folder the default one, stop on SIGTERM as on Ctrl-C
    (``KeyboardInterrupt``), and :func:`close` when leaving, however (after a run that ended
    normally, the process may make things again; after an interrupt or an error it makes
    nothing more: grading threads may still be running). With
    ``kill_at_interrupt`` the interrupt itself closes (in a thread of its own: the signal
    lands on the main thread, which may hold the lock), so grading threads still at work end
    at once (their jails are killed, nothing new can be made); without it, the caller decides
    what to do first (a queue hands its submissions back) and :func:`close` runs when it leaves.
    """
    global _closing
    previous = tempfile.tempdir
    handlers = {}
    interrupted = []

    def stop(signum, frame):
        interrupted.append(signum)
        _interrupted.set()
        if kill_at_interrupt:
            threading.Thread(target=close, name="simlab-close").start()
        raise KeyboardInterrupt

    ended = False
    try:
        with making():
            tempfile.tempdir = _make_root()
        for sig in (signal.SIGINT, signal.SIGTERM):
            if sig == signal.SIGINT and signal.getsignal(sig) is signal.SIG_IGN:
                continue  # started in the background of a shell: Ctrl-C is not ours
            with contextlib.suppress(ValueError):  # not the main thread
                handlers[sig] = signal.signal(sig, stop)
        yield
        ended = True
    finally:
        for sig, handler in handlers.items():
            signal.signal(sig, handler)
        close()
        tempfile.tempdir = previous
        if ended and not interrupted:
            # Every grading thread has ended (the run was not cut short): this process may
            # grade again (a program that calls the command line more than once).
            with _LOCK:
                _closing = False


# ------------------------------------------------------------------------- a grading process --

_PR_SET_PDEATHSIG = 1
#: The grader this process grades for (:func:`serve`), None in a grader itself.
_grader: int | None = None


def serve(grader: int, folder: str) -> None:
    """Make this process a grading process of the process ``grader`` (call first thing, in the
    main thread, before making anything): its temporary folder is made inside ``folder`` (the
    grader's), SIGTERM :func:`close` s and ends it at once (exit status 143), and so does the
    grader's death (the kernel sends SIGTERM then; a grader already gone ends this process
    here). SIGINT is the grader's to decide on and is ignored here, and the test hook
    (:func:`interrupt_at`) interrupts the grader. Jails this process starts die with it, as
    they die with a grader."""
    global _grader

    ending = []

    def end(signum, frame):
        # Once: a grader's death may signal this process once for each of its threads that
        # ends, and a second handler run within the first would end the process before the
        # first's close() removed what it made.
        if ending:
            return
        ending.append(signum)
        close()
        os._exit(128 + signum)

    _grader = grader
    signal.signal(signal.SIGTERM, end)
    # A handler, not SIG_IGN: the processes this one starts must not inherit an ignored Ctrl-C.
    signal.signal(signal.SIGINT, lambda signum, frame: None)
    tempfile.tempdir = folder
    if _libc().prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0) != 0:
        raise OSError("prctl(PR_SET_PDEATHSIG) failed")
    if os.getppid() != grader:  # gone before the kernel could be asked to say so
        end(signal.SIGTERM, None)


# ------------------------------------------------------------------------- the test hook ------

_interrupted = threading.Event()
_HOOK = "SIMLAB_INTERRUPT_AT"
_reached: dict[str, int] = {}
_HOOK_LOCK = threading.Lock()


def interrupted() -> bool:
    """Whether a session's grading was interrupted (Ctrl-C, SIGTERM): set by the handler
    itself, before the interrupt reaches any ``except``."""
    return _interrupted.is_set()


def interrupt_at(point: str) -> None:
    """The test hook (module doc): when ``SIMLAB_INTERRUPT_AT`` names ``point`` and this is its
    ``n``-th arrival, send this process the signal named there, and hold this thread until the
    interrupt has been taken (:func:`interrupted`; at most a minute, however loaded the
    machine), so the interrupt lands while the thread is here. Nothing otherwise."""
    wanted = os.environ.get(_HOOK)
    if not wanted:
        return
    name, _, rest = wanted.partition(":")
    if name != point:
        return
    signame, _, nth = rest.partition(":")
    with _HOOK_LOCK:
        _reached[point] = _reached.get(point, 0) + 1
        if _reached[point] != int(nth or 1):
            return
    sig = getattr(signal, signame)
    if _grader is None:
        os.kill(os.getpid(), sig)
    elif sig == signal.SIGINT:  # a terminal's Ctrl-C reaches the grader's whole group
        os.killpg(os.getpgid(_grader), sig)
    else:
        os.kill(_grader, sig)
    _interrupted.wait(60.0)


atexit.register(close)
