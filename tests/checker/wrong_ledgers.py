"""Wrong ledgers: each breaks exactly one promise of the ledger contract, and nothing else.

Every class here is a small subclass of :class:`simlab.ledger.MemoryLedger` that overrides one
method (or one helper) with a copy of the original in which a line or two are wrong: the mistake
a learner makes in good faith, or the one an attacker hides (a method that returns the right
answer but writes the wrong thing, a refusal that still writes, an off-by-one on a time or a
count). Everything else is the reference model, so a judge that flags one of them has found that
very promise broken.

Where the mistake is one line of the reference method, the class says only that line:
:func:`edited` takes the reference's own source and changes it there (the docstring names the
mistake, ``why`` says what the right line does). Where the mistake moves or adds statements,
the method is written out whole.

The promises are those of :mod:`simlab.ledger.protocol` and of the README sections "The task
ledger" and "The in-process model" (and, where marked, of the :class:`MemoryLedger` docstrings).

``CORRECT_LEDGERS`` holds ledgers that keep every promise but are written differently from
:class:`MemoryLedger`, so a judge can be checked for false alarms too.

This is a data module, not a test module: import ``WRONG_LEDGERS``, ``PROMISE`` and
``CORRECT_LEDGERS``. Every class is built as ``Cls(clock=clock)``.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import linecache
import sys
import textwrap
import time
import uuid
from collections.abc import Callable
from typing import Any

from simlab.errors import LeaseHeld, LedgerError, TerminalTask, UnknownTask
from simlab.ledger import MemoryLedger
from simlab.ledger.arguments import MAX_VALUE_BYTES, check_lease, check_name, check_step
from simlab.ledger.arguments import check_max_attempts as _check_max_attempts
from simlab.ledger.arguments import check_max_value_bytes as _check_max_value_bytes
from simlab.ledger.arguments import check_ttl as _check_ttl
from simlab.ledger.arguments import from_json as _from_json
from simlab.ledger.arguments import to_json as _to_json
from simlab.ledger.memory import _Task
from simlab.records import (
    CANCELLED,
    COMPLETED,
    DEAD,
    PROBE_TENANT,
    QUEUED,
    RUNNING,
    TERMINAL_STATUSES,
    Effect,
    Lease,
    TaskRecord,
)

__all__ = ["WRONG_LEDGERS", "PROMISE", "CORRECT_LEDGERS"]


def edited(method: Callable, old: str, new: str, *, why: str, mark: str = "wrong") -> Callable:
    """``method`` of the reference with one line changed: the one line of its body that holds
    ``old`` holds ``new`` in its place (each line of a longer ``new`` indented as that line; an
    empty one drops the statement) and ends in ``# wrong: why`` (``mark`` in place of "wrong"
    for a line that differs from the reference and is still right). The changed method runs
    among the names of the reference's module.

    Raises AssertionError when no line or more than one holds ``old``, or the change changes
    nothing: the reference was rewritten, so the mistake must be written anew.
    """
    source = textwrap.dedent(inspect.getsource(method))
    lines = source.splitlines()
    body = ast.parse(source).body[0].body
    start = body[0].end_lineno if isinstance(body[0], ast.Expr) else body[0].lineno - 1
    at = [i for i in range(start, len(lines)) if old in lines[i]]
    assert len(at) == 1, (method.__qualname__, old, at)
    line = lines[at[0]]
    indent = line[: len(line) - len(line.lstrip())]
    changed = line.replace(old, new.replace("\n", "\n" + indent)).rstrip()
    assert changed != line.rstrip(), (method.__qualname__, old)
    lines[at[0]] = f"{changed or indent}{'  ' if changed.strip() else ''}# {mark}: {why}"
    space = dict(vars(sys.modules[method.__module__]))
    # annotations stay text, as in the reference's module
    text = "\n".join(["from __future__ import annotations", *lines])
    name = f"<{method.__qualname__}, {mark}: {why}>"
    linecache.cache[name] = (len(text), None, text.splitlines(True), name)  # for tracebacks
    exec(compile(text, name, "exec"), space)
    return space[method.__name__]


# -- submit ---------------------------------------------------------------------------------------


class SubmitDuplicateOverwrites(MemoryLedger):
    """A duplicate ``submit`` silently replaces the stored task instead of raising LedgerError."""

    def submit(
        self, task_id: str | None = None, *, tenant: str = "default", goal: Any = None
    ) -> str:
        if task_id is None:
            task_id = uuid.uuid4().hex
        else:
            check_name(task_id, "task_id")
        check_name(tenant, "tenant")
        goal_json = _to_json(goal, "goal", self.max_value_bytes)
        # wrong: no duplicate check, the retried request overwrites the persisted goal
        self._tasks[task_id] = _Task(task_id, tenant, goal_json, float(self.clock()))
        return task_id


class SubmitDuplicateRaisesAfterWrite(MemoryLedger):
    """A duplicate ``submit`` raises LedgerError, but only after it reset the stored task."""

    def submit(
        self, task_id: str | None = None, *, tenant: str = "default", goal: Any = None
    ) -> str:
        if task_id is None:
            task_id = uuid.uuid4().hex
        else:
            check_name(task_id, "task_id")
        check_name(tenant, "tenant")
        goal_json = _to_json(goal, "goal", self.max_value_bytes)
        existed = task_id in self._tasks
        self._tasks[task_id] = _Task(task_id, tenant, goal_json, float(self.clock()))
        if existed:  # wrong: the error is right, but the write already happened
            raise LedgerError(f"task {task_id!r} already exists")
        return task_id


# -- claim: the epoch -----------------------------------------------------------------------------


class ClaimKeepsEpoch(MemoryLedger):
    """A claim does not bump the epoch, so the old and the new holder share one fencing token."""

    _grant = edited(MemoryLedger._grant, "task.epoch += 1", "", why="task.epoch += 1 forgotten")


class TakeoverKeepsEpoch(MemoryLedger):
    """Taking over an expired lease keeps the epoch (only a claim from queued bumps it)."""

    def _grant(self, task: _Task, worker: str, ttl: float, now: float) -> Lease:
        if task.status == QUEUED:  # wrong: a takeover from running must bump the epoch too
            task.epoch += 1
        task.status = RUNNING
        task.attempts += 1
        task.worker = worker
        task.lease_until = now + ttl
        task.updated_at = now
        return Lease(
            task.task_id,
            worker,
            task.epoch,
            task.step,
            task.lease_until,
            _from_json(task.checkpoint),
            task.attempts,
        )


class ClaimLeaseHasOldEpoch(MemoryLedger):
    """A claim bumps the stored epoch but hands out the epoch from before the bump."""

    _grant = edited(
        MemoryLedger._grant,
        "task.epoch,",
        "task.epoch - 1,",
        why="the epoch read before the bump, as in a separate SELECT",
    )


class ClaimEpochFromAttempts(MemoryLedger):
    """A claim sets the epoch to the attempt count, so after a requeue an old epoch comes back."""

    _grant = edited(
        MemoryLedger._grant,
        "task.epoch += 1",
        "task.epoch = task.attempts + 1",
        why="attempts restart at 0 on requeue, epochs must not",
    )


# -- claim: the lease check -----------------------------------------------------------------------


class ClaimIgnoresLiveLease(MemoryLedger):
    """A claim takes a task whose lease is still live instead of raising LeaseHeld."""

    def claim(self, task_id: str, worker: str, ttl: float) -> Lease:
        check_name(worker, "worker")
        _check_ttl(ttl)
        task = self._task(task_id)
        now = float(self.clock())
        if task.status in TERMINAL_STATUSES:
            raise TerminalTask(task_id, task.status)
        # wrong: the LeaseHeld check is gone
        if self._out_of_attempts(task):
            self._bury(task, now)
            raise TerminalTask(task_id, DEAD)
        return self._grant(task, worker, ttl, now)


class ClaimTruncatesLeaseTime(MemoryLedger):
    """A claim compares whole seconds, so it takes over a lease up to a second before it expires."""

    claim = edited(
        MemoryLedger.claim,
        "task.lease_until > now",
        "int(task.lease_until) > int(now)",
        why="int()",
    )


class ClaimRevivesCompleted(MemoryLedger):
    """A claim of a completed task runs it again instead of raising TerminalTask."""

    claim = edited(
        MemoryLedger.claim,
        "if task.status in TERMINAL_STATUSES:",
        "if task.status in (CANCELLED, DEAD):",
        why="completed is terminal too",
    )


class ClaimUsesWallClock(MemoryLedger):
    """A claim reads the wall clock instead of the ``clock`` the ledger was built with."""

    claim = edited(
        MemoryLedger.claim,
        "now = float(self.clock())",
        "now = time.time()",
        why="self.clock() is the only time a ledger may use",
    )


class EffectRecordedAtWall(MemoryLedger):
    """``record_effect`` stamps the key with the wall clock, not the ``clock`` the ledger was
    built with (the fence still reads the epoch: only the time is wrong)."""

    record_effect = edited(
        MemoryLedger.record_effect,
        "now = float(self.clock())",
        "now = time.time()",
        why="self.clock() is the only time a ledger may use",
    )


class MaxAttemptsOffByOne(MemoryLedger):
    """With ``max_attempts`` set, a task gets one claim more than allowed before it goes dead."""

    _out_of_attempts = edited(
        MemoryLedger._out_of_attempts,
        "task.attempts >= self.max_attempts",
        "task.attempts > self.max_attempts",
        why=">",
    )


class ClaimBuriesWithoutALimit(MemoryLedger):
    """With no ``max_attempts`` set, a task still goes dead at its third claim: a limit the
    ledger was never given."""

    claim = edited(
        MemoryLedger.claim,
        "if self.max_attempts is not None and self._out_of_attempts(task):",
        "if task.attempts >= (self.max_attempts or 2):",
        why="without max_attempts, no task goes dead",
    )


class ClaimBuriesALiveLease(MemoryLedger):
    """The attempt limit is checked before the live lease: a task whose holder is still at
    work goes dead at another worker's claim."""

    def claim(self, task_id: str, worker: str, ttl: float) -> Lease:
        task = self._task(task_id)
        now = float(self.clock())
        if task.status in TERMINAL_STATUSES:
            raise TerminalTask(task_id, task.status)
        if self._out_of_attempts(task):  # wrong: before the live lease
            self._bury(task, now)
            raise TerminalTask(task_id, DEAD)
        if task.status == RUNNING and task.lease_until > now:
            raise LeaseHeld(task_id, task.worker, task.lease_until)
        return self._grant(task, worker, ttl, now)


