"""A worker process: take a task ID from the broker, claim a lease, run steps, commit each one.

One worker runs one task at a time. For each delivered task ID it:

1. claims a lease (``claim``; in ``racy-claim`` the chapter's UPDATE, a round trip, its SELECT);
   a refused claim (someone holds a live lease, or the task is finished) drops the message;
2. runs the remaining steps from the step the ledger returned, never from step 0 again. Each
   step works for a random service time, heartbeating every ``ttl / 3`` (a failed heartbeat means
   the lease is gone: the worker stops at once);
3. for a side-effecting step, asks ``record_effect`` before sending and sends the e-mail only
   when told to;
4. commits the step with the fenced ``save`` (``done=True`` on the last step). A refused save
   means a newer epoch exists or the task was cancelled: the worker abandons the task.

Faults strike at fixed points, each drawn from its own random stream, and only for steps that
start before the fault horizon: a *crash* during the work (the process dies, the lease is left
to expire, the worker restarts after a delay); a *crash right after an e-mail was sent*, before
its save; a *pause* after the work and the e-mail and before the save, with no heartbeat, so the
worker wakes and commits with the epoch it had; a *slow* step. Every action is recorded in the
history as it happens.
"""

from __future__ import annotations

from simlab.errors import LeaseHeld, TerminalTask, UnknownTask
from simlab.records import TERMINAL_STATUSES

__all__ = ["Worker"]


