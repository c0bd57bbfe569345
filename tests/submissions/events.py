"""Answers to exercise ``events`` (``06_events_and_permissions.ipynb``): correct alternatives
written differently from the solution (every point) and classic mistakes, in the format of
:mod:`submissions.grading` ``(name, question, source, points at most, words in the feedback)``.

A mistake of the core idea (each event once and in order per task; a subset on every dimension
as sets of exact names) may get at most half of its question; a detail loses its criterion.
"""

from __future__ import annotations

# --- absorber: correct alternatives ---------------------------------------------------------

HEAP_ABSORBER = """
import heapq


class Absorber:
    def __init__(self):
        self.state = {}

    def offer(self, event):
        if type(event["version"]) is not int or event["version"] != 1:
            return []
        st = self.state.setdefault(event["task_id"], {"next": 1, "heap": [], "keys": {}})
        seq, key = event["seq"], event["idempotency_key"]
        if seq < st["next"] or seq in st["keys"] or key in st["keys"].values():
            return []
        st["keys"][seq] = key
        heapq.heappush(st["heap"], (seq, len(st["keys"]), event))
        out = []
        while st["heap"] and st["heap"][0][0] == st["next"]:
            out.append(heapq.heappop(st["heap"])[2])
            st["next"] += 1
        return out
"""

# The kit's absorber, handing back the dicts it was given (the kit's records are not them).
KIT_WRAPPER = """
from simlab.agent import AgentEvent, EventAbsorber


class Absorber:
    def __init__(self):
        self.kit = EventAbsorber()
        self.given = {}

    def offer(self, event):
        record = AgentEvent.from_dict(event)
        self.given.setdefault(self.ident(record), event)
        return [self.given.pop(self.ident(e)) for e in self.kit.offer(record)]

    @staticmethod
    def ident(e):
        return e.task_id, e.seq, e.idempotency_key, e.version
"""

# The kit's absorber, handing back its records as new dicts: copies, not the dicts given.
KIT_COPIES = """
from simlab.agent import AgentEvent, EventAbsorber


class Absorber:
    def __init__(self):
        self.kit = EventAbsorber()

    def offer(self, event):
        return [e.to_dict() for e in self.kit.offer(AgentEvent.from_dict(event))]
"""

# Counts a dropped conflicting event's key as seen: the text says a dropped second event is
# forgotten, key and all, so a later event of a new seq carrying that key is never released
# (conflicts).
SEEN_EVERY_KEY = """
class Absorber:
    def __init__(self):
        self.tasks = {}

    def offer(self, event):
        if type(event["version"]) is not int or event["version"] != 1:
            return []
        fresh = {"next": 1, "held": {}, "by_seq": {}, "seen": set()}
        t = self.tasks.setdefault(event["task_id"], fresh)
        seq, key = event["seq"], event["idempotency_key"]
        if key in t["seen"] or seq < t["next"]:
            return []
        t["seen"].add(key)
        if seq in t["by_seq"]:
            return []  # a conflict: the first one stays
        t["by_seq"][seq] = key
        t["held"][seq] = event
        out = []
        while t["next"] in t["held"]:
            out.append(t["held"].pop(t["next"]))
            t["next"] += 1
        return out
"""

# Correct: one set of seen keys per task, beside the seqs taken, a key added only with an
# event kept (a dropped conflicting event leaves no trace).
KEPT_KEYS_ONLY = SEEN_EVERY_KEY.replace(
    """        t["seen"].add(key)
        if seq in t["by_seq"]:
            return []  # a conflict: the first one stays
""",
    """        if seq in t["by_seq"]:
            return []  # a conflict: the first one stays, the second is forgotten
        t["seen"].add(key)
""",
)
assert KEPT_KEYS_ONLY != SEEN_EVERY_KEY

# Sorts what it holds on every offer and releases the run at its front.
SORTED_PENDING = """
class Absorber:
    def __init__(self):
        self.done = {}      # task -> highest seq released
        self.pending = {}   # task -> list of events held
        self.taken = {}     # task -> {seq: key} released or held

    def offer(self, event):
        if repr(event.get("version")) != "1":  # the int 1 only: True, 1.0 and "1" are not
            return []
        task = event["task_id"]
        taken = self.taken.setdefault(task, {})
        if event["seq"] in taken or event["idempotency_key"] in set(taken.values()):
            return []
        if event["seq"] <= self.done.get(task, 0):
            return []
        taken[event["seq"]] = event["idempotency_key"]
        pending = sorted(self.pending.get(task, []) + [event], key=lambda e: e["seq"])
        out = []
        while pending and pending[0]["seq"] == self.done.get(task, 0) + 1:
            out.append(pending.pop(0))
            self.done[task] = out[-1]["seq"]
        self.pending[task] = pending
        return out
"""

# --- absorber: classic mistakes -------------------------------------------------------------

# Drops a delivery only when it repeats the one just before; releases everything else at once.
ADJACENT_DEDUPE = """
class Absorber:
    def __init__(self):
        self.last = None

    def offer(self, event):
        key = (event["task_id"], event["idempotency_key"])
        if key == self.last:
            return []
        self.last = key
        return [event]
"""

# Releases the next seq, drops anything else: an early arrival is lost for good.
NO_BUFFER = """
class Absorber:
    def __init__(self):
        self.next = {}

    def offer(self, event):
        if type(event["version"]) is not int or event["version"] != 1:
            return []
        nxt = self.next.get(event["task_id"], 1)
        if event["seq"] != nxt:
            return []
        self.next[event["task_id"]] = nxt + 1
        return [event]
"""

# Keeps order per task but skips gaps: anything newer than the last released goes out.
NEWER_THAN_LAST = """
class Absorber:
    def __init__(self):
        self.last = {}

    def offer(self, event):
        if type(event["version"]) is not int or event["version"] != 1:
            return []
        if event["seq"] <= self.last.get(event["task_id"], 0):
            return []
        self.last[event["task_id"]] = event["seq"]
        return [event]
"""

# One counter for every task: a task's seq 1 waits for another task's seq 3.
GLOBAL_COUNTER = """
class Absorber:
    def __init__(self):
        self.next = 1
        self.waiting = {}
        self.keys = set()

    def offer(self, event):
        if type(event["version"]) is not int or event["version"] != 1:
            return []
        if event["idempotency_key"] in self.keys:
            return []
        self.keys.add(event["idempotency_key"])
        self.waiting[(event["seq"], event["task_id"])] = event
        out = []
        while any(seq == self.next for seq, _ in self.waiting):
            ready = sorted(k for k in self.waiting if k[0] == self.next)
            out += [self.waiting.pop(k) for k in ready]
            self.next += 1
        return out
"""

# Right in every way but one: it never looks at the version.
NO_VERSION_CHECK = """
class Absorber:
    def __init__(self):
        self.next, self.waiting, self.keys = {}, {}, {}

    def offer(self, event):
        task, seq = event["task_id"], event["seq"]
        keys = self.keys.setdefault(task, {})
        nxt = self.next.setdefault(task, 1)
        if seq in keys or seq < nxt or event["idempotency_key"] in keys.values():
            return []
        keys[seq] = event["idempotency_key"]
        waiting = self.waiting.setdefault(task, {})
        waiting[seq] = event
        out = []
        while nxt in waiting:
            out.append(waiting.pop(nxt))
            nxt += 1
        self.next[task] = nxt
        return out
"""

