"""Answers to the questions whose rubric weighs the core idea (exercises ``fencing`` and
``checkpoints``): correct alternatives and classic mistakes, in the format of
:mod:`submissions.leases` ``(name, question, source, points at most, words in the feedback)``.
"""

from __future__ import annotations

# --- cancel-after-claim ---------------------------------------------------------------------

DICT_UPDATE_CANCEL = """
TERMINAL = {"completed", "cancelled"}


def cancel(state):
    if state["status"] in TERMINAL:
        return False
    state.update(status="cancelled", epoch=state["epoch"] + 1)
    return True


def requeue(state):
    if state["status"] == "cancelled":
        state.update(status="queued")
        return True
    return False
"""

# The status alone stops the commit today; the epoch does not move (the core idea is missed).
NO_BUMP = """
def cancel(state):
    if state["status"] in ("completed", "cancelled"):
        return False
    state["status"] = "cancelled"
    return True


def requeue(state):
    if state["status"] != "cancelled":
        return False
    state["status"] = "queued"
    return True
"""

# requeue resets the epoch: the next claim gets an epoch a lease or the cancel already had.
REQUEUE_RESETS = """
def cancel(state):
    if state["status"] in ("completed", "cancelled"):
        return False
    state["status"] = "cancelled"
    state["epoch"] += 1
    return True


def requeue(state):
    if state["status"] != "cancelled":
        return False
    state["status"] = "queued"
    state["epoch"] = 0
    return True
"""

# Cancels anything, finished or not (a detail).
CANCELS_FINISHED = """
def cancel(state):
    if state["status"] == "cancelled":
        return False
    state["status"] = "cancelled"
    state["epoch"] += 1
    return True


def requeue(state):
    if state["status"] != "cancelled":
        return False
    state["status"] = "queued"
    return True
"""

# --- pure-migration -------------------------------------------------------------------------

DEEPCOPY_MIGRATION = """
import copy


def migrate_v1_to_v2(v1):
    old = copy.deepcopy(v1)
    return {
        "schema_version": 2,
        "graph_version": old["graph_version"],
        "tenant": old["tenant"],
        "task_id": old["task_id"],
        "status": old["status"],
        "next_step": V1_STEPS[old["step"]],
        "goal": {"query": old.pop("query"), "recipient": old.pop("recipient")},
        "evidence": [
            {"doc_id": ref.rsplit("@", 1)[0], "version": int(ref.rsplit("@", 1)[1])}
            for ref in old["evidence"]
        ],
        "draft": old["draft"],
        "approval": {"required": False, "approved": False, "by": None},
        "sent": old["sent"],
    }
"""

# The result's `sent` is the input's list: JSON cannot see it, the sandbox can.
SHARED_SENT = DEEPCOPY_MIGRATION.replace("old = copy.deepcopy(v1)", "old = dict(v1)")

# Migrates in place: pops the old fields off the input.
IN_PLACE = DEEPCOPY_MIGRATION.replace("old = copy.deepcopy(v1)", "old = v1")

# Splits at the first @ (a detail: one hidden record has an @ in its document ID).
FIRST_AT = DEEPCOPY_MIGRATION.replace('rsplit("@", 1)', 'split("@", 1)')

ANSWERS = [
    ("dict-update", "cancel-after-claim", DICT_UPDATE_CANCEL, 6, "all"),
    ("no-bump", "cancel-after-claim", NO_BUMP, 3, "bump the epoch"),
    ("requeue-resets", "cancel-after-claim", REQUEUE_RESETS, 3, "the cancel had already used"),
    ("cancels-finished", "cancel-after-claim", CANCELS_FINISHED, 5, "completed task"),
    ("deepcopy-migration", "pure-migration", DEEPCOPY_MIGRATION, 5, "all"),
    ("shared-sent", "pure-migration", SHARED_SENT, 2, "shares sent"),
    ("in-place", "pure-migration", IN_PLACE, 2, "changed its input"),
    ("first-at", "pure-migration", FIRST_AT, 4, "raised ValueError"),
]

