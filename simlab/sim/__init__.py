"""The simulator: the only package that imports SimPy.

The path of a task: a :class:`~simlab.sim.scenario.Scenario` says what to run; the
:mod:`~simlab.sim.broker` delivers task IDs at least once; :mod:`~simlab.sim.worker` (and
:mod:`~simlab.sim.agent_worker`) claim a lease on the ledger, run one step and commit, while the
nemesis injects crashes, pauses, slow steps, duplicate deliveries and cancels;
:mod:`~simlab.sim.mailbox` receives the e-mails; :mod:`~simlab.sim.variants` wraps the ledger in
the broken variants learners compare. :func:`~simlab.sim.simulation.simulate` runs it all and
returns the history and the checker's verdict. :mod:`~simlab.sim.sweep` runs many seeds and
rates, :mod:`~simlab.sim.canary` a canary rollout, :mod:`~simlab.bench.sim` the speed benchmark.
The faults of a run are a :mod:`~simlab.sim.schedule` (decided by the
:mod:`~simlab.sim.nemesis`), replayable byte for byte; :mod:`~simlab.sim.shrink` shrinks a failing
one to the few faults that still break the rule and :mod:`~simlab.sim.story` tells it
(``simlab.shrink`` is exported from the top package); :mod:`~simlab.sim.explore` searches every
schedule of a small scope, breadth first, and certifies a ledger or finds its shortest failing
run.
"""

from simlab.lazy import served
from simlab.sim.explore import Exploration, explore
from simlab.sim.mailbox import Mailbox
from simlab.sim.scenario import Scenario
from simlab.sim.simulation import Result, simulate

__all__ = ["Scenario", "Result", "simulate", "explore", "Exploration", "Mailbox", "run_canary"]

#: The canary rollout imports the release package, which may import the simulator back.
__getattr__, __dir__ = served("simlab.sim", {"run_canary": "simlab.sim.canary"})