class ClaimBuriesACompletedTask(MemoryLedger):
    """The attempt limit is checked before the terminal status: a completed task claimed again
    (a duplicate delivery) goes dead."""

    def claim(self, task_id: str, worker: str, ttl: float) -> Lease:
        task = self._task(task_id)
        now = float(self.clock())
        if self._out_of_attempts(task) and task.status != DEAD:  # wrong: before the status
            self._bury(task, now)
            raise TerminalTask(task_id, DEAD)
        if task.status in TERMINAL_STATUSES:
            raise TerminalTask(task_id, task.status)
        if task.status == RUNNING and task.lease_until > now:
            raise LeaseHeld(task_id, task.worker, task.lease_until)
        return self._grant(task, worker, ttl, now)


# -- claim: what the lease carries ----------------------------------------------------------------


class ClaimResumesAtStepZero(MemoryLedger):
    """A claim hands out step 0 instead of the stored step to resume from."""

    _grant = edited(MemoryLedger._grant, "task.step,", "0,", why="the lease must carry task.step")


class ClaimDropsCheckpoint(MemoryLedger):
    """A claim hands out no checkpoint, so a resumed worker loses the saved progress."""

    _grant = edited(
        MemoryLedger._grant,
        "None if checkpoint is None else _from_json(checkpoint),",
        "None,",
        why="the lease must carry the stored checkpoint",
    )


# -- claim_next -----------------------------------------------------------------------------------


class ClaimNextHandsOutProbes(MemoryLedger):
    """``claim_next`` hands a health probe (tenant ``__health__``) to a worker."""

    def claim_next(self, worker: str, ttl: float) -> Lease | None:
        check_name(worker, "worker")
        _check_ttl(ttl)
        now = float(self.clock())
        for task in self._tasks.values():
            # wrong: the PROBE_TENANT skip is gone
            if task.status == QUEUED or (task.status == RUNNING and task.lease_until <= now):
                if self._out_of_attempts(task):
                    self._bury(task, now)
                    continue
                return self._grant(task, worker, ttl, now)
        return None


class ClaimNextNewestFirst(MemoryLedger):
    """``claim_next`` picks the newest claimable task instead of the oldest."""

    claim_next = edited(
        MemoryLedger.claim_next,
        "for task in self._tasks.values():",
        "for task in reversed(list(self._tasks.values())):",
        why="submit order reversed",
    )


class ClaimNextSkipsExpired(MemoryLedger):
    """``claim_next`` only takes queued tasks, so a task whose worker died is never taken over."""

    claim_next = edited(
        MemoryLedger.claim_next,
        "if task.status == QUEUED or (task.status == RUNNING and task.lease_until <= now):",
        "if task.status == QUEUED:",
        why="an expired running lease is claimable too",
    )


# -- heartbeat ------------------------------------------------------------------------------------


class HeartbeatIgnoresEpoch(MemoryLedger):
    """A stale lease's heartbeat succeeds and extends the new holder's lease."""

    heartbeat = edited(
        MemoryLedger.heartbeat,
        "task.epoch != lease.epoch or task.status != RUNNING",
        "task.status != RUNNING",
        why="the epoch check is gone",
    )


class HeartbeatIgnoresStatus(MemoryLedger):
    """A heartbeat on a task that is no longer running (completed, queued) still succeeds."""

    heartbeat = edited(
        MemoryLedger.heartbeat,
        "task.epoch != lease.epoch or task.status != RUNNING",
        "task.epoch != lease.epoch",
        why="the task must also be running",
    )


class HeartbeatDoesNotExtend(MemoryLedger):
    """A heartbeat returns True but leaves ``lease_until`` where it was."""

    heartbeat = edited(
        MemoryLedger.heartbeat,
        "task.lease_until = now + ttl",
        "",
        why="task.lease_until = now + ttl forgotten",
    )


class HeartbeatRefusedStillExtends(MemoryLedger):
    """A heartbeat moves ``lease_until`` before it checks the lease: a stale lease's heartbeat
    returns False but has extended the task's lease (the new holder's, or a finished task's)."""

    def heartbeat(self, lease: Lease, ttl: float) -> bool:
        check_lease(lease)
        _check_ttl(ttl)
        task = self._task(lease.task_id)
        now = float(self.clock())
        task.lease_until = now + ttl  # wrong: written before the lease is checked
        if task.epoch != lease.epoch or task.status != RUNNING:
            return False
        task.updated_at = now
        return True


class HeartbeatExtendsFromLease(MemoryLedger):
    """A heartbeat extends from the lease object's old deadline, not from now, so it can expire."""

    heartbeat = edited(
        MemoryLedger.heartbeat, "now + ttl", "lease.lease_until + ttl", why="must be now + ttl"
    )


# -- save -----------------------------------------------------------------------------------------


class SaveIgnoresEpoch(MemoryLedger):
    """A stale lease's ``save`` is accepted: the fence is gone."""

    save = edited(
        MemoryLedger.save,
        "task.epoch != lease.epoch or task.status != RUNNING or step <= task.step",
        "task.status != RUNNING or step <= task.step",
        why="no epoch check",
    )


class SaveIgnoresStatus(MemoryLedger):
    """A ``save`` with the current epoch is accepted on a task that is no longer running."""

    save = edited(
        MemoryLedger.save,
        "task.epoch != lease.epoch or task.status != RUNNING or step <= task.step",
        "task.epoch != lease.epoch or step <= task.step",
        why="status must be running",
    )


class SaveAllowsSameStep(MemoryLedger):
    """A ``save`` of the stored step again is accepted, so one step is committed twice."""

    save = edited(MemoryLedger.save, "step <= task.step", "step < task.step", why="<")


class SaveIgnoresDone(MemoryLedger):
    """A ``save`` with ``done=True`` stores the result but leaves the task running."""

    def save(
        self,
        lease: Lease,
        step: int,
        *,
        result: Any = None,
        checkpoint: Any = None,
        done: bool = False,
    ) -> bool:
        check_lease(lease)
        check_step(step)
        result_json = _to_json(result, "result", self.max_value_bytes)
        checkpoint_json = _to_json(checkpoint, "checkpoint", self.max_value_bytes)
        task = self._task(lease.task_id)
        if task.epoch != lease.epoch or task.status != RUNNING or step <= task.step:
            return False
        task.step = step
        task.result = result_json
        task.checkpoint = checkpoint_json
        # wrong: the done branch is gone
        task.updated_at = float(self.clock())
        return True


class SaveDoneKeepsLease(MemoryLedger):
    """A ``save`` with ``done=True`` completes the task but does not end its lease."""

    save = edited(
        MemoryLedger.save, "task.lease_until = None", "", why="task.lease_until = None forgotten"
    )


class SaveCompletesOnResult(MemoryLedger):
    """A ``save`` with a result completes the task even without ``done=True``."""

    save = edited(
        MemoryLedger.save,
        "if done:",
        "if done or result is not None:",
        why="only done=True completes a task",
    )


class SaveRefusedWritesCheckpoint(MemoryLedger):
    """A refused ``save`` returns False but has already stored its checkpoint."""

    def save(
        self,
        lease: Lease,
        step: int,
        *,
        result: Any = None,
        checkpoint: Any = None,
        done: bool = False,
    ) -> bool:
        check_lease(lease)
        check_step(step)
        result_json = _to_json(result, "result", self.max_value_bytes)
        checkpoint_json = _to_json(checkpoint, "checkpoint", self.max_value_bytes)
        task = self._task(lease.task_id)
        task.checkpoint = checkpoint_json  # wrong: written before the fence is checked
        if task.epoch != lease.epoch or task.status != RUNNING or step <= task.step:
            return False
        task.step = step
        task.result = result_json
        if done:
            task.status = COMPLETED
            task.lease_until = None
        task.updated_at = float(self.clock())
        return True


