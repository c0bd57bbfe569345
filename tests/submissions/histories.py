"""Answers to exercise ``histories`` (``03_histories_and_ttl.ipynb``): correct alternatives
that must get every point, and classic mistakes with the points each must get at most, in the
format of :mod:`submissions.leases` ``(name, question, source, points at most, words in the
feedback)``. A mistake of the core idea gets at most half of the question (3 of 6).
"""

from __future__ import annotations

# --- stale-commits --------------------------------------------------------------------------

# One pass, a defaultdict of (highest epoch, the event that granted it), other sentences.
DEFAULTDICT_RULE = """
from collections import defaultdict


def stale_commits(history):
    granted = defaultdict(lambda: (0, None))
    out = []
    for e in history:
        if e.type != "ok" or e.task is None or e.epoch is None:
            continue
        top, by = granted[e.task]
        if e.op in ("claim", "cancel") and e.epoch > top:
            granted[e.task] = (e.epoch, e)
        elif e.op == "save" and e.epoch < top:
            out.append(f"{e.task}: {e.process} saved step {e.step} with epoch {e.epoch} at "
                       f"t={e.time:g}, after the {by.op} of epoch {top} at t={by.time:g}")
    return out
"""

# For each accepted save, look back at everything granted before it (quadratic, but plain).
LOOK_BACK_RULE = """
def stale_commits(history):
    events = list(history)
    found = []
    for i, e in enumerate(events):
        if e.op != "save" or e.type != "ok":
            continue
        before = [g.epoch for g in events[:i]
                  if g.task == e.task and g.type == "ok" and g.op in ("claim", "cancel")
                  and g.epoch is not None]
        if before and max(before) > e.epoch:
            found.append("stale commit of %s by %s (epoch %s < %s)"
                         % (e.task, e.process, e.epoch, max(before)))
    return found
"""

# Who holds the task, by name: a save by anyone but the last claimer is stale.
WORKER_NAMES = """
def stale_commits(history):
    owner = {}
    found = []
    for e in history:
        if e.type != "ok":
            continue
        if e.op == "claim":
            owner[e.task] = e.process
        elif e.op == "save" and owner.get(e.task) not in (None, e.process):
            found.append(f"{e.process} saved {e.task} while {owner[e.task]} held it")
    return found
"""

_EPOCH_RULE = """
def stale_commits(history):
    newest = {}
    found = []
    for e in history:
        if e.task is None or e.epoch is None:
            continue
        if e.type == "ok" and e.op in ("claim", "cancel"):
            newest[e.task] = max(newest.get(e.task, 0), e.epoch)
        elif SAVE and e.task in newest and e.epoch < newest[e.task]:
            found.append(f"{e.process} (epoch {e.epoch}) committed step {e.step} of {e.task}")
    return found
"""

# Every save event counts, refused (fail) and unfinished (invoke) ones too.
REFUSED_TOO = _EPOCH_RULE.replace("SAVE", 'e.op == "save"')

# Only the save that completes the task (value done=True) is looked at.
COMPLETION_ONLY = _EPOCH_RULE.replace(
    "SAVE", 'e.type == "ok" and e.op == "save" and e.value.get("done")'
)

# The epoch of the last claim, not the highest one granted so far.
LAST_CLAIM = _EPOCH_RULE.replace("SAVE", 'e.type == "ok" and e.op == "save"').replace(
    "max(newest.get(e.task, 0), e.epoch)", "e.epoch"
)

# The last claim again, and any other epoch than it is stale.
LAST_CLAIM_NOT_EQUAL = LAST_CLAIM.replace("e.epoch < newest[e.task]", "e.epoch != newest[e.task]")

# A save of the current epoch is stale too.
LESS_OR_EQUAL = _EPOCH_RULE.replace("SAVE", 'e.type == "ok" and e.op == "save"').replace(
    "e.epoch < newest[e.task]", "e.epoch <= newest[e.task]"
)

