"""The notebook's Jupyter kernel in a jail, reached over IPC sockets in a shared folder.

The jail (:mod:`simlab.grading.sandbox.jail`) has no network at all, not even the host's
loopback, so the kernel and nbclient cannot meet over TCP. They meet in a folder instead: a
fresh one per kernel start, made by the grader and bound read-write into the jail at the same
path, holding the connection file and jupyter_client's ``ipc`` transport sockets (Unix sockets,
``<folder>/kernel-ipc-<n>``). It is the only host folder the kernel may write; when the grader is
root it is a tmpfs of :data:`FOLDER_BYTES` bytes and :data:`FOLDER_FILES` entries, otherwise the
grader measures it while each cell runs and stops a kernel that went past either.

:class:`JailedKernelManager` starts ``python -m ipykernel_launcher`` through the jail, with the
kernel's hard limits (:data:`KERNEL_LIMITS`, memory included). The grader's side refuses any
message over :data:`MAX_MESSAGE` bytes (ZeroMQ drops the connection that sent it) and queues at
most :data:`RECEIVE_QUEUE` messages per socket, so a kernel cannot flood the grader's memory
through its sockets, and no send to a kernel waits longer than
:data:`SEND_TIMEOUT_MS`: a notebook that wrote garbage into its own sockets once left the
grader's interrupt before shutdown blocked for ever, and the whole batch with it. A send that
times out is given up; the shutdown goes on and kills the jail. Stopping the kernel ends the jail
and every process the notebook started.
"""

from __future__ import annotations

import os
import shutil
import sys
from typing import Any

import zmq
import zmq.asyncio
from jupyter_client.asynchronous import AsyncKernelClient
from jupyter_client.kernelspec import KernelSpec
from jupyter_client.manager import AsyncKernelManager
from traitlets import Type, default

from simlab.grading.sandbox import host
from simlab.grading.sandbox.jail import (
    SANDBOX_GID,
    SANDBOX_UID,
    Jail,
    Limits,
    cap_folder,
    make_shared,
    release_folder,
)

__all__ = [
    "JailedKernelManager",
    "BoundedKernelClient",
    "KERNEL_LIMITS",
    "MAX_MESSAGE",
    "RECEIVE_QUEUE",
    "SEND_TIMEOUT_MS",
]

#: The kernel's hard limits: more memory than a sandbox (numpy, matplotlib, IPython).
KERNEL_LIMITS = Limits(memory=4 * 1024**3)
#: The largest message the grader accepts from a kernel, in bytes.
MAX_MESSAGE = 16 * 1024**2
#: Messages a socket of the grader queues from a kernel before ZeroMQ stops taking more (it
#: drops or holds back the rest): with :data:`MAX_MESSAGE`, what one kernel can make the grader
#: hold. ZeroMQ's default is 1000 per socket.
RECEIVE_QUEUE = 16
#: What the kernel may write in its socket folder (the connection file and a few sockets).
FOLDER_BYTES = 1024**2
FOLDER_FILES = 64
#: The longest a send to a kernel may block, in milliseconds (then it raises ``zmq.Again``).
#: jupyter_client sends through a blocking view of each socket.
SEND_TIMEOUT_MS = 2000


def _bounded_context(kind: type[zmq.asyncio.Context]) -> zmq.asyncio.Context:
    context = kind()
    # defaults for every socket made from it
    context.setsockopt(zmq.MAXMSGSIZE, MAX_MESSAGE)
    context.setsockopt(zmq.SNDTIMEO, SEND_TIMEOUT_MS)
    context.setsockopt(zmq.RCVHWM, RECEIVE_QUEUE)
    return context


class BoundedKernelClient(AsyncKernelClient):
    """An nbclient-compatible kernel client whose sockets refuse oversized messages, and
    without the heartbeat channel: its thread can block for ever on a kernel that sent garbage
    (stopping the client then joins it), and liveness comes from the kernel's process anyway."""

    @default("context")
    def _context_default(self) -> zmq.asyncio.Context:
        self._created_context = True
        return _bounded_context(zmq.asyncio.Context)

    def start_channels(
        self,
        shell: bool = True,
        iopub: bool = True,
        stdin: bool = True,
        hb: bool = True,
        control: bool = True,
    ) -> None:
        super().start_channels(shell, iopub, stdin, False, control)


class JailedKernelManager(AsyncKernelManager):
    """A kernel manager that starts this interpreter's ipykernel in a jail (never a
    kernelspec installed elsewhere), talking over IPC sockets in :attr:`folder`."""

    client_factory = Type(BoundedKernelClient, klass=AsyncKernelClient)

    def __init__(self, *, limits: Limits | None = None, **kwargs: Any):
        folder = make_shared(host.mkdtemp("simlab-kernel-"))
        capped = cap_folder(folder, FOLDER_BYTES, FOLDER_FILES)
        super().__init__(
            transport="ipc",
            connection_file=os.path.join(folder, "kernel.json"),
            shutdown_wait_time=2.0,
            **kwargs,
        )
        self.folder = folder
        #: Whether a tmpfs caps :attr:`folder` (root only); otherwise the grader watches it
        #: while each cell runs (:func:`simlab.grading.execute.run_notebook`).
        self.capped = capped
        self.jail = Jail(limits=limits or KERNEL_LIMITS, shared=[folder], own_group=True)

    @default("context")
    def _context_default(self) -> zmq.asyncio.Context:
        self._created_context = True
        return _bounded_context(zmq.asyncio.Context)

    @property
    def kernel_spec(self) -> KernelSpec:
        if self._kernel_spec is None:
            argv = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
            self._kernel_spec = KernelSpec(
                argv=self.jail.command(argv),
                display_name="Python 3 (simlab, jailed)",
                language="python",
                # A SIGINT to the process group would kill the jail's outer layers before the
                # kernel could exit by itself (jupyter_client interrupts before a shutdown).
                interrupt_mode="message",
            )
        return self._kernel_spec

    async def _async_interrupt_kernel(self) -> None:
        """Interrupt by a message; a kernel that cannot take it (its sockets broken, the send
        timed out) is not waited for: the shutdown that follows kills it."""
        try:
            await super()._async_interrupt_kernel()
        except zmq.Again:
            pass

    async def _async_request_shutdown(self, restart: bool = False) -> None:
        """Ask for a shutdown by a message; when the send times out, the wait that follows
        ends in a kill."""
        try:
            await super()._async_request_shutdown(restart=restart)
        except zmq.Again:
            pass

    def write_connection_file(self, **kwargs: Any) -> None:
        """Write the connection file (before the jail exists) readable by the jail's user."""
        super().write_connection_file(**kwargs)
        if os.geteuid() == 0:
            os.chown(self.connection_file, SANDBOX_UID, SANDBOX_GID)

    def remove_folder(self) -> None:
        """Remove the socket folder and the jail's control groups (call once the kernel is
        stopped)."""
        release_folder(self.folder)
        shutil.rmtree(self.folder, ignore_errors=True)
        self.jail.release()