class RefusedSaveStillWrites(MemoryLedger):
    """A save of a higher step writes that step before it checks the epoch: a stale lease's
    save returns False but has moved the task's step."""

    save = edited(
        MemoryLedger.save,
        "if task.epoch != lease.epoch or task.status != RUNNING or step <= task.step:",
        "stored = task.step\n"
        "if task.status == RUNNING and step > stored:\n"
        "    task.step = step\n"
        "if task.epoch != lease.epoch or task.status != RUNNING or step <= stored:",
        why="the fence is checked before anything is written",
    )


class SaveNoneKeepsCheckpoint(MemoryLedger):
    """A ``save`` with ``checkpoint=None`` keeps the old checkpoint instead of storing None."""

    save = edited(
        MemoryLedger.save,
        "task.checkpoint = checkpoint_json",
        "task.checkpoint = checkpoint_json or task.checkpoint",
        why="the whole checkpoint is stored each time",
    )


# -- release --------------------------------------------------------------------------------------


class ReleaseIgnoresEpoch(MemoryLedger):
    """A stale lease's ``release`` hands the new holder's task back to the queue."""

    release = edited(
        MemoryLedger.release,
        "task.epoch != lease.epoch or task.status != RUNNING",
        "task.status != RUNNING",
        why="only the current lease may release",
    )


class ReleaseKeepsLeaseUntil(MemoryLedger):
    """A release hands the task back to the queue but leaves its ``lease_until`` in place."""

    release = edited(
        MemoryLedger.release,
        "task.lease_until = None",
        "",
        why="a task that is not running holds no lease",
    )


# -- cancel ---------------------------------------------------------------------------------------


class CancelKeepsEpoch(MemoryLedger):
    """``cancel`` sets ``cancelled`` but does not bump the epoch."""

    cancel = edited(MemoryLedger.cancel, "task.epoch += 1", "", why="task.epoch += 1 forgotten")


class CancelLeavesStatus(MemoryLedger):
    """``cancel`` bumps the epoch and returns True but never sets ``cancelled``."""

    def cancel(self, task_id: str) -> bool:
        task = self._task(task_id)
        if task.status in TERMINAL_STATUSES:
            return False
        task.epoch += 1  # wrong: "the epoch is enough", the status stays queued or running
        task.updated_at = float(self.clock())
        return True


class CancelOverwritesTerminal(MemoryLedger):
    """``cancel`` of a completed (or dead) task succeeds and turns it into ``cancelled``."""

    cancel = edited(
        MemoryLedger.cancel,
        "if task.status in TERMINAL_STATUSES:",
        "if task.status == CANCELLED:",
        why="every terminal status refuses a cancel",
    )


class CancelRefusedBumpsEpoch(MemoryLedger):
    """``cancel`` of a terminal task returns False but has bumped its epoch anyway."""

    def cancel(self, task_id: str) -> bool:
        task = self._task(task_id)
        if task.status in TERMINAL_STATUSES:
            task.epoch += 1  # wrong: a refused cancel must change nothing
            return False
        return super().cancel(task_id)


# -- requeue --------------------------------------------------------------------------------------


class RequeueResetsEpoch(MemoryLedger):
    """``requeue`` resets the epoch to 0, so the next claim reuses an epoch already handed out."""

    requeue = edited(
        MemoryLedger.requeue,
        "task.attempts = 0",
        "task.attempts = task.epoch = 0",
        why="the epoch is kept",
    )


class RequeueBumpsEpoch(MemoryLedger):
    """``requeue`` bumps the epoch instead of keeping it."""

    requeue = edited(
        MemoryLedger.requeue,
        "task.attempts = 0",
        "task.attempts = 0\ntask.epoch += 1",
        why="only claims, cancels and the dead letter bump it",
    )


class RequeueTakesARunningTask(MemoryLedger):
    """``requeue`` puts a running task back to ``queued`` too (its holder keeps working on a
    lease the ledger no longer knows), not only cancelled or dead ones."""

    requeue = edited(
        MemoryLedger.requeue,
        "if task.status != CANCELLED and task.status != DEAD:",
        "if task.status == COMPLETED:",
        why="only a cancelled or dead task is requeued",
    )


class RequeueRevivesCompleted(MemoryLedger):
    """``requeue`` puts a completed task back to ``queued``, not only cancelled or dead ones."""

    requeue = edited(
        MemoryLedger.requeue,
        "if task.status != CANCELLED and task.status != DEAD:",
        "if task.status not in TERMINAL_STATUSES:",
        why="completed is not requeued",
    )


class RequeueKeepsAttempts(MemoryLedger):
    """``requeue`` keeps the attempt count, so a requeued dead task goes straight back to dead."""

    requeue = edited(
        MemoryLedger.requeue,
        "task.attempts = 0",
        "",
        why="task.attempts = 0 forgotten (fresh attempts)",
    )


class RequeueRestartsAtStepZero(MemoryLedger):
    """``requeue`` starts the task over: with its fresh attempts its step goes back to 0, so
    the next claim redoes the steps already committed."""

    requeue = edited(
        MemoryLedger.requeue,
        "task.attempts = 0",
        "task.attempts = task.step = 0",
        why="only the attempts restart; the task resumes from its saved step",
    )


# -- record_effect --------------------------------------------------------------------------------


class SaveDropsResult(MemoryLedger):
    """``save`` accepts the completing save's result and stores None instead."""

    def save(self, lease, step, *, result=None, checkpoint=None, done=False):
        return super().save(lease, step, result=None, checkpoint=checkpoint, done=done)


class EffectIgnoresEpoch(MemoryLedger):
    """A stale lease's ``record_effect`` returns True, so the old worker sends the e-mail too."""

    record_effect = edited(
        MemoryLedger.record_effect,
        "task.epoch != lease.epoch or task.status != RUNNING or key in task.effects",
        "task.status != RUNNING or key in task.effects",
        why="no epoch check",
    )


class EffectIgnoresStatus(MemoryLedger):
    """``record_effect`` succeeds for a task that is no longer running (completed, queued)."""

    record_effect = edited(
        MemoryLedger.record_effect,
        "task.epoch != lease.epoch or task.status != RUNNING or key in task.effects",
        "task.epoch != lease.epoch or key in task.effects",
        why="must also be running",
    )


class EffectOncePerEpoch(MemoryLedger):
    """``record_effect`` allows a key once per epoch, so each new holder may send it again."""

    def record_effect(self, lease: Lease, key: str) -> bool:
        check_lease(lease)
        check_name(key, "effect key")
        task = self._task(lease.task_id)
        if task.epoch != lease.epoch or task.status != RUNNING:
            return False
        seen = task.effects.get(key)
        if seen is not None and seen.epoch == task.epoch:  # wrong: once per key, ever
            return False
        now = float(self.clock())
        task.effects[key] = Effect(task.task_id, key, task.epoch, lease.worker, now)
        return True


class EffectRefusedStillRecords(MemoryLedger):
    """A stale lease's ``record_effect`` returns False but records the key anyway."""

    def record_effect(self, lease: Lease, key: str) -> bool:
        check_lease(lease)
        check_name(key, "effect key")
        task = self._task(lease.task_id)
        if key in task.effects:
            return False
        now = float(self.clock())
        # wrong: recorded before the fence is checked
        task.effects[key] = Effect(task.task_id, key, lease.epoch, lease.worker, now)
        return task.epoch == lease.epoch and task.status == RUNNING


class EffectDuplicateOverwrites(MemoryLedger):
    """A duplicate ``record_effect`` returns False but overwrites who recorded the key, and when."""

    def record_effect(self, lease: Lease, key: str) -> bool:
        check_lease(lease)
        check_name(key, "effect key")
        task = self._task(lease.task_id)
        if task.epoch != lease.epoch or task.status != RUNNING:
            return False
        first = key not in task.effects
        now = float(self.clock())
        # wrong: the first record must stay as it was
        task.effects[key] = Effect(task.task_id, key, task.epoch, lease.worker, now)
        return first


# -- correct ledgers written differently ----------------------------------------------------------


