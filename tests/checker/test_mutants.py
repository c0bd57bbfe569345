"""Mutation testing of the judge: every wrong ledger the simulator can expose is caught.

Each entry of ``wrong_ledgers.WRONG_LEDGERS`` is MemoryLedger with one promise of the contract
broken. For every mutant the simulator can reach, ``simulate`` over seeds 1-20 of the all-faults
preset (``Scenario.adversarial()``; stopped earlier for the ledgers that never let a task finish,
see ``CAP``) must fail on all but at most 5 seeds (at least 15) with a violation of a rule that
names the broken promise (the fast lane: seeds 1-10, all but at most 5), and ``shrink`` must reduce
a failing run to a story that names it. The rest are listed in ``OUT_OF_REACH`` with the reason no
run of the simulator can show them (the ledger contract tests judge those calls directly), so a new
mutant must be placed in one of the two. The correct ledgers pass every seed
(tests/sim/test_adversarial.py).
"""

from __future__ import annotations

import pytest

from simlab import Scenario, shrink, simulate
from simlab.checker.rules import rule_phrase
from tests import lanes
from tests.checker.wrong_ledgers import CORRECT_LEDGERS, WRONG_LEDGERS

SEEDS = range(1, 21)
#: The most seeds on which a mutant may escape its promise's rule.
MAY_MISS = 5
#: The seeds each mutant is run on (the fast lane's: the first ten, on which it may escape as
#: often as on twenty, so a mutant the fast lane finds escaping too often escapes in make test).
CATCHING_SEEDS = lanes.sweep("seeds a wrong ledger is run on", SEEDS, fast=SEEDS[:10])
#: The seeds every correct ledger passes in every mode (the fast lane's: the first, each ledger
#: run once in every mode with every fault kind of the preset on).
PASSING_SEEDS = lanes.sweep("seeds a correct ledger passes in each mode", SEEDS, fast=SEEDS[:1])

