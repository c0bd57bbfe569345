"""The rules that judge against the protocol's model: each fires on a small history that breaks
its promise (whatever epochs the ledger reports), and stays quiet on the correct twin."""

from __future__ import annotations

from simlab.checker.checker import check
from simlab.checker.history import History
from simlab.checker.rules import findings, sentences
from simlab.records import CANCELLED, COMPLETED, Effect, TaskRecord


def rec(status=COMPLETED, step=1, epoch=1, result=None, task="t1") -> TaskRecord:
    return TaskRecord(task, status, step, epoch, result, "default", 1, None, None)


def claimed(ttl_until: float = 10.0) -> History:
    """t1 submitted (one step) and claimed by w1 at t=1 with epoch 1 until ``ttl_until``."""
    h = History()
    h.record(0, "ok", "client", "submit", "t1", steps=1)
    h.record(1, "invoke", "w1", "claim", "t1")
    h.record(1, "ok", "w1", "claim", "t1", epoch=1, step=0, lease_until=ttl_until)
    return h


def taken_over(h: History, at: float, until: float, epoch: int = 2, **extra) -> History:
    """``h`` with w2's claim of t1 at ``at``, granted with ``epoch`` until ``until``."""
    h.record(at, "invoke", "w2", "claim", "t1")
    h.record(at, "ok", "w2", "claim", "t1", epoch=epoch, step=0, lease_until=until, **extra)
    return h


def letters(h, final=(), **kw) -> set[str]:
    return {f.letter for f in findings(h, final, **kw)}


# --- the two cases a ledger's own epochs hid --------------------------------------------------


def test_does_a_save_after_a_cancel_that_kept_the_epoch_break_the_fence():
    h = claimed()
    h.record(2, "ok", "user", "cancel", "t1", epoch=1)  # the ledger did not bump
    h.record(3, "ok", "w1", "save", "t1", epoch=1, step=1, done=True)
    found = letters(h)
    assert {"n", "a", "c"} <= found
    (sentence,) = sentences("a", h)
    assert sentence == (
        "w1 (epoch 1) committed step 1 of t1 at t=3.0, but it was cancelled at t=2.0 (epoch 2)."
    )


def test_is_a_cancelled_task_claimed_again_without_a_requeue_caught():
    h = claimed()
    h.record(2, "ok", "user", "cancel", "t1", epoch=2)
    h.record(3, "ok", "w2", "claim", "t1", epoch=3, step=0, lease_until=13.0)
    (sentence,) = sentences("k", h)
    assert sentence == (
        "w2 was granted epoch 3 of t1 at t=3.0, but the task had ended: it was cancelled at "
        "t=2.0 and never requeued."
    )


def test_may_a_requeued_task_be_claimed_with_a_higher_epoch_and_complete():
    h = claimed()
    h.record(2, "ok", "user", "cancel", "t1", epoch=2)
    h.record(3, "ok", "user", "requeue", "t1", epoch=2)
    h.record(4, "ok", "w2", "claim", "t1", epoch=3, step=0, lease_until=14.0)
    h.record(5, "ok", "w2", "save", "t1", epoch=3, step=1, done=True)
    assert check(h, [rec(epoch=3)]).ok


def test_is_a_claim_after_a_requeue_that_reuses_the_cancels_epoch_caught():
    h = claimed()
    h.record(2, "ok", "user", "cancel", "t1", epoch=1)  # kept: the model says 2
    h.record(3, "ok", "user", "requeue", "t1", epoch=1)
    h.record(4, "ok", "w2", "claim", "t1", epoch=2, step=0, lease_until=14.0)
    assert sentences("a'", h) == [
        "w2 was granted epoch 2 of t1 at t=4.0, but the cancel at t=2.0 had already raised it to 2."
    ]


# --- the fence is the epoch, not the clock ----------------------------------------------------


