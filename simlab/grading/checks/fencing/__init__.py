"""Hidden checks of exercise ``fencing`` (``01_fencing_and_cancellation.ipynb``); this module
holds the exercise's record, its rubrics and the check of ``cancel-after-first-step``.

* ``cancel-after-claim`` (:mod:`~simlab.grading.checks.fencing.claim`): the chapter's
  in-process exercise. The student writes ``cancel`` and ``requeue`` for the chapter's dict; the
  check runs the experiment with the kit's ``claim`` and ``commit`` on the state the student's
  functions return, the edge cases, and generated sequences beside a reference state machine.
* ``cancel-after-first-step``: the chapter's ledger exercise, with real worker processes. The
  answer must agree with the ledger file the experiment leaves behind.
* ``cancel-limits`` (:mod:`~simlab.grading.checks.fencing.limits`): what a cancel can and cannot
  undo, measured on a ledger file; the facts count only if the file shows the story really ran,
  and they must also be what the story gives on ledgers built otherwise.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from simlab.grading.checks.fencing.claim import cancel_after_claim
from simlab.grading.checks.fencing.limits import cancel_limits, dict_of, read
from simlab.grading.checks.fencing.messages import say
from simlab.grading.questions import Criterion, Exercise, Question, Tally, require
from simlab.grading.student import Student, kind_of

__all__ = ["EXERCISE"]


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
            seen.update(dict_of(experiment(path), "cancel_after_first_step()"))
            for key, kind in _FIRST_STEP_KEYS.items():
                require(
                    isinstance(seen.get(key), kind),
                    say(
                        "answer_needs",
                        key=repr(key),
                        kind=kind.__name__,
                        got=kind_of(seen.get(key)),
                    ),
                )
            require("result" in seen, say("answer_needs_result"))

        t.under("from-the-ledger")

        @t.part
        def the_ledger_shows_the_experiment():
            record = read(s, path, "j1")
            require(
                record is not None,
                say("no_task_experiment", task="'j1'"),
            )
            fields = ("step", "status", "result", "epoch", "checkpoint")
            stored.update({name: getattr(record, name) for name in fields})
            require(
                record.checkpoint,
                say("no_checkpoint"),
            )
            require(
                record.status == "cancelled",
                say("ended", status=repr(record.status)),
            )

        @t.part
        def resume_claim_refused():
            require(
                seen.get("resume_claim_refused") is True,
                say("resume_refused"),
            )
            require(
                stored.get("epoch") == 2,
                say("epoch_after_cancel"),
            )

        t.under("observations")

        @t.part
        def step_stays_one():
            require(
                seen.get("step") == 1,
                say("step_stays", got=repr(seen.get("step"))),
            )
            require(stored.get("step") == 1, say("ledger_step"))

        @t.part
        def no_final_result():
            require(seen and stored, say("no_experiment"))
            require(seen.get("result") is None, say("result_published"))
            require(stored.get("result") is None, say("ledger_result"))

        t.under("from-the-ledger")

        @t.part
        def answer_matches_ledger():
            require(stored, say("nothing_to_compare"))
            for key in ("step", "status", "result"):
                require(
                    seen.get(key) == stored.get(key),
                    say(
                        "not_from_ledger",
                        key=repr(key),
                        got=repr(seen.get(key)),
                        want=repr(stored.get(key)),
                    ),
                )


#: The rubric of ``cancel-after-claim``: a cancel is a fence (it bumps the epoch).
CANCEL_RUBRIC = (
    Criterion(
        "cancel-fences",
        3,
        "A cancel bumps the epoch by one, so no lease issued before it can commit, not even "
        "after a requeue and a new claim (a save after a cancel is refused), and every claim "
        "after it gets an epoch never used before, in any sequence of claims, commits, cancels "
        "and requeues.",
        core=True,
        mistakes=(
            "cancel that only sets the status",
            "requeue that resets the epoch",
            "requeue that lowers the epoch again",
        ),
        properties=(
            "In generated sequences of claim, commit, cancel and requeue, a cancel of a queued "
            "or running task bumps the epoch by one, every claim gets an epoch never used "
            "before, and no epoch from before a cancel commits after it.",
        ),
    ),
    Criterion(
        "requeue",
        2,
        "requeue turns only a cancelled task back to queued (True), keeping the epoch exactly "
        "(not lowered, not raised), so the next claim gets a higher one and commits once; any "
        "other status: False, nothing changed.",
        properties=(
            "In the same sequences, every requeue returns and leaves what the reference requeue "
            "does on the state it is given.",
        ),
    ),
    Criterion(
        "terminal",
        1,
        "cancel refuses completed and cancelled tasks and leaves them as is.",
        properties=(
            "In the same sequences, a cancel of a completed or cancelled task returns False "
            "and changes nothing.",
        ),
    ),
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
        "side effect and a new claim are all refused; each is measured, so on ledgers built "
        "otherwise the answer gives what the story gives there.",
        core=True,
        mistakes=(
            "guessed facts without running the story",
            "plays the story but types the facts in",
            "thinks a late save still lands",
        ),
        properties=(
            "On a ledger whose cancel fences nothing (its mailbox losing mail) and on one whose "
            "cancel rolls the steps back, each refusal is what the story gives there.",
        ),
    ),
    Criterion(
        "what-stays",
        2,
        "A cancel does not recall a sent e-mail or roll back committed steps, and a requeued task "
        "resumes from its committed step; measured too, not typed in.",
        properties=(
            "On the same two ledgers, the e-mail, the stored step and the requeued claim's step "
            "are what the story gives there.",
        ),
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
