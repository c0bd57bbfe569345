"""The kernels nbval starts (for notebooks/, solutions/ and exercises/) talk over IPC sockets in a
folder of this test process, not over TCP.

jupyter_client picks a kernel's TCP ports by binding port 0 and letting it go before the kernel
binds them. When several processes start kernels at once (the xdist workers, the nbval run of the
grading tests, the site's build), another process can take such a port first, and the kernel dies
before replying to ``kernel_info``. IPC sockets are files named for each kernel, so no two
kernels can collide; the folder is removed when the test process ends.

nbval stops each kernel at once (``shutdown_kernel(now=True)``, a kill), so what a notebook
leaves for its interpreter's exit to clean (a ``tempfile.TemporaryDirectory``, an open ledger)
would outlive every run. The kernels here are asked to shut down instead, and killed only if they
do not within jupyter_client's wait, so a notebook run leaves nothing behind.

All of this is set up only in a session that loads nbval (``make test-fast`` leaves it out with
``-p no:nbval``, and with it nbval and jupyter_client: nothing there starts an nbval kernel).

Every nbval run of a Chinese notebook (lab notebook, solution or exercise) is also its reading
test: :mod:`tests.zh_reading`, loaded here as a plugin.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
import uuid

pytest_plugins = ("tests.zh_reading",)


def pytest_configure(config):
    if config.pluginmanager.has_plugin("nbval"):
        use_ipc_kernels()


def use_ipc_kernels() -> None:
    """Make every kernel nbval starts from now on an :class:`IpcKernelManager`'s."""
    import nbval.kernel
    from jupyter_client.manager import KernelManager

    sockets = tempfile.mkdtemp(prefix="simlab-test-kernels-")
    atexit.register(shutil.rmtree, sockets, ignore_errors=True)

    class IpcKernelManager(KernelManager):
        """A kernel manager whose kernel listens on IPC sockets of its own."""

        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.transport = "ipc"
            self.ip = os.path.join(sockets, uuid.uuid4().hex[:16])

        def shutdown_kernel(self, now: bool = False, restart: bool = False) -> None:
            """Ask the kernel to exit, so its exit handlers run; a kill only past the wait."""
            super().shutdown_kernel(now=False, restart=restart)

    nbval.kernel.KernelManager = IpcKernelManager
