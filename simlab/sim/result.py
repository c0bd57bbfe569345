"""What one simulated run returns: :class:`Result`, and the command line that replays it.

:func:`simlab.sim.simulation.simulate` builds a :class:`Result` from the run's history, the
checker's verdict and the ledger's final records; :func:`replay_command` is its ``replay``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from simlab.checker.history import History
from simlab.checker.rules import Finding
from simlab.records import Effect, TaskRecord
from simlab.sim.scenario import Scenario
from simlab.sim.schedule import Schedule

__all__ = ["Result", "replay_command"]


@dataclass
class Result:
    """What one run produced: the history, the verdict and the numbers a learner looks at first.

    ``violations`` is empty when every invariant held; ``coverage`` says which interesting cases
    the run really reached (a run with no stale commit proves little about fencing). Both, with
    ``warnings`` and ``metrics``, come from :func:`simlab.checker.checker.check`. ``final`` is the
    ledger's last record of every task; ``completed``/``cancelled``/``dead``/``unfinished`` count
    them. ``stale_rejected`` counts saves the fence refused. ``sent`` and ``duplicate_sends``
    come from the external mailbox (``mailbox`` maps each idempotency key to the e-mails that
    really arrived). ``crashes``, ``redeliveries`` and ``duplicates`` (extra copies the broker
    enqueued) count faults. ``replay`` is the ``simlab simulate`` command line for this run;
    ``own_ledger`` says the run's ledger was the caller's own (``simulate(ledger=...)`` with a
    ledger that is not one of the kit's), which no command runs: then ``replay`` is the Python
    call that reproduces the run, and the story says "your ledger" (:meth:`summary`: "own
    ledger") where they would name the variant.

    With ``workload="agent"``: ``needs_review`` counts tasks stopped for review (they end
    cancelled; ``review_codes`` counts their stop codes, e.g. ``{"document-changed": 3}``) and
    ``doc_edits`` the document versions the editor published.

    ``lost_emails`` counts e-mails whose key was recorded (``record_effect`` said "send") but
    that never reached the mailbox: a crash between the record and the send
    (``record_crash_rate``). Recording first makes e-mails *at most once*: never two, but one
    may be lost; sending without keys (``idempotency_keys=False``) is *at least once*: never
    lost, but sometimes two. ``outdated_emails`` counts e-mails that left citing a document
    version that was no longer current (the agent workload, with a ``recheck_gap``). Both come
    from the history (:func:`simlab.checker.measures.metrics`).

    ``schedule`` is the :class:`~simlab.sim.schedule.Schedule` of the faults that struck, in order:
    ``simulate(r.scenario, seed=r.seed, schedule=r.schedule)`` replays the run byte for byte, and
    ``r.schedule.save(path)`` writes it for ``simlab simulate --schedule``.
    ``fault_positions[i]`` is the history index at which ``schedule.faults[i]`` struck.
    ``unreached`` lists the faults of a given schedule that never struck (the run never came to
    their point: a step past the fault horizon, a second attempt that never happened); each is
    also one line of ``warnings``, so no scheduled fault vanishes without a word.
    ``findings`` are the violations with the letter of the rule each breaks and the history
    index where it broke (:class:`simlab.checker.rules.Finding`), in the order of ``violations``;
    ``effects`` the e-mail keys the ledger recorded, per task (``ledger.effects(task)``).
    """

    scenario: Scenario
    seed: int
    history: History
    violations: Sequence[str]
    warnings: list[str]
    coverage: dict[str, int]
    metrics: dict[str, float | int]
    final: list[TaskRecord]
    completed: int
    cancelled: int
    dead: int
    unfinished: int
    stale_rejected: int
    sent: int
    duplicate_sends: int
    crashes: int
    redeliveries: int
    duplicates: int
    end_time: float
    replay: str
    mailbox: dict[str, int] = field(repr=False, default_factory=dict)
    needs_review: int = 0
    review_codes: dict[str, int] = field(default_factory=dict)
    doc_edits: int = 0
    lost_emails: int = 0
    outdated_emails: int = 0
    schedule: Schedule | None = field(default=None, repr=False)
    fault_positions: list[int] = field(default_factory=list, repr=False)
    unreached: list[dict[str, Any]] = field(default_factory=list, repr=False)
    findings: list[Finding] = field(default_factory=list, repr=False)
    effects: dict[str, list[Effect]] = field(default_factory=dict, repr=False)
    own_ledger: bool = False

    @property
    def ok(self) -> bool:
        """True when no invariant was violated."""
        return not self.violations

    @property
    def variant(self) -> str:
        return self.scenario.variant

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary (the history is left out: use ``history.to_jsonl()``)."""
        return {
            "seed": self.seed,
            "variant": self.scenario.variant,
            "ok": self.ok,
            "tasks": self.scenario.tasks,
            "completed": self.completed,
            "cancelled": self.cancelled,
            "dead": self.dead,
            "unfinished": self.unfinished,
            "stale_rejected": self.stale_rejected,
            "sent": self.sent,
            "duplicate_sends": self.duplicate_sends,
            "lost_emails": self.lost_emails,
            "crashes": self.crashes,
            "redeliveries": self.redeliveries,
            "duplicate_deliveries": self.duplicates,
            "events": len(self.history),
            "end_time": self.end_time,
            "violations": list(self.violations),
            "warnings": list(self.warnings),
            "coverage": dict(self.coverage),
            "metrics": dict(self.metrics),
            "replay": self.replay,
            **self._agent_dict(),
        }

    def _agent_dict(self) -> dict[str, Any]:
        if self.scenario.workload != "agent":
            return {}
        return {
            "workload": "agent",
            "needs_review": self.needs_review,
            "review_codes": dict(self.review_codes),
            "doc_edits": self.doc_edits,
            "outdated_emails": self.outdated_emails,
        }

    def summary(self, limit: int = 5) -> str:
        """A few lines for a terminal: what ran, what happened, the verdict and the replay."""
        s = self.scenario
        cov = self.coverage
        lines = [
            f"simlab: {s.tasks} tasks x {s.steps} steps, {s.workers} workers, ttl {s.ttl:g}, "
            f"{'own ledger' if self.own_ledger else f'variant {s.variant}'}, seed {self.seed}",
            f"  {self.completed} completed, {self.cancelled} cancelled, {self.dead} dead, "
            f"{self.unfinished} unfinished at t={self.end_time:.1f} ({len(self.history)} events)",
            f"  faults: {self.crashes} crashes ({cov.get('crashes_after_effect', 0)} after an "
            f"e-mail), {self.duplicates} duplicate deliveries, {self.redeliveries} redeliveries",
            f"  fence: {self.stale_rejected} saves refused, "
            f"{cov.get('leases_expired', 0)} leases taken over after expiry",
            f"  mailbox: {self.sent} e-mails sent, {self.duplicate_sends} duplicates"
            + (f", {self.lost_emails} lost" if self.lost_emails or s.record_crash_rate else ""),
        ]
        if s.workload == "agent":
            codes = ", ".join(f"{c} {n}" for c, n in self.review_codes.items()) or "none"
            lines.append(
                f"  agent: {self.needs_review} stopped for review ({codes}), "
                f"{self.doc_edits} document edits"
                + (
                    f", {self.outdated_emails} e-mails citing an outdated version"
                    if self.outdated_emails or s.recheck_gap
                    else ""
                )
            )
        if self.ok:
            lines.append("verdict: OK, every invariant held.")
        else:
            lines.append(f"verdict: {len(self.violations)} VIOLATION(S)")
            lines += [f"  - {v}" for v in self.violations[:limit]]
            if len(self.violations) > limit:
                lines.append(f"  ... and {len(self.violations) - limit} more.")
        lines += [f"warning: {w}" for w in self.warnings]
        lines.append(f"replay: {self.replay}")
        return "\n".join(lines)


def replay_command(scenario: Scenario, seed: int) -> str:
    """The one-line ``simlab simulate`` command that reproduces a run: the fields that differ
    from the defaults, or ``--faults all`` and the fields that differ from
    :meth:`Scenario.adversarial` when that is shorter; a mode as its switch (``--pull``,
    ``--no-idempotency-keys``)."""
    parts = ["simlab", "simulate", "--seed", str(seed)]
    changed = scenario.non_defaults()
    preset = Scenario.adversarial()
    from_preset = {
        f.name: getattr(scenario, f.name)
        for f in fields(Scenario)
        if getattr(scenario, f.name) != getattr(preset, f.name)
    }
    if len(from_preset) + 1 < len(changed):
        parts += ["--faults", "all"]
        changed = from_preset
    for name, value in changed.items():
        flag = name.replace("_", "-")
        if isinstance(value, bool):  # a mode: its switch, on or off
            parts.append(f"--{flag}" if value else f"--no-{flag}")
        else:
            parts += [f"--{flag}", _arg(value)]
    return " ".join(parts)


def _arg(value: Any) -> str:
    if isinstance(value, float):
        return repr(value)
    return str(value)
