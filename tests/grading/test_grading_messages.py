"""A learner's exception message reaches the feedback only when it cannot carry a hidden input:
code that raises ``ValueError(str(seed))`` or ``ValueError(url)`` on the grader's data must not
read the grader's seeds, hosts or URLs back in its feedback (found by a review: bare numbers
passed the old filter). The same holds for the class name of a raised exception or of a
returned object, for reprs, for numbers near a hidden seed, and for the plain words of a hidden
record."""

from __future__ import annotations

import pytest

from simlab.grading.checks.checkpoints.migration import HIDDEN_V1, HIDDEN_WORDS, _first_difference
from simlab.grading.checks.histories.ttl import ttl_world
from simlab.grading.messages import LANGS, render
from simlab.grading.questions import Tally, explain_message, feedback_message, require
from simlab.grading.sandbox.supervisor import RemoteError
from simlab.grading.sandbox.wire import Opaque
from simlab.grading.student import close_to, kind_of, shown_number, shown_value, shown_values
from simlab.grading.text import WITHHELD


def _said(kind: str, message: str) -> str:
    return str(explain_message(RemoteError({"type": kind, "message": message}, "measure()")))


@pytest.mark.parametrize(
    "message",
    [
        "31",
        "seeds 31 and 32",
        "https://secure-refunds.example.net/card",
        "secure-refunds.example.net",
        "host example dot net / card",
        "user@example.com",
        "'quoted'",
        "[31, 32]",
        "x" * 81,
    ],
)
def test_is_a_message_that_may_quote_hidden_data_left_out(message):
    said = _said("ValueError", message)
    assert said == "measure() raised ValueError"
    assert message not in said


def test_is_a_plain_message_shown():
    assert _said("ValueError", "history is empty.") == (
        "measure() raised ValueError: history is empty."
    )


def test_is_a_stubs_hint_shown_only_when_plain():
    plain = _said("NotImplementedError", "write the claim here")
    assert plain.endswith("NotImplementedError (write the claim here)")
    leaky = _said("NotImplementedError", "seed 31")
    assert leaky == "measure() is not written yet: it still raises NotImplementedError"


# ------------------------------------------- names, reprs and numbers from the learner's code ---

HIDDEN_URL = "https://example.com@refund-check.example/verify"


@pytest.mark.parametrize("name", [HIDDEN_URL, "Seed31", "refund-check.example", "x" * 41, ""])
def test_is_an_exception_class_named_after_hidden_data_left_out(name):
    said = _said(name, "")
    assert said == "measure() raised an exception"
    assert not name or name not in said


def test_is_a_plain_exception_class_name_shown():
    assert _said("KeyError", "") == "measure() raised KeyError"
    assert _said("My_Own_Error", "oops") == "measure() raised My_Own_Error: oops"


def test_is_the_class_of_a_returned_object_or_its_repr_never_hidden_data():
    odd = Opaque(HIDDEN_URL, repr=f"<{HIDDEN_URL}>\n17/17")
    assert kind_of(odd) == "object" and kind_of(Opaque("Ledger")) == "Ledger"
    for said in (shown_value(odd), shown_number(odd), shown_value([odd]), shown_value({1: 2})):
        for lang in LANGS:
            shown = render(said, lang)
            assert HIDDEN_URL not in shown and "17" not in shown, shown
    assert shown_value("completed") == "'completed'" and shown_value(None) == "None"
    assert render(shown_value("seed 31")) == "a str" == render(shown_value(HIDDEN_URL))


def test_is_a_value_named_by_its_type_in_the_readers_language():
    named = [render(shown_value(v)) for v in ("a@b c", 10**400, [1])]
    assert named == ["a str", "an int", "a list"]
    assert render(shown_value("a@b c"), "zh") == "str 类型的值"
    listed = shown_values([shown_value("x@y z"), "'ok'"], more=True)
    assert render(listed) == "[a str, 'ok', ...]"
    assert render(listed, "zh") == "[str 类型的值，'ok'……]"


