"""A call of the learner's code in another worker process: a fork of the sandbox's process.

A real fleet runs each worker in a process of its own, and two processes disagree on what
depends on the process: its ID (``os.getpid()``, however it was imported, the thread IDs,
``/proc/self``) and Python's ``hash`` of a string or of bytes (salted per process unless
``PYTHONHASHSEED`` is fixed). The hidden checks call every answer in one sandbox process, where
such a value stays the same from call to call, so an idempotency key built from it would look
stable there and change in production. :func:`in_another_process` runs one call in a process
forked from the sandbox's: a real process of its own (its own ID, thread IDs and
``/proc/self``), in which every ``hash`` the learner's code can reach answers as under another
salt (:func:`salted_hash`): ``builtins.hash`` and every reference to it the learner's code
holds (module globals, class and instance attributes, closures, defaults, lists), found through
the collector, never the kit's own modules. Numbers, ``None`` and every other value hash as
before, as they do across processes.

What the call shares with the sandbox is what two workers share: the grader's objects (its
ledger, its mailbox) live in the grader and the fork reaches them through the pipes of the
request under way, as the sandbox itself does (:mod:`simlab.grading.sandbox.remote`); the
sandbox waits meanwhile and reads nothing. Anything else the call changes stays in the fork,
which ends with the call: its reply comes back on a pipe of its own, then it exits, and the
sandbox reaps it before it answers. The fork is a process of the jail like any other: it counts
in the jail's processes and memory, it may use only the CPU seconds the sandbox's process has
left, and a call that hangs is ended with the whole sandbox when its request times out (the
fork is in the sandbox's process group).
"""

from __future__ import annotations

import builtins
import contextlib
import gc
import os
import signal
import sys
import types
from collections.abc import Callable
from typing import Any

from simlab.grading.sandbox import frames, wire

__all__ = ["in_another_process", "salted_hash", "rebind_hash"]

_HASH = builtins.hash
#: The largest reply a fork sends back (as large as a request the sandbox reads).
_MAX_REPLY = 1024**3


def _salted(value: Any) -> bool:
    """Does ``value``'s hash depend on the process's salt?"""
    if isinstance(value, (str, bytes)):
        return True
    if isinstance(value, (tuple, frozenset)):
        return any(_salted(item) for item in value)
    return False


def salted_hash(n: int) -> Callable[[Any], int]:
    """``hash`` as in worker process ``n`` (``n`` >= 1; each ``n`` a salt of its own): another
    value for what holds a string or bytes (also inside tuples and frozensets), the same for
    anything else; what is not hashable raises as it does everywhere."""
    salt = f"simlab-process-{n}"

    def hash(value: Any) -> int:  # noqa: A001 - it stands for the builtin
        own = _HASH(value)
        return _HASH((salt, value)) if _salted(value) else own

    return hash


def _kit_dicts() -> set[int]:
    """``id`` of the namespace of every kit module and of ``builtins`` (left as they are)."""
    kept = {id(builtins.__dict__)}
    for name, module in list(sys.modules.items()):
        if name == "simlab" or name.startswith("simlab."):
            kept.add(id(getattr(module, "__dict__", None)))
    return kept


def rebind_hash(new: Callable[[Any], int]) -> None:
    """Make ``builtins.hash`` and every reference to the real one outside the kit's modules
    ``new``: values of dicts (a class's through ``setattr``, so its lookups see it), items
    of lists, closure cells, and functions' defaults. For a fork only: nothing is put back."""
    builtins.hash = new
    kit = _kit_dicts()
    for holder in gc.get_referrers(_HASH):
        if isinstance(holder, dict) and id(holder) not in kit:
            owners = [o for o in gc.get_referrers(holder) if isinstance(o, type)]
            for key, value in list(dict.items(holder)):  # no method of a subclass runs
                if value is _HASH:
                    try:
                        for owner in owners:
                            type.__setattr__(owner, key, new)
                        if not owners:
                            dict.__setitem__(holder, key, new)
                    except (TypeError, AttributeError):  # a built-in type: not the learner's
                        pass
        elif isinstance(holder, list):
            for i, item in enumerate(list.copy(holder)):
                if item is _HASH:
                    list.__setitem__(holder, i, new)
        elif isinstance(holder, types.CellType):
            holder.cell_contents = new
        elif isinstance(holder, tuple):
            for function in gc.get_referrers(holder):
                if isinstance(function, types.FunctionType) and function.__defaults__ is holder:
                    function.__defaults__ = tuple(new if v is _HASH else v for v in holder)
        elif not isinstance(holder, (type, types.FrameType, types.ModuleType)):
            _rebind_attributes(holder, new)


