"""Shrinking: is the minimal schedule 1-minimal, does it replay, does it still break the same rule,
and does the story name that rule for the broken ledgers of the chapter?"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from simlab import Scenario, shrink, simulate
from simlab.checker.rules import RULES, broken_rules, findings, first_violation
from simlab.ledger.memory import MemoryLedger
from simlab.records import CANCELLED, RUNNING, TERMINAL_STATUSES
from simlab.sim.shrink import ddmin
from tests import lanes
from tests.strategies import printed_under_hash_seeds

# -- mutant ledgers: each breaks one promise of the contract --------------------------------------


class UnfencedSave(MemoryLedger):
    """``save`` trusts whatever epoch is current: the fence is gone."""

    def save(self, lease, step, **kwargs):
        current = self.get(lease.task_id).epoch
        return super().save(replace(lease, epoch=current), step, **kwargs)


class CancelWithoutFence(MemoryLedger):
    """``cancel`` does not bump the epoch, and save and heartbeat check the epoch alone."""

    def cancel(self, task_id):
        task = self._task(task_id)
        if task.status in TERMINAL_STATUSES:
            return False
        task.status, task.lease_until = CANCELLED, None
        return True

    def _epoch_only(self, lease, call):
        task = self._task(lease.task_id)
        if task.status != CANCELLED or task.epoch != lease.epoch:
            return call()
        task.status = RUNNING  # what a WHERE clause on the epoch alone lets through
        try:
            return call()
        finally:
            if task.status == RUNNING:
                task.status = CANCELLED

    def save(self, lease, step, **kwargs):
        return self._epoch_only(lease, lambda: MemoryLedger.save(self, lease, step, **kwargs))

    def heartbeat(self, lease, ttl):
        return self._epoch_only(lease, lambda: MemoryLedger.heartbeat(self, lease, ttl))


class ForgetfulEffects(MemoryLedger):
    """``record_effect`` says "send" to every current lease: effects are not idempotent."""

    def record_effect(self, lease, key):
        if super().record_effect(lease, key):
            self._task(lease.task_id).effects.pop(key)
            return True
        record = self.get(lease.task_id)
        return record.epoch == lease.epoch and record.status == RUNNING


def _factory(cls):
    return lambda clock: cls(clock=clock)


def _assert_one_minimal(shrunk, ledger=None):
    """Removing any single fault makes every violation go away (checked by replaying)."""
    s = shrunk.schedule
    assert len(s) >= 1
    for i in range(len(s)):
        smaller = s.without(i)
        r = simulate(smaller.scenario, seed=smaller.seed, schedule=smaller, ledger=ledger)
        assert r.ok, (i, s.faults[i], r.violations[:1])


# -- the goals over seeds 1-20 of the default scenario ----------------------------------------


#: Seeds 1-20 in two halves (the fast lane's: the second).
HALVES = lanes.sweep(
    "halves of seeds 1-20 shrunk", [range(1, 11), range(11, 21)], fast=[range(11, 21)]
)


@pytest.mark.parametrize("seeds", HALVES, ids=lambda seeds: f"seeds{seeds[0]}-{seeds[-1]}")
@pytest.mark.parametrize("variant", ["unfenced", "racy-claim"])
def test_does_every_failing_seed_shrink_to_at_most_3_faults(variant, seeds):
    failing = 0
    for seed in seeds:
        shrunk = shrink(Scenario(variant=variant), seed=seed)
        if shrunk.ok:
            assert shrunk.simulations == 1 and shrunk.original.ok
            continue
        failing += 1
        assert len(shrunk.schedule) <= 3, (seed, shrunk.faults)
        assert shrunk.simulate_equivalents <= 60, seed
        assert shrunk.rules and set(shrunk.rules) <= set(broken_rules(shrunk.original.findings))
        assert shrunk.one_minimal, seed
        _assert_one_minimal(shrunk)
    assert failing >= 7  # the variants really fail on most seeds


@pytest.fixture(scope="module")
def unfenced_7():
    """The README's example, shrunk once for the tests that read it."""
    return shrink(Scenario(variant="unfenced"), seed=7)


def test_does_the_minimal_schedule_replay_byte_for_byte(tmp_path, unfenced_7):
    shrunk = unfenced_7
    path = shrunk.schedule.save(tmp_path / "minimal.json")
    from simlab.sim.schedule import Schedule

    loaded = Schedule.load(path)
    replay = simulate(loaded.scenario, seed=loaded.seed, schedule=loaded)
    assert replay.history.to_jsonl() == shrunk.result.history.to_jsonl()
    assert replay.violations == shrunk.result.violations
    assert not replay.ok


def test_is_the_shrunk_scenario_smaller_and_the_story_about_its_violation(unfenced_7):
    shrunk = unfenced_7
    original = shrunk.original.scenario
    small = shrunk.schedule.scenario
    assert small.tasks < original.tasks and small.workers <= original.workers
    assert small.horizon == original.horizon  # the faults strike where they did
    assert len(shrunk.schedule) < shrunk.original_faults == len(shrunk.original.schedule)
    story = " ".join(shrunk.story)
    assert "rule (a), stale commit" in story
    assert shrunk.result.violations[0] in story  # quotes the checker
    for n in range(1, len(shrunk.schedule) + 1):
        assert f"fault {n}:" in story
    assert "pauses for" in story and "claims" in story and "commits" in story