# --- cancel-after-first-step ----------------------------------------------------------------

# One ledger connection kept open for the whole experiment, the answer read at the end.
ONE_CONNECTION_FIRST_STEP = """
def cancel_after_first_step(path):
    ledger = Ledger(path)
    try:
        ledger.submit("j1")
        run_worker(path, "j1")
        ledger.cancel("j1")
        report = run_worker(path, "j1")
        final = ledger.get("j1")
    finally:
        ledger.close()
    return dict(resume_claim_refused=report.get("event") == "claim-refused", step=final.step,
                status=final.status, result=final.result)
"""

# The answers typed in: nothing ran on the ledger file.
TYPED_IN_FIRST_STEP = """
def cancel_after_first_step(path):
    return {"resume_claim_refused": True, "step": 1, "status": "cancelled", "result": None}
"""

# The status read before the cancel: the answer disagrees with the ledger.
READ_TOO_EARLY = """
def cancel_after_first_step(path):
    with Ledger(path) as ledger:
        ledger.submit("j1")
    run_worker(path, "j1")
    with Ledger(path) as ledger:
        before = ledger.get("j1")
        ledger.cancel("j1")
    resume = run_worker(path, "j1")
    return {"resume_claim_refused": resume["event"] == "claim-refused", "step": before.step,
            "status": before.status, "result": before.result}
"""

# --- cancel-limits --------------------------------------------------------------------------

_STORY = """
def what_cancel_does(path):
    sent = Mailbox()
    ledger = Ledger(path)
    ledger.submit("t1")
    lease = ledger.claim("t1", "w1", 60)
    ledger.save(lease, 1)
    if ledger.record_effect(lease, "t1:email"):
        sent.send("t1:email")
    ledger.cancel("t1")
    facts = {"later_save_refused": not ledger.save(lease, 2),
             "later_effect_refused": not ledger.record_effect(lease, "t1:again")}
    try:
        ledger.claim("t1", "w2", 60)
        facts["new_claim_refused"] = False
    except TerminalTask:
        facts["new_claim_refused"] = True
    except Exception:  # anything else, LeaseHeld included
        facts["new_claim_refused"] = False
    facts["email_recalled"] = EMAIL
    facts["step_rolled_back"] = ledger.get("t1").step < 1
    ledger.requeue("t1")
    try:
        facts["requeue_restarts_from_zero"] = ledger.claim("t1", "w3", 60).step == 0
    except (LeaseHeld, TerminalTask):  # no new claim starts
        facts["requeue_restarts_from_zero"] = False
    ledger.close()
    return facts
"""
STORY_IN_ONE_CONNECTION = _STORY.replace("EMAIL", 'sent.received.get("t1:email", 0) == 0')

# Believes a cancel recalls the e-mail (a detail of what a cancel cannot undo).
THINKS_RECALLED = _STORY.replace("EMAIL", "True")

# The facts guessed, the story never run.
GUESSED_FACTS = """
def what_cancel_does(path):
    return {"later_save_refused": True, "later_effect_refused": True, "new_claim_refused": True,
            "email_recalled": False, "step_rolled_back": False,
            "requeue_restarts_from_zero": False}
"""

ANSWERS += [
    ("one-connection", "cancel-after-first-step", ONE_CONNECTION_FIRST_STEP, 6, "all"),
    ("typed-in", "cancel-after-first-step", TYPED_IN_FIRST_STEP, 0, "holds no task"),
    ("read-too-early", "cancel-after-first-step", READ_TOO_EARLY, 3, "read it from the ledger"),
    ("story-one-connection", "cancel-limits", STORY_IN_ONE_CONNECTION, 5, "all"),
    ("thinks-recalled", "cancel-limits", THINKS_RECALLED, 3, "cannot be recalled"),
    ("guessed-facts", "cancel-limits", GUESSED_FACTS, 0, "holds no task"),
]
