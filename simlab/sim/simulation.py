"""Run a scenario: :func:`simulate` wires arrivals, broker, workers, faults and a real ledger.

The data path of one task: the *client* submits it to the ledger and publishes its ID to the
:class:`~simlab.sim.broker.Broker`; a :class:`~simlab.sim.worker.Worker` receives the ID, claims a
lease and commits each step; a *user* may cancel it, and may requeue it (a requeued task is
published again); the *nemesis* (the fault schedule) crashes,
pauses and slows workers and duplicates deliveries until the fault horizon, where a ``faults-off``
event is recorded. The run goes on until every message is acknowledged (so every task is terminal)
or until the scenario's time cap, and then the checker judges the history. A ledger call that
raises what the contract does not allow is recorded as its answer (:mod:`simlab.sim.answers`).

Determinism: time comes only from SimPy's ``env.now`` (it is the ledger's clock), each random
source is its own ``random.Random`` seeded from ``(seed, name)``, task IDs are ``t0001``,
``t0002``..., and nothing iterates over a set or a hash. The same scenario and seed give the same
history, byte for byte (see :func:`simlab.checker.history.history_digest`).

``Scenario(workload="agent")`` makes each task the deterministic agent of :mod:`simlab.agent`
(retrieve, draft, send an e-mail through checkpoints and the resume guard) and lets an editor
change documents under running and paused tasks: see :mod:`simlab.sim.agent_worker`.
"""

from __future__ import annotations

import contextlib
import functools
import math
from collections.abc import Callable
from typing import Any

import simpy

from simlab.checker.history import History
from simlab.checker.model import NO_LIMIT
from simlab.checker.outcomes import Views
from simlab.errors import LedgerError
from simlab.ledger.protocol import TaskLedger
from simlab.records import (
    CANCELLED,
    COMPLETED,
    DEAD,
    PROBE_TENANT,
    TaskRecord,
)
from simlab.sim.answers import Answering, Unanswered, read_after, returned, supervised
from simlab.sim.broker import Broker
from simlab.sim.collector import collector_paused
from simlab.sim.fast_paths import fast_path, heartbeat_reader
from simlab.sim.faults import DUPLICATE, KINDS, kinds_at
from simlab.sim.mailbox import Mailbox
from simlab.sim.nemesis import Nemesis, RandomNemesis, ScheduledNemesis
from simlab.sim.prober import Prober
from simlab.sim.reads import final_reads, id_lister, read_views
from simlab.sim.result import Result, replay_command
from simlab.sim.scenario import Scenario
from simlab.sim.schedule import (
    Schedule,
    describe_fault,
    fault_key,
    ledger_name,
    own_ledger,
    task_ids,
)
from simlab.sim.sending import Sender
from simlab.sim.streams import _Streams
from simlab.sim.timeup import Alarm
from simlab.sim.variants import RacyClaim, wrap
from simlab.sim.worker import Worker

__all__ = ["simulate", "Result", "replay_command"]

LedgerFactory = Callable[[Callable[[], float]], TaskLedger]

#: The ID of the health probe a pull-mode run submits first (tenant ``__health__``).
PROBE_TASK = "probe"


def goal_of(task: str) -> dict[str, str]:
    """The goal the client submits ``task`` with (the plain workload): the ledger stores it and
    the final listing must hand it back as it went in, each task its own."""
    return {"task": task}


def played(
    store: Any, make: Callable[[], _Run], close: bool = True
) -> tuple[_Run, list[TaskRecord] | None, dict | None, Views | None]:
    """Build a run with ``make()`` over ``store``, run it to its end, and read the ledger's
    final records, recorded e-mail keys and views (:func:`~simlab.sim.reads.final_reads`: each
    None where its read raised, that raise recorded as the read's answer); the ledger is closed
    however that ends (unless ``close`` is False: its owner closes it)."""
    try:
        run = make()
        run.run()
        return run, *final_reads(store, run.ledger)
    finally:
        closing = getattr(store, "close", None) if close else None
        if closing is not None:
            closing()