class Worker:
    """One worker process; :meth:`run` is its SimPy generator."""

    def __init__(self, name: str, run) -> None:
        self.name = name
        self.sim = run  # the shared simulation state (see simlab.simulation._Run)

    def run(self):
        """Forever: get a message, handle it, and after a crash wait and restart."""
        sim = self.sim
        env, rec, get = sim.env, sim.history.record, sim.broker.get
        name = self.name
        restart_rng, restart_delay = sim.rng["restart"], sim.scenario.restart_delay
        while True:
            msg = yield get()
            rec(env.now, "ok", name, "deliver", msg.task, None, None,
                duplicate=msg.duplicate, redelivery=msg.redelivery)
            crashed = yield from self._handle(msg.task)
            if crashed:
                if restart_delay:
                    yield env.timeout(restart_rng.expovariate(1.0 / restart_delay))
                rec(env.now, "ok", name, "restart")

    # ------------------------------------------------------------------ one task
    def _handle(self, task: str):
        """Claim ``task`` and run its steps; return True if the worker crashed."""
        sim = self.sim
        env, rec, ledger, broker = sim.env, sim.history.record, sim.ledger, sim.broker
        sc = sim.scenario
        name, ttl, steps = self.name, sc.ttl, sc.steps

        rec(env.now, "invoke", name, "claim", task)
        try:
            if sim.two_statement_claim:
                ledger.claim_update(task, name, ttl)
                if ledger.round_trip:
                    yield env.timeout(ledger.round_trip)
                lease = ledger.claim_read(task, name)
            else:
                lease = ledger.claim(task, name, ttl)
        except LeaseHeld:
            rec(env.now, "fail", name, "claim", task, reason="lease-held")
            return False
        except TerminalTask as exc:
            rec(env.now, "fail", name, "claim", task, reason="terminal", status=exc.status)
            broker.ack(task)
            return False
        except UnknownTask:
            rec(env.now, "fail", name, "claim", task, reason="unknown")
            broker.ack(task)
            return False
        epoch, step = lease.epoch, lease.step
        rec(env.now, "ok", name, "claim", task, epoch, step, lease_until=lease.lease_until)
        last_beat = env.now

        rng = sim.rng
        service, crash_rng, slow_rng = rng["service"], rng["crash"], rng["slow"]
        pause_rng, effect_crash_rng = rng["pause"], rng["effect_crash"]
        mean = sc.step_time
        every = sc.heartbeat_every
        horizon = sim.horizon
        while step < steps:
            work = service.expovariate(1.0 / mean)
            crash_at = None
            faults = env.now < horizon
            if faults:
                if slow_rng.random() < sc.slow_rate:
                    work *= sc.slow_factor
                    rec(env.now, "info", name, "slow", task, epoch, step, factor=sc.slow_factor)
                if crash_rng.random() < sc.crash_rate:
                    crash_at = crash_rng.random() * work

            # -- work, heartbeating every `every` time units --------------------------------
            remaining = work if crash_at is None else crash_at
            while True:
                next_beat = last_beat + every
                now = env.now
                if now < next_beat:
                    if now + remaining <= next_beat:
                        if remaining > 0:
                            yield env.timeout(remaining)
                        break
                    yield env.timeout(next_beat - now)
                    remaining -= next_beat - now
                rec(env.now, "invoke", name, "heartbeat", task, epoch, step)
                if ledger.heartbeat(lease, ttl):
                    rec(env.now, "ok", name, "heartbeat", task, epoch, step)
                    last_beat = env.now
                    broker.extend(task)
                else:
                    rec(env.now, "fail", name, "heartbeat", task, epoch, step,
                        **self._why_lost(task, epoch, step))
                    return False
            if crash_at is not None:
                rec(env.now, "info", name, "crash", task, epoch, step, after_effect=False)
                sim.crashes += 1
                return True

            # -- the side effect: ask the idempotency ledger first, send only when told -----
            if sc.sends_email(step):
                key = f"{task}:email:{step}"
                rec(env.now, "invoke", name, "effect", task, epoch, step, key=key)
                if ledger.record_effect(lease, key):
                    rec(env.now, "ok", name, "effect", task, epoch, step, key=key)
                    sim.mailbox.send(key)
                    rec(env.now, "ok", name, "send", task, epoch, step, key=key)
                    # The e-mail is out and the save is not in: the crash the ledger must absorb.
                    if faults and effect_crash_rng.random() < sc.effect_crash_rate:
                        rec(env.now, "info", name, "crash", task, epoch, step, after_effect=True)
                        sim.crashes += 1
                        return True
                else:
                    rec(env.now, "fail", name, "effect", task, epoch, step, key=key)

            # -- a stop-the-world pause: no heartbeat, then a commit with the old epoch -----
            if faults and pause_rng.random() < sc.pause_rate:
                if sc.pause_mean is None:
                    length = ttl * pause_rng.uniform(0.5, 2.0 * sc.pause_time - 0.5)
                else:  # absolute pauses (see Scenario.pause_mean)
                    length = pause_rng.expovariate(1.0 / sc.pause_mean)
                rec(env.now, "info", name, "pause", task, epoch, step, until=env.now + length)
                yield env.timeout(length)

            # -- the fenced commit --------------------------------------------------------
            done = step + 1 == steps
            rec(env.now, "invoke", name, "save", task, epoch, step + 1, done=done)
            if done:
                ok = ledger.save(lease, step + 1, result={"worker": name, "epoch": epoch},
                                 done=True)
            else:
                ok = ledger.save(lease, step + 1)
            if not ok:
                rec(env.now, "fail", name, "save", task, epoch, step + 1, done=done,
                    **self._why_lost(task, epoch, step + 1))
                return False
            rec(env.now, "ok", name, "save", task, epoch, step + 1, done=done)
            step += 1
        broker.ack(task)
        return False

    def _why_lost(self, task: str, epoch: int, step: int) -> dict:
        """Ask the ledger why an operation was refused; acknowledge finished tasks.

        Reasons: ``stale-epoch`` (a newer claim exists; ``current`` is its epoch), the terminal
        status (``completed``, ``cancelled``, ``dead``), or ``step-not-advancing`` (another
        holder of the *same* epoch committed this step first: only the racy claim allows it).
        """
        rec = self.sim.ledger.get(task)
        if rec.status in TERMINAL_STATUSES:
            self.sim.broker.ack(task)
            return {"reason": rec.status}
        if rec.epoch != epoch:
            return {"reason": "stale-epoch", "current": rec.epoch}
        if rec.step >= step:
            return {"reason": "step-not-advancing", "stored_step": rec.step}
        return {"reason": "refused", "status": rec.status}
