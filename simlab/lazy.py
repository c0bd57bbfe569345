"""Names a package serves from its modules on first use.

A package's ``__init__`` lists each such name with the module that defines it; importing the
package then costs nothing for them, and a module that imports heavy libraries (matplotlib,
ipywidgets, the PostgreSQL driver) or the package back is loaded only when its name is first
read. The name is then cached in the package, so later reads are plain attribute lookups.

The same idea for other libraries' modules (:func:`defer_unused`): a module that a dependency
imports eagerly, but that nothing the kit does uses, is replaced by a stand-in until it is first
used, when the real module is loaded and takes its place; behaviour is unchanged, only its cost
moves to the first use, which in the kit never comes.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["served", "defer_unused", "DEFERRED"]


def served(
    package: str, names: Mapping[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for ``package``: ``names`` maps each lazily served name to the
    module that defines it under that name, or to ``"module:attr"`` when it is defined under
    another name. A name in neither the package nor ``names`` raises AttributeError."""

    def __getattr__(name: str) -> Any:
        where = names.get(name)
        if where is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module, _, attr = where.partition(":")
        value = getattr(importlib.import_module(module), attr or name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted({*vars(sys.modules[package]), *names})

    return __getattr__, __dir__


#: Modules of other libraries loaded only on first use, each with the functions another library
#: takes from it by name when it is imported (``from module import function``), which the
#: stand-in provides and which load the real module when called.
DEFERRED: dict[str, tuple[str, ...]] = {
    # jsonschema (imported by nbformat, so by every process that reads a notebook) takes this
    # from rfc3987_syntax for its "iri" formats, which no notebook schema uses; importing
    # rfc3987_syntax builds a parser for each of some thirty grammar rules.
    "rfc3987_syntax": ("is_valid_syntax",),
}


class _StandIn(types.ModuleType):
    """Takes the place of a module in :data:`sys.modules` until the module is used: reading
    any attribute it lacks, or calling one of the functions it was made with, loads the real
    module, which replaces the stand-in in :data:`sys.modules` and answers."""

    def __init__(self, name: str, functions: tuple[str, ...], spec: Any) -> None:
        super().__init__(name)
        self.__spec__ = spec  # the real module's: importlib.util.find_spec(name) answers as before
        for function in functions:
            setattr(self, function, self._deferred(function))

    def _deferred(self, function: str) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            return getattr(self._real(), function)(*args, **kwargs)

        call.__name__ = call.__qualname__ = function
        return call

    def _real(self) -> types.ModuleType:
        if sys.modules.get(self.__name__) is self:
            del sys.modules[self.__name__]
        return importlib.import_module(self.__name__)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):  # what import machinery and copy probe for: not a use
            raise AttributeError(name)
        return getattr(self._real(), name)


def defer_unused() -> None:
    """Put a stand-in in place of each module of :data:`DEFERRED` that is installed and not yet
    imported; idempotent. A module already imported, or not installed, is left as it is (so a
    library that tests for it finds it missing exactly as before)."""
    for name, functions in DEFERRED.items():
        spec = importlib.util.find_spec(name) if name not in sys.modules else None
        if spec is not None:
            sys.modules[name] = _StandIn(name, functions, spec)