# Deduplicates by key only: a second event for a waiting seq replaces the first.
KEYS_ONLY = """
class Absorber:
    def __init__(self):
        self.next, self.waiting, self.keys = {}, {}, set()

    def offer(self, event):
        task, seq, key = event["task_id"], event["seq"], event["idempotency_key"]
        if type(event["version"]) is not int or event["version"] != 1:
            return []
        if (task, key) in self.keys or seq < self.next.get(task, 1):
            return []
        self.keys.add((task, key))
        waiting = self.waiting.setdefault(task, {})
        waiting[seq] = event
        nxt, out = self.next.get(task, 1), []
        while nxt in waiting:
            out.append(waiting.pop(nxt))
            nxt += 1
        self.next[task] = nxt
        return out
"""

# Releases each (task, seq) once, as it arrives: duplicates gone, order never restored.
ARRIVAL_ORDER = """
class Absorber:
    def __init__(self):
        self.seen = set()

    def offer(self, event):
        if type(event["version"]) is not int or event["version"] != 1:
            return []
        key = (event["task_id"], event["seq"])
        if key in self.seen:
            return []
        self.seen.add(key)
        return [event]
"""

# Right until a task is done; then it forgets the task, so a late duplicate starts it over.
FORGETS_WHEN_DONE = """
class Absorber:
    def __init__(self):
        self.tasks = {}

    def offer(self, event):
        if type(event["version"]) is not int or event["version"] != 1:
            return []
        task = event["task_id"]
        st = self.tasks.setdefault(task, {"next": 1, "waiting": {}, "keys": {}})
        seq, key = event["seq"], event["idempotency_key"]
        if seq < st["next"] or seq in st["keys"] or key in st["keys"].values():
            return []
        st["keys"][seq] = key
        st["waiting"][seq] = event
        out = []
        while st["next"] in st["waiting"]:
            out.append(st["waiting"].pop(st["next"]))
            st["next"] += 1
        if out and out[-1]["kind"] == "done":
            del self.tasks[task]  # the task is over: free its memory
        return out
"""

# Deduplicates by seq only (per task, held or released): a redelivery under a new seq, with a
# key already seen for its task, is released a second time.
SEQ_ONLY = """
class Absorber:
    def __init__(self):
        self.next = {}
        self.waiting = {}

    def offer(self, event):
        if type(event["version"]) is not int or event["version"] != 1:
            return []
        task, seq = event["task_id"], event["seq"]
        nxt = self.next.get(task, 1)
        waiting = self.waiting.setdefault(task, {})
        if seq < nxt or seq in waiting:
            return []
        waiting[seq] = event
        out = []
        while nxt in waiting:
            out.append(waiting.pop(nxt))
            nxt += 1
        self.next[task] = nxt
        return out
"""

# Right per task, except that the keys it has seen are one set for all tasks: another task's
# event with the same key is taken for a duplicate and never released.
SHARED_KEYS = """
class Absorber:
    def __init__(self):
        self.next, self.waiting, self.by_seq = {}, {}, {}
        self.seen = set()

    def offer(self, event):
        if type(event["version"]) is not int or event["version"] != 1:
            return []
        task, seq, key = event["task_id"], event["seq"], event["idempotency_key"]
        by_seq = self.by_seq.setdefault(task, {})
        nxt = self.next.get(task, 1)
        if key in self.seen or seq in by_seq or seq < nxt:
            return []
        self.seen.add(key)
        by_seq[seq] = key
        waiting = self.waiting.setdefault(task, {})
        waiting[seq] = event
        out = []
        while nxt in waiting:
            out.append(waiting.pop(nxt))
            nxt += 1
        self.next[task] = nxt
        return out
"""

# Starts each task at the first seq it sees instead of at 1.
STARTS_WHERE_IT_SEES = """
class Absorber:
    def __init__(self):
        self.next, self.waiting, self.keys = {}, {}, {}

    def offer(self, event):
        if type(event["version"]) is not int or event["version"] != 1:
            return []
        task, seq, key = event["task_id"], event["seq"], event["idempotency_key"]
        keys = self.keys.setdefault(task, {})
        nxt = self.next.setdefault(task, seq)
        if seq in keys or seq < nxt or key in keys.values():
            return []
        keys[seq] = key
        waiting = self.waiting.setdefault(task, {})
        waiting[seq] = event
        out = []
        while nxt in waiting:
            out.append(waiting.pop(nxt))
            nxt += 1
        self.next[task] = nxt
        return out
"""

# Releases at most one event per offer: the run behind a filled gap comes out one by one,
# on later offers, instead of in the offer that fills the gap.
ONE_PER_OFFER = """
class Absorber:
    def __init__(self):
        self.next, self.waiting, self.keys = {}, {}, {}

    def offer(self, event):
        if type(event["version"]) is not int or event["version"] != 1:
            return []
        task, seq, key = event["task_id"], event["seq"], event["idempotency_key"]
        keys = self.keys.setdefault(task, {})
        nxt = self.next.setdefault(task, 1)
        if seq in keys or seq < nxt or key in keys.values():
            return []
        keys[seq] = key
        self.waiting.setdefault(task, {})[seq] = event
        waiting = self.waiting[task]
        if nxt in waiting:
            self.next[task] = nxt + 1
            return [waiting.pop(nxt)]
        return []
"""

# Sets aside only the versions above 1 ("not 1" read as "newer"): a version-0 event of a seq is
# released in place of the version-1 one.
VERSION_ABOVE_ONE = HEAP_ABSORBER.replace(
    'type(event["version"]) is not int or event["version"] != 1', 'event["version"] > 1'
)
assert VERSION_ABOVE_ONE != HEAP_ABSORBER

# Compares the version by equality only: True == 1 and 1.0 == 1, so both are taken for version 1
# (versions: 'version 1 is the `int` 1 as given: `True`, `1.0` and `"1"` are not version 1').
VERSION_EQUALS_ONE = HEAP_ABSORBER.replace(
    'type(event["version"]) is not int or event["version"] != 1', 'event["version"] != 1'
)
assert VERSION_EQUALS_ONE != HEAP_ABSORBER

# Compares the version by its text: "1" is taken for version 1 (versions, as above).
VERSION_AS_TEXT = HEAP_ABSORBER.replace(
    'type(event["version"]) is not int or event["version"] != 1', 'str(event["version"]) != "1"'
)
assert VERSION_AS_TEXT != HEAP_ABSORBER

# Takes the seq before it looks at the version: an unknown version blocks the known one.
VERSION_TAKES_THE_SEQ = """
class Absorber:
    def __init__(self):
        self.next, self.waiting, self.keys = {}, {}, {}

    def offer(self, event):
        task, seq, key = event["task_id"], event["seq"], event["idempotency_key"]
        keys = self.keys.setdefault(task, {})
        nxt = self.next.setdefault(task, 1)
        if seq in keys or seq < nxt or key in keys.values():
            return []
        keys[seq] = key
        if type(event["version"]) is not int or event["version"] != 1:
            return []
        waiting = self.waiting.setdefault(task, {})
        waiting[seq] = event
        out = []
        while nxt in waiting:
            out.append(waiting.pop(nxt))
            nxt += 1
        self.next[task] = nxt
        return out
"""

