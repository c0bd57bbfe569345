"""Argument checks and JSON storage shared by every ledger implementation.

The SQLite :class:`~simlab.ledger.Ledger`, the :class:`~simlab.ledger.memory.MemoryLedger` and
any other ledger (PostgreSQL) call these plain functions *before* they change anything, so every
ledger refuses exactly the same bad input with the same exception and message:

=====================  =============================================================
argument               accepted
=====================  =============================================================
``ttl``                an ``int`` or ``float`` (not a bool), ``0 < ttl <= MAX_TTL``
task ID, tenant,       a non-empty ``str`` of at most :data:`MAX_NAME_CHARS` characters,
worker, effect key     valid Unicode (no lone surrogate, which no database can store), no NUL
                       (PostgreSQL's ``text`` cannot hold it)
``step``               an ``int`` (not a bool), ``0 <= step < MAX_STEP``
goal, result,          a JSON value (no NaN or infinity), nested at most
checkpoint             :data:`MAX_JSON_DEPTH` deep, at most ``max_value_bytes`` as JSON
``max_value_bytes``    an ``int`` (not a bool) of at least 1; default :data:`MAX_VALUE_BYTES`
``max_attempts``       None, or an ``int`` (not a bool) of at least 1
lease                  a :class:`~simlab.records.Lease` whose task ID and worker are valid names
=====================  =============================================================

A wrong *type* raises :class:`WrongType`, which is both a ``TypeError`` and a ``ValueError`` (so
``except ValueError`` keeps working); a wrong *value* raises ``ValueError``. Either way the message
is one sentence that names the argument. The checks are cheap on good input (a type test and a
length first), because ``claim`` and ``save`` run them on every call.
"""

from __future__ import annotations

import json
import math
from typing import Any

from simlab.records import Lease

__all__ = [
    "WrongType",
    "MAX_STEP",
    "MAX_TTL",
    "MAX_NAME_CHARS",
    "MAX_JSON_DEPTH",
    "MAX_VALUE_BYTES",
    "check_ttl",
    "check_step",
    "check_name",
    "check_lease",
    "check_submit",
    "check_claim",
    "check_save",
    "check_heartbeat",
    "check_ledger_options",
    "check_max_attempts",
    "check_max_value_bytes",
    "check_seconds",
    "to_json",
    "from_json",
]

#: Steps must stay below this: the largest integer SQLite stores.
MAX_STEP = 2**63
#: The longest lease: one year. ``inf`` or ``1e308`` would make a lease that never expires.
MAX_TTL = 365 * 24 * 3600.0
#: The longest task ID, tenant, worker name or effect key, in characters.
MAX_NAME_CHARS = 200
#: The deepest nesting of lists and objects in a goal, result or checkpoint.
MAX_JSON_DEPTH = 100
#: The default largest goal, result or checkpoint, in bytes of JSON text (1 MB).
MAX_VALUE_BYTES = 1_000_000


_ENCODER = json.JSONEncoder(allow_nan=False)
#: ``json.dumps(value, allow_nan=False)`` without building a new encoder on every call.
_ENCODE = _ENCODER.encode
#: What ``json.loads`` runs on text that holds one JSON value and nothing else.
_SCAN = json.decoder.JSONDecoder().scan_once


def _one_shot_encoder() -> Any:
    """The C encoder ``_ENCODE`` builds on every call for a list or a dict, built once (None
    without the C accelerator), without its circular-reference markers: a value that holds
    itself makes it recurse until ``RecursionError`` instead, and :func:`_encode` then lets the
    plain encoder raise its own error (every error of one is an error of the other)."""
    make = json.encoder.c_make_encoder
    if make is None:
        return None
    e = _ENCODER
    return make(
        None, e.default, json.encoder.encode_basestring_ascii, e.indent, e.key_separator,
        e.item_separator, e.sort_keys, e.skipkeys, e.allow_nan,
    )  # fmt: skip


_FAST_ENCODE = _one_shot_encoder()


def _encode(value: Any) -> str:
    """``_ENCODE(value)``, the same text and the same errors, faster for a dict or a list (a
    save's result, a checkpoint: every save encodes one)."""
    cls = value.__class__
    if (cls is dict or cls is list) and _FAST_ENCODE is not None:
        try:
            return "".join(_FAST_ENCODE(value, 0))
        except Exception:
            pass  # the plain encoder raises its own error (it keeps no state between calls)
    return _ENCODE(value)


class WrongType(TypeError, ValueError):
    """An argument of the wrong type: a ``TypeError`` that ``except ValueError`` also catches."""


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def check_ttl(ttl: float) -> None:
    """A lease length: a finite number of seconds, ``0 < ttl <= MAX_TTL`` (NaN and bools are
    refused: ``True`` is not one second)."""
    if ttl.__class__ is float or ttl.__class__ is int:
        if 0 < ttl <= MAX_TTL:
            return
    elif not _is_number(ttl):
        raise WrongType(f"ttl must be a number of seconds, got {type(ttl).__name__} {ttl!r}")
    elif 0 < ttl <= MAX_TTL:
        return
    raise ValueError(f"ttl must be a positive number of seconds up to {MAX_TTL:g}, got {ttl!r}")


