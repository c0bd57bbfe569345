"""Question ``cancel-after-claim``: the learner's ``cancel`` and ``requeue`` on the chapter's
dict, with the kit's ``claim`` and ``commit`` run here on the state they return.

The hand-picked stories come first (the experiment of the chapter and its edge cases), each
on a state drawn from the hidden world (:class:`_World`: an epoch, earlier claims, a status
the notebook never shows), so epochs typed in from the notebook's example fail. Beside
them, one property per criterion plays generated sequences of claim, commit, cancel and
requeue, the learner's two functions beside the reference state machine of this module
(:func:`reference_cancel`, :func:`reference_requeue`):

* the fence (core): a cancel of a live task bumps the epoch by one, every claim after it gets
  an epoch no lease or cancel had before, and no epoch issued before a cancel commits after it;
* requeue: only a cancelled task goes back to ``queued`` (True), with its epoch and result as
  they were and no key added or removed; any other status: False and nothing changed;
* terminal: a completed or cancelled task is not cancelled again (False, nothing changed), and
  a cancel changes only the status and the epoch (no key added or removed).

A claim here is the ledger's: a completed or cancelled task is never claimed (the move is told
as a refused claim), so a sequence stays a schedule a real ledger could run.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from simlab.grading.checks.fencing.messages import say
from simlab.grading.checks.hidden_world import rng
from simlab.grading.messages import Message
from simlab.grading.properties import Story, falsify, st
from simlab.grading.questions import Fail, Tally, require
from simlab.grading.student import Student, kind_of, shown_value
from simlab.props.dict_experiment import claim, commit, new_state

__all__ = ["cancel_after_claim", "reference_cancel", "reference_requeue", "MOVES"]

#: Generated inputs per property: each move of a sequence is one call into the sandbox at most.
EXAMPLES = 25

_LIVE = ("queued", "running")
_TERMINAL = ("completed", "cancelled")
#: The statuses the text names: the only strings of the learner's feedback quotes here.
_STATUSES = (*_LIVE, *_TERMINAL)


def reference_cancel(state: dict) -> bool:
    """The exercise's ``cancel``: a queued or running task becomes cancelled with its epoch
    bumped; anything else is left alone (False)."""
    if state["status"] not in _LIVE:
        return False
    state.update(status="cancelled", epoch=state["epoch"] + 1)
    return True


def reference_requeue(state: dict) -> bool:
    """The exercise's ``requeue``: a cancelled task goes back to queued, keeping its epoch."""
    if state["status"] != "cancelled":
        return False
    state["status"] = "queued"
    return True


def _state_after(fn: Any, state: dict) -> tuple[Any, dict]:
    """Call a state-changing student function; return (its result, the state after it)."""
    result, args = fn.echo(state)
    after = args[0] if args else None
    require(
        isinstance(after, dict),
        say("replaced_state", fn=fn.__name__, kind=kind_of(after)),
    )
    return result, after


@dataclass
class _World:
    """The states the hand-picked stories start from, drawn from the hidden world
    (:func:`~simlab.grading.checks.hidden_world.rng`): an epoch the notebook never shows (the
    notebook's task starts at 0), how many claims came before (none leaves the task
    ``queued``), the result a finished task holds, and a key of the world's own beside the
    text's three (:attr:`extra`: a drawn name and value). So an answer that sets the epoch the
    notebook's example prints, special-cases the ``self_check`` state, or rebuilds the dict
    from the three keys it knows, fails."""

    source: Any
    #: The key every state of this world carries beside epoch, status and result, and its value.
    extra: tuple[str, int] = ("", 0)

    def __post_init__(self) -> None:
        name = self.source.choice(("owner", "priority", "queue", "note", "tries", "tag"))
        self.extra = (f"{name}_{self.source.randint(2, 99)}", self.source.randint(0, 999))

    def fresh(self) -> dict:
        """A queued task whose epoch earlier claims and cancels already moved."""
        epoch = self.source.randint(2, 99)
        return {"epoch": epoch, "status": "queued", "result": None, self.extra[0]: self.extra[1]}

    def claimed(self, least: int = 1) -> tuple[dict, int]:
        """A task claimed ``least`` to 3 times (each a takeover); the state and the last
        epoch handed out (None when it was never claimed)."""
        state, epoch = self.fresh(), None
        for _ in range(self.source.randint(least, 3)):
            epoch = claim(state)
        return state, epoch

    def at(self, status: str) -> dict:
        """A task of ``status`` (a completed one holds a result)."""
        result = f"report-{self.source.randint(100, 999)}" if status == "completed" else None
        epoch = self.source.randint(2, 99)
        return {"epoch": epoch, "status": status, "result": result, self.extra[0]: self.extra[1]}


