"""A learner's exception message reaches the feedback only when it cannot carry a hidden input:
code that raises ``ValueError(str(seed))`` or ``ValueError(url)`` on the grader's data must not
read the grader's seeds, hosts or URLs back in its feedback (found by a review: bare numbers
passed the old filter)."""

from __future__ import annotations

import pytest

from simlab.grading.questions import explain
from simlab.grading.sandbox.supervisor import RemoteError


def _said(kind: str, message: str) -> str:
    return explain(RemoteError({"type": kind, "message": message}, "measure()"))


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
