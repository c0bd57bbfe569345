"""Question ``worker-loop``: the student's ``run_task`` against a ledger file on which another
process (the grader's scripted work and scripted ledger) cancels or takes over the task at
chosen moments. The ledger, the work and the trouble stay in the grader; the loop gets
stand-ins of them."""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any

from simlab.grading.checks.leases import loops
from simlab.grading.checks.leases.driving import Clock
from simlab.grading.checks.leases.messages import say
from simlab.grading.checks.leases.scripted import ScriptedLedger, ScriptedWork
from simlab.grading.lending import Lent, grader_folder
from simlab.grading.questions import Criterion, Tally, require
from simlab.grading.student import Student
from simlab.ledger import Ledger

__all__ = ["LOOP_RUBRIC", "worker_loop"]

#: One case of the loop: (name, setup=..., work_script=..., after_save=..., steps=...) ->
#: (answer, the steps work was called for, the task as stored at the end).
Case = Callable[..., tuple[Any, list, Any]]


def worker_loop(s: Student, t: Tally) -> None:
    """Six cases, then generated starts and trouble beside the exercise's loop
    (:mod:`~simlab.grading.checks.leases.loops`), each on a new ledger file of the grader's in
    one private folder."""
    with grader_folder(prefix="simlab-loop-") as folder:
        case = functools.partial(_case, s, folder)
        plays = loops.LoopPlays(s, folder)
        t.under("runs-and-resumes")
        t.part(functools.partial(_runs_a_task_to_the_end, case))
        t.part(functools.partial(_resumes_from_the_persisted_step, case))
        t.under("refuses")
        t.part(functools.partial(_refuses_finished_or_held_tasks, case))
        t.under("stops-when-lost")
        for part in (
            _stops_when_taken_over,
            _stops_when_cancelled,
            _a_cancel_during_the_last_step,
            _heartbeats_before_each_step,
        ):
            t.part(functools.partial(part, case))
        t.part(lambda: loops.check(plays, loops.LOST))
        t.under("refuses")
        t.part(lambda: loops.check(plays, loops.REFUSED))
        t.under("runs-and-resumes")
        t.part(lambda: loops.check(plays, loops.RUNS))


#: The rubric of ``worker-loop``: the loop trusts the ledger, not itself.
LOOP_RUBRIC = (
    Criterion(
        "stops-when-lost",
        3,
        "The loop stops and reports 'lost' as soon as the ledger says it no longer owns the "
        "task: a refused save (taken over, or cancelled, also during the last step) or a "
        "refused heartbeat before a step.",
        core=True,
        mistakes=("never checks save's answer", "no heartbeat before each step"),
        properties=(
            "On generated starts (fresh, saved halfway by another worker with any checkpoint, "
            "then released or left to run out) and trouble (a cancel or a takeover during a "
            "step or right after a save), once the ledger refuses your loop it works no further "
            "step and answers 'lost'.",
        ),
    ),
    Criterion(
        "runs-and-resumes",
        2,
        "A task runs to the end with the last output as its result and each step's "
        "{'output': output} as the checkpoint, resuming from the step the ledger persisted "
        "(whatever the checkpoint holds).",
        properties=(
            "On the same generated starts and numbers of steps, without trouble, your loop "
            "answers, works the same steps and leaves the same task row as the exercise's loop.",
        ),
    ),
    Criterion(
        "refuses",
        1,
        "A completed task or one leased to another worker is 'refused'.",
        properties=(
            "On generated completed, cancelled and held tasks, your loop answers 'refused' and "
            "leaves the task untouched.",
        ),
    ),
)


def _case(
    s: Student,
    folder: str,
    name: str,
    setup: Callable[[Ledger], None] | None = None,
    work_script: dict | None = None,
    after_save: dict | None = None,
    steps: int = 3,
) -> tuple[Any, list, Any]:
    """Run the student's loop on task t1 of a new ledger file the grader keeps, with stand-ins
    of the grader's scripted ledger and work; return (answer, the steps work was called for,
    the task as stored at the end, read by the grader)."""
    path = str(Path(folder) / f"{name}.sqlite")
    with Ledger(path, clock=lambda: 0.0) as ledger:
        ledger.submit("t1")
        if setup is not None:
            setup(ledger)
    clock = Clock(1.0)
    work = ScriptedWork(path, "t1", work_script or {}, clock)
    with ScriptedLedger(path, after_save or {}, clock) as ledger:
        answer = s.call("run_task", Lent(ledger, "Ledger"), "t1", "w1", Lent(work, "Work"), steps)
    with Ledger(path, clock=clock) as ledger:
        return answer, list(work.calls), ledger.get("t1")


# -- how the ledger looks before the loop starts --------------------------------------------------


def _halfway(ledger: Ledger) -> None:
    lease = ledger.claim("t1", "w0", 30.0)
    ledger.save(lease, 2)
    ledger.release(lease)


def _completed(ledger: Ledger) -> None:
    lease = ledger.claim("t1", "w0", 30.0)
    ledger.save(lease, 3, done=True, result="done")


def _held(ledger: Ledger) -> None:
    ledger.claim("t1", "w0", 30.0)


# -- the cases ------------------------------------------------------------------------------------


def _runs_a_task_to_the_end(case: Case) -> None:
    answer, calls, record = case("fresh")
    require(answer == "completed", say("no_trouble", got=repr(answer)))
    require(calls == [0, 1, 2], say("work_steps", calls=str(calls)))
    require(
        (record.status, record.step, record.result) == ("completed", 3, "output-2"),
        say("ends_completed"),
    )


def _resumes_from_the_persisted_step(case: Case) -> None:
    answer, calls, record = case("resume", setup=_halfway, steps=4)
    require(
        calls == [2, 3],
        say("resumed_from", first=str(calls[0] if calls else "?"), calls=str(calls)),
    )
    require(
        answer == "completed" and record.status == "completed",
        say("resumed_incomplete"),
    )


def _stops_when_taken_over(case: Case) -> None:
    answer, calls, record = case("stolen", work_script={1: "steal"})
    require(
        answer == "lost",
        say("refused_save", got=repr(answer)),
    )
    require(
        calls == [0, 1],
        say("work_after_loss", calls=str(calls)),
    )
    require(
        record.step == 1 and record.worker == "thief",
        say("changed_after_takeover"),
    )


def _stops_when_cancelled(case: Case) -> None:
    answer, calls, record = case("cancelled", work_script={0: "cancel"})
    require(answer == "lost", say("cancelled_loop", got=repr(answer)))
    require(calls == [0], say("work_after_cancel", calls=str(calls)))
    require(record.status == "cancelled" and record.step == 0, say("cancelled_changed"))


def _a_cancel_during_the_last_step(case: Case) -> None:
    answer, _, record = case("last", work_script={2: "cancel"})
    require(
        answer == "lost",
        say("last_step_cancel", got=repr(answer), status=repr(record.status)),
    )


def _heartbeats_before_each_step(case: Case) -> None:
    answer, calls, record = case("between", after_save={1: "steal"})
    require(
        calls == [0],
        say("no_heartbeat", steps=str(calls[1:])),
    )
    require(answer == "lost", say("lost_loop", got=repr(answer)))


def _refuses_finished_or_held_tasks(case: Case) -> None:
    for setup, name, what in (
        (_completed, "refused-comp", say("state_completed")),
        (_held, "refused-leas", say("state_held")),
    ):
        answer, calls, _ = case(name, setup=setup)
        require(answer == "refused", say("refused_task", what=what, got=repr(answer)))
        require(calls == [], say("refused_worked", what=what))