class DictRowLedger:
    """A correct ledger written from scratch: rows are plain dicts, effects a separate table.

    Not a subclass of :class:`MemoryLedger`; it keeps every promise (and the same argument checks,
    errors and clock readings) with a different shape: a row is a ``dict``, the idempotency
    ledger is one dict keyed by ``(task_id, key)``, and a claim builds the new row first and
    swaps it in.
    """

    def __init__(
        self,
        path: str = ":memory:",
        *,
        clock: Callable[[], float] = time.time,
        max_attempts: int | None = None,
        max_value_bytes: int = MAX_VALUE_BYTES,
    ):
        _check_max_attempts(max_attempts)
        _check_max_value_bytes(max_value_bytes)
        if not callable(clock):
            raise TypeError(f"clock must be a function returning the time, got {clock!r}")
        self.path = str(path)
        self.clock = clock
        self.max_attempts = max_attempts
        self.max_value_bytes = max_value_bytes
        self._rows: list[dict[str, Any]] = []
        self._index: dict[str, int] = {}
        self._effects: dict[tuple[str, str], Effect] = {}

    def submit(
        self, task_id: str | None = None, *, tenant: str = "default", goal: Any = None
    ) -> str:
        if task_id is not None:
            check_name(task_id, "task_id")
        check_name(tenant, "tenant")
        goal_json = _to_json(goal, "goal", self.max_value_bytes)
        task_id = uuid.uuid4().hex if task_id is None else task_id
        if task_id in self._index:
            raise LedgerError(f"task {task_id!r} already exists")
        now = float(self.clock())
        row = dict(
            task_id=task_id, status=QUEUED, step=0, epoch=0, result=None, tenant=tenant,
            attempts=0, lease_until=None, checkpoint=None, worker=None, goal=goal_json,
            created_at=now, updated_at=now,
        )  # fmt: skip
        self._index[task_id] = len(self._rows)
        self._rows.append(row)
        return task_id

    def claim(self, task_id: str, worker: str, ttl: float) -> Lease:
        check_name(worker, "worker")
        _check_ttl(ttl)
        row = self._row(task_id)
        now = float(self.clock())
        if row["status"] == RUNNING and not row["lease_until"] <= now:
            raise LeaseHeld(task_id, row["worker"], row["lease_until"])
        if row["status"] not in (QUEUED, RUNNING):
            raise TerminalTask(task_id, row["status"])
        if not self._may_try(row):
            self._dead_letter(row, now)
            raise TerminalTask(task_id, DEAD)
        return self._take(row, worker, ttl, now)

    def claim_next(self, worker: str, ttl: float) -> Lease | None:
        check_name(worker, "worker")
        _check_ttl(ttl)
        now = float(self.clock())
        for row in self._rows:
            claimable = row["status"] == QUEUED or (
                row["status"] == RUNNING and row["lease_until"] <= now
            )
            if not claimable or row["tenant"] == PROBE_TENANT:
                continue
            if self._may_try(row):
                return self._take(row, worker, ttl, now)
            self._dead_letter(row, now)
        return None

    def heartbeat(self, lease: Lease, ttl: float) -> bool:
        check_lease(lease)
        _check_ttl(ttl)
        row = self._row(lease.task_id)
        if not self._current(row, lease):
            return False
        now = float(self.clock())
        row.update(lease_until=now + ttl, updated_at=now)
        return True

    def save(
        self,
        lease: Lease,
        step: int,
        *,
        result: Any = None,
        checkpoint: Any = None,
        done: bool = False,
    ) -> bool:
        check_lease(lease)
        check_step(step)
        values = {
            "result": _to_json(result, "result", self.max_value_bytes),
            "checkpoint": _to_json(checkpoint, "checkpoint", self.max_value_bytes),
        }
        row = self._row(lease.task_id)
        if step > row["step"] and self._current(row, lease):
            values["step"] = step
            if done:
                values.update(status=COMPLETED, lease_until=None)
            values["updated_at"] = float(self.clock())
            row.update(values)
            return True
        return False

    def release(self, lease: Lease) -> bool:
        check_lease(lease)
        row = self._row(lease.task_id)
        if self._current(row, lease):
            row.update(status=QUEUED, lease_until=None, updated_at=float(self.clock()))
            return True
        return False

    def cancel(self, task_id: str) -> bool:
        row = self._row(task_id)
        if row["status"] in (QUEUED, RUNNING):
            row.update(
                status=CANCELLED,
                epoch=row["epoch"] + 1,
                lease_until=None,
                updated_at=float(self.clock()),
            )
            return True
        return False

    def requeue(self, task_id: str) -> bool:
        row = self._row(task_id)
        if row["status"] in (CANCELLED, DEAD):
            row.update(status=QUEUED, attempts=0, lease_until=None, updated_at=float(self.clock()))
            return True
        return False

    def record_effect(self, lease: Lease, key: str) -> bool:
        check_lease(lease)
        check_name(key, "effect key")
        row = self._row(lease.task_id)
        slot = (lease.task_id, key)
        if slot in self._effects or not self._current(row, lease):
            return False
        self._effects[slot] = Effect(
            lease.task_id, key, row["epoch"], lease.worker, float(self.clock())
        )
        return True

    def effects(self, task_id: str) -> list[Effect]:
        self._row(task_id)
        return [e for (tid, _), e in self._effects.items() if tid == task_id]

    def get(self, task_id: str) -> TaskRecord:
        return self._snapshot(self._row(task_id))

    def tasks(self, status: str | None = None) -> list[TaskRecord]:
        if status is not None:
            check_name(status, "status")
        return [self._snapshot(r) for r in self._rows if status in (None, r["status"])]

    def counts(self) -> dict[str, int]:
        statuses = sorted({r["status"] for r in self._rows})
        return {s: sum(r["status"] == s for r in self._rows) for s in statuses}

    def close(self) -> None:
        pass

    def __enter__(self) -> DictRowLedger:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _row(self, task_id: str) -> dict[str, Any]:
        check_name(task_id, "task_id")
        if task_id not in self._index:
            raise UnknownTask(task_id)
        return self._rows[self._index[task_id]]

    @staticmethod
    def _current(row: dict[str, Any], lease: Lease) -> bool:
        return row["status"] == RUNNING and row["epoch"] == lease.epoch

    def _may_try(self, row: dict[str, Any]) -> bool:
        return self.max_attempts is None or row["attempts"] < self.max_attempts

    @staticmethod
    def _dead_letter(row: dict[str, Any], now: float) -> None:
        row.update(status=DEAD, epoch=row["epoch"] + 1, lease_until=None, updated_at=now)

    @staticmethod
    def _take(row: dict[str, Any], worker: str, ttl: float, now: float) -> Lease:
        new = dict(row, status=RUNNING, epoch=row["epoch"] + 1, attempts=row["attempts"] + 1)
        new.update(worker=worker, lease_until=now + ttl, updated_at=now)
        row.update(new)
        return Lease(
            new["task_id"],
            worker,
            new["epoch"],
            new["step"],
            new["lease_until"],
            _from_json(new["checkpoint"]),
            new["attempts"],
        )

    @staticmethod
    def _snapshot(row: dict[str, Any]) -> TaskRecord:
        return TaskRecord(
            row["task_id"],
            row["status"],
            row["step"],
            row["epoch"],
            _from_json(row["result"]),
            row["tenant"],
            row["attempts"],
            row["lease_until"],
            _from_json(row["checkpoint"]),
            row["worker"],
            _from_json(row["goal"]),
            row["created_at"],
            row["updated_at"],
        )


class ReorderedChecksLedger(MemoryLedger):
    """A correct subclass of :class:`MemoryLedger` whose checks come in another order and form.

    Negated and reordered conditions, guard clauses turned inside out, the epoch bump done by
    ``super()`` and then read back: the same answers and the same writes as the model.
    """

    def claim(self, task_id: str, worker: str, ttl: float) -> Lease:
        check_name(worker, "worker")
        _check_ttl(ttl)
        task = self._task(task_id)
        now = float(self.clock())
        live = task.status == RUNNING and now < task.lease_until
        if live:
            raise LeaseHeld(task_id, task.worker, task.lease_until)
        if task.status not in (QUEUED, RUNNING):
            raise TerminalTask(task_id, task.status)
        if self._out_of_attempts(task):
            self._bury(task, now)
            raise TerminalTask(task_id, DEAD)
        return self._grant(task, worker, ttl, now)

    def save(
        self,
        lease: Lease,
        step: int,
        *,
        result: Any = None,
        checkpoint: Any = None,
        done: bool = False,
    ) -> bool:
        check_lease(lease)
        check_step(step)
        result_json = _to_json(result, "result", self.max_value_bytes)
        checkpoint_json = _to_json(checkpoint, "checkpoint", self.max_value_bytes)
        task = self._task(lease.task_id)
        fenced = not (step > task.step) or task.status != RUNNING or lease.epoch != task.epoch
        if fenced:
            return False
        task.step, task.result, task.checkpoint = step, result_json, checkpoint_json
        task.status = COMPLETED if done else task.status
        task.lease_until = None if done else task.lease_until
        task.updated_at = float(self.clock())
        return True

    def cancel(self, task_id: str) -> bool:
        task = self._task(task_id)
        if task.status == QUEUED or task.status == RUNNING:
            task.epoch = task.epoch + 1
            task.status = CANCELLED
            task.lease_until = None
            task.updated_at = float(self.clock())
            return True
        return False

    def requeue(self, task_id: str) -> bool:
        if self._task(task_id).status in (QUEUED, RUNNING, COMPLETED):
            return False
        return super().requeue(task_id)

    def record_effect(self, lease: Lease, key: str) -> bool:
        check_lease(lease)
        check_name(key, "effect key")
        task = self._task(lease.task_id)
        if key not in task.effects and task.status == RUNNING and task.epoch == lease.epoch:
            now = float(self.clock())
            task.effects[key] = Effect(task.task_id, key, lease.epoch, lease.worker, now)
            return True
        return False

    def _out_of_attempts(self, task: _Task) -> bool:
        return not (self.max_attempts is None or task.attempts < self.max_attempts)


