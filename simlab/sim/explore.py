"""Bounded exhaustive exploration: certify a ledger within a small scope, or find the run with
the fewest faults that breaks it.

A *scope* is tasks x workers x steps and at most ``max_faults`` faults. Within it the explorer
replays the simulator over the ledger once per *schedule* (:mod:`simlab.sim.schedule`) and checks
every run with the checker; nothing is drawn at random but the timing, which is fixed:

* **Timing.** Arrivals, step times and restart delays come from one seed's streams (``seeds``
  widens it to several seeds, each searched in turn), exactly as ``simulate`` draws them, so a
  counterexample replays with ``simlab simulate --schedule``. All fault rates are 0: faults come
  only from the schedule. Faults strike before the scope's horizon, the end of the seed's
  fault-free run plus room for every fault's delay; the checker judges liveness after it.
* **Where faults strike.** Every fault kind at every point of a run where the simulator asks
  whether it strikes (:class:`StrikePoints`): crash (half-way into the step's work), slow,
  every pause (``lengths``, in units of the ttl: a few lengths around it), the crashes around an
  e-mail, a duplicate delivery at every enqueue, a pause between the two statements of a racy
  claim, a prober's claims at the edges of a paused worker's lease after each pause, and a
  user's cancel or requeue between any two events of the task (between two events
  the task is in one state, so one instant stands for the whole interval).
* **Breadth first.** Schedules are searched in order of their number of faults, so the first
  counterexample has the fewest. Each set of faults runs once: a schedule is extended only by a
  fault that strikes after its last one (a fault cannot change what came before it, so the
  extended run is the same up to the new fault and its strike points are read from the run being
  extended).
* **Distinct states.** With ``dedup`` a schedule is not extended when the state its run reached
  just after its last fault struck equals one already explored: every task's row and e-mail
  keys as the ledger reports them, the mailbox, the broker's queue and timers, each worker's
  heartbeat time and attempt, the clock, the simulator's pending timers, the prober's claims
  still to come, the position of its random streams, and that last fault itself (what it does
  next). A certificate with ``dedup`` therefore covers ledgers whose behaviour depends only on
  that state (any ledger that keeps its promises does); ``dedup=False`` searches every
  schedule.

The answer (:class:`Exploration`) is a certificate ("no schedule of at most 2 faults over 2
tasks x 2 workers x 2 steps breaks a rule: N schedules, M distinct states"), or the shortest
counterexample with its story and a replay command. It never certifies when the search was
stopped (a time limit, Ctrl-C). The same scope always gives the same answer.
"""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import simpy

from simlab.checker.rules import findings
from simlab.errors import SettingError
from simlab.sim.answers import kits_own
from simlab.sim.collector import collector_paused
from simlab.sim.exploration import Exploration
from simlab.sim.faults import CRASH_FRACTION
from simlab.sim.forked import Cut, Forked
from simlab.sim.reads import effects_of
from simlab.sim.scenario import RATE_FIELDS, Scenario
from simlab.sim.schedule import Schedule, ledger_name
from simlab.sim.sending import Sender
from simlab.sim.simulation import (
    LedgerFactory,
    _default_ledger,
    _Run,
    clock_of,
    judged_as,
    ledger_for,
    played,
    simulate,
)
from simlab.sim.streams import TIMING_STREAMS
from simlab.sim.strikes import Key, StrikePoints
from simlab.sim.timeup import Alarm, TimeUp

__all__ = [
    "explore",
    "Exploration",
    "StrikePoints",
    "scope_scenario",
    "DEFAULT_LENGTHS",
    "MAX_LENGTH",
    "CRASH_FRACTION",
]

#: Pause lengths explored, in units of the ttl: shorter than a lease, past the broker's
#: redelivery (1.25 ttl), and long enough for another worker to finish the task.
DEFAULT_LENGTHS = (0.5, 1.5, 4.0)
#: The longest pause a scope may explore, in units of the ttl: every lease and redelivery has
#: long run out by then, so a longer pause shows nothing a pause of this length does not (and
#: the scope's horizon stays a finite time).
MAX_LENGTH = 1000.0
#: The longest lease a scope may ask for, in time units (the scope's horizon stays a finite
#: time, counted in them).
MAX_TTL = 1e6
#: The scope's modes as they are when not set: a scope names a mode only when it is set.
_UNSET = {
    "ttl": None,
    "max_attempts": None,
    "effects": "last",
    "pull": False,
    "checkpoints": False,
    "retries": False,
    "releases": False,
    "late": False,
}


