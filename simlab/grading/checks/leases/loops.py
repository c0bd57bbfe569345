"""Properties of the worker loop: generated starts (fresh, saved halfway by another worker with
any checkpoint then released or left to run out, completed, cancelled, held), numbers of steps
and trouble (a cancel or a takeover right after the claim, during a step, or right after a
save), the student's
``run_task`` beside the exercise's loop run by the grader on the same ledger and trouble.

Three properties, one per criterion of the question: once the loop lost the task it works no
further step and says ``"lost"`` (:data:`LOST`); a task it may not claim is ``"refused"``
untouched (:data:`REFUSED`); otherwise it answers, works and leaves the ledger as the
exercise's loop does (:data:`RUNS`), and where trouble came but it worked the same steps and
answered alike, it leaves the same row (a result only with the last step's save). Playing one
input is remembered, so the three share their calls into the sandbox.

Each input is played in the question's hidden world
(:mod:`~simlab.grading.checks.leases.world`): the loop runs the world's task (beside another
whose ID its own is a prefix of) as the world's worker, with the world's ttl passed, on a clock
that starts at the world's start, and the work returns the world's outputs. The story names
them ``t1``, ``w0`` and ``w1``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from simlab.errors import LeaseHeld, TerminalTask
from simlab.grading.checks.leases.driving import Clock
from simlab.grading.checks.leases.messages import say
from simlab.grading.checks.leases.scripted import ScriptedLedger, ScriptedWork
from simlab.grading.checks.leases.world import World
from simlab.grading.lending import Lent
from simlab.grading.messages import Message
from simlab.grading.properties import Story, falsify, st
from simlab.grading.questions import Fail
from simlab.grading.student import Student, shown_value, shown_values
from simlab.ledger import Ledger
from simlab.records import STATUSES, Lease

__all__ = ["LOST", "REFUSED", "RUNS", "LoopPlays", "inputs", "check", "LOOP_STORIES"]

LOST, REFUSED, RUNS = "lost", "refused", "runs"
#: Generated inputs per property.
EXAMPLES = 8

_CHECKPOINTS = {
    "none": None,
    "output": {"output": "output-0"},
    "step 0": {"output": "output-0", "step": 0},
    "step 3": {"step": 3},
}
#: How a story names each checkpoint.
_SAID = {
    "none": say("checkpoint_none"),
    "output": say("checkpoint_output"),
    "step 0": say("checkpoint_step", step=0),
    "step 3": say("checkpoint_step", step=3),
}


@functools.cache
def inputs() -> st.SearchStrategy[tuple]:
    """(steps, start, trouble): ``start`` is ``("fresh",)``, ``("released" | "expired", saved
    step, checkpoint name)`` or ``("completed" | "cancelled" | "held",)``; ``trouble`` is
    ``None``, ``("work" | "save" | "claim", step, "cancel" | "steal")`` or ``("work" | "claim",
    step, "ahead")`` (the actions of :func:`~simlab.grading.checks.leases.scripted.ScriptedWork`;
    ``"claim"``: right after the claim, before the first step; its step is not used). After
    ``"ahead"`` the loop has lost the task once its save is refused, not before: right after the
    claim, the stored step is then ahead of the lease's. Steps are folded into range when
    played. Built once per process: its ``repr``, which keys the draws
    :func:`~simlab.grading.properties.falsify` keeps, costs more than building it."""
    saved = st.tuples(
        st.sampled_from(("released", "expired")),
        st.integers(1, 3),
        st.sampled_from(tuple(_CHECKPOINTS)),
    )
    start = st.one_of(
        st.just(("fresh",)), saved, st.sampled_from((("completed",), ("cancelled",), ("held",)))
    )
    trouble = st.one_of(
        st.none(),
        st.tuples(
            st.sampled_from(("work", "save", "claim")),
            st.integers(0, 3),
            st.sampled_from(("cancel", "steal")),
        ),
        st.tuples(st.sampled_from(("work", "claim")), st.integers(0, 3), st.just("ahead")),
    )
    return st.tuples(st.integers(1, 4), start, trouble)


#: Inputs played before the generated ones: a checkpoint that disagrees with the ledger's step;
#: trouble right after the claim (the heartbeat before the first step sees it); a cancel during
#: the second step (the first step's save must leave no result); a takeover right after the
#: first step's save (the heartbeat before the second step sees it); a second process with the
#: same lease saving the first step first (the loop's save of it is refused, its next heartbeat
#: granted: only the save's answer tells the loop it lost), also right after the claim (the
#: stored step is then ahead of the lease's: the loop resumes from the lease's), and during the
#: last step, done with the loop's own output ("completed" only after the loop's own last save
#: was accepted). ``"finish"`` is played in these stories only (the generated trouble leaves it
#: out, so its draws stay those of every earlier grader).
LOOP_STORIES = (
    (3, ("released", 2, "step 0"), None),
    (4, ("expired", 1, "step 3"), None),
    (3, ("fresh",), ("claim", 0, "cancel")),
    (3, ("released", 1, "output"), ("claim", 0, "steal")),
    (3, ("fresh",), ("work", 1, "cancel")),
    (3, ("fresh",), ("save", 0, "steal")),
    (3, ("fresh",), ("work", 0, "ahead")),
    (3, ("released", 1, "output"), ("claim", 0, "ahead")),
    # the second process saves the last step first, done, with the output the loop's work
    # returns: the loop's last save is refused though the stored result equals its output
    (3, ("fresh",), ("work", 2, "finish")),
)


def _folded(steps: int, start: tuple, trouble: tuple | None) -> tuple[tuple, tuple | None]:
    if start[0] in ("released", "expired"):
        start = (start[0], 1 + (start[1] - 1) % (steps - 1), start[2]) if steps > 1 else ("fresh",)
    if trouble is not None:
        where, step, action = trouble
        if where == "work":
            trouble = (where, step % steps, action)
        elif where == "claim":
            trouble = (where, 0, action)
        elif steps > 1:  # after the save of a step that is not the last
            trouble = (where, 1 + step % (steps - 1), action)
        else:
            trouble = None
    return start, trouble


def _setup(start: tuple, task: str, second: str, other: str) -> Callable[[Ledger], None]:
    """The ledger before the loop starts: ``task`` and ``second`` submitted, then ``task``
    as ``start`` says (``other`` the worker that held it)."""

    def setup(ledger: Ledger) -> None:
        ledger.submit(task)
        ledger.submit(second)
        kind = start[0]
        if kind == "fresh":
            return
        if kind == "cancelled":
            ledger.cancel(task)
            return
        lease = ledger.claim(task, other, 30.0)
        if kind == "completed":
            ledger.save(lease, 1, done=True, result="done")
        elif kind in ("released", "expired"):
            ledger.save(lease, start[1], checkpoint=_CHECKPOINTS[start[2]])
            if kind == "released":
                ledger.release(lease)
        # "held": w0's lease is live; "expired": it runs out before the loop starts

    return setup


#: How a story names each trouble's action.
_WHO = {
    "cancel": "user_cancels",
    "steal": "takes_over",
    "ahead": "saves_ahead",
    "finish": "saves_last_first",
}
#: The trouble a loop learns of only from its refused save (a second process with its lease).
_SAVED_FIRST = ("ahead", "finish")


def _told(steps: int, start: tuple, trouble: tuple | None) -> list[Message]:
    moves = [say("has_steps" if steps > 1 else "has_step", n=steps)]
    kind = start[0]
    if kind in ("released", "expired"):
        key = "saved_released" if kind == "released" else "saved_expired"
        moves.append(say(key, step=start[1], checkpoint=_SAID[start[2]]))
    elif kind != "fresh":
        moves.append(
            say({"completed": "t1_completed", "cancelled": "t1_cancelled"}.get(kind, "w0_holds"))
        )
    if trouble is not None:
        where, step, action = trouble
        who = say(_WHO[action], task="t1")
        if where == "claim":
            moves.append(say("after_loop_claim", who=who))
        else:
            key = "during_step" if where == "work" else "after_save"
            moves.append(say(key, who=who, step=step))
    moves.append(say("loop_runs"))
    return moves


class _LoggedWork(ScriptedWork):
    """Logs each step worked, and ``"trouble"`` after a step whose trouble lost the loop the
    task (a cancel or a takeover; after ``"ahead"`` it is the refused save that tells)."""

    def __init__(self, *args: Any, log: list):
        super().__init__(*args)
        self.log = log

    def __call__(self, step: Any) -> Any:
        self.log.append("work")
        scripted = type(step) is int and self.script.get(step, "ahead") not in _SAVED_FIRST
        try:
            return super().__call__(step)
        finally:
            if scripted:
                self.log.append("trouble")


class _LoggedLedger(ScriptedLedger):
    """Logs ``"trouble"`` when the loop has lost the task: right after a claim or a save
    followed by a cancel or a takeover, or at a save refused after ``ahead`` trouble (a second
    process with the same lease saved first)."""

    def __init__(self, *args: Any, log: list, ahead: bool = False):
        super().__init__(*args)
        self.log = log
        self.ahead = ahead

    def claim(self, task_id: str, worker: str, ttl: float) -> Lease:
        lease = super().claim(task_id, worker, ttl)
        if self.after_claim not in (None, "ahead"):
            self.log.append("trouble")
        return lease

    def save(self, lease: Lease, step: int, **kwargs: Any) -> bool:
        accepted = super().save(lease, step, **kwargs)
        if (accepted and step in self.after_save) or (self.ahead and not accepted):
            self.log.append("trouble")
        return accepted


def _reference(
    ledger: Any, task_id: str, worker: str, work: Any, steps: int, ttl: float = 30.0
) -> str:
    """The loop the exercise describes."""
    try:
        lease = ledger.claim(task_id, worker, ttl)
    except (LeaseHeld, TerminalTask):
        return "refused"
    for step in range(lease.step, steps):
        if not ledger.heartbeat(lease, ttl):
            return "lost"
        output = work(step)
        done = step + 1 == steps
        saved = ledger.save(
            lease,
            step + 1,
            checkpoint={"output": output},
            done=done,
            result=output if done else None,
        )
        if not saved:
            return "lost"
    return "completed"


class LoopPlays:
    """Plays inputs with the student's ``run_task`` and the reference in ``world``, each on a
    new in-memory ledger of the grader's with the trouble done on it
    (:class:`~simlab.grading.checks.leases.scripted.ScriptedLedger`); remembers what each input
    gave, by the input as played (inputs that fold to the same one are played once).

    Each start is set up once, on a kit ledger of its own that is then only read: every ledger
    an input with that start is played on begins as a page copy of it (what
    :func:`~simlab.grading.checks.leases.scripted.on` leaves, since the setup runs on the same
    clock time whatever the input). :meth:`close` when done."""

    def __init__(self, s: Student, world: World):
        self.s = s
        self.world = world
        self.seen: dict[tuple, tuple] = {}
        self._starts: dict[tuple, Ledger] = {}

    def _start(self, start: tuple) -> Ledger:
        """The kit ledger set up as ``start`` says, before the loop's clock starts."""
        ledger = self._starts.get(start)
        if ledger is None:
            world = self.world
            ledger = Ledger(":memory:", clock=Clock(world.start - 1.0))
            _setup(start, world.tasks[0], world.tasks[1], world.workers[2])(ledger)
            self._starts[start] = ledger
        return ledger

    def close(self) -> None:
        """Close the ledgers of the starts set up so far."""
        for ledger in self._starts.values():
            ledger.close()
        self._starts.clear()

    def _run(self, loop: Callable[..., Any], steps: int, start: tuple, trouble: tuple | None):
        world = self.world
        task = world.tasks[0]
        clock = Clock(world.start - 1.0)
        script = {} if trouble is None or trouble[0] != "work" else {trouble[1]: trouble[2]}
        after = {} if trouble is None or trouble[0] != "save" else {trouble[1]: trouble[2]}
        claimed = None if trouble is None or trouble[0] != "claim" else trouble[2]
        log: list = []
        ahead = trouble is not None and trouble[2] in _SAVED_FIRST
        with _LoggedLedger(
            ":memory:", after, clock, world.thief, claimed, log=log, ahead=ahead
        ) as ledger:
            # as on() does: a page copy, so none of the scripted ledger's own methods runs
            self._start(start)._db.backup(ledger._db)
            clock.now = world.start + (100.0 if start[0] == "expired" else 0.0)
            work = _LoggedWork(ledger, task, script, clock, world.work_output, world.thief, log=log)
            answer = loop(ledger, work)
            return answer, list(work.calls), ledger.get(task), log, list(ledger.ttls)

    def play(self, value: tuple) -> tuple:
        steps, start, trouble = value
        start, trouble = _folded(steps, start, trouble)
        played = (steps, start, trouble)
        if played not in self.seen:
            task, worker, ttl = self.world.tasks[0], self.world.workers[0], self.world.ttls[0]

            def mine(ledger: Any, work: Any) -> Any:
                lent = Lent(ledger, "Ledger"), task, worker, Lent(work, "Work"), steps, ttl
                return self.s.call("run_task", *lent)

            def reference(ledger: Any, work: Any) -> Any:
                return _reference(ledger, task, worker, work, steps, ttl)

            got = self._run(mine, steps, start, trouble)
            want = self._run(reference, steps, start, trouble)
            self.seen[played] = (_told(steps, start, trouble), got, want)
        return self.seen[played]


