"""Which fields of one value share objects with another, found in the sandbox, where the
objects live (JSON cannot show that two values are one object).

The sandbox asks it of a migration's result and its input on the very call whose result is
judged (a served call with ``probe``: :mod:`simlab.grading.sandbox.child`), and of two results
it kept (the ``changed-with`` factory, :mod:`simlab.grading.factories`), never by calling the
learner's function again under a frame of its own: a function that looks at the call stack
sees the same frames whether or not its result is probed. Nothing here calls the learner's
code: containers are read and changed through the base types' own methods, and a value that is
no container is told by its identity, never by its ``repr`` or ``__eq__``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

__all__ = ["changed_with"]


#: What the probe adds to each list and dict it changes (and takes out again).
_MARK = "changed-after-migrating"
#: The values that stand for themselves in a shape (:func:`_shape`).
_PLAIN = frozenset({str, int, bool, type(None)})


def _shape(value: Any, depth: int = 0) -> Any:
    """``value`` as plain nested tuples of what it holds now, read through the base types'
    methods (a float by its bits, so NaN equals itself; any other object by its identity)."""
    kind = type(value)
    if kind in _PLAIN:
        return value
    if kind is float:
        return ("float", float.hex(value))
    if depth > 100:
        return ("deep", id(value))
    if issubclass(kind, dict):
        return (
            "dict",
            tuple((_shape(k, depth + 1), _shape(v, depth + 1)) for k, v in dict.items(value)),
        )
    if issubclass(kind, list):
        return ("list", tuple(_shape(v, depth + 1) for v in list.__iter__(value)))
    if issubclass(kind, tuple):
        return ("tuple", tuple(_shape(v, depth + 1) for v in tuple.__iter__(value)))
    return ("object", id(value))


def _containers(top: dict) -> list[list | dict]:
    """Every list and dict inside ``top`` (not ``top`` itself), at every depth, each once
    (found by identity, so one object under two fields, or inside itself, is listed once)."""
    found: list[list | dict] = []
    seen = {id(top)}
    todo = list(dict.values(top))
    while todo:
        value = todo.pop()
        kind = type(value)
        if issubclass(kind, list | dict) and id(value) not in seen:
            seen.add(id(value))
            found.append(value)
            todo.extend(dict.values(value) if issubclass(kind, dict) else list.__iter__(value))
    return found


def changed_with(changed: Any, watched: Any) -> list[str] | None:
    """Change every list and dict of ``changed`` in place (at every depth), take the names of
    the fields of ``watched`` that changed with them, sorted, then undo the changes: an object
    the learner's code keeps (a module-level default handed to every result) is as it was for
    the checks that come after, so a mistake costs the part that finds it, not the later ones.
    The containers are all found before the first is changed, so no mark is itself marked.
    None when either is no dict."""
    if not (issubclass(type(changed), dict) and issubclass(type(watched), dict)):
        return None
    fields = list(dict.items(watched))
    snapshot = [_shape(v) for _, v in fields]
    undo: list[Callable[[], Any]] = []
    for value in _containers(changed):
        if issubclass(type(value), list):
            list.append(value, _MARK)
            undo.append(functools.partial(list.pop, value))
        elif not dict.__contains__(value, _MARK):
            dict.__setitem__(value, _MARK, True)
            undo.append(functools.partial(dict.pop, value, _MARK, None))
    names = sorted(
        str.__str__(k) if issubclass(type(k), str) else repr(_shape(k))
        for (k, v), before in zip(fields, snapshot, strict=True)
        if _shape(v) != before
    )
    for step in reversed(undo):
        step()
    return names