# --- the scope -----------------------------------------------------------------------------------


#: What :func:`explore` says of a count of its scope below its least.
_AT_LEAST = "{name} must be an integer >= {least}, got {value!r}"


def scope_scenario(
    tasks: int,
    workers: int,
    steps: int,
    variant: str = "fenced",
    horizon: float | None = None,
    max_attempts: int | None = None,
    effects: str = "last",
    pull: bool = False,
    checkpoints: bool = False,
    retries: bool = False,
    releases: bool = False,
    late: bool = False,
    ttl: float | None = None,
) -> Scenario:
    """The scenario of a scope: the kit's defaults with every fault rate 0 (faults come only
    from schedules), faults on until ``horizon``, the ledger's limit on attempts, the steps
    that send an e-mail, whether workers pull with ``claim_next`` (``Scenario.pull``),
    whether saves carry checkpoints (``Scenario.checkpoints``), whether callers resend a call
    whose reply was lost (``Scenario.retries``), whether workers release a task whose lease
    ended in a pause (``Scenario.releases``) and whether the network may hold a worker's call
    until after the worker gave the task back (``Scenario.late``); ``ttl``, the lease length
    the workers ask for (None: the kit's default)."""
    zero = dict.fromkeys(RATE_FIELDS, 0.0)
    if ttl is not None:
        zero["ttl"] = ttl
    return Scenario(
        tasks=tasks,
        workers=workers,
        steps=steps,
        variant=variant,
        fault_horizon=horizon,
        max_attempts=max_attempts,
        effects=effects,
        pull=pull,
        checkpoints=checkpoints,
        retries=retries,
        releases=releases,
        late=late,
        **zero,
    ).validate()


def _horizon(
    probe: Scenario,
    seed: int,
    factory: LedgerFactory,
    lengths: tuple[float, ...],
    max_faults: int,
    sender: Sender | None = None,
) -> float:
    """The fault horizon for ``seed`` of the scope whose scenario is ``probe`` (its faults off
    at once): the end of its fault-free run plus, per fault, the longest pause or a crash's
    restart and redelivery, rounded up to a whole time unit."""
    result = simulate(
        probe, seed=seed, ledger=factory, schedule=Schedule(seed, probe), sender=sender
    )
    end = max((e.time for e in result.history if e.op != "faults-off"), default=0.0)
    ttl = probe.ttl
    room = max(max(lengths, default=1.0) * ttl, probe.restart_delay * 3 + 2 * ttl)
    return float(math.ceil(end + 2 * ttl + max_faults * room))


# --- one run -------------------------------------------------------------------------------------


class _Ledgers:
    """Where each run of a search gets its ledger: ``factory(clock)``, new for every run and
    closed after it; or, with ``reuse``, one ledger of the kit's in memory for the whole search,
    cleared (:meth:`simlab.ledger.Ledger.clear`) before each run. A cleared ledger answers as a
    new one (no task, no effect, submit order from the start) while its connection keeps its
    prepared statements, which a new connection would compile again for every short run.
    ``name`` is :func:`~simlab.sim.schedule.ledger_name` of the last ledger opened here."""

    def __init__(self, factory: LedgerFactory, reuse: bool = False) -> None:
        self.factory, self.reuse = factory, reuse
        self.store: Any = None
        self.name: str | None = None

    def open(self, clock: Callable[[], float], scenario: Scenario) -> Any:
        """A ledger for one run on ``clock``, with the scenario's ``max_attempts``."""
        if not self.reuse:
            store = ledger_for(self.factory, clock, scenario)
            self.name = self.name or ledger_name(store)  # one factory makes one kind
            return store
        if self.store is None:
            self.store = self.factory(clock)
            self.name = ledger_name(self.store)
        else:
            self.store.clear()
            self.store.clock = clock
        self.store.max_attempts = scenario.max_attempts
        return self.store

    def close(self) -> None:
        """Close the ledger kept for the search, if any."""
        store, self.store = self.store, None
        if store is not None:
            store.close()


