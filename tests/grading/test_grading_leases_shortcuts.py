"""The shortcuts the checks of exercise ``leases`` take judge as the long way would.

* The worker loop's inputs are played on in-memory ledgers, with the trouble done on the same
  connection: that leaves what a ledger file with the trouble done through another connection
  (as another process would) leaves.
* The explorer's pieces are remembered: a call seen before (the same piece, arguments and
  database) is answered as it was, without asking again.
* A generated sequence without a claim is not played: no piece is called in it, so nothing can
  differ (played the long way with wrong pieces, it finds nothing).
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from simlab.grading.checks.hidden_world import judged_in
from simlab.grading.checks.leases import loops
from simlab.grading.checks.leases.driving import Clock
from simlab.grading.checks.leases.world import world_of
from simlab.grading.lending import grader_folder
from simlab.ledger import Ledger

_STARTS = (
    ("fresh",),
    ("completed",),
    ("cancelled",),
    ("held",),
    ("released", 2, "step 0"),
    ("expired", 1, "step 3"),
    ("expired", 2, "output"),
)
_TROUBLES = (None,) + tuple(
    itertools.product(("work", "save", "claim"), (0, 1, 2), ("cancel", "steal"))
)


def _on_file(plays, folder: Path, loop, steps: int, start: tuple, trouble: tuple | None):
    """What the loop gives on a ledger file, the trouble through another connection."""
    world = plays.world
    task = world.tasks[0]
    path = str(folder / f"loop-{len(list(folder.iterdir()))}.sqlite")
    with Ledger(path, clock=lambda: world.start - 1.0) as ledger:
        loops._setup(start, task, world.tasks[1], world.workers[2])(ledger)
    clock = Clock(world.start + (100.0 if start[0] == "expired" else 0.0))
    script = {} if trouble is None or trouble[0] != "work" else {trouble[1]: trouble[2]}
    after = {} if trouble is None or trouble[0] != "save" else {trouble[1]: trouble[2]}
    claimed = None if trouble is None or trouble[0] != "claim" else trouble[2]
    log: list = []
    work = loops._LoggedWork(path, task, script, clock, world.work_output, world.thief, log=log)
    with loops._LoggedLedger(path, after, clock, world.thief, claimed, log=log) as ledger:
        answer = loop(ledger, work)
        return answer, list(work.calls), ledger.get(task), log, list(ledger.ttls)


def _loop(world, steps: int, skip_heartbeat: bool = False):
    """The exercise's loop, or one that skips the heartbeat before the first step."""
    task, worker, ttl = world.tasks[0], world.workers[0], world.ttls[0]
    if not skip_heartbeat:
        return lambda ledger, work: loops._reference(ledger, task, worker, work, steps, ttl)

    def loop(ledger, work):
        try:
            lease = ledger.claim(task, worker, ttl)
        except Exception:
            return "refused"
        for step in range(lease.step, steps):
            if step > lease.step and not ledger.heartbeat(lease, ttl):
                return "lost"
            output = work(step)
            done = step + 1 == steps
            checkpoint = {"output": output}
            result = output if done else None
            if not ledger.save(lease, step + 1, checkpoint=checkpoint, done=done, result=result):
                return "lost"
        return "completed"

    return loop


def test_does_a_loop_leave_in_memory_what_it_leaves_on_a_file():
    with judged_in(20261206):
        world = world_of("worker-loop")
    plays = loops.LoopPlays(None, world)
    with grader_folder(prefix="simlab-test-loop-") as folder:
        for steps, start, trouble in itertools.product((3,), _STARTS, _TROUBLES):
            start, trouble = loops._folded(steps, start, trouble)
            for skip in (False, True):
                loop = _loop(world, steps, skip)
                assert plays._run(loop, steps, start, trouble) == _on_file(
                    plays, Path(folder), loop, steps, start, trouble
                ), (steps, start, trouble, skip)


