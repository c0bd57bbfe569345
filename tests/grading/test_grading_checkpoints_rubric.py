"""Do the rubrics of ``pure-migration``, ``resume-guard`` and ``cache-key`` weigh the core idea,
and does their feedback keep hidden inputs hidden?

Each answer of ``tests/submissions/checkpoints.py`` replaces one answer cell of
``solutions/04_checkpoints_and_resume.ipynb``; only that question's hidden check runs, in the real
sandbox (no kernel; the corpus in one batch, :mod:`tests.submissions.grading`), in the world its
bytes draw (as a grading of a notebook does). A correct alternative gets every point, in several
worlds too; a classic mistake, or an answer that foresees its world (typed-in results, prefix or
substring identities, copies, own normalizers, reading the grader's world), gets at most its listed
points (at most half of the question for a mistake of the core idea). Every feedback line is then
scanned for the hidden inputs of the checks (how the world was changed under a paused task, the
hidden tenants, documents and queries of the cache scripts, the names the grader's worlds draw
from), and must be short enough to be shown whole.
"""

from __future__ import annotations

import pytest

from simlab.agent.example import example_world
from simlab.grading.checks.checkpoints.changes import (
    CHANGE_PAIRS,
    PAIR_POSITIONS,
    WORLD_CHANGES,
    changed_cases,
)
from simlab.grading.checks.checkpoints.guard import (
    CHANGES,
    POSITIONS,
    UNCHANGED,
    VERDICTS,
    checkpoints_at,
    gave,
    reference_codes,
    said_change,
    where,
)
from simlab.grading.checks.checkpoints.guard_world import (
    FALSY_SKU,
    WORLD_NAMES,
    drawn_world,
    falsy_sku_cases,
    not_running,
)
from simlab.grading.checks.checkpoints.messages import say
from simlab.grading.checks.hidden_world import judged_in, seed_for
from simlab.grading.messages import LANGS, render, untranslated
from simlab.grading.questions import FAILURE_CHARS
from simlab.grading.version import grader_version
from tests.submissions import hidden
from tests.submissions.checkpoints import ANSWERS
from tests.submissions.grading import (
    check_answer,
    check_feedback,
    each_answer,
    exercise_of,
    graded,
)

QUESTIONS = ("pure-migration", "resume-guard", "cache-key")


@pytest.mark.jail
@each_answer(ANSWERS)
def test_does_each_answer_get_what_its_idea_is_worth(name, question, source, most, says):
    with judged_in(seed_for(source.encode(), grader_version())):
        grade = check_answer(question, source, most, says)
    check_feedback(name, grade.feedback, hidden.CHECKPOINTS)
    assert "..." not in grade.feedback, (name, grade.feedback)  # no failure was cut short


def test_does_every_guard_sentence_translate_and_fit():
    """Every change, alone or with another, at every position, with an answer as long as the
    kit's and each verdict: the sentence has its Chinese and is shown whole."""
    checkpoints = checkpoints_at()
    unchanged = example_world().to_dict()
    names = list(CHANGES)
    cases = [()] + [(a,) for a in names]
    cases += [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]
    seen = 0
    for changes in cases:
        for (task, position), cp in checkpoints.items():
            if not all(CHANGES[c][0](cp) for c in changes):
                continue
            world = unchanged
            for change in changes:
                world = CHANGES[change][1](world, cp)
            at = where(task, position, changes)
            for verdict in VERDICTS:
                said = gave(reference_codes(cp, world), verdict, at)
                assert untranslated(said) == [], said
                for lang in LANGS:
                    assert len(render(said, lang)) <= FAILURE_CHARS, render(said, lang)
                seen += 1
    assert seen > len(cases) * len(POSITIONS)
    drawn, in_world = drawn_world()
    every = CHANGES | WORLD_CHANGES
    played = [(at, cp, "world_at", {}) for at, cp in in_world.items()]
    played += [
        (at, cp, "world_at_status", {"status": repr(cp["status"])})
        for at, cp in not_running(in_world).items()
    ]
    for (n, position), cp, key, status in played:
        for label in (UNCHANGED, *every):
            if label != UNCHANGED and not every[label][0](cp):
                continue
            world = drawn if label == UNCHANGED else every[label][1](drawn, cp)
            at = say(key, n=n, position=repr(position), change=said_change(label), **status)
            for verdict in VERDICTS:
                said = gave(reference_codes(cp, world), verdict, at)
                assert untranslated(said) == [], said
                for lang in LANGS:
                    assert len(render(said, lang)) <= FAILURE_CHARS, render(said, lang)
    for n, label, case in falsy_sku_cases(drawn, in_world):
        sku = repr(FALSY_SKU)
        at = say("world_at_sku", n=n, position="'retrieve'", sku=sku, change=said_change(label))
        for verdict in VERDICTS:
            said = gave(case.truth, verdict, at)
            assert untranslated(said) == [], said
            for lang in LANGS:
                assert len(render(said, lang)) <= FAILURE_CHARS, render(said, lang)


