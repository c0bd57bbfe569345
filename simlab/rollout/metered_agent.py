"""One agent version at work on one world, with metered tools, scripted faults and a fake clock.

The golden set (:mod:`simlab.rollout.golden`) and the canary (:mod:`simlab.rollout.canary`) both run
the real agent (:mod:`simlab.agent` steps through :mod:`simlab.agent.resume`'s building blocks, over
a real :class:`~simlab.ledger.Ledger`) through a :class:`Harness`. The harness adds what a release
test needs to see:

* **Metered tools.** Every tool call (``search``, ``inventory``, ``model``, ``email``) is logged
  in :attr:`Harness.calls`, model tokens are summed, and each call advances the clock by a
  simulated latency (:data:`LATENCY`), jittered by the harness's own seeded ``random.Random``.
  Latency is never wall time, so a p95 is the same on every machine.
* **Faults** (:class:`Faults`): searches that time out once or always (an outage), and a mail
  server that times out *after* accepting a message, so the sender cannot know it went out.
* **Versions** (:mod:`simlab.rollout.versions`): the model writes the answers and decides at intake
  whether the task needs the stock API; the framework decides what a timed-out call does
  (hand the task back, or retry it in place).

Scripts drive the harness step by step (``claim``, ``plan``, ``commit``, ``pause``) to place a
fault exactly (a cancel between planning and sending), or call :meth:`Harness.run` to let the
framework's loop finish a task. :meth:`Harness.observe` freezes what happened into an
:class:`Observation`, the plain record that business assertions read.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from simlab.agent.checkpoint import NEEDS_REVIEW, Checkpoint
from simlab.agent.resume import (
    Plan,
    advance,
    commit_save,
    effect_status,
    plan_step,
    recheck,
    stop_save,
)
from simlab.agent.retrieval import Retriever
from simlab.agent.world import INVENTORY_API, Delivery, MailServer, World
from simlab.errors import LeaseHeld, TerminalTask
from simlab.ledger import Ledger
from simlab.records import DEAD, Lease
from simlab.rollout.observation import Observation, citations
from simlab.rollout.versions import AgentVersion, parse_version

__all__ = [
    "LATENCY",
    "TOOL_TIMEOUT",
    "HAND_BACK",
    "ToolTimeout",
    "Faults",
    "SimClock",
    "Observation",
    "Harness",
    "citations",
]

#: Mean simulated latency of one call, in seconds; a model call adds ``model_per_token`` per
#: token. Each call is multiplied by a log-normal jitter (median 1) from the harness's rng.
LATENCY = {
    "search": 0.15,
    "inventory": 0.06,
    "model": 0.25,
    "model_per_token": 0.004,
    "email": 0.30,
}
#: How long a caller waits before it gives up on a tool call.
TOOL_TIMEOUT = 5.0
#: How long a handed-back task waits for its next claim (the queue's redelivery delay).
HAND_BACK = 1.0


class ToolTimeout(Exception):
    """A tool call timed out. ``accepted``: the tool did its work before the caller gave up."""

    def __init__(self, tool: str, accepted: bool = False):
        super().__init__(f"{tool} timed out" + (" after accepting the call" if accepted else ""))
        self.tool = tool
        self.accepted = accepted


@dataclass
class Faults:
    """What goes wrong while a task runs.

    ``search_timeouts``: the next N searches time out (then it recovers); ``search_down``: every
    search times out (an outage); ``mail_timeouts``: the next N sends time out *after* the mail
    server accepted the message.
    """

    search_timeouts: int = 0
    search_down: bool = False
    mail_timeouts: int = 0


class SimClock:
    """Simulated seconds: ``clock()`` returns :attr:`now`; only the harness moves it."""

    def __init__(self, now: float = 0.0):
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        self.now += seconds
        return self.now


class _MeteredMail(MailServer):
    def __init__(self, harness: Harness):
        super().__init__()
        self._h = harness

    def send(self, key: str, to: str, subject: str, body: str) -> Delivery:
        h = self._h
        h._call("email", LATENCY["email"])
        delivery = super().send(key, to, subject, body)  # the server accepts the message...
        if h.faults.mail_timeouts > 0:
            h.faults.mail_timeouts -= 1
            h.clock.advance(TOOL_TIMEOUT)  # ...and the reply never comes
            raise ToolTimeout("email", accepted=True)
        return delivery


class _MeteredRetriever(Retriever):
    def __init__(self, harness: Harness, world: World):
        super().__init__(world)
        self._h = harness

    def search(self, grant, query):
        h = self._h
        return h._with_retries(lambda: self._search_once(grant, query))

    def _search_once(self, grant, query):
        h = self._h
        h._call("search", LATENCY["search"])
        if h.faults.search_down or h.faults.search_timeouts > 0:
            if not h.faults.search_down:
                h.faults.search_timeouts -= 1
            h.clock.advance(TOOL_TIMEOUT)
            raise ToolTimeout("search")
        return super().search(grant, query)


class _MeteredModel:
    def __init__(self, harness: Harness, model: Any):
        self._h = harness
        self._model = model
        self.name = model.name

    def complete(self, prompt: str):
        completion = self._model.complete(prompt)
        self._h.tokens += completion.tokens
        self._h._call("model", LATENCY["model"] + LATENCY["model_per_token"] * completion.tokens)
        return completion


class Harness:
    """One agent version, one world, one ledger, one simulated clock.

    ``seed`` seeds the latency jitter only (the agent itself draws nothing). ``ledger`` is a
    factory called as ``ledger(clock)`` (default: a fresh ``Ledger(":memory:")`` with
    ``max_attempts``); pass ``lambda clock: MemoryLedger(clock=clock)`` to run on the model.
    The harness replaces ``world.mail`` with its metered mail server.
    """

    def __init__(
        self,
        version: AgentVersion | str,
        world: World,
        *,
        seed: int | str = 0,
        faults: Faults | None = None,
        ttl: float = 10.0,
        max_attempts: int = 3,
        case: str = "",
        ledger: Any = None,
    ):
        self.version = parse_version(version)
        self.world = world
        self.faults = faults if faults is not None else Faults()
        self.ttl = ttl
        self.case = case
        self.clock = SimClock()
        self.rng = random.Random(f"harness:{seed}")
        if ledger is None:
            self.ledger = Ledger(":memory:", clock=self.clock, max_attempts=max_attempts)
        else:
            self.ledger = ledger(self.clock)
        world.mail = _MeteredMail(self)
        self.retriever = _MeteredRetriever(self, world)
        self.model = _MeteredModel(self, self.version.model.make())
        #: every tool call, in order
        self.calls: list[str] = []
        self.tokens = 0
        #: commits and effects the ledger refused to a stale lease
        self.fenced = 0
        #: one line per thing that happened (for a reader, not for assertions)
        self.log: list[str] = []
        self._done_at: dict[str, float] = {}

    # -- metering ---------------------------------------------------------------------------

    def _call(self, tool: str, mean: float) -> None:
        self.calls.append(tool)
        self.clock.advance(mean * self.rng.lognormvariate(0.0, 0.25))

    def _with_retries(self, fn):
        tries = 1 + self.version.framework.tool_retries
        for attempt in range(tries):
            try:
                return fn()
            except ToolTimeout as exc:
                self.log.append(f"t={self.clock.now:.2f} {exc}")
                if attempt + 1 == tries:
                    raise

    # -- the task's life --------------------------------------------------------------------

    def submit(self, task_id: str, tenant: str, request: dict[str, Any]) -> str:
        """Intake: the model decides whether the task needs the stock API, then the goal is
        persisted. ``request``: ``{"query", "recipient", "product"?}``."""
        query, product = request["query"], request.get("product")
        sku = product if self.version.model.needs_stock(query, product) else None
        goal = {"query": query, "recipient": request["recipient"], "sku": sku}
        return self.ledger.submit(task_id, tenant=tenant, goal=goal)

    def claim(self, task_id: str, worker: str) -> Lease | None:
        """Claim the task; None (and a log line) if a live lease or a final status refuses."""
        try:
            return self.ledger.claim(task_id, worker, self.ttl)
        except (LeaseHeld, TerminalTask) as exc:
            self.log.append(f"t={self.clock.now:.2f} {worker} claim refused: {exc}")
            if isinstance(exc, TerminalTask) and exc.status == DEAD:
                self._finish(task_id, "dead: out of attempts")
            return None

    def plan(self, lease: Lease) -> Plan | None:
        """Plan the next step (load, guard, step). None if a tool timed out for good: the task
        was handed back."""
        try:
            plan = plan_step(
                self.ledger, lease, self.world, retriever=self.retriever, model=self.model
            )
        except ToolTimeout:
            self._hand_back(lease)
            return None
        if plan.step_name == "retrieve":
            for ref in plan.used:
                if ref.source == INVENTORY_API:
                    self._call("inventory", LATENCY["inventory"])
        return plan

    def commit(self, plan: Plan) -> tuple[str, Lease | None]:
        """Perform a plan the way the framework does: stop, or re-check, send each e-mail
        through the idempotency ledger, and save. Returns ``(action, next lease)``; actions are
        ``advanced``, ``completed``, ``needs_review``, ``fenced``, ``handed-back``, ``refused``.
        """
        lease, task = plan.lease, plan.lease.task_id
        if plan.refused is not None:
            return "refused", None
        reasons = plan.stop or recheck(plan, self.world).reasons
        if reasons:
            if not self.ledger.save(lease, **stop_save(plan, reasons)):
                return self._fenced(lease, "stop save refused")
            self.ledger.cancel(task)
            self._finish(task, f"stopped for review: {', '.join(r.code for r in reasons)}")
            return "needs_review", None
        statuses = {}
        for intent in plan.intents:
            status = effect_status(self.ledger, lease, intent.key)
            if status is None:
                return self._fenced(lease, "record_effect refused")
            if status == "sent":
                try:
                    self._with_retries(
                        lambda i=intent: self.world.mail.send(i.key, i.to, i.subject, i.body)
                    )
                except ToolTimeout:
                    self._hand_back(lease)
                    return "handed-back", None
            statuses[intent.key] = status
        save = commit_save(plan, statuses)
        if not self.ledger.save(lease, **save):
            return self._fenced(lease, "save refused")
        if save["done"]:
            self._finish(task, "completed")
            return "completed", None
        return "advanced", advance(lease, save)

    def step(self, lease: Lease) -> tuple[str, Lease | None]:
        """Plan and commit one step."""
        plan = self.plan(lease)
        if plan is None:
            return "handed-back", None
        return self.commit(plan)

    def run(self, task_id: str, worker: str, lease: Lease | None = None) -> str:
        """The framework's loop: claim (unless ``lease`` is given) and step until the task is
        finished, stopped, fenced or refused. A handed-back task is claimed again after
        :data:`HAND_BACK` seconds, until the ledger's attempt budget turns it dead."""
        while True:
            if lease is None:
                lease = self.claim(task_id, worker)
                if lease is None:
                    return "refused"
            action, lease = self.step(lease)
            if action == "advanced":
                self.ledger.heartbeat(lease, self.ttl)
                continue
            if action != "handed-back":
                return action
            self.clock.advance(HAND_BACK)

    def pause(self, seconds: float) -> None:
        """Time passes with no heartbeat (a stalled worker, a queue wait)."""
        self.clock.advance(seconds)

    def cancel(self, task_id: str) -> bool:
        """A user cancels the task."""
        cancelled = self.ledger.cancel(task_id)
        if cancelled:
            self._finish(task_id, "cancelled by the user")
        return cancelled

    # -- reading ----------------------------------------------------------------------------

    def observe(self, task_id: str) -> Observation:
        """Freeze what happened to ``task_id`` into an :class:`Observation`."""
        rec = self.ledger.get(task_id)
        cp = None
        if rec.checkpoint is not None:
            cp = Checkpoint.from_dict(rec.checkpoint)
        evidence = cp.evidence if cp is not None else ()
        answer = cp.draft if cp is not None else None
        review = (
            tuple(r.code for r in cp.review) if cp is not None and cp.status == NEEDS_REVIEW else ()
        )
        done_at = self._done_at.get(task_id, self.clock.now)
        return Observation(
            case=self.case,
            version=self.version.name,
            task_id=task_id,
            tenant=rec.tenant,
            recipient=rec.goal["recipient"],
            status=rec.status,
            answer=answer,
            evidence=tuple(evidence),
            review=review,
            result=rec.result,
            deliveries=tuple(self.world.mail.deliveries),
            effects=tuple(e.key for e in self.ledger.effects(task_id)),
            calls=tuple(self.calls),
            tokens=self.tokens,
            fenced=self.fenced,
            latency=round(done_at - rec.created_at, 6),
            stock={sku: self.world.stock(sku)[0] for sku in self.world.to_dict()["stock"]},
        )

    def close(self) -> None:
        self.ledger.close()

    # -- helpers ----------------------------------------------------------------------------

    def _hand_back(self, lease: Lease) -> None:
        self.ledger.release(lease)
        self.log.append(f"t={self.clock.now:.2f} {lease.worker} handed {lease.task_id} back")

    def _fenced(self, lease: Lease, what: str) -> tuple[str, None]:
        self.fenced += 1
        self.log.append(
            f"t={self.clock.now:.2f} {lease.worker} (epoch {lease.epoch}) fenced: {what}"
        )
        return "fenced", None

    def _finish(self, task_id: str, what: str) -> None:
        self._done_at.setdefault(task_id, self.clock.now)
        self.log.append(f"t={self.clock.now:.2f} {task_id} {what}")
