"""Pictures of a run, and the dashboard that shows them: matplotlib and ipywidgets only.

Every function draws on ``ax`` (a new figure when ``ax`` is None) and returns what it drew on,
so pictures compose in notebooks. They read the same history as :mod:`simlab.checker.checker` and
never change it.

* :func:`timeline` (:mod:`~simlab.plots.timeline`) -- one lane per worker: who held which lease,
  when, and which commits counted.
* :func:`throughput_latency` (:mod:`~simlab.plots.throughput`) -- completed tasks per time bin,
  task latency, fault periods shaded.
* :func:`sweep_plot` (:mod:`~simlab.plots.sweep`) -- mean outcome per variant and fault rate.
* :func:`canary_plot` (:mod:`~simlab.plots.canary`) -- a canary rollout; :func:`absorb_plot`
  (:mod:`~simlab.plots.events`) -- agent events delivered and absorbed; :class:`Dashboard`
  (:mod:`~simlab.plots.dashboard`) -- the tuning widget; :class:`RaceStepper`
  (:mod:`~simlab.plots.stepper`) -- a step-through of one race (a slider over the events of one
  task, its ledger row and effects after each).
"""

from simlab.lazy import served
from simlab.plots.fonts import translate_drawn_text, use_cjk_fallback
from simlab.plots.style import ENVELOPE
from simlab.plots.sweep import sweep_plot
from simlab.plots.throughput import throughput_latency
from simlab.plots.timeline import timeline

#: Served on first use: the widgets import ipywidgets, the others the packages they draw.
_SERVED = {
    "canary_plot": "simlab.plots.canary",
    "absorb_plot": "simlab.plots.events",
    "Dashboard": "simlab.plots.dashboard",
    "RaceStepper": "simlab.plots.stepper",
}
__all__ = ["timeline", "throughput_latency", "sweep_plot", "ENVELOPE", *_SERVED]
__getattr__, __dir__ = served("simlab.plots", _SERVED)

use_cjk_fallback()
translate_drawn_text()
