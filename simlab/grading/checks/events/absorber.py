"""Question ``absorber`` of exercise ``events``: the learner's ``Absorber`` class
(``offer(event) -> list`` of released events, events as dicts) is fed streams the learner has
not seen, built from seeded at-least-once deliveries (:func:`simlab.agent.events.at_least_once`)
of several interleaved tasks, plus hostile ones: an event delivered many times, a task's events
in reverse order, one task's gap while another task flows, duplicates long after their task
finished, keys seen long ago delivered again under a new ``seq``, two different events claiming
one ``seq`` (whichever of their keys is the smaller or the shorter), an unknown version, versions
that equal 1 without being the ``int`` 1 (``True``, ``1.0``, ``"1"``). After
every delivery the released events must be exactly those :class:`~simlab.agent.EventAbsorber`
releases. Beside these stories, each criterion has a property on generated streams that reuse
keys and sequence numbers within and across tasks
(:mod:`~simlab.grading.checks.events.streams`), whose shortest counterexample is the feedback.

Every stream is offered in the submission's hidden world
(:mod:`~simlab.grading.checks.events.world`): drawn task names and opaque keys, some a prefix
or a part of another, drawn payloads and drawn bus seeds; one story runs a task's name and a
``seq`` together into another task's, others offer tasks and keys whose names differ only in
capitals, in white space around them or in Unicode form, one task of hundreds of events and
one task's events beyond a gap of over a thousand seqs, then its first key under a new ``seq``.
A part (:mod:`~simlab.grading.checks.events.given`) offers dicts made and kept in the
sandbox, each holding a payload dict kept there too, so only those very dicts count as handed
back, in a list of the call's own (read again after the last offer, it holds what it held),
and only unchanged: no field added, removed or altered, the payload the very dict given.

The parts are filed under :data:`ABSORBER_RUBRIC`: the core idea (each event once, in ``seq``
order, per task) weighs 3 of 6 points; handing back the dicts given, conflicts and unknown
versions one point each. Feedback names the kind of stream and what went wrong, never the
hidden stream itself nor a drawn name (they are the tally's hidden strings).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from typing import Any

from simlab.agent.events import (
    EVENT_VERSION,
    AgentEvent,
    EventAbsorber,
    at_least_once,
    is_known_version,
)
from simlab.grading.checks.events.given import hands_back_the_dicts
from simlab.grading.checks.events.messages import say
from simlab.grading.checks.events.stories import (
    conflicting_names,
    exact_names,
    long_task,
    lookalike_versions,
    renumbered_long_after,
    similar_names,
    story_event,
    story_label,
    unicode_names,
    unknown_versions_drawn,
    wide_gap,
)
from simlab.grading.checks.events.streams import falsify_absorber, generated_names, released
from simlab.grading.checks.events.world import Names, stream_names
from simlab.grading.checks.hidden_world import rng
from simlab.grading.messages import Message
from simlab.grading.questions import Criterion, Fail, Tally
from simlab.grading.student import RemoteObject, Student

__all__ = [
    "ABSORBER_RUBRIC",
    "BUS_STREAMS",
    "DIAGNOSES",
    "STREAMS",
    "absorber_check",
    "bus_streams",
    "reference_releases",
    "task_events",
    "unknown_versions_drawn",
]


def task_events(tasks: int, steps: int, *, prefix: str = "job") -> list[AgentEvent]:
    """The events of ``tasks`` tasks of ``steps`` steps each, published interleaved (one step
    of each task in turn), as the agent's runner numbers them."""
    out = []
    for seq in range(1, steps + 1):
        for t in range(tasks):
            task = f"{prefix}-{t + 1}"
            kind = "done" if seq == steps else f"step-{seq}"
            payload = {"tokens": 10 * seq + t}
            out.append(AgentEvent(task, seq, EVENT_VERSION, f"{task}:{seq}:{kind}", kind, payload))
    return out


#: The bus streams each part replays: name -> tasks, steps, the streams' labels (``seeds``: one
#: stream each, its bus seed drawn from the world) and the bus's faults.
BUS_STREAMS: dict[str, dict[str, Any]] = {
    "duplicates": {"tasks": 3, "steps": 4, "seeds": (11, 12, 13), "rate": 0.6, "delay": 0},
    "reordering": {"tasks": 3, "steps": 5, "seeds": (21, 22, 23), "rate": 0.0, "delay": 6},
    "both": {"tasks": 4, "steps": 5, "seeds": tuple(range(31, 37)), "rate": 0.4, "delay": 8},
}


