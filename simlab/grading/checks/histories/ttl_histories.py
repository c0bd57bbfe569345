"""The hand-written histories of question ``choose-ttl`` that a hidden world fills in (task
names, workers and times drawn from :func:`~simlab.grading.checks.hidden_world.rng`), each
built so that one way of misreading "the next successful claim of that task ... in the order the
history lists them ..., in the order of the crashes" gives other times than the kit's
``recovery_times`` (:mod:`~simlab.grading.checks.histories.ttl` judges the learner's on them).
"""

from __future__ import annotations

from simlab.checker.history import History
from simlab.grading.checks.hidden_world import look_alikes, rng
from simlab.grading.checks.histories.stale import events_of

__all__ = [
    "named_tasks",
    "named_history",
    "shared_times_history",
    "taskless_crash_history",
    "times_back_history",
    "crash_types_history",
]

#: The first letters of a world's task names (never the notebook's own ``t1``).
_STEMS = ("job", "task", "run", "q", "ticket")
#: Composed accented letters a named task holds (decomposed, another name NFC composes back).
_ACCENTED = "éèáàüöç"


def named_tasks() -> tuple[str, ...]:
    """Task names of the current world: a drawn one (holding a composed accent), one it is a
    prefix of, one that ends with it, and its look-alikes (its first letter in capitals, white
    space before or after it, its first character full-width, its accent decomposed:
    :func:`~simlab.grading.checks.hidden_world.look_alikes`), so a task found by prefix,
    suffix or substring, or by names folded, stripped or normalised (NFC, NFKC), is another
    task."""
    source = rng("histories/choose-ttl-names")
    name = f"{source.choice(_STEMS)}{source.choice(_ACCENTED)}{source.randint(10, 99)}"
    longer, ending = f"{name}{source.randint(0, 9)}", f"{source.choice(_STEMS)}{name}"
    return (name, longer, ending, *look_alikes(name))


def named_history(*, claimed: bool) -> History:
    """A history of the current world: the task of :func:`named_tasks`' first name crashes,
    and the tasks whose names hold it or look like it are claimed before it is (``claimed``:
    it is claimed at the end; otherwise never again, so its crash is left out); the
    look-alikes are claimed in a drawn order."""
    name, longer, ending, *alike = named_tasks()
    source = rng("histories/choose-ttl-names-times")
    source.shuffle(alike)
    times = sorted(round(source.uniform(1.0, 90.0), 1) for _ in range(6 + len(alike)))
    rows = [
        (times[0], "ok", "w1", "claim", name, 1, 0),
        (times[1], "info", "w1", "crash", name, 1, 0),
        (times[2], "info", "w2", "crash", longer, 1, 0) if claimed else None,
        (times[3], "ok", "w2", "claim", longer, 2 if claimed else 1, 0),
        (times[4], "ok", "w3", "claim", ending, 1, 0),
        *(
            (t, "ok", "w4", "claim", other, 1, 0)
            for t, other in zip(times[5:-1], alike, strict=True)
        ),
        (times[-1], "ok", "w3", "claim", name, 2, 0) if claimed else None,
    ]
    if claimed:
        rows.insert(0, (0.0, "ok", "w2", "claim", longer, 1, 0))
    return events_of(*(row for row in rows if row is not None))


def shared_times_history() -> History:
    """A history of the current world (task, workers and times drawn) where a task's crash and
    its next claim share a time, the claim listed after the crash, and that claim's worker
    crashes at the same time again, its claim listed before its crash: the next claim is the
    next one in the history, which neither "a later time" nor "a time no earlier" finds."""
    source = rng("histories/choose-ttl-shared-times")
    task = f"{source.choice(_STEMS)}{source.randint(10, 99)}"
    first, second, third = source.sample(("w1", "w2", "w3", "w4"), 3)
    start = round(source.uniform(1.0, 40.0), 1)
    shared = round(start + source.uniform(1.0, 20.0), 1)
    last = round(shared + source.uniform(1.0, 20.0), 1)
    return events_of(
        (start, "ok", first, "claim", task, 1, 0),
        (shared, "info", first, "crash", task, 1, 0),
        (shared, "ok", second, "claim", task, 2, 0),
        (shared, "info", second, "crash", task, 2, 0),
        (last, "ok", third, "claim", task, 3, 0),
    )


