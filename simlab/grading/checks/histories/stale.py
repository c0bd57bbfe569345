"""Question ``stale-commits``: the student's rule "no stale commit accepted" on hand-written
histories (one property per case) and on histories the simulator recorded with and without the
fence; its findings must match the kit's own rule (:func:`simlab.check.checker.stale_commits`).

The core cases count findings only (any list will do); the sentences themselves are judged by
one part of their own, so a rule that finds the right saves but words them badly loses a detail,
not the idea.
"""

from __future__ import annotations

import functools
from typing import Any

from simlab.check.checker import stale_commit_events
from simlab.check.checker import stale_commits as reference_stale_commits
from simlab.check.history import Event, History
from simlab.grading.checks.histories.messages import say
from simlab.grading.messages import Message
from simlab.grading.properties import Story, falsify, st
from simlab.grading.questions import Criterion, Fail, Tally, require
from simlab.grading.student import Student, kind_of, shown_value
from simlab.sim.scenario import Scenario
from simlab.sim.simulation import simulate

__all__ = [
    "UNFENCED",
    "UNFENCED_SEEDS",
    "CASES",
    "STALE_RUBRIC",
    "events_of",
    "stale_commits",
]

#: Recorded histories the student's rule must read like the kit's rule does.
UNFENCED = Scenario(tasks=15, workers=3, variant="unfenced", pause_rate=0.3)
UNFENCED_SEEDS = (4, 6)


def events_of(*rows: tuple) -> list[Event]:
    """A hand-written history: one :meth:`History.record` call per row, a trailing dict being
    the event's ``value``."""
    h = History()
    for row in rows:
        value: dict = {}
        if isinstance(row[-1], dict):
            row, value = row[:-1], row[-1]
        h.record(*row, **value)
    return h.events


def stale_commits(s: Student, t: Tally) -> None:
    """The student's rule on hand-written histories, then on recorded runs with and without
    the fence; parts are filed under the criteria of :data:`STALE_RUBRIC`."""
    rule = s.function("stale_commits")
    t.under("newer-epoch")
    for case in ("takeover", "same-worker", "refused", "two-tasks", "highest", "order"):
        t.part(functools.partial(_hand_written, rule, case))
    t.part(functools.partial(_recorded_unfenced_histories, rule))
    t.part(functools.partial(_recorded_fenced_history, rule))
    t.part(
        lambda: falsify(
            _histories(cancels=False), rule_counts(rule), examples=_EXAMPLES, first=_SEVERAL
        )
    )
    t.under("cancel")
    t.part(functools.partial(_hand_written, rule, "cancel"))
    t.part(lambda: falsify(_histories(cancels=True), rule_counts(rule), examples=_EXAMPLES))
    t.under("sentences")
    t.part(functools.partial(_one_sentence_per_commit_in_order, rule))
    t.part(
        lambda: falsify(
            _histories(cancels=False), rule_names(rule), examples=_EXAMPLES // 2, first=_SEVERAL
        )
    )


#: The rubric of ``stale-commits``: a save is judged by the epochs granted before it.
STALE_RUBRIC = (
    Criterion(
        "newer-epoch",
        4,
        "An accepted save (save ok) is a stale commit when its task had already been granted a "
        "higher epoch earlier in the history: epochs are per task, the highest one granted so "
        "far counts (not the last claim, not the saving worker's own), refused saves are the "
        "fence working, and neither worker names nor timestamps decide; on recorded runs the "
        "rule finds what the kit's rule finds, and nothing when the fence is on.",
        core=True,
        mistakes=(
            "compares worker names instead of epochs",
            "flags refused saves too, or only the save that completes the task",
            "remembers the last claim, or each worker's own claim, not the highest epoch",
            "<= instead of <, or != against the last claim",
            "judges by timestamps or lease expiry instead of the order of events",
            "one epoch for all tasks",
            "reports only the first stale commit of each task",
        ),
        properties=(
            "On generated histories of two tasks (claims granted, refused or granting an old "
            "epoch again, saves accepted or refused, several stale commits in one task), the "
            "rule finds as many stale commits as the kit's rule.",
        ),
    ),
    Criterion(
        "cancel",
        1,
        "A cancel ok grants an epoch too: a save of an older epoch after it is stale.",
        properties=("On generated histories with cancels too, the count is the kit's rule's.",),
    ),
    Criterion(
        "sentences",
        1,
        "The rule returns a list of sentences (strings), one per stale commit in history order, "
        "each naming its task.",
        properties=(
            "On generated histories where the count is right, sentence i names the task of the "
            "i-th stale commit.",
        ),
    ),
)