def bus_streams(name: str) -> list[list[AgentEvent]]:
    """The deliveries of the bus streams called ``name`` in :data:`BUS_STREAMS`, one per label
    in its ``seeds``: each bus seed is drawn from the world (:func:`rng`), again until the
    stream has the faults its name promises (copies when the bus duplicates, an event before
    the one below it when it delays)."""
    spec = BUS_STREAMS[name]
    events = task_events(spec["tasks"], spec["steps"])
    out = []
    for label in spec["seeds"]:
        source = rng(f"events/absorber/bus/{name}/{label}")
        while True:
            stream = at_least_once(
                events,
                seed=source.randrange(2**32),
                duplicate_rate=spec["rate"],
                max_delay=spec["delay"],
            )
            if _faults(stream) == (spec["rate"] > 0, spec["delay"] > 0):
                out.append(stream)
                break
    return out


def _faults(stream: list[AgentEvent]) -> tuple[bool, bool]:
    """Does ``stream`` hold a copy, and an event delivered before the seq below it?"""
    first: dict[tuple[str, int], int] = {}
    for i, e in enumerate(stream):
        first.setdefault((e.task_id, e.seq), i)
    overtakes = any(first[(t, s + 1)] < first[(t, s)] for t, s in first if (t, s + 1) in first)
    return len(stream) > len(first), overtakes


def reference_releases(stream: list[dict]) -> list[list[tuple[str, int, str]]]:
    """For each delivery of ``stream``, what :class:`EventAbsorber` releases (as
    ``(task, seq, key)``)."""
    absorber = EventAbsorber()
    return [
        [(e.task_id, e.seq, e.idempotency_key) for e in absorber.offer(AgentEvent.from_dict(d))]
        for d in stream
    ]


def _as_dicts(events: list[AgentEvent]) -> list[dict]:
    return [e.to_dict() for e in events]


def _released(value: Any) -> list[tuple[str, int, str]]:
    """What one ``offer()`` released, as ``(task, seq, key)``."""
    return [event[:3] for event in released(value)]


#: What an absorber got wrong, as the feedback says it (after "the absorber").
DIAGNOSES = {
    "twice": say("why_twice"),
    "version": say("why_version", version=EVENT_VERSION),
    "set-aside": say("why_set_aside"),
    "order": say("why_order"),
    "lost": say("why_lost"),
    "late": say("why_late"),
}

#: The kinds of stream the parts replay, as the feedback names them (never the stream itself).
STREAMS = {
    "clean": say("stream_clean"),
    "duplicates": say("stream_duplicates"),
    "many": say("stream_many"),
    "interleaved": say("stream_interleaved"),
    "reordering": say("stream_reordering"),
    "backwards": say("stream_backwards"),
    "both": say("stream_both"),
    "gap": say("stream_gap"),
    "late-start": say("stream_late_start"),
    "late": say("stream_late"),
    "late-renumbered": say("stream_late_renumbered"),
    "conflict": say("stream_conflict"),
    "version": say("stream_version"),
    "version-then-known": say("stream_version_then_known"),
    "version-as-given": say("stream_version_as_given"),
    "similar": say("stream_similar"),
    "exact": say("stream_exact"),
    "forms": say("stream_forms"),
    "long": say("stream_long"),
    "wide-gap": say("stream_wide_gap"),
}


def _diagnose(answer: list[list[tuple]], truth: list[list[tuple]], stream: list[dict]) -> Message:
    """What went wrong, in words that do not give the stream away."""
    got = [e for batch in answer for e in batch]
    want = [e for batch in truth for e in batch]
    if len({(t, s) for t, s, _ in got}) < len(got):
        return DIAGNOSES["twice"]
    versions = {d["idempotency_key"]: d["version"] for d in stream}
    if any(not is_known_version(versions.get(k)) for _, _, k in got):
        return DIAGNOSES["version"]
    if any(e not in want for e in got):
        return DIAGNOSES["set-aside"]
    last: dict[str, int] = {}
    for t, s, _ in got:
        if s != last.get(t, 0) + 1:
            return DIAGNOSES["order"]
        last[t] = s
    if len(got) < len(want):
        return DIAGNOSES["lost"]
    return DIAGNOSES["late"]


def _offers(absorber: Any, stream: list[dict]) -> Iterator[Any]:
    """What each ``offer()`` of ``stream`` returned, in turn: the learner's absorber (a
    :class:`RemoteObject`) gets the whole stream in one request, the deliveries offered one
    after the other and each result judged in turn as they were; any other absorber is
    offered one delivery as each result is taken, a copy of it (the learner's one gets its own
    copies as they cross the pipe)."""
    if isinstance(absorber, RemoteObject):
        return absorber.each("offer", [(delivery,) for delivery in stream])
    return (absorber.offer(copy.deepcopy(delivery)) for delivery in stream)


