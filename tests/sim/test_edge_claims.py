"""Does the prober (fault ``edge-claim``) claim a paused worker's task exactly at the edges of
its lease, and do those claims tell a ledger that takes a task over a hair early, or refuses it a
hair late, from a correct one?

The kit's ledgers and the correct ledgers written differently are certified with the kind in the
default scope (tests/sim/test_explore.py) and pass every seed of the preset that has it on
(tests/checker/test_mutants.py); here one schedule (a pause, then the prober) is looked at
closely.
"""

from __future__ import annotations

import functools
import re

import pytest

from simlab import explore, simulate
from simlab.i18n.prose import english_prose
from simlab.sim.explore import _run_schedule, scope_scenario
from simlab.sim.faults import EDGE, EDGE_CLAIM, PAUSE
from simlab.sim.prober import PROBER
from simlab.sim.simulation import _default_ledger
from simlab.sim.story import tell
from tests.checker.wrong_ledgers import CORRECT_LEDGERS, WRONG_LEDGERS

SCOPE = scope_scenario(2, 2, 2, horizon=30.0)


@functools.cache
def _schedule() -> tuple[dict, dict]:
    """The first pause the explorer tries (as long as 1.5 ttl), and the prober after it."""
    start = (float("-inf"), 0)
    out = _run_schedule(SCOPE, 1, _default_ledger("fenced"), (), start, (1.5 * SCOPE.ttl,))
    key, pause = next((k, f) for k, f in out.candidates if f["kind"] == PAUSE.name)
    out = _run_schedule(SCOPE, 1, _default_ledger("fenced"), (pause,), key, (4.5,))
    (edge,) = [f for _, f in out.candidates if f["kind"] == EDGE_CLAIM.name]
    return pause, edge


def _run(ledger=None):
    return simulate(SCOPE, seed=1, schedule=list(_schedule()), ledger=ledger)


def test_does_the_prober_claim_exactly_at_the_edges_of_the_paused_lease():
    r = _run()
    assert r.ok, r.findings
    (paused,) = [e for e in r.history if e.op == "pause"]
    renewed = [
        e
        for e in r.history[: paused.index]
        if e.process == paused.process and e.op in ("claim", "heartbeat") and e.type == "ok"
    ]
    end = renewed[-1].time + SCOPE.ttl  # the lease the paused worker holds
    claims = [e for e in r.history if e.process == PROBER and e.type != "invoke"]
    before, after = claims
    assert (before.time, after.time) == (end - EDGE, end + EDGE)  # exact: no rounding
    assert before.time < end < after.time
    assert (before.type, before.value["reason"], before.value["holder"]) == (
        "fail",
        "lease-held",
        paused.process,
    )
    assert (after.type, after.epoch, after.value["edge"]) == ("ok", paused.epoch + 1, "after")
    # the worker wakes after the prober took its task over: its save is refused
    saves = [e for e in r.history[paused.index :] if e.op == "save" and e.type != "invoke"]
    (save,) = [e for e in saves if e.process == paused.process][:1]
    assert save.type == "fail" and save.epoch == paused.epoch


@pytest.mark.parametrize(
    ("name", "rule", "edge"),
    [("claim-takes-over-early", "h", "before"), ("claim-refused-after-lease-end", "s", "after")],
)
def test_is_a_ledger_a_hair_off_at_the_lease_end_caught_on_the_probe(name, rule, edge):
    cls = WRONG_LEDGERS[name]
    r = _run(lambda clock: cls(clock=clock))
    (finding,) = [f for f in r.findings if f.letter == rule]
    probed = r.history[finding.index]
    assert probed.process == PROBER and probed.value["edge"] == edge
    # the sentence shows the claim's time and the lease's end to the digit that parts them
    claimed, end = (float(x) for x in re.findall(r"t=(\d+\.\d+)", finding.sentence))
    assert (claimed < end) if edge == "before" else (claimed > end), finding.sentence


@pytest.mark.parametrize("name", sorted(CORRECT_LEDGERS))
def test_does_a_correct_ledger_answer_the_probe_as_the_contract_says(name):
    cls = CORRECT_LEDGERS[name]
    r = _run(lambda clock: cls(clock=clock))
    assert r.ok, (name, r.findings)
    answers = [e.type for e in r.history if e.process == PROBER and e.type != "invoke"]
    assert answers == ["fail", "ok"]


def test_does_the_story_tell_the_probe_in_english_and_in_chinese():
    wrong = WRONG_LEDGERS["claim-takes-over-early"]
    x = explore(lambda clock: wrong(clock=clock), max_faults=2)
    assert not x.certified and x.faults == 2
    assert [f["kind"] for f in x.result.schedule.faults][-1] == EDGE_CLAIM.name
    told = " ".join(x.story)
    assert "prober claims t0001 2^-16 before the end of the lease it probes" in told, told
    zh = tell(x.result, lang="zh") + [f.text("zh") for f in x.result.findings]
    assert any("探测者" in line for line in zh), zh
    for line in zh:
        assert not english_prose(line), (line, english_prose(line))
