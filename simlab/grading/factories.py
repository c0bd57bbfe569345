"""The objects a hidden check may ask a sandbox to build (:data:`FACTORIES`).

Each factory takes the student's namespace first. Nothing built here judges an answer by what it
says: the ledgers, mailboxes, scripted work and races that judge ledger pieces live in the
grader and are lent to the learner's calls (:mod:`simlab.grading.lending`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from simlab.grading.aliasing import shared_containers

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
    "lent-world": lambda ns, name: _LentWorld(ns, name),
    "with-names": lambda ns, name, names: _WithNames(ns, name, names),
    # A value made here from the data sent and kept here: a learner's result that hands that
    # very object back comes back as its handle, a copy of it as data.
    "given": lambda ns, value: value,
}


class _LentWorld:
    """The learner's ``name(path)`` played in a world the grader keeps (the hidden checks of
    exercise ``fencing``): :meth:`play` binds stand-ins of ``Ledger``, ``Mailbox`` and
    ``run_worker`` wherever the learner's code may look the kit's up (the notebook's names,
    every ``simlab`` module), calls the function, and binds the kit's back. Every use of a
    stand-in is a call of ``world``, the grader's object lent to that call; nothing here
    knows how the world differs from the kit's."""

    def __init__(self, ns: dict, name: str):
        self.ns = ns
        self.name = name

    def play(self, path: str, world: Callable[..., Any]) -> Any:
        import sys

        from simlab.learn import pieces
        from simlab.ledger.sqlite.ledger import Ledger
        from simlab.sim.mailbox import Mailbox

        stand_ins = _stand_ins(world)
        swaps = {
            id(Ledger): (Ledger, stand_ins["Ledger"]),
            id(Mailbox): (Mailbox, stand_ins["Mailbox"]),
            id(pieces.run_worker): (pieces.run_worker, stand_ins["run_worker"]),
        }
        places = [self.ns] + [
            vars(module)
            for module_name, module in list(sys.modules.items())
            if module_name.split(".")[0] == "simlab" and module is not None
        ]
        undo = []
        for place in places:
            for key, value in list(place.items()):
                swap = swaps.get(id(value))
                if swap is not None and swap[0] is value:
                    undo.append((place, key, value))
                    place[key] = swap[1]
        try:
            return _piece(self.ns, self.name)(path)
        finally:
            for place, key, value in undo:
                place[key] = value


def _stand_ins(world: Callable[..., Any]) -> dict[str, Any]:
    """``Ledger``, ``Mailbox`` and ``run_worker`` whose every use asks ``world``."""
    import os

    from simlab.grading.sandbox.remote import METHODS

    class Ledger:
        """A ledger of the world being played."""

        def __init__(self, path: Any, **options: Any):
            self._n = world("open", os.fspath(path))

        def close(self) -> None:
            world("close", self._n)

        def __enter__(self) -> Ledger:
            return self

        def __exit__(self, *exc: object) -> None:
            self.close()

    def method(name: str) -> Callable[..., Any]:
        def call(self: Ledger, *args: Any, **kwargs: Any) -> Any:
            return world("ledger", self._n, name, list(args), dict(kwargs))

        call.__name__ = name
        return call

    for name in METHODS["Ledger"]:
        setattr(Ledger, name, method(name))

    class Mailbox:
        """The outside world's mailbox of the world being played."""

        def __init__(self) -> None:
            self._n = world("mailbox")

        def send(self, key: str) -> None:
            world("mail", self._n, "send", key)

        @property
        def received(self) -> dict[str, int]:
            return dict(world("mail", self._n, "received"))

        @property
        def sent(self) -> int:
            return world("mail", self._n, "sent")

        @property
        def duplicates(self) -> int:
            return world("mail", self._n, "duplicates")

    def run_worker(path: Any, task_id: str) -> dict:
        """One run of the chapter's worker process in the world being played."""
        return world("worker", os.fspath(path), task_id)

    return {"Ledger": Ledger, "Mailbox": Mailbox, "run_worker": run_worker}


class _WithNames:
    """The learner's ``name`` called with some names of the notebook (``names``: name ->
    value, constants a hidden world changes, e.g. ``WATCH_ONLY``) holding other values for
    that call only (:meth:`call`), and their own after it, whatever the call did. A dict the
    notebook holds under such a name is changed in place (its items swapped, then put back),
    so an answer that took the very object early (a default argument, an alias) sees the
    world too; any other value is rebound."""

    def __init__(self, ns: dict, name: str, names: dict):
        self.ns = ns
        self.name = name
        self.names = dict(names)

    def call(self, *args: Any) -> Any:
        fn = _piece(self.ns, self.name)
        rebound = {}
        swapped = []
        for key, value in self.names.items():
            held = self.ns.get(key, _UNBOUND)
            if type(held) is dict and isinstance(value, dict):
                swapped.append((held, dict(held)))
                held.clear()
                held.update(value)
            else:
                rebound[key] = held
                self.ns[key] = value
        try:
            return fn(*args)
        finally:
            for held, items in swapped:
                held.clear()
                held.update(items)
            for key, value in rebound.items():
                if value is _UNBOUND:
                    self.ns.pop(key, None)
                else:
                    self.ns[key] = value


_UNBOUND = object()


class _Result:
    """A value computed in the sandbox, read back with ``attribute("value")``."""

    def __init__(self, value: Any):
        self.value = value
