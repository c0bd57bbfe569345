"""Hidden checks of exercise ``fencing`` (``01_fencing_and_cancellation.ipynb``).

* ``cancel-after-claim``: the chapter's in-process exercise. The student writes ``cancel`` and
  ``requeue`` for the chapter's dict; the check runs the experiment with the kit's ``claim`` and
  ``commit`` on the state the student's functions return, plus the edge cases.
* ``cancel-after-first-step``: the chapter's ledger exercise, with real worker processes. The
  answer must agree with the ledger file the experiment leaves behind.
* ``cancel-limits``: what a cancel can and cannot undo, measured on a ledger file; the facts
  count only if the file shows the story really ran.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from simlab.errors import LedgerError
from simlab.grading.questions import Criterion, Exercise, Question, Tally, require
from simlab.grading.student import Student, kind_of
from simlab.ledger.dict_experiment import claim, commit, new_state

__all__ = ["EXERCISE"]


def _state_after(fn: Any, state: dict) -> tuple[Any, dict]:
    """Call a state-changing student function; return (its result, the state after it)."""
    result, args = fn.echo(state)
    after = args[0] if args else None
    require(
        isinstance(after, dict),
        f"{fn.__name__}() replaced the state with {kind_of(after)}; change the dict in place",
    )
    return result, after


def cancel_after_claim(s: Student, t: Tally) -> None:
    cancel, requeue = s.function("cancel"), s.function("requeue")
    t.under("cancel-fences")

    @t.part
    def commit_fails_after_cancel():
        state = new_state()
        epoch = claim(state)
        ok, state = _state_after(cancel, state)
        require(ok is True, f"cancel() of a running task returned {ok!r}, expected True")
        require(
            not commit(state, epoch, "answer"),
            "after cancel, a commit with the current epoch was accepted",
        )
        require(state.get("result") is None, "after cancel, the result is no longer None")

    @t.part
    def cancel_bumps_epoch():
        state = new_state()
        epoch = claim(state)
        _, state = _state_after(cancel, state)
        require(
            state.get("status") == "cancelled",
            f"after cancel, the status is {state.get('status')!r}, expected 'cancelled'",
        )
        require(
            state.get("epoch") == epoch + 1,
            "cancel must bump the epoch by one, so every lease issued before is stale",
        )

    @t.part
    def old_epoch_stays_fenced():
        state = new_state()
        old = claim(state)
        _, state = _state_after(cancel, state)
        _, state = _state_after(requeue, state)
        claim(state)
        require(
            not commit(state, old, "stale"),
            "after requeue and a new claim, the pre-cancel epoch could commit again "
            "(requeue must keep the epoch)",
        )

    t.under("requeue")

    @t.part
    def requeue_then_new_epoch_commits_once():
        state = new_state()
        epoch = claim(state)
        _, state = _state_after(cancel, state)
        ok, state = _state_after(requeue, state)
        require(ok is True, f"requeue() of a cancelled task returned {ok!r}, expected True")
        require(
            state.get("status") == "queued",
            f"after requeue, the status is {state.get('status')!r}, expected 'queued'",
        )
        fresh = claim(state)
        require(fresh > epoch, "after requeue, a new claim did not get a higher epoch")
        require(commit(state, fresh, "answer"), "the commit of the new epoch was refused")
        require(not commit(state, fresh, "again"), "a second commit was accepted")

    _refusals(t, cancel, requeue)


def _refusals(t: Tally, cancel: Any, requeue: Any) -> None:
    """cancel refuses finished tasks, requeue anything but a cancelled one."""
    t.under("terminal")

    @t.part
    def cancel_refuses_terminal_tasks():
        for status in ("completed", "cancelled"):
            state = {
                "epoch": 3,
                "status": status,
                "result": "done" if status == "completed" else None,
            }
            before = dict(state)
            ok, after = _state_after(cancel, state)
            require(ok is False, f"cancel() of a {status} task returned {ok!r}, expected False")
            require(after == before, f"cancel() changed a {status} task")

    t.under("requeue")

    @t.part
    def requeue_only_cancelled():
        for status in ("queued", "running", "completed"):
            state = {"epoch": 2, "status": status, "result": None}
            before = dict(state)
            ok, after = _state_after(requeue, state)
            require(ok is False, f"requeue() of a {status} task returned {ok!r}, expected False")
            require(after == before, f"requeue() changed a {status} task")


_FIRST_STEP_KEYS = {"resume_claim_refused": bool, "step": int, "status": str}


def cancel_after_first_step(s: Student, t: Tally) -> None:
    experiment = s.function("cancel_after_first_step")
    with s.folder() as folder:
        path = str(Path(folder) / "jobs.sqlite")
        seen: dict[str, Any] = {}
        stored: dict[str, Any] = {}

        t.under("observations")

        @t.part
        def returns_the_observations():
            seen.update(_dict(experiment(path), "cancel_after_first_step()"))
            for key, kind in _FIRST_STEP_KEYS.items():
                require(
                    isinstance(seen.get(key), kind),
                    f"the answer needs {key!r} as {kind.__name__}, got {kind_of(seen.get(key))}",
                )
            require("result" in seen, "the answer needs a 'result' key")

        t.under("from-the-ledger")

        @t.part
        def the_ledger_shows_the_experiment():
            record = _read(s, path, "j1")
            require(
                record is not None,
                "the ledger file at `path` holds no task 'j1': run the "
                "experiment on the path you are given",
            )
            fields = ("step", "status", "result", "epoch", "checkpoint")
            stored.update({name: getattr(record, name) for name in fields})
            require(
                record.checkpoint,
                "task 'j1' has no checkpoint: the first worker process did not run its step",
            )
            require(
                record.status == "cancelled",
                f"task 'j1' ended {record.status!r} in the ledger, not cancelled",
            )

        @t.part
        def resume_claim_refused():
            require(
                seen.get("resume_claim_refused") is True,
                "the resume worker's claim must be refused after the cancel",
            )
            require(
                stored.get("epoch") == 2,
                "the ledger's epoch shows a claim after the cancel (or a missing one before it)",
            )

        t.under("observations")

        @t.part
        def step_stays_one():
            require(
                seen.get("step") == 1,
                f"the persisted step should stay 1, the answer says {seen.get('step')!r}",
            )
            require(stored.get("step") == 1, "the ledger's step is not 1")

        @t.part
        def no_final_result():
            require(seen and stored, "no experiment to look at")
            require(seen.get("result") is None, "a result was published for a cancelled task")
            require(stored.get("result") is None, "the ledger holds a result for j1")

        t.under("from-the-ledger")

        @t.part
        def answer_matches_ledger():
            require(stored, "nothing in the ledger to compare with")
            for key in ("step", "status", "result"):
                require(
                    seen.get(key) == stored.get(key),
                    f"the answer's {key!r} ({seen.get(key)!r}) is not what the ledger holds "
                    f"({stored.get(key)!r}): read it from the ledger at the end",
                )


_LIMIT_FACTS = {
    "later_save_refused": True,
    "later_effect_refused": True,
    "new_claim_refused": True,
    "email_recalled": False,
    "step_rolled_back": False,
    "requeue_restarts_from_zero": False,
}


def cancel_limits(s: Student, t: Tally) -> None:
    explore = s.function("what_cancel_does")
    with s.folder() as folder:
        path = str(Path(folder) / "cancel.sqlite")
        facts: dict[str, Any] = {}
        evidence: list[str] = []
        t.under("fenced-after-cancel")

        @t.part
        def the_story_ran():
            facts.update(_dict(explore(path), "what_cancel_does()"))
            record = _read(s, path, "t1")
            require(
                record is not None,
                "the ledger file at `path` holds no task 't1': run the "
                "story on the path you are given",
            )
            keys = [e.key for e in _read(s, path, "t1", effects=True) or []]
            require("t1:email" in keys, "no side effect 't1:email' was recorded in the ledger")
            require(record.step >= 1, "step 1 of t1 was never committed")
            require(record.epoch >= 2, "t1 was never cancelled (its epoch never moved past 1)")
            evidence.append("ok")

        def fact(*names: str) -> None:
            require(
                evidence, "the ledger does not show the story ran, so these answers are guesses"
            )
            for name in names:
                value = facts.get(name)
                require(
                    isinstance(value, bool),
                    f"{name!r} should be True or False, got {kind_of(value)}",
                )
                require(value is _LIMIT_FACTS[name], _WHY[name])

        t.part(lambda: fact("later_save_refused"))
        t.part(lambda: fact("later_effect_refused", "new_claim_refused"))
        t.under("what-stays")
        t.part(lambda: fact("email_recalled"))
        t.part(lambda: fact("step_rolled_back", "requeue_restarts_from_zero"))


_WHY = {
    "later_save_refused": "after a cancel the worker's save should be refused",
    "later_effect_refused": "after a cancel, record_effect should refuse new side effects",
    "new_claim_refused": "after a cancel, a new claim should be refused (TerminalTask)",
    "email_recalled": "an e-mail already sent cannot be recalled by a cancel",
    "step_rolled_back": "a cancel does not roll back committed steps",
    "requeue_restarts_from_zero": "a requeued task resumes from its committed step, not 0",
}


def _dict(value: Any, who: str) -> dict:
    require(isinstance(value, dict), f"{who} returned {kind_of(value)}, expected a dict")
    return value


def _read(s: Student, path: str, task_id: str, *, effects: bool = False) -> Any:
    """The task (or its effects) as stored in the ledger file the student's code wrote at
    ``path``, read from a private copy; None when there is no such file or task."""
    with s.read_ledger(path) as ledger:
        if ledger is None:
            return None
        try:
            return ledger.effects(task_id) if effects else ledger.get(task_id)
        except LedgerError:
            return None


#: The rubric of ``cancel-after-claim``: a cancel is a fence (it bumps the epoch).
CANCEL_RUBRIC = (
    Criterion(
        "cancel-fences",
        3,
        "A cancel bumps the epoch by one, so no lease issued before it can commit, not even "
        "after a requeue and a new claim (a save after a cancel is refused).",
        core=True,
        mistakes=("cancel that only sets the status", "requeue that resets the epoch"),
    ),
    Criterion(
        "requeue",
        2,
        "requeue turns only a cancelled task back to queued (True), keeping the epoch, so the "
        "next claim gets a higher one and commits once.",
    ),
    Criterion("terminal", 1, "cancel refuses completed and cancelled tasks and leaves them as is."),
)

#: The rubric of ``cancel-after-first-step``: the answer is what the ledger file shows.
FIRST_STEP_RUBRIC = (
    Criterion(
        "from-the-ledger",
        3,
        "The experiment really ran on the given ledger file (a checkpoint, then cancelled), the "
        "resume worker's claim was refused, and every answer is read back from the ledger.",
        core=True,
        mistakes=("answers typed in rather than measured", "reads the state before the cancel"),
    ),
    Criterion(
        "observations",
        3,
        "The answer has its keys with their types, the persisted step stays 1 and no result is "
        "published for the cancelled task.",
    ),
)

#: The rubric of ``cancel-limits``: a cancel fences what comes after it.
LIMITS_RUBRIC = (
    Criterion(
        "fenced-after-cancel",
        3,
        "The story ran on the given ledger file, and after the cancel the worker's save, a new "
        "side effect and a new claim are all refused.",
        core=True,
        mistakes=("guessed facts without running the story", "thinks a late save still lands"),
    ),
    Criterion(
        "what-stays",
        2,
        "A cancel does not recall a sent e-mail or roll back committed steps, and a requeued task "
        "resumes from its committed step.",
    ),
)

EXERCISE = Exercise(
    id="fencing",
    notebook="01_fencing_and_cancellation.ipynb",
    title="Fencing and cancellation",
    questions=(
        Question(
            "cancel-after-claim",
            "Cancel right after a claim (in process)",
            6,
            ("cancel", "requeue"),
            cancel_after_claim,
            CANCEL_RUBRIC,
        ),
        Question(
            "cancel-after-first-step",
            "Cancel after the first step (ledger)",
            6,
            ("cancel_after_first_step",),
            cancel_after_first_step,
            FIRST_STEP_RUBRIC,
        ),
        Question(
            "cancel-limits",
            "What a cancel can and cannot undo",
            5,
            ("what_cancel_does",),
            cancel_limits,
            LIMITS_RUBRIC,
        ),
    ),
)
