"""Question ``atomic-claim``: the student's ``claim`` and ``heartbeat`` (SQL), case by case on a
hand clock, on generated sequences of operations beside the kit's reference
(:mod:`~simlab.grading.checks.leases.operations`), raced at every statement boundary
(:mod:`~simlab.grading.checks.leases.race`), then under every schedule of at most one fault
over a small scope (:func:`~simlab.grading.checks.leases.driving.explored`)."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

from simlab.errors import LeaseHeld, TerminalTask, UnknownTask
from simlab.grading.checks.leases import operations as ops
from simlab.grading.checks.leases.driving import Ledgers, explored, raises
from simlab.grading.checks.leases.messages import say
from simlab.grading.checks.leases.race import contended_claims, require_one_statement, rivalled
from simlab.grading.checks.leases.world import world_of
from simlab.grading.questions import Criterion, Fail, Tally, require
from simlab.grading.student import Student, shown_value
from simlab.records import Lease

__all__ = ["CLAIM_RUBRIC", "atomic_claim"]

#: What the generated sequences of this question do (the claim and heartbeat are the student's).
CLAIM_MOVES = (
    "claim",
    "wait",
    "expire",
    "heartbeat",
    "save",
    "release",
    "cancel",
    "requeue",
    "bury",
)

#: Sequences played before the generated ones: the classic slips, each in its shortest story.
CLAIM_STORIES = (
    # the holder claims its own live lease again (a restarted worker whose old process lives)
    (("claim", "t1", "A", 10.0), ("wait", 5), ("claim", "t1", "A", 10.0), ("heartbeat", 0, 10.0)),
    # a claim a hundredth of a second (of the story's) before the lease runs out: refused (a
    # claim that counts a lease about to end as run out takes it); the holder saves a step
    # with a checkpoint; a claim exactly when the lease runs out: granted, its lease carrying
    # that checkpoint (a claim that clears it loses the task's progress)
    (
        ("claim", "t1", "A", 10.0),
        ("wait", 9.99),
        ("claim", "t1", "B", 10.0),
        ("save", 0, False),
        ("expire", "t1"),
        ("claim", "t1", "B", 10.0),
    ),
    # A's own stale lease, once A holds the task again
    (
        ("claim", "t1", "A", 10.0),
        ("wait", 15),
        ("claim", "t1", "B", 10.0),
        ("wait", 15),
        ("claim", "t1", "A", 10.0),
        ("heartbeat", 2, 10.0),
    ),
    # a heartbeat once the lease has run out, nobody having claimed since: the epoch is still
    # the task's and it still runs, so the heartbeat is accepted and the lease goes on; also a
    # hundred leases after its end (a heartbeat that gives up on a lease long run out refuses)
    (
        ("claim", "t1", "A", 10.0),
        ("wait", 15),
        ("heartbeat", 0, 10.0),
        ("claim", "t1", "B", 10.0),
        ("wait", 1000),
        ("heartbeat", 0, 10.0),
    ),
    # the lease of a task released, or completed
    (("claim", "t1", "A", 10.0), ("release", 0), ("heartbeat", 0, 10.0)),
    (("claim", "t1", "A", 10.0), ("save", 0, True), ("heartbeat", 0, 10.0)),
    # cancel, requeue, a new claim, and the lease from before the cancel
    (
        ("claim", "t1", "A", 10.0),
        ("cancel", "t1"),
        ("requeue", "t1"),
        ("claim", "t1", "B", 10.0),
        ("heartbeat", 1, 10.0),
        ("claim", "t1", "C", 10.0),
    ),
    # a claim of a cancelled task (running, then queued), and of a dead one (queued, then
    # running with a lease that ran out): TerminalTask with the row's status, nothing taken
    (("claim", "t1", "A", 10.0), ("cancel", "t1"), ("claim", "t1", "B", 10.0)),
    (("cancel", "t2"), ("claim", "t2", "A", 10.0)),
    (("bury", "t1"), ("claim", "t1", "A", 10.0)),
    (("claim", "t2", "A", 10.0), ("wait", 15), ("bury", "t2"), ("claim", "t2", "B", 10.0)),
    # two tasks whose IDs share a prefix (in the hidden world, t1's ID is a prefix of t2's)
    (("claim", "t1", "A", 10.0), ("claim", "t2", "B", 20.0), ("heartbeat", 1, 20.0)),
    (("claim", "t2", "A", 20.0), ("claim", "t1", "B", 10.0), ("heartbeat", 1, 10.0)),
    # a task whose ID differs from another's only in case (the world's T1 is t1's ID with its
    # first letter in capitals): a claim or heartbeat that matches IDs with LIKE or COLLATE
    # NOCASE changes both; a refusal of T1 that looks the row up with LIKE or COLLATE NOCASE
    # finds t1's (another holder), one of t1% (a task the ledger never held) that looks it
    # up with LIKE finds t1's in place of none, and one of t1? (never held either) that looks
    # it up with GLOB finds t2's (t1's ID and a digit)
    (
        ("claim", "T1", "A", 10.0),
        ("claim", "t1", "B", 10.0),
        ("wait", 3),
        ("heartbeat", 1, 10.0),
        ("claim", "T1", "C", 10.0),
        ("claim", "t1%", "C", 10.0),
        ("claim", "t1?", "C", 10.0),
    ),
    # tasks whose IDs differ from t1's only by a space before or after it, or its first
    # character full-width, at t1's epoch: a heartbeat that matches IDs with trim(), rtrim(),
    # COLLATE RTRIM or after NFKC extends them too (a claim that does takes them with t1)
    (
        ("claim", "' t1'", "A", 10.0),
        ("claim", "'t1 '", "B", 10.0),
        ("claim", "ｔ1", "C", 10.0),
        ("claim", "t1", "A", 10.0),
        ("wait", 3),
        ("heartbeat", 0, 10.0),
    ),
    # a task whose ID is t1's followed by *: a claim or a heartbeat that matches IDs with GLOB
    # takes it for a pattern, which matches t1 too
    (("claim", "t1", "A", 10.0), ("claim", "t1*", "B", 10.0), ("wait", 3), ("heartbeat", 0, 10.0)),
    # the holder of a live lease is whoever the row names, also when another process's claim
    # (the kit's) wrote it, not one of the claims this process made
    (
        ("claim", "t1", "A", 10.0),
        ("wait", 15),
        ("other_claim", "t1", "C", 10.0),
        ("claim", "t1", "B", 10.0),
    ),
)


def atomic_claim(s: Student, t: Tally) -> None:
    """Cases on fresh ledgers, generated sequences against the kit's ledger, another claim or
    a cancel scheduled between every two statements of the student's claim and heartbeat, then
    every schedule of at most one fault over a small scope; parts are filed under the criteria of
    :data:`CLAIM_RUBRIC`. The generated sequences are played in the question's hidden world
    (:func:`~simlab.grading.checks.leases.world.world_of`), whose values the feedback never
    quotes."""
    world = world_of("atomic-claim")
    t.hidden = t.hidden | frozenset(world.shown())
    ledgers = Ledgers(s, claim="claim", heartbeat="heartbeat")
    plays = ops.Plays(s, world, claim="claim", heartbeat="heartbeat")
    moves = ops.sequences(CLAIM_MOVES)

    def judged(what: str) -> Callable[[], None]:
        return lambda: ops.check(plays, moves, what, first=CLAIM_STORIES)

    try:
        t.under("claim-fields")
        t.part(functools.partial(_claims_a_queued_task, ledgers))
        t.part(functools.partial(_terminal_and_unknown_tasks, ledgers))
        t.part(functools.partial(_lease_held_names_the_holder, ledgers))
        t.under("heartbeat-extends")
        t.part(functools.partial(_heartbeat_extends_the_lease, ledgers))
        t.under("one-owner")
        for part in _ONE_OWNER_CASES:
            t.part(functools.partial(part, ledgers))
        runs = contended_claims(s)
        t.part(lambda: _no_two_winners_at_one_moment(runs))
        t.part(lambda: _no_shared_epoch(runs))
        t.part(lambda: _the_lease_is_your_own(runs))
        t.part(lambda: _no_lease_of_a_cancelled_epoch(runs))
        t.part(
            lambda: require_one_statement(
                rivalled(s, "heartbeat", (30.0,)), "heartbeat", say("did_change_task")
            )
        )
        t.part(judged(ops.CORE))
        t.part(
            lambda: explored(
                s,
                {"claim": "claim", "heartbeat": "heartbeat"},
                say("by_claim_heartbeat"),
                "leases/atomic-claim/explore",
            )
        )
        t.under("claim-fields")
        t.part(judged(ops.DETAIL))
        t.under("heartbeat-extends")
        t.part(judged(ops.HEARTBEAT))
        t.under("lease-end")
        # The exact end of a lease is judged only for a claim that works: one that always raises
        # would otherwise never reach a lease's end, and pass it.
        t.part(functools.partial(_expired_lease_is_taken_over, ledgers))
        t.part(judged(ops.BOUNDARY))
    finally:
        plays.close()
        ledgers.close()


#: The rubric of ``atomic-claim``: one owner at a time is the core idea.
CLAIM_RUBRIC = (
    Criterion(
        "one-owner",
        6,
        "At most one worker holds a task, with an epoch higher than any before: a live lease "
        "is refused (its holder's own claim too), an expired one is taken over, the claim and "
        "the heartbeat stay atomic when another claim or a cancel runs between any two of "
        "their statements (also at the same moment, as with a duplicate delivery), a "
        "heartbeat is accepted only for the task's current epoch while it runs (not by worker "
        "name, not once released or completed), on "
        "generated sequences of claims, heartbeats, saves, releases, cancels, requeues and "
        "tasks gone to the dead letter with the clock moving, as the kit's ledger does (a "
        "cancelled or dead task is never taken); and no run of at most one fault over a small "
        "scope breaks a rule.",
        core=True,
        properties=(
            "On generated sequences of claims, heartbeats, saves, releases, cancels, requeues "
            "and tasks gone to the dead letter on two tasks with the clock moving, each claim "
            "and heartbeat of yours has the outcome the kit's ledger has from the same state "
            "(a lease or the same error, refused or accepted alike) and leaves the same owner "
            "and epoch.",
            "Every schedule of at most one fault (every fault kind at every point it can strike, "
            "a pause lasting past the lease) over 1 task x 2 workers x 2 steps, with the "
            "arrivals and step times of a seed drawn at grading time, breaks no rule of the "
            "checker (refusals included).",
        ),
        mistakes=(
            "UPDATE then SELECT (the chapter's claim)",
            "SELECT then UPDATE",
            "ignores lease_until",
            "heartbeat without the epoch",
            "heartbeat by worker name",
            "heartbeat without status = 'running'",
            "heartbeat as SELECT then UPDATE",
            "claim or heartbeat matching the task ID with LIKE or COLLATE NOCASE",
            "claim or heartbeat matching the task ID with trim(), COLLATE RTRIM or GLOB",
            "claim taking over a lease about to run out (lease_until <= now + a margin)",
            "heartbeat refusing a lease long run out though nobody claimed the task since",
            "claim or heartbeat reading 'running' from lease_until instead of the status",
        ),
        text=(
            "Write `claim(db, task_id, worker, ttl, now)`, the claim as **one atomic statement**",
            # what else counts as atomic: the corpus's locked claim gets every point
            "or as one transaction that takes the write lock before it reads (`BEGIN "
            "IMMEDIATE`, then its `SELECT` and `UPDATE`, then `COMMIT`, or `ROLLBACK` when it "
            "refuses), so that no other claim runs between its statements (the chapter's two "
            "statements, each a transaction of its own, are not atomic):",
            # the explored fault runs also judge each lease's length (the checker's rule (q))
            "the claim sets `status='running'`, `epoch = epoch + 1`, `attempts = attempts + 1`, "
            "`worker`, `lease_until = now + ttl` and `updated_at = now`, and returns the new "
            "lease (`RETURNING {LEASE_COLUMNS}`, then `lease_from_row`);",
            "a task may be claimed when it is `queued`, or `running` with a lease that ran out "
            "(`lease_until <= now`); a live lease is refused whoever asks, its own holder "
            "included;",
            "extend `lease_until` to `now + ttl` **exactly when the lease's epoch is the task's "
            "epoch and the task is running** (also once `lease_until` has passed, if nobody "
            "claimed the task since); return True if it did.",
        ),
        world=(
            "The generated sequences run on task IDs, worker names, lease lengths (with a "
            "fraction of a second, never one the notebook shows) and a clock start drawn at "
            "grading time, the first task's ID a prefix of the second's, and the first "
            "worker's name a prefix of the second's; beside them, tasks whose IDs are the "
            "first's with its first letter in capitals, after or before a space, with its first "
            "character full-width, and followed by a GLOB wildcard (*): a claim or heartbeat "
            "with a typed-in ttl, task or worker, one that ignores now, or one that matches IDs "
            "by prefix, regardless of case (LIKE, COLLATE NOCASE), of spaces (trim(), COLLATE "
            "RTRIM) or of Unicode forms, or as a pattern (GLOB), differs from the kit's there. "
            "A claim comes a hundredth of a second (scaled with the drawn lengths) before a "
            "live lease runs out, and a heartbeat a hundred lease lengths after its lease ran "
            "out, nobody having claimed since: a claim with a margin takes the live lease, a "
            "heartbeat that gives up on an old lease refuses a current one. The first task's "
            "lease, as the task leaves running, ends at that instant (its lease_until kept) "
            "rather than being cleared: a claim or heartbeat that reads 'running' from "
            "lease_until instead of the status takes or extends a task that no longer runs."
        ),
    ),
    Criterion(
        "claim-fields",
        2,
        "A claim returns the new lease (epoch, step, lease_until = now + ttl, attempts) and "
        "stores it, and refuses completed, cancelled, dead and unknown tasks with the kit's "
        "errors (a TerminalTask names the task and its status); a "
        "LeaseHeld names the worker holding the live lease and its lease_until.",
        properties=(
            "On the same generated sequences, each claim returns the lease the kit's ledger "
            "returns (every field) and leaves the same task row, and its errors carry the same "
            "fields.",
        ),
        mistakes=(
            "LeaseHeld naming a holder remembered from this process's own claims",
            "finding a refused task's row with LIKE, GLOB or COLLATE NOCASE (another task's "
            "holder, or an unknown task taken for another)",
            "claim that clears the checkpoint (a resumed task's lease carries none)",
        ),
        text=(
            "the claim sets `status='running'`, `epoch = epoch + 1`, `attempts = attempts + 1`, "
            "`worker`, `lease_until = now + ttl` and `updated_at = now`, and returns the new "
            "lease (`RETURNING {LEASE_COLUMNS}`, then `lease_from_row`);",
            "when nothing was updated, find out why: no such task -> `UnknownTask(task_id)`; a "
            "live lease -> `LeaseHeld(task_id, holder, lease_until)`, where `holder` and "
            "`lease_until` are the row's `worker` and `lease_until`: the error names the worker "
            "that *holds* the live lease (not the `worker` whose claim you refuse) and when its "
            "lease runs out; otherwise `TerminalTask(task_id, status)`.",
        ),
        world=(
            "The generated sequences' claims ask for lease lengths drawn at grading time (never "
            "10, 20, 30 or 60 s, and with a fraction) on a clock that starts far from 0, for "
            "drawn tasks and workers, and a live lease is sometimes taken by another process's "
            "claim (the kit's); a claim of the first task's ID in other capitals is refused "
            "while the first is held by another worker, and one of the first's ID followed by a "
            "LIKE wildcard (%), or by a GLOB wildcard (?), tasks the ledger never held; every "
            "save leaves a checkpoint, which a later claim's lease carries: a claim that "
            "clears the checkpoint returns another lease than the kit's, one that types in a ttl, "
            "ignores now or names another task or worker returns another lease than the kit's, "
            "a LeaseHeld that names a holder remembered from this process's own claims names "
            "the wrong one, and a refusal that finds the row with LIKE, GLOB or COLLATE NOCASE "
            "names another task's holder, or no UnknownTask."
        ),
    ),
    Criterion(
        "heartbeat-extends",
        1,
        "A current lease's heartbeat sets lease_until = now + ttl.",
        properties=(
            "On the same generated sequences, an accepted heartbeat leaves the lease_until the "
            "kit's ledger leaves.",
        ),
        text=("And `heartbeat(db, lease, ttl, now)`: extend `lease_until` to `now + ttl`",),
        world=(
            "The generated sequences' heartbeats ask for lease lengths drawn at grading time on "
            "a clock that starts far from 0: a heartbeat that types in its ttl or ignores now "
            "leaves another lease_until than the kit's."
        ),
    ),
    Criterion(
        "lease-end",
        1,
        "A lease whose lease_until equals now has run out: a claim at that very moment takes "
        "it over (lease_until <= now).",
        properties=(
            "On the same generated sequences, with the clock sometimes moved exactly to the end "
            "of a lease, a claim at that moment takes the task over as the kit's ledger does.",
        ),
        text=(
            "a task may be claimed when it is `queued`, or `running` with a lease that ran out "
            "(`lease_until <= now`);",
        ),
        world=(
            "The generated sequences move the clock exactly to the end of leases whose lengths "
            "and start are drawn at grading time, so the very moment a lease runs out is one no "
            "answer can type in."
        ),
    ),
)


def _no_two_winners_at_one_moment(runs: list) -> None:
    require(runs, say("race_not_run"))
    for run in (r for r in runs if r.get("later") == 0 and r.get("rival") == "claim"):
        a, b = run.get("A"), run.get("B")
        require(
            not (isinstance(a, Lease) and isinstance(b, Lease)),
            say("both_won"),
        )
        require(
            isinstance(a, Lease) or isinstance(b, Lease),
            say("neither_won"),
        )


#: Epochs and steps the races and the first claim may show as themselves (their stories hold
#: no other); any other value the learner's lease holds is shown by its type, where feedback is
#: quiet: a number the learner's code chose may tell what it saw elsewhere.
_EPOCHS = (0, 1, 2, 3)


def _some_lease(runs: list) -> None:
    """Some race gave A a lease; else the failure tells what A's claim did the first time (the
    kind of error it raised, or the type of what it returned: the races' tasks, workers and
    times are the same for every submission, and no value of the learner's answer is shown)."""
    if any(isinstance(r.get("A"), Lease) for r in runs):
        return
    got = runs[0].get("A") if runs else None
    if isinstance(got, str) and re.match(r"\w+: ", got):
        told = say("got_raised", kind=re.match(r"\w+", got).group(0))
    else:
        told = say(
            "got_returned",
            value=repr(got) if got is None or isinstance(got, bool) else type(got).__name__,
        )
    raise Fail(say("never_a_lease", got=told))


