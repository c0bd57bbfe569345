"""Real worker processes over a shared ledger, for the demo, the race and the stress test.

Each entry point runs in its own OS process (``python -m simlab.props.worker COMMAND ...``, whose
arguments :mod:`simlab.props.worker` parses) and talks to the ledger only through the contract, as
a production worker would. ``PATH`` is anything :func:`simlab.ledger.connect` opens: a SQLite
file, or a ``postgresql://`` URL (the same code then runs against a server, as on many
machines). Output is one JSON object per line on stdout, so a parent process can read what
happened.

Commands
--------
``resume PATH TASK``
    The chapter's worker: claim ``TASK``; at step 0 retrieve evidence, save step 1 and release
    the lease; at step 1 write the answer and save step 2 with ``done``. One step, then exit.
``race PATH TASK --claims N --gap SECONDS [--chapter]``
    Claim ``TASK`` N times with a lease that expires at once, printing every epoch this process
    believes it owns. With ``--chapter``, claim the chapter's way: UPDATE, wait ``gap`` (a network
    round trip), then SELECT; two processes then read the same epoch.
``fleet PATH --name NAME --steps K --ttl SECONDS --log FILE``
    A stress-test worker: claim the next task, run its steps with heartbeats, save each step
    fenced, and append every accepted save to ``FILE``; exit when every task is terminal.
"""

from __future__ import annotations

import json
import os
import random
import time
from pathlib import Path

from simlab.errors import LeaseHeld, TerminalTask
from simlab.ledger.connect import connect
from simlab.ledger.protocol import TaskLedger
from simlab.records import TERMINAL_STATUSES

__all__ = ["resume_one_step", "resume", "race", "fleet"]


def _emit(**fields) -> None:
    print(json.dumps(fields, sort_keys=True), flush=True)


def resume_one_step(
    ledger: TaskLedger, task_id: str, worker: str, ttl: float = 30.0, evidence: str = "doc-1@v3"
) -> dict:
    """Claim ``task_id`` and run exactly one step of the chapter's two-step task.

    Step 0 -> 1 persists the retrieved ``evidence``; step 1 -> 2 answers from that persisted
    evidence and completes the task. Returns what happened as a plain dict (claim refusals
    included).
    """
    try:
        lease = ledger.claim(task_id, worker, ttl)
    except (TerminalTask, LeaseHeld) as exc:
        return {"event": "claim-refused", "worker": worker, "task": task_id, "reason": str(exc)}
    out = {
        "event": "claim",
        "worker": worker,
        "task": task_id,
        "epoch": lease.epoch,
        "step": lease.step,
    }
    if lease.step == 0:
        saved = ledger.save(lease, 1, checkpoint={"evidence": [evidence]})
        out.update(saved_step=1, accepted=saved)
        if saved:
            ledger.release(lease)  # this process stops here; the next one resumes at step 1
    else:
        cited = (lease.checkpoint or {}).get("evidence", [])
        answer = f"answer citing {', '.join(cited)}"
        saved = ledger.save(lease, 2, result=answer, checkpoint=lease.checkpoint, done=True)
        out.update(saved_step=2, accepted=saved)
    record = ledger.get(task_id)
    out.update(status=record.status, stored_step=record.step)
    return out


def resume(path: str, task: str, worker: str | None = None) -> int:
    """The chapter's worker: one step of ``task``, then print what happened as JSON."""
    with connect(path) as ledger:
        _emit(**resume_one_step(ledger, task, worker or f"pid-{os.getpid()}"))
    return 0


def _wait_for_peers(folder: str, parties: int, worker: str, timeout: float = 120.0) -> None:
    """A file barrier: start racing only once all ``parties`` processes are up, so a slow
    start-up on a loaded machine cannot serialise the race away."""
    Path(folder, worker).touch()
    deadline = time.monotonic() + timeout
    while len(os.listdir(folder)) < parties and time.monotonic() < deadline:
        time.sleep(0.001)


def race(
    path: str,
    task: str,
    *,
    claims: int = 50,
    gap: float = 0.002,
    chapter: bool = False,
    barrier: str | None = None,
    parties: int = 1,
) -> int:
    """Claim ``task`` ``claims`` times, printing every epoch this process believes it owns."""
    worker = f"pid-{os.getpid()}"
    ttl = 1e-9  # expires at once, so every claim is allowed and only atomicity is on trial
    with connect(path, chapter=True) as ledger:
        if barrier:
            _wait_for_peers(barrier, parties, worker)
        for _ in range(claims):
            if chapter:
                ledger.claim_update_only(task, worker, ttl)
                time.sleep(gap)  # the round trip between the UPDATE and the SELECT
                lease = ledger.read_claim(task, worker)
            else:
                try:
                    lease = ledger.claim(task, worker, ttl)
                except LeaseHeld:  # another process's clock read ran a hair ahead of ours
                    continue
                time.sleep(gap)
            _emit(worker=worker, epoch=lease.epoch)
    return 0


def fleet(
    path: str,
    *,
    name: str,
    log: str,
    steps: int = 3,
    ttl: float = 0.5,
    work: float = 0.01,
    seed: int = 0,
) -> int:
    """A stress-test worker: claim, step with heartbeats, save fenced, log each accepted save."""
    rng = random.Random(seed)
    with connect(path) as ledger, open(log, "a", buffering=1) as log:
        while True:
            lease = ledger.claim_next(name, ttl)
            if lease is None:
                if set(ledger.counts()) <= TERMINAL_STATUSES:
                    return 0
                time.sleep(ttl / 4)  # leases of killed workers still have to run out
                continue
            step = lease.step
            chain = list((lease.checkpoint or {}).get("chain", []))
            while step < steps:
                time.sleep(rng.uniform(0, work))
                if not ledger.heartbeat(lease, ttl):
                    break
                time.sleep(rng.uniform(0, work))
                step += 1
                chain.append([step, lease.epoch, name])
                done = step == steps
                if not ledger.save(
                    lease,
                    step,
                    checkpoint={"chain": chain},
                    done=done,
                    result=name if done else None,
                ):
                    break
                log.write(json.dumps([lease.task_id, step, lease.epoch, name, done]) + "\n")