def test_does_a_clean_run_shrink_to_itself_and_say_so():
    shrunk = shrink(Scenario(tasks=30), seed=3)
    assert shrunk.ok and shrunk.result.ok and shrunk.simulations == 1
    assert shrunk.schedule == shrunk.original.schedule
    assert "nothing to shrink" in shrunk.story[-1]
    assert shrunk.to_dict()["faults"] == shrunk.faults


# -- the mutant ledgers shrink to stories naming the rule they break ---------------------------


@pytest.mark.parametrize(
    ("mutant", "rule", "kind"),
    [
        (UnfencedSave, "rule (a), stale commit", "pause"),
        (CancelWithoutFence, "rule (n), cancel", "cancel"),
        (ForgetfulEffects, "rule (f), resent e-mail", "effect-crash"),
    ],
    ids=["unfenced-save", "cancel-without-fence", "non-idempotent-effects"],
)
def test_does_each_mutant_ledger_shrink_to_a_story_naming_its_rule(mutant, rule, kind):
    # ForgetfulEffects also loses its keys (rule (p), no fault needed): ask for the resend story
    letter = rule.split("(")[1].split(")")[0]
    shrunk = shrink(Scenario(tasks=30), seed=1, ledger=_factory(mutant), rules=[letter])
    assert not shrunk.ok
    assert any(rule in sentence for sentence in shrunk.story)
    assert kind in [f["kind"] for f in shrunk.schedule.faults]
    assert len(shrunk.schedule) <= 3
    s = shrunk.schedule
    for i in range(len(s)):  # each fault is needed for the rule asked for
        smaller = s.without(i)
        r = simulate(smaller.scenario, seed=s.seed, schedule=smaller, ledger=_factory(mutant))
        assert letter not in {f.letter for f in r.findings}, i


def test_does_a_cancel_that_does_not_bump_the_epoch_always_need_a_cancel():
    found = 0
    for seed in range(1, 9):
        shrunk = shrink(Scenario(tasks=30), seed=seed, ledger=_factory(CancelWithoutFence))
        if shrunk.ok:
            continue
        found += 1
        assert "cancel" in [f["kind"] for f in shrunk.schedule.faults], seed
        assert "epoch stays" in " ".join(shrunk.story)
    assert found >= 2


def test_does_the_correct_ledger_survive_the_same_schedules():
    """The minimal schedule of a mutant, replayed over the correct ledger, breaks nothing: the
    story is about the ledger, not about the faults."""
    for mutant in (UnfencedSave, CancelWithoutFence, ForgetfulEffects):
        s = shrink(Scenario(tasks=30), seed=1, ledger=_factory(mutant)).schedule
        fixed = simulate(s.scenario, seed=s.seed, schedule=s, ledger=_factory(MemoryLedger))
        assert fixed.ok, (mutant.__name__, fixed.violations[:1])


# -- the pieces ---------------------------------------------------------------------------------


@pytest.mark.parametrize("needed", [{3, 7}, {0}, {11}, {2, 5, 9}, set()])
def test_does_ddmin_find_exactly_the_needed_items(needed):
    calls = []

    def fails(subset):
        calls.append(list(subset))
        return needed <= set(subset)

    assert ddmin(list(range(12)), fails) == sorted(needed)
    assert len(calls) < 60


def test_does_first_violation_point_at_the_event_that_broke_the_rule():
    r = simulate(Scenario(variant="unfenced"), seed=7)
    first = first_violation(r.findings, ["a", "b"])
    index, letter = first.index, first.letter
    e = r.history[index]
    assert letter == "a" and e.op == "save" and e.type == "ok"
    # the prefix ending just before it is clean, the one ending at it is not
    assert not broken_rules(findings(r.history[:index]))
    assert "a" in broken_rules(findings(r.history[: index + 1]))


def test_do_the_rules_by_letter_give_exactly_the_checkers_violations():
    r = simulate(Scenario(variant="racy-claim", tasks=60), seed=4)
    by_rule = broken_rules(r.findings)
    assert sorted(s for sentences in by_rule.values() for s in sentences) == sorted(r.violations)
    assert set(by_rule) <= {rule.letter for rule in RULES}


SHRINK_SCRIPT = """
import json
from simlab import Scenario, shrink
s = shrink(Scenario(variant="unfenced", tasks=40), seed=7)
print(json.dumps([s.story, s.faults, s.simulations]))
"""


def test_does_shrinking_not_depend_on_hash_randomisation():
    """Two fresh interpreters with different hash seeds tell the same story: no set order leaks
    into which rule is named or which faults are kept."""
    outputs = printed_under_hash_seeds(SHRINK_SCRIPT)
    assert len(outputs) == 1
    story, faults, _ = json.loads(outputs.pop())
    assert faults and any("rule (" in sentence for sentence in story)
