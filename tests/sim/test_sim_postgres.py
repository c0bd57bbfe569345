"""The simulator over ``PostgresLedger`` gives the same verdicts as over SQLite, seed for seed.

Time in a simulation comes only from SimPy's clock, passed to the ledger, and every random
source is derived from the seed; so the engine under the workers must not change anything the
checker sees: the history must be the same byte for byte, and so the final records and the
verdict. Each variant runs: the correct one (no violation), and the two broken on purpose (the
checker names the same stale commits and shared epochs on both engines).
"""

from __future__ import annotations

import pytest

from simlab.ledger import connect
from simlab.sim.scenario import Scenario
from simlab.sim.simulation import simulate


@pytest.mark.parametrize("variant", ["fenced", "unfenced", "racy-claim"])
@pytest.mark.parametrize("seed", [1, 7])
def test_does_the_simulator_give_the_same_verdict_on_postgres(fresh_postgres, variant, seed):
    scenario = Scenario(variant=variant)
    chapter = variant != "fenced"
    on_sqlite = simulate(
        scenario, seed=seed, ledger=lambda clock: connect(":memory:", clock=clock, chapter=chapter)
    )
    url = fresh_postgres()
    on_postgres = simulate(
        scenario, seed=seed, ledger=lambda clock: connect(url, clock=clock, chapter=chapter)
    )
    assert on_postgres.history.to_jsonl() == on_sqlite.history.to_jsonl()
    assert on_postgres.final == on_sqlite.final
    assert [str(v) for v in on_postgres.violations] == [str(v) for v in on_sqlite.violations]
    if variant == "fenced":
        assert on_postgres.violations == []
    elif variant == "unfenced":
        assert on_postgres.violations, "the broken variant must break on this seed"
