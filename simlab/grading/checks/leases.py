"""Hidden checks of exercise ``leases`` (``02_leases_effects_and_loop.ipynb``).

Ledger pieces are graded the way they will be used: plugged into the kit's SQLite ledger (in the
sandbox) and driven from here, first case by case on a clock the check controls, then by the
fault simulator on fixed seeds with every fault on, with the checker judging the history.

* ``atomic-claim``: ``claim`` and ``heartbeat`` (SQL), including the chapter's race replayed
  deterministically: a second worker claims right after the first statement of a claim.
* ``idempotent-send``: ``record_effect`` (SQL) and ``send_step`` (the worker's side of
  idempotency), including a crash after the e-mail left.
* ``worker-loop``: ``run_task``, against a ledger file on which another process cancels or takes
  over the task at chosen moments.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from simlab.errors import LeaseHeld, TerminalTask, UnknownTask
from simlab.grading.questions import Exercise, Fail, Question, Tally, require
from simlab.grading.student import RemoteObject, Student, kind_of
from simlab.ledger import Ledger
from simlab.records import Lease
from simlab.sim.scenario import Scenario
from simlab.sim.simulation import simulate

__all__ = ["EXERCISE", "CLAIM_SCENARIO", "CLAIM_SEEDS", "EFFECT_SCENARIO", "EFFECT_SEEDS"]

#: The faults the student's claim and heartbeat run under, and the seeds (not shown to learners).
CLAIM_SCENARIO = Scenario(tasks=12, workers=3, pause_rate=0.2, crash_rate=0.1, duplicate_rate=0.2)
CLAIM_SEEDS = (11, 12, 13)
#: The faults the student's record_effect runs under: every step sends, crashes after e-mails.
EFFECT_SCENARIO = Scenario(
    tasks=12, workers=3, effects="all", effect_crash_rate=0.3, pause_rate=0.1, duplicate_rate=0.2
)
EFFECT_SEEDS = (21, 22)


class Clock:
    """A clock the check moves by hand."""

    def __init__(self, now: float = 0.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


def _raises(call: Callable[[], Any], error: type, message: str) -> None:
    try:
        value = call()
    except error:
        return
    except (LeaseHeld, TerminalTask, UnknownTask) as other:
        raise Fail(f"{message}, but it raised {type(other).__name__}") from None
    raise Fail(f"{message}, but it returned {kind_of(value)}")


def _simulated(
    s: Student, scenario: Scenario, seed: int, pieces: dict[str, str], what: str
) -> None:
    result = simulate(scenario, seed=seed, ledger=lambda clock: s.ledger(clock=clock, **pieces))
    require(
        result.ok,
        f"with faults on (seed {seed}), the checker found: "
        f"{result.violations[0] if result.violations else ''}",
    )
    require(
        result.duplicate_sends == 0,
        f"with faults on (seed {seed}), {what} let {result.duplicate_sends} e-mail(s) go out twice",
    )


# --------------------------------------------------------------------------- atomic-claim ---


def atomic_claim(s: Student, t: Tally) -> None:
    clock = Clock()

    def fresh() -> RemoteObject:
        clock.now = 0.0
        ledger = s.ledger(clock=clock, claim="claim", heartbeat="heartbeat")
        ledger.submit("t1")
        return ledger

    @t.part
    def claims_a_queued_task():
        ledger = fresh()
        clock.now = 5.0
        lease = ledger.claim("t1", "A", 10.0)
        require(isinstance(lease, Lease), "claim must return a Lease")
        require(
            (lease.task_id, lease.worker, lease.epoch, lease.step) == ("t1", "A", 1, 0),
            f"the first claim returned epoch {lease.epoch}, step {lease.step} (expected "
            "epoch 1, step 0)",
        )
        require(lease.lease_until == 15.0, "lease_until must be now + ttl")
        stored = ledger.get("t1")
        require(
            (stored.status, stored.epoch, stored.worker, stored.attempts) == ("running", 1, "A", 1),
            "after a claim the task must be running, epoch 1, worker set, attempts 1",
        )

    @t.part
    def live_lease_is_refused():
        ledger = fresh()
        ledger.claim("t1", "A", 10.0)
        clock.now = 9.0
        _raises(
            lambda: ledger.claim("t1", "B", 10.0),
            LeaseHeld,
            "a claim while another lease is live must raise LeaseHeld",
        )
        stored = ledger.get("t1")
        require((stored.epoch, stored.worker) == (1, "A"), "a refused claim changed the task")

    @t.part
    def expired_lease_is_taken_over():
        ledger = fresh()
        first = ledger.claim("t1", "A", 10.0)
        clock.now = 10.0
        second = ledger.claim("t1", "B", 10.0)
        require(
            second.epoch == 2 and second.lease_until == 20.0,
            "a claim at lease_until must succeed with epoch 2 and a new lease_until",
        )
        require(not ledger.save(first, 1), "the old lease could still save after the takeover")

    @t.part
    def terminal_and_unknown_tasks():
        ledger = fresh()
        lease = ledger.claim("t1", "A", 10.0)
        ledger.save(lease, 1, done=True)
        _raises(
            lambda: ledger.claim("t1", "B", 10.0),
            TerminalTask,
            "claiming a completed task must raise TerminalTask",
        )
        ledger.submit("t2")
        ledger.cancel("t2")
        _raises(
            lambda: ledger.claim("t2", "B", 10.0),
            TerminalTask,
            "claiming a cancelled task must raise TerminalTask",
        )
        _raises(
            lambda: ledger.claim("nope", "B", 10.0),
            UnknownTask,
            "claiming a task that does not exist must raise UnknownTask",
        )

    @t.part
    def heartbeat_extends_the_lease():
        ledger = fresh()
        lease = ledger.claim("t1", "A", 10.0)
        clock.now = 8.0
        require(
            ledger.heartbeat(lease, 10.0) is True, "a heartbeat of a current lease must return True"
        )
        require(
            ledger.get("t1").lease_until == 18.0, "a heartbeat must set lease_until to now + ttl"
        )
        clock.now = 12.0
        _raises(
            lambda: ledger.claim("t1", "B", 10.0),
            LeaseHeld,
            "a lease extended by a heartbeat must still be held",
        )

    @t.part
    def heartbeat_is_fenced():
        ledger = fresh()
        old = ledger.claim("t1", "A", 10.0)
        clock.now = 11.0
        ledger.claim("t1", "B", 10.0)
        require(ledger.heartbeat(old, 10.0) is False, "a stale lease's heartbeat returned True")
        require(ledger.get("t1").lease_until == 21.0, "a stale lease's heartbeat moved lease_until")
        ledger.submit("t2")
        lease = ledger.claim("t2", "A", 10.0)
        ledger.cancel("t2")
        require(
            ledger.heartbeat(lease, 10.0) is False, "a heartbeat of a cancelled task returned True"
        )

    @t.part
    def the_chapter_race_cannot_happen():
        with s.folder() as folder:
            race = s.kit("interleaved-claims", str(Path(folder) / "race.sqlite"), claim="claim")
            outcome = race.attribute("value")
        require(isinstance(outcome, dict), "the race could not be run")
        a, b = outcome.get("A"), outcome.get("B")
        if isinstance(a, Lease) and isinstance(b, Lease):
            require(
                a.epoch != b.epoch,
                f"two workers both hold epoch {a.epoch}: another claim ran between the "
                "statements of yours (make the claim one atomic statement)",
            )
        require(
            isinstance(a, Lease) or isinstance(b, Lease),
            f"neither worker got the expired task ({a}; {b})",
        )

    for seed in CLAIM_SEEDS:
        t.part(
            lambda seed=seed: _simulated(
                s, CLAIM_SCENARIO, seed, {"claim": "claim", "heartbeat": "heartbeat"}, "your claim"
            )
        )


# --------------------------------------------------------------------------- idempotent-send -


def idempotent_send(s: Student, t: Tally) -> None:
    clock = Clock()

    def fresh() -> RemoteObject:
        clock.now = 0.0
        ledger = s.ledger(clock=clock, record_effect="record_effect")
        ledger.submit("t1")
        return ledger

    @t.part
    def records_a_new_key():
        ledger = fresh()
        lease = ledger.claim("t1", "A", 10.0)
        clock.now = 3.0
        require(
            ledger.record_effect(lease, "t1:email:0") is True,
            "the first record of a key by a current lease must return True",
        )
        effects = ledger.effects("t1")
        require(len(effects) == 1, f"expected one recorded effect, found {len(effects)}")
        e = effects[0]
        require(
            (e.key, e.epoch, e.worker, e.recorded_at) == ("t1:email:0", 1, "A", 3.0),
            "the recorded effect must carry the key, the lease's epoch and worker, and now",
        )

    @t.part
    def a_key_is_recorded_once():
        ledger = fresh()
        lease = ledger.claim("t1", "A", 10.0)
        ledger.record_effect(lease, "t1:email:0")
        require(
            ledger.record_effect(lease, "t1:email:0") is False,
            "recording the same key twice returned True (a retry would send again)",
        )
        require(
            ledger.record_effect(lease, "t1:email:1") is True,
            "a different key of the same task was refused",
        )

    @t.part
    def stale_leases_record_nothing():
        ledger = fresh()
        old = ledger.claim("t1", "A", 10.0)
        clock.now = 10.0
        ledger.claim("t1", "B", 10.0)
        require(
            ledger.record_effect(old, "t1:email:0") is False,
            "a stale lease could record a side effect",
        )
        require(not ledger.effects("t1"), "a stale lease's record_effect stored a row")
        ledger.submit("t2")
        lease = ledger.claim("t2", "A", 10.0)
        ledger.cancel("t2")
        require(
            ledger.record_effect(lease, "t2:email:0") is False,
            "a cancelled task could still record a side effect",
        )

    @t.part
    def keys_belong_to_their_task():
        ledger = fresh()
        ledger.submit("t2")
        a = ledger.claim("t1", "A", 10.0)
        b = ledger.claim("t2", "B", 10.0)
        ledger.record_effect(a, "welcome")
        require(
            ledger.record_effect(b, "welcome") is True,
            "the same key for another task was refused (keys are per task)",
        )

    for seed in EFFECT_SEEDS:
        t.part(
            lambda seed=seed: _simulated(
                s, EFFECT_SCENARIO, seed, {"record_effect": "record_effect"}, "your record_effect"
            )
        )

    send_step = s.function("send_step")

    def world() -> tuple[RemoteObject, RemoteObject]:
        clock.now = 0.0
        s.sandbox.set_time(0.0)
        ledger = s.ledger(clock=clock)
        ledger.submit("t1")
        return ledger, s.kit("mailbox")

    def inbox(mailbox: RemoteObject) -> dict:
        received = mailbox.attribute("received")
        require(isinstance(received, dict), "the mailbox could not be read")
        return received

    @t.part
    def a_retry_after_a_crash_does_not_resend():
        ledger, mailbox = world()
        first = ledger.claim("t1", "A", 10.0)
        require(
            send_step(ledger.handle, first, 0, mailbox.handle) is True,
            "send_step() of a fresh step returned something other than True",
        )
        clock.now = 10.0  # A crashed after the e-mail, before its save; the lease ran out
        retry = ledger.claim("t1", "B", 10.0)
        send_step(ledger.handle, retry, 0, mailbox.handle)
        got = inbox(mailbox)
        require(
            sum(got.values()) == 1,
            f"after a crash and a retry of step 0, {sum(got.values())}"
            " e-mails were sent (expected exactly 1)",
        )

    @t.part
    def each_step_sends_its_own():
        ledger, mailbox = world()
        lease = ledger.claim("t1", "A", 10.0)
        send_step(ledger.handle, lease, 0, mailbox.handle)
        ledger.save(lease, 1)
        send_step(ledger.handle, lease, 1, mailbox.handle)
        got = inbox(mailbox)
        require(
            len(got) == 2 and sum(got.values()) == 2,
            "steps 0 and 1 must each send their own e-mail (one key per task and step)",
        )

    @t.part
    def a_stale_worker_does_not_send():
        ledger, mailbox = world()
        old = ledger.claim("t1", "A", 10.0)
        clock.now = 10.0
        ledger.claim("t1", "B", 10.0)
        send_step(ledger.handle, old, 0, mailbox.handle)
        require(sum(inbox(mailbox).values()) == 0, "a worker that lost its lease sent an e-mail")


# --------------------------------------------------------------------------- worker-loop ----


def worker_loop(s: Student, t: Tally) -> None:
    run_task = s.function("run_task")

    def case(
        folder: str,
        name: str,
        setup: Callable[[Ledger], None] | None = None,
        work_script: dict | None = None,
        after_save: dict | None = None,
        steps: int = 3,
    ) -> tuple[Any, list, Any]:
        """Run the student's loop on task t1 of a new ledger file; return (answer, the steps
        work was called for, the task as stored at the end)."""
        path = str(Path(folder) / f"{name}.sqlite")
        _put_ledger(s, path, setup)
        s.sandbox.set_time(1.0)
        ledger_h = s.kit("scripted-ledger", path, after_save or {})
        work = s.kit("scripted-work", path, "t1", work_script or {})
        answer = run_task(ledger_h.handle, "t1", "w1", work.handle, steps)
        calls = work.attribute("calls")
        return answer, calls, _stored_t1(s, path, name)

    with s.folder() as folder:

        @t.part
        def runs_a_task_to_the_end():
            answer, calls, record = case(folder, "fresh")
            require(answer == "completed", f"a task with no trouble returned {answer!r}")
            require(calls == [0, 1, 2], f"work was called for steps {calls}, expected [0, 1, 2]")
            require(
                (record.status, record.step, record.result) == ("completed", 3, "output-2"),
                "the ledger must end completed at step 3 with the last step's output as the result",
            )

        def halfway(ledger: Ledger) -> None:
            lease = ledger.claim("t1", "w0", 30.0)
            ledger.save(lease, 2)
            ledger.release(lease)

        @t.part
        def resumes_from_the_persisted_step():
            answer, calls, record = case(folder, "resume", setup=halfway, steps=4)
            require(
                calls == [2, 3],
                f"a task saved at step 2 was worked from step "
                f"{calls[0] if calls else '?'} (calls {calls}), expected "
                "[2, 3]",
            )
            require(
                answer == "completed" and record.status == "completed",
                "the resumed task did not complete",
            )

        @t.part
        def stops_when_taken_over():
            answer, calls, record = case(folder, "stolen", work_script={1: "steal"})
            require(
                answer == "lost",
                f"a loop whose save was refused returned {answer!r}, expected 'lost'",
            )
            require(
                calls == [0, 1],
                f"after losing the lease during step 1, work was called "
                f"for {calls} (expected [0, 1])",
            )
            require(
                record.step == 1 and record.worker == "thief",
                "the ledger changed after the takeover",
            )

        @t.part
        def stops_when_cancelled():
            answer, calls, record = case(folder, "cancelled", work_script={0: "cancel"})
            require(answer == "lost", f"a loop whose task was cancelled returned {answer!r}")
            require(calls == [0], f"after a cancel during step 0, work was called for {calls}")
            require(
                record.status == "cancelled" and record.step == 0, "the cancelled task was changed"
            )

        @t.part
        def heartbeats_before_each_step():
            answer, calls, record = case(folder, "between", after_save={1: "steal"})
            require(
                calls == [0],
                f"the lease was taken over right after step 1 was saved, but "
                f"work still ran for {calls[1:]} (heartbeat before each step)",
            )
            require(answer == "lost", f"a loop that lost its lease returned {answer!r}")

        def completed(ledger: Ledger) -> None:
            lease = ledger.claim("t1", "w0", 30.0)
            ledger.save(lease, 3, done=True, result="done")

        def held(ledger: Ledger) -> None:
            ledger.claim("t1", "w0", 30.0)

        @t.part
        def refuses_finished_or_held_tasks():
            for setup, what in ((completed, "completed"), (held, "leased to another worker")):
                answer, calls, _ = case(folder, f"refused-{what[:4]}", setup=setup)
                require(
                    answer == "refused", f"a task {what} returned {answer!r}, expected 'refused'"
                )
                require(calls == [], f"work ran for a task {what}")


def _put_ledger(s: Student, path: str, setup: Callable[[Ledger], None] | None) -> None:
    """Write a ledger file holding task t1 (after ``setup``) privately, then place it at
    ``path`` in the folder the student's code may write."""
    with tempfile.TemporaryDirectory(prefix="simlab-check-") as private:
        local = str(Path(private) / "ledger.sqlite")
        with Ledger(local, clock=lambda: 0.0) as ledger:
            ledger.submit("t1")
            if setup is not None:
                setup(ledger)
        s.copy_in(local, path)


def _stored_t1(s: Student, path: str, name: str) -> Any:
    """Task t1 as stored in the ledger file at ``path``, read from a private copy."""
    with s.copy_out(path) as copy:
        if copy is None:
            raise Fail(f"the ledger file of the {name!r} case was replaced or removed")
        with Ledger(copy) as ledger:
            return ledger.get("t1")


EXERCISE = Exercise(
    id="leases",
    notebook="02_leases_effects_and_loop.ipynb",
    title="Leases, side effects and the worker loop",
    questions=(
        Question(
            "atomic-claim",
            "An atomic claim with lease expiry, and a fenced heartbeat",
            7 + len(CLAIM_SEEDS),
            ("claim", "heartbeat"),
            atomic_claim,
        ),
        Question(
            "idempotent-send",
            "An idempotent side effect",
            4 + len(EFFECT_SEEDS) + 3,
            ("record_effect", "send_step"),
            idempotent_send,
        ),
        Question("worker-loop", "The worker loop", 6, ("run_task",), worker_loop),
    ),
)
