"""Does ``explore`` search every schedule of a scope breadth first, certify what keeps its
promises and return the shortest counterexample of what does not, the same answer every time?

The wrong ledgers of ``tests/checker/wrong_ledgers.py`` are each caught within the smallest scope
that shows them (``SMALLEST``); the correct ones, written differently from the kit's, are
certified. Exhaustive scopes are kept to 2 tasks x 2 workers x 2 steps here; the bench
(``simlab bench explore``) measures the larger ones.
"""

from __future__ import annotations

import functools
import time

import pytest

from simlab import explore, simulate
from simlab.ledger import MemoryLedger
from simlab.sim.explore import MAX_LENGTH
from simlab.sim.scenario import Scenario
from simlab.sim.schedule import Schedule
from simlab.sim.timeup import Alarm, TimeUp
from tests import lanes
from tests.checker.wrong_ledgers import CORRECT_LEDGERS, WRONG_LEDGERS

#: wrong ledger -> (the fewest faults that break it in the default scope, the rules it breaks
#: there, any one of which names its promise). Ledgers the simulator cannot reach at all are
#: listed in tests/checker/test_mutants.py (OUT_OF_REACH); ``claim-truncates-lease-time`` is in
#: ``TIMING`` below.
SMALLEST: dict[str, tuple[int, set[str]]] = {
    "submit-drops-goal": (0, {"p"}),
    "counts-drop-queued": (0, {"z"}),
    "counts-running-as-queued": (1, {"z"}),
    "queued-listing-takes-running": (1, {"z"}),
    "heartbeat-refused-still-extends": (1, {"y"}),
    "refused-save-still-writes": (2, {"y"}),
    "claim-refuses-everything": (0, {"s"}),
    "effect-refuses-new-keys": (0, {"s"}),
    "listing-drops-tasks": (0, {"p"}),
    "save-drops-result": (0, {"p"}),
    "save-ignores-done": (0, {"p"}),
    "save-done-keeps-lease": (0, {"p"}),
    "claim-uses-wall-clock": (0, {"q"}),
    "claim-lease-has-old-epoch": (0, {"s", "p"}),
    "cancel-keeps-epoch": (1, {"n"}),
    "cancel-leaves-status": (1, {"c", "k"}),
    "cancel-overwrites-terminal": (1, {"n"}),
    "cancel-refused-bumps-epoch": (1, {"p"}),
    "cancel-refuses-running": (1, {"s"}),
    "claim-ignores-live-lease": (1, {"h"}),
    "claim-keeps-epoch": (1, {"a'"}),
    "takeover-keeps-epoch": (1, {"a'"}),
    "claim-resumes-at-step-zero": (1, {"m"}),
    "claim-revives-completed": (1, {"k"}),
    "effect-duplicate-overwrites": (1, {"p"}),
    "effect-once-per-epoch": (1, {"r", "p"}),
    "effect-refused-still-records": (1, {"p"}),
    "heartbeat-extends-from-lease": (0, {"q"}),
    "heartbeat-refused-after-lease-end": (1, {"s"}),
    "save-refused-after-lease-end": (1, {"s"}),
    "requeue-revives-completed": (1, {"o"}),
    "claim-epoch-from-attempts": (2, {"a'"}),
    "effect-ignores-epoch": (2, {"j"}),
    "heartbeat-does-not-extend": (0, {"q"}),
    "heartbeat-ignores-epoch": (2, {"i"}),
    "requeue-resets-epoch": (2, {"o", "a'"}),
    "requeue-bumps-epoch": (2, {"o"}),
    # a cancel after the task's first save, then a requeue that brings it back
    "requeue-restarts-at-step-zero": (2, {"m"}),
    "save-ignores-epoch": (2, {"a"}),
    "claim-buries-without-a-limit": (2, {"s"}),
    "listing-repeats-retried-tasks": (1, {"p"}),
    "requeue-takes-a-running-task": (1, {"o"}),
    "listing-newest-first": (0, {"p"}),
    "status-listing-newest-first": (0, {"p"}),
    "counts-forget-cancelled": (1, {"p"}),
    "get-hides-lease-end": (0, {"q"}),
    "effect-recorded-at-wall": (0, {"p"}),
    "effects-drop-first-key": (0, {"p"}),
    "lease-attempts-from-zero": (0, {"t"}),
    "takeover-keeps-holder": (1, {"p"}),
    "lease-held-names-claimer": (1, {"s"}),
    # a claim of a cancelled task: a cancel, and a crash whose message is delivered again (a
    # completed task's refusal says completed, truly)
    "terminal-says-completed": (2, {"s"}),
    # a raise where the contract answers: a stale lease needs a cancel (or a pause and a
    # takeover), a terminal task's cancel needs the cancel fault
    "save-raises-when-stale": (1, {"x"}),
    "heartbeat-raises-when-stale": (1, {"x"}),
    "cancel-raises-when-terminal": (1, {"x"}),
    # a claim a hair before or after a lease's end: a pause silences its holder, and the prober
    # claims at the edges of that lease (edge-claim)
    "claim-takes-over-early": (2, {"h"}),
    "claim-refused-after-lease-end": (2, {"s"}),
    "submit-returns-nothing": (0, {"v"}),
    "lease-names-another-worker": (0, {"m"}),
    "effects-swap-task-and-key": (0, {"p"}),
    "listing-raises": (0, {"x"}),
    # a key listed under the task's holder now: a takeover after the key's record
    "effects-name-the-holder": (1, {"p"}),
    # a task that recorded no key: a cancel before its last step
    "effects-raise-without-keys": (1, {"x"}),
    # a task running when the views are read: a pause keeps it running past the last submit
    "listing-hides-leases": (1, {"z"}),
}


