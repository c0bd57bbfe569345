"""The task ledger: the only package that speaks SQL.

* :class:`Ledger` (the SQLite dialect, :mod:`~simlab.ledger.sqlite`) is the real ledger over
  SQLite, correct across processes; its schema (:mod:`~simlab.ledger.sqlite.schema`),
  statements (:mod:`~simlab.ledger.sqlite.statements`) and file rules
  (:mod:`~simlab.ledger.sqlite.files`) live apart from the class, and the flow every dialect
  runs is :class:`~simlab.ledger.core.SqlLedger`.
* :class:`MemoryLedger` (:mod:`~simlab.ledger.memory`) is the same contract in plain Python, and
  :mod:`~simlab.ledger.dict_experiment` the chapter's smallest model of fencing.
* :class:`RacyClaimLedger` (:mod:`~simlab.ledger.sqlite.racy`, also importable as
  ``ChapterLedger``) keeps the chapter's racy two-statement claim and unfenced save
  (:mod:`~simlab.ledger.racy`) for teaching.
* :class:`PostgresLedger` (the PostgreSQL dialect, :mod:`~simlab.ledger.postgres`) is the same
  contract on PostgreSQL, for workers on many machines (schema
  :mod:`~simlab.ledger.postgres.schema`, statements :mod:`~simlab.ledger.postgres.statements`,
  the racy claim :mod:`~simlab.ledger.postgres.racy`, probes and scratch schemas
  :mod:`~simlab.ledger.postgres.probes`).
  :func:`connect` opens either engine from a path or URL; :func:`throwaway_postgres`
  (:mod:`~simlab.ledger.throwaway`) runs a disposable server for tests and notebooks. The
  PostgreSQL names are imported on first use, so ``import simlab.ledger`` never loads the driver.
  ``ChapterLedger`` and ``PostgresChapterLedger`` are the racy ledgers' former names, kept.
* :class:`TaskLedger` (:mod:`~simlab.ledger.protocol`) is the contract as a type.
* :mod:`~simlab.ledger.processes` runs real worker processes over a ledger file,
  :mod:`~simlab.ledger.demo` the chapter's story across them, :mod:`~simlab.ledger.probing`
  (with each dialect's ``probes``) the bench and health probes, :mod:`~simlab.ledger.bench` the
  ledger benchmark.
"""

from simlab.errors import LeaseHeld, LedgerError, TerminalTask, UnknownTask
from simlab.ledger.connect import connect
from simlab.ledger.memory import MemoryLedger
from simlab.ledger.protocol import TaskLedger
from simlab.ledger.sqlite.ledger import Ledger
from simlab.ledger.sqlite.racy import ChapterLedger, RacyClaimLedger
from simlab.ledger.sqlite.schema import MIGRATIONS, SCHEMA_VERSION

__all__ = [
    "Ledger",
    "RacyClaimLedger",
    "ChapterLedger",
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
    "PostgresChapterLedger",
    "throwaway_postgres",
    "PostgresUnavailable",
]

#: Names whose modules import the PostgreSQL driver (or start servers): loaded on first use.
_LAZY = {
    "PostgresLedger": "simlab.ledger.postgres",
    "PostgresRacyClaimLedger": "simlab.ledger.postgres.racy",
    "PostgresChapterLedger": "simlab.ledger.postgres.racy",
    "throwaway_postgres": "simlab.ledger.throwaway",
    "PostgresUnavailable": "simlab.ledger.throwaway",
}


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'simlab.ledger' has no attribute {name!r}")