def _count(rule: Any, history: list[Event]) -> int:
    """How many stale commits the student's rule reports on ``history`` (any list counts)."""
    answer = rule(history)
    require(
        isinstance(answer, (list, tuple)),
        say("not_a_list_of_sentences", kind=kind_of(answer)),
    )
    return len(answer)


#: Hand-written histories, one property each: ``id -> (what it shows, stale commits, rows)``.
#: A row is one :meth:`History.record` call, a trailing dict its ``value``.
CASES: dict[str, tuple[Message, int, tuple[tuple, ...]]] = {
    "takeover": (
        say("case_takeover"),
        1,
        (
            (0.0, "ok", "w1", "claim", "t1", 1, 0),
            (4.0, "ok", "w2", "claim", "t1", 2, 0),
            (5.0, "ok", "w1", "save", "t1", 1, 1),
        ),
    ),
    "same-worker": (
        say("case_same_worker"),
        1,
        (
            (0.0, "ok", "w1", "claim", "t1", 1, 0),
            (4.0, "ok", "w1", "claim", "t1", 2, 0),
            (5.0, "ok", "w1", "save", "t1", 1, 1),
            (6.0, "ok", "w1", "save", "t1", 2, 1),
        ),
    ),
    "refused": (
        say("case_refused"),
        0,
        (
            (0.0, "ok", "w1", "claim", "t1", 1, 0),
            (1.0, "ok", "w1", "save", "t1", 1, 1),
            (4.0, "ok", "w2", "claim", "t1", 2, 1),
            (5.0, "fail", "w1", "save", "t1", 1, 2),
            (5.5, "invoke", "w1", "save", "t1", 1, 2),
            (5.7, "invoke", "w3", "claim", "t1"),
            (5.8, "fail", "w3", "claim", "t1", None, None, {"reason": "lease-held"}),
            (6.0, "ok", "w2", "save", "t1", 2, 2),
        ),
    ),
    "two-tasks": (
        say("case_two_tasks"),
        1,
        (
            (0.0, "ok", "w1", "claim", "t1", 1, 0),
            (0.5, "ok", "w2", "claim", "t2", 1, 0),
            (1.0, "ok", "w3", "claim", "t2", 2, 0),
            (2.0, "ok", "w1", "save", "t1", 1, 1),
            (3.0, "ok", "w2", "save", "t2", 1, 1),
        ),
    ),
    "highest": (
        say("case_highest"),
        1,
        (
            (0.0, "ok", "w1", "claim", "t1", 1, 0),
            (2.0, "ok", "w2", "claim", "t1", 2, 0),
            (3.0, "ok", "w3", "claim", "t1", 1, 0),
            (4.0, "ok", "w3", "save", "t1", 1, 1),
        ),
    ),
    "order": (
        say("case_order"),
        1,
        (
            (0.0, "ok", "w1", "claim", "t1", 1, 0, {"lease_until": 2.0}),
            (3.0, "ok", "w1", "save", "t1", 1, 1),
            (3.0, "ok", "w2", "claim", "t1", 2, 1),
            (3.0, "ok", "w1", "save", "t1", 1, 2),
        ),
    ),
    "cancel": (
        say("case_cancel"),
        1,
        (
            (0.0, "ok", "w1", "claim", "t1", 1, 0),
            (2.0, "ok", "user", "cancel", "t1", 2, None),
            (3.0, "ok", "w1", "save", "t1", 1, 1),
        ),
    ),
}


def _hand_written(rule: Any, case: str) -> None:
    """The student's rule must find as many stale commits as the case holds."""
    what, want, rows = CASES[case]
    found = _count(rule, events_of(*rows))
    require(found == want, say("found_expected", what=what, found=found, want=want))


def _recorded_unfenced_histories(rule: Any) -> None:
    for seed in UNFENCED_SEEDS:
        history = simulate(UNFENCED, seed=seed).history.events
        found, truth = _count(rule, history), len(reference_stale_commits(history))
        require(
            found == truth,
            say("unfenced_more" if found > truth else "unfenced_fewer", found=found),
        )


def _recorded_fenced_history(rule: Any) -> None:
    history = simulate(UNFENCED.with_(variant="fenced"), seed=UNFENCED_SEEDS[0]).history
    found = _count(rule, history.events)
    require(found == 0, say("fenced_reported", found=found))


