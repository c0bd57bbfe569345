"""Guarding a release: golden sets, canaries with a circuit breaker, and health checks.

* :mod:`~simlab.release.versions` -- agent versions, framework and model as separate layers.
* :mod:`~simlab.release.metered_agent` -- one agent version at work with metered tools, scripted
  faults and a fake clock; :mod:`~simlab.release.observation` what it saw.
* :mod:`~simlab.release.golden` and :mod:`~simlab.release.golden_cases` -- the golden set, judged
  by the business assertions of :mod:`~simlab.release.assertions`.
* :mod:`~simlab.release.traffic`, :mod:`~simlab.release.slices`, :mod:`~simlab.release.breaker`
  and :mod:`~simlab.release.canary` -- a canary's requests, like-for-like slices, the breaker and
  the decision (the rollout's SimPy loop is :mod:`simlab.sim.canary`).
* :mod:`~simlab.release.health` -- a health check of the database and the queue.

The names a notebook uses are served from here on first use (so that importing one of these
modules, as the simulator's canary does, never loads the others).
"""

from simlab.lazy import served

_SERVED = {
    "VERSIONS": "simlab.release.versions",
    **dict.fromkeys(
        ("CASES", "run_golden", "observe_case", "compare", "format_report", "format_comparison"),
        "simlab.release.golden",
    ),
    "links_outside": "simlab.release.assertions",
    **dict.fromkeys(("CanaryConfig", "format_canary"), "simlab.release.canary"),
    **dict.fromkeys(("error_test", "fisher_one_sided"), "simlab.release.stats"),
    "check_health": "simlab.release.health",
}
__all__ = list(_SERVED)
__getattr__, __dir__ = served("simlab.release", _SERVED)