def _replay(
    new_absorber: Callable[[], Any],
    stream: list[dict],
    what: Message,
    *,
    label: str = "events/absorber/story",
    names: Names | None = None,
    hide: Callable[[Names], None] | None = None,
) -> None:
    """Offer ``stream`` (canonical names) with the world's names (``names``, or a swap drawn
    from ``label``) to a fresh absorber; after every delivery it must release what the kit's
    releases. ``hide`` is told the names before any is offered."""
    names = names or stream_names(label, stream)
    if hide is not None:
        hide(names)
    stream = [names.delivery(d) for d in stream]
    absorber = new_absorber()
    truth = reference_releases(stream)
    offers = _offers(absorber, stream)
    answer = []
    for want in truth:
        got = _released(next(offers))
        answer.append(got)
        if got != want:
            # Feed the rest so the diagnosis sees the whole story (errors end it here).
            for _ in stream[len(answer) :]:
                answer.append(_released(next(offers)))
            raise Fail(say("absorber_on", what=what, why=_diagnose(answer, truth, stream)))


#: The sentences of the exercise text each criterion checks.
ORDER_TEXT = (
    "events of one task are released in `seq` order, starting at 1; an event whose `seq` is "
    "beyond the next one expected waits, and is released (in the same `offer` call) as soon as "
    "every `seq` before it has been released;",
    "a delivery whose key was already seen for its task, or whose `seq` was already released, "
    "is a duplicate: release nothing (a duplicate may come long after its event was released);",
    "tasks are independent: one task's gap never holds back another task.",
    "A task ID and a key are each compared whole (`t1` and `t12` are two tasks), and a key "
    "tells neither the task nor the `seq`.",
    "Both are compared exactly as given: capitals, white space around them and their Unicode "
    "form count (`café` written with a composed `é`, or with `e` and a combining accent, "
    "names two tasks).",
)
GIVEN_TEXT = (
    "returns the list of events it **releases**",
    "Return the event dicts you were given, unchanged: not copies, and with no field added, "
    "removed or replaced (not even the payload by an equal copy).",
    "Each call returns a list of its own, which later calls leave as it is.",
)
CONFLICT_TEXT = (
    "a *different* event (another key) for a `seq` that is already waiting or released is a "
    "conflict: two writers disagree, so keep the first one and never release the second; the "
    "second is forgotten: its key does not count as seen (a later delivery with that key for "
    "another `seq` is judged as if the key were new);",
)
VERSION_TEXT = (
    "an event whose `version` is not 1 is never released and changes nothing (the version-1 "
    "event of its `seq` is still released when it comes); version 1 is the `int` 1 as given: "
    '`True`, `1.0` and `"1"` are not version 1;',
)