def cancel_after_claim(s: Student, t: Tally) -> None:
    cancel, requeue = s.function("cancel"), s.function("requeue")
    plays = _Plays(cancel, requeue)
    world = _World(rng("fencing/cancel-after-claim"))
    t.under("cancel-fences")

    @t.part
    def commit_fails_after_cancel():
        state, epoch = world.claimed()
        ok, state = _state_after(cancel, state)
        require(
            ok is True,
            say("returned", fn="cancel", status="running", got=shown_value(ok), want="True"),
        )
        require(
            not commit(state, epoch, "answer"),
            say("commit_after_cancel"),
        )
        require(state.get("result") is None, say("result_not_none"))

    @t.part
    def cancel_bumps_epoch():
        state, _ = world.claimed(least=0)
        before = dict(state)
        ok, state = _state_after(cancel, state)
        require(
            ok is True,
            say("returned", fn="cancel", status=before["status"], got=shown_value(ok), want="True"),
        )
        require(
            state.get("status") == "cancelled",
            say("cancel_status", got=shown_value(state.get("status"), known=_STATUSES)),
        )
        require(
            state.get("epoch") == before["epoch"] + 1,
            say("cancel_bumps"),
        )

    @t.part
    def old_epoch_stays_fenced():
        state, old = world.claimed()
        _, state = _state_after(cancel, state)
        _, state = _state_after(requeue, state)
        claim(state)
        require(
            not commit(state, old, "stale"),
            say("stale_commits_again"),
        )

    t.part(lambda: falsify(MOVES, plays.fenced, examples=EXAMPLES, first=_FIRST))

    t.under("requeue")

    @t.part
    def requeue_then_new_epoch_commits_once():
        state, epoch = world.claimed()
        _, state = _state_after(cancel, state)
        ok, state = _state_after(requeue, state)
        require(
            ok is True,
            say("returned", fn="requeue", status="cancelled", got=shown_value(ok), want="True"),
        )
        require(
            state.get("status") == "queued",
            say("requeue_status", got=shown_value(state.get("status"), known=_STATUSES)),
        )
        fresh = claim(state)
        require(fresh > epoch, say("no_higher_epoch"))
        require(commit(state, fresh, "answer"), say("new_commit_refused"))
        require(not commit(state, fresh, "again"), say("second_commit"))

    @t.part
    def requeue_keeps_every_key():
        state = world.at("cancelled")
        _, after = _state_after(requeue, dict(state))
        require(set(after) == set(state), say("other_keys", fn="requeue", status="cancelled"))

    _refusals(t, cancel, requeue, world)
    t.under("terminal")

    @t.part
    def cancel_adds_no_key():
        state, _ = world.claimed(least=0)
        status, want = state["status"], dict(state)
        reference_cancel(want)
        _, after = _state_after(cancel, state)
        require(set(after) == set(want), say("other_keys", fn="cancel", status=status))

    t.under("requeue")
    t.part(lambda: falsify(MOVES, plays.requeues, examples=EXAMPLES, first=_FIRST))
    t.under("terminal")
    t.part(lambda: falsify(MOVES, plays.terminal, examples=EXAMPLES, first=_FIRST))


def _refusals(t: Tally, cancel: Any, requeue: Any, world: _World) -> None:
    """cancel refuses finished tasks, requeue anything but a cancelled one."""
    t.under("terminal")

    @t.part
    def cancel_refuses_terminal_tasks():
        _refuses("cancel", cancel, world, _TERMINAL)

    t.under("requeue")

    @t.part
    def requeue_only_cancelled():
        _refuses("requeue", requeue, world, ("queued", "running", "completed"))