@functools.cache
def _factory(cls):
    """One factory a class, so that :func:`_shared` knows a search over it again."""
    return lambda clock: cls(clock=clock)


def _memory(clock):
    return MemoryLedger(clock=clock)


def _caught(name: str, fewest: int, rules: set[str], **scope):
    """The search over the wrong ledger ``name`` with at most ``fewest`` faults in ``scope``: a
    counterexample with exactly ``fewest`` faults whose findings break one of ``rules``."""
    x = explore(_factory(WRONG_LEDGERS[name]), max_faults=fewest, **scope)
    assert not x.certified and x.faults == fewest, (name, x.faults)
    assert {f.letter for f in x.result.findings} & rules, x.findings
    return x


#: The faults of the certificates with workers that pull, with checkpoints, retries, releases
#: and late calls (the correct ledgers', and the kit's ledgers' with the model's count of
#: schedules beside them): the fast lane searches one fault deep.
MODE_FAULTS = lanes.sweep("faults a certificate in each mode covers", 2, fast=1)
#: The faults of the searches that show a wrong ledger's mistake needs its mode (retries,
#: releases, late calls): without the mode, the search certifies it. The fast lane searches one
#: fault deep; the mode's own searches (the fewest faults that show the mistake, and one fewer
#: certified) keep their depth.
WITHOUT_MODE_FAULTS = lanes.sweep("faults a search without the mistake's mode covers", 2, fast=1)


@functools.cache
def _shared(ledger=None, **scope):
    """One search per scope for the tests that only read its answer: ``explore`` gives the
    same answer every time (:func:`test_is_the_answer_the_same_every_time` runs it twice)."""
    return explore(ledger, **scope)


#: The wrong ledgers searched for the fewest faults that show them (the fast lane's: every
#: second, in the order of their names).
FEWEST_LEDGERS = lanes.sweep(
    "wrong ledgers caught with the fewest faults", sorted(SMALLEST), fast=sorted(SMALLEST)[::2]
)


@pytest.mark.parametrize("name", FEWEST_LEDGERS)
def test_is_each_wrong_ledger_caught_with_the_fewest_faults_that_show_it(name):
    fewest, rules = SMALLEST[name]
    x = _caught(name, fewest, rules)
    assert x.covered == fewest - 1
    if fewest:  # breadth first: one fault fewer is certified
        assert explore(_factory(WRONG_LEDGERS[name]), max_faults=fewest - 1).certified


#: wrong ledger -> (faults, the seed whose timing shows it, rules): the smallest scope needs
#: other timing than seed 1's. ``claim-truncates-lease-time`` compares whole time units, so it
#: grants a claim only in the last fraction of a unit before a live lease ends. Such a claim
#: needs a holder that stops renewing (a pause longer than the rest of its lease: any of the
#: lengths) and a second copy of the message reaching another worker inside that fraction;
#: when that worker comes free is set by the other task's arrival and step times, which no
#: fault length moves. No schedule of 2 faults over 2 x 2 x 2 on seeds 1 to 5 does it (nor of
#: 1 fault on seeds 1 to 10, nor 2 x 2 x 1 or 1 x 2 x 2 on seeds 1 to 12); seed 6 does, with a
#: duplicate delivery and a pause of 4.5 as its step begins: ``simlab explore --seeds 6``.
#: ``claim-reentrant-for-holder`` grants a worker a second lease while its first is live: it
#: needs its holder to crash with the lease live and a copy of the message to reach that worker
#: again before the lease ends, which seed 1's restart time never allows; seed 2's does.
TIMING: dict[str, tuple[int, int, set[str]]] = {
    "claim-truncates-lease-time": (2, 6, {"h"}),
    "claim-reentrant-for-holder": (2, 2, {"h"}),
}


