"""Questions and their hidden checks: how a check is written and how it turns into points.

A hidden check is a plain function ``check(student, tally)`` that lives in the package (under
:mod:`simlab.grading.checks`), never in a notebook. It calls the student's functions through
``student`` (they run in the sandbox, see :mod:`simlab.grading.student`) and judges the answers
here, in the grader's process. Each judgement is a *part* worth one point::

    @tally.part
    def commit_fails_after_cancel():
        require(commit(state, epoch, "x") is False,
                "after cancel, a commit with the current epoch was accepted")

A part passes when its function returns. It fails with the message of :func:`require` (or of
:class:`Fail`): a :class:`~simlab.grading.messages.Message` (an ID of the exercise's catalog and
its values, rendered in the report's language); when the student's code raised, the message
names the function and the exception (the learner's own words in it shown as they are).
The feedback a learner sees is built from these messages only: never the check's
code, its inputs' construction or a traceback.

Only a lost sandbox (a hang, a crash, ``os._exit``) stops a question early; the parts left are
counted as failed, and the feedback says what happened.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from simlab.grading.messages import (
    LANGS,
    Message,
    Said,
    message,
    notebook_text,
    render,
    sentence,
    shortened,
)
from simlab.grading.sandbox.supervisor import RemoteError, SandboxLost
from simlab.grading.text import is_quiet, plain, plain_name, quiet_feedback, quotes_hidden

__all__ = [
    "Criterion",
    "Question",
    "Exercise",
    "Tally",
    "Fail",
    "require",
    "NotAttempted",
    "feedback_message",
    "explain_message",
    "fault_message",
    "shown_type",
    "FAILURE_CHARS",
]


class Fail(Said):
    """A part failed; its line (:class:`~simlab.grading.messages.Said`) is the feedback
    sentence."""


class NotAttempted(Fail):
    """The student's code still raises ``NotImplementedError`` (an untouched stub)."""


def require(condition: Any, message: Message | str) -> None:
    """Fail the current part with ``message`` unless ``condition`` holds."""
    if not condition:
        raise Fail(message)


@dataclass(frozen=True)
class Criterion:
    """One line of a question's rubric: what it asks (``says``, in words an instructor reads;
    never a hidden input), its ``weight`` in points, and whether it is the question's ``core``
    idea. A criterion earns its weight only when every part filed under it passes, so a classic
    mistake of the core idea loses the whole core weight (at least half of the question)."""

    id: str
    weight: int
    says: str
    core: bool = False
    mistakes: tuple[str, ...] = ()  # the classic mistakes its parts are built to catch
    #: The properties its parts check on generated inputs against the kit's reference
    #: (:mod:`simlab.grading.properties`), each in one sentence an instructor reads.
    properties: tuple[str, ...] = ()
    #: The sentences of the exercise text (quoted as they stand in the exercise notebook's
    #: markdown) whose "must" this criterion checks: no point is given for a rule the text
    #: does not state.
    text: tuple[str, ...] = ()
    #: The hidden world the check judges it in (:mod:`simlab.grading.checks.hidden_world`), in one
    #: sentence an instructor reads: what is drawn at grading time so that a typed-in result,
    #: a value from the wrong source or an ignored argument gives a wrong answer.
    world: str = ""


@dataclass(frozen=True)
class Question:
    """One graded question: ``points`` in all, the student ``names`` it needs, its check.

    Without a ``rubric`` every part is worth one point (``points`` parts). With one, the check
    files its parts under the rubric's criteria (:meth:`Tally.under`) and the points are the
    weights of the criteria whose parts all passed; the weights add up to ``points`` and the
    core criteria weigh at least half of them.
    """

    id: str
    title: str
    points: int
    names: tuple[str, ...]
    check: Callable[..., None]
    rubric: tuple[Criterion, ...] = ()
    #: Strings of the check's hidden inputs that feedback never quotes (see :class:`Tally`).
    hidden: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        if self.rubric:
            total = sum(c.weight for c in self.rubric)
            core = sum(c.weight for c in self.rubric if c.core)
            if total != self.points or 2 * core < self.points:
                raise ValueError(f"the rubric of {self.id} weighs {total} (core {core})")

    def score(self, tally: Tally) -> int:
        """The points ``tally`` earns on this question."""
        if not self.rubric:
            return min(tally.passed, self.points)
        return sum(
            c.weight
            for c in self.rubric
            if tally.ran.get(c.id, 0) > 0 and tally.ran[c.id] == tally.won.get(c.id, 0)
        )

    def consistent(self, tally: Tally) -> bool:
        """Did the check run the parts its rubric promises (one per point without a rubric,
        at least one per criterion with one, and none outside it)?"""
        if not self.rubric:
            return tally.count == self.points
        return set(tally.ran) == {c.id for c in self.rubric}


