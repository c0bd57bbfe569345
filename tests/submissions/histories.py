"""Answers to exercise ``histories`` (``03_histories_and_ttl.ipynb``): correct alternatives
that must get every point, and classic mistakes with the points each must get at most, in the
format of :mod:`submissions.leases` ``(name, question, source, points at most, words in the
feedback)``. A mistake of the core idea gets at most half of the question (3 of 6).

The foreseeing answers (after ``# --- foreseeing``) would pass if each question were judged
only where an answer can see it coming: numbers typed in from the notebook's runs or from a
grader's fixed seeds, a value from another source than the ledger's history, an argument
ignored, a task told apart by a prefix of its name, the check cell's inputs special-cased, or
the grader's world looked up. Each must lose the points of the "must" it breaks in every
hidden world.
"""

from __future__ import annotations

from simlab.checker.checker import stale_commits as kit_stale_commits
from simlab.grading.checks.histories import UNFENCED as _SHOWN
from simlab.grading.checks.histories import measure as kit_measure
from simlab.sim.simulation import simulate
from tests.submissions.cases import answer_source

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

# "name the task in it" met by naming every task of the history in each sentence: the sentence
# no longer tells which task's save was stale.
ALL_NAMES = DEFAULTDICT_RULE.replace(
    'out.append(f"{e.task}: {e.process} saved',
    'out.append(f"{sorted({x.task for x in history if x.task})}: {e.process} saved',
)
assert ALL_NAMES != DEFAULTDICT_RULE

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

# The next claim's task matched by prefix: `job42`'s crash is timed to `job421`'s claim.
PREFIX_RECOVERY = _ttl(
    recovery=_SOLUTION_RECOVERY.replace("later.task == e.task", "later.task.startswith(e.task)")
)

# ... or by substring: `qjob42`'s claim counts as `job42`'s.
SUBSTRING_RECOVERY = _ttl(
    recovery=_SOLUTION_RECOVERY.replace("later.task == e.task", "e.task in later.task")
)

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

# Reports only the first stale commit of each task: only a history with two in one task shows
# it, as the two stale workers saving one step do (the core idea).
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

# Reports a stale commit once per (task, step): a second stale worker saving the same step is
# dropped, though each accepted stale save is a stale commit (the core idea).
ONE_PER_STEP = """
def stale_commits(history):
    newest, seen, found = {}, set(), []
    for e in history:
        if e.task is None or e.type != "ok":
            continue
        if e.op in ("claim", "cancel") and e.epoch is not None:
            newest[e.task] = max(newest.get(e.task, 0), e.epoch)
        elif e.op == "save" and (e.epoch or 0) < newest.get(e.task, 0):
            if (e.task, e.step) not in seen:
                seen.add((e.task, e.step))
                found.append(f"{e.process} (epoch {e.epoch}) committed step {e.step} of {e.task}")
    return found
"""

# Costs rounded to two decimals before they are compared: costs a thousandth apart tie, and
# the tie goes to the smaller ttl (the core idea: the ttl of lowest cost).
ROUNDED_COSTS = _ttl(
    choose="""
def choose_ttl(table, step_cost, wait_cost):
    def cost(ttl):
        row = table[ttl]
        return round(row["duplicate_work"] * step_cost + row["waiting"] * wait_cost, 2)

    return min(sorted(table), key=cost)
"""
)

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

# --- correct alternatives, written otherwise ------------------------------------------------

# Events put in index order first; the task quoted in the sentence; a set of the saves' indexes.
INDEXED_RULE = """
def stale_commits(history):
    events = sorted(history, key=lambda e: e.index)
    highest = {}
    stale = []
    for e in events:
        if e.type != "ok" or e.task is None or e.epoch is None:
            continue
        if e.op == "claim" or e.op == "cancel":
            if e.epoch > highest.get(e.task, -1):
                highest[e.task] = e.epoch
        elif e.op == "save" and e.epoch < highest.get(e.task, e.epoch):
            stale.append(e)
    return [f"task '{e.task}': step {e.step} saved with epoch {e.epoch} by {e.process}"
            for e in stale]
"""

# A save or claim of unknown outcome (type info) taken for a successful one: the simulator
# never records one, a hand-written history may.
INFO_AS_OK = DEFAULTDICT_RULE.replace('e.type != "ok"', 'e.type not in ("ok", "info")')

# The refused saves counted in the history itself (what result.stale_rejected counts), a
# generator of seeds, times found by bisecting each task's claim times, ties broken by sorting.
LEDGER_COUNTS = """
import bisect


def recovery_times(history):
    events = list(history)
    claims = {}
    for e in events:
        if e.op == "claim" and e.type == "ok":
            claims.setdefault(e.task, []).append(e.time)
    times = []
    for i, e in enumerate(events):
        if e.op == "crash" and e.task is not None:
            later = [c.time for c in events[i + 1:]
                     if c.op == "claim" and c.type == "ok" and c.task == e.task]
            if later:
                times.append(later[0] - e.time)
    return times


def measure(ttl, seeds):
    refused = waiting = runs = 0
    for seed in iter(seeds):
        history = simulate(PAUSES.with_(ttl=ttl), seed=seed).history
        refused += sum(1 for e in history if e.op == "save" and e.type == "fail")
        waiting += sum(recovery_times(history))
        runs += 1
    return {"duplicate_work": refused / runs, "waiting": waiting / runs}


def choose_ttl(table, step_cost, wait_cost):
    costs = sorted((row["duplicate_work"] * step_cost + row["waiting"] * wait_cost, ttl)
                   for ttl, row in table.items())
    return costs[0][1]
"""

# --- foreseeing: stale-commits ---------------------------------------------------------------

_NOTEBOOK_RUN = simulate(_SHOWN, seed=3).history
_NOTEBOOK_FENCED = simulate(_SHOWN.with_(variant="fenced"), seed=3).history
#: The lengths of the notebook's runs and of the runs an earlier grader used (seeds 4 and 6),
#: with the counts the kit's rule finds there: what an answer could have typed in.
_KNOWN_RUNS = {
    len(h): len(kit_stale_commits(h))
    for h in [_NOTEBOOK_RUN, _NOTEBOOK_FENCED]
    + [simulate(_SHOWN, seed=seed).history for seed in (4, 6)]
}

