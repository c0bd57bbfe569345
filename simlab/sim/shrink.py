"""Shrink a failing run to the fewest faults that still break the same rule, and tell its story.

:func:`shrink` runs a scenario with a seed. If the checker finds a violation, it looks for a
*1-minimal* fault schedule: one that still breaks one of the rules the original run broke, while
taking away any single one of its faults does not. Every candidate is a replay of a
:class:`~simlab.sim.schedule.Schedule` with the same seed, so each answer is deterministic:

1. **Causality.** The replay is deterministic, so faults that struck after the first violating
   event cannot have caused it, and tasks submitted after it cannot either: both are cut (the
   fault horizon is kept, so the faults that remain strike exactly where they did).
2. **Focus.** The faults that struck the violating task alone are tried first.
3. **Delta debugging** (Zeller's ddmin) removes chunks, then single faults, until no single
   fault can go.
4. **Fewer workers, fewer tasks.** Two workers (then one) if that still fails, else three; then
   only the tasks up to the last one a fault or the violation names. After fewer workers, ddmin
   runs again.
5. **Shorter pauses.** Each remaining pause (of any kind) is cut to the shortest of
   ``ttl/2, ttl, 3ttl/2...`` that still fails; then the single-fault removal is checked again,
   and whether every violation (not only the target rules) goes away is recorded in
   ``Shrunk.one_minimal``.

A run that does not fail is not an error: ``Shrunk.result.ok`` is True and the story says so.
``Shrunk.simulations`` counts every simulation (the first run included); candidates are cached,
so a schedule is never simulated twice.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from simlab.checker.rules import RULES, first_violation
from simlab.sim.scenario import Scenario
from simlab.sim.schedule import PAUSES, Schedule, task_ids
from simlab.sim.sending import Sender
from simlab.sim.simulation import LedgerFactory, Result, simulate
from simlab.sim.story import tell

__all__ = ["shrink", "Shrunk", "ddmin"]

_LETTERS = [r.letter for r in RULES]


@dataclass
class Shrunk:
    """What :func:`shrink` found.

    ``schedule`` is the minimal schedule (its scenario may have fewer tasks and workers than the
    original), ``result`` its replay, ``story`` the replay told in sentences, ``simulations``
    how many runs shrinking took, ``original_faults`` how many faults the original run had and
    ``original`` that run. ``rules`` are the letters of the target rules the replay breaks;
    ``one_minimal`` is True when removing any single fault of ``schedule`` was checked to make
    every violation go away. ``simulate_equivalents`` is the work shrinking took, counted in
    history events simulated (every run, the first included) over the events of the original
    run: a deterministic stand-in for "shrink time / simulate time" (see ``simlab bench shrink``).
    """

    schedule: Schedule
    result: Result
    story: list[str]
    simulations: int
    original_faults: int
    original: Result = field(repr=False)
    rules: list[str] = field(default_factory=list)
    one_minimal: bool = False
    simulate_equivalents: float = 1.0

    @property
    def ok(self) -> bool:
        """True when the original run broke no rule (there was nothing to shrink)."""
        return self.result.ok

    @property
    def faults(self) -> list[dict[str, Any]]:
        return [dict(f) for f in self.schedule.faults]

    def to_dict(self, replay: str | None = None) -> dict[str, Any]:
        """The JSON of ``simlab shrink --json``; ``replay`` is the command that replays it."""
        return {
            "seed": self.schedule.seed,
            "variant": self.schedule.scenario.variant,
            "ok": self.ok,
            "faults": self.faults,
            "violations": list(self.result.violations),
            "rules": list(self.rules),
            "story": list(self.story),
            "simulations": self.simulations,
            "original_faults": self.original_faults,
            "original_violations": len(self.original.violations),
            "one_minimal": self.one_minimal,
            "simulate_equivalents": round(self.simulate_equivalents, 2),
            "scenario": self.schedule.to_dict()["scenario"],
            "replay": replay or self.result.replay,
        }


def ddmin(items: list, fails) -> list:
    """Zeller's delta debugging: a 1-minimal sublist of ``items`` (order kept) for which
    ``fails(sublist)`` is true, given that ``fails(items)`` is. Tries halves, then complements
    of chunks, refining the chunks until they are single items."""
    n = 2
    while len(items) >= 2:
        size = len(items)
        bounds = [size * i // n for i in range(n + 1)]
        chunks = [items[bounds[i] : bounds[i + 1]] for i in range(n)]
        for i, chunk in enumerate(chunks):
            if fails(chunk):
                items, n = chunk, 2
                break
            rest = [x for j, c in enumerate(chunks) if j != i for x in c]
            if n > 2 and fails(rest):
                items, n = rest, max(n - 1, 2)
                break
        else:
            if n >= size:
                break
            n = min(size, 2 * n)
    if len(items) == 1 and fails([]):
        return []
    return items


class _Shrinker:
    """The state of one shrink: the seed, the target rules and the cache of runs."""

    def __init__(
        self,
        seed: int,
        ledger: LedgerFactory | None,
        original: Result,
        sender: Sender | None,
        rules: set[str] | None = None,
    ):
        self.seed = seed
        self.ledger = ledger
        self.sender = sender
        self.original = original
        broken = {f.letter for f in original.findings}
        self.target = broken if rules is None else broken & rules
        self.simulations = 1
        self.events = len(original.history)
        self.cache: dict[tuple, Result] = {}

    def run(self, scenario: Scenario, faults: list[dict]) -> Result:
        key = (scenario, tuple(tuple(sorted(f.items())) for f in faults))
        if key not in self.cache:
            schedule = Schedule(self.seed, scenario).with_faults(faults)
            self.simulations += 1
            self.cache[key] = r = simulate(
                scenario, seed=self.seed, ledger=self.ledger, schedule=schedule, sender=self.sender
            )
            self.events += len(r.history)
        return self.cache[key]

    def fails(self, scenario: Scenario, faults: list[dict]) -> bool:
        """Does the replay still break one of the target rules?"""
        r = self.run(scenario, faults)
        return any(f.letter in self.target for f in r.findings)

    # -- the steps --------------------------------------------------------------------------
    def causal_cut(self) -> tuple[Scenario, list[dict]]:
        """Faults and tasks up to the first violation (if that replay still fails)."""
        r = self.original
        sc, faults = r.scenario, list(r.schedule.faults)
        first = first_violation(r.findings, self.target)
        cut = first.index if first is not None else len(r.history)
        kept = [f for f, p in zip(faults, r.fault_positions, strict=True) if p < cut]
        submitted = sum(1 for e in r.history[: cut + 1] if e.op == "submit" and e.type == "ok")
        for candidate in (_fewer_tasks(sc, submitted), sc):
            if candidate is not None and self.fails(candidate, kept):
                return candidate, kept
        return sc, faults

    def focus(self, sc: Scenario, faults: list[dict]) -> list[dict]:
        """Only the faults that struck the violating task, if that is enough."""
        r = self.run(sc, faults)
        first = first_violation(r.findings, self.target)
        task = r.history[first.index].task if first is not None else None
        mine = [f for f in faults if f.get("task") == task]
        if task is not None and 0 < len(mine) < len(faults) and self.fails(sc, mine):
            return mine
        return faults

    def fewer_workers(self, sc: Scenario, faults: list[dict]) -> Scenario:
        """Two workers if that still fails (a race needs two), then maybe one; if two are
        not enough, three. The original count when none of these fails."""
        if sc.workers <= 2:
            tries = [1] if sc.workers == 2 else []
        else:
            tries = [2, 1] if self.fails(sc.with_(workers=2), faults) else [3]
        best = sc.with_(workers=2) if sc.workers > 2 and tries[0] == 2 else sc
        for workers in tries:
            if workers < best.workers and self.fails(sc.with_(workers=workers), faults):
                best = sc.with_(workers=workers)
        return best

    def needed_tasks(self, sc: Scenario, faults: list[dict]) -> Scenario:
        """Only the tasks up to the last one the violation or a fault names, if that fails."""
        r = self.run(sc, faults)
        first = first_violation(r.findings, self.target)
        named = [f["task"] for f in faults if "task" in f]
        if first is not None and r.history[first.index].task is not None:
            named.append(r.history[first.index].task)
        ids = task_ids(sc.tasks)
        n = max((ids.index(t) + 1 for t in named if t in ids), default=0)
        candidate = _fewer_tasks(sc, n)
        if candidate is not None and self.fails(candidate, faults):
            return candidate
        return sc

    def shorter_pauses(self, sc: Scenario, faults: list[dict]) -> list[dict]:
        """Cut each pause to the shortest ``k * ttl / 2`` that still fails (binary search)."""
        faults = list(faults)
        for i, f in enumerate(faults):
            if f["kind"] not in PAUSES:
                continue
            ladder = [k * sc.ttl / 2 for k in range(1, 64) if k * sc.ttl / 2 < f["length"]]
            lo, hi = 0, len(ladder)  # ladder[hi] is the shortest known to fail (hi: original)
            while lo < hi:
                mid = (lo + hi) // 2
                trial = faults[:i] + [{**f, "length": ladder[mid]}] + faults[i + 1 :]
                if self.fails(sc, trial):
                    hi = mid
                else:
                    lo = mid + 1
            if hi < len(ladder):
                faults[i] = {**f, "length": ladder[hi]}
        return faults

    def one_minimal(self, sc: Scenario, faults: list[dict]) -> tuple[list[dict], bool]:
        """Remove single faults while the target still breaks; then report whether removing
        any one makes every violation go away."""
        i = 0
        while i < len(faults):
            rest = faults[:i] + faults[i + 1 :]
            if self.fails(sc, rest):
                faults, i = rest, 0
            else:
                i += 1
        clean = all(self.run(sc, faults[:i] + faults[i + 1 :]).ok for i in range(len(faults)))
        return faults, clean


def _fewer_tasks(sc: Scenario, tasks: int) -> Scenario | None:
    """``sc`` with only its first ``tasks`` tasks and the same fault horizon, or None when that
    is not fewer or would rename the tasks."""
    if not 0 < tasks < sc.tasks or task_ids(tasks)[0] != task_ids(sc.tasks)[0]:
        return None
    return sc.with_(tasks=tasks, fault_horizon=sc.horizon)


def shrink(
    scenario: Scenario | None = None,
    *,
    seed: int,
    ledger: LedgerFactory | None = None,
    schedule: Schedule | None = None,
    sender: Sender | None = None,
    rules: Iterable[str] | None = None,
) -> Shrunk:
    """Run ``scenario`` with ``seed`` (or replay ``schedule``) and, if it breaks a rule, shrink
    it to a 1-minimal schedule that still does (see the module docstring).

    ``ledger`` is a ledger factory and ``sender`` a sender as for
    :func:`~simlab.sim.simulation.simulate`, used by every replay. ``rules`` (letters of
    :data:`simlab.checker.rules.RULES`) keeps only those of the broken rules as the target, so
    the story is about them; a run that breaks none of them is not shrunk and its story says
    which rules it broke. Raises ``ValueError`` for a bad scenario, seed or schedule or an
    unknown rule letter, never for a clean run.
    """
    wanted = None if rules is None else set(rules)
    unknown = sorted((wanted or set()) - {r.letter for r in RULES})
    if unknown:
        raise ValueError(f"unknown rule {unknown[0]!r}; rules are {', '.join(_LETTERS)}")
    if schedule is not None:
        scenario, seed = schedule.scenario, schedule.seed
    scenario = (scenario or Scenario()).validate()
    original = simulate(scenario, seed=seed, ledger=ledger, schedule=schedule, sender=sender)
    s = _Shrinker(seed, ledger, original, sender, wanted)
    if original.ok or not s.target:
        n = len(original.schedule)
        return Shrunk(original.schedule, original, tell(original), 1, n, original)
    sc, faults = s.causal_cut()
    faults = s.focus(sc, faults)
    faults = ddmin(faults, lambda subset: s.fails(sc, subset))
    fewer = s.fewer_workers(sc, faults)
    if fewer != sc:
        sc = fewer
        faults = ddmin(faults, lambda subset: s.fails(sc, subset))
    sc = s.needed_tasks(sc, faults)
    faults = s.shorter_pauses(sc, faults)
    faults, clean = s.one_minimal(sc, faults)
    result = s.run(sc, faults)
    rules = sorted(s.target & {f.letter for f in result.findings})
    story = tell(result, rules=rules, original_faults=len(original.schedule), one_minimal=clean)
    return Shrunk(
        result.schedule,
        result,
        story,
        s.simulations,
        len(original.schedule),
        original,
        rules,
        clean,
        s.events / max(1, len(original.history)),
    )
