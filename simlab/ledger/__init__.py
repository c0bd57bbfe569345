"""The task ledger and its SQL (the grading queue keeps its own SQL in ``simlab.grading``).

* :class:`Ledger` (the SQLite dialect, :mod:`~simlab.ledger.sqlite`) is the real ledger over
  SQLite, correct across processes; its schema (:mod:`~simlab.ledger.sqlite.schema`),
  statements (:mod:`~simlab.ledger.sqlite.statements`) and file rules
  (:mod:`~simlab.ledger.sqlite.files`) live apart from the class, and the flow every dialect
  runs is :class:`~simlab.ledger.core.SqlLedger`.
* :class:`MemoryLedger` (:mod:`~simlab.ledger.memory`) is the same contract in plain Python
  (the chapter's smaller models of fencing are props, in :mod:`simlab.props`).
* :class:`RacyClaimLedger` (:mod:`~simlab.ledger.sqlite.racy`) keeps the chapter's racy
  two-statement claim and unfenced save (:mod:`~simlab.ledger.racy`) for teaching.
* :class:`PostgresLedger` (the PostgreSQL dialect, :mod:`~simlab.ledger.postgres`) is the same
  contract on PostgreSQL, for workers on many machines (schema
  :mod:`~simlab.ledger.postgres.schema`, statements :mod:`~simlab.ledger.postgres.statements`,
  the racy claim :mod:`~simlab.ledger.postgres.racy`, probes and scratch schemas
  :mod:`~simlab.ledger.postgres.probes`).
  :func:`connect` opens either engine from a path or URL (a disposable server for tests and
  notebooks is :func:`simlab.testing.throwaway_postgres`). The PostgreSQL names are imported on
  first use, so ``import simlab.ledger`` never loads the driver.
* :class:`TaskLedger` (:mod:`~simlab.ledger.protocol`) is the contract as a type.
* :mod:`~simlab.ledger.probing` (with each dialect's ``probes``) holds the bench and health
  probes, :mod:`~simlab.bench.ledger` the ledger benchmark.
"""

from simlab.errors import LeaseHeld, LedgerError, TerminalTask, UnknownTask
from simlab.lazy import served
from simlab.ledger.connect import connect
from simlab.ledger.memory import MemoryLedger
from simlab.ledger.protocol import TaskLedger
from simlab.ledger.sqlite.ledger import Ledger
from simlab.ledger.sqlite.racy import RacyClaimLedger
from simlab.ledger.sqlite.schema import MIGRATIONS, SCHEMA_VERSION
from simlab.records import Effect, Lease, TaskRecord

__all__ = [
    "Ledger",
    "Lease",
    "TaskRecord",
    "Effect",
    "RacyClaimLedger",
    "MemoryLedger",
    "TaskLedger",
    "LedgerError",
    "UnknownTask",
    "TerminalTask",
    "LeaseHeld",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "connect",
    "PostgresLedger",
    "PostgresRacyClaimLedger",
]

#: Served on first use: the PostgreSQL names import its driver.
_LAZY = {
    "PostgresLedger": "simlab.ledger.postgres",
    "PostgresRacyClaimLedger": "simlab.ledger.postgres.racy",
    "scratch_schema": "simlab.ledger.postgres.probes",
}
__all__ += [name for name in _LAZY if name not in __all__]
__getattr__, __dir__ = served("simlab.ledger", _LAZY)
