"""The hidden world a submission is judged in: values no answer can foresee.

An answer that types in the numbers the exercise's story gives, reads a value from the wrong
source or ignores an argument agrees with the reference wherever the reference's inputs are
the ones the notebook shows. So every question is also judged in a *world* drawn at grading
time: ledgers, clocks, tenants, lease lengths, inputs and seeds chosen by a check from
:func:`rng`.

The world's seed is derived from the submission's bytes and the grader version
(:func:`seed_for`): the same notebook gets the same world, hence the same grade, in a plain run
and on the queue; an edited notebook or a new grader draws another. The seed and the code that
turns it into a world live in the grader's process only (this module sits with the hidden
checks, which the jail sees as an empty folder), so an answer that tries to detect its world
has nothing to read.

Outside a grading run (a check called directly, a test) the world is the one of seed 0.
"""

from __future__ import annotations

import contextlib
import hashlib
import random
import unicodedata
from collections.abc import Iterator
from contextvars import ContextVar

__all__ = [
    "seed_for",
    "judged_in",
    "current_seed",
    "rng",
    "choice_besides",
    "fullwidth",
    "decomposed",
    "look_alikes",
]

_SEED: ContextVar[int] = ContextVar("simlab_world_seed", default=0)


def seed_for(content: bytes, version: str) -> int:
    """The world seed of a submission with these bytes, graded at grader ``version``."""
    digest = hashlib.sha256(hashlib.sha256(content).digest() + b"\0" + version.encode())
    return int.from_bytes(digest.digest()[:8], "big")


@contextlib.contextmanager
def judged_in(seed: int) -> Iterator[int]:
    """Judge in the world of ``seed`` inside the block (per thread: each grading thread sets
    its own)."""
    token = _SEED.set(seed)
    try:
        yield seed
    finally:
        _SEED.reset(token)


def current_seed() -> int:
    """The seed of the world being judged in (0 outside a grading run)."""
    return _SEED.get()


def rng(name: str) -> random.Random:
    """A random source of its own for ``name`` (a check's own label, e.g.
    ``"fencing/cancel-limits"``), derived from the current world: the same name in the same
    world always draws the same values, and two names never share a stream."""
    digest = hashlib.sha256(f"{current_seed()}:{name}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def choice_besides(source: random.Random, options: list, avoid: object) -> object:
    """One of ``options`` other than ``avoid`` (the value the notebook's own example shows), so
    a hidden world never happens to be the example an answer could have typed in."""
    left = [o for o in options if o != avoid]
    if not left:
        raise ValueError("no option besides the shown one")
    return source.choice(left)


def fullwidth(text: str) -> str:
    """``text`` with its printable ASCII characters (space aside) in their full-width forms
    (``ａｃｍｅ``): another name, which NFKC normalisation turns back into ``text``."""
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


def decomposed(text: str) -> str:
    """``text`` in Unicode normal form NFD (an accented letter as a letter and a combining
    accent): another name wherever ``text`` holds a composed accent, which NFC turns back."""
    return unicodedata.normalize("NFD", text)


def look_alikes(name: str) -> tuple[str, ...]:
    """The names that differ from ``name`` only in what an exact comparison must not ignore:
    its first letter in capitals, white space before it and after it, its first character
    full-width (NFKC folds it back) and, where it holds a composed accent, ``name``
    decomposed (NFC composes it again). Each differs from ``name`` and from the others."""
    forms = (
        name[:1].upper() + name[1:],
        f" {name}",
        f"{name} ",
        fullwidth(name[:1]) + name[1:],
        decomposed(name),
    )
    return tuple(dict.fromkeys(form for form in forms if form != name))
