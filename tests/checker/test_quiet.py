"""The checker's screens (simlab.checker.quiet) are sufficient conditions: wherever a screen
says an accepted operation is quiet, each rule it answers for finds nothing there.

Every accepted operation of runs over the correct ledgers and every wrong ledger (whose runs
hold the broken operations the screens must let through to the rules) is screened, and each
covered rule is asked anyway where the screen said quiet.
"""

from __future__ import annotations

import pytest

from simlab import Scenario, simulate
from simlab.checker import rules
from simlab.checker.quiet import SCREENS
from simlab.sim.answers import Unanswered
from tests import lanes
from tests.checker.wrong_ledgers import CORRECT_LEDGERS, WRONG_LEDGERS

SCENARIOS = {
    "adversarial": Scenario.adversarial(tasks=30),
    "pull, checkpoints": Scenario.adversarial(
        tasks=30, pull=True, checkpoints=True, retries=True, releases=True
    ),
    "limit, late": Scenario.adversarial(tasks=30, max_attempts=2, checkpoints=True, late=True),
}
JUDGES = {r.letter: r.judge for r in rules.RULES}
#: The ledgers whose runs are screened (the fast lane's: every correct one and every fourth
#: wrong one, in the order of their names).
LEDGERS = lanes.sweep(
    "ledgers whose runs are screened",
    [*CORRECT_LEDGERS, *sorted(WRONG_LEDGERS)],
    fast=[*CORRECT_LEDGERS, *sorted(WRONG_LEDGERS)[::4]],
)
#: The seeds each ledger runs (the fast lane's: the first).
SEEDS = lanes.sweep("seeds each screened ledger runs", (1, 2), fast=(1,))


@pytest.fixture
def checked_screens(monkeypatch):
    """The screens, each wrapped to ask its covered rules wherever it says quiet; yields the
    tally ``{op: [quiet, asked]}`` and the list of (op, letter, event) it wrongly let through."""
    tally = {op: [0, 0] for op in SCREENS}
    wrong: list[tuple[str, str, object]] = []

    def checking(op, screen, covered):
        def screen_and_check(s, e, m):
            quiet = screen(s, e, m)
            tally[op][1] += 1
            if quiet:
                tally[op][0] += 1
                wrong.extend((op, k, e) for k in covered if JUDGES[k](s, e, m) is not None)
            return quiet

        return screen_and_check

    wrapped = {op: (checking(op, f, cov), cov) for op, (f, cov) in SCREENS.items()}
    monkeypatch.setattr(rules, "SCREENS", wrapped)
    rules._judging.cache_clear()
    yield tally, wrong
    rules._judging.cache_clear()


@pytest.mark.parametrize("scenario", list(SCENARIOS), ids=list(SCENARIOS))
def test_a_quiet_operation_breaks_none_of_the_rules_its_screen_covers(checked_screens, scenario):
    tally, wrong = checked_screens
    ledgers = {**CORRECT_LEDGERS, **WRONG_LEDGERS}
    for cls in (ledgers[name] for name in LEDGERS):
        for seed in SEEDS:
            try:
                simulate(SCENARIOS[scenario], seed=seed, ledger=lambda clock, c=cls: c(clock=clock))
            except (Exception, Unanswered):  # a wrong ledger stopped the run: the rest counts
                continue
    assert wrong == []
    # every screen said quiet somewhere, and some operation was left to the rules
    assert all(quiet > 0 for quiet, _ in tally.values()), tally
    assert any(asked > quiet for quiet, asked in tally.values()), tally
