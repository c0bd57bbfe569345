"""The objects a hidden check may ask a sandbox to build (:data:`FACTORIES`).

Each factory takes the student's namespace first. Objects built here use the sandbox clock,
which reads the time the grader sent with its latest request.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from simlab.grading.attacks import (
    CrashLedger,
    contended_claims,
    contended_effects,
    interleaved_claims,
    shared_containers,
)
from simlab.grading.pieces import PiecesLedger, ScriptedLedger, ScriptedWork, sandbox_clock
from simlab.ledger import Ledger
from simlab.sim.mailbox import Mailbox
from simlab.sim.sending import WatchedLedger, WatchedMailbox

__all__ = ["FACTORIES"]


def _piece(ns: dict, name: str | None) -> Callable | None:
    if name is None:
        return None
    if not callable(ns.get(name)):
        raise NameError(f"no function named {name!r} is defined")
    return ns[name]


def _pieces_ledger(
    ns: dict,
    path: str,
    *,
    claim: str | None = None,
    heartbeat: str | None = None,
    record_effect: str | None = None,
) -> Ledger:
    return PiecesLedger(
        path,
        clock=sandbox_clock,
        claim=_piece(ns, claim),
        heartbeat=_piece(ns, heartbeat),
        record_effect=_piece(ns, record_effect),
    )


#: name -> factory(namespace, *args, **kwargs): the objects a hidden check may build.
FACTORIES: dict[str, Callable[..., Any]] = {
    "ledger": lambda ns, path: Ledger(path, clock=sandbox_clock),
    "pieces-ledger": _pieces_ledger,
    "mailbox": lambda ns: Mailbox(),
    "scripted-work": lambda ns, path, task_id, script: ScriptedWork(
        path, task_id, script, sandbox_clock
    ),
    "scripted-ledger": lambda ns, path, after_save: ScriptedLedger(path, after_save, sandbox_clock),
    "interleaved-claims": lambda ns, path, claim: _Result(
        interleaved_claims(_piece(ns, claim), path)
    ),
    "contended-claims": lambda ns, folder, claim: _Result(
        contended_claims(_piece(ns, claim), folder)
    ),
    "contended-effects": lambda ns, folder, record_effect: _Result(
        contended_effects(_piece(ns, record_effect), folder)
    ),
    "watched-mailbox": lambda ns: WatchedMailbox(),
    "watched-ledger": lambda ns, ledger, mailbox: WatchedLedger(ledger, mailbox),
    "crash-ledger": lambda ns, path: CrashLedger(path, sandbox_clock),
    "crash-mailbox": lambda ns, ledger: ledger.mailbox,
    "shared-containers": lambda ns, name, record: _Result(
        shared_containers(_piece(ns, name), record)
    ),
}


class _Result:
    """A value computed in the sandbox, read back with ``attribute("value")``."""

    def __init__(self, value: Any):
        self.value = value
