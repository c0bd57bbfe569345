"""A worker process: take a task ID from the broker, claim a lease, run steps, commit each one.

One worker runs one task at a time. For each delivered task ID it:

1. claims a lease (``claim``; in ``racy-claim`` the chapter's UPDATE, a round trip, its SELECT;
   in pull mode ``claim_next``, which may hand out another task than the message named);
   a refused claim (someone holds a live lease, or the task is finished) drops the message;
   with ``Scenario.checkpoints`` each save carries a checkpoint, and the claim records the one
   its lease hands back;
2. runs the remaining steps from the step the ledger returned, never from step 0 again. Each
   step works for a random service time, heartbeating every ``ttl / 3`` (a failed heartbeat means
   the lease is gone: the worker stops at once);
3. for a side-effecting step, asks ``record_effect`` before sending and sends the e-mail only
   when told to;
4. commits the step with the fenced ``save`` (``done=True`` on the last step). A refused save
   means a newer epoch exists or the task was cancelled: the worker abandons the task.

Faults strike at fixed points, each decided by the run's nemesis (drawn from its own random
stream, or read from a fault schedule: see :mod:`simlab.sim.nemesis`), and only for steps that
start before the fault horizon: a *crash* during the work (the process dies, the lease is left
to expire, the worker restarts after a delay); a *crash right after an e-mail was sent*, before
its save; a *pause* after the work and the e-mail and before the save, with no heartbeat, so the
worker wakes and commits with the epoch it had; a *work pause* as a step's work begins (the
worker wakes and heartbeats with the epoch it had); an *effect pause* right before a step's
e-mail (it wakes and records the e-mail with the epoch it had); a *send pause* between recording
an e-mail's key and sending it; a *claim pause* between the two statements of a two-statement
claim; a *slow* step; with ``Scenario.late``, an e-mail record, a heartbeat or a save *held* by
the network (the worker waits ``reply_timeout`` for an answer, gives the task back with
``release`` and leaves it; the call reaches the ledger later, with the lease it was sent with).
Every action is recorded in the history as it happens.

The clock is read as ``env._now``, the attribute SimPy's ``env.now`` returns, without the
property's call: a run reads it tens of thousands of times.
"""

from __future__ import annotations

from simlab.checker.history import read_back
from simlab.errors import LeaseHeld, TerminalTask, UnknownTask
from simlab.records import COMPLETED, RUNNING
from simlab.sim import held_calls
from simlab.sim.answers import record_claim
from simlab.sim.reads import why_refused

__all__ = ["Worker", "WORKED", "CRASHED", "LOST"]

#: What :meth:`Worker._work` reports: the step's work is done, the worker crashed, or its lease
#: was lost (a refused heartbeat).
WORKED, CRASHED, LOST = "worked", "crashed", "lost"