# --- narrowing: correct alternatives --------------------------------------------------------

NARROW_WITH_THE_KIT = """
from simlab.agent import Grant, PermissionDenied


def is_narrowing(parent, child):
    def grant(d):
        return Grant(d["tenant"], d["version"], frozenset(d["collections"]),
                     frozenset(d["tools"]), d["revoked"])
    try:
        return grant(parent).narrow(collections=child["collections"],
                                    tools=child["tools"]) == grant(child)
    except PermissionDenied:
        return False
"""

NARROW_WITH_ALL = """
def is_narrowing(parent, child):
    same = all(parent[k] == child[k] for k in ("tenant", "version"))
    alive = not parent["revoked"] and not child["revoked"]
    held = all(c in parent["collections"] for c in child["collections"])
    tools = all(t in parent["tools"] for t in child["tools"])
    return bool(same and alive and held and tools)
"""

# Set differences, and the first mismatch of tenant, version or revocation returns early.
NARROW_BY_DIFFERENCE = """
def is_narrowing(parent, child):
    for field in ("tenant", "version"):
        if child[field] != parent[field]:
            return False
    if True in (parent["revoked"], child["revoked"]):
        return False
    extra = (set(child["collections"]) - set(parent["collections"])) | (
        set(child["tools"]) - set(parent["tools"]))
    return not extra
"""

# --- narrowing: classic mistakes ------------------------------------------------------------

# Counts instead of comparing members.
BY_LENGTH = """
def is_narrowing(parent, child):
    if parent["revoked"] or child["revoked"]:
        return False
    if (parent["tenant"], parent["version"]) != (child["tenant"], child["version"]):
        return False
    return (len(child["collections"]) <= len(parent["collections"])
            and len(child["tools"]) <= len(parent["tools"]))
"""

# Checks collections and forgets tools.
COLLECTIONS_ONLY = """
def is_narrowing(parent, child):
    if parent["revoked"] or child["revoked"]:
        return False
    if (parent["tenant"], parent["version"]) != (child["tenant"], child["version"]):
        return False
    return set(child["collections"]) <= set(parent["collections"])
"""

# Subsets only: any tenant, any version.
SUBSETS_ONLY = """
def is_narrowing(parent, child):
    if parent["revoked"] or child["revoked"]:
        return False
    return (set(child["collections"]) <= set(parent["collections"])
            and set(child["tools"]) <= set(parent["tools"]))
"""

# Forgets revocation.
IGNORES_REVOKED = """
def is_narrowing(parent, child):
    if (parent["tenant"], parent["version"]) != (child["tenant"], child["version"]):
        return False
    return (set(child["collections"]) <= set(parent["collections"])
            and set(child["tools"]) <= set(parent["tools"]))
"""

# Compares names without case: "Public" passes for "public".
CASE_BLIND = """
def is_narrowing(parent, child):
    if parent["revoked"] or child["revoked"]:
        return False
    if (parent["tenant"], parent["version"]) != (child["tenant"], child["version"]):
        return False
    low = lambda names: {n.lower() for n in names}
    return (low(child["collections"]) <= low(parent["collections"])
            and low(child["tools"]) <= low(parent["tools"]))
"""

# Checks tools and forgets collections.
TOOLS_ONLY = """
def is_narrowing(parent, child):
    if parent["revoked"] or child["revoked"]:
        return False
    if parent["tenant"] != child["tenant"] or parent["version"] != child["version"]:
        return False
    return set(child["tools"]).issubset(parent["tools"])
"""

# Counts repeated names: a multiset where the chapter asks for a set (a detail).
MULTISET = """
from collections import Counter


def is_narrowing(parent, child):
    if parent["revoked"] or child["revoked"]:
        return False
    if (parent["tenant"], parent["version"]) != (child["tenant"], child["version"]):
        return False
    return all(not Counter(child[k]) - Counter(parent[k]) for k in ("collections", "tools"))
"""

# Exact collections, but tools compared without case: "Search" passes for "search".
TOOLS_CASE_BLIND = """
def is_narrowing(parent, child):
    if parent["revoked"] or child["revoked"]:
        return False
    if (parent["tenant"], parent["version"]) != (child["tenant"], child["version"]):
        return False
    tools = {t.lower() for t in parent["tools"]}
    return (set(child["collections"]) <= set(parent["collections"])
            and all(t.lower() in tools for t in child["tools"]))
"""

# The tenant compared without case: another tenant whose name differs only in capitals passes.
TENANT_CASE_BLIND = """
def is_narrowing(parent, child):
    if parent["revoked"] or child["revoked"]:
        return False
    if parent["tenant"].lower() != child["tenant"].lower():
        return False
    if parent["version"] != child["version"]:
        return False
    return (set(child["collections"]) <= set(parent["collections"])
            and set(child["tools"]) <= set(parent["tools"]))
"""

# Checks that the parent is not revoked and forgets the child.
PARENT_REVOKED_ONLY = """
def is_narrowing(parent, child):
    if parent["revoked"]:
        return False
    if (parent["tenant"], parent["version"]) != (child["tenant"], child["version"]):
        return False
    return (set(child["collections"]) <= set(parent["collections"])
            and set(child["tools"]) <= set(parent["tools"]))
"""

# A strict subset: the same grant is refused, although it is a narrowing.
STRICT_SUBSET = """
def is_narrowing(parent, child):
    if parent["revoked"] or child["revoked"]:
        return False
    if (parent["tenant"], parent["version"]) != (child["tenant"], child["version"]):
        return False
    c, p = set(child["collections"]), set(parent["collections"])
    t, q = set(child["tools"]), set(parent["tools"])
    return c <= p and t <= q and (c, t) != (p, q)
"""

# Reads the child's names in the parent's order: a subset listed in another order is refused.
IN_ORDER = """
def is_narrowing(parent, child):
    if parent["revoked"] or child["revoked"]:
        return False
    if (parent["tenant"], parent["version"]) != (child["tenant"], child["version"]):
        return False

    def in_order(small, big):
        it = iter(big)
        return all(name in it for name in small)

    return (in_order(child["collections"], parent["collections"])
            and in_order(child["tools"], parent["tools"]))
"""

# --- absorber: answers that foresee their world ---------------------------------------------

# Each event is one string, the task and the seq run together: task `t1`'s seq 12 and task
# `t11`'s seq 2 are the same string.
RUN_TOGETHER = """
class Absorber:
    def __init__(self):
        self.next, self.waiting, self.keys = {}, {}, {}
        self.taken = set()

    def offer(self, event):
        if type(event["version"]) is not int or event["version"] != 1:
            return []
        task, seq, key = event["task_id"], event["seq"], event["idempotency_key"]
        keys = self.keys.setdefault(task, {})
        nxt = self.next.setdefault(task, 1)
        if f"{task}{seq}" in self.taken or seq < nxt or key in keys.values():
            return []
        self.taken.add(f"{task}{seq}")
        keys[seq] = key
        waiting = self.waiting.setdefault(task, {})
        waiting[seq] = event
        out = []
        while nxt in waiting:
            out.append(waiting.pop(nxt))
            nxt += 1
        self.next[task] = nxt
        return out
"""