@pytest.mark.parametrize("name", sorted(TIMING))
def test_is_each_wrong_ledger_caught_with_the_timing_that_shows_it(name):
    fewest, seed, rules = TIMING[name]
    x = _caught(name, fewest, rules, first_seed=seed)
    assert x.scope["seeds"] == [seed]
    assert explore(_factory(WRONG_LEDGERS[name]), max_faults=fewest - 1, first_seed=seed).certified


def test_does_the_counterexample_replay_as_a_saved_schedule():
    x = explore(_factory(WRONG_LEDGERS["save-ignores-epoch"]), max_faults=2)
    s = Schedule.loads(x.result.schedule.to_json())
    again = simulate(s.scenario, seed=s.seed, ledger=_factory(WRONG_LEDGERS["save-ignores-epoch"]),
                     schedule=s)  # fmt: skip
    assert again.violations == x.findings and len(s.faults) == x.faults == 2
    assert any("rule (a)" in sentence for sentence in x.story)


#: wrong ledger -> (the fewest faults, the rules, the limit) in the default scope with a limit
#: on attempts a task: the ledgers whose mistake is about the dead letter. A refused claim
#: counted as an attempt shows in the count the task's record keeps (rule (p)) as soon as one
#: duplicate delivery is refused; its wrongful dead letter (rule (s)) needs a limit of two and a
#: second fault.
LIMITED: dict[str, tuple[int, set[str], int]] = {
    "claim-buries-a-live-lease": (1, {"s"}, 1),
    "claim-buries-a-completed-task": (1, {"s"}, 1),
    "max-attempts-off-by-one": (1, {"t"}, 1),
    "requeue-keeps-attempts": (2, {"s"}, 1),
    "attempts-count-refused-claims": (1, {"p"}, 2),
}


@pytest.mark.parametrize("name", sorted(LIMITED))
def test_is_each_wrong_dead_letter_caught_within_a_limit_on_attempts(name):
    fewest, rules, limit = LIMITED[name]
    x = _caught(name, fewest, rules, max_attempts=limit)
    assert x.scope["max_attempts"] == limit
    assert x.result.schedule.scenario.max_attempts == limit  # the replay keeps the limit
    wrong = _factory(WRONG_LEDGERS[name])
    assert explore(wrong, max_faults=fewest - 1, max_attempts=limit).certified


#: wrong ledger -> (the fewest faults, the rules) in the default scope with an e-mail at every
#: step (``effects="all"``): the mistakes in the order of a task's keys, which one e-mail a task
#: cannot show.
EMAILING: dict[str, tuple[int, set[str]]] = {
    "effects-newest-first": (0, {"p"}),
}


@pytest.mark.parametrize("name", sorted(EMAILING))
def test_is_each_wrong_order_of_keys_caught_with_an_email_at_every_step(name):
    fewest, rules = EMAILING[name]
    x = _caught(name, fewest, rules, effects="all")
    assert x.scope["effects"] == "all"
    assert x.result.schedule.scenario.effects == "all"  # the replay keeps the scope's e-mails
    assert explore(_factory(WRONG_LEDGERS[name]), max_faults=1).certified  # one e-mail a task


#: wrong ledger -> (the fewest faults, the rules) over 3 tasks x 1 worker x 2 steps: the mistakes
#: about a task still queued when a user acts, which 2 workers never leave waiting.
QUEUEING: dict[str, tuple[int, set[str]]] = {
    "cancel-refuses-queued": (1, {"s"}),
    "requeue-says-true-for-queued": (1, {"o"}),
}


@pytest.mark.parametrize("name", sorted(QUEUEING))
def test_is_each_mistake_about_a_queued_task_caught_with_one_worker(name):
    fewest, rules = QUEUEING[name]
    _caught(name, fewest, rules, tasks=3, workers=1)
    assert explore(
        _factory(WRONG_LEDGERS[name]), max_faults=fewest - 1, tasks=3, workers=1
    ).certified
    assert explore(_factory(WRONG_LEDGERS[name]), max_faults=fewest).certified  # 2 workers


#: wrong ledger -> (the fewest faults, the rules) in the default scope with workers that pull
#: (``pull=True``: each takes the oldest claimable task with ``claim_next``, and the client
#: submits a health probe first): the mistakes of ``claim_next``, which workers that claim the
#: task they were delivered never call. Newest first needs two tasks claimable at once, and a
#: skipped takeover a lease that ended: one duplicate delivery, or one pause, gives each.
PULLED: dict[str, tuple[int, set[str]]] = {
    "claim-next-hands-out-probes": (0, {"u"}),
    "submit-drops-tenant": (0, {"p", "u"}),
    "claim-next-newest-first": (1, {"u"}),
    "claim-next-skips-expired": (1, {"u"}),
}


