"""Question ``idempotent-send``: the student's ``record_effect`` (SQL) case by case, on generated
sequences of operations beside the kit's reference
(:mod:`~simlab.grading.checks.leases.operations`), raced at every statement boundary, then
``send_step`` (the worker's side of idempotency) with a kit mailbox, including a crash after the
e-mail left, and both under every schedule of at most one fault over a small scope."""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

from simlab.grading.checks.leases import operations as ops
from simlab.grading.checks.leases.driving import Ledgers, explored
from simlab.grading.checks.leases.messages import say
from simlab.grading.checks.leases.race import (
    contended_effects,
    require_one_statement,
    rivalled,
)
from simlab.grading.checks.leases.scripted import CrashLedger
from simlab.grading.checks.leases.world import World, world_of
from simlab.grading.lending import Lent
from simlab.grading.questions import Criterion, Tally, require
from simlab.grading.student import Student, kind_of
from simlab.ledger import Ledger
from simlab.sim.mailbox import Mailbox

__all__ = ["EFFECT_RUBRIC", "idempotent_send"]

#: What the generated sequences of this question do (record_effect is the student's).
EFFECT_MOVES = (
    "claim",
    "wait",
    "expire",
    "record",
    "save",
    "release",
    "cancel",
    "requeue",
    "heartbeat",
)

#: Sequences played before the generated ones: the classic slips, each in its shortest story.
EFFECT_STORIES = (
    # a record made a while after the claim: the row carries the time of the record
    (("claim", "t1", "A", 10.0), ("wait", 3), ("record", 0, "k1")),
    # a lease whose task it released, or completed
    (("claim", "t1", "A", 10.0), ("release", 0), ("record", 0, "k1")),
    (("claim", "t1", "A", 10.0), ("save", 0, True), ("record", 0, "k1")),
    # the same key by the new owner after a takeover, and the old owner after it
    (
        ("claim", "t1", "A", 10.0),
        ("record", 0, "k1"),
        ("wait", 15),
        ("claim", "t1", "B", 10.0),
        ("record", 0, "k1"),
        ("record", 1, "k2"),
        ("record", 0, "k2"),
    ),
    # A's own stale lease, once A holds the task again; the same key in another task
    (
        ("claim", "t1", "A", 10.0),
        ("cancel", "t1"),
        ("requeue", "t1"),
        ("claim", "t1", "A", 10.0),
        ("record", 1, "k1"),
        ("claim", "t2", "B", 10.0),
        ("record", 0, "k1"),
    ),
    # keys that share a prefix (in the hidden world, k1 is a prefix of k2), either order; then
    # K1, k1 in other capitals: another key (one stored or compared in other capitals, with
    # lower(), upper(), LIKE or COLLATE NOCASE, is taken for k1)
    (("claim", "t1", "A", 10.0), ("record", 0, "k2"), ("record", 0, "k1")),
    (("claim", "t1", "A", 10.0), ("record", 0, "k1"), ("record", 0, "k2"), ("record", 0, "K1")),
    # two running tasks whose IDs differ only in case (T1 is t1's ID with its first letter in
    # capitals), at one epoch: a record that matches IDs with LIKE or COLLATE NOCASE records for
    # both
    (("claim", "t1", "A", 10.0), ("claim", "T1", "B", 10.0), ("record", 1, "k1")),
    # ... or by a space before or after it, or its first character full-width: a record that
    # matches IDs with trim(), rtrim(), COLLATE RTRIM or after NFKC records for them too
    (
        ("claim", "' t1'", "A", 10.0),
        ("claim", "'t1 '", "B", 10.0),
        ("claim", "ｔ1", "C", 10.0),
        ("claim", "t1", "A", 10.0),
        ("record", 0, "k1"),
    ),
    # a task whose ID is t1's followed by *, at t1's epoch: a record that matches IDs with GLOB
    # takes its ID for a pattern, which matches t1 too
    (("claim", "t1", "A", 10.0), ("claim", "t1*", "B", 10.0), ("record", 0, "k1")),
    # a lease whose lease_until has passed, nobody having claimed the task since: still current
    # (its epoch is the task's and the task runs), so its new key is recorded
    (("claim", "t1", "A", 10.0), ("wait", 15), ("record", 0, "k1")),
    # one key in two tasks whose IDs share a prefix (t1's ID is a prefix of t2's), either order
    (
        ("claim", "t1", "A", 10.0),
        ("claim", "t2", "B", 10.0),
        ("record", 1, "k1"),
        ("record", 0, "k1"),
    ),
    (
        ("claim", "t1", "A", 10.0),
        ("claim", "t2", "B", 10.0),
        ("record", 0, "k1"),
        ("record", 1, "k1"),
    ),
)


