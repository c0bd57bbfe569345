"""The hidden world of question ``choose-ttl`` (:mod:`~simlab.grading.checks.histories.ttl`):
the ttls and seeds ``measure`` is given, the recorded run ``recovery_times`` reads, and the cost
tables ``choose_ttl`` weighs, and the scenario the notebook's ``PAUSES`` holds for one call of
``measure``, drawn from :func:`~simlab.grading.checks.hidden_world.rng` so that numbers typed in
from the notebook's table, an argument ignored (the ttl, the seeds, the costs), results kept by
ttl alone, a count read from another source than the ledger's refused saves, a scenario of its
own in place of ``PAUSES``, or costs rounded before they are compared, or compared within a
tolerance, give a wrong answer there.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from simlab.grading.checks.hidden_world import current_seed, rng
from simlab.grading.checks.histories.ttl_reference import (
    PAUSES,
    SHOWN_SEEDS,
    choose_ttl,
    measure,
    recovery_times,
    run_of,
)
from simlab.grading.student import close_to
from simlab.sim.scenario import Scenario
from simlab.sim.simulation import simulate

__all__ = ["KEYS", "TtlWorld", "ttl_world"]

#: The keys of what ``measure`` returns.
KEYS = ("duplicate_work", "waiting")
#: The ttls ``measure`` and the recorded run may be given: never :data:`PAUSES`' own ttl, so a
#: ``measure`` that ignores its ttl simulates another one.
_RUN_TTLS = (1.0, 1.5, 2.0, 2.5, 4.0, 5.0, 6.0, 8.0)
#: The ttls a table of the world holds (4 of them, or 3 for the tie).
_TABLE_TTLS = (0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0, 12.0, 16.0)
#: How many draws a part of the world may take before it gives up (none needs many).
_DRAWS = 500
#: How many scenarios ``PAUSES`` may hold at one call before the next call's run is tried.
_PAUSES_DRAWS = 60
#: How many triples of costs one drawn table is tried with (few tables suit none of them).
_COST_DRAWS = 20


@dataclass(frozen=True)
class TtlWorld:
    """What ``choose-ttl`` is judged on in one hidden world.

    ``measured``: the ``(ttl, seeds)`` of each ``measure`` call, seeds drawn besides the
    notebook's and any an earlier grader fixed, such that for each key of the result some
    call differs from what measure gives with the ttl ignored, with the first seed only, with
    the notebook's seeds, and summed rather than averaged; and the duplicate work differs from
    the workers' wasted steps. The third call repeats the first one's ttl with other seeds and
    differs from it in both keys, so a result kept by ttl alone is wrong there; the fourth
    gives the first ttl the second call's seeds, differing from it in both keys; the last is
    the second call with its first seed listed twice, differing from it in some key, so seeds
    de-duplicated are wrong there.
    ``recorded``: the ``(ttl, seed)`` of the run ``recovery_times`` reads, with two crashes or
    more, each claimed again. ``table`` and ``costs``: a table (ttls in a drawn order) and three
    ``(step_cost, wait_cost)`` whose cheapest ttls are three different ones, the smallest and
    the largest among them, never a tie, and such that a choice that ignores either cost (a
    constant in its place) is wrong for one of them. ``free``: two more ``(step_cost,
    wait_cost)`` for ``table``, the first's wait cost with no step cost, then the first's step
    cost with no wait cost (a cost of 0 is free: a choice that divides by either cost raises
    on one of them), each with one cheapest ttl. ``tie``: ``(table, step_cost,
    wait_cost)`` where two ttls tie for the lowest cost, the larger one first in the table.
    ``free_tie``: ``(table, step_cost)``, a table of three ttls whose two larger ones have the
    same least duplicate work (none), the largest listed first: with the wait free, those two
    tie (the smaller wins, not the largest ttl); with both costs free every ttl ties (the
    smallest wins, not the first listed).
    ``close``: ``(table,
    step_cost, wait_cost)`` where the two cheapest costs differ by less than a hundredth (both
    the same rounded to two decimals), the cheaper one the larger ttl, listed after the other.
    ``pauses``: ``(scenario, ttl, seeds)`` for one ``measure`` call with the notebook's
    ``PAUSES`` holding ``scenario`` (pauses, crashes and tasks drawn), at the ttl and first
    seed of a call (a run the world has made already), where both keys differ from what
    :data:`PAUSES` gives there. ``near``: ``(table, step_cost, wait_cost)`` where the two
    cheapest costs differ by a relative 1e-11 to 2e-10 (far above the rounding of any order of
    the sum and products: every value is a binary fraction short enough that each is exact,
    and ``wait_cost`` a power of two, so even a cost divided by it is), below
    :func:`math.isclose`'s 1e-9, the cheaper one the larger ttl, listed after the other.
    """

    measured: tuple[tuple[float, tuple[int, ...]], ...]
    recorded: tuple[float, int]
    table: dict[float, dict[str, float]]
    costs: tuple[tuple[int, int], ...]
    tie: tuple[dict[float, dict[str, float]], int, int]
    close: tuple[dict[float, dict[str, float]], int, int]
    pauses: tuple[Scenario, float, tuple[int, ...]] = (PAUSES, 0.0, ())
    near: tuple[dict[float, dict[str, float]], int, int] = ({}, 1, 1)
    free: tuple[tuple[int, int], ...] = ()
    free_tie: tuple[dict[float, dict[str, float]], int] = ({}, 1)

    @property
    def hidden_tables(self) -> frozenset[float]:
        """Numbers the feedback on ``choose_ttl`` never shows, nor one near them: the ttls and
        values of the world's tables (a choice among their ttls is told by its rank)."""
        tables = (self.table, self.tie[0], self.close[0], self.near[0], self.free_tie[0])
        values = {v for table in tables for row in table.values() for v in row.values()}
        return frozenset(values | {ttl for table in tables for ttl in table})


