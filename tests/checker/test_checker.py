"""Does the checker catch each broken invariant in a small hand-written history, and stay quiet
on a correct one? Every violation must be one sentence naming worker, epoch, time and winner."""

from __future__ import annotations

import json
from dataclasses import fields

from simlab.checker.checker import NOTHING_EXERCISED, Verdict, check, stale_commits
from simlab.checker.history import Event, History, loads_jsonl
from simlab.checker.rules import sentences
from simlab.checker.words import render
from simlab.records import CANCELLED, COMPLETED, QUEUED, RUNNING, TaskRecord


def rec(task="t1", status=COMPLETED, step=2, epoch=2, attempts=None) -> TaskRecord:
    return TaskRecord(task, status, step, epoch, None, "default", attempts, None, None)


def epoch_race(stale_save_accepted: bool = False) -> History:
    """w1 commits step 1, pauses past its lease, w2 takes over with epoch 2 and finishes; w1
    wakes up at t=12 and tries to commit step 2 with epoch 1."""
    h = History()
    h.record(0, "ok", "client", "submit", "t1", steps=2)
    h.record(0, "ok", "w1", "deliver", "t1", duplicate=False, redelivery=False)
    h.record(1, "invoke", "w1", "claim", "t1")
    h.record(1, "ok", "w1", "claim", "t1", epoch=1, step=0, lease_until=6.0)
    h.record(2, "invoke", "w1", "save", "t1", epoch=1, step=1, done=False)
    h.record(2, "ok", "w1", "save", "t1", epoch=1, step=1, done=False)
    h.record(3, "info", "w1", "pause", until=12.0)
    h.record(7, "ok", "w2", "deliver", "t1", duplicate=False, redelivery=True)
    h.record(7, "ok", "w2", "claim", "t1", epoch=2, step=1, lease_until=12.0)
    h.record(8, "ok", "w2", "save", "t1", epoch=2, step=2, done=True)
    h.record(12, "invoke", "w1", "save", "t1", epoch=1, step=2, done=True)
    h.record(
        12, "ok" if stale_save_accepted else "fail", "w1", "save", "t1", epoch=1, step=2, done=True
    )
    return h


# --- the verdict as a whole -------------------------------------------------------------------


def test_is_a_correctly_fenced_epoch_race_ok():
    v = check(epoch_race(), [rec()])
    assert isinstance(v, Verdict)
    assert v.ok and v.violations == []
    assert v.coverage["stale_commits_rejected"] == 1
    assert v.coverage["leases_expired"] == 1


def test_does_the_verdict_accept_a_mapping_of_final_records():
    assert (
        check(epoch_race(True), {"t1": rec()}).violations
        == check(epoch_race(True), [rec()]).violations
    )


def test_are_the_violations_sentences_told_only_when_read_and_equal_to_a_list():
    """A verdict's violations render each finding's sentence when read, not before; read,
    they are the findings' sentences in order, and compare equal to a list of them."""
    v = check(epoch_race(True), [rec()])
    assert v.findings and not any("sentence" in vars(f) for f in v.findings)
    told = [render(f.said) for f in v.findings]
    assert len(v.violations) == len(told) and not any("sentence" in vars(f) for f in v.findings)
    assert list(v.violations) == told and v.violations == told and told == v.violations
    assert v.violations[0] == told[0] and v.violations[:1] == told[:1]
    assert v.violations != told[:-1] + ["another sentence"] and repr(v.violations) == repr(told)
    assert json.loads(json.dumps(v.to_dict()))["violations"] == told
    again = check(epoch_race(True), [rec()])
    assert again.findings == v.findings and again.findings[0] != v.findings[1]


def test_is_the_verdict_frozen_and_json_ready():
    v = check(epoch_race(True), [rec()])
    d = v.to_dict()
    assert d["ok"] is False and d["violations"] == v.violations
    assert "violation" in v.summary()
    try:
        v.violations = []  # type: ignore[misc]
    except AttributeError:
        pass
    else:
        raise AssertionError("Verdict should be frozen")


# --- rule (a) ---------------------------------------------------------------------------------


def test_a_can_a_worker_whose_lease_expired_still_commit():
    (sentence,) = stale_commits(epoch_race(stale_save_accepted=True))
    assert sentence == (
        "w1 (epoch 1) committed step 2 of t1 at t=12.0, but epoch 2 was granted to w2 at t=7.0."
    )


