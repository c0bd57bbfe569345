"""Hidden checks of exercise ``events`` (``06_events_and_permissions.ipynb``).

* ``absorber``: the learner's ``Absorber`` class (``offer(event) -> list`` of released events,
  events as dicts) is fed streams the learner has not seen, built from seeded at-least-once
  deliveries (:func:`simlab.agent.events.at_least_once`) of several interleaved tasks, plus
  hostile ones: an event delivered many times, a task's events in reverse order, a duplicate
  long after its release, two different events claiming one ``seq``, an unknown version. After
  every delivery the released events must be exactly those :class:`~simlab.agent.EventAbsorber`
  releases.
* ``narrowing``: ``is_narrowing(parent, child)`` (grants as dicts) against the kit's own
  definition, :meth:`simlab.agent.Grant.narrow`: ``child`` is a narrowing of ``parent`` exactly
  when ``parent.narrow(...)`` could have produced it. Hostile grants: another tenant, another
  version, a revoked parent or child, an extra tool with fewer collections, sets of the same size
  but other members, names differing only in case, repeated names.

Feedback names the kind of stream or grant and what went wrong, never the hidden input itself.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from simlab.agent.events import EVENT_VERSION, AgentEvent, EventAbsorber, at_least_once
from simlab.agent.world import Grant, PermissionDenied
from simlab.grading.questions import Exercise, Fail, Question, Tally, require
from simlab.grading.student import RemoteObject, Student, kind_of

__all__ = [
    "EXERCISE",
    "BUS_STREAMS",
    "bus_streams",
    "task_events",
    "reference_releases",
    "reference_is_narrowing",
]


# --------------------------------------------------------------------------- absorber -------


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
    require(
        isinstance(value, list | tuple),
        f"offer() returned {kind_of(value)}, expected a list of the events it releases",
    )
    out = []
    for item in value:
        require(
            isinstance(item, dict) and {"task_id", "seq", "idempotency_key"} <= set(item),
            f"offer() released {kind_of(item)}, expected the event dicts it was given",
        )
        out.append((item["task_id"], item["seq"], item["idempotency_key"]))
    return out


def _diagnose(answer: list[list[tuple]], truth: list[list[tuple]], stream: list[dict]) -> str:
    """What went wrong, in words that do not give the stream away."""
    got = [e for batch in answer for e in batch]
    want = [e for batch in truth for e in batch]
    if len({(t, s) for t, s, _ in got}) < len(got):
        return (
            "released the same seq of a task twice (a duplicate or a conflicting event got through)"
        )
    versions = {d["idempotency_key"]: d["version"] for d in stream}
    if any(versions.get(k) != EVENT_VERSION for _, _, k in got):
        return f"released an event whose version is not {EVENT_VERSION}"
    if any(e not in want for e in got):
        return "released an event the absorber should have set aside"
    last: dict[str, int] = {}
    for t, s, _ in got:
        if s != last.get(t, 0) + 1:
            return "released a seq of a task before the seq just below it (the order broke)"
        last[t] = s
    if len(got) < len(want):
        return "never released an event although every earlier seq of its task had arrived"
    return "held an event back after the gap before it was filled: release it in that offer()"


def _replay(new_absorber: Callable[[], RemoteObject], stream: list[dict], what: str) -> None:
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
            raise Fail(f"on {what}: the absorber {_diagnose(answer, truth, stream)}")


def _event(task: str, seq: int, key: str | None = None, version: int = EVENT_VERSION) -> dict:
    key = key or f"{task}:{seq}:step"
    return AgentEvent(task, seq, version, key, "step", {"tokens": seq}).to_dict()


def absorber_check(s: Student, t: Tally) -> None:
    def new_absorber() -> RemoteObject:
        handle = s.sandbox.call("Absorber", keep=True, what="Absorber()")
        return RemoteObject(s.sandbox, handle, name="Absorber")

    @t.part
    def in_order_without_faults():
        _replay(new_absorber, _as_dicts(task_events(3, 4)), "a stream with no fault at all")

    @t.part
    def duplicates():
        for stream in bus_streams("duplicates"):
            _replay(
                new_absorber, _as_dicts(stream), "a stream with duplicates (in order otherwise)"
            )
        one = _event("job-9", 1)
        _replay(new_absorber, [one] * 5 + [_event("job-9", 2)], "one event delivered many times")
        a1, a2, b1, b2 = (_event(task, seq) for task in ("job-8", "job-6") for seq in (1, 2))
        stream = [a1, b1, a1, a2, b2, b1, a2]
        _replay(new_absorber, stream, "duplicates arriving after other tasks' events")

    @t.part
    def reordering():
        for stream in bus_streams("reordering"):
            _replay(new_absorber, _as_dicts(stream), "a reordered stream (no duplicates)")
        backwards = [_event("job-7", seq) for seq in range(6, 0, -1)]
        _replay(new_absorber, backwards, "one task's events in reverse order")

    @t.part
    def duplicated_and_reordered():
        for stream in bus_streams("both"):
            what = "a stream with duplicates and reordering, several tasks"
            _replay(new_absorber, _as_dicts(stream), what)

    @t.part
    def late_duplicates_of_released_events():
        events = [_event("job-5", seq) for seq in range(1, 7)]
        stream = events + [events[0], events[3], events[5], events[1]]
        _replay(new_absorber, stream, "duplicates arriving long after their event was released")

    @t.part
    def conflicts_and_unknown_versions():
        stream = [
            _event("job-3", 2, key="job-3:2:draft-a"),
            _event("job-3", 2, key="job-3:2:draft-b"),
            _event("job-3", 1),
            _event("job-3", 3),
            _event("job-3", 3, key="job-3:3:other"),
        ]
        _replay(new_absorber, stream, "two different events claiming one seq")
        stream = [_event("job-4", 1), _event("job-4", 2, version=EVENT_VERSION + 1)]
        _replay(new_absorber, stream, "an event of an unknown version")


# --------------------------------------------------------------------------- narrowing ------


def _grant(d: dict) -> Grant:
    return Grant(
        d["tenant"], d["version"], frozenset(d["collections"]), frozenset(d["tools"]), d["revoked"]
    )


def reference_is_narrowing(parent: dict, child: dict) -> bool:
    """The kit's definition: could ``Grant.narrow`` have made ``child`` from ``parent``?"""
    p, c = _grant(parent), _grant(child)
    try:
        return p.narrow(collections=c.collections, tools=c.tools) == c
    except PermissionDenied:
        return False


