"""Rule (u), claim next: what each ``claim_next`` of a pull-mode run answered, judged against
every task's state at that instant (the history replayed through the protocol's model), since
the right answer depends on all the tasks at once.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import Any

from simlab.checker.model import Model, TaskState, live
from simlab.checker.operations import at, who
from simlab.checker.outcomes import Finding, Run
from simlab.checker.words import Said, said
from simlab.records import PROBE_TENANT, QUEUED, RUNNING

__all__ = ["claim_next_order"]


def claim_next_order(run: Run) -> list[Finding]:
    """What each ``claim_next`` answered (pull mode), against every task's state at that
    instant: the whole history is replayed through the protocol's model in order, since the
    answer depends on all the tasks at once. A granted ``claim_next`` (a claim ok marked
    ``next``) must hand out the oldest claimable task in submit order, never a health probe
    (tenant ``__health__``); one that handed out nothing (``claim-next`` fail) is wrong while
    some task was claimable. Claimable: queued, or running with a lease that has ended. A
    task whose claimability the model cannot know at that instant (a lease that ends at that
    very instant, within the tolerance, or a claim that may have been granted unseen) stops
    the judging of that answer at that task: every older task is still judged."""
    view = run.view
    if not view.of("claim-next", "invoke"):
        return []
    submits = view.submits
    probes = {t for t, e in submits.items() if e.value.get("tenant") == PROBE_TENANT}
    # In submit order, probes left out: they are never claimable (a probe handed out is
    # judged before the order is read).
    order = [t for t in sorted(submits, key=lambda t: submits[t].index) if t not in probes]
    position = {t: i for i, t in enumerate(order)}
    # The positions in ``order`` of the tasks an answer's scan cannot pass over without looking
    # (see _may_stop), kept sorted as the replay changes them: a task that has ended stays
    # ended for many answers, and every answer would otherwise walk past it again.
    waiting: list[int] = []
    end = len(order)
    model = Model(set(submits), run.ttl)
    out = []
    for e in view.events:
        if e.op == "claim-next":
            if e.type == "fail":
                older = _claimable_before(model, order, waiting, end, e.time)
                if older is not None:
                    why = _claimable_why(model.tasks[older], older)
                    sentence = _s("next.none", p=e.process, t=at(e.time), why=why)
                    out.append(Finding.of("u", e.index, sentence, e, model.tasks[older].newest))
            continue
        task = e.task
        if task is None:
            continue
        s = model.state(task)
        if e.op == "claim" and e.type == "ok" and e.value.get("next"):
            got = _s("next.got", p=e.process, task=task, t=at(e.time))
            if task in probes:
                out.append(Finding.of("u", e.index, _s("next.probe", got=got), e, submits[task]))
            else:
                before = position.get(task, end)
                older = _claimable_before(model, order, waiting, before, e.time)
                if older is not None:
                    why = _claimable_why(model.tasks[older], older)
                    sentence = _s("next.older", got=got, why=why)
                    out.append(Finding.of("u", e.index, sentence, e, submits[older]))
        model.apply(s, e)
        i = position.get(task)
        if i is not None:
            at_i = bisect_left(waiting, i)
            held = at_i < len(waiting) and waiting[at_i] == i
            if _may_stop(s) != held:
                if held:
                    del waiting[at_i]
                else:
                    waiting.insert(at_i, i)
    return out


def _may_stop(s: TaskState) -> bool:
    """Can a scan for the oldest claimable task stop at ``s``'s task (answer it, or stop in
    doubt)? Only a task that is queued or running, or has a claim that may have been granted
    unseen, can: any other (completed, cancelled, dead) is passed over."""
    return bool(s.unseen or s.inflight) or s.status == QUEUED or s.status == RUNNING


def _claimable_before(
    model: Model, order: list[str], waiting: list[int], before: int, now: float
) -> str | None:
    """The first task in submit ``order`` (no probe in it) that is claimable at ``now``, if its
    position comes before ``before``, and no task before it is in doubt. ``waiting``: the
    sorted positions of the submitted tasks the scan cannot pass over unseen
    (:func:`_may_stop`); every other task is not submitted yet, or passed over."""
    tasks = model.tasks
    for i in waiting:
        if i >= before:
            return None
        t = order[i]
        s = tasks[t]
        if s.unseen or s.inflight:  # ``s.unanswered``, without a property's call per task
            return None  # a claim of it may have been granted unseen
        if s.status == QUEUED:
            return t
        if s.status == RUNNING:
            if s.until is None:
                return None  # a lease that is not timed
            if live(s.until, now):
                continue
            if not live(now, s.until):
                return None  # it ends at this very instant: a ledger may grant or refuse
            return t
    return None


def _claimable_why(s: TaskState, task: str) -> Said:
    """Why ``task`` was claimable: queued, or its lease had ended."""
    if s.status == QUEUED:
        return _s("next.queued", task=task)
    return _s("next.ended", task=task, who=who(s.lease), until=at(s.until))


def _s(name: str, /, **values: Any) -> Said:
    """The checker's message ``name`` (:data:`simlab.checker.words.CHECK`)."""
    return said("check." + name, **values)
