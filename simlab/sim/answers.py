"""Where the simulator calls the ledger: a raise the contract does not allow is an answer.

The contract (:mod:`simlab.ledger.protocol`) says how each call answers, and which exceptions
are answers: a claim raises :class:`~simlab.errors.LeaseHeld` or
:class:`~simlab.errors.TerminalTask` (the simulator also reads
:class:`~simlab.errors.UnknownTask` as a refusal), a duplicate submit raises
:class:`~simlab.errors.LedgerError`. Every other exception a ledger raises (any from a call that
answers True/False or a value, from ``claim_next``, from a first submit, from a read) is not an
answer the contract allows, and a run must still end with a verdict.

:class:`Answering` wraps the ledger the workers, the client and the user call. A call that
raises what the contract allows, or answers, goes through untouched. A call that raises
anything else is recorded in the history as that call's answer, at the ledger clock's time:
an ``info`` event of the call's operation (``read`` for ``get``, ``tasks``, ``counts`` and
``effects``) whose value holds ``raised`` (the exception's type name), ``message`` and
``call`` (the method's name). It copies the process, task, epoch, step and values of the
call's ``invoke`` when that is the history's last event at this instant (as it is for every
call the simulator records an invoke of), else takes them from the call's arguments (a read's
process is then the one whose invoke it follows at this instant, else the ``client``). Then
:class:`Unanswered` is raised to the caller, who behaves as a real process does on an
unexpected error (see :mod:`simlab.sim.simulation`): a worker stops as if it crashed and
restarts after the restart delay; the client drops that submit and goes on with the next
arrival; a user's cancel or requeue, or a resent call, is given up. Rule (x) of the checker
judges each such answer. A call that :class:`~simlab.sim.timeup.TimeUp` interrupts (the time
limit's alarm rang inside it) has no answer: it goes on up, naming that call.

:class:`Unanswered` derives from ``BaseException``, so code between the simulator and the
ledger (a learner's ``send_step``, which may catch ``Exception``) hands it on. An exception
raised by the simulator's own code, outside a ledger call, is never caught here: a bug in the
kit still stops the run with its traceback. Nor is an exception of a class of the kit's own
outside :mod:`simlab.errors` (the ledger errors), even from within a ledger call: such a class
is the kit's signal, not a ledger's answer (an argument check's error about the simulator's own
call, the grader's word that a student's code raised or returned the wrong type, or that its
sandbox is gone), and its owner handles it as before; nor is ``NotImplementedError``, the word
of a piece not written yet (an exercise's stub).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from simlab.errors import LeaseHeld, LedgerError, TerminalTask, UnknownTask
from simlab.sim.timeup import TimeUp

__all__ = [
    "Answering",
    "Unanswered",
    "ALLOWED",
    "supervised",
    "record_claim",
    "kits_own",
    "returned",
    "read_after",
]

#: The refusals a claim may raise (``UnknownTask`` is the simulator's reading of a task it
#: never submitted).
_CLAIM_REFUSALS = (LeaseHeld, TerminalTask, UnknownTask)


def record_claim(
    history: Any, now: float, process: str, task: str, answer: Any, checkpoints: bool, **extra: Any
) -> None:
    """Record at ``now`` what a claim of ``task`` by ``process`` answered, with ``extra``
    values: a granted lease as an ``ok`` event (its epoch and step, ``lease_until``,
    ``attempts``, and with ``checkpoints`` the checkpoint it hands back; ``lease_worker`` and
    ``lease_task`` where the lease names another worker than ``process`` or another task than
    ``task``); a refusal (one of the
    claim's refusals) as a ``fail`` event with its ``reason``: ``lease-held`` and the
    ``holder`` it names, ``terminal`` and the task's ``status``, or ``unknown``."""
    rec = history.record
    if not isinstance(answer, BaseException):
        if checkpoints:
            extra["checkpoint"] = answer.checkpoint
        if answer.worker != process:  # a lease names its worker and task (rule (m))
            extra["lease_worker"] = answer.worker
        if answer.task_id != task:
            extra["lease_task"] = answer.task_id
        rec(now, "ok", process, "claim", task, answer.epoch, answer.step,
            lease_until=answer.lease_until, attempts=answer.attempts, **extra)  # fmt: skip
    elif isinstance(answer, LeaseHeld):
        rec(now, "fail", process, "claim", task, reason="lease-held", holder=answer.worker,
            **extra)  # fmt: skip
    elif isinstance(answer, TerminalTask):
        rec(now, "fail", process, "claim", task, reason="terminal", status=answer.status,
            **extra)  # fmt: skip
    else:
        rec(now, "fail", process, "claim", task, reason="unknown", **extra)


def returned(answer: Any, task: str) -> dict[str, Any]:
    """What a submit event of ``task`` records of the submit's ``answer``: nothing when it is
    the task's ID, else ``{"returned": answer}`` (rule (v): a submit returns its task's ID)."""
    return {} if answer == task else {"returned": answer}


#: Each ledger method the simulator calls -> (the history operation its answer is recorded as,
#: one of :data:`simlab.checker.raises.RAISED_OPS`; the exceptions the contract allows it
#: to raise). ``submit`` allows ``LedgerError`` only for
#: a task submitted before (see :meth:`Answering._submit`).
ALLOWED: dict[str, tuple[str, tuple[type[BaseException], ...]]] = {
    "submit": ("submit", ()),
    "claim": ("claim", _CLAIM_REFUSALS),
    "claim_update": ("claim", _CLAIM_REFUSALS),
    "claim_read": ("claim", _CLAIM_REFUSALS),
    "claim_next": ("claim-next", ()),
    "heartbeat": ("heartbeat", ()),
    "heartbeat_until": ("heartbeat", ()),
    "save": ("save", ()),
    "release": ("release", ()),
    "cancel": ("cancel", ()),
    "requeue": ("requeue", ()),
    "record_effect": ("effect", ()),
    "get": ("read", ()),
    "tasks": ("read", ()),
    "counts": ("read", ()),
    "effects": ("read", ()),
}

#: What a second submit of a task may raise.
_DUPLICATE = (LedgerError,)
#: Methods whose first argument is a lease.
_LEASED = frozenset({"heartbeat", "heartbeat_until", "save", "release", "record_effect"})


class Unanswered(BaseException):
    """A ledger call raised what the contract does not allow; its answer is recorded (see the
    module docstring). ``error`` is the ledger's exception."""

    def __init__(self, error: Exception):
        super().__init__(error)
        self.error = error


class Answering:
    """The ledger as the simulator calls it (see the module docstring). Every method of
    :data:`ALLOWED` the ledger has is guarded; any other attribute is the ledger's own.
    ``history`` and ``env`` are the run's: where and when a raise is recorded. The guards
    hold no reference to the wrapper, so a finished run leaves no cycle behind."""

    def __init__(self, ledger: Any, history: Any, env: Any):
        self.inner = ledger
        self._history, self._env = history, env
        for name, (_op, allowed) in ALLOWED.items():
            method = getattr(ledger, name, None)
            if method is not None:
                setattr(self, name, _guard(name, method, allowed, history, env))
        if hasattr(self, "submit"):
            self.submit = _submit(ledger.submit, history, env)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.__dict__["inner"], name)

    def guarded(self, name: str, method: Callable) -> Callable:
        """``method`` (a function that stands for the ledger method ``name``, such as a
        heartbeat read back at once) guarded as ``name`` is."""
        return _guard(name, method, ALLOWED[name][1], self._history, self._env)


