"""Rules (h), (i) and (j): does each fire on a small hand-made history that breaks it, stay quiet
on correct ones, and take its place among the checker's rules (the verdict, the rulebook)?"""

from __future__ import annotations

from simlab import Scenario, simulate
from simlab.checker.checker import check
from simlab.checker.history import History
from simlab.checker.rules import (
    RULES,
    broken_rules,
    findings,
    first_violation,
    rule_phrase,
    sentences,
)
from simlab.records import COMPLETED, TaskRecord


def live_lease_events(h):
    """Rule (h)'s findings as (claim, holder)."""
    return [(f.event, f.other) for f in findings(h, rules=["h"])]


def live_leases(h):
    return sentences("h", h)


def stale_heartbeats(h):
    return sentences("i", h)


def stale_effects(h):
    return sentences("j", h)


def rec(task="t1", status=COMPLETED, step=2, epoch=2) -> TaskRecord:
    return TaskRecord(task, status, step, epoch, None, "default", 1, None, None)


def takeover(*, second_claim_at: float = 7.0, heartbeat_at: float | None = 3.0) -> History:
    """w1 claims t1 at t=1 until t=6 (ttl 5) and heartbeats at ``heartbeat_at`` (lease until
    heartbeat + 5); w2 claims t1 at ``second_claim_at`` with epoch 2 and completes it."""
    h = History()
    h.record(0, "ok", "client", "submit", "t1", steps=2)
    h.record(1, "ok", "w1", "claim", "t1", epoch=1, step=0, lease_until=6.0)
    if heartbeat_at is not None:
        h.record(heartbeat_at, "ok", "w1", "heartbeat", "t1", epoch=1, step=0)
    h.record(second_claim_at, "ok", "w2", "claim", "t1", epoch=2, step=0, lease_until=99.0)
    h.record(second_claim_at + 1, "ok", "w2", "save", "t1", epoch=2, step=1, done=False)
    h.record(second_claim_at + 2, "ok", "w2", "save", "t1", epoch=2, step=2, done=True)
    return h


# --- rule (h): one live lease per task --------------------------------------------------------


def test_is_a_claim_over_a_live_lease_found():
    h = takeover(second_claim_at=5.0, heartbeat_at=None)  # w1's lease lives until t=6
    [(claim, holder)] = live_lease_events(h)
    assert (claim.process, holder.process) == ("w2", "w1")
    assert live_leases(h) == [
        "w2 was granted epoch 2 of t1 at t=5.0, but the lease of w1 (epoch 1) was live until t=6.0."
    ]


def test_does_a_heartbeat_keep_the_lease_live():
    # claimed at t=1 until t=6 (ttl 5), renewed at t=3: live until t=8, so a claim at t=7 breaks
    assert live_lease_events(takeover(second_claim_at=7.0, heartbeat_at=3.0))
    assert not live_lease_events(takeover(second_claim_at=7.0, heartbeat_at=None))


def test_is_a_claim_at_the_very_moment_a_lease_runs_out_fine():
    assert live_leases(takeover(second_claim_at=8.0, heartbeat_at=3.0)) == []
    assert live_leases(takeover(second_claim_at=6.0, heartbeat_at=None)) == []


def test_do_a_cancel_and_a_completion_end_the_lease():
    h = History()
    h.record(1, "ok", "w1", "claim", "t1", epoch=1, step=0, lease_until=50.0)
    h.record(2, "ok", "user", "cancel", "t1", epoch=2)
    h.record(3, "ok", "w2", "claim", "t1", epoch=3, step=0, lease_until=50.0)  # after a requeue
    h.record(4, "ok", "w2", "save", "t1", epoch=3, step=1, done=True)
    h.record(5, "ok", "w3", "claim", "t1", epoch=4, step=0, lease_until=50.0)
    assert live_leases(h) == []


def test_is_a_stale_heartbeat_no_extension_of_the_newest_lease():
    """Only the holder's own heartbeats move its lease on (an under-estimate is safe)."""
    h = History()
    h.record(1, "ok", "w1", "claim", "t1", epoch=1, step=0, lease_until=6.0)
    h.record(7, "ok", "w2", "claim", "t1", epoch=2, step=0, lease_until=12.0)
    h.record(11, "ok", "w1", "heartbeat", "t1", epoch=1, step=0)  # stale: rule (i), not (h)
    h.record(13, "ok", "w3", "claim", "t1", epoch=3, step=0, lease_until=18.0)
    assert live_leases(h) == []
    assert len(stale_heartbeats(h)) == 1


