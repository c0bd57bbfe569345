"""What one task did, frozen as plain data: the record business assertions are written against.

An :class:`Observation` holds outcomes, not internals: the ledger's final status and result, the
answer and what it cites, the stop codes, every e-mail the mail server accepted, the tools called,
the tokens spent and the simulated latency. :class:`~simlab.rollout.metered_agent.Harness` makes one
with ``observe(task_id)``; a learner can also build one by hand to test an assertion.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, fields
from typing import Any

from simlab.agent.checkpoint import EvidenceRef
from simlab.agent.world import Delivery

__all__ = ["Observation", "citations"]

_CITE = re.compile(r"\[(?P<doc>[^\]\s]+) v(?P<version>\d+)\]")


def citations(answer: str | None) -> frozenset[tuple[str, int]]:
    """The ``(doc_id, version)`` pairs an answer cites as ``[doc_id vN]``."""
    if not answer:
        return frozenset()
    return frozenset((m["doc"], int(m["version"])) for m in _CITE.finditer(answer))


@dataclass(frozen=True)
class Observation:
    """What one task did, as plain data: the evidence business assertions are written against.

    ``recipient`` is the address the task was asked to answer; ``deliveries`` every e-mail the
    mail server accepted during the run (for any task); ``answer`` the drafted answer (None if
    the task never drafted); ``evidence`` what the task cited; ``review`` the stop codes if it
    stopped for review; ``calls`` the tools called, in order; ``fenced`` how many commits or
    effects the ledger refused to a stale lease; ``latency`` simulated seconds from submit until
    the task reached its final status; ``stock`` the live stock figures at the end.
    """

    case: str
    version: str
    task_id: str
    tenant: str
    recipient: str
    status: str
    answer: str | None
    evidence: tuple[EvidenceRef, ...]
    review: tuple[str, ...]
    result: Any
    deliveries: tuple[Delivery, ...]
    effects: tuple[str, ...]
    calls: tuple[str, ...]
    tokens: int
    fenced: int
    latency: float
    stock: dict[str, int] = field(default_factory=dict)

    def sent_to(self, address: str) -> int:
        """How many e-mails went to ``address``."""
        return sum(1 for d in self.deliveries if d.to == address)

    @property
    def repeated_side_effects(self) -> int:
        """E-mails beyond the first for their idempotency key: zero when effects are once."""
        return len(self.deliveries) - len({d.key for d in self.deliveries})

    @property
    def citations_correct(self) -> bool | None:
        """Does the answer cite exactly the evidence the task holds, at those versions?

        None when there is no answer to judge. An uncited piece of evidence, or a citation of
        something the task never retrieved (or at another version), makes it False.
        """
        if self.answer is None:
            return None
        held = frozenset((e.doc_id, e.version) for e in self.evidence)
        return citations(self.answer) == held

    def to_dict(self) -> dict[str, Any]:
        """The observation as plain JSON data, in field order (e-mails and citations as
        objects, every container fresh)."""
        plain = {f.name: getattr(self, f.name) for f in fields(self)}
        return {
            **plain,
            "evidence": [
                {"source": e.source, "doc_id": e.doc_id, "version": e.version}
                for e in self.evidence
            ],
            "review": list(self.review),
            "deliveries": [
                {"key": d.key, "to": d.to, "subject": d.subject, "body": d.body}
                for d in self.deliveries
            ],
            "effects": list(self.effects),
            "calls": list(self.calls),
            "stock": dict(self.stock),
        }
