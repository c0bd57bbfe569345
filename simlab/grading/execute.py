"""Run a notebook headless with nbclient, cell by cell, and say how each code cell went.

This is the learner's view of their notebook: a real Jupyter kernel runs the cells top to bottom,
as "Restart & Run All" would. :func:`run_notebook` returns one :class:`CellRun` per code cell:

* ``ok``: ran to the end;
* ``error``: raised (``ename: evalue``, one line);
* ``timeout``: ran past the per-cell timeout (an endless loop, a widget waiting for a click);
* ``dead``: the kernel died while running it (``os._exit``, a segfault, the OOM killer);
* ``flood``: printed more than ``max_output`` bytes;
* ``filled``: stopped for writing more than the kernel's socket folder may hold (without root,
  where no tmpfs caps it, the grader measures it while each cell runs);
* ``not run``: the kernel could not be started again;
* ``budget``: not run, or stopped, because the notebook's whole budget (``deadline``) ran out.

The kernel runs in a jail (:mod:`simlab.grading.sandbox.kernel`; ``jailed=False`` for
``--no-sandbox``), with its private ``/tmp`` as the working folder; a kernel that sends messages
the grader cannot read counts as ``dead`` for that cell.

Nothing stops the run. After a timeout or a dead kernel the kernel is killed, a new one starts,
the ``setup`` cells that had run are replayed (imports), and execution continues with the next
cell, so one bad cell fails only what depends on it. With a ``deadline`` (the notebook's budget,
shared with the hidden checks), no cell, replay or kernel start runs past it: a cell's timeout
shrinks to the time that is left, and cells after it get ``budget``. Outputs are counted, never
stored, so megabytes of printing cost no memory. The kernel cannot read stdin (``input()`` raises
at once) and widgets need no front end.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import copy
import os
import re
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field, replace
from typing import Any

import nbformat
from jupyter_client.asynchronous import AsyncKernelClient
from jupyter_client.kernelspec import KernelSpec
from jupyter_client.manager import AsyncKernelManager
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError
from traitlets import Type

from simlab.grading.messages import Message, message, sentence
from simlab.grading.notebook import cell_role
from simlab.grading.sandbox.jail import cpu_limit
from simlab.grading.sandbox.kernel import (
    FOLDER_BYTES,
    FOLDER_FILES,
    KERNEL_LIMITS,
    BoundedKernelClient,
    JailedKernelManager,
)
from simlab.grading.sandbox.meter import WATCH_EVERY, FolderCap, Meter, Timer, Watchdog

__all__ = ["CellRun", "run_notebook", "execute_plain", "CurrentEnvKernelManager", "BUDGET_DETAIL"]

#: The detail of a cell the notebook's budget cut off.
BUDGET_DETAIL = message("grader.budget_out")


@dataclass(frozen=True)
class CellRun:
    """How one code cell went in the kernel: ``detail`` in English, ``said`` the same as a
    message (``detail`` may be given as one; a string is shown as it is, Python's words)."""

    index: int
    status: str
    detail: str = ""
    said: Message = field(default=sentence(""), compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "said", sentence(self.detail))
        object.__setattr__(self, "detail", str(self.detail))

    @property
    def ok(self) -> bool:
        return self.status == "ok"


class CurrentEnvKernelManager(AsyncKernelManager):
    """A kernel manager whose "python3" kernel is always this interpreter's ipykernel, never a
    kernelspec installed elsewhere (nbval's ``--nbval-current-env``, for the grader)."""

    @property
    def kernel_spec(self) -> KernelSpec:
        if self._kernel_spec is None:
            self._kernel_spec = KernelSpec(
                argv=[sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
                display_name="Python 3 (simlab)",
                language="python",
            )
        return self._kernel_spec


class _UnjailedKernelManager(CurrentEnvKernelManager):
    """This interpreter's kernel, unjailed (``--no-sandbox``), with the jailed kernel's client
    (no heartbeat thread, bounded messages)."""

    client_factory = Type(BoundedKernelClient, klass=AsyncKernelClient)


def _message_bytes(msg: dict) -> int:
    """About how many bytes a kernel message carries (its data and its binary buffers)."""
    content = msg.get("content") or {}
    size = len(str(content.get("text", "")))
    data = content.get("data")
    if isinstance(data, dict):
        size += sum(len(str(value)) for value in data.values())
    elif data is not None:
        size += len(str(data))
    return size + sum(len(b) for b in msg.get("buffers") or ())


class _CountingClient(NotebookClient):
    """A notebook client that counts output bytes per cell instead of keeping the outputs.

    Comm (widget) messages and display updates count as output too, and are never kept:
    nbclient would store every widget's state for the whole run, and create objects for some
    widgets, whatever their size; here a widget needs no front end and costs no memory."""

    def __init__(self, nb: nbformat.NotebookNode, **kw: Any):
        super().__init__(nb, store_widget_state=False, **kw)
        self.output_bytes: dict[int, int] = {}

    def _count(self, cell_index: int, msg: dict) -> None:
        self.output_bytes[cell_index] = self.output_bytes.get(cell_index, 0) + _message_bytes(msg)

    def process_message(self, msg, cell, cell_index):  # noqa: D102 - nbclient hook
        kind = msg.get("msg_type", "")
        if kind.startswith("comm") or kind == "update_display_data":
            self._count(cell_index, msg)
            return None
        return super().process_message(msg, cell, cell_index)

    def output(self, outs, msg, display_id, cell_index):  # noqa: D102 - nbclient hook
        self._count(cell_index, msg)
        return None


def _megabytes(n: int) -> str:
    return f"{n / 1e6:.1f} MB" if n >= 1e5 else f"{n / 1e3:.0f} kB"


_KERNEL_FILE = re.compile(r"\((?:[^()]*[/\\])?\d+\.py, line (\d+)\)")


def _one_line(text: str, limit: int = 300) -> str:
    text = " ".join(str(text).split())
    text = _KERNEL_FILE.sub(r"(line \1)", text)  # the kernel's temporary cell file names
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _client(
    nb: nbformat.NotebookNode, timeout: int, startup_timeout: int, cwd: str, jailed: bool
) -> tuple[_CountingClient, JailedKernelManager | None]:
    """A client for one kernel start: a jailed kernel (which stops gracefully, so the jail
    ends by itself, unless a cell hung) or this interpreter's kernel, stopped at once."""
    options: dict[str, Any] = dict(
        timeout=timeout,
        startup_timeout=startup_timeout,
        allow_errors=False,
        interrupt_on_timeout=False,
        record_timing=False,
    )
    if not jailed:
        client = _CountingClient(
            nb,
            kernel_name="python3",
            kernel_manager_class=_UnjailedKernelManager,
            shutdown_kernel="immediate",
            resources={"metadata": {"path": cwd}},
            **options,
        )
        return client, None
    km = JailedKernelManager(limits=replace(KERNEL_LIMITS, cpu=cpu_limit(timeout)))
    client = _CountingClient(
        nb,
        km=km,
        shutdown_kernel="graceful",
        resources={"metadata": {"path": km.folder}},
        **options,
    )
    return client, km


def _left(deadline: float | None, timeout: int) -> int:
    """Whole seconds the next cell may run: ``timeout``, or less when the deadline is nearer
    (0 once it has passed)."""
    if deadline is None:
        return timeout
    left = deadline - time.monotonic()
    return 0 if left < 1 else min(timeout, int(left))


def _meter(km: JailedKernelManager | None) -> Meter | None:
    """The CPU meter of a jailed kernel whose jail has no CPU share of its own (no control
    group could be made), else None: such a kernel's cells are judged by the CPU they used."""
    if km is None or km.jail.grouped:
        return None
    pid = getattr(km.provisioner, "pid", None)
    return Meter(pid) if isinstance(pid, int) else None


def _watch(km: JailedKernelManager | None) -> Watchdog | None:
    """A watchdog of the kernel's socket folder for the kernel's whole life (between cells too:
    a process the notebook left running keeps writing), when no tmpfs caps the folder; it kills
    the whole jail at the first byte or entry past the cap."""
    if km is None or km.capped:
        return None
    pid = getattr(km.provisioner, "pid", None)
    if not isinstance(pid, int):
        return None

    def kill() -> None:
        with contextlib.suppress(OSError):
            os.killpg(pid, signal.SIGKILL)

    dog = Watchdog(FolderCap([km.folder], FOLDER_BYTES, FOLDER_FILES), kill)
    dog.start()
    return dog


async def _execute(
    client: _CountingClient, i: int, dog: Watchdog | None, timer: Timer | None
) -> tuple[str, Message | None] | None:
    """Execute code cell ``i``. With ``dog`` (the watchdog of the kernel's folder), ask it
    every :data:`WATCH_EVERY` seconds meanwhile and once after it; with ``timer`` (a metered
    kernel), judge the cell's time by the CPU its jail used, with the timer's wall-clock
    backstop. When either runs out the cell is cancelled and ``(status, line)`` returned (the
    caller kills the kernel and removes the folder)."""
    run = asyncio.ensure_future(client.async_execute_cell(client.nb.cells[i], i))
    if dog is None and timer is None:
        await run
        return None
    while True:
        done, _ = await asyncio.wait({run}, timeout=WATCH_EVERY)
        why = ("filled", dog.reason if dog.check() else None) if dog is not None else None
        if (why is None or why[1] is None) and timer is not None and not done:
            why = ("timeout", timer.expired())
        if why is not None and why[1] is not None:
            run.cancel()
            await asyncio.gather(run, return_exceptions=True)
            return why[0], why[1]
        if done:
            run.result()  # raises as the cell did
            return None


async def _run_cell(
    client: _CountingClient,
    i: int,
    timeout: int,
    max_output: int,
    deadline: float | None,
    dog: Watchdog | None = None,
    meter: Meter | None = None,
) -> tuple[CellRun, bool]:
    """Run code cell ``i``; its CellRun, and whether the kernel is still fit for the next."""
    cell = client.nb.cells[i]
    allowed = _left(deadline, timeout)
    if allowed <= 0:
        return CellRun(i, "budget", BUDGET_DETAIL), True
    client.timeout = allowed
    timer = None
    if meter is not None:
        timer = Timer.start(
            allowed,
            message("grader.past_limit", s=timeout),
            meter=meter,
            what="the cell",
            hard=deadline,
            hard_reason=BUDGET_DETAIL,
            own_reason=allowed == timeout,
        )
        if timer.metered:  # nbclient's own limit only backs up the timer's backstop
            if allowed == timeout:
                timer.cpu_reason = message("grader.past_cpu", s=timeout)
            if timer.end_reason != BUDGET_DETAIL:
                backstop = timer.end - timer.deadline + allowed
                timer.end_reason = message("grader.past_wall", s=f"{backstop:.0f}")
            client.timeout = int(timer.end - time.monotonic()) + 2
    try:
        stopped = await _execute(client, i, dog, timer)
        if stopped is not None:
            client.shutdown_kernel = "immediate"
            status, line = stopped
            if status == "timeout" and line == BUDGET_DETAIL:
                status = "budget"
            return CellRun(i, status, line), False
    except CellExecutionError as exc:
        run = CellRun(
            i, "error", _one_line(f"{exc.ename}: {exc.evalue}" if exc.evalue else exc.ename)
        )
    except CellTimeoutError:
        client.shutdown_kernel = "immediate"
        if allowed < timeout:  # cut short by the notebook's budget, not by its own limit
            return CellRun(i, "budget", BUDGET_DETAIL), False
        return CellRun(i, "timeout", message("grader.past_limit", s=timeout)), False
    except DeadKernelError:
        if dog is not None and dog.reason is not None:  # killed for filling its folder
            return CellRun(i, "filled", dog.reason), False
        return CellRun(i, "dead", message("grader.kernel_died")), False
    except Exception as exc:  # garbage on the kernel's sockets
        client.shutdown_kernel = "immediate"
        return CellRun(i, "dead", _garbled(exc)), False
    else:
        run = CellRun(i, "ok")
    finally:
        cell.outputs = []
    printed = client.output_bytes.get(i, 0)
    if printed > max_output:
        limit = _megabytes(max_output)
        said = message("grader.printed", got=_megabytes(printed), limit=limit)
        run = CellRun(i, "flood", said)
    return run, True


async def _exit_from_inside(client: _CountingClient, km: JailedKernelManager) -> None:
    """End a jailed kernel that ran to the end by ``os._exit`` in it: the jail then ends by
    itself at once (a shutdown request takes most of a second, and a jail killed from outside
    leaves its CPU time unaccounted). If the notebook's code prevents that, nbclient's graceful
    shutdown, then a kill, follows as usual."""
    try:
        client.kc.execute("import os; os._exit(0)", silent=True, store_history=False)
        for _ in range(40):
            if not await km.is_alive():
                return
            await asyncio.sleep(0.025)
    except Exception:  # the kernel is already gone or unreachable: the shutdown handles it
        return


async def _replay_setup(
    client: _CountingClient,
    code: list[int],
    results: dict[int, CellRun],
    timeout: int,
    deadline: float | None,
) -> None:
    """Run again, in a fresh kernel, the setup cells that ran well in the one before."""
    for i in code:
        if cell_role(client.nb.cells[i]) == "setup" and results.get(i, CellRun(i, "")).ok:
            client.timeout = max(1, _left(deadline, timeout))
            await client.async_execute_cell(client.nb.cells[i], i)


async def _run(
    nb: nbformat.NotebookNode,
    timeout: int,
    max_output: int,
    cwd: str,
    startup_timeout: int,
    jailed: bool,
    deadline: float | None = None,
) -> dict[int, CellRun]:
    code = [
        i
        for i, c in enumerate(nb.cells)
        if c.get("cell_type") == "code" and str(c.get("source", "")).strip()
    ]
    pending = list(code)
    asyncio.get_running_loop().set_exception_handler(_quiet)
    results: dict[int, CellRun] = {}
    restarted = False
    while pending:
        if _left(deadline, timeout) <= 0:
            results.update((i, CellRun(i, "budget", BUDGET_DETAIL)) for i in pending)
            break
        client, km = _client(nb, timeout, startup_timeout, cwd, jailed)
        dog = None
        try:
            # The kernel's own stdout/stderr (C-level writes, warnings) never reach our terminal.
            async with client.async_setup_kernel(
                env=_kernel_env(),
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                cleanup_kc=True,
            ):
                dog = _watch(km)
                try:
                    if restarted:
                        await _replay_setup(client, code, results, timeout, deadline)
                    fit = True
                    while pending and fit:
                        i = pending.pop(0)
                        results[i], fit = await _run_cell(
                            client, i, timeout, max_output, deadline, dog, _meter(km)
                        )
                    if fit and km is not None:
                        await _exit_from_inside(client, km)
                finally:  # before the kernel is reaped: the watchdog kills by process ID
                    if dog is not None:
                        dog.stop()
        except Exception as exc:  # the kernel would not start, or died while starting
            # nbclient leaves its exit hook registered when the kernel dies while starting
            # (the grader's end kills it): the hook would fail at the exit, kernel gone.
            atexit.unregister(client._cleanup_kernel)
            for i in pending:
                if dog is not None and dog.reason is not None:  # a setup cell filled its folder
                    results[i] = CellRun(i, "filled", dog.reason)
                else:
                    why = _one_line(str(exc), 300 - len("no kernel: "))  # Python's words
                    results[i] = CellRun(i, "not run", message("grader.no_kernel", why=why))
            pending = []
        finally:
            if km is not None:
                km.remove_folder()
        restarted = True
    return results


def _quiet(loop: asyncio.AbstractEventLoop, context: dict) -> None:
    """Drop the complaint about nbclient's kernel-liveness task after a kernel that sent
    garbage was abandoned mid-cell; report anything else as asyncio would."""
    if "_async_poll_kernel_alive" not in repr(context.get("future")):
        loop.default_exception_handler(context)


def _garbled(exc: Exception) -> Message:
    return message("grader.garbled", exc=type(exc).__name__)


def _kernel_env() -> dict[str, str]:
    env = dict(os.environ)
    env["MPLBACKEND"] = "Agg"
    env.pop("PYTHONSTARTUP", None)
    return env


def run_notebook(
    nb: nbformat.NotebookNode,
    *,
    timeout: int = 60,
    max_output: int = 1_000_000,
    cwd: str | None = None,
    startup_timeout: int = 120,
    jailed: bool = True,
    deadline: float | None = None,
) -> dict[int, CellRun]:
    """Execute every code cell of ``nb`` (a copy is run) and return cell index -> CellRun.

    ``jailed`` (the default) runs the kernel in a jail
    (:mod:`simlab.grading.sandbox.kernel`), whose private ``/tmp`` is the working folder;
    otherwise the kernel is this interpreter's, in ``cwd``. ``deadline`` (``time.monotonic()``)
    bounds the whole run (cells past it are ``budget``)."""
    nb = _copy(nb)
    folder = cwd or os.getcwd()
    return asyncio.run(
        _run(nb, int(timeout), int(max_output), folder, int(startup_timeout), jailed, deadline)
    )


def _copy(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    return copy.deepcopy(nb)


def execute_plain(
    nb: nbformat.NotebookNode, *, timeout: int = 60, cwd: str | None = None
) -> nbformat.NotebookNode:
    """Just execute (a copy of) ``nb`` with nbclient and return it with its outputs: what
    every notebook grader has to pay at least, the benchmark's floor.

    Like the grader, it stops the kernel at once when done (nbclient's default waits for a
    graceful shutdown, which would make the floor look slower than it is).
    """
    client = NotebookClient(
        _copy(nb),
        timeout=timeout,
        kernel_name="python3",
        kernel_manager_class=CurrentEnvKernelManager,
        shutdown_kernel="immediate",
        resources={"metadata": {"path": cwd or os.getcwd()}},
    )
    return client.execute(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