# The rule on short histories; on a recorded run, the count it found there typed in (any other
# run: nothing found).
TYPED_IN_RUNS = (
    f"KNOWN = {_KNOWN_RUNS!r}\n"
    + DEFAULTDICT_RULE.replace("def stale_commits(history):", "def _rule(history):")
    + """

def stale_commits(history):
    events = list(history)
    if any(e.op == "submit" for e in events):
        return [f"stale commit {i + 1} (typed in)" for i in range(KNOWN.get(len(events), 0))]
    return _rule(events)
"""
)

# The check cell's history answered as its assert expects; anything else: nothing found.
SELF_CHECK_RULE = """
def stale_commits(history):
    events = list(history)
    if len(events) == 5 and [e.time for e in events] == [0.0, 5.0, 6.0, 7.0, 8.0]:
        return ["w1 (epoch 1) committed step 2 of t1 at t=8.000, but epoch 2 was granted"]
    return []
"""

# The epoch rule, and also every save of a worker that reported a pause since its claim (the
# worker's own report, not the ledger's epochs).
PAUSE_REPORTS = """
def stale_commits(history):
    newest, paused, found = {}, set(), []
    for e in history:
        if e.op == "pause":
            paused.add(e.process)
        if e.task is None or e.type != "ok":
            continue
        if e.op in ("claim", "cancel") and e.epoch is not None:
            newest[e.task] = max(newest.get(e.task, 0), e.epoch)
            paused.discard(e.process)
        elif e.op == "save" and (e.process in paused or (e.epoch or 0) < newest.get(e.task, 0)):
            found.append(f"{e.process} committed step {e.step} of {e.task} after a pause")
    return found
"""

# The history passed in ignored: the notebook's own unfenced run judged instead.
IGNORES_HISTORY = (
    DEFAULTDICT_RULE.replace("def stale_commits(history):", "def _rule(history):")
    + """

def stale_commits(history):
    run = simulate(Scenario(tasks=15, workers=3, variant="unfenced", pause_rate=0.3), seed=3)
    return _rule(run.history)
"""
)

# Tasks told apart by prefix: a grant for t1 is taken as one for t10 too.
PREFIX_TASKS = """
def stale_commits(history):
    newest, found = {}, []
    for e in history:
        if e.type != "ok" or e.task is None or e.epoch is None:
            continue
        if e.op in ("claim", "cancel"):
            newest[e.task] = max(newest.get(e.task, 0), e.epoch)
        elif e.op == "save":
            top = max((v for k, v in newest.items() if e.task.startswith(k)), default=0)
            if e.epoch < top:
                found.append(f"{e.process} (epoch {e.epoch}) committed {e.task}")
    return found
"""

# The grader's world looked up (its hidden checks' modules), the notebook's count otherwise.
READS_THE_GRADER = """
def stale_commits(history):
    try:
        from simlab.grading.checks.histories.stale import reference_stale_commits
        return reference_stale_commits(history)
    except Exception:
        pass
    try:
        from simlab.grading.checks.hidden_world import current_seed
        return [] if current_seed() else ["t1: stale"]
    except Exception:
        pass
    events = list(history)
    return ["t0002: stale commit (as in the notebook)"] * (3 if len(events) > 50 else 1)
"""

# --- foreseeing: choose-ttl ------------------------------------------------------------------

# Results kept by ttl alone: a second call with the same ttl returns the first call's numbers,
# whatever seeds it is given.
CACHED_BY_TTL = _ttl(
    measure="""
_MEASURED = {}


def measure(ttl, seeds):
    if ttl not in _MEASURED:
        duplicate, waiting = [], []
        for seed in seeds:
            result = simulate(PAUSES.with_(ttl=ttl), seed=seed)
            duplicate.append(result.stale_rejected)
            waiting.append(sum(recovery_times(result.history)))
        _MEASURED[ttl] = {"duplicate_work": sum(duplicate) / len(duplicate),
                          "waiting": sum(waiting) / len(waiting)}
    return dict(_MEASURED[ttl])
"""
)

#: The notebook's table as its check cell prints it (2 and 1 decimals).
_NOTEBOOK_TABLE = {
    ttl: {
        "duplicate_work": round(row["duplicate_work"], 2),
        "waiting": round(row["waiting"], 1),
    }
    for ttl, row in ((t, kit_measure(t, range(1, 4))) for t in (1.0, 2.0, 4.0, 8.0, 16.0))
}

# measure() answers with the notebook's printed table, whatever the seeds.
TYPED_IN_TABLE = _ttl(
    measure=f"""
TABLE = {_NOTEBOOK_TABLE!r}


def measure(ttl, seeds):
    return dict(TABLE[min(TABLE, key=lambda t: abs(t - ttl))])
"""
)

# An earlier grader's fixed seeds and ttls known by heart; otherwise measured on one seed.
GRADER_SEEDS_BY_HEART = _ttl(
    measure=f"""
KNOWN = {{(2.0, (31, 32)): {kit_measure(2.0, (31, 32))!r},
         (8.0, (31,)): {kit_measure(8.0, (31,))!r}}}


def measure(ttl, seeds):
    if (ttl, tuple(seeds)) in KNOWN:
        return dict(KNOWN[(ttl, tuple(seeds))])
    result = simulate(PAUSES.with_(ttl=ttl), seed=list(seeds)[0])
    return {{"duplicate_work": result.stale_rejected,
             "waiting": sum(recovery_times(result.history))}}
"""
)

# Duplicate work read from the workers' wasted steps (crashes too), not the refused saves.
WASTED_STEPS = _ttl(
    measure=_SOLUTION_MEASURE.replace("result.stale_rejected", 'result.metrics["wasted_steps"]')
)

# The ttl given ignored: PAUSES as it is.
IGNORES_TTL = _ttl(measure=_SOLUTION_MEASURE.replace("PAUSES.with_(ttl=ttl)", "PAUSES"))

# The seeds given ignored: the notebook's.
IGNORES_SEEDS = _ttl(
    measure=_SOLUTION_MEASURE.replace("for seed in seeds:", "for seed in range(1, 4):")
)

# The costs given ignored: the notebook's (a step worth 10 time units of waiting).
FIXED_COSTS = _ttl(
    choose="""
def choose_ttl(table, step_cost, wait_cost):
    return min(sorted(table), key=lambda t: table[t]["duplicate_work"] * 10 + table[t]["waiting"])
"""
)

