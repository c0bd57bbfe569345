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

# requeue resets the epoch: the pre-cancel lease commits again after a new claim.
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
    ("requeue-resets", "cancel-after-claim", REQUEUE_RESETS, 3, "pre-cancel epoch"),
    ("cancels-finished", "cancel-after-claim", CANCELS_FINISHED, 5, "completed task"),
    ("deepcopy-migration", "pure-migration", DEEPCOPY_MIGRATION, 5, "all"),
    ("shared-sent", "pure-migration", SHARED_SENT, 2, "shares sent"),
    ("in-place", "pure-migration", IN_PLACE, 2, "changed its input"),
    ("first-at", "pure-migration", FIRST_AT, 4, "raised ValueError"),
]
