"""Question ``worker-loop``: the student's ``run_task`` against a ledger on which someone else
(the grader's scripted work and scripted ledger) cancels or takes over the task at chosen
moments. The ledger, the work and the trouble stay in the grader; the loop gets stand-ins of
them, so it sees only what the kit's methods answer: the ledger is in memory and the trouble is
done on it with the kit's own methods, which leave what another process leaves on a ledger
file (each method commits before it returns, and a stand-in offers no transaction)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from simlab.errors import LedgerError, UnknownTask
from simlab.grading.checks.leases import loops
from simlab.grading.checks.leases.driving import Clock
from simlab.grading.checks.leases.messages import say
from simlab.grading.checks.leases.scripted import ScriptedLedger, ScriptedWork, on
from simlab.grading.checks.leases.world import World, world_of
from simlab.grading.lending import Lent
from simlab.grading.messages import Message
from simlab.grading.questions import Criterion, Fail, Tally, require
from simlab.grading.sandbox.supervisor import RemoteError
from simlab.grading.student import Student, shown_value, shown_values
from simlab.grading.text import plain_name
from simlab.ledger import Ledger
from simlab.records import STATUSES

__all__ = ["LOOP_RUBRIC", "worker_loop"]

#: One case of the loop: (name, setup=..., work_script=..., after_save=..., steps=...) ->
#: (answer, the steps work was called for, the task as stored at the end, the lease lengths
#: asked for). ``case.world`` is the world it runs in.
Case = Callable[..., tuple[Any, list, Any, list]]


def worker_loop(s: Student, t: Tally) -> None:
    """Six cases, then generated starts and trouble beside the exercise's loop
    (:mod:`~simlab.grading.checks.leases.loops`), each on a new in-memory ledger of the
    grader's; all in the question's hidden world
    (:func:`~simlab.grading.checks.leases.world.world_of`: the task ID, the worker, the ttl
    passed, the clock, what the work returns and who takes the task over), whose values the
    feedback never quotes."""
    world = world_of("worker-loop")
    t.hidden = t.hidden | frozenset(world.shown())
    case = functools.partial(_case, s, world)
    plays = loops.LoopPlays(s, world)
    t.under("runs-and-resumes")
    t.part(functools.partial(_runs_a_task_to_the_end, world, case))
    t.part(functools.partial(_resumes_from_the_persisted_step, case))
    t.under("refuses")
    t.part(functools.partial(_refuses_finished_or_held_tasks, case))
    t.part(functools.partial(_an_unknown_task_is_no_refusal, s, world))
    t.under("stops-when-lost")
    t.part(functools.partial(_stops_when_taken_over, world, case))
    for part in (
        _stops_when_cancelled,
        _a_cancel_during_the_last_step,
        _heartbeats_before_each_step,
    ):
        t.part(functools.partial(part, case))
    try:
        t.part(lambda: loops.check(plays, loops.LOST))
        t.under("refuses")
        t.part(lambda: loops.check(plays, loops.REFUSED))
        t.under("runs-and-resumes")
        t.part(lambda: loops.check(plays, loops.RUNS))
    finally:
        plays.close()


#: The rubric of ``worker-loop``: the loop trusts the ledger, not itself.
LOOP_RUBRIC = (
    Criterion(
        "stops-when-lost",
        3,
        "The loop stops and reports 'lost' as soon as the ledger says it no longer owns the "
        "task: a refused save (taken over, or cancelled, also during the last step) or a "
        "refused heartbeat before a step (the first one too, right after the claim).",
        core=True,
        mistakes=(
            "never checks save's answer",
            "no heartbeat before each step",
            "a refused save of a step before the last let through (the next heartbeat, still "
            "granted, does not tell)",
            "'completed' after a refused last save, when the stored result equals the output",
        ),
        properties=(
            "On generated starts (fresh, saved halfway by another worker with any checkpoint, "
            "then released or left to run out) and trouble (a cancel or a takeover right after "
            "the claim, during a step or right after a save), once the ledger refuses your loop "
            "it works no further step and answers 'lost'.",
        ),
        text=(
            "before each step, heartbeat the lease for another `ttl` seconds; if the heartbeat "
            'is refused, stop at once: return `"lost"`;',
            'commit it fenced: `ledger.save(lease, step + 1, checkpoint={"output": output})`, '
            "and for the last step `done=True, result=output`; if the save is refused, return "
            '`"lost"`;',
        ),
        world=(
            "The loop runs on a task ID, a worker name, a ttl, a clock start, work outputs and "
            "a rival worker drawn at grading time, beside another task whose ID its own is a "
            "prefix of: a loop that types in the notebook's task, worker or answers is judged "
            "on a task it does not know. Among the trouble, a second process of the loop's "
            "worker with the same lease saves a step first: the loop's save of it is refused "
            "while its next heartbeat is granted; when that step is the last, the second "
            "process completes the task with the output the loop's work returns, so a loop that "
            "reads the stored result to decide it completed answers 'completed' for a refused "
            "save."
        ),
    ),
    Criterion(
        "runs-and-resumes",
        2,
        "A task runs to the end with the last output as its result and each step's "
        "{'output': output} as the checkpoint, resuming from the step the ledger persisted "
        "(whatever the checkpoint holds), claimed for the worker given with leases of the ttl "
        "given.",
        mistakes=(
            "the result or the checkpoint's output stored as text (str(output)), not as the "
            "value work returned",
            "resumes from the step the ledger stores after the claim (ledger.get), not the lease's",
            "works a step again when its work returned None",
        ),
        properties=(
            "On the same generated starts and numbers of steps, without trouble, your loop "
            "answers, works the same steps, asks for leases of the ttl given and leaves the same "
            "task row as the exercise's loop; with trouble, a loop that works the same steps and "
            "answers as the exercise's loop leaves the same row (no result before the last "
            "step's save).",
        ),
        text=(
            "claim the task for `worker`, with a lease of `ttl` seconds;",
            "resume **from the step the lease says** (`lease.step`), never from 0;",
            "before each step, heartbeat the lease for another `ttl` seconds;",
            "do the step: `output = work(step)`;",
            'commit it fenced: `ledger.save(lease, step + 1, checkpoint={"output": output})`, '
            "and for the last step `done=True, result=output`; if the save is refused, return "
            '`"lost"`;',
            'return `"completed"` only after the last save was accepted.',
        ),
        world=(
            "The ttl passed to the loop, its worker, its task and what the work returns are "
            "drawn at grading time (the ttl never 30 s, with a fraction; the outputs dicts, "
            "lists or whole numbers, never strings): a loop that ignores the ttl argument, types "
            "in a worker or result, takes the notebook's outputs, or stores an output as text "
            "(str(output)) in the result or a checkpoint, asks for other leases or leaves "
            "another row than the exercise's loop. In one run the work of a middle step "
            "returns None: a loop that works a step again for it calls work once too often. "
            "Right after some claims, a second process "
            "with the same lease saves the next step, so the step the ledger stores is ahead "
            "of the lease's: a loop that resumes from the stored step works another step."
        ),
    ),
    Criterion(
        "refuses",
        1,
        "A completed task or one leased to another worker is 'refused'; an unknown task is "
        "no refusal (its UnknownTask goes through).",
        properties=(
            "On generated completed, cancelled and held tasks, your loop answers 'refused' and "
            "leaves the task untouched.",
        ),
        text=(
            'if the claim is refused (`LeaseHeld` or `TerminalTask`), return `"refused"`; any '
            "other error of the claim (an unknown task) is not a refusal: let it through;",
        ),
        world=(
            "The task is held, completed or cancelled under a task ID and holder drawn at "
            "grading time: a loop that refuses by the notebook's names refuses nothing here."
        ),
    ),
)


def _case(
    s: Student,
    world: World,
    name: str,
    setup: Callable[[Ledger, str, str], None] | None = None,
    work_script: dict | None = None,
    after_save: dict | None = None,
    steps: int = 3,
    none_at: int | None = None,
) -> tuple[Any, list, Any, list]:
    """Run the student's loop on the world's task of a new in-memory ledger the grader keeps
    (the world's other task beside it), as the world's worker with the world's ttl, with
    stand-ins of the grader's scripted ledger and work (which returns None for step
    ``none_at``, the world's output for every other step); return (answer, the steps work was
    called for, the task as stored at the end, read by the grader, the lease lengths the loop
    asked for). ``name`` names the case where it is read."""
    task, other = world.tasks[0], world.workers[2]

    def output(step: Any) -> Any:
        return None if step == none_at else world.work_output(step)

    def before(ledger: Ledger) -> None:
        ledger.submit(task)
        ledger.submit(world.tasks[1])
        if setup is not None:
            setup(ledger, task, other)

    clock = Clock(world.start - 1.0)
    with ScriptedLedger(":memory:", after_save or {}, clock, world.thief) as ledger:
        on(ledger, before)
        clock.now = world.start
        work = ScriptedWork(ledger, task, work_script or {}, clock, output, world.thief)
        answer = s.call(
            "run_task",
            Lent(ledger, "Ledger"),
            task,
            world.workers[0],
            Lent(work, "Work"),
            steps,
            world.ttls[0],
        )
        return answer, list(work.calls), ledger.get(task), list(ledger.ttls)


# -- how the ledger looks before the loop starts --------------------------------------------------


def _halfway(ledger: Ledger, task: str, other: str) -> None:
    lease = ledger.claim(task, other, 30.0)
    ledger.save(lease, 2)
    ledger.release(lease)


def _completed(ledger: Ledger, task: str, other: str) -> None:
    lease = ledger.claim(task, other, 30.0)
    ledger.save(lease, 3, done=True, result="done")


def _held(ledger: Ledger, task: str, other: str) -> None:
    ledger.claim(task, other, 30.0)


#: What a loop's answers, a row's status and the steps work is called for may be shown as: the
#: words the text names and the steps of the cases' tasks (at most four). Any other value of
#: the learner's only by its type (:func:`~simlab.grading.student.shown_value`).
_KNOWN = ("completed", "lost", "refused", *STATUSES, 0, 1, 2, 3, 4)


def _answer(value: Any) -> Message | str:
    """The learner's answer (or a row's status, a step) as feedback may show it."""
    return shown_value(value, known=_KNOWN)


def _calls(calls: list) -> Message:
    """The steps work was called for, each as :func:`_answer` shows it (eight at most)."""
    return shown_values((_answer(c) for c in calls[:8]), more=len(calls) > 8)


# -- the cases ------------------------------------------------------------------------------------


def _runs_a_task_to_the_end(world: World, case: Case) -> None:
    """A fresh task of three steps, the work of its middle step returning None (what a step
    returns is its output, whatever it is: the step is done once)."""
    answer, calls, record, ttls = case("fresh", none_at=1)
    require(answer == "completed", say("no_trouble", got=_answer(answer)))
    require(calls == [0, 1, 2], say("work_steps", calls=_calls(calls)))
    require(
        (record.status, record.step, record.result) == ("completed", 3, world.work_output(2)),
        say("ends_completed"),
    )
    require(
        record.worker == world.workers[0] and ttls and set(ttls) == {world.ttls[0]},
        say("loop_ttl") if record.worker == world.workers[0] else say("loop_worker"),
    )


def _resumes_from_the_persisted_step(case: Case) -> None:
    answer, calls, record, _ = case("resume", setup=_halfway, steps=4)
    require(
        calls == [2, 3],
        say("resumed_from", first=_answer(calls[0]) if calls else "?", calls=_calls(calls)),
    )
    require(
        answer == "completed" and record.status == "completed",
        say("resumed_incomplete"),
    )


def _stops_when_taken_over(world: World, case: Case) -> None:
    answer, calls, record, _ = case("stolen", work_script={1: "steal"})
    require(
        answer == "lost",
        say("refused_save", got=_answer(answer)),
    )
    require(
        calls == [0, 1],
        say("work_after_loss", calls=_calls(calls)),
    )
    require(
        record.step == 1 and record.worker == world.thief,
        say("changed_after_takeover"),
    )


def _stops_when_cancelled(case: Case) -> None:
    answer, calls, record, _ = case("cancelled", work_script={0: "cancel"})
    require(answer == "lost", say("cancelled_loop", got=_answer(answer)))
    require(calls == [0], say("work_after_cancel", calls=_calls(calls)))
    require(record.status == "cancelled" and record.step == 0, say("cancelled_changed"))


def _a_cancel_during_the_last_step(case: Case) -> None:
    answer, _, record, _ = case("last", work_script={2: "cancel"})
    require(
        answer == "lost",
        say("last_step_cancel", got=_answer(answer), status=_answer(record.status)),
    )


def _heartbeats_before_each_step(case: Case) -> None:
    answer, calls, record, _ = case("between", after_save={1: "steal"})
    require(
        calls == [0],
        say("no_heartbeat", steps=_calls(calls[1:])),
    )
    require(answer == "lost", say("lost_loop", got=_answer(answer)))


def _refuses_finished_or_held_tasks(case: Case) -> None:
    for setup, name, what in (
        (_completed, "refused-comp", say("state_completed")),
        (_held, "refused-leas", say("state_held")),
    ):
        answer, calls, _, _ = case(name, setup=setup)
        require(answer == "refused", say("refused_task", what=what, got=_answer(answer)))
        require(calls == [], say("refused_worked", what=what))


def _an_unknown_task_is_no_refusal(s: Student, world: World) -> None:
    """A task the ledger never held: the claim's UnknownTask goes through the loop, which
    neither answers nor works."""
    clock = Clock(world.start)
    with ScriptedLedger(":memory:", {}, clock, world.thief) as ledger:
        work = ScriptedWork(ledger, world.tasks[0], {}, clock, world.work_output, world.thief)
        try:
            answer = s.call(
                "run_task",
                Lent(ledger, "Ledger"),
                world.tasks[0],
                world.workers[0],
                Lent(work, "Work"),
                3,
                world.ttls[0],
            )
        except UnknownTask:  # the kit's error, rebuilt here
            require(not work.calls, say("unknown_worked"))
            return
        except (RemoteError, LedgerError) as exc:
            kind = plain_name(getattr(exc, "type", type(exc).__name__)) or "an error"
            raise Fail(say("unknown_raised", kind=kind)) from None
    raise Fail(
        say("unknown_answered", got=_answer(answer) if isinstance(answer, str) else "a value")
    )
