"""Question ``idempotent-send``: the student's ``record_effect`` (SQL) case by case, on generated
sequences of operations beside the kit's reference
(:mod:`~simlab.grading.checks.leases.operations`), raced at every statement boundary and under
faults, then ``send_step`` (the worker's side of idempotency) with a kit mailbox, including a
crash after the e-mail left."""

from __future__ import annotations

import functools
from typing import Any

from simlab.grading.checks.leases import operations as ops
from simlab.grading.checks.leases.driving import Ledgers, simulated
from simlab.grading.checks.leases.messages import say
from simlab.grading.checks.leases.race import (
    contended_effects,
    require_one_statement,
    rivalled,
)
from simlab.grading.checks.leases.scripted import CrashLedger
from simlab.grading.lending import Lent
from simlab.grading.questions import Criterion, Tally, require
from simlab.grading.student import Student
from simlab.ledger import Ledger
from simlab.sim.mailbox import Mailbox
from simlab.sim.scenario import Scenario

__all__ = ["EFFECT_SCENARIO", "EFFECT_SEEDS", "EFFECT_RUBRIC", "idempotent_send"]

#: The faults the student's record_effect and send_step run under: every step sends, workers
#: crash after e-mails (a retry resends unless the key was recorded first: rule (f)), and pause
#: right before an e-mail while the task is cancelled or taken over (a record_effect without
#: the lease check records it: rule (j)). Each seed catches the classic mistakes
#: (tests/grading/test_grading_faults.py).
EFFECT_SCENARIO = Scenario(
    tasks=12,
    workers=4,
    effects="all",
    effect_crash_rate=0.3,
    pause_rate=0.1,
    duplicate_rate=0.2,
    effect_pause_rate=0.5,
    cancel_rate=0.5,
    pause_time=1.0,
)
EFFECT_SEEDS = (21, 22)


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
)


def idempotent_send(s: Student, t: Tally) -> None:
    """``record_effect`` case by case and twice within one round trip, then ``send_step`` case
    by case (also with a crash between its two moves), then both under seeded faults
    (``send_step`` sends every e-mail of the run): the hand-made cases first, as their failures
    say more. Parts are filed under the criteria of :data:`EFFECT_RUBRIC`."""
    ledgers = Ledgers(s, record_effect="record_effect")
    plays = ops.Plays(s, record_effect="record_effect")
    moves = ops.sequences(EFFECT_MOVES)
    t.under("effect-fields")
    t.part(functools.partial(_records_a_new_key, ledgers))
    t.part(functools.partial(_keys_belong_to_their_task, ledgers))
    t.under("at-most-once")
    t.part(functools.partial(_a_key_is_recorded_once, ledgers))
    t.part(functools.partial(_stale_leases_record_nothing, ledgers))
    t.part(functools.partial(_twice_within_one_round_trip, s))
    t.part(
        lambda: require_one_statement(
            rivalled(s, "record_effect", ("race:email:0",)), "record_effect", say("did_record_key")
        )
    )
    t.part(lambda: ops.check(plays, moves, ops.CORE, first=EFFECT_STORIES))
    sends = _Sends(ledgers)
    for part in (
        _a_retry_after_a_crash_does_not_resend,
        _a_crash_between_record_and_send,
        _a_stale_worker_does_not_send,
    ):
        t.part(functools.partial(part, sends))
    for seed in EFFECT_SEEDS:
        t.part(
            lambda seed=seed: simulated(
                s,
                EFFECT_SCENARIO,
                seed,
                {"record_effect": "record_effect"},
                say("by_email_code"),
                send_step="send_step",
            )
        )
    t.under("effect-fields")
    t.part(lambda: ops.check(plays, moves, ops.DETAIL, first=EFFECT_STORIES))
    t.under("step-keys")
    t.part(functools.partial(_each_step_sends_its_own, sends))


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
        "seeded fault runs break no rule.",
        core=True,
        properties=(
            "On generated sequences of claims, recorded effects, saves, releases, cancels and "
            "requeues on two tasks with the clock moving, each record_effect of yours answers "
            "as the kit's ledger does from the same state (recorded, refused or an error) and "
            "leaves the same effects.",
        ),
        mistakes=(
            "record_effect always returns True",
            "record_effect without a lease check",
            "send before record",
            "SELECT then INSERT",
            "record_effect without status = 'running'",
        ),
    ),
    Criterion(
        "effect-fields",
        2,
        "The recorded row carries the key, the lease's epoch and worker, and now; keys are per "
        "task, and a current lease's new key is recorded.",
        properties=(
            "On the same generated sequences, each recorded row has the fields of the kit's "
            "ledger's row (key, epoch, worker, time).",
        ),
    ),
    Criterion("step-keys", 1, "Each step sends its own e-mail (one key per task and step)."),
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
    require(len(effects) == 1, say("one_effect", n=len(effects)))
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

    def __init__(self, ledgers: Ledgers):
        self.s = ledgers.s
        self.clock = ledgers.clock

    def send_step(self, ledger: Any, lease: Any, step: int, mailbox: Mailbox) -> Any:
        return self.s.call(
            "send_step", Lent(ledger, "Ledger"), lease, step, Lent(mailbox, "Mailbox")
        )

    def world(self) -> tuple[Ledger, Mailbox]:
        """A kit ledger at time 0 holding task ``t1``, and a new mailbox."""
        self.clock.now = 0.0
        ledger = Ledger(":memory:", clock=self.clock)
        ledger.submit("t1")
        return ledger, Mailbox()


