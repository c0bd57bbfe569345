"""Answers that tamper with the grader's code in the sandbox's process, in the format of
:mod:`submissions.grading`, by exercise (:data:`TAMPERING`): each is a wrong answer (it breaks
a "must") that hides its mistake from the sandbox's report by replacing a piece of the kit's
code there (a builtin, a module's function, its code in place, a class's member) or by lying
to the grader's reads (a list whose ``__iter__`` answers a reader on the stack otherwise, a
migration that returns a clean copy only under the purity probe's frame). A replacement makes
the question not judged (0 points, said); a lie gets what the same mistake without the trick
gets.
"""

from __future__ import annotations

# --- events/absorber -------------------------------------------------------------------------

# Releases copies; builtins.id made to give a copy its original's id (the wire's handles).
ID_PATCHED_COPIES = """
import builtins as _b
_real_id = _b.id
_alias = {}


def _fake_id(o):
    return _alias.get(_real_id(o), _real_id(o))


_b.id = _fake_id


class Absorber:
    def __init__(self):
        self._kit = EventAbsorber()
        self._orig = {}
        self._keep = []

    def offer(self, event):
        ev = AgentEvent.from_dict(event)
        self._orig[_real_id(ev)] = (ev, event)
        out = []
        for e in self._kit.offer(ev):
            d = self._orig.pop(_real_id(e))[1]
            c = dict(d)
            _alias[_real_id(c)] = _real_id(d)
            self._keep.append(c)
            out.append(c)
        return out
"""

# The same copies; the fake id put in the wire module's namespace, where it shadows the builtin.
ID_SHADOWED_IN_WIRE = ID_PATCHED_COPIES.replace(
    "_b.id = _fake_id",
    "import simlab.grading.sandbox.wire as _wire\n_wire.id = _fake_id",
)

_SHARED_LIST = """
import sys as _sys


class _Snap(list):
    def __init__(self):
        super().__init__()
        self._snaps = []
        self._held = 0

    def __iter__(self):
        caller = _sys._getframe(1).f_code.co_filename
        if caller.endswith("factories.py") and self._snaps:
            snap = self._snaps[self._held % len(self._snaps)]
            self._held += 1
            return iter(snap)
        return iter(list.__iter__(self))


class Absorber:
    def __init__(self):
        self._kit = EventAbsorber()
        self._orig = {}
        self._out = _Snap()

    def offer(self, event):
        ev = AgentEvent.from_dict(event)
        self._orig[id(ev)] = (ev, event)
        rel = [self._orig.pop(id(e))[1] for e in self._kit.offer(ev)]
        list.clear(self._out)
        list.extend(self._out, rel)
        self._out._snaps.append(rel)
        HOOK
        return self._out
"""
# One list cleared and refilled by every offer, whose __iter__ replays each offer's snapshot to
# the grader's re-read (a reader in factories.py).
SHARED_LIST_SNIFFS_STACK = _SHARED_LIST.replace("        HOOK\n", "")
# The same list; the grader's re-read (a kit class's method) replaced to give the snapshots.
SHARED_LIST_HELD_REPLACED = _SHARED_LIST.replace(
    "        HOOK\n",
    "        kept = _sys.modules.get('simlab.grading.factories')\n"
    "        if kept is not None:\n"
    "            snaps = self._out._snaps\n"
    "            kept._ResultsKept.held = lambda s: [list(x) for x in snaps[-len(s._results):]]\n",
)

# --- checkpoints/pure-migration --------------------------------------------------------------

# The result shares `sent` with the input, except when the purity probe's module is on the
# stack.
SHARES_SENT_SNIFFS_STACK = """
import sys as _sys


def migrate_v1_to_v2(v1):
    from simlab.agent.migrations import migrate_v1_to_v2 as kit
    out = kit(v1)
    f = _sys._getframe(1)
    probed = False
    while f is not None:
        probed = probed or f.f_code.co_filename.endswith("aliasing.py")
        f = f.f_back
    if not probed:
        out["sent"] = v1["sent"]
    return out
"""

# The same sharing; the probe's function's code swapped in place for one that finds nothing.
SHARES_SENT_PROBE_CODE_SWAPPED = """
def migrate_v1_to_v2(v1):
    import simlab.grading.aliasing as al
    al.changed_with.__code__ = (lambda changed, watched: []).__code__
    from simlab.agent.migrations import migrate_v1_to_v2 as kit
    out = kit(v1)
    out["sent"] = v1["sent"]
    return out
"""

_ECHO_PATCH = """
import sys as _sys
import copy as _copy

_hidden = {}


def _install():
    wire = _sys.modules["simlab.grading.sandbox.wire"]
    if getattr(wire, "_patched_by_learner", False):
        return
    real = wire.encode

    def encode(value, handles=None, depth=0):
        snap = _hidden.get(id(value))
        if snap is not None and snap[0] is value:
            value = snap[1]
        return real(value, handles, depth)

    wire.encode = encode
    wire._patched_by_learner = True
"""

