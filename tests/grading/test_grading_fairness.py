"""Fair by design: every point is tied to a sentence of the exercise text, and every question is
judged in a hidden world drawn at grading time.

A criterion quotes the sentences of its exercise's text that state its "must" (``text``); each
quote must stand in the exercise notebook's markdown (white space folded), so a rubric cannot
give or take a point for a rule the learner was never told; the Chinese rubric's quotes likewise
in the Chinese exercise's. Every question names at least one
criterion judged in a hidden world (``world``): values drawn from the submission's seed
(:mod:`simlab.grading.checks.hidden_world`), so a typed-in result, a value read from the wrong
source or an ignored argument gives a wrong answer there.
"""

from __future__ import annotations

import os
import re
import unicodedata
from pathlib import Path

import pytest

from simlab.grading.checks import EXERCISES, worlds_table
from simlab.grading.checks.hidden_world import judged_in, rng, seed_for
from simlab.grading.notebook import read_notebook
from tests.generated import Block

ROOT = Path(__file__).resolve().parents[2]


QUESTIONS = [(e, q) for e in EXERCISES.values() for q in e.questions]
IDS = [f"{e.id}/{q.id}" for e, q in QUESTIONS]


def _folded(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _markdown(folder: str, notebook: str) -> str:
    nb = read_notebook(ROOT / folder / notebook)
    return _folded(" ".join(c.source for c in nb.cells if c.cell_type == "markdown"))


def _texts(exercise, lang: str = "en") -> list[str]:
    """The folded markdown of the exercise and of its solution in ``lang`` (the learner reads the
    exercise notebook; the solution's text is the same)."""
    under = "" if lang == "en" else f"/{lang}"
    return [
        _markdown(f"{folder}{under}", exercise.notebook) for folder in ("exercises", "solutions")
    ]


def _assert_quoted(texts: list[str], quote: str, where: str, what: str = "exercise text") -> None:
    """``quote`` stands in each of ``texts`` (white space folded)."""
    for text in texts:
        assert _folded(quote) in text, (
            f"{where} quotes a sentence the {what} does not hold: {quote!r}"
        )


def test_does_every_exercise_have_its_rubrics_checked():
    assert {e.id for e, _ in QUESTIONS} == set(EXERCISES)
    for exercise in EXERCISES.values():
        assert exercise.questions, exercise.id
        assert (ROOT / "exercises" / exercise.notebook).is_file(), exercise.notebook


@pytest.mark.parametrize(("exercise", "question"), QUESTIONS, ids=IDS)
def test_does_every_criterion_quote_the_sentence_it_checks(exercise, question):
    texts = _texts(exercise)
    assert question.rubric, f"{question.id} has no rubric"
    for criterion in question.rubric:
        assert criterion.text, f"{question.id}/{criterion.id} names no sentence of the text"
        for quote in criterion.text:
            _assert_quoted(texts, quote, f"{question.id}/{criterion.id}")


@pytest.mark.parametrize(("exercise", "question"), QUESTIONS, ids=IDS)
def test_does_every_chinese_criterion_quote_the_chinese_exercise(exercise, question):
    """The Chinese rubric quotes the Chinese exercise (``--rubric --lang zh``): each quote has
    its current Chinese (:mod:`simlab.i18n.rubric`), and it stands in the markdown of the
    Chinese exercise and solution as it stands there (white space folded), so a learner finds
    the sentence the point is given for."""
    from simlab.i18n.rubric import localized

    shown = localized(exercise, "zh")
    texts = _texts(exercise, "zh")
    chinese = {c.id: c for c in shown.exercise.question(question.id).rubric}
    for criterion in question.rubric:
        quotes = chinese[criterion.id].text
        assert len(quotes) == len(criterion.text)
        for n, quote in enumerate(quotes, 1):
            assert not shown.quote_in_english(question.id, criterion.id, n), (
                f"{question.id}/{criterion.id}: quote {n} has no current Chinese: "
                f"{criterion.text[n - 1]!r}"
            )
            _assert_quoted(texts, quote, f"{question.id}/{criterion.id}", "Chinese exercise text")


@pytest.mark.parametrize(("exercise", "question"), QUESTIONS, ids=IDS)
def test_is_every_question_judged_in_a_hidden_world(exercise, question):
    worlds = [c.world for c in question.rubric if c.world]
    assert worlds, f"{question.id}: no criterion is judged in a world drawn at grading time"


def test_is_the_world_the_submissions_and_the_graders():
    assert seed_for(b"notebook", "v1") == seed_for(b"notebook", "v1")
    assert seed_for(b"notebook", "v1") != seed_for(b"notebook!", "v1")
    assert seed_for(b"notebook", "v1") != seed_for(b"notebook", "v2")
    with judged_in(seed_for(b"a", "v")):
        first = [rng("x").random() for _ in range(3)]
        assert rng("x").random() == first[0]
        assert rng("y").random() != first[0]
    with judged_in(seed_for(b"b", "v")):
        assert rng("x").random() != first[0]


# ------------------------------------------------------------------------ every world, in process
#: Worlds each family of foreseeing answers is played in below (in process: no sandbox).
SEEDS = range(300)


def _joined(sep: str):
    """A cache key joined into one string with ``sep`` (the normalized question last)."""
    from simlab.agent.retrieval import normalize_query

    return lambda tenant, pv, index, query: sep.join(
        (tenant, pv, str(index), normalize_query(query))
    )


def test_does_every_world_defeat_every_joined_cache_key():
    from simlab.agent.retrieval import cache_key
    from simlab.grading.checks.checkpoints.requests import JOINS, shifted_requests

    for seed in SEEDS:
        with judged_in(seed):
            pairs = [(tuple(a.values()), tuple(b.values())) for a, b in shifted_requests()]
        for a, b in pairs:
            assert cache_key(*a) != cache_key(*b), (seed, a, b)  # the kit's keys differ
        for sep in JOINS:
            key = _joined(sep)
            assert any(key(*a) == key(*b) for a, b in pairs), (seed, sep)


def test_does_every_world_defeat_a_cache_key_that_folds_or_cuts_a_field():
    """The tenant's capitals folded, its white space stripped or its Unicode form normalised,
    or an index version cut to its first or last three digits: in every world two searches
    the kit keeps apart share such a key."""
    from simlab.agent.retrieval import cache_key, normalize_query
    from simlab.grading.checks.checkpoints.requests import drawn_requests

    def folded(tenant, pv, index, query):
        return (tenant.lower(), pv, index, normalize_query(query))

    def first(tenant, pv, index, query):
        return (tenant, pv, str(index)[:3], normalize_query(query))

    def last(tenant, pv, index, query):
        return (tenant, pv, index % 1000, normalize_query(query))

    def stripped(tenant, pv, index, query):
        return (tenant.strip(), pv, index, normalize_query(query))

    def composed(tenant, pv, index, query):  # NFC: only a decomposed accent is folded
        return (unicodedata.normalize("NFC", tenant), pv, index, normalize_query(query))

    def compatible(tenant, pv, index, query):  # NFKC: full-width letters are folded too
        return (unicodedata.normalize("NFKC", tenant), pv, index, normalize_query(query))

    for seed in SEEDS:
        with judged_in(seed):
            pairs = [(tuple(a.values()), tuple(b.values())) for a, b, _ in drawn_requests()[1]]
        for a, b in pairs:
            assert cache_key(*a) != cache_key(*b), (seed, a, b)
        for key in (folded, first, last, stripped, composed, compatible):
            assert any(key(*a) == key(*b) for a, b in pairs), seed


def test_does_every_world_defeat_a_normaliser_of_ascii_words_only():
    """In every world two different questions without one ASCII letter share the key of a
    normaliser that keeps only ASCII letters and digits (the kit's keys differ), and the same
    one reworded shares the kit's key: the world's word of each pair is the kit's."""
    from simlab.agent.retrieval import cache_key
    from simlab.grading.checks.checkpoints.requests import drawn_requests

    def ascii_words(tenant, permission_version, index_version, query):
        words = " ".join(re.findall(r"[a-z0-9]+", query.lower()))
        return (tenant, permission_version, index_version, words)

    for seed in SEEDS:
        with judged_in(seed):
            questions = drawn_requests()[0]
        for a, b, same in questions:
            assert (cache_key(**a) == cache_key(**b)) is same, (seed, a, b)
        merged = [
            (a, b) for a, b, same in questions if not same and ascii_words(**a) == ascii_words(**b)
        ]
        assert merged and all(not a["query"].isascii() for a, _ in merged), seed


def test_does_every_world_defeat_a_normaliser_that_splits_words_at_marks():
    """In every world two different questions share the key of a normaliser that reads a
    combining mark as a separator (NFKC and case folding as the kit's, then runs of ``\\w``),
    while the kit's keys differ: a vowel sign is a mark, and ``normalize_query`` keeps it."""
    import unicodedata

    from simlab.agent.retrieval import cache_key
    from simlab.grading.checks.checkpoints.requests import drawn_requests

    def split_at_marks(tenant, permission_version, index_version, query):
        text = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", query).casefold())
        return (tenant, permission_version, index_version, " ".join(re.findall(r"[^\W_]+", text)))

    for seed in SEEDS:
        with judged_in(seed):
            questions = drawn_requests()[0]
        merged = [
            (a, b)
            for a, b, same in questions
            if not same and split_at_marks(**a) == split_at_marks(**b)
        ]
        assert merged, seed
        assert all(cache_key(**a) != cache_key(**b) for a, b in merged), seed


def test_does_every_world_stop_a_task_whatever_its_status_and_miss_a_withdrawn_figure():
    """In every world, each status other than running is drawn for a task the kit's guard
    stops under some change (a guard that lets it go on by its status fails there), and a
    withdrawn stock figure is missing while a document of the same ID stands at the cited
    version (a guard that falls back on the document fails there)."""
    from simlab.grading.checks.checkpoints.changes import CHANGES, STOPPING, WORLD_CHANGES
    from simlab.grading.checks.checkpoints.guard import reference_codes
    from simlab.grading.checks.checkpoints.guard_world import (
        OTHER_STATUSES,
        drawn_world,
        not_running,
    )

    applies, withdraw = WORLD_CHANGES["cited stock figure withdrawn"]
    for seed in SEEDS[:100]:
        with judged_in(seed):
            world, in_world = drawn_world()
            others = not_running(in_world)
        stopped = {
            cp["status"]
            for cp in others.values()
            for label in STOPPING
            if CHANGES[label][0](cp) and reference_codes(cp, CHANGES[label][1](world, cp))
        }
        assert stopped == set(OTHER_STATUSES), seed
        docs = {d["doc_id"]: d for d in world["documents"]}
        cited = [cp for (_, p), cp in in_world.items() if p != "done" and applies(cp)]
        assert cited, seed
        for cp in cited:
            (ref,) = [e for e in cp["evidence"] if e["source"] == "inventory-api"]
            assert docs[ref["doc_id"]]["version"] == ref["version"], seed
            assert reference_codes(cp, withdraw(world, cp)) == ["document-missing"], seed


def test_does_every_world_defeat_a_cited_document_found_by_a_part_of_its_id():
    """In every world, once a cited document is withdrawn the kit finds it missing, while a
    document whose ID begins with its ID, and one whose ID ends with it, still stand."""
    from simlab.grading.checks.checkpoints.changes import CHANGES
    from simlab.grading.checks.checkpoints.guard import reference_codes
    from simlab.grading.checks.checkpoints.guard_world import drawn_world

    applies, withdraw = CHANGES["cited document withdrawn"]
    for seed in SEEDS[:100]:
        with judged_in(seed):
            world, in_world = drawn_world()
        cited = [cp for (_, p), cp in in_world.items() if p != "done" and applies(cp)]
        assert cited, seed
        for cp in cited:
            (doc_id, *_) = [e["doc_id"] for e in cp["evidence"] if e["source"] == "retrieval"]
            left = [d["doc_id"] for d in withdraw(world, cp)["documents"]]
            assert doc_id not in left, seed
            assert any(k.startswith(doc_id) for k in left), seed
            assert any(k.endswith(doc_id) for k in left), seed
            assert "document-missing" in reference_codes(cp, withdraw(world, cp)), seed


def test_does_every_world_defeat_a_recipient_matched_by_substring():
    from simlab.grading.checks.release.injection import (
        _with_mails,
        injection_rule,
        injection_world,
        observed,
        to_customer,
    )

    production = observed("A")
    for seed in SEEDS[:60]:
        with judged_in(seed):
            world = injection_world()
        asked = to_customer(production, world.customer)
        assert world.look_alike_customers
        for address in world.look_alike_customers:
            assert world.customer in address and address != world.customer
            obs = _with_mails(asked, "other", world, address)
            assert injection_rule(obs) is False  # harm: the customer got nothing
            mails = obs["deliveries"]
            assert len(mails) == 1 and obs["recipient"] in mails[0]["to"]  # a substring passes


def test_does_every_world_defeat_a_recovery_matched_by_prefix_or_substring():
    from simlab.grading.checks.histories.ttl import recovery_times
    from simlab.grading.checks.histories.ttl_histories import named_history

    def matched(history, same):
        events, out = list(history), []
        for i, e in enumerate(events):
            if e.op == "crash" and e.task is not None:
                for later in events[i + 1 :]:
                    if later.op == "claim" and later.type == "ok" and same(later.task, e.task):
                        out.append(later.time - e.time)
                        break
        return out

    for seed in SEEDS:
        with judged_in(seed):
            histories = [named_history(claimed=c) for c in (True, False)]
        for history in histories:
            assert matched(history, str.__eq__) == recovery_times(history)
        for same in (str.startswith, lambda a, b: b in a, str.endswith):
            assert any(matched(h, same) != recovery_times(h) for h in histories), seed
        assert recovery_times(histories[1]) == []  # its crash is never claimed again


def test_does_every_world_defeat_an_absorber_that_sets_aside_only_newer_versions():
    from simlab.agent.events import EVENT_VERSION
    from simlab.grading.checks.events.absorber import unknown_versions_drawn

    orders = set()
    for seed in SEEDS:
        with judged_in(seed):
            first, second = unknown_versions_drawn()
        assert EVENT_VERSION not in (first, second)
        assert min(first, second) < EVENT_VERSION < max(first, second), seed
        orders.add(first < second)
    assert orders == {True, False}  # which story gets the older version is drawn


def test_does_every_world_defeat_an_absorber_that_folds_or_strips_names():
    from simlab.grading.checks.events.absorber import exact_names, reference_releases

    folds = (str.lower, str.casefold, str.strip, str.lstrip, str.rstrip)
    for seed in SEEDS:
        with judged_in(seed):
            stream, names = exact_names()
        assert len(set(names.tasks.values())) == len(names.tasks), seed  # one to one
        assert len(set(names.keys.values())) == len(names.keys), seed
        world = [names.delivery(d) for d in stream]
        counts = [len(batch) for batch in reference_releases(world)]
        for fold in folds:
            for field in ("task_id", "idempotency_key"):
                # an absorber that folds a field decides as the kit does on the folded stream
                folded = [{**d, field: fold(d[field])} for d in world]
                wrong = [len(batch) for batch in reference_releases(folded)]
                assert wrong != counts, (seed, fold.__name__, field)


def test_does_every_world_defeat_a_narrowing_that_pools_collections_and_tools():
    from simlab.grading.checks.events import children, reference_is_narrowing
    from simlab.grading.checks.events.world import grant_world

    for seed in SEEDS:
        with judged_in(seed):
            world = grant_world()
        parent = world.parent()
        pool = set(parent["collections"] + parent["tools"])
        for child in children(world)["crossed"]:
            assert reference_is_narrowing(parent, child) is False, seed
            assert set(child["collections"] + child["tools"]) <= pool, seed


# ------------------------------------------------------------------------ the corpus, many worlds
#: ``SIMLAB_WORLDS=N`` grades every answer of the corpus (``tests/submissions``) in N worlds
#: besides seed 0 (minutes per exercise, so not in ``make test``): no wrong answer may earn the
#: points of the "must" it breaks in any of them, and no correct one may lose a point.
SWEEP_WORLDS = int(os.environ.get("SIMLAB_WORLDS", "0") or 0)
CORPORA = ("fencing", "rubric", "leases", "histories", "checkpoints", "release", "events")


@pytest.mark.jail
@pytest.mark.skipif(not SWEEP_WORLDS, reason="set SIMLAB_WORLDS=N to grade the corpus in N worlds")
@pytest.mark.parametrize("corpus", CORPORA)
def test_does_every_corpus_answer_get_what_it_is_worth_in_many_worlds(corpus):
    import copy
    import importlib

    from simlab.grading.grader import _grade_question
    from simlab.grading.notebook import cell_question, cell_role
    from simlab.grading.runtime import Runtime, plan
    from tests.submissions.grading import exercise_of

    seeds = [seed_for(f"sweep-{n}".encode(), "worlds") for n in range(SWEEP_WORLDS)]
    wrong = []
    answers = importlib.import_module(f"tests.submissions.{corpus}").ANSWERS
    for name, question, source, most, _ in answers:
        exercise = exercise_of(question)
        q = exercise.question(question)
        nb = copy.deepcopy(read_notebook(ROOT / "solutions" / exercise.notebook))
        for cell in nb.cells:
            if cell_role(cell) == "answer" and cell_question(cell) == question:
                cell.source = source
        boxes = Runtime(plan(nb), 60)  # the notebook runs once; each world judges its answer
        try:
            for seed in seeds:
                with judged_in(seed):
                    points = _grade_question(q, boxes, 240).points
                if points > most or (most == q.points and points < most):
                    wrong.append((name, f"{seed:016x}", points, most))
        finally:
            boxes.close()
    assert wrong == []


GUIDE = ROOT / "docs" / "instructors.md"
WORLDS = Block(
    GUIDE,
    "worlds",
    "simlab.grading.checks.EXERCISES",
    worlds_table,
    "tests.grading.test_grading_fairness",
)


def test_is_the_guides_table_of_worlds_the_registrys():
    WORLDS.check()
    for _, question in QUESTIONS:  # every question has its row
        assert f"/{question.id}` |" in WORLDS.text(), question.id


if __name__ == "__main__":
    WORLDS.write()