def _inbox(mailbox: Mailbox) -> dict:
    """What the kit mailbox received: idempotency key -> how many times it was sent."""
    return dict(mailbox.received)


def _a_retry_after_a_crash_does_not_resend(sends: _Sends) -> None:
    ledger, mailbox = sends.world()
    first = ledger.claim("t1", "A", 10.0)
    require(
        sends.send_step(ledger, first, 0, mailbox) is True,
        say("fresh_send"),
    )
    sends.clock.now = 10.0  # A crashed after the e-mail, before its save; the lease ran out
    retry = ledger.claim("t1", "B", 10.0)
    sends.send_step(ledger, retry, 0, mailbox)
    got = _inbox(mailbox)
    require(
        sum(got.values()) == 1,
        say("retry_sent", step=0, n=sum(got.values())),
    )


def _a_crash_between_record_and_send(sends: _Sends) -> None:
    sends.clock.now = 0.0
    with CrashLedger(":memory:", clock=sends.clock) as ledger:
        mailbox = ledger.mailbox
        ledger.submit("t1")
        first = ledger.claim("t1", "A", 10.0)
        try:
            sends.send_step(ledger, first, 0, mailbox)
        except Exception:  # the worker crashed (the kit's crash, or the student's own error)
            pass
        sends.clock.now = 10.0
        retry = ledger.claim("t1", "B", 10.0)
        sends.send_step(ledger, retry, 0, mailbox)
        sent = sum(_inbox(mailbox).values())
    require(
        sent <= 1,
        say("crash_between", n=sent),
    )


def _each_step_sends_its_own(sends: _Sends) -> None:
    ledger, mailbox = sends.world()
    lease = ledger.claim("t1", "A", 10.0)
    sends.send_step(ledger, lease, 0, mailbox)
    ledger.save(lease, 1)
    sends.send_step(ledger, lease, 1, mailbox)
    got = _inbox(mailbox)
    require(
        len(got) == 2 and sum(got.values()) == 2,
        say("own_email"),
    )


def _a_stale_worker_does_not_send(sends: _Sends) -> None:
    ledger, mailbox = sends.world()
    old = ledger.claim("t1", "A", 10.0)
    sends.clock.now = 10.0
    ledger.claim("t1", "B", 10.0)
    sends.send_step(ledger, old, 0, mailbox)
    require(sum(_inbox(mailbox).values()) == 0, say("stale_sent"))