@dataclass
class _Outcome:
    ok: bool
    signature: tuple | None
    candidates: list[tuple[Key, dict[str, Any]]]


def _state(run: _Run, store: Any) -> tuple:
    """The observable state of a run now (the module docstring lists what it holds)."""
    try:
        records = store.tasks()
        recorded = effects_of(store, records, store)  # one read where the ledger offers it
    except Exception as error:
        if kits_own(error):
            raise
        # A read that raised (what the run's last reads record as its answer, rule (x)): no
        # state to compare, so this one is never taken for another.
        return (object(),)
    rows = tuple(
        (r.task_id, r.status, r.step, r.epoch, r.lease_until, r.worker, r.attempts) for r in records
    )
    effects = tuple((r[0], tuple((f.key, f.epoch, f.worker) for f in recorded[r[0]])) for r in rows)
    broker = run.broker
    env = run.env
    return (
        env.now,
        rows,
        effects,
        tuple(sorted(run.mailbox.received.items())),
        tuple(broker._ready),
        tuple(sorted(broker._deadline.items())),
        tuple((w.name, w.last_beat, w.attempt) for w in run.workers),
        tuple(sorted(item[0] for item in env._queue)),
        tuple(sorted(run.prober.pending)),
        tuple(run.rng.position(name) for name in TIMING_STREAMS),
    )


def _run_schedule(
    scenario: Scenario,
    seed: int,
    factory: LedgerFactory | _Ledgers,
    faults: tuple[dict[str, Any], ...],
    after: Key,
    lengths: tuple[float, ...],
    sender: Sender | None = None,
    extend: bool = True,
) -> _Outcome:
    """Replay ``faults`` over a new ledger (from a factory, or from :class:`_Ledgers`;
    ``sender`` sends the e-mails, as ``simulate`` takes it); the verdict, the state after the
    last fault and, when the run is to be ``extend``-ed, the strike points after ``after``."""
    ledgers = factory if isinstance(factory, _Ledgers) else _Ledgers(factory)
    env = simpy.Environment()
    store = ledgers.open(clock_of(env), scenario)
    schedule = Schedule(seed, scenario, faults)
    holder: dict[str, StrikePoints] = {}

    def nemesis(run: _Run, sched: Schedule) -> StrikePoints:
        probe = holder["probe"] = StrikePoints(run, sched, after, lengths, listing=extend)
        probe.snapshot = lambda: _state(run, store)
        return probe

    with collector_paused():
        run, final, effects, views = played(
            store,
            lambda: _Run(env, scenario, seed, store, schedule, sender, nemesis=nemesis),
            close=not ledgers.reuse,
        )
    probe = holder["probe"]
    try:
        if len(probe.faults) != len(faults):
            # A fault is only ever added where the run being extended asked for it, and the
            # extended run is the same up to there: one that never struck is the kit's own bug.
            raise RuntimeError(f"a scheduled fault never struck: {faults[len(probe.faults)]}")
        # The rules alone, as check() judges them: a search needs the verdict, not the coverage
        # counters and metrics a report shows.
        told = judged_as(scenario, store, views, listed=final is not None)
        broken = findings(run.history, final or [], effects=effects, **told)
        probe.user_points(faults)
        return _Outcome(not broken, probe.signature, probe.candidates)
    finally:
        # A search runs thousands of short runs: each is taken apart here so that refcounting
        # frees it, rather than the cycle collector walking every run it left behind.
        probe.snapshot = None
        run.dismantle()


# --- the search ----------------------------------------------------------------------------------