def test_does_the_falsy_sku_stop_a_retrieve_as_any_sku_does():
    """In every world the checkpoint before retrieval whose goal's SKU is false but not None
    goes on while nothing changed and stops once its inventory tool is no longer granted or no
    longer deployed, where the same checkpoint with no SKU (None) goes on: a guard that tests
    the SKU for truth gives other codes."""
    for seed in SEEDS:
        with judged_in(seed):
            world, in_world = drawn_world()
        cases = falsy_sku_cases(world, in_world)
        assert [label for _, label, _ in cases][0] == UNCHANGED and len(cases) == 3
        for _, label, case in cases:
            assert case.cp["goal"]["sku"] is not None and not case.cp["goal"]["sku"]
            assert case.cp["next_step"] == "retrieve"
            none = {**case.cp, "goal": {**case.cp["goal"], "sku": None}}
            assert reference_codes(none, case.world) == []
            assert bool(case.truth) is (label != UNCHANGED), (seed, label, case.truth)


def test_are_the_generated_records_valid_and_the_kits_migration_pure_on_them():
    """Every generated v1 record is valid by the kit's own v1 layout, the kit's migration
    leaves it unchanged and loads like it, and the odd contents the properties are built on
    (an @ in a document ID, leading zeros, repeats, unsorted keys, an empty draft, either
    status at every step) are all drawn."""
    import copy

    from simlab.agent.checkpoint import load, migrate_v1_to_v2
    from simlab.grading.checks.checkpoints.generated import tell_v1, v1_checkpoints
    from simlab.grading.properties import falsify

    moves: set[str] = set()

    def holds(v1, story):
        before = copy.deepcopy(v1)
        v2 = migrate_v1_to_v2(v1)
        assert v1 == before
        assert load(v2).checkpoint.to_dict() | {"original": None} == load(
            v1
        ).checkpoint.to_dict() | {"original": None}
        tell_v1(v1, story)
        moves.update(map(str, story.moves))

    falsify(v1_checkpoints(), holds, examples=300)
    for step in range(4):
        for status in ("running", "completed"):
            assert f"a v1 checkpoint at step {step} ({status})" in moves
    for odd in ("an @", "leading zero", "citation repeated", "empty draft", "key repeated"):
        assert any(odd in move for move in moves), odd
    assert "sent keys out of order" in moves


def test_does_every_generated_story_translate_and_fit():
    """The stories of the generated properties (guard situations, request lists), with the
    longest sentence each property says, have their Chinese and fit one feedback line."""
    from simlab.grading.checks.checkpoints import cache, guard
    from simlab.grading.checks.checkpoints.changes import situations
    from simlab.grading.properties import falsify

    judge = guard._Judge(lambda cp, world: reference_codes(cp, world))
    guard_said = gave(["document-changed", "permission-revoked"], "missing_and_extra")
    cache_said = say("same_apart", i=1, j=2, field=say("permission_version"))

    def told(play, said):
        def holds(value, story):
            play(value, story)
            from simlab.grading.properties import _told
            from simlab.grading.questions import Fail

            told = _told(story, Fail(said)).said
            assert untranslated(told) == [], told
            for lang in LANGS:
                assert len(render(told, lang)) <= FAILURE_CHARS, render(told, lang)

        return holds

    falsify(
        situations(guard.EVERY_CHANGE, POSITIONS),
        told(lambda s, story: judge.played(s, story), guard_said),
        examples=300,
    )
    falsify(cache._requests(), told(cache._told, cache_said), examples=200)


#: Worlds a correct answer is graded in besides its own.
SEEDS = (1, 2**40 + 7, 987654321)
CORRECT = [
    (name, question, source)
    for name, question, source, most, _ in ANSWERS
    if most == exercise_of(question).question(question).points
]


@pytest.mark.jail
@pytest.mark.parametrize(
    ("name", "question", "source", "seed"),
    [(*answer, seed) for answer in CORRECT for seed in SEEDS],
    ids=[f"{answer[0]}-{seed}" for answer in CORRECT for seed in SEEDS],
)
def test_does_a_correct_answer_get_every_point_in_every_world(name, question, source, seed):
    with judged_in(seed):
        grade = graded(question, source)
    assert grade.points == grade.max_points, (name, seed, grade.feedback)


