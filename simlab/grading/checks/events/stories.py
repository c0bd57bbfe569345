"""The hand-written stories of question ``absorber`` (:mod:`~simlab.grading.checks.events.absorber`)
whose names are drawn with a twist of their own: names that begin with or hold one another, names
that differ only in capitals, white space or Unicode form, conflicting keys that sort and measure
both ways, and keys seen long ago delivered again under a new ``seq``; one task of hundreds of
events, one task's events beyond a gap of over a thousand seqs (then its first key again under a
new ``seq``), and versions that only look like 1.
Each story is written with canonical names (tasks ``P``, ``E``, ``job-3``...) and, where its
names need more than a plain draw, comes with its swap
(:class:`~simlab.grading.checks.events.world.Names`) from the world's
:func:`~simlab.grading.checks.hidden_world.rng`.
"""

from __future__ import annotations

from simlab.agent.events import EVENT_VERSION, AgentEvent
from simlab.grading.checks.events.world import (
    ACCENTED,
    KEY_TAIL,
    Names,
    key_names,
    stream_names,
)
from simlab.grading.checks.hidden_world import decomposed, fullwidth, rng

__all__ = [
    "LOOKALIKE_VERSIONS",
    "RELEASED_BEFORE",
    "WIDE_GAP",
    "story_event",
    "story_label",
    "conflicting_names",
    "exact_names",
    "long_task",
    "lookalike_versions",
    "renumbered_long_after",
    "similar_names",
    "unicode_names",
    "unknown_versions_drawn",
    "wide_gap",
]


def story_event(
    task: str,
    seq: int,
    key: str | None = None,
    version: object = EVENT_VERSION,
    kind: str = "step",
) -> dict:
    """An event of a story as a dict: its key ``task:seq:kind`` unless given, its version as
    given (whatever its type)."""
    key = key or f"{task}:{seq}:{kind}"
    return AgentEvent(task, seq, version, key, kind, {"tokens": seq}).to_dict()


def story_label(story: str) -> str:
    """The world's source of the names of one story."""
    return f"events/absorber/{story}"


#: Events a task has released before its keys come back under new seqs: more than an
#: absorber that remembers only its latest keys keeps.
RELEASED_BEFORE = 12


