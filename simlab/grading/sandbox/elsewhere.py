"""A call of the learner's code as if it ran in another worker process.

A real fleet runs each worker in a process of its own, and two processes disagree on what
depends on the process: Python's ``hash`` of a string or of bytes (salted per process unless
``PYTHONHASHSEED`` is fixed) and ``os.getpid()``. The hidden checks call every answer in one
sandbox process, where such a value stays the same from call to call, so an idempotency key
built from it would look stable there and change in production. :func:`another_process` makes
that difference visible for one call: inside it, ``hash`` of a value that holds a string or
bytes (also inside tuples and frozensets) answers as under another salt, and ``os.getpid()``
names another process; numbers, ``None`` and every other value hash as before, as they do
across processes. Both are put back when the call returns or raises.
"""

from __future__ import annotations

import builtins
import contextlib
import os
from collections.abc import Iterator
from typing import Any

__all__ = ["another_process"]

_HASH = builtins.hash
_GETPID = os.getpid


def _salted(value: Any) -> bool:
    """Does ``value``'s hash depend on the process's salt?"""
    if isinstance(value, (str, bytes)):
        return True
    if isinstance(value, (tuple, frozenset)):
        return any(_salted(item) for item in value)
    return False


@contextlib.contextmanager
def another_process(n: int) -> Iterator[None]:
    """Run the body as in worker process ``n`` (``n`` >= 1; each ``n`` a process of its own)."""
    salt = f"simlab-process-{n}"

    def hash_(value: Any) -> int:
        own = _HASH(value)  # what is not hashable raises here, as it does everywhere
        return _HASH((salt, value)) if _salted(value) else own

    builtins.hash = hash_
    os.getpid = lambda: _GETPID() + 7919 * n
    try:
        yield
    finally:
        builtins.hash = _HASH
        os.getpid = _GETPID