def test_are_the_worlds_drawn_anew_and_built_to_catch_what_foresees_them():
    """Two seeds draw two guard worlds; in each, every tenant with checkpoints stands beside a
    tenant whose name holds its own sorting before it and one after, and right before it one
    whose name its own holds (a grant found by a prefix of the tenant comes first), and before
    it its own name decomposed (a grant found by the NFC or NFD form comes first), its grant holds
    collections whose names hold its internal one or are held by it, every deployed tool's
    name is held by another deployed tool's, no cited version is the example's, and two
    questions differ only where one space falls."""
    import unicodedata

    from simlab.agent.retrieval import normalize_query
    from simlab.grading.checks.checkpoints.migration import drawn_v1
    from simlab.grading.checks.checkpoints.requests import drawn_requests

    seen = []
    for seed in SEEDS:
        with judged_in(seed):
            world, checkpoints = drawn_world()
            requests = drawn_requests()
            records = drawn_v1()
        seen.append((world, requests, records))
        names = [g["tenant"] for g in world["grants"]]
        assert names == sorted(names)
        for cp in checkpoints.values():
            tenant = cp["tenant"]
            assert tenant in WORLD_NAMES
            at = names.index(tenant)
            assert any(tenant in name for name in names[: at - 1]), names
            assert tenant in names[at + 1], names
            assert names[at - 1] != tenant and tenant.startswith(names[at - 1]), names
            # its decomposed form, another tenant with a live grant, sorts before it
            twin = unicodedata.normalize("NFD", tenant)
            assert twin != tenant and twin in names[:at], names
            scope = world["grants"][at]["collections"]
            internal = f"{tenant}-internal"
            if internal in scope:
                assert any(c != internal and internal in c for c in scope), scope
                assert any(c != internal and c in internal for c in scope), scope
        example = example_world().to_dict()
        cited = {(e["doc_id"], e["version"]) for cp in checkpoints.values() for e in cp["evidence"]}
        shown = {(d["doc_id"], d["version"]) for d in example["documents"]}
        assert cited and not cited & shown
        for tool in ("search", "model", "email", "inventory"):
            assert any(t != tool and t.startswith(tool) for t in world["tools"])
        questions, apart = requests
        assert any(same for *_, same in questions) and any(not same for *_, same in questions)
        # two other questions whose words differ only where one space falls: one entry for a
        # key that takes the normalised question's spaces out
        assert any(
            not same
            and normalize_query(a["query"]).replace(" ", "")
            == normalize_query(b["query"]).replace(" ", "")
            for a, b, same in questions
        )
        assert {field for *_, field in apart} == {"tenant", "permission_version", "index_version"}
        assert {r["step"] for r in records} == {0, 1, 2, 3}
    for a, b in zip(seen, seen[1:], strict=False):
        assert a[0] != b[0] and a[1] != b[1] and a[2] != b[2]


def test_does_every_name_the_guard_compares_stand_beside_its_look_alikes():
    """In each world, beside every document cited, its collection in the tenant's grant, every
    tool (granted to the tenant and deployed) and every stock figure cited: the
    same name in other capitals, with white space around it or in another Unicode form; a
    document or figure found under a look-alike has another version than the one cited, so a
    guard that folds, strips or normalises any of these names misjudges a change there. The
    tenant, a cited document's ID and a granted collection hold a composed accent, so their
    decomposed forms stand beside them too (the tools' names are the kit's, ASCII)."""
    import unicodedata

    from simlab.grading.checks.hidden_world import look_alikes

    for seed in SEEDS:
        with judged_in(seed):
            world, checkpoints = drawn_world()
        documents = {d["doc_id"]: d for d in world["documents"]}
        grants = {g["tenant"]: g for g in world["grants"]}
        decomposed = set()  # the kinds of names cited or granted that NFC composes back
        for cp in checkpoints.values():
            grant = grants[cp["tenant"]]
            if unicodedata.normalize("NFD", cp["tenant"]) in set(grants) - {cp["tenant"]}:
                decomposed.add("tenant")
            for tool in ("search", "model", "email", "inventory"):
                assert set(look_alikes(tool)) <= set(grant["tools"]) & set(world["tools"])
            for e in cp["evidence"]:
                if e["source"] == "retrieval":
                    collection = documents[e["doc_id"]]["collection"]
                    if collection in grant["collections"]:
                        assert set(look_alikes(collection)) <= set(grant["collections"])
                        if unicodedata.normalize("NFD", collection) != collection:
                            decomposed.add("collection")
                    if unicodedata.normalize("NFD", e["doc_id"]) in set(documents) - {e["doc_id"]}:
                        decomposed.add("document")
                    kept = {k: d["version"] for k, d in documents.items()}
                else:
                    kept = {k: figure["version"] for k, figure in world["stock"].items()}
                for twin in look_alikes(e["doc_id"]):
                    assert kept[twin] != e["version"], (e, twin)
        assert decomposed == {"tenant", "collection", "document"}, seed