def test_a_is_a_rejected_stale_commit_fine():
    assert stale_commits(epoch_race()) == []


def test_a_can_a_worker_commit_after_its_task_was_cancelled():
    h = History()
    h.record(0, "ok", "w1", "claim", "t1", epoch=1, step=0, lease_until=10.0)
    h.record(2, "ok", "user", "cancel", "t1", epoch=2)
    h.record(3, "ok", "w1", "save", "t1", epoch=1, step=1, done=False)
    (sentence,) = stale_commits(h)
    assert "w1 (epoch 1)" in sentence and "t=3.0" in sentence
    assert "cancelled at t=2.0 (epoch 2)" in sentence


def test_a_does_the_sentence_name_the_current_epoch_not_an_older_newer_one():
    h = History()
    h.record(0, "ok", "w1", "claim", "t1", epoch=1, step=0)
    h.record(5, "ok", "w2", "claim", "t1", epoch=2, step=0)
    h.record(9, "ok", "w3", "claim", "t1", epoch=3, step=0)
    h.record(10, "ok", "w1", "save", "t1", epoch=1, step=1)
    (sentence,) = stale_commits(h)
    assert "epoch 3 was granted to w3 at t=9.0" in sentence


def test_a_may_a_requeued_task_commit_under_its_new_epoch():
    h = History()
    h.record(0, "ok", "w1", "claim", "t1", epoch=1, step=0)
    h.record(1, "ok", "user", "cancel", "t1", epoch=2)
    h.record(1.5, "ok", "user", "requeue", "t1", epoch=2)
    h.record(2, "ok", "w2", "claim", "t1", epoch=3, step=0)
    h.record(3, "ok", "w2", "save", "t1", epoch=3, step=1, done=True)
    assert stale_commits(h) == []
    assert check(h, {"t1": rec(step=1, epoch=3)}).ok


# --- rule (a'): reused epochs -----------------------------------------------------------------


def test_a_prime_can_two_workers_be_granted_the_same_epoch():
    h = History()
    h.record(1, "ok", "w1", "claim", "t1", epoch=2, step=0)
    h.record(1.5, "ok", "w2", "claim", "t1", epoch=2, step=0)
    (sentence,) = sentences("a'", h)
    assert sentence == (
        "w2 was granted epoch 2 of t1 at t=1.5, but epoch 2 had already been granted to w1 at "
        "t=1.0."
    )
    assert sentences("a'", epoch_race()) == []


# --- rule (b) ---------------------------------------------------------------------------------


def test_b_can_one_step_be_committed_twice():
    (sentence,) = sentences("b", epoch_race(True))
    assert sentence == (
        "w1 (epoch 1) committed step 2 of t1 at t=12.0, but step 2 had already been committed "
        "by w2 (epoch 2) at t=8.0."
    )
    assert sentences("b", epoch_race()) == []


# --- rule (c) ---------------------------------------------------------------------------------


def cancelled_then_done() -> History:
    h = History()
    h.record(0, "ok", "client", "submit", "t1", steps=1)
    h.record(1, "ok", "w1", "claim", "t1", epoch=1, step=0)
    h.record(2, "ok", "user", "cancel", "t1", epoch=2)
    h.record(4, "ok", "w1", "save", "t1", epoch=1, step=1, done=True)
    return h


def test_c_can_a_cancelled_task_complete():
    (sentence,) = sentences("c", cancelled_then_done())
    assert sentence == (
        "w1 (epoch 1) completed t1 at t=4.0, but it was cancelled at t=2.0 (epoch 2)."
    )


def test_p_can_a_task_end_cancelled_after_a_completing_save():
    h = History()
    h.record(0, "ok", "client", "submit", "t1", steps=1)
    h.record(1, "ok", "w1", "claim", "t1", epoch=1, step=0)
    h.record(4, "ok", "w1", "save", "t1", epoch=1, step=1, done=True)
    (sentence,) = sentences("p", h, {"t1": rec(status=CANCELLED, step=1, epoch=2)})
    assert sentence == (
        "t1: the ledger says cancelled at step 1 (epoch 2), but its accepted operations leave "
        "it completed at step 1 (epoch 1)."
    )


def test_c_is_a_cancel_that_wins_fine():
    h = History()
    h.record(1, "ok", "w1", "claim", "t1", epoch=1, step=0)
    h.record(2, "ok", "user", "cancel", "t1", epoch=2)
    h.record(4, "fail", "w1", "save", "t1", epoch=1, step=1, done=True)
    v = check(h, [rec(status=CANCELLED, step=0)])
    assert v.ok, v.violations