class DelegatingLedger:
    """A correct ledger by composition: it holds a :class:`MemoryLedger` and forwards each call.

    No inheritance and no own state: it satisfies :class:`~simlab.ledger.TaskLedger` by having
    the methods, the way a learner's wrapper (logging, metrics) would.
    """

    def __init__(self, path: str = ":memory:", *, clock: Callable[[], float] = time.time, **kw):
        self._inner = MemoryLedger(path, clock=clock, **kw)
        self.path, self.clock = self._inner.path, self._inner.clock

    @property
    def max_attempts(self) -> int | None:
        """The inner ledger's limit (read and set there, as a wrapper would)."""
        return self._inner.max_attempts

    @max_attempts.setter
    def max_attempts(self, limit: int | None) -> None:
        self._inner.max_attempts = limit

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._inner, name)

    def submit(self, task_id=None, *, tenant="default", goal=None) -> str:
        return self._inner.submit(task_id, tenant=tenant, goal=goal)

    def claim(self, task_id: str, worker: str, ttl: float) -> Lease:
        return self._inner.claim(task_id, worker, ttl)

    def claim_next(self, worker: str, ttl: float) -> Lease | None:
        return self._inner.claim_next(worker, ttl)

    def heartbeat(self, lease: Lease, ttl: float) -> bool:
        return self._inner.heartbeat(lease, ttl)

    def save(self, lease, step, *, result=None, checkpoint=None, done=False) -> bool:
        return self._inner.save(lease, step, result=result, checkpoint=checkpoint, done=done)

    def release(self, lease: Lease) -> bool:
        return self._inner.release(lease)

    def cancel(self, task_id: str) -> bool:
        return self._inner.cancel(task_id)

    def requeue(self, task_id: str) -> bool:
        return self._inner.requeue(task_id)

    def get(self, task_id: str) -> TaskRecord:
        return self._inner.get(task_id)

    def tasks(self, status: str | None = None) -> list[TaskRecord]:
        return self._inner.tasks(status)

    def counts(self) -> dict[str, int]:
        return self._inner.counts()

    def record_effect(self, lease: Lease, key: str) -> bool:
        return self._inner.record_effect(lease, key)

    def effects(self, task_id: str) -> list[Effect]:
        return self._inner.effects(task_id)


# -- refusals: a ledger that refuses what the contract grants ------------------------------------


class ClaimRefusesEverything(MemoryLedger):
    """Every claim is refused as if a live lease held the task: safe, and useless."""

    def claim(self, task_id: str, worker: str, ttl: float) -> Lease:
        check_name(worker, "worker")
        _check_ttl(ttl)
        task = self._task(task_id)
        if task.status in TERMINAL_STATUSES:
            raise TerminalTask(task_id, task.status)
        raise LeaseHeld(task_id, task.worker, task.lease_until)  # wrong: a free task is granted


class SaveRefusedAfterLeaseEnd(MemoryLedger):
    """A save with the current epoch is refused once ``lease_until`` passed, though nobody
    claimed the task since: the epoch, not the clock, decides who owns a task."""

    def save(self, lease: Lease, step: int, **kwargs: Any) -> bool:
        task = self._task(lease.task_id)
        if task.lease_until is not None and float(self.clock()) > task.lease_until:
            return False  # wrong: the lease is still the current one
        return super().save(lease, step, **kwargs)


class HeartbeatRefusedAfterLeaseEnd(MemoryLedger):
    """A heartbeat with the current epoch is refused once ``lease_until`` passed, though nobody
    claimed the task since."""

    def heartbeat(self, lease: Lease, ttl: float) -> bool:
        task = self._task(lease.task_id)
        if task.lease_until is not None and float(self.clock()) > task.lease_until:
            return False  # wrong: the lease is still the current one
        return super().heartbeat(lease, ttl)


class EffectRefusesNewKeys(MemoryLedger):
    """``record_effect`` refuses two keys of three it must record (by the key's last
    character), recording nothing: the e-mails are never sent, and nothing else looks wrong."""

    def record_effect(self, lease: Lease, key: str) -> bool:
        check_lease(lease)
        check_name(key, "effect key")
        if ord(key[-1]) % 3:
            return False  # wrong: a new key of the current lease is recorded
        return super().record_effect(lease, key)


class CancelRefusesRunning(MemoryLedger):
    """A cancel of a running task is refused: only queued tasks can be cancelled."""

    def cancel(self, task_id: str) -> bool:
        if self._task(task_id).status == RUNNING:
            return False  # wrong: a running task is cancelled (and its epoch bumped)
        return super().cancel(task_id)


class ClaimReentrantForHolder(MemoryLedger):
    """A live lease refuses every claim but its own holder's: the worker that holds it may claim
    the task again (a re-entrant lock), and its old lease and the new one are live at once."""

    claim = edited(
        MemoryLedger.claim,
        "if task.status == RUNNING and task.lease_until > now:",
        "if task.status == RUNNING and task.lease_until > now and task.worker != worker:",
        why="any live lease refuses a claim, its holder's too",
    )


class ClaimTakesOverEarly(MemoryLedger):
    """A claim takes a running task over a millisecond (1e-3 time units) before its lease ends:
    the lease is still live, and its holder may still be working."""

    claim = edited(
        MemoryLedger.claim,
        "if task.status == RUNNING and task.lease_until > now:",
        "if task.status == RUNNING and task.lease_until - 1e-3 > now:",
        why="a lease is live until lease_until itself",
    )


class ClaimRefusedAfterLeaseEnd(MemoryLedger):
    """A claim is refused as lease-held for a grace period (1e-3 time units) after the lease
    ended: the task stays stuck with nobody holding it."""

    claim = edited(
        MemoryLedger.claim,
        "if task.status == RUNNING and task.lease_until > now:",
        "if task.status == RUNNING and task.lease_until + 1e-3 > now:",
        why="once lease_until passed the claim is granted",
    )


class HeartbeatChecksHolder(MemoryLedger):
    """A heartbeat checks the worker the lease names instead of its epoch: a stale lease of the
    worker that holds the task again extends the newer lease."""

    heartbeat = edited(
        MemoryLedger.heartbeat,
        "task.epoch != lease.epoch or task.status != RUNNING",
        "task.worker != lease.worker or task.status != RUNNING",
        why="the epoch, not the worker's name, tells the current lease",
    )


class AttemptsCountRefusedClaims(MemoryLedger):
    """A claim counts an attempt before its checks: one refused because a lease is live (a
    duplicate delivery) uses up an attempt, and the task reaches the dead letter too early."""

    def claim(self, task_id: str, worker: str, ttl: float) -> Lease:
        task = self._task(task_id)
        if task.status == RUNNING and task.lease_until > float(self.clock()):
            task.attempts += 1  # wrong: only a granted claim is an attempt
        return super().claim(task_id, worker, ttl)


class TakeoverKeepsHolder(MemoryLedger):
    """A claim that takes over a lease that ran out keeps the old holder's name in the record
    (the lease it hands out names the new one): the record, and a refusal's ``LeaseHeld``,
    blame the wrong worker."""

    _grant = edited(
        MemoryLedger._grant,
        "task.worker = worker",
        "task.worker = task.worker or worker",
        why="the record must name the worker granted the claim",
    )


class LeaseHeldNamesClaimer(MemoryLedger):
    """A claim refused for a live lease names the worker that asked, not the one that holds
    the lease (the refusal is built from the call's own arguments)."""

    def claim(self, task_id: str, worker: str, ttl: float) -> Lease:
        try:
            return super().claim(task_id, worker, ttl)
        except LeaseHeld as held:
            raise LeaseHeld(task_id, worker, held.lease_until) from None  # wrong: the holder


class TerminalSaysCompleted(MemoryLedger):
    """A claim of a finished task is refused as terminal, always saying it completed (the
    refusal's status is written in, not read from the task)."""

    def claim(self, task_id: str, worker: str, ttl: float) -> Lease:
        try:
            return super().claim(task_id, worker, ttl)
        except TerminalTask:
            raise TerminalTask(task_id, COMPLETED) from None  # wrong: cancelled or dead too


class ReleaseAgainSaysTrue(MemoryLedger):
    """A second release of a lease already given back answers True (it is given back, after
    all): the answer a resent release gets when its first answer was lost."""

    def release(self, lease: Lease) -> bool:
        task = self._task(lease.task_id)
        if task.status == QUEUED and task.epoch == lease.epoch and task.lease_until is None:
            return True  # wrong: only a current lease of a running task may release
        return super().release(lease)


class LeaseAttemptsFromZero(MemoryLedger):
    """The lease tells its attempt counted from 0 (the record counts from 1)."""

    _grant = edited(
        MemoryLedger._grant,
        "task.attempts,",
        "task.attempts - 1,",
        why="the first claim is attempt 1, as the record says",
    )