def _refuses(fn: str, call: Any, world: _World, statuses: tuple[str, ...]) -> None:
    """The student's ``fn`` (``call``) returns False on a task in each of ``statuses`` and
    leaves its state as it was."""
    for status in statuses:
        state = world.at(status)
        before = dict(state)
        ok, after = _state_after(call, state)
        require(
            ok is False,
            say("returned", fn=fn, status=status, got=shown_value(ok), want="False"),
        )
        require(after == before, say("changed", fn=fn, status=status))


# ------------------------------------------------------------------ the generated sequences ---

#: One sequence: moves ``("claim",)``, ``("commit", k)`` (the k-th epoch handed out so far,
#: from the newest back), ``("cancel",)`` and ``("requeue",)``.
MOVES = st.lists(
    st.one_of(
        st.just(("claim",)),
        st.tuples(st.just("commit"), st.integers(0, 3)),
        st.just(("cancel",)),
        st.just(("requeue",)),
    ),
    min_size=1,
    max_size=9,
)

#: Played before the generated ones: the chapter's story with a second round after it.
_FIRST = [
    [("claim",), ("cancel",), ("requeue",), ("claim",), ("commit", 1), ("commit", 0)],
    [("claim",), ("commit", 0), ("cancel",), ("requeue",), ("claim",), ("cancel",)],
]


@dataclass
class _Step:
    """One move as played: what the learner's function returned and the states around it."""

    move: str
    before: dict
    after: dict
    returned: Any = None
    epoch: Any = None  # the epoch a claim got, or a commit used
    accepted: bool = False  # a commit that published
    #: What the reference state machine holds, hands out or uses at this move of the same
    #: sequence (told by the story): the values feedback may show of this move. The learner's
    #: state may carry a value its code computed from a hidden state it saw before.
    known: tuple = ()


@dataclass
class _Plays:
    """Plays sequences on the learner's functions (one call per cancel or requeue), each once:
    the three properties judge the same plays."""

    cancel: Any
    requeue: Any
    seen: dict[tuple, list[_Step]] = field(default_factory=dict)

    def play(self, moves: list[tuple]) -> list[_Step]:
        key = tuple(moves)
        if key not in self.seen:
            self.seen[key] = self._play(moves)
        return self.seen[key]

    def _play(self, moves: list[tuple]) -> list[_Step]:
        state, handed, steps = new_state(), [], []
        reference = _Reference()
        for move in moves:
            before = dict(state)
            known = reference.move(move)
            if move[0] in ("cancel", "requeue"):
                fn = self.cancel if move[0] == "cancel" else self.requeue
                returned, state = _state_after(fn, state)
                steps.append(_Step(move[0], before, dict(state), returned, known=known))
            elif move[0] == "claim":
                if state.get("status") in _TERMINAL or not isinstance(state.get("epoch"), int):
                    steps.append(_Step("claim refused", before, dict(state), known=known))
                    continue
                epoch = claim(state)
                handed.append(epoch)
                steps.append(_Step("claim", before, dict(state), epoch=epoch, known=known))
            elif handed:
                epoch = handed[-1 - move[1] % len(handed)]
                accepted = _commit(state, epoch)
                steps.append(
                    _Step(
                        "commit", before, dict(state), epoch=epoch, accepted=accepted, known=known
                    )
                )
        return steps

    def fenced(self, moves: list[tuple], story: Story) -> None:
        """The fence: a cancel bumps the epoch by one, a claim after it gets an epoch never
        seen before, and no epoch from before a cancel commits after it."""
        highest, fenced_up_to = 0, 0
        for step in self.play(moves):
            story.add(_told(step))
            if step.move == "cancel" and step.before.get("status") in _LIVE:
                require(
                    step.after.get("epoch") == step.before["epoch"] + 1
                    and step.after.get("status") == "cancelled",
                    say("cancel_must_bump", status=step.before["status"]),
                )
                fenced_up_to = step.after["epoch"]
            elif step.move == "claim":
                require(
                    step.epoch > highest,
                    say(
                        "claim_reused_cancel"
                        if step.epoch <= fenced_up_to
                        else "claim_reused_lease",
                        epoch=shown_value(step.epoch, known=step.known),
                    ),
                )
            elif step.move == "commit":
                require(
                    not (step.accepted and step.epoch <= fenced_up_to),
                    say("stale_accepted", epoch=shown_value(step.epoch, known=step.known)),
                )
            highest = max(highest, _epoch(step.after), step.epoch or 0)

    def requeues(self, moves: list[tuple], story: Story) -> None:
        """requeue beside :func:`reference_requeue` on the state it was given."""
        for step in self.play(moves):
            story.add(_told(step))
            if step.move == "requeue":
                _as_reference("requeue", step, reference_requeue)

    def terminal(self, moves: list[tuple], story: Story) -> None:
        """cancel of a completed or cancelled task beside :func:`reference_cancel`."""
        for step in self.play(moves):
            story.add(_told(step))
            if step.move == "cancel" and step.before.get("status") in _TERMINAL:
                _as_reference("cancel", step, reference_cancel)