def supervised(worker: Any):
    """``worker``'s process (a generator): its :meth:`~simlab.sim.worker.Worker.run`,
    restarted as after a crash when a ledger call raised what the contract does not allow (the
    raise is recorded as that call's answer; the lease it held is left to expire, its message
    to be redelivered)."""
    while True:
        try:
            yield from worker.run()
        except Unanswered:
            yield from worker.restart()


def kits_own(error: Exception) -> bool:
    """Whether ``error`` is a signal rather than a ledger's answer: its class is defined in a
    module of simlab other than :mod:`simlab.errors` (see the module docstring), or it is
    ``NotImplementedError``, a piece not written yet (an exercise's stub), which the learner's
    check reports as not attempted."""
    if isinstance(error, NotImplementedError):
        return True
    module = type(error).__module__
    return module.startswith("simlab.") and module != "simlab.errors"


def _guard(name: str, method: Callable, allowed: tuple, history: Any, env: Any) -> Callable:
    """``method``, its raises of anything but ``allowed`` recorded and turned to
    :class:`Unanswered`."""

    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            return method(*args, **kwargs)
        except allowed:
            raise
        except TimeUp as up:
            raise _named(up, history, env, name, args, kwargs) from None
        except Exception as error:
            if kits_own(error):
                raise
            raise _answered(history, env, name, args, kwargs, error) from error

    return call


