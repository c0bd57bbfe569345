"""The sandbox process's side: run the student's cells, answer the grader's requests.

This module runs inside a sandbox: ``python -m simlab.grading.sandbox.child IN OUT [LIMITS...]``
started in a jail (:mod:`simlab.grading.sandbox.jail`), or, with ``--no-sandbox``, forked from
:mod:`simlab.grading.sandbox.zygote`. It holds the student's namespace (a real ``__main__``
module, as in a kernel), executes cells in it (IPython magics become no-ops), and serves
requests that arrive as JSON frames (:mod:`simlab.grading.sandbox.frames`) on one pipe,
answering on another: execute a cell, look names up, call a function or a method, read a value,
build a kit object (:data:`simlab.grading.factories.FACTORIES`), report tampering. It never decides
a grade, and it never imports the hidden checks (in a jail their folder is empty).

Before any student code runs, ``sys.stdin``, ``sys.stdout`` and ``sys.stderr`` point at
``/dev/null`` (file descriptors 0 to 2 already do). In a jail, ``prlimit`` has already set its
hard limits; outside one, the process sets them itself, soft = hard, so student code cannot
raise them again. Time for kit objects comes from
:func:`simlab.learn.state.clock`: the time the grader sent with its latest request.
"""

from __future__ import annotations

import ast
import asyncio
import builtins
import inspect
import linecache
import os
import sys
import types
from typing import Any

from simlab.grading.sandbox import frames, remote, wire
from simlab.grading.sandbox.jail import Limits
from simlab.learn.state import SANDBOX

__all__ = ["serve_fds", "WATCHED_MODULES", "WATCHED_NAMES", "limit_self"]

#: The largest request the child reads (the grader is trusted; this only bounds a bug).
MAX_REQUEST = 1024**3


class _NullShell:
    """What ``get_ipython()`` returns in the sandbox: magics do nothing, except that a cell
    magic which only measures or captures (``%%time``, ``%%capture``...) still runs its body."""

    _RUN_BODY = ("time", "timeit", "capture", "prun")

    def __init__(self, ns: dict):
        self._ns = ns

    def run_cell_magic(self, name: str, line: str, cell: str) -> None:
        if name in self._RUN_BODY:
            _exec_source(cell, self._ns, "<cell magic>")

    def run_line_magic(self, *args: Any, **kwargs: Any) -> None:
        return None

    def system(self, *args: Any, **kwargs: Any) -> None:
        return None

    def getoutput(self, *args: Any, **kwargs: Any) -> list:
        return []

    def __getattr__(self, name: str) -> Any:
        return lambda *args, **kwargs: None


def _python_source(source: str) -> str:
    """Turn IPython syntax (magics, ``!shell``) into plain Python calls on ``get_ipython()``.

    IPython's own transformer is imported only for a cell that needs it (it is slow to import).
    """
    if not any(line.lstrip().startswith(("%", "!")) for line in source.splitlines()) and (
        "= !" not in source and "= %" not in source
    ):
        return source
    try:
        from IPython.core.inputtransformer2 import TransformerManager
    except ImportError:  # pragma: no cover - IPython ships with ipykernel
        return "\n".join(
            "pass" if line.lstrip().startswith(("%", "!")) else line for line in source.splitlines()
        )
    return TransformerManager().transform_cell(source)


