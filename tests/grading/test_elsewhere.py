"""Is a call "in another worker process" run in a real process of its own, where every ``hash``
the learner's code holds answers as under another salt, and does nothing of it come back but
its reply?"""

from __future__ import annotations

import builtins
import operator
import os
import threading
import types

from simlab.grading.sandbox.elsewhere import in_another_process, salted_hash

VALUES = ("t1", b"t1", ("t1", 2), frozenset({"k"}), 7, 2.5, None, (1, 2))
SALTED = {"t1", b"t1", ("t1", 2), frozenset({"k"})}


def _learner() -> types.ModuleType:
    """A namespace holding ``hash`` every way a learner's cell can: a global, a closure, a
    default, a class attribute, a list item, an instance attribute, a slot."""
    ns = types.ModuleType("learner")
    exec(
        "_h = hash\n"
        "def closure():\n"
        "    h = hash\n"
        "    return lambda v: h(v)\n"
        "by_closure = closure()\n"
        "def by_default(v, h=hash):\n"
        "    return h(v)\n"
        "def by_kwdefault(v, *, h=hash):\n"
        "    return h(v)\n"
        "class K:\n"
        "    h = hash\n"
        "held = [hash]\n"
        "class Box: pass\n"
        "box = Box()\n"
        "box.h = hash\n"
        "class Slotted:\n"
        "    __slots__ = ('h',)\n"
        "slotted = Slotted()\n"
        "slotted.h = hash\n"
        "def all_ways(v):\n"
        "    return [hash(v), _h(v), by_closure(v), by_default(v), by_kwdefault(v), K.h(v),\n"
        "            held[0](v), box.h(v), slotted.h(v)]\n",
        ns.__dict__,
    )
    return ns


def test_is_every_hash_the_learner_holds_salted_otherwise_and_numbers_alike():
    ns = _learner()
    here = {v: ns.all_ways(v) for v in VALUES}
    reply = in_another_process(1, lambda: {"ok": True, "value": [ns.all_ways(v) for v in VALUES]})
    there = dict(zip(VALUES, reply["value"], strict=True))
    other = in_another_process(2, lambda: {"v": [hash(v) for v in VALUES]})
    third = dict(zip(VALUES, other["v"], strict=True))
    for v in VALUES:
        assert len(set(there[v])) == 1, v  # every way to the hash answers alike
        assert (there[v][0] != here[v][0]) == (v in SALTED), v
        assert (third[v] != there[v][0]) == (v in SALTED), v  # each process its own salt
        assert there[v][0] == salted_hash(1)(v)
    assert ns.all_ways("t1") == here["t1"] and builtins.hash is ns._h  # nothing came back


def test_is_the_other_process_a_real_one():
    mine = os.getpid(), threading.get_native_id(), os.readlink("/proc/self")
    reply = in_another_process(
        1, lambda: {"v": [os.getpid(), threading.get_native_id(), os.readlink("/proc/self")]}
    )
    pid, tid, self_link = reply["v"]
    assert pid != mine[0] and tid != mine[1] and self_link != mine[2]
    assert self_link == str(pid)


def test_do_changes_of_the_call_stay_in_its_process():
    state = {"sent": []}

    def call():
        state["sent"].append("t1:email:0")
        return {"ok": True, "value": len(state["sent"])}

    assert in_another_process(1, call) == {"ok": True, "value": 1}
    assert state == {"sent": []}


def test_does_a_process_that_ends_without_a_reply_answer_as_one_that_exited():
    def call():
        os._exit(3)

    reply = in_another_process(1, call)
    assert reply["ok"] is False and reply["error"]["type"] == "SystemExit"
    assert "status 3" in reply["error"]["message"]


def test_is_the_guards_record_left_as_it_was_in_another_process():
    # The fork rebinds every reference to the real hash; the guard's record holds one
    # (elsewhere's own), which must stay as recorded, and the salting is the kit's own change.
    from simlab.grading.sandbox.watch import Guard

    guard = Guard()
    recorded = tuple(guard.rest.values)

    def there() -> dict:
        guard.rebound("hash")
        kept = all(map(operator.is_, guard.rest.values, recorded))
        return {"changed": guard.changed(), "kept": kept}

    answer = in_another_process(1, there)
    # What else the kit rebinds as it runs in this test process shows here as there.
    assert answer == {"changed": guard.changed(), "kept": True}
    assert "builtins.hash" not in answer["changed"]