def ttl_world() -> TtlWorld:
    """The world of the current grading run (:mod:`~simlab.grading.checks.hidden_world`)."""
    return _ttl_world(current_seed())


@functools.lru_cache(maxsize=8)
def _ttl_world(seed: int) -> TtlWorld:
    # ``seed`` keys the cache only: rng() draws from the same current world.
    source = rng("histories/choose-ttl")
    measured = _measured(source)
    recorded = _recorded(source)
    table, costs = _table(source)
    return TtlWorld(
        measured,
        recorded,
        table,
        costs,
        _tie(source),
        _close(source, measured),
        _pauses(source, measured),
        _near(source, measured),
        _free(costs),
        _free_tie(source, costs),
    )


def _measured(source: Any) -> tuple[tuple[float, tuple[int, ...]], ...]:
    for _ in range(_DRAWS):
        ttls = source.sample(_RUN_TTLS, 2)
        seeds = source.sample(range(100, 10**5), 7)
        calls = (
            (ttls[0], tuple(seeds[:2])),
            (ttls[1], tuple(seeds[2:5])),
            (ttls[0], tuple(seeds[5:])),
            # the second call's seeds again with the first ttl: runs kept by seed alone (state
            # kept between calls) answer the second call's numbers
            (ttls[0], tuple(seeds[2:5])),
            # the second call again with its first seed listed twice: a seed listed twice
            # counts twice, so seeds de-duplicated answer the second call's numbers
            (ttls[1], (*seeds[2:5], seeds[2])),
        )
        if (
            _foreseen_by_none(calls)
            and _seeds_matter(calls[0], calls[2])
            and _seeds_matter(calls[1], calls[3])
            and measure(*calls[4]) != measure(*calls[1])
        ):
            return calls
    raise RuntimeError("no hidden world for measure() held what it must")


def _foreseen_by_none(calls: tuple[tuple[float, tuple[int, ...]], ...]) -> bool:
    """Does every answer that ignores an argument or reads another count get some call wrong,
    for each key it gets from there? (The calls are tried in order and the first that differs
    settles it, so a foreseeing answer costs no run beyond the first call's, mostly.)"""
    foreseen = (
        (KEYS, lambda ttl, seeds: measure(PAUSES.ttl, seeds)),  # the ttl ignored
        (KEYS, lambda ttl, seeds: measure(ttl, seeds[:1])),  # the first seed only
        (KEYS, lambda ttl, seeds: measure(ttl, SHOWN_SEEDS)),  # the notebook's seeds
        (KEYS, lambda ttl, seeds: {k: v * len(seeds) for k, v in measure(ttl, seeds).items()}),
        (  # duplicate work from the workers' wasted steps, not the ledger's refused saves
            ("duplicate_work",),
            lambda ttl, seeds: {
                "duplicate_work": sum(run_of(ttl, n).wasted for n in seeds) / len(seeds)
            },
        ),
    )
    return all(
        any(
            not close_to(wrong(ttl, seeds)[key], measure(ttl, seeds)[key], 1e-9)
            for ttl, seeds in calls
        )
        for keys, wrong in foreseen
        for key in keys
    )


