"""The student's code as hidden checks see it: proxies whose calls run in the sandbox.

``student.function("cancel")`` is a callable; calling it sends the arguments to the sandbox,
runs the student's ``cancel`` there and returns the decoded result. ``student.call(name, ...)``
does the same and lends the grader's own objects passed to it (a ledger, a mailbox, a
``work`` callback: :mod:`simlab.grading.lending`) for that call. ``student.ledger(...)`` builds
the kit's ledger *here*, with the student's pieces plugged in (each runs in the sandbox, its SQL
on the grader's connection), so the simulator and the checker drive it like any other ledger
and what it holds is the grader's own record.

Errors the student's code raises come back as the kit's own exception types where they are one
(``LeaseHeld``, ``TerminalTask``, ``UnknownTask``, ``LedgerError``, ``ValueError``), so the
simulator's workers handle them as usual; anything else is a
:class:`~simlab.grading.sandbox.supervisor.RemoteError`.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from simlab.grading.factories import RUN_A_FUNCTION
from simlab.grading.messages import Message, message
from simlab.grading.questions import Fail
from simlab.grading.sandbox.remote import kit_exception
from simlab.grading.sandbox.supervisor import RemoteError, Sandbox, SandboxLost
from simlab.grading.sandbox.wire import Handle, Opaque
from simlab.grading.text import is_quiet, plain, plain_name
from simlab.records import Lease, TaskRecord

__all__ = [
    "Student",
    "RemoteObject",
    "CheckedLedger",
    "WrongType",
    "kind_of",
    "close_to",
    "near_hidden",
    "shown_number",
    "shown_value",
    "asked_once",
    "HIDDEN_TOLERANCE",
]


class WrongType(Fail):
    """The student's code returned a value of the wrong type."""


def kind_of(value: Any) -> str:
    """A short name for the type of a returned value, for feedback. A class name the sandbox
    reports (an object it could not send as data) is shown only when it passes the filter of
    messages (:func:`~simlab.grading.text.plain_name`), else as ``object``: a class can be
    made at run time with any name, a hidden input's included."""
    if isinstance(value, Opaque):
        return "object" if is_quiet() else plain_name(value.type) or "object"
    return type(value).__name__


def _number(value: Any) -> float | None:
    """``value`` as a float when it is a number (not a bool) a float can hold, else None."""
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return None
    try:
        return float(value)
    except OverflowError:  # an int too large for a float: no answer is that large
        return None


def close_to(answer: Any, truth: float, abs_tol: float = 1e-12) -> bool:
    """Is the learner's ``answer`` a number (not a bool) within 1e-9 relative of ``truth``?"""
    number = _number(answer)
    return number is not None and math.isclose(number, truth, rel_tol=1e-9, abs_tol=abs_tol)


#: How close a learner's number may come to a hidden value before it is no longer shown.
HIDDEN_TOLERANCE = 0.5


def near_hidden(value: float, hidden: Any = ()) -> bool:
    """Is ``value`` within :data:`HIDDEN_TOLERANCE` (or 1 %) of a value in ``hidden``? Such a
    number is never shown: it may be a hidden input handed back, slightly changed."""
    for h in hidden:
        h = _number(h)
        if h is not None and abs(value - h) < max(HIDDEN_TOLERANCE, 0.01 * abs(h)):
            return True
    return False


def _article(kind: str) -> Message:
    """A value named by its type, in the reader's language (``a str``, ``an int``)."""
    return message("grader.kind_an" if kind[:1].lower() in "aeiou" else "grader.kind_a", kind=kind)


def shown_values(shown: Any, more: bool = False) -> Message:
    """Values already shown (:func:`shown_value`, :func:`shown_number` or quoted) as a list,
    ``[a, b]``, with ``...`` after them when ``more`` were left out."""
    return message("grader.values_more" if more else "grader.values", items=tuple(shown))


def _known(value: Any, known: Any) -> bool:
    """Is ``value`` a str, int or float equal to one of ``known`` of the very same type?"""
    kind = type(value)
    if kind not in (str, int, float):
        return False
    return any(type(k) is kind and k == value for k in known)


