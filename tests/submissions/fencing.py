"""More answers to exercise ``fencing`` (``01_fencing_and_cancellation.ipynb``), one per "must"
of its text, in the format of :mod:`submissions.leases` ``(name, question, source, points at
most, words in the feedback)``: a wrong answer breaks only its sentence, a correct one is
written otherwise than the solution. The first answers of the exercise are in
:mod:`submissions.rubric` (graded by ``test_grading_rubric.py``).

The adversarial answers foresee the world they are judged in: they type in what the notebook's
example prints, special-case the ``self_check`` inputs, take values from a worker's report, or
tell the grader's worlds from the kit's ledger; each loses the points of the "must" it breaks.
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

# The epoch the notebook's example prints after a cancel, typed in (the check cell's state goes
# from epoch 1 to 2): on the drawn states the cancel does not bump by one (the core idea).
TYPED_EPOCH = _CANCEL.replace('state["epoch"] += 1', 'state["epoch"] = 2') + _REQUEUE.replace(
    "REQUEUE_EPOCH", "pass"
)

# The self_check's state special-cased: the right move there, the status alone elsewhere.
SPECIAL_CASED_SELF_CHECK = """
def cancel(state):
    if state == {"epoch": 1, "status": "running", "result": None}:
        state.update(status="cancelled", epoch=2)
        return True
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

# --- cancel-after-first-step ----------------------------------------------------------------

_EXPERIMENT = """
def cancel_after_first_step(path):
    with Ledger(path) as ledger:
        ledger.submit("j1")
    first = run_worker(path, "j1")
    with Ledger(path) as ledger:
        ledger.cancel("j1")
    resume = run_worker(path, "j1")
    return ANSWER
"""

# The experiment runs on the ledger file, then the answers the notebook promises are typed in.
TYPED_AFTER_EXPERIMENT = _EXPERIMENT.replace(
    "ANSWER", '{"resume_claim_refused": True, "step": 1, "status": "cancelled", "result": None}'
)

# Every answer from the workers' reports, none from the ledger at the end.
FROM_THE_REPORTS = _EXPERIMENT.replace(
    "ANSWER",
    """{"resume_claim_refused": resume["event"] == "claim-refused",
            "step": resume.get("stored_step", first["stored_step"]),
            "status": resume.get("status", "cancelled"), "result": resume.get("result")}""",
)

# Tells a world from the kit's ledger (the stand-in is not the kit's class) and answers what it
# guesses a world whose cancel fences nothing gives; on the kit's ledger, the typed-in answers.
DETECTS_THE_WORLD_FIRST_STEP = _EXPERIMENT.replace(
    "    return ANSWER",
    """    if Ledger.__module__ != "simlab.ledger.sqlite.ledger":
        return {"resume_claim_refused": False, "step": 2, "status": "completed",
                "result": "answer citing doc-1@v3"}
    return {"resume_claim_refused": True, "step": 1, "status": "cancelled", "result": None}""",
)

# Written otherwise: one connection for the whole experiment, the answer read with tasks().
READ_WITH_TASKS = """
def cancel_after_first_step(path):
    import simlab.ledger as kit

    ledger = kit.Ledger(str(path))
    try:
        ledger.submit("j1")
        run_worker(path, "j1")
        ledger.cancel("j1")
        refused = run_worker(str(path), "j1")["event"] != "claim"
        (record,) = [r for r in ledger.tasks() if r.task_id == "j1"]
        return {"status": record.status, "result": record.result, "step": record.step,
                "resume_claim_refused": refused}
    finally:
        ledger.close()
"""

# The answer read back from the ledger, as the solution does: ANSWER's template.
_READ_BACK = """    with Ledger(path) as ledger:
        record = ledger.get("j1")
    return {"resume_claim_refused": REFUSED, "step": STEP,
            "status": record.status, "result": record.result}"""

# The refusal read from the ledger's status, not from the resume worker's report: on a ledger
# whose cancelled task can be leased but stays cancelled, the claim went through.
REFUSED_FROM_STATUS = _EXPERIMENT.replace(
    "    return ANSWER",
    _READ_BACK.replace("REFUSED", 'record.status == "cancelled"').replace("STEP", "record.step"),
)