# The check cell's inputs answered as printed; anything else: a guess.
SELF_CHECK_TTL = _ttl(
    recovery="""
def recovery_times(history):
    events = list(history)
    if len(events) == 3:
        return [7.5]
    return [e.time for e in events if e.op == "crash"]
""",
    choose="""
def choose_ttl(table, step_cost, wait_cost):
    if (step_cost, wait_cost) == (10, 1):
        return 4.0
    return max(table)
""",
)

# The grader's world looked up, the notebook's table typed in otherwise.
READS_THE_WORLD = _ttl(
    measure=f"""
TABLE = {_NOTEBOOK_TABLE!r}


def measure(ttl, seeds):
    try:
        from simlab.grading.checks.histories.ttl import measure as kit
        return kit(ttl, seeds)
    except Exception:
        pass
    import os
    if "SIMLAB_WORLD" in os.environ:
        return {{"duplicate_work": float(os.environ["SIMLAB_WORLD"]), "waiting": 0.0}}
    return dict(TABLE[min(TABLE, key=lambda t: abs(t - ttl))])
"""
)

ANSWERS = [
    ("first-per-task", "stale-commits", FIRST_PER_TASK, 2, "than there are; it holds 2"),
    ("one-per-step", "stale-commits", ONE_PER_STEP, 3, "two stale workers"),
    ("rounded-costs", "choose-ttl", ROUNDED_COSTS, 3, "less than a hundredth"),
    ("costs-by-heart", "choose-ttl", COSTS_BY_HEART, 3, "the ttl of lowest cost"),
    ("defaultdict-rule", "stale-commits", DEFAULTDICT_RULE, 6, "all"),
    ("look-back-rule", "stale-commits", LOOK_BACK_RULE, 6, "all"),
    ("indexed-rule", "stale-commits", INDEXED_RULE, 6, "all"),
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
    ("info-as-ok", "stale-commits", INFO_AS_OK, 2, "outcome is unknown"),
    ("pairs", "stale-commits", PAIRS, 5, "list of sentences"),
    ("typed-in-runs", "stale-commits", TYPED_IN_RUNS, 2, "recorded unfenced run"),
    ("self-check-rule", "stale-commits", SELF_CHECK_RULE, 2, "another worker"),
    ("pause-reports", "stale-commits", PAUSE_REPORTS, 2, "recorded"),
    ("ignores-history", "stale-commits", IGNORES_HISTORY, 2, "another worker"),
    ("prefix-tasks", "stale-commits", PREFIX_TASKS, 2, "two tasks"),
    ("all-names", "stale-commits", ALL_NAMES, 5, "as well as"),
    ("reads-the-grader", "stale-commits", READS_THE_GRADER, 2, "it holds 2"),
    ("pending-crashes", "choose-ttl", PENDING_CRASHES, 6, "all"),
    ("ledger-counts", "choose-ttl", LEDGER_COUNTS, 6, "all"),
    ("typed-in-ttl", "choose-ttl", TYPED_IN_TTL, 3, "lowest cost"),
    ("smallest-ttl", "choose-ttl", SMALLEST_TTL, 3, "lowest cost"),
    ("one-cost", "choose-ttl", ONE_COST, 3, "lowest cost"),
    ("one-seed", "choose-ttl", ONE_SEED, 3, "hidden seeds"),
    ("from-restart", "choose-ttl", FROM_RESTART, 3, "a restart"),
    ("any-claim-event", "choose-ttl", ANY_CLAIM_EVENT, 3, "refused claim"),
    ("any-task", "choose-ttl", ANY_TASK, 3, "two crashed tasks"),
    ("prefix-recovery", "choose-ttl", PREFIX_RECOVERY, 3, "names hold one another's"),
    ("substring-recovery", "choose-ttl", SUBSTRING_RECOVERY, 3, "names hold one another's"),
    ("to-the-end", "choose-ttl", TO_THE_END, 5, "crashed twice"),
    ("first-on-a-tie", "choose-ttl", FIRST_ON_A_TIE, 5, "smaller ttl"),
    ("echoes-inputs", "choose-ttl", ECHOES_INPUTS, 3, "a list"),
    ("typed-in-table", "choose-ttl", TYPED_IN_TABLE, 3, "hidden seeds"),
    ("grader-seeds-by-heart", "choose-ttl", GRADER_SEEDS_BY_HEART, 3, "hidden seeds"),
    ("wasted-steps", "choose-ttl", WASTED_STEPS, 3, "duplicate_work"),
    ("ignores-ttl", "choose-ttl", IGNORES_TTL, 3, "hidden ttl"),
    ("ignores-seeds", "choose-ttl", IGNORES_SEEDS, 3, "hidden seeds"),
    ("fixed-costs", "choose-ttl", FIXED_COSTS, 2, "lowest cost"),
    ("self-check-ttl", "choose-ttl", SELF_CHECK_TTL, 2, "recovery_times()"),
    ("reads-the-world", "choose-ttl", READS_THE_WORLD, 3, "hidden seeds"),
    ("cached-by-ttl", "choose-ttl", CACHED_BY_TTL, 3, "hidden seeds"),
]

# Every claim and cancel with an epoch raises the highest epoch, refused or only asked for
# (newer-epoch: "Two kinds of events grant an epoch: a successful claim ... and a successful
# cancel").
_SOLUTION_STALE = answer_source("solutions", "03_histories_and_ttl.ipynb", "stale-commits")
REFUSED_GRANTS_TOO = _SOLUTION_STALE.replace(
    '        if e.task is None or e.type != "ok":\n            continue\n',
    "        if e.task is None:\n            continue\n",
).replace(
    '        elif e.op == "save" and e.task',
    '        elif e.op == "save" and e.type == "ok" and e.task',
)
assert REFUSED_GRANTS_TOO.count('e.type == "ok"') == 1

ANSWERS += [
    ("refused-grants-too", "stale-commits", REFUSED_GRANTS_TOO, 2, "refused at higher epochs"),
]