#: mutant -> the rules that name the promise it breaks (any one of them will do).
CAUGHT_BY: dict[str, set[str]] = {
    "claim-keeps-epoch": {"a'"},
    "takeover-keeps-epoch": {"a'"},
    "claim-lease-has-old-epoch": {"a'"},
    "claim-epoch-from-attempts": {"a'"},
    "claim-ignores-live-lease": {"h"},
    "claim-truncates-lease-time": {"h"},
    "claim-revives-completed": {"k"},
    "claim-uses-wall-clock": {"q"},
    "claim-resumes-at-step-zero": {"m"},
    "heartbeat-ignores-epoch": {"i"},
    "heartbeat-does-not-extend": {"q"},
    "heartbeat-extends-from-lease": {"q"},
    "save-ignores-epoch": {"a"},
    "save-ignores-done": {"p", "k"},
    "save-done-keeps-lease": {"p"},
    "cancel-keeps-epoch": {"n"},
    "cancel-leaves-status": {"k", "c"},
    "cancel-overwrites-terminal": {"n"},
    "cancel-refused-bumps-epoch": {"p"},
    "requeue-resets-epoch": {"o", "a'"},
    "requeue-revives-completed": {"o"},
    "requeue-takes-a-running-task": {"o"},
    "effect-ignores-epoch": {"j"},
    "effect-once-per-epoch": {"f", "r"},
    "effect-refused-still-records": {"p"},
    "effect-duplicate-overwrites": {"p"},
    "save-drops-result": {"p"},
    "claim-refuses-everything": {"s"},
    "save-refused-after-lease-end": {"s"},
    "heartbeat-refused-after-lease-end": {"s"},
    "effect-refuses-new-keys": {"s"},
    "cancel-refuses-running": {"s"},
    "listing-drops-tasks": {"p"},
    "listing-repeats-retried-tasks": {"p"},
    "max-attempts-off-by-one": {"t"},
    "requeue-keeps-attempts": {"s"},
    # a cancel after a save and a requeue after it (the requeue follows its task's cancel)
    "requeue-restarts-at-step-zero": {"m"},
    "claim-buries-without-a-limit": {"s"},
    "claim-buries-a-live-lease": {"s"},
    "claim-buries-a-completed-task": {"s"},
    "claim-reentrant-for-holder": {"h"},
    # the prober claims a paused worker's task a hair before and a hair after its lease's end
    # (fault edge-claim, on in the preset)
    "claim-takes-over-early": {"h"},
    "claim-refused-after-lease-end": {"s"},
    "heartbeat-checks-holder": {"i"},
    "attempts-count-refused-claims": {"s"},
    "takeover-keeps-holder": {"p", "s"},
    "lease-held-names-claimer": {"s"},
    "terminal-says-completed": {"s"},
    "release-again-says-true": {"w"},
    "lease-attempts-from-zero": {"t"},
    "cancel-refuses-queued": {"s"},
    "requeue-says-true-for-queued": {"o"},
    "listing-newest-first": {"p"},
    "status-listing-newest-first": {"p"},
    "counts-forget-cancelled": {"p"},
    "get-hides-lease-end": {"q"},
    "effect-recorded-at-wall": {"p"},
    "effects-newest-first": {"p"},
    "effects-drop-first-key": {"p"},
    "claim-next-hands-out-probes": {"u"},
    "claim-next-newest-first": {"u"},
    "claim-next-skips-expired": {"u"},
    "claim-drops-checkpoint": {"m"},
    "save-refused-writes-checkpoint": {"m", "p"},
    "save-none-keeps-checkpoint": {"p"},
    "save-completes-on-result": {"e", "p"},
    "submit-duplicate-overwrites": {"v"},
    "submit-duplicate-raises-after-write": {"v"},
    "save-allows-same-step": {"b"},
    "heartbeat-ignores-status": {"l"},
    "release-ignores-epoch": {"w"},
    "save-ignores-status": {"l"},
    "effect-ignores-status": {"l"},
    "requeue-bumps-epoch": {"o"},
    # a raise where the contract answers is recorded as the call's answer (simlab.sim.answers)
    "save-raises-when-stale": {"x"},
    "heartbeat-raises-when-stale": {"x"},
    "cancel-raises-when-terminal": {"x"},
    "submit-duplicate-valueerror": {"x"},
    "refused-save-still-writes": {"y"},
    "heartbeat-refused-still-extends": {"y"},
    "release-keeps-lease-until": {"y"},
    "counts-running-as-queued": {"z"},
    "counts-drop-queued": {"z"},
    "queued-listing-takes-running": {"z"},
    "submit-drops-goal": {"p"},
    "submit-drops-tenant": {"p", "u"},
    "submit-returns-nothing": {"v"},
    "lease-names-another-worker": {"m"},
    "effects-name-the-holder": {"p"},
    "effects-swap-task-and-key": {"p"},
    # a read at the end of a run that raises where the contract answers is that read's answer
    "effects-raise-without-keys": {"x"},
    "listing-raises": {"x"},
    "cancel-again-says-true": {"n"},
    "lease-of-its-own-length": {"q"},
    "listing-hides-leases": {"z"},
    "effect-again-says-true": {"j"},
}

#: A run of a ledger that never lets some task finish goes on redelivering it until the
#: preset's time cap (400), ten times the events of a run that ends. The rules that name these
#: mutants' promises are judged on the history alone, and a shorter cap only stops the same run
#: earlier (the seed draws the same events), so a run stopped at CAP is a prefix of the full one
#: and breaks the rule on every seed the full run does: the smallest round cap past the fault
#: horizon (120) and past the latest first break of the capped mutants on seeds 1-20 (about
#: 126). A claim_next that skips an expired lease leaves its task running with no holder, so
#: workers that pull go on asking for it until the cap too: it is capped in pull mode.
CAP = {"time_cap": 130.0}

#: The modes of the lost replies and of the workers that release (off by default): the preset
#: turns the lost-reply fault on at its adversarial rate with retries.
RETRIES = {"retries": True}
RELEASES = {"releases": True}
#: The mode of the calls the network holds until after their worker gave the task back.
LATE = {"late": True}

