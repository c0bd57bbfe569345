"""How the checks of exercise ``leases`` drive a student's ledger: a clock moved by hand, fresh
ledgers of the student's pieces on it, an expected error, and a run of the fault simulator
judged by the checker."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from simlab.errors import LeaseHeld, TerminalTask, UnknownTask
from simlab.grading.questions import Fail, require
from simlab.grading.student import RemoteObject, Student, kind_of
from simlab.sim.scenario import Scenario
from simlab.sim.simulation import simulate

__all__ = ["Clock", "Ledgers", "raises", "simulated"]


class Clock:
    """A clock the check moves by hand."""

    def __init__(self, now: float = 0.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


class Ledgers:
    """Fresh ledgers with the student's ``pieces`` plugged in, all on one hand :class:`Clock`
    (the clock of one question: each fresh ledger sets it back to 0)."""

    def __init__(self, s: Student, **pieces: str):
        self.s = s
        self.pieces = pieces
        self.clock = Clock()

    def fresh(self) -> RemoteObject:
        """A new ledger at time 0 holding one queued task, ``t1``."""
        self.clock.now = 0.0
        ledger = self.s.ledger(clock=self.clock, **self.pieces)
        ledger.submit("t1")
        return ledger


def raises(call: Callable[[], Any], error: type, message: str) -> None:
    """``call()`` must raise ``error``; otherwise fail with ``message`` and what happened."""
    try:
        value = call()
    except error:
        return
    except (LeaseHeld, TerminalTask, UnknownTask) as other:
        raise Fail(f"{message}, but it raised {type(other).__name__}") from None
    raise Fail(f"{message}, but it returned {kind_of(value)}")


def simulated(s: Student, scenario: Scenario, seed: int, pieces: dict[str, str], what: str) -> None:
    """Run the fault simulator over a ledger with the student's ``pieces``; the checker must
    find nothing, and no e-mail may go out twice. A failing run is shrunk to its fewest faults
    (:func:`simlab.shrink`) and told as a short story in the learner's terms (never its seed).
    """

    def factory(clock: Callable[[], float]) -> RemoteObject:
        return s.ledger(clock=clock, **pieces)

    result = simulate(scenario, seed=seed, ledger=factory)
    if not result.ok:
        raise Fail(f"with faults on, {what} broke a rule: {story_of(scenario, seed, factory)}")
    require(
        result.duplicate_sends == 0,
        f"with faults on, {what} let {result.duplicate_sends} e-mail(s) go out twice",
    )


#: Characters the story of a failing simulation may take in the feedback.
STORY_CHARS = 150


def story_of(scenario: Scenario, seed: int, factory: Callable[..., Any]) -> str:
    """The last moves of the shrunk failing run and the rule it broke, in a few plain
    sentences without times, seeds or fault numbers."""
    from simlab.sim.shrink import shrink

    story = shrink(scenario, seed=seed, ledger=factory).story
    events = [_plain(line) for line in story if re.match(r"t=[\d.]+: ", line)]
    rule = next((line for line in story if line.startswith("This breaks rule")), "")
    rule = rule.split(": ")[0] + "." if rule else ""
    told = events[-3:]
    while told and len(" ".join([*told, rule])) > STORY_CHARS:
        told = told[1:]
    return " ".join([*told, rule]).strip()


def _plain(line: str) -> str:
    line = re.sub(r"^t=[\d.]+: (fault \d+: )?", "", line)
    return line.split(": ")[0].rstrip(".") + "."
