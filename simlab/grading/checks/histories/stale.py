"""Question ``stale-commits``: the student's rule "no stale commit accepted" on hand-written
histories (one property per case) and on histories the simulator recorded with and without the
fence; its findings must match the kit's own rule (:func:`simlab.checker.checker.stale_commits`).

The core cases count findings only (any list will do); the sentences themselves are judged by
one part of their own, so a rule that finds the right saves but words them badly loses a detail,
not the idea.

Everything the rule reads beyond the hand-written cases comes from the hidden world
(:func:`stale_world`): the recorded runs (scenario and seed, never the notebook's), and the
names of the two tasks of the two-task case and of the generated histories, one a prefix of the
other, and a history where a save of an older epoch has an unknown outcome (``info``, which the
simulator never records: the text counts only ``type == "ok"``), and a history whose times go
back (a stale save stamped before the newer claim it is listed after: the text walks the
events in the order the history lists them), a history where a newer claim's reply was
lost and one where a cancel's was (``info``: the text grants an epoch on ``type == "ok"``
only), a history of tasks whose names differ only by a prefix, capitals, white space or
Unicode form, and one where a save of an epoch above every granted one is followed by a save
of the granted epoch (a save grants none, refused or accepted), one where the older epoch
saves after a release and after a cancel and a requeue (neither takes a grant back) as its
epochs gain a digit, one where a cancel ok is the task's first grant, and one where a stale
save is recorded twice before another task's stale save stamped earlier (one sentence per
stale commit, in history order). A count typed in from a run, a rule that tells tasks apart
loosely, one that takes ``info`` for ``ok`` (of a save, a claim or a cancel), one that lets a
save grant its epoch, one that forgets a task's epoch on a release or a requeue, one that
compares epochs as strings, or one that sorts the events (or its sentences) by time is wrong
there.
"""

from __future__ import annotations

import functools
from typing import Any

from simlab.checker.checker import stale_commit_events
from simlab.checker.checker import stale_commits as reference_stale_commits
from simlab.checker.history import History
from simlab.grading.checks.histories.messages import say
from simlab.grading.checks.histories.stale_world import StaleWorld, stale_world
from simlab.grading.messages import Message
from simlab.grading.properties import Story, falsify, st
from simlab.grading.questions import Criterion, Fail, Tally, require
from simlab.grading.student import Student, kind_of, shown_value
from simlab.sim.simulation import simulate

__all__ = [
    "CASES",
    "case_rows",
    "STALE_RUBRIC",
    "events_of",
    "stale_commits",
]


def events_of(*rows: tuple) -> History:
    """A hand-written history: one :meth:`History.record` call per row, a trailing dict being
    the event's ``value``. It is a :class:`History`, the type the exercise's text and check
    cells hand the learner's functions, so every documented way of reading one (iterating,
    ``len``, indexing, ``.events``) works on what the grader hands them too."""
    h = History()
    for row in rows:
        value: dict = {}
        if isinstance(row[-1], dict):
            row, value = row[:-1], row[-1]
        h.record(*row, **value)
    return h