class CancelRefusesQueued(MemoryLedger):
    """A cancel of a queued task is refused: only a task a worker holds can be cancelled."""

    def cancel(self, task_id: str) -> bool:
        if self._task(task_id).status == QUEUED:
            return False  # wrong: a queued task is cancelled (and its epoch bumped)
        return super().cancel(task_id)


class RequeueSaysTrueForQueued(MemoryLedger):
    """``requeue`` of a task still queued answers True (it is in the queue, after all)."""

    def requeue(self, task_id: str) -> bool:
        if self._task(task_id).status == QUEUED:
            return True  # wrong: only a cancelled or dead task is requeued
        return super().requeue(task_id)


class ListingDropsTasks(MemoryLedger):
    """``tasks()`` leaves out every task whose ID ends in an odd digit."""

    def tasks(self, status: str | None = None) -> list[TaskRecord]:
        listed = super().tasks(status)
        return [r for r in listed if not (r.task_id[-1:].isdigit() and int(r.task_id[-1]) % 2)]


class ListingRepeatsRetriedTasks(MemoryLedger):
    """``tasks()`` lists a task claimed more than once twice (a join with its attempts that
    matched two of them)."""

    def tasks(self, status: str | None = None) -> list[TaskRecord]:
        listed = super().tasks(status)
        return listed + [r for r in listed if r.attempts > 1]


class ListingNewestFirst(MemoryLedger):
    """``tasks()`` lists the newest task first (``ORDER BY created_at DESC``), not in submit
    order."""

    def tasks(self, status: str | None = None) -> list[TaskRecord]:
        return list(reversed(super().tasks(status)))


class StatusListingNewestFirst(MemoryLedger):
    """``tasks(status)`` lists that status's tasks newest first (its own query, ending in
    ``ORDER BY created_at DESC``), while ``tasks()`` keeps submit order."""

    def tasks(self, status: str | None = None) -> list[TaskRecord]:
        listed = super().tasks(status)
        return listed if status is None else list(reversed(listed))


class GetHidesLeaseEnd(MemoryLedger):
    """``get()`` reports a running task without its lease end (``lease_until`` left out of the
    record it builds), though the lease holds one."""

    def get(self, task_id: str) -> TaskRecord:
        record = super().get(task_id)
        if record.status == RUNNING:
            return dataclasses.replace(record, lease_until=None)
        return record


class CountsForgetCancelled(MemoryLedger):
    """``counts()`` counts over a hand-written list of statuses that forgets ``cancelled``."""

    def counts(self) -> dict[str, int]:
        return {k: v for k, v in super().counts().items() if k != CANCELLED}


class CountsRunningAsQueued(MemoryLedger):
    """``counts()`` counts a running task as queued (its query groups the tasks not yet
    ended under one name): right at the end of a run, when no task runs any more."""

    def counts(self) -> dict[str, int]:
        counts = super().counts()
        running = counts.pop(RUNNING, 0)
        if running:
            counts[QUEUED] = counts.get(QUEUED, 0) + running
        return dict(sorted(counts.items()))


class CountsDropQueued(MemoryLedger):
    """``counts()`` leaves the queued tasks out (it counts the tasks a worker has touched):
    right at the end of a run, when no task waits any more."""

    def counts(self) -> dict[str, int]:
        return {k: v for k, v in super().counts().items() if k != QUEUED}


class QueuedListingTakesRunning(MemoryLedger):
    """``tasks("queued")`` lists every task not yet ended, the running ones too (a filter on
    "not terminal" for "queued"): right at the end of a run, when no task runs any more."""

    def tasks(self, status: str | None = None) -> list[TaskRecord]:
        if status != QUEUED:
            return super().tasks(status)
        return [r for r in super().tasks() if r.status in (QUEUED, RUNNING)]


class EffectsNewestFirst(MemoryLedger):
    """``effects()`` lists a task's keys newest first, not in the order recorded (both ways of
    reading them agree)."""

    def effects(self, task_id: str) -> list[Effect]:
        return list(reversed(super().effects(task_id)))

    def all_effects(self) -> dict[str, list[Effect]]:
        return {task: list(reversed(keys)) for task, keys in super().all_effects().items()}


class EffectsDropFirstKey(MemoryLedger):
    """``effects()`` leaves out the first key recorded (a slice off by one); the subclass
    changes the protocol's method alone, and knows nothing of ``all_effects``."""

    def effects(self, task_id: str) -> list[Effect]:
        return super().effects(task_id)[1:]


# -- raises where the contract answers ---------------------------------------------------------


class StaleLeaseError(LedgerError):
    """A ledger's own error for a stale lease (the contract has none: such a call answers
    False)."""


class SaveRaisesWhenStale(MemoryLedger):
    """A ``save`` with a stale epoch raises a LedgerError of its own instead of answering
    False: the caller that reads a refusal from the answer gets an exception."""

    def save(self, lease: Lease, step: int, **kwargs: Any) -> bool:
        if self._task(lease.task_id).epoch != lease.epoch:
            # wrong: a stale save answers False and changes nothing
            raise StaleLeaseError(f"lease of {lease.task_id!r} with epoch {lease.epoch} is stale")
        return super().save(lease, step, **kwargs)


class HeartbeatRaisesWhenStale(MemoryLedger):
    """A ``heartbeat`` with a stale epoch raises a LedgerError of its own instead of answering
    False."""

    def heartbeat(self, lease: Lease, ttl: float) -> bool:
        if self._task(lease.task_id).epoch != lease.epoch:
            # wrong: a stale heartbeat answers False and changes nothing
            raise StaleLeaseError(f"lease of {lease.task_id!r} with epoch {lease.epoch} is stale")
        return super().heartbeat(lease, ttl)


class CancelRaisesWhenTerminal(MemoryLedger):
    """``cancel`` of a completed task raises TerminalTask, as a claim would, instead of
    answering False."""

    def cancel(self, task_id: str) -> bool:
        task = self._task(task_id)
        if task.status == COMPLETED:
            raise TerminalTask(task_id, task.status)  # wrong: a cancel answers False
        return super().cancel(task_id)


class SubmitDuplicateValueError(MemoryLedger):
    """A duplicate ``submit`` raises ValueError (as a bad argument would) instead of
    LedgerError, and changes nothing: a caller that catches LedgerError is not told."""

    submit = edited(
        MemoryLedger.submit,
        'raise LedgerError(f"task {task_id!r} already exists")',
        'raise ValueError(f"task {task_id!r} already exists")',
        why="a duplicate ID raises LedgerError",
    )


class SubmitDropsGoal(MemoryLedger):
    """``submit`` checks the goal and answers as it should, but stores no goal: the entry point
    told the user the task was persisted, and its goal is gone."""

    submit = edited(
        MemoryLedger.submit,
        'goal_json = None if goal is None else _to_json(goal, "goal", self.max_value_bytes)',
        '_to_json(goal, "goal", self.max_value_bytes)\ngoal_json = None',
        why="the submit persists the goal it was given",
    )


class SubmitDropsTenant(MemoryLedger):
    """``submit`` stores every task under the default tenant, whatever tenant it was given."""

    submit = edited(
        MemoryLedger.submit,
        "self._tasks[task_id] = _Task(task_id, tenant, goal_json, float(self.clock()))",
        'self._tasks[task_id] = _Task(task_id, "default", goal_json, float(self.clock()))',
        why="the submit persists the tenant it was given",
    )


class SubmitReturnsNothing(MemoryLedger):
    """``submit`` persists the task but returns None, not its ID (the return left out)."""

    submit = edited(
        MemoryLedger.submit,
        "return task_id",
        "return None",
        why="submit returns the ID of the task it persisted",
    )


class LeaseNamesAnotherWorker(MemoryLedger):
    """A claim's lease names its worker in capitals (a column normalised on the way out)."""

    _grant = edited(
        MemoryLedger._grant,
        "worker,",
        "worker.upper(),",
        why="the lease names the worker that claimed it",
    )


class EffectsNameTheHolder(MemoryLedger):
    """``effects()`` names the task's holder now as each key's worker, not the worker whose
    lease recorded it (a join on the task's row instead of the key's)."""

    def effects(self, task_id: str) -> list[Effect]:
        task = self._task(task_id)
        # wrong: each key names the worker whose lease recorded it
        return [dataclasses.replace(e, worker=task.worker) for e in task.effects.values()]


class EffectsSwapTaskAndKey(MemoryLedger):
    """``effects()`` carries each key in ``task_id`` too (two columns swapped in a SELECT)."""

    def effects(self, task_id: str) -> list[Effect]:
        recorded = self._task(task_id).effects.values()
        # wrong: each key names the task it was recorded for
        return [dataclasses.replace(e, task_id=e.key) for e in recorded]


class EffectsRaiseWithoutKeys(MemoryLedger):
    """``effects()`` of a task that recorded no key raises ``KeyError`` (a lookup in a table of
    keys by task that a task without keys is not in)."""

    def effects(self, task_id: str) -> list[Effect]:
        task = self._task(task_id)
        if not task.effects:
            raise KeyError(task_id)  # wrong: a task without keys has none to list ([])
        return list(task.effects.values())


