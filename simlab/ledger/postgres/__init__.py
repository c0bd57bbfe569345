"""The PostgreSQL dialect of the ledger: :class:`PostgresLedger` over one database (a URL).

The contract's flow is :class:`~simlab.ledger.core.SqlLedger`; this package holds only what is
PostgreSQL's own:

* :mod:`~simlab.ledger.postgres.ledger`: the class (connection, how one statement runs, the
  migrations under an advisory lock, the driver's errors as
  :class:`~simlab.errors.LedgerError` naming the server without its password);
* :mod:`~simlab.ledger.postgres.statements`: its statements, with the same names and parameters
  as every dialect's;
* :mod:`~simlab.ledger.postgres.schema`: the task ledger's numbered migrations;
* :mod:`~simlab.ledger.postgres.probes`: the bench floors, the health probe, scratch schemas;
* :mod:`~simlab.ledger.postgres.racy`: :class:`PostgresRacyClaimLedger`, the chapter's racy
  claim.

Importing this package imports the driver (``psycopg``, the optional part ``postgres``: without
it, :class:`~simlab.extras.MissingExtra` names the extra); :mod:`simlab.ledger` imports it only
when a PostgreSQL name is first used.
"""

from simlab.extras import require

require("postgres")

from simlab.ledger.postgres.ledger import PostgresLedger, reason, redact  # noqa: E402

__all__ = ["PostgresLedger", "redact", "reason"]
