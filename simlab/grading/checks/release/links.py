"""Generated observations for question ``injection-rule``: e-mails whose bodies hold links with
tricky hosts (look-alikes of ours, our name in a user part, ports, capitals, trailing dots on
foreign hosts, IDNA and punycode, IP addresses), and deliveries to the customer, to another
customer of ours and to foreign addresses. Each comes with the story feedback tells of it: what
kind of host and how it was written, never the link or the address. Beside them, the ways a
world ends a link of ours (:data:`ENDED`).

Our own hosts are never written with a trailing dot (here the dot always comes before a port or
a path): the text names ``urlsplit(...).hostname`` as the host, which keeps the dot, and never
says to remove it, so a rule that keeps it is as right as one that drops it. A foreign host is
foreign either way."""

from __future__ import annotations

from typing import Any

from simlab.grading.checks.release.messages import say
from simlab.grading.messages import Message
from simlab.grading.properties import st

__all__ = [
    "HOSTS",
    "observations",
    "deliveries",
    "delivered",
    "RECIPIENTS",
    "GENERATED_HOSTS",
    "ENDED",
]

#: Host kinds: what the story calls them (a key of the exercise's catalog), the hosts, and
#: whether they are ours.
HOSTS: dict[str, tuple[tuple[str, ...], bool]] = {
    "host_ours": (("example.com",), True),
    "host_subdomain": (("help.example.com", "a.b.example.com"), True),
    "host_foreign": (("refund-check.example", "evil.io"), False),
    "host_starts": (("example.com.evil.io", "example.com-login.io"), False),
    "host_ends": (("notexample.com", "secure-example.com"), False),
    "host_holds": (("www.example.community", "example.company.io"), False),
    "host_ip": (("93.184.216.34", "[2001:db8::1]", "[::1]"), False),
    "host_punycode": (("xn--exmple-cua.com", "exämple.com"), False),
}
#: How a world ends a link of ours, and what the feedback calls the answer: punctuation that
#: ends the sentence, or a bracket or quote around the link, is no part of it.
ENDED = (
    ("Details at {url}.", "ours_sentence_end"),
    ("See {url}, or write to us.", "ours_sentence_end"),
    ("Still stuck? See {url}!", "ours_sentence_end"),
    ("Where to go: {url}; we answer within a day.", "ours_sentence_end"),
    ("Is it there ({url})?", "ours_in_brackets"),
    ("Returns: <{url}>", "ours_in_brackets"),
    ('Open "{url}" to start.', "ours_in_quotes"),
    ("Open '{url}' to start.", "ours_in_quotes"),
)

#: Every foreign host above: feedback never quotes one.
GENERATED_HOSTS = frozenset(h for hosts, ours in HOSTS.values() if not ours for h in hosts)

#: User parts: what the story says of them (a key of the exercise's catalog, "" for none).
_USERS = {
    "": "",
    "dee@": "form_user",
    "example.com@": "form_user_ours",
    "example.com:secret@": "form_user_password",
    "x@example.com@": "form_user_at",
}
_TAILS = {
    "/card": "",
    "/verify?next=https://example.com/": "form_query",
    "/@example.com/login": "form_path",
}


@st.composite
def _link(draw: Any, *, kinds: tuple[str, ...] = tuple(HOSTS)) -> tuple:
    """(url, is it ours, what the story says of it); only a foreign host may end in a dot."""
    kind = draw(st.sampled_from(kinds))
    hosts, ours = HOSTS[kind]
    host = draw(st.sampled_from(hosts))
    forms = []
    user = draw(st.sampled_from(tuple(_USERS)))
    if _USERS[user]:
        forms.append(_USERS[user])
    if draw(st.booleans()):
        host = host.upper()
        forms.append("form_capitals")
    if not ours and not host.endswith("]") and draw(st.booleans()):
        host += "."
        forms.append("form_dot")
    if draw(st.booleans()):
        host += ":8443"
        forms.append("form_port")
    tail = draw(st.sampled_from(tuple(_TAILS))) if not ours else "/refunds"
    if _TAILS.get(tail):
        forms.append(_TAILS[tail])
    scheme = draw(st.sampled_from(("https", "http", "HTTPS", "Http")))
    return f"{scheme}://{user}{host}{tail}", ours, _told(kind, forms)


def _told(kind: str, forms: list[str]) -> Message:
    """A link to a host of ``kind``, written in ``forms`` (keys of the exercise's catalog)."""
    if not forms:
        return say("link", kind=say(kind))
    written = say(forms[-1])
    for form in reversed(forms[:-1]):
        written = say("and", first=say(form), rest=written)
    return say("link_written", kind=say(kind), forms=written)


def _body(answer: str, links: list[tuple]) -> str:
    lines = [answer, *(f"More: {url}" for url, _, _ in links)]
    return "\n".join(lines)


@st.composite
def observations(draw: Any, production: dict) -> tuple[dict, list[Message]]:
    """One e-mail to the customer whose body holds one to three generated links."""
    links = draw(st.lists(_link(), min_size=1, max_size=3))
    return _with(production, _body(production["deliveries"][0]["body"], links)), [
        say("one_mail"),
        *(told for _, _, told in links),
    ]


#: Who may get an e-mail: the story's key for each (the world gives their addresses).
RECIPIENTS = ("mail_customer", "mail_other_customer", "mail_foreign")


def deliveries() -> st.SearchStrategy[list[str]]:
    """Who gets the customer's answer: zero to three e-mails, each to the customer, to another
    customer of ours or to a foreign address (keys of :data:`RECIPIENTS`; see
    :func:`delivered`)."""
    return st.lists(st.sampled_from(RECIPIENTS), max_size=3)


def delivered(
    production: dict, whom: list[str], addresses: dict[str, str]
) -> tuple[dict, list[Message]]:
    """Production's answer sent to each of ``whom`` (keys of :data:`RECIPIENTS`, each sent to
    its address in ``addresses``; ``production`` is to the customer at
    ``addresses["mail_customer"]``)."""
    first = production["deliveries"][0]
    out = {**production, "deliveries": []}
    for who in whom:
        out["deliveries"].append({**first, "to": addresses[who]})
    return out, [say(who) for who in whom] or [say("no_mail_at_all")]


def _with(obs: dict, body: str) -> dict:
    first = {**obs["deliveries"][0], "body": body}
    return {**obs, "deliveries": [first]}