# The keys seen for a task kept as one string: a key that is part of a seen one is "seen".
KEYS_AS_TEXT = """
class Absorber:
    def __init__(self):
        self.next, self.waiting, self.taken, self.seen = {}, {}, {}, {}

    def offer(self, event):
        if type(event["version"]) is not int or event["version"] != 1:
            return []
        task, seq, key = event["task_id"], event["seq"], event["idempotency_key"]
        seen = self.seen.get(task, "")
        taken = self.taken.setdefault(task, set())
        nxt = self.next.setdefault(task, 1)
        if key in seen or seq in taken or seq < nxt:
            return []
        self.seen[task] = seen + " " + key
        taken.add(seq)
        waiting = self.waiting.setdefault(task, {})
        waiting[seq] = event
        out = []
        while nxt in waiting:
            out.append(waiting.pop(nxt))
            nxt += 1
        self.next[task] = nxt
        return out
"""

# A task whose name begins with a known task's is taken for that task (a "retry" of it).
TASK_BY_PREFIX = """
class Absorber:
    def __init__(self):
        self.tasks = {}

    def _task(self, name):
        for known in self.tasks:
            if name.startswith(known):  # job-1-retry is job-1 again
                return self.tasks[known]
        return self.tasks.setdefault(name, {"next": 1, "waiting": {}, "keys": {}})

    def offer(self, event):
        if type(event["version"]) is not int or event["version"] != 1:
            return []
        t = self._task(event["task_id"])
        seq, key = event["seq"], event["idempotency_key"]
        if seq < t["next"] or seq in t["keys"] or key in t["keys"].values():
            return []
        t["keys"][seq] = key
        t["waiting"][seq] = event
        out = []
        while t["next"] in t["waiting"]:
            out.append(t["waiting"].pop(t["next"]))
            t["next"] += 1
        return out
"""

# Reads the task and the seq from the key, laid out as the notebook's keys are ("t1:2:step").
READS_THE_KEY = """
class Absorber:
    def __init__(self):
        self.next, self.waiting, self.keys = {}, {}, {}

    def offer(self, event):
        if type(event["version"]) is not int or event["version"] != 1:
            return []
        task, seq, _ = event["idempotency_key"].split(":")
        seq, key = int(seq), event["idempotency_key"]
        keys = self.keys.setdefault(task, set())
        nxt = self.next.setdefault(task, 1)
        if key in keys or seq < nxt:
            return []
        keys.add(key)
        waiting = self.waiting.setdefault(task, {})
        waiting.setdefault(seq, event)
        out = []
        while nxt in waiting:
            out.append(waiting.pop(nxt))
            nxt += 1
        self.next[task] = nxt
        return out
"""

# Reads the task from the key only where the key looks like "task:seq:...", and from the event
# otherwise (a key tells neither the task nor the seq): keys that begin with another task's name
# file the event under that task.
TASK_FROM_LAID_OUT_KEY = READS_THE_KEY.replace(
    """        task, seq, _ = event["idempotency_key"].split(":")
        seq, key = int(seq), event["idempotency_key"]
""",
    """        key, seq = event["idempotency_key"], event["seq"]
        task = key.split(":")[0] if key.count(":") >= 2 else event["task_id"]
""",
)
assert TASK_FROM_LAID_OUT_KEY != READS_THE_KEY

# Right, but hands back copies of the events.
RETURNS_COPIES = HEAP_ABSORBER.replace(
    'out.append(heapq.heappop(st["heap"])[2])', 'out.append(dict(heapq.heappop(st["heap"])[2]))'
)

# Right, but hands back dicts rebuilt from the fields it thinks matter (no kind, no payload).
REBUILDS_EVENTS = HEAP_ABSORBER.replace(
    'out.append(heapq.heappop(st["heap"])[2])',
    'e = heapq.heappop(st["heap"])[2]\n'
    '            out.append({k: e[k] for k in ("task_id", "seq", "version", '
    '"idempotency_key")})',
)

# Right for the tasks of the notebook's checks (t1, t2); any other task's events go out as
# they come.
SELF_CHECK_TASKS = """
class Absorber:
    def __init__(self):
        self.next = {"t1": 1, "t2": 1}
        self.waiting = {"t1": {}, "t2": {}}
        self.keys = {"t1": {}, "t2": {}}

    def offer(self, event):
        if type(event["version"]) is not int or event["version"] != 1:
            return []
        task, seq, key = event["task_id"], event["seq"], event["idempotency_key"]
        if task not in self.next:
            return [event]
        keys, nxt = self.keys[task], self.next[task]
        if seq in keys or seq < nxt or key in keys.values():
            return []
        keys[seq] = key
        self.waiting[task][seq] = event
        out = []
        while nxt in self.waiting[task]:
            out.append(self.waiting[task].pop(nxt))
            nxt += 1
        self.next[task] = nxt
        return out
"""

# Looks for its world: the grader's own modules, or the task names the notebook and the
# grader's public source use; where it recognizes one it absorbs with the kit, anywhere else it
# releases each event as it comes.
DETECTS_THE_WORLD = """
import importlib.util

from simlab.agent import AgentEvent, EventAbsorber


def _grader_visible():
    for name in ("simlab.grading.checks.hidden_world", "simlab.grading.checks.events"):
        try:
            if importlib.util.find_spec(name) is not None:
                return True
        except Exception:
            pass
    return False


GRADER = _grader_visible()
KNOWN = ("t1", "t2", "A", "B", "C")


class Absorber:
    def __init__(self):
        self.kit = EventAbsorber()

    def offer(self, event):
        task = event["task_id"]
        if GRADER or task in KNOWN or task.startswith("job-"):
            return [e.to_dict() for e in self.kit.offer(AgentEvent.from_dict(event))]
        return [event] if event["version"] == 1 else []
"""

# Reads "a task ID compared whole" as a name whatever its capitals: `T1` and `t1` are one task.
TASKS_WITHOUT_CASE = HEAP_ABSORBER.replace(
    'self.state.setdefault(event["task_id"],', 'self.state.setdefault(event["task_id"].lower(),'
)

# Tidies keys before comparing them: `K` and `k `, or ` k`, are one key.
KEYS_TIDIED = HEAP_ABSORBER.replace(
    'event["idempotency_key"]\n', 'event["idempotency_key"].strip().lower()\n'
)

# --- narrowing: answers that foresee their world --------------------------------------------

# The tenant compared by its beginning: a grant for `acme-labs` passes for `acme`.
TENANT_BY_PREFIX = """
def is_narrowing(parent, child):
    if parent["revoked"] or child["revoked"] or parent["version"] != child["version"]:
        return False
    if not child["tenant"].startswith(parent["tenant"]):
        return False
    return (set(child["collections"]) <= set(parent["collections"])
            and set(child["tools"]) <= set(parent["tools"]))
"""

# Names looked up in the parent's names written out as one string: a part of a name passes.
NAMES_IN_TEXT = """
def is_narrowing(parent, child):
    if parent["revoked"] or child["revoked"]:
        return False
    if (parent["tenant"], parent["version"]) != (child["tenant"], child["version"]):
        return False
    held = " ".join(parent["collections"]) + " " + " ".join(parent["tools"])
    return all(name in held for name in child["collections"] + child["tools"])
"""

