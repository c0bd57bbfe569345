"""Does the same scenario with the same seed give the same history, byte for byte?"""

from __future__ import annotations

import pytest

from simlab import Scenario, simulate
from simlab.checker.history import history_digest
from simlab.cli import main
from tests.strategies import printed_under_hash_seeds

SCENARIO = Scenario(tasks=60, pause_rate=0.1, duplicate_rate=0.1)

DIGEST_SCRIPT = """
from simlab import Scenario, simulate
from simlab.checker.history import history_digest
r = simulate(Scenario(tasks=60, pause_rate=0.1, duplicate_rate=0.1), seed=4)
print(history_digest(r.history))
"""


@pytest.mark.parametrize("variant", ["fenced", "unfenced", "racy-claim"])
def test_does_a_rerun_give_a_byte_identical_history(variant):
    scenario = SCENARIO.with_(variant=variant)
    first = simulate(scenario, seed=4)
    second = simulate(scenario, seed=4)
    assert history_digest(first.history) == history_digest(second.history)
    assert first.history.to_jsonl() == second.history.to_jsonl()
    assert first.violations == second.violations


def test_does_another_seed_give_another_history():
    a = simulate(SCENARIO, seed=4)
    b = simulate(SCENARIO, seed=5)
    assert history_digest(a.history) != history_digest(b.history)


def test_does_the_history_not_depend_on_hash_randomisation():
    """Two fresh interpreters with different hash seeds: iteration over sets or hashed objects
    would show up here as different digests."""
    digests = {out.strip() for out in printed_under_hash_seeds(DIGEST_SCRIPT)}
    assert len(digests) == 1
    assert digests == {history_digest(simulate(SCENARIO, seed=4).history)}


def test_does_the_replay_command_reproduce_the_run(tmp_path, capsys):
    original = simulate(Scenario(tasks=30, pause_rate=0.2, variant="unfenced", ttl=2.5), seed=7)
    argv = original.replay.split()
    assert argv[:2] == ["simlab", "simulate"]
    out = tmp_path / "replayed.jsonl"
    code = main([*argv[1:], "--history", str(out)])
    capsys.readouterr()
    assert code == (1 if original.violations else 0)
    assert out.read_text() == original.history.to_jsonl()


def test_does_a_run_with_every_fault_rate_at_zero_tell_the_same_story_unasked():
    # Every rate 0: the random nemesis is idle and nobody asks it anything. An empty schedule's
    # nemesis is asked at every fault point and answers "no fault": the stories must match.
    from simlab.sim.queueing import mmc_scenario

    scenario = mmc_scenario(3, 2.1, 300)
    idle = simulate(scenario, seed=7)
    asked = simulate(scenario, seed=7, schedule=[])
    assert history_digest(idle.history) == history_digest(asked.history)
    assert any(e.op == "faults-off" for e in idle.history)  # still recorded at the horizon


@pytest.mark.parametrize("enabled", [True, False])
def test_does_a_run_leave_the_cycle_collector_as_it_found_it(enabled):
    import gc

    was = gc.isenabled()
    try:
        gc.enable() if enabled else gc.disable()
        simulate(Scenario(tasks=5), seed=1)
        assert gc.isenabled() is enabled
    finally:
        gc.enable() if was else gc.disable()


def _generation_after_a_large_run() -> int | None:
    """The collector's generation of the result of a large run, looked at right after it
    returns with the collector on (None: set aside by ``gc.freeze``)."""
    import gc

    from simlab.ledger.memory import MemoryLedger
    from simlab.sim.queueing import mmc_scenario

    gc.enable()
    result = simulate(mmc_scenario(3, 2.1, 2000), seed=1, ledger=lambda c: MemoryLedger(clock=c))
    gc.disable()  # looking must not move it
    return next((g for g in range(3) if any(o is result for o in gc.get_objects(g))), None)


def test_does_a_large_run_leave_its_result_in_the_oldest_generation():
    """What a large run leaves alive is moved to the collector's oldest generation as the run
    ends, without the walks of the young generations (a heap no one set aside)."""
    import gc

    was, frozen = gc.isenabled(), gc.get_freeze_count()
    gc.unfreeze()  # the test session sets its heap aside (tests/conftest.py)
    try:
        assert _generation_after_a_large_run() == 2
        assert gc.get_freeze_count() == 0
    finally:
        if frozen:
            gc.freeze()
        gc.enable() if was else gc.disable()


def test_does_a_large_run_leave_a_heap_someone_set_aside_as_it_was():
    import gc

    was = gc.isenabled()
    gc.freeze()  # someone set the heap aside before the run: it stays set aside
    try:
        assert _generation_after_a_large_run() in (0, 1)  # the run's objects are left young
        assert gc.get_freeze_count() > 0
    finally:
        gc.enable() if was else gc.disable()


@pytest.mark.parametrize(
    "scenario",
    [
        Scenario.adversarial().with_(tasks=12),
        Scenario(tasks=8, variant="racy-claim", pause_rate=0.2),
        Scenario(tasks=4, workload="agent"),
    ],
    ids=["adversarial", "racy-claim", "agent"],
)
def test_does_a_run_leave_no_garbage_for_the_cycle_collector(scenario):
    """simulate moves what a run keeps straight to the oldest generation, which is collected
    rarely: a run must leave no reference cycle, or its garbage would pile up there."""
    import gc

    from simlab.ledger.memory import MemoryLedger

    gc.collect()
    for ledger in (None, lambda clock: MemoryLedger(clock=clock)):
        if ledger is not None and scenario.variant != "fenced":
            continue
        result = simulate(scenario, seed=3, ledger=ledger)
        replayed = simulate(scenario, seed=3, ledger=ledger, schedule=result.schedule)
        assert history_digest(replayed.history) == history_digest(result.history)
        del result, replayed
        assert gc.collect() == 0