def renumbered_long_after() -> list[dict]:
    """A story of keys seen long ago: a task's first :data:`RELEASED_BEFORE` events delivered
    and released in order, then the keys of its first, a middle and its next to last event,
    each delivered again under the next seq (a duplicate: its key was seen for its task), then
    the next seq's own event and the one after it. An absorber that forgets the keys of events
    released a while ago releases a duplicate there."""
    n = RELEASED_BEFORE
    events = [story_event("job-10", seq) for seq in range(1, n + 3)]
    again = [{**events[seq - 1], "seq": n + 1} for seq in (1, n // 2, n - 1)]
    return [*events[:n], *again, events[n], events[n + 1]]


def similar_names() -> tuple[list[dict], Names]:
    """A story of names that begin with or hold one another, and its swap: task ``Q`` is
    task ``P``'s name and a ``1``, so ``P``'s seq 11 and ``Q``'s seq 1 read alike run
    together; in tasks ``R`` and ``S`` each key begins with, or holds, another key of its
    task, offered the shorter first in one task and the longer first in the other."""
    source = rng(story_label("similar"))
    long = [story_event("P", seq) for seq in range(1, 13)]
    short = [story_event("Q", seq) for seq in (1, 2, 3)]
    stream = [short[0], *long[:10], short[1], long[10], long[11], short[2]]
    stream += [
        story_event("R", 1, key="r1"),
        story_event("R", 2, key="r2"),
        story_event("R", 3, key="r3"),
    ]
    stream += [
        story_event("S", 1, key="s1"),
        story_event("S", 2, key="s2"),
        story_event("S", 3, key="s3"),
    ]
    stream += [story_event("R", 2, key="r2"), story_event("S", 1, key="s1")]  # duplicates still go
    names = stream_names(story_label("similar"), stream)
    names.tasks["Q"] = names.tasks["P"] + "1"
    for task in ("R", "S"):
        while names.tasks[task] in (names.tasks["P"], names.tasks["Q"]):
            names.tasks[task] = "x" + names.tasks[task]
    stems = key_names(source, 2)
    tail = source.choice("abcdef0123456789")
    letter = source.choice("ghjkmnpqrstuvwxyz")
    # R: the longer key first (then a part of it); S: the shorter first (then one beginning
    # with it); each task's third key holds the others.
    r, s = stems
    names.keys.update(r1=r + tail, r2=r, r3=letter + r + tail, s1=s, s2=s + tail, s3=letter + s)
    return stream, names


def conflicting_names() -> tuple[list[dict], Names]:
    """A story of conflicts, and its swap: in one task, two events for a waiting ``seq``
    whose second key is the first one's and a character more (it sorts after the first and
    is longer), two for another waiting ``seq`` whose second key is the first one's less its
    last character (it sorts before the first and is shorter), then the gaps filled, then a
    different event for a released ``seq``; then the keys of the three events dropped, each
    carried by an event of a new ``seq`` (the second of them beyond a gap). The kit keeps the
    first event of each ``seq``, so an answer that lets the smaller or the larger key win, or
    the shorter or the longer, or the last, releases a second one in every world; and it
    forgets a dropped event, key and all, so an answer that counts a dropped event's key as
    seen never releases the new ``seq``s."""
    stream = [
        story_event("job-3", 2, key="a2"),
        story_event("job-3", 2, key="b2"),
        story_event("job-3", 4, key="a4"),
        story_event("job-3", 4, key="b4"),
        story_event("job-3", 1),
        story_event("job-3", 3),
        story_event("job-3", 3, key="other"),
        story_event("job-3", 5, key="b2"),
        story_event("job-3", 7, key="other"),
        story_event("job-3", 6, key="b4"),
    ]
    names = stream_names(story_label("conflict"), stream)
    taken = set(names.keys.values())
    for longer, shorter in (("b2", "a2"), ("a4", "b4")):
        stem = names.keys[shorter]
        grown = next(stem + c for c in KEY_TAIL if stem + c not in taken)
        names.keys[longer] = grown
        taken.add(grown)
    return stream, names


#: White space a drawn name may get around it, in names that differ only by it.
_SPACES = (" ", "\t", "  ")


def exact_names() -> tuple[list[dict], Names]:
    """A story of names that differ only in capitals or in white space around them, and its
    swap: task ``F`` is task ``E``'s name in other capitals, ``G`` and ``H`` are ``E``'s name
    with white space after it and before it, each task numbered from 1 and the four
    interleaved after ``E`` is well along; in task ``K`` the keys of seqs 1 to 4 are one drawn
    key in capitals, as drawn, with white space after it and before it (each name one of a
    kind: drawn names are in lower case, without white space). The kit releases every
    event once, so an answer that folds capitals or strips white space from a task ID or a key
    takes two tasks, or two events, for one."""
    source = rng(f"{story_label('exact')}/twins")
    family = [story_event(task, seq) for task, seq in (("E", 1), ("E", 2), ("F", 1), ("G", 1))]
    family += [story_event(task, seq) for task, seq in (("F", 2), ("H", 1), ("G", 2), ("H", 2))]
    keyed = [story_event("K", seq, key=f"k{seq}") for seq in (1, 2, 3, 4)]
    stream = [*family, *keyed, story_event("K", 2, key="k2"), family[2]]  # duplicates still go
    names = stream_names(story_label("exact"), stream)
    task = names.tasks["E"]
    names.tasks["F"] = source.choice((task.upper(), task[:1].upper() + task[1:]))
    names.tasks["G"] = task + source.choice(_SPACES)
    names.tasks["H"] = source.choice(_SPACES) + task
    key = names.keys["k2"]  # drawn in lower case: its capitals are no other drawn key
    after, before = source.choice(_SPACES), source.choice(_SPACES)
    names.keys.update(k1=key.upper(), k2=key, k3=key + after, k4=before + key)
    return stream, names


def unicode_names() -> tuple[list[dict], Names]:
    """A story of names that differ only in Unicode form, and its swap: task ``U``'s name ends
    in a word with a composed accent, ``V`` is that name decomposed (NFC composes it again) and
    ``W`` is it with its first letter full-width (NFKC folds it back), the three numbered from
    1 and interleaved; in task ``X`` the keys of seqs 1 to 3 are one drawn key ending in such
    a word, that key decomposed, and it with its first letter full-width. The kit releases
    every event once, so an answer that normalises a task ID or a key takes two tasks, or two
    events, for one."""
    source = rng(f"{story_label('forms')}/twins")
    family = [story_event(task, seq) for task, seq in (("U", 1), ("V", 1), ("U", 2), ("W", 1))]
    family += [story_event(task, seq) for task, seq in (("V", 2), ("W", 2), ("U", 3))]
    keyed = [story_event("X", seq, key=f"x{seq}") for seq in (1, 2, 3)]
    stream = [*family, *keyed, story_event("X", 2, key="x2"), family[1]]  # duplicates still go
    names = stream_names(story_label("forms"), stream)
    task = f"{names.tasks['U']}-{source.choice(ACCENTED)}"
    names.tasks.update(U=task, V=decomposed(task), W=fullwidth(task[:1]) + task[1:])
    key = f"{names.keys['x1']}{source.choice(ACCENTED)}"
    names.keys.update(x1=key, x2=decomposed(key), x3=fullwidth(key[:1]) + key[1:])
    return stream, names


def long_task() -> list[dict]:
    """A story of one task of more events than CPython has shared int objects for (-5 to
    256): a drawn number of its first events, well past seq 256, in order, then the rest in
    reverse order (the last offer releases them all). An answer that compares seqs with
    ``is`` stops releasing at seq 257."""
    source = rng(story_label("long"))
    last, in_order = source.randint(300, 340), source.randint(262, 290)
    events = [story_event("job-13", seq) for seq in range(1, last + 1)]
    return [*events[:in_order], *reversed(events[in_order:])]


#: The story of a wide gap draws its last seq between these two: past a window of 1024 seqs,
#: the widest a bounded absorber is likely to keep (of events waiting, or of keys seen).
WIDE_GAP = (1030, 1200)


def wide_gap() -> list[dict]:
    """A story of a gap of over a thousand seqs: a task's first event, then its events from a
    drawn seq (:data:`WIDE_GAP`) down to 2, the highest first (each waits: it is beyond the
    next one expected), so that offer releases them all; then the key of its first event,
    delivered again under the next seq (a duplicate: its key was seen for its task, long
    ago), and that seq's own event. An answer that waits only for events a bounded distance
    ahead, or holds only so many waiting, drops one of them; one that remembers only the keys
    of its latest seqs releases the duplicate."""
    last = rng(story_label("wide-gap")).randint(*WIDE_GAP)
    events = [story_event("job-14", seq) for seq in range(1, last + 2)]
    again = {**events[0], "seq": last + 1}
    return [events[0], *reversed(events[1:last]), again, events[last]]


#: Versions equal to 1 in Python (``True == 1``, ``1.0 == 1``) or written as it (``"1"``), none
#: of which is version 1: the text says version 1 is the ``int`` 1 as given.
LOOKALIKE_VERSIONS = (True, 1.0, "1")


def lookalike_versions() -> list[dict]:
    """A story of versions that only look like 1: a task's seqs 1 to 3 each delivered first at
    one of :data:`LOOKALIKE_VERSIONS` (in a drawn order) with a key of its own, then at version
    1, then its seq 4. The kit releases the version-1 events only, so an answer that compares
    the version by equality (``True == 1``, ``1.0 == 1``) or by its text (``"1"``) releases a
    look-alike in place of a version-1 event."""
    versions = list(LOOKALIKE_VERSIONS)
    rng(story_label("version-as-given")).shuffle(versions)
    stream = []
    for seq, version in enumerate(versions, start=1):
        stream.append(story_event("job-15", seq, key=f"job-15:{seq}:odd", version=version))
        stream.append(story_event("job-15", seq))
    return [*stream, story_event("job-15", len(versions) + 1)]


def unknown_versions_drawn() -> tuple[int, int]:
    """The unknown versions of this world's two stories of unknown versions, in a drawn order:
    one below the known version (0) and one above it (drawn), so an absorber that sets aside
    only newer versions, or only one typed-in version, releases one of them."""
    r = rng("events/absorber/versions")
    pair = [EVENT_VERSION - 1, EVENT_VERSION + r.randint(1, 9)]
    r.shuffle(pair)
    return pair[0], pair[1]
