"""Hidden checks of exercise ``leases`` (``02_leases_effects_and_loop.ipynb``).

Ledger pieces are graded the way they will be used: plugged into the kit's SQLite ledger, which
the grader keeps (the pieces run in the sandbox, their statements on the grader's connection:
:mod:`simlab.grading.lending`), and driven from here, first case by case on a clock the check
controls, on generated sequences beside the kit's ledger, then by the fault simulator under
every schedule of at most one fault over a small scope, the checker judging each history
(:mod:`~simlab.grading.checks.leases.driving`); every classic mistake the simulator can see
breaks a rule there in every world (``tests/grading/test_grading_faults.py``). One module per
question:

* ``atomic-claim`` (:mod:`~simlab.grading.checks.leases.claim`): ``claim`` and ``heartbeat``
  (SQL), including the chapter's race replayed deterministically by the grader
  (:mod:`~simlab.grading.checks.leases.race`): a second worker claims right after the first
  statement of a claim.
* ``idempotent-send`` (:mod:`~simlab.grading.checks.leases.effects`): ``record_effect`` (SQL) and
  ``send_step`` (the worker's side of idempotency), including a crash after the e-mail left; in
  the explored runs ``send_step`` sends every e-mail.
* ``worker-loop`` (:mod:`~simlab.grading.checks.leases.loop`): ``run_task``, against a ledger
  on which someone else cancels or takes over the task at chosen moments.
"""

from __future__ import annotations

from simlab.grading.checks.leases.claim import CLAIM_RUBRIC, atomic_claim
from simlab.grading.checks.leases.effects import EFFECT_RUBRIC, idempotent_send
from simlab.grading.checks.leases.loop import LOOP_RUBRIC, worker_loop
from simlab.grading.questions import Exercise, Question

__all__ = ["EXERCISE"]

EXERCISE = Exercise(
    id="leases",
    notebook="02_leases_effects_and_loop.ipynb",
    title="Leases, side effects and the worker loop",
    questions=(
        Question(
            "atomic-claim",
            "An atomic claim with lease expiry, and a fenced heartbeat",
            10,
            ("claim", "heartbeat"),
            atomic_claim,
            CLAIM_RUBRIC,
        ),
        Question(
            "idempotent-send",
            "An idempotent side effect",
            9,
            ("record_effect", "send_step"),
            idempotent_send,
            EFFECT_RUBRIC,
        ),
        Question("worker-loop", "The worker loop", 6, ("run_task",), worker_loop, LOOP_RUBRIC),
    ),
)
