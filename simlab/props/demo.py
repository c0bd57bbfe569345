"""The chapter's story across real processes, and the claim race it leaves open.

``simlab demo`` runs :func:`chapter_story` (two worker processes resume one task over a shared
ledger; a stale commit and a cancellation are refused) and :func:`claim_race` (the chapter's
two-statement claim against simlab's atomic one, in real processes). Both return plain records,
so tests and notebooks check them without parsing printed text. Both take anything
:func:`simlab.ledger.connect` opens: a new SQLite file, or a ``postgresql://`` URL naming an
empty ledger.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from simlab.ledger.connect import connect, redact

__all__ = ["chapter_story", "claim_race", "RaceOutcome"]


def _worker_cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "simlab.props.worker", *args]


def _run_worker(*args: str) -> list[dict]:
    proc = subprocess.run(_worker_cmd(*args), capture_output=True, text=True, timeout=120)
    if proc.returncode != 0:
        raise RuntimeError(f"worker process failed ({proc.returncode}): {proc.stderr.strip()}")
    return [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]


def chapter_story(path: str | Path, *, say: Callable[[str], None] = print) -> list[dict]:
    """Run the chapter's ledger story on a new ledger at ``path`` and return its events.

    1. Submit ``j1``. Process 1 claims it (epoch 1), retrieves evidence, saves step 1, exits.
    2. Process 2 claims it (epoch 2), resumes from step 1 (not 0), saves step 2, completes.
    3. Task ``cancel``: claim twice (epochs 1, 2); the stale epoch-1 commit is refused. Cancel
       bumps the epoch to 3, so the epoch-2 commit is refused as well.
    """
    path = str(path)
    events: list[dict] = []

    def note(event: dict, text: str) -> None:
        events.append(event)
        say(text)

    with connect(path) as ledger:
        ledger.submit("j1", goal="answer from evidence")
        say(f"submitted j1 to {redact(path)}: status=queued step=0 epoch=0")
    for n in (1, 2):
        (event,) = _run_worker("resume", path, "j1", "--worker", f"process-{n}")
        if event["event"] == "claim-refused":
            note(event, f"process {n}: claim refused: {event['reason']}")
            continue
        note(
            event,
            f"process {n}: claimed j1 at step {event['step']} with epoch {event['epoch']}; "
            f"save step {event['saved_step']} {'accepted' if event['accepted'] else 'REFUSED'}; "
            f"now status={event['status']} step={event['stored_step']}",
        )
    with connect(path) as ledger:
        record = ledger.get("j1")
        note(
            {
                "event": "final",
                "task": "j1",
                "status": record.status,
                "step": record.step,
                "result": record.result,
            },
            f"j1 is {record.status} at step {record.step}: {record.result!r}",
        )
        ledger.submit("cancel")
        old = ledger.claim("cancel", "worker-old", 1e-9)  # its lease expires at once
        new = ledger.claim("cancel", "worker-new", 30)
        accepted = ledger.save(old, 1, result="stale")
        note(
            {"event": "stale-save", "epoch": old.epoch, "current": new.epoch, "accepted": accepted},
            f"stale worker (epoch {old.epoch}) tries to save after epoch {new.epoch} was "
            f"granted: {'accepted (BUG!)' if accepted else 'refused'}",
        )
        ledger.cancel("cancel")
        epoch = ledger.get("cancel").epoch
        accepted = ledger.save(new, 1, result="late")
        note(
            {"event": "cancelled-save", "epoch": new.epoch, "current": epoch, "accepted": accepted},
            f"cancel bumps the epoch to {epoch}; worker with epoch {new.epoch} tries to save: "
            f"{'accepted (BUG!)' if accepted else 'refused'}",
        )
        record = ledger.get("cancel")
        note(
            {
                "event": "final",
                "task": "cancel",
                "status": record.status,
                "step": record.step,
                "result": record.result,
            },
            f"task 'cancel' is {record.status} at step {record.step}, result {record.result!r}",
        )
    return events


@dataclass(frozen=True)
class RaceOutcome:
    """What a claim race produced: claims tried (``attempts``), claims granted (``claims``:
    the epochs the processes printed), and how many epochs had more than one owner.

    The chapter's claim never refuses (its ``UPDATE`` checks no lease), so every attempt is
    granted. The atomic claim refuses a few with ``LeaseHeld``: each lease lasts 1e-9 s, and a
    process whose clock reading was taken just before another process's claim committed sees
    that new lease as still live.
    """

    chapter: bool
    claims: int
    shared_epochs: int
    attempts: int

    @property
    def refused(self) -> int:
        """Attempts that got no lease (``LeaseHeld``)."""
        return self.attempts - self.claims

    def __str__(self) -> str:
        kind = "chapter's two-statement claim" if self.chapter else "atomic UPDATE ... RETURNING"
        return (
            f"{kind}: {self.claims} of {self.attempts} claims granted, {self.shared_epochs} "
            f"epochs believed owned by more than one process"
        )


def claim_race(
    path: str | Path,
    *,
    processes: int = 4,
    claims: int = 40,
    gap: float = 0.002,
    chapter: bool = True,
) -> RaceOutcome:
    """Let ``processes`` real processes claim one task ``claims`` times each, all at once.

    Every lease expires at once, so every claim is allowed; the only question is whether each
    claimer learns a distinct epoch. With ``chapter=True`` (UPDATE, a round trip of ``gap``
    seconds, then SELECT) several processes read the same epoch; with the atomic claim none do.
    """
    path = str(path)
    with connect(path) as ledger:
        ledger.submit("race")
    barrier = tempfile.mkdtemp(prefix="simlab-race-")
    args = [
        "race",
        path,
        "race",
        "--claims",
        str(claims),
        "--gap",
        str(gap),
        "--barrier",
        barrier,
        "--parties",
        str(processes),
    ]
    if chapter:
        args.append("--chapter")
    procs = [
        subprocess.Popen(
            _worker_cmd(*args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        for _ in range(processes)
    ]
    owners: Counter[int] = Counter()
    total = 0
    for proc in procs:
        out, err = proc.communicate(timeout=300)
        if proc.returncode != 0:
            raise RuntimeError(f"race worker failed ({proc.returncode}): {err.strip()}")
        seen = {json.loads(line)["epoch"] for line in out.splitlines() if line.strip()}
        total += sum(1 for line in out.splitlines() if line.strip())
        owners.update(seen)
    shutil.rmtree(barrier, ignore_errors=True)
    shared = sum(1 for n in owners.values() if n > 1)
    return RaceOutcome(chapter, total, shared, processes * claims)
