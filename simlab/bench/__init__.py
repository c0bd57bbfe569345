"""The benchmarks: what each part of the kit costs, measured against a yardstick on this machine.

``simlab bench`` (:mod:`simlab.cli.bench`) runs them and ``docs/benchmarks.md`` reports one run of
each. Each bench stands above the part it measures and imports it like any user would:

* :mod:`~simlab.bench.ledger`: claim+save cycles of the ledger against one raw transaction;
  :mod:`~simlab.bench.schema` what the SQLite schema costs, variant by variant.
* :mod:`~simlab.bench.sim`: the simulator over three ledgers, beside SimPy's bare timeouts
  (:mod:`simlab.sim.yardstick`); :mod:`~simlab.bench.mmc` the simulator against queueing theory;
  :mod:`~simlab.bench.explore` the exhaustive search; :mod:`~simlab.bench.shrink` the shrinker.
* :mod:`~simlab.bench.grading`: grading on top of merely running the notebooks;
  :mod:`~simlab.bench.queue` the grading queue's throughput.

Nothing in the kit imports a bench except the command line.
"""
