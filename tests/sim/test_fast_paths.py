"""When does a run take a kit ledger's fast path, and does it record what the slow path would?"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from simlab import Ledger, Scenario, simulate
from simlab.checker.history import history_digest
from simlab.errors import TerminalTask
from simlab.ledger import RacyClaimLedger, connect
from simlab.ledger.memory import MemoryLedger
from simlab.ledger.sqlite import statements as sqlite_statements
from simlab.records import STATUSES
from simlab.sim.fast_paths import fast_path, heartbeat_reader
from simlab.sim.variants import wrap

SMALL = Scenario(tasks=30)


class OwnHeartbeat(Ledger):
    """The kit's SQLite ledger with ``heartbeat`` defined again (doing the same)."""

    def heartbeat(self, lease, ttl):
        return super().heartbeat(lease, ttl)


class OwnGet(MemoryLedger):
    """The kit's model with ``get`` defined again (doing the same)."""

    def get(self, task_id):
        return super().get(task_id)


class LongHeartbeat(MemoryLedger):
    """A wrong ledger: a heartbeat extends the lease to twice the ttl."""

    def heartbeat(self, lease, ttl):
        return super().heartbeat(lease, 2 * ttl)


def heartbeat_ends(result) -> list[tuple[float, float]]:
    """(time, lease end recorded) of every accepted heartbeat of a run."""
    return [
        (e.time, e.value["lease_until"])
        for e in result.history
        if e.op == "heartbeat" and e.type == "ok"
    ]


@pytest.mark.parametrize("kind", [Ledger, MemoryLedger])
def test_does_a_kit_ledger_offer_its_heartbeat_fast_path(kind):
    ledger = kind(":memory:", clock=lambda: 0.0)
    assert fast_path(ledger, "heartbeat_until", "heartbeat", "get") is not None


@pytest.mark.parametrize("kind", [OwnHeartbeat, OwnGet, LongHeartbeat])
def test_is_the_fast_path_refused_to_a_subclass_that_redefines_what_it_stands_for(kind):
    ledger = kind(":memory:", clock=lambda: 0.0)
    assert fast_path(ledger, "heartbeat_until", "heartbeat", "get") is None


def test_is_the_fast_path_refused_to_an_instance_with_a_method_replaced():
    ledger = MemoryLedger(clock=lambda: 0.0)
    ledger.get = ledger.get  # an instance attribute now shadows the class's method
    assert fast_path(ledger, "heartbeat_until", "heartbeat", "get") is None
    assert fast_path(MemoryLedger(clock=lambda: 0.0), "nothing-such") is None


def edited_statements(**changes: str):
    """The kit's SQLite statements with ``changes``: what an engineer who edits one of them in
    a subclass hands the ledger."""
    return SimpleNamespace(**{**vars(sqlite_statements), **changes})


class EditedHeartbeat(Ledger):
    """A wrong ledger: only ``HEARTBEAT`` edited, to extend the lease from its old end (the
    statement of the fast path, ``HEARTBEAT_UNTIL``, left as the kit's)."""

    q = edited_statements(
        HEARTBEAT="UPDATE tasks SET lease_until = lease_until + (:until - :now), "
        f"updated_at = :now {sqlite_statements.CURRENT}"
    )


class EditedListing(Ledger):
    """A wrong ledger: ``tasks(status)`` lists newest first (``TASKS_WITH`` and
    ``TASK_IDS_WITH`` edited alike)."""

    q = edited_statements(
        TASKS_WITH=sqlite_statements.TASKS_WITH.replace("ORDER BY seq", "ORDER BY seq DESC"),
        TASK_IDS_WITH=sqlite_statements.TASK_IDS_WITH.replace("ORDER BY seq", "ORDER BY seq DESC"),
    )


@pytest.mark.parametrize(
    ("kind", "paths"),
    [
        (EditedHeartbeat, [("heartbeat_until", "heartbeat", "get"), ("all_effects", "effects")]),
        (EditedListing, [("task_ids", "tasks"), ("tasks_and_views", "tasks", "counts")]),
    ],
)
def test_is_a_ledger_with_edited_statements_judged_through_its_contract_methods(kind, paths):
    ledger = kind(":memory:", clock=lambda: 0.0)
    for path in paths:
        assert fast_path(ledger, *path) is None, path
    instance = Ledger(":memory:", clock=lambda: 0.0)
    instance.q = edited_statements()  # the instance's own statements, the same text even
    assert fast_path(instance, "heartbeat_until", "heartbeat", "get") is None
    result = simulate(Scenario.adversarial(), seed=1, ledger=lambda c: kind(":memory:", clock=c))
    assert result.violations, "a wrong ledger the run judged through its fast paths"


