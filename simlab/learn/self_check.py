"""The public self-check used in exercise notebooks: ``with self_check("question-id"): ...``.

The block holds plain ``assert`` statements the learner can read. The context manager turns
their outcome into one line:

* ``[pass] question: ...`` when every assert held;
* ``[not yet] question: <hint>`` when the code under test still raises ``NotImplementedError``
  (the stubs of a fresh exercise): the cell *succeeds*, so the student's notebook runs from top
  to bottom and nbval passes on it;
* ``[fail] question: <what failed>`` when an assert failed or the code raised: the cell then
  raises :class:`CheckFailed`, so a broken *solution* fails nbval and a learner sees the failure.

Each line is in the notebook's language (:func:`simlab.i18n.language.set_language`): the frame
by ID from :mod:`simlab.learn.messages`, the hint and the assert's message through the notebooks'
sentence catalogs (:func:`simlab.i18n.language.sentence`).

Public checks are for learning. The grader never reads their output; it runs its own hidden
checks in a separate process (see :mod:`simlab.grading.grader`).
"""

from __future__ import annotations

import traceback
from collections.abc import Iterator
from contextlib import contextmanager

from simlab.i18n.language import say, sentence

__all__ = ["self_check", "CheckFailed", "describe_exception"]


class CheckFailed(AssertionError):
    """A public self-check failed; the message says what failed."""


def describe_exception(exc: BaseException, limit: int = 300) -> str:
    """One line: ``TypeError: message`` (an empty assert names the line that failed), in the
    notebook's language."""
    if isinstance(exc, AssertionError) and not str(exc):
        frames = traceback.extract_tb(exc.__traceback__)
        line = frames[-1].line if frames else ""
        text = say("learn.failed_line", line=line) if line else say("learn.assert_failed")
    elif isinstance(exc, AssertionError):
        text = sentence(str(exc))
    else:
        text = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


@contextmanager
def self_check(question: str, *, graded: bool = True) -> Iterator[None]:
    """Run a block of public asserts for ``question`` and print one line about it.

    ``graded=False`` (the lab notebooks, which no grader reads) leaves out the reminder that the
    grader runs more checks than these."""
    try:
        yield
    except NotImplementedError as exc:
        hint = sentence(str(exc)) if str(exc) else say("learn.not_yet_hint")
        print(say("learn.not_yet", question=question, hint=hint))
    except Exception as exc:
        message = describe_exception(exc)
        print(say("learn.fail", question=question, message=message))
        raise CheckFailed(f"{question}: {message}") from None
    else:
        print(say("learn.pass_graded" if graded else "learn.pass", question=question))