def idempotent_send(s: Student, t: Tally) -> None:
    """``record_effect`` case by case and twice within one round trip, then ``send_step`` case
    by case (also with a crash between its two moves), then both under every schedule of at
    most one fault over a small scope (``send_step`` sends every e-mail of each run): the
    hand-made cases first, as their failures say more. Parts are filed under the criteria of
    :data:`EFFECT_RUBRIC`. The generated sequences and ``send_step`` are judged in the
    question's hidden world (:func:`~simlab.grading.checks.leases.world.world_of`), whose values
    the feedback never quotes."""
    world = world_of("idempotent-send")
    t.hidden = t.hidden | frozenset(world.shown())
    ledgers = Ledgers(s, record_effect="record_effect")
    plays = ops.Plays(s, world, record_effect="record_effect")
    moves = ops.sequences(EFFECT_MOVES)
    try:
        t.under("effect-fields")
        t.part(functools.partial(_records_a_new_key, ledgers))
        t.part(functools.partial(_keys_belong_to_their_task, ledgers))
        t.under("at-most-once")
        t.part(functools.partial(_a_key_is_recorded_once, ledgers))
        t.part(functools.partial(_stale_leases_record_nothing, ledgers))
        t.part(functools.partial(_twice_within_one_round_trip, s))
        t.part(
            lambda: require_one_statement(
                rivalled(s, "record_effect", ("race:email:0",)),
                "record_effect",
                say("did_record_key"),
            )
        )
        t.part(lambda: ops.check(plays, moves, ops.CORE, first=EFFECT_STORIES))
        sends = _Sends(ledgers, world)
        for part in (
            _a_retry_after_a_crash_does_not_resend,
            _a_crash_between_record_and_send,
            _a_stale_worker_does_not_send,
        ):
            t.part(functools.partial(part, sends))
        t.part(
            lambda: explored(
                s,
                {"record_effect": "record_effect"},
                say("by_email_code"),
                "leases/idempotent-send/explore",
                send_step="send_step",
            )
        )
        t.under("effect-fields")
        t.part(lambda: ops.check(plays, moves, ops.DETAIL, first=EFFECT_STORIES))
        t.under("step-keys")
        t.part(functools.partial(_each_step_sends_its_own, sends))
        t.part(functools.partial(_tasks_send_their_own, sends))
    finally:
        plays.close()
        ledgers.close()


