"""The ``agent`` workload: simulated workers that run the deterministic agent through checkpoints.

With ``Scenario(workload="agent")`` a task is no longer timed work with no content: it is the
agent of :mod:`simlab.agent` answering a question by e-mail in three steps (retrieve, draft,
send), resumed by whichever worker holds the lease, from the checkpoint the last fenced save
stored. Everything else (broker, leases, heartbeats, crashes, pauses, the checker) is the
simulator's; this module only changes what one step *is*.

:class:`AgentWorkload` holds what the workers share: one example world, one permission-aware
retriever with its cache, and the editor. Task ``i`` (0-based) asks the ``i % 3``-th example goal
(:func:`simlab.agent.example.example_goals`), for its tenant; tenants whose mail needs approval
are approved at submit time, so a run's stops are about the world changing, not about a missing
human. The *editor* publishes a new version of a random document at Poisson times
(``doc_change_rate`` per time unit, its own random stream ``doc_change``) until the fault horizon;
each edit is a ``publish`` event of process ``nemesis`` in the history.

One step of :class:`AgentWorker`, in simulated time:

1. **plan** (:func:`simlab.agent.resume.plan_step`): load and migrate the checkpoint, run the resume
   guard and the pure agent step, writing nothing. A stop found here (a permission revoked, a
   cited document changed while the task waited) ends the task for review at once;
2. **work** for the step's service time, heartbeating (crashes and slow steps as usual);
3. **re-check** (:func:`simlab.agent.resume.recheck`) right before the e-mail: the world may have
   changed while the step worked. A stop here sends nothing;
4. **effects** through the idempotency ledger (:func:`simlab.agent.resume.effect_status`): send only
   on ``sent``; ``unknown`` (an earlier attempt recorded the key, and may have sent) sends
   nothing; a crash may strike right after a send, as in the opaque workload;
5. maybe a stop-the-world **pause**, then the fenced **save** of the new checkpoint.

A stop is the two fenced moves of :mod:`simlab.agent.resume`: a save of the checkpoint with status
``needs_review`` and its reasons, then ``cancel`` (recorded as a ``cancel`` by the worker), so
the task ends ``cancelled`` and the checker's liveness rule accepts it.

What the history adds for this workload: each ``save`` names the graph step (``agent_step``) and
the evidence it used (``evidence``, e.g. ``["kb/returns@v3"]``); a stop's save carries ``review``
(the stop codes) and ``detail`` (the reasons as sentences); the ``submit`` carries the ``tenant``.
"""

from __future__ import annotations

from typing import Any

from simlab.agent.example import example_goals, example_world
from simlab.agent.resume import advance, commit_save, effect_status, plan_step, recheck, stop_save
from simlab.agent.retrieval import RetrievalCache, Retriever
from simlab.sim.answers import read_after, returned
from simlab.sim.worker import CRASHED, WORKED, Worker

__all__ = ["AgentWorkload", "AgentWorker", "revised"]


def revised(text: str, version: int) -> str:
    """The text an edit publishes: the original text with a revision note (visible in answers
    and deterministic, so the same edit gives the same document)."""
    base = text.split(" (revision ", 1)[0]
    return f"{base} (revision {version})"


class AgentWorkload:
    """What the agent workers of one run share: the world, the retriever, goals, the editor."""

    def __init__(self) -> None:
        self.world = example_world()
        self.cache = RetrievalCache()
        self.retriever = Retriever(self.world, self.cache)
        self.goals = list(example_goals().values())
        #: document edits published by the editor
        self.edits = 0

    def submit(self, ledger, task: str, i: int) -> dict:
        """Persist task number ``i`` (0-based) with its tenant and goal; return the extra
        fields its ``submit`` event records (``returned``: what the submit returned, where it
        was not ``task``)."""
        tenant, goal = self.goals[i % len(self.goals)]
        answer = ledger.submit(task, tenant=tenant, goal=dict(goal))
        if tenant in self.world.approval_required:
            self.world.approve(task, "manager")
        return {"tenant": tenant, "goal": dict(goal), **returned(answer, task)}

    def editor(self, run):
        """SimPy process: publish a new version of a document when the run's nemesis says (Poisson
        times and random documents, or a schedule's edits), until the fault horizon."""
        env, rec, world = run.env, run.history.record, self.world
        nemesis = run.nemesis
        while True:
            delay = nemesis.edit_delay(env.now)
            if delay is None:
                return
            yield env.timeout(delay)
            if env.now >= run.horizon:
                return
            doc = nemesis.edit_doc(world.documents())
            new = world.publish(doc.doc_id, revised(doc.text, doc.version + 1))
            self.edits += 1
            rec(env.now, "info", "nemesis", "publish", None, doc=new.doc_id, version=new.version)


