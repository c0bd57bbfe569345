"""The fault kinds: one record per kind, from which everything that names a fault is derived.

A :class:`FaultKind` says, for one kind of fault, everything the kit knows about it:

* its **name**, the one spelling a schedule, a flag, a sweep and a story use (``claim-pause``);
  its random stream is the name with ``_`` for ``-`` (``claim_pause``), its ``Scenario`` knob
  the stream with ``_rate`` (``claim_pause_rate``);
* its **strike point**: the question the simulator asks where it may strike (:data:`POINTS`);
* its **fields**, in the order a schedule writes them: where it strikes (``task``, ``step``,
  ``attempt``, ``claim``, ``enqueue``, ``doc``, ``at``) and what it does (``fraction``,
  ``length``, ``factor``), each checked by :data:`FIELDS`;
* what it **needs** of a scenario to strike (an e-mail, idempotency keys, a workload);
* its **rate** (default, help, what it is drawn per) and what a random strike **draws** from its
  stream;
* how a story **tells** it (:func:`describe`), the history **event** that shows it and the
  **mark** the timeline draws on that event (an artist's gid);
* what the explorer **tries** at its strike point (:mod:`simlab.sim.explore`).

:mod:`simlab.sim.schedule`, :mod:`simlab.sim.nemesis`, :mod:`simlab.sim.scenario`,
:mod:`simlab.sim.story`, :mod:`simlab.sim.explore`, the sweep and the command line read
:data:`KINDS`; adding a kind is a record here and the code of its strike point (where the
worker, the broker or the client asks the nemesis).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, cached_property
from typing import TYPE_CHECKING, Any

from simlab.sim.fault_fields import (
    CALLS,
    EFFECT_FIELDS,
    FIELDS,
    LATE_CALLS,
    NEEDS,
    check_field,
)

if TYPE_CHECKING:
    from simlab.checker.history import Event

#: A :class:`simlab.sim.scenario.Scenario` (not imported: the scenario reads this registry).
Scenario = Any

__all__ = [
    "FaultKind",
    "KINDS",
    "POINTS",
    "FIELDS",
    "NEEDS",
    "CRASH_FRACTION",
    "kinds_at",
    "pause_at",
    "describe",
    "shows",
    "check_field",
    "CRASH",
    "SLOW",
    "DUPLICATE",
    "DOC_CHANGE",
    "LOST_REPLY",
    "LATE_CALL",
    "EDGE_CLAIM",
    "EDGE",
    "CALLS",
    "LATE_CALLS",
]

#: Where a crash strikes in a step's work when the explorer tries one (a fraction of it).
CRASH_FRACTION = 0.5
#: How far from a lease's end the ``edge-claim`` fault's claims land: 2**-16 time units, a
#: power of two, so ``end - EDGE`` and ``end + EDGE`` are exact floats for every end below 2**36;
#: the checker judges such a claim while its time is below 15000 (its tolerance on times,
#: relative 1e-9, stays under EDGE there).
EDGE = 2.0**-16

#: The strike points: each question the simulator asks the nemesis, and when it asks it. A
#: pause's history event names its point as ``where`` (``save`` is left out of the event).
POINTS: dict[str, str] = {
    "step": "a step attempt starts its work",
    "work": "as the step's work begins, after the step question",
    "effect": "right before the step's e-mail is recorded and sent",
    "record": "right after ``record_effect`` recorded the step's e-mail key",
    "send": "between recording the step's e-mail key and sending it",
    "sent": "right after the step's e-mail left, before its save",
    "save": "before the step's save",
    "claim": "between the two statements of a two-statement claim",
    "enqueue": "the broker enqueues a task (published or redelivered)",
    "arrival": "a task arrives: a user acts on it later",
    "edit": "the editor process (agent workload)",
    "reply": "a call's answer is on its way back to its caller (the client's submit, a user's "
    "cancel, a worker's heartbeat, e-mail record, save or release), after the ledger acted on it",
    "held": "a worker sends an e-mail record, a heartbeat or a save, before the ledger sees it",
    "silent": "a pause just struck a worker holding a lease (any pause but a claim's)",
}


# --- the record ------------------------------------------------------------------------------


@dataclass(frozen=True)
class FaultKind:
    """One kind of fault (see the module docstring for what each part is for).

    ``draw(rng, scenario)`` gives the fields a random strike fills in besides where it struck
    (a kind struck at a time, ``point="arrival"``, gives ``{"after": delay}`` instead: the time
    from the task's arrival, or from its strike of the kind it ``follows``, to the strike);
    ``tries(scenario, lengths)`` the ones the explorer tries at each strike point (``lengths``:
    its pause lengths in time units; None: the explorer places the kind itself, or not at all).
    ``event(e)`` says whether history event ``e`` is of the kind that shows such a fault;
    :func:`shows` also matches where it struck.
    """

    name: str
    point: str
    fields: tuple[str, ...]
    default_rate: float
    per: str
    help: str
    does: str
    tell: Callable[[dict[str, Any]], str]
    event: Callable[[Event], bool]
    mark: str
    draw: Callable[[random.Random, Scenario], dict[str, Any]] | None = None
    tries: Callable[[Scenario, tuple[float, ...]], list[dict[str, Any]]] | None = None
    needs: tuple[str, ...] = ()
    adversarial: float | None = None
    #: the story's words for a pause event of this kind, before "step N of tK"
    paused: str | None = None
    #: a Poisson rate (events per time unit) rather than a probability
    poisson: bool = False
    #: a kind struck at a time: the kind whose strike on the same task this one's delay is
    #: counted from, when that kind struck it (it comes first in :data:`KINDS`), else from the
    #: task's arrival
    follows: str | None = None

    @cached_property  # read at every strike point of a run
    def stream(self) -> str:
        """The name of the kind's random stream."""
        return self.name.replace("-", "_")

    @cached_property
    def rate(self) -> str:
        """The ``Scenario`` field of its rate."""
        return self.stream + "_rate"

    @property
    def where(self) -> tuple[str, ...]:
        """The fields that say where it strikes, in the order written."""
        return tuple(f for f in self.fields if f not in EFFECT_FIELDS)

    @property
    def is_pause(self) -> bool:
        """Does it stop a worker for a ``length`` of time?"""
        return "length" in self.fields


def _num(x: float) -> str:
    return f"{round(float(x), 3):g}"


def _step(f: dict[str, Any]) -> str:
    again = f", attempt {f['attempt'] + 1}" if f["attempt"] else ""
    return f"step {f['step'] + 1} of {f['task']}{again}"


def _length(rng: random.Random, sc: Scenario) -> dict[str, float]:
    """A pause's length: ``ttl x U(0.5, 2 pause_time - 0.5)``, or exponential with mean
    ``pause_mean`` when that is set."""
    if sc.pause_mean is None:
        return {"length": sc.ttl * rng.uniform(0.5, 2.0 * sc.pause_time - 0.5)}
    return {"length": rng.expovariate(1.0 / sc.pause_mean)}  # absolute pauses


def _lengths(sc: Scenario, lengths: tuple[float, ...]) -> list[dict[str, Any]]:
    return [{"length": x} for x in lengths]


def _once(sc: Scenario, lengths: tuple[float, ...]) -> list[dict[str, Any]]:
    return [{}]


def _nothing(rng: random.Random, sc: Scenario) -> dict[str, Any]:
    return {}


def _crash_event(after_effect: bool, after_record: bool) -> Callable[[Event], bool]:
    def event(e: Event) -> bool:
        return (
            e.op == "crash"
            and bool(e.value.get("after_record")) == after_record
            and (after_record or bool(e.value.get("after_effect")) == after_effect)
        )

    return event


def _pause_event(point: str) -> Callable[[Event], bool]:
    def event(e: Event) -> bool:
        return e.op == "pause" and e.value.get("where", "save") == point

    return event


def _user_event(op: str) -> Callable[[Event], bool]:
    def event(e: Event) -> bool:
        return e.op == op and e.process == "user" and e.type != "invoke"

    return event


_STEP = ("task", "step", "attempt")


def _pause(name: str, point: str, *, default: float, per: str, help: str, does: str,
           tell: str | Callable[[dict[str, Any]], str], paused: str | None, adversarial: float,
           needs: tuple[str, ...] = (), fields: tuple[str, ...] = _STEP) -> FaultKind:  # fmt: skip
    """A pause kind: ``tell`` is a phrase with ``{length}`` and ``{where}`` (the step), or a
    function of the fault."""
    if isinstance(tell, str):
        phrase = tell
        tell = lambda f: phrase.format(length=_num(f["length"]), where=_step(f))  # noqa: E731
    return FaultKind(
        name=name,
        point=point,
        fields=(*fields, "length"),
        default_rate=default,
        per=per,
        help=help,
        does=does,
        tell=tell,
        event=_pause_event(point),
        mark="pause",
        draw=_length,
        tries=_lengths,
        needs=needs,
        adversarial=adversarial,
        paused=paused,
    )


def _claim_tell(f: dict[str, Any]) -> str:
    which = "first claim" if f["claim"] == 0 else f"claim {f['claim'] + 1}"
    return f"pause of {_num(f['length'])} between the statements of the {which} of {f['task']}"


CRASH = FaultKind(
    name="crash",
    point="step",
    fields=(*_STEP, "fraction"),
    default_rate=0.02,
    per="per step attempt",
    help="P(worker crashes during a step)",
    does="the worker dies ``fraction`` of the way through the work of that step attempt and "
    "restarts after ``restart_delay``",
    tell=lambda f: f"crash {round(100 * f['fraction'])}% into the work of {_step(f)}",
    event=_crash_event(after_effect=False, after_record=False),
    mark="crash",
    draw=lambda rng, sc: {"fraction": rng.random()},
    tries=lambda sc, lengths: [{"fraction": CRASH_FRACTION}],
    adversarial=0.04,
)
EFFECT_CRASH = FaultKind(
    name="effect-crash",
    point="sent",
    fields=_STEP,
    default_rate=0.1,
    per="per e-mail sent",
    help="P(worker crashes right after sending an e-mail, before the step's save)",
    does="the worker dies right after that step's e-mail left, before its save",
    tell=lambda f: f"crash right after the e-mail of {_step(f)}, before its save",
    event=_crash_event(after_effect=True, after_record=False),
    mark="crash",
    draw=_nothing,
    tries=_once,
    needs=("email",),
    adversarial=0.1,
)
RECORD_CRASH = FaultKind(
    name="record-crash",
    point="record",
    fields=_STEP,
    default_rate=0.0,
    per="per e-mail whose key was just recorded",
    help="P(worker crashes right after record_effect recorded an e-mail's key, before sending "
    "it): the e-mail is lost (at most once)",
    does="the worker dies right after ``record_effect`` recorded that step's e-mail key, "
    "before sending it (the e-mail is lost: ``Result.lost_emails``)",
    tell=lambda f: f"crash right after recording the e-mail key of {_step(f)}, before sending it",
    event=_crash_event(after_effect=False, after_record=True),
    mark="crash",
    draw=_nothing,
    tries=_once,
    needs=("email", "keys"),
    adversarial=0.05,
)
PAUSE = _pause(
    "pause",
    "save",
    default=0.05,
    per="per step attempt",
    help="P(stop-the-world pause after a step's work and e-mail, before its save)",
    does="a stop-the-world pause of ``length`` time units (mostly longer than the ttl) after "
    "the step's work and e-mail, before its save, with no heartbeat",
    tell="pause of {length} before saving {where}",
    paused="before saving",
    adversarial=0.1,
)
WORK_PAUSE = _pause(
    "work-pause",
    "work",
    default=0.0,
    per="per step attempt",
    help="P(stop-the-world pause as a step's work begins, before its next heartbeat): the "
    "worker wakes and heartbeats with the epoch it had",
    does="a pause as the step's work begins: the worker wakes and heartbeats with the epoch it "
    "had (a heartbeat must check the epoch)",
    tell="pause of {length} as the work of {where} begins",
    paused="as it starts",
    adversarial=0.1,
)
EFFECT_PAUSE = _pause(
    "effect-pause",
    "effect",
    default=0.0,
    per="per e-mail",
    help="P(stop-the-world pause right before a step's e-mail is recorded and sent): the "
    "worker wakes and records it with the epoch it had",
    does="a pause right before the step's e-mail is recorded and sent: the worker wakes and "
    "records it with the epoch it had (``record_effect`` must check the lease)",
    tell="pause of {length} right before the e-mail of {where}",
    paused="right before the e-mail of",
    needs=("email", "opaque"),
    adversarial=0.2,
)
SEND_PAUSE = _pause(
    "send-pause",
    "send",
    default=0.0,
    per="per e-mail whose key was just recorded",
    help="P(stop-the-world pause between record_effect and the send of an e-mail): the worker "
    "wakes and sends what its lease recorded",
    does="a pause between recording the step's e-mail key and sending it: the worker wakes and "
    "sends what its lease recorded (a successor's record must be refused)",
    tell="pause of {length} between recording and sending the e-mail of {where}",
    paused="between recording and sending the e-mail of",
    needs=("email", "keys", "opaque"),
    adversarial=0.1,
)
CLAIM_PAUSE = _pause(
    "claim-pause",
    "claim",
    default=0.0,
    per='per claim made of two statements (``variant="racy-claim"``)',
    help="P(pause between the two statements of a two-statement claim, variant racy-claim)",
    does="a pause between the two statements of the task's ``claim``-th claim (0: the first; "
    "two-statement claims only)",
    tell=_claim_tell,
    paused=None,
    adversarial=0.3,
    fields=("task", "claim"),
)
SLOW = FaultKind(
    name="slow",
    point="step",
    fields=(*_STEP, "factor"),
    default_rate=0.05,
    per="per step attempt",
    help="P(a step runs slow_factor times slower)",
    does="the step's work takes ``factor`` x longer",
    tell=lambda f: f"{_step(f)} runs {_num(f['factor'])}x slower",
    event=lambda e: e.op == "slow",
    mark="slow",
    draw=lambda rng, sc: {"factor": sc.slow_factor},
    tries=lambda sc, lengths: [{"factor": sc.slow_factor}],
    adversarial=0.1,
)
DUPLICATE = FaultKind(
    name="duplicate",
    point="enqueue",
    fields=("task", "enqueue"),
    default_rate=0.05,
    per="per enqueued message",
    help="P(the broker enqueues a message twice)",
    does="the broker enqueues a second copy the ``enqueue``-th time it enqueues the task (0: "
    "when it is published, then each redelivery)",
    tell=lambda f: (
        f"duplicate delivery of {f['task']} "
        + ("when published" if f["enqueue"] == 0 else f"at redelivery {f['enqueue']}")
    ),
    event=lambda e: e.op == "deliver" and bool(e.value.get("duplicate")),
    mark="deliver-dup",
    draw=_nothing,
    tries=_once,
    adversarial=0.2,
)
CANCEL = FaultKind(
    name="cancel",
    point="arrival",
    fields=("task", "at"),
    default_rate=0.03,
    per="per task",
    help="P(a user cancels a task at a random time)",
    does="a user cancels the task at time ``at`` (drawn: mean ``cancel_mean``, default ``steps "
    "x step_time``, after its arrival)",
    tell=lambda f: f"a user cancels {f['task']} at t={_num(f['at'])}",
    event=_user_event("cancel"),
    mark="cancel",
    draw=lambda rng, sc: {"after": rng.expovariate(1.0 / sc.cancel_after)},
    adversarial=0.3,
)
REQUEUE = FaultKind(
    name="requeue",
    point="arrival",
    fields=("task", "at"),
    default_rate=0.0,
    per="per task",
    help="P(a user requeues a task at a random time before the fault horizon: after its "
    "cancel when a user cancels it; the ledger accepts it only once the task was cancelled)",
    does="a user requeues the task at time ``at`` (drawn: mean twice the cancel's, after the "
    "task's cancel when a user cancels it, else after its arrival); the ledger accepts it only "
    "for a cancelled task, and the broker delivers it again",
    tell=lambda f: f"a user requeues {f['task']} at t={_num(f['at'])}",
    event=_user_event("requeue"),
    mark="requeue",
    draw=lambda rng, sc: {"after": rng.expovariate(0.5 / sc.cancel_after)},
    adversarial=0.6,
    # a user who cancelled a task brings it back later, whatever it had done by then; one who
    # never cancelled it asks the ledger to requeue a task that is queued, running or finished
    follows="cancel",
)


def _nth(f: dict[str, Any], what: str) -> str:
    """``the first pause``, ``pause 2``...: which of a task's ``what`` fault ``f`` names."""
    return f"the first {what}" if f["nth"] == 0 else f"{what} {f['nth'] + 1}"


def _lost_tell(f: dict[str, Any]) -> str:
    which = "first" if f["nth"] == 0 else f"call {f['nth'] + 1} of its"
    return f"the reply to the {which} {f['call']} of {f['task']} is lost, and the call resent"


LOST_REPLY = FaultKind(
    name="lost-reply",
    point="reply",
    fields=("task", "call", "nth"),
    default_rate=0.0,
    per="per call (submit, heartbeat, e-mail record, save, release, cancel; with retries)",
    help="P(a call's reply is lost after the ledger acted on it, and the caller resends the "
    "same call after its timeout); needs retries",
    does="the ledger acts on the task's ``nth`` call of kind ``call`` (``submit``, "
    "``heartbeat``, ``effect``, ``save``, ``release``, ``cancel``) and its answer is lost; "
    "after ``reply_timeout`` the caller resends the same call (a user resends a submit or an "
    "accepted cancel; a worker's "
    "heartbeat helper resends a heartbeat while the work goes on; a worker waits to resend a "
    "record or a save; a worker that gave a task back resends the release as it leaves) and "
    "reads a refused resend as the first call's success when the ledger shows it",
    tell=_lost_tell,
    event=lambda e: e.type != "invoke" and bool(e.value.get("lost")),
    mark="reply-lost",
    draw=_nothing,
    tries=_once,
    needs=("retries",),
    adversarial=0.3,
)


def _late_tell(f: dict[str, Any]) -> str:
    which = "first" if f["nth"] == 0 else f"call {f['nth'] + 1} of its"
    call = "e-mail record" if f["call"] == "effect" else f["call"]
    return (
        f"the network holds the {which} {call} of {f['task']}: it reaches the ledger "
        f"{_num(f['delay'])} after its worker gave the task back"
    )


def _late_delay(rng: random.Random, sc: Scenario) -> dict[str, float]:
    """How late a held call lands after its worker's release: exponential, mean the reply
    timeout (so most land before the broker delivers the task again)."""
    return {"delay": rng.expovariate(1.0 / sc.reply_timeout)}


LATE_CALL = FaultKind(
    name="late-call",
    point="held",
    fields=("task", "call", "nth", "delay"),
    default_rate=0.0,
    per="per e-mail record, heartbeat and save (with late)",
    help="P(the network holds a worker's e-mail record, heartbeat or save: the call times out, "
    "the worker gives the task back, and the call reaches the ledger later); needs late",
    does="the network holds the task's ``nth`` call of kind ``call`` (``effect``, "
    "``heartbeat``, ``save``); after ``reply_timeout`` without an answer the worker gives the "
    "task back (``release``) and leaves it, and the held call reaches the ledger ``delay`` "
    "later with the lease it was sent with (a correct ledger refuses it: the task is queued, "
    "or a newer lease holds it)",
    tell=_late_tell,
    event=lambda e: e.type != "invoke" and bool(e.value.get("late")),
    mark="held-call",
    draw=_late_delay,
    tries=lambda sc, lengths: [{"delay": sc.reply_timeout}],
    needs=("late",),
    adversarial=0.3,
)
EDGE_CLAIM = FaultKind(
    name="edge-claim",
    point="silent",
    fields=("task", "nth"),
    default_rate=0.0,
    per="per pause that strikes a worker holding a lease",
    help="P(a prober claims a paused worker's task just before and just after the end of its "
    "lease)",
    does="as the task's ``nth`` pause (0: the first) strikes its worker, a prober claims the "
    "task ``EDGE`` (2^-16) time units before the end of that worker's lease (its last claim or "
    "heartbeat plus the ttl: a correct ledger refuses) and as long after it (granted unless the "
    "lease was renewed or the task moved on); a prober granted a lease never commits, as a "
    "worker that crashed",
    tell=lambda f: (
        f"a prober claims {f['task']} 2^-16 before and 2^-16 after the end of its worker's "
        f"lease, as {_nth(f, 'pause')} of {f['task']} strikes"
    ),
    event=lambda e: e.op == "claim" and e.type != "invoke" and "edge" in e.value,
    mark="lease-edge",
    draw=_nothing,
    tries=_once,
    adversarial=0.3,
)
DOC_CHANGE = FaultKind(
    name="doc-change",
    point="edit",
    fields=("at", "doc"),
    default_rate=0.0,
    per="per time unit, a Poisson rate (agent workload)",
    help="agent workload: document edits per time unit (Poisson, until the fault horizon); "
    "each publishes a new version of a random document",
    does="agent workload: the editor publishes a new version of document ``doc``",
    tell=lambda f: f"the editor changes {f['doc']} at t={_num(f['at'])}",
    event=lambda e: e.op == "publish",
    mark="doc-edit",
    needs=("agent",),
    poisson=True,
)

#: Every fault kind by name, in the order schedules, flags and tables list them.
KINDS: dict[str, FaultKind] = {
    k.name: k
    for k in (
        CRASH,
        EFFECT_CRASH,
        RECORD_CRASH,
        PAUSE,
        WORK_PAUSE,
        EFFECT_PAUSE,
        SEND_PAUSE,
        CLAIM_PAUSE,
        SLOW,
        DUPLICATE,
        CANCEL,
        REQUEUE,
        LOST_REPLY,
        LATE_CALL,
        EDGE_CLAIM,
        DOC_CHANGE,
    )
}


@cache  # the registry never changes, and every question of a run asks
def kinds_at(point: str) -> tuple[FaultKind, ...]:
    """The kinds that strike at ``point``, in :data:`KINDS` order."""
    return tuple(k for k in KINDS.values() if k.point == point)


@cache
def pause_at(point: str) -> FaultKind:
    """The pause kind that strikes at ``point`` (one per point)."""
    (kind,) = (k for k in kinds_at(point) if k.is_pause)
    return kind


def describe(fault: dict[str, Any]) -> str:
    """A short phrase for one fault, e.g. ``pause of 4.5 before saving step 2 of t0010``."""
    return KINDS[fault["kind"]].tell(fault)


def shows(fault: dict[str, Any], e: Event) -> bool:
    """Is ``e`` the kind of event that shows ``fault``, where ``fault`` struck (its task, step
    and document)?"""
    if not KINDS[fault["kind"]].event(e):
        return False
    if "task" in fault and e.task != fault["task"]:
        return False
    if "step" in fault and e.step != fault["step"]:
        return False
    return "doc" not in fault or e.value.get("doc") == fault["doc"]