#: The rubric of ``absorber``: each event once and in order, per task, is the core idea.
ABSORBER_RUBRIC = (
    Criterion(
        "once-in-order",
        3,
        "Each event of a task is released exactly once and in seq order under at-least-once, "
        "reordered delivery: duplicates are dropped by key and seq across the whole stream "
        "(also long after their event was released, also a key seen for its task under "
        "another seq), an event beyond a gap waits however wide the gap, the run behind it is"
        " released in the offer that fills the gap, and tasks are independent (one task's gap"
        " or keys never hold back another); task IDs and keys are compared whole, as given "
        "(other capitals, white space around a name or another Unicode form make another task"
        " or key), also past seq 256. Also checked on generated streams against the kit's "
        "EventAbsorber.",
        core=True,
        mistakes=(
            "dedupes only adjacent duplicates",
            "releases in arrival order (no holding back)",
            "one order for all tasks instead of one per task",
            "forgets released keys, so a late duplicate is released again",
            "remembers the keys of only so many latest seqs, so a key seen over a thousand seqs "
            "ago gets through under a new seq",
            "dedupes by seq only (a key redelivered under another seq gets through)",
            "shares seen keys across tasks",
            "tells tasks or keys apart by a prefix or a part, or by task and seq run together",
            "reads the task or the seq from the key",
            "compares task IDs or keys without case, or with white space stripped",
            "normalises the Unicode form of task IDs or keys (NFC, NFKC)",
            "compares seqs with `is` (equal numbers above 256 are distinct objects)",
            "waits only for events a bounded distance ahead, or holds only so many waiting",
        ),
        properties=(
            "On generated streams of up to three tasks whose keys and seqs repeat within and "
            "across tasks, delivered at least once and out of order in chunks, your absorber "
            "releases at each offer exactly what the kit's EventAbsorber releases.",
        ),
        text=ORDER_TEXT,
        world=(
            "Every stream is offered with task names and opaque keys drawn from the world "
            "(some a prefix or a part of another, one task's name the other's and a digit, "
            "tasks and keys whose names differ only in capitals, white space around them or "
            "Unicode form, the generated streams' keys laid out as task:seq:... with a task's "
            "name and no seq of theirs, one task of hundreds of events, one gap of over a "
            "thousand seqs followed by the first key under a new seq), drawn payloads, and bus "
            "seeds drawn for the duplicated and reordered streams, so an answer tuned to the "
            "notebook's t1 and t2, to the keys' layout or to one stream, one that compares seqs "
            "with `is`, one that waits only so far ahead, or one that remembers only so many "
            "keys, fails."
        ),
    ),
    Criterion(
        "given",
        1,
        "offer() returns a list of the very event dicts it was given, not copies or rebuilt "
        "dicts, and unchanged: no field added, removed or altered, the payload the very dict "
        "given; each call's list is its own, which later offers leave as it is.",
        mistakes=(
            "releases copies (or dicts rebuilt from the fields)",
            "changes the dicts it releases (a field removed or altered)",
            "adds a field to the dicts it releases, or replaces the payload by a copy",
            "returns the events in a tuple, not the list the text asks for",
            "returns one list that every offer clears and refills, so an earlier result changes",
        ),
        text=GIVEN_TEXT,
        world=(
            "A duplicated, reordered stream with drawn names and payloads, each delivery a dict "
            "made in the sandbox and its payload a dict made there too: only a list of those "
            "very dicts, with their fields as given, none added, and their very payloads, "
            "counts as released; every list returned is read again after the last offer and "
            "must hold what it held when it was returned."
        ),
    ),
    Criterion(
        "conflicts",
        1,
        "A different event (another key) for a seq already waiting or released is a conflict: "
        "the first one is kept, the second never released and forgotten (its key does not "
        "count as seen). Also checked on generated streams.",
        mistakes=(
            "a second event for a seq replaces the first",
            "keeps the event with the smaller (or larger, shorter, longer) key",
            "counts the key of a dropped second event as seen, so a later event carrying it "
            "is never released",
        ),
        properties=(
            "On generated streams holding a second event (another key) for a seq, your "
            "absorber releases what the kit's does.",
        ),
        text=CONFLICT_TEXT,
        world=(
            "The conflicting events' keys and tasks are drawn from the world; of two waiting "
            "seqs, one's second key is its first key and a character more, and the other's "
            "first key is its second key and a character more, so neither the smaller nor the "
            "larger, the shorter nor the longer key is always the first one; the keys of the "
            "dropped events then come back on events of new seqs, which the kit releases."
        ),
    ),
    Criterion(
        "versions",
        1,
        "An event of an unknown version is never released and does not take its seq: the "
        "known version of that seq is still released when it comes; version 1 is the int 1 as "
        'given (True, 1.0 and "1" are unknown versions). Also checked on generated streams.',
        mistakes=(
            "accepts unknown versions",
            "an unknown version takes its seq",
            "sets aside only the versions above 1",
            'takes True or 1.0 for version 1 (compares with == only), or "1" (compares the text)',
        ),
        properties=(
            "On generated streams holding events of unknown versions, your absorber releases "
            "what the kit's does.",
        ),
        text=VERSION_TEXT,
        world=(
            "The unknown versions' events come with keys and tasks drawn from the world, one "
            "story's at version 0 and the other's at a drawn version above 1 (which story gets "
            'which is drawn too); a third story delivers True, 1.0 and "1" in a drawn order, '
            "each before the version-1 event of its seq."
        ),
    ),
)


#: Generated streams per property, and calls of it while shrinking a failing one (each
#: delivery is one call into the sandbox).
BUDGETS = {
    "plain": {"examples": 15, "shrinks": 120},
    "conflicts": {"examples": 8, "shrinks": 80},
    "versions": {"examples": 6, "shrinks": 80},
}


