"""Ledgers built otherwise for exercise ``fencing``: the hidden worlds its ledger questions are
judged in, so that what a cancel stops is something the answer must measure.

On the kit's ledger the facts of the notebook never change, so an answer could play the story and
type them in, or take them from a worker's report. The checks therefore also play the learner's
function in a :class:`World` drawn at grading time
(:func:`~simlab.grading.checks.hidden_world.rng`): a ledger whose cancel fences less (saves, side
effects or new claims of a cancelled task go through, or a cancelled task is leased while it stays
cancelled), whose cancel and requeue leave the lease live (a new claim meets it: ``LeaseHeld``),
rolls the steps back, whose requeued task starts over at its next claim, that refuses every side
effect, or that stores a fenced save and side effect but answers False, a mailbox that loses its
mail or gives it back at the cancel (read before the cancel, it is still there) or that already
holds another task's e-mail, a worker whose refusal gives no reason, and the evidence the chapter's
worker retrieves. Each world differs in several ways at once, so a reading at a neighbouring moment
or of a neighbouring quantity (the stored step instead of a new claim's, a step other than 1 instead
of one below 1, the mailbox's total instead of the e-mail's key, a send whatever ``record_effect``
said, any exception of the new claim instead of ``TerminalTask``) comes out otherwise than the
asked-for one in some world, and every fact of the story comes out otherwise in one of the worlds a
submission is judged in.

The world lives here, in the grader, where the jail sees nothing. For the learner's call the
sandbox changes the kit's ``Ledger`` and ``Mailbox`` classes in place and has ``run_worker``
run the world's worker (:mod:`simlab.grading.factories`, ``"lent-world"``), so the answer meets
the world however it reaches those names; every use is a callback to one
:class:`~simlab.grading.checks.fencing.play.Play` lent for that call, which runs it on the
world's ledger files in a private folder. So an answer that tells a world from the kit's ledger
(the class's methods are not the kit's) learns nothing of which world it is in.

:func:`reference_facts` plays the notebook's story on a world here: what the learner's facts
must be there.
"""

from __future__ import annotations

import random
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from simlab.errors import LeaseHeld, LedgerError, TerminalTask, UnknownTask
from simlab.grading.checks.fencing.broken import (
    BACK_TO_QUEUE,
    CANCEL_LEAVES_LEASE,
    FROM_ZERO,
    RECORD_ANY_EPOCH,
    REQUEUE_LEAVES_LEASE,
    RESULT_ANY_STATUS,
    SAVE_ANY_EPOCH,
)
from simlab.ledger.arguments import check_claim, check_name, to_json
from simlab.ledger.sqlite.ledger import Ledger as KitLedger
from simlab.records import CANCELLED, QUEUED, RUNNING, Lease
from simlab.sim.mailbox import Mailbox as KitMailbox

__all__ = [
    "World",
    "WorldLedger",
    "WorldMailbox",
    "Late",
    "FACTS",
    "KIT",
    "limits_worlds",
    "first_step_worlds",
    "reference_facts",
]

#: The six facts of the notebook's ``cancel-limits`` story, in its table's order.
FACTS = (
    "later_save_refused",
    "later_effect_refused",
    "new_claim_refused",
    "email_recalled",
    "step_rolled_back",
    "requeue_restarts_from_zero",
)

#: The evidence the kit's worker retrieves (``simlab.props.processes.resume_one_step``).
KIT_EVIDENCE = "doc-1@v3"


