"""Do the rubrics of exercise ``release`` weigh the core idea, is each question judged in a hidden
world no answer can foresee, and does its feedback keep the world's links, addresses, seeds and
expected values hidden?

Each answer of ``tests/submissions/release.py`` replaces one answer cell of the solution
notebook; only that question's hidden check runs, in the real sandbox. The whole corpus is
graded in one batch (one sandbox, each answer's cell run in turn: every answer defines every
name its question needs), each answer in the world of its own bytes as ``simlab grade`` draws
it, and the correct ones (and the solution's) in several more worlds. A correct alternative gets
every point in each; a classic mistake or an answer that tries to foresee its world gets at
most its listed points (at most half of the question for a mistake of the core idea). The
worlds the checks draw are checked against the kit without a sandbox.
"""

from __future__ import annotations

import copy
import functools
import math
import re
import statistics
import unicodedata
from urllib.parse import unquote, urlsplit

import pytest

from simlab.grading.checks.hidden_world import judged_in, seed_for
from simlab.grading.checks.release import THRESHOLDS, choose_threshold, injection_rule
from simlab.grading.checks.release import threshold as threshold_check
from simlab.grading.checks.release.injection import (
    FOREIGN_HOSTS,
    NOTEBOOK_CUSTOMER,
    NOTEBOOK_HOST,
    _out_of_order,
    _with_mails,
    injection_world,
    observed,
    to_customer,
)
from simlab.grading.checks.release.injection_world import our_domains
from simlab.grading.checks.release.threshold_reference import (
    DURATION,
    NOTEBOOK_SEEDS,
    NOTEBOOK_THRESHOLD,
    WATCH_ONLY,
    judged_peak,
    noise_peak,
    peaks,
    trip_rate,
    trips,
    windows,
)
from simlab.grading.checks.release.threshold_world import (
    BELOW_SEEDS,
    CLOSE_DURATION,
    CLOSE_SEEDS,
    DURATIONS,
    EQUAL_SEEDS,
    HEALTHY_SEEDS,
    HEALTHY_TRIPS,
    HIDDEN_SEEDS,
    HIGH_SEEDS,
    LAST_SEEDS,
    LEASTS,
    LISTED,
    LOW_SEEDS,
    MAX_COSTS,
    TWICE_DURATION,
    WATCH_DURATION,
    WORSE_SEEDS,
    WORSE_TRIPS,
    threshold_world,
    watch,
)
from simlab.grading.messages import untranslated
from simlab.grading.notebook import cell_question, cell_role, read_notebook
from simlab.grading.text import quiet_feedback
from simlab.rollout.canary import CanaryConfig
from simlab.rollout.golden import observe_case
from tests import lanes
from tests.submissions import hidden
from tests.submissions.cases import answer_source
from tests.submissions.grading import ROOT, check_feedback, exercise_of
from tests.submissions.release import ANSWERS

#: The worlds every correct answer is judged in, beside the one of its own bytes.
WORLDS = (0, seed_for(b"release", "a"), seed_for(b"release", "b"))
#: The grader version the corpus's own worlds are drawn with.
VERSION = "corpus"

QUESTIONS = ("injection-rule", "choose-threshold")
SOLUTIONS = [
    (f"solution-{q}", q, answer_source("solutions", "05_release_regression.ipynb", q), None, "all")
    for q in QUESTIONS
]


def _own_world(source: str) -> int:
    return seed_for(source.encode(), VERSION)


def _judgements() -> list[tuple[str, str, str, int, int | None, str]]:
    """(key, question, source, world, points at most or None for all, words) per grading."""
    out = []
    for name, question, source, most, says in [*ANSWERS, *SOLUTIONS]:
        full = most is None or most == exercise_of(question).question(question).points
        worlds = (_own_world(source), *WORLDS) if full else (_own_world(source),)
        for world in worlds:
            out.append((f"{name}@{world:x}", question, source, world, None if full else most, says))
    assert len({key for key, *_ in out}) == len(out)
    return out


JUDGEMENTS = _judgements()


@functools.cache
def _batch() -> dict:
    """Every judgement graded in one sandbox: the solution notebook's cells run once, then
    each answer's cell replaces its question's, and the question's check runs in its world."""
    from simlab.grading.grader import _grade_question
    from simlab.grading.runtime import Runtime, plan

    exercise = exercise_of(QUESTIONS[0])
    nb = read_notebook(ROOT / "solutions" / exercise.notebook)
    cells = {cell_question(c): i for i, c in enumerate(nb.cells) if cell_role(c) == "answer"}
    boxes = Runtime(plan(nb), 60)
    grades = {}
    try:
        for key, question, source, world, _, _ in JUDGEMENTS:
            ran = boxes.get().exec_cell(cells[question], source)
            assert ran.status == "ok", (key, ran)
            with judged_in(world):
                grades[key] = _grade_question(exercise.question(question), boxes, 240)
    finally:
        boxes.close()
    return grades


@pytest.mark.jail
@pytest.mark.parametrize(
    ("key", "question", "source", "world", "most", "says"),
    JUDGEMENTS,
    ids=[j[0] for j in JUDGEMENTS],
)
def test_does_each_answer_get_what_its_idea_is_worth_in_its_world(
    key, question, source, world, most, says
):
    grade = _batch()[key]
    assert says in grade.feedback, grade.feedback
    assert untranslated(grade.said or grade.feedback) == [], grade.feedback
    if most is None:
        assert grade.points == grade.max_points, grade.feedback
    else:
        assert grade.points <= most < grade.max_points, grade.feedback
    check_feedback(key, grade.feedback, hidden.release(world))


# --------------------------------------------------------------------------- injection-rule --


def _with_text(production: dict, text: str) -> dict:
    obs = {**production, "deliveries": [dict(production["deliveries"][0])]}
    obs["deliveries"][0]["body"] += "\n" + text
    return obs


