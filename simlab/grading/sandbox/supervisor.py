"""A separate process that holds a student's definitions and answers the grader's calls.

The grader never runs student code in its own process. A :class:`Sandbox` starts a child
process, sends it the student's code cells to execute, and then *calls* the student's functions
there: arguments and results cross a pipe as JSON (see :mod:`simlab.grading.sandbox.wire`), so the
student's code can influence nothing but the values its own functions return. Everything that
judges those values (the simulator, the checker, the expected answers) runs in the grader, out
of reach of anything the student's code prints, patches or redefines.

The child process (its side is :mod:`simlab.grading.sandbox.child`, forked from a warm
:mod:`simlab.grading.sandbox.zygote`):

* runs in its own session and process group, so a kill takes its children too, in a fresh
  temporary working directory;
* has stdin, stdout and stderr on ``/dev/null``: printing costs nothing and proves nothing, and
  no amount of output can reach the grader, which talks to it over two private pipes;
* caps its address space, file size and core dumps with ``setrlimit`` where available.

The grader bounds every request with a timeout. A child that hangs, exits (``os._exit``),
crashes, or sends a reply larger than :data:`MAX_REPLY` is killed, and the request raises
:class:`SandboxLost` with a plain reason; the grader then starts a new one for the questions
that are left. A new sandbox costs a fork and the imports of the student's cells.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from simlab.grading.sandbox import wire, zygote
from simlab.grading.sandbox.child import Limits

__all__ = [
    "Sandbox",
    "SandboxLost",
    "RemoteError",
    "Limits",
    "CellResult",
    "MAX_REPLY",
]

#: The largest reply the grader accepts from a sandbox, in bytes.
MAX_REPLY = 32 * 1024 * 1024


@dataclass(frozen=True)
class CellResult:
    """How one code cell went in the sandbox: ``ok``, ``error``, ``timeout`` or ``lost``."""

    index: int
    status: str
    detail: str = ""


class SandboxLost(Exception):
    """The sandbox process is gone (killed on a timeout, exited, crashed, sent garbage)."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class RemoteError(Exception):
    """Student code raised an exception in the sandbox. ``type`` is its class name, ``kit`` the
    name of the nearest simlab error class it derives from (or None)."""

    def __init__(self, info: dict, what: str | None = None):
        self.info = info
        self.what = what
        self.type = str(info.get("type", "Exception"))
        self.kit = info.get("kit")
        self.message = str(info.get("message", ""))
        # The constructor's arguments as args, so copies (SimPy re-raises that way) stay intact.
        super().__init__(info, what)

    def __str__(self) -> str:
        return self.describe()

    def describe(self) -> str:
        return f"{self.type}: {self.message}" if self.message else self.type


def _child_env() -> dict[str, str]:
    env = dict(os.environ)
    env["MPLBACKEND"] = "Agg"
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env.pop("PYTHONSTARTUP", None)
    return env


def _limits_args(limits: Limits) -> list[str]:
    return [str(limits.memory or 0), str(limits.file_size or 0)]


