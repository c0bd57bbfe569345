"""What a notebook replaced of the kit, as the sandbox sees it: the watched modules and names,
and the grader's own code in the jail.

A notebook has no business replacing an attribute of a watched kit module (a check helper, the
ledger, the simulator); it gains nothing by it (the grader's copies live in another process),
but the grader notes it in the feedback. :class:`Watch` records each watched module's
attributes as the module was first loaded, and :meth:`Watch.report` names those that differ
now. A module loaded before the watch starts is recorded then; one loaded later is recorded the
moment its code has run, before the import that loaded it returns (:func:`on_load`): the
record is the same either way, and a notebook that never imports a watched module does not pay
for loading it.

**The grader's code in the jail** (:class:`Guard`). What the sandbox reports about the
learner's objects (a result, the arguments after a call, which objects are one) is computed by
the kit's code running in the learner's process: a notebook that replaces a piece of it (a
function of a ``simlab.grading`` module, its code, defaults or closure, a member of one of its
classes, or a builtin that code calls: :data:`GUARDED_BUILTINS`) could make the sandbox report
what it likes. No correct answer has a reason to. :class:`Guard` records all of it before the
first cell (a ``simlab.grading`` module loaded later: the moment it has loaded), and
:meth:`Guard.changed` names what differs now, comparing by identity only, so no object of the
learner's is asked anything. What it cannot see: a change made below Python (``ctypes``
writing into an object, a C extension), a change undone before the check runs, and a change
to the guard itself that blinds it; it raises the cost of tampering, it does not make the
learner's process the grader's.
"""

from __future__ import annotations

import builtins
import functools
import gc
import operator
import sys
import types
from collections.abc import Callable
from itertools import repeat
from typing import Any

__all__ = ["WATCHED_MODULES", "WATCHED_NAMES", "GUARDED_BUILTINS", "Guard", "Watch", "on_load"]

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


def on_load(
    names: set[str], then: Callable[[types.ModuleType], None], prefix: str | None = None
) -> None:
    """Call ``then(module)`` as each module of ``names`` (or, with ``prefix``, each module whose
    name starts with it) not loaded yet is first loaded, the moment its code has run, before
    the import that loads it returns (:class:`_OnLoad`)."""
    sys.meta_path.insert(0, _OnLoad(set(names), then, prefix))


class _OnLoad:
    """A finder that finds nothing itself: for a module of ``names`` (or under ``prefix``), it
    has the other finders find it, and calls ``then`` with the module once its code has run."""

    def __init__(
        self, names: set[str], then: Callable[[types.ModuleType], None], prefix: str | None
    ):
        self.names = names
        self.then = then
        self.prefix = prefix

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        if fullname not in self.names and not (
            self.prefix is not None and fullname.startswith(self.prefix)
        ):
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


#: The builtins the kit's code in the jail calls to read the learner's values: replacing one
#: changes what the sandbox reports (``id`` picks the handles, ``isinstance`` the encoding).
GUARDED_BUILTINS = (
    "id", "hash", "isinstance", "issubclass", "type", "len", "iter", "next", "repr", "str",
    "int", "float", "bool", "list", "dict", "tuple", "set", "frozenset", "getattr", "setattr",
    "hasattr", "callable", "sorted", "any", "all", "map", "zip", "enumerate", "range", "min",
    "max", "sum", "vars", "super", "object", "BaseException", "Exception",
)  # fmt: skip
#: The package whose modules :class:`Guard` records.
GUARDED_PACKAGE = "simlab.grading"
#: Module attributes the kit itself rebinds as it runs (never the learner's business either,
#: but not a fixed record): the wire's table of kit types, replaced whole as their modules load,
#: and the jail's lifeline, made when a jail starts and dropped in every fork.
_REBOUND = {
    "simlab.grading.sandbox.wire": frozenset({"_FOUND"}),
    "simlab.grading.sandbox.jail": frozenset({"_LIFELINE"}),
}

_IS = operator.is_
_CODE = operator.attrgetter("__code__")
_DEFAULTS = operator.attrgetter("__defaults__")
_KWDEFAULTS = operator.attrgetter("__kwdefaults__")
_CONTENTS = operator.attrgetter("cell_contents")
_GET = dict.get
#: What a recorded key holds once it is gone.
_GONE = object()