@dataclass(frozen=True)
class World:
    """One ledger built otherwise (every field False: the kit's ledger)."""

    #: A save of a lease a cancel fenced lands all the same (stored, True) when it advances the
    #: stored step; one that does not advance it is refused.
    unfenced_save: bool = False
    #: A side effect of a lease a cancel fenced lands.
    unfenced_effect: bool = False
    #: A cancelled task can be claimed again, and requeue takes a running task back too.
    claimable: bool = False
    #: A claim of a cancelled task grants a lease and leaves the task cancelled (so the
    #: lease's saves are refused); ``claimable`` comes first.
    leasable: bool = False
    #: A cancel and a requeue leave the lease to run out, and a claim of a cancelled or
    #: requeued task whose lease is still live raises ``LeaseHeld`` (naming its holder) instead
    #: of ``TerminalTask`` or a lease; ``claimable`` and ``leasable`` come first.
    held: bool = False
    #: The cancel reaches the ledger this long after the latest claim the file granted (the
    #: world's clock moves on to that instant at the cancel, however little wall time passed;
    #: 0: at once): a lease shorter than that, unlike the story's ttl of 60, has run out by
    #: the cancel, and one of 60 has not, however slowly the story ran below 60 s.
    late_cancel: float = 0.0
    #: A claim of a cancelled task raises the ledger's error of this name (a key of
    #: :data:`OTHER_REFUSALS`: neither ``TerminalTask`` nor ``LeaseHeld``; "" none);
    #: ``claimable``, ``leasable`` and ``held`` come first.
    other_refusal: str = ""
    #: The mailbox loses every e-mail.
    lost_mail: bool = False
    #: A cancel recalls every e-mail the mailboxes hold (a provider that can unsend): the
    #: e-mail is there until the cancel, gone after it (its key counting 0).
    recall_mail: bool = False
    #: A cancel rolls the task's steps back to 0.
    rollback: bool = False
    #: A requeued task starts over at its next claim: the requeue leaves the stored step, the
    #: claim after it gets a lease at step 0 and stores step 0.
    restart: bool = False
    #: A requeue that puts the task back answers False all the same (the row's "whatever it
    #: returns": the new claim, not the answer, tells whether the task starts over).
    quiet_requeue: bool = False
    #: ``record_effect`` refuses every side effect (False, nothing recorded).
    effects_refused: bool = False
    #: The key of another task's e-mail every mailbox already holds ("" none): the outside
    #: world is shared, and a recall leaves that e-mail where it is.
    other_mail: str = ""
    #: The worker's report of a refused claim gives no reason (its ``event`` still says it).
    terse_refusals: bool = False
    #: A worker's release is lost: the task stays ``running`` under its lease until the lease
    #: runs out (the release still answers True).
    lost_release: bool = False
    #: A cancel leaves the task's status and epoch as they were (it answers True, and still
    #: rolls the steps back in a world with ``rollback``): a claim refused after it is no
    #: sign that the task is ``cancelled``.
    lost_cancel: bool = False
    #: A save of a fenced lease that lands (``unfenced_save``) stores its result too.
    unfenced_result: bool = False
    #: A save or a side effect of a lease a cancel fenced is stored all the same (the save
    #: when it advances the stored step) but answered False, as a ledger that checks its fence
    #: after writing: the stored step and the recorded keys are no sign of the answer.
    stored_refusals: bool = False
    #: What the chapter's worker retrieves at step 0 (and cites in its answer at step 1).
    evidence: str = KIT_EVIDENCE


#: The kit's own ledger and mailbox.
KIT = World()

#: What a claim of a cancelled task raises in a world with ``other_refusal``: name -> the
#: ledger's error for the task (each crosses into the sandbox as the kit's own type).
OTHER_REFUSALS: dict[str, Callable[[str], LedgerError]] = {
    "UnknownTask": UnknownTask,
    "LedgerError": lambda task_id: LedgerError(f"task {task_id!r} is archived"),
}


def _evidence(source: random.Random) -> str:
    return f"doc-{source.randint(2, 97)}@v{source.randint(4, 9)}"


def _other_mail(source: random.Random) -> str:
    return f"t{source.randint(2, 97)}:{source.choice(('receipt', 'welcome', 'invoice'))}"