def ledger_for(factory: LedgerFactory, clock: Callable[[], float], scenario: Scenario) -> Any:
    """``factory(clock)``, with the scenario's ``max_attempts`` set on the ledger it made (a
    factory takes only a clock; the kit's ledgers and any ledger with a ``max_attempts``
    attribute take the limit that way). A ledger without one cannot run a scenario with a
    limit: ``ValueError``."""
    store = factory(clock)
    if scenario.max_attempts is not None:
        target = getattr(store, "raw", store)  # a variant wraps the kit's ledger
        if not hasattr(target, "max_attempts"):
            close = getattr(store, "close", None)
            if close is not None:
                close()
            raise ValueError(
                f"max_attempts={scenario.max_attempts}: this ledger ({type(store).__name__}) "
                "has no max_attempts attribute to set"
            )
        target.max_attempts = scenario.max_attempts
    return store


def clock_of(env: simpy.Environment) -> Callable[[], float]:
    """``env.now`` as a function: the ledger's clock. A ledger reads it on every call, so for
    SimPy's own ``now`` it reads the attribute that property returns (``env._now``, as the
    simulator's hottest paths do) without calling the property; another ``now`` is called."""
    now = getattr(type(env), "now", None)
    if now is simpy.Environment.now:
        return functools.partial(getattr, env, "_now")
    if isinstance(now, property) and now.fget is not None:
        return functools.partial(now.fget, env)
    return lambda: env.now


def _default_ledger(variant: str) -> LedgerFactory:
    if variant == "fenced":
        from simlab.ledger import Ledger

        return lambda clock: Ledger(":memory:", clock=clock)
    from simlab.ledger import RacyClaimLedger

    return lambda clock: RacyClaimLedger(":memory:", clock=clock)