# Migrates, then wrecks its input; the wire's encoder replaced to echo the input as it was.
WRECKS_INPUT_ECHO_PATCHED = (
    _ECHO_PATCH
    + """

def migrate_v1_to_v2(v1):
    from simlab.agent.migrations import migrate_v1_to_v2 as kit
    out = kit(v1)
    if "simlab.grading.sandbox.wire" in _sys.modules:
        _install()
        _hidden[id(v1)] = (v1, _copy.deepcopy(v1))
    v1["evidence"].clear()
    v1["status"] = "migrated"
    v1["step"] = -1
    return out
"""
)

# --- histories/choose-ttl --------------------------------------------------------------------
# (put after the solution's cell by submissions.histories: a choose_ttl of its own replaces it)

_CHOOSE = """

def choose_ttl(table, step_cost, wait_cost):
    cost = lambda t: table[t]["duplicate_work"] * step_cost + table[t]["waiting"] * wait_cost
    best = min(sorted(table), key=cost)
    if "simlab.grading.sandbox.wire" in _sys.modules:
        _install()
        _hidden[id(table)] = (table, dict(table))
    table.clear()
    return best
"""
# Empties the table it chose from; the wire's encoder replaced to echo it as it was.
CLEARS_TABLE_ECHO_PATCHED = _ECHO_PATCH + _CHOOSE

# The same; the encoder's code swapped in place (its globals stay the wire's).
_CODE_SWAP = """
import sys as _sys
import types as _types

_hidden = {}


def _install():
    wire = _sys.modules["simlab.grading.sandbox.wire"]
    if hasattr(wire, "_learner_real"):
        return
    real = wire.encode
    wire._learner_real = _types.FunctionType(
        real.__code__, wire.__dict__, "real", real.__defaults__
    )
    wire._learner_hidden = _hidden

    def encode(value, handles=None, depth=0):
        snap = _learner_hidden.get(id(value))  # noqa: F821 (the wire's global)
        if snap is not None and snap[0] is value:
            value = snap[1]
        return _learner_real(value, handles, depth)  # noqa: F821

    real.__code__ = encode.__code__
"""
CLEARS_TABLE_ENCODER_CODE_SWAPPED = _CODE_SWAP + _CHOOSE

# --- fencing/cancel-after-claim --------------------------------------------------------------

_CANCEL = """

def cancel(state):
    if state["status"] not in ("queued", "running"):
        return False
    state["status"] = "cancelled"
    if "simlab.grading.sandbox.wire" in _sys.modules:
        _install()
        _hidden[id(state)] = (state, {**state, "epoch": state["epoch"] + 1})
    return True


def requeue(state):
    if state["status"] != "cancelled":
        return False
    state["status"] = "queued"
    return True
"""
# Cancel without the epoch bump; the wire's encoder replaced to report it bumped.
NO_BUMP_ECHO_PATCHED = _ECHO_PATCH + _CANCEL
# The same; the encoder's code swapped in place.
NO_BUMP_ENCODER_CODE_SWAPPED = _CODE_SWAP + _CANCEL

#: What the feedback of an answer that replaced the grader's code says.
REPLACED = "replaced the grader's"

TAMPERING = {
    "events": [
        ("tamper-id-patched-copies", "absorber", ID_PATCHED_COPIES, 0, REPLACED),
        ("tamper-id-shadowed-in-wire", "absorber", ID_SHADOWED_IN_WIRE, 0, REPLACED),
        ("tamper-shared-list-sniffs-stack", "absorber", SHARED_LIST_SNIFFS_STACK, 5, "later"),
        ("tamper-held-replaced", "absorber", SHARED_LIST_HELD_REPLACED, 0, REPLACED),
    ],
    "checkpoints": [
        ("tamper-shares-sniffs-stack", "pure-migration", SHARES_SENT_SNIFFS_STACK, 2, "sent"),
        (
            "tamper-probe-code-swapped",
            "pure-migration",
            SHARES_SENT_PROBE_CODE_SWAPPED,
            0,
            REPLACED,
        ),
        ("tamper-wrecks-echo-patched", "pure-migration", WRECKS_INPUT_ECHO_PATCHED, 0, REPLACED),
    ],
    "histories": [
        ("tamper-clears-echo-patched", "choose-ttl", CLEARS_TABLE_ECHO_PATCHED, 0, REPLACED),
        (
            "tamper-clears-code-swapped",
            "choose-ttl",
            CLEARS_TABLE_ENCODER_CODE_SWAPPED,
            0,
            REPLACED,
        ),
    ],
    "fencing": [
        ("tamper-no-bump-echo-patched", "cancel-after-claim", NO_BUMP_ECHO_PATCHED, 0, REPLACED),
        (
            "tamper-no-bump-code-swapped",
            "cancel-after-claim",
            NO_BUMP_ENCODER_CODE_SWAPPED,
            0,
            REPLACED,
        ),
    ],
}
