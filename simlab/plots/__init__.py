"""Pictures of a run, and the dashboard that shows them: matplotlib and ipywidgets only.

Every function draws on ``ax`` (a new figure when ``ax`` is None) and returns what it drew on,
so pictures compose in notebooks. They read the same history as :mod:`simlab.check.checker` and
never change it.

* :func:`timeline` (:mod:`~simlab.plots.timeline`) -- one lane per worker: who held which lease,
  when, and which commits counted.
* :func:`throughput_latency` (:mod:`~simlab.plots.throughput`) -- completed tasks per time bin,
  task latency, fault periods shaded.
* :func:`sweep_plot` (:mod:`~simlab.plots.sweep`) -- mean outcome per variant and fault rate.
* :mod:`~simlab.plots.canary` -- a canary rollout; :mod:`~simlab.plots.dashboard` -- the tuning
  widget; :mod:`~simlab.plots.stepper` -- a step-through of one race (a slider over the events
  of one task, its ledger row and effects after each).
"""

from simlab.plots.style import ENVELOPE
from simlab.plots.sweep import sweep_plot
from simlab.plots.throughput import throughput_latency
from simlab.plots.timeline import timeline

__all__ = ["timeline", "throughput_latency", "sweep_plot", "ENVELOPE"]
