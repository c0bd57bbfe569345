"""The sandbox process's side: run the student's cells, answer the grader's requests.

This module runs inside a sandbox: ``python -m simlab.grading.sandbox.child IN OUT IN2 OUT2
[LIMITS...]`` (the same entry point as :data:`~simlab.grading.sandbox.jail.CHILD`) started in a
jail (:mod:`simlab.grading.sandbox.jail`), or, with ``--no-sandbox``, unjailed (it sets its
limits itself). It holds the student's namespace (a real ``__main__`` module, as in a kernel)
and runs cells in it as IPython's ``InteractiveShell`` does (magics, ``!commands``, display
hooks, ``display()``, top-level ``await``), with no kernel. It
serves requests that arrive as JSON frames (:mod:`simlab.grading.sandbox.frames`) on one pipe,
answering on another: run a cell, split off the notebook's own run, look names up, call a
function or a method (once, or with several argument lists in turn), read a value, build a kit
object (:data:`simlab.grading.factories.FACTORIES`), report tampering, and, before any cell, take
the grader's matplotlib font list (so a jail does not scan the system's fonts again). It never
decides a grade, and it never imports the hidden checks (in a jail their folder is empty).

**The guard.** The kit's code that reads the learner's values runs here, within the learner's
reach: before the first cell it is recorded (:class:`~simlab.grading.sandbox.watch.Guard`), and
after each served call of the checks (between the call and the reading of its values, and
again before the reply) it is compared with that record; once it differs, every reply of the
checks' requests carries ``tampered`` (what changed), and the grader judges no more.

A cell's output (stdout, stderr, displayed values, figures, widget messages) is counted and
thrown away, never kept: the reply says how many bytes it printed. ``input()`` raises at once
(stdin is ``/dev/null``), widgets need no front end (their messages go nowhere), and matplotlib
draws with the non-GUI ``Agg`` backend.

**Two lines.** The grader's first pipe pair serves the notebook's own run, every code cell in
notebook order. Before the first public check or demo cell, the ``split`` request forks: the
fork goes on serving the run on the first pair, and this process (the jail's PID 1) serves the
second pair, on which the grader runs only the learner's cells and, once the run is over, the
hidden checks. So the hidden checks see the learner's definitions and nothing a public check or
a demo left behind, and no cell is run twice but the learner's own ones after the split.
``end_run`` ends the run's fork and every process the run left (in a jail: every process of it
but this one).

**The shell on demand.** Starting IPython costs more than most cells, so the shell starts only
for a notebook that may need it, before its first cell (``prepare``, not charged to a cell):
one with a cell that is not plain Python (magics, ``!``, ``?``, top-level ``await``, a
``__future__`` import) or that names something IPython puts in the namespace or the builtins
(:data:`~simlab.grading.sandbox.cells.IPYTHON_NAMES`: ``display``, ``get_ipython``, ``In``,
``Out``, ``_``, ``open``...); it then runs every cell. Otherwise a cell is compiled and run
here, as the shell would run it (:mod:`~simlab.grading.sandbox.cells`, each cell parsed once):
its last expression's value, when not None, goes to the shell's display hook (started then; a
cell that ends with ``;`` shows nothing), and an error's line is the cell's own.

**One language for the hidden checks.** A Chinese notebook sets its language in its first cell
(:func:`simlab.i18n.language.set_language`); the requests of the hidden checks (``call``,
``calls``, ``get``, ``kit``) are served in English whatever the notebook set, so a notebook is
graded the same in every language: the same values, the same verbatim text in its feedback
(whose language is the grader's ``--lang``, chosen outside the sandbox).

Outside cells, ``sys.stdin``, ``sys.stdout`` and ``sys.stderr`` point at ``/dev/null`` (file
descriptors 0 to 2 always do). In a jail, ``prlimit`` has already set its
hard limits; outside one, the process sets them itself, soft = hard, so student code cannot
raise them again. Time for kit objects comes from
:func:`simlab.learn.state.clock`: the time the grader sent with its latest request.
"""

