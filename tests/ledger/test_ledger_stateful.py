"""Does the SQLite ledger behave exactly like the in-process model, whatever happens?

A Hypothesis state machine sends the same random operations to ``Ledger(":memory:")`` (and, in a
second run, to ``PostgresLedger`` on a real server) and to ``MemoryLedger`` on one shared fake
clock, and after every step demands identical return values,
identical exceptions (type and arguments) and identical ``tasks()``, ``counts()`` and
``effects()`` snapshots. When they disagree, Hypothesis shrinks the run to the shortest sequence
of calls that shows it.

Task IDs come from a small fixed set, so duplicates, unknown IDs and contention happen often.
Generated IDs are random in both ledgers and cannot be compared; the contract tests cover them.
"""

from __future__ import annotations

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    Bundle,
    RuleBasedStateMachine,
    initialize,
    invariant,
    multiple,
    rule,
    run_state_machine_as_test,
)

from simlab.errors import LedgerError
from simlab.ledger import Ledger, PostgresLedger
from simlab.ledger.memory import MemoryLedger
from simlab.records import STATUSES, Lease
from tests import lanes
from tests.strategies import FakeClock, json_values, non_json_values

#: Mostly tasks that exist (``open_ledgers`` submits some of them), sometimes one that never does.
TASK_IDS = st.sampled_from(["a", "b", "c", "a", "b", "c", "ghost"])
WORKERS = st.sampled_from(["w1", "w2"])
#: Mostly valid; a non-positive ttl now and then must be refused identically.
TTLS = st.sampled_from([2.5, 5.0, 5.0, 10.0, 10.0, 20.0, 0.0, -1.0])
STEPS = st.integers(min_value=-1, max_value=6)
KEYS = st.sampled_from(["email:1", "email:2", "email:1", "email:2", ""])
VALUES = st.none() | json_values
FORGED_LEASES = st.builds(
    Lease,
    task_id=st.sampled_from(["a", "b", "ghost"]),
    worker=WORKERS,
    epoch=st.integers(min_value=0, max_value=4),
    step=st.just(0),
    lease_until=st.just(0.0),
)


def outcome(call):
    """What one call did: ``("ok", value)`` or ``("raised", type, details)``."""
    try:
        return ("ok", call())
    except (LedgerError, ValueError) as exc:
        # Ledger errors carry structured arguments (task, status, holder); compare them too.
        details = exc.args if isinstance(exc, LedgerError) else None
        return ("raised", type(exc), details)