@pytest.mark.parametrize("offset", [0, 0.25, -0.25, 0.49, 1e-9])
def test_is_a_number_near_a_hidden_seed_left_out(offset):
    seeds = (31, 139)
    for seed in seeds:
        shown = render(shown_number(seed + offset, seeds))
        assert shown in ("an int", "a float"), shown


def test_are_the_learners_own_numbers_still_shown():
    assert shown_number(0.035, (31, 139)) == "0.035"
    assert shown_number(30.4, (31,)) == "30.4"
    huge = render(shown_number(10**400, (31,)))
    assert huge == "an int", "a huge int is not formatted as a float"
    assert close_to(10**400, 1.0) is False
    world = ttl_world()
    value = next(iter(world.table.values()))["waiting"]
    hidden = world.hidden_tables
    assert render(shown_number(value + 0.25, hidden)) == "a float", "a hidden table's value"


def test_does_a_failure_quoting_a_hidden_record_get_withheld():
    tally = Tally(hidden=HIDDEN_WORDS)
    query = HIDDEN_V1[2]["query"]  # plain words: the filter of messages lets them through
    assert query in HIDDEN_WORDS and _said("ValueError", query).endswith(query)
    spelt = [query, query.upper().replace(" ", ""), "_".join(query.split())]
    for text in spelt:
        tally.part(lambda text=text: require(False, f"migrate_v1_to_v2() said {text}"))

    def raises() -> None:
        raise RemoteError({"type": "ValueError", "message": query}, "migrate_v1_to_v2()")

    tally.part(raises)
    # What the learner's code raised shows no message at all where hidden inputs reach it.
    assert tally.failures == [WITHHELD] * len(spelt) + ["migrate_v1_to_v2() raised ValueError"]
    tally.part(lambda: require(False, "field 'draft' is missing"))
    assert tally.failures[-1] == "field 'draft' is missing", "the grader's own words stay"
    said = str(feedback_message(tally, 6, None))
    assert "hidden" in said and query not in said


def test_does_the_migration_feedback_show_no_repr_of_the_answer():
    record = {"query": HIDDEN_V1[0]["query"], HIDDEN_URL: 1}
    said = _first_difference({**record, "schema_version": 2}, {"schema_version": 2, **record})
    assert HIDDEN_URL not in str(said), said
    said = _first_difference({"query": "x\n" * 40}, {"query": "y"})
    assert str(said) == "query holds other text than the kit's migration gives"


def _rendered(said) -> list[str]:
    from simlab.grading.messages import render
    from simlab.grading.questions import FAILURE_CHARS

    texts = [render(said, lang) for lang in ("en", "zh")]
    assert all(len(text) <= FAILURE_CHARS for text in texts), texts
    return texts


def test_does_the_migration_feedback_name_what_is_wrong_not_only_a_type():
    """A document ID cut at an @ it holds, a version of the wrong kind, a list too short: each
    said as such, in both languages, with no hidden value and no bare "(yours: a str)"."""
    record = next(r for r in HIDDEN_V1 if any(ref.count("@") > 1 for ref in r["evidence"]))
    ref = next(ref for ref in record["evidence"] if ref.count("@") > 1)
    doc_id, _, version = ref.rpartition("@")
    truth = {"evidence": [{"doc_id": doc_id, "version": int(version)}], "sent": ["a", "a"]}
    cut = {"evidence": [{"doc_id": doc_id.split("@")[0], "version": int(version)}]}
    en, zh = _rendered(_first_difference({**truth, **cut}, truth))
    assert en.startswith("evidence[0].doc_id is cut at an @") and "last @" in en, en
    assert "@" in zh and "截断" in zh, zh
    typed = {"evidence": [{"doc_id": doc_id, "version": version}]}
    en, zh = _rendered(_first_difference({**truth, **typed}, truth))
    assert en == "evidence[0].version should be a whole number (yours: a str)", en
    assert "整数" in zh, zh
    en, _ = _rendered(_first_difference({**truth, "sent": ["a"]}, truth))
    assert en == "sent holds fewer items than the kit's migration gives", en
    for text in (en, zh):
        assert not any(word in text for word in HIDDEN_WORDS if len(word) > 3), text