from __future__ import annotations

import builtins
import gc
import inspect
import io
import os
import re
import signal
import sys
import types
from typing import Any

# The factories (and the probe they import) are loaded before any cell, so the guard records
# them as the kit wrote them whatever a cell does to the import system.
from simlab.grading import factories  # noqa: F401
from simlab.grading.sandbox import frames, remote, wire
from simlab.grading.sandbox.cells import plain_code, plain_tree
from simlab.grading.sandbox.elsewhere import in_another_process
from simlab.grading.sandbox.jail import Limits, limit_self
from simlab.grading.sandbox.watch import Guard, Watch, on_load
from simlab.learn.state import SANDBOX

__all__ = ["serve_fds"]

#: The largest request the child reads (the grader is trusted; this only bounds a bug).
MAX_REQUEST = 1024**3


class _Sink(io.TextIOBase):
    """A text stream that counts what is written to it and keeps nothing (no file
    descriptor, not a terminal)."""

    encoding = "utf-8"
    errors = "replace"
    count = 0

    def write(self, text: Any) -> int:
        n = len(text) if isinstance(text, (str, bytes)) else len(str(text))
        self.count += n
        return n

    def writable(self) -> bool:
        return True


#: Where the output of the cell under way is counted (set to 0 as each cell starts).
_SINK = _Sink()