def _seeds_matter(
    first: tuple[float, tuple[int, ...]], again: tuple[float, tuple[int, ...]]
) -> bool:
    """Do two calls (one ttl with other seeds, or other ttls with one's seeds) differ in every
    key of the result?"""
    one, other = measure(*first), measure(*again)
    return all(not close_to(one[key], other[key], 1e-9) for key in KEYS)


def _pauses(
    source: Any, measured: tuple[tuple[float, tuple[int, ...]], ...]
) -> tuple[Scenario, float, tuple[int, ...]]:
    """A scenario for ``PAUSES`` (pause rate and mean, crash rate and tasks drawn) at the ttl
    and first seed of one of the world's calls (a run the world has made already), whose numbers
    differ from :data:`PAUSES`' in both keys: the first call's, or when no scenario drawn for it
    does (at a long ttl, a seed may see no refused save under any of them), the next call's."""
    for ttl, seeds in dict.fromkeys((ttl, seeds[:1]) for ttl, seeds in measured):
        usual = measure(ttl, seeds)
        for _ in range(_PAUSES_DRAWS):
            scenario = PAUSES.with_(
                pause_rate=source.choice((0.1, 0.2, 0.4, 0.5)),
                pause_mean=source.choice((1.5, 2.0, 4.0, 5.0)),
                crash_rate=source.choice((0.05, 0.15, 0.2, 0.3)),
                tasks=source.randint(8, 16),
            )
            got = measure(ttl, seeds, scenario)
            if all(not close_to(got[key], usual[key], 1e-9) for key in KEYS):
                return scenario, ttl, seeds
    raise RuntimeError("no hidden world for PAUSES held what it must")


def _recorded(source: Any) -> tuple[float, int]:
    for _ in range(_DRAWS):
        ttl, seed = source.choice(_RUN_TTLS), source.randrange(100, 10**5)
        history = simulate(PAUSES.with_(ttl=ttl), seed=seed).history
        crashes = [e for e in history if e.op == "crash" and e.task is not None]
        if len(crashes) >= 2 and len(recovery_times(history)) == len(crashes):
            return ttl, seed
    raise RuntimeError("no hidden world for recovery_times() held what it must")


def _value(source: Any, low: float, high: float, step: float) -> float:
    """A table value in [low, high], a multiple of ``step``."""
    return round(round(source.uniform(low, high) / step) * step, 2)


def _table(source: Any) -> tuple[dict[float, dict[str, float]], tuple[tuple[int, int], ...]]:
    for _ in range(_DRAWS):
        ttls = sorted(source.sample(_TABLE_TTLS, 4))
        duplicate = sorted((_value(source, 0.2, 9.0, 0.05) for _ in ttls), reverse=True)
        waiting = sorted(_value(source, 5.0, 90.0, 0.1) for _ in ttls)
        rows = {
            t: {"duplicate_work": d, "waiting": w}
            for t, d, w in zip(ttls, duplicate, waiting, strict=True)
        }
        if set(duplicate + waiting) & set(_TABLE_TTLS):
            continue  # a choice that is a ttl is told by its rank: no table value may pass for one
        for _ in range(_COST_DRAWS):
            costs = tuple((source.randint(1, 60), source.randint(1, 3)) for _ in range(3))
            if not all(_one_cheapest(rows, *c) for c in costs + _free(costs)):
                continue
            chosen = [choose_ttl(rows, *c) for c in costs]
            if (
                len(set(chosen)) == 3
                and min(ttls) in chosen
                and max(ttls) in chosen
                and _each_cost_matters(costs)
            ):
                order = source.sample(ttls, len(ttls))
                return {t: rows[t] for t in order}, costs
    raise RuntimeError("no hidden world for choose_ttl() held what it must")