class _Run:
    """The shared state of one simulation: everything a worker or the client touches."""

    def __init__(
        self,
        env: simpy.Environment,
        scenario: Scenario,
        seed: int,
        ledger: TaskLedger,
        schedule: Schedule | None = None,
        sender: Sender | None = None,
        nemesis: Callable[[_Run, Schedule], Nemesis] | None = None,
    ):
        self.scenario = scenario
        self.seed = seed
        self.env = env
        self.history = History()
        self.rng = _Streams(seed)
        self.horizon = scenario.horizon
        variant = wrap(scenario.variant, ledger, round_trip=scenario.round_trip)
        #: what workers, client and user call: the variant, whose raises the contract does not
        #: allow are recorded as answers (see simlab.sim.answers)
        self.ledger = Answering(variant, self.history, env)
        #: a worker's heartbeat and the read-back of the lease end it gave (see fast_paths):
        #: the kit's fast path stands for one heartbeat, else the guarded heartbeat and get
        fast = fast_path(variant, "heartbeat_until", "heartbeat", "get")
        self.heartbeat = heartbeat_reader(self.ledger if fast is None else variant)
        if fast is not None:
            self.heartbeat = self.ledger.guarded("heartbeat", self.heartbeat)
        #: how the views read mid-run list a status's task IDs (see reads.read_views)
        self.listed_ids = id_lister(variant, self.ledger)
        self.two_statement_claim = isinstance(variant, RacyClaim)
        #: workers take claim_next instead of claiming the delivered task (``Scenario.pull``)
        self.pull = scenario.pull
        #: callers resend a call whose reply was lost (``Scenario.retries``)
        self.retries = scenario.retries
        if schedule is None:
            self.nemesis: Nemesis = RandomNemesis(self)
        else:
            self.nemesis = (nemesis or ScheduledNemesis)(self, schedule)
        #: workers, broker and client ask the nemesis before this time: the horizon, or never
        #: when it has no fault to give (the history still records ``faults-off`` at the horizon)
        self.faults_until = -math.inf if self.nemesis.idle else self.horizon
        #: who claims a silent lease's task at its edges (fault ``edge-claim``)
        self.prober = Prober(self)
        duplicate = None if self.nemesis.idle else self.nemesis.duplicate
        self.broker = Broker(
            env,
            visibility_timeout=scenario.redelivery_after,
            duplicate_rate=scenario.duplicate_rate,
            # The broker draws only when it decides duplicates itself at a rate: otherwise the
            # stream is not made (a stream's draws do not depend on when it is made).
            rng=self.rng[DUPLICATE.stream]
            if duplicate is None and scenario.duplicate_rate
            else None,
            faults_on=lambda: env.now < self.faults_until,
            duplicate=duplicate,
        )
        self.mailbox = Mailbox()
        #: who sends a step's e-mail: None (the worker itself) or send(lease, step) -> moves
        self.send = None if sender is None else sender(self.ledger, lambda: env.now)
        self.crashes = 0
        #: the agent workload's shared world and retriever (None for opaque tasks)
        self.agent = None
        self.worker_class = Worker
        if scenario.workload == "agent":
            from simlab.sim.agent_worker import AgentWorker, AgentWorkload

            self.agent = AgentWorkload()
            self.worker_class = AgentWorker
        self.task_ids = task_ids(scenario.tasks)
        #: per step (0-based), whether it sends an e-mail (``scenario.sends_email``)
        self.emails = tuple(scenario.sends_email(k) for k in range(scenario.steps))

    # -- the client: Poisson arrivals, and sometimes a user who cancels or requeues ------------
    def arrivals(self):
        # env._now: what env.now returns, without the property's call (see simlab.sim.worker)
        env, sc, rec = self.env, self.scenario, self.history.record
        arrival, nemesis = self.rng["arrival"], self.nemesis
        rate, steps = sc.arrival_rate, sc.steps
        agent = self.agent
        if sc.pull:  # a health probe, submitted first: claim_next must never hand it out
            with contextlib.suppress(Unanswered):  # the submit's raise is its answer
                told = returned(self.ledger.submit(PROBE_TASK, tenant=PROBE_TENANT), PROBE_TASK)
                rec(env._now, "ok", "client", "submit", PROBE_TASK, steps=steps,
                    tenant=PROBE_TENANT, **told)  # fmt: skip
        last = len(self.task_ids) - 1
        for i, task in enumerate(self.task_ids):
            yield env.timeout(arrival.expovariate(rate))
            try:
                if agent is None:
                    # the history keeps its own copy: a ledger that changed the dict it was
                    # given must not change what it is judged against
                    extra = {"goal": goal_of(task)}
                    extra.update(returned(self.ledger.submit(task, goal=goal_of(task)), task))
                else:
                    extra = agent.submit(self.ledger, task, i)
            except Unanswered:
                continue  # the entry point answers with an error: the task is not published
            # the last arrival reads the views too, while the tasks before it run
            views = read_views(self.ledger, self.listed_ids) if i == last else {}
            if (
                agent is None
                and self.retries
                and env._now < self.faults_until
                and nemesis.lost("submit", task)
            ):
                rec(env._now, "ok", "client", "submit", task, steps=steps, lost=True, **extra,
                    **views)  # fmt: skip
                self._resend(lambda task=task: self.resubmit(task))
            else:
                rec(env._now, "ok", "client", "submit", task, steps=steps, **extra, **views)
            self.broker.publish(task)
            if env._now < self.faults_until:
                for kind in kinds_at("arrival"):
                    self._later(nemesis.first(kind, task), kind.name, task)

    def _resend(self, call: Callable[[], object]) -> None:
        """Make ``call`` (the resend of a call whose reply was lost) after the caller's
        timeout (``Scenario.reply_timeout``). A resend whose ledger call raised what the
        contract does not allow is given up (the raise is its recorded answer)."""

        def resend(_ev) -> None:
            with contextlib.suppress(Unanswered):
                call()

        self.env.timeout(self.scenario.reply_timeout).callbacks.append(resend)

    def resubmit(self, task: str) -> None:
        """A user resends the submit of ``task`` whose reply was lost: a correct ledger raises
        :class:`~simlab.errors.LedgerError` and leaves the task as it was, and the entry point,
        which took the first submit for done (the task is published), reads the task back to
        answer; the refusal records what it read (its ``epoch``, ``step`` and ``status``)."""
        env, rec, ledger = self.env, self.history.record, self.ledger
        steps = self.scenario.steps
        try:
            answer = ledger.submit(task, goal=goal_of(task))
        except LedgerError:
            r = ledger.get(task)
            rec(env._now, "fail", "client", "submit", task, r.epoch, r.step, steps=steps,
                reason="exists", status=r.status, resent=True)  # fmt: skip
            return
        told = returned(answer, task)
        rec(env._now, "ok", "client", "submit", task, steps=steps, resent=True, **told)

    def recancel(self, task: str) -> None:
        """A user resends the cancel of ``task`` whose reply was lost: a correct ledger refuses
        it (False) while the task is still cancelled, and accepts it only where the task was
        brought back (requeued) in between; the user, who took the first cancel for done, reads
        a refusal as its success when the task shows cancelled."""
        env, rec, ledger = self.env, self.history.record, self.ledger
        rec(env._now, "invoke", "user", "cancel", task)
        if ledger.cancel(task):
            read_after(ledger, task, lambda r: rec(env._now, "ok", "user", "cancel", task,
                                                   r and r.epoch, resent=True))  # fmt: skip
        else:
            read_after(ledger, task, lambda r: rec(env._now, "fail", "user", "cancel", task,
                                                   reason=r and r.status, resent=True))  # fmt: skip

    def _later(self, delay: float | None, action: str, task: str) -> None:
        if delay is not None:
            self.env.timeout(delay).callbacks.append(lambda _ev: self.user(action, task))

    def user(self, action: str, task: str) -> bool:
        """A user cancels or requeues ``task`` now (``action``: ``"cancel"`` or ``"requeue"``;
        only before the fault horizon); True if the ledger accepted it. A requeued task is
        published again."""
        env = self.env
        if env.now >= self.horizon:
            return False
        self._later(self.nemesis.fired(KINDS[action], task), action, task)
        rec, ledger = self.history.record, self.ledger
        rec(env.now, "invoke", "user", action, task)
        try:
            if not getattr(ledger, action)(task):
                read_after(ledger, task, lambda r: rec(env.now, "fail", "user", action, task,
                                                       reason=r and r.status))  # fmt: skip
                return False
            lost = (
                action == "cancel"
                and self.retries
                and env._now < self.faults_until
                and self.nemesis.lost("cancel", task)
            )
            said = {"lost": True} if lost else {}
            read_after(ledger, task, lambda r: rec(env.now, "ok", "user", action, task,
                                                   r and r.epoch, **said))  # fmt: skip
        except Unanswered:
            return False  # the user is shown the error (recorded as the call's answer)
        if lost:
            self._resend(lambda: self.recancel(task))
        if action == "requeue":
            self.broker.republish(task)
        return True

    def faults_off(self, _ev) -> None:
        """Faults stop: record it, with what the ledger's views answer at this instant
        (:func:`read_views`), which the checker holds to the tasks' statuses then."""
        self.history.record(
            self.env.now,
            "info",
            "nemesis",
            "faults-off",
            **read_views(self.ledger, self.listed_ids),
        )

    def run(self) -> None:
        env, sc = self.env, self.scenario
        #: the generators of the run's processes (see :meth:`dismantle`)
        self.processes = [self.arrivals()]
        env.timeout(self.horizon).callbacks.append(self.faults_off)
        if self.agent is not None and self.nemesis.has_edits:
            self.processes.append(self.agent.editor(self))
        #: the workers, in the order they start
        self.workers = [self.worker_class(f"w{i}", self) for i in range(1, sc.workers + 1)]
        self.processes += [supervised(worker) for worker in self.workers]
        for process in self.processes:
            env.process(process)
        env.run(until=sc.cap)

    def dismantle(self) -> None:
        """Break the reference cycles of a run that is over (its processes, the events they
        wait for and the state they share point at one another), so that refcounting frees all
        of it once its results are dropped: a run leaves no garbage for the cycle collector.
        The run cannot go on afterwards."""
        for process in self.processes:
            process.close()
        env = self.env
        for *_, event in env._queue:  # SimPy's schedule: (time, priority, id, event)
            event.callbacks = None
        vars(env).clear()  # the schedule and the methods SimPy binds to the environment
        self.broker.close()
        for worker in self.workers:
            worker.sim = None
        self.nemesis.run = None
        self.prober.run = None


