"""Chinese rules for the hidden checks' sentences of the rubrics: attacks, stories.

Each entry is ``(pattern, template[, nested[, terms]])`` for :func:`simlab.grading.i18n._r`;
:data:`simlab.grading.i18n.RULES` appends them after its own (wrappers first). Patterns are
matched whole (``fullmatch``), one module per exercise's checks; the words a sentence names from a
small set (:data:`CHECK_TERMS`) join :data:`simlab.grading.i18n.TERMS`.
"""

from __future__ import annotations

from simlab.grading.i18n_checks import checkpoints, events, histories, release
from simlab.grading.i18n_checks.terms import CHECK_TERMS, GUARD_CHANGES, GUARD_VERDICTS

__all__ = ["CHECK_PATTERNS", "CHECK_TERMS", "GUARD_CHANGES", "GUARD_VERDICTS"]

CHECK_PATTERNS: tuple[tuple, ...] = (
    *histories.PATTERNS,
    *checkpoints.PATTERNS,
    *release.PATTERNS,
    *events.PATTERNS,
)