def test_is_a_save_or_heartbeat_after_lease_until_fine_while_nobody_claimed():
    h = claimed(ttl_until=4.0)
    h.record(6, "ok", "w1", "heartbeat", "t1", epoch=1, step=0)
    h.record(7, "ok", "w1", "save", "t1", epoch=1, step=1, done=True)
    assert check(h, [rec()]).ok


def test_is_nothing_accepted_after_the_completing_save():
    h = claimed()
    h.record(2, "ok", "w1", "save", "t1", epoch=1, step=1, done=True)
    h.record(3, "ok", "w1", "heartbeat", "t1", epoch=1, step=1)
    h.record(4, "ok", "w1", "effect", "t1", epoch=1, step=1, key="k")
    assert [f.event.op for f in findings(h, rules=["l"])] == ["heartbeat", "effect"]
    assert "the task had ended: w1 (epoch 1) completed it at t=2.0" in sentences("l", h)[0]


def test_is_an_operation_on_a_released_or_requeued_task_caught():
    h = claimed()
    h.record(2, "ok", "user", "cancel", "t1", epoch=2)
    h.record(3, "ok", "user", "requeue", "t1", epoch=2)
    h.record(4, "ok", "w9", "save", "t1", epoch=2, step=1)  # the epoch is current, no lease
    (sentence,) = sentences("l", h)
    assert "back in the queue with no lease" in sentence


# --- claims -----------------------------------------------------------------------------------


def test_does_a_claim_resume_from_the_committed_step():
    h = History()
    h.record(0, "ok", "client", "submit", "t1", steps=3)
    h.record(1, "ok", "w1", "claim", "t1", epoch=1, step=0, lease_until=4.0)
    h.record(2, "ok", "w1", "save", "t1", epoch=1, step=1)
    h.record(5, "ok", "w2", "claim", "t1", epoch=2, step=0, lease_until=8.0)
    (sentence,) = sentences("m", h)
    assert sentence == (
        "w2 was granted t1 at t=5.0 to resume from step 0, but step 1 was the last one "
        "committed (by w1 (epoch 1) at t=2.0)."
    )
    assert sentences("m", claimed()) == []


def test_is_a_lease_of_the_wrong_length_caught_only_when_the_ttl_is_known():
    h = claimed(ttl_until=31.0)
    assert sentences("q", h) == []
    (sentence,) = sentences("q", h, ttl=3.0)
    assert (
        sentence
        == "w1 was granted t1 at t=1.0 until t=31.0, but a lease of ttl 3 runs until t=4.0."
    )
    assert sentences("q", claimed(ttl_until=4.0), ttl=3.0) == []


def test_does_a_known_ttl_time_the_lease_whatever_the_ledger_reports():
    h = claimed(ttl_until=100.0)  # the ledger claims a long lease
    h.record(5, "ok", "w2", "claim", "t1", epoch=2, step=0, lease_until=8.0)
    assert sentences("h", h) != [] and sentences("h", h, ttl=3.0) == []


# --- cancel and requeue -----------------------------------------------------------------------


def test_is_a_cancel_of_a_completed_task_caught():
    h = claimed()
    h.record(2, "ok", "w1", "save", "t1", epoch=1, step=1, done=True)
    h.record(3, "ok", "user", "cancel", "t1", epoch=2)
    (sentence,) = sentences("n", h)
    assert sentence == "a user cancelled t1 at t=3.0, but w1 (epoch 1) completed it at t=2.0."


def test_is_a_requeue_of_a_running_task_or_one_that_lowers_the_epoch_caught():
    h = claimed()
    h.record(2, "ok", "user", "requeue", "t1", epoch=1)
    assert "only a cancelled or dead task" in sentences("o", h)[0]
    h = claimed()
    h.record(2, "ok", "user", "cancel", "t1", epoch=2)
    h.record(3, "ok", "user", "requeue", "t1", epoch=0)
    assert "reports epoch 0, below the 2 it had" in sentences("o", h)[0]