def limits_worlds(source: random.Random) -> list[World]:
    """The five worlds ``cancel-limits`` is judged in, in a drawn order, each mailbox holding
    another task's e-mail (drawn):

    * one that fences less and moves the step: the stale save of step 2 lands, a requeued task
      starts over at its next claim though its requeue answers False, the cancel takes the
      e-mail back (so the stored step after the story is 2, not 1 and not below 1; the stored
      step after the requeue is not the new claim's; the new claim starts at 0 whatever the
      requeue said; the save of step 1 is refused where the save of step 2 lands; the mailbox
      read before the cancel still holds the e-mail);
    * one whose ``record_effect`` refuses every side effect, its mailbox keeping its mail (the
      story sends nothing, so an e-mail sent whatever ``record_effect`` said is still there);
    * one with the kit's mail (a drawn one of these two rolls the steps back at the cancel);
    * the kit's ledger and mail, but the cancel and the requeue leave ``w1``'s lease live, so
      the new claim raises ``LeaseHeld`` (a refusal counted from any exception rather than from
      ``TerminalTask`` is wrong there), and so does the claim after the requeue (the row's
      "False when that claim raises"); its cancel comes a drawn 25 to 40 time units after the
      claim, so a story whose claim asked for a shorter ttl than the text's 60 meets a lease
      run out (``TerminalTask``) instead;
    * the kit's ledger and mail, but the new claim of the cancelled task raises another of the
      ledger's errors (:data:`OTHER_REFUSALS`, drawn): a refusal counted from any exception
      but ``LeaseHeld`` is wrong there (a world of its own, so that a new claim meets
      ``TerminalTask`` in some world of every draw); its fenced save and side effect are
      stored all the same but answered False, so a refusal read from the stored step or the
      recorded keys rather than from the call's answer is wrong there.

    The cancel of the first recalls the e-mail by bringing its key's count to 0, the key kept:
    "holds no e-mail" read as "the key is absent" is wrong there.

    A side effect of a fenced lease lands in a drawn one of the first and third; a cancelled
    task can be claimed again in a drawn one of the first three and leased while it stays
    cancelled in a drawn one of them. So every fact of the story differs from the kit's in one
    of them and is the kit's in another: an answer that cannot tell them apart without
    measuring gives a wrong fact in one of them, or on the kit's ledger. No world both rolls the
    steps back and lets the stale save land, so the stored step reads the same before and
    after that save."""
    fences_less = World(unfenced_save=True, restart=True, recall_mail=True, quiet_requeue=True)
    worlds = [fences_less, World(effects_refused=True), World()]
    rolls = source.choice((1, 2))
    worlds[rolls] = replace(worlds[rolls], rollback=True)
    effect = source.choice((0, 2))
    worlds[effect] = replace(worlds[effect], unfenced_effect=True)
    for way in ("claimable", "leasable"):
        n = source.randrange(3)
        worlds[n] = replace(worlds[n], **{way: True})
    worlds.append(World(held=True, late_cancel=round(source.uniform(25.0, 40.0), 1)))
    worlds.append(World(other_refusal=source.choice(sorted(OTHER_REFUSALS)), stored_refusals=True))
    worlds = [
        replace(w, other_mail=_other_mail(source), evidence=_evidence(source)) for w in worlds
    ]
    source.shuffle(worlds)
    return worlds


def first_step_worlds(source: random.Random) -> list[World]:
    """The three worlds ``cancel-after-first-step`` is judged in, in a drawn order: one whose
    cancelled task can be claimed again (the resume worker completes it: a step, a status and a
    result no typed-in answer has), one whose worker's release is lost and whose cancel only
    rolls the steps back (the resume claim refused, with no reason given, by the first
    worker's live lease: the step no worker's report has, the status still ``running``, so a
    refusal is not the status), and one whose cancelled task can be leased but stays
    cancelled, the save of that lease landing with its result (the resume claim granted, the
    status still ``cancelled``, a result published on the cancelled task: neither the claim's
    refusal nor the status tells the result); each worker retrieves drawn evidence, the other
    ways drawn too."""
    extra = {
        way: source.random() < 0.3 for way in ("unfenced_save", "unfenced_effect", "lost_mail")
    }
    worlds = [
        World(claimable=True, evidence=_evidence(source), **extra),
        World(
            rollback=True,
            terse_refusals=True,
            lost_release=True,
            lost_cancel=True,
            evidence=_evidence(source),
        ),
        World(leasable=True, unfenced_save=True, unfenced_result=True, evidence=_evidence(source)),
    ]
    source.shuffle(worlds)
    return worlds


