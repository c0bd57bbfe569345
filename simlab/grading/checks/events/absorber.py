"""Question ``absorber`` of exercise ``events``: the learner's ``Absorber`` class
(``offer(event) -> list`` of released events, events as dicts) is fed streams the learner has not
seen, built from seeded at-least-once deliveries (:func:`simlab.agent.events.at_least_once`) of
several interleaved tasks, plus hostile ones: an event delivered many times, a task's events in
reverse order, one task's gap while another task flows, duplicates long after their task
finished, two different events claiming one ``seq``, an unknown version. After every delivery
the released events must be exactly those :class:`~simlab.agent.EventAbsorber` releases. Beside
these stories, each criterion has a property on generated streams that reuse keys and sequence
numbers within and across tasks (:mod:`~simlab.grading.checks.events.streams`), whose shortest
counterexample is the feedback.

The parts are filed under :data:`ABSORBER_RUBRIC`: the core idea (each event once, in ``seq``
order, per task) weighs 4 of 6 points; conflicts and unknown versions one point each. Feedback
names the kind of stream and what went wrong, never the hidden stream itself.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from simlab.agent.events import EVENT_VERSION, AgentEvent, EventAbsorber, at_least_once
from simlab.grading.checks.events.messages import say
from simlab.grading.checks.events.streams import falsify_absorber, released
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


#: The seeded bus streams each part replays: name -> tasks, steps, seeds and the bus's faults.
BUS_STREAMS: dict[str, dict[str, Any]] = {
    "duplicates": {"tasks": 3, "steps": 4, "seeds": (11, 12, 13), "rate": 0.6, "delay": 0},
    "reordering": {"tasks": 3, "steps": 5, "seeds": (21, 22, 23), "rate": 0.0, "delay": 6},
    "both": {"tasks": 4, "steps": 5, "seeds": tuple(range(31, 37)), "rate": 0.4, "delay": 8},
}


def bus_streams(name: str) -> list[list[AgentEvent]]:
    """The deliveries of the bus streams called ``name`` in :data:`BUS_STREAMS`, one per seed."""
    spec = BUS_STREAMS[name]
    events = task_events(spec["tasks"], spec["steps"])
    return [
        at_least_once(events, seed=seed, duplicate_rate=spec["rate"], max_delay=spec["delay"])
        for seed in spec["seeds"]
    ]


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
    "conflict": say("stream_conflict"),
    "version": say("stream_version"),
    "version-then-known": say("stream_version_then_known"),
}


def _diagnose(answer: list[list[tuple]], truth: list[list[tuple]], stream: list[dict]) -> Message:
    """What went wrong, in words that do not give the stream away."""
    got = [e for batch in answer for e in batch]
    want = [e for batch in truth for e in batch]
    if len({(t, s) for t, s, _ in got}) < len(got):
        return DIAGNOSES["twice"]
    versions = {d["idempotency_key"]: d["version"] for d in stream}
    if any(versions.get(k) != EVENT_VERSION for _, _, k in got):
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


def _replay(new_absorber: Callable[[], RemoteObject], stream: list[dict], what: Message) -> None:
    absorber = new_absorber()
    truth = reference_releases(stream)
    answer = []
    for delivery, want in zip(stream, truth, strict=True):
        got = _released(absorber.offer(copy.deepcopy(delivery)))
        answer.append(got)
        if got != want:
            # Feed the rest so the diagnosis sees the whole story (errors end it here).
            for rest in stream[len(answer) :]:
                answer.append(_released(absorber.offer(copy.deepcopy(rest))))
            raise Fail(say("absorber_on", what=what, why=_diagnose(answer, truth, stream)))


def _event(
    task: str, seq: int, key: str | None = None, version: int = EVENT_VERSION, kind: str = "step"
) -> dict:
    key = key or f"{task}:{seq}:{kind}"
    return AgentEvent(task, seq, version, key, kind, {"tokens": seq}).to_dict()


#: The rubric of ``absorber``: each event once and in order, per task, is the core idea.
ABSORBER_RUBRIC = (
    Criterion(
        "once-in-order",
        4,
        "Each event of a task is released exactly once and in seq order under at-least-once, "
        "reordered delivery: duplicates are dropped by key and seq across the whole stream (also "
        "long after their event was released, also a key seen for its task under another seq), "
        "an event beyond a gap waits, the run behind it is released in the offer that fills the "
        "gap, and tasks are independent (one task's gap or keys never hold back another). Also "
        "checked on generated streams against the kit's EventAbsorber.",
        core=True,
        mistakes=(
            "dedupes only adjacent duplicates",
            "releases in arrival order (no holding back)",
            "one order for all tasks instead of one per task",
            "forgets released keys, so a late duplicate is released again",
            "dedupes by seq only (a key redelivered under another seq gets through)",
            "shares seen keys across tasks",
        ),
        properties=(
            "On generated streams of up to three tasks whose keys and seqs repeat within and "
            "across tasks, delivered at least once and out of order in chunks, your absorber "
            "releases at each offer exactly what the kit's EventAbsorber releases.",
        ),
    ),
    Criterion(
        "conflicts",
        1,
        "A different event (another key) for a seq already waiting or released is a conflict: "
        "the first one is kept, the second never released. Also checked on generated streams.",
        mistakes=("a second event for a seq replaces the first",),
        properties=(
            "On generated streams holding a second event (another key) for a seq, your "
            "absorber releases what the kit's does.",
        ),
    ),
    Criterion(
        "versions",
        1,
        "An event of an unknown version is never released and does not take its seq: the "
        "known version of that seq is still released when it comes. Also checked on generated "
        "streams.",
        mistakes=("accepts unknown versions", "an unknown version takes its seq"),
        properties=(
            "On generated streams holding events of unknown versions, your absorber releases "
            "what the kit's does.",
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
    criteria of :data:`ABSORBER_RUBRIC`."""

    def new_absorber() -> RemoteObject:
        handle = s.sandbox.call("Absorber", keep=True, what="Absorber()")
        return RemoteObject(s.sandbox, handle, name="Absorber")

    t.under("once-in-order")
    _once_in_order(t, new_absorber)
    t.under("conflicts")

    @t.part
    def conflicts():
        stream = [
            _event("job-3", 2, key="job-3:2:draft-a"),
            _event("job-3", 2, key="job-3:2:draft-b"),
            _event("job-3", 1),
            _event("job-3", 3),
            _event("job-3", 3, key="job-3:3:other"),
        ]
        _replay(new_absorber, stream, STREAMS["conflict"])

    @t.part
    def generated_streams_with_conflicts():
        falsify_absorber(new_absorber, "conflicts", **BUDGETS["conflicts"])

    t.under("versions")

    @t.part
    def unknown_versions():
        stream = [_event("job-4", 1), _event("job-4", 2, version=EVENT_VERSION + 1)]
        _replay(new_absorber, stream, STREAMS["version"])
        stream = [
            _event("job-2", 1),
            _event("job-2", 2, key="job-2:2:v2", version=EVENT_VERSION + 1),
            _event("job-2", 2),
            _event("job-2", 3),
        ]
        _replay(new_absorber, stream, STREAMS["version-then-known"])

    @t.part
    def generated_streams_with_unknown_versions():
        falsify_absorber(new_absorber, "versions", **BUDGETS["versions"])