@pytest.mark.parametrize("name", sorted(PULLED))
def test_is_each_wrong_claim_next_caught_with_workers_that_pull(name):
    fewest, rules = PULLED[name]
    x = _caught(name, fewest, rules, pull=True)
    assert x.scope["pull"] is True
    assert x.result.schedule.scenario.pull  # the replay pulls too
    if fewest:
        assert explore(_factory(WRONG_LEDGERS[name]), max_faults=fewest - 1, pull=True).certified
    assert explore(_factory(WRONG_LEDGERS[name]), max_faults=fewest).certified  # never called


@pytest.mark.parametrize("name", sorted(CORRECT_LEDGERS))
def test_is_a_correct_ledger_certified_with_workers_that_pull(name):
    x = explore(_factory(CORRECT_LEDGERS[name]), max_faults=MODE_FAULTS, pull=True)
    assert x.certified and x.covered == MODE_FAULTS and x.scope["pull"] is True
    assert "pull" not in explore(_factory(CORRECT_LEDGERS[name]), max_faults=0).scope


@pytest.mark.parametrize("mode", ["pull", "checkpoints"])
def test_are_the_kits_ledgers_certified_with_workers_that_pull_and_with_checkpoints(mode):
    sqlite = explore(max_faults=MODE_FAULTS, **{mode: True})  # the default: the kit's SQLite one
    assert sqlite.certified
    assert sqlite.schedules == explore(_memory, max_faults=MODE_FAULTS, **{mode: True}).schedules


#: wrong ledger -> (the fewest faults, the rules) in the default scope with checkpoints
#: (``checkpoints=True``: every save carries one, the completing save None, and every claim
#: shows the one its lease hands back): the mistakes about checkpoints, which opaque saves
#: without one never show. A checkpoint dropped or written by a refused save shows once a
#: second lease takes the task over (one fault); a completing save's None kept as the old
#: checkpoint shows in every completed task, and so does a save that completes a task because
#: it passed a partial result (the saves before the last pass one in this mode).
CHECKPOINTED: dict[str, tuple[int, set[str]]] = {
    "claim-drops-checkpoint": (1, {"m"}),
    "save-refused-writes-checkpoint": (1, {"m", "p"}),
    "save-none-keeps-checkpoint": (0, {"p"}),
    "save-completes-on-result": (0, {"e", "p"}),
}


@pytest.mark.parametrize("name", sorted(CHECKPOINTED))
def test_is_each_wrong_checkpoint_caught_when_saves_carry_checkpoints(name):
    fewest, rules = CHECKPOINTED[name]
    wrong = _factory(WRONG_LEDGERS[name])
    x = _caught(name, fewest, rules, checkpoints=True)
    assert x.scope["checkpoints"] is True
    assert x.result.schedule.scenario.checkpoints  # the replay saves checkpoints too
    if fewest:
        assert explore(wrong, max_faults=fewest - 1, checkpoints=True).certified
    assert explore(wrong, max_faults=fewest).certified  # no checkpoint, nothing to see


@pytest.mark.parametrize("name", sorted(CORRECT_LEDGERS))
def test_is_a_correct_ledger_certified_when_saves_carry_checkpoints(name):
    x = explore(_factory(CORRECT_LEDGERS[name]), max_faults=MODE_FAULTS, checkpoints=True)
    assert x.certified and x.covered == MODE_FAULTS and x.scope["checkpoints"] is True


#: wrong ledger -> (the fewest faults, the rules) in the default scope with retries
#: (``retries=True``: a lost reply at every submit, heartbeat, e-mail record, save, release and
#: cancel, and the caller's resend) or with workers that release (``releases=True``): the
#: mistakes that a call made twice, or a release, shows. A resent submit or save shows with its
#: one lost reply; a heartbeat resent after the completing save needs a last step long enough
#: to heartbeat in (a slow step, or a pause); a stale release needs a pause long enough for a
#: takeover and the release of a worker that woke from it.
RETRIED: dict[str, tuple[int, set[str]]] = {
    "submit-duplicate-overwrites": (1, {"v"}),
    "submit-duplicate-raises-after-write": (1, {"v"}),
    "save-allows-same-step": (1, {"b"}),
    "heartbeat-ignores-status": (2, {"l"}),
    "submit-duplicate-valueerror": (1, {"x"}),
    # a user's cancel whose reply is lost, resent to a task that is cancelled already
    "cancel-again-says-true": (2, {"n"}),
    # an e-mail record whose reply is lost, resent with the same lease
    "effect-again-says-true": (1, {"j"}),
}
RELEASING: dict[str, tuple[int, set[str]]] = {
    "release-ignores-epoch": (2, {"w"}),
    "release-keeps-lease-until": (1, {"y"}),
}
_MODE_OF = {**dict.fromkeys(RETRIED, "retries"), **dict.fromkeys(RELEASING, "releases")}