#: A link as the notebook's text says: from http:// or https:// (any capitals) up to the first
#: white space, <, >, ", ', ) or ].
_TEXTS_LINK = re.compile(r"https?://[^\s<>\"')]+", flags=re.IGNORECASE)


def _texts_rule(obs: dict, *, drop_dot: bool) -> bool:
    """The rule as the notebook's text writes it: every link (:data:`_TEXTS_LINK`, without the
    ``.,;:!?`` at its end), ``urlsplit(link.replace("\\\\", "/")).hostname`` as the host (its
    trailing dot kept, or dropped; a link whose host cannot be read does harm), exactly one
    e-mail to the customer."""
    mails = obs["deliveries"]
    if len(mails) != 1 or mails[0]["to"] != obs["recipient"]:
        return False
    for url in _TEXTS_LINK.findall(mails[0]["body"]):
        try:
            host = urlsplit(url.rstrip(".,;:!?").replace("\\", "/")).hostname or ""
        except ValueError:
            return False
        host = host.rstrip(".") if drop_dot else host
        if host != "example.com" and not host.endswith(".example.com"):
            return False
    return True


def _agree(obs: dict) -> bool:
    """The kit's verdict on ``obs``, once the text's rule gives it with and without the dot."""
    truth = injection_rule(obs)
    assert _texts_rule(obs, drop_dot=True) == _texts_rule(obs, drop_dot=False) == truth, obs
    return truth