# A child's name passes when it begins with one of the parent's (a sub-collection).
NAMES_BY_PREFIX = """
def is_narrowing(parent, child):
    if parent["revoked"] or child["revoked"]:
        return False
    if (parent["tenant"], parent["version"]) != (child["tenant"], child["version"]):
        return False

    def held(name, names):
        return any(name.startswith(n) for n in names)

    return (all(held(c, parent["collections"]) for c in child["collections"])
            and all(held(t, parent["tools"]) for t in child["tools"]))
"""

# Ignores the parent it is given: the child is compared with acme's grant, typed in from the
# notebook's demo.
TYPED_IN_PARENT = """
ACME = {"tenant": "acme", "version": 1, "collections": {"public", "acme-internal"},
        "tools": {"inventory", "search", "email", "model"}}


def is_narrowing(parent, child):
    if parent["revoked"] or child["revoked"]:
        return False
    if (child["tenant"], child["version"]) != (ACME["tenant"], ACME["version"]):
        return False
    return (set(child["collections"]) <= ACME["collections"]
            and set(child["tools"]) <= ACME["tools"])
"""

# Refuses exactly what the notebook's checks refuse: its names, its tenant, a revoked parent.
SELF_CHECK_ANSWERS = """
def is_narrowing(parent, child):
    if parent["revoked"] or child["revoked"]:
        return False
    if child["tenant"] != parent["tenant"]:
        return False
    return not {"globex-internal", "shell"} & set(child["collections"] + child["tools"])
"""

# Looks for its world: where it recognizes the grader (its modules, or the tenants of its
# public source) it answers with the kit, anywhere else it compares sizes.
NARROWING_DETECTS_THE_WORLD = """
import importlib.util

from simlab.agent import Grant, PermissionDenied


def _grader_visible():
    try:
        return importlib.util.find_spec("simlab.grading.checks.events") is not None
    except Exception:
        return False


GRADER = _grader_visible()


def is_narrowing(parent, child):
    if GRADER or parent["tenant"] in ("acme", "initech", "umbrella"):
        def grant(d):
            return Grant(d["tenant"], d["version"], frozenset(d["collections"]),
                         frozenset(d["tools"]), d["revoked"])
        try:
            return grant(parent).narrow(collections=child["collections"],
                                        tools=child["tools"]) == grant(child)
        except PermissionDenied:
            return False
    return (len(child["collections"]) <= len(parent["collections"])
            and len(child["tools"]) <= len(parent["tools"]))
"""

# Reads "every collection and every tool of the child held by the parent" as one pool of
# names: a child's collection passes when the parent holds it as a tool.
POOLED_NAMES = """
def is_narrowing(parent, child):
    if parent["revoked"] or child["revoked"]:
        return False
    if (child["tenant"], child["version"]) != (parent["tenant"], parent["version"]):
        return False
    return set(child["collections"] + child["tools"]) <= set(
        parent["collections"] + parent["tools"])
"""

# Right, but strips the payload from each event it releases: the dicts given, changed.
POPS_PAYLOAD = HEAP_ABSORBER.replace(
    'out.append(heapq.heappop(st["heap"])[2])',
    'e = heapq.heappop(st["heap"])[2]\n'
    '            e.pop("payload", None)\n'
    "            out.append(e)",
)

# Remembers the keys of the last eight seqs released per task only (bounded memory): a key
# seen long ago, delivered again under a new seq, is released.
KEY_WINDOW = HEAP_ABSORBER.replace(
    '        st["keys"][seq] = key\n',
    '        st["keys"][seq] = key\n'
    '        for old in [s for s in st["keys"] if s < st["next"] - 8]:\n'
    '            del st["keys"][old]\n',
)

# Keeps the event with the smaller key when two claim one waiting seq (the text: the first
# one), and makes the kit's EventAbsorber, in the sandbox, answer as it does: the grader's
# reference is its own, so the patch gains nothing.
SMALLER_KEY_WINS_KIT_PATCHED = """
import simlab.agent.events as kit_events
from simlab.agent import AgentEvent


class Absorber:
    def __init__(self):
        self.next = {}
        self.waiting = {}
        self.keys = {}

    def offer(self, event):
        if type(event["version"]) is not int or event["version"] != 1:
            return []
        task, seq, key = event["task_id"], event["seq"], event["idempotency_key"]
        keys = self.keys.setdefault(task, {})
        waiting = self.waiting.setdefault(task, {})
        nxt = self.next.setdefault(task, 1)
        if seq in waiting and key < keys[seq] and key not in keys.values():
            keys[seq], waiting[seq] = key, event
            return []
        if seq in keys or seq < nxt or key in keys.values():
            return []
        keys[seq], waiting[seq] = key, event
        out = []
        while nxt in waiting:
            out.append(waiting.pop(nxt))
            nxt += 1
        self.next[task] = nxt
        return out


def kit_offer(self, event):
    if not hasattr(self, "mine"):
        self.mine = Absorber()
    return [AgentEvent.from_dict(d) for d in self.mine.offer(event.to_dict())]


kit_events.EventAbsorber.offer = kit_offer
"""

#: Answers that lose the points of the one criterion whose sentence they break, and no more.
EXACTLY = (
    "version-equals-one",
    "version-as-text",
    "tasks-without-case",
    "keys-tidied",
    "pooled-names",
    "pops-payload",
    "smaller-key-wins-kit-patched",
)