@pytest.mark.parametrize("name", sorted(_MODE_OF))
def test_is_each_call_made_twice_or_release_caught_in_its_mode(name):
    mode = _MODE_OF[name]
    fewest, rules = {**RETRIED, **RELEASING}[name]
    wrong = _factory(WRONG_LEDGERS[name])
    x = _caught(name, fewest, rules, **{mode: True})
    assert x.scope[mode] is True
    assert getattr(x.result.schedule.scenario, mode)  # the replay runs in the mode too
    assert explore(wrong, max_faults=fewest - 1, **{mode: True}).certified
    # no resend, no release: nothing shows
    assert _shared(wrong, max_faults=min(fewest, WITHOUT_MODE_FAULTS)).certified


@pytest.mark.parametrize("name", sorted(CORRECT_LEDGERS))
@pytest.mark.parametrize("mode", ["retries", "releases"])
def test_is_a_correct_ledger_certified_with_retries_and_with_releases(name, mode):
    x = explore(_factory(CORRECT_LEDGERS[name]), max_faults=MODE_FAULTS, **{mode: True})
    assert x.certified and x.covered == MODE_FAULTS and x.scope[mode] is True
    assert mode not in explore(_factory(CORRECT_LEDGERS[name]), max_faults=0).scope


@pytest.mark.parametrize("mode", ["retries", "releases"])
def test_are_the_kits_ledgers_certified_with_retries_and_with_releases(mode):
    sqlite = explore(max_faults=MODE_FAULTS, **{mode: True})  # the default: the kit's SQLite one
    assert sqlite.certified
    assert sqlite.schedules == explore(_memory, max_faults=MODE_FAULTS, **{mode: True}).schedules


#: wrong ledger -> (the fewest faults, the rules) in the default scope with late calls
#: (``late=True``: the network may hold every e-mail record, heartbeat and save; the worker
#: gives the task back after its timeout, and the call lands a timeout later): a save, a
#: heartbeat or an e-mail record accepted on a task that is no longer running shows with one
#: held call. A heartbeat that checks the worker's name instead of the epoch needs its stale
#: heartbeat to land after the same worker claimed the task again: a held heartbeat, and two
#: more faults that bring the task back to that worker while the call is held.
LATE: dict[str, tuple[int, set[str]]] = {
    "save-ignores-status": (1, {"l"}),
    "effect-ignores-status": (1, {"l"}),
    "heartbeat-ignores-status": (1, {"l"}),
    "heartbeat-checks-holder": (3, {"i"}),
}


#: wrong ledger -> (the fewest faults, the rules) in the default scope with late calls and
#: retries: a release resent after its answer was lost needs a worker that gives the task back
#: (a held call) and the lost reply of that release.
LATE_RETRIED: dict[str, tuple[int, set[str]]] = {
    "release-again-says-true": (2, {"w"}),
}


@pytest.mark.parametrize("name", sorted(LATE_RETRIED))
def test_is_each_resent_release_judged_with_late_calls_and_retries(name):
    fewest, rules = LATE_RETRIED[name]
    wrong = _factory(WRONG_LEDGERS[name])
    _caught(name, fewest, rules, late=True, retries=True)
    assert explore(wrong, max_faults=fewest - 1, late=True, retries=True).certified
    # nothing is resent: nothing shows
    assert explore(wrong, max_faults=min(fewest, WITHOUT_MODE_FAULTS), late=True).certified


#: The wrong ledgers caught with late calls (the fast lane's: those one held call shows; the
#: one that needs three faults is the costliest search here).
LATE_LEDGERS = lanes.sweep(
    "wrong ledgers caught with late calls",
    sorted(LATE),
    fast=[name for name in sorted(LATE) if LATE[name][0] == 1],
)


@pytest.mark.parametrize("name", LATE_LEDGERS)
def test_is_each_call_landing_on_a_task_no_longer_running_caught_with_late_calls(name):
    fewest, rules = LATE[name]
    wrong = _factory(WRONG_LEDGERS[name])
    x = _caught(name, fewest, rules, late=True)
    assert x.scope["late"] is True
    assert x.result.schedule.scenario.late  # the replay holds the call too
    assert explore(wrong, max_faults=fewest - 1, late=True).certified
    # no call lands late: nothing shows
    assert _shared(wrong, max_faults=WITHOUT_MODE_FAULTS).certified