def taskless_crash_history() -> History:
    """A history of the current world (tasks, workers and times drawn) where a worker crashes
    holding no task (``task`` None), restarts and claims a task, and then another task's
    crash is claimed again: only a crash that has a task is timed, so the kit gives one time,
    and an answer that times the crash without a task to the next claim of any task gives two."""
    source = rng("histories/choose-ttl-taskless")
    crashed, other = source.sample([f"{stem}{source.randint(10, 99)}" for stem in _STEMS], 2)
    first, idle, third = source.sample(("w1", "w2", "w3", "w4"), 3)
    times = sorted(round(source.uniform(1.0, 90.0), 1) for _ in range(6))
    return events_of(
        (times[0], "ok", first, "claim", crashed, 1, 0),
        (times[1], "info", idle, "crash"),
        (times[2], "ok", idle, "restart"),
        (times[3], "ok", idle, "claim", other, 1, 0),
        (times[4], "info", first, "crash", crashed, 1, 0),
        (times[5], "ok", third, "claim", crashed, 2, 0),
    )


def times_back_history() -> History:
    """A history of the current world (tasks, workers and times drawn) whose times go back:
    one task's crash is listed after another task's crash stamped later, and the claim listed
    next for its task is stamped before that crash; both tasks are claimed again later. The kit
    times each crash to the next claim of its task as the history lists them (the second time
    negative), in the order the crashes are listed; the history sorted by time gives other
    times, and the right times given in the order of the crashes' times another order."""
    source = rng("histories/choose-ttl-times-back")
    first, second = source.sample([f"{stem}{source.randint(10, 99)}" for stem in _STEMS], 2)
    one, two, three, four = source.sample(("w1", "w2", "w3", "w4"), 4)
    start = round(source.uniform(1.0, 20.0), 1)
    late = round(start + source.uniform(10.0, 30.0), 1)
    early = round(late - source.uniform(1.0, 5.0), 1)
    back = round(early - source.uniform(0.5, 3.0), 1)
    again = round(late + source.uniform(1.0, 10.0), 1)
    last = round(again + source.uniform(1.0, 10.0), 1)
    return events_of(
        (start, "ok", one, "claim", first, 1, 0),
        (start, "ok", two, "claim", second, 1, 0),
        (late, "info", one, "crash", first, 1, 0),
        (early, "info", two, "crash", second, 1, 0),
        (back, "ok", three, "claim", second, 2, 0),
        (again, "ok", four, "claim", first, 2, 0),
        (last, "ok", two, "claim", second, 3, 0),
    )


def crash_types_history() -> History:
    """A history of the current world (tasks, workers, times and a type drawn) where two tasks
    crash and are claimed again, one crash recorded as ``info`` (as the simulator records
    them) and the other with a drawn other type: every ``crash`` event that has a task is
    timed, whatever its type, so the kit gives two times, and an answer that times only the
    crashes of one type gives one. The first task crashed is claimed first with an unknown
    outcome (``invoke``, then ``info``: its reply lost), then successfully: only the claim ok
    ends its recovery, so an answer that takes the ``info`` claim for the next one gives
    another time."""
    source = rng("histories/choose-ttl-crash-types")
    first, second = source.sample([f"{stem}{source.randint(10, 99)}" for stem in _STEMS], 2)
    one, two, three = source.sample(("w1", "w2", "w3", "w4"), 3)
    odd = source.choice(("ok", "fail", "invoke"))
    times = sorted(round(source.uniform(1.0, 80.0), 1) for _ in range(5))
    # the claim ok comes strictly later than the lost one, so the two give other times
    times += [round(times[4] + source.uniform(0.5, 5.0), 1)]
    times += [round(times[5] + source.uniform(0.5, 5.0), 1)]
    crashes = [(one, first, "info"), (two, second, odd)]
    source.shuffle(crashes)
    (w_a, t_a, type_a), (w_b, t_b, type_b) = crashes
    return events_of(
        (times[0], "ok", w_a, "claim", t_a, 1, 0),
        (times[1], "ok", w_b, "claim", t_b, 1, 0),
        (times[2], type_a, w_a, "crash", t_a, 1, 0),
        (times[3], type_b, w_b, "crash", t_b, 1, 0),
        (times[4], "invoke", three, "claim", t_a),
        (times[4], "info", three, "claim", t_a),
        (times[5], "ok", three, "claim", t_a, 2, 0),
        (times[6], "ok", three, "claim", t_b, 2, 0),
    )