@pytest.mark.parametrize(
    ("got", "truth", "says"),
    [
        (2.5, 7.5, "below the kit's"),
        (9.0, 7.5, "above the kit's"),
        (15.0, 7.5, "the sum over the seeds, not their mean"),
        ("7.5", 7.5, "not a number"),
    ],
)
def test_does_the_measure_feedback_say_how_a_value_is_wrong_and_what_it_measures(got, truth, says):
    """The feedback says whether the value is above or below the kit's, or summed over the
    (two) seeds, and what waiting is; it never shows a number measured on the hidden ttl and
    seeds (it would tell of them), only what a value that is no number is."""
    from simlab.grading.checks.histories.messages import measure_wrong

    en, zh = _rendered(measure_wrong("waiting", got, truth, 2))
    assert says in en and "hidden seeds" in en and "sum of recovery_times(history)" in en, en
    assert "recovery_times(history)" in zh, zh
    for text in (en, zh):
        if isinstance(got, float):
            assert f"{got:g}" not in text, text
        else:
            assert "str" in text, text


def test_does_the_recovery_feedback_say_whether_there_are_too_many_times_or_other_times():
    from simlab.grading.checks.histories.messages import times_wrong

    for answer, says in (([1, 2, 3], "more than the kit"), ([1], "fewer than the kit")):
        en, _ = _rendered(times_wrong(answer, [1.0, 2.0], "on a run", "some times"))
        assert en.startswith(f"on a run: recovery_times() gave some times, {says}: "), en
    en, _ = _rendered(times_wrong([1.0, 2.5], [1.0, 2.0], "on a run", "2 times"))
    assert "as many as the kit but other times" in en, en


def test_is_a_stubs_hint_shown_in_the_readers_language_and_a_learners_own_words_as_written():
    # The Chinese exercises run the English code: a stub's hint reaches the grader in English.
    from simlab.grading.questions import explain_message

    hint = "for each crash, look for the next claim ok of the same task later in the history"
    said = explain_message(RemoteError({"type": "NotImplementedError", "message": hint}, "f()"))
    assert render(said, "en").endswith(f"NotImplementedError ({hint})")
    assert render(said, "zh").endswith("（对每次崩溃，在历史中往后找同一任务的下一次 claim ok）")
    own = "first the easy cases"
    said = explain_message(RemoteError({"type": "NotImplementedError", "message": own}, "f()"))
    assert render(said, "zh").endswith(f"（{own}）")


@pytest.mark.parametrize(
    ("text", "hidden", "quotes"),
    [
        ("got tenant-AcmeLabs-7 back", frozenset({"tenant-acmelabs-7"}), True),  # any case
        ("got t e n a n t 7 x y z", frozenset({"tenant7xyz"}), True),  # spaced out
        ("got tenant7xy", frozenset({"tenant7xyz"}), False),  # a long one only whole
        ("the key k42 was sent", frozenset({"k42"}), True),  # a short one as a word
        ("the key k420 was sent", frozenset({"k42"}), False),  # not inside a longer word
        ("the key K42.", frozenset({"k42", "tenant7xyz"}), True),
        ("a+b is fine", frozenset({"a+b"}), True),  # a short one's marks are literal
        ("aab is fine", frozenset({"a+b"}), False),
        ("id", frozenset({"id"}), False),  # two characters are too short to tell
        ("anything", frozenset(), False),
    ],
)
def test_is_a_hidden_input_found_however_it_is_spelt(text, hidden, quotes):
    from simlab.grading.text import quotes_hidden

    assert quotes_hidden(text, hidden) is quotes
    assert quotes_hidden(text, tuple(sorted(hidden))) is quotes
