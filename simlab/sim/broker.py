"""The message broker: at-least-once delivery of task IDs, with a visibility timeout.

The broker knows nothing about leases or epochs; it only moves task IDs, like SQS or a Redis
stream. Its promises, and the ways it breaks them on purpose:

* Every published task is delivered at least once, in FIFO order (redeliveries jump the queue).
* A delivered message is *in flight* until the worker acknowledges it (:meth:`Broker.ack`). If
  ``visibility_timeout`` passes with no :meth:`Broker.extend` (the worker's heartbeat) and no
  ack, the message is delivered again to whoever asks next: a crashed or paused worker gets a
  successor about half a ``ttl`` after its lease expired.
* With probability ``duplicate_rate`` (only while faults are on) an enqueued message is enqueued
  twice, so two workers may receive the same task ID at the same moment. With ``duplicate``
  given, that callable decides instead: it is asked ``(task, n)`` while faults are on, ``n``
  counting the earlier enqueues of the task (the simulator passes its nemesis).

Timers are events with a callback (no process per message), scheduled as a SimPy timeout
schedules itself, so an idle broker schedules nothing and the simulation ends by itself once
every task is acknowledged. The clock is read as ``env._now``, what ``env.now`` returns, without
the property's call (as the workers read it).
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable
from heapq import heappush
from typing import NamedTuple

import simpy
from simpy.events import NORMAL

__all__ = ["Broker", "Message"]


class Message(NamedTuple):
    """One delivery of a task ID; the flags say why it was delivered."""

    task: str
    duplicate: bool = False
    redelivery: bool = False


#: ``Message(task, False, False)`` without the Python-level ``__new__`` a NamedTuple has.
_new_message = tuple.__new__


class _Timer:
    """A message's visibility timer: what SimPy's ``step`` reads of a triggered event (its
    callbacks, whether it succeeded, its value: the task), without the attributes and the
    ``__init__`` a :class:`simpy.Timeout` has. Scheduled as a timeout schedules itself (at
    ``now + delay``, normal priority, the environment's next event ID), so it runs exactly
    where that timeout would."""

    __slots__ = ("callbacks", "_ok", "_value")


_new_timer = object.__new__


class Broker:
    """At-least-once FIFO queue of task IDs with visibility timeouts and duplicate delivery.

    ``rng`` is drawn from only when the broker decides duplicates itself (no ``duplicate``) at
    a ``duplicate_rate`` above 0; it may be None otherwise."""

    def __init__(
        self,
        env: simpy.Environment,
        *,
        visibility_timeout: float,
        duplicate_rate: float,
        rng: random.Random | None,
        faults_on: Callable[[], bool],
        duplicate: Callable[[str, int], bool] | None = None,
    ):
        self.env = env
        self.visibility_timeout = visibility_timeout
        self.duplicate_rate = duplicate_rate
        self._rng = rng
        self._faults_on = faults_on
        self._ready: deque[Message] = deque()
        self._getters: deque[simpy.Event] = deque()
        self._deadline: dict[str, float] = {}
        self._armed: set[str] = set()
        self._acked: set[str] = set()
        #: with ``duplicate``, it decides (task, how many times the task was enqueued before)
        self._decide = duplicate
        self._enqueues: dict[str, int] = {}
        #: Counters: messages enqueued as duplicates, and redeliveries after a timeout.
        self.duplicates = 0
        self.redeliveries = 0

    # ------------------------------------------------------------------ producer side
    def publish(self, task: str) -> None:
        """Enqueue a newly submitted task (possibly twice)."""
        self._enqueue(_new_message(Message, (task, False, False)), front=False)

    def republish(self, task: str) -> None:
        """Enqueue a task again after it was acknowledged (a requeued task needs a worker)."""
        self._acked.discard(task)
        self.publish(task)

    def _enqueue(self, msg: Message, *, front: bool) -> None:
        self._put(msg, front)
        if self._decide is not None:
            task = msg.task
            n = self._enqueues.get(task, 0)
            self._enqueues[task] = n + 1
            if self._faults_on() and self._decide(task, n):
                self.duplicates += 1
                self._put(Message(task, True, msg.redelivery), front=False)
        elif self.duplicate_rate and self._faults_on():
            if self._rng.random() < self.duplicate_rate:
                self.duplicates += 1
                self._put(Message(msg.task, True, msg.redelivery), front=False)

    def _put(self, msg: Message, front: bool) -> None:
        if self._getters:
            self._hand_over(msg)
            self._getters.popleft().succeed(msg)
        elif front:
            self._ready.appendleft(msg)
        else:
            self._ready.append(msg)

    # ------------------------------------------------------------------ consumer side
    def get(self) -> simpy.Event:
        """An event that fires with the next :class:`Message` (at once if one is waiting)."""
        ev = self.env.event()
        if self._ready:
            msg = self._ready.popleft()
            self._hand_over(msg)
            ev.succeed(msg)
        else:
            self._getters.append(ev)
        return ev

    def take(self) -> Message | None:
        """The next waiting :class:`Message`, handed over now as :meth:`get` hands it, or None
        when none is waiting (then nothing changes)."""
        if not self._ready:
            return None
        msg = self._ready.popleft()
        self._hand_over(msg)
        return msg

    def extend(self, task: str) -> None:
        """The holder is alive (a heartbeat): push the redelivery deadline back."""
        if task not in self._acked:
            self._deadline[task] = self.env._now + self.visibility_timeout

    def ack(self, task: str) -> None:
        """The task needs no more deliveries (it is completed, cancelled or dead)."""
        self._acked.add(task)

    def close(self) -> None:
        """The run is over: forget the waiting workers, the messages and whom the broker asks
        about faults (so no reference cycle runs through the broker)."""
        for getter in self._getters:
            getter.callbacks = None
        self._getters.clear()
        self._ready.clear()
        self._faults_on = self._decide = None

    @property
    def queued(self) -> int:
        """Messages waiting for a worker."""
        return len(self._ready)

    # ------------------------------------------------------------------ visibility timeout
    def _hand_over(self, msg: Message) -> None:
        task = msg.task
        if task in self._acked:
            return
        deadline = self.env._now + self.visibility_timeout
        if deadline > self._deadline.get(task, 0.0):
            self._deadline[task] = deadline
        if task not in self._armed:
            self._armed.add(task)
            self._arm(task, self.visibility_timeout)  # at now + timeout: the deadline

    def _arm(self, task: str, delay: float) -> None:
        # The timer carries its task as its value: no closure per armed message. Scheduled as
        # env.timeout(delay, task) schedules itself (simpy.Environment.schedule).
        timer = _new_timer(_Timer)
        timer.callbacks, timer._ok, timer._value = [self._expire], True, task
        env = self.env
        heappush(env._queue, (env._now + delay, NORMAL, next(env._eid), timer))

    def _expire(self, timer: _Timer) -> None:
        """A message's timer fired: redeliver its task unless it was acknowledged or its
        holder heartbeat meanwhile (then wait out the rest of the new deadline)."""
        task = timer._value
        if task in self._acked:
            self._armed.discard(task)
            return
        left = self._deadline[task] - self.env._now
        if left > 1e-9:
            self._arm(task, left)
            return
        self._armed.discard(task)
        self.redeliveries += 1
        self._enqueue(Message(task, False, True), front=True)