def judged_as(
    scenario: Scenario, store: Any = None, views: Views | None = None, listed: bool = True
) -> dict[str, Any]:
    """What the checker is told of a run of ``scenario`` over ``store``, beside its history,
    final records and effects: K, the lease length, whether results name their workers, that
    every task is listed (unless ``listed`` is False: the listing raised, so there is none),
    the limit on attempts, the ledger's views at the end (``views``) and whether its timestamps
    are held to the run's clock (:func:`clocked`)."""
    return {
        "steps": scenario.steps,
        "ttl": scenario.ttl,
        "named_results": scenario.workload == "opaque",
        "listing": listed,
        # The scenario's None is no limit, which the checker is told: no task may go dead.
        "max_attempts": NO_LIMIT if scenario.max_attempts is None else scenario.max_attempts,
        "views": views,
        "clocked": store is not None and clocked(store),
    }


def simulate(
    scenario: Scenario | None = None,
    *,
    seed: int | None = None,
    ledger: LedgerFactory | None = None,
    schedule: Schedule | list | tuple | None = None,
    sender: Sender | None = None,
    alarm: Alarm | None = None,
) -> Result:
    """Simulate ``scenario`` with ``seed`` and check the recorded history.

    ``ledger`` is a factory called as ``ledger(clock)`` that returns an object with the ledger
    contract; the default is ``lambda clock: Ledger(":memory:", clock=clock)``. The variants
    ``unfenced`` and ``racy-claim`` need the built-in :class:`simlab.ledger.RacyClaimLedger` (their
    default); any other ledger with them raises ``ValueError``. The ledger is closed at the end.

    ``schedule`` replaces the fault streams by exactly its faults: a
    :class:`~simlab.sim.schedule.Schedule` recorded for this scenario and seed (``Result.schedule``
    of an earlier run, or :meth:`Schedule.load` of a file), or a list of fault dicts. Arrivals,
    service times and restart delays still come from ``seed``; given a Schedule, ``seed`` and
    ``scenario`` may be left out (``simulate(schedule=Schedule.load(path), ledger=...)``), and
    every run needs a ``seed`` otherwise. A schedule found over another ledger than ``ledger``
    (``Schedule.ledger``) is replayed all the same, with a warning naming both. A schedule for
    another seed or scenario, or an invalid fault, raises ``ValueError`` (see
    :class:`~simlab.sim.schedule.ScheduleError`). ``sender`` hands each e-mail to other code than
    the workers' own record-then-send, e.g. ``sender=watched(send_step)`` (see
    :mod:`simlab.sim.sending`). ``alarm`` (:class:`~simlab.sim.timeup.Alarm`, the command
    line's real timer) armed over the run and its check raises
    :class:`~simlab.sim.timeup.TimeUp` when it rings, naming the ledger call it interrupted; the
    ledger is closed all the same.
    """
    if seed is None and isinstance(schedule, Schedule):
        scenario, seed = scenario or schedule.scenario, schedule.seed
    scenario = (scenario or Scenario()).validate()
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be an integer, got {seed!r}")
    schedule = _as_schedule(schedule, scenario, seed)
    factory = ledger or _default_ledger(scenario.variant)
    # The collector resumes once _judged has returned: by then only the Result is left of the
    # run (its ledger, model and views are freed), and that is all that moves to the oldest
    # generation (or, after a small run, all that its first collection walks).
    with collector_paused(promote=True), alarm.armed() if alarm else contextlib.nullcontext():
        return _judged(scenario, seed, factory, schedule, sender)