# ------------------------------------------------------------------------ the world's ledger --


@dataclass
class Late:
    """A world's clock, shared by every ledger on one file: how far it runs ahead of the wall
    clock (a late cancel moves it on), and its time of the latest claim granted (None before
    one)."""

    ahead: float = 0.0
    claimed: float | None = None


class WorldLedger(KitLedger):
    """The kit's SQLite ledger with the ways of ``world`` (a :class:`World`) replaced; the
    same file format, so the kit's ledger reads what it wrote. ``restarting`` holds the tasks
    requeued in a world that starts them over at their next claim, ``late`` the world's
    :class:`Late` clock; each is shared by every ledger on the same file."""

    def __init__(
        self,
        path: str,
        world: World,
        on_cancel: Callable[[], None] | None = None,
        restarting: set[str] | None = None,
        late: Late | None = None,
    ):
        self.late = Late() if late is None else late
        super().__init__(path, clock=self._now)
        self.world = world
        self.on_cancel = on_cancel
        self.restarting = set() if restarting is None else restarting

    def save(self, lease: Any, step: int, *, result=None, checkpoint=None, done=False) -> bool:
        if super().save(lease, step, result=result, checkpoint=checkpoint, done=done):
            return True
        lands = self.world.unfenced_save or self.world.stored_refusals
        if not lands or not isinstance(step, int):
            return False
        params = {"now": float(self.clock()), "task_id": lease.task_id, "step": step}
        if self._count(SAVE_ANY_EPOCH, params) != 1 or not self.world.unfenced_save:
            return False
        if self.world.unfenced_result and result is not None:
            # The result lands on the task whatever its status: published on a cancelled task.
            params = {
                "task_id": lease.task_id,
                "result": to_json(result, "result", self.max_value_bytes),
            }
            self._count(RESULT_ANY_STATUS, params)
        return True

    def release(self, lease: Any) -> bool:
        if self.world.lost_release:
            return True
        return super().release(lease)

    def record_effect(self, lease: Any, key: str) -> bool:
        if self.world.effects_refused:
            return False
        if super().record_effect(lease, key):
            return True
        if not (self.world.unfenced_effect or self.world.stored_refusals):
            return False
        landed = self._count(RECORD_ANY_EPOCH, self._effect_params(lease, key)) == 1
        return landed and self.world.unfenced_effect

    def claim(self, task_id: str, worker: str, ttl: float) -> Any:
        if self.world.claimable:
            self._back_to_queue(task_id, CANCELLED)
        elif self.world.leasable:
            check_claim(task_id, worker, ttl)
            record = self.get(task_id)
            if record.status == CANCELLED:
                until = float(self.clock()) + float(ttl)
                return Lease(task_id, worker, record.epoch, record.step, until, record.checkpoint)
        elif self.world.held:
            check_claim(task_id, worker, ttl)
            record = self.get(task_id)
            live = record.lease_until is not None and record.lease_until > float(self.clock())
            if record.status in (CANCELLED, QUEUED) and live:
                raise LeaseHeld(task_id, record.worker, record.lease_until)
        elif self.world.other_refusal:
            check_claim(task_id, worker, ttl)
            if self.get(task_id).status == CANCELLED:
                raise OTHER_REFUSALS[self.world.other_refusal](task_id)
        lease = super().claim(task_id, worker, ttl)
        self.late.claimed = float(self.clock())
        if task_id in self.restarting:
            self.restarting.discard(task_id)
            self._from_zero(task_id)
            lease = replace(lease, step=0, checkpoint=None)
        return lease

    def _now(self) -> float:
        return time.time() + self.late.ahead

    def cancel(self, task_id: str) -> bool:
        if self.world.late_cancel:
            claimed, now = self.late.claimed, float(self.clock())
            due = (now if claimed is None else claimed) + self.world.late_cancel
            self.late.ahead += max(0.0, due - now)
        if self.world.held:
            done = self._leaving_the_lease(task_id, CANCEL_LEAVES_LEASE)
        elif self.world.lost_cancel:
            done = True
        else:
            done = super().cancel(task_id)
        if done and self.world.rollback:
            self._from_zero(task_id)
        if done and self.world.recall_mail and self.on_cancel is not None:
            self.on_cancel()
        return done

    def requeue(self, task_id: str) -> bool:
        if self.world.held:
            return self._leaving_the_lease(task_id, REQUEUE_LEAVES_LEASE)
        done = super().requeue(task_id) or (
            self.world.claimable and self._back_to_queue(task_id, RUNNING)
        )
        if done and self.world.rollback:
            self._from_zero(task_id)
        elif done and self.world.restart:
            self.restarting.add(task_id)
        return done and not self.world.quiet_requeue

    def _leaving_the_lease(self, task_id: str, sql: str) -> bool:
        """The kit's cancel or requeue as ``sql`` writes it, the lease left as it was."""
        check_name(task_id, "task_id")
        params = {"now": float(self.clock()), "task_id": task_id}
        return self._write_one(task_id, sql, params)

    def _back_to_queue(self, task_id: str, status: str) -> bool:
        params = {"now": float(self.clock()), "task_id": task_id, "status": status}
        return self._count(BACK_TO_QUEUE, params) == 1

    def _from_zero(self, task_id: str) -> None:
        self._count(FROM_ZERO, {"task_id": task_id})


