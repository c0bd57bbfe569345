"""The objects a hidden check may ask a sandbox to build (:data:`FACTORIES`).

Each factory takes the student's namespace first. Nothing built here judges an answer by what it
says: the ledgers, mailboxes, scripted work and races that judge ledger pieces live in the
grader and are lent to the learner's calls (:mod:`simlab.grading.lending`).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from typing import Any

from simlab.grading.aliasing import changed_with

__all__ = ["FACTORIES", "RUN_A_FUNCTION"]


def _piece(ns: dict, name: str | None) -> Callable | None:
    if name is None:
        return None
    if not callable(ns.get(name)):
        raise NameError(f"no function named {name!r} is defined")
    return ns[name]


#: name -> ``factory(namespace, *args, **kwargs)``: the objects a hidden check may build.
FACTORIES: dict[str, Callable[..., Any]] = {
    # The fields of the second value (a result kept by a probed call, sent by its handle) that
    # change with the first (:func:`~simlab.grading.aliasing.changed_with`): no learner code runs.
    "changed-with": lambda ns, first, second: _Result(changed_with(first, second)),
    "lent-world": lambda ns, name: _LentWorld(ns, name),
    "with-names": lambda ns, name, names: _WithNames(ns, name, names),
    # A scenario of the simulator with these fields (a world's value for a notebook's scenario,
    # e.g. ``PAUSES``, handed to "with-names" by its handle).
    "scenario": lambda ns, fields: _scenario(fields),
    # A value made here from the data sent and kept here: a learner's result that hands that
    # very object back comes back as its handle, a copy of it as data.
    "given": lambda ns, value: value,
    # The learner's object (sent by its handle) with every result of its methods kept here as
    # the very object returned, to be read again later (``held()``).
    "results-kept": lambda ns, obj: _ResultsKept(obj),
}


#: The factories whose first argument names the learner's function they run: whatever their
#: methods are called, a failure inside one is the learner's function's.
RUN_A_FUNCTION = frozenset({"lent-world", "with-names"})


def _scenario(fields: dict) -> Any:
    from simlab.sim.scenario import Scenario

    return Scenario(**fields)


class _LentWorld:
    """The learner's ``name(path)`` played in a world the grader keeps (the hidden checks of
    exercise ``fencing``). :meth:`play` changes the kit's ``Ledger`` and ``Mailbox`` classes in
    place for that call, and has the kit's ``run_worker`` run the world's worker
    (:attr:`~simlab.learn.state.SandboxState.worker`), so the learner's code meets the world
    however it reaches the kit's names: a global, an alias, a default argument bound when the
    function was defined, an import inside the function or a module's attribute. Every use is
    a call of ``world``, the grader's object lent to that call; after the call (whatever it
    did) the kit is its own again. Nothing here knows how the world differs from the kit's."""

    def __init__(self, ns: dict, name: str):
        self.ns = ns
        self.name = name

    def play(self, path: str, world: Callable[..., Any]) -> Any:
        fn = _piece(self.ns, self.name)
        with _world_in_place(world):
            return fn(path)


@contextlib.contextmanager
def _world_in_place(world: Callable[..., Any]) -> Iterator[None]:
    """The kit's ``Ledger`` and ``Mailbox`` answering from ``world`` while the block runs, and
    the kit's ``run_worker`` running the world's worker. Each class's members are replaced,
    then put back (a learner's own replacement too): an object made in the block (of the class
    or of a learner's subclass) is one of the world's; an object made before the block, or of a
    subclass the kit defines (a ledger built otherwise, the pieces' ledger), keeps the kit's
    behaviour."""
    from simlab.learn.state import SANDBOX
    from simlab.ledger.sqlite.ledger import Ledger
    from simlab.sim.mailbox import Mailbox

    undo: list[tuple[type, str, Any]] = []
    worker = SANDBOX.worker
    try:
        for cls, members in ((Ledger, _ledger_members(world)), (Mailbox, _mail_members(world))):
            opened = _Opened()
            for key, member in members.items():
                undo.append((cls, key, cls.__dict__.get(key, _UNBOUND)))
                setattr(cls, key, _in_place(cls, key, member, opened))
        SANDBOX.worker = lambda path, task_id: world("worker", os.fspath(path), task_id)
        yield
    finally:
        SANDBOX.worker = worker
        for cls, key, member in reversed(undo):
            if member is _UNBOUND:
                delattr(cls, key)
            else:
                setattr(cls, key, member)


class _Opened:
    """The objects made as the world's in one call, and the number of the world's ledger or
    mailbox each holds (by identity; the objects are kept until the call ends, so no identity
    is reused)."""

    def __init__(self) -> None:
        self.held: dict[int, tuple[Any, int]] = {}

    def keep(self, obj: Any, n: int) -> None:
        self.held[id(obj)] = (obj, n)

    def of(self, obj: Any) -> int | None:
        obj_n = self.held.get(id(obj))
        return obj_n[1] if obj_n is not None and obj_n[0] is obj else None


