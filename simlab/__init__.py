"""simlab: see and break durable background tasks of LLM agents.

The tree follows the path of a task: :mod:`simlab.ledger` (the task ledger and its SQL) ->
:mod:`simlab.sim` (SimPy workers with faults over it) -> :mod:`simlab.checker` (the history and
which invariants broke) -> :mod:`simlab.plots` (pictures and the dashboard). Beside it:
:mod:`simlab.agent` (the deterministic agent, checkpoints and resume), :mod:`simlab.rollout`
(golden sets, canaries, health), :mod:`simlab.learn` (what a learner's notebook imports:
``self_check``, ``reveal``, the pieces), :mod:`simlab.grading` (exercises and the grader) and
:mod:`simlab.cli` (the command line, the only argparse).

``__all__`` is the kit's front door: what a learner or an instructor reaches for first. Every
other public name lives in its subpackage's ``__all__`` (``simlab.ledger``, ``simlab.sim``,
``simlab.checker``, ``simlab.agent``, ``simlab.rollout``, ``simlab.plots``, ``simlab.learn``), the
module paths the notebooks import from; a module or name outside those lists is internal and
may change.
"""

from simlab.agent import World
from simlab.agent.resume import run_task
from simlab.checker.checker import Verdict, check
from simlab.checker.history import Event, History
from simlab.lazy import served
from simlab.ledger import Ledger, MemoryLedger
from simlab.records import Lease, TaskRecord
from simlab.sim.explore import explore
from simlab.sim.scenario import Scenario
from simlab.sim.schedule import Schedule
from simlab.sim.shrink import shrink
from simlab.sim.simulation import Result, simulate

__version__ = "0.2.0"

__all__ = [
    "simulate",
    "Scenario",
    "Result",
    "Schedule",
    "shrink",
    "explore",
    "check",
    "Verdict",
    "History",
    "Event",
    "Ledger",
    "MemoryLedger",
    "Lease",
    "TaskRecord",
    "World",
    "run_task",
    "timeline",
    "throughput_latency",
    "sweep_plot",
]

#: The pictures: importing matplotlib costs about a second, so ``import simlab`` (and the
#: command line) pays for it only when a picture is drawn.
_PLOTS = {name: "simlab.plots" for name in ("timeline", "throughput_latency", "sweep_plot")}

__getattr__, __dir__ = served("simlab", _PLOTS)