def _judged(
    scenario: Scenario,
    seed: int,
    factory: LedgerFactory,
    schedule: Schedule | None,
    sender: Sender | None,
) -> Result:
    """Run ``scenario`` (validated) over a ledger from ``factory``, check its history and
    return its :class:`Result` (the body of :func:`simulate`)."""
    from simlab.checker.checker import check

    env = simpy.Environment()
    store = ledger_for(factory, clock_of(env), scenario)
    run, final, effects, views = played(
        store, lambda: _Run(env, scenario, seed, store, schedule, sender)
    )
    try:
        told = judged_as(scenario, store, views, listed=final is not None)
        verdict = check(run.history, final or [], effects=effects, **told)
        return _result(run, final or [], effects, verdict, schedule, ledger_name(store))
    finally:
        run.dismantle()


def _result(
    run: _Run,
    final: list[TaskRecord],
    effects: dict,
    verdict: Any,
    schedule: Schedule | None,
    ledger: str = "kit",
) -> Result:
    """The :class:`Result` of ``run`` (over, not yet dismantled), judged as ``verdict``, over
    the ledger named ``ledger`` (:func:`~simlab.sim.schedule.ledger_name`): one of the caller's
    own is replayed by no command (:data:`OWN_REPLAY`)."""
    own = own_ledger(ledger)
    scenario, seed, history = run.scenario, run.seed, run.history
    struck = {fault_key(f) for f in run.nemesis.faults}
    unreached = (
        [] if schedule is None else [dict(f) for f in schedule.faults if fault_key(f) not in struck]
    )
    warnings = list(verdict.warnings) + [
        f"scheduled fault never struck (the run never came to its point before the faults "
        f"stopped at t={run.horizon:g}): {describe_fault(f)}"
        for f in unreached
    ]
    if schedule is not None and own_ledger(schedule.ledger) and schedule.ledger != ledger:
        over = ledger if own else "the kit's ledger"
        warnings.append(f"this schedule was found over {schedule.ledger}, replayed over {over}")
    statuses = [r.status for r in final]
    completed = statuses.count(COMPLETED)
    cancelled = statuses.count(CANCELLED)
    dead = statuses.count(DEAD)
    mailbox = run.mailbox
    return Result(
        scenario=scenario,
        seed=seed,
        history=history,
        violations=verdict.violations,
        warnings=warnings,
        coverage=dict(verdict.coverage),
        metrics=dict(verdict.metrics),
        final=final,
        completed=completed,
        cancelled=cancelled,
        dead=dead,
        unfinished=len(final) - completed - cancelled - dead,
        stale_rejected=int(verdict.coverage.get("stale_commits_rejected", 0)),
        sent=mailbox.sent,
        duplicate_sends=mailbox.duplicates,
        crashes=run.crashes,
        redeliveries=run.broker.redeliveries,
        duplicates=run.broker.duplicates,
        end_time=history[-1].time if len(history) else 0.0,
        replay=OWN_REPLAY
        if own
        else SCHEDULE_REPLAY
        if schedule
        else replay_command(scenario, seed),
        own_ledger=own,
        mailbox=dict(mailbox.received),
        lost_emails=int(verdict.metrics.get("lost_emails", 0)),
        outdated_emails=int(verdict.metrics.get("outdated_emails", 0)),
        **_agent_counts(run, final),
        schedule=Schedule(seed, scenario, tuple(run.nemesis.faults), ledger),
        fault_positions=list(run.nemesis.positions),
        unreached=unreached,
        findings=list(verdict.findings),
        effects=effects,
    )