def _steps(calls: list) -> Message:
    return shown_values(shown_value(c) for c in calls)


#: Fields of the task row whose values come from the hidden world: a difference there is told
#: by what the value should be, never by the values themselves.
_WORLDLY = ("worker", "result", "checkpoint", "lease_until", "updated_at")


def _verdict(what: str, got: tuple, want: tuple) -> Message | None:
    answer, calls, record, log, ttls = got
    if what == LOST:
        if "trouble" in log:
            after = log[log.index("trouble") + 1 :]
            if "work" in after:
                return say("worked_after_lost")
            if answer != "lost":
                return say("returned_after_lost", got=_shown_field(answer))
        return None
    if what == REFUSED:
        if want[0] == "refused":
            if answer != "refused":
                return say("returned_may_not", got=shown_value(answer))
            if calls:
                return say("worked_may_not")
        return None
    if want[0] == "refused":
        return None  # judged by REFUSED
    if "trouble" in want[3]:
        # The first step comes before any trouble but one right after the claim, which either
        # stops both loops at their heartbeat or moves the stored step past the lease's: a
        # loop that starts from another step than the exercise's did not resume from the
        # lease's step.
        if calls and want[1] and calls[0] != want[1][0]:
            return say("loop_worked", got=_steps(calls), want=_steps(want[1]))
        # When to stop is judged by LOST; a loop that worked and answered as the exercise's
        # did leaves the same row, and a save before the last carries no result.
        if calls != want[1] or answer != want[0]:
            return None
        return _row_verdict(record, want[2])
    if calls != want[1]:
        return say("loop_worked", got=_steps(calls), want=_steps(want[1]))
    if answer != want[0]:
        return say("loop_returned", got=shown_value(answer), want=shown_value(want[0]))
    if not ttls or set(ttls) != set(want[4]):
        return say("loop_ttl")
    return _row_verdict(record, want[2])