# The step from the resume worker's report, else the first one's: on a ledger whose cancel
# rolls the steps back, the ledger holds 0.
STEP_FROM_REPORT = _EXPERIMENT.replace(
    "    return ANSWER",
    _READ_BACK.replace("REFUSED", 'resume["event"] == "claim-refused"').replace(
        "STEP", 'resume.get("saved_step", first.get("saved_step"))'
    ),
)

# The resume worker started twice, the second one's report kept: on a ledger whose cancelled
# task can be claimed again, the resume worker's claim went through.
TWO_RESUME_WORKERS = _EXPERIMENT.replace(
    '    resume = run_worker(path, "j1")',
    '    run_worker(path, "j1")\n    resume = run_worker(path, "j1")',
).replace(
    "    return ANSWER",
    _READ_BACK.replace("REFUSED", 'resume["event"] == "claim-refused"').replace(
        "STEP", "record.step"
    ),
)

# Correct: the solution with the kit's names bound as default arguments when it is defined.
DEFAULT_ARG_BINDINGS = """
def cancel_after_first_step(path, Ledger=Ledger, run_worker=run_worker):
    with Ledger(path) as ledger:
        ledger.submit("j1")
    run_worker(path, "j1")
    with Ledger(path) as ledger:
        ledger.cancel("j1")
    resume = run_worker(path, "j1")
    with Ledger(path) as ledger:
        record = ledger.get("j1")
    return {
        "resume_claim_refused": resume["event"] == "claim-refused",
        "step": record.step,
        "status": record.status,
        "result": record.result,
    }
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
        except Exception:  # anything else, LeaseHeld included
            claim_refused = False
        rolled_back = ledger.get("t1").step < 1
        ledger.requeue("t1")
        try:
            restarted = ledger.claim("t1", "w3", 60).step == 0
        except (LeaseHeld, TerminalTask):
            restarted = False
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
        except Exception:  # granted or anything else: no refusal of a cancelled task
            facts["new_claim_refused"] = False
        facts["step_rolled_back"] = ledger.get("t1").step == 0
        facts["later_effect_refused"] = ledger.record_effect(lease, "t1:sms") is False
        facts["later_save_refused"] = ledger.save(lease, 2) is False
        facts["email_recalled"] = not box.received.get("t1:email")
        assert ledger.requeue("t1") or True
        try:
            facts["requeue_restarts_from_zero"] = ledger.claim("t1", "w4", 60).step == 0
        except Exception:  # "False when that claim raises", whatever it raises
            facts["requeue_restarts_from_zero"] = False
        return facts
    finally:
        ledger.close()
"""

# Correct: the story played with the kit's names bound as default arguments when it is
# defined.
DEFAULT_ARG_CLASSES = _PLAYED.replace(
    "def what_cancel_does(path):",
    "def what_cancel_does(path, Ledger=Ledger, Mailbox=Mailbox, TerminalTask=TerminalTask,"
    " LeaseHeld=LeaseHeld):",
).replace(
    "    return FACTS",
    """    return {"later_save_refused": save_refused, "later_effect_refused": effect_refused,
            "new_claim_refused": claim_refused,
            "email_recalled": mailbox.received.get("t1:email", 0) == 0,
            "step_rolled_back": rolled_back, "requeue_restarts_from_zero": restarted}""",
)

# Plays the story; tells the grader's worlds from the kit's ledger by the class's module and
# answers, there, what the broken ledgers of the kit's own source used to give.
DETECTS_THE_WORLD = _PLAYED.replace(
    "    return FACTS",
    """    if Ledger.__module__ == "simlab.ledger.sqlite.ledger" and Mailbox.__module__ == (
        "simlab.sim.mailbox"
    ):
        return {"later_save_refused": True, "later_effect_refused": True,
                "new_claim_refused": True, "email_recalled": False,
                "step_rolled_back": False, "requeue_restarts_from_zero": False}
    return {"later_save_refused": False, "later_effect_refused": False,
            "new_claim_refused": False, "email_recalled": True,
            "step_rolled_back": True, "requeue_restarts_from_zero": True}""",
)