def test_is_a_requeue_that_raises_the_epoch_the_cancel_reported_caught():
    h = claimed()
    h.record(2, "ok", "user", "cancel", "t1", epoch=2)
    h.record(3, "ok", "user", "requeue", "t1", epoch=3)
    (sentence,) = sentences("o", h)
    assert sentence == (
        "a user requeued t1 at t=3.0, and the ledger then reports epoch 3, but the cancel at "
        "t=2.0 left it at 2: a requeue keeps the epoch (only claims, cancels and the dead "
        "letter raise it)."
    )
    kept = claimed()
    kept.record(2, "ok", "user", "cancel", "t1", epoch=2)
    kept.record(3, "ok", "user", "requeue", "t1", epoch=2)
    assert "o" not in letters(kept)


def test_is_a_requeue_judged_by_a_floor_where_the_epoch_is_not_known_exactly():
    # after the dead letter, whose refusal does not say the epoch, a higher one is no mistake
    dead = claimed(ttl_until=4.0)
    dead.record(5, "invoke", "w2", "claim", "t1")
    dead.record(5, "fail", "w2", "claim", "t1", reason="terminal", status="dead")
    dead.record(6, "ok", "user", "requeue", "t1", epoch=5)
    assert "o" not in letters(dead, max_attempts=1)
    # a cancel that did not report its epoch, or a claim still in flight, says nothing exact
    unsaid = claimed()
    unsaid.record(2, "ok", "user", "cancel", "t1")
    unsaid.record(3, "ok", "user", "requeue", "t1", epoch=5)
    assert "o" not in letters(unsaid)
    racing = claimed()
    racing.record(2, "ok", "user", "cancel", "t1", epoch=2)
    racing.record(2.5, "invoke", "w2", "claim", "t1")
    racing.record(3, "ok", "user", "requeue", "t1", epoch=3)
    assert "o" not in letters(racing)


# --- the final ledger -------------------------------------------------------------------------


def test_does_the_final_ledger_have_to_be_what_the_accepted_operations_made_it():
    h = claimed()
    h.record(2, "ok", "w1", "effect", "t1", epoch=1, step=0, key="k")
    h.record(3, "ok", "w1", "save", "t1", epoch=1, step=1, done=True)
    good = Effect("t1", "k", 1, "w1", 2.0)
    assert check(h, [rec(result={"worker": "w1", "epoch": 1})], effects={"t1": [good]}).ok
    (sentence,) = sentences("p", h, [rec(result={"worker": "w2", "epoch": 2})])
    assert "its result names w2 (epoch 2), but w1 (epoch 1) completed it" in sentence
    (sentence,) = sentences("p", h, [rec()], effects={"t1": []})
    assert "the ledger holds the e-mail keys none, but the accepted records were 'k'" in sentence
    (sentence,) = sentences("p", h, [rec(status=CANCELLED, epoch=2)])
    assert "the ledger says cancelled at step 1 (epoch 2)" in sentence


# --- the e-mail -------------------------------------------------------------------------------


def test_may_only_the_recording_lease_send_a_keyed_e_mail():
    h = claimed(ttl_until=4.0)
    h.record(2, "ok", "w1", "effect", "t1", epoch=1, step=0, key="k")
    h.record(5, "ok", "w2", "claim", "t1", epoch=2, step=0, lease_until=8.0)
    h.record(6, "fail", "w2", "effect", "t1", epoch=2, step=0, key="k")
    h.record(6, "ok", "w2", "send", "t1", epoch=2, step=0, key="k")  # refused, sent anyway
    h.record(7, "ok", "w1", "send", "t1", epoch=1, step=0, key="k")  # woke: its record stands
    (sentence,) = sentences("r", h)
    assert sentence == (
        "w2 (epoch 2) sent the e-mail 'k' of t1 at t=6.0, but w1 (epoch 1) had recorded its "
        "key at t=2.0, so only it may send."
    )
    h2 = claimed()
    h2.record(2, "ok", "w1", "send", "t1", epoch=1, step=0, key="k")
    assert "its key had not been recorded" in sentences("r", h2)[0]


