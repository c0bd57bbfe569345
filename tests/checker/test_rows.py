"""The ledger row rebuilt from the history (for the step-through widget) and why each refused
save was refused: held against the real ledger's final rows and effects, and against the reason
the ledger itself gave, over several seeds and every variant."""

from __future__ import annotations

import pytest

from simlab import Scenario, simulate
from simlab.checker.history import History
from simlab.checker.rows import (
    REFUSAL_REASONS,
    EffectRow,
    Row,
    refusal_reasons,
    task_rows,
)
from simlab.ledger import RacyClaimLedger
from tests.checker.test_checker import epoch_race


class KeepingLedger(RacyClaimLedger):
    """The real ledger, which keeps its final rows and effects when the simulator closes it."""

    kept: dict = {}

    def close(self) -> None:
        KeepingLedger.kept = {t.task_id: (t, self.effects(t.task_id)) for t in self.tasks()}
        super().close()


def run_kept(variant: str, seed: int, **kw):
    scenario = Scenario(tasks=30, variant=variant, **kw)
    run = simulate(scenario, seed=seed, ledger=lambda clock: KeepingLedger(":memory:", clock=clock))
    return run, dict(KeepingLedger.kept)


@pytest.mark.parametrize(
    ("variant", "seed", "extra"),
    [
        ("fenced", 1, {}),
        ("fenced", 2, {}),
        ("fenced", 3, {"pause_rate": 0.2}),
        ("unfenced", 4, {}),
        ("unfenced", 5, {"pause_rate": 0.2}),
        ("fenced", 6, {"workload": "agent", "doc_change_rate": 0.1}),
    ],
)
def test_does_the_rebuilt_row_match_the_real_ledger_at_the_end(variant, seed, extra):
    run, kept = run_kept(variant, seed, **extra)
    assert kept and set(kept) == {t.task_id for t in run.final}
    for task, (record, effects) in kept.items():
        last = task_rows(run.history, task)[-1]
        row = last.row
        assert (row.status, row.step, row.epoch, row.worker) == (
            record.status,
            record.step,
            record.epoch,
            record.worker,
        ), task
        if record.lease_until is None:
            assert row.lease_until is None, task
        else:
            assert row.lease_until == pytest.approx(record.lease_until, abs=1e-9), task
        assert last.effects == tuple(
            EffectRow(e.key, e.epoch, e.worker, e.recorded_at) for e in effects
        ), task


def test_is_there_one_snapshot_per_event_of_the_task():
    run = simulate(Scenario(tasks=5), seed=1)
    snaps = task_rows(run.history, "t0001")
    assert [s.event for s in snaps] == [e for e in run.history if e.task == "t0001"]
    assert snaps[0].row == Row("queued", 0, 0, None, None)
    assert task_rows(run.history, "no-such-task") == []


def test_does_the_hand_written_race_rebuild_step_by_step():
    snaps = task_rows(epoch_race(), "t1")
    rows = [(s.event.op, s.event.type, s.row) for s in snaps]
    assert rows[3] == ("claim", "ok", Row("running", 0, 1, "w1", 6.0))
    assert rows[5] == ("save", "ok", Row("running", 1, 1, "w1", 6.0))
    assert ("claim", "ok", Row("running", 1, 2, "w2", 12.0)) in rows
    assert rows[-1][2].status == "completed" and rows[-1][2].lease_until is None


def test_does_a_heartbeat_push_the_lease_by_the_claims_ttl():
    h = History()
    h.record(0, "ok", "client", "submit", "t1", steps=1)
    h.record(1, "ok", "w1", "claim", "t1", epoch=1, step=0, lease_until=4.0)
    h.record(2, "ok", "w1", "heartbeat", "t1", epoch=1, step=0)
    h.record(3, "ok", "w1", "effect", "t1", epoch=1, step=0, key="t1:email:0")
    h.record(3.5, "ok", "user", "cancel", "t1", epoch=2)
    snaps = task_rows(h, "t1")
    assert snaps[2].row.lease_until == 5.0
    assert snaps[3].effects == (EffectRow("t1:email:0", 1, "w1", 3.0),)
    assert snaps[4].row == Row("cancelled", 0, 2, "w1", None)


@pytest.mark.parametrize("variant", ["fenced", "unfenced", "racy-claim"])
def test_does_the_derived_reason_agree_with_the_ledgers_own(variant):
    seen = set()
    for seed in (1, 2, 3, 4):
        run = simulate(Scenario(tasks=40, variant=variant, pause_rate=0.1), seed=seed)
        recorded = refusal_reasons(run.history, variant=variant)
        derived = refusal_reasons(run.history, variant=variant, trust_recorded=False)
        refused = [e.index for e in run.history if e.op == "save" and e.type == "fail"]
        assert list(recorded) == refused
        assert derived == recorded
        seen |= set(recorded.values())
    assert seen <= set(REFUSAL_REASONS)
    assert "completed" in seen
    if variant != "unfenced":
        assert "stale-epoch" in seen


def test_is_a_save_after_a_cancel_refused_as_cancelled_and_a_late_one_as_completed():
    h = epoch_race()  # w1's epoch-1 save at t=12 comes after w2 completed the task
    reasons = refusal_reasons(h, trust_recorded=False)
    assert list(reasons.values()) == ["completed"]
    h2 = History()
    h2.record(0, "ok", "client", "submit", "t1", steps=2)
    h2.record(1, "ok", "w1", "claim", "t1", epoch=1, step=0, lease_until=4.0)
    h2.record(2, "ok", "user", "cancel", "t1", epoch=2)
    h2.record(3, "fail", "w1", "save", "t1", epoch=1, step=1, done=False)
    h2.record(3, "ok", "w2", "claim", "t2", epoch=1, step=0, lease_until=6.0)
    assert refusal_reasons(h2, trust_recorded=False) == {3: "cancelled"}
    h2.record(4, "ok", "client", "submit", "t3", steps=1)
    h2.record(5, "ok", "w1", "claim", "t3", epoch=1, step=0, lease_until=8.0)
    h2.record(6, "ok", "w2", "claim", "t3", epoch=2, step=0, lease_until=9.0)
    h2.record(7, "fail", "w1", "save", "t3", epoch=1, step=1, done=True)
    assert refusal_reasons(h2, trust_recorded=False)[8] == "stale-epoch"
