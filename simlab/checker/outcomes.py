"""The rules judged on a whole run: the final ledger, the mailbox and liveness.

Each function here is a *run rule* of :data:`simlab.checker.rules.RULES`: it reads a :class:`Run`
(the history, the model's final states, the ledger's final records) and returns its
:class:`Finding` list. A finding about the final state counts as broken at the last event.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from simlab.checker.history import Event, HistoryView
from simlab.checker.measures import send_groups
from simlab.checker.model import TaskState, is_time, within
from simlab.checker.operations import at, status, who
from simlab.checker.words import Said, render, said
from simlab.records import (
    COMPLETED,
    PROBE_TENANT,
    RUNNING,
    TERMINAL_STATUSES,
    Effect,
    TaskRecord,
)

__all__ = [
    "Finding",
    "Sentences",
    "Run",
    "Views",
    "short_completions",
    "resent_effects",
    "stuck_tasks",
    "final_state",
]


@dataclass(frozen=True, eq=False)
class Finding:
    """One broken promise: rule ``letter``, broken at history ``index`` by ``event`` (None for
    a finding about the final state), told by the message ``said``; ``other`` is the event it
    conflicts with, when there is one. ``sentence`` is the message in English, rendered when
    first read (a broken ledger's run may hold thousands of findings that nobody reads);
    :meth:`text` renders it in another language (:mod:`simlab.checker.words`). Two findings
    are equal when their rule, index, sentence and events are."""

    letter: str
    index: int
    said: Said = field(repr=False)
    event: Event | None = None
    other: Event | None = None

    @classmethod
    def of(cls, letter: str, index: int, told: Said, event=None, other=None) -> Finding:
        """A finding told by the message ``told``."""
        return cls(letter, index, told, event, other)

    @cached_property
    def sentence(self) -> str:
        """The sentence in English."""
        return render(self.said)

    def text(self, lang: str = "en") -> str:
        """The sentence in ``lang``."""
        return self.sentence if lang == "en" else render(self.said, lang)

    def _key(self) -> tuple:
        return (self.letter, self.index, self.sentence, self.event, self.other)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Finding:
            return NotImplemented
        return self._key() == other._key()  # type: ignore[union-attr]

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"Finding(letter={self.letter!r}, index={self.index!r}, sentence={self.sentence!r})"


class Sentences(Sequence[str]):
    """The sentences of a list of findings, in their order, each rendered when first read: a
    read-only sequence of ``str`` that equals any list or tuple of the same sentences."""

    __slots__ = ("_findings",)

    def __init__(self, findings: Sequence[Finding] = ()) -> None:
        self._findings = findings

    def __len__(self) -> int:
        return len(self._findings)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [f.sentence for f in self._findings[i]]
        return self._findings[i].sentence

    def __iter__(self) -> Iterator[str]:
        return (f.sentence for f in self._findings)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sentences | list | tuple):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # equal to lists, which do not hash

    def __repr__(self) -> str:
        return repr(list(self))


@dataclass(frozen=True)
class Views:
    """What a ledger's filtered views answered at the end of a run, read at the same instant
    as its listing: ``counts`` is ``counts()``; ``by_status`` maps each status asked to the
    records ``tasks(status)`` gave. Judged against the listing (rule (p)): each status lists
    exactly the listing's tasks of that status, in the listing's order, and each count is the
    number of the listing's tasks of that status (a status with none may be left out)."""

    counts: Mapping[str, int]
    by_status: Mapping[str, Sequence[TaskRecord]]


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
    #: task -> how many times the listing held it, for those it held more than once
    twice: Mapping[str, int] = field(default_factory=dict)
    #: ``final`` keeps the listing's order (it was given as a sequence, not a mapping)
    ordered: bool = False
    #: what the ledger's other views said at the end, when read: ``counts()`` and
    #: ``tasks(status)`` per status (see :func:`~simlab.checker.rules.findings`)
    views: Views | None = None
    #: the history's times are readings of the ledger's own clock (see ``findings``)
    clocked: bool = False
    #: the lease length the workers asked for, when known (it times the leases ``claim_next``
    #: may take over)
    ttl: float | None = None
    #: index of each event that recorded the ledger's views
    #: (:func:`~simlab.checker.mid_run.view_reads`) -> task -> what the views are held to for
    #: it right after that event (:func:`~simlab.checker.mid_run.noted`), or None when it was
    #: not submitted by then, for the tasks whose events go on after that event; every other
    #: task is then as its final state (``states``) says
    then: Mapping[int, Mapping[str, tuple[str, bool, str | None, float | None] | None]] = field(
        default_factory=dict
    )

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
        by = _s("short.by", who=who(done), t=at(done.time)) if done else _s("resume.none")
        long = is_time(record.step) and record.step > k
        sentence = _s("short.long" if long else "short", task=task, step=record.step, k=k, by=by)
        out.append(Finding.of("e", run.last, sentence, None, done))
    return out


def resent_effects(run: Run) -> list[Finding]:
    keyed, _ = send_groups(run.view)
    out = []
    for (task, key), sends in keyed.items():
        if len(sends) > 1:
            a, b = sends[0], sends[1]
            sentence = _s(
                "resent", who=who(b), key=key, task=task, t=at(b.time), first=who(a),
                t0=at(a.time), n=len(sends),
            )  # fmt: skip
            out.append(Finding.of("f", b.index, sentence, b, a))
    return out


def stuck_tasks(run: Run) -> list[Finding]:
    off = run.view.faults_off
    if off is None:
        return []
    end = run.view.events[-1].time
    out = []
    for task, record in run.final.items():
        if record.status in TERMINAL_STATUSES or record.tenant == PROBE_TENANT:
            continue  # a health probe is never handed out, so it stays queued
        k = run.steps.get(task)
        of_k = _s("stuck.of", k=k) if k is not None else _s("resume.none")
        idle = end <= off.time  # nothing happened after the faults stopped
        sentence = _s(
            "stuck.idle" if idle else "stuck", task=task, status=status(record.status),
            step=record.step, of_k=of_k, epoch=record.epoch, off=at(off.time), end=at(end),
        )  # fmt: skip
        out.append(Finding.of("g", run.last, sentence))
    return out


def final_state(run: Run) -> list[Finding]:
    out = []
    if run.listing:
        for task, submit in run.view.submits.items():
            if task not in run.final:
                sentence = _s("listing", task=task, t=at(submit.time))
                out.append(Finding.of("p", run.last, sentence, None, submit))
        for task, n in run.twice.items():
            out.append(Finding.of("p", run.last, _s("listing.twice", task=task, n=n)))
        if run.ordered:
            out.extend(_listing_order(run))
        if run.views is not None:
            out.extend(_views(run))
    submits, states, effects = run.view.submits, run.states, run.effects
    # what every record is held to: read once, not once per record
    end = run.view.events[-1].time if run.clocked and run.view.events else None
    for task, record in run.final.items():
        s = states.get(task)
        if s is None or not s.submitted:
            continue
        wrong = []
        epoch_ok = record.epoch == s.epoch or (s.epoch_floor and record.epoch > s.epoch)
        if (record.status, record.step) != (s.status, s.step) or not epoch_ok:
            wrong.append(
                _s("final.state", status=status(record.status), step=record.step,
                   epoch=record.epoch, mstatus=status(s.status), mstep=s.step, mepoch=s.epoch)
            )  # fmt: skip
        result = record.result
        if result.__class__ is dict:  # _writer(result), spelled out for a JSON object
            writer = (result["worker"], result["epoch"]) if _NAMED <= result.keys() else None
        else:
            writer = _writer(result)
        if s.done is not None and (writer is not None or run.named_results):
            if writer is None:
                wrong.append(_s("final.no_result", who=who(s.done)))
            elif writer != (s.done.process, s.done.epoch):
                wrong.append(_s("final.result", p=writer[0], epoch=writer[1], who=who(s.done)))
        if s.checkpointed and record.checkpoint != s.checkpoint:
            wrong.append(
                _s("final.checkpoint", got=repr(record.checkpoint), want=repr(s.checkpoint))
            )
        submit = submits.get(task)
        if submit is not None:
            _as_submitted(record, submit, wrong)
        # Each helper is called where its common case, which finds nothing, does not hold.
        attempts = record.attempts
        if (
            s.inflight
            or s.unseen
            or record.worker != s.claimer
            or attempts.__class__ is not int
            or attempts != s.attempts
        ):
            _holder_and_attempts(record, s, wrong)
        if record.lease_until is not None:
            _lease_of_an_ended_task(record, s, wrong)
        if end is not None and submit is not None:
            start, updated = submit.time, record.updated_at
            if (
                record.created_at != start
                or updated.__class__ is not float
                or not start <= updated <= end
                or (effects and effects.get(task))
            ):
                _off_the_clock(task, record, s, start, end, effects, wrong)
        if effects is not None and (s.effects or effects.get(task)):
            listed = [(f.key, f.epoch) for f in effects.get(task, ())]
            recorded = [(k, e.epoch) for k, e in s.effects.items()]
            if dict(listed) != dict(recorded):
                stored, accepted = _keys(dict(listed)), _keys(dict(recorded))
                wrong.append(_s("final.keys", stored=stored, accepted=accepted))
            elif listed != recorded:  # the same keys, but out of order or repeated
                stored, accepted = _keys(listed, sort=False), _keys(recorded, sort=False)
                wrong.append(_s("final.keys_listed", stored=stored, accepted=accepted))
            _key_writers(task, effects.get(task, ()), s, wrong)
        if wrong:
            joined = wrong[0]
            for more in wrong[1:]:
                joined = _s("final.and", a=joined, b=more)
            out.append(Finding.of("p", run.last, _s("final", task=task, wrong=joined)))
    return out


def _key_writers(task: str, listed: Sequence[Effect], s: TaskState, wrong: list[Said]) -> None:
    """Add to ``wrong`` the first of ``task``'s listed keys whose record names another task or
    another worker than the accepted record of that key (a key names the task and the worker
    whose lease recorded it)."""
    for f in listed:
        rec = s.effects.get(f.key)
        if rec is not None and (f.task_id != task or f.worker != rec.process):
            wrong.append(
                _s(
                    "final.key_writer",
                    key=f.key,
                    listed=repr(f.task_id),
                    worker=repr(f.worker),
                    who=rec.process,
                    task=task,
                )  # fmt: skip
            )
            return


def _as_submitted(record: TaskRecord, submit: Event, wrong: list[Said]) -> None:
    """Add to ``wrong`` what a record stores of its submit unlike what the submit carried: the
    tenant (the contract's default ``"default"`` when the submit named none) and, when the
    submit event records one, the goal. Both are written once, at the submit, and nothing
    changes them."""
    value = submit.value
    want = value.get("tenant", "default")
    if record.tenant != want:
        wrong.append(_s("final.submitted", field="tenant", got=repr(record.tenant),
                        want=repr(want)))  # fmt: skip
    if "goal" in value and record.goal != (want := value["goal"]):
        wrong.append(_s("final.submitted", field="goal", got=repr(record.goal), want=repr(want)))


def _holder_and_attempts(record: TaskRecord, s: TaskState, wrong: list[Said]) -> None:
    """Add to ``wrong`` where the record does not name the worker granted the task's last
    claim (a ledger may forget the holder, None, once the task is not running) or does not
    count the claims granted since its submit or last requeue. Where a claim was cut off
    unanswered (by a crash, or by the end of the run), the count may be up to one more for
    each such claim and the holder is not judged. A count of None (a hand-written record that
    does not say) is not judged."""
    worker, unseen = record.worker, s.unanswered
    claimer = s.claimer if not s.inflight else None
    if claimer is not None and worker != claimer and (worker is not None or s.status == RUNNING):
        wrong.append(_s("final.worker", worker=worker_named(worker), who=claimer))
    attempts = record.attempts
    if attempts is not None and not (
        (attempts.__class__ is int or is_time(attempts))
        and s.attempts <= attempts <= s.attempts + unseen
    ):
        wrong.append(_s("final.attempts", n=attempts, m=s.attempts))


def _lease_of_an_ended_task(record: TaskRecord, s: TaskState, wrong: list[Said]) -> None:
    """A task that is not running holds no lease: its record's ``lease_until`` is None (a
    completing save, a cancel, a requeue and the move to the dead letter each end the lease).
    Judged where the record and the model agree that the task is not running and no claim of it
    may have been granted unseen (one would leave the status itself in doubt); a lease held
    anyway is added to ``wrong``."""
    until = record.lease_until
    if until is None or record.status == RUNNING or s.status == RUNNING or s.unanswered:
        return
    told = at(until) if is_time(until) else repr(until)
    wrong.append(_s("final.lease", until=told, status=status(record.status)))


def worker_named(worker: Any) -> Any:
    """A worker's name as words (None: no worker)."""
    return _s("worker.none") if worker is None else worker


def _off_the_clock(
    task: str,
    record: TaskRecord,
    s: TaskState,
    start: float,
    end: float,
    effects: Mapping[str, Sequence[Effect]] | None,
    wrong: list[Said],
) -> None:
    """Add to ``wrong`` the timestamps of ``task``'s record and its keys' ``recorded_at`` that
    are no reading of the run's clock: ``created_at`` the submit's time ``start``,
    ``updated_at`` between ``start`` and the run's ``end``, ``recorded_at`` the time of the
    key's accepted record (None is not judged)."""
    created, updated = record.created_at, record.updated_at
    # A reading equal to the submit's time, or a float inside the run, is within the tolerance
    # at once (the common case, tested first).
    if created != start and is_time(created) and not within(created, start, start):
        lo = at(start, created)
        wrong.append(_s("final.clock", field="created_at", value=at(created, start), lo=lo, hi=lo))
    if (
        not (updated.__class__ is float and start <= updated <= end)
        and is_time(updated)
        and not within(updated, start, end)
    ):
        near = start if is_time(updated) and float(updated) < start else end
        value, lo, hi = at(updated, near), at(start, updated), at(end, updated)
        wrong.append(_s("final.clock", field="updated_at", value=value, lo=lo, hi=hi))
    if not effects:
        return
    for f in effects.get(task, ()):
        rec = s.effects.get(f.key)
        if (
            rec is not None
            and is_time(f.recorded_at)
            and not within(f.recorded_at, rec.time, rec.time)
        ):
            value, t = at(f.recorded_at, rec.time), at(rec.time, f.recorded_at)
            wrong.append(_s("final.clock_key", key=f.key, value=value, t=t))


#: The keys of a result that names its writer.
_NAMED = frozenset({"worker", "epoch"})


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


def _listing_order(run: Run) -> list[Finding]:
    """The listing holds the tasks in submit order: judged only where the history shows that
    order, every submit from one process (one client submits one task after the other)."""
    submits = run.view.submits
    if len({e.process for e in submits.values()}) > 1:
        return []
    listed = [task for task in run.final if task in submits]
    for before, after in zip(listed, listed[1:], strict=False):
        if submits[after].index < submits[before].index:
            sentence = _s("listing.order", a=before, b=after, t=at(submits[after].time))
            return [Finding.of("p", run.last, sentence, None, submits[after])]
    return []


def _views(run: Run) -> list[Finding]:
    """The filtered views agree with the listing: ``tasks(status)`` holds the listing's tasks
    of that status (in its order, when the listing keeps one) with the same status, step and
    epoch, and ``counts()`` counts them."""
    out = []
    views = run.views
    assert views is not None
    of: dict[str, list[TaskRecord]] = {}  # the listing's records by status, in its order
    for r in run.final.values():
        of.setdefault(r.status, []).append(r)
    for state, records in views.by_status.items():
        want = of.get(state, [])
        got = list(records)
        if run.ordered:
            same = [r.task_id for r in got] == [r.task_id for r in want]
        else:
            same = sorted(r.task_id for r in got) == sorted(r.task_id for r in want)
        same = same and all(
            (r.status, r.step, r.epoch) == (state, held.step, held.epoch)
            for r in got
            if (held := run.final.get(r.task_id)) is not None
        )
        if not same:
            listed, held = _ids(got, state), _ids(want, state)
            sentence = _s("listing.status", s=status(state), listed=listed, held=held)
            out.append(Finding.of("p", run.last, sentence))
    tally = {state: len(records) for state, records in of.items()}
    counted = {k: v for k, v in views.counts.items() if v != 0}
    if counted != tally:
        sentence = _s("listing.counts", counted=tallied(counted), held=tallied(tally))
        out.append(Finding.of("p", run.last, sentence))
    return out


def _ids(records: Sequence[TaskRecord], state: str) -> Any:
    """The task IDs of ``records`` (with the status of any that holds another) as words."""
    if not records:
        return _s("keys.none")
    return [
        r.task_id if r.status == state else _s("listing.other", task=r.task_id, s=status(r.status))
        for r in records
    ]


def tallied(counts: Mapping[str, int]) -> Any:
    """Counts per status as words, sorted by status."""
    if not counts:
        return _s("keys.none")
    return [_s("listing.count", s=status(k), n=v) for k, v in sorted(counts.items())]


def _keys(keys: Mapping[str, int] | Sequence[tuple[str, int]], sort: bool = True):
    """The keys and their epochs as the words of a sentence (sorted by key, unless not)."""
    pairs = list(keys.items()) if isinstance(keys, Mapping) else list(keys)
    if not pairs:
        return _s("keys.none")
    return [_s("key", key=k, epoch=v) for k, v in (sorted(pairs) if sort else pairs)]


def _s(name: str, /, **values: Any) -> Said:
    return said("check." + name, **values)