#: The rubric of ``idempotent-send``: record first, once, under a current lease.
EFFECT_RUBRIC = (
    Criterion(
        "at-most-once",
        6,
        "No e-mail goes out twice and none from a stale worker: a key is recorded once (also "
        "when the same step is delivered twice within one round trip), only by a current lease "
        "of a running task, in one statement (a cancel or a takeover between two statements of "
        "record_effect never lets the old lease record), as the kit's ledger does on generated "
        "sequences of claims, records, saves, releases, cancels and requeues with the clock "
        "moving; send_step records before it sends, so a crash between the two never resends; "
        "no run of at most one fault over a small scope breaks a rule.",
        core=True,
        properties=(
            "On generated sequences of claims, recorded effects, saves, releases, cancels and "
            "requeues on two tasks with the clock moving, each record_effect of yours answers "
            "as the kit's ledger does from the same state (recorded, refused or an error) and "
            "leaves the same effects.",
            "Every schedule of at most one fault (every fault kind at every point it can strike, "
            "a pause lasting past the lease) over 1 task x 2 workers x 1 step, with the "
            "arrivals and step times of a seed drawn at grading time and your send_step "
            "sending, breaks no rule of the checker (refusals included).",
        ),
        mistakes=(
            "record_effect always returns True",
            "record_effect without a lease check",
            "send before record",
            "SELECT then INSERT",
            "record_effect without status = 'running'",
            "record_effect matching the task ID with LIKE or COLLATE NOCASE",
            "record_effect matching the task ID with trim(), COLLATE RTRIM or GLOB",
            "record_effect storing or comparing the key in other capitals (lower(), "
            "COLLATE NOCASE)",
            "record_effect reading 'running' from lease_until instead of the status",
        ),
        text=(
            "`record_effect(db, lease, key, now)`: insert `(lease.task_id, key, epoch, "
            "lease.worker, now)` **only if** the lease is current (its epoch is the task's, and "
            "the task is running) and the key is new for that task, in **one statement**; "
            "return True if a row was inserted.",
            "`send_step(ledger, lease, step, mailbox)`: the side-effecting step `step` of the "
            "task: send one e-mail with `mailbox.send(key)`, at most once however often the "
            "step is retried, by whichever worker (each worker is a process of its own).",
            "before sending, the worker records the side effect's key in the `effects(task_id, "
            "key, epoch, worker, recorded_at)` table (primary key `(task_id, key)`), and sends "
            "only if it was the first to record it.",
        ),
        world=(
            "The generated sequences run on task IDs, worker names, keys, lease lengths and a "
            "clock start drawn at grading time (the first task's ID a prefix of the second's, "
            "the first key a prefix of the second; beside them, tasks whose IDs are the first's "
            "with its first letter in capitals, after or before a space, with its first "
            "character full-width, and followed by a GLOB wildcard), and send_step sends at a "
            "drawn step of a drawn task after drawn lease lengths: typed-in IDs, keys, steps or "
            "ttls, keys matched by prefix, or task IDs matched regardless of case, of spaces or "
            "of Unicode forms, or as a pattern (GLOB), record or send what the kit would not. "
            "The keys start with a capital letter, and a task's key is also recorded in other "
            "capitals: a key stored or compared in other capitals (lower(), COLLATE NOCASE) "
            "records another key, or refuses a new one. The first task's lease, as the task "
            "leaves running, ends at that instant (its lease_until kept) rather than being "
            "cleared: a record_effect that reads 'running' from lease_until instead of the "
            "status records for a task that no longer runs."
        ),
    ),
    Criterion(
        "effect-fields",
        2,
        "The recorded row carries the key, the lease's epoch and worker, and now; keys are per "
        "task, and a current lease's new key is recorded (also once its lease_until has "
        "passed, if nobody claimed the task since).",
        properties=(
            "On the same generated sequences, each recorded row has the fields of the kit's "
            "ledger's row (key, epoch, worker, time), and a new key of a current lease is "
            "recorded.",
        ),
        mistakes=("record_effect refusing a current lease whose lease_until has passed",),
        text=(
            "`record_effect(db, lease, key, now)`: insert `(lease.task_id, key, epoch, "
            "lease.worker, now)` **only if** the lease is current (its epoch is the task's, and "
            "the task is running) and the key is new for that task, in **one statement**; "
            "return True if a row was inserted.",
        ),
        world=(
            "The generated sequences' records run on a clock that starts far from 0, for drawn "
            "tasks, workers and keys (the first key a prefix of the second, the first task's ID "
            "a prefix of the second's): a row with a typed-in time, worker or key, or a key "
            "matched by prefix, differs from the kit's."
        ),
    ),
    Criterion(
        "step-keys",
        1,
        "Each step sends its own e-mail (one key per task and step): two steps of a task, and "
        "two tasks at one step, never share a key.",
        text=(
            "`send_step(ledger, lease, step, mailbox)`: the side-effecting step `step` of the "
            "task: send one e-mail with `mailbox.send(key)`, at most once however often the "
            "step is retried, by whichever worker (each worker is a process of its own).",
            "Every task sends to the same mailbox, which (like a mail provider) takes one key "
            "for one e-mail, so two tasks must never share a key.",
        ),
        world=(
            "send_step is called for two steps in a row from a step drawn at grading time, of a "
            "drawn task, and for two drawn tasks, the second's ID the first's and a digit, the "
            "first at that digit and the step, the second at the step, then for the first task "
            "and each task whose ID is the first's with its first letter in capitals, after or "
            "before a space or with its first character full-width, at the same step: a key "
            "with a typed-in step or task, the lease's step read in place of the step given, "
            "the task and the step run together, or the task ID folded, stripped, normalised or "
            "cut to its end, sends one e-mail for two."
        ),
    ),
)


def _twice_within_one_round_trip(s: Student) -> None:
    runs = contended_effects(s)
    require(runs, say("delivery_not_run"))
    for run in runs:
        yes = [run.get("A") is True, run.get("B") is True].count(True)
        require(
            yes <= 1 and run.get("rows") == 1,
            say("recorded_twice", n=yes),
        )


