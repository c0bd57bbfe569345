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

from simlab.lazy import defer_unused, served

# Before any other library is imported through the kit: every process that reads a notebook
# imports nbformat, and with it jsonschema's optional checkers (simlab.lazy.DEFERRED).
defer_unused()

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

#: Every name of the front door is served on first use (:mod:`simlab.lazy`): importing any
#: module of the kit imports this package first, so a jail, a kernel or a command that needs
#: one subpackage does not load the simulator, the agent and the checker with it, and the
#: pictures' matplotlib is loaded only when a picture is drawn.
_SERVED = {
    "World": "simlab.agent",
    "run_task": "simlab.agent.resume",
    "check": "simlab.checker.checker",
    "Verdict": "simlab.checker.checker",
    "Event": "simlab.checker.history",
    "History": "simlab.checker.history",
    "Ledger": "simlab.ledger",
    "MemoryLedger": "simlab.ledger",
    "Lease": "simlab.records",
    "TaskRecord": "simlab.records",
    "explore": "simlab.sim.explore",
    "Scenario": "simlab.sim.scenario",
    "Schedule": "simlab.sim.schedule",
    "shrink": "simlab.sim.shrink",
    "Result": "simlab.sim.simulation",
    "simulate": "simlab.sim.simulation",
    **{name: "simlab.plots" for name in ("timeline", "throughput_latency", "sweep_plot")},
}

__getattr__, __dir__ = served("simlab", _SERVED)