def _submit(method: Callable, history: Any, env: Any) -> Callable:
    """``submit`` guarded: ``LedgerError`` is an answer only for a task submitted before."""
    submitted: set[str] = set()

    def submit(task_id: str | None = None, *args: Any, **kwargs: Any) -> str:
        allowed = _DUPLICATE if task_id in submitted else ()
        try:
            task = method(task_id, *args, **kwargs)
        except allowed:
            raise
        except TimeUp as up:
            raise _named(up, history, env, "submit", (task_id, *args), kwargs) from None
        except Exception as error:
            if kits_own(error):
                raise
            raise _answered(history, env, "submit", (task_id, *args), kwargs, error) from error
        submitted.add(task if task_id is None else task_id)  # the ID submitted, whatever it said
        return task

    return submit


def read_after(ledger: Answering, task: str, answered: Callable[[Any], None]) -> None:
    """Read ``task`` back (``get``) for the answer of the call just made on it, and record
    that answer first: ``answered(record)`` with the record read, or ``answered(None)`` when
    the read raised what the contract does not allow, and then that raise as the read's answer
    (as :class:`Answering` records it, :class:`Unanswered` raised), so a read that raises
    never hides the answer of the call before it."""
    history, env = ledger._history, ledger._env
    try:
        record = ledger.inner.get(task)
    except TimeUp as up:
        raise _named(up, history, env, "get", (task,), {}) from None
    except Exception as error:
        if kits_own(error):
            raise
        made = _made(history, env.now, "get", (task,), {})  # the call's invoke is still last
        answered(None)
        raise _answered(history, env, "get", (task,), {}, error, made) from error
    answered(record)


def _answered(
    history: Any,
    env: Any,
    name: str,
    args: tuple,
    kwargs: dict,
    error: Exception,
    made: tuple | None = None,
) -> Unanswered:
    """Record the raise of ``name(*args, **kwargs)`` as its answer; the exception to raise.
    ``made``: the call's (process, task, epoch, step, value), when read before (:func:`_made`)."""
    now = env.now
    process, task, epoch, step, value = made or _made(history, now, name, args, kwargs)
    value.update(raised=type(error).__name__, message=str(error), call=name)
    history.record(now, "info", process, ALLOWED[name][0], task, epoch, step, **value)
    return Unanswered(error)


def _named(up: TimeUp, history: Any, env: Any, name: str, args: tuple, kwargs: dict) -> TimeUp:
    """``up``, naming the call ``name(*args, **kwargs)`` it interrupted (unless a call within
    it, one the ledger made of its own guarded methods, is named already)."""
    if up.call is not None:
        return up
    now = env.now
    process, task, _epoch, _step, _value = _made(history, now, name, args, kwargs)
    return TimeUp({"process": process, "call": name, "task": task, "time": now})


def _made(history: Any, now: float, name: str, args: tuple, kwargs: dict) -> tuple:
    """(process, task, epoch, step, value) of the call ``name(*args, **kwargs)`` made at
    ``now``: its ``invoke``'s when that is the history's last event at this instant, else from
    its arguments (a process they do not name is the one whose invoke it follows at this
    instant, else the ``client``)."""
    last = history[-1] if len(history) else None
    follows = last is not None and last.type == "invoke" and last.time == now
    if follows and last.op == ALLOWED[name][0]:
        return last.process, last.task, last.epoch, last.step, dict(last.value)
    process, task, epoch, step, value = _from_arguments(name, args, kwargs)
    if process is None:
        process = last.process if follows else "client"
    return process, task, epoch, step, value


def _from_arguments(name: str, args: tuple, kwargs: dict) -> tuple:
    """(process, task, epoch, step, value) of a call with no invoke to copy them from."""
    value: dict[str, Any] = {}
    first = args[0] if args else None
    if name in _LEASED:
        lease = first
        step = args[1] if name == "save" and len(args) > 1 else None
        if name == "save":
            value["done"] = bool(kwargs.get("done", False))
        if name == "record_effect" and len(args) > 1:
            value["key"] = args[1]
        return (getattr(lease, "worker", None), getattr(lease, "task_id", None),
                getattr(lease, "epoch", None), step, value)  # fmt: skip
    if name in ("claim", "claim_update", "claim_read"):
        return (args[1] if len(args) > 1 else None), first, None, None, value
    if name == "claim_next":
        return first, None, None, None, value
    if name == "submit":
        return "client", first, None, None, value
    if name in ("cancel", "requeue"):
        return "user", first, None, None, value
    return None, (first if isinstance(first, str) else None), None, None, value
