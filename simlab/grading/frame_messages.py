"""The grader's own sentences, by ID (``grader.<key>``), in English (``EN``) and Chinese
(``ZH``): the lines around a check's sentence (how many checks passed, a story's moves, the note
on replaced helpers), the grader's wrappers, the submissions' file checks, the notebook run, the
sandbox and the learner's code raising. See :mod:`simlab.grading.messages` for how they are
rendered; ``verbatim`` is text shown as it is in every language."""

from __future__ import annotations

from simlab.i18n.catalog import tables

__all__ = ["EN", "ZH"]

EN, ZH = tables(__file__)