def test_do_two_changes_at_once_meet_at_send_as_at_draft():
    """Two changes at once are judged at ``send`` alone (:data:`PAIR_POSITIONS`): every pair
    gives every task the very codes at ``draft`` it gives at ``send``, so no way two reasons
    meet is left out; and every pair applies to some checkpoint there."""
    assert PAIR_POSITIONS == ("send",)
    for pair in CHANGE_PAIRS:
        at_send = [(task, case.truth) for task, _, case in changed_cases(pair, ("send",))]
        at_draft = [(task, case.truth) for task, _, case in changed_cases(pair, ("draft",))]
        assert at_send == at_draft and at_send, pair
    assert len(CHANGE_PAIRS) == len(CHANGES) * (len(CHANGES) - 1) // 2


def test_do_the_drawn_records_cite_document_ids_in_another_unicode_form():
    """In each world the drawn v1 records cite a document ID that NFKC changes (a full-width
    character) and one that NFC changes (a decomposed accent), and the kit's migration keeps
    both as written: a migration that normalises IDs differs from it there."""
    import unicodedata

    from simlab.agent.checkpoint import migrate_v1_to_v2
    from simlab.grading.checks.checkpoints.migration import drawn_v1

    for seed in SEEDS:
        with judged_in(seed):
            records = drawn_v1()
        ids = [e["doc_id"] for r in records for e in migrate_v1_to_v2(r)["evidence"]]
        for form in ("NFKC", "NFC"):
            assert any(unicodedata.normalize(form, i) != i for i in ids), (seed, form)
        cited = [c.rpartition("@")[0] for r in records for c in r["evidence"]]
        assert ids == cited


def test_does_a_string_that_differs_say_how_without_its_type_alone():
    """Where the learner's string differs from the kit's, feedback says how (other capitals,
    another Unicode form, other text), never only "a str" (both are strings), and shows the
    learner's string only where the filter of messages shows it as itself."""
    from simlab.grading.checks.checkpoints.migration import _leaf_difference
    from simlab.grading.text import quiet_feedback

    cases = {
        "differs_form": ("ｋb/mixers", "kb/mixers"),
        "differs_case": ("KB/mixers", "kb/mixers"),
        "differs_text": ("draft", "send"),
    }
    for key, (answer, truth) in cases.items():
        with quiet_feedback():
            said = _leaf_difference(answer, truth, "evidence[0].doc_id")
        for lang in LANGS:
            shown = render(said, lang)
            assert shown == render(say(key, where="evidence[0].doc_id"), lang), shown
            assert "a str" not in shown and truth not in shown, shown
    said = _leaf_difference("draft", "send", "next_step")
    assert render(said, "en") == render(
        say("differs_text_shown", where="next_step", got="'draft'"), "en"
    )


def test_is_a_grant_revoked_after_a_loss_judged_with_permission_revoked_alone():
    """In each world, a grant that lost the internal collection (or the inventory tool) and
    was then revoked leaves a cited document (or stock figure) at its version that the lost
    scope no longer covers; the kit's guard says permission-revoked alone there."""
    from simlab.grading.checks.checkpoints.changes import REVOKED_AFTER_A_LOSS

    for seed in SEEDS:
        with judged_in(seed):
            world, checkpoints = drawn_world()
        uncovered = set()
        for cp in checkpoints.values():
            if cp["next_step"] == "done":
                continue
            for label in REVOKED_AFTER_A_LOSS:
                changed = WORLD_CHANGES[label][1](world, cp)
                assert reference_codes(cp, changed) == ["permission-revoked"], (seed, label)
                grant = next(g for g in changed["grants"] if g["tenant"] == cp["tenant"])
                docs = {d["doc_id"]: d for d in changed["documents"]}
                for e in cp["evidence"]:
                    if e["source"] == "retrieval":
                        covered = docs[e["doc_id"]]["collection"] in grant["collections"]
                    else:
                        covered = "inventory" in grant["tools"]
                    if not covered:
                        uncovered.add(label)
        assert uncovered == set(REVOKED_AFTER_A_LOSS), seed
