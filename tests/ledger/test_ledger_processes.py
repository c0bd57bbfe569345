"""The ledger across real OS processes: the chapter's story, its exercise, the race, and a
fleet of workers SIGKILLed at random while they claim, heartbeat and save on one WAL file."""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import time
from collections import Counter

import pytest

from simlab.ledger import Ledger
from simlab.ledger.demo import chapter_story, claim_race


def _resume(path, worker: str) -> dict:
    out = subprocess.run(
        [sys.executable, "-m", "simlab.cli.worker", "resume", str(path), "j1", "--worker", worker],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    (event,) = [json.loads(line) for line in out.splitlines()]
    return event


def test_does_the_second_process_resume_from_step_1_instead_of_starting_over(tmp_path):
    events = chapter_story(tmp_path / "jobs.sqlite", say=lambda _: None)
    first, second, final_j1, stale, cancelled, final_cancel = events
    assert (first["step"], first["epoch"], first["accepted"]) == (0, 1, True)
    assert (second["step"], second["epoch"], second["accepted"]) == (1, 2, True)
    assert (final_j1["status"], final_j1["step"]) == ("completed", 2)
    assert final_j1["result"] == "answer citing doc-1@v3"
    assert stale["accepted"] is False and stale["current"] > stale["epoch"]
    assert cancelled["accepted"] is False
    assert (final_cancel["status"], final_cancel["result"]) == ("cancelled", None)


def test_is_the_resume_worker_refused_after_j1_is_cancelled_between_processes(tmp_path):
    """The chapter's first exercise, with real processes."""
    path = tmp_path / "jobs.sqlite"
    with Ledger(path) as ledger:
        ledger.submit("j1")
    first = _resume(path, "process-1")
    assert first["accepted"] and first["stored_step"] == 1
    with Ledger(path) as ledger:
        assert ledger.cancel("j1")
    second = _resume(path, "process-2")
    assert second["event"] == "claim-refused" and "cancelled" in second["reason"]
    with Ledger(path) as ledger:
        record = ledger.get("j1")
    assert (record.status, record.step, record.result) == ("cancelled", 1, None)


def test_do_two_processes_using_the_chapter_claim_believe_they_own_the_same_epoch(tmp_path):
    outcome = claim_race(tmp_path / "race.sqlite", processes=4, claims=100, gap=0.003)
    assert outcome.claims == 400
    assert outcome.shared_epochs > 0


def test_does_the_atomic_claim_give_every_claimer_its_own_epoch(tmp_path):
    outcome = claim_race(
        tmp_path / "race.sqlite", processes=4, claims=100, gap=0.003, chapter=False
    )
    assert outcome.claims > 0
    assert outcome.shared_epochs == 0


@pytest.mark.timeout(300)
def test_does_a_fleet_killed_at_random_still_complete_every_task_exactly_once(tmp_path):
    """At least 4 processes claim, heartbeat and save on one WAL file; the test SIGKILLs workers
    at random moments and starts replacements."""
    path = tmp_path / "fleet.sqlite"
    log = tmp_path / "accepted.log"
    tasks, steps, ttl = 60, 3, 0.4
    with Ledger(path) as ledger:
        for i in range(tasks):
            ledger.submit(f"t{i:03d}")
    rng = random.Random(20261202)
    procs: list[tuple[subprocess.Popen, object]] = []

    def start(n: int) -> None:
        err = open(tmp_path / f"w{n}.err", "w")
        cmd = [
            sys.executable,
            "-m",
            "simlab.cli.worker",
            "fleet",
            str(path),
            "--name",
            f"w{n}",
            "--steps",
            str(steps),
            "--ttl",
            str(ttl),
            "--work",
            "0.01",
            "--seed",
            str(n),
            "--log",
            str(log),
        ]
        procs.append((subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err), err))

    for n in range(4):
        start(n)
    # Kill lease holders only: a kill that lands while a worker is still starting up, or between
    # tasks, tests nothing (on a loaded machine that is most random moments).
    kills = 0
    deadline = time.monotonic() + 120
    with Ledger(path) as observer:
        while kills < 8 and time.monotonic() < deadline:
            time.sleep(rng.uniform(0.05, 0.25))
            if all(p.poll() is not None for p, _ in procs):
                break
            holders = sorted({t.worker for t in observer.tasks("running")})
            alive = {f"w{n}": p for n, (p, _) in enumerate(procs) if p.poll() is None}
            victims = [alive[w] for w in holders if w in alive]
            if not victims:
                continue
            rng.choice(victims).send_signal(signal.SIGKILL)
            kills += 1
            start(len(procs))
    for proc, err in procs:
        proc.wait(timeout=240)
        err.close()

    errors = {f.name: f.read_text() for f in tmp_path.glob("w*.err") if f.read_text().strip()}
    assert errors == {}, f"errors escaped workers: {errors}"
    assert {p.returncode for p, _ in procs} <= {0, -signal.SIGKILL}
    assert kills >= 3, "too few kills landed to test anything"

    accepted = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    per_step = Counter((task, step) for task, step, _, _, _ in accepted)
    assert max(per_step.values()) == 1, "a (task, step) commit was accepted twice"
    completions = Counter(task for task, _, _, _, done in accepted if done)
    assert max(completions.values()) == 1

    with Ledger(path) as ledger:
        records = ledger.tasks()
    assert all(r.status == "completed" and r.step == steps for r in records)
    for r in records:
        chain = r.checkpoint["chain"]
        assert [step for step, _, _ in chain] == list(range(1, steps + 1)), r
        epochs = [epoch for _, epoch, _ in chain]
        assert epochs == sorted(epochs) and epochs[-1] <= r.epoch
    assert any(r.epoch > 1 for r in records), "no task was ever re-claimed after a kill"
