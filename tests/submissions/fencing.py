"""More answers to exercise ``fencing`` (``01_fencing_and_cancellation.ipynb``), one per "must"
of its text, in the format of :mod:`submissions.leases` ``(name, question, source, points at
most, words in the feedback)``: a wrong answer breaks only its sentence, a correct one is
written otherwise than the solution. The first answers of the exercise are in
:mod:`submissions.rubric` (graded by ``test_grading_rubric.py``).
"""

from __future__ import annotations

# --- cancel-after-claim ---------------------------------------------------------------------

_CANCEL = """
def cancel(state):
    if state["status"] in ("completed", "cancelled"):
        return False
    state["status"] = "cancelled"
    state["epoch"] += 1
    return True
"""

_REQUEUE = """
def requeue(state):
    if state["status"] != "cancelled":
        return False
    state["status"] = "queued"
    REQUEUE_EPOCH
    return True
"""

# requeue lowers the epoch again: every hand-picked story passes (the pre-cancel epoch stays
# fenced), but the next claim gets the epoch the cancel had already used (the core idea).
REQUEUE_LOWERS = _CANCEL + _REQUEUE.replace("REQUEUE_EPOCH", 'state["epoch"] -= 1')

# requeue raises the epoch (the fence holds; the text says it keeps the epoch: a detail).
REQUEUE_RAISES = _CANCEL + _REQUEUE.replace("REQUEUE_EPOCH", 'state["epoch"] += 1')

# requeue takes back any unfinished task, a running one too (a detail).
REQUEUE_ANY_UNFINISHED = _CANCEL + _REQUEUE.replace(
    'if state["status"] != "cancelled":', 'if state["status"] == "completed":'
).replace("REQUEUE_EPOCH", "pass")

# A table of moves: written otherwise than the solution, correct.
TRANSITIONS = """
NEXT = {"cancel": {"queued": "cancelled", "running": "cancelled"},
        "requeue": {"cancelled": "queued"}}


def _move(state, action, bump):
    target = NEXT[action].get(state["status"])
    if target is None:
        return False
    state["status"] = target
    state["epoch"] = state["epoch"] + bump
    return True


def cancel(state):
    return _move(state, "cancel", 1)


def requeue(state):
    return _move(state, "requeue", 0)
"""

# --- cancel-limits --------------------------------------------------------------------------

_PLAYED = """
def what_cancel_does(path):
    mailbox = Mailbox()
    with Ledger(path) as ledger:
        ledger.submit("t1")
        lease = ledger.claim("t1", "w1", 60)
        ledger.save(lease, 1)
        if ledger.record_effect(lease, "t1:email"):
            mailbox.send("t1:email")
        ledger.cancel("t1")
        save_refused = not ledger.save(lease, 2)
        effect_refused = not ledger.record_effect(lease, "t1:reminder")
        try:
            ledger.claim("t1", "w2", 60)
            claim_refused = False
        except TerminalTask:
            claim_refused = True
        rolled_back = ledger.get("t1").step < 1
        ledger.requeue("t1")
        restarted = ledger.claim("t1", "w3", 60).step == 0
    return FACTS
"""

# The story played on the ledger file, then every answer typed in: the file shows the story
# ran, but on ledgers built otherwise the typed facts are wrong (nothing is measured).
TYPED_AFTER_STORY = _PLAYED.replace(
    "FACTS",
    """{"later_save_refused": True, "later_effect_refused": True, "new_claim_refused": True,
            "email_recalled": False, "step_rolled_back": False,
            "requeue_restarts_from_zero": False}""",
)

# The refusals measured, what stays typed in (the detail criterion is lost).
HALF_TYPED = _PLAYED.replace(
    "FACTS",
    """{"later_save_refused": save_refused, "later_effect_refused": effect_refused,
            "new_claim_refused": claim_refused, "email_recalled": False,
            "step_rolled_back": False, "requeue_restarts_from_zero": False}""",
)

# Everything measured, the e-mail read otherwise and the kit imported inside the function.
MEASURED_OTHERWISE = """
def what_cancel_does(path):
    from simlab.ledger import Ledger as SqliteLedger
    from simlab.sim import mailbox as outside

    box = outside.Mailbox()
    ledger = SqliteLedger(path)
    try:
        ledger.submit("t1")
        lease = ledger.claim("t1", "w1", 60)
        assert ledger.save(lease, 1)
        if ledger.record_effect(lease, "t1:email"):
            box.send("t1:email")
        ledger.cancel("t1")
        facts = {}
        facts["new_claim_refused"] = True
        try:
            ledger.claim("t1", "w9", 60)
            facts["new_claim_refused"] = False
        except TerminalTask:
            pass
        facts["step_rolled_back"] = ledger.get("t1").step == 0
        facts["later_effect_refused"] = ledger.record_effect(lease, "t1:sms") is False
        facts["later_save_refused"] = ledger.save(lease, 2) is False
        facts["email_recalled"] = "t1:email" not in box.received
        assert ledger.requeue("t1") or True
        facts["requeue_restarts_from_zero"] = ledger.claim("t1", "w4", 60).step == 0
        return facts
    finally:
        ledger.close()
"""

ANSWERS = [
    ("transitions", "cancel-after-claim", TRANSITIONS, 6, "all"),
    ("requeue-lowers", "cancel-after-claim", REQUEUE_LOWERS, 3, "which the cancel had already"),
    ("requeue-raises", "cancel-after-claim", REQUEUE_RAISES, 4, "requeue must keep the epoch"),
    (
        "requeue-any",
        "cancel-after-claim",
        REQUEUE_ANY_UNFINISHED,
        4,
        "task returned True, expected False",
    ),
    ("measured-otherwise", "cancel-limits", MEASURED_OTHERWISE, 5, "all"),
    ("typed-after-story", "cancel-limits", TYPED_AFTER_STORY, 0, "do not type it in"),
    ("half-typed", "cancel-limits", HALF_TYPED, 3, "measure each one"),
]
