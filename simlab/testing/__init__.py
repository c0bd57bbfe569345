"""Test infrastructure the kit ships: a throwaway PostgreSQL server in a temporary folder.

:func:`throwaway_postgres` (:mod:`~simlab.testing.throwaway`) starts a disposable server for the
test suite, notebook 02's PostgreSQL section and the benchmarks, and stops it on exit;
:class:`PostgresUnavailable` says in one sentence why none could start. Nothing here is the
ledger: it only gives the ledger a server to talk to.
"""

from simlab.testing.throwaway import PostgresUnavailable, throwaway_postgres

__all__ = ["throwaway_postgres", "PostgresUnavailable"]