@dataclass(frozen=True)
class Exercise:
    """One exercise notebook (``notebook`` is its file name in ``solutions/``)."""

    id: str
    notebook: str
    title: str
    questions: tuple[Question, ...]

    @property
    def max_score(self) -> int:
        return sum(q.points for q in self.questions)

    def question(self, qid: str) -> Question:
        for q in self.questions:
            if q.id == qid:
                return q
        raise KeyError(qid)


@dataclass
class Tally:
    """The outcome of the parts of one question, in the order they ran."""

    passed: int = 0
    #: The failures' sentences, and those of the failures that are untouched stubs.
    faults: list[Message] = field(default_factory=list)
    stubs: list[Message] = field(default_factory=list)
    count: int = 0
    criterion: str = ""
    ran: dict[str, int] = field(default_factory=dict)  # criterion -> parts run
    won: dict[str, int] = field(default_factory=dict)  # criterion -> parts passed
    #: Strings of the question's hidden inputs: a failure that quotes one is withheld.
    hidden: frozenset[str] = frozenset()
    #: Feedback quotes no free text or number of the learner's
    #: (:func:`~simlab.grading.text.quiet_feedback`): every hidden check judges in a world
    #: drawn at grading time (:mod:`simlab.grading.checks.hidden_world`) whose values the
    #: learner's code may hand back in any encoding, whether or not :attr:`hidden` names any.
    quiet: bool = True

    @property
    def failures(self) -> list[str]:
        """The failures in English."""
        return [str(m) for m in self.faults]

    def said(self, said: Message | str) -> Message:
        """``said`` as the feedback may show it: the withheld message
        (:data:`~simlab.grading.text.WITHHELD`) when it quotes one of :attr:`hidden` in any
        language (the learner's code can put what it was given into an error message, a string
        it returns, or a class name)."""
        said = sentence(said)
        if self.hidden and any(quotes_hidden(render(said, lang), self.hidden) for lang in LANGS):
            return message("grader.withheld")
        return said

    def under(self, criterion: str) -> None:
        """File the parts that follow under ``criterion`` of the question's rubric."""
        self.criterion = criterion

    def part(self, fn: Callable[[], Any]) -> Callable[[], Any]:
        """Run ``fn`` now as one part (use as a decorator); record pass or fail."""
        self.count += 1
        self.ran[self.criterion] = self.ran.get(self.criterion, 0) + 1
        quiet = self.quiet
        try:
            with quiet_feedback(quiet):
                fn()
        except SandboxLost:
            raise
        except NotAttempted as exc:
            self.stubs.append(self.said(exc.said))
            self.faults.append(self.said(exc.said))
        except Fail as exc:
            self.faults.append(self.said(exc.said))
        except RemoteError as exc:
            said = self.said(_with_story(exc, explain_message(exc, quiet=quiet)))
            if exc.type == "NotImplementedError":
                self.stubs.append(said)
            self.faults.append(said)
        except Exception as exc:  # a kit error the student's code raised, or an odd answer
            self.faults.append(self.said(_with_story(exc, _unexpected(exc, quiet=quiet))))
        else:
            self.passed += 1
            self.won[self.criterion] = self.won.get(self.criterion, 0) + 1
        return fn


def _with_story(exc: BaseException, said: Message | str) -> Message:
    """``said`` after the story of the counterexample that led to ``exc``, when a property
    (:mod:`simlab.grading.properties`) found it."""
    story = getattr(exc, "simlab_story", None)
    if not story:
        return sentence(said)
    return message("grader.story", story=sentence(story), said=sentence(said))


def _unexpected(exc: Exception, *, quiet: bool = False) -> Message:
    who = getattr(exc, "remote_what", None)
    if who:  # rebuilt from the sandbox: the student's code raised it
        return _raised(who, type(exc).__name__, "" if quiet else str(exc), quiet=quiet)
    return message("grader.unchecked", exc=type(exc).__name__)


def _raised(who: Message | str, name: str, text: str, *, quiet: bool) -> Message:
    """``who raised <name>: <text>``: the class name as :func:`shown_type` shows it, the
    learner's message (verbatim) only when it passes the filter of :func:`_message`."""
    shown = shown_type(name, quiet=quiet)
    key, values = (
        ("grader.raised_unknown", {}) if shown == _UNNAMED else ("grader.raised", {"name": shown})
    )
    if _message(text):
        return message(f"{key}_saying", who=who, text=text, **values)
    return message(key, who=who, **values)


