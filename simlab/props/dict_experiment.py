"""The chapter's dict experiment: fencing explained with one dict and two functions.

It is kept apart from the ledger because it is the smallest thing that shows the idea:
:func:`claim` hands out a new epoch, and :func:`commit` accepts only the newest one, once. The
chapter's exercise adds ``cancel`` and ``requeue`` on the same dict; the learner writes them
(``exercises/01_fencing_and_cancellation.ipynb``), so the kit holds no finished copy. The state
is passed in instead of living in a global, so each experiment starts clean. Like
:class:`~simlab.ledger.MemoryLedger` it is a model inside one process, never a distributed lock.
"""

from __future__ import annotations

from typing import Any

from simlab.records import COMPLETED, QUEUED, RUNNING

__all__ = ["new_state", "claim", "commit"]


def new_state() -> dict[str, Any]:
    """The chapter's single task: ``{"epoch": 0, "status": "queued", "result": None}``."""
    return {"epoch": 0, "status": QUEUED, "result": None}


def claim(state: dict[str, Any]) -> int:
    """Take the task over (the old lease is assumed expired) and return the new epoch."""
    state["epoch"] += 1
    state["status"] = RUNNING
    return state["epoch"]


def commit(state: dict[str, Any], epoch: int, value: Any) -> bool:
    """Publish ``value`` if ``epoch`` is current and the task is running; True if it did."""
    if epoch != state["epoch"] or state["status"] != RUNNING:
        return False
    state.update(status=COMPLETED, result=value)
    return True
