"""Rules (h), (i) and (j): a lease is the right to work on a task, and only its newest holder
may use it.

Rule (a) fences the saves. These three rules fence what else a lease lets a worker do: hold the
task, renew the lease, and record an e-mail before sending it. Each is a pure function over a
recorded history (:mod:`simlab.check.history`), like the rules of :mod:`simlab.check.checker`.

========= ================== ==========================================================
rule      function           the property
========= ================== ==========================================================
(h)       live_leases        a task is never claimed while another lease on it is live:
                             every claim ok comes after the previous lease ran out (its
                             ``lease_until``, moved on by its accepted heartbeats) or ended
                             (a cancel ok, an accepted save with ``done``)
(i)       stale_heartbeats   no heartbeat is accepted for a lease whose epoch is no longer
                             its task's newest (a higher epoch was granted by a claim ok or
                             bumped by a cancel ok)
(j)       stale_effects      no e-mail key is recorded (effect ok) by a lease whose epoch is
                             no longer its task's newest
========= ================== ==========================================================

How long a lease lives, read from the history alone: a claim ok carries ``lease_until``; the
claim's ttl is ``lease_until`` minus the claim's time, and an accepted heartbeat of the same
epoch at time ``t`` moves ``lease_until`` to ``t + ttl``. A claim ok without ``lease_until``
(a hand-made history) starts a lease rule (h) does not judge. Times closer than
:data:`TOLERANCE` count as equal, so a claim at the very instant a lease runs out is fine.
Every finder here is one pass over the events: O(n).
"""

from __future__ import annotations

from collections.abc import Iterable

from simlab.check.history import Event

__all__ = [
    "TOLERANCE",
    "live_lease_events",
    "live_leases",
    "stale_heartbeat_events",
    "stale_heartbeats",
    "stale_effect_events",
    "stale_effects",
    "stale_events",
]

#: Relative tolerance on times: a lease that runs out this close to a claim has run out.
TOLERANCE = 1e-9


def _at(time: float) -> str:
    return f"t={round(float(time), 3)!r}"


def _who(e: Event) -> str:
    return f"{e.process} (epoch {e.epoch})"


def _live(until: float, now: float) -> bool:
    return until - now > TOLERANCE * max(1.0, abs(now))


# --- rule (h): one live lease per task ----------------------------------------------------------


def live_lease_events(history: Iterable[Event]) -> list[tuple[Event, Event, float]]:
    """The findings of rule (h): ``(claim, holder, until)`` for every claim ok that came while
    the lease granted by ``holder`` (an earlier claim ok of the same task) was still live, until
    ``until`` by the history's clock."""
    leases: dict[str, tuple[Event, float, float] | None] = {}  # task -> (claim ok, ttl, until)
    found = []
    for e in history:
        if e.type != "ok" or e.task is None:
            continue
        if e.op == "claim":
            held = leases.get(e.task)
            if held is not None and _live(held[2], e.time):
                found.append((e, held[0], held[2]))
            until = e.value.get("lease_until")
            if until is None or e.epoch is None:
                leases[e.task] = None
            else:
                leases[e.task] = (e, float(until) - e.time, float(until))
        elif e.op == "heartbeat":
            held = leases.get(e.task)
            if held is not None and e.epoch == held[0].epoch:
                leases[e.task] = (held[0], held[1], max(held[2], e.time + held[1]))
        elif e.op == "cancel" or (e.op == "save" and e.value.get("done")):
            leases[e.task] = None
    return found


def live_leases(history: Iterable[Event]) -> list[str]:
    """Rule (h): a task is never claimed while another lease on it is live. One sentence per
    finding of :func:`live_lease_events`."""
    return [
        f"{e.process} was granted epoch {e.epoch} of {e.task} at {_at(e.time)}, but the lease "
        f"of {_who(holder)} was live until {_at(until)}."
        for e, holder, until in live_lease_events(history)
    ]


# --- rules (i) and (j): a stale lease renews nothing and records nothing ------------------------


def stale_events(history: Iterable[Event], op: str) -> list[tuple[Event, Event]]:
    """``(event, winner)`` for every accepted ``op`` whose epoch was below its task's newest,
    ``winner`` being the claim ok or cancel ok that granted the newest epoch."""
    newest: dict[str, Event] = {}
    found = []
    for e in history:
        if e.type != "ok" or e.task is None or e.epoch is None:
            continue
        if e.op in ("claim", "cancel"):
            if e.task not in newest or e.epoch > newest[e.task].epoch:
                newest[e.task] = e
        elif e.op == op and e.task in newest and newest[e.task].epoch > e.epoch:
            found.append((e, newest[e.task]))
    return found


def _why(winner: Event) -> str:
    if winner.op == "cancel":
        return f"it was cancelled at {_at(winner.time)} (epoch {winner.epoch})"
    return f"epoch {winner.epoch} was granted to {winner.process} at {_at(winner.time)}"


def stale_heartbeat_events(history: Iterable[Event]) -> list[tuple[Event, Event]]:
    """The findings of rule (i): ``(heartbeat, winner)`` for every accepted heartbeat of a lease
    whose epoch was no longer its task's newest."""
    return stale_events(history, "heartbeat")


def stale_heartbeats(history: Iterable[Event]) -> list[str]:
    """Rule (i): no heartbeat is accepted for a lease whose epoch is no longer the newest (it
    would keep the newer holder's lease alive for a worker that lost it)."""
    return [
        f"{_who(e)} renewed its lease on {e.task} at {_at(e.time)}, but {_why(winner)}."
        for e, winner in stale_heartbeat_events(history)
    ]


def stale_effect_events(history: Iterable[Event]) -> list[tuple[Event, Event]]:
    """The findings of rule (j): ``(effect, winner)`` for every e-mail key recorded (effect ok)
    by a lease whose epoch was no longer its task's newest."""
    return stale_events(history, "effect")


def stale_effects(history: Iterable[Event]) -> list[str]:
    """Rule (j): no e-mail key is recorded by a lease whose epoch is no longer the newest (the
    worker that lost the task would send it)."""
    return [
        f"{_who(e)} recorded the e-mail {e.value.get('key')!r} of {e.task} at {_at(e.time)}, "
        f"but {_why(winner)}."
        for e, winner in stale_effect_events(history)
    ]