def _the_lease_is_your_own(runs: list) -> None:
    """A's lease names A: one that names B read back the row B's claim wrote (its lease_until
    is judged with the claim's fields, so a wrong lease length is never told as a read-back)."""
    _some_lease(runs)
    for run in (r for r in runs if r.get("later") != 0):
        a = run.get("A")
        if isinstance(a, Lease):
            require(
                a.worker == "A",
                say("read_back", worker=shown_value(a.worker, known=("B",))),
            )


def _no_lease_of_a_cancelled_epoch(runs: list) -> None:
    """A cancel between two statements of the claim (the task was at epoch 1): the claim may
    have won before it (epoch 2; the cancel's is 3) or be refused after it. A lease of epoch 3
    or more read the cancel's row back or revived the cancelled task; any other error means
    the claim broke on the cancel's row."""
    _some_lease(runs)
    for run in (r for r in runs if r.get("rival") == "cancel"):
        a = run.get("A")
        require(
            not (isinstance(a, Lease) and a.epoch >= 3),
            say("cancel_lease"),
        )
        if isinstance(a, str) and not a.startswith(("TerminalTask", "LeaseHeld")):
            kind = re.match(r"\w*", a).group(0) or say("an_error")
            raise Fail(say("cancel_raised", kind=kind))


def _no_shared_epoch(runs: list) -> None:
    require(runs, say("race_not_run"))
    for run in (r for r in runs if r.get("later") != 0):
        a, b = run.get("A"), run.get("B")
        if isinstance(a, Lease) and isinstance(b, Lease):
            require(
                a.epoch != b.epoch,
                say("shared_epoch", epoch=shown_value(b.epoch, known=_EPOCHS)),
            )
        require(
            isinstance(a, Lease) or isinstance(b, Lease),
            say("neither_expired"),
        )