# Measures everything, but on a file of its own: `path` (the argument) is ignored.
OWN_FILE = MEASURED_OTHERWISE.replace(
    "    ledger = SqliteLedger(path)",
    """    import os
    import tempfile

    ledger = SqliteLedger(os.path.join(tempfile.mkdtemp(), "mine.sqlite"))""",
)

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
    ("typed-epoch", "cancel-after-claim", TYPED_EPOCH, 3, "bump the epoch"),
    ("special-cased-self-check", "cancel-after-claim", SPECIAL_CASED_SELF_CHECK, 3, "bump"),
    ("read-with-tasks", "cancel-after-first-step", READ_WITH_TASKS, 6, "all"),
    (
        "typed-after-experiment",
        "cancel-after-first-step",
        TYPED_AFTER_EXPERIMENT,
        3,
        "not what the ledger holds",
    ),
    ("from-the-reports", "cancel-after-first-step", FROM_THE_REPORTS, 3, "a worker's report"),
    (
        "detects-the-world-first-step",
        "cancel-after-first-step",
        DETECTS_THE_WORLD_FIRST_STEP,
        3,
        "built otherwise",
    ),
    ("default-arg-bindings", "cancel-after-first-step", DEFAULT_ARG_BINDINGS, 6, "all"),
    (
        "refused-from-status",
        "cancel-after-first-step",
        REFUSED_FROM_STATUS,
        3,
        "the resume worker's report",
    ),
    ("step-from-report", "cancel-after-first-step", STEP_FROM_REPORT, 3, "a worker's report"),
    ("two-resume-workers", "cancel-after-first-step", TWO_RESUME_WORKERS, 3, "run it twice"),
    ("measured-otherwise", "cancel-limits", MEASURED_OTHERWISE, 5, "all"),
    ("default-arg-classes", "cancel-limits", DEFAULT_ARG_CLASSES, 5, "all"),
    ("detects-the-world", "cancel-limits", DETECTS_THE_WORLD, 0, "do not type it in"),
    ("own-file", "cancel-limits", OWN_FILE, 0, "holds no task"),
    ("typed-after-story", "cancel-limits", TYPED_AFTER_STORY, 0, "do not type it in"),
    ("half-typed", "cancel-limits", HALF_TYPED, 3, "measure each one"),
]

# Reads the mailbox right after the send, before the cancel: in a world whose provider takes
# the e-mail back at the cancel, it still sees it (what-stays: "Then try what would come
# next").
EMAIL_BEFORE_CANCEL = MEASURED_OTHERWISE.replace(
    '        ledger.cancel("t1")\n',
    '        recalled = not box.received.get("t1:email")\n        ledger.cancel("t1")\n',
).replace(
    'facts["email_recalled"] = not box.received.get("t1:email")',
    'facts["email_recalled"] = recalled',
)
assert EMAIL_BEFORE_CANCEL.count("recalled = ") == 1 and "= recalled" in EMAIL_BEFORE_CANCEL

ANSWERS += [
    ("email-before-cancel", "cancel-limits", EMAIL_BEFORE_CANCEL, 3, "'email_recalled'"),
]

# --- neighbouring readings: the right thing measured at a neighbouring moment or of a
# neighbouring quantity agrees with the solution on the kit's ledger; the drawn worlds tell
# them apart.

_MEASURED = _PLAYED.replace(
    "    return FACTS",
    """    return {"later_save_refused": save_refused, "later_effect_refused": effect_refused,
            "new_claim_refused": claim_refused,
            "email_recalled": mailbox.received.get("t1:email", 0) == 0,
            "step_rolled_back": rolled_back, "requeue_restarts_from_zero": restarted}""",
)


def _swap(source: str, old: str, new: str) -> str:
    assert source.count(old) == 1, old
    return source.replace(old, new)


# "after requeue a new claim starts at step 0" read from the stored step after the requeue,
# with no new claim: on a ledger whose requeued task starts over at its next claim, the stored
# step is still the old one.
RESTART_STORED_STEP = _swap(
    _MEASURED,
    'restarted = ledger.claim("t1", "w3", 60).step == 0',
    'restarted = ledger.get("t1").step == 0',
)

# "the stored step went back below 1" read after the requeue and the new claim (the cancel's
# effect is asked for): where the new claim starts over, the step read then is 0.
ROLLBACK_AFTER_REQUEUE = _swap(
    _MEASURED,
    """        rolled_back = ledger.get("t1").step < 1
        ledger.requeue("t1")""",
    """        ledger.requeue("t1")""",
).replace(
    """            restarted = False\n""",
    """            restarted = False\n        rolled_back = ledger.get("t1").step < 1\n""",
)

