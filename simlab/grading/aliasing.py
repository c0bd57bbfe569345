"""A migration probed, in the sandbox, for objects its result shares with its input, or one
result with another.

JSON cannot show that two values are one object; where the objects live it is plain. The probe
returns plain data (the names of the fields that changed with the input), never the objects.
What it reports is the sandbox's word about the learner's own objects (no other process can see
which objects are one); the part that uses it earns nothing on its own, since its criterion also
needs the learner's function, called by the grader, to leave its input unchanged.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Any

__all__ = ["shared_containers", "shared_between_results"]


#: What the probe adds to each list and dict it changes (and takes out again).
_MARK = "changed-after-migrating"


def _dump(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=repr)


def shared_containers(migrate: Callable[[dict], Any], record: dict) -> list[str] | None:
    """Run ``migrate(record)``, then change every list and dict of the input in place: the
    fields of the result that changed with it share objects with the input (JSON cannot show
    that; here, where the objects live, it is plain). Returns those fields' names (None when
    the migration raised)."""
    import copy

    original = copy.deepcopy(record)
    try:
        result = migrate(original)
    except Exception:  # a migration that raises is judged elsewhere
        return None
    if not isinstance(result, dict):
        return []
    return _changed_with(original, result)


def shared_between_results(migrate: Callable[[dict], Any], record: dict) -> list[str] | None:
    """Run ``migrate`` on two copies of ``record``, then change every list and dict of the first
    result in place, at every depth (as a later step changes a task's checkpoint, a citation
    inside its evidence too): the fields of the second result that changed with it share
    objects with the first (a module-level default handed to every result, or parsed
    citations kept in a module-level cache). Returns those fields' names (None when the
    migration raised or returned no dict)."""
    import copy

    try:
        first, second = migrate(copy.deepcopy(record)), migrate(copy.deepcopy(record))
    except Exception:  # a migration that raises is judged elsewhere
        return None
    if not isinstance(first, dict) or not isinstance(second, dict):
        return None
    return _changed_with(first, second)


def _containers(top: dict) -> list[list | dict]:
    """Every list and dict inside ``top`` (not ``top`` itself), at every depth, each once
    (found by identity, so one object under two fields, or inside itself, is listed once)."""
    found: list[list | dict] = []
    seen = {id(top)}
    todo = list(top.values())
    while todo:
        value = todo.pop()
        if isinstance(value, list | dict) and id(value) not in seen:
            seen.add(id(value))
            found.append(value)
            todo.extend(value.values() if isinstance(value, dict) else value)
    return found


def _changed_with(changed: dict, watched: dict) -> list[str]:
    """Change every list and dict of ``changed`` in place (at every depth), take the names of
    the fields of ``watched`` that changed with them, sorted, then undo the changes: an object
    the learner's code keeps (a module-level default handed to every result) is as it was for
    the checks that come after, so a mistake costs the part that finds it, not the later ones.
    The containers are all found before the first is changed, so no mark is itself marked."""
    snapshot = {k: _dump(v) for k, v in watched.items()}
    undo: list[Callable[[], Any]] = []
    for value in _containers(changed):
        if isinstance(value, list):
            value.append(_MARK)
            undo.append(value.pop)
        elif _MARK not in value:
            value[_MARK] = True
            undo.append(functools.partial(value.pop, _MARK, None))
    names = sorted(str(k) for k, v in watched.items() if _dump(v) != snapshot.get(k))
    for step in reversed(undo):
        step()
    return names