PARENT = {
    "tenant": "initech",
    "version": 4,
    "collections": ["public", "initech-internal", "initech-finance"],
    "tools": ["search", "inventory", "model", "email"],
    "revoked": False,
}


def _child(**changes: Any) -> dict:
    return {**copy.deepcopy(PARENT), **changes}


#: Kinds of child grant, each with the children the grader tries (all against ``PARENT``).
CHILDREN: dict[str, list[dict]] = {
    "the same grant": [_child()],
    "a grant with fewer collections": [
        _child(collections=["public"]),
        _child(collections=["initech-finance", "public"]),
    ],
    "a grant with fewer tools": [_child(tools=["search"]), _child(tools=["model", "search"])],
    "an empty grant": [_child(collections=[], tools=[])],
    "a grant with an extra collection": [_child(collections=["public", "globex-internal"])],
    "a grant with an extra tool and fewer collections": [
        _child(collections=["public"], tools=["admin"])
    ],
    "a grant with an extra tool": [
        _child(tools=["search", "inventory", "model", "email", "shell"])
    ],
    "another tenant's grant with fewer rights": [_child(tenant="globex", collections=["public"])],
    "a grant at another version": [_child(version=5), _child(version=3, tools=["search"])],
    "a revoked grant": [_child(revoked=True, tools=["search"])],
    "a grant with as many collections, but other ones": [
        _child(collections=["public", "initech-internal", "initech-hr"])
    ],
    "a grant naming a collection with other capitals": [_child(collections=["Public"])],
    "a grant with repeated names": [
        _child(collections=["public", "public"], tools=["search", "search"])
    ],
}


def narrowing_check(s: Student, t: Tally) -> None:
    student = s.function("is_narrowing")

    def judge(kinds: tuple[str, ...], parent: dict = PARENT) -> None:
        for kind in kinds:
            for child in CHILDREN[kind]:
                answer = student(copy.deepcopy(parent), copy.deepcopy(child))
                require(
                    isinstance(answer, bool),
                    f"is_narrowing() returned {kind_of(answer)}, expected True or False",
                )
                truth = reference_is_narrowing(parent, child)
                require(
                    answer == truth,
                    f"is_narrowing() said {answer} when the child is {kind}"
                    + ("" if parent is PARENT else " (of a revoked parent)"),
                )

    @t.part
    def true_narrowings():
        judge(
            (
                "the same grant",
                "a grant with fewer collections",
                "a grant with fewer tools",
                "an empty grant",
            )
        )

    @t.part
    def wider_grants():
        judge(
            (
                "a grant with an extra collection",
                "a grant with an extra tool",
                "a grant with an extra tool and fewer collections",
            )
        )

    @t.part
    def another_tenant_or_version():
        judge(("another tenant's grant with fewer rights", "a grant at another version"))

    @t.part
    def revoked_grants():
        judge(("a revoked grant",))
        revoked = {**PARENT, "revoked": True}
        judge(("the same grant", "a grant with fewer tools"), parent=revoked)

    @t.part
    def sets_not_sizes():
        judge(
            (
                "a grant with as many collections, but other ones",
                "a grant naming a collection with other capitals",
                "a grant with repeated names",
            )
        )


EXERCISE = Exercise(
    id="events",
    notebook="06_events_and_permissions.ipynb",
    title="Events once and in order; grants that only narrow",
    questions=(
        Question("absorber", "An event absorber", 6, ("Absorber",), absorber_check),
        Question("narrowing", "A sub-agent's grant narrows", 5, ("is_narrowing",), narrowing_check),
    ),
)