def _one_sentence_per_commit_in_order(rule: Any) -> None:
    answer = rule(
        events_of(
            (0.0, "ok", "w1", "claim", "t3", 1, 0),
            (0.5, "ok", "w2", "claim", "t7", 1, 0),
            (1.0, "ok", "w3", "claim", "t7", 2, 0),
            (2.0, "ok", "w4", "claim", "t3", 2, 0),
            (3.0, "ok", "w2", "save", "t7", 1, 1),
            (4.0, "ok", "w1", "save", "t3", 1, 1),
        )
    )
    if not isinstance(answer, list):
        raise Fail(say("sentences_not", kind=kind_of(answer)))
    odd = [x for x in answer if not isinstance(x, str)]
    require(not odd, say("sentences_not_list_of", kind=kind_of(odd[0]) if odd else ""))
    require(
        len(answer) == 2 and "t7" in answer[0] and "t3" in answer[1],
        say("sentences_in_order"),
    )


# ------------------------------------------------------------------ generated histories ---

#: Generated histories per property (each is one call of the learner's rule, one round trip
#: into the sandbox with the whole history).
_EXAMPLES = 16
_TASKS = ("t3", "t7")
_WORKERS = ("w1", "w2", "w3")

#: A move: ``(op, task, worker, pick, ok)``. A claim grants the next epoch of its task (pick 3:
#: a broken ledger grants the first one again), or is refused (not ok); a save uses the
#: ``pick``-th epoch granted to its task, oldest first, accepted or refused; a cancel grants
#: the next epoch.
_MOVE = st.tuples(
    st.sampled_from(("save", "claim")),
    st.sampled_from(_TASKS),
    st.sampled_from(_WORKERS),
    st.integers(0, 3),
    st.booleans(),
)
_CANCEL = st.tuples(
    st.just("cancel"), st.sampled_from(_TASKS), st.just("user"), st.just(0), st.just(True)
)

#: Played first: two stale commits in one task.
_SEVERAL = [
    [
        ("claim", "t3", "w1", 0, True),
        ("claim", "t3", "w2", 0, True),
        ("save", "t3", "w1", 0, True),
        ("save", "t3", "w1", 0, True),
    ]
]


def _histories(*, cancels: bool) -> Any:
    moves = st.one_of(_MOVE, _CANCEL) if cancels else _MOVE
    return st.lists(moves, min_size=1, max_size=10)


def generated(moves: list[tuple], story: Story) -> list[Event]:
    """The history of ``moves`` (two moves per time unit, so some share a time), each move
    told in ``story``."""
    granted: dict[str, list[int]] = {task: [] for task in _TASKS}
    steps = dict.fromkeys(_TASKS, 0)
    rows: list[tuple] = []
    for i, (op, task, worker, pick, ok) in enumerate(moves):
        time, epochs = float(i // 2), granted[task]
        if op == "save":
            epoch = epochs[pick % len(epochs)] if epochs else 1
            rows.append(
                (time, "ok" if ok else "fail", worker, "save", task, epoch, steps[task] + 1)
            )
            steps[task] += ok
            verdict = "ok" if ok else "refused"
            story.add(say(f"move_save_{verdict}", worker=worker, task=task, epoch=epoch))
        elif op == "claim" and not ok:
            rows.append((time, "fail", worker, "claim", task, None, None, {"reason": "lease-held"}))
            story.add(say("move_claim_refused", worker=worker, task=task))
        else:
            epoch = (
                epochs[0] if op == "claim" and pick == 3 and epochs else max(epochs, default=0) + 1
            )
            epochs.append(epoch)
            rows.append((time, "ok", worker, op, task, epoch, steps[task]))
            story.add(
                say("move_claim", worker=worker, task=task, epoch=epoch)
                if op == "claim"
                else say("move_cancel", task=task, epoch=epoch)
            )
    return events_of(*rows)


def rule_counts(rule: Any) -> Any:
    """The property: on a generated history the rule finds as many stale commits as the kit's."""

    def holds(moves: list[tuple], story: Story) -> None:
        history = generated(moves, story)
        found, truth = _count(rule, history), len(stale_commit_events(history))
        require(
            found == truth,
            say("rule_found", found=found, truth=truth),
        )

    return holds


def rule_names(rule: Any) -> Any:
    """The property: when the count is right, sentence i names the task of stale commit i."""

    def holds(moves: list[tuple], story: Story) -> None:
        history = generated(moves, story)
        answer = rule(history)
        truth = [e.task for e, _ in stale_commit_events(history)]
        if not isinstance(answer, (list, tuple)) or len(answer) != len(truth):
            return  # the count is judged by the properties of the core idea
        for i, (sentence, task) in enumerate(zip(answer, truth, strict=True)):
            require(
                isinstance(sentence, str) and task in sentence,
                say("sentence_names", i=i + 1, got=shown_value(sentence), task=task),
            )

    return holds