# --- rule (d) ---------------------------------------------------------------------------------


def test_d_can_the_step_go_back():
    h = History()
    h.record(1, "ok", "w1", "claim", "t1", epoch=1, step=0)
    h.record(2, "ok", "w1", "save", "t1", epoch=1, step=1)
    h.record(3, "ok", "w1", "save", "t1", epoch=1, step=3)
    h.record(5, "ok", "w2", "save", "t1", epoch=2, step=2)
    (sentence,) = sentences("d", h)
    assert sentence == (
        "w2 (epoch 2) committed step 2 of t1 at t=5.0, but step 3 had already been committed by "
        "w1 (epoch 1) at t=3.0: the task went back."
    )
    assert sentences("d", epoch_race()) == []


# --- rule (e) ---------------------------------------------------------------------------------


def test_e_can_a_task_complete_with_steps_missing():
    h = History()
    h.record(0, "ok", "client", "submit", "t1", steps=5)
    h.record(1, "ok", "w2", "claim", "t1", epoch=3, step=0)
    h.record(9, "ok", "w2", "save", "t1", epoch=3, step=3, done=True)
    final = {"t1": rec(step=3, epoch=3)}
    (sentence,) = sentences("e", h, final, steps={"t1": 5})
    assert sentence == "t1 ended completed at step 3 of 5: w2 (epoch 3) marked it done at t=9.0."
    assert sentences("e", h, {"t1": rec(step=5)}, steps={"t1": 5}) == []


def test_e_does_check_read_k_from_submit_unless_steps_is_given():
    h = History()
    h.record(0, "ok", "client", "submit", "t1", steps=5)
    h.record(1, "ok", "w2", "claim", "t1", epoch=1, step=0)
    h.record(9, "ok", "w2", "save", "t1", epoch=1, step=3, done=True)
    done = rec(step=3, epoch=1)
    assert any("step 3 of 5" in s for s in check(h, [done]).violations)
    assert check(h, [done], steps=3).ok
    assert check(h, [done], steps={"t1": 3}).ok


def test_e_does_an_unknown_k_give_a_warning_instead_of_a_guess():
    h = History()
    h.record(9, "ok", "w2", "save", "t1", epoch=1, step=3, done=True)
    v = check(h, [rec(step=3)])
    assert v.ok
    assert any("no known number of steps" in w for w in v.warnings)


# --- rule (f) ---------------------------------------------------------------------------------


def sends(key_a, key_b) -> History:
    h = History()
    h.record(1, "ok", "w1", "send", "t1", epoch=1, step=1, key=key_a)
    h.record(3, "ok", "w2", "send", "t1", epoch=2, step=1, key=key_b)
    return h


def test_f_can_an_e_mail_with_an_idempotency_key_be_sent_twice():
    (sentence,) = sentences("f", sends("t1/1", "t1/1"))
    assert sentence == (
        "w2 (epoch 2) sent the e-mail 't1/1' of t1 again at t=3.0, although w1 (epoch 1) had "
        "sent it at t=1.0 (2 copies in all)."
    )
    v = check(sends("t1/1", "t1/1"), [])
    assert not v.ok and v.metrics["duplicate_sends"] == 1


def test_f_are_different_keys_different_e_mails():
    v = check(sends("t1/1", "t1/2"), [])
    assert v.ok and v.metrics["sends"] == 2 and v.metrics["duplicate_sends"] == 0


def test_f_is_an_unkeyed_duplicate_a_warning_and_not_a_violation():
    v = check(sends(None, None), [])
    assert v.ok
    assert v.metrics["duplicate_sends"] == 1
    (warning,) = [w for w in v.warnings if "idempotency key" in w]
    assert "step 1 of t1" in warning and "w1 (epoch 1)" in warning and "w2 (epoch 2)" in warning


# --- rule (g) ---------------------------------------------------------------------------------


def test_g_must_every_task_finish_once_faults_stop():
    h = epoch_race()
    h.record(20, "info", "nemesis", "faults-off")
    h.record(50, "ok", "client", "submit", "t2", steps=4)
    final = {"t1": rec(), "t2": rec("t2", RUNNING, 1, 1)}
    (sentence,) = sentences("g", h, final)
    assert sentence == (
        "t2 ended running at step 1 of 4 (epoch 1), although faults stopped at t=20.0 and the "
        "run went on until t=50.0."
    )


