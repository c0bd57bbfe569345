"""The task ledger: the only package that speaks SQL.

* :class:`Ledger` (:mod:`~simlab.ledger.sqlite`) is the real ledger over SQLite, correct across
  processes; its schema (:mod:`~simlab.ledger.schema`) and statements
  (:mod:`~simlab.ledger.statements`) live apart from the class.
* :class:`MemoryLedger` (:mod:`~simlab.ledger.memory`) is the same contract in plain Python, and
  :mod:`~simlab.ledger.dict_experiment` the chapter's smallest model of fencing.
* :class:`ChapterLedger` (:mod:`~simlab.ledger.chapter`) keeps the chapter's racy primitives for
  teaching.
* :class:`TaskLedger` (:mod:`~simlab.ledger.protocol`) is the contract as a type.
* :mod:`~simlab.ledger.processes` runs real worker processes over a ledger file,
  :mod:`~simlab.ledger.demo` the chapter's story across them, :mod:`~simlab.ledger.probes` the
  bench and health probes, :mod:`~simlab.ledger.bench` the ledger benchmark.
"""

from simlab.errors import LeaseHeld, LedgerError, TerminalTask, UnknownTask
from simlab.ledger.chapter import ChapterLedger
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
]
