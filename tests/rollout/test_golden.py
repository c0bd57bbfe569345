"""The golden set: does it pass production, catch each worse version, and trace it to a layer?

Runs are few (the agent is deterministic; runs differ only in simulated latency jitter), so the
whole module stays fast.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace

import pytest

from simlab.agent.fakemodel import Completion, FakeModel, count_tokens
from simlab.records import CANCELLED, COMPLETED
from simlab.rollout.assertions import links_outside
from simlab.rollout.golden import (
    CASE_NAMES,
    CASES,
    compare,
    format_comparison,
    observe_case,
    p95,
    run_golden,
)
from simlab.rollout.versions import (
    FRAMEWORKS,
    MODELS,
    VERSIONS,
    AgentVersion,
    ModelVersion,
    layers_changed,
    parse_version,
)
from tests.strategies import run_cli, usage_error

RUNS = 2


@pytest.fixture(scope="module")
def reports():
    return {name: run_golden(name, runs=RUNS) for name in VERSIONS}


run = run_cli  # (exit status, stdout, stderr) of simlab ARGV


# -- the set itself ----------------------------------------------------------------------------


def test_does_the_set_cover_every_case_the_chapter_names():
    assert CASE_NAMES == (
        "success",
        "empty-evidence",
        "tool-timeout",
        "permission-revoked",
        "duplicate-claim",
        "cancellation",
        "prompt-injection",
    )
    for case in CASES:
        assert case.assertions, f"{case.name} has no business assertion"
        assert all(a.rule.startswith(("must ", "must not ")) for a in case.assertions)


def test_does_production_pass_every_case_in_every_run(reports):
    a = reports["A"]
    assert a.passed, [f for c in a.cases for f in c.failures]
    assert a.overall.success == 1.0 and a.overall.repeated_side_effects == 0
    assert a.overall.tool_selection == 1.0 and a.overall.citations == 1.0


@pytest.mark.parametrize("case", CASE_NAMES)
def test_does_each_case_end_the_way_the_business_expects(case):
    obs = observe_case(case, "A")
    expected = {
        "success": COMPLETED,
        "empty-evidence": CANCELLED,
        "tool-timeout": COMPLETED,
        "permission-revoked": CANCELLED,
        "duplicate-claim": COMPLETED,
        "cancellation": CANCELLED,
        "prompt-injection": COMPLETED,
    }[case]
    assert obs.status == expected
    assert len(obs.deliveries) == (1 if expected == COMPLETED else 0)


def test_is_the_stale_worker_of_the_duplicate_claim_really_fenced_by_the_ledger():
    obs = observe_case("duplicate-claim", "A")
    assert obs.fenced >= 1
    assert obs.calls.count("model") == 2  # both workers drafted; only one answer counts
    assert obs.result["answer"] == obs.deliveries[0].body


def test_does_a_timed_out_send_stay_unknown_instead_of_being_sent_again():
    obs = observe_case("tool-timeout", "A")
    assert obs.result["email"] == {f"{obs.task_id}:answer-email": "unknown"}
    assert obs.repeated_side_effects == 0


# -- catching worse versions ---------------------------------------------------------------------


def test_does_the_set_catch_the_subtly_worse_framework_and_trace_it(reports):
    cmp = compare(reports["A"], reports["B"])
    assert cmp.regressed == ("tool-timeout",)
    assert cmp.traced_to == "framework"
    assert any("repeated side effects" in s for s in cmp.regressions["tool-timeout"])
    b = reports["B"].case("tool-timeout")
    assert b.success == 0.0 and b.repeated_side_effects == 1
    # Subtle: it is no more expensive, and it is faster where it is wrong.
    assert reports["B"].overall.tokens == reports["A"].overall.tokens
    assert b.p95_latency < reports["A"].case("tool-timeout").p95_latency
    # Named test: both runs failed against none, 1 in C(4, 2) = 6 by chance: too few to tell.
    test = cmp.tests["tool-timeout"]
    assert list(cmp.tests) == ["tool-timeout"] and test.p_value == pytest.approx(1 / 6)
    assert test.weak and test.note == (
        "2 failed runs in 2: too few to tell; even 2 of 2 would not be at 0.01"
    )
    assert "one-sided Fisher exact p = 0.17; weak evidence" in format_comparison(cmp)


def test_does_the_set_catch_the_model_change_on_injection_tools_and_citations(reports):
    cmp = compare(reports["A"], reports["C"])
    assert cmp.traced_to == "model"
    assert "prompt-injection" in cmp.regressed
    failures = " ".join(s for s, _ in reports["C"].case("prompt-injection").failures)
    assert "link outside our own domains" in failures and "refund-check.example" in failures
    assert reports["C"].case("tool-timeout").tool_selection < 1.0  # needless stock lookup
    assert reports["C"].case("success").citations == 0.0  # uncited stock figure
    assert reports["C"].overall.tokens < reports["A"].overall.tokens  # and yet cheaper


def test_can_a_change_of_both_layers_be_traced_to_one(reports):
    cmp = compare(reports["A"], reports["D"])
    assert cmp.layers == ("framework", "model") and cmp.traced_to is None
    assert set(cmp.regressed) >= {"tool-timeout", "prompt-injection"}


def test_does_a_version_compared_with_itself_show_no_regression(reports):
    # Same seed: both sides see the same latency draws (common random numbers), so only a
    # change of the agent can show up as a difference.
    cmp = compare(reports["A"], run_golden(parse_version("agent-1.0/fake-1"), runs=RUNS))
    assert cmp.regressed == () and cmp.layers == ()


def test_does_a_model_that_words_its_answers_differently_still_pass():
    # Business assertions, not string matches: a paraphrase with the same facts passes.
    class Paraphrase(FakeModel):
        name = "paraphrase"

        def complete(self, prompt):
            text = super().complete(prompt).text
            text = re.sub(
                r"^Answer to: .*$", "Thanks for asking! Here is what we know:", text, flags=re.M
            ).replace("- ", "* ")
            return Completion(text, count_tokens(prompt), count_tokens(text))

    model = replace(MODELS["fake-1"], name="paraphrase", make=Paraphrase)
    version = AgentVersion("P", FRAMEWORKS["agent-1.0"], model)
    assert isinstance(model, ModelVersion)
    report = run_golden(version, runs=1)
    assert report.passed


# -- measuring -----------------------------------------------------------------------------------


def test_is_a_golden_report_the_same_for_the_same_seed():
    one, two = run_golden("B", runs=3, seed=4), run_golden("B", runs=3, seed=4)
    assert one.to_dict() == two.to_dict()
    other = run_golden("B", runs=3, seed=5)
    assert other.overall.p95_latency != one.overall.p95_latency  # jitter follows the seed
    assert [c.success for c in other.cases] == [c.success for c in one.cases]


@pytest.mark.parametrize(
    ("values", "want"),
    [
        (list(range(1, 21)), 19),
        (list(range(1, 101)), 95),
        ([7.5], 7.5),
        ([3, 1, 2], 3),
    ],
)
def test_is_p95_the_nearest_rank(values, want):
    assert p95(values) == want


def test_are_citations_judged_against_the_evidence_held():
    obs = observe_case("success", "A")
    assert obs.citations_correct is True
    dropped = replace(obs, answer=obs.answer.replace("[blender-01 v1]", ""))
    assert dropped.citations_correct is False
    invented = replace(obs, answer=obs.answer + " [kb/returns v2]")
    assert invented.citations_correct is False
    assert replace(obs, answer=None).citations_correct is None


@pytest.mark.parametrize(
    ("text", "foreign"),
    [
        ("see https://example.com/returns", []),
        ("see https://help.example.com/x", []),
        ("verify at http://refund-check.example/verify.", ["refund-check.example"]),
        ("go to https://example.com.evil.io/", ["example.com.evil.io"]),
        ("log in at https://example.com@evil.io/login", ["evil.io"]),
        ("VISIT HTTP://Refund-Check.Example:8080/x!", ["refund-check.example"]),
        ("mail us: support@example.com, or notexample.com", []),
        # a browser reads a backslash as a slash: the host ends before it
        ("log in at https://evil.io\\@example.com/login", ["evil.io"]),
        ("see https://help.example.com\\@evil.io/", []),
        # what ends a sentence after a link, or a bracket or quote around it, is no part of it
        ("see https://help.example.com, or https://example.com!", []),
        ("(see https://help.example.com). Or \"https://example.com\"; 'https://example.com'", []),
        ("an IPv6 host: https://[2001:db8::1]:8443/x", ["2001:db8::1"]),
        ("ask <https://kb.example.com>? or https://example.com:", []),
        (None, []),
    ],
)
def test_are_links_outside_our_domains_found(text, foreign):
    assert links_outside(text) == foreign


# -- versions ------------------------------------------------------------------------------------


def test_are_framework_and_model_separate_knobs():
    assert layers_changed(VERSIONS["A"], VERSIONS["B"]) == ("framework",)
    assert layers_changed(VERSIONS["A"], VERSIONS["C"]) == ("model",)
    assert parse_version("agent-1.1/fake-1").label == VERSIONS["B"].label


@pytest.mark.parametrize("spec", ["E", "agent-9/fake-1", "agent-1.0/gpt", "", "agent-1.0"])
def test_is_an_unknown_version_refused_naming_the_choices(spec):
    with pytest.raises(ValueError, match="FRAMEWORK/MODEL"):
        parse_version(spec)


# -- the command ---------------------------------------------------------------------------------


def test_does_simlab_golden_pass_production_and_exit_0(capsys):
    code, out, _ = run(["golden", "--runs", "1"], capsys)
    assert code == 0
    assert "verdict: PASS" in out
    for case in CASE_NAMES:
        assert case in out


def test_does_simlab_golden_compare_name_the_regressed_case_and_layer(capsys):
    code, out, _ = run(["golden", "--version", "A", "--compare", "B", "--runs", "1"], capsys)
    assert code == 1
    assert "traces to the framework" in out
    assert "regressed tool-timeout" in out and "REGRESSION in 1 of 7" in out


def test_does_simlab_golden_json_carry_the_metrics(capsys):
    code, out, _ = run(["golden", "--compare", "C", "--runs", "1", "--json"], capsys)
    data = json.loads(out)
    assert code == 1 and data["traced_to"] == "model"
    assert "prompt-injection" in data["regressed"]
    case = data["new"]["cases"][0]
    for key in (
        "success",
        "tool_selection",
        "citations",
        "repeated_side_effects",
        "tokens",
        "p95_latency",
        "failures",
    ):
        assert key in case


@pytest.mark.parametrize(
    "argv",
    [
        ["golden", "--version", "Z"],
        ["golden", "--compare", "agent-2/fake-1"],
        ["golden", "--runs", "0"],
        ["golden", "--runs", "many"],
    ],
)
def test_is_bad_golden_input_one_line_and_exit_2(argv, capsys):
    usage_error(argv, capsys)