@pytest.mark.parametrize("name", sorted(CORRECT_LEDGERS))
def test_is_a_correct_ledger_certified_with_late_calls(name):
    x = explore(_factory(CORRECT_LEDGERS[name]), max_faults=MODE_FAULTS, late=True)
    assert x.certified and x.covered == MODE_FAULTS and x.scope["late"] is True


def test_are_the_kits_ledgers_certified_with_late_calls():
    sqlite = explore(max_faults=MODE_FAULTS, late=True)  # the default: the kit's SQLite ledger
    assert sqlite.certified
    assert sqlite.schedules == explore(_memory, max_faults=MODE_FAULTS, late=True).schedules


#: wrong ledger -> (the fewest faults, the rules, the ttl the workers ask for): a ledger that
#: grants leases of its own length whatever the ttl asked shows only under another ttl than its
#: own (the default scope's is the simulator's default, which it happens to use).
LEASED: dict[str, tuple[int, set[str], float]] = {
    "lease-of-its-own-length": (0, {"q"}, 5.0),
}


@pytest.mark.parametrize("name", sorted(LEASED))
def test_is_a_ledger_that_ignores_the_ttl_caught_under_another(name):
    fewest, rules, ttl = LEASED[name]
    x = _caught(name, fewest, rules, ttl=ttl)
    assert x.scope["ttl"] == ttl
    own = explore(_factory(WRONG_LEDGERS[name]), max_faults=1)
    # Certified at its own ttl, and the certificate says which ttl it covers.
    assert own.certified and own.scope["ttl"] == Scenario().ttl != ttl


def test_is_every_wrong_ledger_the_simulator_reaches_caught_by_explore_in_some_scope():
    from tests.checker.test_mutants import CAUGHT_BY

    assert set(CAUGHT_BY) == {
        *SMALLEST,
        *TIMING,
        *LIMITED,
        *EMAILING,
        *QUEUEING,
        *PULLED,
        *CHECKPOINTED,
        *RETRIED,
        *RELEASING,
        *LATE,
        *LATE_RETRIED,
        *LEASED,
    }


@pytest.mark.parametrize("name", sorted(CORRECT_LEDGERS))
def test_is_a_correct_ledger_certified_with_an_email_at_every_step(name):
    x = explore(_factory(CORRECT_LEDGERS[name]), max_faults=1, effects="all")
    assert x.certified and x.covered == 1 and x.scope["effects"] == "all"
    assert "effects" not in explore(_factory(CORRECT_LEDGERS[name]), max_faults=0).scope


#: The correct ledgers certified within a limit on attempts (the fast lane's: the first).
LIMITED_LEDGERS = lanes.sweep(
    "correct ledgers certified within a limit on attempts",
    sorted(CORRECT_LEDGERS),
    fast=sorted(CORRECT_LEDGERS)[:1],
)


@pytest.mark.parametrize("name", LIMITED_LEDGERS)
def test_is_a_correct_ledger_certified_within_a_limit_on_attempts(name):
    x = explore(_factory(CORRECT_LEDGERS[name]), max_faults=2, max_attempts=1)
    assert x.certified and x.covered == 2
    assert x.schedules != _shared(_factory(CORRECT_LEDGERS[name]), max_faults=2).schedules


#: The correct ledgers certified over two faults in the default scope (the fast lane's: the first,
#: whose search the limit on attempts compares with; every one of them is certified one fault
#: deep in each mode, and passes the adversarial seeds in tests/checker/test_mutants.py).
CERTIFIED_LEDGERS = lanes.sweep(
    "correct ledgers certified over two faults",
    sorted(CORRECT_LEDGERS),
    fast=sorted(CORRECT_LEDGERS)[:1],
)


@pytest.mark.parametrize("name", CERTIFIED_LEDGERS)
def test_is_a_correct_ledger_written_differently_certified(name):
    x = _shared(_factory(CORRECT_LEDGERS[name]), max_faults=2)
    assert x.certified and x.faults is None and x.stopped is None
    assert x.covered == 2 and x.schedules > 1000 and 0 < x.states <= x.schedules


def test_are_the_kits_ledgers_certified_and_the_broken_variants_not():
    assert _shared(_memory, max_faults=2).certified
    sqlite = _shared(max_faults=1)  # the default: the kit's SQLite ledger in memory
    assert sqlite.certified and sqlite.schedules == explore(_memory, max_faults=1).schedules
    racy = explore(variant="racy-claim", max_faults=2)
    assert (racy.certified, racy.faults) == (False, 1)  # one duplicate delivery
    unfenced = _shared(variant="unfenced", max_faults=2)
    assert (unfenced.certified, unfenced.faults) == (False, 2)
    assert any("rule (a)" in sentence for sentence in unfenced.story)


