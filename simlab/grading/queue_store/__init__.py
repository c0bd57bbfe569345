"""Where a grading queue keeps its class: its tables and SQL on the kit's own ledger, either engine.

What to grade and how (``simlab grade --queue``) is :mod:`simlab.grading.queue`; this package is
what that flow stores, as tasks of a ledger opened with :func:`simlab.ledger.connect`:

* :mod:`~simlab.grading.queue_store.store`: :class:`GradingQueue` and :func:`open_queue`, the
  submissions and attempts over the ledger's own claim, heartbeat and fenced save;
* :mod:`~simlab.grading.queue_store.sqlite_statements` and
  :mod:`~simlab.grading.queue_store.postgres_statements`: the queue's SQL and its tables'
  migrations, one module per engine, with the same names and parameters;
* :mod:`~simlab.grading.queue_store.migrate`: creating and upgrading the tables on an open
  ledger.

Together with :mod:`simlab.grading.untrusted`, these are the only modules of the grader that
speak SQL or import a database driver; the ledger never imports them.
"""