def test_is_a_lease_without_lease_until_not_judged():
    h = History()
    h.record(1, "ok", "w1", "claim", "t1", epoch=1, step=0)
    h.record(2, "ok", "w2", "claim", "t1", epoch=2, step=0)
    assert live_leases(h) == []


# --- rules (i) and (j): a stale lease renews nothing and records nothing -----------------------


def stale_worker(*, heartbeat: str, effect: str, cancel: bool = False) -> History:
    """w1 loses t1 (to w2 at t=7, or to a cancel at t=7), then heartbeats and records an
    e-mail at t=9 with epoch 1; the ledger answers ``heartbeat`` and ``effect``."""
    h = History()
    h.record(0, "ok", "client", "submit", "t1", steps=1)
    h.record(1, "ok", "w1", "claim", "t1", epoch=1, step=0, lease_until=4.0)
    h.record(2, "ok", "w1", "heartbeat", "t1", epoch=1, step=0)
    h.record(2, "ok", "w1", "effect", "t1", epoch=1, step=0, key="t1:email:0")
    if cancel:
        h.record(7, "ok", "user", "cancel", "t1", epoch=2)
    else:
        h.record(7, "ok", "w2", "claim", "t1", epoch=2, step=0, lease_until=10.0)
    h.record(9, heartbeat, "w1", "heartbeat", "t1", epoch=1, step=0)
    h.record(9, effect, "w1", "effect", "t1", epoch=1, step=0, key="t1:email:1")
    return h


def test_is_a_stale_heartbeat_found():
    h = stale_worker(heartbeat="ok", effect="fail")
    [(beat, winner)] = [(f.event, f.other) for f in findings(h, rules=["i"])]
    assert (beat.time, winner.process) == (9.0, "w2")
    assert stale_heartbeats(h) == [
        "w1 (epoch 1) renewed its lease on t1 at t=9.0, but epoch 2 was granted to w2 at t=7.0."
    ]
    assert stale_effects(h) == []


def test_is_a_stale_effect_found_also_after_a_cancel():
    h = stale_worker(heartbeat="fail", effect="ok", cancel=True)
    [(effect, winner)] = [(f.event, f.other) for f in findings(h, rules=["j"])]
    assert (effect.value["key"], winner.op) == ("t1:email:1", "cancel")
    assert stale_effects(h) == [
        "w1 (epoch 1) recorded the e-mail 't1:email:1' of t1 at t=9.0, but it was cancelled at "
        "t=7.0 (epoch 2)."
    ]
    assert stale_heartbeats(h) == []


def test_are_refused_and_current_ones_fine():
    h = stale_worker(heartbeat="fail", effect="fail")
    assert stale_heartbeats(h) == [] == stale_effects(h) == live_leases(h)


# --- the rules among the others ---------------------------------------------------------------


def test_does_the_verdict_report_the_new_rules():
    h = stale_worker(heartbeat="ok", effect="ok")
    h.record(9.5, "ok", "w3", "claim", "t1", epoch=3, step=0, lease_until=20.0)  # w2's is live
    verdict = check(h, [rec(status=COMPLETED, step=1, epoch=3)], steps=1)
    assert not verdict.ok
    assert [v for v in verdict.violations if "live until" in v]
    assert [v for v in verdict.violations if "renewed its lease" in v]
    assert [v for v in verdict.violations if "recorded the e-mail" in v]
    broken = broken_rules(verdict.findings)
    assert {"h", "i", "j"} <= set(broken)
    first = first_violation(verdict.findings, ["h", "i", "j"])
    assert (first.index, first.letter) == (5, "i")  # the stale heartbeat


def test_do_the_rulebook_entries_name_the_new_rules():
    letters = [r.letter for r in RULES]
    assert letters[8:11] == ["h", "i", "j"]
    assert rule_phrase("h").startswith("rule (h), two live leases: ")
    assert rule_phrase("i").startswith("rule (i), stale heartbeat: ")
    assert rule_phrase("j").startswith("rule (j), stale e-mail record: ")


def test_are_the_fenced_ledgers_runs_silent_and_the_racy_claims_caught():
    """The kit's own ledger breaks none of the three under every fault the simulator has; the
    chapter's claim (no lease check) takes live leases over."""
    busy = Scenario(
        tasks=40, duplicate_rate=0.3, pause_rate=0.2, cancel_rate=0.2, effects="all",
        work_pause_rate=0.3, effect_pause_rate=0.3,
    )  # fmt: skip
    for seed in (1, 2, 3):
        r = simulate(busy, seed=seed)
        assert broken_rules(r.findings) == {}, seed
    racy = [simulate(Scenario(variant="racy-claim"), seed=s) for s in (1, 2, 3)]
    assert all(live_leases(r.history) for r in racy)
