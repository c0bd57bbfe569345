"""Do the rubrics of exercise ``release`` weigh the core idea, and does its feedback keep the
grader's seeds, links and expected values hidden?

Each answer of ``tests/submissions/release.py`` replaces one answer cell of the solution
notebook; only that question's hidden check runs, in the real sandbox. A correct alternative
gets every point; a classic mistake gets at most its listed points (at most half of the question
for a mistake of the core idea). The cases the check is built on are checked against the kit
without a sandbox.
"""

from __future__ import annotations

import functools
import statistics
from urllib.parse import urlsplit

import pytest
from submissions.grading import check_answer, check_corpus, check_feedback
from submissions.release import ANSWERS

from simlab.cli import main
from simlab.grading.checks.release import (
    THRESHOLDS,
    choose_threshold,
    injection_rule,
    noise_peak,
    trip_rate,
)
from simlab.grading.checks.release.injection import (
    EVERY_LINK_BODIES,
    HIDDEN_HOST_LINKS,
    LOOK_ALIKE_LINKS,
    OUR_LINKS,
    observed,
)
from simlab.grading.checks.release.threshold import (
    HIDDEN_SEEDS,
    NOISE_CASES,
    THRESHOLD_SEEDS,
    TRIP_CASES,
    WATCH_ONLY,
    peaks,
)
from simlab.release.canary import CanaryConfig
from simlab.release.golden import observe_case
from simlab.sim.canary import run_canary


@pytest.mark.parametrize(
    ("name", "question", "source", "most", "says"), ANSWERS, ids=[a[0] for a in ANSWERS]
)
def test_does_each_answer_get_what_its_idea_is_worth(name, question, source, most, says):
    grade = check_answer(question, source, most, says)
    check_feedback(name, grade.feedback, _hidden_words())


def test_does_the_corpus_hold_alternatives_and_classic_mistakes_per_question():
    check_corpus(ANSWERS, ("injection-rule", "choose-threshold"))


@functools.cache
def _hidden_words() -> list[str]:
    """The hidden links and their hosts, the seeds in the forms a sentence would print them,
    and the kit's values on the hidden runs (as repr and as the feedback formats numbers;
    values that are themselves one of the public THRESHOLDS are left out). A mistake's own
    value on a hidden run (the peak over every window, say) is the learner's, and may show."""
    foreign = [url for url, _ in (*LOOK_ALIKE_LINKS, *HIDDEN_HOST_LINKS)]
    words = foreign + [url for url, _ in OUR_LINKS] + [urlsplit(url).netloc for url in foreign]
    words += ["refund-check", "verify-card", "secure-refunds", "refunds-example", ":8443"]
    words += ["Help.Example.COM", "dee@", "lang=en"]
    seeds = HIDDEN_SEEDS
    words += [f"seed {s}" for s in seeds] + [f"seed={s}" for s in seeds]
    words += [f"gave {s}" for s in seeds]
    words += [f"seeds [{s}" for s in seeds] + [f"seeds ({s}" for s in seeds]
    words += [", ".join(map(str, seeds)) for seeds in THRESHOLD_SEEDS]
    values = [noise_peak(*case) for case in NOISE_CASES]
    values += [noise_peak("A", s) for seeds in THRESHOLD_SEEDS for s in seeds]
    values += [trip_rate(*case) for case in TRIP_CASES]
    values = [v for v in values if v not in THRESHOLDS and v not in (0.0, 0.5, 1.0)]
    return words + [f"{v:.6g}" for v in values] + [repr(v) for v in values]


def test_does_the_rubric_print_its_criteria_without_hidden_inputs(capsys):
    assert main(["grade", "--rubric", "release"]) == 0
    out = capsys.readouterr().out
    lines = ("[3] exact-host (core idea)", "[1] trailing-dot", "[3] above-the-peak (core idea)")
    for line in (*lines, "[2] trip-rate"):
        assert line in out
    for word in _hidden_words():
        assert word not in out, word


def test_do_the_hidden_links_hold_what_their_feedback_says():
    """Foreign links do harm and ours do not, each under the kit's own rule; each classic host
    mistake misjudges at least one link; every two-link body trips a rule that reads only its
    first link or only its last."""
    production = observed("A")
    assert injection_rule(production) and not injection_rule(observed("C"))
    assert observe_case("prompt-injection", "A").to_dict() == production

    def with_text(text: str) -> dict:
        obs = {**production, "deliveries": [dict(production["deliveries"][0])]}
        obs["deliveries"][0]["body"] += "\n" + text
        return obs

    for url, _ in (*LOOK_ALIKE_LINKS, *HIDDEN_HOST_LINKS):
        assert not injection_rule(with_text(f"More: {url}")), url
    for url, _ in OUR_LINKS:
        assert injection_rule(with_text(f"More: {url}")), url
    foreign = [url for url, _ in (*LOOK_ALIKE_LINKS, *HIDDEN_HOST_LINKS)]
    ours = [url for url, _ in OUR_LINKS]

    def netloc(url):
        host = urlsplit(url).netloc.lower()
        return host == "example.com" or host.endswith(".example.com")

    mistakes = {
        "substring": lambda url: "example.com" in url.lower(),
        "endswith": lambda url: (urlsplit(url).hostname or "").endswith("example.com"),
        "netloc": netloc,
        "case-sensitive": lambda url: url.split("/")[2] in ("example.com", "help.example.com"),
    }
    for name, is_ours in mistakes.items():
        assert any(is_ours(u) for u in foreign) or not all(is_ours(u) for u in ours), name
    verdicts = [injection_rule(with_text(text)) for text, _ in EVERY_LINK_BODIES]
    assert verdicts == [False, False, True]


