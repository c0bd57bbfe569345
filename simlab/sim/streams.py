"""The random streams of a run: one ``random.Random`` per source of randomness, each derived
from the run's seed and its own name, so a source's draws never depend on another's.

A run's timing (arrivals, step times, restart delays) has its streams, and each fault kind one
of its own (:mod:`simlab.sim.faults`). :class:`_Streams` makes each when first asked for;
explore tells two runs' timing apart by the streams' positions.
"""

from __future__ import annotations

import functools
import random

from simlab.sim.faults import KINDS

__all__ = ["STREAMS", "TIMING_STREAMS"]

#: The streams that time a run (its arrivals, step times and restart delays), which explore's
#: state tells by their position (:meth:`_Streams.position`).
TIMING_STREAMS = ("arrival", "service", "restart")
#: The independent random streams of a run, one per source of randomness: the timing's, then
#: one per fault kind (:mod:`simlab.sim.faults`).
STREAMS = (*TIMING_STREAMS, *(k.stream for k in KINDS.values()))


@functools.lru_cache(maxsize=4096)
def _stream_state(seed: int, name: str) -> tuple:
    return random.Random(f"simlab:{seed}:{name}").getstate()


class _Counted(random.Random):
    """A ``random.Random`` that counts the 32-bit words of its generator its draws took
    (``words``). Every draw takes its words through :meth:`random` (two) or
    :meth:`getrandbits` (one per 32 bits, none for 0), so the draws are those of
    ``random.Random`` and, from one seeded state, ``(words, gauss_next)`` tells two states apart
    exactly as the states themselves do, without copying the generator's 625 words."""

    words = 0

    def random(self) -> float:
        self.words += 2
        return _random(self)

    def getrandbits(self, k: int) -> int:
        self.words += (k - 1) // 32 + 1 if k > 0 else 0
        return _getrandbits(self, k)


_random, _getrandbits = random.Random.random, random.Random.getrandbits


def _stream(seed: int, name: str) -> random.Random:
    """The random stream ``name`` of a run of ``seed``: ``random.Random("simlab:SEED:NAME")``,
    its seeded state kept, since seeding from a string hashes it (a search runs thousands of
    runs of one seed). A timing stream is :class:`_Counted`."""
    stream = random.Random.__new__(_Counted if name in TIMING_STREAMS else random.Random)
    stream.setstate(_stream_state(seed, name))
    return stream


class _Streams(dict):
    """The random streams of a run of ``seed`` by name (:data:`STREAMS`), each made when first
    asked for: a stream's draws depend only on its seed and name, so when it is made changes
    nothing, and a run whose faults come from a schedule never makes the fault kinds' ones."""

    def __init__(self, seed: int) -> None:
        super().__init__()
        self.seed = seed

    def __missing__(self, name: str) -> random.Random:
        if name not in STREAMS:
            raise KeyError(name)
        stream = self[name] = _stream(self.seed, name)
        return stream

    def position(self, name: str) -> tuple[int, float | None]:
        """Where timing stream ``name`` is in its draws, ``(words, gauss_next)`` (see
        :class:`_Counted`): two runs of one seed have equal positions exactly when the
        stream's states are equal. A stream not made yet is at its seeded state, and is not
        made to tell it."""
        stream = self.get(name)
        if stream is None:
            return (0, None)
        return (stream.words, stream.gauss_next)