#: mutant -> the Scenario fields its runs change (a limit on attempts is off by default).
SCENARIO: dict[str, dict] = {
    "max-attempts-off-by-one": {"max_attempts": 2},
    "requeue-keeps-attempts": {"max_attempts": 2},
    "claim-buries-a-live-lease": {"max_attempts": 2},
    "claim-buries-a-completed-task": {"max_attempts": 2},
    "attempts-count-refused-claims": {"max_attempts": 2},
    "claim-lease-has-old-epoch": CAP,
    "claim-refuses-everything": CAP,
    "claim-resumes-at-step-zero": CAP,
    "claim-uses-wall-clock": CAP,
    # workers that pull call claim_next, and the client submits a health probe
    "claim-next-hands-out-probes": {"pull": True},
    "claim-next-newest-first": {"pull": True},
    "claim-next-skips-expired": {"pull": True, **CAP},
    # the plain workload submits every task under the default tenant; the health probe not
    "submit-drops-tenant": {"pull": True},
    # saves carry checkpoints, and claims show the one their lease hands back
    "claim-drops-checkpoint": {"checkpoints": True},
    "save-refused-writes-checkpoint": {"checkpoints": True},
    "save-none-keeps-checkpoint": {"checkpoints": True},
    "save-completes-on-result": {"checkpoints": True},  # saves before the last pass a result
    # a call's reply is lost and its caller resends it: a user resends a submit (which must
    # raise and leave the task as it was), a worker a save (refused: the step is committed),
    # and a worker's heartbeat helper a heartbeat, which may land after the completing save
    "submit-duplicate-overwrites": RETRIES,
    "submit-duplicate-raises-after-write": RETRIES,
    "save-allows-same-step": RETRIES,
    "heartbeat-ignores-status": RETRIES,
    "submit-duplicate-valueerror": RETRIES,
    # the reply to a user's cancel is lost, and the user resends it: refused, the task is
    # cancelled already
    "cancel-again-says-true": RETRIES,
    # the reply to an e-mail record is lost, and the worker resends it with the same lease
    "effect-again-says-true": RETRIES,
    # a worker whose lease ended while it was paused releases the task, after a takeover too
    "release-ignores-epoch": RELEASES,
    # the network holds a save or an e-mail record; its worker, hearing nothing in time, gives
    # the task back, and the call lands on the queued task with the epoch it was sent with
    "save-ignores-status": LATE,
    "effect-ignores-status": LATE,
    # a held heartbeat lands after the task came back to the same worker under a newer epoch
    "heartbeat-checks-holder": LATE,
    # a held call makes its worker give the task back, and the reply to that release is lost:
    # the worker resends it, and the task is queued already
    "release-again-says-true": {**LATE, **RETRIES},
    "release-keeps-lease-until": RELEASES,
    # workers that ask for leases of another length than the ledger's own
    "lease-of-its-own-length": {"ttl": 5.0},
}

#: mutant -> why no simulated run can show it (none now: a new mutant no run can show is
#: listed here with its reason, so the ledger contract tests are known to judge it alone).
OUT_OF_REACH: dict[str, str] = {}


def _factory(cls):
    return lambda clock: cls(clock=clock)


#: The wrong ledgers whose first caught seed takes hundreds of replays to shrink, where the
#: others take tens: the fast lane leaves them to ``make test``.
SLOW_TO_SHRINK = {
    "cancel-refuses-queued",
    "claim-epoch-from-attempts",
    "heartbeat-checks-holder",
    "heartbeat-refused-still-extends",
    "requeue-bumps-epoch",
    "requeue-resets-epoch",
    "requeue-says-true-for-queued",
}


def _one_per_rule_and_mode() -> list[str]:
    """The fast lane's wrong ledgers: for each rule that names a mutant's promise, and for each
    mode its runs are in (``SCENARIO``, the plain preset too), the first mutant in the order of
    their names that is not slow to shrink (unless one chosen already stands for it), so that
    every rule is seen to catch a mutant and every mode to run one."""
    quick = [name for name in sorted(CAUGHT_BY) if name not in SLOW_TO_SHRINK]
    kinds = {("rule", letter) for letters in CAUGHT_BY.values() for letter in letters}
    kinds |= {("mode", tuple(sorted(SCENARIO.get(name, {})))) for name in CAUGHT_BY}

    def of(name):
        return {("rule", letter) for letter in CAUGHT_BY[name]} | {
            ("mode", tuple(sorted(SCENARIO.get(name, {}))))
        }

    chosen: list[str] = []
    for kind in sorted(kinds):
        if not any(kind in of(name) for name in chosen):
            chosen.append(next(name for name in quick if kind in of(name)))
    return sorted(chosen)


