"""The claims notebook 01 makes beyond its printed outputs, and the fenced store it uses.

Each test restates a sentence of notebook 01 (quoted in its docstring), so a change of the kit
that falsifies the sentence fails here with the sentence named. The printed outputs are
compared by nbval as well.
"""

from __future__ import annotations

from simlab.ledger import RacyClaimLedger
from simlab.props.dict_experiment import claim, commit, new_state
from simlab.props.fenced_store import WITHDRAWN, FencedStore, cancel_story


def test_does_the_store_refuse_only_tokens_lower_than_the_highest_seen():
    store = FencedStore()
    assert store.write("w", "a", 2) and store.highest == 2
    assert store.write("w", "b", 2), "the same token again is the current holder: accepted"
    assert not store.write("old", "stale", 1)
    assert store.value == "b" and store.highest == 2
    assert store.write("new", "c", 5) and not store.write("w", "d", 2)
    assert [w.accepted for w in store.writes] == [True, True, False, True, False]
    assert str(store.writes[2]) == "old writes 'stale' with token 1: REFUSED"


def test_does_a_status_only_cancel_let_every_later_stale_write_through():
    """01 section 5: with a cancel that only sets the status, the withdrawal carries A's own
    token, so all 3 of A's later parts are accepted and part 4 is what the store holds."""
    story = cancel_story(bump=False)
    assert story.stale_accepted == 3
    assert story.final == "A: part 4"
    assert [w.token for w in story.writes] == [1, 1, 1, 1, 1]


def test_does_the_bumping_cancel_fence_the_store():
    """01 section 5: with the bumping cancel the withdrawal carries token 2, the store refuses
    all of A's later parts (0 accepted) and keeps the withdrawal."""
    story = cancel_story(bump=True)
    assert story.stale_accepted == 0
    assert story.final == WITHDRAWN
    withdrawal = next(w for w in story.writes if w.writer == "cancel")
    assert withdrawal.token == 2 and withdrawal.accepted


def test_does_the_ledger_refuse_the_commit_after_either_cancel():
    """01 section 5: the ledger refuses A's final commit after both cancels (the commit also
    checks the status), so only the store tells the two cancels apart."""
    assert not cancel_story(bump=False).committed
    assert not cancel_story(bump=True).committed


def test_does_a_status_only_cancel_let_no_stale_commit_into_the_dict():
    """01 section 4: "a cancel that only sets the status lets no stale commit through, because
    commit checks the status too and the next claim bumps the epoch anyway"."""
    state = new_state()
    old = claim(state)
    state["status"] = "cancelled"  # a cancel that does not bump the epoch
    assert not commit(state, old, "stale")
    state["status"] = "queued"  # requeue
    assert not commit(state, old, "stale")
    new = claim(state)
    assert new > old and not commit(state, old, "stale")
    assert commit(state, new, "fresh") and state["result"] == "fresh"


def test_would_worker_1s_save_land_without_the_fence():
    """01 section 2: after worker-1's save at t=57 the checkpoint holds doc-1@v3; "without the
    fence it would hold doc-1@v2 until worker-2's last save at t=60" (which hides it)."""
    now = [0.0]
    ledger = RacyClaimLedger(":memory:", clock=lambda: now[0])
    ledger.submit("t1")
    w1 = ledger.claim("t1", "worker-1", ttl=30)
    now[0] = 31
    w2 = ledger.claim("t1", "worker-2", ttl=30)
    now[0] = 40
    assert ledger.save(w2, 1, checkpoint={"evidence": ["doc-1@v3"]})
    now[0] = 57
    assert not ledger.save(w1, 1, checkpoint={"evidence": ["doc-1@v2"]})
    assert ledger.get("t1").checkpoint == {"evidence": ["doc-1@v3"]}
    assert ledger.save_unfenced(w1, 1, checkpoint={"evidence": ["doc-1@v2"]})
    assert ledger.get("t1").checkpoint == {"evidence": ["doc-1@v2"]}
    now[0] = 60
    assert ledger.save(w2, 2, result="done", done=True, checkpoint={"evidence": ["doc-1@v3"]})
    assert ledger.get("t1").checkpoint == {"evidence": ["doc-1@v3"]}, "the last save hides it"
