"""Pure judgement of a run: no SimPy, no SQL, no matplotlib.

:mod:`~simlab.checker.history` is what happened (Jepsen-style invoke/ok/fail/info events),
:mod:`~simlab.checker.model` the protocol as a reference state machine the history is replayed
through, :mod:`~simlab.checker.rules` the one registry of rules judged against it (one plain
sentence each), :mod:`~simlab.checker.checker` the verdict,
:mod:`~simlab.checker.measures` the coverage counters and metrics, and
:mod:`~simlab.checker.rows` a task's ledger row rebuilt after each event, and why each refused
save was refused.
"""

from simlab.checker.checker import Verdict, check, reused_epoch_events, reused_epochs, stale_commits
from simlab.checker.history import (
    Event,
    History,
    HistoryView,
    dumps_jsonl,
    history_digest,
    loads_jsonl,
)
from simlab.checker.outcomes import Views

__all__ = [
    "check",
    "Verdict",
    "Views",
    "stale_commits",
    "reused_epochs",
    "reused_epoch_events",
    "Event",
    "History",
    "HistoryView",
    "dumps_jsonl",
    "loads_jsonl",
    "history_digest",
]