class Forwarding:
    """A wrapper that hands on whatever it lacks to the ledger it wraps (as the grader's
    return-type check does)."""

    def __init__(self, raw):
        self.raw = raw

    def __getattr__(self, name):
        return getattr(self.raw, name)


def test_is_the_fast_path_refused_to_a_wrapper_that_forwards_to_another_ledger():
    wrapped = Forwarding(LongHeartbeat(clock=lambda: 0.0))
    assert fast_path(wrapped, "heartbeat_until", "heartbeat", "get") is None
    assert fast_path(wrapped, "all_effects", "effects") is None
    result = simulate(SMALL, seed=4, ledger=lambda c: Forwarding(LongHeartbeat(clock=c)))
    ends = heartbeat_ends(result)  # the wrapped ledger's own heartbeat ran
    assert ends and all(end == now + 2 * SMALL.ttl for now, end in ends)


@pytest.mark.parametrize("variant", ["unfenced", "racy-claim"])
def test_is_the_fast_path_refused_to_a_teaching_variant(variant):
    with RacyClaimLedger(":memory:", clock=lambda: 0.0) as ledger:
        wrapped = wrap(variant, ledger)
        assert fast_path(wrapped, "heartbeat_until", "heartbeat", "get") is None


@pytest.mark.parametrize("kind", [Ledger, MemoryLedger])
def test_does_the_fast_path_record_the_same_history_as_heartbeat_then_get(kind):
    fast = simulate(SMALL, seed=4, ledger=lambda c: kind(":memory:", clock=c))
    own = OwnHeartbeat if kind is Ledger else OwnGet
    slow = simulate(SMALL, seed=4, ledger=lambda c: own(":memory:", clock=c))
    assert heartbeat_ends(fast), "the run should heartbeat"
    assert history_digest(fast.history) == history_digest(slow.history)


def test_is_a_wrong_heartbeat_recorded_with_the_end_its_row_holds():
    result = simulate(SMALL, seed=4, ledger=lambda c: LongHeartbeat(clock=c))
    ends = heartbeat_ends(result)
    assert ends and all(end == now + 2 * SMALL.ttl for now, end in ends)


def test_does_the_slow_reader_leave_out_an_end_the_row_no_longer_carries():
    class Forgetful(MemoryLedger):
        """A heartbeat that says yes while the task's epoch moved on."""

        def heartbeat(self, lease, ttl):
            super().heartbeat(lease, ttl)
            self._task(lease.task_id).epoch += 1
            return True

    ledger = Forgetful(clock=lambda: 5.0)
    ledger.submit("t1")
    lease = ledger.claim("t1", "w1", 3.0)
    assert heartbeat_reader(ledger)(lease, 3.0) == {}
    fast = MemoryLedger(clock=lambda: 5.0)
    fast.submit("t1")
    lease = fast.claim("t1", "w1", 3.0)
    assert heartbeat_reader(fast)(lease, 3.0) == {"lease_until": 8.0}
    fast.cancel("t1")
    assert heartbeat_reader(fast)(lease, 3.0) is None


class OwnTasks(MemoryLedger):
    """A wrong ledger: ``tasks(status)`` leaves out the last task of every status."""

    def tasks(self, status=None):
        listed = super().tasks(status)
        return listed if status is None else listed[:-1]


def views_read_mid_run(result) -> list[dict]:
    """The ``listed`` views recorded while tasks run (the last submit and ``faults-off``)."""
    return [e.value["listed"] for e in result.history if "listed" in e.value]


@pytest.mark.parametrize("kind", [Ledger, MemoryLedger])
def test_does_a_kit_ledger_offer_its_task_ids_fast_path(kind):
    ledger = kind(":memory:", clock=lambda: 0.0)
    assert fast_path(ledger, "task_ids", "tasks") is not None
    assert fast_path(OwnTasks(clock=lambda: 0.0), "task_ids", "tasks") is None


