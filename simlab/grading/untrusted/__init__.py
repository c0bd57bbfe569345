"""What a learner's code wrote or asks of a database, read or run by the grader within bounds.

* :mod:`~simlab.grading.untrusted.ledger_file`: :class:`UntrustedLedger`, a ledger file written
  in a jail, read through a read-only connection that runs none of the file's schema;
* :mod:`~simlab.grading.untrusted.sql`: a learner's SQL statements on the grader's own ledger
  connection, under an authorizer, a step budget and a deadline.

Together with :mod:`simlab.grading.queue_store`, these are the only modules of the grader that
speak SQL or import a database driver; the ledger never imports them.
"""