class SameAsTheModel(RuleBasedStateMachine):
    leases = Bundle("leases")

    @staticmethod
    def open_real(**options):
        """The ledger under test; a subclass compares another engine."""
        return Ledger(":memory:", **options)

    def __init__(self):
        super().__init__()
        self.clock = FakeClock(100.0)
        self.real = None
        self.model: MemoryLedger | None = None

    @initialize(
        max_attempts=st.sampled_from([None, 1, 2, 3]),
        task_ids=st.lists(st.sampled_from(["a", "b", "c"]), min_size=1, max_size=3, unique=True),
    )
    def open_ledgers(self, max_attempts, task_ids):
        self.real = self.open_real(clock=self.clock, max_attempts=max_attempts)
        self.model = MemoryLedger(clock=self.clock, max_attempts=max_attempts)
        for task_id in task_ids:
            self.both(lambda ledger, task_id=task_id: ledger.submit(task_id))

    def both(self, call):
        """Run ``call`` on both ledgers, require the same outcome, and return it."""
        real, model = outcome(lambda: call(self.real)), outcome(lambda: call(self.model))
        assert real == model, f"Ledger gave {real!r}, MemoryLedger gave {model!r}"
        return real

    def lease_from(self, result):
        """Put a granted lease in the bundle for later heartbeats, saves and effects."""
        if result[0] == "ok" and result[1] is not None:
            return result[1]
        return multiple()

    # -- operations ----------------------------------------------------------------------------

    @rule(task_id=TASK_IDS, tenant=st.sampled_from(["default", "acme"]), goal=VALUES)
    def submit(self, task_id, tenant, goal):
        self.both(lambda ledger: ledger.submit(task_id, tenant=tenant, goal=goal))

    @rule(task_id=TASK_IDS, goal=non_json_values)
    def submit_a_goal_that_is_not_json(self, task_id, goal):
        self.both(lambda ledger: ledger.submit(task_id, goal=goal))

    @rule(target=leases, task_id=TASK_IDS, worker=WORKERS, ttl=TTLS)
    def claim(self, task_id, worker, ttl):
        return self.lease_from(self.both(lambda ledger: ledger.claim(task_id, worker, ttl)))

    @rule(target=leases, worker=WORKERS, ttl=TTLS)
    def claim_next(self, worker, ttl):
        return self.lease_from(self.both(lambda ledger: ledger.claim_next(worker, ttl)))

    @rule(lease=st.one_of(leases, FORGED_LEASES), ttl=TTLS)
    def heartbeat(self, lease, ttl):
        self.both(lambda ledger: ledger.heartbeat(lease, ttl))

    @rule(
        lease=st.one_of(leases, FORGED_LEASES),
        step=STEPS,
        result=VALUES,
        checkpoint=VALUES,
        done=st.booleans(),
    )
    def save(self, lease, step, result, checkpoint, done):
        self.both(
            lambda ledger: ledger.save(lease, step, result=result, checkpoint=checkpoint, done=done)
        )

    @rule(
        lease=st.one_of(leases, FORGED_LEASES),
        value=non_json_values,
        where=st.sampled_from(["result", "checkpoint"]),
    )
    def save_a_value_that_is_not_json(self, lease, value, where):
        self.both(lambda ledger: ledger.save(lease, 6, done=True, **{where: value}))

    @rule(lease=st.one_of(leases, FORGED_LEASES))
    def release(self, lease):
        self.both(lambda ledger: ledger.release(lease))

    @rule(task_id=TASK_IDS)
    def cancel(self, task_id):
        self.both(lambda ledger: ledger.cancel(task_id))

    @rule(task_id=TASK_IDS)
    def requeue(self, task_id):
        self.both(lambda ledger: ledger.requeue(task_id))

    @rule(lease=st.one_of(leases, FORGED_LEASES), key=KEYS)
    def record_effect(self, lease, key):
        self.both(lambda ledger: ledger.record_effect(lease, key))

    @rule(task_id=TASK_IDS)
    def get(self, task_id):
        self.both(lambda ledger: ledger.get(task_id))
        self.both(lambda ledger: ledger.effects(task_id))

    @rule(seconds=st.sampled_from([0.5, 1.0, 2.5, 5.0, 10.0]))
    def advance_clock(self, seconds):
        self.clock.advance(seconds)

    # -- after every step ----------------------------------------------------------------------

    @invariant()
    def same_snapshots(self):
        if self.real is None:
            return
        records = self.both(lambda ledger: ledger.tasks())[1]
        self.both(lambda ledger: ledger.counts())
        for status in STATUSES:
            self.both(lambda ledger, status=status: ledger.tasks(status))
        for record in records:
            self.both(lambda ledger, task_id=record.task_id: ledger.effects(task_id))

    def teardown(self):
        if self.real is not None:
            self.real.close()


#: The programs of calls run against the model (the fast lane: a quarter as many).
EXAMPLES = lanes.sweep("programs of calls compared with the model", 100, fast=25)
SETTINGS = settings(max_examples=EXAMPLES, stateful_step_count=40, deadline=None)
SameAsTheModel.TestCase.settings = SETTINGS
TestSameAsTheModel = SameAsTheModel.TestCase


def test_does_the_postgres_ledger_behave_exactly_like_the_model(fresh_postgres):
    """The same machine, with ``PostgresLedger`` on the session's server (a new schema for
    every example) in place of the SQLite ledger."""

    class OnPostgres(SameAsTheModel):
        @staticmethod
        def open_real(**options):
            return PostgresLedger(fresh_postgres(), **options)

    run_state_machine_as_test(OnPostgres, settings=SETTINGS)