def _checked(tasks, workers, steps, max_faults, seeds, jobs, max_attempts, lengths, ttl) -> tuple:
    """The pause ``lengths`` as a tuple of floats, once every number of :func:`explore`'s
    scope is one it can search; :class:`~simlab.errors.SettingError` names the one that is not."""
    for name, value, least in (
        ("tasks", tasks, 1),
        ("workers", workers, 1),
        ("steps", steps, 1),
        ("max_faults", max_faults, 0),
        ("seeds", seeds, 1),
        ("jobs", jobs, 1),
        *([("max_attempts", max_attempts, 1)] if max_attempts is not None else []),
    ):
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise SettingError(_AT_LEAST, {"name": name}, least=least, value=value)
    lengths = tuple(float(x) for x in lengths)
    if not lengths or any(not (0 < x <= MAX_LENGTH) for x in lengths):
        raise SettingError(
            "{lengths} must be positive numbers of ttls, at most {most:g}, got {v!r}",
            ["lengths"],
            most=MAX_LENGTH,
            v=lengths,
        )
    if ttl is not None and (
        isinstance(ttl, bool) or not isinstance(ttl, (int, float)) or not 0 < ttl <= MAX_TTL
    ):
        raise SettingError(
            "{ttl} must be a positive number of time units, at most {most:g}, got {v!r}",
            ["ttl"],
            most=MAX_TTL,
            v=ttl,
        )
    return lengths


def explore(
    ledger: LedgerFactory | None = None,
    *,
    tasks: int = 2,
    workers: int = 2,
    steps: int = 2,
    max_faults: int = 2,
    variant: str = "fenced",
    dedup: bool = True,
    seeds: int = 1,
    first_seed: int = 1,
    lengths: Iterable[float] = DEFAULT_LENGTHS,
    time_limit: float | None = None,
    progress: Callable[[int, int, int], None] | None = None,
    clock: Callable[[], float] = time.perf_counter,
    sender: Sender | None = None,
    jobs: int = 1,
    max_attempts: int | None = None,
    effects: str = "last",
    pull: bool = False,
    checkpoints: bool = False,
    retries: bool = False,
    releases: bool = False,
    late: bool = False,
    ttl: float | None = None,
    alarm: Alarm | None = None,
) -> Exploration:
    """Search every schedule of at most ``max_faults`` faults over ``tasks`` x ``workers`` x
    ``steps`` (see the module docstring) on ledgers made by ``ledger`` (a factory called as
    ``ledger(clock)``, as :func:`~simlab.sim.simulation.simulate` takes it; default: the
    kit's SQLite ledger in memory, or the racy one for the ``unfenced`` and ``racy-claim``
    variants), breadth first, for ``seeds`` seeds from ``first_seed``.

    ``lengths`` are the pause lengths in units of the ttl; ``sender`` sends each step's
    e-mail instead of the workers' own record-then-send, as ``simulate`` takes it;
    ``max_attempts`` is the ledger's limit on the claims of a task (set on each ledger as
    ``simulate`` sets a scenario's; None: no limit, so no task may go to the dead letter);
    ``effects`` the steps that send an e-mail, as the ``Scenario`` field (``"all"``: a task
    sends one at every step, so a run shows the order of its keys); ``pull`` has the workers
    take the oldest claimable task with ``claim_next`` (``Scenario.pull``: the client also
    submits a health probe), so a certificate covers what ``claim_next`` answers too;
    ``checkpoints`` has every save carry a checkpoint and every claim show the one it hands
    back (``Scenario.checkpoints``), so a certificate covers the checkpoints a ledger keeps;
    ``retries`` and ``releases`` (``Scenario.retries``: lost replies at every submit, cancel,
    heartbeat, e-mail record, save and release, and their resends; ``Scenario.releases``) extend a
    certificate to the answers to resent calls and to ``release``; ``late``
    (``Scenario.late``: the ``late-call`` fault at every e-mail record and save, landing a reply
    timeout after its worker gave the task back) extends it to the answers to calls that reach
    the ledger after their sender released the task. ``ttl`` is the lease length the workers
    ask for (None: the kit's default, ``Scenario.ttl``): a ledger that ignores the ttl it is
    given and uses its own shows only under another.
    ``time_limit`` (seconds of ``clock``, checked between runs) stops the search
    (``stopped="time-limit"``); so does ``alarm`` (:class:`~simlab.sim.timeup.Alarm`, the
    command line's real timer, armed in each forked process over each run) when it rings, even
    inside a ledger call that never returns (``in_progress`` names the call it cut, and
    ``stopped_schedule`` is that run's); Ctrl-C stops it too (``stopped="interrupted"``); none
    of these certifies. ``progress(level, done, total)`` is called after each run. Raises
    :class:`~simlab.errors.SettingError` (a ``ValueError``) for a scope that makes no sense.

    ``jobs`` processes share each number of faults (forked from this one, so ``ledger`` and
    ``sender`` must be safe to call in several processes at once; not where the platform
    cannot fork): the runs are handed out in order and their verdicts and states read back in
    that order, so the answer is the same, byte for byte, with any number of processes.
    """
    lengths = _checked(tasks, workers, steps, max_faults, seeds, jobs, max_attempts, lengths, ttl)
    # The scope's scenario, its faults off at once until the fault-free run sets its horizon.
    modes = dict(max_attempts=max_attempts, effects=effects, pull=pull, checkpoints=checkpoints,
                 retries=retries, releases=releases, late=late, ttl=ttl)  # fmt: skip
    probe = scope_scenario(tasks, workers, steps, variant, 1e-9, **modes)
    factory = ledger or _default_ledger(variant)
    # The kit's own in-memory ledger is made once and cleared between runs; a ledger given
    # here is made anew for every run, since nothing says it can be emptied.
    ledgers = _Ledgers(factory, reuse=ledger is None)
    started = clock()
    modes["ttl"] = probe.ttl  # named even when the kit's default: a certificate covers one ttl
    scope = _scope(tasks, workers, steps, max_faults, variant, dedup, first_seed, seeds, modes)
    search = _Search(factory, lengths, max_faults, dedup, progress, clock, started, time_limit)
    search.ledgers, search.sender = ledgers, sender
    horizons = {}
    try:
        with contextlib.nullcontext() if alarm is None else alarm.armed():
            if jobs > 1:
                search.pool = Forked(jobs, search.forked_run, alarm)
            for seed in scope["seeds"]:
                search.running = (probe, seed, ())  # the fault-free run sets the horizon
                horizon = _horizon(probe, seed, factory, lengths, max_faults, sender)
                horizons[seed] = horizon
                found = search.run(probe.with_(fault_horizon=horizon), seed)
                if found is not None:
                    return search.answer(scope, horizons, found)
    except KeyboardInterrupt:
        search.stopped = "interrupted"
    except TimeUp as up:
        search.cut(up.call)
    finally:
        ledgers.close()
        if search.pool is not None:
            search.pool.close()
    return search.answer(scope, horizons, None)