#: The wrong ledgers judged here (the fast lane's: one for each rule and each mode).
JUDGED = lanes.sweep(
    "wrong ledgers caught and shrunk", sorted(CAUGHT_BY), fast=_one_per_rule_and_mode()
)


def test_is_every_wrong_ledger_either_judged_here_or_said_to_be_out_of_reach():
    assert set(CAUGHT_BY) | set(OUT_OF_REACH) == set(WRONG_LEDGERS)
    assert not set(CAUGHT_BY) & set(OUT_OF_REACH)
    assert SLOW_TO_SHRINK <= set(CAUGHT_BY)
    assert len(CAUGHT_BY) >= 10


@pytest.mark.parametrize("name", JUDGED)
def test_is_the_wrong_ledger_caught_and_shrunk_to_a_story_naming_its_promise(name):
    factory, wanted = _factory(WRONG_LEDGERS[name]), CAUGHT_BY[name]
    preset = Scenario.adversarial(**SCENARIO.get(name, {}))
    caught, missed = [], []
    for seed in CATCHING_SEEDS:
        # Stop once the verdict is settled: all but MAY_MISS caught, or more than that missed.
        if len(caught) >= len(CATCHING_SEEDS) - MAY_MISS or len(missed) > MAY_MISS:
            break
        r = simulate(preset, seed=seed, ledger=factory)
        (caught if {f.letter for f in r.findings} & wanted else missed).append(seed)
    assert len(caught) >= len(CATCHING_SEEDS) - MAY_MISS, (name, caught, missed)
    shrunk = shrink(preset, seed=caught[0], ledger=factory, rules=wanted)
    assert set(shrunk.rules) & wanted, (name, shrunk.rules)
    told = " ".join(shrunk.story)
    assert any(rule_phrase(letter) in told for letter in wanted), shrunk.story[-3:]


def test_is_a_run_stopped_at_the_cap_the_full_run_up_to_the_cap():
    """What the capped mutants rest on: the cap stops a run, it does not change it (with
    workers that claim what they are delivered, and with workers that pull)."""
    for name in ("claim-resumes-at-step-zero", "claim-next-skips-expired"):
        factory, mode = _factory(WRONG_LEDGERS[name]), dict(SCENARIO.get(name, {}), **CAP)
        capped = simulate(Scenario.adversarial(**mode), seed=1, ledger=factory).history
        mode.pop("time_cap")
        full = simulate(Scenario.adversarial(**mode), seed=1, ledger=factory).history
        assert len(capped) < len(full) and full[len(capped)].time >= CAP["time_cap"], name
        assert [e.to_dict() for e in capped] == [e.to_dict() for e in full[: len(capped)]], name


@pytest.mark.parametrize("name", sorted(CORRECT_LEDGERS))
def test_does_a_correct_ledger_written_differently_pass_every_seed(name):
    factory = _factory(CORRECT_LEDGERS[name])
    for preset in (
        Scenario.adversarial(),
        Scenario.adversarial(max_attempts=2),
        Scenario.adversarial(pull=True),
        Scenario.adversarial(checkpoints=True),
        Scenario.adversarial(**RETRIES),
        Scenario.adversarial(**RELEASES),
        Scenario.adversarial(**LATE),
    ):
        failing = [s for s in PASSING_SEEDS if not simulate(preset, seed=s, ledger=factory).ok]
        assert failing == [], (name, preset.non_defaults(), failing)


def test_does_a_one_line_mistake_name_exactly_one_line_of_the_reference_body():
    """A mistake written as an edit of the reference fails at import when the reference no
    longer holds its line once (missing, repeated, only in the docstring) or the edit is none."""
    from simlab.ledger import MemoryLedger
    from tests.checker.wrong_ledgers import edited

    for old, new in [
        ("no such line", "x"),
        ("task.", "x"),  # many lines
        ("Raises", "x"),  # the docstring only
        ("task.epoch += 1", "task.epoch += 1"),  # no change
    ]:
        with pytest.raises(AssertionError):
            edited(MemoryLedger.claim if old == "Raises" else MemoryLedger.cancel, old, new, why="")