def test_g_is_liveness_judged_only_after_faults_off():
    final = {"t1": rec(), "t2": rec("t2", QUEUED, 0, 0)}
    assert sentences("g", epoch_race(), final) == []


# --- coverage and warnings --------------------------------------------------------------------


def test_does_a_quiet_run_say_it_proves_little():
    h = History()
    h.record(0, "ok", "client", "submit", "t1", steps=1)
    h.record(1, "ok", "w1", "claim", "t1", epoch=1, step=0)
    h.record(2, "ok", "w1", "save", "t1", epoch=1, step=1, done=True)
    v = check(h, [rec(step=1, epoch=1)])
    assert v.ok
    assert v.coverage == dict.fromkeys(
        [
            "stale_commits_rejected",
            "crashes_after_effect",
            "duplicate_deliveries_absorbed",
            "leases_expired",
        ],
        0,
    )
    assert NOTHING_EXERCISED in v.warnings
    assert NOTHING_EXERCISED not in check(epoch_race(), [rec()]).warnings


def test_is_a_crash_after_a_side_effect_counted():
    h = History()
    h.record(1, "info", "w1", "crash", "t1", epoch=1, step=2, after_effect=True)
    h.record(2, "info", "w2", "crash", "t1", epoch=2, step=2, after_effect=False)
    v = check(h, [])
    assert v.coverage["crashes_after_effect"] == 1
    assert v.metrics["wasted_steps"] == 2


def test_is_a_duplicate_delivery_absorbed_only_if_no_step_is_committed_twice():
    absorbed = epoch_race()  # w2's redelivery leads to step 2 once
    assert check(absorbed, [rec()]).coverage["duplicate_deliveries_absorbed"] == 1
    h = History()
    h.record(0, "ok", "w1", "deliver", "t1", duplicate=False, redelivery=False)
    h.record(1, "ok", "w1", "save", "t1", epoch=1, step=1)
    h.record(2, "ok", "w2", "deliver", "t1", duplicate=True, redelivery=False)
    h.record(3, "ok", "w2", "save", "t1", epoch=1, step=1)
    assert check(h, []).coverage["duplicate_deliveries_absorbed"] == 0


# --- metrics ----------------------------------------------------------------------------------


def test_do_the_metrics_measure_the_epoch_race():
    m = check(epoch_race(), [rec()]).metrics
    assert m["completed"] == 1 and m["cancelled"] == 0 and m["dead"] == 0
    assert m["steps_committed"] == 2
    assert m["wasted_steps"] == 1  # w1's rejected save
    assert m["mean_latency"] == 8.0 and m["p95_latency"] == 8.0
    assert m["makespan"] == 8.0


def test_is_p95_latency_a_nearest_rank_percentile():
    h = History()
    for i in range(20):
        h.record(0, "ok", "client", "submit", f"t{i}", steps=1)
    for i in range(20):
        h.record(i + 1, "ok", "w1", "save", f"t{i}", epoch=1, step=1, done=True)
    m = check(h, [rec(f"t{i}", step=1) for i in range(20)]).metrics
    assert m["p95_latency"] == 19.0
    assert m["mean_latency"] == sum(range(1, 21)) / 20


def test_does_an_empty_history_check_cleanly():
    v = check(History(), [])
    assert v.ok and v.metrics["completed"] == 0 and v.metrics["mean_latency"] == 0.0


# --- the events as data -----------------------------------------------------------------------


def test_is_an_events_dict_its_fields_in_order_with_a_value_of_its_own():
    h = epoch_race()
    for e in h:
        d = e.to_dict()
        assert list(d) == [f.name for f in fields(Event)]
        assert d == {**{f.name: getattr(e, f.name) for f in fields(Event)}, "value": e.value}
        assert d["value"] is not e.value  # changing the dict leaves the event as it was
        assert Event.from_dict(d) == e
    assert loads_jsonl(h.to_jsonl()) == list(h)
    first = json.loads(h.to_jsonl().splitlines()[1])
    assert first == {
        "index": 1, "time": 0.0, "type": "ok", "process": "w1", "op": "deliver", "task": "t1",
        "epoch": None, "step": None, "value": {"duplicate": False, "redelivery": False},
    }  # fmt: skip
