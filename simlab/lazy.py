"""Names a package serves from its modules on first use.

A package's ``__init__`` lists each such name with the module that defines it; importing the
package then costs nothing for them, and a module that imports heavy libraries (matplotlib,
ipywidgets, the PostgreSQL driver) or the package back is loaded only when its name is first
read. The name is then cached in the package, so later reads are plain attribute lookups.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["served"]


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