def test_is_a_fragment_without_its_submit_judged_from_its_first_event():
    h = History()
    h.record(1, "ok", "w1", "save", "t1", epoch=4, step=2)
    h.record(2, "ok", "w1", "send", "t1", epoch=4, step=2, key="k")
    h.record(3, "ok", "w1", "save", "t1", epoch=4, step=3, done=True)
    assert check(h, [rec(step=3, epoch=9)]).ok


# --- (s) wrongful refusal: the model predicts every answer, refusals too ----------------------


def test_is_a_save_refused_with_the_current_epoch_and_a_higher_step_caught():
    h = claimed(ttl_until=10.0)
    h.record(12, "invoke", "w1", "save", "t1", epoch=1, step=1, done=True)
    h.record(12, "fail", "w1", "save", "t1", epoch=1, step=1, done=True)
    (sentence,) = sentences("s", h)
    assert sentence == (
        "w1's save of t1 at step 1 with epoch 1 at t=12.0 was refused, but epoch 1 was current "
        "(granted to w1 at t=1.0) and step 1 above the committed step 0: a correct ledger "
        "accepts it."
    )


def test_is_a_save_refused_after_a_newer_claim_or_of_an_old_step_left_alone():
    h = claimed(ttl_until=10.0)
    taken_over(h, 11, 21.0)
    h.record(12, "fail", "w1", "save", "t1", epoch=1, step=1, done=True)
    h.record(13, "ok", "w2", "save", "t1", epoch=2, step=1)
    h.record(14, "fail", "w2", "save", "t1", epoch=2, step=1)
    assert sentences("s", h) == []


def test_is_an_e_mail_key_refused_only_when_it_was_already_recorded():
    h = claimed()
    h.record(2, "fail", "w1", "effect", "t1", epoch=1, step=0, key="t1:mail")
    assert len(sentences("s", h)) == 1
    twin = claimed()
    twin.record(2, "ok", "w1", "effect", "t1", epoch=1, step=0, key="t1:mail")
    twin.record(3, "fail", "w1", "effect", "t1", epoch=1, step=0, key="t1:mail")
    assert sentences("s", twin) == []


def test_is_a_heartbeat_of_the_current_lease_refused_after_its_end_caught():
    h = claimed(ttl_until=10.0)
    h.record(15, "fail", "w1", "heartbeat", "t1", epoch=1, step=0)
    assert "a correct ledger accepts it" in sentences("s", h)[0]


def test_is_a_claim_refused_as_held_judged_by_the_lease_end_with_the_instant_left_open():
    def refused_at(t: float) -> list[str]:
        h = claimed(ttl_until=10.0)
        h.record(t, "invoke", "w2", "claim", "t1")
        h.record(t, "fail", "w2", "claim", "t1", reason="lease-held")
        return sentences("s", h)

    assert refused_at(9.0) == []  # the lease is live: refused as held
    assert refused_at(10.0) == []  # the very instant it ends: the contract allows either answer
    (late,) = refused_at(10.5)
    assert late == (
        "w2's claim of t1 at t=10.5 was refused (lease-held), but the lease of w1 (epoch 1) "
        "had ended at t=10.0: a correct ledger grants it."
    )


def test_is_a_claim_refused_for_the_wrong_reason_caught():
    h = claimed(ttl_until=10.0)
    h.record(5, "fail", "w2", "claim", "t1", reason="terminal", status="running")
    assert "refuses it as lease-held" in sentences("s", h)[0]
    done = claimed(ttl_until=10.0)
    done.record(2, "ok", "w1", "save", "t1", epoch=1, step=1, done=True)
    done.record(3, "fail", "w2", "claim", "t1", reason="lease-held")
    assert "refuses it as terminal" in sentences("s", done)[0]


def test_is_a_refusal_while_another_claim_is_in_flight_left_alone():
    # w2's claim has run its statements (the epoch moved) but its ok is not recorded yet
    h = claimed(ttl_until=10.0)
    h.record(11, "invoke", "w2", "claim", "t1")
    h.record(12, "fail", "w1", "save", "t1", epoch=1, step=1)
    h.record(13, "ok", "w2", "claim", "t1", epoch=2, step=0, lease_until=23.0)
    assert sentences("s", h) == []