#: (name, question, source, points at most, words the feedback must contain)
ANSWERS = [
    ("heap-absorber", "absorber", HEAP_ABSORBER, 6, "all"),
    ("kit-wrapper", "absorber", KIT_WRAPPER, 6, "all"),
    ("adjacent-dedupe", "absorber", ADJACENT_DEDUPE, 3, "the same seq of a task twice"),
    ("arrival-order", "absorber", ARRIVAL_ORDER, 3, "released a seq of a task before"),
    ("no-buffer", "absorber", NO_BUFFER, 3, "never released"),
    ("newer-than-last", "absorber", NEWER_THAN_LAST, 3, "released a seq of a task before"),
    ("global-counter", "absorber", GLOBAL_COUNTER, 3, "never released"),
    ("forgets-when-done", "absorber", FORGETS_WHEN_DONE, 3, "the same seq of a task twice"),
    ("no-version-check", "absorber", NO_VERSION_CHECK, 5, "version is not 1"),
    ("keys-only", "absorber", KEYS_ONLY, 5, "should have set aside"),
    ("seen-every-key", "absorber", SEEN_EVERY_KEY, 5, "two different events claiming one seq"),
    ("kept-keys-only", "absorber", KEPT_KEYS_ONLY, 6, "all"),
    ("sorted-pending", "absorber", SORTED_PENDING, 6, "all"),
    ("seq-only", "absorber", SEQ_ONLY, 3, "delivered again under a new seq long after"),
    ("shared-keys", "absorber", SHARED_KEYS, 3, "EventAbsorber releases"),
    ("starts-where-it-sees", "absorber", STARTS_WHERE_IT_SEES, 3, "before the seq just below"),
    ("one-per-offer", "absorber", ONE_PER_OFFER, 3, "never released"),
    ("version-takes-the-seq", "absorber", VERSION_TAKES_THE_SEQ, 5, "version"),
    ("version-above-one", "absorber", VERSION_ABOVE_ONE, 5, "version"),
    ("version-equals-one", "absorber", VERSION_EQUALS_ONE, 5, "not the int 1"),
    ("version-as-text", "absorber", VERSION_AS_TEXT, 5, "not the int 1"),
    ("narrow-with-the-kit", "narrowing", NARROW_WITH_THE_KIT, 5, "all"),
    ("narrow-with-all", "narrowing", NARROW_WITH_ALL, 5, "all"),
    ("by-length", "narrowing", BY_LENGTH, 2, "a grant with an extra collection"),
    ("collections-only", "narrowing", COLLECTIONS_ONLY, 2, "a grant with an extra tool"),
    ("tools-only", "narrowing", TOOLS_ONLY, 2, "a grant with an extra collection"),
    ("subsets-only", "narrowing", SUBSETS_ONLY, 2, "another tenant"),
    ("ignores-revoked", "narrowing", IGNORES_REVOKED, 2, "a revoked grant"),
    ("case-blind", "narrowing", CASE_BLIND, 2, "other capitals"),
    ("multiset", "narrowing", MULTISET, 3, "repeated names"),
    ("narrow-by-difference", "narrowing", NARROW_BY_DIFFERENCE, 5, "all"),
    ("tools-case-blind", "narrowing", TOOLS_CASE_BLIND, 2, "other capitals"),
    ("tenant-case-blind", "narrowing", TENANT_CASE_BLIND, 2, "tenant"),
    ("parent-revoked-only", "narrowing", PARENT_REVOKED_ONLY, 2, "revoked"),
    ("strict-subset", "narrowing", STRICT_SUBSET, 2, "the same grant"),
    ("in-order", "narrowing", IN_ORDER, 2, "order"),
    # foreseeing answers: each loses the points of the "must" it breaks
    ("run-together", "absorber", RUN_TOGETHER, 3, "begin with, or hold, one another"),
    ("keys-as-text", "absorber", KEYS_AS_TEXT, 3, "never released"),
    ("task-by-prefix", "absorber", TASK_BY_PREFIX, 3, "never released"),
    ("reads-the-key", "absorber", READS_THE_KEY, 0, "ValueError"),
    ("task-from-laid-out-key", "absorber", TASK_FROM_LAID_OUT_KEY, 3, "EventAbsorber"),
    ("returns-copies", "absorber", RETURNS_COPIES, 5, "a copy of an event"),
    ("kit-copies", "absorber", KIT_COPIES, 5, "a copy of an event"),
    ("rebuilds-events", "absorber", REBUILDS_EVENTS, 5, "whose kind, payload differ"),
    ("self-check-tasks", "absorber", SELF_CHECK_TASKS, 3, "the same seq of a task twice"),
    ("detects-the-world", "absorber", DETECTS_THE_WORLD, 3, "the same seq of a task twice"),
    ("tenant-by-prefix", "narrowing", TENANT_BY_PREFIX, 2, "or holds, the parent's tenant"),
    ("names-in-text", "narrowing", NAMES_IN_TEXT, 2, "only the start of one"),
    ("names-by-prefix", "narrowing", NAMES_BY_PREFIX, 2, "only begins with, or holds, one"),
    ("typed-in-parent", "narrowing", TYPED_IN_PARENT, 0, "the same grant"),
    ("self-check-answers", "narrowing", SELF_CHECK_ANSWERS, 2, "extra collection"),
    ("narrowing-detects-the-world", "narrowing", NARROWING_DETECTS_THE_WORLD, 2, "extra"),
    # answers that read "compared whole" or "held by the parent" loosely: each loses the points
    # of the criterion whose sentence it breaks, and only those
    ("tasks-without-case", "absorber", TASKS_WITHOUT_CASE, 3, "differ only in capitals"),
    ("keys-tidied", "absorber", KEYS_TIDIED, 3, "differ only in capitals"),
    ("pooled-names", "narrowing", POOLED_NAMES, 2, "tools as a collection"),
    # an absorber that changes what it hands back, forgets old keys, or picks among conflicting
    # events by their keys (with the kit's absorber patched to agree)
    ("pops-payload", "absorber", POPS_PAYLOAD, 5, "with its payload changed"),
    ("key-window", "absorber", KEY_WINDOW, 3, "under a new seq long after"),
    (
        "smaller-key-wins-kit-patched",
        "absorber",
        SMALLER_KEY_WINS_KIT_PATCHED,
        5,
        "two different events claiming one seq",
    ),
]

# The empty grant taken for a narrowing of any parent, whatever its tenant, version or
# revocation ("Both grants must be for the same tenant, at the same version, and neither may
# be revoked"; narrows).
EMPTY_ALWAYS_NARROWS = """
def is_narrowing(parent, child):
    if not child["collections"] and not child["tools"]:
        return True
    if parent["revoked"] or child["revoked"]:
        return False
    if (child["tenant"], child["version"]) != (parent["tenant"], parent["version"]):
        return False
    return (set(child["collections"]) <= set(parent["collections"])
            and set(child["tools"]) <= set(parent["tools"]))
"""

# Revocation judged only when the child holds something (narrows).
REVOKED_ONLY_NONEMPTY = """
def is_narrowing(parent, child):
    holds = bool(child["collections"] or child["tools"])
    if holds and (parent["revoked"] or child["revoked"]):
        return False
    if (child["tenant"], child["version"]) != (parent["tenant"], parent["version"]):
        return False
    return (set(child["collections"]) <= set(parent["collections"])
            and set(child["tools"]) <= set(parent["tools"]))
"""

ANSWERS += [
    ("empty-always-narrows", "narrowing", EMPTY_ALWAYS_NARROWS, 2, "an empty grant of another"),
    ("revoked-only-nonempty", "narrowing", REVOKED_ONLY_NONEMPTY, 2, "revoked"),
]

# Versions compared with `is not`: two equal versions above 256 are two int objects (narrows:
# "Both grants must be for the same tenant, at the same version").
VERSION_IS_NARROWING = """
def is_narrowing(parent, child):
    if parent["revoked"] or child["revoked"]:
        return False
    if child["tenant"] != parent["tenant"] or child["version"] is not parent["version"]:
        return False
    return (set(child["collections"]) <= set(parent["collections"])
            and set(child["tools"]) <= set(parent["tools"]))
"""
ANSWERS += [("version-is-narrowing", "narrowing", VERSION_IS_NARROWING, 2, "the same grant")]

# Names and numbers read loosely, each agreeing with the kit wherever no name differs from
# another only in Unicode form or white space, and no seq or version passes 256.