def absorber_check(s: Student, t: Tally) -> None:
    """Replay the hidden streams into fresh ``Absorber`` instances; parts are filed under the
    criteria of :data:`ABSORBER_RUBRIC`. Every name the world drew is hidden from the
    feedback (:attr:`Tally.hidden`), from the first part on."""

    def new_absorber() -> RemoteObject:
        handle = s.sandbox.call("Absorber", keep=True, what="Absorber()")
        return RemoteObject(s.sandbox, handle, name="Absorber")

    def hide(names: Names) -> None:
        t.hidden = t.hidden | names.strings()

    generated = generated_names()
    hide(generated)
    t.under("once-in-order")
    _once_in_order(t, new_absorber, hide)

    @t.part
    def generated_streams():
        falsify_absorber(new_absorber, "plain", names=generated, **BUDGETS["plain"])

    t.under("given")

    @t.part
    def releases_the_dicts_it_was_given():
        stream = _as_dicts(bus_streams("both")[0])
        names = stream_names(story_label("given"), stream)
        hide(names)
        hands_back_the_dicts(s, new_absorber(), [names.delivery(d) for d in stream])

    t.under("conflicts")

    @t.part
    def conflicts():
        stream, names = conflicting_names()
        _replay(new_absorber, stream, STREAMS["conflict"], names=names, hide=hide)

    @t.part
    def generated_streams_with_conflicts():
        falsify_absorber(new_absorber, "conflicts", names=generated, **BUDGETS["conflicts"])

    t.under("versions")

    @t.part
    def unknown_versions():
        first, second = unknown_versions_drawn()
        stream = [story_event("job-4", 1), story_event("job-4", 2, version=first)]
        _replay(new_absorber, stream, STREAMS["version"], label=story_label("version"), hide=hide)
        stream = [
            story_event("job-2", 1),
            story_event("job-2", 2, key="job-2:2:v2", version=second),
            story_event("job-2", 2),
            story_event("job-2", 3),
        ]
        what = STREAMS["version-then-known"]
        _replay(new_absorber, stream, what, label=story_label("version-then-known"), hide=hide)

    @t.part
    def versions_that_only_look_like_1():
        what = STREAMS["version-as-given"]
        stream = lookalike_versions()
        _replay(new_absorber, stream, what, label=story_label("version-as-given"), hide=hide)

    @t.part
    def generated_streams_with_unknown_versions():
        falsify_absorber(new_absorber, "versions", names=generated, **BUDGETS["versions"])


def _once_in_order(
    t: Tally, new_absorber: Callable[[], RemoteObject], hide: Callable[[Names], None]
) -> None:
    """The parts of the core idea: each event once, in seq order, per task, told apart by
    whole names."""

    def replay(stream: list[dict], kind: str, names: Names | None = None) -> None:
        _replay(
            new_absorber, stream, STREAMS[kind], label=story_label(kind), names=names, hide=hide
        )

    @t.part
    def in_order_without_faults():
        replay(_as_dicts(task_events(3, 4)), "clean")

    @t.part
    def duplicates():
        for stream in bus_streams("duplicates"):
            replay(_as_dicts(stream), "duplicates")
        one = story_event("job-9", 1)
        replay([one] * 5 + [story_event("job-9", 2)], "many")
        a1, a2, b1, b2 = (story_event(task, seq) for task in ("job-8", "job-6") for seq in (1, 2))
        replay([a1, b1, a1, a2, b2, b1, a2], "interleaved")

    @t.part
    def reordering():
        for stream in bus_streams("reordering"):
            replay(_as_dicts(stream), "reordering")
        replay([story_event("job-7", seq) for seq in range(6, 0, -1)], "backwards")

    @t.part
    def duplicated_and_reordered():
        for stream in bus_streams("both"):
            replay(_as_dicts(stream), "both")

    @t.part
    def tasks_are_independent():
        a = [story_event("job-11", seq) for seq in (1, 2, 3)]
        b = [story_event("job-12", seq) for seq in (1, 2)]
        replay([a[1], b[0], b[1], a[2], a[0]], "gap")
        replay([*a, *b], "late-start")

    @t.part
    def late_duplicates_of_released_events():
        events = [
            story_event("job-5", seq, kind="done" if seq == 6 else "step") for seq in range(1, 7)
        ]
        replay(events + [events[0], events[3], events[5], events[1]], "late")
        replay(renumbered_long_after(), "late-renumbered")

    @t.part
    def names_compared_whole():
        stream, names = similar_names()
        replay(stream, "similar", names)

    @t.part
    def names_compared_exactly():
        stream, names = exact_names()
        replay(stream, "exact", names)
        stream, names = unicode_names()
        replay(stream, "forms", names)

    @t.part
    def a_task_of_hundreds_of_events():
        replay(long_task(), "long")

    @t.part
    def a_gap_of_hundreds_of_seqs():
        replay(wide_gap(), "wide-gap")