def test_are_cancel_and_requeue_refusals_judged_by_the_status():
    h = claimed()
    h.record(2, "fail", "user", "cancel", "t1")
    assert "a correct ledger cancels it" in sentences("s", h)[0]
    h = claimed()
    h.record(2, "ok", "user", "cancel", "t1", epoch=2)
    h.record(3, "fail", "user", "requeue", "t1", reason="cancelled")
    assert "a correct ledger requeues it" in sentences("s", h)[0]
    h = claimed()
    h.record(2, "fail", "user", "requeue", "t1", reason="running")
    assert sentences("s", h) == []


def test_must_the_whole_listing_hold_every_submitted_task():
    h = claimed()
    h.record(2, "ok", "client", "submit", "t2", steps=1)
    only_t1 = [rec(status="running", step=0, epoch=1)]
    assert any("listing" in s for s in check(h, only_t1).violations)
    assert not any("listing" in s for s in check(h, only_t1, listing=False).violations)


def test_is_a_model_freed_as_soon_as_it_is_dropped_without_the_cycle_collector():
    # A simulation pauses the cycle collector; a model that referred to itself (bound methods
    # kept on the instance) would keep every task state alive until the next full collection.
    import gc
    import weakref

    from simlab.checker.model import Model

    model = Model({"t1"}, ttl=10.0)
    model.state("t1")
    assert set(model.on_ok) == {
        "claim", "heartbeat", "save", "effect", "cancel", "requeue", "release", "submit"
    }  # fmt: skip
    gone = weakref.ref(model)
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        del model
        assert gone() is None
    finally:
        if was_enabled:
            gc.enable()


# --- a second submit, and releases -----------------------------------------------------------


def test_is_a_second_submit_accepted_caught_and_one_refused_as_it_should_be_left_alone():
    h = claimed()
    h.record(2, "ok", "client", "submit", "t1", steps=1, resent=True)
    (sentence,) = sentences("v", h)
    assert sentence == (
        "The second submit of t1 at t=2.0 was accepted, but t1 had been submitted at t=0.0: a "
        "submit of a task that exists raises and leaves it as it was."
    )
    right = claimed()
    right.record(2, "fail", "client", "submit", "t1", epoch=1, step=0, steps=1,
                 reason="exists", status="running", resent=True)  # fmt: skip
    assert "v" not in letters(right)


def test_is_a_refused_second_submit_that_reset_the_task_caught():
    h = claimed()
    h.record(2, "fail", "client", "submit", "t1", epoch=0, step=0, steps=1,
             reason="exists", status="queued", resent=True)  # fmt: skip
    assert sentences("v", h) == [
        "The second submit of t1 at t=2.0 was refused, but it left the task queued at step 0 "
        "with epoch 0 where it was running at step 0 with epoch 1: a refused submit changes "
        "nothing."
    ]


def test_is_a_stale_release_caught_and_the_current_one_accepted():
    h = claimed(ttl_until=4.0)
    taken_over(h, 5, 8.0)
    h.record(6, "invoke", "w1", "release", "t1", epoch=1, step=0)
    h.record(6, "ok", "w1", "release", "t1", epoch=1, step=0)
    assert "w" in letters(h)
    right = claimed()
    right.record(2, "invoke", "w1", "release", "t1", epoch=1, step=0)
    right.record(2, "ok", "w1", "release", "t1", epoch=1, step=0)
    right.record(3, "ok", "w1", "heartbeat", "t1", epoch=1, step=0)  # after its own release
    assert letters(right) == {"l"}  # the heartbeat of a queued task, not the release


def test_is_a_refused_current_release_a_wrongful_refusal():
    h = claimed()
    h.record(2, "invoke", "w1", "release", "t1", epoch=1, step=0)
    h.record(2, "fail", "w1", "release", "t1", epoch=1, step=0, reason="refused")
    assert letters(h) == {"s"}