class ListingRaises(MemoryLedger):
    """``tasks()`` without a status raises: only the listing by status was written."""

    def tasks(self, status: str | None = None) -> list[TaskRecord]:
        if status is None:
            raise RuntimeError("list a status")  # wrong: tasks() lists every task
        return super().tasks(status)


class CancelAgainSaysTrue(MemoryLedger):
    """``cancel`` of a task already cancelled answers True and changes nothing (a cancel made
    idempotent), where the contract refuses it."""

    cancel = edited(
        MemoryLedger.cancel,
        "return False",
        "return task.status == CANCELLED",
        why="cancel of a task that is not queued or running answers False",
    )


class LeaseOfItsOwnLength(MemoryLedger):
    """Every lease, claimed or renewed, runs for the ledger's own 3 time units (the
    simulator's default ttl), whatever ttl the worker asked for (a constant where the argument
    belongs)."""

    _grant = edited(
        MemoryLedger._grant,
        "task.lease_until = now + ttl",
        "task.lease_until = now + 3.0",
        why="a lease runs for the ttl the worker asked for",
    )
    heartbeat = edited(
        MemoryLedger.heartbeat,
        "task.lease_until = now + ttl",
        "task.lease_until = now + 3.0",
        why="a heartbeat extends the lease by the ttl the worker asked for",
    )


class ListingHidesLeases(MemoryLedger):
    """``tasks()`` lists every task without its holder and lease end (a summary view that
    leaves the lease columns out), where ``get()`` reports them."""

    def tasks(self, status: str | None = None) -> list[TaskRecord]:
        listed = super().tasks(status)
        # wrong: a running task's record names its holder and lease end, as get() does
        return [dataclasses.replace(r, worker=None, lease_until=None) for r in listed]


class EffectAgainSaysTrue(MemoryLedger):
    """``record_effect`` answers True again for a key its own lease recorded already (a write
    made safe to retry that reports success), changing nothing."""

    def record_effect(self, lease: Lease, key: str) -> bool:
        task = self._task(lease.task_id)
        mine = task.effects.get(key)
        if mine is not None and mine.epoch == lease.epoch == task.epoch and task.status == RUNNING:
            return True  # wrong: a key recorded before answers False (do not send)
        return super().record_effect(lease, key)


# -- the registry ---------------------------------------------------------------------------------

WRONG_LEDGERS: dict[str, type] = {
    "submit-duplicate-overwrites": SubmitDuplicateOverwrites,
    "submit-duplicate-raises-after-write": SubmitDuplicateRaisesAfterWrite,
    "claim-keeps-epoch": ClaimKeepsEpoch,
    "takeover-keeps-epoch": TakeoverKeepsEpoch,
    "claim-lease-has-old-epoch": ClaimLeaseHasOldEpoch,
    "claim-epoch-from-attempts": ClaimEpochFromAttempts,
    "claim-ignores-live-lease": ClaimIgnoresLiveLease,
    "claim-truncates-lease-time": ClaimTruncatesLeaseTime,
    "claim-revives-completed": ClaimRevivesCompleted,
    "claim-uses-wall-clock": ClaimUsesWallClock,
    "max-attempts-off-by-one": MaxAttemptsOffByOne,
    "claim-buries-without-a-limit": ClaimBuriesWithoutALimit,
    "claim-buries-a-live-lease": ClaimBuriesALiveLease,
    "claim-buries-a-completed-task": ClaimBuriesACompletedTask,
    "claim-resumes-at-step-zero": ClaimResumesAtStepZero,
    "claim-drops-checkpoint": ClaimDropsCheckpoint,
    "claim-next-hands-out-probes": ClaimNextHandsOutProbes,
    "claim-next-newest-first": ClaimNextNewestFirst,
    "claim-next-skips-expired": ClaimNextSkipsExpired,
    "heartbeat-ignores-epoch": HeartbeatIgnoresEpoch,
    "heartbeat-ignores-status": HeartbeatIgnoresStatus,
    "heartbeat-does-not-extend": HeartbeatDoesNotExtend,
    "heartbeat-extends-from-lease": HeartbeatExtendsFromLease,
    "heartbeat-refused-still-extends": HeartbeatRefusedStillExtends,
    "save-ignores-epoch": SaveIgnoresEpoch,
    "save-ignores-status": SaveIgnoresStatus,
    "save-allows-same-step": SaveAllowsSameStep,
    "save-ignores-done": SaveIgnoresDone,
    "save-done-keeps-lease": SaveDoneKeepsLease,
    "save-completes-on-result": SaveCompletesOnResult,
    "save-refused-writes-checkpoint": SaveRefusedWritesCheckpoint,
    "save-none-keeps-checkpoint": SaveNoneKeepsCheckpoint,
    "refused-save-still-writes": RefusedSaveStillWrites,
    "release-ignores-epoch": ReleaseIgnoresEpoch,
    "release-keeps-lease-until": ReleaseKeepsLeaseUntil,
    "cancel-keeps-epoch": CancelKeepsEpoch,
    "cancel-leaves-status": CancelLeavesStatus,
    "cancel-overwrites-terminal": CancelOverwritesTerminal,
    "cancel-refused-bumps-epoch": CancelRefusedBumpsEpoch,
    "requeue-resets-epoch": RequeueResetsEpoch,
    "requeue-bumps-epoch": RequeueBumpsEpoch,
    "requeue-revives-completed": RequeueRevivesCompleted,
    "requeue-takes-a-running-task": RequeueTakesARunningTask,
    "requeue-keeps-attempts": RequeueKeepsAttempts,
    "requeue-restarts-at-step-zero": RequeueRestartsAtStepZero,
    "effect-ignores-epoch": EffectIgnoresEpoch,
    "effect-ignores-status": EffectIgnoresStatus,
    "effect-once-per-epoch": EffectOncePerEpoch,
    "effect-refused-still-records": EffectRefusedStillRecords,
    "effect-duplicate-overwrites": EffectDuplicateOverwrites,
    "save-drops-result": SaveDropsResult,
    "claim-refuses-everything": ClaimRefusesEverything,
    "save-refused-after-lease-end": SaveRefusedAfterLeaseEnd,
    "heartbeat-refused-after-lease-end": HeartbeatRefusedAfterLeaseEnd,
    "effect-refuses-new-keys": EffectRefusesNewKeys,
    "cancel-refuses-running": CancelRefusesRunning,
    "listing-drops-tasks": ListingDropsTasks,
    "listing-repeats-retried-tasks": ListingRepeatsRetriedTasks,
    "claim-reentrant-for-holder": ClaimReentrantForHolder,
    "claim-takes-over-early": ClaimTakesOverEarly,
    "claim-refused-after-lease-end": ClaimRefusedAfterLeaseEnd,
    "heartbeat-checks-holder": HeartbeatChecksHolder,
    "attempts-count-refused-claims": AttemptsCountRefusedClaims,
    "takeover-keeps-holder": TakeoverKeepsHolder,
    "lease-held-names-claimer": LeaseHeldNamesClaimer,
    "terminal-says-completed": TerminalSaysCompleted,
    "release-again-says-true": ReleaseAgainSaysTrue,
    "lease-attempts-from-zero": LeaseAttemptsFromZero,
    "cancel-refuses-queued": CancelRefusesQueued,
    "requeue-says-true-for-queued": RequeueSaysTrueForQueued,
    "listing-newest-first": ListingNewestFirst,
    "status-listing-newest-first": StatusListingNewestFirst,
    "counts-forget-cancelled": CountsForgetCancelled,
    "counts-running-as-queued": CountsRunningAsQueued,
    "counts-drop-queued": CountsDropQueued,
    "queued-listing-takes-running": QueuedListingTakesRunning,
    "get-hides-lease-end": GetHidesLeaseEnd,
    "effect-recorded-at-wall": EffectRecordedAtWall,
    "effects-newest-first": EffectsNewestFirst,
    "effects-drop-first-key": EffectsDropFirstKey,
    "save-raises-when-stale": SaveRaisesWhenStale,
    "heartbeat-raises-when-stale": HeartbeatRaisesWhenStale,
    "cancel-raises-when-terminal": CancelRaisesWhenTerminal,
    "submit-duplicate-valueerror": SubmitDuplicateValueError,
    "submit-drops-goal": SubmitDropsGoal,
    "submit-drops-tenant": SubmitDropsTenant,
    "submit-returns-nothing": SubmitReturnsNothing,
    "lease-names-another-worker": LeaseNamesAnotherWorker,
    "effects-name-the-holder": EffectsNameTheHolder,
    "effects-swap-task-and-key": EffectsSwapTaskAndKey,
    "effects-raise-without-keys": EffectsRaiseWithoutKeys,
    "listing-raises": ListingRaises,
    "cancel-again-says-true": CancelAgainSaysTrue,
    "lease-of-its-own-length": LeaseOfItsOwnLength,
    "listing-hides-leases": ListingHidesLeases,
    "effect-again-says-true": EffectAgainSaysTrue,
}

