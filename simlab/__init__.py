"""simlab: see and break durable background tasks of LLM agents.

The data path, module by module: ``ledger`` (the real SQLite task ledger, the only module with
SQL) and ``model`` (the same contract in plain Python) -> ``history`` (what happened) ->
``checker`` (which invariants broke) -> ``plots`` (pictures of epoch races).
"""

from simlab.errors import LeaseHeld, LedgerError, TerminalTask, UnknownTask
from simlab.history import Event, History, dumps_jsonl, history_digest, loads_jsonl
from simlab.records import (
    CANCELLED,
    COMPLETED,
    DEAD,
    QUEUED,
    RUNNING,
    STATUSES,
    TERMINAL_STATUSES,
    Effect,
    Lease,
    TaskRecord,
)

__version__ = "0.1.0"

__all__ = [
    "LedgerError",
    "UnknownTask",
    "TerminalTask",
    "LeaseHeld",
    "Lease",
    "TaskRecord",
    "Effect",
    "QUEUED",
    "RUNNING",
    "COMPLETED",
    "CANCELLED",
    "DEAD",
    "STATUSES",
    "TERMINAL_STATUSES",
    "Event",
    "History",
    "dumps_jsonl",
    "loads_jsonl",
    "history_digest",
]