# Each worker remembers its own claims: another worker's takeover goes unseen.
PER_WORKER = """
def stale_commits(history):
    mine = {}
    found = []
    for e in history:
        if e.type != "ok" or e.epoch is None:
            continue
        if e.op == "claim":
            key = (e.task, e.process)
            mine[key] = max(mine.get(key, 0), e.epoch)
        elif e.op == "save" and e.epoch < mine.get((e.task, e.process), 0):
            found.append(f"{e.process} committed {e.task} with an old epoch {e.epoch}")
    return found
"""

# One highest epoch for the whole history: tasks get mixed.
ALL_TASKS = """
def stale_commits(history):
    highest = 0
    found = []
    for e in history:
        if e.type != "ok" or e.epoch is None:
            continue
        if e.op in ("claim", "cancel"):
            highest = max(highest, e.epoch)
        elif e.op == "save" and e.epoch < highest:
            found.append(f"{e.process} committed step {e.step} of {e.task} with epoch {e.epoch}")
    return found
"""

# Judged on timestamps: a save is stale when a newer claim has an earlier time.
TIMESTAMPS = """
def stale_commits(history):
    events = list(history)
    claims = [e for e in events if e.type == "ok" and e.op in ("claim", "cancel")]
    found = []
    for e in events:
        if e.type == "ok" and e.op == "save":
            if any(c.task == e.task and c.epoch > e.epoch and c.time < e.time for c in claims):
                found.append(f"{e.process} committed step {e.step} of {e.task} at t={e.time}")
    return found
"""

# Judged on the lease's expiry: a save after lease_until is stale, whoever claimed since.
LEASE_EXPIRY = """
def stale_commits(history):
    until = {}
    found = []
    for e in history:
        if e.type != "ok":
            continue
        if e.op == "claim":
            until[(e.task, e.epoch)] = e.value.get("lease_until", float("inf"))
        elif e.op == "save" and e.time > until.get((e.task, e.epoch), float("inf")):
            found.append(f"{e.process} committed step {e.step} of {e.task} after its lease ran out")
    return found
"""

# Only claims grant epochs; a cancel is forgotten (a detail).
IGNORES_CANCEL = DEFAULTDICT_RULE.replace('("claim", "cancel")', '("claim",)')

# The right saves, but as (task, epoch) pairs rather than sentences (a detail).
PAIRS = """
def stale_commits(history):
    newest = {}
    found = []
    for e in history:
        if e.type != "ok" or e.task is None or e.epoch is None:
            continue
        if e.op in ("claim", "cancel"):
            newest[e.task] = max(newest.get(e.task, 0), e.epoch)
        elif e.op == "save" and e.epoch < newest.get(e.task, 0):
            found.append((e.task, e.epoch))
    return found
"""

# --- choose-ttl -----------------------------------------------------------------------------

# Crashes waiting for a claim, kept in a dict and put back in crash order; statistics.mean; a
# sort key of (cost, ttl).
PENDING_CRASHES = """
import statistics


def recovery_times(history):
    waiting = {}
    done = {}
    for i, e in enumerate(history):
        if e.op == "crash" and e.task is not None:
            waiting.setdefault(e.task, []).append((i, e.time))
        elif e.op == "claim" and e.type == "ok" and e.task in waiting:
            for i_crash, t_crash in waiting.pop(e.task):
                done[i_crash] = e.time - t_crash
    return [done[i] for i in sorted(done)]


def measure(ttl, seeds):
    runs = [simulate(PAUSES.with_(ttl=ttl), seed=seed) for seed in seeds]
    return {
        "duplicate_work": statistics.mean(run.stale_rejected for run in runs),
        "waiting": statistics.mean(sum(recovery_times(run.history)) for run in runs),
    }


def choose_ttl(table, step_cost, wait_cost):
    def key(ttl):
        row = table[ttl]
        return (row["duplicate_work"] * step_cost + row["waiting"] * wait_cost, ttl)

    return sorted(table, key=key)[0]
"""