@dataclass
class _Reference:
    """The sequence played on the reference state machine beside the learner's functions, from
    the same public start (:func:`~simlab.props.dict_experiment.new_state`)."""

    state: dict = field(default_factory=new_state)
    handed: list[int] = field(default_factory=list)

    def move(self, move: tuple) -> tuple:
        """Play ``move``; the values it holds, hands out or uses (with the text's statuses)."""
        used: tuple = ()
        if move[0] == "cancel":
            reference_cancel(self.state)
        elif move[0] == "requeue":
            reference_requeue(self.state)
        elif move[0] == "claim" and self.state["status"] not in _TERMINAL:
            self.handed.append(claim(self.state))
        elif move[0] == "commit" and self.handed:
            used = (self.handed[-1 - move[1] % len(self.handed)],)
            commit(self.state, used[0], "answer")
        return (*_STATUSES, *used, *self.handed, *self.state.values())


def _commit(state: dict, epoch: int) -> bool:
    try:
        return commit(state, epoch, "answer")
    except (KeyError, TypeError):  # the learner's functions left a state commit cannot read
        raise Fail(say("state_lost")) from None


def _epoch(state: dict) -> int:
    epoch = state.get("epoch")
    return epoch if isinstance(epoch, int) and not isinstance(epoch, bool) else 0


def _as_reference(name: str, step: _Step, reference: Any) -> None:
    """The learner's ``name`` returned and left what ``reference`` does on the same state."""
    want = dict(step.before)
    ok = reference(want)
    status = step.before.get("status")
    if status not in (*_LIVE, *_TERMINAL):
        status = "odd"  # a status the learner's own function set: never quoted
    require(
        step.returned is ok,
        say("returned", fn=name, status=status, got=shown_value(step.returned), want=str(ok)),
    )
    if ok:
        require(set(step.after) == set(want), say("other_keys", fn=name, status=status))
        for key in ("epoch", "status", "result"):
            require(
                step.after.get(key) == want[key],
                say(
                    "left_epoch" if (name, key) == ("requeue", "epoch") else "left_at",
                    fn=name,
                    status=status,
                    key=key,
                    got=shown_value(step.after.get(key), known=step.known),
                    want=shown_value(want[key], known=step.known),
                ),
            )
    else:
        require(step.after == step.before, say("changed", fn=name, status=status))


def _told(step: _Step) -> Message:
    """One move of the story, as a learner reads it."""
    if step.move == "claim":
        return say("move_claim", epoch=shown_value(step.epoch, known=step.known))
    if step.move == "commit":
        verdict = "accepted" if step.accepted else "refused"
        return say(f"move_commit_{verdict}", epoch=shown_value(step.epoch, known=step.known))
    return say({"claim refused": "move_claim_refused"}.get(step.move, f"move_{step.move}"))