def stale_commits(s: Student, t: Tally) -> None:
    """The student's rule on hand-written histories, then on recorded runs with and without
    the fence; parts are filed under the criteria of :data:`STALE_RUBRIC`. The world
    (:func:`stale_world`) is drawn before any part runs."""
    rule = s.function("stale_commits")
    world = stale_world()
    t.under("newer-epoch")
    for case in (
        "takeover",
        "same-worker",
        "same-step",
        "refused",
        "two-tasks",
        "highest",
        "order",
        "refused-epochs",
    ):
        t.part(functools.partial(_hand_written, rule, case, world.tasks))
    t.part(functools.partial(_recorded_unfenced_histories, rule, world))
    t.part(functools.partial(_recorded_fenced_history, rule, world))
    for field in ("unknown", "clocks", "lost_claim", "lost_cancel", "names", "above", "kept"):
        t.part(functools.partial(_as_the_kit, rule, world, field))
    t.part(
        lambda: falsify(
            _histories(cancels=False),
            rule_counts(rule, world.tasks),
            examples=_EXAMPLES,
            first=_SEVERAL,
        )
    )
    t.under("cancel")
    t.part(functools.partial(_hand_written, rule, "cancel", world.tasks))
    t.part(functools.partial(_as_the_kit, rule, world, "cancel_first"))
    t.part(
        lambda: falsify(
            _histories(cancels=True), rule_counts(rule, world.tasks), examples=_EXAMPLES
        )
    )
    t.under("sentences")
    t.part(functools.partial(_one_sentence_per_commit_in_order, rule, world))
    t.part(functools.partial(_sentences_name_no_other_task, rule, world))
    t.part(
        lambda: falsify(
            _histories(cancels=False),
            rule_names(rule, world.tasks),
            examples=_EXAMPLES // 2,
            first=_SEVERAL,
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
            "a save of unknown outcome (type info) taken for an accepted one",
            "judges by timestamps or lease expiry instead of the order of events",
            "one epoch for all tasks, or tasks told apart by a prefix of their names",
            "task names compared in folded capitals",
            "task names compared stripped of white space, or normalised (NFC, NFKC)",
            "!= instead of <: a save of an epoch above every granted one taken for stale",
            "reports only the first stale commit of each task",
            "reports one stale commit per step: two stale workers saving the same step count once",
            "counts typed in for the notebook's run (or any run known beforehand)",
            "a refused claim or cancel (or its invoke) taken for a grant of its epoch",
            "a claim of unknown outcome (type info: its reply lost) taken for a grant",
            "a cancel of unknown outcome (type info) taken for a grant",
            "an accepted save taken for a grant: a save of a higher epoch raises the task's",
            "a refused save taken for a grant: a refused save of a higher epoch raises the task's",
            "a release or a requeue taken to undo the grants: the task's epoch forgotten",
            "epochs compared as strings: epoch 10 taken for lower than 9",
        ),
        properties=(
            "On generated histories of two tasks (claims granted, refused or granting an old "
            "epoch again, saves accepted or refused, several stale commits in one task), the "
            "rule finds as many stale commits as the kit's rule.",
        ),
        text=(
            '**Write the checker rule "no stale commit accepted"** and run it on recorded '
            "histories.",
            "Walk the events in the order the history lists them (not sorted by time: their times "
            "may go back) and remember, per task, the highest epoch granted so far.",
            'Two kinds of events grant an epoch: a successful claim (`op == "claim"`, '
            '`type == "ok"`) and a successful cancel (`op == "cancel"`, `type == "ok"`: a '
            "cancel bumps the epoch too).",
            'A successful save (`op == "save"`, `type == "ok"`) whose epoch is **lower** than '
            "that is a stale commit: the ledger should have refused it.",
            'A refused save (`type == "fail"`) is the fence working, not a violation.',
        ),
        world=(
            "Two recorded runs with the fence off and one with it on, each a scenario (tasks, "
            "workers, pause rate) and seed drawn besides the notebook's, the unfenced ones "
            "with different counts of stale commits; a history where a save of the older epoch "
            "after a takeover has an unknown outcome (type info), its workers and times drawn, "
            "followed or not (drawn) by an accepted stale save; a history whose times go back "
            "(the old epoch's save listed after the newer claim, stamped before it); a history "
            "where a newer claim's outcome is unknown (type info) before the old epoch's "
            "accepted save, its workers and times drawn, followed or not (drawn) by a claim ok "
            "of a newer epoch and another save of the old one; the same with a cancel of "
            "unknown outcome (type info) in place of the claim; a history of tasks, their "
            "names drawn: one holding an accent, one that differs from it in its last character "
            "only, the first in other capitals, with white space before or after it, with its "
            "first character full-width and with its accent decomposed, the first's save stale "
            "only when tasks are mixed; a history with an accepted save of an epoch above every "
            "granted one (epochs drawn), then a save of the granted epoch, after another "
            "worker's refused save of a higher epoch still; a history where the older epoch's "
            "accepted saves come after the newer holder's release and after a cancel and a "
            "requeue, the older epoch 9 or 99 (drawn) and the newer ones a digit longer; and "
            "the two tasks of the two-task case and of the generated histories named so that "
            "one name is a prefix of the other."
        ),
    ),
    Criterion(
        "cancel",
        1,
        "A cancel ok grants an epoch too: a save of an older epoch after it is stale.",
        mistakes=("a cancel ok counted only for a task a claim ok had already been granted",),
        properties=("On generated histories with cancels too, the count is the kit's rule's.",),
        text=(
            'Two kinds of events grant an epoch: a successful claim (`op == "claim"`, '
            '`type == "ok"`) and a successful cancel (`op == "cancel"`, `type == "ok"`: a '
            "cancel bumps the epoch too).",
        ),
        world=(
            "The generated histories' two tasks are named as for the core idea; a history "
            "where the task's only claim has an unknown outcome (type info) and a cancel ok "
            "grants the next epoch before the claimed epoch's save is accepted (worker, times, "
            "epoch and step drawn)."
        ),
    ),
    Criterion(
        "sentences",
        1,
        "The rule returns a list of sentences (strings), one per stale commit in history order, "
        "each naming its task and no other.",
        mistakes=(
            "names another task of the history in every sentence (one typed in)",
            "equal sentences given once: a retried save's stale commit reported once",
            "the sentences put in the order of their times, not the history's",
        ),
        properties=(
            "On generated histories where the count is right, sentence i names the task of the "
            "i-th stale commit (the name whole, not as the start of a longer one) and not the "
            "history's other task.",
        ),
        text=(
            "Return a list with one sentence per stale commit, in history order, and name its "
            "task in it (that task only, no other task of the history)",
        ),
        world=(
            "The generated histories' two tasks are named as for the core idea, so a sentence "
            "must name its own task, not one whose name starts the same; on the history of "
            "drawn task names and on the recorded unfenced runs (whose stale commits "
            "are in two tasks or more), each sentence names its task and no other task of its "
            "history; a history of two tasks whose stale commits are one task's save, that "
            "same save recorded again (a retry), then the other task's save stamped before "
            "them (workers and times drawn)."
        ),
    ),
)


