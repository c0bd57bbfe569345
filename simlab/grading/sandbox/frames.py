"""Frames between the grader and a sandbox: a length, then that many bytes of JSON.

The grader never trusts what comes up the pipe. :func:`read_frame` waits at most until a
deadline for the *whole* frame (half a frame written by the student's code is a timeout, not a
hang), refuses a length over its limit before reading a byte of it, and :func:`parse_frame`
refuses bytes that are not UTF-8 JSON, that nest deeper than :data:`MAX_FRAME_DEPTH` or that hold
more than :data:`MAX_FRAME_VALUES` values (so the work of decoding a reply is bounded). Each
failure is a :class:`FrameError` with one line saying what went wrong. Writes have a deadline
too: a sandbox that stops reading cannot block the grader.
"""

from __future__ import annotations

import json
import os
import re
import select
import struct
import time
from typing import Any

__all__ = [
    "FrameError",
    "send_frame",
    "read_frame",
    "wait_ready",
    "parse_frame",
    "measure",
    "nesting",
    "values_bound",
    "MAX_FRAME_DEPTH",
    "MAX_FRAME_VALUES",
]

HEADER = struct.Struct(">I")
#: Deepest JSON nesting accepted from a sandbox (a value nested MAX_DEPTH deep encodes to
#: at most three JSON levels per level, plus the envelope).
MAX_FRAME_DEPTH = 160
#: Most JSON values (lists, objects, scalars, keys not counted) one reply may hold.
MAX_FRAME_VALUES = 1_000_000


class FrameError(Exception):
    """A frame could not be read or parsed. ``kind`` is ``timeout``, ``partial``, ``closed``,
    ``oversized``, ``malformed``, ``deep`` or ``large``; ``reason`` is one line for the feedback."""

    def __init__(self, kind: str, reason: str):
        super().__init__(reason)
        self.kind = kind
        self.reason = reason


def wait_ready(fd: int, deadline: float, events: int = select.POLLIN) -> bool:
    """Whether ``fd`` is ready for ``events`` (by default: has a byte to read, or is closed) by
    ``deadline``; it looks once even when the deadline has passed, and reads nothing."""
    poller = select.poll()
    poller.register(fd, events)
    while True:
        left = deadline - time.monotonic()
        if poller.poll(max(0, int(left * 1000) + 1) if left > 0 else 0):
            return True
        if time.monotonic() >= deadline:
            return False


def send_frame(fd: int, payload: bytes, deadline: float | None = None) -> None:
    """Write one frame; with a deadline (and ``fd`` non-blocking), raise
    ``FrameError("timeout")`` when the reader does not take it in time. ``OSError`` (a closed
    pipe) propagates."""
    view = memoryview(HEADER.pack(len(payload)) + payload)
    while view:
        try:
            view = view[os.write(fd, view[: 1 << 16]) :]
        except BlockingIOError:  # the pipe is full: wait until the reader takes some
            if deadline is not None and not wait_ready(fd, deadline, select.POLLOUT):
                raise FrameError("timeout", "stopped reading its requests") from None


def _read_exact(fd: int, n: int, deadline: float | None, started: bool, blocking: bool) -> bytes:
    """``n`` bytes by ``deadline`` (None: however long it takes). A blocking ``fd`` is read
    only once it has bytes when there is a deadline (so it never blocks past it); a
    non-blocking one is read at once, and waited for only when it has none yet."""
    data = bytearray()
    while len(data) < n:
        if blocking and deadline is not None and not wait_ready(fd, deadline):
            raise _late(started or bool(data))
        try:
            chunk = os.read(fd, min(n - len(data), 1 << 20))
        except BlockingIOError:  # nothing to read yet
            if deadline is None:
                poller = select.poll()
                poller.register(fd, select.POLLIN)
                poller.poll()
            elif not wait_ready(fd, deadline):
                raise _late(started or bool(data)) from None
            continue
        except OSError:  # the other end is gone
            chunk = b""
        if not chunk:
            if started or data:
                raise FrameError("partial", "stopped in the middle of a reply")
            raise FrameError("closed", "stopped")
        data += chunk
    return bytes(data)