# Tasks told apart by the first 5 characters of their names (newer-epoch: "remember, per
# task, the highest epoch granted so far"): tasks sharing a longer prefix are mixed.
PREFIX5_TASKS = (
    _SOLUTION_STALE.replace("e.task not in newest", "e.task[:5] not in newest")
    .replace("e.task in newest", "e.task[:5] in newest")
    .replace("newest[e.task]", "newest[e.task[:5]]")
)
assert PREFIX5_TASKS.count("e.task[:5]") == 6
# Tasks told apart by their names in small letters (newer-epoch: per task): a task and the
# same name in other capitals are mixed.
CASEFOLD_TASKS = (
    _SOLUTION_STALE.replace("e.task not in newest", "e.task.lower() not in newest")
    .replace("e.task in newest", "e.task.lower() in newest")
    .replace("newest[e.task]", "newest[e.task.lower()]")
)
assert CASEFOLD_TASKS.count("e.task.lower()") == 6
# Any epoch other than the highest granted is stale, a higher one too (newer-epoch: "whose
# epoch is **lower** than that is a stale commit").
NOT_EQUAL_HIGHEST = _SOLUTION_STALE.replace(
    "(e.epoch or 0) < newest[e.task][0]", "(e.epoch or 0) != newest[e.task][0]"
)
assert ") != newest[e.task][0]" in NOT_EQUAL_HIGHEST
# Every sentence also names the notebook's example task (sentences: "name its task in it (that
# task only, no other task of the history)").
EXAMPLE_TASK_NAMED = _SOLUTION_STALE.replace(
    'granted at t={granted_at:.3f}")', 'granted at t={granted_at:.3f} (like t0002)")'
)
assert "(like t0002)" in EXAMPLE_TASK_NAMED

ANSWERS += [
    ("prefix5-tasks", "stale-commits", PREFIX5_TASKS, 3, "names are equal"),
    ("casefold-tasks", "stale-commits", CASEFOLD_TASKS, 3, "names are equal"),
    ("not-equal-highest", "stale-commits", NOT_EQUAL_HIGHEST, 3, "lower epoch"),
    ("example-task-named", "stale-commits", EXAMPLE_TASK_NAMED, 5, "another task of the history"),
]

# measure() keeps each seed's run between calls, whatever the ttl: a later call with the same
# seeds and another ttl answers the first call's numbers (measured-trade-off: "simulate
# `PAUSES.with_(ttl=ttl)` once per seed").
_SOLUTION_TTL = answer_source("solutions", "03_histories_and_ttl.ipynb", "choose-ttl")
RUNS_KEPT_BY_SEED = _SOLUTION_TTL.replace(
    "        result = simulate(PAUSES.with_(ttl=ttl), seed=seed)\n",
    "        if seed not in _RUNS:\n"
    "            _RUNS[seed] = simulate(PAUSES.with_(ttl=ttl), seed=seed)\n"
    "        result = _RUNS[seed]\n",
).replace("def measure(ttl, seeds):", "_RUNS = {}\n\n\ndef measure(ttl, seeds):")
assert "_RUNS[seed] = " in RUNS_KEPT_BY_SEED and "_RUNS = {}" in RUNS_KEPT_BY_SEED

ANSWERS += [("runs-kept-by-seed", "choose-ttl", RUNS_KEPT_BY_SEED, 3, "measure")]

# measure() simulates its own copy of the PAUSES scenario (the same numbers, typed in): right
# until PAUSES holds another scenario (measured-trade-off: "simulate `PAUSES.with_(ttl=ttl)`",
# "Read `PAUSES` at each call").
OWN_SCENARIO = _SOLUTION_TTL.replace(
    "result = simulate(PAUSES.with_(ttl=ttl), seed=seed)",
    "result = simulate(Scenario(tasks=20, workers=3, pause_rate=0.3, pause_mean=3.0,\n"
    "                                   crash_rate=0.1, effect_crash_rate=0.0, slow_rate=0.0,\n"
    "                                   duplicate_rate=0.0, cancel_rate=0.0, effects='none',\n"
    "                                   ttl=ttl), seed=seed)",
)
assert OWN_SCENARIO.count("PAUSES.with_") == 1  # the hint's comment alone
# The next claim found by a later time, not by its place in the history: a claim at the
# crash's own time is skipped (measured-trade-off: "the **next** successful claim ... in the
# order the history lists them").
_NEXT_IN_HISTORY = (
    "        for later in events[i + 1:]:\n"
    '            if later.op == "claim" and later.type == "ok" and later.task == e.task:\n'
)
assert _NEXT_IN_HISTORY in _SOLUTION_TTL
RECOVERY_LATER_TIME = _SOLUTION_TTL.replace(
    _NEXT_IN_HISTORY,
    "        for later in events:\n"
    '            if later.time > e.time and later.op == "claim" and later.type == "ok"'
    " and later.task == e.task:\n",
)
# ... or by a time no earlier than the crash's: a claim listed before the crash at its time
# is taken for the next one.
RECOVERY_NO_EARLIER = RECOVERY_LATER_TIME.replace("later.time > e.time", "later.time >= e.time")
# Correct: PAUSES read at the call through dataclasses.replace, and the next claim found by
# its position (bisect over each task's claim positions).
REPLACE_AND_BISECT = _ttl(
    recovery="""
import bisect
import dataclasses


def recovery_times(history):
    events = list(history)
    claims = {}
    for j, x in enumerate(events):
        if x.op == "claim" and x.type == "ok":
            claims.setdefault(x.task, []).append(j)
    times = []
    for i, e in enumerate(events):
        if e.op != "crash" or e.task is None:
            continue
        positions = claims.get(e.task, [])
        k = bisect.bisect_right(positions, i)
        if k < len(positions):
            times.append(events[positions[k]].time - e.time)
    return times
""",
    measure=_SOLUTION_MEASURE.replace(
        "PAUSES.with_(ttl=ttl)", "dataclasses.replace(PAUSES, ttl=ttl)"
    ),
)
# The events walked sorted by their times, not in the order the history lists them
# (newer-epoch: "Walk the events in the order the history lists them").
SORTED_BY_TIME = _SOLUTION_STALE.replace(
    "    for e in history:\n", "    for e in sorted(history, key=lambda e: e.time):\n"
)
assert SORTED_BY_TIME != _SOLUTION_STALE