def _in_place(cls: type, key: str, member: Any, opened: _Opened) -> Any:
    """``member`` as ``cls.key`` for the world's objects: a function called with the object's
    number in the world after ``self`` (``__init__``: with a callback that records it), or a
    property read with that number. Every other object gets the member ``cls`` had."""
    kit = next(c.__dict__[key] for c in cls.__mro__ if key in c.__dict__)
    if isinstance(member, property):

        def get(self: Any) -> Any:
            n = opened.of(self)
            return kit.__get__(self, type(self)) if n is None else member.fget(n)

        def put(self: Any, value: Any) -> None:
            if opened.of(self) is not None:
                raise AttributeError(f"{key!r} cannot be set")
            kit.__set__(self, value)

        return property(get, put)

    def call(self: Any, *args: Any, **kwargs: Any) -> Any:
        if key == "__init__":
            kind = type(self)
            if kind is cls or kind.__module__.partition(".")[0] != "simlab":
                return member(self, lambda n: opened.keep(self, n), *args, **kwargs)
            return kit(self, *args, **kwargs)
        n = opened.of(self)
        if n is None:
            return kit.__get__(self, type(self))(*args, **kwargs)
        return member(n, *args, **kwargs)

    call.__name__ = call.__qualname__ = key
    return call


def _ledger_members(world: Callable[..., Any]) -> dict[str, Any]:
    """The members of a ledger whose every use asks ``world`` (see :func:`_in_place`)."""
    from simlab.grading.sandbox.remote import METHODS

    def __init__(self: Any, keep: Callable[[int], None], path: Any, **options: Any) -> None:
        self.path = os.fspath(path)
        keep(world("open", self.path))

    def method(name: str) -> Callable[..., Any]:
        def call(n: int, *args: Any, **kwargs: Any) -> Any:
            return world("ledger", n, name, list(args), dict(kwargs))

        return call

    members: dict[str, Any] = {"__init__": __init__, "close": lambda n: world("close", n)}
    members.update({name: method(name) for name in METHODS["Ledger"]})
    return members


def _mail_members(world: Callable[..., Any]) -> dict[str, Any]:
    """The members of a mailbox whose every use asks ``world`` (see :func:`_in_place`)."""

    def __init__(self: Any, keep: Callable[[int], None]) -> None:
        keep(world("mailbox"))

    def read(name: str) -> property:
        if name == "received":
            return property(lambda n: dict(world("mail", n, name)))
        return property(lambda n: world("mail", n, name))

    members: dict[str, Any] = {
        "__init__": __init__,
        "send": lambda n, key: world("mail", n, "send", key),
    }
    members.update({name: read(name) for name in ("received", "sent", "duplicates")})
    return members


class _WithNames:
    """The learner's ``name`` called with some names of the notebook (``names``: name ->
    value, constants a hidden world changes, e.g. ``WATCH_ONLY``) holding other values for
    that call only (:meth:`call`), and their own after it, whatever the call did. A dict the
    notebook holds under such a name is changed in place (its items swapped, then put back),
    so an answer that took the very object early (a default argument, an alias) sees the
    world too; any other value is rebound. ``after`` keeps what the names held right after
    each call, before they were put back (a dict as a copy of its items), so a check can see
    whether the call changed them."""

    def __init__(self, ns: dict, name: str, names: dict):
        self.ns = ns
        self.name = name
        self.names = dict(names)
        self.after: list[dict] = []

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
            self.after.append({key: _as_held(self.ns.get(key)) for key in self.names})
            for held, items in swapped:
                held.clear()
                held.update(items)
            for key, value in rebound.items():
                if value is _UNBOUND:
                    self.ns.pop(key, None)
                else:
                    self.ns[key] = value


_UNBOUND = object()


def _as_held(value: Any) -> Any:
    """``value`` as a name held it at that moment: a dict as a copy of its items."""
    return dict(value) if type(value) is dict else value


class _Result:
    """A value computed in the sandbox, read back with ``attribute("value")``."""

    def __init__(self, value: Any):
        self.value = value


class _ResultsKept:
    """A learner's object whose methods, called through this one, are its own, each result
    kept as the very object returned (not a handle: a later answer that holds it again comes
    back as data, as any answer does). :meth:`held` reads what each result holds now: a list
    as a new list of its items (read by ``list``'s own iterator, whatever a subclass's says),
    anything else as itself."""

    def __init__(self, obj: Any):
        self._obj = obj
        self._results: list[Any] = []

    def __getattr__(self, name: str) -> Callable[..., Any]:
        method = getattr(self._obj, name)

        def call(*args: Any, **kwargs: Any) -> Any:
            result = method(*args, **kwargs)
            self._results.append(result)
            return result

        return call

    def held(self) -> list[Any]:
        return [list(list.__iter__(r)) if issubclass(type(r), list) else r for r in self._results]
