"""Exact facts from an authorized business API (a stub of an inventory service).

Semantic material comes from retrieval; exact figures (how many are in stock) must not: a
similar-looking passage is not a stock count. The API checks the caller's grant on every call
and returns the figure with its source and version, like retrieval does, so a citation can be
re-checked later.
"""

from __future__ import annotations

from dataclasses import dataclass

from simlab.agent.checkpoint import EvidenceRef
from simlab.agent.retrieval import check_live
from simlab.agent.world import INVENTORY_API, Grant, PermissionDenied, World

__all__ = ["Fact", "InventoryAPI", "stock_text"]


def stock_text(sku: str, quantity: int) -> str:
    """How a stock figure reads inside a prompt or an answer."""
    return f"{quantity} units of {sku} in stock."


@dataclass(frozen=True, slots=True)
class Fact:
    """An exact business fact: ``quantity`` of ``sku`` in stock, at ``version``."""

    source: str
    sku: str
    quantity: int
    version: int

    @property
    def ref(self) -> EvidenceRef:
        return EvidenceRef(self.source, self.sku, self.version)

    @property
    def text(self) -> str:
        return stock_text(self.sku, self.quantity)


class InventoryAPI:
    """The stock lookup: authorized per call, never cached."""

    def __init__(self, world: World):
        self.world = world

    def lookup(self, grant: Grant, sku: str) -> Fact:
        """The stock of ``sku``. :class:`PermissionDenied` if the grant is revoked, out of
        date or lacks the ``inventory`` tool; ``LookupError`` for an unknown sku."""
        check_live(self.world, grant)
        if "inventory" not in grant.tools:
            raise PermissionDenied(f"tenant {grant.tenant!r}: tool 'inventory' not granted")
        found = self.world.stock(sku)
        if found is None:
            raise LookupError(f"unknown sku {sku!r}")
        quantity, version = found
        return Fact(INVENTORY_API, sku, quantity, version)