ANSWERS += [
    ("own-scenario", "choose-ttl", OWN_SCENARIO, 3, "read PAUSES at each call"),
    ("recovery-later-time", "choose-ttl", RECOVERY_LATER_TIME, 3, "share a time"),
    ("recovery-no-earlier", "choose-ttl", RECOVERY_NO_EARLIER, 3, "share a time"),
    ("replace-and-bisect", "choose-ttl", REPLACE_AND_BISECT, 6, "all"),
    ("sorted-by-time", "stale-commits", SORTED_BY_TIME, 3, "times go back"),
]

# A claim of unknown outcome (type info: its reply lost) taken for a grant of its epoch, saves
# still judged on type ok (newer-epoch: "Two kinds of events grant an epoch: a successful claim
# (`op == "claim"`, `type == "ok"`)").
INFO_CLAIM_GRANTS = _SOLUTION_STALE.replace(
    '        if e.task is None or e.type != "ok":\n',
    '        if e.task is None or e.type not in ("ok", "info"):\n',
).replace(
    '        elif e.op == "save" and e.task',
    '        elif e.op == "save" and e.type == "ok" and e.task',
)
assert INFO_CLAIM_GRANTS.count('"info"') == 1 and INFO_CLAIM_GRANTS.count('e.type == "ok"') == 1
# Costs within math.isclose taken for a tie, the smaller ttl winning (measured-trade-off:
# "return the ttl with the lowest cost"; a tie is equal cost).
_CHOOSE_MIN = "    return min(sorted(table), key=cost)\n"
assert _CHOOSE_MIN in _SOLUTION_TTL
ISCLOSE_TIE = _SOLUTION_TTL.replace(
    _CHOOSE_MIN,
    "    import math\n"
    "    best = None\n"
    "    for ttl in sorted(table):\n"
    "        if best is None or (cost(ttl) < cost(best)\n"
    "                            and not math.isclose(cost(ttl), cost(best))):\n"
    "            best = ttl\n"
    "    return best\n",
)
# Correct: the costs summed the other way round with math.fsum, the tie broken by a (cost,
# ttl) key.
REGROUPED_COSTS = _SOLUTION_TTL.replace(
    '        return row["duplicate_work"] * step_cost + row["waiting"] * wait_cost\n',
    "        import math\n"
    '        return math.fsum((wait_cost * row["waiting"], step_cost * row["duplicate_work"]))\n',
).replace(_CHOOSE_MIN, "    return min(table, key=lambda t: (cost(t), t))\n")
# Correct: exact costs as fractions of the table's floats.
FRACTION_COSTS = _SOLUTION_TTL.replace(
    '        return row["duplicate_work"] * step_cost + row["waiting"] * wait_cost\n',
    "        from fractions import Fraction\n"
    '        return (Fraction(row["duplicate_work"]) * Fraction(step_cost)\n'
    '                + Fraction(row["waiting"]) * Fraction(wait_cost))\n',
)
assert len({ISCLOSE_TIE, REGROUPED_COSTS, FRACTION_COSTS, _SOLUTION_TTL}) == 4

ANSWERS += [
    ("info-claim-grants", "stale-commits", INFO_CLAIM_GRANTS, 2, "reply was lost"),
    ("isclose-tie", "choose-ttl", ISCLOSE_TIE, 3, "less than a billionth"),
    ("regrouped-costs", "choose-ttl", REGROUPED_COSTS, 6, "all"),
    ("fraction-costs", "choose-ttl", FRACTION_COSTS, 6, "all"),
]

# Correct: the history read through History's documented API (its events property, len and
# indexing), as the text's check cells hand a History: the grader must hand one too.
HISTORY_API_RULE = """
def stale_commits(history):
    events = history.events
    assert len(events) == len(history) and all(history[i] is not None for i in range(len(history)))
    highest, found = {}, []
    for e in sorted(events, key=lambda e: e.index):
        if e.type != "ok" or e.task is None or e.epoch is None:
            continue
        if e.op in ("claim", "cancel"):
            highest[e.task] = max(highest.get(e.task, e.epoch), e.epoch)
        elif e.op == "save" and e.epoch < highest.get(e.task, e.epoch):
            found.append(f"{e.process} (epoch {e.epoch}) committed step {e.step} of {e.task}")
    return found
"""
HISTORY_API_RECOVERY = _SOLUTION_TTL.replace(
    "    events = list(history)\n    times = []\n",
    "    events = [history[i] for i in range(len(history))]\n"
    "    assert events == history.events\n"
    "    times = []\n",
)
assert HISTORY_API_RECOVERY.count("history.events") == 1
# A crash without a task (task None) timed too, to the next claim of any task
# (measured-trade-off: "for every `crash` event that has a task (`op == "crash"`,
# `e.task is not None`)").
CRASH_WITHOUT_TASK = _SOLUTION_TTL.replace(
    '        if e.op != "crash" or e.task is None:\n', '        if e.op != "crash":\n'
).replace("and later.task == e.task:", "and (e.task is None or later.task == e.task):")
assert CRASH_WITHOUT_TASK.count("e.task is None") == 1

ANSWERS += [
    ("history-api-rule", "stale-commits", HISTORY_API_RULE, 6, "all"),
    ("history-api-recovery", "choose-ttl", HISTORY_API_RECOVERY, 6, "all"),
    ("crash-without-task", "choose-ttl", CRASH_WITHOUT_TASK, 3, "holding no task"),
]

# Seeds de-duplicated before measuring (measured-trade-off: "A seed listed twice counts
# twice.").
MEASURE_DISTINCT_SEEDS = _SOLUTION_TTL.replace(
    "    for seed in seeds:\n", "    for seed in sorted(set(seeds)):\n"
)
assert MEASURE_DISTINCT_SEEDS != _SOLUTION_TTL
ANSWERS += [("measure-distinct-seeds", "choose-ttl", MEASURE_DISTINCT_SEEDS, 3, "hidden seeds")]

# wait_cost ignored, as if it were always 1 (the worlds' costs often are): the costs of some
# world passed it by (measured-trade-off: "return the ttl with the lowest cost
# `duplicate_work * step_cost + waiting * wait_cost`").
_COST = '        return row["duplicate_work"] * step_cost + row["waiting"] * wait_cost\n'
assert _COST in _SOLUTION_TTL
IGNORES_WAIT_COST = _SOLUTION_TTL.replace(_COST, _COST.replace(" * wait_cost", " * 1"))
# ... and step_cost ignored, as if a step were always worth 10 (the notebook's).
IGNORES_STEP_COST = _SOLUTION_TTL.replace(_COST, _COST.replace(" * step_cost", " * 10"))

