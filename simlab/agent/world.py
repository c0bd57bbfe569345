"""The agent's world: documents, permissions, tools, stock, approvals and the mail server.

Everything the deterministic agent reads outside its checkpoint lives here, so a lesson can
change the world under a paused task (publish a new document version, revoke a tenant, remove a
tool) and watch the resume guard stop the task. Steps only *read* the world; the runner in
:mod:`simlab.agent.resume` is the only code that sends mail through it.

Versions are the point. Every document has a version that grows on each publish; the *index
version* grows whenever any document changes; a tenant's :class:`Grant` has a version that
grows whenever its permissions change (a revocation included); every stock figure has a version.
A citation, a cache entry or a checkpoint records the versions it saw, so a later reader can tell
"still the same" from "changed since".

Nothing here reads a clock or draws random numbers: the same calls give the same world.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

__all__ = [
    "RETRIEVAL",
    "INVENTORY_API",
    "TOOLS",
    "PermissionDenied",
    "Document",
    "Grant",
    "Delivery",
    "MailServer",
    "World",
]

#: Evidence sources: semantic material from retrieval, exact facts from the business API.
RETRIEVAL = "retrieval"
INVENTORY_API = "inventory-api"
#: The tools the agent graph knows: search (retrieval), inventory (business API), the model and
#: e-mail. A deployment may lack some; a grant may withhold some.
TOOLS = frozenset({"search", "inventory", "model", "email"})


class PermissionDenied(Exception):
    """A grant does not allow what was asked (revoked, out of date, or outside its scope)."""


@dataclass(frozen=True, slots=True)
class Document:
    """One version of a document; ``collection`` decides who may read it."""

    doc_id: str
    version: int
    text: str
    collection: str


@dataclass(frozen=True, slots=True)
class Grant:
    """What a tenant (or a sub-agent acting for it) may read and use, at a permission version.

    ``collections`` are the document collections it may read; ``tools`` the tools it may call.
    ``version`` grows on every change of the tenant's grant, revocation included.
    """

    tenant: str
    version: int
    collections: frozenset[str]
    tools: frozenset[str]
    revoked: bool = False

    @property
    def permission_version(self) -> str:
        """The version to key caches with: the grant version *and* its scope.

        A sub-agent's narrowed grant has the tenant's version but a smaller scope; including the
        scope keeps it from sharing cache entries with the wider grant.
        """
        return f"v{self.version}:" + ",".join(sorted(self.collections))

    def allows(self, collection: str) -> bool:
        return not self.revoked and collection in self.collections

    def narrow(
        self,
        *,
        collections: Iterable[str] | None = None,
        tools: Iterable[str] | None = None,
    ) -> Grant:
        """The grant of a sub-agent: the same or less, never more.

        ``None`` keeps that part as it is. Asking for a collection or tool this grant does not
        hold raises :class:`PermissionDenied` naming it: a sub-agent that needs more than its
        task has is a design error to surface, not to paper over.
        """
        if self.revoked:
            raise PermissionDenied(f"tenant {self.tenant!r}: permission revoked")
        new_collections = self.collections if collections is None else frozenset(collections)
        new_tools = self.tools if tools is None else frozenset(tools)
        extra = sorted(new_collections - self.collections) + sorted(new_tools - self.tools)
        if extra:
            raise PermissionDenied(
                f"tenant {self.tenant!r}: a sub-agent cannot gain {', '.join(extra)}"
            )
        return replace(self, collections=new_collections, tools=new_tools)


@dataclass(frozen=True, slots=True)
class Delivery:
    """One e-mail the mail server accepted."""

    key: str
    to: str
    subject: str
    body: str


class MailServer:
    """The outside world: every e-mail it accepted, in order. Nothing can take one back.

    It does not deduplicate (real mail servers usually don't): if a key appears twice in
    :attr:`deliveries`, the idempotency ledger did not hold.
    """

    def __init__(self) -> None:
        self.deliveries: list[Delivery] = []

    def send(self, key: str, to: str, subject: str, body: str) -> Delivery:
        delivery = Delivery(key, to, subject, body)
        self.deliveries.append(delivery)
        return delivery

    def count(self, key: str) -> int:
        return sum(1 for d in self.deliveries if d.key == key)

    @property
    def duplicates(self) -> int:
        """Deliveries beyond the first for their key: idempotency keeps this at zero."""
        return len(self.deliveries) - len({d.key for d in self.deliveries})


class World:
    """Documents, grants, deployed tools, stock, approval policy, approvals and a mail server.

    Reading methods never change anything. Changing methods (``publish``, ``withdraw``,
    ``grant``, ``revoke``, ``remove_tool``, ``add_tool``, ``set_stock``, ``approve``) bump the
    version they affect, so every change is visible to whoever kept the old version.
    """

    def __init__(
        self,
        *,
        documents: Iterable[Document] = (),
        grants: Iterable[Grant] = (),
        tools: Iterable[str] = TOOLS,
        stock: dict[str, int] | None = None,
        approval_required: Iterable[str] = (),
    ) -> None:
        self._documents = {d.doc_id: d for d in documents}
        self._grants = {g.tenant: g for g in grants}
        self.tools = frozenset(tools)
        #: sku -> (quantity, version)
        self._stock = {sku: (qty, 1) for sku, qty in (stock or {}).items()}
        #: tenants whose outgoing e-mails need a human approval first
        self.approval_required = frozenset(approval_required)
        #: task_id -> who approved its e-mail
        self.approvals: dict[str, str] = {}
        self.index_version = 1
        self.mail = MailServer()

    # -- JSON ------------------------------------------------------------------------------------
    def to_dict(self) -> dict:
        """Everything but the mail server, as JSON (for snapshots and graded exercises)."""
        return {
            "documents": [
                {
                    "doc_id": d.doc_id,
                    "version": d.version,
                    "text": d.text,
                    "collection": d.collection,
                }
                for d in self.documents()
            ],
            "grants": [
                {
                    "tenant": g.tenant,
                    "version": g.version,
                    "collections": sorted(g.collections),
                    "tools": sorted(g.tools),
                    "revoked": g.revoked,
                }
                for g in sorted(self._grants.values(), key=lambda g: g.tenant)
            ],
            "tools": sorted(self.tools),
            "stock": {
                sku: {"quantity": q, "version": v} for sku, (q, v) in sorted(self._stock.items())
            },
            "approval_required": sorted(self.approval_required),
            "approvals": dict(sorted(self.approvals.items())),
            "index_version": self.index_version,
        }

    @classmethod
    def from_dict(cls, d: dict) -> World:
        """Rebuild a world from :meth:`to_dict` (with an empty mail server)."""
        world = cls(
            documents=[
                Document(x["doc_id"], x["version"], x["text"], x["collection"])
                for x in d["documents"]
            ],
            grants=[
                Grant(
                    g["tenant"],
                    g["version"],
                    frozenset(g["collections"]),
                    frozenset(g["tools"]),
                    g["revoked"],
                )
                for g in d["grants"]
            ],
            tools=d["tools"],
            approval_required=d["approval_required"],
        )
        world._stock = {sku: (x["quantity"], x["version"]) for sku, x in d["stock"].items()}
        world.approvals = dict(d["approvals"])
        world.index_version = d["index_version"]
        return world

    # -- reading ---------------------------------------------------------------------------------
    def grant_for(self, tenant: str) -> Grant | None:
        """The tenant's current grant (possibly revoked), or None if it never had one."""
        return self._grants.get(tenant)

    def document(self, doc_id: str) -> Document | None:
        return self._documents.get(doc_id)

    def documents(self) -> list[Document]:
        """Every current document, ordered by ID (a stable order for ranking ties)."""
        return [self._documents[k] for k in sorted(self._documents)]

    def stock(self, sku: str) -> tuple[int, int] | None:
        """``(quantity, version)`` of ``sku``, or None if the business API does not know it."""
        return self._stock.get(sku)

    def current_version(self, source: str, doc_id: str) -> int | None:
        """The current version of a cited document or business fact, or None if it is gone."""
        if source == RETRIEVAL:
            doc = self._documents.get(doc_id)
            return None if doc is None else doc.version
        if source == INVENTORY_API:
            found = self._stock.get(doc_id)
            return None if found is None else found[1]
        raise ValueError(f"unknown evidence source {source!r}")

    def readable(self, tenant: str, source: str, doc_id: str) -> bool:
        """May ``tenant`` (its current grant) read this document or fact now?"""
        grant = self._grants.get(tenant)
        if grant is None or grant.revoked:
            return False
        if source == INVENTORY_API:
            return "inventory" in grant.tools
        doc = self._documents.get(doc_id)
        return doc is not None and grant.allows(doc.collection)

    # -- changing --------------------------------------------------------------------------------
    def publish(self, doc_id: str, text: str, collection: str | None = None) -> Document:
        """A new version of ``doc_id`` (version 1 if new); the index version grows."""
        old = self._documents.get(doc_id)
        if old is None and collection is None:
            raise ValueError(f"new document {doc_id!r} needs a collection")
        doc = Document(
            doc_id,
            1 if old is None else old.version + 1,
            text,
            collection if collection is not None else old.collection,
        )
        self._documents[doc_id] = doc
        self.index_version += 1
        return doc

    def withdraw(self, doc_id: str) -> None:
        """Remove a document; the index version grows."""
        del self._documents[doc_id]
        self.index_version += 1

    def grant(self, tenant: str, collections: Iterable[str], tools: Iterable[str] = TOOLS) -> Grant:
        """Give (or change) the tenant's grant; its version grows."""
        old = self._grants.get(tenant)
        new = Grant(
            tenant, 1 if old is None else old.version + 1, frozenset(collections), frozenset(tools)
        )
        self._grants[tenant] = new
        return new

    def revoke(self, tenant: str) -> Grant:
        """Revoke the tenant's grant; its version grows, so nothing cached under it matches."""
        old = self._grants[tenant]
        new = replace(old, version=old.version + 1, revoked=True)
        self._grants[tenant] = new
        return new

    def remove_tool(self, tool: str) -> None:
        self.tools = self.tools - {tool}

    def add_tool(self, tool: str) -> None:
        self.tools = self.tools | {tool}

    def set_stock(self, sku: str, quantity: int) -> int:
        """Change a stock figure; returns its new version."""
        old = self._stock.get(sku)
        version = 1 if old is None else old[1] + 1
        self._stock[sku] = (quantity, version)
        return version

    def approve(self, task_id: str, by: str) -> None:
        """A human approves the e-mail of ``task_id``."""
        self.approvals[task_id] = by
