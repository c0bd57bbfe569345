"""The jailed kernel's sockets never block the grader: a send gives up after SEND_TIMEOUT_MS,
and a kernel that cannot take a message (its sockets broken from inside, as a notebook writing
garbage into every descriptor does) is still shut down and killed, so one notebook never hangs
a batch. Found when the attack batch hung for 600 s: the interrupt jupyter_client sends before a
shutdown blocked in a send for ever."""

from __future__ import annotations

import asyncio
import time

import pytest
import zmq

from simlab.grading.sandbox.jail import require
from simlab.grading.sandbox.kernel import SEND_TIMEOUT_MS, JailedKernelManager


def test_does_a_blocked_send_to_a_kernel_give_up(tmp_path):
    km = JailedKernelManager()
    try:
        made = km.context.socket(zmq.DEALER)
        sock = zmq.Socket.shadow(made.underlying)  # the blocking view jupyter_client sends on
        sock.setsockopt(zmq.SNDHWM, 1)
        sock.setsockopt(zmq.LINGER, 0)
        sock.connect(f"ipc://{tmp_path}/nobody-listens")
        started = time.monotonic()
        with pytest.raises(zmq.Again):  # no peer takes them: the pipe fills, then a send waits
            for _ in range(1000):
                started = time.monotonic()
                sock.send(b"message")
        waited = time.monotonic() - started
        assert SEND_TIMEOUT_MS / 1000 * 0.9 <= waited < SEND_TIMEOUT_MS / 1000 + 5
        made.close()
    finally:
        km.remove_folder()


@pytest.mark.parametrize("now", [True, False], ids=["immediate", "graceful"])
def test_is_a_kernel_that_takes_no_message_still_stopped(now, monkeypatch):
    require()

    async def scenario() -> tuple[bool, float]:
        km = JailedKernelManager()
        try:
            await km.start_kernel()
            assert await km.is_alive()

            def refuse(*args, **kwargs):
                raise zmq.Again("the kernel's control socket takes nothing")

            monkeypatch.setattr(km.session, "send", refuse)
            started = time.monotonic()
            await km.shutdown_kernel(now=now)
            return await km.is_alive(), time.monotonic() - started
        finally:
            km.remove_folder()

    alive, seconds = asyncio.run(asyncio.wait_for(scenario(), 120))
    assert not alive
    assert seconds < 30