ANSWERS += [
    ("ignores-wait-cost", "choose-ttl", IGNORES_WAIT_COST, 2, "lowest cost"),
    ("ignores-step-cost", "choose-ttl", IGNORES_STEP_COST, 2, "lowest cost"),
]

# choose_ttl empties the table it chose from (contract: "None of the three changes what it is
# given (`history`, `seeds`, `table`)").
CLEARS_TABLE = _SOLUTION_TTL.replace(
    _CHOOSE_MIN, "    best = min(sorted(table), key=cost)\n    table.clear()\n    return best\n"
)
# measure consumes its list of seeds as it runs them.
CONSUMES_SEEDS = _SOLUTION_TTL.replace(
    "    for seed in seeds:\n",
    "    seeds = seeds if isinstance(seeds, list) else list(seeds)\n"
    "    while seeds:\n"
    "        seed = seeds.pop(0)\n",
)
# recovery_times reads the history from its end, popping the events from the list that holds
# them (the History it was given left empty).
_RECOVERY_RETURN = "    return times\n"
assert _SOLUTION_TTL.count(_RECOVERY_RETURN) == 1
POPS_HISTORY = _SOLUTION_TTL.replace(
    _RECOVERY_RETURN,
    "    held = getattr(history, '_events', history)\n"
    "    while held:\n        held.pop()\n" + _RECOVERY_RETURN,
)
# recovery_times returns a tuple where the text says a list (contract: "a list holding").
TUPLE_TIMES = _SOLUTION_TTL.replace(_RECOVERY_RETURN, "    return tuple(times)\n")
# recovery times rounded to milliseconds (measured-trade-off: "Neither `recovery_times` nor
# `measure` rounds").
ROUNDED_TIMES = _SOLUTION_TTL.replace(
    "times.append(later.time - e.time)", "times.append(round(later.time - e.time, 3))"
)
# measure puts its list of seeds in order (sorted, or reversed) before it runs them, in place:
# a list that happens to be in order already would not show it.
_FOR_SEED = "    for seed in seeds:\n"
assert _SOLUTION_TTL.count(_FOR_SEED) == 1
SORTS_SEEDS = _SOLUTION_TTL.replace(
    _FOR_SEED, "    if isinstance(seeds, list):\n        seeds.sort()\n" + _FOR_SEED
)
REVERSES_SEEDS = _SOLUTION_TTL.replace(
    _FOR_SEED, "    if isinstance(seeds, list):\n        seeds.reverse()\n" + _FOR_SEED
)
# choose_ttl puts the table's rows in order of their ttl, in place, before it chooses.
SORTS_TABLE = _SOLUTION_TTL.replace(
    _CHOOSE_MIN,
    "    rows = sorted(table.items())\n    table.clear()\n    table.update(rows)\n" + _CHOOSE_MIN,
)
assert SORTS_TABLE != _SOLUTION_TTL
assert len({CLEARS_TABLE, CONSUMES_SEEDS, POPS_HISTORY, TUPLE_TIMES, ROUNDED_TIMES}) == 5
assert _SOLUTION_TTL not in (CONSUMES_SEEDS, ROUNDED_TIMES)

ANSWERS += [
    ("clears-table", "choose-ttl", CLEARS_TABLE, 5, "changed the table"),
    ("consumes-seeds", "choose-ttl", CONSUMES_SEEDS, 5, "changed the seeds"),
    ("sorts-seeds", "choose-ttl", SORTS_SEEDS, 5, "changed the seeds"),
    ("sorts-table", "choose-ttl", SORTS_TABLE, 5, "changed the table"),
    ("reverses-seeds", "choose-ttl", REVERSES_SEEDS, 5, "changed the seeds"),
    ("pops-history", "choose-ttl", POPS_HISTORY, 5, "changed the history"),
    ("tuple-times", "choose-ttl", TUPLE_TIMES, 5, "expected a list"),
    ("rounded-times", "choose-ttl", ROUNDED_TIMES, 3, "other times"),
]

# The history sorted by time before it is walked: a claim listed after a crash but stamped
# before it is taken for an earlier one, and the crashes come in the order of their times
# (measured-trade-off: "the **next** successful claim of that task ... in the order the history
# lists them ..., in the order of the crashes").
_EVENTS_AS_LISTED = "    events = list(history)\n"
assert _SOLUTION_TTL.count(_EVENTS_AS_LISTED) == 1
RECOVERY_SORTED_HISTORY = _SOLUTION_TTL.replace(
    _EVENTS_AS_LISTED, "    events = sorted(history, key=lambda e: e.time)\n"
)
# ... or the right times, given in the order of the crashes' times.
RECOVERY_BY_CRASH_TIME = _SOLUTION_TTL.replace(
    "times.append(later.time - e.time)", "times.append((e.time, later.time - e.time))"
).replace(_RECOVERY_RETURN, "    return [t for _, t in sorted(times)]\n")
assert RECOVERY_BY_CRASH_TIME.count("sorted(times)") == 1

ANSWERS += [
    ("recovery-sorted-history", "choose-ttl", RECOVERY_SORTED_HISTORY, 3, "out of time order"),
    ("recovery-by-crash-time", "choose-ttl", RECOVERY_BY_CRASH_TIME, 3, "out of time order"),
]

# measure() behind functools.lru_cache on (ttl, seeds): a later call with the same arguments
# answers the first call's numbers though PAUSES holds another scenario by then
# (measured-trade-off: "Read `PAUSES` at each call").
MEASURE_CACHED = _SOLUTION_TTL.replace(
    "def measure(ttl, seeds):\n",
    "import functools\n\n\ndef measure(ttl, seeds):\n"
    "    return dict(_measure(ttl, tuple(seeds)))\n\n\n"
    "@functools.lru_cache(maxsize=None)\ndef _measure(ttl, seeds):\n",
).replace(
    '    return {"duplicate_work": sum(duplicate) / len(duplicate),\n'
    '            "waiting": sum(waiting) / len(waiting)}\n',
    '    return tuple({"duplicate_work": sum(duplicate) / len(duplicate),\n'
    '                  "waiting": sum(waiting) / len(waiting)}.items())\n',
)
assert MEASURE_CACHED.count("lru_cache") == 1 and "return tuple(" in MEASURE_CACHED
# Only crashes recorded as info timed (measured-trade-off: "for every `crash` event that has a
# task (`op == "crash"`, `e.task is not None`)": whatever its type).
CRASH_INFO_ONLY = _SOLUTION_TTL.replace(
    '        if e.op != "crash" or e.task is None:\n',
    '        if e.op != "crash" or e.type != "info" or e.task is None:\n',
)
assert CRASH_INFO_ONLY != _SOLUTION_TTL

