"""The hidden world of question ``injection-rule``
(:mod:`~simlab.grading.checks.release.injection` judges the learner's rule in it): the variants
drawn from :func:`~simlab.grading.checks.hidden_world.rng` for the world being judged in, the
foreign hosts they may name and the customers they may send to. None is the notebook's own."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from functools import lru_cache

from simlab.grading.checks.hidden_world import choice_besides, current_seed, rng
from simlab.grading.checks.release.links import ENDED, GENERATED_HOSTS

__all__ = [
    "CUSTOMER_NAMES",
    "FOREIGN_HOSTS",
    "NOTEBOOK_CUSTOMER",
    "NOTEBOOK_HOST",
    "InjectionWorld",
    "OurDomains",
    "injection_world",
    "our_domains",
]

#: The customer and the injected host the notebook shows: a world draws others.
NOTEBOOK_CUSTOMER = "dee@example.com"
NOTEBOOK_HOST = "refund-check.example"

#: What a world's foreign hosts are made of: a word and a top-level label.
_WORDS = (
    "verify-card",
    "secure-login",
    "refund-desk",
    "account-check",
    "pay-update",
    "billing-help",
    "card-confirm",
    "login-portal",
    "order-status",
    "help-center",
)
_TLDS = ("io", "net", "co", "info", "example")
#: Foreign hosts that look like ours, by what the feedback calls an answer linking there (a key
#: of the exercise's catalog): a substring test, an ``endswith`` without the dot or a test for
#: ``.example.com`` anywhere calls one of them ours.
_LOOK_ALIKES = {
    "another_company": ("{w}.{tld}", "{w}.example.net"),
    "starts_like_ours": ("example.com.{w}.{tld}", "example.com-{w}.{tld}"),
    "ends_like_ours": ("{w}-example.com", "{w}example.com"),
    "holds_ours": ("{w}.example.com.{tld}", "www.example.com{w}.{tld}"),
}
#: Where a world's customers and other recipients live.
CUSTOMER_NAMES = (
    "kim",
    "ana.ruiz",
    "j.okafor",
    "li.wei",
    "sam.berg",
    "noor",
    "t.nguyen",
    "marta.k",
)
_ELSEWHERE = ("inbox.example.org", "post.test", "mail.example.net", "customers.example")
_OUTSIDERS = ("audit", "billing", "security", "noreply")
#: What a world puts before the customer's address to make one that holds it.
_LOOK_ALIKE_STARTS = ("jo", "a.", "x", "not-", "re-")
#: What a world's links of ours are made of.
_SUBDOMAINS = ("help", "kb", "shop", "support", "returns", "eu.help", "status")
_PATHS = ("/refunds", "/returns?lang=en", "/orders/4711", "/kb/returns-v3", "/card")
_PORTS = (8443, 8080, 444, 9000)

#: Every foreign host a world may draw, and those the generated observations use: feedback
#: never quotes one, however a learner's message spells it.
FOREIGN_HOSTS = (
    frozenset(
        form.format(w=w, tld=tld)
        for forms in _LOOK_ALIKES.values()
        for form in forms
        for w in _WORDS
        for tld in _TLDS
    )
    | {NOTEBOOK_HOST}
    | GENERATED_HOSTS
)


@dataclass(frozen=True)
class InjectionWorld:
    """The variants of one hidden world: (url or body, what the feedback calls the answer)
    pairs, and the addresses e-mails go to."""

    injected: str  #: the host the model change's injection names instead of the notebook's
    look_alikes: tuple[tuple[str, str], ...]  #: foreign links that look like ours
    written_otherwise: tuple[tuple[str, str], ...]  #: foreign links with our name in them
    ours: tuple[tuple[str, str], ...]  #: our own links, some written otherwise: each passes
    every_link: tuple[tuple[str, str], ...]  #: bodies with two links each
    reworded: str  #: production's answer worded otherwise, no link
    customer: str  #: a customer at our domain (never the notebook's)
    customer_elsewhere: str  #: a customer whose address is outside our domains
    other_customer: str  #: another customer of ours
    outsider: str  #: a foreign address
    #: addresses that hold the customer's (before it, after it): not the customer
    look_alike_customers: tuple[str, ...]
    #: the customer's address written otherwise, with what the feedback calls it: capitals in
    #: its name or its domain, white space before or after it, full-width letters (NFKC makes
    #: them the customer's): not the customer, as the text compares addresses exactly
    written_customers: tuple[tuple[str, str], ...]
    #: bodies with a foreign link glued to the text before it: no white space before ``http``
    glued: tuple[tuple[str, str], ...]
    #: bodies with a link of ours (a host, no path) that punctuation, a bracket or a quote ends
    ended: tuple[tuple[str, str], ...]
    #: links with a backslash before an ``@``: a browser reads it as a slash, ending the host
    backslashed: tuple[tuple[str, str], ...]
    #: bodies with a foreign link right after a word character (a letter, a digit or ``_``)
    glued_to_word: tuple[tuple[str, str], ...]
    #: bodies with a foreign host after another scheme than http or https (``ftp://``): the
    #: text's links start with ``http://`` or ``https://``, so these hold none and do no harm
    other_schemes: tuple[tuple[str, str], ...]
    #: a subject that repeats a customer's question holding a foreign link: only bodies are
    #: read for links, so an answer under it with no link of its own does no harm
    asked_about: str = ""
    #: a foreign link with our host and a percent-encoded slash before its ``@``: the host is
    #: the foreign one (``urlsplit`` decodes nothing), so a rule that decodes first calls it ours
    encoded_before_at: tuple[str, str] = ("", "")
    #: a body with a link of ours, then a foreign one, each ended by a white space that is not
    #: ASCII (a no-break space, say): a rule that ends links at ASCII white space only reads
    #: the two as one link of ours
    wide_space: tuple[str, str] = ("", "")
    #: links whose host is no host of ours because none can be read: an empty host before a
    #: foreign name (``https:///evil.io/``: ``hostname`` is None), and a ``[`` that no ``]``
    #: closes (``urlsplit`` raises ``ValueError``); the text: such a link does harm
    unreadable: tuple[tuple[str, str], ...] = ()
    #: foreign links with our host, then a character a link holds (one the text does not end
    #: a link at: a comma, a semicolon, an opening bracket...), then an ``@``: the host is the
    #: foreign one after the ``@``, so a rule that ends a link at that character reads ours
    ours_then_inside: tuple[tuple[str, str], ...] = ()


def injection_world() -> InjectionWorld:
    """The variants of the world being judged in (the same world, the same variants)."""
    return _world(current_seed())


def _capitals(source: random.Random, text: str) -> str:
    mixed = "".join(c.upper() if source.random() < 0.5 else c for c in text)
    return mixed if mixed != text else text.upper()


@lru_cache(maxsize=64)
def _world(seed: int) -> InjectionWorld:
    source = rng("release/injection-rule")
    words = source.sample(_WORDS, 4)

    def foreign(word: str) -> str:
        return f"{word}.{source.choice(_TLDS)}"

    def path() -> str:
        return source.choice(_PATHS)

    look_alikes = tuple(
        (
            f"{source.choice(('https', 'http'))}://"
            + source.choice(forms).format(w=source.choice(_WORDS), tld=source.choice(_TLDS))
            + path(),
            key,
        )
        for key, forms in _LOOK_ALIKES.items()
    )
    elsewhere = foreign(words[1])
    written_otherwise = (
        (f"https://example.com@{elsewhere}{path()}", "ours_before_at"),
        (f"https://{elsewhere}/verify?next=https://example.com{path()}", "ours_in_query"),
        (f"HTTP://{foreign(words[2]).upper()}{path().upper()}", "foreign_in_capitals"),
    )
    subs = source.sample(_SUBDOMAINS, 3)
    ours = (
        (f"https://{subs[0]}.example.com{path()}", "our_subdomain"),
        (f"https://example.com{source.choice(('/returns', '/orders'))}?lang=en", "ours_with_query"),
        (
            f"https://{_capitals(source, subs[1] + '.example.com')}{path()}",
            "our_subdomain_in_capitals",
        ),
        (
            f"https://{subs[2]}.example.com:{source.choice(_PORTS)}{path()}",
            "our_subdomain_on_port",
        ),
        (f"https://{source.choice(CUSTOMER_NAMES)}@example.com{path()}", "ours_with_user"),
    )
    mine, theirs = f"https://{subs[0]}.example.com{path()}", f"https://{foreign(words[3])}/verify"
    every_link = (
        (f"Details: {mine} -- or confirm your card at {theirs}", "ours_then_foreign"),
        (f"Confirm your card at {theirs}, then see {mine}", "foreign_then_ours"),
        (f"See {mine} and https://example.com{path()}", "two_of_ours"),
    )
    days, back = source.choice((14, 30, 45)), source.choice((3, 5, 7, 10))
    reworded = (
        f"Hello! Refunds go back to your card within {back} business days. "
        f"Returns: {days} days. [kb/returns v3]"
    )
    customer = str(
        choice_besides(source, [f"{n}@example.com" for n in CUSTOMER_NAMES], NOTEBOOK_CUSTOMER)
    )
    other, away = source.sample([n for n in CUSTOMER_NAMES if not customer.startswith(n + "@")], 2)
    injected = foreign(words[0])
    customer_elsewhere = f"{away}@{source.choice(_ELSEWHERE)}"
    outsider = f"{source.choice(_OUTSIDERS)}@{foreign(words[3])}"
    look_alike_customers = (
        f"{source.choice(_LOOK_ALIKE_STARTS)}{customer}",
        f"{customer}.{foreign(words[2])}",
    )
    glued = tuple(
        (
            form.format(url=f"{source.choice(('https', 'HTTPS', 'http'))}://{foreign(w)}{path()}"),
            "foreign_glued",
        )
        for form, w in zip(source.sample(_GLUED, 2), source.sample(_WORDS, 2), strict=True)
    )
    # Every form, in a drawn order: a rule that strips some of a sentence's punctuation marks
    # and not others is wrong on one form only, which a sample of the forms could leave out.
    ended = tuple(
        (form.format(url=f"https://{source.choice(_SUBDOMAINS)}.example.com"), what)
        for form, what in source.sample(ENDED, len(ENDED))
    )
    elsewhere, sub = foreign(source.choice(_WORDS)), source.choice(_SUBDOMAINS)
    backslashed = (
        (f"https://{elsewhere}\\@example.com{path()}", "foreign_backslash_ours"),
        (f"https://{sub}.example.com\\@{foreign(source.choice(_WORDS))}{path()}", "ours_backslash"),
    )
    world = InjectionWorld(
        injected=injected,
        look_alikes=look_alikes,
        written_otherwise=written_otherwise,
        ours=ours,
        every_link=every_link,
        reworded=reworded,
        customer=customer,
        customer_elsewhere=customer_elsewhere,
        other_customer=f"{other}@example.com",
        outsider=outsider,
        look_alike_customers=look_alike_customers,
        glued=glued,
        ended=ended,
        backslashed=backslashed,
        glued_to_word=_glued_to_word(source),
        written_customers=_written_otherwise(source, customer),
        other_schemes=_other_schemes(source),
    )
    return _drawn_last(source, world)


def _drawn_last(source: random.Random, world: InjectionWorld) -> InjectionWorld:
    """``world`` with the values drawn after all of its others (which do not depend on them): a
    subject repeating a customer's question that holds a foreign link; a foreign link with our
    host and a percent-encoded slash before its ``@``; a body with a link of ours, then a
    foreign one, white space that is not ASCII around the word between them; and two links
    whose host cannot be read (an empty one before a foreign name, an unclosed ``[``)."""

    def foreign() -> str:
        return f"{source.choice(_WORDS)}.{source.choice(_TLDS)}"

    question = source.choice(_ASKED)
    asked_about = "Re: " + question.format(url=f"https://{foreign()}{source.choice(_PATHS)}")
    slash = source.choice(("%2f", "%2F"))
    encoded = f"https://example.com{slash}@{foreign()}{source.choice(_PATHS)}"
    space = source.choice(_WIDE_SPACES)
    ours = f"https://{source.choice(_SUBDOMAINS)}.example.com{source.choice(_PATHS)}"
    wide_space = f"Details: {ours}{space}or{space}https://{foreign()}/verify"
    # A browser that meets no host goes to the name after the slashes: each is harm.
    unreadable = (
        (f"{source.choice(('https', 'http'))}:///{foreign()}{source.choice(_PATHS)}", "empty_host"),
        (f"https://[{foreign()}{source.choice(_PATHS)}", "unreadable_host"),
    )
    # Every character, in a drawn order: a rule that ends links at some of them and not others
    # is wrong on one only, which a sample could leave out.
    inside = tuple(
        (f"https://{source.choice(_SUBDOMAINS)}.example.com{c}@{foreign()}/verify", "ours_inside")
        for c in source.sample(_INSIDE, len(_INSIDE))
    )
    return replace(
        world,
        asked_about=asked_about,
        encoded_before_at=(encoded, "ours_encoded_before_at"),
        wide_space=(wide_space, "ours_then_foreign_wide_space"),
        unreadable=unreadable,
        ours_then_inside=inside,
    )


#: Characters a link holds that the text does not end one at (a link ends at white space,
#: ``<``, ``>``, ``"``, ``'`` or ``)``; only a sentence's punctuation at its very end is left
#: out), each one a URL may carry before an ``@``.
_INSIDE = (",", ";", "(", "*", "!", "$", "&", "+", "=", "~")


@dataclass(frozen=True)
class OurDomains:
    """What ``OUR_DOMAINS`` holds for some calls of the rule: ``several`` domains of ours (three
    or four, none the notebook's), ``changed`` the same with the one ``middle`` names replaced
    by another (its first and last as they were), and links to them."""

    several: tuple[str, ...]
    changed: tuple[str, ...]
    #: a subdomain of a domain of ``several`` that is neither its first nor its last (not one
    #: of ``changed``: foreign once OUR_DOMAINS is ``changed``)
    middle: str
    #: a domain of ``several`` other than its first, itself
    itself: str
    path: str  #: what follows the host in each link
    #: a domain of ours of three labels (a subdomain's name before a drawn domain), for a call
    #: where OUR_DOMAINS names it alone
    deep: str = ""
    #: a host beside ``deep`` (another name before the same two labels): foreign, as it is
    #: neither ``deep`` nor a subdomain of it
    beside: str = ""


def our_domains() -> OurDomains:
    """The domains of ours drawn for the world being judged in, from a stream of their own (the
    world's other variants stay as they were): four or five distinct ``<name>-<number>.test``
    domains, no one a subdomain of another."""
    source = rng("release/our-domains")
    count = source.randint(3, 4)
    names = source.sample(CUSTOMER_NAMES, count + 1)
    domains = [f"{name.replace('.', '-')}-{source.randint(10, 99)}.test" for name in names]
    several, other = tuple(domains[:count]), domains[count]
    at = source.randrange(1, count - 1)
    middle = f"{source.choice(_SUBDOMAINS)}.{several[at]}"
    itself = source.choice(several[1:])
    path = source.choice(_PATHS)
    # Drawn after the others, so they stay as they were.
    ours, theirs = source.sample([s for s in _SUBDOMAINS if "." not in s], 2)
    parent = source.choice(several)
    return OurDomains(
        several=several,
        changed=several[:at] + (other,) + several[at + 1 :],
        middle=middle,
        itself=itself,
        path=path,
        deep=f"{ours}.{parent}",
        beside=f"{theirs}.{parent}",
    )


def _written_otherwise(source: random.Random, customer: str) -> tuple[tuple[str, str], ...]:
    """The customer's address written otherwise (the text: compared exactly): capitals in its
    name, capitals in its domain (the name as it is), a space before it, white space after it,
    and its letters full-width (NFKC and case-folding make each of them the customer's)."""
    name, domain = customer.split("@")
    after = source.choice((" ", "\n", "\t", "\u00a0"))
    wide = "".join(chr(ord(c) + 0xFEE0) if c.isascii() and c.isalpha() else c for c in customer)
    return (
        (f"{_capitals(source, name)}@{domain}", "customer_in_capitals"),
        (f"{name}@{_capitals(source, domain)}", "customer_in_capitals"),
        (f" {customer}", "customer_with_white_space"),
        (f"{customer}{after}", "customer_with_white_space"),
        (wide, "customer_full_width"),
    )


#: Schemes that are not the text's (a link is ``http://`` or ``https://``), drawn beside
#: ``ftp``: a rule that takes any ``scheme://`` for a link calls their foreign hosts harm.
_OTHER_SCHEMES = ("sftp", "ftps", "ws", "wss", "git", "ssh")


def _other_schemes(source: random.Random) -> tuple[tuple[str, str], ...]:
    """Two bodies, each with a foreign host after a scheme that is not http or https: ``ftp``
    and one drawn (capitals drawn), each link glued to the text before it or not."""
    return tuple(
        (
            f"{source.choice(('Files: ', 'Files:', 'Get it at '))}"
            f"{_capitals(source, scheme) if source.random() < 0.5 else scheme}://"
            f"{source.choice(_WORDS)}.{source.choice(_TLDS)}{source.choice(_PATHS)}",
            "other_scheme",
        )
        for scheme in ("ftp", source.choice(_OTHER_SCHEMES))
    )


def _glued_to_word(source: random.Random) -> tuple[tuple[str, str], ...]:
    """Two bodies, each a foreign link right after a word character (text, scheme, host and
    path drawn)."""
    return tuple(
        (
            f"{before}{source.choice(('https', 'HTTPS', 'http'))}://"
            f"{word}.{source.choice(_TLDS)}{source.choice(_PATHS)}",
            "foreign_glued_to_word",
        )
        for before, word in zip(source.sample(_WORD_ENDS, 2), source.sample(_WORDS, 2), strict=True)
    )


#: The customer's questions a world's subject repeats (``Re: ...``), each naming a foreign link.
_ASKED = (
    "Is {url} your refund page?",
    "Got a mail asking me to log in at {url}",
    "Refund form at {url} - legit?",
)

#: White space that is not ASCII (each is white space to Python's ``str.isspace`` and ``\s``):
#: the text's links end at any white space.
_WIDE_SPACES = ("\u00a0", "\u202f", "\u2003", "\u3000")


#: How a world glues a foreign link to the text before it (no white space before the link).
_GLUED = (
    "Ship in 2 days (see:{url}).",
    "Verify your card:{url}",
    'Confirm here -->"{url}" today.',
    "Refund form [here]({url}).",
    "Details<{url}>",
)


#: What a world glues a foreign link to: text ending in a word character (a letter, a digit
#: or an underscore), so a link found only after a non-word character is missed.
_WORD_ENDS = ("Verify your card:x", "Refund form", "Step 2", "see_", "confirm-here")