# --- the holder and the attempts --------------------------------------------------------------


def _taken_over() -> History:
    """t1 claimed by w1 (lease until 4), taken over by w2 at t=5 and completed by it."""
    h = claimed(ttl_until=4.0)
    taken_over(h, 5, 8.0, attempts=2)
    h.record(6, "ok", "w2", "save", "t1", epoch=2, step=1, done=True)
    return h


def _record(worker, attempts, status=COMPLETED, epoch=2) -> TaskRecord:
    step = 1 if status == COMPLETED else 0
    return TaskRecord("t1", status, step, epoch, None, "default", attempts, None, None, worker)


def test_does_the_record_have_to_name_the_last_claimer_and_count_its_claims():
    h = _taken_over()
    assert "p" not in letters(h, [_record("w2", 2)])
    assert "p" not in letters(h, [_record(None, 2)])  # the holder forgotten once it completed
    (sentence,) = sentences("p", h, [_record("w1", 2)])
    assert sentence == "t1: its record names the worker w1, but w2 was granted its last claim."
    (sentence,) = sentences("p", h, [_record("w2", 1)])
    assert sentence == (
        "t1: its record's count of attempts is 1, but 2 claim(s) were granted since it was "
        "submitted or last requeued."
    )


def test_does_a_running_task_have_to_name_its_holder():
    h = _taken_over()
    del h._events[-1]  # w2 still holds it
    assert "p" not in letters(h, [_record("w2", 2, status="running")])
    assert "p" in letters(h, [_record(None, 2, status="running")])


def test_may_a_claim_a_crash_cut_off_have_counted_unseen():
    # w3's claim was invoked and w3 crashed before its answer: the ledger may have granted it
    # (a two-statement claim bumps first), so one attempt more is allowed, and the holder is
    # not known until the next claim.
    h = claimed(ttl_until=4.0)
    h.record(5, "invoke", "w3", "claim", "t1")
    h.record(5, "info", "w3", "crash", "t1")
    taken_over(h, 9, 12.0, epoch=3, attempts=3)
    assert "t" not in letters(h)
    h.record(10, "ok", "w2", "save", "t1", epoch=3, step=1, done=True)
    assert "p" not in letters(h, [_record("w2", 3, epoch=3)])
    assert "p" not in letters(h, [_record("w2", 2, epoch=3)])
    assert "p" in letters(h, [_record("w2", 4, epoch=3)])


def test_does_a_task_that_is_not_running_have_to_hold_no_lease():
    import dataclasses

    h = _taken_over()  # completed by w2, whose lease ran until 8
    kept = dataclasses.replace(_record("w2", 2), lease_until=8.0)
    (sentence,) = sentences("p", h, [kept])
    assert sentence == (
        "t1: its record holds a lease until t=8.0, but a task that is completed holds no lease "
        "(lease_until None)."
    )
    (said,) = [f.text("zh") for f in findings(h, [kept], rules=["p"])]
    assert "t=8.0" in said and "lease_until 为 None" in said
    h = claimed(ttl_until=4.0)
    h.record(5, "ok", "user", "cancel", "t1", epoch=2)
    cancelled = TaskRecord("t1", "cancelled", 0, 2, None, "default", 1, 4.0, None, None)
    assert "p" in letters(h, [cancelled])
    assert "p" not in letters(h, [dataclasses.replace(cancelled, lease_until=None)])
    # A claim cut off unanswered may have been granted unseen: the status is then in doubt, and
    # so is the lease; it is not judged.
    h.record(6, "invoke", "w3", "claim", "t1")
    h.record(6, "info", "w3", "crash", "t1")
    assert "p" not in letters(h, [cancelled])