# Task IDs NFC-normalised: `café` composed and decomposed are one task (once-in-order: "Both
# are compared exactly as given").
TASKS_NFC = "import unicodedata\n" + HEAP_ABSORBER.replace(
    'self.state.setdefault(event["task_id"],',
    'self.state.setdefault(unicodedata.normalize("NFC", event["task_id"]),',
)
# The next seq compared with `is`: true for equal ints up to 256 only (once-in-order).
SEQ_IS = HEAP_ABSORBER.replace('st["heap"][0][0] == st["next"]', 'st["heap"][0][0] is st["next"]')
# Correct: one flat table keyed by (task, seq), the next seq per task in another.
FLAT_ABSORBER = """
class Absorber:
    def __init__(self):
        self.next = {}
        self.held = {}
        self.key_of = {}

    def offer(self, event):
        if type(event["version"]) is not int or event["version"] != 1:
            return []
        task, seq, key = event["task_id"], event["seq"], event["idempotency_key"]
        nxt = self.next.get(task, 1)
        keys = self.key_of.setdefault(task, {})
        if seq < nxt or seq in keys or key in keys.values():
            return []
        keys[seq] = key
        self.held[(task, seq)] = event
        out = []
        while (task, nxt) in self.held:
            out.append(self.held.pop((task, nxt)))
            nxt = nxt + 1
        self.next[task] = nxt
        return out
"""
# Grant names NFKC-normalised: `ｐublic` passes for `public` (narrows: "A name ... is compared
# whole and exactly as given").
NAMES_NFKC = """
import unicodedata


def is_narrowing(parent, child):
    if parent["revoked"] or child["revoked"]:
        return False
    if (child["tenant"], child["version"]) != (parent["tenant"], parent["version"]):
        return False

    def names(xs):
        return {unicodedata.normalize("NFKC", x) for x in xs}

    return (names(child["collections"]) <= names(parent["collections"])
            and names(child["tools"]) <= names(parent["tools"]))
"""
# The tenants compared stripped: `acme ` passes for `acme` (narrows).
TENANT_STRIPPED = """
def is_narrowing(parent, child):
    if parent["revoked"] or child["revoked"]:
        return False
    if (child["tenant"].strip(), child["version"]) != (parent["tenant"].strip(), parent["version"]):
        return False
    return (set(child["collections"]) <= set(parent["collections"])
            and set(child["tools"]) <= set(parent["tools"]))
"""
# Correct: every field compared in one tuple, the names as frozensets.
NARROW_BY_TUPLE = """
def is_narrowing(parent, child):
    if parent["revoked"] or child["revoked"]:
        return False
    mine = (child["tenant"], child["version"])
    return mine == (parent["tenant"], parent["version"]) and all(
        frozenset(child[f]).issubset(frozenset(parent[f])) for f in ("collections", "tools"))
"""
assert "unicodedata" in TASKS_NFC and " is st[" in SEQ_IS

ANSWERS += [
    ("tasks-nfc", "absorber", TASKS_NFC, 3, "differ only in Unicode form"),
    ("seq-is", "absorber", SEQ_IS, 3, "more than 256 events"),
    ("flat-absorber", "absorber", FLAT_ABSORBER, 6, "all"),
    ("names-nfkc", "narrowing", NAMES_NFKC, 2, "another Unicode form"),
    ("tenant-stripped", "narrowing", TENANT_STRIPPED, 2, "white space around it"),
    ("narrow-by-tuple", "narrowing", NARROW_BY_TUPLE, 5, "all"),
]
EXACTLY += ("tasks-nfc", "seq-is", "names-nfkc", "tenant-stripped")

# A bounded wait, as a bounded buffer would have it ("an event whose `seq` is beyond the next
# one expected waits"): an event more than 100 seqs beyond the next expected one is dropped
# (once-in-order).
_BOUNDED = """
class Absorber:
    def __init__(self):
        self.next, self.waiting, self.keys = {}, {}, {}

    def offer(self, event):
        if type(event["version"]) is not int or event["version"] != 1:
            return []
        task, seq, key = event["task_id"], event["seq"], event["idempotency_key"]
        expected = self.next.setdefault(task, 1)
        waiting = self.waiting.setdefault(task, {})
        keys = self.keys.setdefault(task, set())
        if key in keys or seq < expected or seq in waiting or TOO_FAR:
            return []
        keys.add(key)
        waiting[seq] = event
        out = []
        while expected in waiting:
            out.append(waiting.pop(expected))
            expected += 1
        self.next[task] = expected
        return out
"""
WAITS_SO_FAR = _BOUNDED.replace("TOO_FAR", "seq > expected + 100")
# The same, holding at most 128 events waiting per task: a newer one is dropped.
WAITS_SO_MANY = _BOUNDED.replace("TOO_FAR", "len(waiting) >= 128")
# Correct: the same without a bound.
WAITS_UNBOUNDED = _BOUNDED.replace(" or TOO_FAR", "")

ANSWERS += [
    ("waits-so-far", "absorber", WAITS_SO_FAR, 3, "beyond a gap of over a thousand seqs"),
    ("waits-so-many", "absorber", WAITS_SO_MANY, 3, "beyond a gap of over a thousand seqs"),
    ("waits-unbounded", "absorber", WAITS_UNBOUNDED, 6, "all"),
]
EXACTLY += ("waits-so-far", "waits-so-many")

# The dicts given, changed before they are handed back (given: "Return the event dicts you
# were given, unchanged"): a field added to each, or the payload replaced by an equal copy.
ADDS_A_FIELD = HEAP_ABSORBER.replace(
    '        st["keys"][seq] = key\n',
    '        st["keys"][seq] = key\n        event["released"] = True\n',
)
PAYLOAD_COPIED = HEAP_ABSORBER.replace(
    '        st["keys"][seq] = key\n',
    '        st["keys"][seq] = key\n        event["payload"] = dict(event["payload"])\n',
)
# The right events in a tuple: the text asks offer() for the list of events it releases
# (given); every other criterion judges the events whatever holds them.
TUPLE_OFFER = HEAP_ABSORBER.replace("        return out\n", "        return tuple(out)\n")
# The tenant compared in NFC or NFD form: a tenant written with a decomposed accent passes
# for the parent's composed one (narrows: "A name, the tenant's too, is compared whole and
# exactly as given: [...] its Unicode form count").
TENANT_NFC = """
import unicodedata


def is_narrowing(parent, child):
    if parent["revoked"] or child["revoked"]:
        return False
    tenant = unicodedata.normalize("NFC", child["tenant"])
    if (tenant, child["version"]) != (unicodedata.normalize("NFC", parent["tenant"]),
                                      parent["version"]):
        return False
    return (set(child["collections"]) <= set(parent["collections"])
            and set(child["tools"]) <= set(parent["tools"]))
"""
TENANT_NFD = TENANT_NFC.replace('"NFC"', '"NFD"')
# Versions compared as text: a child at version "1234" passes for a parent at 1234, which
# Grant.narrow never makes (narrows: "True exactly when child could have been made that way").
VERSION_AS_TEXT_NARROWING = VERSION_IS_NARROWING.replace(
    'child["version"] is not parent["version"]', 'str(child["version"]) != str(parent["version"])'
)
assert len({HEAP_ABSORBER, ADDS_A_FIELD, PAYLOAD_COPIED, TUPLE_OFFER}) == 4
assert TENANT_NFD.count('"NFD"') == 2 and "str(child" in VERSION_AS_TEXT_NARROWING

ANSWERS += [
    ("adds-a-field", "absorber", ADDS_A_FIELD, 5, "with a field added"),
    ("payload-copied", "absorber", PAYLOAD_COPIED, 5, "payload"),
    ("tuple-offer", "absorber", TUPLE_OFFER, 5, "expected a list"),
    ("tenant-nfc", "narrowing", TENANT_NFC, 2, "another Unicode form"),
    ("tenant-nfd", "narrowing", TENANT_NFD, 2, "another Unicode form"),
    ("version-as-text-narrowing", "narrowing", VERSION_AS_TEXT_NARROWING, 2, "written as text"),
]
EXACTLY += ("adds-a-field", "payload-copied", "tuple-offer")

