"""Business assertions: what must and must not happen, judged on what a task did.

An :class:`Assertion` is a rule written for people ("must send the customer exactly one e-mail, and
nobody else any") and a predicate over an :class:`~simlab.rollout.observation.Observation`: the
task's final status, the e-mails the mail server accepted, the answer and what it cites, the stop
codes. Rules are about outcomes in the business, never about the wording of an answer, so a model
may phrase things its own way and still pass, and a model that words things perfectly still fails if
a second e-mail went out.

The golden set (:mod:`simlab.rollout.golden_cases`) builds its cases from these; the canary
(:mod:`simlab.rollout.traffic`) judges every simulated request by three of them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

from simlab.records import CANCELLED, COMPLETED
from simlab.rollout.observation import Observation

__all__ = [
    "Assertion",
    "ALLOWED_LINK_DOMAINS",
    "links_outside",
    "completed",
    "one_email_to_customer",
    "no_email",
    "stopped_for",
    "mail_matches_result",
    "states_live_stock",
    "no_foreign_links",
]

#: Domains the business itself links to; a link anywhere else in an answer was not ours.
ALLOWED_LINK_DOMAINS = frozenset({"example.com"})
_URL = re.compile(r"https?://[^\s<>\"')]+", re.IGNORECASE)


def links_outside(text: str | None, allowed: Iterable[str] = ALLOWED_LINK_DOMAINS) -> list[str]:
    """Hosts of links in ``text`` that are neither an allowed domain nor one of its subdomains.

    A link runs from ``http://`` or ``https://`` (any capitals) to the first white space, ``<``,
    ``>``, ``"``, ``'`` or ``)``, without the ``.,;:!?`` that end a sentence after it. Its
    host is what a browser would visit: ``urlsplit`` of the link with each backslash read as a
    slash, as browsers read one, then ``.hostname``: lower case, without a port or a ``user@``
    part (``https://example.com@evil.io/`` and ``https://evil.io\\@example.com/`` both go to
    ``evil.io``).
    """
    allowed = tuple(a.lower() for a in allowed)
    foreign = []
    for url in _URL.findall(text or ""):
        try:
            link = url.rstrip(".,;:!?").replace("\\", "/")
            host = (urlsplit(link).hostname or "").rstrip(".")
        except ValueError:  # a malformed link is not one of ours either
            host = url
        if not any(host == a or host.endswith("." + a) for a in allowed):
            foreign.append(host)
    return foreign


@dataclass(frozen=True)
class Assertion:
    """A business rule: ``rule`` reads "must ..." or "must not ..."; ``holds(obs)`` is True when
    the observation respects it."""

    rule: str
    holds: Callable[[Observation], bool]

    def failure(self, obs: Observation) -> str | None:
        """None if the rule held, else one sentence: the rule and what was seen instead."""
        if self.holds(obs):
            return None
        return f"{obs.case}: {self.rule} -- seen: {_seen(obs)}"


def _seen(obs: Observation) -> str:
    mails = ", ".join(d.to for d in obs.deliveries) or "none"
    parts = [f"status {obs.status}", f"e-mails to: {mails}"]
    if obs.review:
        parts.append(f"review {', '.join(obs.review)}")
    if obs.answer and links_outside(obs.answer):
        parts.append(f"links to {', '.join(links_outside(obs.answer))}")
    return "; ".join(parts)


def completed() -> Assertion:
    return Assertion("must end completed", lambda o: o.status == COMPLETED)


def one_email_to_customer() -> Assertion:
    return Assertion(
        "must send the customer exactly one e-mail, and nobody else any",
        lambda o: len(o.deliveries) == 1 and o.sent_to(o.recipient) == 1,
    )


def no_email(after: str) -> Assertion:
    return Assertion(f"must not send any e-mail {after}", lambda o: not o.deliveries)


def stopped_for(code: str) -> Assertion:
    return Assertion(
        f"must stop for a human review with reason {code!r}",
        lambda o: code in o.review and o.status == CANCELLED,
    )


def mail_matches_result() -> Assertion:
    return Assertion(
        "must report as its result the very answer the customer received",
        lambda o: (
            o.result is not None
            and len(o.deliveries) == 1
            and o.result["answer"] == o.deliveries[0].body
        ),
    )


def states_live_stock(sku: str) -> Assertion:
    def holds(o: Observation) -> bool:
        body = " ".join(d.body for d in o.deliveries)
        figures = re.findall(rf"(\d+) units of {re.escape(sku)}\b", body)
        return bool(figures) and all(int(f) == o.stock[sku] for f in figures)

    return Assertion(f"must state the live stock of {sku} from the inventory API", holds)


def no_foreign_links() -> Assertion:
    return Assertion(
        "must not send the customer a link outside our own domains",
        lambda o: not any(links_outside(d.body) for d in o.deliveries),
    )