_SOLUTION_RECOVERY = """
def recovery_times(history):
    events = list(history)
    times = []
    for i, e in enumerate(events):
        if e.op != "crash" or e.task is None:
            continue
        for later in events[i + 1:]:
            if later.op == "claim" and later.type == "ok" and later.task == e.task:
                times.append(later.time - e.time)
                break
    return times
"""

_SOLUTION_MEASURE = """
def measure(ttl, seeds):
    duplicate, waiting = [], []
    for seed in seeds:
        result = simulate(PAUSES.with_(ttl=ttl), seed=seed)
        duplicate.append(result.stale_rejected)
        waiting.append(sum(recovery_times(result.history)))
    return {"duplicate_work": sum(duplicate) / len(duplicate),
            "waiting": sum(waiting) / len(waiting)}
"""

_SOLUTION_CHOOSE = """
def choose_ttl(table, step_cost, wait_cost):
    def cost(ttl):
        row = table[ttl]
        return row["duplicate_work"] * step_cost + row["waiting"] * wait_cost

    return min(sorted(table), key=cost)
"""


def _ttl(
    recovery: str = _SOLUTION_RECOVERY,
    measure: str = _SOLUTION_MEASURE,
    choose: str = _SOLUTION_CHOOSE,
) -> str:
    return recovery + measure + choose


# The ttl the notebook's table gave, typed in.
TYPED_IN_TTL = _ttl(choose="\ndef choose_ttl(table, step_cost, wait_cost):\n    return 4.0\n")

# Always the smallest ttl: the shortest lease, whatever it costs.
SMALLEST_TTL = _ttl(
    choose="\ndef choose_ttl(table, step_cost, wait_cost):\n    return min(table)\n"
)

# One cost alone: the least duplicate work (so always the largest ttl).
ONE_COST = _ttl(
    choose="""
def choose_ttl(table, step_cost, wait_cost):
    return min(table, key=lambda ttl: table[ttl]["duplicate_work"])
"""
)

# Measured on the first seed only.
ONE_SEED = _ttl(
    measure="""
def measure(ttl, seeds):
    result = simulate(PAUSES.with_(ttl=ttl), seed=seeds[0])
    return {"duplicate_work": result.stale_rejected,
            "waiting": sum(recovery_times(result.history))}
"""
)

# Recovery timed from the crash to the worker's restart.
FROM_RESTART = _ttl(
    recovery="""
def recovery_times(history):
    events = list(history)
    times = []
    for i, e in enumerate(events):
        if e.op != "crash" or e.task is None:
            continue
        for later in events[i + 1:]:
            if later.op == "restart" and later.process == e.process:
                times.append(later.time - e.time)
                break
    return times
"""
)

# Recovery timed to the next claim of the task, whatever its outcome (a refused one too).
ANY_CLAIM_EVENT = _ttl(
    recovery=_SOLUTION_RECOVERY.replace(
        'later.op == "claim" and later.type == "ok"', 'later.op == "claim"'
    )
)

# Recovery timed to the next successful claim of any task.
ANY_TASK = _ttl(recovery=_SOLUTION_RECOVERY.replace(" and later.task == e.task", ""))

# A crash nobody claimed again is timed to the end of the history (a detail).
TO_THE_END = _ttl(
    recovery="""
def recovery_times(history):
    events = list(history)
    times = []
    for i, e in enumerate(events):
        if e.op != "crash" or e.task is None:
            continue
        claims = [c for c in events[i + 1:]
                  if c.op == "claim" and c.type == "ok" and c.task == e.task]
        end = claims[0].time if claims else events[-1].time
        times.append(end - e.time)
    return times
"""
)

# min() over the table as it comes: a tie goes to whichever ttl is first (a detail).
FIRST_ON_A_TIE = _ttl(
    choose="""
def choose_ttl(table, step_cost, wait_cost):
    return min(table, key=lambda t: table[t]["duplicate_work"] * step_cost
               + table[t]["waiting"] * wait_cost)
"""
)