def _row_verdict(record: Any, want: Any) -> Message | None:
    """What differs between the task row the student's loop left and the reference's."""
    for name in ("status", "step", "result", "checkpoint", "worker"):
        if getattr(record, name) != getattr(want, name):
            if name == "result" and want.result is None:
                return say("loop_result_early")
            if name in _WORLDLY:
                should = "should_given_worker" if name == "worker" else f"should_{name}"
                return say("loop_left_not", field=name, want=say(should))
            return say(
                "loop_left",
                field=name,
                got=_shown_field(getattr(record, name)),
                want=_shown_field(getattr(want, name)),
            )
    return None


def _shown_field(value: Any) -> Message | str:
    """A row's value for feedback: a status the kit's ledger knows (``'completed'``), which no
    world draws, quoted even where feedback is quiet; anything else as :func:`shown_value`
    shows it."""
    if isinstance(value, str) and value in STATUSES:
        return repr(value)
    return shown_value(value)


def check(plays: LoopPlays, what: str, examples: int = EXAMPLES) -> None:
    """The property ``what`` (:data:`LOST`, :data:`REFUSED` or :data:`RUNS`) on generated
    inputs: fails with the story of the smallest input that breaks it."""

    def holds(value: tuple, story: Story) -> None:
        told, got, want = plays.play(value)
        said = _verdict(what, got, want)
        if said is not None:
            for move in told:
                story.add(move)
            raise Fail(said)

    falsify(inputs(), holds, examples=examples, first=LOOP_STORIES)
