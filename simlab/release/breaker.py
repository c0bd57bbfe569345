"""A circuit breaker over a candidate's recent requests: pure Python, time passed in.

The canary (:mod:`simlab.release.canary`) feeds it each finished candidate request with SimPy's
``env.now``; a test or a notebook can feed it by hand. It keeps a sliding window of
``window`` seconds and judges only once the window holds ``min_requests`` requests: a rate
measured on three requests is noise, and a breaker that trips on noise teaches people to
ignore it. Every judgement is kept (:class:`BreakerSample`), and every trip (:class:`Trip`)
says why in one sentence.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

__all__ = ["Trip", "BreakerSample", "Breaker", "BREAKER_STATES"]

BREAKER_STATES = ("closed", "open", "half-open")


@dataclass(frozen=True)
class Trip:
    """The breaker opened at ``t``: ``reason`` in one sentence, and the window it judged."""

    t: float
    reason: str
    error_rate: float
    cost: float
    requests: int


@dataclass(frozen=True)
class BreakerSample:
    """The breaker's view after each candidate request: window size, error rate, mean cost."""

    t: float
    requests: int
    error_rate: float
    cost: float
    state: str


class Breaker:
    """A circuit breaker over the candidate's recent requests. Pure Python, time passed in.

    States: ``closed`` (canary traffic goes to the candidate), ``open`` (it goes to the
    read-only path) and ``half-open`` (the candidate gets traffic again, on probation).
    :meth:`observe` adds one finished candidate request and may trip; :meth:`half_open` is
    called ``cooldown`` after a trip (the simulation schedules it); after ``max_trips`` trips
    the breaker stays open.
    """

    def __init__(
        self,
        *,
        max_error_rate: float,
        max_cost: float,
        window: float,
        min_requests: int,
        max_trips: int,
    ):
        self.max_error_rate = max_error_rate
        self.max_cost = max_cost
        self.window = window
        self.min_requests = min_requests
        self.max_trips = max_trips
        self.state = "closed"
        self.trips: list[Trip] = []
        self.samples: list[BreakerSample] = []
        self._recent: deque[tuple[float, bool, int]] = deque()

    @property
    def latched(self) -> bool:
        return len(self.trips) >= self.max_trips

    def observe(self, t: float, error: bool, tokens: int) -> Trip | None:
        """Record a candidate request finished at ``t``; return the trip it caused, if any."""
        if self.state == "open":
            return None  # a straggler served before the trip: the window restarts on probation
        self._recent.append((t, error, tokens))
        while self._recent and self._recent[0][0] <= t - self.window:
            self._recent.popleft()
        n = len(self._recent)
        rate = sum(e for _, e, _ in self._recent) / n
        cost = sum(c for *_, c in self._recent) / n
        self.samples.append(BreakerSample(t, n, rate, cost, self.state))
        if n < self.min_requests:
            return None
        if rate > self.max_error_rate:
            reason = (
                f"error rate {rate:.1%} over the last {n} candidate requests > "
                f"{self.max_error_rate:.1%}"
            )
        elif cost > self.max_cost:
            reason = (
                f"mean cost {cost:.0f} tokens over the last {n} candidate requests > "
                f"{self.max_cost:g}"
            )
        else:
            if self.state == "half-open":
                self.state = "closed"
            return None
        trip = Trip(t, reason, rate, cost, n)
        self.trips.append(trip)
        self.state = "open"
        self._recent.clear()
        return trip

    def half_open(self) -> None:
        """The cooldown is over: let the candidate serve again, on probation."""
        if self.state == "open" and not self.latched:
            self.state = "half-open"