def _rebind_attributes(holder: object, new: Callable[[Any], int]) -> None:
    """The attributes of an instance whose values live in the instance itself (slots, and
    a dict not made yet) that are the real ``hash``: ``new``, through ``object``'s own
    access (no method of the learner's class runs)."""
    names = [n for c in type(holder).__mro__ for n in _slots(c)]
    if hasattr(type(holder), "__dictoffset__") and type(holder).__dictoffset__:
        with contextlib.suppress(Exception):
            names += list(object.__getattribute__(holder, "__dict__"))
    for name in names:
        with contextlib.suppress(Exception):
            if object.__getattribute__(holder, name) is _HASH:
                object.__setattr__(holder, name, new)


def _slots(cls: type) -> tuple[str, ...]:
    slots = cls.__dict__.get("__slots__", ())
    return (slots,) if isinstance(slots, str) else tuple(s for s in slots if isinstance(s, str))


def _limit_cpu(used: float) -> None:
    """Leave this fork the CPU seconds its parent had left of its limit (``used``: the
    parent's)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not on Windows
        return
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    if hard != resource.RLIM_INFINITY:
        left = max(1, hard - int(used + 0.999))
        resource.setrlimit(resource.RLIMIT_CPU, (left, left))


def _died(status: int) -> dict:
    """The reply for a fork that ended without one (``status`` as ``os.waitpid`` gives it)."""
    if os.WIFSIGNALED(status):
        how = f"the process was killed by signal {os.WTERMSIG(status)}"
    else:
        how = f"the process exited with status {os.waitstatus_to_exitcode(status)}"
    return _failed(SystemExit(how))


def _failed(error: BaseException) -> dict:
    """The reply of a call that raised ``error``, as the sandbox says any."""
    return {"ok": False, "error": wire.error_info(error)}


def in_another_process(n: int, call: Callable[[], dict]) -> dict:
    """The reply ``call()`` makes in a fork of this process that is worker process ``n``
    (module doc); a fork that ends without a reply answers as a call that raised
    ``SystemExit``. ``call`` must catch what the learner's code raises, and its reply must be
    JSON as :mod:`~simlab.grading.sandbox.wire` writes it."""
    usage = os.times()
    read, write = os.pipe()
    try:
        pid = os.fork()
    except OSError as exc:
        os.close(read)
        os.close(write)
        return _failed(OSError(f"no other process could be started ({exc.strerror})"))
    if pid == 0:  # the fork: answer, then end whatever the learner's code left running
        try:
            os.close(read)
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)  # the sandbox's watch is not ours
            _limit_cpu(usage.user + usage.system)
            rebind_hash(salted_hash(n))
            try:
                data = wire.dumps(call())
            except (TypeError, ValueError):
                data = wire.dumps({"ok": False, "error": {"type": "ProtocolError"}})
            frames.send_frame(write, data)
        finally:
            os._exit(0)
    os.close(write)
    try:
        reply: Any = wire.loads(frames.read_frame(read, None, _MAX_REPLY))
    except (frames.FrameError, ValueError):
        reply = None
    finally:
        os.close(read)
    _, status = os.waitpid(pid, 0)
    if not isinstance(reply, dict):
        return _died(status)
    return reply
