"""Fair by design: every point is tied to a sentence of the exercise text, and every question is
judged in a hidden world drawn at grading time.

A criterion quotes the sentences of its exercise's text that state its "must" (``text``); each
quote must stand in the exercise notebook's markdown (white space folded), so a rubric cannot
give or take a point for a rule the learner was never told. Every question names at least one
criterion judged in a hidden world (``world``): values drawn from the submission's seed
(:mod:`simlab.grading.checks.hidden_world`), so a typed-in result, a value read from the wrong
source or an ignored argument gives a wrong answer there.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from simlab.grading.checks import EXERCISES, worlds_table
from simlab.grading.checks.hidden_world import judged_in, rng, seed_for
from simlab.grading.notebook import read_notebook

ROOT = Path(__file__).resolve().parents[2]


QUESTIONS = [(e, q) for e in EXERCISES.values() for q in e.questions]
IDS = [f"{e.id}/{q.id}" for e, q in QUESTIONS]


def _folded(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _markdown(folder: str, notebook: str) -> str:
    nb = read_notebook(ROOT / folder / notebook)
    return _folded(" ".join(c.source for c in nb.cells if c.cell_type == "markdown"))


def test_does_every_exercise_have_its_rubrics_checked():
    assert {e.id for e, _ in QUESTIONS} == set(EXERCISES)
    for exercise in EXERCISES.values():
        assert exercise.questions, exercise.id
        assert (ROOT / "exercises" / exercise.notebook).is_file(), exercise.notebook


@pytest.mark.parametrize(("exercise", "question"), QUESTIONS, ids=IDS)
def test_does_every_criterion_quote_the_sentence_it_checks(exercise, question):
    # the learner reads the exercise notebook; the solution's text is the same
    texts = [_markdown(folder, exercise.notebook) for folder in ("exercises", "solutions")]
    assert question.rubric, f"{question.id} has no rubric"
    for criterion in question.rubric:
        assert criterion.text, f"{question.id}/{criterion.id} names no sentence of the text"
        for quote in criterion.text:
            for text in texts:
                assert _folded(quote) in text, (
                    f"{question.id}/{criterion.id} quotes a sentence the exercise text does "
                    f"not hold: {quote!r}"
                )


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


GUIDE = ROOT / "docs" / "instructors.md"
WORLDS = re.compile(
    r"(<!-- worlds: generated from simlab.grading.checks.EXERCISES -->\n)(.*?)"
    r"(<!-- worlds: end -->)",
    re.S,
)


def test_is_the_guides_table_of_worlds_the_registrys():
    found = WORLDS.search(GUIDE.read_text())
    assert found, "docs/instructors.md lost its worlds markers"
    assert found.group(2) == worlds_table(), "run: python tests/grading/test_grading_fairness.py"
    for _, question in QUESTIONS:  # every question has its row
        assert f"/{question.id}` |" in found.group(2), question.id


if __name__ == "__main__":
    text = GUIDE.read_text()
    GUIDE.write_text(WORLDS.sub(lambda m: m.group(1) + worlds_table() + m.group(3), text))
