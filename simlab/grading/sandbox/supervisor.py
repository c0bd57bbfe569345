"""A separate, jailed process that holds a student's definitions and answers the grader's calls.

The grader never runs student code in its own process. A :class:`Sandbox` starts a child
process (:mod:`simlab.grading.sandbox.child`), sends it the notebook's code cells to run
(:meth:`Sandbox.exec_cell`), and then *calls* the student's functions there. The child serves
two lines on two pipe pairs, the notebook's own run and the learner's definitions the hidden
checks call: one process until :meth:`Sandbox.split` forks the run off (before the first public
check or demo cell), until :meth:`Sandbox.end_run` ends the run. Only JSON crosses
(:mod:`simlab.grading.sandbox.wire`), so the student's code influences nothing but the values
its own functions return; everything that judges them runs in the grader.

The child runs in a jail (:mod:`simlab.grading.sandbox.jail`; closing the sandbox ends it and
every process the student's code started) or, with ``jailed=False`` (``simlab grade
--no-sandbox``), is started as a plain subprocess of the grader's own user, in a working folder
of its own, with the same hard limits and a session of its own. Its stdin, stdout and stderr are
``/dev/null``: no output reaches the grader, which talks to it over private pipes.

A call may be lent some of the grader's own objects (:meth:`Sandbox.offer`): in the sandbox
they are stand-ins (:mod:`simlab.grading.sandbox.remote`) whose every use is a *callback* frame
on the same pipe, answered here by the real object before the call's reply comes (the grader
may send requests of its own meanwhile: another worker's claim in a race). A callback for an
object not lent to the call under way is refused.

Every request has a deadline, for writing it and for reading the *whole* reply
(:mod:`simlab.grading.sandbox.frames`). Where the jail has no CPU share of its own (not root), a
request past its wall-clock deadline goes on until its jail used the limit in CPU time, or until
a wall-clock backstop, and a watchdog kills a jail whose shared folders go past their caps
(:mod:`simlab.grading.sandbox.meter`). A child that hangs, exits, crashes, or sends a reply that
is partial, larger than :data:`MAX_REPLY`, not JSON or nested too deeply is killed, and the
request raises :class:`SandboxLost` with a plain reason.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import time
from collections.abc import Callable, Sequence
from typing import Any

from simlab.grading.messages import Message
from simlab.grading.messages import message as _said
from simlab.grading.sandbox import frames, host, wire
from simlab.grading.sandbox.exchange import FOLDER_BYTES, FOLDER_FILES, Exchange
from simlab.grading.sandbox.jail import CHILD, Jail, Limits, start
from simlab.grading.sandbox.meter import Meter, Timer, Watchdog, endless
from simlab.grading.sandbox.outcomes import (
    CellResult,
    RemoteError,
    SandboxLost,
    cell_lost,
    describe_error,
    megabytes,
    replaced_names,
)

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
#: What one sandbox may send the grader in all its life (replies and callbacks): bytes, and
#: JSON values (as :func:`frames.values_bound` counts them). The grader parses every frame in
#: its own process, outside any jail's CPU share, so a stream of frames each within the limits
#: must still end.
MAX_INTAKE_BYTES = 256 * 1024 * 1024
MAX_INTAKE_VALUES = 8_000_000
#: Seconds a sandbox may take to start (a jail, Python, simlab's imports) before its first
#: request; not charged to the student's code.
STARTUP_TIMEOUT = 120.0


#: One of the grader's objects lent to the sandbox: ``service(method, args, kwargs)`` ->
#: ``("value", result)`` or ``("raise", error_info)`` (see :meth:`Sandbox.offer`).
Service = Callable[[str, list, dict], tuple[str, Any]]


class Sandbox:
    """One sandbox process seen from the grader: execute cells, call functions, get values.

    The process starts at construction (in a fresh jail, or unjailed with ``jailed=False``),
    so its start-up overlaps with whatever the grader does next. Every
    request waits at most ``timeout`` seconds (or less, when a deadline set with
    :meth:`set_deadline` comes first). When a request fails because the process is gone, the
    sandbox is dead for good: make a new one.
    """

    def __init__(
        self,
        *,
        timeout: float = 30.0,
        limits: Limits | None = None,
        jailed: bool = True,
        shared: Sequence[str] = (),
    ):
        self.timeout = timeout
        self.limits = limits or Limits()
        self.jailed = jailed
        self.deadline: float | None = None
        self.deadline_reason: Message | None = None
        self.budget_end: float | None = None
        self.budget_reason: Message | None = None
        self._tmp = None if jailed else host.mkdtemp("simlab-sandbox-")
        self.exchange = Exchange()
        # Two pipe pairs: the notebook's run, and (once split off) the hidden checks' line.
        theirs: list[int] = []
        self._pairs: list[tuple[int, int]] = []
        for _ in range(2):
            to_child_r, to = os.pipe()
            frm, from_child_w = os.pipe()
            os.set_blocking(to, False)  # a child that stops reading cannot block a write
            os.set_blocking(frm, False)  # a reply is read at once, waited for only when late
            self._pairs.append((to, frm))
            theirs += [to_child_r, from_child_w]
        self._to, self._from = self._pairs[0]
        #: Whether the run was split off from the checks' line (:meth:`split`).
        self.split_off = False
        self._jail: Jail | None = None
        fds = tuple(theirs)
        try:
            if jailed:
                self._jail = Jail(
                    limits=self.limits, shared=[self.exchange.path, *shared], own_group=True
                )
                argv, cwd = self._jail.command([*CHILD, *map(str, fds)]), "/"
            else:  # the child sets its own limits
                numbers = (self.limits.memory, self.limits.file_size, self.limits.cpu)
                argv, cwd = [*CHILD, *map(str, fds), *map(str, numbers)], self._tmp
            self._proc = start(argv, fds, cwd)
            self.pid = self._proc.pid
        except BaseException:
            for fd in {fd for pair in self._pairs for fd in pair}:
                os.close(fd)
            self._release()
            raise
        finally:
            for fd in fds:
                os.close(fd)
        host.interrupt_at("jail")
        self.workdir = "/tmp" if jailed else self._tmp
        # Without a CPU share of its own (not root, no cgroup v1), the jail's requests are
        # judged by the CPU time it used, and its uncapped folders are watched.
        self.metered = self._jail is None or not self._jail.grouped
        self._meter = Meter(self.pid) if self.metered else None
        uncapped = [*([] if self.exchange.capped else [self.exchange.path]), *shared]
        self._watchdog: Watchdog | None = None
        if uncapped:
            self._watchdog = Watchdog(uncapped, FOLDER_BYTES, FOLDER_FILES, self._kill)
            self._watchdog.start()
        self.alive = True
        self._ready = False
        self._intake = [0, 0]  # bytes and values received so far
        self._services: dict[int, Service] = {}
        self._next_service = 1
        # (the services a request may call back, its time) per request under way, innermost last
        self._calls: list[tuple[frozenset[int], Timer]] = []

    # -- life cycle ---------------------------------------------------------------------------
    def close(self, *, wait: float = 1.0) -> None:
        """End the sandbox and every process in it, and remove its working directory.

        The child sees its request pipe close and exits; whatever is still running after
        ``wait`` seconds (none after a failed request) is killed with the whole jail.
        """
        if self._to < 0:
            return  # already closed
        if self._watchdog is not None:
            self._watchdog.stop()
        for fd in {fd for pair in self._pairs for fd in pair}:
            with contextlib.suppress(OSError):
                os.close(fd)
        self._to = self._from = -1
        self._pairs = []
        try:
            self._proc.wait(wait if self.alive else 0)
        except subprocess.TimeoutExpired:  # still running: its process group is still ours
            with contextlib.suppress(OSError):
                os.killpg(self.pid, signal.SIGKILL)
            self._proc.wait()
        host.forget("process", self.pid)
        self.alive = False
        if self._watchdog is not None and self._watchdog.reason is not None:
            self._watchdog.empty()  # again: a dying writer may have added a file
        self._release()

    def _release(self) -> None:
        """Give back the sandbox's exchange folder, its jail's share and its working folder."""
        self.exchange.close()
        if self._jail is not None:
            self._jail.release()
        if self._tmp is not None:
            shutil.rmtree(self._tmp, ignore_errors=True)

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def set_deadline(self, seconds: float | None, reason: Message | None = None) -> None:
        """Bound all following requests together to ``seconds`` from now (None: no bound)."""
        self.deadline = None if seconds is None else time.monotonic() + seconds
        self.deadline_reason = reason

    def set_budget(self, end: float | None, reason: Message | None = None) -> None:
        """Bound every request for the rest of this sandbox's life to the time ``end``
        (``time.monotonic()``; the notebook's whole budget), whatever :meth:`set_deadline`
        says; a request cut off by it raises :class:`SandboxLost` with ``reason``."""
        self.budget_end = end
        self.budget_reason = reason

    def _kill(self) -> None:
        """Kill the sandbox's process group now (from the watchdog's thread); requests then fail."""
        with contextlib.suppress(OSError):
            os.killpg(self.pid, signal.SIGKILL)

    def lose(self, reason: Message | str, kind: str = "dead") -> SandboxLost:
        """End the sandbox for good (``reason``: what the learner's code caused); return the
        :class:`SandboxLost` to raise."""
        if self._watchdog is not None and self._watchdog.reason is not None:
            reason, kind = self._watchdog.reason, "filled"  # killed for filling a folder
        elif self.budget_reason is not None and reason == self.budget_reason:
            kind = "budget"
        self.alive = False
        self.close()
        return SandboxLost(reason, kind)

    # -- the grader's objects, lent for one call ----------------------------------------------
    def offer(self, service: Service, kind: str) -> wire.Handle:
        """Lend one of the grader's objects to the calls that list the returned handle in
        ``services`` (see :meth:`call`). In the sandbox the handle becomes a stand-in of
        ``kind`` (:mod:`simlab.grading.sandbox.remote`) whose every use is a callback:
        ``service(method, args, kwargs)`` runs here and returns ``("value", v)`` or
        ``("raise", error_info)``. Withdraw it with :meth:`withdraw`."""
        sid = self._next_service
        self._next_service += 1
        self._services[sid] = service
        return wire.Handle(-sid, kind)

    def withdraw(self, handle: wire.Handle) -> None:
        """The grader's object behind ``handle`` answers no callback any more."""
        self._services.pop(-handle.id, None)

    def time_left(self) -> tuple[float, Message | None]:
        """The deadline of the innermost request under way (``time.monotonic()`` time), and why
        it would run out; for the grader's work on that request's callbacks."""
        if not self._calls:
            return time.monotonic() + self.timeout, _said("grader.call_time")
        timer = self._calls[-1][1]
        return timer.end, timer.end_reason

    def _serve(self, message: dict, services: frozenset[int], what: str) -> dict:
        """The answer to one callback of a request's stand-ins (a refusal when the object was
        not lent to that request)."""
        sid, method = message.get("cb"), message.get("method")
        service = self._services.get(sid) if type(sid) is int and sid in services else None
        if service is None or not isinstance(method, str):
            return {
                "raise": {
                    "type": "ProgrammingError",
                    "module": "sqlite3",
                    "message": "the grader's object can be used only during the call it was "
                    "passed to",
                }
            }
        args = self._decode(message.get("args") or [], what)
        kwargs = self._decode(message.get("kwargs") or {"$d": []}, what)
        if not isinstance(args, list) or not (
            isinstance(kwargs, dict) and all(isinstance(k, str) for k in kwargs)
        ):
            raise self.lose(_said("grader.malformed_value", what=what))
        try:
            kind, value = service(method, args, kwargs)
        except SandboxLost:
            raise
        except BaseException:  # a bug of the grader's: nothing may stay half answered
            self.lose("the grader failed while answering the sandbox")
            raise
        if kind == "raise":
            return {"raise": value}
        return {"value": wire.encode(value)}

    # -- the protocol -------------------------------------------------------------------------
    def request(
        self,
        message: dict,
        *,
        what: str,
        timeout: float | None = None,
        services: frozenset[int] = frozenset(),
        line: str = "checks",
    ) -> dict:
        """Send one request to ``line`` (``run``: the notebook's run; ``checks``: the learner's
        definitions the hidden checks call, the same process until :meth:`split`) and wait for
        its reply, answering the callbacks of the grader's objects in ``services`` meanwhile;
        raise :class:`SandboxLost` on trouble."""
        if not self.alive:
            raise SandboxLost(_said("grader.stopped_already"))
        if not self._ready:
            self._awaitstart()
        if not self._calls:  # a request made while answering a callback stays on its line
            self._to, self._from = self._pairs[1 if line == "checks" and self.split_off else 0]
        timer = self._timer(what, timeout)
        self._calls.append((services, timer))
        try:
            self._send(message, timer.end, what, timer.end_reason)
            while True:
                reply = self._receive(timer, what)
                if not (isinstance(reply, dict) and "cb" in reply and "ok" not in reply):
                    break
                answer = self._serve(reply, services, what)
                self._send(answer, timer.end, what, timer.end_reason)
        finally:
            self._calls.pop()
        self._watch()
        if not isinstance(reply, dict) or "ok" not in reply:
            raise self.lose(_said("grader.malformed_reply", what=what))
        if "tampered" in reply:
            replaced = replaced_names(reply["tampered"])
            raise self.lose(_said("grader.tampered", names=replaced), "tampered")
        return reply

    def _timer(self, what: str, timeout: float | None) -> Timer:
        """The time a request may take: its timeout, or less when the deadline or the budget is
        nearer; a request asked while answering a callback shares the outer one's when it ends
        sooner. Judged by CPU time where the jail has no CPU share of its own (see
        :class:`~simlab.grading.sandbox.meter.Timer`)."""
        limit = self.timeout if timeout is None else timeout
        reason = endless(what, limit)
        own = True
        for end, why in (
            (self.deadline, self.deadline_reason),
            (self.budget_end, self.budget_reason),
        ):
            if end is not None:
                left = end - time.monotonic()
                if left < limit:
                    limit, reason, own = max(left, 0.0), why or reason, own and not why
        if self._calls and self._calls[-1][1].deadline < time.monotonic() + limit:
            return self._calls[-1][1]
        return Timer.start(
            limit,
            reason,
            meter=self._meter,
            what=what,
            hard=self.budget_end,
            hard_reason=self.budget_reason,
            own_reason=own,
        )

    def _watch(self) -> None:
        """Lose the sandbox (its folders emptied) when one went past its cap: checked after
        every request, so a reply is never used once its jail wrote too much."""
        if self._watchdog is not None and self._watchdog.check():
            raise self.lose("")

    def _send(self, message: dict, deadline: float, what: str, reason: Message | None) -> None:
        try:
            frames.send_frame(self._to, wire.dumps(message), deadline)
        except frames.FrameError as exc:
            raise self._frame_lost(exc, what, reason) from None
        except OSError:
            raise self.lose(_said("grader.process_crashed", what=what)) from None

    def _receive(self, timer: Timer, what: str) -> Any:
        """The next frame of a request: wait for its first byte until the timer runs out, then
        read the whole of it by the timer's ``end``: the wall-clock deadline, or the backstop
        for a request judged by CPU time (bytes are coming, so it does not hang, and a
        neighbour's load may slow the writer)."""
        while True:
            try:
                if frames.wait_ready(self._from, timer.wake_at()):
                    break
            except OSError:
                raise self.lose(_said("grader.process_stopped", what=what)) from None
            why = timer.expired()
            if why is not None:
                raise self.lose(why, "timeout")
        try:
            payload = frames.read_frame(self._from, timer.end, MAX_REPLY)
            self._intake[0] += len(payload)
            self._intake[1] += frames.values_bound(payload)
            if self._intake[0] > MAX_INTAKE_BYTES or self._intake[1] > MAX_INTAKE_VALUES:
                raise self.lose(
                    _said(
                        "grader.intake",
                        what=what,
                        n=MAX_INTAKE_BYTES >> 20,
                        v=f"{MAX_INTAKE_VALUES:,}",
                    )
                )
            return frames.parse_frame(payload)
        except frames.FrameError as exc:
            raise self._frame_lost(exc, what, timer.reason) from None
        except OSError:
            raise self.lose(_said("grader.process_crashed", what=what)) from None

    def _frame_lost(self, exc: frames.FrameError, what: str, reason: Message | None) -> SandboxLost:
        if exc.kind == "timeout":
            return self.lose(reason or "", "timeout")
        if exc.kind != "closed":
            return self.lose(f"{what} {exc.reason}")
        return self.lose(_said("grader.process_died", what=what))

    def _awaitstart(self) -> None:
        """Wait for the child's "ready" frame (sent before any student code runs)."""
        try:
            frame = frames.read_frame(self._from, time.monotonic() + STARTUP_TIMEOUT, 1024)
            ready = frames.parse_frame(frame)
        except (frames.FrameError, OSError):
            raise self.lose(_said("grader.no_start")) from None
        if not (isinstance(ready, dict) and ready.get("ready") is True):
            raise self.lose(_said("grader.no_start"))
        self._ready = True

    def _decode(self, data: Any, what: str) -> Any:
        """Rebuild a value from a reply; a value :func:`wire.decode` cannot rebuild (only a
        tampered sandbox sends one) loses the sandbox."""
        try:
            return wire.decode(data)
        except (TypeError, ValueError, KeyError, AttributeError, RecursionError):
            raise self.lose(_said("grader.malformed_value", what=what)) from None

    def exec_cell(
        self,
        index: int,
        source: str,
        *,
        timeout: float | None = None,
        max_output: int | None = None,
        line: str = "checks",
    ) -> CellResult:
        """Run one code cell in the learner's namespace of ``line`` (see :meth:`request`), as a
        kernel would; a cell that printed more than ``max_output`` bytes is a ``flood``. A
        failure of the process is a result too (the sandbox is then lost)."""
        host.interrupt_at("cell")
        try:
            reply = self.request(
                {"op": "run", "index": index, "source": source},
                what=f"cell {index}",
                timeout=timeout,
                line=line,
            )
        except SandboxLost as lost:
            return cell_lost(index, lost)
        printed = reply.get("printed")
        printed = printed if type(printed) is int else 0
        if max_output is not None and printed > max_output:
            said = _said("grader.printed", got=megabytes(printed), limit=megabytes(max_output))
            return CellResult(index, "flood", said)
        if reply["ok"]:
            return CellResult(index, "ok")
        return CellResult(index, "error", describe_error(reply.get("error") or {}))

    def prepare(self, sources: Sequence[str], fonts: dict[str, str] | None = None) -> None:
        """Tell the sandbox which cells will run, so it sets up what they need before the
        first one (:mod:`~simlab.grading.sandbox.child`: the shell on demand, and with
        ``fonts`` the grader's matplotlib font lists: file name -> text); like the start-up,
        not charged to the learner's code."""
        message: dict = {"op": "prepare", "sources": list(sources)}
        if fonts:
            message["fonts"] = fonts
        self.request(message, what="starting the notebook's shell", timeout=STARTUP_TIMEOUT)

    def split(self) -> None:
        """Split the notebook's run off the checks' line: from now on the two are separate
        processes (the run a fork of the checks' line), both holding what ran so far."""
        if self.split_off:
            return
        self.request({"op": "split"}, what="starting the notebook's run", line="run")
        self.split_off = True

    def end_run(self) -> None:
        """End the notebook's run (its process and everything it left running); the checks'
        line goes on."""
        self.request({"op": "end_run"}, what="ending the notebook's run")
        if self.split_off:
            for fd in self._pairs[0]:
                with contextlib.suppress(OSError):
                    os.close(fd)
            self._pairs = [self._pairs[1], self._pairs[1]]
            self.split_off = False

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
        probe: bool = False,
        what: str | None = None,
        services: Sequence[wire.Handle] = (),
        elsewhere: int = 0,
        **kwargs: Any,
    ) -> Any:
        """Call a student's function (by name) or a method of a sandbox object (by handle).

        Returns the decoded result (a :class:`~.wire.Handle` with ``keep``), with ``echo``
        ``(result, args_after_the_call)``, with ``probe`` also the fields of the result sharing
        objects with the first argument and a handle to the result, kept. Raises
        :class:`RemoteError` when the call raised, :class:`SandboxLost` when the process is
        gone. ``services``: the grader's objects (from :meth:`offer`) the call may use, passed
        as handles; ``elsewhere`` (1, 2, ...): as in that worker process (:mod:`.elsewhere`)."""
        label = what or _label(target, method)
        message = {"op": "call", "target": _target(target), "method": method, "now": now}
        message.update(args=wire.encode(list(args)), kwargs=wire.encode(kwargs), keep=keep)
        message.update(elsewhere=int(elsewhere), echo=echo or probe, probe=probe)  # 0: here
        host.interrupt_at("check")
        lent = frozenset(-h.id for h in services)
        reply = self._answer(message, label, lent)
        value = self._decode(reply.get("value"), label)
        after = self._decode(reply.get("args") or [], label) if echo or probe else None
        if probe and type(reply.get("held")) is not int:
            raise self.lose(_said("grader.malformed_reply", what=label))
        if probe:
            return value, after, reply.get("shared"), wire.Handle(reply["held"])
        return (value, after) if echo else value

    def call_each(
        self,
        target: str | wire.Handle,
        calls: Sequence[tuple[Sequence[Any], dict[str, Any]]],
        *,
        method: str | None = None,
        now: float | None = None,
        what: str | None = None,
    ) -> tuple[list, RemoteError | None]:
        """:meth:`call` with each ``(args, kwargs)`` of ``calls`` in turn, in one request that
        may take :attr:`timeout` per call: the values up to the first call that raised (the
        calls after it are not made), and that call's :class:`RemoteError` (or None)."""
        label = what or _label(target, method)
        encoded = [[wire.encode(list(a)), wire.encode(dict(k))] for a, k in calls]
        message = {"op": "calls", "target": _target(target), "method": method, "now": now}
        host.interrupt_at("check")
        limit = self.timeout * max(1, len(calls))
        reply = self.request({**message, "calls": encoded}, what=label, timeout=limit)
        values, error = reply.get("values"), reply.get("error")
        # Every call returned, or some did and then one raised: any other count is a forgery.
        if not (reply["ok"] and isinstance(values, list) and isinstance(error, dict | None)) or (
            len(values) != len(calls) if error is None else len(values) >= len(calls)
        ):
            raise self.lose(_said("grader.malformed_reply", what=label))
        decoded = [self._decode(v, label) for v in values]
        return decoded, None if error is None else RemoteError(error, label)

    def get(self, target: str | wire.Handle, name: str | None = None) -> Any:
        """A value from the student's namespace, or an attribute of a sandbox object."""
        what = f"reading {name or target}"
        reply = self._answer({"op": "get", "target": _target(target), "name": name}, what)
        return self._decode(reply.get("value"), what)

    def kit(self, factory: str, *args: Any, now: float | None = None, **kwargs: Any) -> wire.Handle:
        """Build a kit object in the sandbox (see :data:`simlab.grading.factories.FACTORIES`)."""
        message = {"op": "kit", "factory": factory, "now": now}
        message.update(args=wire.encode(list(args)), kwargs=wire.encode(kwargs))
        reply = self._answer(message, f"building {factory}")
        return self._decode(reply.get("value"), f"building {factory}")

    def _answer(self, message: dict, what: str, services: frozenset[int] = frozenset()) -> dict:
        """The reply to ``message``; :class:`RemoteError` when the learner's code raised."""
        reply = self.request(message, what=what, services=services)
        if not reply["ok"]:
            raise RemoteError(reply.get("error") or {}, what)
        return reply


def _target(target: str | wire.Handle) -> Any:
    return target if isinstance(target, str) else {"$h": target.id}


def _label(target: Any, method: str | None) -> str:
    if isinstance(target, str):
        return f"{target}()" if method is None else f"{target}.{method}()"
    return f"{method}()" if method else "a call"