def _late(started: bool) -> FrameError:
    if started:
        return FrameError("partial", "sent an incomplete reply and then nothing")
    return FrameError("timeout", "did not answer in time")


def read_frame(fd: int, deadline: float | None, max_size: int) -> bytes:
    """Read one whole frame before ``deadline`` (``time.monotonic()``; None: no deadline) and
    return its payload."""
    blocking = os.get_blocking(fd)
    (size,) = HEADER.unpack(_read_exact(fd, HEADER.size, deadline, False, blocking))
    if size > max_size:
        raise FrameError("oversized", f"sent back {size:,} bytes, more than {max_size:,}")
    return _read_exact(fd, size, deadline, True, blocking)


def measure(value: Any, max_depth: int, max_values: int) -> tuple[int, int]:
    """``(depth, values)``: how deep lists and dicts nest in ``value`` and how many values it
    holds; the walk stops as soon as either passes its limit, so it costs at most
    ``max_values + 1`` steps whatever ``value`` is."""
    deepest = count = 0
    stack = [(value, 1)]
    while stack:
        item, level = stack.pop()
        count += 1
        if count > max_values:
            break
        if isinstance(item, (list, dict)):
            deepest = max(deepest, level)
            if deepest > max_depth:
                break
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, level + 1) for child in children)
    return deepest, count


def values_bound(payload: bytes) -> int:
    """At least the number of JSON values ``payload`` can hold, counted in its bytes without
    parsing it: every value but the first follows a comma or opens a list or an object."""
    return payload.count(b",") + payload.count(b"[") + payload.count(b"{") + 1


#: A JSON string: a quote, then characters other than quotes and backslashes, or escapes.
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
#: Brackets as parentheses (opening ``(``, closing ``)``); every other byte is dropped.
_AS_PARENTHESES = bytes.maketrans(b"[{]}", b"(())")
_NOT_BRACKETS = bytes(sorted(set(range(256)) - set(b"[{]}")))


def nesting(payload: bytes, limit: int) -> int:
    """How deep lists and objects nest in ``payload`` (JSON that parses), counted only up to
    ``limit + 1``: :func:`measure`'s depth of its value, read from the bytes. Its brackets
    outside strings, each pass removing every innermost pair: the passes it takes to empty
    them are the depth. Each pass runs at C speed over two bytes per list or object, and there
    are at most ``limit + 1`` of them."""
    brackets = _STRING.sub(b"", payload).translate(_AS_PARENTHESES, _NOT_BRACKETS)
    depth = 0
    while brackets and depth <= limit:
        brackets = brackets.replace(b"()", b"")
        depth += 1
    return depth


def parse_frame(payload: bytes) -> Any:
    """The JSON value of a frame's payload; ``FrameError`` when it is not UTF-8 JSON, nests
    deeper than :data:`MAX_FRAME_DEPTH` or holds more than :data:`MAX_FRAME_VALUES` values.
    A payload that may hold more values is refused before it is parsed, so the grader never
    builds more objects than the limit (a frame of small values is mostly objects); only a
    payload with more brackets than :data:`MAX_FRAME_DEPTH` can nest deeper, so only such a
    one's nesting is read from its bytes (:func:`nesting`) after parsing."""
    brackets = payload.count(b"[") + payload.count(b"{")
    if payload.count(b",") + brackets >= MAX_FRAME_VALUES:
        # Commas and brackets inside strings count in that bound: count again outside them,
        # scanning the bytes without building any value.
        outside = _STRING.sub(b'""', payload)
        if values_bound(outside) > MAX_FRAME_VALUES:
            raise FrameError("large", f"sent back a reply of more than {MAX_FRAME_VALUES:,} values")
    try:
        value = json.loads(payload.decode("utf-8"))
    except RecursionError:
        raise FrameError("deep", "sent back a reply nested too deeply") from None
    except (UnicodeDecodeError, ValueError):
        raise FrameError("malformed", "sent back a malformed reply (not JSON)") from None
    if brackets > MAX_FRAME_DEPTH and nesting(payload, MAX_FRAME_DEPTH) > MAX_FRAME_DEPTH:
        raise FrameError("deep", "sent back a reply nested too deeply")
    return value