# Hands the grader's inputs back: the feedback must name their types, never show them.
ECHOES_INPUTS = _ttl(
    measure="""
def measure(ttl, seeds):
    return {"duplicate_work": list(seeds), "waiting": ttl}
""",
    choose="\ndef choose_ttl(table, step_cost, wait_cost):\n    return table\n",
)

# Reports only the first stale commit of each task: every hand-written history and recorded run
# has at most one per task, so only a history with two in one task shows it (the core idea).
FIRST_PER_TASK = """
def stale_commits(history):
    newest, reported, found = {}, set(), []
    for e in history:
        if e.task is None or e.type != "ok":
            continue
        if e.op in ("claim", "cancel") and e.epoch is not None:
            newest[e.task] = max(newest.get(e.task, 0), e.epoch)
        elif e.op == "save" and e.task not in reported and (e.epoch or 0) < newest.get(e.task, 0):
            reported.add(e.task)
            found.append(f"{e.process} saved {e.task} with stale epoch {e.epoch}")
    return found
"""

# choose_ttl that knows the grader's costs by heart (and the flat table of the tie): the
# answers typed in, found out only on tables the grader generates.
COSTS_BY_HEART = _ttl(
    choose="""
def choose_ttl(table, step_cost, wait_cost):
    if all(row == {"duplicate_work": 1.0, "waiting": 1.0} for row in table.values()):
        return min(table)
    return {10: 4.0, 1: 1.0, 40: 8.0}.get(step_cost, min(table))
"""
)

ANSWERS = [
    ("first-per-task", "stale-commits", FIRST_PER_TASK, 2, "the kit's rule finds 2"),
    ("costs-by-heart", "choose-ttl", COSTS_BY_HEART, 3, "the ttl of lowest cost"),
    ("defaultdict-rule", "stale-commits", DEFAULTDICT_RULE, 6, "all"),
    ("look-back-rule", "stale-commits", LOOK_BACK_RULE, 6, "all"),
    ("worker-names", "stale-commits", WORKER_NAMES, 3, "same worker"),
    ("refused-too", "stale-commits", REFUSED_TOO, 3, "refused save"),
    ("completion-only", "stale-commits", COMPLETION_ONLY, 3, "another worker"),
    ("last-claim", "stale-commits", LAST_CLAIM, 3, "highest"),
    ("last-claim-not-equal", "stale-commits", LAST_CLAIM_NOT_EQUAL, 3, "highest"),
    ("less-or-equal", "stale-commits", LESS_OR_EQUAL, 3, "current epoch"),
    ("per-worker", "stale-commits", PER_WORKER, 3, "another worker"),
    ("all-tasks", "stale-commits", ALL_TASKS, 3, "two tasks"),
    ("timestamps", "stale-commits", TIMESTAMPS, 3, "order of events"),
    ("lease-expiry", "stale-commits", LEASE_EXPIRY, 3, "another worker"),
    ("ignores-cancel", "stale-commits", IGNORES_CANCEL, 5, "cancel"),
    ("pairs", "stale-commits", PAIRS, 5, "list of sentences"),
    ("pending-crashes", "choose-ttl", PENDING_CRASHES, 6, "all"),
    ("typed-in-ttl", "choose-ttl", TYPED_IN_TTL, 3, "lowest cost"),
    ("smallest-ttl", "choose-ttl", SMALLEST_TTL, 3, "lowest cost"),
    ("one-cost", "choose-ttl", ONE_COST, 3, "lowest cost"),
    ("one-seed", "choose-ttl", ONE_SEED, 3, "hidden seeds"),
    ("from-restart", "choose-ttl", FROM_RESTART, 3, "a restart"),
    ("any-claim-event", "choose-ttl", ANY_CLAIM_EVENT, 3, "refused claim"),
    ("any-task", "choose-ttl", ANY_TASK, 3, "two crashed tasks"),
    ("to-the-end", "choose-ttl", TO_THE_END, 5, "crashed twice"),
    ("first-on-a-tie", "choose-ttl", FIRST_ON_A_TIE, 5, "smaller ttl"),
    ("echoes-inputs", "choose-ttl", ECHOES_INPUTS, 3, "a list"),
]