def check_step(step: int) -> None:
    """A step is a non-negative integer (not a bool) below :data:`MAX_STEP`."""
    if step.__class__ is int and 0 <= step < MAX_STEP:
        return
    if not isinstance(step, int) or isinstance(step, bool):
        raise WrongType(f"step must be an integer, got {type(step).__name__} {step!r}")
    if not 0 <= step < MAX_STEP:
        raise ValueError(f"step must be a non-negative integer below 2**63, got {step!r}")


def check_name(value: str, what: str) -> None:
    """A task ID, tenant, worker name or effect key (``what`` names it in the error): a
    non-empty ``str`` of at most :data:`MAX_NAME_CHARS` characters, valid Unicode, without NUL.

    NUL is refused by every ledger because PostgreSQL's ``text`` cannot hold it: a name one
    engine stores must be one every engine stores.
    """
    if isinstance(value, str) and 0 < len(value) <= MAX_NAME_CHARS:
        if "\x00" in value:
            raise ValueError(f"{what} must not contain NUL characters, got {value!r:.80}")
        if value.isascii():
            return
        try:
            value.encode("utf-8")
            return
        except UnicodeEncodeError:
            raise ValueError(
                f"{what} must be valid Unicode, got {value!r} (a lone surrogate)"
            ) from None
    if not isinstance(value, str):
        raise WrongType(f"{what} must be a string, got {type(value).__name__} {value!r:.80}")
    raise ValueError(
        f"{what} must be 1 to {MAX_NAME_CHARS} characters long, got {len(value)} characters"
    )


def _plain_names(task_id: object, worker: object) -> bool:
    """Would :func:`check_name` accept both? Its accepting path in one expression, for the
    calls every claim, heartbeat and save makes (:func:`check_claim`, :func:`check_heartbeat`,
    :func:`check_save`); anything else goes through it for its error."""
    return (
        task_id.__class__ is str
        and worker.__class__ is str
        and 0 < len(task_id) <= MAX_NAME_CHARS
        and 0 < len(worker) <= MAX_NAME_CHARS
        and task_id.isascii()
        and worker.isascii()
        and "\x00" not in task_id
        and "\x00" not in worker
    )


def check_submit(task_id: str, tenant: str) -> None:
    """A submit's names: ``check_name(task_id, "task_id")`` then ``check_name(tenant,
    "tenant")``, as one call (every submit runs it)."""
    if _plain_names(task_id, tenant):
        return
    check_name(task_id, "task_id")
    check_name(tenant, "tenant")


def check_claim(task_id: str, worker: str, ttl: float) -> None:
    """A claim's arguments: ``check_name(task_id, "task_id")``, ``check_name(worker,
    "worker")`` and ``check_ttl(ttl)``, in that order, as one call (every claim runs it)."""
    if (ttl.__class__ is float or ttl.__class__ is int) and 0 < ttl <= MAX_TTL:
        if _plain_names(task_id, worker):
            return
    check_name(task_id, "task_id")
    check_name(worker, "worker")
    check_ttl(ttl)


def check_save(lease: Lease, step: int) -> None:
    """A save's arguments: ``check_lease(lease)`` then ``check_step(step)``, as one call."""
    if lease.__class__ is Lease and step.__class__ is int and 0 <= step < MAX_STEP:
        if _plain_names(lease.task_id, lease.worker):
            return
    check_lease(lease)
    if step.__class__ is not int or not 0 <= step < MAX_STEP:
        check_step(step)


def check_heartbeat(lease: Lease, ttl: float) -> None:
    """A heartbeat's arguments: ``check_lease(lease)`` then ``check_ttl(ttl)``, as one call."""
    if (
        lease.__class__ is Lease
        and (ttl.__class__ is float or ttl.__class__ is int)
        and 0 < ttl <= MAX_TTL
        and _plain_names(lease.task_id, lease.worker)
    ):
        return
    check_lease(lease)
    check_ttl(ttl)


def check_lease(lease: Lease) -> None:
    """A :class:`~simlab.records.Lease` (as a claim returned it) with a valid task ID and
    worker name (``record_effect`` stores the worker)."""
    if lease.__class__ is not Lease and not isinstance(lease, Lease):
        raise WrongType(f"lease must be a Lease from claim, got {type(lease).__name__}")
    task_id, worker = lease.task_id, lease.worker
    if _plain_names(task_id, worker):
        return
    check_name(task_id, "lease.task_id")
    check_name(worker, "lease.worker")


def check_max_attempts(max_attempts: int | None) -> None:
    """None (no limit) or an integer of at least 1."""
    if max_attempts is None:
        return
    if not isinstance(max_attempts, int) or isinstance(max_attempts, bool):
        raise WrongType(f"max_attempts must be an integer or None, got {max_attempts!r}")
    if max_attempts < 1:
        raise ValueError(f"max_attempts must be at least 1 or None, got {max_attempts!r}")


