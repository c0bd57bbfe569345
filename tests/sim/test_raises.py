"""Does a ledger that raises where the contract answers end the run with a verdict?

The simulator calls the ledger through :class:`simlab.sim.answers.Answering`: a raise the
contract does not allow for that call is recorded as the call's answer, its caller goes on as a
real process would (a worker restarts as after a crash), and rule (x) judges it. A raise the
contract allows is a refusal as before, and an exception of the simulator's own code still stops
the run.
"""

from __future__ import annotations

import pytest

from simlab import Scenario, explore, simulate
from simlab.checker.history import history_digest
from simlab.checker.raises import RAISED_OPS
from simlab.checker.rules import first_violation, rule_phrase
from simlab.errors import LedgerError
from simlab.ledger import MemoryLedger
from simlab.ledger.arguments import WrongType
from simlab.sim.answers import ALLOWED, Unanswered
from simlab.sim.worker import Worker
from tests.checker.wrong_ledgers import WRONG_LEDGERS


def _factory(cls):
    return lambda clock: cls(clock=clock)


def _raised(result):
    return [e for e in result.history if e.type == "info" and "raised" in e.value]


def test_does_every_guarded_call_record_its_raise_as_an_operation_the_checker_judges():
    assert {op for op, _allowed in ALLOWED.values()} == set(RAISED_OPS)
    assert issubclass(Unanswered, BaseException) and not issubclass(Unanswered, Exception)


def test_is_a_stale_save_that_raises_a_counterexample_with_its_answer_story_and_replay():
    wrong = _factory(WRONG_LEDGERS["save-raises-when-stale"])
    x = explore(wrong, max_faults=1)
    assert not x.certified and x.faults == 1
    (raised,) = _raised(x.result)
    assert (raised.op, raised.process, raised.value["raised"]) == ("save", "w1", "StaleLeaseError")
    assert raised.value["call"] == "save" and "stale" in raised.value["message"]
    (finding,) = [f for f in x.result.findings if f.letter == "x"]
    assert finding.sentence.startswith(
        f"w1's save of t0001 at step {raised.step} with epoch {raised.epoch} at t="
    )
    assert finding.sentence.endswith("raised StaleLeaseError: a correct ledger answers False.")
    told = " ".join(x.story)
    assert rule_phrase("x")[1:] in told and "the ledger raises StaleLeaseError" in told
    # the worker stopped as if it crashed: its next event is its restart
    after = [e for e in x.result.history if e.index > raised.index and e.process == "w1"]
    assert after and after[0].op == "restart"
    again = simulate(
        x.result.schedule.scenario,
        seed=x.result.schedule.seed,
        ledger=wrong,
        schedule=x.result.schedule,
    )
    assert history_digest(again.history) == history_digest(x.result.history)
    assert [f.sentence for f in again.findings] == [f.sentence for f in x.result.findings]


@pytest.mark.parametrize(
    ("name", "mode", "op", "answer"),
    [
        ("heartbeat-raises-when-stale", {}, "heartbeat", "answers False"),
        ("cancel-raises-when-terminal", {}, "cancel", "answers False"),
        ("submit-duplicate-valueerror", {"retries": True}, "submit", "raises LedgerError"),
    ],
)
def test_is_each_raise_told_with_the_answer_a_correct_ledger_gives(name, mode, op, answer):
    x = explore(_factory(WRONG_LEDGERS[name]), max_faults=1, **mode)
    assert not x.certified and x.faults == 1
    first = first_violation(x.result.findings)
    assert first.letter == "x" and first.event.op == op
    assert first.sentence.endswith(f": a correct ledger {answer}.")


class _GetRaises(MemoryLedger):
    """``get`` raises: the user reads the task back after its cancel, a worker after a
    refusal."""

    def get(self, task_id):
        raise RuntimeError("the read replica is down")


class _ClaimNextRaises(MemoryLedger):
    def claim_next(self, worker, ttl):
        raise LedgerError("no connection")


class _FirstSubmitRaises(MemoryLedger):
    def submit(self, task_id=None, **kwargs):
        if task_id == "t0002":
            raise LedgerError("disk full")
        return super().submit(task_id, **kwargs)


def test_is_a_raise_from_a_read_recorded_as_the_read_of_its_caller():
    r = simulate(Scenario.adversarial(), seed=1, ledger=_factory(_GetRaises))
    reads = [e for e in _raised(r) if e.op == "read"]
    assert reads and all(e.value["call"] == "get" for e in reads)
    assert {e.process for e in reads} <= {"user", "client", *(f"w{i}" for i in range(1, 9))}
    assert any(f.letter == "x" and "answers the read" in f.sentence for f in r.findings)


def test_is_a_raising_claim_next_judged_though_it_names_no_task():
    r = simulate(Scenario(pull=True), seed=1, ledger=_factory(_ClaimNextRaises))
    raised = _raised(r)
    assert raised and {(e.op, e.task) for e in raised} == {("claim-next", None)}
    first = first_violation(r.findings)
    assert first.letter == "x" and "'s claim_next at t=" in first.sentence