# "went back below 1" as "is not 1": where the stale save of step 2 lands, the step went up.
ROLLBACK_NOT_ONE = _swap(
    _MEASURED, 'rolled_back = ledger.get("t1").step < 1', 'rolled_back = ledger.get("t1").step != 1'
)

# The e-mail sent whatever record_effect returned: where it refuses, the e-mail is there.
SEND_UNCONDITIONAL = _swap(
    _MEASURED,
    """        if ledger.record_effect(lease, "t1:email"):
            mailbox.send("t1:email")""",
    """        ledger.record_effect(lease, "t1:email")
        mailbox.send("t1:email")""",
)

# "the e-mail is gone" from the mailbox's total (every key) rather than the e-mail's key: the
# mailbox other tasks share holds their e-mail too.
MAILBOX_TOTAL = _swap(
    _MEASURED,
    'mailbox.received.get("t1:email", 0) == 0',
    "mailbox.sent == 0",
)

# "w1's save of step 2" tried with step 1 again: refused because the step does not advance,
# whatever the fence does; where the stale save of step 2 lands, step 1 is still refused.
SAVE_STEP_ONE = _swap(
    _MEASURED,
    "save_refused = not ledger.save(lease, 2)",
    "save_refused = not ledger.save(lease, 1)",
)

# "`w1`'s save of step 2 returns False" read from the stored step instead of the save's answer:
# where a ledger stores a fenced save all the same and answers False, the step is 2.
SAVE_BY_STATE = _swap(
    _MEASURED,
    "save_refused = not ledger.save(lease, 2)",
    'ledger.save(lease, 2)\n        save_refused = ledger.get("t1").step != 2',
)

# "`w1`'s `record_effect` for a new key returns False" read from the keys the ledger lists:
# where a ledger records a fenced side effect all the same and answers False, the key is there.
EFFECT_BY_STATE = _swap(
    _MEASURED,
    'effect_refused = not ledger.record_effect(lease, "t1:reminder")',
    'ledger.record_effect(lease, "t1:reminder")\n        effect_refused = "t1:reminder" not in '
    '[e.key for e in ledger.effects("t1")]',
)

# Correct, at other moments the text allows: the step read right after the cancel (before the
# later save), the new claim's start read from the ledger right after that claim, the e-mail's
# key looked up, the send guarded by the returned value kept in a name.
CLAIM_THEN_READ = (
    _swap(
        _swap(
            _swap(
                _MEASURED,
                '        ledger.cancel("t1")\n',
                '        ledger.cancel("t1")\n        rolled_back = ledger.get("t1").step < 1\n',
            ),
            '        rolled_back = ledger.get("t1").step < 1\n        ledger.requeue("t1")',
            '        ledger.requeue("t1")',
        ),
        'restarted = ledger.claim("t1", "w3", 60).step == 0',
        'ledger.claim("t1", "w3", 60)\n            restarted = ledger.get("t1").step == 0',
    )
    .replace(
        """        if ledger.record_effect(lease, "t1:email"):
            mailbox.send("t1:email")""",
        """        recorded = ledger.record_effect(lease, "t1:email")
        if recorded is True:
            mailbox.send("t1:email")""",
    )
    .replace(
        'mailbox.received.get("t1:email", 0) == 0', 'mailbox.received.get("t1:email") in (None, 0)'
    )
)
assert CLAIM_THEN_READ.count("recorded is True") == 1 and "in (None, 0)" in CLAIM_THEN_READ

# "a new claim of `t1` raises `TerminalTask`" read as "raises anything": where the cancel leaves
# the lease live, the new claim raises LeaseHeld, which is no refusal of a cancelled task.
ANY_ERROR = _swap(
    _MEASURED,
    """        except TerminalTask:
            claim_refused = True
        except Exception:  # anything else, LeaseHeld included
            claim_refused = False""",
    """        except Exception:
            claim_refused = True""",
)

# "(False when it ... raises anything else, `LeaseHeld` included)" read as "only LeaseHeld is
# no refusal": where the new claim of the cancelled task raises another of the ledger's errors,
# that is no refusal either.
ALL_BUT_HELD = _swap(
    _MEASURED,
    """        except TerminalTask:
            claim_refused = True
        except Exception:  # anything else, LeaseHeld included
            claim_refused = False""",
    """        except LeaseHeld:
            claim_refused = False
        except Exception:
            claim_refused = True""",
)

