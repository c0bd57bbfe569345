"""The task ledger and its SQL (the grading queue keeps its own SQL in ``simlab.grading``).

* :class:`Ledger` (the SQLite dialect, :mod:`~simlab.ledger.sqlite`) is the real ledger over
  SQLite, correct across processes; its schema (:mod:`~simlab.ledger.sqlite.schema`),
  statements (:mod:`~simlab.ledger.sqlite.statements`) and file rules
  (:mod:`~simlab.ledger.sqlite.files`) live apart from the class, and the flow every dialect
  runs is :class:`~simlab.ledger.core.SqlLedger`.
* :class:`MemoryLedger` (:mod:`~simlab.ledger.memory`) is the same contract in plain Python, and
  :mod:`~simlab.ledger.dict_experiment` the chapter's smallest model of fencing.
* :class:`RacyClaimLedger` (:mod:`~simlab.ledger.sqlite.racy`) keeps the chapter's racy
  two-statement claim and unfenced save (:mod:`~simlab.ledger.racy`) for teaching.
* :class:`PostgresLedger` (the PostgreSQL dialect, :mod:`~simlab.ledger.postgres`) is the same
  contract on PostgreSQL, for workers on many machines (schema
  :mod:`~simlab.ledger.postgres.schema`, statements :mod:`~simlab.ledger.postgres.statements`,
  the racy claim :mod:`~simlab.ledger.postgres.racy`, probes and scratch schemas
  :mod:`~simlab.ledger.postgres.probes`).
  :func:`connect` opens either engine from a path or URL; :func:`throwaway_postgres`
  (:mod:`~simlab.ledger.throwaway`) runs a disposable server for tests and notebooks. The
  PostgreSQL names are imported on first use, so ``import simlab.ledger`` never loads the driver.
* :class:`TaskLedger` (:mod:`~simlab.ledger.protocol`) is the contract as a type.
* :mod:`~simlab.ledger.processes` runs real worker processes over a ledger file,
  :mod:`~simlab.ledger.demo` the chapter's story across them, :mod:`~simlab.ledger.probing`
  (with each dialect's ``probes``) the bench and health probes, :mod:`~simlab.ledger.bench` the
  ledger benchmark.
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
    "throwaway_postgres",
    "PostgresUnavailable",
]

#: Served on first use: the PostgreSQL names import its driver (or start servers); the rest are
#: the chapter's experiments and stories, which notebooks import from here.
_LAZY = {
    "PostgresLedger": "simlab.ledger.postgres",
    "PostgresRacyClaimLedger": "simlab.ledger.postgres.racy",
    "throwaway_postgres": "simlab.ledger.throwaway",
    "PostgresUnavailable": "simlab.ledger.throwaway",
    "scratch_schema": "simlab.ledger.postgres.probes",
    "dict_claim": "simlab.ledger.dict_experiment:claim",
    "dict_commit": "simlab.ledger.dict_experiment:commit",
    "new_dict_state": "simlab.ledger.dict_experiment:new_state",
    "cancel_story": "simlab.ledger.fenced_store",
    "claim_race": "simlab.ledger.demo",
    "resume_one_step": "simlab.ledger.processes",
}
__all__ += [name for name in _LAZY if name not in __all__]
__getattr__, __dir__ = served("simlab.ledger", _LAZY)