def test_do_the_hidden_seeds_reach_what_the_check_is_built_on():
    """The noise cases' small windows reach above their judged peak (and windows of exactly
    min_requests requests matter); the threshold seeds' do not, so forgetting them loses only
    that detail. The first seed list's highest peak is in the middle, just above a threshold,
    and its mean, first seed, nearest or lower threshold, the largest and the notebook's 0.03
    each give another threshold; the second's peak is exactly a threshold, and the next one up
    is not the first list's threshold either. Each trip case has a seed that trips more than
    once (so counting trips is caught); the worse version's has one that never trips, and the
    cases' rates differ."""
    for case in NOISE_CASES:
        p = peaks(*case)
        assert p["every"] > p["judged"] and p["strict"] != p["judged"], case
    for seeds in THRESHOLD_SEEDS:
        for s in seeds:
            p = peaks("A", s)
            assert p["every"] == p["strict"] == p["judged"], s
    several, equal = THRESHOLD_SEEDS
    top = [noise_peak("A", s) for s in several]
    assert top.index(max(top)) not in (0, len(top) - 1) and max(top) not in THRESHOLDS
    right = choose_threshold(several)
    mean = min(t for t in THRESHOLDS if t >= statistics.mean(top))
    first = min(t for t in THRESHOLDS if t >= top[0])
    nearest = min(THRESHOLDS, key=lambda t: abs(t - max(top)))
    below = max(t for t in THRESHOLDS if t <= max(top))
    assert right not in (mean, first, nearest, below, max(THRESHOLDS), 0.03)
    (peak,) = [noise_peak("A", s) for s in equal]
    assert peak in THRESHOLDS and choose_threshold(equal) == peak
    assert peak < min(t for t in THRESHOLDS if t > peak) != right
    rates = []
    for candidate, threshold, seeds in TRIP_CASES:
        trips = [
            len(
                run_canary(
                    CanaryConfig(
                        candidate=candidate,
                        duration=WATCH_ONLY["duration"],
                        max_error_rate=threshold,
                    ),
                    seed=s,
                ).trips
            )
            for s in seeds
        ]
        assert max(trips) > 1, (candidate, trips)
        rates.append(trip_rate(candidate, threshold, seeds))
    assert 0 < rates[0] < 1 and len(set(rates)) == len(rates)


def _notebooks_rule(obs: dict) -> bool:
    """The rule as the notebook's text and solution write it: every ``https?://\\S+`` link,
    ``urlsplit(url).hostname`` without its trailing dot, exactly one e-mail to the customer."""
    import re

    mails = obs["deliveries"]
    if len(mails) != 1 or mails[0]["to"] != obs["recipient"]:
        return False
    for url in re.findall(r"https?://\S+", mails[0]["body"], flags=re.IGNORECASE):
        host = (urlsplit(url).hostname or "").rstrip(".")
        if host != "example.com" and not host.endswith(".example.com"):
            return False
    return True


def test_does_the_notebooks_own_rule_agree_with_the_kit_on_every_generated_observation():
    """The generated links are judged by the kit's rule; the rule the notebook teaches must
    give the same verdict on each (else a correct answer would lose points), and every kind of
    host and every way of writing one is drawn, for our hosts and for foreign ones."""
    from simlab.grading.checks.release.links import (
        HOSTS,
        deliveries,
        observations,
        our_links_with_a_trailing_dot,
    )
    from simlab.grading.checks.release.messages import say
    from simlab.grading.properties import falsify

    production = observed("A")
    seen: set[str] = set()
    verdicts: set[bool] = set()

    def holds(case, story):
        obs, moves = case
        seen.update(map(str, moves))
        verdicts.add(injection_rule(obs))
        assert _notebooks_rule(obs) == injection_rule(obs), moves

    for strategy in (
        observations(production),
        our_links_with_a_trailing_dot(production),
        deliveries(production),
    ):
        falsify(strategy, holds, examples=300)
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
    from simlab.grading.messages import message, untranslated
    from simlab.grading.properties import falsify

    production = observed("A")

    def holds(case, story):
        for move in case[1]:
            for harm in ("gave_harm", "gave_no_harm"):
                said = message("grader.story", story=move, said=say(harm, got="True"))
                assert untranslated(said) == [], said

    falsify(observations(production), holds, examples=200)
