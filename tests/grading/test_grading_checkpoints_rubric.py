"""Do the rubrics of ``resume-guard`` and ``cache-key`` weigh the core idea, and does their
feedback keep hidden inputs hidden?

Each answer of ``tests/submissions/checkpoints.py`` replaces one answer cell of
``solutions/04_checkpoints_and_resume.ipynb``; only that question's hidden check runs, in the real
sandbox (no kernel, one sandbox per answer). A correct alternative gets every point; a classic
mistake gets at most its listed points (at most half of the question for a mistake of the core
idea). Every feedback line is then scanned for the hidden inputs of the two checks (how the
world was changed under a paused task, the hidden tenants, documents and queries of the cache
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
    UNCHANGED,
    checkpoints_at,
    reference_codes,
)
from simlab.grading.i18n import untranslated
from simlab.grading.i18n_checks import GUARD_VERDICTS
from simlab.grading.questions import FAILURE_CHARS

QUESTIONS = ("resume-guard", "cache-key")
FEEDBACK: dict[str, str] = {}

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
    FEEDBACK[name] = grade.feedback


def test_does_the_corpus_hold_a_right_answer_and_two_mistakes_per_question():
    check_corpus(ANSWERS, QUESTIONS)


def test_does_every_classic_mistake_of_the_core_idea_lose_half():
    for question in QUESTIONS:
        q = exercise_of(question).question(question)
        core = sum(c.weight for c in q.rubric if c.core)
        assert q.rubric and 2 * core >= q.points, question
        assert all(c.mistakes for c in q.rubric if c.core), question


def test_does_feedback_keep_hidden_inputs_hidden_and_whole():
    assert len(FEEDBACK) == len(ANSWERS), "run with the answers above (same module)"
    for key, feedback in FEEDBACK.items():
        check_feedback(key, feedback, HIDDEN)
        assert "..." not in feedback, (key, feedback)  # no failure was cut short


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
            where = f"{task} at {position!r}, {' and '.join(changes) or UNCHANGED}"
            for verdict in GUARD_VERDICTS:
                sentence = f"{where}: resume_guard() gave {reference_codes(cp, world)}; {verdict}"
                assert untranslated(sentence) == [], sentence
                assert len(sentence) <= FAILURE_CHARS, sentence
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