def _scope(tasks, workers, steps, max_faults, variant, dedup, first_seed, seeds, modes):
    """The scope an :class:`Exploration` reports: its counts, seeds and ttl, and each other
    mode only when set (a scope without a limit, e-mailing at the last step, reads as before)."""
    scope: dict[str, Any] = {
        "tasks": tasks,
        "workers": workers,
        "steps": steps,
        "max_faults": max_faults,
        "variant": variant,
        "dedup": dedup,
        "seeds": list(range(first_seed, first_seed + seeds)),
    }
    scope.update((name, v) for name, v in modes.items() if v != _UNSET[name])
    return scope


class _Search:
    """The breadth-first search of :func:`explore` over one seed at a time."""

    def __init__(self, factory, lengths, max_faults, dedup, progress, clock, started, limit):
        self.factory, self.lengths, self.max_faults = factory, lengths, max_faults
        self.dedup, self.progress, self.clock = dedup, progress, clock
        self.started, self.limit = started, limit
        self.schedules = 0
        self.seen: set = set()
        self.stopped: str | None = None
        self.covered = -1
        self.scenario: Scenario | None = None
        self.ttl = 1.0
        self.sender: Sender | None = None
        self.ledgers = _Ledgers(factory)
        self.pool: Forked | None = None
        #: the run being made or awaited: (scenario, seed, faults)
        self.running: tuple[Scenario, int, tuple] | None = None
        #: what the alarm cut (:meth:`cut`): the call, and the run's schedule
        self.in_progress: dict[str, Any] | None = None
        self.stopped_schedule: Schedule | None = None

    def run(self, scenario: Scenario, seed: int) -> tuple[Scenario, int, tuple] | None:
        """The first failing schedule of the fewest faults for ``seed`` (None: none fails, or
        the search stopped)."""
        self.ttl = scenario.ttl
        lengths = tuple(x * scenario.ttl for x in self.lengths)
        level: list[tuple[tuple[dict[str, Any], ...], Key]] = [((), (-math.inf, 0))]
        seen: set = set()
        for k in range(self.max_faults + 1):
            following: list[tuple[tuple[dict[str, Any], ...], Key]] = []
            outcomes = self._outcomes(scenario, seed, level, lengths, k < self.max_faults)
            for done, (faults, _after) in enumerate(level, start=1):
                if self.limit is not None and self.clock() - self.started >= self.limit:
                    self.stopped = "time-limit"
                    return None
                self.running = (scenario, seed, faults)
                out = next(outcomes)
                if isinstance(out, Cut):
                    self.cut(out.call)
                    return None
                self.schedules += 1
                if self.progress is not None:
                    self.progress(k, done, len(level))
                if not out.ok:
                    return scenario, seed, faults
                state = (seed, out.signature)
                if state in seen and self.dedup:
                    continue
                seen.add(state)
                self.seen.add(state)
                if k < self.max_faults:
                    following.extend((faults + (f,), key) for key, f in out.candidates)
            self.covered = k if self.covered < 0 or k > self.covered else self.covered
            level = following
            if not level:
                break
        return None

    def _outcomes(
        self,
        scenario: Scenario,
        seed: int,
        level: list[tuple[tuple[dict[str, Any], ...], Key]],
        lengths: tuple[float, ...],
        extend: bool,
    ) -> Iterator[_Outcome]:
        """The outcome of each schedule of ``level``, in order: run here one at a time, when
        asked for, or by the pool's processes (:mod:`simlab.sim.forked`), read back in order."""
        if self.pool is None:
            for faults, after in level:
                yield _run_schedule(
                    scenario, seed, self.ledgers, faults, after, lengths, self.sender, extend
                )
            return
        yield from self.pool.map([(scenario, seed, f, a, lengths, extend) for f, a in level])

    def forked_run(self, args: tuple) -> _Outcome:
        """One schedule's outcome in a forked process, over that process's own ledgers."""
        scenario, seed, faults, after, lengths, extend = args
        return _run_schedule(
            scenario, seed, self.ledgers, faults, after, lengths, self.sender, extend
        )

    def cut(self, call: dict[str, Any] | None) -> None:
        """The alarm rang in the run being made (``call``: the ledger call it cut, if any):
        the search stops, and names that call with the run's seed and faults."""
        self.stopped = "time-limit"
        if self.running is None:
            return
        scenario, seed, faults = self.running
        self.stopped_schedule = Schedule(
            seed, scenario, ledger=self.ledgers.name or "kit"
        ).with_faults([dict(f) for f in faults])
        self.in_progress = {**(call or {}), "seed": seed, "faults": [dict(f) for f in faults]}

    def answer(self, scope, horizons, found) -> Exploration:
        scope = {**scope, "horizon": {str(s): h for s, h in horizons.items()}}
        lengths = [round(x * self.ttl, 6) for x in self.lengths]
        seconds = self.clock() - self.started
        if found is None:
            certified = self.stopped is None
            if self.stopped is not None:
                self.covered = max(-1, self.covered)
            return Exploration(
                certified, self.schedules, len(self.seen), seconds, scope, lengths,
                self.covered, stopped=self.stopped, in_progress=self.in_progress,
                stopped_schedule=self.stopped_schedule,
            )  # fmt: skip
        from simlab.sim.story import tell

        scenario, seed, faults = found
        schedule = Schedule(seed, scenario).with_faults([dict(f) for f in faults])
        result = simulate(
            scenario, seed=seed, ledger=self.factory, schedule=schedule, sender=self.sender
        )
        return Exploration(
            False,
            self.schedules,
            len(self.seen),
            seconds,
            scope,
            lengths,
            len(faults) - 1,
            faults=len(faults),
            story=tell(result),
            findings=list(result.violations),
            result=result,
        )