def shown_number(value: Any, hidden: Any = (), known: Any = ()) -> Message | str:
    """The learner's value for feedback: a number as ``0.035``; anything else, or a number near
    one in ``hidden`` (:func:`near_hidden`: a hidden seed handed back, even as ``seed + 0.25``),
    only by its type (``a list``, ``an int``). Where feedback is quiet
    (:func:`~simlab.grading.text.quiet_feedback`) a number is shown only when it is one of
    ``known`` (values that carry nothing the learner lacks: see :func:`shown_value`), else by
    its type: no filter can tell every encoding of a hidden value (``seed * 1000 + 7``)."""
    number = _number(value)
    if number is not None and _known(value, known):
        return f"{number:.6g}"
    if number is not None and not is_quiet() and not near_hidden(number, hidden):
        return f"{number:.6g}"
    return _article(kind_of(value))


def shown_value(value: Any, hidden: Any = (), known: Any = ()) -> Message | str:
    """The learner's value for feedback, through the filter of messages: ``None``, ``True``
    and ``False`` as themselves, a number as :func:`shown_number` shows it, a string of plain
    words (:func:`~simlab.grading.text.plain`, at most 40 characters) quoted; anything else
    only by its type (``a str``, ``a dict``), never its repr.

    Where feedback is quiet (:func:`~simlab.grading.text.quiet_feedback`: every question judged
    in a hidden world) a string or a number is shown only when it is one of ``known``, a small
    fixed set of values that carry nothing the learner lacks (the words the exercise text names,
    such as ``"completed"`` or ``"cancelled"``, or what the reference gives on an input the
    feedback itself tells); any other only by its type. The learner's code may compute a value
    from a hidden input in any way, so only values it could have known are ever shown."""
    if value is None or isinstance(value, bool):
        return repr(value)
    if _known(value, known):
        return repr(value) if isinstance(value, str) else shown_number(value, known=known)
    if isinstance(value, (int, float)):
        return shown_number(value, hidden)
    if isinstance(value, str) and plain(value, 40) and not is_quiet():
        return repr(value)
    return _article(kind_of(value))


def _rebuild(exc: RemoteError) -> Exception:
    """The kit exception the student's code raised, rebuilt here (or ``exc`` itself: another
    exception, or malformed fields); a rebuilt one carries ``remote_what``, the call that
    raised it."""
    try:
        if exc.kit == "ValueError":
            rebuilt = ValueError(exc.message)
        else:
            rebuilt = kit_exception(exc.kit, exc.info.get("fields") or {}, exc.message)
    except Exception:  # malformed fields: keep the remote error
        return exc
    if rebuilt is None:
        return exc
    rebuilt.remote_what = exc.what  # type: ignore[attr-defined]
    return rebuilt


class RemoteObject:
    """An object living in the sandbox; attribute access gives methods that call it there.

    ``clock`` (optional) is read before every call and sent along: objects built by the kit in
    the sandbox read that time as their clock, so the sandbox runs on the grader's time.
    ``returns`` maps method names to the type their result must have (checked here).
    """

    def __init__(
        self,
        sandbox: Sandbox,
        handle: Handle,
        *,
        clock: Callable[[], float] | None = None,
        name: str = "object",
        returns: dict[str, type] | None = None,
        runs: str | None = None,
    ):
        self._sandbox = sandbox
        self._handle = handle
        self._clock = clock
        self._name = name
        self._returns = returns or {}
        #: the learner's function this object runs, if it runs one: its methods' failures and
        #: answers are told as that function's (``runs()``), not as the object's
        self._runs = runs

    def _what(self, method: str) -> str:
        return f"{self._runs}()" if self._runs else f"{self._name}.{method}()"

    @property
    def handle(self) -> Handle:
        return self._handle

    def attribute(self, name: str) -> Any:
        """Read an attribute of the remote object (a value, not a method)."""
        return self._sandbox.get(self._handle, name)

    def __getattr__(self, method: str) -> Callable[..., Any]:
        if method.startswith("_"):
            raise AttributeError(method)

        def call(*args: Any, **kwargs: Any) -> Any:
            now = self._clock() if self._clock is not None else None
            try:
                result = self._sandbox.call(
                    self._handle,
                    *args,
                    method=method,
                    now=now,
                    what=self._what(method),
                    **kwargs,
                )
            except RemoteError as exc:
                raise _rebuild(exc) from None
            return _as_expected(self._name, method, result, self._returns.get(method))

        call.__name__ = method
        return call

    def each(self, method: str, calls: Sequence[tuple]) -> Iterator[Any]:
        """The results of ``method`` called with each argument tuple of ``calls`` in turn, in
        one request to the sandbox (with one time of ``clock`` for all): each result as one
        call of ``method`` returns it (type-checked as it is taken), then, in place of the
        result of the first call that raised, what it raised (the calls after it are not
        made). The request is sent when the first result is taken."""
        now = self._clock() if self._clock is not None else None
        what = self._what(method)
        values, error = self._sandbox.call_each(
            self._handle, [(args, {}) for args in calls], method=method, now=now, what=what
        )
        for value in values:
            yield _as_expected(self._name, method, value, self._returns.get(method))
        if error is not None:
            raise _rebuild(error)


