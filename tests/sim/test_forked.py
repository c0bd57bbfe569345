"""The forked pool stops its children whatever SIGTERM handler they inherited, and under an
alarm its children answer where the time ran out, or the parent stops without their word."""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time

import pytest

from simlab.sim.forked import GRACE, REPORT, Cut, Forked
from simlab.sim.timeup import Alarm, TimeUp


def _raise(signum, frame):
    raise KeyboardInterrupt


def closed_while_busy(pool: Forked, seconds: list[float]) -> tuple[bool, list[int]]:
    """Hand ``pool`` the work ``seconds``, close it while its children run, and say whether the
    close returned within 20 s, with the children's IDs; whatever it left is killed, so
    nothing outlives the test."""
    children = [p.pid for p in pool.pool._pool]
    answers = pool.map(seconds)  # a generator: reading it hands the work out
    threading.Thread(target=lambda: next(answers, None), daemon=True).start()
    closing = threading.Thread(target=pool.close, daemon=True)
    time.sleep(0.3)  # the children take their work
    closing.start()
    closing.join(timeout=20)
    returned = not closing.is_alive()
    if not returned:
        for pid in children:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        closing.join(timeout=20)
    return returned, children


@pytest.mark.parametrize("handler", [signal.SIG_IGN, _raise], ids=["ignores", "raises"])
def test_does_close_stop_children_that_inherited_a_sigterm_handler(handler):
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signal handlers are set in the main thread only")
    before = signal.signal(signal.SIGTERM, handler)
    try:
        pool = Forked(2, time.sleep)
    finally:
        signal.signal(signal.SIGTERM, before)
    returned, _ = closed_while_busy(pool, [30.0, 30.0, 30.0])
    assert returned, "close() waited on children that SIGTERM did not end"


def _stubborn(seconds: float) -> None:
    """A child's work that takes a SIGTERM handler of its own (as a child that hung between its
    fork and the pool's initializer keeps the parent's) and then runs long."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    time.sleep(seconds)


def test_does_close_kill_a_child_that_sigterm_does_not_end():
    started = time.monotonic()
    returned, children = closed_while_busy(Forked(2, _stubborn), [30.0, 30.0])
    assert returned, "close() waited on a child that SIGTERM did not end"
    assert time.monotonic() - started < GRACE + 10
    for pid in children:  # reaped: no process of the pool is left
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


def test_does_a_child_the_alarm_rings_in_answer_cut_and_start_nothing_after():
    pool = Forked(1, time.sleep, Alarm(0.5))
    started = time.monotonic()
    try:
        answers = list(pool.map([0.0, 30.0, 0.0]))
    finally:
        pool.close()
    assert answers == [None, Cut(None), Cut(None)]  # no ledger call was in progress
    assert time.monotonic() - started < 10


def _deaf(seconds: float) -> None:
    """A child's work that takes no SIGALRM (as a C call that retries on signals) and runs
    long."""
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
    time.sleep(seconds)


def test_does_the_parent_stop_when_a_child_gives_no_word_of_the_alarm():
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signal handlers are set in the main thread only")
    started = time.monotonic()
    alarm = Alarm(0.5)
    pool = Forked(1, _deaf, alarm)
    children = [p.pid for p in pool.pool._pool]
    try:
        with pytest.raises(TimeUp), alarm.armed():
            list(pool.map([30.0]))
        waited = time.monotonic() - started
    finally:
        pool.close()
    assert 0.5 + REPORT <= waited < 0.5 + REPORT + 5
    for pid in children:  # ended and reaped
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
