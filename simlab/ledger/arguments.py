"""Argument checks and JSON storage shared by every ledger implementation.

Both :class:`simlab.ledger.Ledger` and :class:`simlab.ledger.memory.MemoryLedger` validate with
these
functions, so the two refuse exactly the same bad input with the same ``ValueError``, before
anything is stored.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["to_json", "from_json", "check_ttl", "check_step", "MAX_STEP"]

#: Steps must stay below this: the largest integer SQLite stores.
MAX_STEP = 2**63


def to_json(value: Any, what: str) -> str | None:
    """JSON text for ``value`` (None stays None); ``ValueError`` if it is not a JSON value.

    NaN and infinities are refused: they are not JSON, and other programs could not read them.
    """
    if value is None:
        return None
    try:
        return json.dumps(value, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{what} must be a JSON value: {exc}") from None


def from_json(text: str | None) -> Any:
    """The value stored as ``text`` (None stays None); each call returns a fresh copy."""
    return None if text is None else json.loads(text)


def check_ttl(ttl: float) -> None:
    """A lease length must be a positive number of seconds (NaN is refused too)."""
    if not ttl > 0:
        raise ValueError(f"ttl must be a positive number of seconds, got {ttl!r}")


def check_step(step: int) -> None:
    """A step is a non-negative integer (not a bool) below :data:`MAX_STEP`."""
    if not isinstance(step, int) or isinstance(step, bool) or not 0 <= step < MAX_STEP:
        raise ValueError(f"step must be a non-negative integer below 2**63, got {step!r}")
