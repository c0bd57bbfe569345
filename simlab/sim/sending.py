"""Who sends a step's e-mail in a simulation: the workers' own ``record_effect``-then-send, or a
learner's ``send_step(ledger, lease, step, mailbox)``, watched.

By default a worker asks ``record_effect`` and sends only when told to (:mod:`simlab.sim.worker`).
:func:`simlab.sim.simulation.simulate` can hand that step to other code instead: a *sender*
factory, called once as ``sender(ledger, clock)`` with the run's ledger and clock, returns
``send(lease, step) -> moves``, where *moves* is what the code did, in order:

* ``("effect", key, accepted, epoch)``: it called ``record_effect`` with a lease of ``epoch``
  for ``key`` and got ``accepted`` (a bool) back;
* ``("send", key)``: an e-mail with idempotency key ``key`` left for the mailbox.

The worker records each move in the history (``effect`` invoke and ok or fail, ``send`` ok) and
puts each e-mail in the run's mailbox, so the checker judges the learner's code like the kit's.

:func:`watched` makes such a factory of a plain ``send_step`` function, with a
:class:`WatchedLedger` and a :class:`WatchedMailbox` that write the moves down; the grader builds
the same two objects in its sandbox around a learner's ``send_step``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from simlab.records import Lease
from simlab.sim.mailbox import Mailbox

__all__ = ["WatchedLedger", "WatchedMailbox", "watched", "Sender"]

#: ``sender(ledger, clock)`` -> ``send(lease, step) -> moves`` (see the module docstring).
Sender = Callable[[Any, Callable[[], float]], Callable[[Lease, int], list]]


class WatchedMailbox(Mailbox):
    """A mailbox that writes every e-mail down in ``moves`` as ``("send", key)``."""

    __slots__ = ("moves",)

    def __init__(self) -> None:
        super().__init__()
        #: what the watched code did since the last :meth:`take`, in order
        self.moves: list[tuple] = []

    def send(self, key: str) -> None:
        super().send(key)
        self.moves.append(("send", key if isinstance(key, str) else repr(key)))

    def take(self) -> list[tuple]:
        """The moves so far, oldest first; the list starts empty again."""
        moves, self.moves = self.moves, []
        return moves


class WatchedLedger:
    """A ledger whose ``record_effect`` calls are written down in ``mailbox.moves`` as
    ``("effect", key, accepted, epoch)``; every other attribute is the ledger's own."""

    def __init__(self, ledger: Any, mailbox: WatchedMailbox):
        self._ledger = ledger
        self._mailbox = mailbox

    def record_effect(self, lease: Lease, key: str) -> bool:
        accepted = self._ledger.record_effect(lease, key)
        epoch = getattr(lease, "epoch", None)
        shown = key if isinstance(key, str) else repr(key)
        self._mailbox.moves.append(("effect", shown, bool(accepted), epoch))
        return accepted

    def __getattr__(self, name: str) -> Any:
        return getattr(self._ledger, name)


def watched(send_step: Callable[..., Any]) -> Sender:
    """A sender factory for :func:`~simlab.sim.simulation.simulate` that runs
    ``send_step(ledger, lease, step, mailbox)`` (a learner's, say) in place of the workers'
    own record-then-send, and reports its moves."""

    def sender(ledger: Any, clock: Callable[[], float]) -> Callable[[Lease, int], list]:
        mailbox = WatchedMailbox()
        proxy = WatchedLedger(ledger, mailbox)

        def send(lease: Lease, step: int) -> list:
            send_step(proxy, lease, step, mailbox)
            return mailbox.take()

        return send

    return sender
