"""The jail every run of a student's code goes into: bubblewrap, an unprivileged user, hard limits.

A :class:`Jail` turns a command line into one that runs it inside ``bwrap`` (bubblewrap, the
sandbox Flatpak uses):

* **its own namespaces** (``--unshare-all``): PID (the grader's processes are invisible), network
  (none at all, not even the host's loopback), IPC, UTS, cgroup, mount and user;
  ``--disable-userns`` (bubblewrap 0.8+) forbids new user namespaces inside, ``--new-session``
  detaches it from the grader's terminal. The command is the jail's PID 1 (``--as-pid-1``):
  when it ends, the kernel kills every other process of the jail. ``--die-with-parent`` ends
  it when the grader goes;
* **an unprivileged user**: uid and gid :data:`SANDBOX_UID` (65534, ``nobody``) inside. When the
  grader runs as root, the jail is ``nobody`` on the host too: a first ``bwrap`` (root, a mount
  namespace only) publishes the read-only sources under ``/mnt`` (so a closed parent folder such
  as ``/root`` does not matter), a shell that keeps ``CAP_KILL`` waits for ``setpriv``, which
  drops to 65534 for good and runs the real jail, a second ``bwrap`` run by ``nobody``. Each
  layer dies with its parent, and killing the first one's process group kills them all;
* **a read-only view of only what it needs**: ``/usr`` (with the ``/bin``, ``/lib*`` links), a
  few files of ``/etc`` (``ld.so.cache``, fonts, time zone), the Python runtime, the virtual
  environment and simlab's package folder with the hidden checks' folder replaced by an empty
  one. Nothing else of the host exists inside: no ``solutions/``, no ``tests/``, no other
  submission, no home folder;
* **inodes of its own** (as root): locks (``fcntl`` byte ranges, ``flock``) belong to the inode
  and cross every namespace, so two jails that see the same read-only file could pass bits
  through locks on it. The first, root layer mounts a read-only overlay over each source folder
  and over ``/dev`` (the same files, new inodes), copies the single ``/etc`` files, and the
  jail's standard streams that are devices (the grader's ``/dev/null``) are replaced by its own
  ``/dev/null``: nothing lockable is shared between two jails;
* **private scratch space**: ``/tmp`` (the working folder and ``HOME``) and ``/dev/shm`` are
  size-capped tmpfs that vanish with the jail; ``shared`` folders (the hidden checks' exchange
  folder) are the only host folders it may write, and when the grader is root each is a size-
  and inode-capped tmpfs of its own (:func:`cap_folder`);
* **hard limits** (``prlimit``, soft = hard, before the command starts, so nothing inside can
  raise them): address space, CPU seconds, processes (counted per jail, which has its own user
  namespace, so one jail's fork bomb cannot starve another), file size, open files, no core
  dumps;
* **a fair share of the host** (``own_group``, as root): the whole jail runs in control groups
  of its own (:mod:`simlab.grading.sandbox.cgroup`), one CPU weight however many processes and
  sessions it starts, its processes and its memory capped together (:attr:`Jail.grouped` says
  whether the latest jail got them; without, :mod:`simlab.grading.sandbox.meter` judges its
  time by its CPU use);
* **a clean environment** (``--clearenv``): nothing of the grader's environment gets in.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from simlab.grading.sandbox import host
from simlab.grading.sandbox.cgroup import Group

__all__ = [
    "Jail",
    "Limits",
    "SandboxUnavailable",
    "SANDBOX_UID",
    "SANDBOX_GID",
    "INSTALL_HINT",
    "require",
    "make_shared",
    "cap_folder",
    "release_folder",
    "cpu_limit",
    "CHILD",
    "start",
    "limit_self",
]

SANDBOX_UID = 65534
SANDBOX_GID = 65534
INSTALL_HINT = "install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap)"

_ETC = ("/etc/ld.so.cache", "/etc/fonts", "/etc/localtime")
_LIB_DIRS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
#: The device nodes a jail gets of its own (root only; otherwise bubblewrap's, the host's).
_DEVICES = ("null", "zero", "full", "random", "urandom", "tty")


class SandboxUnavailable(RuntimeError):
    """bubblewrap is missing or cannot build a jail on this machine (one line says why)."""


@dataclass(frozen=True)
class Limits:
    """Hard resource limits of one sandbox, soft = hard. Memory (address space) and CPU
    seconds are per process; in a jail, ``processes`` counts every process and thread of that
    jail together (each jail has its own user namespace). ``scratch`` is the size of the
    jail's private ``/tmp`` (``/dev/shm`` gets a quarter of it)."""

    memory: int = 2 * 1024**3
    cpu: int = 600
    processes: int = 64
    file_size: int = 256 * 1024**2
    open_files: int = 512
    scratch: int = 256 * 1024**2

    def rlimits(self) -> dict[str, int]:
        """``resource`` constant name -> value, core dumps off."""
        return {
            "RLIMIT_AS": self.memory,
            "RLIMIT_CPU": self.cpu,
            "RLIMIT_NPROC": self.processes,
            "RLIMIT_FSIZE": self.file_size,
            "RLIMIT_NOFILE": self.open_files,
            "RLIMIT_CORE": 0,
        }

    def prlimit(self) -> list[str]:
        """The same limits as ``prlimit`` options (soft:hard)."""
        return [f"--{name[7:].lower()}={value}:{value}" for name, value in self.rlimits().items()]