def _claims_a_queued_task(ledgers: Ledgers) -> None:
    ledger = ledgers.fresh()
    ledgers.clock.now = 5.0
    lease = ledger.claim("t1", "A", 10.0)
    require(isinstance(lease, Lease), say("claim_returns_lease"))
    require(
        (lease.task_id, lease.worker, lease.epoch, lease.step) == ("t1", "A", 1, 0),
        say(
            "first_claim",
            epoch=shown_value(lease.epoch, known=_EPOCHS),
            step=shown_value(lease.step, known=_EPOCHS),
        ),
    )
    require(lease.lease_until == 15.0, say("lease_until_ttl"))
    stored = ledger.get("t1")
    require(
        (stored.status, stored.epoch, stored.worker, stored.attempts) == ("running", 1, "A", 1),
        say("after_claim"),
    )


def _b_claim_raises(ledger: Any, task: str, error: type[Exception], key: str) -> None:
    """Worker B's claim of ``task`` (ttl 10) raises ``error``; the feedback says ``key``."""
    raises(lambda: ledger.claim(task, "B", 10.0), error, say(key))


def _live_lease_is_refused(ledgers: Ledgers) -> None:
    ledger = ledgers.fresh()
    ledger.claim("t1", "A", 10.0)
    ledgers.clock.now = 9.0
    _b_claim_raises(ledger, "t1", LeaseHeld, "live_raises")
    stored = ledger.get("t1")
    require((stored.epoch, stored.worker) == (1, "A"), say("refused_changed"))