PROMISE: dict[str, str] = {
    "submit-duplicate-overwrites": "a duplicate submit raises LedgerError",
    "submit-duplicate-raises-after-write": "a duplicate submit changes nothing",
    "submit-drops-goal": "submit persists the task as given: its goal",
    "submit-drops-tenant": "submit persists the task as given: its tenant",
    "claim-keeps-epoch": "every claim bumps the epoch",
    "takeover-keeps-epoch": "a takeover after lease_until bumps the epoch",
    "claim-lease-has-old-epoch": "no two leases share an epoch (the lease carries the new one)",
    "claim-epoch-from-attempts": "the epoch never decreases, no two leases share one",
    "claim-ignores-live-lease": "a live lease held by another raises LeaseHeld",
    "claim-truncates-lease-time": "takeover only once lease_until <= clock()",
    "claim-revives-completed": "a terminal (completed) task raises TerminalTask",
    "claim-uses-wall-clock": "time comes from the clock, never from the wall",
    "max-attempts-off-by-one": "past max_attempts the task goes dead",
    "claim-buries-without-a-limit": "without max_attempts no task goes dead",
    "claim-buries-a-live-lease": "a live lease held by another raises LeaseHeld",
    "claim-buries-a-completed-task": "a terminal (completed) task raises TerminalTask",
    "claim-resumes-at-step-zero": "the lease carries the stored step to resume from",
    "claim-drops-checkpoint": "the lease carries the stored checkpoint",
    "claim-next-hands-out-probes": "claim_next never hands out a health probe",
    "claim-next-newest-first": "claim_next claims the oldest claimable task",
    "claim-next-skips-expired": "claim_next takes over running tasks whose lease expired",
    "heartbeat-ignores-epoch": "heartbeat succeeds only for the current epoch",
    "heartbeat-ignores-status": "heartbeat succeeds only while the task runs",
    "heartbeat-does-not-extend": "heartbeat extends the lease to clock() + ttl",
    "heartbeat-extends-from-lease": "heartbeat extends the lease to clock() + ttl",
    "heartbeat-refused-still-extends": "a refused heartbeat changes nothing",
    "save-ignores-epoch": "save succeeds only for the current epoch (the fence)",
    "save-ignores-status": "save succeeds only while the task runs",
    "save-allows-same-step": "the step must advance: no (task, step) committed twice",
    "save-ignores-done": "save(done=True) completes the task",
    "save-done-keeps-lease": "save(done=True) ends the lease",
    "save-completes-on-result": "nothing is completed unless a done=True save landed",
    "save-refused-writes-checkpoint": "a refused save changes nothing",
    "save-none-keeps-checkpoint": "save stores the checkpoint given, None included",
    "refused-save-still-writes": "a refused save changes nothing",
    "release-ignores-epoch": "only the current lease may release",
    "release-keeps-lease-until": "a task that is not running holds no lease (lease_until None)",
    "cancel-keeps-epoch": "cancel bumps the epoch",
    "cancel-leaves-status": "cancel sets cancelled",
    "cancel-overwrites-terminal": "cancel refuses (False) a terminal task",
    "cancel-refused-bumps-epoch": "a refused cancel changes nothing",
    "requeue-resets-epoch": "requeue keeps the epoch (no epoch reused)",
    "requeue-bumps-epoch": "requeue keeps the epoch",
    "requeue-revives-completed": "requeue only from cancelled or dead",
    "requeue-takes-a-running-task": "requeue only from cancelled or dead",
    "requeue-keeps-attempts": "requeue gives fresh attempts",
    "requeue-restarts-at-step-zero": "requeue keeps the saved step (the next claim resumes there)",
    "effect-ignores-epoch": "record_effect records for the current epoch only",
    "effect-ignores-status": "record_effect records only while the task runs",
    "effect-once-per-epoch": "record_effect records a key once (True to one caller)",
    "effect-refused-still-records": "a refused record_effect records nothing",
    "effect-duplicate-overwrites": "a duplicate record_effect changes nothing",
    "save-drops-result": "the completing save stores the result it was given",
    "claim-refuses-everything": "a claim of a free task is granted",
    "save-refused-after-lease-end": "save succeeds for the current epoch of a running task",
    "heartbeat-refused-after-lease-end": "heartbeat succeeds for the current epoch of a running "
    "task",
    "effect-refuses-new-keys": "record_effect records a new key of the current epoch (True)",
    "cancel-refuses-running": "cancel of a queued or running task succeeds",
    "listing-drops-tasks": "tasks() lists every task",
    "listing-repeats-retried-tasks": "tasks() lists every task once",
    "claim-reentrant-for-holder": "a claim raises LeaseHeld while any lease is live, its "
    "holder's included",
    "claim-takes-over-early": "a live lease (lease_until > clock()) raises LeaseHeld",
    "claim-refused-after-lease-end": "a claim once lease_until < clock() is granted",
    "heartbeat-checks-holder": "heartbeat succeeds only for the current epoch",
    "attempts-count-refused-claims": "a task goes dead only on the claim that would exceed "
    "max_attempts granted claims",
    "takeover-keeps-holder": "the record names the worker granted the task's last claim",
    "lease-held-names-claimer": "LeaseHeld names the worker that holds the lease",
    "terminal-says-completed": "TerminalTask says the status the task ended with",
    "release-again-says-true": "release answers False for a lease no longer current",
    "lease-attempts-from-zero": "a lease tells its attempt: the claims granted since the submit "
    "or last requeue, this one included",
    "cancel-refuses-queued": "cancel of a queued or running task succeeds",
    "requeue-says-true-for-queued": "requeue only of a cancelled or dead task (False otherwise)",
    "listing-newest-first": "tasks() lists the tasks in submit order",
    "status-listing-newest-first": "tasks(status) lists that status's tasks in submit order",
    "counts-forget-cancelled": "counts() counts the tasks of every status",
    "counts-running-as-queued": "counts() counts each task under its own status",
    "counts-drop-queued": "counts() counts the tasks of every status",
    "queued-listing-takes-running": "tasks(status) lists only that status's tasks",
    "get-hides-lease-end": "get() reports a running task's lease end",
    "effect-recorded-at-wall": "time comes from the clock, never from the wall",
    "effects-newest-first": "effects() lists the keys in the order recorded",
    "effects-drop-first-key": "effects() lists every recorded key",
    "save-raises-when-stale": "a save with a stale epoch answers False (it does not raise)",
    "heartbeat-raises-when-stale": "a heartbeat with a stale epoch answers False (it does not "
    "raise)",
    "cancel-raises-when-terminal": "cancel of a terminal task answers False (it does not raise)",
    "submit-duplicate-valueerror": "a duplicate submit raises LedgerError",
    "submit-returns-nothing": "submit returns the ID of the task it persisted",
    "lease-names-another-worker": "a claim's lease names the worker that claimed it",
    "effects-name-the-holder": "effects() names the worker whose lease recorded each key",
    "effects-swap-task-and-key": "effects() names the task each key was recorded for",
    "effects-raise-without-keys": "effects() of a task without keys answers [] (it does not raise)",
    "listing-raises": "tasks() lists every task (it does not raise)",
    "cancel-again-says-true": "cancel of a cancelled task answers False",
    "lease-of-its-own-length": "a lease runs for the ttl the worker asked for",
    "listing-hides-leases": "tasks() lists a running task with its holder and lease end",
    "effect-again-says-true": "record_effect answers False for a key recorded before",
}


class OneEpochSequenceLedger(MemoryLedger):
    """A correct ledger whose epochs come from one counter shared by every task, as a database
    sequence would hand them out: each claim, cancel and dead letter raises a task's epoch to
    the next number of the sequence, often by more than one. The contract asks that the epoch
    rise, not that it rise by one."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._sequence = 0

    def _next(self, task: _Task) -> None:
        self._sequence += 1 + len(self._tasks) % 3  # gaps, as a shared sequence leaves them
        task.epoch = max(task.epoch + 1, self._sequence)

    def _grant(self, task: _Task, worker: str, ttl: float, now: float) -> Lease:
        lease = super()._grant(task, worker, ttl, now)
        self._next(task)
        return dataclasses.replace(lease, epoch=task.epoch)

    def _bury(self, task: _Task, now: float) -> None:
        super()._bury(task, now)
        self._next(task)

    def cancel(self, task_id: str) -> bool:
        if not super().cancel(task_id):
            return False
        self._next(self._task(task_id))
        return True


class LeaseLiveAtItsEndLedger(MemoryLedger):
    """A correct ledger that still counts a lease live at the very instant it ends: a claim at
    exactly ``lease_until`` raises LeaseHeld, one a moment later is granted. The contract leaves
    that instant to the ledger (the kit's ledgers grant the claim there)."""

    claim = edited(
        MemoryLedger.claim,
        "task.lease_until > now",
        "task.lease_until >= now",
        why="the contract lets either answer stand at the instant the lease ends",
        mark="allowed",
    )


CORRECT_LEDGERS: dict[str, type] = {
    "dict-rows": DictRowLedger,
    "reordered-checks": ReorderedChecksLedger,
    "delegating": DelegatingLedger,
    "one-epoch-sequence": OneEpochSequenceLedger,
    "lease-live-at-its-end": LeaseLiveAtItsEndLedger,
}

assert WRONG_LEDGERS.keys() == PROMISE.keys()
