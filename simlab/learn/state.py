"""The state one sandbox process shares between its server and the learner's pieces.

The sandbox child (:mod:`simlab.grading.sandbox.child`) writes it; the pieces that run the
learner's code (:mod:`simlab.learn.pieces`) read it. Both import this module and neither
imports the other for it, so there is no import circle. Outside a sandbox (in a notebook) the
values stay at their defaults.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["SandboxState", "SANDBOX", "clock"]


@dataclass
class SandboxState:
    """``now``: the time the grader sent with its latest request (the sandbox's clock).
    ``fork_workers``: True inside a sandbox, where worker processes are forked rather than
    started as a new interpreter (the sandbox is single-threaded and has simlab imported).
    ``worker``: while the grader plays a learner's function in one of its worlds, the world's
    run of the chapter's worker (``worker(path, task_id) -> report``), which
    :func:`~simlab.learn.pieces.run_worker` runs instead of a process; None otherwise."""

    now: float = 0.0
    fork_workers: bool = False
    worker: Callable[[str, str], dict] | None = None


#: The one state of this process.
SANDBOX = SandboxState()


def clock() -> float:
    """The sandbox's clock: the time the grader sent with its latest request."""
    return SANDBOX.now
