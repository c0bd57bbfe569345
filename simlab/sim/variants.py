"""Teaching variants: what the workers see of the ledger, correct or broken on purpose.

Each variant is a thin wrapper over the real SQLite ledger, so the contrast fits on one screen:

* ``fenced``: the ledger itself. ``claim`` is one atomic statement and ``save`` is fenced by the
  epoch. This is the correct design; any ledger with the contract works here.
* ``unfenced``: everything as in the real ledger except ``save``, which forgets the epoch (it
  updates by task ID while the task is running). A worker that woke from a long pause commits
  over its successor's work.
* ``racy-claim``: the chapter's two-statement claim. An ``UPDATE`` bumps the epoch with no lease
  check (the chapter's scheduler re-claims a running task), then, one network round trip later,
  a separate ``SELECT`` reads the lease back. Two workers that claim within one round trip both
  read the *same, latest* epoch and both believe they hold the lease.

The broken primitives live in :class:`simlab.ledger.RacyClaimLedger` and, on PostgreSQL,
:class:`simlab.ledger.PostgresRacyClaimLedger` (SQL stays in the ledger package); this module only
chooses which ones a worker calls. ``unfenced`` and ``racy-claim`` therefore wrap those built-in
ledgers only. A wrapper with ``round_trip > 0`` exposes ``claim_update`` and
``claim_read``: the worker calls the first, waits ``round_trip`` of simulated time, then the
second (see :mod:`simlab.sim.worker`).
"""

from __future__ import annotations

from simlab.ledger.connect import is_racy_claim_ledger
from simlab.ledger.protocol import TaskLedger
from simlab.ledger.sqlite.racy import RacyClaimLedger
from simlab.sim.scenario import VARIANTS  # the one list of variants, named here too

__all__ = ["wrap", "Unfenced", "RacyClaim", "VARIANTS"]

# The ledger contract methods a wrapper passes through untouched.
_PASS_THROUGH = (
    "submit",
    "claim",
    "claim_next",
    "heartbeat",
    "save",
    "cancel",
    "requeue",
    "get",
    "tasks",
    "record_effect",
    "effects",
    "close",
)


class _Wrapper:
    """Binds the real ledger's methods onto the wrapper, so calls cost no indirection."""

    variant = "fenced"
    round_trip = 0.0

    def __init__(self, ledger: TaskLedger):
        self.ledger = ledger
        for name in _PASS_THROUGH:
            if hasattr(ledger, name):
                setattr(self, name, getattr(ledger, name))


class Unfenced(_Wrapper):
    """The real ledger, except that ``save`` ignores the epoch (the bug fencing prevents)."""

    variant = "unfenced"

    def __init__(self, ledger: RacyClaimLedger):
        super().__init__(ledger)
        self.save = ledger.save_unfenced  # the only difference


class RacyClaim(_Wrapper):
    """The real ledger, except that a claim is the chapter's UPDATE then, later, its SELECT."""

    variant = "racy-claim"

    def __init__(self, ledger: RacyClaimLedger, round_trip: float):
        super().__init__(ledger)
        self.round_trip = round_trip
        self.claim_update = ledger.claim_update_only  # epoch+1, running; no lease check
        self.claim_read = ledger.read_claim  # a separate statement, one round trip later


def wrap(variant: str, ledger: TaskLedger, *, round_trip: float = 0.0) -> TaskLedger:
    """Return what the workers should call for ``variant`` over ``ledger``.

    ``fenced`` returns ``ledger`` unchanged. The other two need a
    :class:`simlab.ledger.RacyClaimLedger` (or its PostgreSQL twin) and raise ``ValueError`` for
    anything else.
    """
    if variant == "fenced":
        return ledger
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}; choose one of {', '.join(VARIANTS)}")

    if not is_racy_claim_ledger(ledger):
        raise ValueError(
            f"variant {variant!r} wraps the built-in ledgers only (simlab.ledger.RacyClaimLedger "
            f"or PostgresRacyClaimLedger), not {type(ledger).__name__}"
        )
    if variant == "unfenced":
        return Unfenced(ledger)
    return RacyClaim(ledger, round_trip)