def test_does_a_remembered_piece_answer_a_call_it_saw_as_it_did_without_calling_again():
    from simlab.errors import LeaseHeld, TerminalTask
    from simlab.grading.checks.leases.driving import _Remembered
    from simlab.learn.pieces import PiecesLedger

    calls = []

    def claim(db, task_id, worker, ttl, now):
        calls.append((task_id, worker, now))
        return Ledger.claim(ledger, task_id, worker, ttl)

    clock = Clock(5.0)
    remembered = _Remembered()
    ledger = remembered.ledger = PiecesLedger(clock=clock, claim=remembered.wrap(claim))
    ledger.submit("t1")
    first = ledger.claim("t1", "A", 10.0)
    after = ledger.tasks()
    ledger.clear()
    ledger.submit("t1")
    assert ledger.claim("t1", "A", 10.0) == first and ledger.tasks() == after
    assert len(calls) == 1  # the same call in the same state: answered from memory
    ledger.clear()
    ledger.submit("t1")
    ledger.cancel("t1")
    with pytest.raises(TerminalTask):  # the same call in another state: asked again
        ledger.claim("t1", "A", 10.0)
    assert len(calls) == 2
    ledger.clear()
    ledger.submit("t1")
    ledger.claim("t1", "A", 10.0)
    calls.clear()
    clock.now = 6.0  # another now: another call
    for _ in range(2):
        with pytest.raises(LeaseHeld):
            ledger.claim("t1", "B", 10.0)
    assert len(calls) == 1  # the error was remembered too
    ledger.submit("t2")  # another state: another call
    ledger.claim("t2", "A", 10.0)
    assert len(calls) == 2
    ledger.db.execute("BEGIN")
    with pytest.raises(LeaseHeld):
        ledger.claim("t2", "A", 10.0)
    assert len(calls) == 3  # inside a transaction: always asked
    ledger.db.rollback()


def test_does_a_remembered_send_step_make_the_same_moves_without_being_called_again():
    from simlab.grading.checks.leases.driving import _Remembered
    from simlab.learn.pieces import PiecesLedger
    from simlab.sim.sending import watched

    calls = []

    def send_step(ledger, lease, step, mailbox):
        calls.append(step)
        key = f"{lease.task_id}:{step}"
        if ledger.record_effect(lease, key):
            mailbox.send(key)

    clock = Clock(5.0)
    remembered = _Remembered()
    ledger = remembered.ledger = PiecesLedger(clock=clock)
    send = remembered.sender(watched(send_step))(ledger, clock)
    ledger.submit("t1")
    lease = ledger.claim("t1", "A", 10.0)
    moves = send(lease, 0)
    assert moves == [("effect", "t1:0", True, 1), ("send", "t1:0")]
    after = ledger.all_effects()
    assert send(lease, 0) == [("effect", "t1:0", False, 1)]  # another state: called again
    assert len(calls) == 2
    ledger.clear()
    ledger.submit("t1")
    lease = ledger.claim("t1", "A", 10.0)
    assert send(lease, 0) == moves and ledger.all_effects() == after
    assert len(calls) == 2  # the same call in the same state: the same moves, from memory


class _LocalPieces:
    """The learner's side of :class:`~simlab.grading.checks.leases.operations.Plays` without a
    sandbox: ledgers with wrong pieces written here (a claim that takes a live lease, a heartbeat
    and a record_effect that always say yes)."""

    def ledger(self, *, clock, **pieces):
        from simlab.grading.student import CheckedLedger
        from simlab.learn.pieces import PiecesLedger
        from simlab.records import Lease

        def claim(db, task_id, worker, ttl, now):
            db.execute(
                "UPDATE tasks SET status = 'running', worker = ?, epoch = epoch + 1,"
                " attempts = attempts + 1, lease_until = ?, updated_at = ? WHERE task_id = ?",
                (worker, now + ttl, now, task_id),
            )
            row = Ledger.get(ledger, task_id)
            return Lease(task_id, worker, row.epoch, row.step, row.lease_until)

        wrong = {"claim": claim, "heartbeat": lambda *_: True, "record_effect": lambda *_: True}
        ledger = PiecesLedger(clock=clock, **{role: wrong[role] for role in pieces})
        return CheckedLedger(ledger)


@pytest.mark.parametrize("question", ["atomic-claim", "idempotent-send"])
def test_is_a_sequence_without_a_claim_one_in_which_no_piece_differs(question):
    from simlab.grading.checks.leases import claim, effects, operations
    from simlab.grading.properties import _search

    kinds, first, pieces = (
        (claim.CLAIM_MOVES, claim.CLAIM_STORIES, {"claim": "claim", "heartbeat": "heartbeat"})
        if question == "atomic-claim"
        else (effects.EFFECT_MOVES, effects.EFFECT_STORIES, {"record_effect": "record_effect"})
    )
    with judged_in(20261206):
        world = world_of(question)
    drawn: list = []
    _search(operations.sequences(kinds), lambda v, _: drawn.append(v), 40, 0, list(first))
    plays = operations.Plays(_LocalPieces(), world, **pieces)
    try:
        found = {True: 0, False: 0}
        for moves in drawn:
            claims = any(move[0] == "claim" for move in moves)
            played = operations._Run(plays).run(moves)  # the long way, never skipped
            assert claims or not played.verdicts, moves
            found[claims] += bool(played.verdicts)
            if not claims:
                assert plays.play(moves).verdicts == []
        assert found[True] > 0  # the wrong pieces differ wherever a claim hands out a lease
    finally:
        plays.close()
