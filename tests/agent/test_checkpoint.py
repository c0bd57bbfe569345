"""Checkpoints: the record, its JSON round trip, pure migrations and refusals that name the field.

The regression corpus (``simlab/grading/checks/checkpoints/corpus``) holds checkpoints as v1 and
v2 writers stored them; these files are history and are never regenerated. Resuming them is
tested in ``test_resume.py``.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from simlab.agent.checkpoint import (
    APPROVAL_STATUSES,
    CHECKPOINT_STATUSES,
    EFFECT_STATUSES,
    EVIDENCE_SOURCES,
    LATEST_VERSION,
    MIGRATIONS,
    Approval,
    Checkpoint,
    CheckpointError,
    EvidenceRef,
    Goal,
    StopReason,
    load,
    migrate,
    migrate_v1_to_v2,
    migrate_v2_to_v3,
)

CORPUS = Path(__file__).resolve().parents[2] / "simlab/grading/checks/checkpoints/corpus"
CORPUS_FILES = sorted(CORPUS.glob("v*.json"))


def corpus(name: str) -> dict:
    return json.loads((CORPUS / name).read_text())


def latest_example() -> dict:
    return Checkpoint(
        "answer-email/1",
        "acme",
        "t-1",
        Goal("How fast?", "a@example.com", "blender-01"),
        next_step="send",
        evidence=(EvidenceRef("retrieval", "kb/shipping", 1),),
        approval=Approval("approved", "lead"),
        effects={"t-1:answer-email": "pending"},
        draft="Fast.",
    ).to_dict()


# -- strategies ----------------------------------------------------------------------------------

names = st.text(st.characters(min_codepoint=33, max_codepoint=126), min_size=1, max_size=8)
evidence_refs = st.builds(
    EvidenceRef, st.sampled_from(EVIDENCE_SOURCES), names, st.integers(1, 10**6)
)
approvals = st.one_of(
    st.builds(Approval, st.sampled_from([s for s in APPROVAL_STATUSES if s != "approved"])),
    st.builds(Approval, st.just("approved"), names),
)


@st.composite
def checkpoints(draw) -> Checkpoint:
    status = draw(st.sampled_from(CHECKPOINT_STATUSES))
    review = ()
    if status == "needs_review":
        review = tuple(
            draw(
                st.lists(st.builds(StopReason, names, st.text(min_size=1)), min_size=1, max_size=3)
            )
        )
    return Checkpoint(
        graph_version=draw(names),
        tenant=draw(names),
        task_id=draw(names),
        goal=draw(st.builds(Goal, names, names, st.none() | names)),
        status=status,
        next_step=draw(names),
        evidence=tuple(draw(st.lists(evidence_refs, max_size=4))),
        approval=draw(approvals),
        effects=draw(st.dictionaries(names, st.sampled_from(EFFECT_STATUSES), max_size=3)),
        draft=draw(st.none() | st.text(max_size=30)),
        review=review,
        original=draw(st.none() | st.just(corpus("v1_fresh.json"))),
    )


# -- the record ----------------------------------------------------------------------------------


@given(checkpoints())
def test_does_every_checkpoint_survive_a_json_round_trip(cp):
    assert Checkpoint.from_json(cp.to_json()) == cp
    assert load(cp.to_json()).checkpoint == cp


def test_does_the_record_hold_every_field_the_issue_names():
    d = latest_example()
    for name in (
        "schema_version",
        "graph_version",
        "tenant",
        "task_id",
        "status",
        "evidence",
        "approval",
        "effects",
    ):
        assert name in d
    assert d["evidence"][0] == {"source": "retrieval", "doc_id": "kb/shipping", "version": 1}
    assert d["effects"] == {"t-1:answer-email": "pending"}


def test_can_changing_a_returned_dict_change_the_checkpoint():
    cp = Checkpoint.from_dict(latest_example())
    d = cp.to_dict()
    d["effects"]["t-1:answer-email"] = "sent"
    d["evidence"].clear()
    assert cp.effects == {"t-1:answer-email": "pending"}
    assert len(cp.evidence) == 1


# -- migrations ----------------------------------------------------------------------------------


@pytest.mark.parametrize("path", CORPUS_FILES, ids=lambda p: p.name)
def test_does_every_stored_old_checkpoint_migrate_to_the_latest_version(path):
    raw = json.loads(path.read_text())
    assert raw["schema_version"] < LATEST_VERSION
    latest = migrate(raw)
    assert latest["schema_version"] == LATEST_VERSION
    assert Checkpoint.from_dict(latest).task_id == raw["task_id"]
    assert migrate(latest) == latest  # the latest version passes through unchanged


@pytest.mark.parametrize("path", CORPUS_FILES, ids=lambda p: p.name)
def test_does_migrating_leave_its_input_untouched(path):
    raw = json.loads(path.read_text())
    before = copy.deepcopy(raw)
    out = migrate(raw)
    assert raw == before
    # ... and shares nothing with it: changing the output cannot reach the input.
    for value in out.values():
        if isinstance(value, (list, dict)):
            value.clear() if isinstance(value, list) else value.update({"x": 1})
    assert raw == before


@pytest.mark.parametrize("version", sorted(MIGRATIONS))
def test_is_each_migration_step_a_pure_function(version):
    raw = next(
        json.loads(p.read_text())
        for p in CORPUS_FILES
        if json.loads(p.read_text())["schema_version"] == version
    )
    before = copy.deepcopy(raw)
    first = MIGRATIONS[version](raw)
    second = MIGRATIONS[version](raw)
    assert raw == before
    assert first == second
    assert first["schema_version"] == version + 1


def test_is_a_v1_step_index_read_as_the_graph_step_it_meant():
    # v1 "step": 2 meant "the third graph step is next", not "two commits in the ledger".
    v2 = migrate_v1_to_v2(corpus("v1_before_send.json"))
    assert v2["next_step"] == "send"
    assert migrate_v1_to_v2(corpus("v1_fresh.json"))["next_step"] == "retrieve"


def test_does_a_v1_evidence_string_become_a_document_id_and_version():
    raw = corpus("v1_before_draft.json") | {"evidence": ["kb/a@b@12"]}
    assert migrate_v1_to_v2(raw)["evidence"] == [{"doc_id": "kb/a@b", "version": 12}]
    latest = migrate(raw)
    assert latest["evidence"] == [{"source": "retrieval", "doc_id": "kb/a@b", "version": 12}]


@pytest.mark.parametrize(
    ("required", "approved", "by", "status"),
    [
        (False, False, None, "not_required"),
        (True, False, None, "pending"),
        (True, True, "lead", "approved"),
        (False, True, "lead", "approved"),
    ],
)
def test_does_a_v2_approval_become_the_right_status(required, approved, by, status):
    raw = corpus("v2_approval_pending.json")
    raw["approval"] = {"required": required, "approved": approved, "by": by}
    assert migrate_v2_to_v3(raw)["approval"] == {"status": status, "by": by}


def test_do_v2_sent_keys_stay_sent_and_nothing_else_appears():
    latest = migrate(corpus("v2_done.json"))
    assert latest["effects"] == {"ask-warranty:answer-email": "sent"}
    assert migrate(corpus("v2_before_draft.json"))["effects"] == {}


# -- load keeps the original -----------------------------------------------------------------------


def test_does_loading_an_old_checkpoint_keep_the_original_beside_it():
    raw = corpus("v1_before_send.json")
    loaded = load(json.dumps(raw))
    assert loaded.from_version == 1 and loaded.migrated
    assert loaded.original == raw
    assert loaded.checkpoint.original == raw
    # Saved and loaded again, the record keeps the *first* original, not a migrated copy.
    again = load(loaded.checkpoint.to_dict())
    assert not again.migrated
    assert again.checkpoint.original == raw


def test_does_a_latest_checkpoint_load_without_an_original():
    loaded = load(latest_example())
    assert loaded.from_version == LATEST_VERSION and not loaded.migrated
    assert loaded.checkpoint.original is None


# -- refusals ------------------------------------------------------------------------------------


def test_is_a_newer_checkpoint_refused_rather_than_read_with_old_meanings():
    raw = latest_example() | {"schema_version": LATEST_VERSION + 1, "brand_new_field": 1}
    with pytest.raises(CheckpointError, match="newer") as info:
        load(raw)
    assert info.value.field == "schema_version"
    assert info.value.version == LATEST_VERSION + 1
    assert str(LATEST_VERSION + 1) in str(info.value)


@pytest.mark.parametrize("version", [0, -1])
def test_is_an_unknown_version_refused(version):
    with pytest.raises(CheckpointError, match=f"unknown checkpoint schema_version {version}"):
        migrate(corpus("v1_fresh.json") | {"schema_version": version})


@pytest.mark.parametrize("name", ["v1_before_send.json", "v2_approval_pending.json"])
def test_is_every_missing_field_named(name):
    raw = corpus(name)
    for field in raw:
        broken = {k: v for k, v in raw.items() if k != field}
        with pytest.raises(CheckpointError) as info:
            load(broken)
        assert info.value.field == field
        assert repr(field) in str(info.value) and "missing" in str(info.value)


def test_is_every_missing_field_of_the_latest_version_named():
    raw = latest_example()
    for field in raw:
        with pytest.raises(CheckpointError, match=f"'{field}' is missing"):
            load({k: v for k, v in raw.items() if k != field})


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"tenant": 7}, "tenant"),
        ({"tenant": ""}, "tenant"),
        ({"schema_version": "3"}, "schema_version"),
        ({"schema_version": True}, "schema_version"),
        ({"status": "paused"}, "status"),
        (
            {"evidence": [{"source": "retrieval", "doc_id": "d", "version": "2"}]},
            "evidence[0].version",
        ),
        (
            {"evidence": [{"source": "retrieval", "doc_id": "d", "version": 0}]},
            "evidence[0].version",
        ),
        ({"evidence": [{"source": "web", "doc_id": "d", "version": 1}]}, "evidence[0].source"),
        ({"evidence": {"doc_id": "d"}}, "evidence"),
        ({"effects": {"k": "maybe"}}, "effects['k']"),
        ({"goal": {"query": "q", "recipient": "r"}}, "goal.sku"),
        ({"approval": {"status": "approved", "by": None}}, "approval.by"),
        ({"status": "needs_review"}, "review"),
        ({"mood": "happy"}, "mood"),
    ],
)
def test_is_a_malformed_latest_checkpoint_refused_naming_the_field(change, field):
    raw = latest_example() | change
    before = copy.deepcopy(raw)
    with pytest.raises(CheckpointError) as info:
        load(raw)
    assert info.value.field == field
    assert repr(field) in str(info.value)
    assert raw == before  # a failed load changes nothing


@pytest.mark.parametrize(
    ("name", "change", "field"),
    [
        ("v1_before_send.json", {"step": 4}, "step"),
        ("v1_before_send.json", {"step": 1.0}, "step"),
        ("v1_before_send.json", {"evidence": ["kb/shipping"]}, "evidence[0]"),
        ("v1_before_send.json", {"evidence": ["kb/shipping@0"]}, "evidence[0]"),
        ("v1_before_send.json", {"graph_version": "answer-email/2"}, "graph_version"),
        ("v1_before_send.json", {"sent": "k"}, "sent"),
        (
            "v2_approval_pending.json",
            {"approval": {"required": True, "approved": "no", "by": None}},
            "approval.approved",
        ),
        (
            "v2_approval_pending.json",
            {"approval": {"required": True, "approved": False, "by": "x"}},
            "approval.by",
        ),
        ("v2_approval_pending.json", {"goal": {"query": "q"}}, "goal.recipient"),
        ("v2_approval_pending.json", {"effects": {}}, "effects"),
    ],
)
def test_is_a_malformed_old_checkpoint_refused_naming_the_field(name, change, field):
    raw = corpus(name) | change
    with pytest.raises(CheckpointError) as info:
        migrate(raw)
    assert info.value.field == field
    assert info.value.version == raw["schema_version"]


@pytest.mark.parametrize("text", ["", "{", "not json", "[1, 2]", "null", "3", b"\xff\xfe"])
def test_is_text_that_is_not_a_json_object_refused(text):
    with pytest.raises(CheckpointError, match="JSON"):
        load(text)


@pytest.mark.parametrize("value", [None, 3, ["a"], object()])
def test_is_a_value_that_is_neither_text_nor_dict_refused(value):
    with pytest.raises(CheckpointError):
        load(value)
