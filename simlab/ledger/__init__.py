"""The task ledger: the only package that speaks SQL.

* :class:`Ledger` (:mod:`~simlab.ledger.sqlite`) is the real ledger over SQLite, correct across
  processes; its schema (:mod:`~simlab.ledger.schema`) and statements
  (:mod:`~simlab.ledger.statements`) live apart from the class.
* :class:`MemoryLedger` (:mod:`~simlab.ledger.memory`) is the same contract in plain Python, and
  :mod:`~simlab.ledger.dict_experiment` the chapter's smallest model of fencing.
* :class:`ChapterLedger` (:mod:`~simlab.ledger.chapter`) keeps the chapter's racy primitives for
  teaching.
* :class:`PostgresLedger` (:mod:`~simlab.ledger.postgres`) is the same contract on PostgreSQL,
  for workers on many machines (schema :mod:`~simlab.ledger.pg_schema`, statements
  :mod:`~simlab.ledger.pg_statements`, the chapter's primitives
  :mod:`~simlab.ledger.pg_chapter`, probes and scratch schemas :mod:`~simlab.ledger.pg_probes`).
  :func:`connect` opens either engine from a path or URL; :func:`throwaway_postgres`
  (:mod:`~simlab.ledger.throwaway`) runs a disposable server for tests and notebooks. The
  PostgreSQL names are imported on first use, so ``import simlab.ledger`` never loads the driver.
* :class:`TaskLedger` (:mod:`~simlab.ledger.protocol`) is the contract as a type.
* :mod:`~simlab.ledger.processes` runs real worker processes over a ledger file,
  :mod:`~simlab.ledger.demo` the chapter's story across them, :mod:`~simlab.ledger.probes` the
  bench and health probes, :mod:`~simlab.ledger.bench` the ledger benchmark.
"""

from simlab.errors import LeaseHeld, LedgerError, TerminalTask, UnknownTask
from simlab.ledger.chapter import ChapterLedger
from simlab.ledger.connect import connect
from simlab.ledger.memory import MemoryLedger
from simlab.ledger.protocol import TaskLedger
from simlab.ledger.schema import MIGRATIONS, SCHEMA_VERSION
from simlab.ledger.sqlite import Ledger

__all__ = [
    "Ledger",
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
    "PostgresChapterLedger",
    "throwaway_postgres",
    "PostgresUnavailable",
]

#: Names whose modules import the PostgreSQL driver (or start servers): loaded on first use.
_LAZY = {
    "PostgresLedger": "simlab.ledger.postgres",
    "PostgresChapterLedger": "simlab.ledger.pg_chapter",
    "throwaway_postgres": "simlab.ledger.throwaway",
    "PostgresUnavailable": "simlab.ledger.throwaway",
}


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'simlab.ledger' has no attribute {name!r}")
