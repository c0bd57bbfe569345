"""Question ``cancel-limits``: what a cancel can and cannot undo, measured on a ledger file.

The facts count only if the file shows the story really ran. Since the kit's ledger always gives the
same six facts, the learner's function is also played in five worlds drawn from the hidden world
(:func:`~simlab.grading.checks.fencing.worlds.limits_worlds`: ledgers whose cancel fences less,
leaves the lease live (a new claim, also the one after the requeue, raises ``LeaseHeld``) or rolls
the steps back, whose new claim of a cancelled task raises another error, whose requeued task starts
over at its next claim, that refuse side effects or that store a fenced save and side effect but
answer False, mailboxes that give the e-mail back at the cancel or already hold another task's, in a
drawn order); there each fact must be what the notebook's story gives on the same world
(:func:`~simlab.grading.checks.fencing.worlds.reference_facts`, played here). Every fact comes out
otherwise in one of them and as on the kit's ledger in another, so a fact typed in rather than
measured fails, an answer that tells a world from the kit's ledger cannot tell which world it is,
and a reading at a neighbouring moment or of a neighbouring quantity comes out otherwise than the
asked-for one in some world.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from simlab.errors import LedgerError
from simlab.grading.checks.fencing.messages import say
from simlab.grading.checks.fencing.play import played
from simlab.grading.checks.fencing.worlds import World, limits_worlds, reference_facts
from simlab.grading.checks.hidden_world import rng
from simlab.grading.questions import Fail, Tally, require
from simlab.grading.sandbox.supervisor import RemoteError
from simlab.grading.student import Student, kind_of

__all__ = ["cancel_limits", "LIMIT_FACTS", "dict_of", "read"]

LIMIT_FACTS = {
    "later_save_refused": True,
    "later_effect_refused": True,
    "new_claim_refused": True,
    "email_recalled": False,
    "step_rolled_back": False,
    "requeue_restarts_from_zero": False,
}


def cancel_limits(s: Student, t: Tally) -> None:
    explore = s.function("what_cancel_does")
    with s.folder() as folder:
        path = str(Path(folder) / "cancel.sqlite")
        facts: dict[str, Any] = {}
        evidence: list[str] = []
        worlds = _Worlds(s, path, limits_worlds(rng("fencing/cancel-limits")))
        t.under("fenced-after-cancel")

        @t.part
        def the_story_ran():
            facts.update(dict_of(explore(path), "what_cancel_does()"))
            record = read(s, path, "t1")
            require(
                record is not None,
                say("no_task_story", task="'t1'"),
            )
            keys = [e.key for e in read(s, path, "t1", effects=True) or []]
            require("t1:email" in keys, say("no_email_effect"))
            require(record.step >= 1, say("step_never_committed"))
            require(record.epoch >= 2, say("never_cancelled"))
            evidence.append("ok")

        def fact(*names: str) -> None:
            require(evidence, say("guesses"))
            for name in names:
                value = facts.get(name)
                require(
                    isinstance(value, bool),
                    say("fact_kind", name=repr(name), kind=kind_of(value)),
                )
                require(value is LIMIT_FACTS[name], say(name))
            worlds.agree(names)

        t.part(lambda: fact("later_save_refused"))
        t.part(lambda: fact("later_effect_refused", "new_claim_refused"))
        t.under("what-stays")
        t.part(lambda: fact("email_recalled"))
        t.part(lambda: fact("step_rolled_back", "requeue_restarts_from_zero"))


class _Worlds:
    """The learner's facts in each drawn world, each played once (on the path the kit's play
    had: the world's files are the grader's), and the facts the story gives there."""

    def __init__(self, s: Student, path: str, worlds: list[World]):
        self.s = s
        self.path = path
        self.worlds = worlds
        self.played: dict[int, Any] = {}
        self.wanted: dict[int, dict[str, bool]] = {}

    def agree(self, names: tuple[str, ...]) -> None:
        for n, world in enumerate(self.worlds):
            if n not in self.played:
                self.played[n] = self._play(world)
            answer = self.played[n]
            if isinstance(answer, BaseException):
                raise answer
            want = self.wanted.setdefault(n, reference_facts(world))
            for name in names:
                require(answer.get(name) is want[name], say("world_fact", name=repr(name)))

    def _play(self, world: World) -> Any:
        with played(self.s, "what_cancel_does", self.path, world) as (outcome, _):
            if isinstance(outcome, RemoteError):
                return outcome
            try:
                return dict_of(outcome, "what_cancel_does()")
            except Fail as exc:  # not a dict: told in every part that needs it
                return exc


def dict_of(value: Any, who: str) -> dict:
    require(isinstance(value, dict), say("not_a_dict", who=who, kind=kind_of(value)))
    return value


def read(s: Student, path: str, task_id: str, *, effects: bool = False) -> Any:
    """The task (or its effects) as stored in the ledger file the student's code wrote at
    ``path``, read from a private copy; None when there is no such file or task."""
    with s.read_ledger(path) as ledger:
        if ledger is None:
            return None
        try:
            return ledger.effects(task_id) if effects else ledger.get(task_id)
        except LedgerError:
            return None
