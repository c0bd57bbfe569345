"""Properties against the reference: generated inputs, the learner's answer beside the kit's,
and the shortest counterexample told as a story.

A hidden check states a "must" of the exercise as a property: a function ``holds(value,
story)`` that plays one generated input (a sequence of ledger operations, a history, an event
stream, a checkpoint) on the learner's code and on the kit's reference, compares them here in
the grader's process, and raises :class:`~simlab.grading.questions.Fail` when they disagree.
While it plays it writes each move down in ``story`` (plain sentences a learner can follow,
never a hidden input). :func:`falsify` draws the inputs with Hypothesis and shrinks a failing
one to its smallest, then fails the part with that smallest input's story and what went wrong.

Grades must not move between two runs of the same notebook, so every run is derandomized (the
inputs depend only on the strategy), keeps no example database, and has a fixed budget of
examples and of shrinking calls. The learner's code is called through the sandbox as
everywhere else: a lost sandbox stops the search at once and is raised as it is, so the
question ends as any other question with a hanging or crashing answer does.
"""

from __future__ import annotations

import contextlib
import copy
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar

from hypothesis import HealthCheck, Phase, Verbosity, example, given, settings
from hypothesis import strategies as st
from hypothesis.errors import HypothesisException

from simlab.grading.messages import Message, message, sentence
from simlab.grading.questions import FAILURE_CHARS, Fail, NotAttempted, fault_message
from simlab.grading.sandbox.supervisor import SandboxLost

__all__ = ["Story", "falsify", "screened", "EXAMPLES", "SHRINKS", "STORY_CHARS", "st"]

T = TypeVar("T")

#: Generated inputs per property, unless a check asks for another number.
EXAMPLES = 40
#: The most calls of ``holds`` while shrinking a failing input (the smallest found so far is
#: kept when it runs out).
SHRINKS = 200
#: Characters the story of a counterexample may take (its last moves, as many as fit).
STORY_CHARS = 150


@dataclass
class Story:
    """The moves of one played input, in the order they happened, as short sentences."""

    moves: list[Message | str] = field(default_factory=list)

    def add(self, move: Message | str) -> None:
        self.moves.append(move)

    def told(self, chars: int = STORY_CHARS) -> str:
        """:meth:`told_message` in English (empty for no moves)."""
        told = self.told_message(chars)
        return "" if told is None else str(told)

    def told_message(self, chars: int = STORY_CHARS) -> Message | None:
        """The last moves that fit in ``chars`` characters (in English), joined with commas;
        ``...`` in front when earlier ones were left out. None for no moves."""
        texts = [str(m) for m in self.moves]
        first = 0
        while first < len(texts) - 1 and len(", ".join(texts[first:])) > chars:
            first += 1
        if not texts:
            return None
        key = "grader.moves_cut" if first else "grader.moves"
        return message(key, moves=tuple(sentence(m) for m in self.moves[first:]))


@dataclass
class _Search:
    """What one search saw: the latest failure (each one found while shrinking is smaller
    than the one before), the lost sandbox, and how many calls it made."""

    calls: int = 0
    budget: int = 0
    failure: tuple[Story, BaseException] | None = None
    lost: SandboxLost | None = None


def falsify(
    strategy: st.SearchStrategy[T],
    holds: Callable[[T, Story], Any],
    *,
    examples: int = EXAMPLES,
    shrinks: int = SHRINKS,
    first: Iterable[T] = (),
) -> None:
    """Check ``holds`` on the inputs in ``first`` (hand-picked stories, played first) and then
    on ``examples`` inputs drawn from ``strategy``. When one fails, shrink it (at most
    ``shrinks`` more calls) and raise :class:`Fail` with the smallest one's story and what
    went wrong: the property's own sentence, or what the learner's code raised. A lost sandbox
    is raised as :class:`SandboxLost`; an exception of the kit's own (a bug) as itself.

    The inputs are drawn once per process for each call site and strategy (the draws are
    derandomized, and they depend on what ``holds`` does only from its first failure on): a
    class of notebooks replays them without Hypothesis, and only an answer that fails one
    pays for the search and the shrinking. Same verdicts, same stories."""
    first = list(first)
    caller = sys._getframe(1)
    key = (caller.f_code.co_filename, caller.f_lineno, repr(strategy), examples, repr(first))
    drawn = _DRAWN.get(key)
    if drawn is None:
        seen: list = []
        _search(strategy, lambda value, story: seen.append(value), examples, 0, first)
        # A value whose deep copy is itself (a tuple of numbers and strings) is played as it
        # is: nothing in it can change, so no copy is needed to keep the draw intact.
        drawn = [(value, copy.deepcopy(value) is value) for value in seen]
        _DRAWN[key] = drawn  # a draw that broke raised above: a cut one is never kept
    for value, frozen in drawn:
        try:
            holds(value if frozen else copy.deepcopy(value), Story())
        except SandboxLost:
            raise
        except Exception:  # a failure: search and shrink from the start, as if never screened
            break
    else:
        return
    _search(strategy, holds, examples, shrinks, first)


