"""The objects a hidden check may ask a sandbox to build (:data:`FACTORIES`).

Each factory takes the student's namespace first. Nothing built here judges an answer by what it
says: the ledgers, mailboxes, scripted work and races that judge ledger pieces live in the
grader and are lent to the learner's calls (:mod:`simlab.grading.lending`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from simlab.grading.attacks import shared_containers

__all__ = ["FACTORIES"]


def _piece(ns: dict, name: str | None) -> Callable | None:
    if name is None:
        return None
    if not callable(ns.get(name)):
        raise NameError(f"no function named {name!r} is defined")
    return ns[name]


#: name -> ``factory(namespace, *args, **kwargs)``: the objects a hidden check may build.
FACTORIES: dict[str, Callable[..., Any]] = {
    "shared-containers": lambda ns, name, record: _Result(
        shared_containers(_piece(ns, name), record)
    ),
    "cancel-world": lambda ns, name, path, world: _Result(_cancel_world(ns, name, path, world)),
    # A value made here from the data sent and kept here: a learner's result that hands that
    # very object back comes back as its handle, a copy of it as data.
    "given": lambda ns, value: value,
}


def _cancel_world(ns: dict, name: str, path: str, world: str) -> Any:
    """The learner's ``name(path)`` played on another ledger (:mod:`simlab.grading.worlds`)."""
    from simlab.grading.worlds import play_in_world

    return play_in_world(ns, name, path, world)


class _Result:
    """A value computed in the sandbox, read back with ``attribute("value")``."""

    def __init__(self, value: Any):
        self.value = value