def _size(value: Any) -> int:
    """About how many bytes ``value`` (a display bundle or a widget message) would send."""
    if isinstance(value, (str, bytes, bytearray, memoryview)):
        return len(value)
    if isinstance(value, dict):
        return sum(len(str(k)) + _size(v) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return sum(_size(v) for v in value)
    return len(str(value))


def _shell(main: types.ModuleType) -> Any:
    """An ``InteractiveShell`` on ``main``'s namespace whose displays and widget messages are
    counted in :data:`_SINK`, whose history stays in memory, and which prints no tracebacks
    (the grader gets the exception itself)."""
    import comm
    from comm.base_comm import BaseComm
    from IPython.core.displaypub import DisplayPublisher
    from IPython.core.interactiveshell import InteractiveShell
    from traitlets.config import Config

    class CountingPublisher(DisplayPublisher):
        def publish(self, data, metadata=None, *args: Any, **kwargs: Any) -> None:
            _SINK.count += _size(data) + _size(metadata or {})

        def clear_output(self, wait: bool = False) -> None:
            return None

    class CountingComm(BaseComm):
        """A comm with no front end: what it would send is counted as output."""

        def publish_msg(self, msg_type, data=None, metadata=None, buffers=None, **keys):
            _SINK.count += _size(data or {}) + _size(metadata or {})
            _SINK.count += sum(len(memoryview(b).cast("B")) for b in buffers or ())

    comm.create_comm = CountingComm
    config = Config()
    config.HistoryManager.enabled = False
    config.InteractiveShell.colors = "nocolor"
    shell = InteractiveShell.instance(config=config, user_module=main)
    shell.display_pub = CountingPublisher(shell=shell)
    shell.showtraceback = lambda *args, **kwargs: None
    shell.showsyntaxerror = lambda *args, **kwargs: None
    shell.showindentationerror = lambda *args, **kwargs: None
    shell.enable_gui = lambda gui=None: None  # no event loop to hook: figures are displayed
    return shell


class _Child(remote.Channel):
    """The request loop of a sandbox process."""

    def __init__(self, fd_in: int, fd_out: int, checks: tuple[int, int] | None = None):
        self.watch = Watch()
        # The wire's kit types as their modules load, before the learner's code can touch them.
        wire.kit_types()
        on_load(set(wire.KIT_TYPES.values()), lambda module: wire.kit_types())
        self.guard = Guard()
        #: What the guard found replaced (module doc of :mod:`.watch`): once set, every reply
        #: of the checks' requests says so, and the grader judges no more.
        self.tampered: list[str] = []
        #: Requests being served (a callback's answer may carry more while one waits).
        self.depth = 0
        self.fd_in = fd_in
        self.fd_out = fd_out
        #: The second pipe pair (the hidden checks' line), until the run is split off.
        self.checks = checks
        #: The fork that serves the notebook's run after the split (in this process).
        self.run_line: int | None = None
        # The student's namespace is a real __main__ module, as in a kernel (pickle, doctest
        # and multiprocessing look functions up there).
        main = types.ModuleType("__main__")
        sys.modules["__main__"] = main
        self.ns: dict[str, Any] = main.__dict__
        self.ns["__builtins__"] = builtins
        self.main = main
        self.shell: Any = None  # started on demand (module doc)
        self.cells = 0
        self.objects: dict[int, Any] = {}
        #: ``id(obj)`` -> handle id of every object in :attr:`objects` (they stay alive there).
        self.handle_ids: dict[int, int] = {}
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
        self.handle_ids.setdefault(id(obj), hid)
        return {"$h": hid, "type": type(obj).__name__}

    def serve(self) -> None:
        while True:
            try:
                message = wire.loads(frames.read_frame(self.fd_in, None, MAX_REQUEST))
            except (frames.FrameError, OSError, ValueError):
                return
            answer = self.handle(message)
            if answer is not None:
                self.reply(answer)

    def handle(self, message: dict) -> dict | None:
        """The reply to one request (None: none on this pipe)."""
        op = message.get("op")
        if message.get("now") is not None:
            SANDBOX.now = float(message["now"])
        if op in _CHECKS_OPS:
            _in_english()
        handler = getattr(self, f"op_{op}", None)
        if handler is None:
            return {"ok": False, "error": {"type": "ProtocolError", "message": op}}
        self.depth += 1
        try:
            answer = handler(message)
        except BaseException as exc:  # a bad handle or name: an error, not a dead sandbox
            answer = {"ok": False, "error": wire.error_info(exc)}
        finally:
            self.depth -= 1
        if op in _GUARDED_OPS:
            self.check_guard(0)
            if self.tampered and answer is not None:
                answer["tampered"] = self.tampered[:20]
        return answer

    def check_guard(self, depth: int, quick: bool = False) -> None:
        """Compare the grader's code here with its record (:class:`~.watch.Guard`) when
        ``depth`` requests are being served, as in the grader's own request, never in a
        callback's; what changed is kept for good (in a fork that is another worker process,
        :meth:`_there` says it in the reply). ``quick``: only what reads the values of a call
        (:meth:`~.watch.Guard.changed`)."""
        if self.depth == depth and not self.tampered:
            self.tampered = self.guard.changed(quick)

    def ask(self, message: dict) -> dict:
        """Send a callback to the grader and wait for its answer, serving the requests the
        grader sends meanwhile (:class:`simlab.grading.sandbox.remote.Channel`)."""
        self.reply(message)
        while True:
            try:
                frame = wire.loads(frames.read_frame(self.fd_in, None, MAX_REQUEST))
            except (frames.FrameError, OSError, ValueError):
                os._exit(0)  # the grader is gone: nothing is left to answer to
            if isinstance(frame, dict) and "op" in frame and frame["op"] != "split":
                self.reply(self.handle(frame) or {})
                continue
            return frame if isinstance(frame, dict) else {}

    # -- requests ------------------------------------------------------------------------------
    def op_run(self, message: dict) -> dict:
        """Run one cell through the shell, as a kernel would; the reply says whether it raised
        (``error``) and how many bytes of output it made (``printed``)."""
        _SINK.count = 0
        sys.stdout = sys.stderr = _SINK
        try:
            error = self._run(str(message["source"]))
        except BaseException as exc:  # SystemExit and KeyboardInterrupt too: a cell failed
            error = exc
        finally:
            sys.stdout = sys.stderr = _NULL
        printed = _SINK.count
        if error is not None:
            return {"ok": False, "error": wire.error_info(error), "printed": printed}
        return {"ok": True, "printed": printed}

    def _run(self, source: str) -> BaseException | None:
        """Run one cell: here while it is plain Python and the shell has not started, else
        through the shell (module doc); the exception it raised, if any."""
        self.cells += 1
        plain = plain_code(source, self.cells) if self.shell is None else None
        if plain is None:
            if self.shell is None:
                self.shell = _shell(self.main)
            result = self.shell.run_cell(source, store_history=True)
            return result.error_before_exec or result.error_in_exec
        body, last = plain
        exec(body, self.ns)
        value = None if last is None else eval(last, self.ns)
        if value is not None:
            if self.shell is None:
                self.shell = _shell(self.main)
            self.shell.history_manager.input_hist_parsed.append(source)  # for a final ";"
            self.shell.displayhook(value)
        return None

    def op_prepare(self, message: dict) -> dict:
        """Start the shell now if one of the cells to come may need it (module doc); with
        ``fonts``, first take the grader's font lists as :meth:`op_fonts` does."""
        if "fonts" in message:
            self.op_fonts({"files": message["fonts"]})
        sources = message.get("sources") or []
        if self.shell is None and any(plain_tree(str(s)) is None for s in sources):
            self.shell = _shell(self.main)
        return {"ok": True}

    def op_fonts(self, message: dict) -> dict:
        """Before any cell: the grader's matplotlib font lists (``files``: name -> text, font
        list names only) into the jail's empty ``MPLCONFIGDIR``, so matplotlib need not scan
        every system font again (outside a jail it reads the grader's own: nothing to do)."""
        folder = os.environ.get("MPLCONFIGDIR")
        files = message.get("files")
        if not folder or "matplotlib" in sys.modules or not isinstance(files, dict):
            return {"ok": True}
        os.makedirs(folder, exist_ok=True)
        for name, text in files.items():
            if isinstance(text, str) and _FONT_LIST.fullmatch(str(name)):
                with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
                    f.write(text)
        return {"ok": True}

    def op_split(self, message: dict) -> dict | None:
        """Fork: the fork serves the notebook's run on the first pipe pair; this process goes
        on with the second (the learner's cells and the hidden checks)."""
        if self.checks is None:
            return {"ok": False, "error": {"type": "ProtocolError", "message": "split twice"}}
        pid = os.fork()
        if pid == 0:  # the run's line: the first pair only
            for fd in self.checks:
                os.close(fd)
            self.checks = None
            return {"ok": True}
        os.close(self.fd_in)
        os.close(self.fd_out)
        self.fd_in, self.fd_out = self.checks
        self.checks = None
        self.run_line = pid
        # The jail's outer layers hold copies of the pipes, so the grader would see no end of
        # file when the run's process dies: this process ends too, and the jail with it.
        signal.signal(signal.SIGCHLD, self._run_line_ended)
        return None  # the fork answers, on the first pair

    def _run_line_ended(self, *args: Any) -> None:
        pid = self.run_line
        if pid is None:
            return
        try:
            done = os.waitpid(pid, os.WNOHANG)[0]
        except ChildProcessError:
            done = pid
        if done == pid:
            os._exit(0)

    def op_end_run(self, message: dict) -> dict:
        """End the notebook's run: its fork, and in a jail every process but this one (what
        the run, or the learner's cells here, left running)."""
        self.run_line, run_line = None, self.run_line
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        if os.getpid() == 1:
            try:
                os.kill(-1, signal.SIGKILL)  # as PID 1: everyone else in the jail
            except OSError:
                pass
        elif run_line is not None:
            try:
                os.kill(run_line, signal.SIGKILL)
            except OSError:
                pass
        if run_line is not None:
            # Reaped here, so the CPU time of the run counts where the sandbox's does.
            try:
                os.waitpid(run_line, 0)
            except ChildProcessError:
                pass
        while True:
            try:
                if os.waitpid(-1, os.WNOHANG)[0] == 0:
                    break
            except ChildProcessError:
                break
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

    def _target(self, target: Any) -> Any:
        """The object a request names: a handle (``{"$h": id}``) or a name in the namespace."""
        return self.objects[int(target["$h"])] if isinstance(target, dict) else self.ns[target]

    def _arguments(self, message: dict) -> tuple[list, dict]:
        """A request's ``args`` and ``kwargs``, handles resolved."""
        args = wire.decode(message.get("args") or [], self.resolve)
        return args, wire.decode(message.get("kwargs") or {"$d": []}, self.resolve)

    def op_call(self, message: dict) -> dict:
        # Errors caught here, not only by handle(): op_calls reports a failed call in its reply.
        try:
            obj = self._target(message["target"])
            if message.get("method"):
                obj = getattr(obj, message["method"])
            args, kwargs = self._arguments(message)
        except BaseException as exc:
            return {"ok": False, "error": wire.error_info(exc)}
        elsewhere = int(message.get("elsewhere") or 0)
        if elsewhere:  # the value comes back, never a handle: the object stays in the fork
            reply = in_another_process(elsewhere, lambda: self._there(obj, args, kwargs, message))
            found = reply.pop("tampered", None)
            if isinstance(found, list) and found and not self.tampered:
                self.tampered = [str(label) for label in found[:20]]
            return reply
        return self._called(
            obj, args, kwargs, bool(message.get("echo")), message.get("keep"), message.get("probe")
        )

    def _there(self, obj: Any, args: list, kwargs: dict, message: dict) -> dict:
        """:meth:`_called` in the fork that is another worker process (:mod:`.elsewhere`),
        with what the guard finds replaced there by then (``tampered``): the learner's code
        could replace the code that writes this very reply. The fork's salted
        ``builtins.hash`` is the kit's own change, taken for the record first."""
        self.guard.rebound("hash")
        reply = self._called(obj, args, kwargs, bool(message.get("echo")))
        found = self.tampered or self.guard.changed()
        if found:
            reply["tampered"] = found[:20]
        return reply

    def _called(
        self, obj: Any, args: list, kwargs: dict, echo: bool, keep: Any = False, probe: Any = False
    ) -> dict:
        """The reply of one call of ``obj``: its value (kept, with ``keep``) or its error, with
        ``echo`` the arguments as they are after it, and with ``probe`` what :meth:`_probe`
        finds of it."""
        try:
            result = obj(*args, **kwargs)
        except BaseException as exc:
            return {"ok": False, "error": wire.error_info(exc)}
        # Before the result is read: a replacement that puts itself back as it runs is seen.
        self.check_guard(1, quick=True)
        out: dict[str, Any] = {"ok": True}
        if echo:
            out["args"] = wire.encode(list(args), self.handle_ids)
        if probe:
            out.update(self._probe(args, result))
        if keep:
            out["value"] = self.keep(result)
        else:
            out["value"] = wire.encode(result, self.handle_ids)
        return out

    def _probe(self, args: list, result: Any) -> dict:
        """A probed call's extra reply, on the very call whose result is judged: the fields of
        ``result`` that share objects with the first argument (None: either is no dict), and
        ``held``, the result kept here to be compared later (not a handle a later answer comes
        back as)."""
        from simlab.grading.aliasing import changed_with

        held = self.next_id
        self.next_id += 1
        self.objects[held] = result
        return {"shared": changed_with(args[0] if args else None, result), "held": held}

    def op_calls(self, message: dict) -> dict:
        """``call`` with each ``[args, kwargs]`` of ``calls`` in turn: the values up to the first
        call that failed, and its ``error`` (the calls after it are not made)."""
        values = []
        for args, kwargs in message["calls"]:
            one = {**message, "args": args, "kwargs": kwargs, "keep": False, "echo": False}
            reply = self.op_call(one)
            if not reply["ok"]:
                return {"ok": True, "values": values, "error": reply["error"]}
            values.append(reply["value"])
        return {"ok": True, "values": values}

    def op_get(self, message: dict) -> dict:
        obj = self._target(message["target"])
        value = getattr(obj, message["name"]) if message.get("name") else obj
        return {"ok": True, "value": wire.encode(value, self.handle_ids)}

    def op_tampered(self, message: dict) -> dict:
        """Which watched kit attributes or check helpers the student's cells replaced."""
        return {"ok": True, "value": self.watch.report(self.ns)}

    def op_kit(self, message: dict) -> dict:
        from simlab.grading.factories import FACTORIES

        factory = FACTORIES[message["factory"]]
        args, kwargs = self._arguments(message)
        return {"ok": True, "value": self.keep(factory(self.ns, *args, **kwargs))}


_MISSING = object()
#: The name of a matplotlib font list (:meth:`_Child.op_fonts`).
_FONT_LIST = re.compile(r"fontlist-v[0-9][0-9A-Za-z.]*\.json")
#: The requests only the hidden checks make (module doc: one language for the hidden checks).
_CHECKS_OPS = frozenset({"call", "calls", "get", "kit"})
#: The requests whose replies carry the sandbox's word: checked by the guard after each.
_GUARDED_OPS = _CHECKS_OPS | {"names", "tampered"}


def _in_english() -> None:
    """Speak English again if the notebook set another language (the module is loaded once
    the notebook imported the kit's language; before that, English is all there is)."""
    language = sys.modules.get("simlab.i18n.language")
    if language is not None and language.language() != "en":
        language.set_language("en")


def serve_fds(fds: tuple[int, int, int, int], limits: Limits | None) -> None:
    """Serve the grader on two pipe pairs (the current directory is the sandbox's). ``limits``
    are set here first, unless a jail has already set them (None)."""
    global _NULL
    sys.stdin = open(os.devnull)  # noqa: SIM115 - lives as long as the process
    _NULL = sys.stdout = sys.stderr = open(os.devnull, "w")  # noqa: SIM115
    if limits is not None:
        limit_self(limits)
    sys.path.insert(0, os.getcwd())
    # IPython's own folder is made in the sandbox's working folder (thrown away with it), never
    # in the grader's user's: no profile, history or startup file of theirs reaches a run.
    os.environ["IPYTHONDIR"] = os.path.join(os.getcwd(), ".ipython")
    SANDBOX.fork_workers = True  # single-threaded here: fork instead of a new interpreter
    # The modules imported so far live as long as the process: no collection walks them again,
    # and the run's fork does not copy the pages a collection would touch (a sandbox started
    # by jail.CHILD imported them with the collector off). The request loop is made after,
    # an object like any the learner's code makes.
    gc.freeze()
    child = _Child(fds[0], fds[1], (fds[2], fds[3]))
    remote.install(child)
    gc.enable()
    child.reply({"ok": True, "ready": True})  # before any student code: start-up is done
    child.serve()


_NULL: Any = None


def _child_main(argv: list[str]) -> None:
    """Entry point of a sandbox started as a subprocess: ``... IN OUT IN2 OUT2 [MEMORY
    FILESIZE CPU]`` (no limits: a jail has set them)."""
    try:
        limits = None
        if len(argv) > 4:
            memory, file_size, cpu = (int(x) for x in argv[4:7])
            limits = Limits(memory=memory, file_size=file_size, cpu=cpu)
        a, b, c, d = (int(x) for x in argv[:4])
        serve_fds((a, b, c, d), limits)
    finally:
        os._exit(0)


if __name__ == "__main__":
    # Run the imported module's copy, not this __main__ one, so there is one sandbox clock.
    from simlab.grading.sandbox.child import _child_main as main

    main(sys.argv[1:])