#: The inputs each call site of :func:`falsify` drew, by call site, strategy and budget, each
#: with whether it is immutable through and through (its deep copy is itself).
_DRAWN: dict[tuple, list[tuple[Any, bool]]] = {}


def _search(
    strategy: st.SearchStrategy[T],
    holds: Callable[[T, Story], Any],
    examples: int,
    shrinks: int,
    first: list[T],
) -> None:
    """The search of :func:`falsify`: Hypothesis draws, plays, and shrinks a failure; raises
    the failure, or what broke the search when no input failed (a strategy's bug: a property
    that cannot run never passes). One search at a time in the process: grading threads share
    Hypothesis, whose engine is not made to run twice at once."""
    search = _Search(budget=len(first) + examples + shrinks)

    def run(value: T) -> None:
        if search.lost is not None or search.calls >= search.budget:
            return  # a pass: the search winds down and the smallest failure stays the last one
        search.calls += 1
        story = Story()
        try:
            holds(value, story)
        except SandboxLost as lost:
            search.lost = lost
        except Exception as exc:
            search.failure = (story, exc)
            raise

    test = run
    for value in reversed(first):
        test = example(value)(test)
    test = settings(
        max_examples=examples,
        derandomize=True,
        database=None,
        deadline=None,
        verbosity=Verbosity.quiet,
        report_multiple_bugs=False,
        print_blob=False,
        phases=(Phase.explicit, Phase.generate, Phase.shrink),
        suppress_health_check=list(HealthCheck),
    )(given(strategy)(test))
    broke: BaseException | None = None
    with _ONE_SEARCH, _no_local_constants():
        try:
            test()
        except (Exception, HypothesisException) as exc:
            broke = exc  # the failure it saw last is in ``search`` (its replay may be cut off)
    if search.lost is not None:
        raise search.lost
    if search.failure is not None:
        story, exc = search.failure
        raise _told(story, exc)
    if broke is not None:  # no input failed, yet the search broke: the kit's own bug
        raise broke


_ONE_SEARCH = threading.RLock()


@contextlib.contextmanager
def _no_local_constants() -> Iterator[None]:
    """While a search runs, Hypothesis draws no constant out of the source of the modules this
    process has loaded (its "local constants", which it otherwise mixes into its draws, and
    which it reads only from modules outside ``site-packages``): the inputs of a derandomized
    search then depend on the strategy alone, not on what else the process imported or on the
    kit being a checkout rather than an installed package, so a notebook meets the same inputs
    wherever it is graded. Where Hypothesis keeps no such pool, nothing changes."""
    try:
        from hypothesis.internal.conjecture import providers
    except ImportError:  # pragma: no cover - a Hypothesis without the pool
        yield
        return
    pool, cache = (
        getattr(providers, "_get_local_constants", None),
        providers.__dict__.get("CONSTANTS_CACHE"),
    )
    if pool is None or cache is None or not hasattr(providers, "Constants"):
        yield
        return
    empty = providers.Constants()
    providers._get_local_constants = lambda: empty
    cache.cache.clear()  # pools computed with the process's constants
    try:
        yield
    finally:
        providers._get_local_constants = pool
        cache.cache.clear()


def screened(
    key: str,
    strategy: st.SearchStrategy[T],
    holds: Callable[[T, Story], Any],
    *,
    examples: int = EXAMPLES,
    first: Iterable[T] = (),
) -> None:
    """:func:`falsify` (which screens every property); ``key`` names the inputs in a check's
    own words and is kept for the checks that give one."""
    falsify(strategy, holds, examples=examples, first=first)


def _told(story: Story, exc: BaseException) -> BaseException:
    """The failure to report: the story, then what went wrong; the kit's own bug as itself."""
    fault = fault_message(exc)
    if isinstance(exc, NotAttempted) or fault is None:
        return exc  # a stub ("not attempted", as for any other check), or the kit's own bug
    # The story gives way to what went wrong: the whole failure fits in one feedback line.
    told = story.told_message(min(STORY_CHARS, max(40, FAILURE_CHARS - len(str(fault)) - 6)))
    if isinstance(exc, Fail):
        return Fail(message("grader.story", story=told, said=exc.said) if told else exc.said)
    # The learner's code raised: the question's tally words it (quietly, where hidden inputs
    # reach the learner's code), after the story.
    exc.simlab_story = told  # type: ignore[attr-defined]
    return exc
