"""The rules judged on a whole run: the final ledger, the mailbox and liveness.

Each function here is a *run rule* of :data:`simlab.check.rules.RULES`: it reads a :class:`Run`
(the history, the model's final states, the ledger's final records) and returns its
:class:`Finding` list. A finding about the final state counts as broken at the last event.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from simlab.check.history import Event, HistoryView
from simlab.check.measures import send_groups
from simlab.check.model import TaskState
from simlab.check.operations import at, who
from simlab.records import CANCELLED, COMPLETED, DEAD, Effect, TaskRecord

__all__ = ["Finding", "Run", "short_completions", "resent_effects", "stuck_tasks", "final_state"]


@dataclass(frozen=True)
class Finding:
    """One broken promise: rule ``letter``, broken at history ``index`` by ``event`` (None for
    a finding about the final state), told in ``sentence``; ``other`` is the event it
    conflicts with, when there is one."""

    letter: str
    index: int
    sentence: str
    event: Event | None = None
    other: Event | None = None


@dataclass
class Run:
    """What a run rule reads: the history, the model's final states, the ledger's final
    records, K per task, the ledger's recorded e-mail keys per task (None: not given),
    whether every completing save stored a result naming its worker and epoch, and whether the
    final records are the ledger's whole listing."""

    view: HistoryView
    states: dict[str, TaskState]
    final: dict[str, TaskRecord]
    steps: dict[str, int | None]
    effects: Mapping[str, Sequence[Effect]] | None
    named_results: bool = False
    #: ``final`` is the ledger's whole listing (``tasks()``): every submitted task must be in it
    listing: bool = False

    @property
    def last(self) -> int:
        return len(self.view.events) - 1


# --- the rules -------------------------------------------------------------------------------


def short_completions(run: Run) -> list[Finding]:
    out = []
    for task, record in run.final.items():
        k = run.steps.get(task)
        if record.status != COMPLETED or k is None or record.step == k:
            continue
        s = run.states.get(task)
        done = s.done if s is not None else None
        by = f": {who(done)} marked it done at {at(done.time)}" if done else ""
        sentence = f"{task} ended completed at step {record.step} of {k}{by}."
        out.append(Finding("e", run.last, sentence, None, done))
    return out


def resent_effects(run: Run) -> list[Finding]:
    keyed, _ = send_groups(run.view)
    out = []
    for (task, key), sends in keyed.items():
        if len(sends) > 1:
            a, b = sends[0], sends[1]
            sentence = (
                f"{who(b)} sent the e-mail {key!r} of {task} again at {at(b.time)}, although "
                f"{who(a)} had sent it at {at(a.time)} ({len(sends)} copies in all)."
            )
            out.append(Finding("f", b.index, sentence, b, a))
    return out


def stuck_tasks(run: Run) -> list[Finding]:
    off = run.view.faults_off
    if off is None:
        return []
    end = run.view.events[-1].time
    out = []
    for task, record in run.final.items():
        if record.status in (COMPLETED, CANCELLED, DEAD):
            continue
        k = run.steps.get(task)
        of_k = f" of {k}" if k is not None else ""
        sentence = (
            f"{task} ended {record.status} at step {record.step}{of_k} (epoch {record.epoch}), "
            f"although faults stopped at {at(off.time)} and the run went on until {at(end)}."
        )
        out.append(Finding("g", run.last, sentence))
    return out


def final_state(run: Run) -> list[Finding]:
    out = []
    if run.listing:
        for task, submit in run.view.submits.items():
            if task not in run.final:
                sentence = (
                    f"{task} was submitted at {at(submit.time)}, but the ledger's listing of "
                    "its tasks leaves it out."
                )
                out.append(Finding("p", run.last, sentence, None, submit))
    for task, record in run.final.items():
        s = run.states.get(task)
        if s is None or not s.submitted:
            continue
        wrong = []
        if (record.status, record.step, record.epoch) != (s.status, s.step, s.epoch):
            wrong.append(
                f"the ledger says {record.status} at step {record.step} (epoch {record.epoch}), "
                f"but its accepted operations leave it {s.status} at step {s.step} "
                f"(epoch {s.epoch})"
            )
        writer = _writer(record.result)
        if s.done is not None and (writer is not None or run.named_results):
            if writer is None:
                wrong.append(f"it holds no result, but {who(s.done)} completed it with one")
            elif writer != (s.done.process, s.done.epoch):
                wrong.append(
                    f"its result names {writer[0]} (epoch {writer[1]}), but {who(s.done)} "
                    "completed it"
                )
        if run.effects is not None and (s.effects or run.effects.get(task)):
            stored = {f.key: f.epoch for f in run.effects.get(task, ())}
            accepted = {k: e.epoch for k, e in s.effects.items()}
            if stored != accepted:
                wrong.append(
                    f"the ledger holds the e-mail keys {_keys(stored)}, but the accepted "
                    f"records were {_keys(accepted)}"
                )
        if wrong:
            out.append(Finding("p", run.last, f"{task}: " + "; ".join(wrong) + "."))
    return out


def _writer(result: Any) -> tuple[Any, Any] | None:
    """The (worker, epoch) a result names, for results that name their writer."""
    # dict first: isinstance against the Mapping ABC is slow, and results are JSON (dicts).
    if (
        (result.__class__ is dict or isinstance(result, Mapping))
        and "worker" in result
        and "epoch" in result
    ):
        return result["worker"], result["epoch"]
    return None


def _keys(keys: Mapping[str, int]) -> str:
    if not keys:
        return "none"
    return ", ".join(f"{k!r} (epoch {v})" for k, v in sorted(keys.items()))