def _own_live_lease_is_refused(ledgers: Ledgers) -> None:
    """The holder's own claim while its lease is live is refused like anyone's: a restarted
    worker whose old process still runs must not get a second lease."""
    ledger = ledgers.fresh()
    ledger.claim("t1", "A", 10.0)
    ledgers.clock.now = 4.0
    raises(lambda: ledger.claim("t1", "A", 10.0), LeaseHeld, say("own_live_raises"))
    stored = ledger.get("t1")
    require((stored.epoch, stored.lease_until) == (1, 10.0), say("refused_changed"))


def _lease_held_names_the_holder(ledgers: Ledgers) -> None:
    """A LeaseHeld names the holder of the live lease and its lease_until, not the worker
    that asked. A claim that raises no LeaseHeld passes here (one-owner judges that)."""
    ledger = ledgers.fresh()
    ledger.claim("t1", "A", 10.0)
    ledgers.clock.now = 4.0
    try:
        ledger.claim("t1", "B", 10.0)
    except LeaseHeld as held:
        require(
            held.worker == "A",
            say("held_names_holder"),
        )
        require(held.lease_until == 10.0, say("held_until"))
    except (TerminalTask, UnknownTask):
        pass


def _expired_lease_is_taken_over(ledgers: Ledgers) -> None:
    ledger = ledgers.fresh()
    first = ledger.claim("t1", "A", 10.0)
    ledgers.clock.now = 10.5  # after the lease's end (the very moment is judged under lease-end)
    second = ledger.claim("t1", "B", 10.0)
    require(
        second.epoch == 2 and second.lease_until == 20.5,
        say("taken_over"),
    )
    require(not ledger.save(first, 1), say("old_lease_saved"))


