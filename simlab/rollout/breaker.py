"""A circuit breaker over a candidate's recent requests: pure Python, time passed in.

The canary (:mod:`simlab.sim.canary`) asks it before each candidate request whether to admit
it (:meth:`Breaker.admit`) and feeds it each finished candidate request with SimPy's
``env.now``; a test or a notebook can do both by hand.

* **closed**: every request is admitted. The breaker keeps a sliding window of ``window``
  seconds and judges only once the window holds ``min_requests`` requests: a rate measured on
  three requests is noise, and a breaker that trips on noise teaches people to ignore it. An
  error rate above ``max_error_rate`` or mean tokens above ``max_cost`` **trips** it.
* **open**: nothing is admitted (the canary sends its tenants to the read-only path).
  :meth:`half_open` is called ``cooldown`` after a trip (the simulation schedules it).
* **half-open**: only ``probe_requests`` requests are admitted, the *probes* (the usual
  pattern: a few requests test the candidate, the rest stay on the safe path). When the last
  probe has finished, their outcome decides: an error rate above ``max_error_rate`` or mean
  tokens above ``max_cost`` trips the breaker again; otherwise it closes, and its window
  starts over from the probes.

After ``max_trips`` trips the breaker stays open (it has *latched*). Every judgement is kept
(:class:`BreakerSample`), every trip (:class:`Trip`) says why in one sentence, and every change
of state is kept with its time (``changes``).
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
    """The breaker's view after each candidate request it judged: how many requests it judged
    (the window's, or the probes' so far when ``state`` is ``half-open``), their error rate and
    mean cost."""

    t: float
    requests: int
    error_rate: float
    cost: float
    state: str


class Breaker:
    """A circuit breaker over the candidate's recent requests (see the module doc).

    Invariants: :meth:`admit` returns True at most ``probe_requests`` times per half-open
    period and never while open; a request observed with ``probe=False`` while half-open (a
    straggler admitted before the trip) never decides anything; ``len(trips) <= max_trips``.
    """

    def __init__(
        self,
        *,
        max_error_rate: float,
        max_cost: float,
        window: float,
        min_requests: int,
        max_trips: int,
        probe_requests: int = 5,
    ):
        if probe_requests < 1:
            raise ValueError(f"probe_requests must be at least 1, got {probe_requests}")
        if not window > 0:
            raise ValueError(f"window must be positive, got {window}")
        self.max_error_rate = max_error_rate
        self.max_cost = max_cost
        self.window = window
        self.min_requests = min_requests
        self.max_trips = max_trips
        self.probe_requests = probe_requests
        self.state = "closed"
        self.trips: list[Trip] = []
        self.samples: list[BreakerSample] = []
        self.changes: list[tuple[float, str]] = []
        self._recent: deque[tuple[float, bool, int]] = deque()
        # The errors and tokens of the requests in ``_recent``, kept as they enter and leave:
        # both are whole numbers, so the sums are exact and equal to summing the window anew.
        self._errors = 0
        self._tokens = 0
        self._admitted = 0  # probes admitted in this half-open period
        self._probes: list[tuple[float, bool, int]] = []

    @property
    def latched(self) -> bool:
        return len(self.trips) >= self.max_trips

    def admit(self) -> bool:
        """May a candidate request start now? Closed: yes. Open: no. Half-open: yes for the
        first ``probe_requests`` requests of the period (each call that says yes counts one
        probe), no after that."""
        if self.state == "closed":
            return True
        if self.state == "half-open" and self._admitted < self.probe_requests:
            self._admitted += 1
            return True
        return False

    def observe(self, t: float, error: bool, tokens: int, *, probe: bool = False) -> Trip | None:
        """Record a candidate request finished at ``t``; return the trip it caused, if any.

        ``probe``: the request was admitted while half-open. While open, and while half-open
        for a request that is not a probe, the request is ignored (a straggler served before
        the trip)."""
        if self.state == "open" or (self.state == "half-open" and not probe):
            return None
        if self.state == "half-open":
            return self._observe_probe(t, error, tokens)
        recent = self._recent
        recent.append((t, error, tokens))
        self._errors += error
        self._tokens += tokens
        while recent[0][0] <= t - self.window:
            _, gone_error, gone_tokens = recent.popleft()  # never the one just added
            self._errors -= gone_error
            self._tokens -= gone_tokens
        n = len(recent)
        rate, cost = self._errors / n, self._tokens / n
        self.samples.append(BreakerSample(t, n, rate, cost, self.state))
        if n < self.min_requests:
            return None
        reason = self._verdict(rate, cost, f"over the last {n} candidate requests")
        return None if reason is None else self._trip(t, reason, rate, cost, n)

    def half_open(self, t: float) -> None:
        """The cooldown is over at ``t``: admit ``probe_requests`` probes (unless latched)."""
        if self.state == "open" and not self.latched:
            self.state = "half-open"
            self._admitted = 0
            self._probes = []
            self.changes.append((t, "half-open"))

    def _observe_probe(self, t: float, error: bool, tokens: int) -> Trip | None:
        self._probes.append((t, error, tokens))
        n, rate, cost = _summary(self._probes)
        self.samples.append(BreakerSample(t, n, rate, cost, "half-open"))
        if n < self.probe_requests:
            return None
        failed = sum(e for _, e, _ in self._probes)
        reason = self._verdict(rate, cost, f"over {n} probe requests ({failed} failed)")
        if reason is not None:
            return self._trip(t, reason, rate, cost, n)
        self.state = "closed"
        self.changes.append((t, "closed"))
        self._recent = deque(self._probes)
        self._errors = sum(e for _, e, _ in self._probes)
        self._tokens = sum(c for *_, c in self._probes)
        return None

    def _verdict(self, rate: float, cost: float, over: str) -> str | None:
        """The reason to trip, in one sentence, or None."""
        if rate > self.max_error_rate:
            return f"error rate {rate:.1%} {over} > {self.max_error_rate:.1%}"
        if cost > self.max_cost:
            return f"mean cost {cost:.0f} tokens {over} > {self.max_cost:g}"
        return None

    def _trip(self, t: float, reason: str, rate: float, cost: float, n: int) -> Trip:
        trip = Trip(t, reason, rate, cost, n)
        self.trips.append(trip)
        self.state = "open"
        self.changes.append((t, "open"))
        self._recent.clear()
        self._errors = self._tokens = 0
        self._probes = []
        return trip


def _summary(requests) -> tuple[int, float, float]:
    """(count, error rate, mean tokens) of ``(t, error, tokens)`` triples (not empty)."""
    n = len(requests)
    return n, sum(e for _, e, _ in requests) / n, sum(c for *_, c in requests) / n