def check_max_value_bytes(max_value_bytes: int) -> None:
    """The size limit of a JSON value: an integer of at least 1."""
    if not isinstance(max_value_bytes, int) or isinstance(max_value_bytes, bool):
        raise WrongType(f"max_value_bytes must be an integer, got {max_value_bytes!r}")
    if max_value_bytes < 1:
        raise ValueError(f"max_value_bytes must be at least 1, got {max_value_bytes!r}")


def check_seconds(value: float, what: str) -> None:
    """A finite, non-negative number of seconds (a timeout)."""
    if not _is_number(value):
        raise WrongType(f"{what} must be a number of seconds, got {value!r}")
    if not (value >= 0 and math.isfinite(value)):
        raise ValueError(f"{what} must be a finite number of seconds >= 0, got {value!r}")


def check_ledger_options(
    clock: Any,
    max_attempts: int | None,
    max_value_bytes: int,
    timeout: tuple[float, str] | None = None,
) -> None:
    """The options every ledger takes, checked in this order: ``max_attempts``,
    ``max_value_bytes``, its ``timeout`` (value and name) where it has one, then ``clock`` (a
    function returning the time)."""
    check_max_attempts(max_attempts)
    check_max_value_bytes(max_value_bytes)
    if timeout is not None:
        check_seconds(*timeout)
    if not callable(clock):
        raise TypeError(f"clock must be a function returning the time, got {clock!r}")


def _depth(value: Any) -> int:
    """How deep lists and dicts nest in ``value`` (a scalar is 0), without recursion."""
    deepest = 0
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            item = item.values()
        elif not isinstance(item, (list, tuple)):
            continue
        deepest = max(deepest, depth)
        if depth <= MAX_JSON_DEPTH:
            stack.extend((child, depth + 1) for child in item)
    return deepest


def to_json(value: Any, what: str, max_bytes: int = MAX_VALUE_BYTES) -> str | None:
    """JSON text for ``value`` (None stays None); ``ValueError`` if it is not a JSON value, is
    nested deeper than :data:`MAX_JSON_DEPTH` or is longer than ``max_bytes`` as JSON.

    NaN and infinities are refused: they are not JSON, and other programs could not read them.
    The text is ASCII (non-ASCII is escaped), so its length is its size in bytes.
    """
    if value is None:
        return None
    if isinstance(value, str) and len(value) > max_bytes:
        raise ValueError(f"{what} is larger than {max_bytes} bytes as JSON")
    try:
        text = _encode(value)
    except RecursionError:
        raise ValueError(f"{what} is nested more than {MAX_JSON_DEPTH} levels deep") from None
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{what} must be a JSON value: {exc}") from None
    if len(text) > max_bytes:
        raise ValueError(f"{what} is {len(text)} bytes as JSON, more than the limit {max_bytes}")
    # Cheap first: a short text or one with few brackets cannot nest deeply; only then walk it.
    if (
        len(text) > 2 * MAX_JSON_DEPTH
        and text.count("[") + text.count("{") > MAX_JSON_DEPTH
        and _depth(value) > MAX_JSON_DEPTH
    ):
        raise ValueError(f"{what} is nested more than {MAX_JSON_DEPTH} levels deep")
    return text


#: Short JSON text -> its value, for the values a shallow copy copies (an object or an array
#: of scalars): the same few results are read back again and again (every final record of a
#: simulation holds one), and copying is cheaper than parsing. Its values are never handed out.
_FLAT_VALUES: dict[str, Any] = {}
#: At most this many texts, of at most this many characters, are kept.
_FLAT_VALUES_MAX, _FLAT_TEXT_MAX = 4096, 200
_SCALAR_TYPES = frozenset({str, int, float, bool, type(None)})


def from_json(text: str | None) -> Any:
    """The value stored as ``text`` (None stays None); each call returns a fresh copy."""
    if text is None:
        return None
    if text.__class__ is not str:
        return json.loads(text)
    known = _FLAT_VALUES.get(text)
    if known is not None:
        return known.copy()
    # json.loads's own scanner, called directly: text that is exactly one JSON value (what
    # to_json writes) parses to the same value; anything else goes through json.loads, for the
    # same value or the same error.
    try:
        value, end = _SCAN(text, 0)
    except Exception:
        return json.loads(text)
    if end != len(text):
        return json.loads(text)
    cls = value.__class__
    if (
        (cls is dict or cls is list)
        and end <= _FLAT_TEXT_MAX
        and len(_FLAT_VALUES) < _FLAT_VALUES_MAX
    ):
        scalars = _SCALAR_TYPES
        if all(v.__class__ in scalars for v in (value.values() if cls is dict else value)):
            _FLAT_VALUES[text] = value
            return value.copy()
    return value
