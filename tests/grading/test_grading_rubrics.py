"""Does every exercise's corpus hold what its rubric test needs, and does every printed rubric
name its core ideas without a hidden input?

One row of :data:`CORPORA` per exercise whose rubric tests grade a corpus of answers
(``tests/submissions/<exercise>.py``): the answers (each graded in its exercise's own module,
``test_grading_<exercise>_rubric.py``, in the sandbox, one module per exercise so the lanes
spread them), the questions they answer, the lines ``simlab grade --rubric`` must print, and
the words neither a feedback nor the printed rubric may show (:mod:`tests.submissions.hidden`).
The checks here need no sandbox.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest

from simlab.cli import main
from tests.submissions import checkpoints, events, fencing, hidden, histories, release, rubric
from tests.submissions.grading import check_corpus


@dataclass(frozen=True)
class Corpus:
    """An exercise's corpus of answers and what its printed rubric must and must not show."""

    answers: list[tuple]
    questions: tuple[str, ...]
    printed: tuple[str, ...] = ()
    #: words the printed rubric never shows (on top of ``hidden``)
    not_printed: tuple[str, ...] = ()
    hidden: Callable[[], list[str]] = list


FENCING = ("cancel-after-claim", "cancel-after-first-step", "cancel-limits")

CORPORA = {
    "fencing": Corpus(
        fencing.ANSWERS + [a for a in rubric.ANSWERS if a[1] in FENCING],
        FENCING,
        hidden=lambda: hidden.FENCING,
    ),
    "histories": Corpus(
        histories.ANSWERS,
        ("stale-commits", "choose-ttl"),
        printed=("[4] newer-epoch (core idea)", "[3] measured-trade-off (core idea)", "[1] tie"),
        hidden=lambda: hidden.histories(0),
    ),
    "checkpoints": Corpus(
        checkpoints.ANSWERS,
        ("pure-migration", "resume-guard", "cache-key"),
        printed=("[4] rechecks-now (core idea)", "[3] changes-the-answer (core idea)"),
        not_printed=("one point per hidden check",),  # every question has a rubric
        hidden=lambda: hidden.CHECKPOINTS,
    ),
    "release": Corpus(
        release.ANSWERS,
        ("injection-rule", "choose-threshold"),
        printed=(
            "[3] exact-host (core idea)",
            "[2] who-got-what",
            "[3] above-the-peak (core idea)",
            "[2] trip-rate",
        ),
        not_printed=("trailing-dot",),
        hidden=lambda: hidden.release(0),
    ),
    "events": Corpus(
        events.ANSWERS,
        ("absorber", "narrowing"),
        printed=("[3] once-in-order (core idea)", "[3] narrows (core idea)"),
        # the rubric prints weights as [4]
        hidden=lambda: sorted(set(hidden.events()) - {"[", "{"}),
    ),
}


@pytest.mark.parametrize("exercise", CORPORA)
def test_does_the_corpus_hold_alternatives_and_classic_mistakes_per_question(exercise):
    corpus = CORPORA[exercise]
    assert len({a[0] for a in corpus.answers}) == len(corpus.answers), "one name per answer"
    check_corpus(corpus.answers, corpus.questions)


@pytest.mark.parametrize("exercise", [e for e, c in CORPORA.items() if c.printed])
def test_does_the_rubric_print_its_criteria_without_hidden_inputs(exercise, capsys):
    corpus = CORPORA[exercise]
    assert main(["grade", "--rubric", exercise]) == 0
    out = capsys.readouterr().out
    for line in corpus.printed:
        assert line in out, line
    for word in (*corpus.not_printed, *corpus.hidden()):
        assert word not in out, word
    # the Chinese rubric is written by translators: it must not quote a hidden input either
    assert main(["grade", "--rubric", exercise, "--lang", "zh"]) == 0
    chinese = capsys.readouterr().out
    for word in (*corpus.not_printed, *corpus.hidden()):
        assert word not in chinese, word