def _as_expected(name: str, method: str, result: Any, expected: type | None) -> Any:
    """``result`` of ``name.method()``, or :class:`WrongType` when it is not an ``expected``."""
    if expected is not None and not isinstance(result, expected):
        raise WrongType(
            message(
                "grader.wrong_type",
                call=f"{name}.{method}()",
                kind=kind_of(result),
                expected=expected.__name__,
            )
        )
    return result


#: What the ledger contract's methods return; checked on every call to a student's ledger.
LEDGER_RETURNS: dict[str, type] = {
    "claim": Lease,
    "heartbeat": bool,
    "save": bool,
    "record_effect": bool,
    "cancel": bool,
    "requeue": bool,
    "get": TaskRecord,
    "submit": str,
    "tasks": list,
}


def asked_once(
    fn: Callable[..., Any],
    key: Callable[..., Any] | None = None,
    each: Callable[[list[tuple]], Iterator[Any]] | None = None,
) -> Callable[..., Any]:
    """``fn`` (the learner's code) asked once for each input: its answer, or the error it
    raised, raised again, is kept under ``key(*args)`` (the arguments themselves by default),
    so that several parts judging one input judge the same answer. A lost sandbox is not an
    answer: it propagates and nothing is kept.

    With ``each`` (``fn`` for a list of argument tuples in one request, as
    :meth:`RemoteObject.each` gives them), ``call.ahead(inputs)`` asks, in one request and in
    their order, every input of ``inputs`` (argument tuples) not asked yet: each answer is kept
    as if ``fn`` had been asked, up to the first input whose call raised (its error is kept;
    the inputs after it are asked one at a time when a part needs them). What a part then
    judges is the answer a call of its own would have had, asked in the same order."""
    answers: dict[Any, tuple[bool, Any]] = {}

    def call(*args: Any) -> Any:
        k = args if key is None else key(*args)
        if k not in answers:
            try:
                answers[k] = (True, fn(*args))
            except SandboxLost:
                raise
            except Exception as exc:  # the learner's error, raised again for each part
                answers[k] = (False, exc)
        ok, value = answers[k]
        if not ok:
            raise value
        return value

    def ahead(inputs: Iterator[tuple] | Sequence[tuple]) -> None:
        if each is None:
            return
        todo: dict[Any, tuple] = {}
        for args in inputs:
            k = args if key is None else key(*args)
            if k not in answers and k not in todo:
                todo[k] = args
        if not todo:
            return
        results = each(list(todo.values()))
        for k in todo:
            try:
                answers[k] = (True, next(results))
            except SandboxLost:
                raise
            except StopIteration:
                return
            except Exception as exc:  # this call raised: the ones after it were not made
                answers[k] = (False, exc)
                return

    call.ahead = ahead  # type: ignore[attr-defined]
    return call


