"""Guarding a release: golden sets, canaries with a circuit breaker, and health checks.

* :mod:`~simlab.rollout.versions` -- agent versions, framework and model as separate layers.
* :mod:`~simlab.rollout.metered_agent` -- one agent version at work with metered tools, scripted
  faults and a fake clock; :mod:`~simlab.rollout.observation` what it saw.
* :mod:`~simlab.rollout.golden` and :mod:`~simlab.rollout.golden_cases` -- the golden set, judged
  by the business assertions of :mod:`~simlab.rollout.assertions`.
* :mod:`~simlab.rollout.traffic`, :mod:`~simlab.rollout.slices`, :mod:`~simlab.rollout.breaker`
  and :mod:`~simlab.rollout.canary` -- a canary's requests, like-for-like slices, the breaker and
  the decision (the rollout's SimPy loop is :mod:`simlab.sim.canary`).
* :mod:`~simlab.rollout.health` -- a health check of the database and the queue.

The names a notebook uses are served from here on first use (so that importing one of these
modules, as the simulator's canary does, never loads the others).
"""

from simlab.lazy import served

_SERVED = {
    "VERSIONS": "simlab.rollout.versions",
    **dict.fromkeys(
        ("CASES", "run_golden", "observe_case", "compare", "format_report", "format_comparison"),
        "simlab.rollout.golden",
    ),
    "links_outside": "simlab.rollout.assertions",
    **dict.fromkeys(("CanaryConfig", "format_canary"), "simlab.rollout.canary"),
    **dict.fromkeys(("error_test", "fisher_one_sided"), "simlab.rollout.stats"),
    "check_health": "simlab.rollout.health",
}
__all__ = list(_SERVED)
__getattr__, __dir__ = served("simlab.rollout", _SERVED)