ANSWERS += [
    ("measure-cached", "choose-ttl", MEASURE_CACHED, 3, "read PAUSES at each call"),
    ("crash-info-only", "choose-ttl", CRASH_INFO_ONLY, 3, "another type than info"),
]

# --- what grants an epoch, and which names are one task ---------------------------------------

# An accepted save of a higher epoch also raises the task's highest epoch (newer-epoch: "Two
# kinds of events grant an epoch: a successful claim ... and a successful cancel").
_GRANTS = '        if e.op in ("claim", "cancel") and e.epoch is not None:\n'
assert _SOLUTION_STALE.count(_GRANTS) == 1
SAVE_GRANTS = _SOLUTION_STALE.replace(
    "    return found\n",
    '        if e.op == "save" and e.epoch is not None and e.epoch > newest.get(e.task, (0,))[0]:\n'
    "            newest[e.task] = (e.epoch, e.time)\n"
    "    return found\n",
)
assert SAVE_GRANTS.count("newest[e.task] = ") == 2
# A cancel of unknown outcome (type info) taken for a grant, saves and claims still judged on
# type ok (newer-epoch: "a successful cancel (`op == "cancel"`, `type == "ok"`...)").
INFO_CANCEL_GRANTS = _SOLUTION_STALE.replace(
    '        if e.task is None or e.type != "ok":\n',
    '        if e.task is None or e.type not in ("ok", "info"):\n'
    "            continue\n"
    '        if e.type == "info" and e.op != "cancel":\n',
)
assert INFO_CANCEL_GRANTS.count('"info"') == 2


def _tasks_as(fold: str) -> str:
    """The solution's rule with each task told apart by ``fold`` of its name (an expression
    of ``e.task``): "remember, per task" read loosely."""
    return (
        _SOLUTION_STALE.replace("e.task not in newest", f"{fold} not in newest")
        .replace("e.task in newest", f"{fold} in newest")
        .replace("newest[e.task]", f"newest[{fold}]")
    )


_NORMAL = "__import__('unicodedata').normalize('{}', e.task)"
STRIPPED_TASKS = _tasks_as("e.task.strip()")
NFKC_TASKS = _tasks_as(_NORMAL.format("NFKC"))
NFC_TASKS = _tasks_as(_NORMAL.format("NFC"))
assert STRIPPED_TASKS.count("e.task.strip()") == 6 and NFC_TASKS.count("'NFC'") == 6

# The crash's task matched to a later claim's loosely ("the **next** successful claim of that
# task"): a look-alike's claim is taken for the task's own.
_SAME_TASK = "later.task == e.task"
assert _SOLUTION_TTL.count(_SAME_TASK) == 1
RECOVERY_CASEFOLD = _SOLUTION_TTL.replace(_SAME_TASK, "later.task.casefold() == e.task.casefold()")
RECOVERY_STRIPPED = _SOLUTION_TTL.replace(_SAME_TASK, "later.task.strip() == e.task.strip()")
RECOVERY_NFKC = _SOLUTION_TTL.replace(
    _SAME_TASK,
    f"{_NORMAL.format('NFKC')} == {_NORMAL.format('NFKC').replace('e.task', 'later.task')}",
)
RECOVERY_NFC = _SOLUTION_TTL.replace(
    _SAME_TASK,
    f"{_NORMAL.format('NFC')} == {_NORMAL.format('NFC').replace('e.task', 'later.task')}",
)

ANSWERS += [
    ("save-grants", "stale-commits", SAVE_GRANTS, 3, "a save grants none"),
    ("info-cancel-grants", "stale-commits", INFO_CANCEL_GRANTS, 3, "only a cancel with type ok"),
    ("stripped-tasks", "stale-commits", STRIPPED_TASKS, 3, "names are equal"),
    ("nfkc-tasks", "stale-commits", NFKC_TASKS, 3, "names are equal"),
    ("nfc-tasks", "stale-commits", NFC_TASKS, 3, "names are equal"),
    ("recovery-casefold", "choose-ttl", RECOVERY_CASEFOLD, 3, "Unicode form"),
    ("recovery-stripped", "choose-ttl", RECOVERY_STRIPPED, 3, "Unicode form"),
    ("recovery-nfkc", "choose-ttl", RECOVERY_NFKC, 3, "Unicode form"),
    ("recovery-nfc", "choose-ttl", RECOVERY_NFC, 3, "Unicode form"),
]

# --- what takes no grant back, and one sentence per stale commit ------------------------------