class _Held:
    """One namespace (a module's or a kit class's dict) as recorded: its keys and values, held
    so that no recorded object dies and has its place taken by another. A class's dict may not
    grow (a member added shadows a base's); a module's may (the kit imports its submodules),
    but not by a guarded builtin's name."""

    def __init__(self, label: str, space: Any, keys: Any = None, grows: bool = True):
        self.label = label
        # A class's dict is read through its mapping proxy's own dict: one ``dict.get`` for all.
        if type(space) is not dict:
            space = next((d for d in gc.get_referents(space) if type(d) is dict), space)
        self.space = space
        self.size = len(space)
        self.grows = grows
        self.keys = tuple(space if keys is None else (k for k in keys if k in space))
        self.values = tuple(space[k] for k in self.keys)
        self.gone = (_GONE,) * len(self.keys)

    def same(self) -> bool:
        if len(self.space) != self.size and not (self.grows and not self.shadowing()):
            return False
        return all(map(_IS, map(self.space.get, self.keys, self.gone), self.values))

    def shadowing(self) -> list[str]:
        return [k for k in GUARDED_BUILTINS if k in self.space and k not in self.keys]

    def differing(self) -> list[str]:
        pairs = zip(self.keys, self.values, strict=True)
        found = [k for k, v in pairs if self.space.get(k, _GONE) is not v]
        if len(self.space) != self.size:
            found += [k for k in self.space if k not in self.keys] if not self.grows else []
            found += self.shadowing() if self.grows else []
        return [f"{self.label}.{k}" for k in found]


class _Group:
    """Namespaces and functions recorded together, checked together."""

    def __init__(self) -> None:
        self.spaces: list[_Held] = []
        self.functions: list[types.FunctionType] = []
        self.names: list[str] = []
        self.codes: list[Any] = []
        self.defaults: list[Any] = []
        self.kwdefaults: list[Any] = []
        self.cells: list[Any] = []
        # What the record holds is kept in tuples: a fork that rebinds every list item that is
        # the real ``hash`` (:func:`~.elsewhere.rebind_hash`) must not rewrite the record.
        self.contents: tuple[Any, ...] = ()
        self.cell_names: list[str] = []
        # The spaces' recorded keys and values, flat (each key beside its dict), and sizes.
        self.dicts: list[dict] = []
        self.keys: list[str] = []
        self.values: tuple[Any, ...] = ()
        self.sized: list[dict] = []
        self.sizes: list[int] = []

    def function(self, label: str, value: types.FunctionType) -> None:
        self.functions.append(value)
        self.names.append(label)
        self.codes.append(value.__code__)
        self.defaults.append(value.__defaults__)
        self.kwdefaults.append(value.__kwdefaults__)
        for cell in value.__closure__ or ():
            try:
                contents = cell.cell_contents
            except ValueError:  # empty: nothing to hold
                continue
            self.cells.append(cell)
            self.contents += (contents,)
            self.cell_names.append(label)

    def add(self, held: _Held) -> None:
        self.spaces.append(held)
        self.dicts += [held.space] * len(held.keys)
        self.keys += held.keys
        self.values += held.values
        self.sized.append(held.space)
        self.sizes.append(held.size)

    def rebound(self, space: dict, key: str) -> None:
        """Take ``space[key]`` as it is now for the record of ``space``."""
        for held in self.spaces:
            if held.space is space and key in held.keys:
                i = held.keys.index(key)
                held.values = (*held.values[:i], space[key], *held.values[i + 1 :])
        self.values = tuple(
            space[key] if recorded is space and name == key else value
            for recorded, name, value in zip(self.dicts, self.keys, self.values, strict=True)
        )

    def same(self) -> bool:
        fns = self.functions
        try:
            return (
                all(map(_IS, map(_CODE, fns), self.codes))
                and all(map(_IS, map(_DEFAULTS, fns), self.defaults))
                and all(map(_IS, map(_KWDEFAULTS, fns), self.kwdefaults))
                and all(map(_IS, map(_CONTENTS, self.cells), self.contents))
                and all(map(_IS, map(_GET, self.dicts, self.keys, repeat(_GONE)), self.values))
                and (list(map(len, self.sized)) == self.sizes or self._grown())
            )
        except ValueError:  # a cell emptied
            return False

    def _grown(self) -> bool:
        """Whether the spaces whose size changed only grew as a module may (then their sizes
        now are the ones to compare with)."""
        if not all(held.same() for held in self.spaces):
            return False
        self.sizes = list(map(len, self.sized))
        return True

    def differing(self) -> list[str]:
        found = [name for held in self.spaces for name in held.differing()]
        for label, fn, code, defaults, kwdefaults in zip(
            self.names, self.functions, self.codes, self.defaults, self.kwdefaults, strict=True
        ):
            if (
                fn.__code__ is not code
                or fn.__defaults__ is not defaults
                or fn.__kwdefaults__ is not kwdefaults
            ):
                found.append(label)
        for label, cell, contents in zip(self.cell_names, self.cells, self.contents, strict=True):
            try:
                if cell.cell_contents is not contents:
                    found.append(label)
            except ValueError:
                found.append(label)
        return found