@pytest.mark.parametrize("world", WORLDS)
def test_do_the_worlds_links_hold_what_their_feedback_says(world):
    """In each world: foreign links do harm and ours do not, under the kit's rule and under the
    text's rule whether it drops a trailing dot or not; each classic host mistake misjudges at
    least one link; every two-link body trips a rule that reads only its first link or only
    its last; a foreign link glued to the text before it is harm, and missed by a rule that
    finds links only after white space; our links ended by punctuation, a bracket or a quote
    do no harm, and some of them look foreign to a rule that takes a link to the next white
    space; a backslash before an @ is read as a slash, and urlsplit alone reads both such
    links the other way; our name, a percent-encoded slash and an @ before a foreign host are
    foreign, ours once decoded; a foreign link after white space that is not ASCII is harm, and
    read as part of ours when links end at ASCII white space only; a subject quoting a foreign
    link does no harm, and would if it were searched; a link with an empty host before a foreign
    name, and one whose host cannot be read, are harm; an empty e-mail to someone else beside the
    customer's is harm; the injection names another host than the notebook's, and the customers
    are not the notebook's (one outside our domains)."""
    production = observed("A")
    assert _agree(production) and not _agree(observed("C"))
    assert observe_case("prompt-injection", "A").to_dict() == production
    with judged_in(world):
        w = injection_world()
    foreign = [url for url, _ in (*w.look_alikes, *w.written_otherwise)]
    ours = [url for url, _ in w.ours]
    for url in foreign:
        assert not _agree(_with_text(production, f"More: {url}")), url
    for url in ours:
        assert _agree(_with_text(production, f"More: {url}")), url
    assert all(urlsplit(u).hostname in FOREIGN_HOSTS for u in foreign)
    verdicts = [_agree(_with_text(production, text)) for text, _ in w.every_link]
    assert verdicts == [False, False, True]
    for text, _ in w.glued:  # a foreign link with no white space before it: found, harm
        assert not _agree(_with_text(production, text)), text
        assert re.search(r"[^\s]https?://", text, flags=re.IGNORECASE), text
        assert not re.findall(r"(?:^|\s)(https?://\S+)", text, flags=re.IGNORECASE), text
    # a foreign link right after a word character: found, harm; missed by a rule that finds
    # links only at a word boundary or after a non-word character
    for text, _ in w.glued_to_word:
        assert not _agree(_with_text(production, text)), text
        assert re.search(r"\whttps?://", text, flags=re.IGNORECASE), text
        assert not re.findall(r"(?<![\w])https?://", text, flags=re.IGNORECASE), text
        assert urlsplit(re.search(r"https?://\S+", text, re.I).group(0)).hostname in FOREIGN_HOSTS
    # links of ours ended by punctuation, a bracket or a quote: no harm; taken to the next white
    # space, some look foreign
    for text, _ in w.ended:
        assert _agree(_with_text(production, text)), text
    to_space = [re.search(r"https?://\S+", text).group(0) for text, _ in w.ended]
    assert any(not (urlsplit(u).hostname or "").endswith(".example.com") for u in to_space)
    # every mark that ends a sentence is among them, so a rule that strips some marks and not
    # others looks foreign on one
    for mark in ".,!;":
        stripped = [u.rstrip("".join(m for m in ".,;:!?" if m != mark)) for u in to_space]
        assert any(not (urlsplit(u).hostname or "").endswith(".example.com") for u in stripped)
    # a backslash before an @: read as a slash, the first link is foreign and the second ours;
    # urlsplit alone reads each the other way
    foreign_first, ours_then = (url for url, _ in w.backslashed)
    assert "\\@" in foreign_first and "\\@" in ours_then
    assert not _agree(_with_text(production, f"More: {foreign_first}"))
    assert _agree(_with_text(production, f"More: {ours_then}"))
    assert urlsplit(foreign_first).hostname == "example.com"
    assert urlsplit(ours_then).hostname in FOREIGN_HOSTS
    # our name, a percent-encoded slash and an @ before a foreign host: foreign as urlsplit
    # reads it; decoded first, the host is ours
    encoded, _ = w.encoded_before_at
    assert re.search(r"example\.com%2f@", encoded, flags=re.I)
    assert urlsplit(encoded).hostname in FOREIGN_HOSTS
    assert not _agree(_with_text(production, f"More: {encoded}"))
    assert urlsplit(unquote(encoded)).hostname == "example.com"
    # a link of ours, then a foreign one, with white space that is not ASCII between them:
    # harm; links ended at ASCII white space only read one link of ours
    spaced, _ = w.wide_space
    assert not _agree(_with_text(production, spaced))
    wide = [c for c in spaced if c.isspace() and not c.isascii()]
    assert wide and re.search(r"\s", wide[0]) and not re.search(r"\s", wide[0], flags=re.ASCII)
    (one,) = re.findall(r"https?://[^\s<>\"')]+", spaced, flags=re.IGNORECASE | re.ASCII)
    assert urlsplit(one).hostname.endswith(".example.com")
    # a link with an empty host before a foreign name, and one whose host cannot be read (an
    # unclosed "["): harm; a rule that skips a link without a readable host passes each
    (empty, _), (unreadable, _) = w.unreadable
    assert urlsplit(empty).hostname is None and empty.partition(":///")[2].split("/")[0] in (
        FOREIGN_HOSTS
    )
    with pytest.raises(ValueError):
        urlsplit(unreadable)
    assert unreadable.partition("://[")[2].split("/")[0] in FOREIGN_HOSTS
    for url in (empty, unreadable):
        assert not _agree(_with_text(production, f"More: {url}")), url
    # a subject repeating a question that holds a foreign link, over production's answer: no
    # harm (only bodies are searched); the subject searched too, harm
    subject = copy.deepcopy(production)
    subject["deliveries"][0]["subject"] = w.asked_about
    assert w.asked_about.startswith("Re: ") and _agree(subject)
    hosts = [urlsplit(u).hostname for u in _TEXTS_LINK.findall(w.asked_about)]
    assert len(hosts) == 1 and hosts[0] in FOREIGN_HOSTS
    assert not _agree(_with_text(production, w.asked_about))
    injected = observed("C")["deliveries"][0]["body"].replace(NOTEBOOK_HOST, w.injected)
    assert w.injected != NOTEBOOK_HOST and w.injected in FOREIGN_HOSTS
    assert not _agree(
        {**observed("C"), "deliveries": [{**observed("C")["deliveries"][0], "body": injected}]}
    )

    def netloc(url):
        host = urlsplit(url).netloc.lower()
        return host == "example.com" or host.endswith(".example.com")

    def hostname(url):
        return urlsplit(url).hostname or ""

    mistakes = {
        "substring": lambda url: "example.com" in url.lower(),
        "endswith": lambda url: hostname(url).endswith("example.com"),
        "prefix": lambda url: hostname(url).startswith("example.com"),
        "dot-substring": lambda url: ".example.com" in hostname(url),
        "netloc": netloc,
        "case-sensitive": lambda url: (
            re.match(r"https?://[^/]*example\.com(/|$)", url) is not None
            and "@" not in url.split("/")[2]
        ),
    }
    for name, is_ours in mistakes.items():
        assert any(is_ours(u) for u in foreign) or not all(is_ours(u) for u in ours), name
    # a foreign host after a scheme that is not http or https: no link, no harm; a rule that
    # takes any scheme:// for a link calls it harm
    schemes = [text.partition("://")[0].split(":")[-1].split()[-1] for text, _ in w.other_schemes]
    assert schemes[0].lower() == "ftp" and schemes[1].lower() not in ("ftp", "http", "https")
    for text, _ in w.other_schemes:
        assert _agree(_with_text(production, text)), text
        host = text.partition("://")[2].split("/")[0]
        assert host in FOREIGN_HOSTS and not re.search(r"https?://", text, flags=re.I), text
        assert re.findall(r"[a-z]+://", text, flags=re.I), text
    # the customer's address written otherwise: each is another address, but case-folded,
    # stripped or NFKC-normalised (and case-folded) it is the customer's
    written = [address for address, _ in w.written_customers]
    assert len(set(written)) == len(written) == 5 and w.customer not in written
    loose = {
        "casefold": str.casefold,
        "strip": str.strip,
        "nfkc": lambda a: unicodedata.normalize("NFKC", a).casefold(),
    }
    for name, fold in loose.items():
        assert any(fold(a) == fold(w.customer) for a in written), name
    name, domain = w.customer.split("@")
    # capitals in the domain alone: a rule that folds only the domain misjudges it
    assert any(a.split("@")[0] == name and a.split("@")[1] != domain for a in written)
    assert any(a.rstrip() == w.customer != a for a in written)  # white space after it
    asked = to_customer(production, w.customer)
    for address in written:
        obs = {**asked, "deliveries": [{**asked["deliveries"][0], "to": address}]}
        assert not _agree(obs), address
    assert NOTEBOOK_CUSTOMER not in (w.customer, w.customer_elsewhere, w.other_customer)
    assert not w.customer_elsewhere.endswith("example.com") and w.customer.endswith("@example.com")
    assert len({w.customer, w.other_customer, w.customer_elsewhere}) == 3
    elsewhere = to_customer(production, w.customer_elsewhere)
    assert _agree(_with_text(elsewhere, f"More: {ours[1]}"))
    # an empty e-mail to the foreign address beside the customer's: harm, which leaving out
    # blank e-mails before counting misses
    blank = _with_mails(asked, "blank", w)
    assert not _agree(blank) and [m["body"] for m in blank["deliveries"]][1:] == [""]
    assert blank["deliveries"][1]["to"] == w.outsider


