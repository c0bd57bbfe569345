"""How a sandbox process is started as a subprocess (jailed, or without the zygote): its
command line, its environment and its descriptors, started and recorded in one step so that
the grader's end kills it (:mod:`simlab.grading.sandbox.host`).
"""

from __future__ import annotations

import os
import subprocess
import sys

from simlab.grading.sandbox import host
from simlab.grading.sandbox.jail import Limits

__all__ = ["CHILD", "child_env", "no_jail", "start"]


def child_env() -> dict[str, str]:
    """The environment of a sandbox started as a subprocess (a jail clears it and sets its
    own): the grader's, with matplotlib's ``Agg`` backend, no bytecode written, no startup
    file."""
    env = dict(os.environ)
    env["MPLBACKEND"] = "Agg"
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env.pop("PYTHONSTARTUP", None)
    return env


#: The command line of a sandbox process (its pipes' descriptors follow).
CHILD = [sys.executable, "-m", "simlab.grading.sandbox.child"]


def start(argv: list[str], fds: tuple[int, ...], cwd: str | None) -> subprocess.Popen:
    """Start a child process that sees only ``fds`` besides /dev/null on 0 to 2, in a session
    of its own; started and recorded in one step, so the grader's end kills it
    (:mod:`simlab.grading.sandbox.host`; raises :class:`~simlab.grading.sandbox.host.Closing`
    once the grader is ending)."""
    with host.making():
        proc = subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            pass_fds=fds,
            cwd=cwd,
            close_fds=True,
            start_new_session=True,
            env=child_env(),
        )
        host.record("process", proc.pid)
    return proc


def no_jail(limits: Limits) -> dict[str, int]:
    """The limits a child outside a jail sets itself (see :func:`child.limit_self`)."""
    return {"memory": limits.memory, "file_size": limits.file_size, "cpu": limits.cpu}
