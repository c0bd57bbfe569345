"""The hidden world each question of exercise ``leases`` is judged in.

The notebook's examples use task ``t1``, workers ``A``, ``B``, ``w1``, leases of 10, 30 or 60
seconds and a clock that starts at 0. An answer that types in one of them, ignores the ``ttl``
or ``now`` it is given, or compares task IDs, worker names or effect keys by prefix agrees with
the kit wherever the inputs are the notebook's. So the generated sequences, the e-mail steps and
the worker loop are played in a world drawn from :func:`~simlab.grading.checks.hidden_world.rng`
(``"leases/<question>"``): task IDs, worker names and keys the notebook never shows, where the
first task's ID is a prefix of the second's, the first worker's name a prefix of the second's
and the first key a prefix of the second; tasks whose IDs look like the first's
(:attr:`World.look_alikes`): ``T1``, the first's with its first letter in capitals (an ID
compared with ``LIKE`` or ``COLLATE NOCASE`` matches both), the first's after or before a space
(``trim()``, ``COLLATE RTRIM``), with its first character full-width (NFKC), and the first's
followed by ``*`` (a ``GLOB`` pattern that matches the first); and tasks the ledger never
holds: :data:`UNKNOWN`, the first's ID followed by ``%``, which ``LIKE`` takes for a pattern
that matches the first, and :data:`UNKNOWN_GLOB`, followed by ``?``, which ``GLOB`` takes for
one that matches the second; keys that start with a capital letter, and :data:`KEY_TWIN`, the
first key in other capitals; lease lengths with a fraction of a second, never one the notebook
shows; a clock that starts far from 0; the step an e-mail is sent at and the outputs a loop's
work returns (dicts, lists or whole numbers, never strings: a loop that stores
``str(output)`` stores another value).

A story told to the learner names tasks, workers and keys by their labels (``t1``, ``A``,
``k1``) and never shows a drawn value: the world changes with every edit of the notebook, and
feedback never shows a hidden value anyway.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from simlab.grading.checks.hidden_world import fullwidth, look_alikes, rng

__all__ = [
    "World",
    "world_of",
    "SHOWN_TTLS",
    "OUTPUT_KINDS",
    "LOOK_ALIKES",
    "UNKNOWN",
    "UNKNOWN_GLOB",
    "KEY_TWIN",
]

#: How a story names the tasks whose IDs look like the first's (:attr:`World.look_alikes`):
#: its first letter in capitals, after a space, before a space, its first character
#: full-width, and followed by a ``GLOB`` wildcard. The spaces are shown in quotes.
LOOK_ALIKES = ("T1", "' t1'", "'t1 '", "ｔ1", "t1*")
#: How a story names a task no ledger of the world holds: the first's ID followed by ``%``, so
#: a claim that looks its row up with ``LIKE`` finds the first task (and others) in its place.
UNKNOWN = "t1%"
#: How a story names another task no ledger of the world holds: the first's ID followed by
#: ``?``, which ``GLOB`` takes for a pattern that matches the second task (the first's ID and a
#: digit) and ``t1*``, so a claim that looks its row up with ``GLOB`` finds one of them.
UNKNOWN_GLOB = "t1?"
#: How a story names a key of the first task that differs from ``k1`` only in case (its letters
#: swapped between capitals and small letters): another key, which ``lower()``, ``upper()``,
#: ``LIKE`` and ``COLLATE NOCASE`` take for ``k1``.
KEY_TWIN = "K1"

#: Lease lengths the notebook shows (a world's ttls are never one of them).
SHOWN_TTLS = frozenset({5.0, 10.0, 20.0, 30.0, 60.0})

_TASK_WORDS = ("job", "order", "invoice", "report", "mail", "export", "sync", "batch")
_WORKER_WORDS = ("node", "pod", "host", "runner", "box", "proc")
_KEY_WORDS = ("welcome", "receipt", "notice", "reminder", "digest", "alert")


@dataclass(frozen=True)
class World:
    """The values one question is judged with (labels of the stories on the left)."""

    #: ``t1``, ``t2`` -> task IDs; the first is a prefix of the second.
    tasks: tuple[str, str]
    #: ``A``, ``B``, ``C`` -> worker names; the first is a prefix of the second.
    workers: tuple[str, str, str]
    #: ``k1``, ``k2`` -> effect keys; the first is a prefix of the second. Each starts with a
    #: capital letter and goes on in small ones, so a key stored in other capitals
    #: (``lower(key)``) is another key.
    keys: tuple[str, str]
    #: The two lease lengths for a story's ``10`` and ``20``: ``T`` and ``2T`` seconds, ``T`` a
    #: multiple of 1.25 with a fraction, neither one of :data:`SHOWN_TTLS`. A story's times are
    #: scaled by ``T / 10`` (:attr:`scale`, an exact binary fraction), so a story plays in every
    #: world as it reads, a lease's exact end included.
    ttls: tuple[float, float]
    #: When the clock starts (far from 0, with a fraction).
    start: float
    #: The first step an e-mail is sent at (the steps before it are saved).
    step: int
    #: The drawn word every output of a loop's work holds (see :meth:`work_output`).
    output: str
    #: The worker that takes a loop's task over.
    thief: str
    #: What kind of value a loop's work returns: one of :data:`OUTPUT_KINDS`.
    output_kind: str

    @property
    def twin(self) -> str:
        """``T1`` -> the first task's ID with its first letter in capitals: another task, which
        SQLite's ``LIKE`` and ``COLLATE NOCASE`` take for the first."""
        return self.tasks[0][:1].upper() + self.tasks[0][1:]

    @property
    def look_alikes(self) -> dict[str, str]:
        """The tasks whose IDs differ from the first's only in what an exact comparison must not
        ignore, by label (:data:`LOOK_ALIKES`): :attr:`twin`, the first's ID after a space
        (``trim()`` and ``ltrim()`` take it for the first), before one (``trim()``,
        ``rtrim()``, ``COLLATE RTRIM``), with its first character full-width (NFKC folds it
        back), and the first's ID followed by ``*`` (as a ``GLOB`` pattern it matches the
        first, the second and the one before a space)."""
        first = self.tasks[0]
        forms = (*look_alikes(first)[:3], fullwidth(first[:1]) + first[1:], f"{first}*")
        return dict(zip(LOOK_ALIKES, forms, strict=True))

    @property
    def unknown(self) -> str:
        """:data:`UNKNOWN`: the first task's ID followed by ``%``, a task no ledger holds."""
        return f"{self.tasks[0]}%"

    @property
    def unknown_glob(self) -> str:
        """:data:`UNKNOWN_GLOB`: the first task's ID followed by ``?``, a task no ledger holds."""
        return f"{self.tasks[0]}?"

    def task(self, label: str) -> str:
        if label in ("t1", "t2"):
            return self.tasks[("t1", "t2").index(label)]
        if label == UNKNOWN:
            return self.unknown
        if label == UNKNOWN_GLOB:
            return self.unknown_glob
        return self.look_alikes[label]

    def worker(self, label: str) -> str:
        return self.workers[("A", "B", "C").index(label)]

    def key(self, label: str) -> str:
        if label == KEY_TWIN:
            return self.keys[0].swapcase()
        return self.keys[("k1", "k2").index(label)]

    def ttl(self, label: float) -> float:
        """The world's lease length for a story's ``10`` or ``20``."""
        return self.ttls[0 if label <= 10.0 else 1]

    @property
    def scale(self) -> float:
        """The world's seconds per second of a story."""
        return self.ttls[0] / 10.0

    def work_output(self, step: Any) -> Any:
        """What a loop's work returns for ``step`` (any other value than an int: ``-1``): a
        value of :attr:`output_kind` that holds :attr:`output` and the step, is true, differs
        from step to step, and comes back from a ledger's JSON as it was stored; never a
        string, so ``str(output)`` is another value."""
        n = step if type(step) is int else -1
        if self.output_kind == "dict":
            return {self.output: n, "step": n}
        if self.output_kind == "list":
            return [self.output, n]
        return int(self.output[-2:]) * 1000 + 100 + n

    def shown(self) -> list[str]:
        """The drawn values as they would appear in a sentence: none may reach the feedback."""
        words = [*self.tasks, *self.look_alikes.values(), self.unknown, self.unknown_glob]
        words += [*self.workers, *self.keys, self.key(KEY_TWIN)]
        words += [self.output, self.thief]
        words += [str(self.work_output(n)) for n in range(5)]
        return words + [f"{x:g}" for x in (*self.ttls, self.start)]


