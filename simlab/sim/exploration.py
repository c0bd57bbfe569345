"""What a bounded exhaustive search answers (:class:`Exploration`): a certificate or the shortest
counterexample, the work done and the scope searched, and its ``--json`` object."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from simlab.sim.schedule import Schedule
from simlab.sim.simulation import Result

__all__ = ["Exploration"]


@dataclass
class Exploration:
    """What :func:`explore` found: a certificate (``certified``) or the shortest counterexample
    (``faults`` of them, its ``story``, the ``replay`` command and the ``schedule_file`` it was
    saved to, when saved), with the work done (``schedules`` run, distinct ``states`` reached,
    ``seconds``), the ``scope`` and the pause ``lengths`` explored. ``stopped`` says why a
    search ended early (``"time-limit"`` or ``"interrupted"``): such a search never certifies,
    and ``covered`` is the number of faults up to which every schedule was run. When the time
    limit's alarm rang in a run, ``in_progress`` says where: the ledger call it cut, when there
    was one (``process``, ``call``, ``task``, and ``time`` in the run), and the run's ``seed``
    and ``faults``; ``stopped_schedule`` is that run's schedule (``schedule_file`` and
    ``replay`` once saved)."""

    certified: bool
    schedules: int
    states: int
    seconds: float
    scope: dict[str, Any]
    lengths: list[float]
    covered: int
    faults: int | None = None
    story: list[str] | None = None
    replay: str | None = None
    schedule_file: str | None = None
    stopped: str | None = None
    findings: list[str] = field(default_factory=list)
    result: Result | None = field(default=None, repr=False)
    in_progress: dict[str, Any] | None = None
    stopped_schedule: Schedule | None = field(default=None, repr=False)

    @property
    def schedule(self) -> Schedule | None:
        """The counterexample's schedule (None with a certificate)."""
        return None if self.result is None else self.result.schedule

    def to_dict(self) -> dict[str, Any]:
        """The ``--json`` object."""
        data: dict[str, Any] = {
            "certified": self.certified,
            "schedules": self.schedules,
            "states": self.states,
            "seconds": round(self.seconds, 3),
            "scope": dict(self.scope),
            "lengths": list(self.lengths),
            "covered": self.covered,
            "stopped": self.stopped,
        }
        if self.faults is not None:
            data.update(
                faults=self.faults,
                story=list(self.story or []),
                replay=self.replay,
                schedule_file=self.schedule_file,
                findings=list(self.findings),
            )
        elif self.in_progress is not None:
            data["in_progress"] = dict(self.in_progress)
            if self.schedule_file is not None:
                data.update(schedule_file=self.schedule_file, replay=self.replay)
        return data