def test_is_the_answer_the_same_every_time():
    first = _shared(variant="unfenced", max_faults=2).to_dict()
    again = explore(variant="unfenced", max_faults=2).to_dict()
    first.pop("seconds"), again.pop("seconds")
    assert first == again


def _answer(x) -> dict:
    data = x.to_dict()
    data.pop("seconds")
    return data


def test_is_the_answer_the_same_with_two_processes():
    # a certificate, and a counterexample found past the first chunk of its level
    for kwargs in (dict(max_faults=1), dict(variant="unfenced", max_faults=2)):
        one, two = _shared(**kwargs), explore(jobs=2, **kwargs)
        assert _answer(one) == _answer(two), kwargs
    assert one.schedules > 100 and (one.certified, one.faults) == (False, 2)


def test_is_the_kits_ledger_kept_between_runs_the_same_as_a_new_one_each_run():
    from simlab.ledger import Ledger

    kept = _shared(max_faults=1)  # the default: one ledger, cleared before each run
    fresh = explore(lambda clock: Ledger(":memory:", clock=clock), max_faults=1)
    assert _answer(kept) == _answer(fresh) and kept.certified
    broken = explore(_factory(WRONG_LEDGERS["claim-keeps-epoch"]), max_faults=1)
    assert broken.faults == 1  # a ledger given is made anew: no clear() is needed


def test_does_a_search_leave_no_garbage_for_the_cycle_collector():
    """A search runs thousands of short runs: each must be taken apart once judged, or every
    one would wait for the cycle collector, which walks all that is alive each time it runs."""
    import gc

    was = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        for kwargs in (dict(max_faults=1), dict(max_faults=1, pull=True, retries=True)):
            found = explore(_memory, **kwargs)
            assert found.certified and found.schedules > 10, kwargs
            del found
            assert gc.collect() == 0, kwargs
    finally:
        if was:
            gc.enable()


#: The faults of the search without deduplication (the fast lane's: one).
NO_DEDUP_FAULTS = lanes.sweep("faults a search without deduplication covers", 2, fast=1)


def test_does_no_dedup_search_more_schedules_to_the_same_verdict():
    deduped = _shared(_memory, max_faults=NO_DEDUP_FAULTS)
    every = explore(_memory, max_faults=NO_DEDUP_FAULTS, dedup=False)
    assert every.certified and deduped.certified
    assert every.schedules >= deduped.schedules
    assert every.scope["dedup"] is False


def test_does_a_stopped_search_never_certify():
    ticks = iter(range(10**6))
    x = explore(_memory, max_faults=2, time_limit=5, clock=lambda: float(next(ticks)))
    assert (x.certified, x.stopped) == (False, "time-limit")
    assert 0 < x.schedules < 10

    def interrupt(level, done, total):
        if level == 1 and done == 3:
            raise KeyboardInterrupt

    x = explore(_memory, max_faults=2, progress=interrupt)
    assert (x.certified, x.stopped, x.covered) == (False, "interrupted", 0)


class _SleepsOnASecondClaim(MemoryLedger):
    """A claim of a task claimed before never returns (it sleeps, a C call a signal
    interrupts)."""

    def claim(self, task_id, worker, ttl):
        if self.get(task_id).attempts >= 1:
            time.sleep(3600)
        return super().claim(task_id, worker, ttl)


def test_does_an_alarm_stop_a_search_inside_a_call_and_name_the_run_it_cut():
    # The clock the search is given never moves: only the alarm, the real timer a caller
    # passes in, can stop it; it names the call and the run, whose schedule replays the hang.
    def sleeper(clock):
        return _SleepsOnASecondClaim(clock=clock)

    x = explore(sleeper, max_faults=1, time_limit=1, clock=lambda: 0.0, alarm=Alarm(0.5))
    assert (x.certified, x.stopped, x.covered) == (False, "time-limit", 0)
    cut = x.in_progress
    assert (cut["call"], cut["seed"], len(cut["faults"])) == ("claim", 1, 1)
    assert x.to_dict()["in_progress"] == cut
    with pytest.raises(TimeUp) as up:
        simulate(x.stopped_schedule.scenario, seed=1, ledger=sleeper,
                 schedule=x.stopped_schedule, alarm=Alarm(0.5))  # fmt: skip
    assert up.value.call == {k: cut[k] for k in ("process", "call", "task", "time")}