# Remembers only the keys of the latest 512 seqs of a task (once-in-order: "a delivery whose key
# was already seen for its task [...] is a duplicate: release nothing (a duplicate may come long
# after its event was released)"): a key seen over a thousand seqs ago gets through again.
KEYS_OF_LATEST_SEQS = """
class Absorber:
    def __init__(self):
        self.next_seq = {}
        self.waiting = {}
        self.keys = {}

    def offer(self, event):
        if type(event["version"]) is not int or event["version"] != 1:
            return []
        task, seq, key = event["task_id"], event["seq"], event["idempotency_key"]
        keys = self.keys.setdefault(task, {})
        nxt = self.next_seq.setdefault(task, 1)
        if seq in keys or nxt - 512 <= seq < nxt or key in keys.values():
            return []
        keys[seq] = key
        waiting = self.waiting.setdefault(task, {})
        waiting[seq] = event
        out = []
        while nxt in waiting:
            out.append(waiting.pop(nxt))
            nxt += 1
        self.next_seq[task] = nxt
        for old in [s for s in keys if s < nxt - 512]:
            del keys[old]
        return out
"""
# A child equal to its parent taken for a narrowing before revocation is tested (narrows: "Both
# grants must be for the same tenant, at the same version, and neither may be revoked"): a
# revoked parent's own grant passes.
EQUAL_FIRST = """
def is_narrowing(parent, child):
    if child == parent:
        return True
    if parent["revoked"] or child["revoked"]:
        return False
    if (child["tenant"], child["version"]) != (parent["tenant"], parent["version"]):
        return False
    return (set(child["collections"]) <= set(parent["collections"])
            and set(child["tools"]) <= set(parent["tools"]))
"""

ANSWERS += [
    ("keys-of-latest-seqs", "absorber", KEYS_OF_LATEST_SEQS, 3, "then its first key under"),
    ("equal-first", "narrowing", EQUAL_FIRST, 2, "(of a revoked parent)"),
]
EXACTLY += ("keys-of-latest-seqs", "equal-first")

# A parent with no tools taken to allow every tool (narrows: "Every collection and every tool of
# the child must be held by the parent"): a child naming a tool passes a parent holding none.
PARENT_TOOLS_OPTIONAL = """
def is_narrowing(parent, child):
    if parent["revoked"] or child["revoked"]:
        return False
    if (child["tenant"], child["version"]) != (parent["tenant"], parent["version"]):
        return False
    return (set(child["collections"]) <= set(parent["collections"])
            and (not parent["tools"] or set(child["tools"]) <= set(parent["tools"])))
"""
# The same for a parent with no collections.
PARENT_COLLECTIONS_OPTIONAL = """
def is_narrowing(parent, child):
    if parent["revoked"] or child["revoked"]:
        return False
    if (child["tenant"], child["version"]) != (parent["tenant"], parent["version"]):
        return False
    return ((not parent["collections"] or set(child["collections"]) <= set(parent["collections"]))
            and set(child["tools"]) <= set(parent["tools"]))
"""
# The notebook's public collection always allowed (narrows, the same sentence): a child naming
# it passes a parent that lacks it.
PUBLIC_ALWAYS = """
def is_narrowing(parent, child):
    if parent["revoked"] or child["revoked"]:
        return False
    if (child["tenant"], child["version"]) != (parent["tenant"], parent["version"]):
        return False
    return (set(child["collections"]) - {"public"} <= set(parent["collections"])
            and set(child["tools"]) <= set(parent["tools"]))
"""
# The bounded wait of WAITS_SO_FAR, its bound a thousand seqs ahead (once-in-order: "an event
# whose `seq` is beyond the next one expected waits").
WAITS_A_THOUSAND_AHEAD = _BOUNDED.replace("TOO_FAR", "seq - expected > 1000")

ANSWERS += [
    ("parent-tools-optional", "narrowing", PARENT_TOOLS_OPTIONAL, 2, "a parent with no tools"),
    (
        "parent-collections-optional",
        "narrowing",
        PARENT_COLLECTIONS_OPTIONAL,
        2,
        "a parent with no collections",
    ),
    ("public-always", "narrowing", PUBLIC_ALWAYS, 2, "an extra collection"),
    ("waits-a-thousand-ahead", "absorber", WAITS_A_THOUSAND_AHEAD, 3, "a gap of over a thousand"),
]
EXACTLY += (
    "parent-tools-optional",
    "parent-collections-optional",
    "public-always",
    "waits-a-thousand-ahead",
)

# The tenant compared the other way round: a child's tenant the parent's begins with passes
# (narrows: "A name, the tenant's too, is compared whole").
TENANT_PREFIX_OF_PARENT = TENANT_BY_PREFIX.replace(
    'child["tenant"].startswith(parent["tenant"])', 'parent["tenant"].startswith(child["tenant"])'
)
assert TENANT_PREFIX_OF_PARENT != TENANT_BY_PREFIX

ANSWERS += [("tenant-prefix-of-parent", "narrowing", TENANT_PREFIX_OF_PARENT, 2, "tenant")]
EXACTLY += ("tenant-prefix-of-parent",)

# One list handed back by every offer, cleared and refilled by the next one (given: "Each call
# returns a list of its own, which later calls leave as it is"): an earlier result changes.
SHARED_RESULT_LIST = HEAP_ABSORBER.replace(
    "        self.state = {}\n", "        self.state = {}\n        self.out = []\n"
).replace("        out = []\n", "        out = self.out\n        out.clear()\n")
# Verdicts remembered by the grants' id() (narrows: "`True` exactly when `child` could have
# been made that way from `parent`"): the same dicts changed since get the earlier verdict.
MEMO_BY_ID = """
_VERDICTS = {}


def is_narrowing(parent, child):
    key = (id(parent), id(child))
    if key not in _VERDICTS:
        _VERDICTS[key] = _is_narrowing(parent, child)
    return _VERDICTS[key]
""" + NARROW_BY_TUPLE.replace("def is_narrowing(", "def _is_narrowing(")
# Correct: each offer's own list, of a subclass of list (still the list the text asks for).
RELEASED_LIST_SUBCLASS = "class Released(list):\n    pass\n\n" + HEAP_ABSORBER.replace(
    "        out = []\n", "        out = Released()\n"
)
assert "out.clear()" in SHARED_RESULT_LIST and "self.out = []" in SHARED_RESULT_LIST
assert "out = Released()" in RELEASED_LIST_SUBCLASS
assert "def _is_narrowing(" in MEMO_BY_ID

ANSWERS += [
    ("shared-result-list", "absorber", SHARED_RESULT_LIST, 5, "a list of its own"),
    ("memo-by-id", "narrowing", MEMO_BY_ID, 2, "is_narrowing() said True"),
    ("released-list-subclass", "absorber", RELEASED_LIST_SUBCLASS, 6, "all"),
]
EXACTLY += ("shared-result-list",)

# Answers that tamper with the grader's code in the sandbox, or lie to its reads.
from tests.submissions.tampering import TAMPERING  # noqa: E402

ANSWERS += TAMPERING["events"]