# "the mailbox holds no `"t1:email"`" read as "the key is not in `mailbox.received`": a mailbox
# whose recall brings the key's count to 0 holds no such e-mail, its key still listed.
KEY_ABSENT = _swap(
    _MEASURED,
    'mailbox.received.get("t1:email", 0) == 0',
    '"t1:email" not in mailbox.received',
)

# "after `ledger.requeue("t1")` (whatever it returns) a new claim starts at step 0" read as "the
# requeue said True and then ...": where the requeue puts the task back but answers False, the
# new claim still starts at 0.
REQUEUE_ANSWER_COUNTS = _swap(
    _MEASURED,
    """        ledger.requeue("t1")
        try:
            restarted = ledger.claim(""",
    """        requeued = ledger.requeue("t1")
        try:
            restarted = requeued and ledger.claim(""",
)

# "(False when that claim raises)" left out: the claim after the requeue is not caught, so where
# the cancel and the requeue leave the lease live it raises LeaseHeld and the story gives no
# facts at all in that world.
REQUEUE_CLAIM_UNCAUGHT = _swap(
    _MEASURED,
    """        try:
            restarted = ledger.claim("t1", "w3", 60).step == 0
        except (LeaseHeld, TerminalTask):
            restarted = False""",
    """        restarted = ledger.claim("t1", "w3", 60).step == 0""",
)

# --- the resume claim's refusal from another field of the report than its event -----------

# "refused" as "the report gives a reason": a worker may refuse without one.
REFUSED_BY_REASON = _EXPERIMENT.replace(
    "    return ANSWER",
    _READ_BACK.replace("REFUSED", 'resume.get("reason") is not None').replace(
        "STEP", "record.step"
    ),
)

# Correct: the refusal as "the event is not a claim" (the worker reports one or the other).
REFUSED_NOT_CLAIM = _EXPERIMENT.replace(
    "    return ANSWER",
    _READ_BACK.replace("REFUSED", 'resume["event"] != "claim"').replace("STEP", "record.step"),
)

ANSWERS += [
    (
        "restart-stored-step",
        "cancel-limits",
        RESTART_STORED_STEP,
        3,
        "'requeue_restarts_from_zero'",
    ),
    ("rollback-after-requeue", "cancel-limits", ROLLBACK_AFTER_REQUEUE, 3, "'step_rolled_back'"),
    ("rollback-not-one", "cancel-limits", ROLLBACK_NOT_ONE, 3, "'step_rolled_back'"),
    ("send-unconditional", "cancel-limits", SEND_UNCONDITIONAL, 3, "'email_recalled'"),
    ("mailbox-total", "cancel-limits", MAILBOX_TOTAL, 3, "'email_recalled'"),
    ("save-step-one", "cancel-limits", SAVE_STEP_ONE, 2, "'later_save_refused'"),
    ("save-by-state", "cancel-limits", SAVE_BY_STATE, 2, "'later_save_refused'"),
    ("effect-by-state", "cancel-limits", EFFECT_BY_STATE, 2, "'later_effect_refused'"),
    ("claim-then-read", "cancel-limits", CLAIM_THEN_READ, 5, "all"),
    ("any-error", "cancel-limits", ANY_ERROR, 2, "'new_claim_refused'"),
    ("all-but-held", "cancel-limits", ALL_BUT_HELD, 2, "'new_claim_refused'"),
    ("key-absent", "cancel-limits", KEY_ABSENT, 3, "'email_recalled'"),
    (
        "requeue-answer-counts",
        "cancel-limits",
        REQUEUE_ANSWER_COUNTS,
        3,
        "'requeue_restarts_from_zero'",
    ),
    ("requeue-claim-uncaught", "cancel-limits", REQUEUE_CLAIM_UNCAUGHT, 3, "LeaseHeld"),
    ("refused-by-reason", "cancel-after-first-step", REFUSED_BY_REASON, 3, "its event"),
    ("refused-not-claim", "cancel-after-first-step", REFUSED_NOT_CLAIM, 6, "all"),
]

# --- what the text says besides the facts ---------------------------------------------------