def _terminal_and_unknown_tasks(ledgers: Ledgers) -> None:
    ledger = ledgers.fresh()
    lease = ledger.claim("t1", "A", 10.0)
    ledger.save(lease, 1, done=True)
    _b_claim_raises(ledger, "t1", TerminalTask, "completed_raises")
    ledger.submit("t2")
    ledger.cancel("t2")
    _b_claim_raises(ledger, "t2", TerminalTask, "cancelled_raises")
    _b_claim_raises(ledger, "nope", UnknownTask, "unknown_raises")


def _heartbeat_extends_the_lease(ledgers: Ledgers) -> None:
    ledger = ledgers.fresh()
    lease = ledger.claim("t1", "A", 10.0)
    ledgers.clock.now = 8.0
    require(ledger.heartbeat(lease, 10.0) is True, say("heartbeat_true"))
    require(ledger.get("t1").lease_until == 18.0, say("heartbeat_sets"))
    ledgers.clock.now = 12.0
    _b_claim_raises(ledger, "t1", LeaseHeld, "extended_held")


def _heartbeat_is_fenced(ledgers: Ledgers) -> None:
    ledger = ledgers.fresh()
    old = ledger.claim("t1", "A", 10.0)
    ledgers.clock.now = 11.0
    ledger.claim("t1", "B", 10.0)
    require(ledger.heartbeat(old, 10.0) is False, say("stale_heartbeat"))
    require(ledger.get("t1").lease_until == 21.0, say("stale_heartbeat_moved"))
    ledger.submit("t2")
    lease = ledger.claim("t2", "A", 10.0)
    ledger.cancel("t2")
    require(ledger.heartbeat(lease, 10.0) is False, say("cancelled_heartbeat"))


#: The hand-made cases of one owner at a time, in the order they are judged.
_ONE_OWNER_CASES = (
    _live_lease_is_refused,
    _own_live_lease_is_refused,
    _expired_lease_is_taken_over,
    _heartbeat_is_fenced,
)