def _free(costs: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    """The world's costs with one of them free: the first pair's wait cost with a step cost of
    0, and its step cost with a wait cost of 0."""
    step_cost, wait_cost = costs[0]
    return ((0, wait_cost), (step_cost, 0))


def _free_tie(
    source: Any, costs: tuple[tuple[int, int], ...]
) -> tuple[dict[float, dict[str, float]], int]:
    """Three ttls (``low`` < ``a`` < ``b``) and the first pair's step cost: ``a`` and ``b``
    see no duplicate work, ``low`` some, the waiting grows with the ttl (as measured tables
    go); ``b`` is listed first, then ``low`` and ``a`` in a drawn order. With ``wait_cost`` 0
    the cheapest are ``a`` and ``b`` at cost 0, a tie that ``a`` wins; with both costs 0 every
    ttl costs 0 and ``low`` wins. No value is one of :data:`_TABLE_TTLS` (a choice that is a
    ttl is told by its rank)."""
    low, a, b = sorted(source.sample(_TABLE_TTLS, 3))
    # Means over three runs, as measure gives them (thirds: never a ttl of the table).
    duplicate = source.choice([n for n in range(1, 25) if n % 3]) / 3
    waits = sorted(source.sample(range(50, 900), 3))
    rows = {
        low: (duplicate, waits[0] / 10 + 1 / 30),
        a: (0.0, waits[1] / 10 + 1 / 30),
        b: (0.0, waits[2] / 10 + 1 / 30),
    }
    order = [b, *source.sample([low, a], 2)]
    table = {t: {"duplicate_work": rows[t][0], "waiting": rows[t][1]} for t in order}
    return table, costs[0][0]


def _each_cost_matters(costs: tuple[tuple[int, int], ...]) -> bool:
    """Does a choice that ignores ``step_cost``, and one that ignores ``wait_cost`` (any
    constant in its place), choose wrong for one of ``costs`` (whose cheapest ttls differ)?

    The cheapest ttl depends on the ratio ``step_cost / wait_cost`` alone and never falls as it
    grows (the row of least ``duplicate_work * ratio + waiting`` has less duplicate work at a
    larger ratio, and a table's duplicate work falls as its ttl grows). A choice that reads one
    cost alone keeps the order of that cost instead: when a pair of a larger ratio has a
    ``step_cost`` no larger (or a ``wait_cost`` no smaller) than a pair of a smaller ratio, no
    constant for the other cost chooses right for both."""
    by_ratio = sorted(costs, key=lambda c: Fraction(c[0], c[1]))
    pairs = [(low, high) for i, low in enumerate(by_ratio) for high in by_ratio[i + 1 :]]
    return any(low[0] >= high[0] for low, high in pairs) and any(
        low[1] <= high[1] for low, high in pairs
    )


def _one_cheapest(table: dict, step_cost: float, wait_cost: float) -> bool:
    costs = sorted(
        r["duplicate_work"] * step_cost + r["waiting"] * wait_cost for r in table.values()
    )
    return costs[1] - costs[0] > 1e-6


def _tie(source: Any) -> tuple[dict[float, dict[str, float]], int, int]:
    """Three ttls, two of which (``a`` < ``b``) cost the same and less than the third; ``b``
    comes before ``a`` in the table. Integers only, so the tie is exact."""
    ttls = source.sample(_TABLE_TTLS, 3)
    third, (a, b) = ttls[0], sorted(ttls[1:])
    step, wait = source.randint(1, 5), source.randint(1, 5)
    k = source.randint(1, 3)
    dup_a, wait_a = wait * k + source.randint(0, 4), source.randint(1, 6)
    rows = {
        a: (dup_a, wait_a),
        b: (dup_a - wait * k, wait_a + step * k),
        third: (dup_a + source.randint(1, 3), wait_a + source.randint(0, 3)),
    }
    order = [b, third, a] if source.random() < 0.5 else [third, b, a]
    table = {t: {"duplicate_work": float(rows[t][0]), "waiting": float(rows[t][1])} for t in order}
    return table, step, wait


def _close(
    source: Any, measured: tuple[tuple[float, tuple[int, ...]], ...]
) -> tuple[dict[float, dict[str, float]], int, int]:
    """Three ttls, the two cheapest (``a`` < ``b``) a few thousandths apart, ``b`` the cheaper,
    both just above one integer (so costs rounded to two decimals or fewer tie, and the tie
    goes to ``a``); ``a`` comes before ``b`` in the table, the third costs more; no value of
    the table is one of :data:`_TABLE_TTLS`, and no ttl of it a value ``measured`` gives (a
    choice is shown as itself, never as a hidden number)."""
    hidden = {v for ttl, seeds in measured for v in measure(ttl, seeds).values()}
    for _ in range(_DRAWS):
        ttls = source.sample([t for t in _TABLE_TTLS if t not in hidden], 3)
        third, (a, b) = ttls[0], sorted(ttls[1:])
        step, wait = source.randint(2, 12), source.randint(1, 3)
        # Means over three runs, as measure gives them (thirds: never a short number that
        # feedback could hold by chance).
        dup_b = source.choice([n for n in range(1, 13) if n % 3]) / 3
        dup_a = dup_b + source.choice([n for n in range(2, 13) if n % 3]) / 3
        base = int(dup_a * step) + source.randint(5, 60)
        cost_b = base + 0.001
        cost_a = cost_b + source.choice((0.001, 0.002, 0.003))
        rows = {
            a: (dup_a, (cost_a - dup_a * step) / wait),
            b: (dup_b, (cost_b - dup_b * step) / wait),
            third: (dup_a + 1.0, (base + source.randint(2, 9) - dup_a * step) / wait),
        }
        order = source.choice(([a, b, third], [a, third, b], [third, a, b]))
        table = {t: {"duplicate_work": rows[t][0], "waiting": rows[t][1]} for t in order}
        values = [v for row in table.values() for v in row.values()]
        if set(values) & set(_TABLE_TTLS):
            continue  # a choice that is a ttl is told by its rank: no table value may pass for one
        if choose_ttl(table, step, wait) == b and all(
            _rounded_choice(table, step, wait, digits) == a for digits in (0, 1, 2)
        ):
            return table, step, wait
    raise RuntimeError("no hidden world for choose_ttl() held what it must")


def _rounded_choice(table: dict, step_cost: float, wait_cost: float, digits: int) -> float:
    """The choice of a choose_ttl that rounds each cost to ``digits`` before comparing."""

    def cost(ttl: float) -> float:
        row = table[ttl]
        return round(row["duplicate_work"] * step_cost + row["waiting"] * wait_cost, digits)

    return min(sorted(table), key=cost)


#: How far apart the two cheapest costs of the near table are, relative to them: far above
#: float rounding (about 1e-16, exact here anyway), below :func:`math.isclose`'s 1e-9.
NEAR = (1e-11, 2e-10)


def _near(
    source: Any, measured: tuple[tuple[float, tuple[int, ...]], ...]
) -> tuple[dict[float, dict[str, float]], int, int]:
    """Three ttls, the two cheapest (``a`` < ``b``) a relative :data:`NEAR` apart, ``b`` the
    cheaper, ``a`` listed before it, the third dearer by more than one. Every value is a
    multiple of 2**-30 below 2**12, ``step_cost`` at most 12 and ``wait_cost`` a power of two,
    so every product, sum and quotient of the cost is exact in any order: the two costs differ
    however they are computed, and a cost equal within :func:`math.isclose` is no tie."""
    hidden = {v for ttl, seeds in measured for v in measure(ttl, seeds).values()}
    tiny = 2.0**-30
    for _ in range(_DRAWS):
        ttls = source.sample([t for t in _TABLE_TTLS if t not in hidden], 3)
        third, (a, b) = ttls[0], sorted(ttls[1:])
        step, wait = source.randint(2, 12), source.choice((1, 2, 4))
        # Means over four runs, as measure would give them.
        dup_b = source.randint(1, 40) / 4
        dup_a = dup_b + source.randint(1, 12) / 4
        wait_b = (dup_a - dup_b) * step / wait + source.randint(8, 400) / 8
        wait_a = wait_b - (dup_a - dup_b) * step / wait + tiny
        rows = {
            a: (dup_a, wait_a),
            b: (dup_b, wait_b),
            third: (dup_a + 1.0, wait_a + source.randint(1, 5)),
        }
        order = source.choice(([a, b, third], [a, third, b], [third, a, b]))
        table = {t: {"duplicate_work": rows[t][0], "waiting": rows[t][1]} for t in order}
        values = [v for row in table.values() for v in row.values()]
        if set(values) & set(_TABLE_TTLS):
            continue  # a choice that is a ttl is told by its rank: no table value may pass for one
        low, high = (dup_b * step + wait_b * wait), (dup_a * step + wait_a * wait)
        if NEAR[0] <= (high - low) / high <= NEAR[1] and choose_ttl(table, step, wait) == b:
            return table, step, wait
    raise RuntimeError("no hidden world for choose_ttl() held what it must")
