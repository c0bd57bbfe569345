"""Values on the wire between the grader and the sandbox that runs a student's code.

Only JSON crosses the pipe, never pickle: the sandbox runs untrusted code, and unpickling its
bytes in the grader would let that code run in the grader too. :func:`encode` turns a Python
value into JSON-ready data with a few tagged forms; :func:`decode` rebuilds only plain values and
the kit's own record types, so the worst a student's code can send back is a wrong value.

Tagged forms (every other value is plain JSON; lists stay lists):

``{"$t": [...]}``                  a tuple
``{"$o": {"k": v, ...}}``          a dict whose keys are all strings (insertion order kept)
``{"$d": [[k, v], ...]}``          any other dict (any encodable keys, insertion order kept)
``{"$s": [...]}``                  a set
``{"$f": [...]}``                  a frozenset (hashable: it can come back as a dict key)
``{"$r": "Lease", "f": {...}}``    a record: Lease, TaskRecord, Effect (simlab.records), Event
``{"$H": [...]}``                  a :class:`~simlab.checker.history.History` (its events, in order)
``{"$h": 3, "type": "Ledger"}``    a handle to an object that stays in the sandbox
``{"$x": "TypeName", "repr": ...}`` anything else, opaque (decoded as :class:`Opaque`)

The kit's types that cross as themselves (:data:`KIT_TYPES`: the records and the history) are
found in their modules once those are loaded (:func:`kit_types`), never loaded for the wire's
sake: a value of one exists only once its module is, and decoding one loads it. So a sandbox
whose notebook never imports them does not pay for loading them.

:func:`error_info` is what the sandbox sends of an exception the learner's code raised.

Floats keep NaN and infinities (JSON as Python writes it). Nesting deeper than
:data:`MAX_DEPTH` is cut off as opaque.

Decoding does bounded work per element. The hash of an int, a float or a tuple of them is not
randomized (``hash(n)`` is ``n mod (2**61 - 1)``), so a set or dict of many distinct values that
all hash alike would take quadratic time to build; :func:`decode` groups the keys by hash first
and refuses (``ValueError``) a collection with more than :data:`MAX_SAME_HASH` distinct keys of
one hash, before building it. (The keys of ``$o`` are strings, whose hashes are randomized, and
:func:`json.loads` has built that object already.)
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import math
import numbers
import sys
import threading
from typing import Any

__all__ = [
    "encode",
    "error_info",
    "decode",
    "dumps",
    "loads",
    "Handle",
    "Opaque",
    "KIT_TYPES",
    "kit_types",
    "MAX_DEPTH",
    "MAX_SAME_HASH",
]

MAX_DEPTH = 40
#: Most distinct keys of one set or dict that may share a hash (honest data has a few at most).
MAX_SAME_HASH = 32
#: The kit's types that cross as themselves, by their name on the wire, with the module that
#: defines each: the records (``$r``) and the history (``$H``).
KIT_TYPES = {
    "Lease": "simlab.records",
    "TaskRecord": "simlab.records",
    "Effect": "simlab.records",
    "Event": "simlab.checker.history",
    "History": "simlab.checker.history",
}
#: The kit types found so far (:func:`kit_types`; replaced whole, never changed, so a thread
#: that reads it while another finds one more sees one or the other), the records' field names.
_FOUND: dict[str, type] = {}
_FIELDS: dict[str, tuple[str, ...]] = {}
_RECORD_NAMES: dict[type, str] = {}
_FINDING = threading.Lock()


def kit_types() -> dict[str, type]:
    """Name -> type of each of :data:`KIT_TYPES` whose module is loaded, in their order:
    looked for until found, then kept (a sandbox calls this as each of their modules is
    loaded, before the code that loaded it goes on)."""
    global _FOUND
    if len(_FOUND) == len(KIT_TYPES):
        return _FOUND
    with _FINDING:
        found = {}
        for name, module in KIT_TYPES.items():
            cls = _FOUND.get(name) or getattr(sys.modules.get(module), name, None)
            if isinstance(cls, type):
                if name != "History" and name not in _FIELDS:
                    _FIELDS[name] = tuple(f.name for f in dataclasses.fields(cls))
                    _RECORD_NAMES[cls] = name
                found[name] = cls
        _FOUND = found
    return found


def _kit_type(name: str) -> type | None:
    """The kit type ``name`` (to decode one), its module loaded if need be."""
    if name not in _FOUND and name in KIT_TYPES:
        importlib.import_module(KIT_TYPES[name])
        kit_types()
    return _FOUND.get(name)


@dataclasses.dataclass(frozen=True)
class Handle:
    """A reference to an object living in the sandbox (a ledger, a mailbox...)."""

    id: int
    type: str = "object"


@dataclasses.dataclass(frozen=True, repr=False)
class Opaque:
    """A value the sandbox could not send as data; only its type name and a short repr."""

    type: str
    repr: str = ""

    def __str__(self) -> str:
        return f"a {self.type} object"

    def __repr__(self) -> str:
        return self.repr or f"<{self.type}>"


def _short_repr(value: Any) -> str:
    try:
        text = repr(value)
    except Exception:
        return "?"
    return text if len(text) <= 120 else text[:117] + "..."


_SCALARS = frozenset({type(None), bool, int, float, str})


def encode(value: Any, handles: dict[int, int] | None = None, depth: int = 0) -> Any:
    """JSON-ready data for ``value``; an object whose ``id()`` is in ``handles`` (``id(obj)``
    -> handle id, objects the caller keeps alive) becomes a handle to itself."""
    kind = type(value)
    if kind in _SCALARS:  # the common cases first, by exact type, without the ABC checks below
        return value
    name = _RECORD_NAMES.get(kind)
    plain = kind is list or kind is dict
    if name is None and not plain and (issubclass(kind, str) or isinstance(value, numbers.Real)):
        return _scalar(value)
    if depth > MAX_DEPTH:
        return {"$x": kind.__name__, "repr": "(nested too deeply)"}
    d = depth + 1
    if name is None:
        if handles and id(value) in handles:
            return {"$h": handles[id(value)], "type": kind.__name__}
        if not plain:  # a plain list or dict is no record: skip the search
            found = kit_types()
            name = next(
                (n for n, cls in found.items() if n in _FIELDS and isinstance(value, cls)), None
            )
    if name is not None:
        return {"$r": name, "f": {k: encode(getattr(value, k), handles, d) for k in _FIELDS[name]}}
    # A scalar element is its own encoding (the first line of this function): kept inline.
    # A container is read through its base type's own methods, never a subclass's override
    # (``__iter__``, ``items``...), and told by its type, never by a ``__class__`` it claims:
    # it sends what it holds, whoever asks.
    if issubclass(kind, list):
        items = list.__iter__(value)
        return [v if type(v) in _SCALARS else encode(v, handles, d) for v in items]
    if issubclass(kind, tuple):
        items = tuple.__iter__(value)
        return {"$t": [v if type(v) in _SCALARS else encode(v, handles, d) for v in items]}
    if issubclass(kind, dict):
        pairs = list(dict.items(value))
        if all(type(k) is str for k, _ in pairs):  # names (the common case): a JSON object
            return {
                "$o": {k: v if type(v) in _SCALARS else encode(v, handles, d) for k, v in pairs}
            }
        return {
            "$d": [
                [
                    k if type(k) in _SCALARS else encode(k, handles, d),
                    v if type(v) in _SCALARS else encode(v, handles, d),
                ]
                for k, v in pairs
            ]
        }
    if issubclass(kind, frozenset):
        return {"$f": [encode(v, handles, d) for v in frozenset.__iter__(value)]}
    if issubclass(kind, set):
        return {"$s": [encode(v, handles, d) for v in set.__iter__(value)]}
    if isinstance(value, Handle):
        return {"$h": value.id, "type": value.type}
    history = _FOUND.get("History")
    if history is not None and isinstance(value, history):
        return {"$H": [encode(e, handles, d) for e in value]}
    return {"$x": kind.__name__, "repr": _short_repr(value)}


def _scalar(value: Any) -> Any:
    """A subclass of a JSON scalar (or a number type) as the plain value it stands for."""
    kind = type(value)
    if issubclass(kind, bool):
        return bool(value)
    if issubclass(kind, str):
        return str.__str__(value)
    if issubclass(kind, int):  # its own value, whatever ``__int__`` says
        return int.__index__(value)
    if issubclass(kind, float):
        return float.__float__(value)
    if isinstance(value, numbers.Integral):
        return int(value)
    return float(value)


def _hashable(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_hashable(v) for v in value)
    if isinstance(value, dict):
        return Opaque("dict", _short_repr(value))
    return value


def _unflooded(keys: list) -> list:
    """``keys`` as they are, after checking in linear time that no more than
    :data:`MAX_SAME_HASH` distinct ones share a hash; ``ValueError`` otherwise."""
    if len(keys) <= MAX_SAME_HASH:  # too few to pass the limit, however they hash
        return keys
    groups: dict[int, list] = {}
    for key in keys:
        group = groups.setdefault(hash(key), [])
        if not any(key is other or key == other for other in group):
            if len(group) == MAX_SAME_HASH:
                raise ValueError(f"more than {MAX_SAME_HASH} distinct keys with one hash")
            group.append(key)
    return keys


#: What :func:`json.loads` makes that decodes to itself (a float may be NaN: see :func:`decode`).
_AS_THEY_ARE = frozenset({type(None), bool, int, str})


def decode(data: Any, resolve: Any = None) -> Any:
    """Rebuild a value from :func:`encode` data. ``resolve(handle)`` maps handles to objects
    (the sandbox side); without it, handles stay :class:`Handle`."""
    kind = type(data)
    if kind in _AS_THEY_ARE:  # the common cases first, by exact type
        return data
    if kind is list:
        return [v if type(v) in _AS_THEY_ARE else decode(v, resolve) for v in data]
    if not isinstance(data, dict):
        if isinstance(data, list):
            return [decode(v, resolve) for v in data]
        if isinstance(data, float) and math.isnan(data):
            return math.nan
        return data
    if "$o" in data:
        return {
            k: v if type(v) in _AS_THEY_ARE else decode(v, resolve) for k, v in data["$o"].items()
        }
    if "$t" in data:
        return tuple(decode(v, resolve) for v in data["$t"])
    if "$d" in data:
        # A key or value JSON made as it is (the common case: names and scalars) is kept inline.
        pairs = [
            (
                k if type(k) in _AS_THEY_ARE else _hashable(decode(k, resolve)),
                v if type(v) in _AS_THEY_ARE else decode(v, resolve),
            )
            for k, v in data["$d"]
        ]
        if len(pairs) > MAX_SAME_HASH:
            _unflooded([k for k, _ in pairs])
        return dict(pairs)
    if "$s" in data:
        return set(_unflooded([_hashable(decode(v, resolve)) for v in data["$s"]]))
    if "$f" in data:
        return frozenset(_unflooded([_hashable(decode(v, resolve)) for v in data["$f"]]))
    if "$r" in data:
        cls = _kit_type(data["$r"]) if data["$r"] != "History" else None
        fields = data.get("f") or {}
        if cls is None or not isinstance(fields, dict):
            return Opaque(str(data["$r"]))
        values = {k: decode(fields.get(k), resolve) for k in _FIELDS[data["$r"]]}
        try:
            return cls(**values)
        except (TypeError, ValueError):
            return Opaque(str(data["$r"]))
    if "$H" in data:
        events = decode(data["$H"], resolve)
        event, history = _kit_type("Event"), _kit_type("History")
        if not isinstance(events, list) or not all(type(e) is event for e in events):
            return Opaque("History")
        return history(events)
    if "$h" in data:
        handle = Handle(int(data["$h"]), str(data.get("type", "object")))
        return resolve(handle) if resolve is not None else handle
    if "$x" in data:
        return Opaque(str(data["$x"]), str(data.get("repr", "")))
    return Opaque("unknown")


#: One encoder for every message (``json.dumps`` with separators of its own builds one per
#: call).
_ENCODER = json.JSONEncoder(separators=(",", ":"))


def dumps(message: Any) -> bytes:
    """One message as UTF-8 JSON bytes (the message itself is already encoded data)."""
    return _ENCODER.encode(message).encode()


def loads(raw: bytes) -> Any:
    return json.loads(raw.decode("utf-8", errors="replace"))


def _kit_error(exc: BaseException) -> str | None:
    """The kit's error ``exc`` is, by name (None: none the contract names)."""
    from simlab import errors

    for cls in type(exc).__mro__:
        if cls.__module__ == errors.__name__ and cls.__name__ in errors.__all__:
            return cls.__name__
    for name in ("ValueError", "NotImplementedError", "KeyError", "TypeError"):
        if type(exc).__name__ == name:
            return name
    return None


def error_info(exc: BaseException, cell_prefix: str = "<ipython-input-") -> dict:
    """What the sandbox says of ``exc`` raised by the learner's code: its class's name, the
    kit's error it is (the error of :mod:`simlab.errors` it derives from, or a builtin one the
    contract names), its message on one line (cut), the kit's fields it carries, and the line
    of the cell it came from."""
    info: dict[str, Any] = {"type": type(exc).__name__, "kit": _kit_error(exc)}
    try:
        info["message"] = " ".join(str(exc).split())[:500]
    except Exception:
        info["message"] = ""
    for name in ("task_id", "status", "worker", "lease_until"):
        if hasattr(exc, name):
            try:
                info.setdefault("fields", {})[name] = encode(getattr(exc, name))
            except Exception:
                pass
    if isinstance(exc, SyntaxError):
        info["message"] = str(exc.msg)
        info["line"] = exc.lineno
    else:
        tb = exc.__traceback__
        while tb is not None:
            if tb.tb_frame.f_code.co_filename.startswith(cell_prefix):
                info["line"] = tb.tb_lineno
                info["where"] = tb.tb_frame.f_code.co_filename
            tb = tb.tb_next
    return info