#: The modules whose code reads a served call's result and arguments: checked again between
#: the learner's call and that reading (:meth:`Guard.changed` with ``quick``).
_QUICK = frozenset({"simlab.grading.sandbox.wire", "simlab.grading.sandbox.child"})


class Guard:
    """The grader's code in this process as recorded (module doc): every loaded
    ``simlab.grading`` module's attributes, the code, defaults and closures of the functions
    they and their classes define, those classes' dicts, and :data:`GUARDED_BUILTINS`."""

    def __init__(self) -> None:
        self.quick = _Group()
        self.rest = _Group()
        self.quick.add(_Held("builtins", vars(builtins), GUARDED_BUILTINS))
        for name in sorted(sys.modules):
            if _guarded(name):
                self._record(sys.modules[name])
        on_load(set(), self._record, GUARDED_PACKAGE + ".")

    def _record(self, module: types.ModuleType) -> None:
        name = module.__name__
        group = self.quick if name in _QUICK else self.rest
        space = vars(module)
        keys = [k for k in space if k not in _REBOUND.get(name, ())]
        group.add(_Held(name, space, keys))
        for key, value in list(space.items()):
            if isinstance(value, type) and value.__module__ == name:
                label = f"{name}.{key}"
                group.add(_Held(label, value.__dict__, grows=False))
                for member, inner in list(value.__dict__.items()):
                    _function(group, f"{label}.{member}", inner)
            else:
                _function(group, f"{name}.{key}", value, name)

    def rebound(self, name: str) -> None:
        """Take ``builtins.<name>`` as it is now for the record: the kit's own change of it
        (a fork that is another worker process salts ``hash``), and no other."""
        self.quick.rebound(vars(builtins), name)

    def changed(self, quick: bool = False) -> list[str]:
        """What differs from the record (``builtins.id``, ``simlab.grading.aliasing._dump``),
        empty when nothing does; compared by identity, asking no object anything. ``quick``:
        only the builtins and the modules that read a served call's values (:data:`_QUICK`)."""
        if self.quick.same() and (quick or self.rest.same()):
            return []
        return sorted(set(self.quick.differing() + self.rest.differing())) or ["its code"]


def _function(group: _Group, label: str, value: Any, module: str | None = None) -> None:
    """Record ``value`` in ``group`` if it is a function (a static or class method's, a
    property's accessors) defined in ``module`` (None: a class's member, whatever its module)."""
    if isinstance(value, staticmethod | classmethod):
        value = value.__func__
    if isinstance(value, functools._lru_cache_wrapper):
        value = value.__wrapped__  # the function the cache calls
    elif isinstance(value, property):
        for part, fn in (("fget", value.fget), ("fset", value.fset)):
            _function(group, f"{label}.{part}", fn)
        return
    if not isinstance(value, types.FunctionType):
        return
    if module is not None and value.__module__ != module:
        return  # imported from elsewhere: recorded where it is defined, if it is the kit's
    group.function(label, value)


def _guarded(name: str) -> bool:
    return name == GUARDED_PACKAGE or name.startswith(GUARDED_PACKAGE + ".")
