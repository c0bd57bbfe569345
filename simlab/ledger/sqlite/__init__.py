"""The SQLite dialect of the ledger: :class:`Ledger` over one database file (or ``:memory:``).

The contract's flow is :class:`~simlab.ledger.core.SqlLedger`; this package holds only what is
SQLite's own:

* :mod:`~simlab.ledger.sqlite.ledger`: the class (connection, how one statement runs, errors
  as :class:`~simlab.errors.LedgerError` naming the file, the write-ahead log's checkpoints);
* :mod:`~simlab.ledger.sqlite.statements`: its statements, with the same names and parameters
  as every dialect's;
* :mod:`~simlab.ledger.sqlite.schema`: the task ledger's numbered migrations,
  run by :mod:`~simlab.ledger.sqlite.opening` when a connection becomes a ledger;
* :mod:`~simlab.ledger.sqlite.files`: what file may be opened, whose ``-wal`` it is, backups;
* :mod:`~simlab.ledger.sqlite.probes`: the bench floors and the health probe;
* :mod:`~simlab.ledger.sqlite.racy`: :class:`RacyClaimLedger`, the chapter's racy claim.
"""

from simlab.ledger.sqlite.ledger import CHECKPOINT_EVERY, Ledger

__all__ = ["Ledger", "CHECKPOINT_EVERY"]