# -- record_effect --------------------------------------------------------------------------------


def _records_a_new_key(ledgers: Ledgers) -> None:
    ledger = ledgers.fresh()
    lease = ledger.claim("t1", "A", 10.0)
    ledgers.clock.now = 3.0
    require(
        ledger.record_effect(lease, "t1:email:0") is True,
        say("first_record"),
    )
    effects = ledger.effects("t1")
    found = say("effects_none" if not effects else "effects_more")
    require(len(effects) == 1, say("one_effect", found=found))
    e = effects[0]
    require(
        (e.key, e.epoch, e.worker, e.recorded_at) == ("t1:email:0", 1, "A", 3.0),
        say("effect_fields"),
    )


def _a_key_is_recorded_once(ledgers: Ledgers) -> None:
    ledger = ledgers.fresh()
    lease = ledger.claim("t1", "A", 10.0)
    ledger.record_effect(lease, "t1:email:0")
    require(
        ledger.record_effect(lease, "t1:email:0") is False,
        say("same_key_twice"),
    )
    require(
        ledger.record_effect(lease, "t1:email:1") is True,
        say("other_key_refused"),
    )


def _stale_leases_record_nothing(ledgers: Ledgers) -> None:
    ledger = ledgers.fresh()
    old = ledger.claim("t1", "A", 10.0)
    ledgers.clock.now = 10.0
    ledger.claim("t1", "B", 10.0)
    require(
        ledger.record_effect(old, "t1:email:0") is False,
        say("stale_record"),
    )
    require(not ledger.effects("t1"), say("stale_row"))
    ledger.submit("t2")
    lease = ledger.claim("t2", "A", 10.0)
    ledger.cancel("t2")
    require(
        ledger.record_effect(lease, "t2:email:0") is False,
        say("cancelled_record"),
    )


def _keys_belong_to_their_task(ledgers: Ledgers) -> None:
    ledger = ledgers.fresh()
    ledger.submit("t2")
    a = ledger.claim("t1", "A", 10.0)
    b = ledger.claim("t2", "B", 10.0)
    ledger.record_effect(a, "welcome")
    require(
        ledger.record_effect(b, "welcome") is True,
        say("per_task"),
    )


# -- send_step ------------------------------------------------------------------------------------


class _Sends:
    """The student's ``send_step`` with a kit ledger and a kit mailbox that the grader keeps
    (the student's code gets stand-ins of both), on the question's clock."""

    def __init__(self, ledgers: Ledgers, world: World):
        self.s = ledgers.s
        self.clock = ledgers.clock
        self.world = world
        self.task = world.tasks[0]
        self.ttl = world.ttls[0]
        self.step = world.step

    def send_step(
        self, ledger: Any, lease: Any, step: int, mailbox: Mailbox, elsewhere: int = 0
    ) -> Any:
        """The student's ``send_step``; ``elsewhere`` (1, 2, ...): by a worker in another
        process (:func:`~simlab.grading.sandbox.elsewhere.in_another_process`), as the worker
        that retries a step after a crash is."""
        return self.s.call(
            "send_step",
            Lent(ledger, "Ledger"),
            lease,
            step,
            Lent(mailbox, "Mailbox"),
            elsewhere=elsewhere,
        )

    def fresh(self) -> tuple[Ledger, Mailbox]:
        """A kit ledger at the world's start holding the world's first task, and a new
        mailbox."""
        self.clock.now = self.world.start
        ledger = Ledger(":memory:", clock=self.clock)
        ledger.submit(self.task)
        return ledger, Mailbox()

    def claim(
        self, ledger: Ledger, worker: str, task: str | None = None, step: int | None = None
    ) -> Any:
        """``worker``'s (a label) claim of ``task`` (the world's first), saved up to ``step``
        (the world's) the first time (the steps before it sent nothing)."""
        task = self.task if task is None else task
        step = self.step if step is None else step
        lease = ledger.claim(task, self.world.worker(worker), self.ttl)
        if lease.step < step:
            ledger.save(lease, step)
            lease = dataclasses.replace(lease, step=step)
        return lease

    def expire(self) -> None:
        """The clock moves to the end of the latest lease."""
        self.clock.now += self.ttl


