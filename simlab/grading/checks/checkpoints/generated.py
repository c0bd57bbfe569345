"""Generated v1 checkpoints for question ``pure-migration``: every step, both statuses, odd
but valid contents (document IDs holding ``@``, ``/`` or spaces, versions with leading zeros,
a citation or a sent key repeated, keys out of order, an empty or missing draft), each with
the story feedback tells of it (never its values)."""

from __future__ import annotations

from typing import Any

from simlab.agent.checkpoint import validate
from simlab.grading.checks.checkpoints.messages import say
from simlab.grading.properties import Story, st

__all__ = ["v1_checkpoints", "tell_v1"]

_WORDS = ("kb", "faq", "team", "returns", "Ops", "prix", "x", "v2", "café", "a b")
_SEPARATORS = ("/", "@", "-", ".", " ", "_")


@st.composite
def _doc_id(draw: Any) -> str:
    parts = draw(st.lists(st.sampled_from(_WORDS), min_size=1, max_size=3))
    seps = [draw(st.sampled_from(_SEPARATORS)) for _ in parts[1:]]
    text = parts[0]
    for sep, part in zip(seps, parts[1:], strict=True):
        text += sep + part
    return text


@st.composite
def _citation(draw: Any) -> str:
    version = draw(st.integers(1, 120))
    zeros = draw(st.sampled_from(("", "", "", "0", "00")))
    return f"{draw(_doc_id())}@{zeros}{version}"


_KEYS = st.sampled_from(("t:answer-email", "t:copy-to-manager", "t:reminder", "a-key"))
_TEXT = st.sampled_from(
    ("How fast do orders ship?", "Refunds?", "x", "Ça marche ? 100%", "two\nlines")
)


def _built(draw: Any) -> dict:
    return {
        "schema_version": 1,
        "graph_version": "answer-email/1",
        "tenant": draw(st.sampled_from(("acme", "globex", "initech", "Tenant 7"))),
        "task_id": draw(st.sampled_from(("t1", "ask-shipping", "g-17", "task with spaces"))),
        "status": draw(st.sampled_from(("running", "completed"))),
        "step": draw(st.integers(0, 3)),
        "query": draw(_TEXT),
        "recipient": draw(st.sampled_from(("cy@example.com", "Bo <bo@example.com>", "ops"))),
        "evidence": draw(st.lists(_citation(), max_size=4)),
        "draft": draw(st.one_of(st.none(), st.just(""), _TEXT)),
        "sent": draw(st.lists(_KEYS, max_size=4)),
    }


@st.composite
def v1_checkpoints(draw: Any) -> dict:
    """A valid v1 record (by the kit's own v1 layout)."""
    record = _built(draw)
    validate(record)  # a generated input the kit refuses would be a bug of this module
    return record


def tell_v1(v1: dict, story: Story) -> None:
    """The features of ``v1`` that a migration can get wrong, as short moves (no value of
    it): its step and status, then only what is odd about it."""
    story.add(say("v1_at", step=v1["step"], status=v1["status"]))
    refs = v1["evidence"]
    if any(ref.rpartition("@")[0].count("@") for ref in refs):
        story.add(say("odd_at"))
    if any(ref.rpartition("@")[2].startswith("0") for ref in refs):
        story.add(say("odd_zero"))
    if len(set(refs)) < len(refs):
        story.add(say("odd_citation"))
    if v1["draft"] == "":
        story.add(say("odd_draft"))
    sent = v1["sent"]
    if len(set(sent)) < len(sent):
        story.add(say("odd_sent"))
    if sent != sorted(sent):
        story.add(say("odd_order"))