class Worker:
    """One worker process; :meth:`run` is its SimPy generator.

    :meth:`_handle` runs one delivered task. It is built from pieces a workload can reuse
    (:mod:`simlab.sim.agent_worker` does): :meth:`_claim`, :meth:`_work` (service time, heartbeats,
    a crash), :meth:`_pause_length` and :meth:`_why_lost`.
    """

    def __init__(self, name: str, run) -> None:
        self.name = name
        self.sim = run  # the shared simulation state (see simlab.sim.simulation._Run)
        #: when this worker last renewed (or took) its lease: heartbeats are due every ttl / 3
        self.last_beat = 0.0
        #: the attempt at the current step (set by the nemesis; see simlab.sim.nemesis)
        self.attempt = 0
        #: crashes so far: a heartbeat resent by the helper of an earlier life dies with it
        self.lives = 0

    def run(self):
        """Forever: get a message, handle it, and after a crash wait and restart."""
        sim = self.sim
        env, rec, name = sim.env, sim.history.record, self.name
        get, take, due = sim.broker.get, sim.broker.take, env.peek
        while True:
            # A waiting message with no other event due at this instant: the event get() would
            # schedule is the very next one SimPy runs, and only this process waits on it (so no
            # other callback runs in between), so the worker goes on at once, as it would then.
            msg = take() if due() > env._now else None
            if msg is None:
                msg = yield get()
            rec(
                env._now,
                "ok",
                name,
                "deliver",
                msg.task,
                None,
                None,
                duplicate=msg.duplicate,
                redelivery=msg.redelivery,
            )
            crashed = yield from self._handle(msg.task)
            if crashed:
                yield from self.restart()

    def restart(self):
        """After a crash (a generator): this life ends (a resend of its heartbeat helper is
        dropped), the worker waits the restart delay and records its ``restart``."""
        sim = self.sim
        env, restart_delay = sim.env, sim.scenario.restart_delay
        self.lives += 1
        if restart_delay:
            # the stream is made at the first crash (its draws do not depend on when)
            yield env.timeout(sim.rng["restart"].expovariate(1.0 / restart_delay))
        sim.history.record(env._now, "ok", self.name, "restart")

    # ------------------------------------------------------------------ one task
    def _handle(self, task: str):
        """Claim ``task`` and run its steps; return True if the worker crashed."""
        sim = self.sim
        if sim.pull:
            lease = self._claim_next()
        elif sim.two_statement_claim:
            lease = yield from self._claim(task)
        else:
            lease = self._claim_at_once(task)
        if lease is None:
            return False
        task = lease.task_id  # in pull mode, not always the task the message named
        env, rec, broker = sim.env, sim.history.record, sim.broker
        sc = sim.scenario
        name, steps = self.name, sc.steps
        epoch, step = lease.epoch, lease.step
        horizon = sim.faults_until
        work, emails = self._work, sim.emails
        checkpoints = sc.checkpoints
        while step < steps:
            faults = env._now < horizon
            worked = yield from work(task, lease, step, faults)
            if worked is not WORKED:
                return worked is CRASHED

            # -- the side effect: ask the idempotency ledger first, send only when told -----
            if emails[step]:
                if faults:  # a pause right before the e-mail: it is recorded with the old epoch
                    length = self._pause_length(task, epoch, step, "effect")
                    if length is not None:
                        yield env.timeout(length)
                ended = yield from self._email(task, lease, step, faults)
                if ended:  # crashed around the e-mail, or gave the task back (LOST)
                    return ended is True

            # -- a stop-the-world pause: no heartbeat, then a commit with the old epoch -----
            if faults:
                length = self._pause_length(task, epoch, step)
                if length is not None:
                    yield env.timeout(length)
                    if sc.releases and env._now >= self.last_beat + sc.ttl:
                        self._release(task, lease, step)  # its lease ended while it slept
                        return False

            # -- the fenced commit --------------------------------------------------------
            done = step + 1 == steps
            now = env._now  # no simulated time passes until the next yield
            delay = sim.nemesis.late("save", task) if faults and sc.late else None
            if delay is None:
                rec(now, "invoke", name, "save", task, epoch, step + 1, done=done)
            else:  # the network holds the save
                rec(now, "invoke", name, "save", task, epoch, step + 1, done=done, held=True)
            kept = {}
            if checkpoints:  # the whole checkpoint each time; the completing save stores None
                cp = None if done else {"step": step + 1, "worker": name, "epoch": epoch}
                kept["checkpoint"] = cp
                if not done:  # a partial result: only done=True completes a task
                    kept["result"] = {"partial": step + 1}
            if delay is not None:
                args = (step + 1, done, kept)
                yield from held_calls.hold(self, lease, step, delay, held_calls.land_save, *args)
                return False
            ok = self._save(lease, step + 1, done, kept)
            if faults and sim.retries and sim.nemesis.lost("save", task):
                saved = yield from self._save_resent(lease, step + 1, done, kept, ok)
                if not saved:
                    return False
                step += 1
                continue
            if not ok:
                rec(
                    now,
                    "fail",
                    name,
                    "save",
                    task,
                    epoch,
                    step + 1,
                    done=done,
                    **self._why_lost(task, epoch, step + 1),
                )
                return False
            rec(now, "ok", name, "save", task, epoch, step + 1, done=done, **kept)
            step += 1
        broker.ack(task)
        return False

    def _save(self, lease, step: int, done: bool, kept: dict) -> bool:
        """The fenced save of ``step`` as :meth:`_handle` makes it (``kept``: the checkpoint
        and partial result of checkpoints mode)."""
        if done:
            result = {"worker": self.name, "epoch": lease.epoch}
            return self.sim.ledger.save(lease, step, result=result, done=True, **kept)
        return self.sim.ledger.save(lease, step, **kept)

    def _save_resent(self, lease, step: int, done: bool, kept: dict, first: bool):
        """The ``lost-reply`` fault on a save (a generator): the ledger answered ``first`` to
        the save of ``step``, the answer is lost, and after ``reply_timeout`` the worker sends
        the same save again. True when the step is committed by this lease: the resend is
        accepted, or it is refused and the ledger shows the first save landed (the task at
        ``step`` or later with this lease's epoch, running, or completed by a completing save),
        as a correct caller reads a refused resend; False when the lease is lost."""
        sim, task, epoch, name = self.sim, lease.task_id, lease.epoch, self.name
        env, rec, ledger = sim.env, sim.history.record, sim.ledger
        answer = kept if first else self._why_lost(task, epoch, step, ack=False)
        rec(env._now, "ok" if first else "fail", name, "save", task, epoch, step, done=done,
            lost=True, **answer)  # fmt: skip
        yield env.timeout(sim.scenario.reply_timeout)
        now = env._now
        rec(now, "invoke", name, "save", task, epoch, step, done=done, resent=True)
        if self._save(lease, step, done, kept):
            rec(now, "ok", name, "save", task, epoch, step, done=done, resent=True, **kept)
            return True
        why = self._why_lost(task, epoch, step)
        r = ledger.get(task)
        mine = r.epoch == epoch and r.step >= step and r.status == (COMPLETED if done else RUNNING)
        rec(now, "fail", name, "save", task, epoch, step, done=done, resent=True, mine=mine, **why)
        return mine

    def _release(self, task: str, lease, step: int, **extra) -> None:
        """Give the task back (``release``) with this lease's epoch (``Scenario.releases``,
        and ``Scenario.late`` with ``timeout=True`` in ``extra``: a call of the worker got no
        answer in time); a correct ledger refuses it when the lease is no longer current (a
        takeover, a cancel)."""
        sim = self.sim
        now, rec, epoch, name = sim.env._now, sim.history.record, lease.epoch, self.name
        rec(now, "invoke", name, "release", task, epoch, step, **extra)
        released = sim.ledger.release(lease)
        lost = sim.retries and now < sim.faults_until and sim.nemesis.lost("release", task)
        if lost:  # the answer is lost: the worker sends the release again (below)
            extra = {**extra, "lost": True}
        self._released(lease, step, released, ack=not lost, **extra)
        if lost:
            sim._resend(lambda: self._release_resent(lease, step))

    def _released(self, lease, step: int, released: bool, ack: bool, **extra) -> None:
        """Record the ledger's answer to a release of ``lease`` (with ``extra``): an accepted
        one with the record read back at the same instant (a released task is queued and holds
        no lease), a refused one with why (``ack``: the worker heard it)."""
        sim, task, epoch, name = self.sim, lease.task_id, lease.epoch, self.name
        now, rec = sim.env._now, sim.history.record
        if released:
            rec(now, "ok", name, "release", task, epoch, step, **extra,
                **read_back(sim.ledger.get(task)))  # fmt: skip
        else:
            why = self._why_lost(task, epoch, step, ack=ack)
            rec(now, "fail", name, "release", task, epoch, step, **extra, **why)

    def _release_resent(self, lease, step: int) -> None:
        """The resend of a release whose answer was lost (``lost-reply``, with retries), after
        ``reply_timeout``: the lease was given back already (or was no longer current), so a
        correct ledger refuses it. Its answer is only recorded: the worker has left the task."""
        sim = self.sim
        rec = sim.history.record
        rec(sim.env._now, "invoke", self.name, "release", lease.task_id, lease.epoch, step,
            resent=True)  # fmt: skip
        self._released(lease, step, sim.ledger.release(lease), ack=False, resent=True)

    def _crashed_after_record(self, task: str, epoch: int, step: int) -> bool:
        """The ``record-crash`` fault: strike between ``record_effect`` and the send. The key is
        recorded, the e-mail never leaves: at most once means it is lost. True if it struck."""
        sim = self.sim
        if not sim.nemesis.crashes("record", self, task, step):
            return False
        sim.history.record(
            sim.env._now,
            "info",
            self.name,
            "crash",
            task,
            epoch,
            step,
            after_effect=False,
            after_record=True,
        )
        sim.crashes += 1
        return True

    def _email(self, task: str, lease, step: int, faults: bool):
        """Step ``step``'s e-mail (a generator); return True if the worker crashed around it,
        :data:`LOST` if it gave the task back (the network held its record: ``late-call``),
        else False.

        With idempotency keys: ``record_effect`` first, send only when it says so (a
        ``record-crash`` between the two loses the e-mail: at most once; a ``send-pause``
        between them sends it late, from a lease that may have been taken over). Without: just
        send (a redelivered step sends again: at least once). With a sender (a learner's
        ``send_step``, :mod:`simlab.sim.sending`) the sender does both, and no fault can strike
        between them. An ``effect-crash`` strikes after the send, before the save."""
        sim = self.sim
        env, rec, name, epoch = sim.env, sim.history.record, self.name, lease.epoch
        nemesis = sim.nemesis
        if sim.send is not None:
            if not self._sent_by_sender(task, lease, step):
                return False
        elif not sim.scenario.idempotency_keys:
            sim.mailbox.send(f"{task}:email:{step}")
            rec(env._now, "ok", name, "send", task, epoch, step, key=None)
        else:
            key = f"{task}:email:{step}"
            delay = nemesis.late("effect", task) if faults and sim.scenario.late else None
            if delay is not None:  # the network holds the record
                rec(env._now, "invoke", name, "effect", task, epoch, step, key=key, held=True)
                yield from held_calls.hold(
                    self, lease, step, delay, held_calls.land_effect, step, key
                )
                return LOST
            rec(env._now, "invoke", name, "effect", task, epoch, step, key=key)
            recorded = sim.ledger.record_effect(lease, key)
            if faults and sim.retries and nemesis.lost("effect", task):
                if not (yield from self._effect_resent(lease, step, key, recorded)):
                    return False
            elif not recorded:
                # read back: a refused record changes nothing
                row = read_back(sim.ledger.get(task))
                rec(env._now, "fail", name, "effect", task, epoch, step, key=key, **row)
                return False
            else:
                rec(env._now, "ok", name, "effect", task, epoch, step, key=key)
            if faults and self._crashed_after_record(task, epoch, step):
                return True
            if faults:
                length = self._pause_length(task, epoch, step, "send")
                if length is not None:
                    yield env.timeout(length)
            sim.mailbox.send(key)
            rec(env._now, "ok", name, "send", task, epoch, step, key=key)
        # The e-mail is out and the save is not in: the crash the ledger must absorb.
        if faults and nemesis.crashes("sent", self, task, step):
            rec(env._now, "info", name, "crash", task, epoch, step, after_effect=True)
            sim.crashes += 1
            return True
        return False

    def _effect_resent(self, lease, step: int, key: str, first: bool):
        """The ``lost-reply`` fault on an e-mail record (a generator): the ledger answered
        ``first`` to ``record_effect``, the answer is lost, and after ``reply_timeout`` the
        worker records the key again. True when this lease may send: the resend is accepted, or
        it is refused and the ledger's effects show the key recorded by this lease (its epoch
        and worker), as a correct caller reads a refused resend."""
        sim, task, epoch, name = self.sim, lease.task_id, lease.epoch, self.name
        env, rec = sim.env, sim.history.record
        rec(env._now, "ok" if first else "fail", name, "effect", task, epoch, step, key=key,
            lost=True)  # fmt: skip
        yield env.timeout(sim.scenario.reply_timeout)
        now = env._now
        rec(now, "invoke", name, "effect", task, epoch, step, key=key, resent=True)
        if sim.ledger.record_effect(lease, key):
            rec(now, "ok", name, "effect", task, epoch, step, key=key, resent=True)
            return True
        mine = any(
            f.key == key and f.epoch == epoch and f.worker == name for f in sim.ledger.effects(task)
        )
        rec(now, "fail", name, "effect", task, epoch, step, key=key, resent=True, mine=mine)
        return mine

    def _sent_by_sender(self, task: str, lease, step: int) -> bool:
        """The run's sender (a learner's ``send_step``, see :mod:`simlab.sim.sending`) sends
        step ``step``'s e-mail: record its moves in order, all at this instant, and put its
        e-mails in the mailbox. True if at least one e-mail left."""
        sim = self.sim
        now, rec, name = sim.env._now, sim.history.record, self.name
        sent = False
        for move in sim.send(lease, step):
            if move[0] == "effect":
                _, key, accepted, epoch = move
                rec(now, "invoke", name, "effect", task, epoch, step, key=key)
                if accepted:
                    rec(now, "ok", name, "effect", task, epoch, step, key=key)
                else:  # read back as the worker's own refused record is
                    row = read_back(sim.ledger.get(task))
                    rec(now, "fail", name, "effect", task, epoch, step, key=key, **row)
            else:
                sim.mailbox.send(move[1])
                rec(now, "ok", name, "send", task, lease.epoch, step, key=move[1])
                sent = True
        return sent

    # ------------------------------------------------------------------ reusable pieces
    def _claim(self, task: str):
        """Ask the ledger for a lease on ``task`` (a generator: the racy claim waits a round
        trip); return the :class:`~simlab.records.Lease`, or None if the claim was refused
        (the message is acknowledged when the task is finished or unknown)."""
        sim = self.sim
        if not sim.two_statement_claim:
            return self._claim_at_once(task)
        env, ledger, name = sim.env, sim.ledger, self.name
        sim.history.record(env._now, "invoke", name, "claim", task)
        try:
            ledger.claim_update(task, name, sim.scenario.ttl)
            wait = ledger.round_trip
            if env._now < sim.faults_until:
                wait += self._pause_in_claim(task)
            if wait:
                yield env.timeout(wait)
            lease = ledger.claim_read(task, name)
        except (LeaseHeld, TerminalTask, UnknownTask) as refusal:
            return self._refused(task, refusal)
        return self._granted(task, lease, env._now)

    def _claim_at_once(self, task: str):
        """:meth:`_claim` for a one-statement claim, which takes no simulated time: a plain
        call, not a generator (every task's first step pays for one)."""
        sim = self.sim
        name, now = self.name, sim.env._now  # the claim takes no simulated time
        sim.history.record(now, "invoke", name, "claim", task)
        try:
            lease = sim.ledger.claim(task, name, sim.scenario.ttl)
        except (LeaseHeld, TerminalTask, UnknownTask) as refusal:
            return self._refused(task, refusal)
        return self._granted(task, lease, now)

    def _claim_next(self):
        """Pull mode (``Scenario.pull``): ask ``claim_next`` for the oldest claimable task, at
        once; return its :class:`~simlab.records.Lease`, or None when the ledger handed out
        nothing (the message is left to its visibility timeout). The invoke and a refusal name
        no task (op ``claim-next``); a granted lease is recorded as the claim of its task,
        marked ``next``."""
        sim = self.sim
        rec, name, now = sim.history.record, self.name, sim.env._now
        rec(now, "invoke", name, "claim-next")
        lease = sim.ledger.claim_next(name, sim.scenario.ttl)
        if lease is None:
            rec(now, "fail", name, "claim-next", reason="none")
            return None
        return self._granted(lease.task_id, lease, now, next=True)

    def _granted(self, task: str, lease, now: float, **extra):
        """Record the granted claim of ``lease`` at ``now`` (the simulated time), with
        ``extra`` values (and the checkpoint it hands back, with ``Scenario.checkpoints``); it
        renews the lease. Returns ``lease``."""
        sim = self.sim
        record_claim(sim.history, now, self.name, task, lease, sim.scenario.checkpoints, **extra)
        self.last_beat = now
        return lease

    def _refused(self, task: str, refusal: Exception) -> None:
        """Record the refused claim of ``task`` (acknowledging a task that is finished or
        unknown); return None."""
        sim = self.sim
        record_claim(sim.history, sim.env._now, self.name, task, refusal, False)
        if not isinstance(refusal, LeaseHeld):
            sim.broker.ack(task)
        return None

    def _work(self, task: str, lease, step: int, faults: bool):
        """Work on ``step`` for a random service time, heartbeating every ``ttl / 3`` (a
        generator). While ``faults`` is on the step may run slow or crash part-way.

        Returns :data:`WORKED`, :data:`CRASHED` (the crash is recorded and counted) or
        :data:`LOST` (a heartbeat was refused, or the network held it and the worker gave the
        task back: the lease is gone and the worker stops at once).
        """
        sim = self.sim
        env, rec, beat, broker = sim.env, sim.history.record, sim.heartbeat, sim.broker
        sc = sim.scenario
        name, epoch, ttl, every = self.name, lease.epoch, sc.ttl, sc.heartbeat_every
        work = sim.rng["service"].expovariate(1.0 / sc.step_time)
        crash_at = None
        if faults:
            factor, crash_at = sim.nemesis.work(self, task, step, work)
            if factor is not None:
                work *= factor
                rec(env._now, "info", name, "slow", task, epoch, step, factor=factor)
            pause = self._pause_length(task, epoch, step, "work")
            if pause is not None:  # then the first heartbeat after waking is due at once
                yield env.timeout(pause)

        remaining = work if crash_at is None else crash_at
        last_beat = self.last_beat
        while True:
            next_beat = last_beat + every
            now = env._now
            if now < next_beat:
                if now + remaining <= next_beat:
                    if remaining > 0:
                        yield env.timeout(remaining)
                    break
                yield env.timeout(next_beat - now)
                remaining -= next_beat - now
                now = env._now
            # no simulated time passes until the next yield: one reading of the clock serves
            if faults and sc.late:
                delay = sim.nemesis.late("heartbeat", task)
                if delay is not None:  # the network holds the heartbeat
                    rec(now, "invoke", name, "heartbeat", task, epoch, step, held=True)
                    yield from held_calls.hold(
                        self, lease, step, delay, held_calls.land_heartbeat, step
                    )
                    return LOST
            rec(now, "invoke", name, "heartbeat", task, epoch, step)
            # an accepted heartbeat comes with the end the ledger gave, read back at the same
            # instant (no other process runs before the next yield): the checker compares it
            # with now + ttl
            given = beat(lease, ttl)
            if faults and sim.retries and sim.nemesis.lost("heartbeat", task):
                self._beat_lost(lease, step, given)
                last_beat = self.last_beat = now  # the helper beats on its schedule
            elif given is not None:
                rec(now, "ok", name, "heartbeat", task, epoch, step, **given)
                last_beat = self.last_beat = now
                broker.extend(task)
            else:
                rec(
                    now,
                    "fail",
                    name,
                    "heartbeat",
                    task,
                    epoch,
                    step,
                    **self._why_lost(task, epoch, step),
                )
                return LOST
        if crash_at is not None:
            rec(env._now, "info", name, "crash", task, epoch, step, after_effect=False)
            sim.crashes += 1
            return CRASHED
        return WORKED

    def _beat_lost(self, lease, step: int, given: dict | None) -> None:
        """The ``lost-reply`` fault on a heartbeat: the ledger answered ``given`` (None: refused)
        and the answer is lost; the worker's heartbeat helper resends the same heartbeat after
        ``reply_timeout`` while the work goes on (it may land after the worker's completing
        save or release). The resend's answer is only recorded: an accepted one changes
        nothing the worker relies on, and a refused one is told again by the worker's next
        heartbeat or save. The helper dies with its worker: nothing is resent after a crash."""
        sim, task, epoch, name = self.sim, lease.task_id, lease.epoch, self.name
        rec, now, ttl = sim.history.record, sim.env._now, sim.scenario.ttl
        if given is not None:
            rec(now, "ok", name, "heartbeat", task, epoch, step, lost=True, **given)
        else:
            why = self._why_lost(task, epoch, step, ack=False)
            rec(now, "fail", name, "heartbeat", task, epoch, step, lost=True, **why)
        lives = self.lives

        def resend() -> None:
            if self.lives != lives:
                return
            at = sim.env._now
            rec(at, "invoke", name, "heartbeat", task, epoch, step, resent=True)
            again = sim.heartbeat(lease, ttl)
            if again is not None:
                rec(at, "ok", name, "heartbeat", task, epoch, step, resent=True, **again)
            else:
                why = self._why_lost(task, epoch, step, ack=False)
                rec(at, "fail", name, "heartbeat", task, epoch, step, resent=True, **why)

        sim._resend(resend)

    def _pause_in_claim(self, task: str) -> float:
        """The ``claim-pause`` fault: a pause between the two statements of a claim (call only
        while faults are on); record it and return its length, 0 when none strikes."""
        sim = self.sim
        length = sim.nemesis.pauses("claim", self, task)
        if length is None:
            return 0.0
        now = sim.env._now
        sim.history.record(now, "info", self.name, "pause", task, until=now + length, where="claim")
        return length

    def _pause_length(self, task: str, epoch: int, step: int, where: str = "save") -> float | None:
        """Draw whether a stop-the-world pause strikes now (call only while faults are on);
        if so, record it and return its length, else None. ``where``: ``save`` (after the
        step's work and e-mail, before its save), ``work`` (as the step's work begins) or
        ``effect`` (right before the step's e-mail) or ``send`` (between recording the e-mail's
        key and sending it); the pause event says ``where`` unless it is ``save``."""
        sim = self.sim
        nemesis = sim.nemesis
        length = nemesis.pauses(where, self, task, step)
        if length is None:
            return None
        now = sim.env._now
        extra = {} if where == "save" else {"where": where}
        sim.history.record(
            now, "info", self.name, "pause", task, epoch, step, until=now + length, **extra
        )
        return length

    def _why_lost(self, task: str, epoch: int, step: int, ack: bool = True) -> dict:
        """:func:`~simlab.sim.reads.why_refused` for this worker's run."""
        return why_refused(self.sim, task, epoch, step, ack)