def _shown(value: Any) -> str:
    """What send_step returned, for feedback: True, False and None as they are (no hidden
    value), anything else by its type."""
    return repr(value) if value is None or isinstance(value, bool) else kind_of(value)


def _inbox(mailbox: Mailbox) -> dict:
    """What the kit mailbox received: idempotency key -> how many times it was sent."""
    return dict(mailbox.received)


def _a_retry_after_a_crash_does_not_resend(sends: _Sends) -> None:
    ledger, mailbox = sends.fresh()
    first = sends.claim(ledger, "A")
    require(
        sends.send_step(ledger, first, sends.step, mailbox) is True,
        say("fresh_send"),
    )
    sends.expire()  # A crashed after the e-mail, before its save; the lease ran out
    retry = sends.claim(ledger, "B")
    again = sends.send_step(ledger, retry, sends.step, mailbox, elsewhere=1)
    sent = sum(_inbox(mailbox).values())
    require(sent == 1, say("retry_sent", sent=say("emails_none" if not sent else "emails_more")))
    require(again is False, say("retry_said_sent", got=_shown(again)))


def _a_crash_between_record_and_send(sends: _Sends) -> None:
    sends.clock.now = sends.world.start
    with CrashLedger(":memory:", clock=sends.clock) as ledger:
        mailbox = ledger.mailbox
        ledger.submit(sends.task)
        first = sends.claim(ledger, "A")
        try:
            sends.send_step(ledger, first, sends.step, mailbox)
        except Exception:  # the worker crashed (the kit's crash, or the student's own error)
            pass
        sends.expire()
        retry = sends.claim(ledger, "B")
        sends.send_step(ledger, retry, sends.step, mailbox, elsewhere=1)
        sent = sum(_inbox(mailbox).values())
    require(
        sent <= 1,
        say("crash_between"),
    )


def _each_step_sends_its_own(sends: _Sends) -> None:
    ledger, mailbox = sends.fresh()
    lease = sends.claim(ledger, "A")
    sends.send_step(ledger, lease, sends.step, mailbox)
    ledger.save(lease, sends.step + 1)
    sends.send_step(ledger, lease, sends.step + 1, mailbox)
    got = _inbox(mailbox)
    require(
        len(got) == 2 and sum(got.values()) == 2,
        say("own_email"),
    )


def _a_stale_worker_does_not_send(sends: _Sends) -> None:
    ledger, mailbox = sends.fresh()
    old = sends.claim(ledger, "A")
    sends.expire()
    sends.claim(ledger, "B")
    said = sends.send_step(ledger, old, sends.step, mailbox)
    require(sum(_inbox(mailbox).values()) == 0, say("stale_sent"))
    require(said is False, say("stale_said_sent", got=_shown(said)))


def _tasks_send_their_own(sends: _Sends) -> None:
    """Two tasks each send an e-mail of their own: the mailbox is shared by every task and takes
    one key for one e-mail. Once both at the same step; once with the first at the digit that
    ends the second's ID followed by the second's step (the second's ID is the first's and a
    digit), so a key that runs the task and the step together is one key for both; then the
    first and each task whose ID looks like it (in other case, after or before a space,
    full-width: :attr:`~simlab.grading.checks.leases.world.World.look_alikes`) at the same
    step, so a key made of the ID folded, stripped, normalised or cut to its end is one key
    for both."""
    world = sends.world
    first, other = world.tasks
    pairs = [
        (other, (sends.step, sends.step), "tasks_email"),
        (other, (int(other[len(first) :] + str(sends.step)), sends.step), "tasks_email"),
    ]
    pairs += [(world.task(label), (sends.step,) * 2, "look_alikes_email") for label in _ALIKE]
    for second, steps, key in pairs:
        ledger, mailbox = sends.fresh()
        ledger.submit(second)
        tasks = zip((first, second), steps, ("A", "B"), strict=True)
        leases = [sends.claim(ledger, worker, task, step) for task, step, worker in tasks]
        for lease, step in zip(leases, steps, strict=True):
            sends.send_step(ledger, lease, step, mailbox)
        got = _inbox(mailbox)
        require(len(got) == 2 and sum(got.values()) == 2, say(key))


#: The look-alikes of the first task a send_step is judged with (the one with a GLOB wildcard
#: is for SQL: a key is no pattern).
_ALIKE = ("T1", "' t1'", "'t1 '", "ｔ1")
