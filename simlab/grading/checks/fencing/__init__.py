"""Hidden checks of exercise ``fencing`` (``01_fencing_and_cancellation.ipynb``); this module
holds the exercise's record, its rubrics and the check of ``cancel-after-first-step``.

* ``cancel-after-claim`` (:mod:`~simlab.grading.checks.fencing.claim`): the chapter's
  in-process exercise. The student writes ``cancel`` and ``requeue`` for the chapter's dict; the
  check runs the experiment with the kit's ``claim`` and ``commit`` on the state the student's
  functions return, the edge cases, and generated sequences beside a reference state machine.
* ``cancel-after-first-step``: the chapter's ledger exercise, with real worker processes. The
  answer must agree with the ledger file the experiment leaves behind; and in three worlds
  drawn from the hidden world (:func:`~simlab.grading.checks.fencing.worlds.first_step_worlds`:
  a ledger whose cancelled task can be claimed again, one whose release is lost and whose
  cancel only rolls the steps back and whose worker reports a refusal without a reason, one
  whose cancelled task can be leased but stays cancelled while its save publishes a result,
  each worker retrieving drawn evidence) with what that ledger holds at
  the end and with the resume worker's report (its ``event``), so an answer typed in, taken
  from a worker's report, from the wrong one or from another field of it fails.
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
from simlab.grading.checks.fencing.play import Play, played
from simlab.grading.checks.fencing.worlds import World, first_step_worlds
from simlab.grading.checks.hidden_world import rng
from simlab.grading.questions import Criterion, Exercise, Question, Tally, require
from simlab.grading.sandbox.supervisor import RemoteError
from simlab.grading.student import Student, kind_of, shown_value

__all__ = ["EXERCISE", "agrees_with_play"]


_FIRST_STEP_KEYS = {"resume_claim_refused": bool, "step": int, "status": str}

#: What the experiment's answer or ledger may be shown as, where the text names it: its
#: statuses and the steps of its two-step story. Any other value only by its type.
_FIRST_STEP_KNOWN = ("queued", "running", "completed", "cancelled", 0, 1, 2)


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
                say("ended", status=shown_value(record.status, known=_FIRST_STEP_KNOWN)),
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
                say("step_stays", got=shown_value(seen.get("step"), known=_FIRST_STEP_KNOWN)),
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
                        got=shown_value(seen.get(key), known=_FIRST_STEP_KNOWN),
                        want=shown_value(stored.get(key), known=_FIRST_STEP_KNOWN),
                    ),
                )

        for world in first_step_worlds(rng("fencing/cancel-after-first-step")):
            t.part(lambda world=world: _agrees_in(s, path, world))


def _agrees_in(s: Student, path: str, world: World) -> None:
    """The experiment played in ``world`` (on the same path: the world's files are the
    grader's) agrees with that world (:func:`agrees_with_play`)."""
    with played(s, "cancel_after_first_step", path, world) as (outcome, play):
        if isinstance(outcome, RemoteError):
            raise outcome
        agrees_with_play(dict_of(outcome, "cancel_after_first_step()"), play, path)


def agrees_with_play(answer: dict, play: Play, path: str) -> None:
    """The experiment's ``answer`` in a world's ``play`` ran the worker twice (the first
    worker, then the resume worker) and answers what that world's ledger file for ``path``
    holds at the end, and whether the resume worker's claim was refused; else a
    :class:`~simlab.grading.questions.Fail` quoting none of the world's values."""
    record = play.record(path, "j1")
    require(record is not None and play.reports, say("world_no_task"))
    runs = len(play.reports)
    require(runs == 2, say("world_two_workers", runs=say("runs_once" if runs < 2 else "runs_more")))
    for key in ("step", "status", "result"):
        require(
            answer.get(key) == getattr(record, key),
            say("world_not_from_ledger", key=repr(key)),
        )
    # The report's event says whether the claim was refused (the text's examples show it).
    refused = play.reports[1].get("event") == "claim-refused"
    require(answer.get("resume_claim_refused") is refused, say("world_resume"))


#: What ``cancel-after-claim`` draws from the hidden world.
_CLAIM_WORLD = (
    "Each hand-picked story starts from a drawn state: an epoch from 2 to 99, none to three "
    "claims before (none leaves the task queued), a drawn result for a completed task, and a "
    "key of the world's own beside epoch, status and result (a drawn name and value), so an "
    "epoch typed in from the notebook's example, the self_check state special-cased or a dict "
    "rebuilt from the three keys the notebook shows fails."
)

#: What ``cancel-limits`` draws from the hidden world.
_LIMITS_WORLD = (
    "The story is also played in five worlds drawn at grading time, in a drawn order, each "
    "mailbox already holding another task's e-mail: one whose stale save of step 2 lands (a"
    " save that does not advance the step is still refused), whose requeued task starts "
    "over only at its next claim though its requeue answers False, and whose cancel takes "
    "the e-mail back (its key kept, counting 0); one whose "
    "record_effect refuses every side effect; one with the kit's mail; one with the kit's "
    "ledger and mail whose cancel and requeue leave the lease live, so the new claim and the "
    "claim after the requeue raise LeaseHeld, and whose cancel comes 25 to 40 time units "
    "(drawn) after the claim, so a claim with a shorter ttl than the story's 60 "
    "has run out by then; one with the kit's ledger and mail whose new "
    "claim of the cancelled task raises another of the ledger's errors (UnknownTask or "
    "LedgerError, drawn), and whose stale save of step 2 and new side effect are stored all "
    "the same but answered False;"
    " a cancel that rolls the steps back goes to the second or the third, side effects of a"
    " fenced lease that land to the first or the third, a cancelled task that can be "
    "claimed again, or leased while it stays cancelled, to drawn ones of the first three. "
    "So every fact differs from the kit's in one world and is the kit's in another, and a "
    "reading at a neighbouring moment or of a neighbouring quantity differs from the "
    "asked-for one: the stored step instead of a new claim's, the step read after the "
    "requeue, a step other than 1 instead of one below 1, a save of step 1 instead of 2, "
    "the mailbox's total instead of the e-mail's key, a mailbox read before the cancel, an "
    "e-mail sent whatever record_effect returned, any exception of the new claim instead of"
    " TerminalTask, any exception but LeaseHeld, the e-mail's key present rather than its "
    "count 0, the stored step or the listed keys instead of a save's or a record_effect's "
    "answer. The worlds live in the grader and the kit's classes answer from them "
    "for the call, however the learner's code reaches them, so typed-in facts fail and "
    "telling a world from the kit's ledger gains nothing."
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
        text=(
            "`cancel` marks a `queued` or `running` task `cancelled` **and bumps the epoch**, in "
            "one step, and returns True.",
            "it **keeps the epoch**, so the next claim gets a higher one.",
            "Both change the dict they are given, in place.",
        ),
        world=_CLAIM_WORLD,
    ),
    Criterion(
        "requeue",
        2,
        "requeue turns only a cancelled task back to queued (True), keeping the epoch exactly "
        "(not lowered, not raised) and adding or removing no key, so the next claim gets a "
        "higher one and commits once; any other status: False, nothing changed.",
        mistakes=(
            "requeue writes a key of its own into the state",
            "requeue rebuilds the dict from the keys it knows, dropping another",
        ),
        properties=(
            "In the same sequences, every requeue returns and leaves what the reference requeue "
            "does on the state it is given, with the same keys.",
        ),
        text=(
            "`requeue` puts a `cancelled` task back to `queued` and returns True; it **keeps the "
            "epoch**, so the next claim gets a higher one.",
            "Any other status: return False, change nothing.",
            "Both change the dict they are given, in place.",
            "Neither adds nor removes a key of the dict.",
        ),
        world=_CLAIM_WORLD,
    ),
    Criterion(
        "terminal",
        1,
        "cancel refuses completed and cancelled tasks and leaves them as is, and a cancel of a "
        "live task adds or removes no key of the state.",
        mistakes=("cancel writes a key of its own into the state, or drops one",),
        properties=(
            "In the same sequences, a cancel of a completed or cancelled task returns False "
            "and changes nothing.",
        ),
        text=(
            "A completed or cancelled task is left alone (return False).",
            "Neither adds nor removes a key of the dict.",
        ),
        world=_CLAIM_WORLD,
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
        mistakes=(
            "answers typed in rather than measured",
            "reads the state before the cancel",
            "takes the answer from a worker's report",
            "reads the refusal from another field of the report than its event",
            "infers the status from the refusal, or reports the result only for a completed task",
        ),
        text=(
            "The chapter's exercise: after the first worker finishes, **cancel `j1`**, then start "
            "the resume worker.",
            "`resume_claim_refused` (True or False, from the resume worker's report), and the "
            "`step`, `status` and `result` read from the ledger at the end "
            '(`Ledger(path).get("j1")`), not from a worker\'s report.',
            'returns its report, e.g. `{"event": "claim", "epoch": 1, "saved_step": 1, ...}` '
            'or `{"event": "claim-refused", ...}`.',
            "so every answer must come from what your code observed.",
        ),
        world=(
            "The experiment is also played in three worlds drawn at grading time, in a drawn "
            "order: a ledger whose cancelled task can be claimed again (the resume worker "
            "completes it), one whose worker's release is lost and whose cancel only rolls the "
            "steps back, so the resume claim is refused though the task still runs (its "
            "worker's refusal report gives no reason: its event says it), and one whose "
            "cancelled task can be leased but stays cancelled while the lease's save publishes "
            "its result, each worker retrieving drawn evidence; the "
            "experiment must start the worker twice, the step, status and result must be what "
            "that ledger holds at the end and the refusal what the resume worker reported, so "
            "typed-in values, values from the wrong source, a status inferred from the "
            "refusal, a result hidden unless the task completed, and extra workers fail."
        ),
    ),
    Criterion(
        "observations",
        3,
        "The answer has its keys with their types, the persisted step stays 1 and no result is "
        "published for the cancelled task.",
        text=(
            "Its claim must be refused, the persisted step must stay 1, and no final result may be "
            "published.",
            "Write the experiment and return what you observed as a dict:",
        ),
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
            "claims with a shorter ttl than the story's 60: the lease runs out before the cancel "
            "where the cancel comes late",
            "thinks a late save still lands",
            "saves step 1 again (refused whatever the fence does) instead of step 2",
            "counts any exception of the new claim as refused, not only TerminalTask",
            "counts every exception of the new claim but LeaseHeld as refused (another error "
            "of the ledger too)",
            "reads the save's refusal from the stored step instead of the save's answer",
            "reads the side effect's refusal from the recorded keys instead of the answer",
        ),
        properties=(
            "On a ledger whose cancel fences nothing (its mailbox losing mail) and on one whose "
            "cancel rolls the steps back, each refusal is what the story gives there.",
        ),
        text=(
            "On a new ledger at `path`, play this story with a `Ledger` and a `Mailbox`",
            '1. submit task `"t1"`, claim it as worker `"w1"` (ttl 60), save step 1;',
            '3. cancel `"t1"` while `w1` still holds its lease.',
            "| `later_save_refused` | `w1`'s save of step 2 returns False |",
            "| `later_effect_refused` | `w1`'s `record_effect` for a new key returns False |",
            "| `new_claim_refused` | a new claim of `t1` raises `TerminalTask` (False when it is "
            "granted or raises anything else, `LeaseHeld` included) |",
            "Measure each one with code; do not type the answers in.",
            "The grader also plays your story on ledgers and mailboxes that behave otherwise, "
            "where the answers differ.",
        ),
        world=_LIMITS_WORLD,
    ),
    Criterion(
        "what-stays",
        2,
        "A cancel does not recall a sent e-mail or roll back committed steps, and a requeued task "
        "resumes from its committed step; measured too, not typed in.",
        mistakes=(
            "reads the stored step after the requeue instead of the new claim's step",
            "reads the step after the requeue, or asks for a step other than 1",
            "counts every e-mail in the mailbox instead of the e-mail's key",
            "takes the e-mail's key in mailbox.received for an e-mail held, though its count is 0",
            "sends the e-mail whatever record_effect returned",
        ),
        properties=(
            "On the same two ledgers, the e-mail, the stored step and the requeued claim's step "
            "are what the story gives there.",
        ),
        text=(
            "`Mailbox` (the outside world, which other tasks share: `mailbox.send(key)` delivers "
            "an e-mail, and `mailbox.received` counts them per key):",
            '2. record the side effect `"t1:email"` (`ledger.record_effect(lease, "t1:email")`) '
            "and send it only if that returned True (on this kit's ledger it does);",
            '| `email_recalled` | after the cancel the mailbox holds no `"t1:email"` (also when '
            "it was never sent) |",
            "| `step_rolled_back` | the stored step went back below 1 |",
            '| `requeue_restarts_from_zero` | after `ledger.requeue("t1")` (whatever it returns) a '
            "new claim starts at step 0 (False when that claim raises) |",
            "Measure each one with code; do not type the answers in.",
            "The grader also plays your story on ledgers and mailboxes that behave otherwise, "
            "where the answers differ.",
        ),
        world=_LIMITS_WORLD,
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