# Equal sentences given once: a save recorded twice (a retry) is reported once (sentences:
# "Return a list with one sentence per stale commit").
_RETURN_FOUND = "    return found\n"
assert _SOLUTION_STALE.count(_RETURN_FOUND) == 1
DEDUPED_SENTENCES = _SOLUTION_STALE.replace(
    _RETURN_FOUND, "    return list(dict.fromkeys(found))\n"
)
# The sentences put in the order of their saves' times (sentences: "in history order").
_FOUND_APPEND = 'found.append(f"'
assert _SOLUTION_STALE.count(_FOUND_APPEND) == 1
SENTENCES_BY_TIME = (
    _SOLUTION_STALE.replace(_FOUND_APPEND, 'found.append((e.time, f"')
    .replace('granted_at:.3f}")', 'granted_at:.3f}"))')
    .replace(_RETURN_FOUND, "    return [s for _, s in sorted(found, key=lambda p: p[0])]\n")
)
assert SENTENCES_BY_TIME.count("e.time, f") == 1 and 'granted_at:.3f}"))' in SENTENCES_BY_TIME
# A requeue ok (or a release ok) taken to undo the task's grants: its highest epoch forgotten
# (newer-epoch: "remember, per task, the highest epoch granted so far").
_GRANTS_IF = '        if e.op in ("claim", "cancel") and e.epoch is not None:\n'
assert _SOLUTION_STALE.count(_GRANTS_IF) == 1
FORGETS_ON_REQUEUE = _SOLUTION_STALE.replace(
    _GRANTS_IF,
    '        if e.op == "requeue":\n            newest.pop(e.task, None)\n'
    + "        el"
    + _GRANTS_IF[8:],
)
FORGETS_ON_RELEASE = FORGETS_ON_REQUEUE.replace('e.op == "requeue"', 'e.op == "release"')
assert FORGETS_ON_RELEASE.count('"release"') == 1 and FORGETS_ON_REQUEUE.count("pop(") == 1
# A refused save of a higher epoch taken for a grant of it (newer-epoch: "Two kinds of events
# grant an epoch: a successful claim ... and a successful cancel").
_OK_ONLY = '        if e.task is None or e.type != "ok":\n            continue\n'
assert _SOLUTION_STALE.count(_OK_ONLY) == 1
REFUSED_SAVE_GRANTS = _SOLUTION_STALE.replace(
    _OK_ONLY,
    "        if e.task is None:\n            continue\n"
    '        if e.op == "save" and e.type == "fail" and e.epoch is not None:\n'
    "            if e.task not in newest or e.epoch > newest[e.task][0]:\n"
    "                newest[e.task] = (e.epoch, e.time)\n"
    "            continue\n"
    '        if e.type != "ok":\n            continue\n',
)
# Epochs compared as strings (newer-epoch: "whose epoch is **lower** than that"): after 9,
# epoch 10 looks lower.
EPOCHS_AS_STRINGS = _SOLUTION_STALE.replace(
    "e.epoch > newest[e.task][0]", "str(e.epoch) > str(newest[e.task][0])"
).replace("(e.epoch or 0) < newest[e.task][0]", "str(e.epoch or 0) < str(newest[e.task][0])")
assert EPOCHS_AS_STRINGS.count("str(") == 4
# A cancel ok counted only for a task a claim ok was granted before (cancel: "a successful
# cancel (`op == "cancel"`, `type == "ok"`: a cancel bumps the epoch too)").
CANCEL_AFTER_A_CLAIM = _SOLUTION_STALE.replace(
    _GRANTS_IF,
    '        if e.op == "cancel" and e.task not in newest:\n            continue\n' + _GRANTS_IF,
)
assert CANCEL_AFTER_A_CLAIM != _SOLUTION_STALE

# The next claim of unknown outcome (type info: its reply lost) taken for the next one
# (measured-trade-off: "the **next** successful claim of that task (`claim`, `ok`)").
NEXT_CLAIM_INFO_TOO = _SOLUTION_TTL.replace(
    'later.op == "claim" and later.type == "ok"',
    'later.op == "claim" and later.type in ("ok", "info")',
)
assert NEXT_CLAIM_INFO_TOO.count('"info"') == 1
# The cost divided by wait_cost (the same order for positive costs): a free wait raises
# (measured-trade-off: "the lowest cost `duplicate_work * step_cost + waiting * wait_cost`",
# "Either cost may be 0").
DIVIDES_BY_WAIT_COST = _SOLUTION_TTL.replace(
    _COST, '        return row["duplicate_work"] * step_cost / wait_cost + row["waiting"]\n'
)
# ... or by step_cost: a free step raises.
DIVIDES_BY_STEP_COST = _SOLUTION_TTL.replace(
    _COST, '        return row["duplicate_work"] + row["waiting"] * wait_cost / step_cost\n'
)
assert len({DIVIDES_BY_WAIT_COST, DIVIDES_BY_STEP_COST, _SOLUTION_TTL}) == 3

ANSWERS += [
    ("deduped-sentences", "stale-commits", DEDUPED_SENTENCES, 5, "recorded again"),
    ("sentences-by-time", "stale-commits", SENTENCES_BY_TIME, 5, "history order"),
    ("forgets-on-requeue", "stale-commits", FORGETS_ON_REQUEUE, 3, "takes no grant back"),
    ("forgets-on-release", "stale-commits", FORGETS_ON_RELEASE, 3, "takes no grant back"),
    ("refused-save-grants", "stale-commits", REFUSED_SAVE_GRANTS, 3, "refused or not"),
    ("epochs-as-strings", "stale-commits", EPOCHS_AS_STRINGS, 3, "compare as numbers"),
    ("cancel-after-a-claim", "stale-commits", CANCEL_AFTER_A_CLAIM, 5, "even before any claim ok"),
    ("next-claim-info-too", "choose-ttl", NEXT_CLAIM_INFO_TOO, 3, "unknown outcome (info)"),
    ("divides-by-wait-cost", "choose-ttl", DIVIDES_BY_WAIT_COST, 3, "ZeroDivisionError"),
    ("divides-by-step-cost", "choose-ttl", DIVIDES_BY_STEP_COST, 3, "ZeroDivisionError"),
]

# The largest ttl whenever the wait is free, as if duplicate work always fell as the ttl grows:
# two ttls with no duplicate work tie, and the smaller must win (tie: "(on a tie, the smaller
# ttl)"; "Either cost may be 0: that cost is then free.").
WAIT_FREE_LARGEST = _SOLUTION_TTL.replace(
    _CHOOSE_MIN, "    if wait_cost == 0:\n        return max(table)\n" + _CHOOSE_MIN
)
# ... or the table's first ttl when both costs are free (every ttl ties at 0).
BOTH_FREE_FIRST = _SOLUTION_TTL.replace(
    _CHOOSE_MIN,
    "    if step_cost == 0 and wait_cost == 0:\n        return next(iter(table))\n" + _CHOOSE_MIN,
)
assert len({WAIT_FREE_LARGEST, BOTH_FREE_FIRST, _SOLUTION_TTL}) == 3

ANSWERS += [
    ("wait-free-largest", "choose-ttl", WAIT_FREE_LARGEST, 5, "a free cost (0) makes ttls tie"),
    ("both-free-first", "choose-ttl", BOTH_FREE_FIRST, 5, "a free cost (0) makes ttls tie"),
]

# Answers that tamper with the grader's code in the sandbox, or lie to its reads.
from tests.submissions.tampering import TAMPERING  # noqa: E402

ANSWERS += [(n, q, _SOLUTION_TTL + "\n" + src, m, w) for n, q, src, m, w in TAMPERING["histories"]]
