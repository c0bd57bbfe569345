"""What a notebook replaced of the kit, as the sandbox sees it: the watched modules and names.

A notebook has no business replacing an attribute of a watched kit module (a check helper, the
ledger, the simulator); it gains nothing by it (the grader's copies live in another process),
but the grader notes it in the feedback. :class:`Watch` records each watched module's
attributes as the module was first loaded, and :meth:`Watch.report` names those that differ
now. A module loaded before the watch starts is recorded then; one loaded later is recorded the
moment its code has run, before the import that loaded it returns (:func:`on_load`): the
record is the same either way, and a notebook that never imports a watched module does not pay
for loading it.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Callable
from typing import Any

__all__ = ["WATCHED_MODULES", "WATCHED_NAMES", "Watch", "on_load"]

#: Modules whose attributes a notebook has no business replacing.
WATCHED_MODULES = (
    "simlab.learn.self_check",
    "simlab.learn.pieces",
    "simlab.checker.checker",
    "simlab.sim.simulation",
    "simlab.ledger",
)
#: Names the notebooks import as check helpers (name -> the module that defines it).
WATCHED_NAMES = {"self_check": "simlab.learn.self_check"}


def _attributes(module: types.ModuleType) -> dict[str, int]:
    return {k: id(v) for k, v in vars(module).items()}


class Watch:
    """The watched modules' attributes as first loaded in this process (module doc)."""

    def __init__(self) -> None:
        self.before: dict[str, dict[str, int]] = {}
        later = set()
        for name in WATCHED_MODULES:
            module = sys.modules.get(name)
            if module is None:
                later.add(name)
            else:
                self.before[name] = _attributes(module)
        if later:
            on_load(later, self._record)

    def _record(self, module: types.ModuleType) -> None:
        self.before[module.__name__] = _attributes(module)

    def report(self, ns: dict[str, Any]) -> list[str]:
        """The watched attributes (``module.name``) replaced since, and the check helpers the
        namespace ``ns`` holds that are not the kit's."""
        report = []
        for module_name, before in self.before.items():
            now = _attributes(sys.modules[module_name])
            changed = sorted(
                k for k in before if now.get(k) != before[k] and not k.startswith("__")
            )
            report += [f"{module_name}.{k}" for k in changed]
        for name, module_name in WATCHED_NAMES.items():
            module = sys.modules.get(module_name)  # None: never loaded, so never the kit's
            if name in ns and ns[name] is not getattr(module, name, None):
                report.append(name)
        return report


def on_load(names: set[str], then: Callable[[types.ModuleType], None]) -> None:
    """Call ``then(module)`` as each module of ``names`` not loaded yet is first loaded, the
    moment its code has run, before the import that loads it returns (:class:`_OnLoad`)."""
    sys.meta_path.insert(0, _OnLoad(set(names), then))


class _OnLoad:
    """A finder that finds nothing itself: for a module of ``names``, it has the other
    finders find it, and calls ``then`` with the module once its code has run."""

    def __init__(self, names: set[str], then: Callable[[types.ModuleType], None]):
        self.names = names
        self.then = then

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        if fullname not in self.names:
            return None
        for finder in sys.meta_path:
            find = getattr(finder, "find_spec", None)
            spec = None if finder is self or find is None else find(fullname, path, target)
            if spec is not None:
                break
        else:
            return None
        run = getattr(spec.loader, "exec_module", None)
        if run is None:
            return spec

        def exec_module(module: types.ModuleType) -> None:
            run(module)
            self.names.discard(fullname)
            self.then(module)

        spec.loader.exec_module = exec_module
        return spec