def test_is_a_first_submit_that_raises_a_ledger_error_judged_and_the_task_not_published():
    r = simulate(Scenario(tasks=3), seed=1, ledger=_factory(_FirstSubmitRaises))
    (raised,) = _raised(r)
    assert (raised.op, raised.task, raised.process) == ("submit", "t0002", "client")
    assert not [e for e in r.history if e.op == "deliver" and e.task == "t0002"]
    first = first_violation(r.findings)
    assert first.letter == "x" and first.sentence.endswith(
        "a correct ledger answers the task's ID."
    )


def test_is_a_ledger_that_raises_judged_the_same_every_time():
    wrong = _factory(WRONG_LEDGERS["heartbeat-raises-when-stale"])
    runs = [simulate(Scenario.adversarial(), seed=3, ledger=wrong) for _ in range(2)]
    assert _raised(runs[0])
    assert history_digest(runs[0].history) == history_digest(runs[1].history)


def test_is_a_bug_of_the_simulators_own_code_not_swallowed(monkeypatch):
    """Only a ledger call's raise is an answer: an exception of the kit's own code (here the
    worker's record of a granted claim) stops the run with its traceback."""

    def broken(self, task, lease, now, **extra):
        raise ZeroDivisionError("a bug in the worker")

    monkeypatch.setattr(Worker, "_granted", broken)
    with pytest.raises(ZeroDivisionError, match="a bug in the worker"):
        simulate(Scenario(), seed=1, ledger=_factory(MemoryLedger))


class _KitSignal(MemoryLedger):
    """A ledger call that raises a class of the kit's own: the grader's word that a student's
    piece returned the wrong type, or an argument check's error about the simulator's call."""

    def save(self, lease, step, **kwargs):
        raise WrongType("ledger.save() returned None, expected bool")


def test_is_a_kit_signal_from_within_a_ledger_call_handed_on_not_recorded():
    with pytest.raises(WrongType, match="expected bool"):
        simulate(Scenario(), seed=1, ledger=_factory(_KitSignal))


def test_is_a_kit_ledger_call_not_recorded_as_a_raise():
    r = simulate(Scenario.adversarial(retries=True), seed=1)
    assert r.ok and not _raised(r)


class _CountsRaises(MemoryLedger):
    def counts(self):
        raise RuntimeError("no counts today")


def test_is_a_raise_from_the_views_read_mid_run_judged_and_the_run_finished():
    """The views are read while tasks run (the last arrival, the faults' end): a ``counts()``
    that raises is the read's answer there, and the run goes on to a verdict."""
    r = simulate(Scenario.adversarial(), seed=1, ledger=_factory(_CountsRaises))
    reads = [e for e in _raised(r) if e.op == "read"]
    assert reads and {e.value["call"] for e in reads} == {"counts"}
    assert {e.process for e in reads} <= {"client", "nemesis"}
    assert any(f.letter == "x" for f in r.findings)


class _ClaimNotWritten(MemoryLedger):
    def claim(self, task_id, worker, ttl):
        raise NotImplementedError("write claim")


def test_is_a_piece_not_written_yet_handed_on_not_recorded():
    """An exercise's stub raises NotImplementedError: the learner's check must hear it (and
    say "not yet"), not read it as the ledger's answer."""
    with pytest.raises(NotImplementedError, match="write claim"):
        simulate(Scenario(), seed=1, ledger=_factory(_ClaimNotWritten))


@pytest.mark.parametrize("name", ["save-raises-when-stale", "heartbeat-raises-when-stale"])
@pytest.mark.parametrize("seed", [1, 2])
def test_is_a_held_call_that_raises_when_it_lands_judged_and_the_run_finished(name, seed):
    # A held call lands from a timer, outside any worker: its raise, recorded as its answer,
    # must not end the run (on every seed of this scenario it once escaped simulate).
    scenario = Scenario.adversarial(max_attempts=2, checkpoints=True, late=True)
    result = simulate(scenario, seed=seed, ledger=_factory(WRONG_LEDGERS[name]))
    assert _raised(result) and any(f.letter == "x" for f in result.findings)


def test_is_a_last_read_that_raises_judged_and_the_run_ended_with_a_verdict():
    """The final listing and the e-mail keys are read through the same guard as every call:
    a raise there is the read's answer (rule (x)), not an exception out of ``simulate`` or
    ``explore``."""
    for name, call in (("listing-raises", "tasks"), ("effects-raise-without-keys", "effects")):
        wrong = _factory(WRONG_LEDGERS[name])
        r = simulate(Scenario.adversarial(), seed=1, ledger=wrong)
        reads = [e for e in _raised(r) if e.op == "read" and e.value["call"] == call]
        assert reads and any(f.letter == "x" for f in r.findings), name
        assert not explore(wrong, max_faults=1).certified


def test_is_a_submit_that_returns_no_id_told_once_and_its_resend_not_taken_for_a_raise():
    """A submit that returns None is broken (rule (v)); the resend of a submit whose reply was
    lost may still raise ``LedgerError``: the task was submitted, whatever the first call
    returned, so the raise is the refusal the contract allows, not a finding of rule (x)."""
    r = simulate(
        Scenario.adversarial(retries=True),
        seed=1,
        ledger=_factory(WRONG_LEDGERS["submit-returns-nothing"]),
    )
    resent = [e for e in r.history if e.op == "submit" and e.value.get("resent")]
    assert resent and all(e.type == "fail" for e in resent)
    letters = {f.letter for f in r.findings}
    assert "v" in letters and "x" not in letters
    assert any("returned None" in f.sentence for f in r.findings if f.letter == "v")