class Sandbox:
    """One sandbox process seen from the grader: execute cells, call functions, get values.

    The process starts at construction (forked from the warm
    :mod:`~simlab.grading.sandbox.zygote`, or ``python -m simlab.grading.sandbox.child`` where
    file descriptors cannot be passed), so its start-up overlaps with whatever the grader does
    next. Every request waits at most ``timeout`` seconds
    (or less, when a deadline set with :meth:`set_deadline` comes first). When a request fails
    because the process is gone, the sandbox is dead for good: make a new one.
    """

    def __init__(self, *, timeout: float = 30.0, limits: Limits | None = None):
        self.timeout = timeout
        self.limits = limits or Limits()
        self.deadline: float | None = None
        self.deadline_reason = ""
        self._tmp = tempfile.TemporaryDirectory(prefix="simlab-sandbox-")
        self.workdir = self._tmp.name
        to_child_r, to_child_w = os.pipe()
        from_child_r, from_child_w = os.pipe()
        self._proc: subprocess.Popen | None = None
        try:
            if zygote.available():
                self.pid = zygote.fork_sandbox(
                    to_child_r, from_child_w, self.workdir, _limits_args(self.limits)
                )
            else:  # pragma: no cover - no fd passing (Windows)
                self._proc = subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "simlab.grading.sandbox.child",
                        str(to_child_r),
                        str(from_child_w),
                        *_limits_args(self.limits),
                    ],
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    pass_fds=(to_child_r, from_child_w),
                    cwd=self.workdir,
                    close_fds=True,
                    start_new_session=True,
                    env=_child_env(),
                )
                self.pid = self._proc.pid
        finally:
            os.close(to_child_r)
            os.close(from_child_w)
        self._send = Connection(to_child_w, readable=False)
        self._recv = Connection(from_child_r, writable=False)
        self.alive = True

    # -- life cycle ---------------------------------------------------------------------------
    def close(self) -> None:
        """Kill the process (and its process group) and remove its working directory."""
        if self.alive or self._proc is not None:
            try:
                os.killpg(self.pid, signal.SIGKILL)
            except OSError:  # already gone
                pass
            if self._proc is not None:
                self._proc.kill()
                self._proc.wait()
        self.alive = False
        for conn in (self._send, self._recv):
            try:
                conn.close()
            except OSError:
                pass
        self._tmp.cleanup()

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def set_deadline(self, seconds: float | None, reason: str = "") -> None:
        """Bound all following requests together to ``seconds`` from now (None: no bound)."""
        self.deadline = None if seconds is None else time.monotonic() + seconds
        self.deadline_reason = reason

    def _lose(self, reason: str) -> SandboxLost:
        self.close()
        return SandboxLost(reason)

    # -- the protocol -------------------------------------------------------------------------
    def request(self, message: dict, *, what: str, timeout: float | None = None) -> dict:
        """Send one request and wait for its reply; raise :class:`SandboxLost` on trouble."""
        if not self.alive:
            raise SandboxLost("the sandbox had already stopped")
        limit = self.timeout if timeout is None else timeout
        reason = f"{what} did not finish within {limit:g} s (an endless loop?)"
        if self.deadline is not None:
            left = self.deadline - time.monotonic()
            if left < limit:
                limit, reason = max(left, 0.0), self.deadline_reason or reason
        try:
            self._send.send_bytes(wire.dumps(message))
            ready = self._recv.poll(limit)
        except (OSError, EOFError, BrokenPipeError):
            raise self._lose(f"the process running {what} stopped (os._exit or a crash?)") from None
        if not ready:
            raise self._lose(reason)
        try:
            raw = self._recv.recv_bytes(MAX_REPLY)
        except (EOFError, ConnectionResetError, BrokenPipeError):
            raise self._lose(
                f"the process running {what} stopped (os._exit, a crash, or running out of memory?)"
            ) from None
        except OSError:
            raise self._lose(f"{what} sent back more than {_size(MAX_REPLY)}") from None
        try:
            reply = wire.loads(raw)
        except ValueError:
            raise self._lose(f"{what} sent back a malformed reply") from None
        if not isinstance(reply, dict) or "ok" not in reply:
            raise self._lose(f"{what} sent back a malformed reply")
        return reply

    def exec_cell(self, index: int, source: str, *, timeout: float | None = None) -> CellResult:
        """Execute one code cell in the student's namespace."""
        try:
            reply = self.request(
                {"op": "exec", "index": index, "source": source},
                what=f"cell {index}",
                timeout=timeout,
            )
        except SandboxLost as lost:
            status = "timeout" if "within" in lost.reason else "lost"
            return CellResult(index, status, lost.reason)
        if reply["ok"]:
            return CellResult(index, "ok")
        return CellResult(index, "error", _describe_error(reply.get("error") or {}))

    def set_time(self, now: float) -> None:
        """Set the sandbox clock (what kit objects built there read as the time)."""
        self.request({"op": "names", "names": [], "now": now}, what="setting the clock")

    def names(self, names: Sequence[str]) -> dict[str, str | None]:
        """For each name: ``function``, ``class``, ``value`` or None (not defined)."""
        reply = self.request({"op": "names", "names": list(names)}, what="a name lookup")
        value = reply.get("value")
        return value if isinstance(value, dict) else {}

    def call(
        self,
        target: str | wire.Handle,
        *args: Any,
        method: str | None = None,
        now: float | None = None,
        keep: bool = False,
        echo: bool = False,
        what: str | None = None,
        **kwargs: Any,
    ) -> Any:
        """Call a student's function (by name) or a method of a sandbox object (by handle).

        Returns the decoded result (a :class:`~simlab.grading.sandbox.wire.Handle` with ``keep``);
        with ``echo`` returns ``(result, args_after_the_call)``. Raises :class:`RemoteError`
        when the call raised, :class:`SandboxLost` when the process is gone.
        """
        label = what or _label(target, method)
        message = {
            "op": "call",
            "target": target if isinstance(target, str) else {"$h": target.id},
            "method": method,
            "args": wire.encode(list(args)),
            "kwargs": wire.encode(dict(kwargs)),
            "now": now,
            "keep": keep,
            "echo": echo,
        }
        reply = self.request(message, what=label)
        if not reply["ok"]:
            raise RemoteError(reply.get("error") or {}, label)
        value = wire.decode(reply.get("value"))
        if echo:
            return value, wire.decode(reply.get("args") or [])
        return value

    def get(self, target: str | wire.Handle, name: str | None = None) -> Any:
        """A value from the student's namespace, or an attribute of a sandbox object."""
        message = {
            "op": "get",
            "target": target if isinstance(target, str) else {"$h": target.id},
            "name": name,
        }
        reply = self.request(message, what=f"reading {name or target}")
        if not reply["ok"]:
            raise RemoteError(reply.get("error") or {}, f"reading {name or target}")
        return wire.decode(reply.get("value"))

    def kit(self, factory: str, *args: Any, now: float | None = None, **kwargs: Any) -> wire.Handle:
        """Build a kit object in the sandbox (see :data:`simlab.grading.factories.FACTORIES`)."""
        message = {
            "op": "kit",
            "factory": factory,
            "args": wire.encode(list(args)),
            "kwargs": wire.encode(dict(kwargs)),
            "now": now,
        }
        reply = self.request(message, what=f"building {factory}")
        if not reply["ok"]:
            raise RemoteError(reply.get("error") or {}, f"building {factory}")
        return wire.decode(reply["value"])


def _size(n: int) -> str:
    return f"{n / 2**20:g} MB" if n >= 2**20 else f"{n:,} bytes"


def _label(target: Any, method: str | None) -> str:
    if isinstance(target, str):
        return f"{target}()" if method is None else f"{target}.{method}()"
    return f"{method}()" if method else "a call"


def _describe_error(info: dict) -> str:
    text = RemoteError(info).describe()
    if info.get("line"):
        text += f" (line {info['line']})"
    return text
