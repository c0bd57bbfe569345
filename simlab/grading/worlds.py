"""Other ledgers for question ``cancel-limits`` (exercise ``fencing``): the story told on
ledgers built otherwise, so that what a cancel stops is something the answer must measure.

The notebook asks for six facts about a cancel, measured on a ledger and a mailbox. On the
kit's ledger they never change, so an answer could play the story and type the facts in. The
check therefore also plays the learner's function in a *world* (:data:`WORLDS`) where the names
``Ledger`` and ``Mailbox`` are classes that behave otherwise: one whose cancel fences nothing
(and whose mailbox loses its mail), one whose cancel rolls the step back (the ledgers are
:mod:`simlab.ledger.broken`). Every fact differs
from the kit's in at least one world, and none depends on the order in which the learner tries
the things the story lists.

:func:`play_in_world` runs in the sandbox (a factory of :mod:`simlab.grading.factories`): it
binds the world's classes wherever the learner's code may look the kit's up (the notebook's
names, ``simlab.ledger``, ``simlab.sim.mailbox``), calls the learner's function, and puts the
kit's classes back. :func:`reference_facts` plays the notebook's story on a world's classes in
the grader's own process: what the learner's facts must be there.
"""

from __future__ import annotations

import collections
import sys
import tempfile
from pathlib import Path
from typing import Any

from simlab.errors import TerminalTask
from simlab.ledger.broken import RollbackCancelLedger, UnfencedCancelLedger
from simlab.ledger.sqlite import Ledger as KitLedger
from simlab.sim.mailbox import Mailbox as KitMailbox

__all__ = ["WORLDS", "FACTS", "play_in_world", "reference_facts"]

#: The six facts of the notebook, in its table's order.
FACTS = (
    "later_save_refused",
    "later_effect_refused",
    "new_claim_refused",
    "email_recalled",
    "step_rolled_back",
    "requeue_restarts_from_zero",
)


class _LostMail(KitMailbox):
    """A mailbox that loses every e-mail (a key never received reads as 0)."""

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__()
        self.received = collections.Counter()

    def send(self, key: str) -> None:
        pass


_LostMail.__name__ = _LostMail.__qualname__ = "Mailbox"

#: world -> (its Ledger, its Mailbox).
WORLDS: dict[str, tuple[type, type]] = {
    "unfenced": (UnfencedCancelLedger, _LostMail),
    "rollback": (RollbackCancelLedger, KitMailbox),
}


#: Modules whose names stay the kit's: they build the worlds.
_OWN = (__name__, RollbackCancelLedger.__module__)


def play_in_world(ns: dict, name: str, path: str, world: str) -> Any:
    """Call the learner's ``name(path)`` with the world's classes wherever the kit's are
    bound (the notebook's names, the kit's modules), then bind the kit's back."""
    ledger, mailbox = WORLDS[world]
    swaps = {KitLedger: ledger, KitMailbox: mailbox}
    places = [ns] + [
        vars(module)
        for module_name, module in list(sys.modules.items())
        if module_name.split(".")[0] == "simlab" and module is not None and module_name not in _OWN
    ]
    undo = []
    for place in places:
        for key, value in list(place.items()):
            if isinstance(value, type) and value in swaps:
                undo.append((place, key, value))
                place[key] = swaps[value]
    try:
        fn = ns.get(name)
        if not callable(fn):
            raise NameError(f"no function named {name!r} is defined")
        return fn(path)
    finally:
        for place, key, value in undo:
            place[key] = value


def reference_facts(world: str | None) -> dict[str, bool]:
    """The notebook's story played on ``world``'s classes (None: the kit's) in this process."""
    ledger_cls, mailbox_cls = WORLDS[world] if world else (KitLedger, KitMailbox)
    mailbox = mailbox_cls()
    with tempfile.TemporaryDirectory() as folder:
        ledger = ledger_cls(str(Path(folder) / "story.sqlite"))
        try:
            ledger.submit("t1")
            lease = ledger.claim("t1", "w1", 60)
            ledger.save(lease, 1)
            if ledger.record_effect(lease, "t1:email"):
                mailbox.send("t1:email")
            ledger.cancel("t1")
            facts = {
                "later_save_refused": ledger.save(lease, 2) is False,
                "later_effect_refused": ledger.record_effect(lease, "t1:again") is False,
            }
            try:
                ledger.claim("t1", "w2", 60)
                facts["new_claim_refused"] = False
            except TerminalTask:
                facts["new_claim_refused"] = True
            facts["email_recalled"] = mailbox.received.get("t1:email", 0) == 0
            facts["step_rolled_back"] = ledger.get("t1").step < 1
            ledger.requeue("t1")
            facts["requeue_restarts_from_zero"] = ledger.claim("t1", "w3", 60).step == 0
        finally:
            ledger.close()
    return facts