def _once_in_order(t: Tally, new_absorber: Callable[[], RemoteObject]) -> None:
    """The parts of the core idea: each event once, in seq order, per task."""

    @t.part
    def in_order_without_faults():
        _replay(new_absorber, _as_dicts(task_events(3, 4)), STREAMS["clean"])

    @t.part
    def duplicates():
        for stream in bus_streams("duplicates"):
            _replay(new_absorber, _as_dicts(stream), STREAMS["duplicates"])
        one = _event("job-9", 1)
        _replay(new_absorber, [one] * 5 + [_event("job-9", 2)], STREAMS["many"])
        a1, a2, b1, b2 = (_event(task, seq) for task in ("job-8", "job-6") for seq in (1, 2))
        stream = [a1, b1, a1, a2, b2, b1, a2]
        _replay(new_absorber, stream, STREAMS["interleaved"])

    @t.part
    def reordering():
        for stream in bus_streams("reordering"):
            _replay(new_absorber, _as_dicts(stream), STREAMS["reordering"])
        backwards = [_event("job-7", seq) for seq in range(6, 0, -1)]
        _replay(new_absorber, backwards, STREAMS["backwards"])

    @t.part
    def duplicated_and_reordered():
        for stream in bus_streams("both"):
            _replay(new_absorber, _as_dicts(stream), STREAMS["both"])

    @t.part
    def tasks_are_independent():
        a = [_event("job-11", seq) for seq in (1, 2, 3)]
        b = [_event("job-12", seq) for seq in (1, 2)]
        _replay(new_absorber, [a[1], b[0], b[1], a[2], a[0]], STREAMS["gap"])
        _replay(new_absorber, [*a, *b], STREAMS["late-start"])

    @t.part
    def late_duplicates_of_released_events():
        events = [_event("job-5", seq, kind="done" if seq == 6 else "step") for seq in range(1, 7)]
        stream = events + [events[0], events[3], events[5], events[1]]
        _replay(new_absorber, stream, STREAMS["late"])

    @t.part
    def generated_streams():
        falsify_absorber(new_absorber, "plain", **BUDGETS["plain"])