def fault_message(exc: BaseException, *, quiet: bool = False) -> Message | None:
    """The one line for an exception that reached a hidden check outside its parts when the
    learner caused it: their code raised (in the sandbox, or a kit error rebuilt from there),
    still is a stub, or gave an answer the check refused (:class:`Fail`). None when nothing
    of the learner's caused it: then it is a bug of the kit's own. ``quiet`` as for
    :func:`explain_message`."""
    if isinstance(exc, NotAttempted):
        return message("grader.not_attempted", why=exc.said)
    if isinstance(exc, Fail):
        return exc.said
    if isinstance(exc, RemoteError):
        said = explain_message(exc, quiet=quiet)
        if exc.type == "NotImplementedError":
            return message("grader.not_attempted", why=said)
        return said
    if getattr(exc, "remote_what", None):
        return _unexpected(exc, quiet=quiet)  # type: ignore[arg-type]
    return None


def explain_message(exc: RemoteError, *, quiet: bool = False) -> Message:
    """One sentence for an exception the student's code raised. ``quiet`` (a question whose
    hidden inputs reach the learner's code) shows no message and only a class name of Python's
    or the kit's: any free text, however filtered, could spell a hidden input in code words.
    The learner's own words (their message) are shown verbatim in every language; a stub's hint
    in the reader's language where the notebooks' catalogs know it (:func:`notebook_text`)."""
    who: Message | str = exc.what or message("grader.your_code")
    if exc.type == "NotImplementedError":
        if not quiet and _message(exc.message):
            return message("grader.not_written_hint", who=who, hint=notebook_text(exc.message))
        return message("grader.not_written", who=who)
    return _raised(who, exc.type, "" if quiet or is_quiet() else exc.message, quiet=quiet)


def shown_type(name: str, *, quiet: bool = False) -> str:
    """The class name of an exception the learner's code raised, for feedback: the name when
    it passes the filter of messages (:func:`~simlab.grading.text.plain_name`), else ``an
    exception`` (a class name can be made at run time to spell a hidden input). ``quiet``
    shows only the names of Python's built-in exceptions and of :mod:`simlab.errors`."""
    if (quiet or is_quiet()) and name not in _KNOWN_ERRORS:
        return _UNNAMED
    return plain_name(name) or _UNNAMED


#: What :func:`shown_type` shows for a class name it does not show.
_UNNAMED = "an exception"


def _known_errors() -> frozenset[str]:
    import builtins

    from simlab import errors

    return frozenset(
        n
        for module in (builtins, errors)
        for n, v in vars(module).items()
        if isinstance(v, type) and issubclass(v, BaseException)
    )


_KNOWN_ERRORS = _known_errors()


def _message(message: str) -> str:
    """The learner's exception message, unless it may quote a hidden input (a value the
    learner's code read from the grader's data, such as a seed, a URL or a host): then only the
    type is shown. Only plain words pass: letters, spaces and simple punctuation, at most 80
    characters (no digit, quote, bracket, ``@``, slash or dotted name)."""
    return f": {message}" if plain(message, 80) else ""


def feedback_message(tally: Tally, total: int, lost: Message | str | None) -> Message:
    """The one line a learner reads for a question: all passed, not attempted, or how many
    passed with up to two failures (each shortened to :data:`FAILURE_CHARS`) and a count of
    the rest."""
    if lost is not None:
        return message("grader.lost", lost=sentence(lost))
    if tally.passed >= total:
        return message("grader.all_passed", n=total)
    if tally.stubs and tally.passed == 0:
        return message("grader.not_attempted", why=tally.stubs[0])
    # Two failures are the same when they read the same in English.
    firsts = {str(f): f for f in reversed(tally.faults)}
    shown = [shortened(firsts[text], FAILURE_CHARS) for text in dict.fromkeys(tally.failures)][:2]
    if not shown:  # fewer parts ran than the question has points
        return message("grader.partial", passed=tally.passed, count=tally.count, first="")
    more = len(tally.faults) - len(shown)
    head = {"passed": tally.passed, "count": tally.count, "first": shown[0]}
    if len(shown) > 1:
        head["second"] = shown[1]
    key = "partial_two" if len(shown) > 1 else "partial"
    if more > 0:
        return message(f"grader.{key}_more", **head, more=more)
    return message(f"grader.{key}", **head)


#: Characters one failure may take in the feedback.
FAILURE_CHARS = 200
