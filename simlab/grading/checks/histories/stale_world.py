"""The hidden world of question ``stale-commits`` (:mod:`~simlab.grading.checks.histories.stale`):
the recorded runs the rule reads (scenario and seed, never the notebook's), the names of the
tasks of the two-task case and of the generated histories, and the hand-written histories of
unknown outcomes and of times that go back, drawn from
:func:`~simlab.grading.checks.hidden_world.rng`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from simlab.checker.checker import stale_commit_events
from simlab.grading.checks.hidden_world import current_seed, look_alikes, rng
from simlab.sim.scenario import Scenario
from simlab.sim.simulation import simulate

__all__ = ["UNFENCED", "SHOWN_SEED", "StaleWorld", "stale_world"]

#: The notebook's unfenced run (its demo and its check cell): the scenario the hidden world's
#: recorded runs vary, and the seed they never use.
UNFENCED = Scenario(tasks=15, workers=3, variant="unfenced", pause_rate=0.3)
SHOWN_SEED = 3


@dataclass(frozen=True)
class StaleWorld:
    """What ``stale-commits`` is judged on in one hidden world.

    ``unfenced``: two recorded runs ``(scenario, seed)`` with the fence off, each with at least
    one stale commit and not as many as the other (so no count typed in gets both right);
    ``fenced``: a run with the fence on that refused saves (so a rule that counts refused saves
    reports some) and, the fence holding, has no stale commit; ``tasks``: the names of the two
    tasks of the generated histories and of the two-task case, the first the second with a
    digit more (so a rule that matches tasks by prefix mixes them); ``unknown``: a hand-written
    history (rows of :func:`events_of`) where, after a takeover, the old epoch's save has an
    unknown outcome (``info``: not an accepted save), with or without (drawn) an accepted stale
    save after it (so a rule that takes ``info`` for ``ok`` finds one stale commit too many);
    ``clocks``: a hand-written history whose times go back: an accepted save of the old epoch
    listed after the takeover's claim but stamped before it (workers, times and step drawn), a
    stale commit that a rule walking the events sorted by time misses; ``lost_claim``: a
    hand-written history where another worker's claim of a newer epoch has an unknown outcome
    (``info``: its reply lost, so it grants nothing) before the old epoch's accepted save, with
    or without (drawn) a later claim ok of a newer epoch still and another save of the old one
    (so a rule that takes an ``info`` claim for a grant finds one stale commit too many);
    ``lost_cancel``: the same with a cancel of unknown outcome (``info``: a cancel grants an
    epoch only when ``ok``) in place of the claim, so a rule that takes an ``info`` cancel for
    a grant finds one stale commit too many;
    ``names``: a hand-written history of tasks whose names are drawn: one (holding a composed
    accent), another that differs from it in its last character only, the first in other
    capitals, and the first's look-alikes (white space before or after it, its first character
    full-width, its accent decomposed: :func:`~simlab.grading.checks.hidden_world.look_alikes`);
    only the second has a stale commit, and the first's accepted save is stale only to a rule
    that mixes its task with one of the others (by a prefix of its name, by folding capitals,
    by stripping white space or by normalising its Unicode form: NFC, NFKC);
    ``above``: a hand-written history with an accepted save whose epoch is above every epoch
    granted to its task (epochs drawn): not a stale commit, as only a lower epoch is one; an
    accepted save of the granted epoch follows it, not stale either, as a save grants no epoch
    (a rule that lets the higher save raise the task's epoch finds one), and a refused save of
    another epoch above it comes before them (a rule that lets a refused save grant its epoch
    finds stale commits);
    ``kept``: a hand-written history of one task whose older epoch's accepted saves come after
    a newer holder's release and after a cancel and a requeue (neither takes a granted epoch
    back: a rule that forgets the task's epoch on either finds one stale commit too few), its
    epochs gaining a digit (the older one 9 or 99, drawn: compared as strings, the newer ones
    look lower);
    ``cancel_first``: a hand-written history where the task's only claim has an unknown
    outcome (``info``) and a cancel ok then grants the next epoch, before the claimed epoch's
    accepted save (stale: a rule that lets a cancel grant only once a claim ok did misses it);
    ``sentences``: a hand-written history of the tasks ``t7`` and ``t3`` whose stale commits
    are ``t7``'s, that same save recorded again (a retried save: two stale commits, whose
    sentences may be equal), then ``t3``'s stamped before them (workers and times drawn), so
    sentences given once each, or in the order of their times, are wrong there. The
    stale commits of the two unfenced runs together are in at least two tasks, so a sentence
    that names a task typed in (one every recorded run holds) names another task of its
    history in one of them.
    """

    unfenced: tuple[tuple[Scenario, int], ...]
    fenced: tuple[Scenario, int]
    tasks: tuple[str, str]
    unknown: tuple[tuple, ...] = ()
    clocks: tuple[tuple, ...] = ()
    lost_claim: tuple[tuple, ...] = ()
    names: tuple[tuple, ...] = ()
    above: tuple[tuple, ...] = ()
    lost_cancel: tuple[tuple, ...] = ()
    kept: tuple[tuple, ...] = ()
    cancel_first: tuple[tuple, ...] = ()
    sentences: tuple[tuple, ...] = ()


#: Composed accented letters a drawn task name holds (decomposed, another name NFC composes back).
_ACCENTED = "éèêáàâüöïçñ"

#: How many draws :func:`stale_world` may make before it gives up (it never needs many).
_DRAWS = 200


def stale_world() -> StaleWorld:
    """The world of the current grading run (:mod:`~simlab.grading.checks.hidden_world`)."""
    return _stale_world(current_seed())


@functools.lru_cache(maxsize=8)
def _stale_world(seed: int) -> StaleWorld:
    # ``seed`` keys the cache only: rng() draws from the same current world.
    source = rng("histories/stale-commits")
    short = f"t{source.randint(1, 9)}"
    tasks = (short + str(source.randint(0, 9)), short)
    for _ in range(_DRAWS):
        runs = tuple((_scenario(source), source.randrange(10, 10**6)) for _ in range(2))
        found = [stale_commit_events(simulate(sc, seed=n).history) for sc, n in runs]
        counts = [len(f) for f in found]
        stale_tasks = {e.task for f in found for e, _ in f}
        fenced = (runs[0][0].with_(variant="fenced"), source.randrange(10, 10**6))
        refused = simulate(fenced[0], seed=fenced[1]).stale_rejected
        if min(counts) > 0 and counts[0] != counts[1] and refused > 0 and len(stale_tasks) > 1:
            unknown = _unknown(source, tasks[0])
            clocks = _clocks(source, tasks[0])
            lost_claim = _lost_claim(source, tasks[0])
            return StaleWorld(
                runs,
                fenced,
                tasks,
                unknown,
                clocks,
                lost_claim,
                _names(source),
                _above(source, tasks[0]),
                _lost_cancel(source, tasks[0]),
                _kept(source, tasks[0]),
                _cancel_first(source, tasks[0]),
                _sentences(source),
            )
    raise RuntimeError("no hidden world for stale-commits held what it must")


def _unknown(source: Any, task: str) -> tuple[tuple, ...]:
    """The rows of a history whose older epoch's save has an unknown outcome (``info``) after
    a takeover (workers, times, steps and a later accepted stale save drawn)."""
    old, new = source.sample(("w1", "w2", "w3", "w4"), 2)
    times = sorted(round(source.uniform(0.0, 20.0), 3) for _ in range(5))
    step = source.randint(1, 4)
    rows = [
        (times[0], "ok", old, "claim", task, 1, step - 1),
        (times[1], "ok", new, "claim", task, 2, step - 1),
        (times[2], "invoke", old, "save", task, 1, step),
        (times[3], "info", old, "save", task, 1, step),
        (times[4], "ok", new, "save", task, 2, step),
    ]
    if source.random() < 0.5:
        rows.append((times[4] + 1.0, "ok", old, "save", task, 1, step + 1))
    return tuple(rows)


def _clocks(source: Any, task: str) -> tuple[tuple, ...]:
    """The rows of a history whose times go back: after a takeover, the old epoch's accepted
    save is listed after the new claim but stamped before it (workers, times, step drawn)."""
    old, new = source.sample(("w1", "w2", "w3", "w4"), 2)
    start = round(source.uniform(0.0, 10.0), 3)
    saved = round(start + source.uniform(0.5, 5.0), 3)
    claimed = round(saved + source.uniform(0.5, 5.0), 3)
    step = source.randint(1, 4)
    return (
        (start, "ok", old, "claim", task, 1, step - 1),
        (claimed, "ok", new, "claim", task, 2, step - 1),
        (saved, "ok", old, "save", task, 1, step),
    )


def _lost_claim(source: Any, task: str) -> tuple[tuple, ...]:
    """The rows of a history where a newer claim's outcome is unknown (``info``: it grants no
    epoch) before the old epoch's accepted save; with or without (drawn) a claim ok of a newer
    epoch after it and another save of the old epoch (workers, times and step drawn)."""
    old, new, third = source.sample(("w1", "w2", "w3", "w4"), 3)
    times = sorted(round(source.uniform(0.0, 20.0), 3) for _ in range(6))
    step = source.randint(1, 4)
    rows = [
        (times[0], "ok", old, "claim", task, 1, step - 1),
        (times[1], "invoke", new, "claim", task),
        (times[2], "info", new, "claim", task, 2, step - 1),
        (times[3], "ok", old, "save", task, 1, step),
    ]
    if source.random() < 0.5:
        rows.append((times[4], "ok", third, "claim", task, 3, step))
        rows.append((times[5], "ok", old, "save", task, 1, step + 1))
    return tuple(rows)


def _lost_cancel(source: Any, task: str) -> tuple[tuple, ...]:
    """The rows of a history where a cancel's outcome is unknown (``info``: it grants no epoch)
    before the old epoch's accepted save; with or without (drawn) a claim ok of a newer epoch
    after it and another save of the old epoch (workers, times and step drawn)."""
    old, third = source.sample(("w1", "w2", "w3", "w4"), 2)
    times = sorted(round(source.uniform(0.0, 20.0), 3) for _ in range(6))
    step = source.randint(1, 4)
    rows = [
        (times[0], "ok", old, "claim", task, 1, step - 1),
        (times[1], "invoke", "user", "cancel", task),
        (times[2], "info", "user", "cancel", task, 2, None),
        (times[3], "ok", old, "save", task, 1, step),
    ]
    if source.random() < 0.5:
        rows.append((times[4], "ok", third, "claim", task, 3, step))
        rows.append((times[5], "ok", old, "save", task, 1, step + 1))
    return tuple(rows)


def _names(source: Any) -> tuple[tuple, ...]:
    """The rows of a history of tasks: ``own`` (holding a composed accent), ``near`` (``own``
    but its last digit), ``own`` in other capitals and ``own``'s look-alikes (white space
    around it, its first character full-width, its accent decomposed), each look-alike
    granted a higher epoch than ``own`` (names, workers, times, epochs and the order of the two
    saves drawn). Only ``near``'s save is stale; ``own``'s is stale to a rule that mixes
    ``own`` with ``near`` (a prefix of the names), with its capitals (names folded) or with a
    look-alike (names stripped or normalised)."""
    letters = "".join(source.choice("abcdefghjkmnpqrstuvwxyz") for _ in range(source.randint(3, 5)))
    digits = str(source.randint(1000, 99999))
    own = f"{letters}{source.choice(_ACCENTED)}-{digits}"
    last = source.choice([d for d in "0123456789" if d != digits[-1]])
    near = own[:-1] + last
    capitals = own.upper() if source.random() < 0.5 else own.capitalize()
    twins = list(dict.fromkeys((capitals, *look_alikes(own))))
    times = sorted(round(source.uniform(0.0, 20.0), 3) for _ in range(len(twins) + 5))
    a, c, d = source.sample(("w1", "w2", "w3", "w4", "w5"), 3)
    claims = [("ok", a, "claim", own, 1, 0)]
    claims += [
        ("ok", source.choice(("w6", "w7", "w8", "w9")), "claim", twin, source.randint(2, 5), 0)
        for twin in twins
    ]
    claims += [("ok", c, "claim", near, 1, 0), ("ok", d, "claim", near, 2, 0)]
    source.shuffle(claims)
    saves = [("ok", a, "save", own, 1, 1), ("ok", c, "save", near, 1, 1)]
    source.shuffle(saves)
    return tuple((t, *row) for t, row in zip(times, claims + saves, strict=True))


def _above(source: Any, task: str) -> tuple[tuple, ...]:
    """The rows of a history with an accepted save of an epoch above every epoch granted to
    its task (a ledger bug of another kind than a stale commit), then an accepted save of the
    granted epoch (current still: a save grants no epoch); before them, another worker's
    refused save of another epoch above the granted one (a refused save grants none either):
    workers, times, epochs drawn."""
    worker, other = source.sample(("w1", "w2", "w3", "w4"), 2)
    times = sorted(round(source.uniform(0.0, 20.0), 3) for _ in range(5))
    granted = source.randint(1, 3)
    return (
        (times[0], "ok", worker, "claim", task, granted, 0),
        (times[1], "fail", other, "save", task, granted + source.randint(4, 6), 1),
        (times[2], "ok", worker, "save", task, granted, 1),
        (times[3], "ok", worker, "save", task, granted + source.randint(1, 3), 2),
        (times[4], "ok", worker, "save", task, granted, 3),
    )


def _kept(source: Any, task: str) -> tuple[tuple, ...]:
    """The rows of a history of one task where the older epoch saves after the newer holder
    released the task, and again after a cancel and a requeue: both saves are stale, as a
    release or a requeue takes no granted epoch back. The older epoch is 9 or 99 (drawn), the
    newer ones a digit longer (workers, times and step drawn)."""
    old, new = source.sample(("w1", "w2", "w3", "w4"), 2)
    times = sorted(round(source.uniform(0.0, 30.0), 3) for _ in range(6))
    step = source.randint(1, 4)
    epoch = source.choice((9, 99))
    return (
        (times[0], "ok", old, "claim", task, epoch, step - 1),
        (times[1], "ok", new, "claim", task, epoch + 1, step - 1),
        (times[2], "ok", new, "release", task, epoch + 1, step - 1),
        (times[3], "ok", old, "save", task, epoch, step),
        (times[4], "invoke", "user", "cancel", task),
        (times[4], "ok", "user", "cancel", task, epoch + 2, None),
        (times[4], "invoke", "user", "requeue", task),
        (times[4], "ok", "user", "requeue", task, epoch + 2, None),
        (times[5], "ok", old, "save", task, epoch, step + 1),
    )


def _cancel_first(source: Any, task: str) -> tuple[tuple, ...]:
    """The rows of a history where the task's only claim has an unknown outcome (``info``:
    it grants nothing), a cancel ok grants the next epoch, then the claimed epoch's save is
    accepted: stale (worker, times, epoch and step drawn)."""
    worker = source.choice(("w1", "w2", "w3", "w4"))
    times = sorted(round(source.uniform(0.0, 20.0), 3) for _ in range(4))
    epoch, step = source.randint(1, 3), source.randint(1, 4)
    return (
        (times[0], "invoke", worker, "claim", task),
        (times[1], "info", worker, "claim", task, epoch, step - 1),
        (times[2], "invoke", "user", "cancel", task),
        (times[2], "ok", "user", "cancel", task, epoch + 1, None),
        (times[3], "ok", worker, "save", task, epoch, step),
    )


def _sentences(source: Any) -> tuple[tuple, ...]:
    """The rows of a history of ``t3`` and ``t7`` whose stale commits are, in history order,
    ``t7``'s, the same save recorded again (a retry: the same row), then ``t3``'s, stamped
    between the newer claims and ``t7``'s save (workers and times drawn)."""
    a, b, c, d = source.sample(("w1", "w2", "w3", "w4", "w5"), 4)
    claims = sorted(round(source.uniform(0.0, 10.0), 3) for _ in range(4))
    back = round(claims[-1] + source.uniform(0.5, 5.0), 3)
    saved = round(back + source.uniform(0.5, 5.0), 3)
    retried = (saved, "ok", b, "save", "t7", 1, 1)
    return (
        (claims[0], "ok", a, "claim", "t3", 1, 0),
        (claims[1], "ok", b, "claim", "t7", 1, 0),
        (claims[2], "ok", c, "claim", "t7", 2, 0),
        (claims[3], "ok", d, "claim", "t3", 2, 0),
        retried,
        retried,
        (back, "ok", a, "save", "t3", 1, 1),
    )


def _scenario(source: Any) -> Scenario:
    """An unfenced scenario other than the notebook's (never its pause rate): tasks, workers
    and pauses drawn."""
    return UNFENCED.with_(
        tasks=source.randint(10, 16),
        workers=source.randint(2, 4),
        pause_rate=source.choice((0.2, 0.25, 0.35, 0.4)),
    )
