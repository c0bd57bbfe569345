"""Do the rubrics of ``pure-migration``, ``resume-guard`` and ``cache-key`` weigh the core idea,
and does their feedback keep hidden inputs hidden?

Each answer of ``tests/submissions/checkpoints.py`` replaces one answer cell of
``solutions/04_checkpoints_and_resume.ipynb``; only that question's hidden check runs, in the real
sandbox (no kernel, one sandbox per answer). A correct alternative gets every point; a classic
mistake gets at most its listed points (at most half of the question for a mistake of the core
idea). Every feedback line is then scanned for the hidden inputs of the checks (how the world
was changed under a paused task, the hidden tenants, documents and queries of the cache
scripts), and must be short enough to be shown whole.
"""

from __future__ import annotations

import pytest
from submissions.checkpoints import ANSWERS
from submissions.grading import check_answer, check_corpus, check_feedback, exercise_of

from simlab.agent.example import example_world
from simlab.cli import main
from simlab.grading.checks.checkpoints.guard import (
    CHANGES,
    POSITIONS,
    VERDICTS,
    checkpoints_at,
    gave,
    reference_codes,
    where,
)
from simlab.grading.checks.checkpoints.messages import say
from simlab.grading.messages import LANGS, render, untranslated
from simlab.grading.questions import FAILURE_CHARS

QUESTIONS = ("pure-migration", "resume-guard", "cache-key")

#: What the two checks use and the learner never sees: the text an edit writes, the cache
#: scripts' hidden tenant and document, and the rewritten question.
HIDDEN = [
    "Edited.",
    "initech",
    "warranty-plus",
    "three year warranty",
    "how fast   do ORDERS ship",
]


@pytest.mark.parametrize(
    ("name", "question", "source", "most", "says"),
    ANSWERS,
    ids=[a[0] for a in ANSWERS],
)
def test_does_each_answer_get_what_its_idea_is_worth(name, question, source, most, says):
    grade = check_answer(question, source, most, says)
    check_feedback(name, grade.feedback, HIDDEN)
    assert "..." not in grade.feedback, (name, grade.feedback)  # no failure was cut short


def test_does_the_corpus_hold_a_right_answer_and_two_mistakes_per_question():
    check_corpus(ANSWERS, QUESTIONS)


def test_does_every_classic_mistake_of_the_core_idea_lose_half():
    for question in QUESTIONS:
        q = exercise_of(question).question(question)
        core = sum(c.weight for c in q.rubric if c.core)
        assert q.rubric and 2 * core >= q.points, question
        assert all(c.mistakes for c in q.rubric if c.core), question


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


def test_does_the_rubric_name_the_core_idea_without_hidden_inputs(capsys):
    assert main(["grade", "--rubric", "checkpoints"]) == 0
    out = capsys.readouterr().out
    assert "[4] rechecks-now (core idea)" in out
    assert "[3] changes-the-answer (core idea)" in out
    assert "one point per hidden check" not in out  # every question has a rubric
    for word in HIDDEN:
        assert word not in out, word


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
        guard._situations(guard.EVERY_CHANGE, POSITIONS),
        told(lambda s, story: judge.played(s, story), guard_said),
        examples=300,
    )
    falsify(cache._requests(), told(cache._told, cache_said), examples=200)