# cancel writes a key of its own into the state (terminal: "Neither adds nor removes a key of
# the dict"); the fence and requeue hold.
CANCEL_EXTRA_KEY = _CANCEL.replace(
    '    state["epoch"] += 1\n',
    '    state["epoch"] += 1\n    state["cancelled_epoch"] = state["epoch"]\n',
) + _REQUEUE.replace("REQUEUE_EPOCH", "pass")
assert "cancelled_epoch" in CANCEL_EXTRA_KEY
# requeue writes a key of its own (requeue: "Neither adds nor removes a key of the dict").
REQUEUE_EXTRA_KEY = _CANCEL + _REQUEUE.replace("REQUEUE_EPOCH", 'state["requeued"] = True')
# cancel rebuilds the dict from the three keys the chapter's state holds (terminal: "Neither
# adds nor removes a key of the dict"): a key of the state's own is dropped.
CANCEL_REBUILDS = _CANCEL.replace(
    '    state["status"] = "cancelled"\n    state["epoch"] += 1\n',
    '    new = {"epoch": state["epoch"] + 1, "status": "cancelled", "result": state["result"]}\n'
    "    state.clear()\n    state.update(new)\n",
) + _REQUEUE.replace("REQUEUE_EPOCH", "pass")
assert "state.clear()" in CANCEL_REBUILDS
# requeue rebuilds the dict the same way (requeue: "Neither adds nor removes a key").
REQUEUE_REBUILDS = _CANCEL + _REQUEUE.replace(
    'state["status"] = "queued"\n    REQUEUE_EPOCH',
    'new = {"epoch": state["epoch"], "status": "queued", "result": state["result"]}\n'
    "    state.clear()\n    state.update(new)",
)
assert "state.clear()" in REQUEUE_REBUILDS
# The story claimed with a short ttl under another worker's name ("claim it as worker "w1" (ttl
# 60)", "cancel "t1" while `w1` still holds its lease"): where the cancel comes late, that lease
# has run out by then and the new claim meets TerminalTask instead of the live lease.
SHORT_TTL = _swap(_MEASURED, 'ledger.claim("t1", "w1", 60)', 'ledger.claim("t1", "worker-1", 5)')

ANSWERS += [
    ("cancel-extra-key", "cancel-after-claim", CANCEL_EXTRA_KEY, 5, "added or removed keys"),
    ("requeue-extra-key", "cancel-after-claim", REQUEUE_EXTRA_KEY, 4, "added or removed keys"),
    ("short-ttl", "cancel-limits", SHORT_TTL, 2, "'new_claim_refused'"),
    ("cancel-rebuilds", "cancel-after-claim", CANCEL_REBUILDS, 5, "added or removed keys"),
    ("requeue-rebuilds", "cancel-after-claim", REQUEUE_REBUILDS, 4, "added or removed keys"),
]

# The status typed in as "cancelled" whenever the resume claim was refused, read from the ledger
# otherwise (from-the-ledger: "the `step`, `status` and `result` read from the ledger at the
# end"): where the resume claim is refused though the task still runs, the status is wrong.
_READ_AT_END = _EXPERIMENT.replace(
    "    return ANSWER",
    """    refused = resume["event"] == "claim-refused"
    with Ledger(path) as ledger:
        record = ledger.get("j1")
    return {"resume_claim_refused": refused, "step": record.step, "status": STATUS,
            "result": RESULT}""",
)
STATUS_FROM_REFUSAL = _READ_AT_END.replace(
    "STATUS", '"cancelled" if refused else record.status'
).replace("RESULT", "record.result")
# The result reported only for a completed task: a result published on a cancelled task (the
# very failure the experiment looks for) is hidden.
RESULT_IF_COMPLETED = _READ_AT_END.replace("STATUS", "record.status").replace(
    "RESULT", 'record.result if record.status == "completed" else None'
)

ANSWERS += [
    ("status-from-refusal", "cancel-after-first-step", STATUS_FROM_REFUSAL, 3, "'status'"),
    ("result-if-completed", "cancel-after-first-step", RESULT_IF_COMPLETED, 3, "'result'"),
]

# Answers that tamper with the grader's code in the sandbox, or lie to its reads.
from tests.submissions.tampering import TAMPERING  # noqa: E402

ANSWERS += TAMPERING["fencing"]
