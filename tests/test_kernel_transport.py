"""Do the kernels nbval starts in a test run listen on IPC sockets (the repository's conftest.py),
so that kernels started at once by other processes can never take each other's TCP ports, and
do they exit as asked, so that what a notebook leaves for its exit to clean is cleaned?"""

from __future__ import annotations

import os

import pytest
from nbval.kernel import RunningKernel, start_new_kernel

pytestmark = pytest.mark.kernel


def test_does_an_nbval_kernel_listen_on_ipc_sockets():
    km, kc = start_new_kernel(kernel_name="python3")
    try:
        assert km.transport == "ipc" and os.path.isabs(km.ip)
        reply = kc.execute_interactive(
            "from ipykernel.kernelapp import IPKernelApp\n"
            "assert IPKernelApp.instance().transport == 'ipc'",
            timeout=60,
        )
        assert reply["content"]["status"] == "ok"
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
    assert not any(os.path.exists(f"{km.ip}-{port}") for port in km.get_connection_info().values()
                   if isinstance(port, int))  # fmt: skip


def test_does_a_stopped_nbval_kernel_clean_what_its_exit_cleans(tmp_path):
    kernel = RunningKernel("python3", cwd=str(tmp_path))
    reply = kernel.kc.execute_interactive(
        "import tempfile\n"
        f"scratch = tempfile.TemporaryDirectory(dir={str(tmp_path)!r})\n"
        "open(scratch.name + '/left.txt', 'w').write('x')",
        timeout=60,
    )
    assert reply["content"]["status"] == "ok"
    assert len(list(tmp_path.iterdir())) == 1
    kernel.stop()  # as nbval stops every notebook's kernel
    assert list(tmp_path.iterdir()) == [], "the kernel was killed before its exit handlers ran"