class AgentWorker(Worker):
    """A worker whose steps are the agent's (see the module docstring)."""

    def _handle(self, task: str):
        """Claim ``task`` and run its agent steps; return True if the worker crashed."""
        lease = yield from self._claim(task)
        crashed = False
        while lease is not None:
            crashed, lease = yield from self._agent_step(task, lease)
        return crashed

    def _agent_step(self, task: str, lease):
        """SimPy process: one agent step under ``lease``: plan, work, re-check, effects, an
        optional pause, then the fenced save. Returns ``(crashed, lease)``: the lease to run the
        next step with, or None when this worker is done with the task."""
        sim = self.sim
        env, agent = sim.env, sim.agent
        plan = plan_step(sim.ledger, lease, agent.world, retriever=agent.retriever)
        if plan.refused is not None:
            # An unreadable checkpoint: write nothing, leave the message unacknowledged so
            # that a (newer) worker may take the task once this lease expires.
            sim.history.record(
                env.now,
                "fail",
                self.name,
                "plan",
                task,
                lease.epoch,
                lease.step,
                reason="refused",
                detail=plan.refused,
            )
            return False, None
        if plan.stop:
            return self._stop(plan, plan.stop), None

        faults = env.now < sim.faults_until
        worked = yield from self._work(task, lease, lease.step, faults)
        if worked is not WORKED:
            return worked is CRASHED, None

        reasons = recheck(plan, agent.world).reasons
        if reasons:
            return self._stop(plan, reasons), None
        gap = sim.scenario.recheck_gap
        if gap and plan.intents:
            # The check-then-send window: an edit landing here is not seen before the send.
            yield env.timeout(gap)

        statuses = self._effects(task, lease, plan, faults)
        if isinstance(statuses, bool):
            return statuses, None

        if faults:
            length = self._pause_length(task, lease.epoch, lease.step)
            if length is not None:
                yield env.timeout(length)
        return False, self._commit(task, lease, plan, statuses)

    def _effects(self, task: str, lease, plan, faults: bool) -> dict[str, str] | bool:
        """Each intended e-mail through the idempotency ledger: send it only when this lease
        recorded its key first. Returns the effect statuses to commit, or the step's end: True
        if the worker crashed right after an e-mail left, False if the lease was stale."""
        sim = self.sim
        env, rec, ledger, name = sim.env, sim.history.record, sim.ledger, self.name
        epoch, step = lease.epoch, lease.step
        statuses: dict[str, str] = {}
        for intent in plan.intents:
            key = intent.key
            rec(env.now, "invoke", name, "effect", task, epoch, step, key=key)
            status = effect_status(ledger, lease, key)
            if status is None:  # the lease is stale: send nothing, save nothing
                rec(
                    env.now,
                    "fail",
                    name,
                    "effect",
                    task,
                    epoch,
                    step,
                    key=key,
                    **self._why_lost(task, epoch, step),
                )
                return False
            statuses[key] = status
            if status != "sent":  # recorded by an earlier attempt: it may have left
                rec(env.now, "fail", name, "effect", task, epoch, step, key=key, status=status)
                continue
            rec(env.now, "ok", name, "effect", task, epoch, step, key=key)
            if faults and self._crashed_after_record(task, epoch, step):
                return True
            sim.mailbox.send(key)
            rec(env.now, "ok", name, "send", task, epoch, step, key=key)
            if faults and sim.nemesis.crashes("sent", self, task, step):
                rec(env.now, "info", name, "crash", task, epoch, step, after_effect=True)
                sim.crashes += 1
                return True
        return statuses

    def _commit(self, task: str, lease, plan, statuses: dict[str, str]):
        """The fenced save that commits a step (recorded invoke, then ok or fail). Returns the
        lease for the next step, or None when the task completed (acknowledged) or the save
        was refused."""
        save = commit_save(plan, statuses)
        done = save["done"]
        fields = {
            "done": done,
            "agent_step": plan.step_name,
            "evidence": [str(r) for r in plan.used],
        }
        if not self._recorded_save(task, lease, save, fields):
            return None
        if done:
            self.sim.broker.ack(task)
            return None
        return advance(lease, save)

    def _recorded_save(
        self, task: str, lease, save: dict[str, Any], fields: dict[str, Any]
    ) -> bool:
        """The fenced save ``ledger.save(lease, **save)`` of ``task``, recorded: an invoke, then
        an ok, or a fail that says why the lease was lost; every record carries ``fields``.
        Returns whether the ledger took it."""
        sim = self.sim
        env, rec, name = sim.env, sim.history.record, self.name
        epoch, new_step = lease.epoch, save["step"]
        rec(env.now, "invoke", name, "save", task, epoch, new_step, **fields)
        if not sim.ledger.save(lease, **save):
            why_lost = self._why_lost(task, epoch, new_step)
            rec(env.now, "fail", name, "save", task, epoch, new_step, **fields, **why_lost)
            return False
        rec(env.now, "ok", name, "save", task, epoch, new_step, **fields)
        return True

    def _stop(self, plan, reasons) -> bool:
        """Stop the task for review: a fenced save of the stopped checkpoint, then a cancel
        that fences every lease. Records both; returns False (the worker did not crash)."""
        sim = self.sim
        env, rec, ledger = sim.env, sim.history.record, sim.ledger
        lease = plan.lease
        task, name = lease.task_id, self.name
        save = stop_save(plan, reasons)
        why = {
            "agent_step": plan.step_name,
            "review": [r.code for r in reasons],
            "detail": "; ".join(r.detail for r in reasons),
        }
        if not self._recorded_save(task, lease, save, {"done": False, **why}):
            return False
        rec(env.now, "invoke", name, "cancel", task)
        # The answer is recorded before the read-back, so a read that raises cannot hide it.
        if ledger.cancel(task):
            ok = "needs-review"
            read_after(ledger, task, lambda r: rec(env.now, "ok", name, "cancel", task,
                                                   r and r.epoch, reason=ok))  # fmt: skip
        else:
            read_after(ledger, task, lambda r: rec(env.now, "fail", name, "cancel", task,
                                                   reason=r and r.status))  # fmt: skip
        sim.broker.ack(task)
        return False
