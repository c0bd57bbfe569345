"""Exercises, solutions and the automatic grader.

For learners, the names of :mod:`simlab.learn` (also importable from here): ``self_check``
(the public checks in the notebooks), :func:`reveal` (the answer to a prediction made before an
experiment), :class:`PiecesLedger` (plug your ledger pieces into the real ledger) and
:func:`run_worker` (the chapter's worker in a separate process).

For instructors: :func:`grade` (what ``simlab grade`` runs) and :func:`build_exercises` (what
``simlab build-exercises`` runs). The grader's parts, in the order a submission meets them:

* :mod:`~simlab.grading.notebook`: cell conventions, building ``exercises/`` from
  ``solutions/``;
* :mod:`~simlab.grading.sandbox` (the jail, the grader's and the sandbox's sides, the frames and
  the JSON between them): the notebook's run and the student's code in one separate, jailed
  runtime;
* :mod:`~simlab.grading.checks` (the hidden checks, written with
  :mod:`~simlab.grading.questions` and :mod:`~simlab.grading.student`, plugged in through
  :mod:`~simlab.learn.pieces`);
* :mod:`~simlab.grading.grader` (points, feedback, batches), :mod:`~simlab.grading.report`,
  :mod:`~simlab.cli.grade` (the CLI) and :mod:`~simlab.bench.grading`.

The grader's modules are imported on first use, so a notebook's ``import`` stays light.
"""

from __future__ import annotations

from simlab.lazy import served
from simlab.learn import CheckFailed, reveal, self_check

__all__ = [
    "self_check",
    "reveal",
    "CheckFailed",
    "PiecesLedger",
    "run_worker",
    "grade",
    "grade_notebook",
    "NotebookGrade",
    "QuestionGrade",
    "build_exercises",
    "EXERCISES",
]

_LAZY = {
    "PiecesLedger": "simlab.learn.pieces",
    "run_worker": "simlab.learn.pieces",
    "grade": "simlab.grading.grader",
    "grade_notebook": "simlab.grading.grader",
    "NotebookGrade": "simlab.grading.grader",
    "QuestionGrade": "simlab.grading.grader",
    "build_exercises": "simlab.grading.notebook",
    "EXERCISES": "simlab.grading.checks",
}


__getattr__, __dir__ = served("simlab.grading", _LAZY)
