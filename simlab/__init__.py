"""simlab: see and break durable background tasks of LLM agents.

The data path, module by module: ``ledger`` (the real SQLite task ledger, the only module with
SQL) and ``model`` (the same contract in plain Python) -> ``history`` (what happened) ->
``checker`` (which invariants broke) -> ``plots`` (pictures of epoch races).
"""

from simlab.agent import World
from simlab.checker import Verdict, check
from simlab.checkpoint import Checkpoint, CheckpointError
from simlab.errors import LeaseHeld, LedgerError, TerminalTask, UnknownTask
from simlab.history import Event, History, dumps_jsonl, history_digest, loads_jsonl
from simlab.ledger import ChapterLedger, Ledger
from simlab.model import MemoryLedger
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
from simlab.resume import resume_guard, run_step, run_task
from simlab.review import needs_review, reopen
from simlab.scenario import Scenario
from simlab.simulation import Result, simulate

__version__ = "0.1.0"

#: Names served lazily from ``simlab.plots``: importing matplotlib costs about a second, so
#: ``import simlab`` (and the command line) pays for it only when a picture is drawn.
_PLOTS = ("timeline", "throughput_latency", "sweep_plot")


def __getattr__(name: str):
    if name in _PLOTS:
        from simlab import plots

        return getattr(plots, name)
    raise AttributeError(f"module 'simlab' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *_PLOTS])


__all__ = [
    "check",
    "Verdict",
    "timeline",
    "throughput_latency",
    "sweep_plot",
    "Ledger",
    "ChapterLedger",
    "MemoryLedger",
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
    "Scenario",
    "Result",
    "simulate",
    "Checkpoint",
    "CheckpointError",
    "World",
    "resume_guard",
    "run_step",
    "run_task",
    "needs_review",
    "reopen",
]