class WorldMailbox(KitMailbox):
    """The kit's mailbox, or (``lost``) one that loses every e-mail; it already holds one
    e-mail of key ``other`` (another task's) unless that is empty."""

    __slots__ = ("lost", "other")

    def __init__(self, lost: bool, other: str = ""):
        super().__init__()
        self.lost = lost
        self.other = other
        if other:
            super().send(other)

    def send(self, key: str) -> None:
        if not self.lost:
            super().send(key)

    def recall(self) -> None:
        """Every e-mail sent to it is recalled: its key counts 0 in ``received`` (the key
        kept, as a provider that unsends still lists it) and it is gone from ``sent``; the
        other task's e-mail it held from the start stays."""
        for key in [k for k in self.received if k != self.other]:
            self.sent -= self.received[key]
            self.received[key] = 0

    @property
    def duplicates(self) -> int:
        """E-mails beyond the first for their key (a key counting 0 holds none)."""
        return self.sent - sum(1 for count in self.received.values() if count)


# ------------------------------------------------------------------------ the story's facts ---


def reference_facts(world: World) -> dict[str, bool]:
    """The notebook's ``cancel-limits`` story played on ``world``'s ledger and mailbox here."""
    mailbox = WorldMailbox(world.lost_mail, world.other_mail)
    with tempfile.TemporaryDirectory() as folder:
        with WorldLedger(str(Path(folder) / "story.sqlite"), world, mailbox.recall) as ledger:
            ledger.submit("t1")
            lease = ledger.claim("t1", "w1", 60)
            ledger.save(lease, 1)
            if ledger.record_effect(lease, "t1:email"):
                mailbox.send("t1:email")
            ledger.cancel("t1")
            facts = {
                "later_save_refused": ledger.save(lease, 2) is False,
                "later_effect_refused": ledger.record_effect(lease, "t1:again") is False,
            }
            try:
                ledger.claim("t1", "w2", 60)
                facts["new_claim_refused"] = False
            except TerminalTask:
                facts["new_claim_refused"] = True
            except Exception:  # anything else, LeaseHeld included, as the row says
                facts["new_claim_refused"] = False
            facts["email_recalled"] = mailbox.received.get("t1:email", 0) == 0
            facts["step_rolled_back"] = ledger.get("t1").step < 1
            ledger.requeue("t1")
            try:
                facts["requeue_restarts_from_zero"] = ledger.claim("t1", "w3", 60).step == 0
            except (LeaseHeld, TerminalTask):  # no new claim starts: False, as the row says
                facts["requeue_restarts_from_zero"] = False
    return facts
