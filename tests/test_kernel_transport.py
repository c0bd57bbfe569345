"""Do the kernels nbval starts in a test run listen on IPC sockets (the repository's conftest.py),
so that kernels started at once by other processes can never take each other's TCP ports?"""

from __future__ import annotations

import os

import pytest
from nbval.kernel import start_new_kernel

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