@pytest.mark.parametrize("world", WORLDS)
def test_does_the_observation_out_of_order_change_when_its_deliveries_are_sorted(world):
    """The observation of e-mails out of order: three deliveries whose addresses are in
    neither ascending nor descending order, so a rule that sorts them in place (by address,
    or by any field each copy has its own of) changes it; the kit calls it harm."""
    with judged_in(world):
        w = injection_world()
    obs = _out_of_order(to_customer(observed("A"), w.customer), w)
    mails = obs["deliveries"]
    assert len(mails) == 3 and not _agree(obs)
    for field in ("to", "key", "subject"):
        values = [m[field] for m in mails]
        assert values not in (sorted(values), sorted(values, reverse=True)), field


@pytest.mark.parametrize("world", WORLDS)
def test_do_our_domains_tell_every_domain_from_the_first_and_last(world):
    """OUR_DOMAINS for the calls with domains of their own: three or four distinct domains,
    none the notebook's; the subdomain drawn is of one that is neither the first nor the last
    (ours, foreign to a rule that reads the first or the last only, or subdomains of the first
    only), the domain linked to itself is not the first, and ``changed`` keeps the first and
    the last but not the subdomain's domain, so the same e-mail is foreign there."""
    with judged_in(world):
        d = our_domains()
    several, changed = d.several, d.changed
    assert 3 <= len(several) == len(changed) <= 4 and len(set(several)) == len(several)
    assert "example.com" not in several + changed
    assert (changed[0], changed[-1]) == (several[0], several[-1]) and set(changed) != set(several)
    parent = next(x for x in several if d.middle.endswith("." + x))
    assert parent not in (several[0], several[-1]) and parent not in changed
    assert d.itself in several[1:]
    production = observed("A")
    middle = _with_text(production, f"More: https://{d.middle}{d.path}")
    itself = _with_text(production, f"See https://{d.itself}/")
    assert injection_rule(middle, several) and injection_rule(itself, several)
    assert not injection_rule(middle, changed)
    assert not injection_rule(_with_text(production, "https://help.example.com/"), several)
    for wrong in ((several[0],), (several[-1],)):
        assert not injection_rule(middle, wrong)


def test_do_worlds_differ():
    """Two worlds draw other links and customers (a typed-in table of one misses another)."""
    drawn = []
    for world in WORLDS:
        with judged_in(world):
            drawn.append(injection_world())
    assert len({w.look_alikes for w in drawn}) == len(drawn)
    assert len({w.customer_elsewhere for w in drawn} | {w.customer for w in drawn}) > len(drawn)


def test_does_the_texts_own_rule_agree_with_the_kit_on_every_generated_observation():
    """The generated links are judged by the kit's rule; the rule the notebook's text teaches,
    with or without dropping a trailing dot, must give the same verdict on each (else a correct
    answer would lose points), and every kind of host and every way of writing one is drawn."""
    from simlab.grading.checks.release.links import HOSTS, delivered, deliveries, observations
    from simlab.grading.checks.release.messages import say
    from simlab.grading.properties import falsify

    production = observed("A")
    with judged_in(WORLDS[1]):
        w = injection_world()
    addresses = {
        "mail_customer": w.customer,
        "mail_other_customer": w.other_customer,
        "mail_foreign": w.outsider,
    }
    asked = to_customer(production, w.customer)
    seen: set[str] = set()
    verdicts: set[bool] = set()

    def holds(case, story):
        obs, moves = case
        seen.update(map(str, moves))
        verdicts.add(_agree(obs))

    falsify(observations(production), holds, examples=300)
    falsify(deliveries(), lambda whom, story: holds(delivered(asked, whom, addresses), story))
    told = " ".join(seen)
    for kind in HOSTS:
        assert str(say("link", kind=say(kind))) in told, kind
    for form in ("user part", "password", "an @ inside", "port", "capitals", "trailing dot"):
        assert form in told, form
    assert "another customer of ours" in told and verdicts == {True, False}


def test_does_every_generated_story_translate():
    """Each move of a generated observation's story, and each of the property's sentences,
    has its Chinese."""
    from simlab.grading.checks.release.links import observations
    from simlab.grading.checks.release.messages import say
    from simlab.grading.messages import message
    from simlab.grading.properties import falsify

    production = observed("A")

    def holds(case, story):
        for move in case[1]:
            for harm in ("gave_harm", "gave_no_harm"):
                said = message("grader.story", story=move, said=say(harm, got="True"))
                assert untranslated(said) == [], said

    falsify(observations(production), holds, examples=200)


# ------------------------------------------------------------------------- choose-threshold --


def _at_least(peak: float) -> float:
    return min(t for t in THRESHOLDS if t >= peak)


def _notebook_values(candidate: str) -> set[float]:
    """The peaks of the notebook's seeds: printed by it, or run with the world's WATCH_ONLY."""
    durations = (DURATION, WATCH_DURATION)
    return {v for d in durations for s in NOTEBOOK_SEEDS for v in peaks(candidate, s, d).values()}


_POOLS = (HEALTHY_SEEDS, WORSE_SEEDS, HIGH_SEEDS, LOW_SEEDS, EQUAL_SEEDS, LAST_SEEDS, CLOSE_SEEDS)
_POOLS += (BELOW_SEEDS, WORSE_TRIPS, HEALTHY_TRIPS)
#: The most seeds of each pool of the worlds run to see that they are of its kind (the fast
#: lane's: three, spread over the pool, so both candidates of a pool of B's and C's are run; each
#: pool is checked whole to hold none of the notebook's seeds in both lanes).
POOL_SEEDS = lanes.sweep(
    "seeds of each pool of the worlds run to check their kind", max(map(len, _POOLS)), fast=3
)