def test_does_a_scope_that_makes_no_sense_raise():
    bad_scopes = (dict(tasks=0), dict(max_faults=-1), dict(steps=True), dict(lengths=()))
    # a pause past MAX_LENGTH ttls (its horizon would be no finite time)
    bad_scopes += (dict(lengths=(1e308,)), dict(lengths=(0.5, MAX_LENGTH * 2)))
    for bad in (*bad_scopes, dict(jobs=0), dict(max_attempts=0), dict(max_attempts=True)):
        with pytest.raises(ValueError):
            explore(_memory, **bad)


def test_does_every_fault_kind_of_the_scope_get_explored():
    # the fault kinds a single-fault search strikes, over a scenario that sends e-mails
    from simlab.sim.explore import _run_schedule, scope_scenario
    from simlab.sim.simulation import _default_ledger

    scenario = scope_scenario(2, 2, 2, "racy-claim", horizon=30.0)
    racy = _default_ledger("racy-claim")
    out = _run_schedule(scenario, 1, racy, (), (float("-inf"), 0), (1.5,))
    kinds = {f["kind"] for _, f in out.candidates}
    assert kinds >= {
        "crash", "slow", "pause", "work-pause", "effect-pause", "send-pause", "effect-crash",
        "record-crash", "claim-pause", "duplicate", "cancel", "requeue",
    }  # fmt: skip
    assert out.ok and out.signature == ()


def test_does_a_timing_streams_position_tell_its_state_as_the_state_does():
    """Explore's state tells a timing stream by its position, ``(words, gauss_next)``: after
    draws of every kind it must be where a plain ``random.Random`` from the same seed is after
    the same draws (same values), and that many words into its generator."""
    import random

    from simlab.sim.streams import TIMING_STREAMS, _Streams

    draws = [
        lambda r: r.expovariate(0.5),
        lambda r: r.random(),
        lambda r: r.randrange(7),
        lambda r: r.getrandbits(0),
        lambda r: r.getrandbits(1),
        lambda r: r.getrandbits(32),
        lambda r: r.getrandbits(33),
        lambda r: r.getrandbits(100),
        lambda r: r.gauss(0.0, 1.0),
        lambda r: r.choice("abcde"),
        lambda r: r.uniform(1.0, 2.0),
        lambda r: r.shuffle(list(range(40))),
    ]
    for name in TIMING_STREAMS:
        streams = _Streams(4)
        assert streams.position(name) == (0, None) and name not in streams  # not made to tell
        stream = streams[name]
        plain = random.Random(f"simlab:4:{name}")
        for draw in draws * 2:
            assert draw(stream) == draw(plain), name
            words, gauss_next = streams.position(name)
            assert gauss_next == plain.gauss_next
            # a plain stream from the seed, ``words`` words on, is in the very same state
            walked = random.Random(f"simlab:4:{name}")
            for _ in range(words):
                walked.getrandbits(32)
            assert walked.getstate()[1] == plain.getstate()[1], (name, words)


def test_does_a_counterexample_over_your_ledger_say_so_and_replay_it_from_python():
    """Over the caller's own ledger the story names no variant of the kit's, and the replay is
    the Python call that reproduces the run, never a command that would run the kit's ledger."""
    factory = _factory(WRONG_LEDGERS["claim-ignores-live-lease"])
    x = explore(factory, max_faults=1)
    r = x.result
    assert not x.certified and r.own_ledger
    assert x.story[0].startswith("Your ledger, seed 1:")
    from simlab.sim.story import tell

    assert tell(r, lang="zh")[0].startswith("你的账本，种子 1：")
    assert "simlab simulate" not in r.replay and "schedule.json" not in r.replay
    assert r.replay.startswith("simlab.simulate(r.scenario, seed=r.seed, schedule=r.schedule, ")
    again = simulate(r.scenario, seed=r.seed, schedule=r.schedule, ledger=factory)
    assert again.history.to_jsonl() == r.history.to_jsonl() and again.violations == r.violations
    ran = simulate(r.scenario, seed=r.seed, ledger=factory)
    assert ran.own_ledger and ran.replay == r.replay
    assert "own ledger, seed 1" in ran.summary().splitlines()[0]


def test_does_the_kits_ledger_given_as_a_factory_keep_its_variant_and_command():
    from simlab.ledger import Ledger, RacyClaimLedger

    x = explore(lambda clock: RacyClaimLedger(":memory:", clock=clock), variant="racy-claim")
    assert not x.result.own_ledger and x.story[0].startswith("Variant racy-claim, seed 1:")
    kit = simulate(seed=3, ledger=lambda clock: Ledger(":memory:", clock=clock))
    assert not kit.own_ledger and kit.replay == "simlab simulate --seed 3"