def _count(rule: Any, history: History) -> int:
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
    "same-step": (
        say("case_same_step"),
        2,
        (
            (0.0, "ok", "w1", "claim", "t1", 1, 0),
            (1.0, "ok", "w2", "claim", "t1", 2, 0),
            (2.0, "ok", "w3", "claim", "t1", 3, 0),
            (3.0, "ok", "w1", "save", "t1", 1, 1),
            (4.0, "ok", "w2", "save", "t1", 2, 1),
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
    # A ledger may report the epoch it refused a claim or a cancel at (or a client the epoch
    # it asked for): only an ok grants one.
    "refused-epochs": (
        say("case_refused_epochs"),
        0,
        (
            (0.0, "ok", "w1", "claim", "t1", 1, 0),
            (1.0, "invoke", "w2", "claim", "t1", 3),
            (1.5, "fail", "w2", "claim", "t1", 3, None, {"reason": "lease-held"}),
            (2.0, "fail", "user", "cancel", "t1", 4, None),
            (3.0, "ok", "w1", "save", "t1", 1, 1),
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


def case_rows(case: str, tasks: tuple[str, str]) -> tuple[tuple, ...]:
    """The rows of hand-written ``case`` with its tasks ``t1`` and ``t2`` named ``tasks``."""
    names = {"t1": tasks[0], "t2": tasks[1]}
    return tuple(
        tuple(names.get(v, v) if isinstance(v, str) else v for v in row) for row in CASES[case][2]
    )


def _found(found: int, truth: int) -> Message:
    """How the count a rule found compares with the ``truth``: none, more or fewer. Never the
    count itself: a rule may compute it from a hidden input (or one it saw before)."""
    return say("found_none" if found == 0 else "found_more" if found > truth else "found_fewer")


def _hand_written(rule: Any, case: str, tasks: tuple[str, str]) -> None:
    """The student's rule must find as many stale commits as the case holds."""
    what, want, _ = CASES[case]
    found = _count(rule, events_of(*case_rows(case, tasks)))
    require(found == want, say("found_expected", what=what, found=_found(found, want), want=want))


#: The hand-written histories of the world (fields of :class:`StaleWorld`) the rule must count
#: as the kit's does, each with the message that tells what it holds and what decides there;
#: the feedback names neither count, only how the learner's compares (the world drew the rows).
_WORLD_HISTORIES = {
    # a save whose outcome is unknown (info) is not an accepted save
    "unknown": "unknown_outcome",
    # times that go back do not reorder the history: the events are walked as listed
    "clocks": "clock_order",
    # a claim, or a cancel, whose outcome is unknown (info) grants no epoch
    "lost_claim": "lost_claim",
    "lost_cancel": "lost_cancel",
    # tasks are the same only when their names are equal (no prefix, capitals, white space
    # or Unicode form mixes them)
    "names": "task_names",
    # only a lower epoch is stale, and no save grants one, accepted or refused
    "above": "epoch_above",
    # a release or a requeue takes no grant back, and epochs compare as numbers
    "kept": "grants_kept",
    # a cancel ok grants its epoch even before any claim ok (criterion cancel)
    "cancel_first": "cancel_first",
}


def _as_the_kit(rule: Any, world: StaleWorld, field: str) -> None:
    """On the world's hand-written history ``field``, the rule finds as many stale commits as
    the kit's rule (:data:`_WORLD_HISTORIES` names the message that says why not)."""
    history = events_of(*getattr(world, field))
    found, truth = _count(rule, history), len(reference_stale_commits(history))
    require(found == truth, say(_WORLD_HISTORIES[field], found=_found(found, truth)))


def _sentences_name_no_other_task(rule: Any, world: StaleWorld) -> None:
    """On the world's history of drawn task names and on its recorded unfenced runs,
    where the count is right, each sentence names its task and no other task of its history
    (feedback names neither: they are hidden)."""
    histories = [events_of(*world.names)]
    histories += [simulate(scenario, seed=seed).history for scenario, seed in world.unfenced]
    for history in histories:
        answer = rule(history)
        truth = [e.task for e, _ in stale_commit_events(history)]
        if not isinstance(answer, (list, tuple)) or len(answer) != len(truth):
            continue  # the count is judged by the core idea
        tasks = {e.task for e in history if e.task is not None}
        for sentence, task in zip(answer, truth, strict=True):
            require(names_task(sentence, task), say("hidden_sentence_names"))
            others = [t for t in tasks if t != task and names_task(sentence, t)]
            require(not others, say("hidden_sentence_names_other"))


def _recorded_unfenced_histories(rule: Any, world: StaleWorld) -> None:
    for scenario, seed in world.unfenced:
        history = simulate(scenario, seed=seed).history
        found, truth = _count(rule, history), len(reference_stale_commits(history))
        require(
            found == truth,
            say("unfenced_more" if found > truth else "unfenced_fewer"),
        )


def _recorded_fenced_history(rule: Any, world: StaleWorld) -> None:
    scenario, seed = world.fenced
    found = _count(rule, simulate(scenario, seed=seed).history)
    require(found == 0, say("fenced_reported"))


def _one_sentence_per_commit_in_order(rule: Any, world: StaleWorld) -> None:
    """On the world's history of ``t7`` and ``t3`` (a stale save of ``t7`` recorded twice,
    then ``t3``'s stamped before it): a list of strings, one per stale commit, in history
    order, each naming its task and not the other."""
    history = events_of(*world.sentences)
    answer = rule(history)
    if not isinstance(answer, list):
        raise Fail(say("sentences_not", kind=kind_of(answer)))
    odd = [x for x in answer if not isinstance(x, str)]
    require(not odd, say("sentences_not_list_of", kind=kind_of(odd[0]) if odd else ""))
    truth = [e.task for e, _ in stale_commit_events(history)]
    require(
        len(answer) == len(truth)
        and all(names_task(a, task) for a, task in zip(answer, truth, strict=True)),
        say("sentences_in_order"),
    )
    for i, task in enumerate(truth):
        _names_no_other(answer[i], i, task, ("t3", "t7"))


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


def generated(moves: list[tuple], story: Story, tasks: tuple[str, str] = _TASKS) -> History:
    """The history of ``moves`` (two moves per time unit, so some share a time), each move
    told in ``story``; the moves' tasks (:data:`_TASKS`) are named ``tasks``."""
    names = dict(zip(_TASKS, tasks, strict=True))
    granted: dict[str, list[int]] = {task: [] for task in tasks}
    steps = dict.fromkeys(tasks, 0)
    rows: list[tuple] = []
    for i, (op, drawn, worker, pick, ok) in enumerate(moves):
        task = names[drawn]
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


def rule_counts(rule: Any, tasks: tuple[str, str] = _TASKS) -> Any:
    """The property: on a generated history (its tasks named ``tasks``) the rule finds as many
    stale commits as the kit's."""

    def holds(moves: list[tuple], story: Story) -> None:
        history = generated(moves, story, tasks)
        found, truth = _count(rule, history), len(stale_commit_events(history))
        require(
            found == truth,
            say("rule_found", found=_found(found, truth), truth=truth),
        )

    return holds


def names_task(sentence: Any, task: str) -> bool:
    """Does ``sentence`` name ``task`` whole (not as the start or the end of a longer name)?"""
    return isinstance(sentence, str) and any(
        not (sentence[i - 1 : i].isalnum() or sentence[i + len(task) : i + len(task) + 1].isalnum())
        for i in _found_at(sentence, task)
    )


def _names_no_other(sentence: Any, i: int, task: str, tasks: tuple[str, ...]) -> None:
    """Sentence ``i`` (from 0), about a stale commit of ``task``, names none of the other
    ``tasks`` of its history."""
    for other in tasks:
        require(
            other == task or not names_task(sentence, other),
            say("sentence_names_other", i=i + 1, task=task, other=other),
        )


def _found_at(text: str, part: str) -> list[int]:
    at, found = text.find(part), []
    while at >= 0:
        found.append(at)
        at = text.find(part, at + 1)
    return found


def rule_names(rule: Any, tasks: tuple[str, str] = _TASKS) -> Any:
    """The property: when the count is right, sentence i names the task of stale commit i and
    no other task of the history (on a generated history whose tasks are named ``tasks``)."""

    def holds(moves: list[tuple], story: Story) -> None:
        history = generated(moves, story, tasks)
        answer = rule(history)
        truth = [e.task for e, _ in stale_commit_events(history)]
        if not isinstance(answer, (list, tuple)) or len(answer) != len(truth):
            return  # the count is judged by the properties of the core idea
        for i, (sentence, task) in enumerate(zip(answer, truth, strict=True)):
            require(
                names_task(sentence, task),
                say("sentence_names", i=i + 1, got=shown_value(sentence), task=task),
            )
            _names_no_other(sentence, i, task, tasks)

    return holds
