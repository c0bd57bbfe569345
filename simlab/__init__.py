"""simlab: see and break durable background tasks of LLM agents.

The tree follows the path of a task: :mod:`simlab.ledger` (the task ledger, the only SQL) ->
:mod:`simlab.sim` (SimPy workers with faults over it) -> :mod:`simlab.check` (the history and
which invariants broke) -> :mod:`simlab.plots` (pictures and the dashboard). Beside it:
:mod:`simlab.agent` (the deterministic agent, checkpoints and resume), :mod:`simlab.release`
(golden sets, canaries, health), :mod:`simlab.grading` (exercises and the grader) and
:mod:`simlab.cli` (the command line, the only argparse).
"""

from simlab.agent import World
from simlab.agent.checkpoint import Checkpoint, CheckpointError
from simlab.agent.guard import resume_guard
from simlab.agent.resume import run_step, run_task
from simlab.agent.review import needs_review, reopen
from simlab.check.checker import Verdict, check
from simlab.check.history import Event, History, dumps_jsonl, history_digest, loads_jsonl
from simlab.errors import LeaseHeld, LedgerError, TerminalTask, UnknownTask
from simlab.ledger import ChapterLedger, Ledger, MemoryLedger, RacyClaimLedger, TaskLedger
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
from simlab.sim.scenario import Scenario
from simlab.sim.schedule import Schedule
from simlab.sim.shrink import Shrunk, shrink
from simlab.sim.simulation import Result, simulate

__version__ = "0.1.0"

#: Names served lazily from ``simlab.plots``: importing matplotlib costs about a second, so
#: ``import simlab`` (and the command line) pays for it only when a picture is drawn.
_PLOTS = ("timeline", "throughput_latency", "sweep_plot")


def __getattr__(name: str):
    if name in _PLOTS:
        import simlab.plots as plots

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
    "RacyClaimLedger",
    "ChapterLedger",
    "MemoryLedger",
    "TaskLedger",
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
    "Schedule",
    "shrink",
    "Shrunk",
    "Checkpoint",
    "CheckpointError",
    "World",
    "resume_guard",
    "run_step",
    "run_task",
    "needs_review",
    "reopen",
]
