"""Properties of question ``absorber``: generated event streams, the learner's ``Absorber`` beside
the kit's :class:`~simlab.agent.EventAbsorber`, the same releases after every delivery.

A generated stream holds up to three tasks (``A``, ``B``, ``C``) of a few events each. Every
task numbers its events from 1 and gives each a key of its own, drawn from one small pool, so
tasks share keys and sequence numbers with one another. Deliveries come in any order, any
number of times, and long after their event was released. Three kinds of stream, one per
criterion of :data:`~simlab.grading.checks.events.absorber.ABSORBER_RUBRIC`, so a mistake of a
detail never fails the core:

* **once and in order** (:func:`streams`): redeliveries, also of an event already delivered
  under a new ``seq`` (its key was seen for its task, so it is a duplicate);
* **conflicts** (``conflicts=True``): redeliveries, and a different event (a key of its own,
  never used at another ``seq``) for a ``seq`` of the task;
* **versions** (``versions=True``): redeliveries, and events of an unknown version, with the
  key of the event of their ``seq`` or a key of their own.

Cases the exercise text leaves open never occur: a key set aside as a conflict is never
offered again under another ``seq``, and every ``seq`` is 1 or more.

The learner's absorber and the kit's are offered the stream with the world's names
(:func:`generated_names`: drawn task names and keys, some a prefix or a part of another, every
key beginning with a task's name and a number, as ``task:seq:...``); the
story tells the canonical ones. A stream is told as its deliveries, ``A2/k1`` for task ``A``,
``seq`` 2, key ``k1`` (and ``v2`` after an unknown version). What the learner's absorber
released is told by those names only, never by a value its code returned.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

from simlab.agent.events import EVENT_VERSION, AgentEvent, EventAbsorber, is_known_version
from simlab.grading.checks.events.messages import say
from simlab.grading.checks.events.world import Names, key_names, task_names
from simlab.grading.checks.hidden_world import rng
from simlab.grading.properties import Story, falsify, st
from simlab.grading.questions import Fail, require
from simlab.grading.student import RemoteObject, kind_of

__all__ = [
    "TASKS",
    "FIRST_STREAMS",
    "GENERATED_KEYS",
    "generated_names",
    "nth_ordering",
    "absorbs_like_the_kit",
    "falsify_absorber",
    "released",
    "streams",
    "told",
]

#: The tasks of a generated stream.
TASKS = ("A", "B", "C")
#: Events per task at most, and the size of the pool of keys the tasks share.
EVENTS_PER_TASK = 4
#: Deliveries per stream, at least and at most.
MIN_DELIVERIES, DELIVERIES = 3, 10
#: An unknown version (the absorber understands :data:`EVENT_VERSION` only).
UNKNOWN_VERSION = EVENT_VERSION + 1

#: Every key a generated stream can hold: its tasks' own, conflicts' and unknown versions'.
GENERATED_KEYS = tuple(f"{p}{i}" for p in "kcn" for i in range(1, EVENTS_PER_TASK + 1))

# What one drawn delivery is.
_PLAIN, _RENUMBERED, _CONFLICT, _NEWER, _NEWER_OWN_KEY = range(5)


def _delivery(task: str, seq: int, key: str, version: int = EVENT_VERSION) -> dict:
    return AgentEvent(task, seq, version, key, "step", {"step": seq}).to_dict()


def nth_ordering(items: list, n: int) -> list:
    """The ``n``-th ordering of ``items`` (0: as they are; one drawn integer instead of a
    draw per item keeps generating cheap)."""
    items, out = list(items), []
    while items:
        n, i = divmod(n, len(items))
        out.append(items.pop(i))
    return out


@st.composite
def streams(draw: Any, *, conflicts: bool = False, versions: bool = False) -> list[dict]:
    """A stream of deliveries (event dicts) of up to three tasks: see the module's text."""
    tasks = TASKS[: draw(st.integers(1, len(TASKS)))]
    sizes = {t: draw(st.integers(1, EVENTS_PER_TASK)) for t in tasks}
    keys = {}
    for t in tasks:
        pool = nth_ordering(list(range(1, EVENTS_PER_TASK + 1)), draw(st.integers(0, 23)))
        keys[t] = {seq: f"k{pool[seq - 1]}" for seq in range(1, sizes[t] + 1)}
    # Mostly plain deliveries (variant 0, where shrinking goes), the other variants each as
    # often as one plain one.
    variants = [_PLAIN] * 3
    variants += [_CONFLICT] * 2 if conflicts else []
    variants += [_NEWER, _NEWER_OWN_KEY] if versions else []
    variants += [] if conflicts or versions else [_RENUMBERED]
    # One integer per delivery: its task, seq, variant and a pick, the pick most significant
    # (shrinking lowers it first), the task least.
    spans = (len(tasks), EVENTS_PER_TASK, len(variants), EVENTS_PER_TASK)
    codes = draw(
        st.lists(
            st.integers(0, spans[0] * spans[1] * spans[2] * spans[3] - 1),
            min_size=MIN_DELIVERIES,
            max_size=DELIVERIES,
        )
    )
    moves = []
    for code in codes:
        digits = []
        for span in spans:
            code, digit = divmod(code, span)
            digits.append(digit)
        t_index, seq_index, variant, pick = digits
        moves.append((t_index, seq_index, variants[variant], pick))
    delivered: dict[str, list[int]] = {t: [] for t in tasks}  # seqs delivered plainly
    out = []
    for t_index, seq_index, kind, pick in moves:
        task = tasks[t_index]
        seq = seq_index % sizes[task] + 1
        done, due = delivered[task], [s for s in keys[task] if s not in delivered[task]]
        if kind == _RENUMBERED and done:
            # An event already delivered, delivered again numbered as another seq: mostly one
            # not delivered yet (where a seq taken by it would show).
            target = [s for s in (due or keys[task]) if s != done[seq_index % len(done)]]
            seq = target[pick % len(target)] if target else seq
            out.append(_delivery(task, seq, keys[task][done[seq_index % len(done)]]))
        elif kind == _CONFLICT:
            # Every other one for a seq already delivered (it may be waiting), else any seq.
            seq = done[pick // 2 % len(done)] if pick % 2 and done else seq
            out.append(_delivery(task, seq, f"c{seq}"))
        elif kind in (_NEWER, _NEWER_OWN_KEY):
            # Mostly for a seq not delivered yet (where a seq taken by it would show).
            seq = due[pick % len(due)] if due else seq
            key = keys[task][seq] if kind == _NEWER else f"n{seq}"
            out.append(_delivery(task, seq, key, UNKNOWN_VERSION))
        else:
            out.append(_delivery(task, seq, keys[task][seq]))
            delivered[task].append(seq)
    for event in out:  # a task's last event says it is done
        event["kind"] = "done" if event["seq"] == sizes[event["task_id"]] else "step"
    return out


def told(event: tuple | dict) -> str:
    """One delivery, or one released event, as the story tells it: ``A2/k1`` (``v2`` added
    for an unknown version)."""
    if isinstance(event, dict):
        event = (event["task_id"], event["seq"], event["idempotency_key"], event["version"])
    task, seq, key, version = event
    return f"{task}{seq}/{key}" + ("" if is_known_version(version) else f" v{version!r}")


def _ident(event: dict) -> tuple:
    return (event["task_id"], event["seq"], event["idempotency_key"], event["version"])


def released(value: Any) -> list[tuple]:
    """The events one ``offer()`` released, each as ``(task, seq, key, version)``."""
    # The sentences are made only on a failure: this runs for every delivery of every stream.
    if not isinstance(value, list | tuple):
        raise Fail(say("offer_not_a_list", kind=kind_of(value)))
    out = []
    for item in value:
        if not isinstance(item, dict):
            raise Fail(say("offer_not_events", kind=kind_of(item)))
        missing = [f for f in ("task_id", "seq", "idempotency_key") if f not in item]
        if missing:
            raise Fail(say("offer_missing_fields", fields=", ".join(missing)))
        out.append((item["task_id"], item["seq"], item["idempotency_key"], item.get("version")))
    return out


#: Released events named at most, in what went wrong (the rest left out, uncounted: how many
#: the learner's code released is its own number).
SHOWN_EVENTS = 3


def _shown(events: list[tuple]) -> str:
    """Released events (one or more) named as the story names deliveries."""
    names = " ".join(told(e) for e in events[:SHOWN_EVENTS])
    return names + (" ..." if len(events) > SHOWN_EVENTS else "")


def _given(event: tuple, given: set[tuple]) -> bool:
    """Is ``event`` (built from what the learner's code returned) one of the deliveries?"""
    try:
        return event in given
    except TypeError:  # an unhashable value in it: no delivery
        return False


def generated_names() -> Names:
    """The swap of the world (:func:`rng`) for the names of generated streams: drawn task
    names for ``A``, ``B``, ``C`` and drawn keys for :data:`GENERATED_KEYS`."""
    source = rng("events/absorber/generated")
    tasks = task_names(source, len(TASKS))
    keys = key_names(source, len(GENERATED_KEYS))
    number = source.randint(100, 999)
    header = _key_header(source, tasks)
    return Names(
        dict(zip(TASKS, tasks, strict=True)),
        dict(zip(GENERATED_KEYS, (header + key for key in keys), strict=True)),
        number,
    )


def _key_header(source: random.Random, tasks: list[str]) -> str:
    """What every key of a generated stream begins with: one of its tasks' names and a number
    no ``seq`` of the stream reaches, each followed by a colon (``ingest-3:7:``). The keys of
    every task read like ``task:seq:...``, most of them naming another task and a seq that is
    not theirs, so an answer that reads the task or the ``seq`` from a key absorbs another
    stream than the kit. A header shared by all keys keeps the prefixes and parts the drawn
    keys hold of one another."""
    return f"{source.choice(tasks)}:{source.randint(EVENTS_PER_TASK + 1, 9)}:"


def absorbs_like_the_kit(
    new_absorber: Callable[[], Any], names: Names | None = None
) -> Callable[[list[dict], Story], None]:
    """The property: a fresh ``Absorber`` fed ``stream`` with the world's names (``names``,
    by default :func:`generated_names`) releases, after every delivery, what a fresh
    :class:`EventAbsorber` releases. The story tells the canonical names."""
    swap = names or generated_names()

    def holds(stream: list[dict], story: Story) -> None:
        absorber, kit = new_absorber(), EventAbsorber()
        given: set[tuple] = set()
        for delivery in stream:
            story.add(say("delivery", event=told(delivery)))
            world = swap.delivery(delivery)
            given.add(_ident(world))
            want = [_ident(e.to_dict()) for e in kit.offer(AgentEvent.from_dict(world))]
            got = released(absorber.offer(copy.deepcopy(world)))
            if got == want:
                continue
            require(
                all(_given(e, given) for e in got),
                say("not_given"),
            )
            got, want = [swap.canonical(e) for e in got], [swap.canonical(e) for e in want]
            if not got:
                raise Fail(say("released_nothing", want=_shown(want)))
            if not want:
                raise Fail(say("released_extra", got=_shown(got)))
            raise Fail(say("released_instead", got=_shown(got), want=_shown(want)))

    return holds


#: Streams played before the generated ones: a key redelivered under another seq of its task,
#: and one key in two tasks.
FIRST_STREAMS = {
    "plain": [
        [_delivery("A", 1, "k1"), _delivery("A", 2, "k1"), _delivery("A", 2, "k2")],
        [_delivery("A", 1, "k1"), _delivery("B", 1, "k1")],
    ],
    "conflicts": [
        [_delivery("A", 1, "k1"), _delivery("A", 1, "c1")],
        [_delivery("A", 2, "k2"), _delivery("A", 2, "c2"), _delivery("A", 1, "k1")],
    ],
    "versions": [[_delivery("A", 1, "k1", UNKNOWN_VERSION), _delivery("A", 1, "k1")]],
}


def falsify_absorber(
    new_absorber: Callable[[], RemoteObject],
    kind: str,
    examples: int,
    shrinks: int,
    names: Names | None = None,
) -> None:
    """Check the property on ``examples`` generated streams of ``kind`` (``plain``,
    ``conflicts`` or ``versions``), the hand-picked ones first, offered with the world's
    ``names`` (by default :func:`generated_names`)."""
    strategy = streams(conflicts=kind == "conflicts", versions=kind == "versions")
    falsify(
        strategy,
        absorbs_like_the_kit(new_absorber, names),
        examples=examples,
        shrinks=shrinks,
        first=FIRST_STREAMS[kind],
    )