def test_does_a_lease_have_to_tell_its_attempt():
    h = claimed(ttl_until=4.0)
    taken_over(h, 5, 8.0, attempts=1)
    (sentence,) = sentences("t", h)
    assert sentence == (
        "w2 was granted t1 at t=5.0 with a lease that tells attempt 1, but it is claim 2 since "
        "the task was submitted or last requeued."
    )
    h = claimed(ttl_until=4.0)
    h.record(2, "ok", "user", "cancel", "t1", epoch=2)
    h.record(3, "ok", "user", "requeue", "t1", epoch=2)
    taken_over(h, 4, 8.0, epoch=3, attempts=1)
    assert "t" not in letters(h)  # counted afresh after the requeue


# --- sentences that say what the ledger reported ----------------------------------------------


def test_does_a_requeue_after_a_dead_letter_that_kept_the_epoch_name_the_dead_letter():
    h = claimed(ttl_until=4.0)
    h.record(5, "invoke", "w2", "claim", "t1")
    h.record(5, "fail", "w2", "claim", "t1", reason="terminal", status="dead")
    h.record(6, "ok", "user", "requeue", "t1", epoch=1)  # the dead letter did not bump
    (sentence,) = sentences("o", h, max_attempts=1)
    assert sentence == (
        "a user requeued t1 at t=6.0, and the ledger then reports epoch 1, but the dead letter "
        "at t=5.0 had already raised it to at least 2: the dead letter did not raise the epoch."
    )


def test_is_a_completion_past_its_steps_told_as_one():
    h = claimed()
    h.record(2, "ok", "w1", "save", "t1", epoch=1, step=2, done=True)
    (sentence,) = sentences("e", h, [rec(step=2)], steps=1)
    assert sentence.startswith("t1 ended completed at step 2, but it has only 1 steps")


# --- what a worker read back, and the views read while tasks run ------------------------------


def _read(status="running", step=0, epoch=1, lease_until=None, checkpoint=None) -> dict:
    return {
        "read": {
            "status": status,
            "step": step,
            "epoch": epoch,
            "lease_until": lease_until,
            "checkpoint": checkpoint,
        }
    }


def test_does_a_refused_heartbeat_that_moved_the_lease_name_that_heartbeat():
    h = taken_over(claimed(), at=20.0, until=30.0)
    h.record(26, "invoke", "w1", "heartbeat", "t1", epoch=1, step=0)
    wrote = _read(epoch=2, lease_until=36.0)
    h.record(26, "fail", "w1", "heartbeat", "t1", epoch=1, step=0, reason="stale-epoch", **wrote)
    (sentence,) = sentences("y", h)
    assert sentence == (
        "w1's heartbeat on t1 with epoch 1 at t=26.0 was refused, and the ledger then reports "
        "lease_until t=36.0 where a correct ledger holds lease_until t=30.0: a refused call "
        "changes nothing, so this call or an earlier one left the task wrong."
    )
    kept = History(h.events[:-1])
    kept.record(
        26, "fail", "w1", "heartbeat", "t1", epoch=1, step=0, **_read(epoch=2, lease_until=30.0)
    )
    assert not sentences("y", kept)


def test_does_a_refused_save_that_wrote_its_step_break_rule_y_and_a_clean_one_not():
    h = taken_over(claimed(), at=20.0, until=30.0)
    h.record(21, "invoke", "w1", "save", "t1", epoch=1, step=1, done=True)
    h.record(21, "fail", "w1", "save", "t1", epoch=1, step=1, **_read(epoch=2, lease_until=30.0,
                                                                       step=1))  # fmt: skip
    (sentence,) = sentences("y", h)
    assert "reports step 1 where a correct ledger holds step 0" in sentence
    clean = History(h.events[:-1])
    clean.record(
        21, "fail", "w1", "save", "t1", epoch=1, step=1, **_read(epoch=2, lease_until=30.0)
    )
    assert not sentences("y", clean)


