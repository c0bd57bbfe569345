"""A warm process that forks sandboxes, so a new sandbox costs a fork, not a Python start-up.

Only for grading without the jail (``simlab grade --no-sandbox``, a learner grading their own
work): a jail (:mod:`simlab.grading.sandbox.jail`) cannot be forked from a warm process, so
jailed sandboxes start fresh.

Starting Python and importing simlab costs about a third of a CPU second; a batch of notebooks needs
at least one sandbox each, and more when submissions crash theirs. The zygote pays that once: it is
started on first use (``python -m simlab.grading.sandbox.zygote``), imports the modules a sandbox
needs, and then waits on a Unix socket. For each request it receives the four pipe ends of a new
sandbox (``SCM_RIGHTS``), forks, and answers with the child's process ID. The child becomes the
leader of a new session and serves the grader exactly like a sandbox started from scratch (see
:mod:`simlab.grading.sandbox.child`).

The zygote itself is single-threaded (forking is safe), runs no student code, reaps its
children as soon as they end, and exits when the grader goes away (its socket closes), once
the sandboxes still ending are reaped too (a few seconds at most). Where
Unix sockets cannot pass file descriptors, sandboxes start as plain subprocesses instead.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time

__all__ = ["fork_sandbox", "shutdown", "available", "PRELOAD"]

#: Imported by the zygote before it forks anything.
PRELOAD = (
    "simlab.grading.sandbox.child",
    "simlab.learn.pieces",
    "simlab.learn.self_check",
    "simlab.checker.checker",
    "simlab.sim.simulation",
    "simlab.props.processes",
    "IPython.core.interactiveshell",
    "comm",
)

_LOCK = threading.Lock()
_ZYGOTE: tuple[subprocess.Popen, socket.socket] | None = None


def available() -> bool:
    """True where sandboxes can be forked from a zygote (Unix with fd passing)."""
    return hasattr(socket, "send_fds") and hasattr(os, "fork") and hasattr(socket, "AF_UNIX")


def _start() -> tuple[subprocess.Popen, socket.socket]:
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", "simlab.grading.sandbox.zygote", str(theirs.fileno())],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            pass_fds=(theirs.fileno(),),
            close_fds=True,
            start_new_session=True,
            env={**os.environ, "MPLBACKEND": "Agg", "PYTHONSTARTUP": ""},
        )
    finally:
        theirs.close()
    return proc, ours


def shutdown() -> None:
    """Stop the zygote (a new one starts on the next request) and wait for it, so that the CPU
    time of every sandbox it forked is accounted to this process's children."""
    global _ZYGOTE
    with _LOCK:
        if _ZYGOTE is not None:
            proc, sock = _ZYGOTE
            sock.close()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:  # pragma: no cover
                proc.kill()
                proc.wait()
            _ZYGOTE = None


def fork_sandbox(fds: tuple[int, int, int, int], workdir: str, limits: dict[str, int]) -> int:
    """Fork a sandbox that serves the grader on two pipe pairs (``fds``: in, out, and the
    second line's in, out; see :mod:`simlab.grading.sandbox.child`); return its process ID.
    Raises ``OSError`` if the zygote cannot be reached even after a restart."""
    global _ZYGOTE
    request = json.dumps({"workdir": workdir, "limits": limits}).encode()
    with _LOCK:
        for attempt in range(2):
            if _ZYGOTE is None or _ZYGOTE[0].poll() is not None:
                _ZYGOTE = _start()
            proc, sock = _ZYGOTE
            try:
                socket.send_fds(sock, [request], list(fds))
                answer = b""
                while not answer.endswith(b"\n"):
                    chunk = sock.recv(64)
                    if not chunk:
                        raise OSError("the zygote closed its socket")
                    answer += chunk
                pid = int(answer.decode())
                if pid <= 0:
                    raise OSError("the zygote refused the request")
                return pid
            except (OSError, ValueError):
                sock.close()
                proc.kill()
                proc.wait()
                _ZYGOTE = None
                if attempt:
                    raise
    raise OSError("unreachable")  # pragma: no cover


# =============================================================================== the zygote ==


def _serve(sock: socket.socket) -> None:
    import importlib

    for name in PRELOAD:
        importlib.import_module(name)
    from simlab.grading.sandbox import child
    from simlab.grading.sandbox.jail import Limits

    # Reap every finished sandbox at once (no zombies), so its CPU time is accounted to us
    # and, once the grader waits for the zygote, to the grader.
    signal.signal(signal.SIGCHLD, lambda *_: _reap())
    while True:
        try:
            message, fds, _, _ = socket.recv_fds(sock, 65536, 4)
        except OSError:
            _drain()
            return
        if not message:
            _drain()
            return  # the grader went away
        if len(fds) != 4:
            for fd in fds:
                os.close(fd)
            sock.sendall(b"-1\n")
            continue
        request = json.loads(message)
        pid = os.fork()
        if pid == 0:  # the sandbox
            try:
                sock.close()
                os.setsid()
                signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                import random

                random.seed()
                os.chdir(request["workdir"])
                child.serve_fds(tuple(fds), Limits(**request["limits"]))
            finally:
                os._exit(0)
        for fd in fds:
            os.close(fd)
        sock.sendall(f"{pid}\n".encode())


def _drain(seconds: float = 5.0) -> None:
    """Reap the sandboxes still ending (the grader kills them just before it lets the zygote
    go), waiting at most ``seconds``: reaped here, their CPU time reaches the grader, which
    waits for the zygote; left to whoever inherits them, it would be lost."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return  # none left
        if pid == 0:
            time.sleep(0.002)


def _reap() -> None:
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


if __name__ == "__main__":
    _serve(socket.socket(fileno=int(sys.argv[1])))
