"""The external mailbox: the outside world that really receives the e-mails workers send.

The ledger's ``record_effect`` is a promise ("send this at most once"); the mailbox is the
evidence. It sits outside every transaction, so nothing can take an e-mail back: if a key shows
up twice here, the idempotency ledger did not hold.
"""

from __future__ import annotations

__all__ = ["Mailbox"]


class Mailbox:
    """Counts every e-mail received, per idempotency key."""

    __slots__ = ("received", "sent")

    def __init__(self) -> None:
        #: key -> how many e-mails with that key arrived.
        self.received: dict[str, int] = {}
        #: total e-mails received.
        self.sent = 0

    def send(self, key: str) -> None:
        self.received[key] = self.received.get(key, 0) + 1
        self.sent += 1

    @property
    def duplicates(self) -> int:
        """E-mails beyond the first for their key: what idempotency should keep at zero."""
        return self.sent - len(self.received)