def test_does_an_accepted_release_have_to_leave_the_task_queued_with_no_lease():
    h = claimed()
    h.record(5, "invoke", "w1", "release", "t1", epoch=1, step=0)
    h.record(5, "ok", "w1", "release", "t1", epoch=1, step=0, **_read("queued", lease_until=10.0))
    (sentence,) = sentences("y", h)
    assert sentence.endswith(
        "not lease_until None: a released task is queued, keeps its step and epoch, and holds no "
        "lease."
    )
    good = History(h.events[:-1])
    good.record(5, "ok", "w1", "release", "t1", epoch=1, step=0, **_read("queued"))
    assert not sentences("y", good)
    # a release that raises the epoch: the sentence says what a release keeps
    bumped = History(h.events[:-1])
    bumped.record(5, "ok", "w1", "release", "t1", epoch=1, step=0, **_read("queued", epoch=2))
    (sentence,) = sentences("y", bumped)
    assert "reports epoch 2, not epoch 1" in sentence and "keeps its step and epoch" in sentence


def test_are_views_read_while_tasks_run_held_to_the_statuses_then():
    h = claimed()
    h.record(2, "ok", "client", "submit", "t2", steps=1)
    views = {"queued": ["t2"], "running": ["t1"], "completed": [], "cancelled": [], "dead": []}
    h.record(3, "info", "nemesis", "faults-off", counts={"queued": 2}, listed=views)
    (sentence,) = sentences("z", h)
    assert sentence == (
        "at t=3.0, while tasks ran, the ledger's counts() said queued 2, but the tasks then were "
        "queued 1, running 1."
    )
    right = History(h.events[:-1])
    right.record(3, "info", "nemesis", "faults-off", counts={"queued": 1, "running": 1},
                 listed=views)  # fmt: skip
    assert not sentences("z", right)


# --- what a refused claim says ---------------------------------------------------------------


def test_does_a_lease_held_refusal_have_to_name_the_holder():
    h = claimed()
    h.record(2, "invoke", "w2", "claim", "t1")
    h.record(2, "fail", "w2", "claim", "t1", reason="lease-held", holder="w2")
    (sentence,) = sentences("s", h)
    assert sentence == (
        "w2's claim of t1 at t=2.0 was refused as lease-held by 'w2', but w1 (epoch 1) held the "
        "lease: a correct ledger's refusal names the worker that holds it."
    )
    right = claimed()
    right.record(2, "invoke", "w2", "claim", "t1")
    right.record(2, "fail", "w2", "claim", "t1", reason="lease-held", holder="w1")
    assert not sentences("s", right)
    # a refusal that does not say its holder, and one after a claim a crash cut off unanswered
    # (which the ledger may have granted: the holder is then not known), are not judged
    untold = claimed()
    untold.record(2, "invoke", "w2", "claim", "t1")
    untold.record(2, "fail", "w2", "claim", "t1", reason="lease-held")
    assert not sentences("s", untold)
    unseen = claimed(ttl_until=3.0)
    unseen.record(4, "invoke", "w3", "claim", "t1")
    unseen.record(4, "info", "w3", "crash", "t1")
    unseen.record(5, "invoke", "w2", "claim", "t1")
    unseen.record(5, "fail", "w2", "claim", "t1", reason="lease-held", holder="w3")
    assert not sentences("s", unseen)


def test_does_a_terminal_refusal_have_to_say_how_the_task_ended():
    h = claimed()
    h.record(2, "ok", "user", "cancel", "t1", epoch=2)
    h.record(3, "invoke", "w2", "claim", "t1")
    h.record(3, "fail", "w2", "claim", "t1", reason="terminal", status=COMPLETED)
    (sentence,) = sentences("s", h)
    assert sentence == (
        "w2's claim of t1 at t=3.0 was refused as terminal with the task completed, but it was "
        "cancelled at t=2.0 and never requeued: a correct ledger's refusal says the status the "
        "task ended with."
    )
    right = History(h.events[:-1])
    right.record(3, "fail", "w2", "claim", "t1", reason="terminal", status=CANCELLED)
    assert not sentences("s", right)
    untold = History(h.events[:-1])
    untold.record(3, "fail", "w2", "claim", "t1", reason="terminal")
    assert not sentences("s", untold)
