"""Hidden checks of exercise ``checkpoints`` (``04_checkpoints_and_resume.ipynb``).

Each answer is compared with the kit's own implementation on inputs the learner has not seen.
One module per question:

* ``pure-migration`` (:mod:`~simlab.grading.checks.checkpoints.migration`): ``migrate_v1_to_v2``
  on every v1 file of the regression corpus (``corpus/`` in this folder) and on hidden v1
  records, against :func:`simlab.agent.checkpoint.migrate_v1_to_v2`; the input must come back
  unchanged, and the result must be a valid v2 record that today's loader turns into the same
  latest checkpoint; the same three properties hold on generated v1 records with odd but valid
  contents (:mod:`~simlab.grading.checks.checkpoints.generated`), the input compared with the
  grader's own deep copy. Purity is the core idea.
* ``resume-guard`` (:mod:`~simlab.grading.checks.checkpoints.guard`): ``resume_guard(checkpoint,
  world)`` (plain dicts) against :func:`simlab.agent.guard.resume_guard`, for checkpoints of
  every example task at every graph position, in worlds changed one way and two ways at once,
  and in generated worlds (up to two changes drawn from more kinds, several of which change
  nothing the guard should stop for): the guard stops exactly when the kit's does.
  The core idea (rubric ``GUARD_RUBRIC``): every reason to stop is found in the world as it is
  now; exact codes and stock figures are details.
* ``cache-key`` (:mod:`~simlab.grading.checks.checkpoints.cache`): the learner's key plugged into
  the kit's :class:`~simlab.agent.Retriever`, replaying scripted searches between document edits
  and permission changes. The core idea (rubric ``CACHE_RUBRIC``): each search returns what an
  uncached search returns *now*, and the cache never serves or looks up an entry the kit's key
  keeps apart (another tenant's, an older grant's, an older index's), and on generated request
  lists two requests that differ in the tenant, the permission version or the index version
  never share a key; equal requests hitting exactly as with the kit's key, and keys equal only
  for equal requests whatever characters the fields hold, are a detail.

Each question is also judged in a world drawn for its grading
(:mod:`~simlab.grading.checks.hidden_world`), so no answer can foresee its inputs: v1 records
with drawn names and versions, some citing a document ID with white space around it
(:func:`~simlab.grading.checks.checkpoints.migration.drawn_v1`); the example world with its
tenants, task IDs, SKU and versions drawn anew beside tenants, collections and tools whose names
hold the real ones, tenants that differ from the real ones only in capitals, white space or
Unicode form, and a document whose ID is the SKU's
(:func:`~simlab.grading.checks.checkpoints.guard.drawn_world`), each task once more with a
status other than running (:func:`~simlab.grading.checks.checkpoints.guard.not_running`);
questions the notebook never asks, reworded, and request pairs that differ by a value holding
the other's, by the tenant's capitals, white space or Unicode form, or by an index version's
last digits (:func:`~simlab.grading.checks.checkpoints.requests.drawn_requests`). Feedback
never names what was drawn (each question's ``hidden``).
"""

from __future__ import annotations

from simlab.grading.checks.checkpoints.cache import CACHE_RUBRIC, cache_key_check
from simlab.grading.checks.checkpoints.guard import (
    GUARD_RUBRIC,
    checkpoints_at,
    reference_codes,
    resume_guard_check,
)
from simlab.grading.checks.checkpoints.guard_world import WORLD_NAMES
from simlab.grading.checks.checkpoints.migration import (
    CORPUS,
    HIDDEN_V1,
    HIDDEN_WORDS,
    MIGRATION_RUBRIC,
    pure_migration,
)
from simlab.grading.checks.checkpoints.requests import WORLD_WORDS
from simlab.grading.questions import Exercise, Question

__all__ = ["EXERCISE", "CORPUS", "HIDDEN_V1", "checkpoints_at", "reference_codes"]

EXERCISE = Exercise(
    id="checkpoints",
    notebook="04_checkpoints_and_resume.ipynb",
    title="Checkpoints that survive upgrades: migrate, guard, cache",
    questions=(
        Question(
            "pure-migration",
            "A pure migration from v1 to v2",
            5,
            ("migrate_v1_to_v2",),
            pure_migration,
            MIGRATION_RUBRIC,
            hidden=HIDDEN_WORDS,
        ),
        Question(
            "resume-guard",
            "The resume guard",
            6,
            ("resume_guard",),
            resume_guard_check,
            GUARD_RUBRIC,
            hidden=WORLD_NAMES,
        ),
        Question(
            "cache-key",
            "A permission-aware cache key",
            5,
            ("cache_key",),
            cache_key_check,
            CACHE_RUBRIC,
            hidden=WORLD_WORDS,
        ),
    ),
)