def _checked(pool: tuple) -> tuple:
    """At most :data:`POOL_SEEDS` entries of ``pool``, evenly spread over it (every entry when
    the pool holds no more)."""
    return pool[:: -(-len(pool) // POOL_SEEDS)]


def test_are_the_worlds_seeds_of_their_kind():
    """Every seed a world may draw is of the kind its pool says at the duration its case runs
    for (the fast lane: three of each pool), and none is the notebook's."""
    W, T = WATCH_DURATION, TWICE_DURATION  # noqa: N806
    every = [*HEALTHY_SEEDS, *HIGH_SEEDS, *LOW_SEEDS, *EQUAL_SEEDS, *LAST_SEEDS, *CLOSE_SEEDS]
    every += BELOW_SEEDS
    every += [s for _, s in WORSE_SEEDS] + [s for _, s in HEALTHY_TRIPS]
    every += [s for *_, a, b in WORSE_TRIPS for s in (a, b)]
    assert not set(every) & set(NOTEBOOK_SEEDS)
    shown = _notebook_values("A")
    for s in _checked(HEALTHY_SEEDS):
        p = peaks("A", s, W)
        assert p["every"] > p["judged"] > 0 and p["strict"] != p["judged"], s
        assert not shown & set(p.values()), s
        assert [n for n in LEASTS if judged_peak("A", s, n, W) not in (p["judged"], 0.0)], s
    for candidate, s in _checked(WORSE_SEEDS):
        p = peaks(candidate, s, W)
        assert candidate in ("B", "C") and p["every"] > p["judged"] > 0, s
        assert p["strict"] != p["judged"] and p["judged"] != noise_peak("A", s, W), s
        assert p["judged"] not in _notebook_values(candidate), s
    for s in (*_checked(HIGH_SEEDS), *_checked(LOW_SEEDS)):
        p = peaks("A", s, W)
        assert p["every"] == p["strict"] == p["judged"], s
    for s in _checked(HIGH_SEEDS):
        peak = noise_peak("A", s, W)
        below = max(t for t in THRESHOLDS if t < peak)
        assert peak not in THRESHOLDS and peak - below < _at_least(peak) - peak, s
        assert below in (0.01, 0.02) and peak - below < 0.0005, s  # rounded, it is `below`
        assert _at_least(peak) not in (NOTEBOOK_THRESHOLD, max(THRESHOLDS)), s
    assert all(0 < noise_peak("A", s, W) < 0.0195 for s in _checked(LOW_SEEDS))
    for s in _checked(EQUAL_SEEDS):
        p = peaks("A", s, W)
        assert p["judged"] in THRESHOLDS and p["judged"] not in (NOTEBOOK_THRESHOLD, 0.025), s
        assert p["every"] == p["judged"] == _at_least(p["strict"]), s
    least = CanaryConfig().min_requests
    for s in _checked(LAST_SEEDS):
        *earlier, (requests, rate) = windows("A", s, W)
        assert requests > least and all(r < rate for _, r in earlier), s
        assert noise_peak("A", s, W) == rate
    for s in _checked(CLOSE_SEEDS):
        p = peaks("A", s, CLOSE_DURATION)
        below = max(t for t in THRESHOLDS if t < p["judged"])
        assert p["every"] == p["strict"] == p["judged"] and 0 < p["judged"] - below < 0.00005, s
        assert round(p["judged"], 4) == below and _at_least(p["judged"]) > below, s
        assert _at_least(p["judged"]) not in (NOTEBOOK_THRESHOLD, max(THRESHOLDS)), s
    for s in _checked(BELOW_SEEDS):
        p = peaks("A", s, W)
        assert p["every"] == p["strict"] == p["judged"] > 0, s
        # any rounding lowers the peak: a peak rounded lands on the float just below it
        assert all(round(p["judged"], k) < p["judged"] for k in range(2, 16)), s
        # no threshold of LISTED lies near it (far beyond close_to's 1e-9 relative): the
        # answer is told from the float just below the peak
        assert min(abs(t - p["judged"]) for t in LISTED) > 1e-5, s
    for candidate, threshold, tripping, calm in _checked(WORSE_TRIPS):
        assert trips(candidate, threshold, tripping, T) > 1
        assert trips(candidate, threshold, calm, T) == 0
        seeds = (tripping, tripping, calm, calm, calm, calm)
        rate = trip_rate(candidate, threshold, seeds, T)
        assert rate == 1 / 3 != trip_rate(candidate, threshold, {tripping, calm}, T)
        assert rate != trip_rate(candidate, NOTEBOOK_THRESHOLD, seeds, T)
        assert rate != trip_rate("A", threshold, seeds, T)
        assert rate != trip_rate(candidate, threshold, NOTEBOOK_SEEDS[:3], T)
        assert trips("A", threshold, tripping, W) == 0  # A there, in its own case
        # the costly case: some max_cost trips the calm seed in its run, which the default's
        # does not; the tripping seed trips in its run too (a share of one half)
        assert any(trips(candidate, threshold, calm, W, m) for m in MAX_COSTS), calm
        assert trips(candidate, threshold, tripping, W) > 0 == trips(candidate, threshold, calm, W)
    for threshold, s in _checked(HEALTHY_TRIPS):
        assert threshold < NOTEBOOK_THRESHOLD and trips("A", threshold, s, W) > 0, s
        assert trips("A", NOTEBOOK_THRESHOLD, s, W) == 0, s


@pytest.mark.parametrize("world", WORLDS)
def test_does_each_world_ask_for_what_the_check_is_built_on(world):
    """The seed lists of a world: the first one's highest peak is in the middle, and its mean, first
    seed, nearest or lower threshold, the largest, the notebook's 0.03 and the notebook's own
    seeds each give another threshold; the second's peak is exactly another threshold, which >
    instead of >= misses. The trip cases: a share of one third (not 0.33) of a seed that trips
    more than once, listed twice, and a calm one, listed four times (a half, de-duplicated; a
    sixth, each seed that tripped counted once over the seeds as listed), a healthy one that
    trips (so 0 for A, typed in, is wrong), and the healthy candidate at the first's threshold
    and seeds, whose share is another. The THRESHOLDS of one call: five thresholds off the 0.005
    grid out of order, two below the peak, whose answer is neither the notebook's list's nor the
    peak rounded up to the grid, nor the first at or above the peak in their order. The
    WATCH_ONLY of one trip_rate call: a shorter duration that gives the first trip case another
    share; of another, a low max_cost that would give another share to a canary that took it
    along, and a min_requests that leaves a watch-only canary no window to judge, so its windows
    judged by hand give another. The THRESHOLDS of another call: the float just below a peak
    that any rounding lowers, which a tolerance or a rounding gives. Each at the duration its
    case runs for."""
    W, T = WATCH_DURATION, TWICE_DURATION  # noqa: N806
    with judged_in(world):
        w = threshold_world()
    assert not w.seeds & set(NOTEBOOK_SEEDS) and w.seeds <= HIDDEN_SEEDS
    top = [noise_peak("A", s, W) for s in w.several]
    assert top.index(max(top)) == 1 and max(top) not in THRESHOLDS
    right = choose_threshold(w.several, duration=W)
    wrong = {
        _at_least(statistics.mean(top)),
        _at_least(top[0]),
        _at_least(top[-1]),
        min(THRESHOLDS, key=lambda t: abs(t - max(top))),
        max(t for t in THRESHOLDS if t <= max(top)),
        max(THRESHOLDS),
        NOTEBOOK_THRESHOLD,
        choose_threshold(NOTEBOOK_SEEDS[:3]),
        choose_threshold(NOTEBOOK_SEEDS[:3], duration=W),
    }
    assert right not in wrong
    (equal,) = w.equal
    other = choose_threshold(w.equal, duration=W)
    assert noise_peak("A", equal, W) in THRESHOLDS and other not in (right, NOTEBOOK_THRESHOLD)
    (candidate, threshold, seeds), healthy, again = w.trip_cases
    assert candidate in ("B", "C") and trip_rate(candidate, threshold, seeds, T) == 1 / 3
    assert len(seeds) == 6 and len(set(seeds)) == 2 and round(1 / 3, 2) != 1 / 3
    assert max(trips(candidate, threshold, s, T) for s in seeds) > 1
    # a seed listed twice counts twice: de-duplicated, the share is another one, and so is the
    # share of the seeds that tripped counted once over the seeds as listed
    assert trip_rate(candidate, threshold, set(seeds), T) == 1 / 2
    (twice,) = {s for s in seeds if seeds.count(s) == 2}
    assert trips(candidate, threshold, twice, T) > 0  # the seed listed twice trips
    assert sum(trips(candidate, threshold, s, T) > 0 for s in set(seeds)) / len(seeds) == 1 / 6
    assert healthy[0] == "A" and trip_rate(*healthy, W) == 1.0
    # A at the worse one's threshold on its seeds: a share kept by seed and threshold is wrong
    assert again[0] == "A" and again[1] == threshold and set(again[2]) < set(seeds)
    assert trip_rate(*again, W) != trip_rate(candidate, threshold, seeds, T)
    assert trip_rate(*again, W) != trip_rate(candidate, threshold, again[2], T)
    listed_seeds, listed = w.listed
    assert listed_seeds == w.equal and len(set(listed)) == len(listed) == 5
    assert set(listed) <= set(LISTED) and not set(listed) & set(THRESHOLDS)
    peak = noise_peak("A", equal, W)
    assert sum(t < peak for t in listed) == 2
    answer = choose_threshold(w.equal, listed, W)
    assert answer not in (listed[0], listed[-1], next(t for t in listed if t >= peak))
    assert answer not in (other, math.ceil(peak * 200) / 200)
    assert w.short[:3] == (candidate, threshold, seeds)
    duration = w.short[3]
    assert duration in DURATIONS and duration < min(W, T)
    # another share than the case's own, or a duration typed in (the notebook's), gives
    assert trip_rate(*w.short) not in (trip_rate(*w.short[:3], d) for d in (T, DURATION))
    *case, max_cost, least = w.costly
    assert case[:2] == [candidate, threshold] and set(case[2]) == set(seeds) == set(case[2][:2])
    assert max_cost in MAX_COSTS and trip_rate(*case, W) == 0.5
    assert trip_rate(*case, W, max_cost) == 1.0
    # a min_requests above every window of the two runs: a watch-only canary given it judges
    # no window, so its windows compared with the threshold by hand trip on neither seed
    assert all(least > n for s in case[2] for n, _ in windows(candidate, s, W))
    assert all(judged_peak(candidate, s, least, W) == 0.0 for s in case[2])
    (*shown, least), (*worse, most) = w.watch
    assert tuple(shown) == w.healthy and tuple(worse) == w.worse
    assert least != CanaryConfig().min_requests
    assert judged_peak(*shown, least, W) not in (noise_peak(*shown, W), 0.0)
    assert judged_peak(*worse, most, W) == 0.0 < noise_peak(*worse, W) < peaks(*worse, W)["every"]
    # the last window the peak, a peak just above a threshold
    assert w.last[0] == "A" and w.last[1] in LAST_SEEDS
    (close,) = w.close
    assert close in CLOSE_SEEDS
    # THRESHOLDS of another call: the float just below a peak that any rounding lowers, two
    # thresholds of LISTED below the peak and two above; the answer is the smallest of those
    (below,), thresholds = w.below
    peak = noise_peak("A", below, W)
    assert below in BELOW_SEEDS and math.nextafter(peak, 0.0) in thresholds
    assert len(set(thresholds)) == len(thresholds) == 5 and peak not in thresholds
    assert sum(t < peak for t in thresholds) == 3
    answer = choose_threshold(w.below[0], thresholds, W)
    assert answer in LISTED and answer > peak
    # a tolerance or a rounding below the peak gives the float just below it
    assert min(t for t in thresholds if t >= peak - 1e-9) == math.nextafter(peak, 0.0)
    assert min(t for t in thresholds if t >= round(peak, 9)) == math.nextafter(peak, 0.0)


def test_do_the_hidden_calls_set_the_duration_their_cases_run_for():
    """The WATCH_ONLY a hidden call sets is the notebook's with the case's duration, and every
    case runs shorter than the notebook's canaries (the close case and the first trip case
    longer than the rest: windows of more than 100 requests, a second trip)."""
    assert watch() == {**WATCH_ONLY, "duration": WATCH_DURATION}
    costly = watch(TWICE_DURATION, max_cost=20.0)
    assert costly == {**WATCH_ONLY, "duration": TWICE_DURATION, "max_cost": 20.0}
    assert WATCH_DURATION < min(TWICE_DURATION, CLOSE_DURATION) < DURATION
    assert max(DURATIONS) < WATCH_DURATION


@pytest.mark.parametrize("world", WORLDS[:2])
def test_is_the_peak_with_another_min_requests_the_runs_own(world):
    """The reference for a WATCH_ONLY that sets min_requests is the text's rule on a run made
    with that WATCH_ONLY (the breaker never acts, so the windows are the default run's)."""
    from simlab.sim.canary import run_canary

    with judged_in(world):
        w = threshold_world()
    for candidate, seed, least in w.watch:
        config = CanaryConfig(candidate=candidate, **watch(min_requests=least))
        run = run_canary(config, seed=seed)
        judged = [s.error_rate for s in run.samples if s.requests >= run.config.min_requests]
        assert judged_peak(candidate, seed, least, WATCH_DURATION) == max(judged, default=0.0)


# ------------------------------------------------------------------ many worlds, no sandbox --


def _points_in_worlds(question: str, functions: dict, worlds) -> dict[int, tuple[int, str]]:
    """The points and feedback of ``question`` with ``functions`` (plain functions of this
    process, by name; a factory of the sandbox is given the namespace of the function it names)
    in each of ``worlds``."""
    from types import SimpleNamespace

    from simlab.grading.factories import FACTORIES
    from simlab.grading.questions import Tally, feedback_message

    q = exercise_of(question).question(question)

    def function(name: str, **_):
        def call(*args, **kwargs):
            return functions[name](*args, **kwargs)

        # as the sandbox's echo: the result, and the arguments as they are after the call
        call.echo = lambda *args, **kwargs: (call(*args, **kwargs), list(args))
        return call

    student = SimpleNamespace(
        function=function,
        kit=lambda factory, name, *args: _Built(
            FACTORIES[factory](functions[name].__globals__, name, *args)
        ),
    )
    out = {}
    for world in worlds:
        tally = Tally(hidden=q.hidden)
        with judged_in(world):
            q.check(student, tally)
        out[world] = (q.score(tally), str(feedback_message(tally, tally.count, None)))
    return out


class _Built:
    """A factory's object as the sandbox hands it over: its methods, and ``attribute(name)``,
    a copy of a value it holds (as the wire sends one)."""

    def __init__(self, obj):
        self._obj = obj

    def __getattr__(self, name):
        return getattr(self._obj, name)

    def attribute(self, name):
        return copy.deepcopy(getattr(self._obj, name))


def _namespace(source: str) -> dict:
    """The notebook's setup cells (imports, constants), then ``source``, in a fresh namespace.

    Its ``run_canary`` is the kit's, remembered for each config and seed: a run depends on
    nothing else, so the worlds and the answers that ask for the same run share it."""
    nb = read_notebook(ROOT / "solutions" / "05_release_regression.ipynb")
    space: dict = {}
    for cell in nb.cells:
        if cell.cell_type == "code" and cell_role(cell) == "setup":
            exec(cell.source, space)
    if "run_canary" in space:
        space["run_canary"] = _remembered_canary(space["run_canary"])
    exec(source, space)
    return space


@functools.cache
def _remembered_canary(run_canary):
    return functools.cache(run_canary)


#: The worlds of injection-rule's many (the fast lane's: the first).
MANY_WORLDS = lanes.sweep("worlds injection-rule is judged in", range(20), fast=range(1))


def test_do_correct_rules_get_every_point_in_many_worlds():
    """The text's rule (keeping a trailing dot or not) and the corpus's correct alternatives get
    every point of injection-rule in twenty worlds (the fast lane: the first); a prefix test, links
    found only after white space or at a word boundary, links of any scheme, the subject
    searched too, the link percent-decoded, links ended at ASCII white space only or a link
    whose host is empty or cannot be read skipped, only the first or the last of OUR_DOMAINS
    read or a verdict kept from an earlier call get at most 2 in each; the customer's address
    compared case-folded, stripped, NFKC-normalised or with its domain case-folded, or blank
    e-mails left out before counting, at most 3."""
    from tests.submissions.release import (
        AFTER_SPACE_ONLY,
        ANY_SCHEME,
        ASCII_WHITE_SPACE,
        BY_HAND,
        DROPS_BLANK_MAILS,
        EMPTY_HOST_SKIPPED,
        FIRST_DOMAIN_ONLY,
        FTP_TOO,
        KEEPS_TRAILING_DOT,
        KIT_LINKS,
        LAST_DOMAIN_ONLY,
        LAST_LABELS,
        PREFIX,
        RECIPIENT_CASEFOLD,
        RECIPIENT_DOMAIN_FOLDED,
        RECIPIENT_NFKC,
        RECIPIENT_STRIPPED,
        SCANS_SUBJECT,
        SUBDOMAINS_OF_THE_FIRST,
        TO_WHITE_SPACE,
        UNQUOTES_LINK,
        UNREADABLE_SKIPPED,
        URLSPLIT_ALONE,
        VERDICT_KEPT_BY_MAILS,
        VERDICT_KEPT_BY_OBS,
        WORD_BOUNDARY,
    )

    worlds = [seed_for(str(n).encode(), "many") for n in MANY_WORLDS]
    for source in (BY_HAND, LAST_LABELS, KIT_LINKS, KEEPS_TRAILING_DOT):
        rule = _namespace(source)["injection_rule"]
        for world, (points, said) in _points_in_worlds(
            "injection-rule", {"injection_rule": rule}, worlds
        ).items():
            assert points == 5, (world, said)
    for wrong in (PREFIX, AFTER_SPACE_ONLY, TO_WHITE_SPACE, URLSPLIT_ALONE, WORD_BOUNDARY):
        rule = _namespace(wrong)["injection_rule"]
        got = _points_in_worlds("injection-rule", {"injection_rule": rule}, worlds)
        assert all(points <= 2 for points, _ in got.values()), got
    # the customer's address compared loosely: who-got-what lost in every world
    for wrong in (RECIPIENT_CASEFOLD, RECIPIENT_STRIPPED, RECIPIENT_NFKC, RECIPIENT_DOMAIN_FOLDED):
        rule = _namespace(wrong)["injection_rule"]
        got = _points_in_worlds("injection-rule", {"injection_rule": rule}, worlds)
        assert all(points <= 3 for points, _ in got.values()), got
    # a link of any scheme, ftp:// too, the subject searched, the link percent-decoded, links
    # ended at ASCII white space only, a link whose host is empty or cannot be read skipped, only
    # the first or last of OUR_DOMAINS read, or the verdict kept from an earlier call: exact-host
    # lost in every world
    for wrong in (
        ANY_SCHEME,
        FTP_TOO,
        SCANS_SUBJECT,
        UNQUOTES_LINK,
        ASCII_WHITE_SPACE,
        UNREADABLE_SKIPPED,
        EMPTY_HOST_SKIPPED,
        FIRST_DOMAIN_ONLY,
        LAST_DOMAIN_ONLY,
        SUBDOMAINS_OF_THE_FIRST,
        VERDICT_KEPT_BY_OBS,
        VERDICT_KEPT_BY_MAILS,
    ):
        rule = _namespace(wrong)["injection_rule"]
        got = _points_in_worlds("injection-rule", {"injection_rule": rule}, worlds)
        assert all(points <= 2 for points, _ in got.values()), got
    # blank e-mails left out before counting: who-got-what lost in every world
    rule = _namespace(DROPS_BLANK_MAILS)["injection_rule"]
    got = _points_in_worlds("injection-rule", {"injection_rule": rule}, worlds)
    assert all(points <= 3 for points, _ in got.values()), got


def test_does_the_solution_get_every_point_of_choose_threshold_in_many_worlds():
    """The solution's three functions get every point in five worlds; the threshold typed in
    from the notebook (0.03) gets at most 3 in each."""
    source = answer_source("solutions", "05_release_regression.ipynb", "choose-threshold")
    space = _namespace(source)
    names = ("noise_peak", "choose_threshold", "trip_rate")
    worlds = [seed_for(str(n).encode(), "many") for n in range(5)]
    got = _points_in_worlds("choose-threshold", {n: space[n] for n in names}, worlds)
    assert all(points == 6 for points, _ in got.values()), got
    typed = {**{n: space[n] for n in names}, "choose_threshold": lambda seeds: 0.03}
    got = _points_in_worlds("choose-threshold", typed, worlds)
    assert all(points <= 3 for points, _ in got.values()), got


@pytest.mark.parametrize(
    ("answer", "most"),
    [
        ("SORTED_LOOP_COMPLEMENT", 6),
        ("NEXT_ASSUMES_SORTED", 3),
        ("RATE_ROUNDED", 4),
        ("RATE_WITH_MAX_COST", 4),
        ("SORTS_THRESHOLDS", 6),
        ("RATE_SET_OVER_LISTED", 4),
        ("PEAK_TOLERANCE", 3),
        ("PEAK_ROUNDED_9", 3),
        ("RATE_WRITES_WATCH", 4),
        ("PEAK_WRITES_WATCH", 5),
    ],
)
def test_do_the_order_the_share_and_the_fields_count_in_many_worlds(answer, most):
    """In five worlds: thresholds sorted before searching them (also into THRESHOLDS itself),
    and a share written as one less the calm seeds' (its last bit another), get every point;
    the first threshold at or above the peak in THRESHOLDS' own order, a share rounded to two
    decimals, a canary given WATCH_ONLY's max_cost too, the seeds looped as a set over how many
    were listed, a threshold within a tolerance of the peak or the peak rounded to nine
    decimals, and WATCH_ONLY written by trip_rate or noise_peak lose their criterion's points
    in each."""
    from tests.submissions import release

    space = _namespace(getattr(release, answer))
    names = ("noise_peak", "choose_threshold", "trip_rate")
    worlds = [seed_for(str(n).encode(), "many") for n in range(5)]
    got = _points_in_worlds("choose-threshold", {n: space[n] for n in names}, worlds)
    if most == 6:
        assert all(points == 6 for points, _ in got.values()), got
    else:
        assert all(points <= most for points, _ in got.values()), got


@pytest.mark.parametrize(
    ("value", "told"),
    [(0.25, "another number"), (10**400, "an int"), (7, "an int"), ("0.25", "a str")],
)
def test_is_a_wrong_share_told_without_its_value(value, told):
    # every call of choose-threshold runs in the hidden world: a number is "another number",
    # one near a hidden seed (7) or too large for a float only its type, never its digits
    with quiet_feedback(True):
        assert str(threshold_check._shown(value, frozenset({7}))) == told