def cpu_limit(timeout: float) -> int:
    """CPU seconds one process of a sandbox may use: ten times the wall-clock timeout of one
    cell or call (it bounds what processes left running in the background can burn)."""
    return max(10, int(10 * timeout))


#: This process's lifeline (:func:`lifeline`): its read end, its write end, made on first use.
_LIFELINE: tuple[int, int] | None = None
_LIFELINE_LOCK = threading.Lock()


def lifeline() -> int:
    """The read end of this process's lifeline: a pipe made once per process, whose write end
    only this process holds (nothing is ever written; it is closed in every program this
    process starts, and a forked child drops both ends), so the pipe reads as ended once this
    process has ended. A jail's first step inside checks it and ends at once when it has
    ended: bubblewrap's child asks to die with its parent only after some setup, so a jail
    whose starter ended just then would otherwise run on. Start a jail's command with this
    descriptor passed (``pass_fds``), as :func:`start` does: without it the jail refuses to
    run."""
    global _LIFELINE
    with _LIFELINE_LOCK:
        if _LIFELINE is None:
            _LIFELINE = os.pipe()
        return _LIFELINE[0]


def _drop_lifeline() -> None:
    """In a forked child: the parent's lifeline is the parent's (holding its write end would
    keep it from ever reading as ended); the child makes its own when it starts a jail."""
    global _LIFELINE
    if _LIFELINE is not None:
        for fd in _LIFELINE:
            try:
                os.close(fd)
            except OSError:
                pass
        _LIFELINE = None


os.register_at_fork(after_in_child=_drop_lifeline)


def _tool(name: str) -> str | None:
    """``name`` on the ``PATH``, else in the system's own folders (a ``PATH`` without them)."""
    return shutil.which(name) or shutil.which(name, path="/usr/bin:/bin:/usr/sbin")