class Student:
    """The student's definitions, reached through one sandbox."""

    def __init__(self, sandbox: Sandbox):
        self.sandbox = sandbox

    def folder(self) -> contextlib.AbstractContextManager[str]:
        """A fresh folder the student's code may write (same path here and in the sandbox),
        removed afterwards. Read files from it only with :meth:`copy_out`."""
        return self.sandbox.exchange.folder()

    def copy_out(self, path: str) -> contextlib.AbstractContextManager[str | None]:
        """A private copy of a file the student's code wrote in :meth:`folder` (None when it
        is missing, not a regular file, or too large); never the file itself."""
        return self.sandbox.exchange.copy_out(path)

    def read_ledger(self, path: str) -> contextlib.AbstractContextManager[Any]:
        """The ledger file the student's code wrote at ``path``, opened read-only from a
        private copy with bounded work (:meth:`Exchange.read_ledger`); None when there is no
        such file or it cannot be read safely."""
        return self.sandbox.exchange.read_ledger(path)

    def copy_in(self, local: str, path: str) -> None:
        """Place a file the check prepared privately at ``path`` in :meth:`folder`."""
        self.sandbox.exchange.copy_in(local, path)

    def defined(self, *names: str) -> dict[str, str | None]:
        """What each name is in the student's namespace (``function``, ``class``, ...)."""
        return self.sandbox.names(names)

    def function(
        self, name: str, *, clock: Callable[[], float] | None = None
    ) -> Callable[..., Any]:
        """A callable that runs the student's ``name`` in the sandbox.

        Kit exceptions come back as themselves; ``fn.echo(*args)`` returns
        ``(result, args_after_the_call)`` for functions that change their arguments, and
        ``fn.each(calls)`` the results of several calls made in one request;
        ``fn.probed(*args)`` is ``echo`` with what the result shares with the first argument,
        found on that very call, and the result kept in the sandbox (a handle). With
        ``clock``, every call carries ``clock()`` as the sandbox's time (kit objects the
        function uses read it), as the calls of a :class:`RemoteObject` do.
        """
        sandbox = self.sandbox

        def call(*args: Any, **kwargs: Any) -> Any:
            now = clock() if clock is not None else None
            try:
                return sandbox.call(name, *args, now=now, what=f"{name}()", **kwargs)
            except RemoteError as exc:
                raise _rebuild(exc) from None

        def echo(*args: Any, **kwargs: Any) -> tuple[Any, list]:
            try:
                return sandbox.call(name, *args, echo=True, what=f"{name}()", **kwargs)
            except RemoteError as exc:
                raise _rebuild(exc) from None

        def each(calls: Sequence[tuple]) -> Iterator[Any]:
            """The results of ``name`` called with each argument tuple of ``calls`` in turn,
            in one request, then, in place of the result of the first call that raised, what
            it raised (the calls after it are not made), as :meth:`RemoteObject.each`."""
            now = clock() if clock is not None else None
            values, error = sandbox.call_each(
                name, [(args, {}) for args in calls], now=now, what=f"{name}()"
            )
            yield from values
            if error is not None:
                raise _rebuild(error)

        def probed(*args: Any) -> tuple[Any, list, Any, Any]:
            try:
                return sandbox.call(name, *args, probe=True, what=f"{name}()")
            except RemoteError as exc:
                raise _rebuild(exc) from None

        call.probed = probed  # type: ignore[attr-defined]
        call.echo = echo  # type: ignore[attr-defined]
        call.each = each  # type: ignore[attr-defined]
        call.__name__ = name
        return call

    def kit(
        self,
        factory: str,
        *args: Any,
        clock: Callable[[], float] | None = None,
        name: str | None = None,
        returns: dict[str, type] | None = None,
        **kwargs: Any,
    ) -> RemoteObject:
        """Build a kit object in the sandbox (see :data:`simlab.grading.factories.FACTORIES`);
        one that runs a learner's function (:data:`~simlab.grading.factories.RUN_A_FUNCTION`)
        tells its failures as that function's."""
        now = clock() if clock is not None else None
        handle = self.sandbox.kit(factory, *args, now=now, **kwargs)
        runs = args[0] if factory in RUN_A_FUNCTION and args else None
        return RemoteObject(
            self.sandbox, handle, clock=clock, name=name or factory, returns=returns, runs=runs
        )

    def call(self, name: str, *args: Any, elsewhere: int = 0) -> Any:
        """Call the student's ``name`` with ``args``; an argument that is one of the grader's
        objects (a :class:`~simlab.grading.lending.Lent` or a
        :class:`~simlab.grading.lending.SqlGate`) is lent to this call only: the student's code
        gets a stand-in that asks the grader for every use. Kit exceptions come back as
        themselves. ``elsewhere`` (1, 2, ...): as in that other worker process
        (:func:`~simlab.grading.sandbox.elsewhere.in_another_process`)."""
        from simlab.grading.lending import Lent, SqlGate

        lent, sent = [], []
        for arg in args:
            if isinstance(arg, (Lent, SqlGate)):
                handle = self.sandbox.offer(arg, arg.kind)
                lent.append(handle)
                sent.append(handle)
            else:
                sent.append(arg)
        try:
            return self.sandbox.call(
                name, *sent, services=lent, what=f"{name}()", elsewhere=elsewhere
            )
        except RemoteError as exc:
            raise _rebuild(exc) from None
        finally:
            for handle in lent:
                self.sandbox.withdraw(handle)

    def ledger(
        self,
        path: str = ":memory:",
        *,
        clock: Callable[[], float],
        around: Callable[[Callable[..., Any]], Callable[..., Any]] | None = None,
        **pieces: str,
    ) -> CheckedLedger:
        """A ledger the grader keeps, with the student's ``pieces`` (e.g. ``claim="claim"``)
        plugged in: the kit's SQLite ledger (:class:`~simlab.learn.pieces.PiecesLedger`) on
        ``clock``, here, whose ``claim``, ``heartbeat`` or ``record_effect`` call the student's
        function in the sandbox with a stand-in of its connection
        (:class:`~simlab.grading.lending.SqlGate`). What the ledger holds afterwards is what
        the grader's own connection holds; what each method returns is type-checked.
        ``around``, when given, wraps each piece (called as ``piece(db, *args)``, ``db`` the
        grader's connection) before it is plugged in."""
        from simlab.grading.lending import SqlGate
        from simlab.learn.pieces import PiecesLedger

        def piece(name: str) -> Callable[..., Any]:
            def run(db: Any, *args: Any) -> Any:
                # A transaction the piece began and left open holds the write lock of the
                # grader's own connection: every other connection, and a backup of this one
                # (which retries for as long as the lock is held), would wait forever. It is
                # rolled back on every way out; a piece that returned or raised with it open
                # fails, and a lost sandbox stays what it is.
                try:
                    answer = self.call(name, SqlGate(db, self.sandbox), *args)
                except SandboxLost:
                    if db.in_transaction:
                        db.rollback()
                    raise
                except BaseException:
                    _closed(db, name)
                    raise
                _closed(db, name)
                return answer

            run.__name__ = name
            return run if around is None else around(run)

        plugged = {role: piece(name) for role, name in pieces.items()}
        return CheckedLedger(PiecesLedger(path, clock=clock, **plugged))


def _closed(db: Any, name: str) -> None:
    """Roll back the transaction the piece ``name`` left open on ``db``, if any, and fail it."""
    if db.in_transaction:
        db.rollback()
        raise Fail(message("grader.transaction_open", what=f"{name}()"))


class CheckedLedger:
    """A ledger whose contract methods must return the type they promise
    (:data:`LEDGER_RETURNS`; a student's piece may not); ``raw`` is the ledger itself."""

    #: The questions' criteria judge each field a piece stores (a key's time among them) on
    #: their own, so a run over this ledger does not (see simlab.sim.simulation.clocked): a
    #: wrong time costs its field's point, never the core idea's.
    timestamps_judged_elsewhere = True

    def __init__(self, ledger: Any, name: str = "ledger"):
        self.raw = ledger
        self._name = name

    def __getattr__(self, method: str) -> Any:
        target = getattr(self.raw, method)
        expected = LEDGER_RETURNS.get(method)
        if expected is None:
            return target

        def call(*args: Any, **kwargs: Any) -> Any:
            return _as_expected(self._name, method, target(*args, **kwargs), expected)

        call.__name__ = method
        return call