#: The kinds of value a loop's work may return in a world (:meth:`World.work_output`).
OUTPUT_KINDS = ("dict", "list", "int")

#: The multiples of 1.25 s a world's shorter lease may last: with a fraction, and neither it nor
#: twice it a length the notebook shows.
_EIGHTHS = tuple(m for m in range(3, 36) if m % 4 and 2.5 * m not in SHOWN_TTLS)


def world_of(question: str) -> World:
    """The world question ``question`` of exercise ``leases`` is judged in (drawn from the
    current hidden world: the same values for the same submission and grader)."""
    source = rng(f"leases/{question}")
    task = f"{source.choice(_TASK_WORDS)}-{source.randint(100, 999)}"
    worker = f"{source.choice(_WORKER_WORDS)}{source.randint(2, 9)}"
    others = [w for w in _WORKER_WORDS if not worker.startswith(w)]
    key = f"{source.choice(_KEY_WORDS).capitalize()}:{source.randint(1, 9)}"
    ttl = 1.25 * source.choice(_EIGHTHS)
    return World(
        tasks=(task, f"{task}{source.randint(1, 9)}"),  # a digit a step number can start with
        workers=(worker, f"{worker}{source.randint(0, 9)}", f"{source.choice(others)}-x"),
        keys=(key, f"{key}{source.randint(0, 9)}"),
        ttls=(ttl, 2 * ttl),
        start=source.randint(1_000, 90_000) + 0.5,
        step=source.randint(2, 7),
        output=f"{source.choice(('out', 'res', 'val'))}{source.randint(10, 99)}",
        thief=f"{source.choice(others)}-t{source.randint(1, 9)}",
        output_kind=source.choice(OUTPUT_KINDS),
    )
