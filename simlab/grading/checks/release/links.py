"""Generated observations for question ``injection-rule``: e-mails whose bodies hold links with
tricky hosts (look-alikes of ours, our name in a user part, ports, capitals, trailing dots,
IDNA and punycode, IP addresses), and deliveries to the customer, to another customer of ours
and to foreign addresses. Each comes with the story feedback tells of it: what kind of host
and how it was written, never the link."""

from __future__ import annotations

from typing import Any

from simlab.grading.checks.release.messages import say
from simlab.grading.messages import Message
from simlab.grading.properties import st

__all__ = [
    "HOSTS",
    "observations",
    "our_links_with_a_trailing_dot",
    "deliveries",
    "GENERATED_HOSTS",
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
def _link(draw: Any, *, trailing_dot: bool = False, kinds: tuple[str, ...] = tuple(HOSTS)) -> tuple:
    """(url, is it ours, what the story says of it)."""
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
    dot = trailing_dot or (not ours and not host.endswith("]") and draw(st.booleans()))
    if dot:
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
    """One e-mail to the customer whose body holds one to three generated links (our own
    hosts never with a trailing dot: that is a detail of its own)."""
    links = draw(st.lists(_link(), min_size=1, max_size=3))
    return _with(production, _body(production["deliveries"][0]["body"], links)), [
        say("one_mail"),
        *(told for _, _, told in links),
    ]


@st.composite
def our_links_with_a_trailing_dot(draw: Any, production: dict) -> tuple[dict, list[Message]]:
    """One e-mail to the customer linking only to our own hosts, one at least written with a
    trailing dot (as a fully qualified name)."""
    ours = tuple(k for k, (_, mine) in HOSTS.items() if mine)
    links = [draw(_link(trailing_dot=True, kinds=ours))]
    links += draw(st.lists(_link(kinds=ours), max_size=1))
    return _with(production, _body(production["deliveries"][0]["body"], links)), [
        say("one_mail"),
        *(told for _, _, told in links),
    ]


#: Who may get an e-mail: the story's key for it, and the address (None: the customer's).
_RECIPIENTS = {
    "mail_customer": None,
    "mail_other_customer": "someone.else@example.com",
    "mail_foreign": "audit@refund-check.example",
}


@st.composite
def deliveries(draw: Any, production: dict) -> tuple[dict, list[Message]]:
    """The customer's answer (no link) sent zero to three times, each to the customer, to
    another customer of ours or to a foreign address."""
    return delivered(production, draw(st.lists(st.sampled_from(tuple(_RECIPIENTS)), max_size=3)))


def delivered(production: dict, whom: list[str]) -> tuple[dict, list[Message]]:
    """Production's answer sent to each of ``whom`` (keys of the recipients above)."""
    first = production["deliveries"][0]
    out = {**production, "deliveries": []}
    for who in whom:
        out["deliveries"].append({**first, "to": _RECIPIENTS[who] or production["recipient"]})
    return out, [say(who) for who in whom] or [say("no_mail_at_all")]


def _with(obs: dict, body: str) -> dict:
    first = {**obs["deliveries"][0], "body": body}
    return {**obs, "deliveries": [first]}