def _exec_source(source: str, ns: dict, filename: str) -> None:
    source = _python_source(source)
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    code = compile(source, filename, "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    result = eval(code, ns)  # noqa: S307 - this process exists to run untrusted code
    if inspect.iscoroutine(result):
        asyncio.run(result)


def _kit_error(exc: BaseException) -> str | None:
    from simlab import errors

    for cls in type(exc).__mro__:
        if cls.__module__ == errors.__name__ and cls.__name__ in errors.__all__:
            return cls.__name__
    for name in ("ValueError", "NotImplementedError", "KeyError", "TypeError"):
        if type(exc).__name__ == name:
            return name
    return None


def _error_info(exc: BaseException, cell_prefix: str = "<cell ") -> dict:
    info: dict[str, Any] = {"type": type(exc).__name__, "kit": _kit_error(exc)}
    try:
        info["message"] = " ".join(str(exc).split())[:500]
    except Exception:
        info["message"] = ""
    for name in ("task_id", "status", "worker", "lease_until"):
        if hasattr(exc, name):
            try:
                info.setdefault("fields", {})[name] = wire.encode(getattr(exc, name))
            except Exception:
                pass
    if isinstance(exc, SyntaxError):
        info["message"] = str(exc.msg)
        info["line"] = exc.lineno
    else:
        tb = exc.__traceback__
        while tb is not None:
            if tb.tb_frame.f_code.co_filename.startswith(cell_prefix):
                info["line"] = tb.tb_lineno
                info["where"] = tb.tb_frame.f_code.co_filename
            tb = tb.tb_next
    return info


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


#: Modules whose attributes a notebook has no business replacing; the grader notes it if one
#: does (it gains nothing: the grader's copies live in another process).
WATCHED_MODULES = (
    "simlab.learn.self_check",
    "simlab.learn.pieces",
    "simlab.check.checker",
    "simlab.sim.simulation",
    "simlab.ledger",
)
#: Names the notebooks import as check helpers.
WATCHED_NAMES = {"self_check": "simlab.learn.self_check"}


def _snapshot() -> dict[str, dict[str, int]]:
    import importlib

    snap = {}
    for name in WATCHED_MODULES:
        module = importlib.import_module(name)
        snap[name] = {k: id(v) for k, v in vars(module).items()}
    return snap


class _Child(remote.Channel):
    """The request loop of a sandbox process."""

    def __init__(self, fd_in: int, fd_out: int):
        self.snapshot = _snapshot()
        self.fd_in = fd_in
        self.fd_out = fd_out
        # The student's namespace is a real __main__ module, as in a kernel (pickle, doctest
        # and multiprocessing look functions up there).
        main = types.ModuleType("__main__")
        sys.modules["__main__"] = main
        self.ns: dict[str, Any] = main.__dict__
        self.ns["__builtins__"] = builtins
        self.ns["get_ipython"] = lambda: _NullShell(self.ns)
        self.objects: dict[int, Any] = {}
        self.next_id = 1

    def reply(self, message: dict) -> None:
        try:
            data = wire.dumps(message)
        except (TypeError, ValueError):
            data = wire.dumps(
                {"ok": False, "error": {"type": "ProtocolError", "message": "reply is not JSON"}}
            )
        frames.send_frame(self.fd_out, data)

    def resolve(self, handle: wire.Handle) -> Any:
        """The object a handle names: one kept here, or (a negative id) a stand-in for one of
        the grader's objects (:mod:`simlab.grading.sandbox.remote`)."""
        if handle.id < 0:
            return remote.stand_in(-handle.id, handle.type)
        return self.objects[handle.id]

    def keep(self, obj: Any) -> dict:
        hid = self.next_id
        self.next_id += 1
        self.objects[hid] = obj
        return {"$h": hid, "type": type(obj).__name__}

    def serve(self) -> None:
        while True:
            try:
                message = wire.loads(frames.read_frame(self.fd_in, None, MAX_REQUEST))
            except (frames.FrameError, OSError, ValueError):
                return
            self.reply(self.handle(message))

    def handle(self, message: dict) -> dict:
        """The reply to one request."""
        op = message.get("op")
        if message.get("now") is not None:
            SANDBOX.now = float(message["now"])
        handler = getattr(self, f"op_{op}", None)
        if handler is None:
            return {"ok": False, "error": {"type": "ProtocolError", "message": op}}
        try:
            return handler(message)
        except BaseException as exc:  # a bad handle or name: an error, not a dead sandbox
            return {"ok": False, "error": _error_info(exc)}

    def ask(self, message: dict) -> dict:
        """Send a callback to the grader and wait for its answer, serving the requests the
        grader sends meanwhile (:class:`simlab.grading.sandbox.remote.Channel`)."""
        self.reply(message)
        while True:
            try:
                frame = wire.loads(frames.read_frame(self.fd_in, None, MAX_REQUEST))
            except (frames.FrameError, OSError, ValueError):
                os._exit(0)  # the grader is gone: nothing is left to answer to
            if isinstance(frame, dict) and "op" in frame:
                self.reply(self.handle(frame))
                continue
            return frame if isinstance(frame, dict) else {}

    # -- requests ------------------------------------------------------------------------------
    def op_exec(self, message: dict) -> dict:
        filename = f"<cell {int(message['index'])}>"
        try:
            _exec_source(message["source"], self.ns, filename)
        except BaseException as exc:  # SystemExit and KeyboardInterrupt too: a cell failed
            return {"ok": False, "error": _error_info(exc)}
        return {"ok": True}

    def op_names(self, message: dict) -> dict:
        kinds = {}
        for name in message["names"]:
            obj = self.ns.get(name, _MISSING)
            if obj is _MISSING:
                kinds[name] = None
            elif inspect.isclass(obj):
                kinds[name] = "class"
            elif callable(obj):
                kinds[name] = "function"
            else:
                kinds[name] = "value"
        return {"ok": True, "value": kinds}

    def op_call(self, message: dict) -> dict:
        target = message["target"]
        try:
            if isinstance(target, dict):
                obj = self.objects[int(target["$h"])]
            else:
                obj = self.ns[target]
            if message.get("method"):
                obj = getattr(obj, message["method"])
            args = wire.decode(message.get("args") or [], self.resolve)
            kwargs = wire.decode(message.get("kwargs") or {"$d": []}, self.resolve)
        except BaseException as exc:
            return {"ok": False, "error": _error_info(exc)}
        try:
            result = obj(*args, **kwargs)
        except BaseException as exc:
            return {"ok": False, "error": _error_info(exc)}
        handles = dict(self.objects)
        out: dict[str, Any] = {"ok": True}
        if message.get("keep"):
            out["value"] = self.keep(result)
        else:
            out["value"] = wire.encode(result, handles)
        if message.get("echo"):
            out["args"] = wire.encode(list(args), handles)
        return out

    def op_get(self, message: dict) -> dict:
        obj = (
            self.ns[message["target"]]
            if isinstance(message["target"], str)
            else (self.objects[int(message["target"]["$h"])])
        )
        try:
            value = getattr(obj, message["name"]) if message.get("name") else obj
        except BaseException as exc:
            return {"ok": False, "error": _error_info(exc)}
        return {"ok": True, "value": wire.encode(value, dict(self.objects))}

    def op_tampered(self, message: dict) -> dict:
        """Which watched kit attributes or check helpers the student's cells replaced."""
        report = []
        for module_name, before in self.snapshot.items():
            now = {k: id(v) for k, v in vars(sys.modules[module_name]).items()}
            changed = sorted(
                k for k in before if now.get(k) != before[k] and not k.startswith("__")
            )
            report += [f"{module_name}.{k}" for k in changed]
        for name, module_name in WATCHED_NAMES.items():
            module = sys.modules[module_name]
            if name in self.ns and self.ns[name] is not getattr(module, name, None):
                report.append(name)
        return {"ok": True, "value": report}

    def op_kit(self, message: dict) -> dict:
        from simlab.grading.factories import FACTORIES

        try:
            factory = FACTORIES[message["factory"]]
            args = wire.decode(message.get("args") or [], self.resolve)
            kwargs = wire.decode(message.get("kwargs") or {"$d": []}, self.resolve)
            obj = factory(self.ns, *args, **kwargs)
        except BaseException as exc:
            return {"ok": False, "error": _error_info(exc)}
        return {"ok": True, "value": self.keep(obj)}


_MISSING = object()


def serve_fds(fd_in: int, fd_out: int, limits: Limits | None) -> None:
    """Serve the grader on two pipe ends (the current directory is the sandbox's). ``limits``
    are set here first, unless a jail has already set them (None)."""
    sys.stdin = open(os.devnull)  # noqa: SIM115 - lives as long as the process
    sys.stdout = sys.stderr = open(os.devnull, "w")  # noqa: SIM115
    if limits is not None:
        limit_self(limits)
    sys.path.insert(0, os.getcwd())
    SANDBOX.fork_workers = True  # single-threaded here: fork instead of a new interpreter
    child = _Child(fd_in, fd_out)
    remote.install(child)
    child.reply({"ok": True, "ready": True})  # before any student code: start-up is done
    child.serve()


def _child_main(argv: list[str]) -> None:
    """Entry point of a sandbox started as a subprocess: ``... IN OUT [MEMORY FILESIZE CPU]``
    (no limits: a jail has set them)."""
    try:
        limits = None
        if len(argv) > 2:
            memory, file_size, cpu = (int(x) for x in argv[2:5])
            limits = Limits(memory=memory, file_size=file_size, cpu=cpu)
        serve_fds(int(argv[0]), int(argv[1]), limits)
    finally:
        os._exit(0)


if __name__ == "__main__":
    # Run the imported module's copy, not this __main__ one, so there is one sandbox clock.
    from simlab.grading.sandbox.child import _child_main as main

    main(sys.argv[1:])