def clocked(store: Any) -> bool:
    """Whether the checker holds ``store``'s timestamps to the run's clock (rule (p)): the
    history's times are the simulated clock the ledger reads, so yes, unless the ledger says
    its timestamps are judged elsewhere (``timestamps_judged_elsewhere``: a grader whose
    criteria judge each stored field on its own)."""
    return not getattr(store, "timestamps_judged_elsewhere", False)


#: ``Result.replay`` of a run driven by a schedule (save ``Result.schedule`` there first).
SCHEDULE_REPLAY = "simlab simulate --schedule schedule.json"
#: ``Result.replay`` of a run over the caller's own ledger: no command runs that ledger, so the
#: replay is the Python call, with ``r`` the Result and the same ledger factory.
OWN_REPLAY = (
    "simlab.simulate(r.scenario, seed=r.seed, schedule=r.schedule, ledger=your_ledger_factory)"
)


def _as_schedule(schedule: Any, scenario: Scenario, seed: int) -> Schedule | None:
    """A validated schedule for this scenario and seed, or None."""
    if schedule is None:
        return None
    if isinstance(schedule, Schedule):
        if schedule.seed != seed or schedule.scenario != scenario:
            raise ValueError(
                f"this schedule was recorded for seed {schedule.seed} and its own scenario: "
                "replay it with simulate(schedule.scenario, seed=schedule.seed, schedule=...)"
            )
        return schedule
    if isinstance(schedule, (list, tuple)):
        return Schedule(seed, scenario).with_faults(schedule)
    raise ValueError(f"schedule must be a Schedule or a list of faults, got {schedule!r}")


def _agent_counts(run: _Run, final: list[TaskRecord]) -> dict[str, Any]:
    """needs_review, review_codes and doc_edits of an agent run, read from the final records."""
    if run.agent is None:
        return {}
    stopped = [
        r.checkpoint
        for r in final
        if isinstance(r.checkpoint, dict) and r.checkpoint.get("status") == "needs_review"
    ]
    codes: dict[str, int] = {}
    for cp in stopped:
        for reason in cp.get("review") or ():
            codes[reason["code"]] = codes.get(reason["code"], 0) + 1
    return {
        "needs_review": len(stopped),
        "review_codes": dict(sorted(codes.items())),
        "doc_edits": run.agent.edits,
    }
