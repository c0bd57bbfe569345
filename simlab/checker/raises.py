"""Rule (x): a ledger call that raised what the contract does not let it raise.

The simulator records such a raise as the call's answer (:mod:`simlab.sim.answers`): an
``info`` event of the call's operation whose value holds ``raised``, the exception's type name.
Every one is broken; its sentence tells the answer a correct ledger gives, which the protocol's
model predicts from the task's state just before the call.
"""

from __future__ import annotations

from simlab.checker.history import Event
from simlab.checker.model import Model, TaskState, live
from simlab.checker.operations import REFUSABLE_OPS, at
from simlab.checker.outcomes import Finding, Run
from simlab.checker.words import Said, said
from simlab.records import CANCELLED, DEAD, QUEUED, RUNNING, TERMINAL_STATUSES

__all__ = ["raised_answers", "RAISED_OPS"]


def _s(name: str, /, **values) -> Said:
    return said("check." + name, **values)


#: The operations whose answer may be a raise the contract does not allow, recorded as an
#: ``info`` event whose value holds ``raised`` (``read``: a ``get``, ``tasks``, ``counts`` or
#: ``effects``; see :mod:`simlab.sim.answers`).
RAISED_OPS = (
    "submit",
    "claim",
    "claim-next",
    "heartbeat",
    "save",
    "release",
    "effect",
    "cancel",
    "requeue",
    "read",
)

#: How a sentence tells a call that raised, beside the refusable ones.
_TOLD_RAISED = {
    **REFUSABLE_OPS,
    "submit": lambda e: _s("told.submit", task=e.task, t=at(e.time)),
    "claim-next": lambda e: _s("told.claim_next", p=e.process, t=at(e.time)),
    "read": lambda e: (
        _s("told.read", p=e.process, call=e.value.get("call", "read"), task=e.task, t=at(e.time))
        if e.task is not None
        else _s("told.read_all", p=e.process, call=e.value.get("call", "read"), t=at(e.time))
    ),
}


def raised_answers(run: Run) -> list[Finding]:
    """Every call that raised what the contract does not let it raise (an ``info`` event of
    :data:`RAISED_OPS` holding ``raised``): each is broken, and its sentence tells the answer a
    correct ledger gives, which the protocol's model predicts from the task's state just
    before the call (its events replayed up to it), as it does for refusals."""
    view = run.view
    raised = sorted(
        (e for op in RAISED_OPS for e in view.of(op, "info") if "raised" in e.value),
        key=lambda e: e.index,
    )
    out = []
    for e in raised:
        s = _state_before(run, e)
        told = _TOLD_RAISED[e.op](e)
        sentence = _s("raised", told=told, error=e.value["raised"], answer=_answer(s, e))
        out.append(Finding.of("x", e.index, sentence, e, None if s is None else s.newest))
    return out


def _state_before(run: Run, e: Event) -> TaskState | None:
    """The model's state of ``e``'s task just before ``e`` (None for a call of no task)."""
    if e.task is None:
        return None
    model = Model(set(run.view.submits), run.ttl)
    s = model.state(e.task)
    for x in run.view.by_task.get(e.task, ()):
        if x.index >= e.index:
            break
        model.apply(s, x)
    return s


def _answer(s: TaskState | None, e: Event) -> Said:
    """What a correct ledger answers to ``e``'s call, from the task's state ``s`` before it."""
    op = e.op
    if op == "read":
        return _s("answer.read")
    if op == "claim-next":
        return _s("answer.next")
    if op == "submit":
        return _s("answer.exists" if s is not None and s.submitted else "answer.id")
    if s is None or not s.submitted:
        return _s("answer.contract")
    if any(p != e.process for p in s.inflight):  # a claim in flight may have bumped the epoch
        return _s("answer.bool" if op != "claim" else "answer.contract")
    if op == "claim":
        if s.status in TERMINAL_STATUSES:
            return _s("answer.terminal")
        if s.status == RUNNING and s.until is not None and live(s.until, e.time):
            return _s("answer.lease_held")
        return _s("answer.lease")
    if op == "cancel":
        return _s("answer.true" if s.status in (QUEUED, RUNNING) else "answer.false")
    if op == "requeue":
        return _s("answer.true" if s.status in (CANCELLED, DEAD) else "answer.false")
    current = e.epoch is not None and e.epoch == s.epoch and s.status == RUNNING
    if op == "save" and (e.step is None or e.step <= s.step):
        current = False
    if op == "effect" and e.value.get("key") in s.effects:
        current = False
    return _s("answer.true" if current else "answer.false")
