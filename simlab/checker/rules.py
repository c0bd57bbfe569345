"""The checker's rules, in one registry: each a small pure function with one plain sentence.

:data:`RULES` is the only list of rules. :func:`findings` replays a history through the
protocol's model (:mod:`simlab.checker.model`) and asks each *event rule* about every accepted
operation it judges (``ops``), with the task's state just before it; then each *run rule*
judges the whole run (the final ledger, the mailbox, liveness). :func:`simlab.checker.check`,
the shrinker and the story read the same findings, and :func:`rules_table` writes the table in
the README and below. Adding a rule is one entry here.

A :class:`Finding` names its rule, the history index at which the rule is broken (a rule judged
on the final state counts as broken at the last event), the sentence, and the event it conflicts
with (the newer lease, the first commit...). Every rule but (e), (g) and (p) is judged on the
history alone, so a prefix of a history that breaks one of them already breaks it.

The rules (generated from :data:`RULES`):

"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import simlab.checker.claim_next as claim_next
import simlab.checker.mid_run as mid_run
import simlab.checker.operations as ops
import simlab.checker.outcomes as outcomes
import simlab.checker.raises as raises
from simlab.checker.history import Event, HistoryView
from simlab.checker.model import Model
from simlab.checker.operations import at
from simlab.checker.outcomes import Finding, Run, Views
from simlab.checker.quiet import SCREENS
from simlab.checker.words import RULES_ZH, render, said
from simlab.records import Effect, TaskRecord

__all__ = [
    "Rule",
    "Finding",
    "Run",
    "RULES",
    "findings",
    "sentences",
    "broken_rules",
    "first_violation",
    "rule_phrase",
    "rules_table",
    "as_records",
    "at",
]


@dataclass(frozen=True)
class Rule:
    """One promise of the protocol: its letter, a short name and the promise in one sentence.
    An event rule lists the accepted ``ops`` it judges and judges one event at a time; a run
    rule (no ``ops``) judges the whole run."""

    letter: str
    name: str
    says: str
    #: an event rule's judge(state, event, model), or a run rule's judge(run)
    judge: Callable[..., Any]
    ops: tuple[str, ...] = ()
    #: ``ok``: the rule judges the accepted operations of ``ops``; ``fail``: the refused ones;
    #: ``both``: each of them
    on: str = "ok"
    #: with ``on="both"``, the operations whose accepted events it judges, when not all of
    #: ``ops`` (a judge not called on the many accepted events it would leave alone)
    accepted: tuple[str, ...] | None = None


# --- the registry ------------------------------------------------------------------------------

RULES: tuple[Rule, ...] = (
    Rule(
        "a",
        "stale commit",
        "a save is accepted only with the task's newest epoch (a newer claim or a cancel makes "
        "every older lease stale)",
        ops.stale_save,
        ("save",),
    ),
    Rule(
        "a'",
        "reused epoch",
        "every claim grants a higher epoch than the task ever had, a cancel's bump included",
        ops.reused_epoch,
        ("claim",),
    ),
    Rule(
        "b",
        "duplicate commit",
        "at most one accepted save per step of a task",
        ops.duplicate_commit,
        ("save",),
    ),
    Rule(
        "c",
        "completion after cancel",
        "a cancelled task never completes unless a requeue brought it back",
        ops.completion_after_cancel,
        ("save",),
    ),
    Rule(
        "d",
        "step regression",
        "the committed step of a task never goes back",
        ops.step_regression,
        ("save",),
    ),
    Rule(
        "e", "short completion", "a completed task has all of its steps", outcomes.short_completions
    ),
    Rule(
        "f",
        "resent e-mail",
        "an e-mail with an idempotency key is sent at most once",
        outcomes.resent_effects,
    ),
    Rule(
        "g",
        "liveness",
        "once faults stop, every task that was not cancelled and did not die ends completed",
        outcomes.stuck_tasks,
    ),
    Rule(
        "h",
        "two live leases",
        "a task is never claimed while another lease on it is live",
        ops.live_lease,
        ("claim",),
    ),
    Rule(
        "i",
        "stale heartbeat",
        "a heartbeat is accepted only with the task's newest epoch",
        ops.stale_heartbeat,
        ("heartbeat",),
    ),
    Rule(
        "j",
        "stale e-mail record",
        "an e-mail key is recorded only with the task's newest epoch, and only once (a key "
        "recorded before answers False)",
        ops.recorded_effect,
        ("effect",),
    ),
    Rule(
        "k",
        "ended task claimed",
        "a completed, cancelled or dead task is never claimed (a requeue brings a cancelled or "
        "dead one back)",
        ops.ended_claimed,
        ("claim",),
    ),
    Rule(
        "l",
        "no running lease",
        "a save, heartbeat or e-mail record is accepted only while the task is running",
        ops.no_lease,
        ("save", "heartbeat", "effect"),
    ),
    Rule(
        "v",
        "submit",
        "a submit returns the ID of the task it persisted, and a second submit of a task that "
        "exists raises and leaves the task as it was",
        ops.resubmit,
        ("submit",),
        on="both",
    ),
    Rule(
        "w",
        "release",
        "a release is accepted only with the task's newest epoch, while the task is running",
        ops.release,
        ("release",),
    ),
    Rule(
        "y",
        "read back",
        "a refused save, heartbeat, e-mail record or release changes nothing (the task reads "
        "back as before), and an accepted release leaves the task queued with no lease",
        ops.read_back,
        ("save", "heartbeat", "effect", "release"),
        on="both",
        accepted=("release",),
    ),
    Rule(
        "z",
        "views mid-run",
        "counts() and tasks(status), read while tasks run (at the last task's submit and when "
        "the faults stop), count and list each task under the status it has then, a running "
        "one with its holder and lease end",
        mid_run.views_mid_run,
    ),
    Rule(
        "m",
        "resume step",
        "a claim's lease names the task and the worker that claimed it, and resumes the task "
        "from its last committed step, with the checkpoint that step's save stored",
        ops.resume_step,
        ("claim",),
    ),
    Rule(
        "n",
        "cancel",
        "a cancel is accepted only for a queued or running task, and bumps its epoch",
        ops.cancel,
        ("cancel",),
    ),
    Rule(
        "o",
        "requeue",
        "only a cancelled or dead task is requeued, and it keeps its epoch",
        ops.requeue,
        ("requeue",),
    ),
    Rule(
        "p",
        "final state",
        "the final ledger (status, step, epoch, result, checkpoint, holder, attempts, no lease "
        "once a task is not running, e-mail keys in the order recorded) is what its accepted "
        "operations made it, each task keeps the tenant and goal it was submitted with, and "
        "its listing holds every task once, in submit order, as its listings by "
        "status and its counts do",
        outcomes.final_state,
    ),
    Rule(
        "q",
        "lease length",
        "a claim's lease, and each heartbeat's extension of it, runs for the ttl the worker "
        "asked for",
        ops.lease_length,
        ("claim", "heartbeat"),
    ),
    Rule(
        "r",
        "record before send",
        "an e-mail with a key leaves only from the lease whose record of that key was accepted",
        ops.record_first,
        ("send",),
    ),
    Rule(
        "t",
        "attempt limit",
        "each lease tells its attempt (the claims granted since the task's submit or last "
        "requeue, this one included), and past max_attempts claims the next claim moves the "
        "task to the dead letter instead of granting a lease",
        ops.attempt_limit,
        ("claim",),
    ),
    Rule(
        "s",
        "wrongful refusal",
        "a ledger refuses only what the contract refuses: a claim of a queued task or of one "
        "whose lease has ended, a save of a higher step, a heartbeat, a release or a new "
        "e-mail key with the current epoch of a running task, a cancel of a queued or running "
        "task and a requeue of a cancelled or dead one are accepted, and a claim is refused "
        "for its true reason, naming a live lease's holder or the status a finished task "
        "ended with",
        ops.refused,
        tuple(ops.REFUSABLE_OPS),
        on="fail",
    ),
    Rule(
        "u",
        "claim next",
        "claim_next hands out the oldest claimable task in submit order (a queued one, or a "
        "running one whose lease has ended), never a health probe, and nothing only when no "
        "task is claimable",
        claim_next.claim_next_order,
    ),
    Rule(
        "x",
        "raised answer",
        "a ledger raises only what the contract lets a call raise (a refused claim, a "
        "duplicate submit): every other call answers, and the answer a correct ledger gives "
        "is told beside the raise",
        raises.raised_answers,
    ),
)
_ORDER = {r.letter: i for i, r in enumerate(RULES)}
#: The operations whose invoke, refusal or fault the model follows besides the accepted ones
#: (a claim or heartbeat invoke: when its lease was asked for).
_TRACKED = frozenset({"claim", "heartbeat", "crash", "restart"})
_BY_LETTER = {r.letter: r for r in RULES}


def rule_phrase(letter: str, lang: str = "en") -> str:
    """``rule (a), stale commit: a save is accepted only ...``, in ``lang``."""
    r = _BY_LETTER[letter]
    name, says = (r.name, r.says) if lang == "en" else RULES_ZH[letter]
    return render(said("check.rule", letter=r.letter, name=name, says=says), lang)


def rules_table() -> str:
    """The registry as a Markdown table (the README's table of rules)."""
    lines = ["| rule | what must hold |", "|---|---|"]
    lines += [f"| ({r.letter}) {r.name} | {r.says} |" for r in RULES]
    return "\n".join(lines) + "\n"


__doc__ += "\n".join(f"* ({r.letter}) **{r.name}**: {r.says}." for r in RULES) + "\n"


# --- judging -------------------------------------------------------------------------------------


def as_records(final: Mapping[str, TaskRecord] | Iterable[TaskRecord]) -> dict[str, TaskRecord]:
    """The final records as a mapping task_id -> record (a mapping or an iterable of them)."""
    if isinstance(final, Mapping):
        return dict(final)
    return {r.task_id: r for r in final}


def _listed_twice(listed: Sequence[TaskRecord]) -> dict[str, int]:
    """task_id -> how many times ``listed`` holds it, for those it holds more than once."""
    counts = Counter(r.task_id for r in listed)
    return {task: n for task, n in counts.items() if n > 1}


def steps_of(
    view: HistoryView, records: Mapping[str, TaskRecord], steps: int | Mapping[str, int] | None
) -> dict[str, int | None]:
    """K per task: ``steps`` (one int for all, or a mapping), else each submit's ``steps``."""
    tasks = [*view.by_task, *records]
    if isinstance(steps, int):
        return dict.fromkeys(tasks, steps)
    ks: dict[str, int | None] = dict(steps) if steps is not None else {}
    for task in tasks:
        if task not in ks:
            ks[task] = view.steps_of(task)
    return ks


#: One entry per accepted operation: its event rules' (letter, judge) pairs, the model's
#: transition for it (a function of the model, the task's state and the event) or None,
#: whether it is a fenced operation that may open the lease of an open task, its screen
#: (:data:`simlab.checker.quiet.SCREENS`, None: none) and the pairs still asked when the screen
#: answers for the others.
_Judges = tuple[tuple[str, Callable[..., Any]], ...]
_Entry = tuple[_Judges, Callable[..., None] | None, bool, Callable[..., bool] | None, _Judges]


@lru_cache(maxsize=64)
def _judging(
    letters: frozenset[str] | None,
) -> tuple[dict[str, _Entry], dict[str, tuple[tuple[str, Callable[..., Any]], ...]], tuple]:
    """The rules of ``letters`` (None: all) laid out for :func:`findings`: op -> its entry for
    an accepted event, op -> the judges of its refusal, and the run rules in table order.
    Made once per choice of rules: a search judges thousands of short runs with the same."""
    wanted = RULES if letters is None else tuple(r for r in RULES if r.letter in letters)
    by_op: dict[str, list[tuple[str, Callable[..., Any]]]] = {}
    on_fail: dict[str, list[tuple[str, Callable[..., Any]]]] = {}
    for r in wanted:
        for op in r.ops:
            if r.on != "fail" and (r.accepted is None or op in r.accepted):
                by_op.setdefault(op, []).append((r.letter, r.judge))
            if r.on != "ok":
                on_fail.setdefault(op, []).append((r.letter, r.judge))
    fenced = ops.FENCED_OPS
    table: dict[str, _Entry] = {
        op: _entry(op, by_op.get(op, ()), getattr(Model, name), op in fenced and op in by_op)
        for op, name in Model.TRANSITIONS.items()
    }
    table.update(
        (op, _entry(op, judges, None, False)) for op, judges in by_op.items() if op not in table
    )
    fail = {op: tuple(judges) for op, judges in on_fail.items()}
    return table, fail, tuple(r for r in wanted if not r.ops)


def _entry(op: str, judges: Iterable, step: Callable[..., None] | None, opens: bool) -> _Entry:
    """The table entry of accepted ``op`` events (see :data:`_Entry`)."""
    judges = tuple(judges)
    screen, covered = SCREENS.get(op, (None, frozenset()))
    rest = tuple((letter, judge) for letter, judge in judges if letter not in covered)
    if len(rest) == len(judges):
        screen = None  # it answers for none of the rules asked
    return judges, step, opens, screen, rest


def findings(
    history: Iterable[Event] | HistoryView,
    final: Mapping[str, TaskRecord] | Iterable[TaskRecord] = (),
    *,
    steps: int | Mapping[str, int] | None = None,
    effects: Mapping[str, Sequence[Effect]] | None = None,
    ttl: float | None = None,
    rules: Iterable[str] | None = None,
    named_results: bool = False,
    listing: bool = False,
    max_attempts: int | None = None,
    views: Views | None = None,
    clocked: bool = False,
) -> list[Finding]:
    """Every broken promise of a run, grouped by rule in :data:`RULES` order, each rule's in
    history order (a rule's findings at the same index keep the order the rule gave them).

    ``final`` is the ledger's last records; ``steps`` K (see :func:`steps_of`); ``effects``
    the ledger's recorded e-mail keys per task (``Ledger.effects``), compared with the
    accepted records when given; ``ttl`` the lease length the workers asked for, which times
    the leases and is checked when given. ``rules`` limits the judging to those letters.
    ``named_results``: every completing save stored a result that names its worker and epoch
    (``{"worker": ..., "epoch": ...}``, as the simulator's opaque workers do), so a completed
    task must hold exactly that result.
    ``views``: what ``counts()`` and ``tasks(status)`` answered at the end, judged against
    the listing when ``listing`` is set. ``clocked``: the history's times are the ledger's own
    clock (as in a simulated run), so the records' and keys' timestamps must be its readings.
    One pass over the events, plus one over the final records.
    """
    view = history if isinstance(history, HistoryView) else HistoryView(history)
    if not isinstance(final, Mapping):
        final = list(final)  # read twice: once for the records, once for the repeats
    records = as_records(final)
    # A listing holds a task twice only if it is longer than its records: counted only then.
    twice = _listed_twice(final) if listing and len(final) > len(records) else {}
    table, on_fail, run_rules = _judging(None if rules is None else frozenset(rules))
    model = Model(set(view.submits), ttl, max_attempts)
    found: list[Finding] = []
    apply, open_lease = model.apply, model.open_lease
    # The views read while tasks run are judged against each task's state right after the
    # event that recorded them (rule (z)): the replay notes it as it passes that index, for
    # the tasks whose events go on after it (the others are as their final state says).
    then: dict[int, dict[str, tuple[str, bool, str | None, float | None] | None]] = {
        e.index: {} for e in mid_run.view_reads(view)
    }
    # Every rule is about one task, so each task's events are replayed on their own.
    for task, events in view.by_task.items():
        s = model.state(task)
        pending = iter(then)
        read_at = next(pending, math.inf)
        for e in events:
            if e.index > read_at:
                read_at = _note_views(then, pending, read_at, s, e.index)
            op = e.op
            if e.type != "ok":
                if op in on_fail and e.type == "fail":
                    for letter, judge in on_fail[op]:
                        hit = judge(s, e, model)
                        if hit is not None:
                            found.append(Finding.of(letter, e.index, hit[0], e, hit[1]))
                if op in _TRACKED:
                    apply(s, e)
                continue
            entry = table.get(op)
            if entry is None:
                continue
            judges, step, opens, screen, rest = entry
            if op == "claim":
                s.inflight.discard(e.process)
            if opens and not s.submitted:
                open_lease(s, e)
            if screen is not None and screen(s, e, model):
                judges = rest  # the screen answers for the others: they find nothing here
            for letter, judge in judges:
                hit = judge(s, e, model)
                if hit is not None:
                    found.append(Finding.of(letter, e.index, hit[0], e, hit[1]))
            if step is not None:
                step(model, s, e)
    if run_rules:
        run = Run(
            view,
            model.tasks,
            records,
            steps_of(view, records, steps),
            effects,
            named_results,
            listing,
            twice,
            not isinstance(final, Mapping),  # ordered: a sequence keeps the listing's order
            views,
            clocked,
            ttl,
            then,
        )
        for r in run_rules:
            found.extend(r.judge(run))
    found.sort(key=lambda f: (_ORDER[f.letter], f.index))
    return found


def _note_views(
    then: dict[int, dict[str, tuple[str, bool, str | None, float | None] | None]],
    pending: Iterator[int],
    read_at: float,
    s: Any,
    upto: float,
) -> float:
    """Note task ``s``'s status, whether a claim of it may have been granted unseen, the
    worker granted its last claim and the lease end the ledger last reported (:func:`noted`),
    or None when it is not submitted yet, for each views read from ``read_at`` on (then those
    ``pending``) that comes before index ``upto``, the task's next event. Returns the next
    read after them (inf: none)."""
    while read_at < upto:
        then[int(read_at)][s.task] = mid_run.noted(s) if s.submit is not None else None
        read_at = next(pending, math.inf)
    return read_at


def sentences(letter: str, history, final=(), **kwargs) -> list[str]:
    """The sentences of rule ``letter`` alone (keyword arguments as for :func:`findings`)."""
    return [f.sentence for f in findings(history, final, rules=[letter], **kwargs)]


def broken_rules(found: Iterable[Finding]) -> dict[str, list[str]]:
    """Rule letter -> its sentences, for the rules ``found`` breaks (in table order)."""
    out: dict[str, list[str]] = {}
    for f in sorted(found, key=lambda f: _ORDER[f.letter]):
        out.setdefault(f.letter, []).append(f.sentence)
    return out


def first_violation(found: Iterable[Finding], rules: Iterable[str] | None = None) -> Finding | None:
    """The finding broken earliest in the history among ``rules`` (default: all); on a tie,
    the rule first in table order. None when none of them is broken."""
    wanted = None if rules is None else set(rules)
    best = None
    for f in found:
        if wanted is not None and f.letter not in wanted:
            continue
        if best is None or (f.index, _ORDER[f.letter]) < (best.index, _ORDER[best.letter]):
            best = f
    return best