def test_are_views_listed_through_a_ledger_s_own_tasks():
    fast = simulate(SMALL, seed=4, ledger=lambda c: MemoryLedger(clock=c))
    wrong = simulate(SMALL, seed=4, ledger=lambda c: OwnTasks(clock=c))
    right, short = views_read_mid_run(fast), views_read_mid_run(wrong)
    assert len(right) == len(short) == 2
    for good, bad in zip(right, short, strict=True):
        assert {s: ids[:-1] for s, ids in good.items()} == bad  # its own tasks() was read
    assert not fast.violations and wrong.violations


@pytest.mark.parametrize("kind", [Ledger, MemoryLedger])
def test_do_task_ids_record_the_same_views_as_tasks(kind):
    class OwnList(kind):
        def tasks(self, status=None):
            return super().tasks(status)

    fast = simulate(SMALL, seed=4, ledger=lambda c: kind(":memory:", clock=c))
    slow = simulate(SMALL, seed=4, ledger=lambda c: OwnList(":memory:", clock=c))
    assert any(ids for views in views_read_mid_run(fast) for ids in views.values())
    assert history_digest(fast.history) == history_digest(slow.history)


def busy_ledger(kind, target=":memory:"):
    """A kit ledger of ``kind`` (opening ``target``) with a task in every status (two
    completed), the queued one first and the running one submitted after others."""
    ledger = kind(target, clock=lambda: 5.0, max_attempts=1)
    for task in ("t1", "t2", "t3", "t4", "t5", "t6"):
        ledger.submit(task)
    for task in ("t2", "t3", "t4", "t6"):
        lease = ledger.claim(task, "w1", 3.0)
        if task in ("t3", "t6"):
            ledger.save(lease, 1, result={"n": task}, done=True)
    ledger.cancel("t4")
    ledger.clock = lambda: 50.0  # t2's lease has run out, and its one attempt is spent
    with pytest.raises(TerminalTask):  # so the next claim buries it
        ledger.claim("t2", "w2", 3.0)
    ledger.claim("t5", "w2", 3.0)
    return ledger


@pytest.mark.parametrize("kind", [Ledger, MemoryLedger])
def test_does_tasks_and_views_answer_what_tasks_and_counts_answer(kind):
    answers_as_its_views(busy_ledger(kind))


def test_does_tasks_and_views_answer_what_tasks_and_counts_answer_on_postgres(fresh_postgres):
    ledger = busy_ledger(connect, fresh_postgres())
    try:
        answers_as_its_views(ledger)
    finally:
        ledger.close()


def answers_as_its_views(ledger) -> None:
    listing, counts, by_status = ledger.tasks_and_views()
    assert listing == ledger.tasks()
    assert counts == ledger.counts() and list(counts) == list(ledger.counts())
    assert by_status == {status: ledger.tasks(status) for status in STATUSES}
    assert list(by_status) == list(STATUSES)
    assert {r.status for r in listing} == set(STATUSES)  # every status is there to tell apart


@pytest.mark.parametrize("kind", [Ledger, MemoryLedger])
def test_is_the_last_read_through_a_ledger_s_own_tasks_and_counts(kind):
    class OwnCounts(kind):
        def counts(self):
            return super().counts()

    assert fast_path(kind(":memory:", clock=lambda: 0.0), "tasks_and_views", "tasks", "counts")
    for own in (OwnCounts, OwnTasks):
        assert (
            fast_path(own(":memory:", clock=lambda: 0.0), "tasks_and_views", "tasks", "counts")
            is None
        )


def test_are_the_last_views_judged_through_a_ledger_s_own_counts():
    class Uncounted(MemoryLedger):
        """A wrong ledger: from its third count on (after the two a run reads while tasks
        run), counts() leaves completed tasks out."""

        asked = 0

        def counts(self):
            self.asked += 1
            counts = super().counts()
            if self.asked > 2:
                counts.pop("completed", None)
            return counts

    fast = simulate(SMALL, seed=4, ledger=lambda c: MemoryLedger(clock=c))
    wrong = simulate(SMALL, seed=4, ledger=lambda c: Uncounted(clock=c))
    assert history_digest(fast.history) == history_digest(wrong.history)  # mid-run reads agree
    assert not fast.violations and wrong.violations