@functools.lru_cache(maxsize=8)
def _supports(bwrap: str | None, option: str) -> bool:
    """Whether this bubblewrap knows ``option`` (``--disable-userns`` came with 0.8)."""
    if bwrap is None:
        return False
    try:
        text = subprocess.run([bwrap, "--help"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return option in text.stdout + text.stderr


def _readonly_sources() -> list[str]:
    """Host folders the jail sees read-only (besides /usr): the interpreter's installation,
    the virtual environment and simlab's package folder, without duplicates."""
    import simlab

    paths = [
        os.path.realpath(sys.base_prefix),
        os.path.realpath(sys.prefix),
        str(Path(simlab.__file__).resolve().parent),
    ]
    out: list[str] = []
    for p in sorted(set(paths), key=len):
        if p == "/usr" or p.startswith("/usr/"):
            continue
        if not any(p == q or p.startswith(q + "/") for q in out):
            out.append(p)
    return out


def hidden_paths() -> list[str]:
    """Folders inside the read-only sources that the jail sees empty: the hidden checks."""
    import simlab

    return [str(Path(simlab.__file__).resolve().parent / "grading" / "checks")]


class Jail:
    """How to run a command jailed; one object can start many jails (one per command)."""

    def __init__(
        self,
        *,
        limits: Limits | None = None,
        shared: Sequence[str] = (),
        env: dict[str, str] | None = None,
        own_group: bool = False,
    ):
        self.limits = limits or Limits()
        self.shared = [os.path.realpath(p) for p in shared]
        self.extra_env = dict(env or {})
        self.bwrap = _tool("bwrap")
        self.sources = _readonly_sources()
        self.own_group = own_group
        #: Whether the latest :meth:`command` runs in control groups of its own.
        self.grouped = False
        self._groups: list[Group] = []

    def env(self) -> dict[str, str]:
        venv_bin = os.path.join(sys.prefix, "bin")
        env = {
            "PATH": f"{venv_bin}:/usr/local/bin:/usr/bin:/bin",
            "HOME": "/tmp",
            "TMPDIR": "/tmp",
            "LANG": "C.UTF-8",
            "MPLBACKEND": "Agg",
            "MPLCONFIGDIR": "/tmp/.matplotlib",
            "PYTHONDONTWRITEBYTECODE": "1",
            "PYTHONNOUSERSITE": "1",
            "MALLOC_ARENA_MAX": "2",
        }
        env.update(self.extra_env)
        return env

    def _inner(self, argv: Sequence[str], source_of: dict[str, str]) -> list[str]:
        args = [
            self.bwrap or "bwrap",
            "--unshare-all",
            "--unshare-user",
            *(["--disable-userns"] if _supports(self.bwrap, "--disable-userns") else []),
            "--die-with-parent",
            "--new-session",
            "--as-pid-1",
            "--uid",
            str(SANDBOX_UID),
            "--gid",
            str(SANDBOX_GID),
            "--hostname",
            "sandbox",
            "--ro-bind",
            source_of.get("/usr", "/usr"),
            "/usr",
        ]
        for path in _LIB_DIRS:
            if os.path.islink(path):
                args += ["--symlink", os.readlink(path), path]
            elif os.path.isdir(path):
                args += ["--ro-bind", source_of.get(path, path), path]
        for path in _ETC:
            if os.path.exists(path):
                args += ["--ro-bind", source_of.get(path, path), path]
        # Scratch first, sources after: a checkout or venv under /tmp (a CI clone) must stay
        # visible on top of the private /tmp, not be hidden by it.
        args += ["--proc", "/proc", "--dev", "/dev"]
        for name in _DEVICES if "/dev" in source_of else ():
            args += ["--dev-bind", f"{source_of['/dev']}/{name}", f"/dev/{name}"]
        args += ["--size", str(self.limits.scratch), "--tmpfs", "/tmp"]
        args += ["--size", str(self.limits.scratch // 4), "--tmpfs", "/dev/shm"]
        for path in self.sources:
            args += ["--ro-bind", source_of[path], path]
        for path in hidden_paths():
            if any(path.startswith(s + "/") for s in self.sources):
                args += ["--tmpfs", path, "--remount-ro", path]
        for path in self.shared:
            args += ["--bind", source_of[path], path]
        args += ["--chdir", "/tmp", "--clearenv"]
        for key, value in self.env().items():
            args += ["--setenv", key, value]
        prlimit = _tool("prlimit") or "prlimit"
        # The first step inside: go on only while the process that started the jail lives (its
        # lifeline is open and not ended), then close the lifeline (:func:`lifeline`).
        line = lifeline()
        alive = f"[ -p /proc/self/fd/{line} ] && ! read -t 0 -u {line} || exit 1"
        steps = [alive, f"exec {line}<&-"]
        # A standard stream that is a device (the host's /dev/null, a terminal) is an inode
        # other jails share: the jail's own /dev/null takes its place (pipes stay).
        if "/dev" in source_of:
            steps += [f"[ -c /proc/self/fd/{n} ] && exec {n}<>/dev/null" for n in (0, 1, 2)]
        first = [_tool("bash") or "/bin/bash", "-c", "; ".join(steps) + '; exec "$@"', "bash"]
        return [*args, "--", *first, prlimit, *self.limits.prlimit(), "--", *argv]

    def command(self, argv: Sequence[str]) -> list[str]:
        """The command line that runs ``argv`` in a fresh jail (in control groups of its own
        with ``own_group``, where they can be made: call :meth:`release` once it has ended),
        started by this process with its :func:`lifeline` passed: it dies with it
        (:func:`_with_parent`), and does not start once it has ended."""
        line = self._command(argv)
        self.grouped = False
        enter = ""
        if self.own_group:
            lim = self.limits
            group = Group.make(
                processes=lim.processes + 16,  # and the jail's own layers
                memory=lim.memory + lim.scratch + lim.scratch // 4,
            )
            if group is not None:
                self._groups.append(group)
                self.grouped = True
                enter = group.enter()
        return _with_parent(line, enter)

    def release(self) -> None:
        """Remove the control groups of the jails this object started (they have ended)."""
        self._groups = [g for g in self._groups if not g.remove()]

    def _command(self, argv: Sequence[str]) -> list[str]:
        if os.geteuid() != 0:
            identity = {p: p for p in [*self.sources, *self.shared]}
            return self._inner(argv, identity)
        # Root: a first bwrap (a mount namespace, as root) publishes each source under /mnt,
        # where nobody can reach it even if a parent folder (such as /root) is closed; a shell
        # that keeps CAP_KILL waits for setpriv, which becomes nobody for good (the shell's
        # death kills it: a parent death signal needs that capability to reach another user)
        # and runs the real jail. Before that, the shell gives this jail inodes of its own for
        # everything read-only (module doc: locks belong to the inode).
        # The shell runs as few programs as it can (each costs a process start, in every
        # jail): bwrap makes its folders, one `mount -a` mounts every overlay of an fstab the
        # shell writes with a builtin, and one `cp` copies every single file.
        outer = [self.bwrap or "bwrap", "--dev-bind", "/", "/", "--tmpfs", "/mnt"]
        outer += ["--dir", "/mnt/empty", "--dir", "/mnt/dev", "--dir", "/mnt/own"]
        source_of: dict[str, str] = {}
        system = [p for p in ("/usr", *_LIB_DIRS) if os.path.isdir(p) and not os.path.islink(p)]
        etc = [p for p in _ETC if os.path.exists(p)]
        staged = [*system, *self.sources, *self.shared, *etc]
        overlays: list[str] = []  # fstab lines: a read-only overlay, the same files, new inodes
        files: list[str] = []  # small files: a copy of its own each
        for i, path in enumerate(staged):
            source_of[path] = f"/mnt/{i}"
            outer += ["--bind" if path in self.shared else "--ro-bind", path, f"/mnt/{i}"]
            if path in self.shared:
                continue
            if os.path.isdir(path):
                overlays.append(_overlay_line(f"/mnt/{i}", f"/mnt/{i}"))
            else:
                files.append(f"/mnt/{i}")
                source_of[path] = f"/mnt/own/{i}"
        # The device nodes too, through an overlay of the host's /dev (only a few are bound).
        overlays.append(_overlay_line("/dev", "/mnt/dev"))
        source_of["/dev"] = "/mnt/dev"
        lines = " ".join(f"'{line}'" for line in overlays)
        # Where overlays cannot be mounted (no overlayfs) the jail still runs, on the shared
        # inodes: a mount that fails leaves the plain bind (the others are mounted all the
        # same), and the devices then come from a bind of the host's /dev.
        private = [
            f"printf '%s\\n' {lines} > /mnt/fstab",
            "{ mount -a -T /mnt/fstab 2>/dev/null || true; }",
            "[ -c /mnt/dev/null ] || mount --bind /dev /mnt/dev",
        ]
        if files:
            private.append(f"cp -p {' '.join(files)} /mnt/own/")
        outer += ["--die-with-parent"]
        for cap in ("CAP_KILL", "CAP_SETUID", "CAP_SETGID", "CAP_SYS_ADMIN"):
            outer += ["--cap-add", cap]
        # bwrap's child asks to die with bwrap (--die-with-parent) before it runs this shell; a
        # bwrap killed before that request left the shell to another parent, so the shell goes
        # on only while bwrap is still its parent (a later death sends the signal).
        alive = _parent_is('"$comm" = bwrap', "read -r comm < /proc/$parent/comm")
        script = f"{alive} || exit 1; set -e; " + "; ".join(private) + '; set +e; "$@"; exit "$?"'
        outer += ["--", "/bin/sh", "-c", script, "sh"]
        outer += [
            _tool("setpriv") or "setpriv",
            "--pdeathsig=SIGKILL",
            f"--reuid={SANDBOX_UID}",
            f"--regid={SANDBOX_GID}",
            "--clear-groups",
            "--",
        ]
        return outer + self._inner(argv, source_of)


def _with_parent(argv: Sequence[str], enter: str = "") -> list[str]:
    """``argv``, killed (SIGKILL) when the process that starts it ends, whenever that is:
    ``setpriv`` asks for that signal before anything else runs, and a shell then runs ``argv``
    only if its parent is still that process (one that ended before the request sends no
    signal). ``enter`` (a shell command, such as :meth:`Group.enter`) runs in that shell
    first, after the check, and ``argv`` runs only if it succeeded. Without ``setpriv``
    (required only as root), a shell runs ``enter`` then ``argv``, or ``argv`` is as it is."""
    setpriv = _tool("setpriv")
    steps = [enter] if enter else []
    if setpriv is None:
        if not steps:
            return list(argv)
        return ["/bin/sh", "-c", f'{steps[0]} && exec "$@"', "sh", *argv]
    # bubblewrap's --die-with-parent comes too late alone: a grader killed before bwrap runs
    # (while the shell enters the jail's groups) would leave the jail to start up.
    check = _parent_is(f'"$parent" = {os.getpid()}')
    script = " && ".join([check, *steps, 'exec "$@"'])
    return [setpriv, "--pdeathsig=SIGKILL", "--", "/bin/sh", "-c", script, "sh", *argv]


def _parent_is(test: str, read: str = "") -> str:
    """A shell condition: ``test`` (a ``[ ]`` expression over ``$parent``, and over what the
    shell command ``read`` reads then) holds for the shell's parent process as ``/proc`` tells
    it now. Builtins only: no process is started."""
    before = f" && {read}" if read else ""
    return f"read -r _ _ _ parent _ < /proc/$$/stat{before} && [ {test} ]"


def _overlay_line(lower: str, target: str) -> str:
    """The fstab line of a read-only overlay of ``lower`` (over an empty folder) on
    ``target``: the same files, inodes of their own."""
    return f"overlay {target} overlay ro,lowerdir={lower}:/mnt/empty 0 0"


def make_shared(path: str | os.PathLike) -> str:
    """Make a fresh grader-made folder writable for the jail (``nobody`` owns it when the
    grader is root); return its real path."""
    real = os.path.realpath(path)
    if os.geteuid() == 0:
        os.chown(real, SANDBOX_UID, SANDBOX_GID)
    os.chmod(real, 0o700)
    return real


def cap_folder(path: str, size: int, files: int) -> bool:
    """Mount a fresh tmpfs of at most ``size`` bytes and ``files`` entries on the empty,
    grader-made folder ``path``, with the folder's owner and mode, so that a jail bound to it
    can fill neither the host's disk nor its inodes. Only root can; False when it cannot (the
    folder then stays a plain folder, capped per file by the jail's file-size limit).

    Nothing stays mounted after the grader: the mount is made and recorded in one step, and
    none is made once the grader ends (:mod:`simlab.grading.sandbox.host`: raises
    :class:`~simlab.grading.sandbox.host.Closing`); :func:`release_folder` unmounts one, the
    end of the grader those still in use, and the next grader those of a grader that was
    killed."""
    if os.geteuid() != 0 or not sys.platform.startswith("linux"):
        return False
    info = os.stat(path)
    options = (
        f"size={int(size)},nr_inodes={int(files)},mode={info.st_mode & 0o7777:o},"
        f"uid={info.st_uid},gid={info.st_gid}"
    )
    with host.making():
        capped = host.mount_tmpfs(path, options)
    if capped:
        host.interrupt_at("mount")
    return capped


def release_folder(path: str) -> None:
    """Unmount what :func:`cap_folder` mounted on ``path`` (lazily: nothing can hold it up)."""
    host.unmount(path)  # before it is forgotten: the grader's end unmounts it until then
    host.forget("mount", path)


#: What the probe runs inside a jail: this interpreter importing the sandbox's own child
#: module, so a jail that hides the checkout or the venv (say, a private /tmp mounted over a
#: clone under /tmp) fails here in one line instead of at every question of a batch.
_PROBE = [sys.executable, "-c", "import simlab.grading.sandbox.child"]


@functools.lru_cache(maxsize=1)
def _probe(bwrap: str) -> str | None:
    """None if a jail can run this Python and import the sandbox's child module, else one line
    saying why not."""
    try:
        done = subprocess.run(
            Jail().command(_PROBE),
            pass_fds=(lifeline(),),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=30,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bubblewrap could not run ({exc})"
    if done.returncode != 0:
        lines = [line.strip() for line in (done.stderr or "").splitlines() if line.strip()]
        why = lines[-1][:200] if lines else f"exit status {done.returncode}"
        return f"bubblewrap cannot run simlab in a sandbox on this machine: {why}"
    return None


def require() -> None:
    """Raise :class:`SandboxUnavailable` unless jails work here (checked once per process)."""
    bwrap = _tool("bwrap")
    if bwrap is None:
        raise SandboxUnavailable(f"no sandbox tool: {INSTALL_HINT}")
    for tool in ("prlimit", "setpriv") if os.geteuid() == 0 else ("prlimit",):
        if _tool(tool) is None:
            raise SandboxUnavailable(f"{tool} is missing: install util-linux")
    problem = _probe(bwrap)
    if problem is not None:
        raise SandboxUnavailable(problem)


#: The command line of a sandbox process (its pipes' descriptors follow): the child module's
#: entry point, everything it imports loaded with the garbage collector off (start-up makes
#: no garbage worth a collection; :func:`~simlab.grading.sandbox.child.serve_fds` turns the
#: collector on before the first request).
CHILD = [
    sys.executable,
    "-c",
    "import gc; gc.disable(); import sys; "
    "from simlab.grading.sandbox.child import _child_main; _child_main(sys.argv[1:])",
]


def start(argv: list[str], fds: tuple[int, ...], cwd: str | None) -> subprocess.Popen:
    """Start a child process that sees only ``fds`` besides /dev/null on 0 to 2 (and this
    process's :func:`lifeline`, which a jail's first step checks and closes), in a session
    of its own, with the grader's environment but matplotlib's ``Agg`` backend, no bytecode
    written and no startup file (a jail clears it and sets its own); started and recorded in
    one step, so the grader's end kills it (:mod:`simlab.grading.sandbox.host`; raises
    :class:`~simlab.grading.sandbox.host.Closing` once the grader is ending)."""
    env = {**os.environ, "MPLBACKEND": "Agg", "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("PYTHONSTARTUP", None)
    with host.making():
        proc = subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            pass_fds=(*fds, lifeline()),
            cwd=cwd,
            close_fds=True,
            start_new_session=True,
            env=env,
        )
        host.record("process", proc.pid)
    return proc


def limit_self(limits: Limits) -> None:
    """Set this process's limits, soft = hard (a hard limit cannot be raised again), except
    the process count: outside a jail it would count every process of the grader's user."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not on Windows
        return
    for name, value in limits.rlimits().items():
        if name == "RLIMIT_NPROC":
            continue
        what = getattr(resource, name)
        try:
            _, hard = resource.getrlimit(what)
            if hard != resource.RLIM_INFINITY:
                value = min(value, hard)
            resource.setrlimit(what, (value, value))
        except (ValueError, OSError):  # pragma: no cover
            pass
