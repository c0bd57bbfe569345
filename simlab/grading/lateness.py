"""Deadlines and late penalties: the arithmetic, pure (no clock, no files).

* :func:`parse_time` reads ``--deadline``, ``--extension`` and a roster's ``deadline`` column:
  ISO 8601 with its zone (``2026-12-01T23:59:59+08:00``, ``...Z``); a time without a zone is
  refused, since it would mean a different instant on each machine.
* :func:`parse_policy` reads ``--late-policy P%/day[,cap=C%][,cutoff=Dd]``.
* :func:`late_days` counts the *started* days between the deadline and the submission: exactly
  at the deadline is on time (0), one second after is 1, one day and one second after is 2.
* :func:`assess` turns a score into the score after lateness: each started day late takes
  ``P``% of the points earned, at most ``C``% in all; more than ``D`` days late earns 0; the
  penalty and the score are rounded to 2 decimals (half up). A submission with no time, an
  excused student and a student with no deadline are never penalized.

:class:`Terms` is what an instructor decided for a class (deadline, policy, extensions,
excused students); it is stored in the grading queue as JSON (:meth:`Terms.to_data`) and each
report recomputes lateness from it, so a changed deadline needs no regrade.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

__all__ = [
    "DAY",
    "LateError",
    "Lateness",
    "Policy",
    "Terms",
    "assess",
    "late_days",
    "parse_policy",
    "parse_time",
    "show_time",
]

DAY = timedelta(days=1)


class LateError(ValueError):
    """A deadline, a time or a policy that cannot be read (one line)."""


def parse_time(text: str) -> datetime:
    """An ISO 8601 date and time with its zone, as an aware datetime. Raises
    :class:`LateError` for anything else (a time without a zone included)."""
    raw = text.strip()
    try:
        when = datetime.fromisoformat(raw)
    except ValueError:
        raise LateError(
            f"{text!r} is not an ISO 8601 time: write it as 2026-12-01T23:59:59+08:00 "
            "(or ...Z for UTC)"
        ) from None
    if when.tzinfo is None or when.utcoffset() is None:
        raise LateError(
            f"{text!r} has no time zone: write it with one, as 2026-12-01T23:59:59+08:00 "
            "(or ...Z for UTC)"
        )
    return when


def show_time(when: datetime, like: datetime | None = None) -> str:
    """``when`` as people read it, in ``like``'s zone (the deadline's) when given: ISO 8601 to
    the second (to the microsecond when it has any) with the zone's offset."""
    if like is not None and like.tzinfo is not None:
        when = when.astimezone(like.tzinfo)
    spec = "microseconds" if when.microsecond else "seconds"
    return when.isoformat(sep=" ", timespec=spec)


@dataclass(frozen=True)
class Policy:
    """``P%/day[,cap=C%][,cutoff=Dd]``: percent of the points earned per started day late, the
    most all days may take together, the days late past which a submission earns 0."""

    per_day: Decimal
    cap: Decimal | None = None
    cutoff: int | None = None

    def __str__(self) -> str:
        text = f"{_num(self.per_day)}%/day"
        if self.cap is not None:
            text += f",cap={_num(self.cap)}%"
        if self.cutoff is not None:
            text += f",cutoff={self.cutoff}d"
        return text

    def percent(self, days: int) -> Decimal:
        """The percent of the points earned that ``days`` started days late take."""
        if days <= 0:
            return Decimal(0)
        if self.cutoff is not None and days > self.cutoff:
            return Decimal(100)
        taken = self.per_day * days
        if self.cap is not None:
            taken = min(taken, self.cap)
        return min(taken, Decimal(100))


def _num(value: Decimal) -> str:
    return format(value.normalize(), "f")


_PERCENT = r"(\d+(?:\.\d+)?)%"
_POLICY = re.compile(rf"{_PERCENT}/day((?:,(?:cap={_PERCENT}|cutoff=\d+d))*)")
_PART = re.compile(rf"(cap)={_PERCENT}|(cutoff)=(\d+)d")


def parse_policy(text: str) -> Policy:
    """``P%/day[,cap=C%][,cutoff=Dd]`` (``cap`` and ``cutoff`` in either order, each at most
    once; percents from 0 to 100, days a whole number). Raises :class:`LateError`."""
    raw = text.strip().replace(" ", "")
    match = _POLICY.fullmatch(raw)
    usage = (
        f"--late-policy {text!r}: write P%/day[,cap=C%][,cutoff=Dd], for example "
        "10%/day,cap=50%,cutoff=7d"
    )
    if match is None:
        raise LateError(usage)
    per_day = Decimal(match.group(1))
    cap: Decimal | None = None
    cutoff: int | None = None
    for part in filter(None, match.group(2).split(",")):
        m = _PART.fullmatch(part)
        assert m is not None  # the whole policy matched
        if m.group(1):
            if cap is not None:
                raise LateError(usage + " (cap given twice)")
            cap = Decimal(m.group(2))
        else:
            if cutoff is not None:
                raise LateError(usage + " (cutoff given twice)")
            cutoff = int(m.group(4))
    for value in (per_day, cap):
        if value is not None and value > 100:
            raise LateError(f"--late-policy {text!r}: a percent is at most 100%")
    return Policy(per_day, cap, cutoff)


def late_days(submitted: datetime, deadline: datetime) -> int:
    """Started days late: 0 at or before the deadline, 1 from one microsecond after it to
    exactly one day after it, and so on (exact: no floating point)."""
    return max(0, -((deadline - submitted) // DAY))  # the ceiling of the days late


@dataclass(frozen=True)
class Terms:
    """What the instructor decided for the class: the deadline, the late policy, per-student
    deadlines (extensions, student ID -> time) and excused students."""

    deadline: datetime | None = None
    policy: Policy | None = None
    extensions: dict[str, datetime] = field(default_factory=dict)
    excused: frozenset[str] = frozenset()

    def __bool__(self) -> bool:
        return bool(self.deadline or self.extensions or self.excused)

    def deadline_for(self, student: str | None, roster_deadline: datetime | None = None):
        """The student's deadline: their extension, else the roster's ``deadline`` column,
        else the class's."""
        if student is not None and student in self.extensions:
            return self.extensions[student]
        return roster_deadline or self.deadline

    def over(self, newer: Terms, given: set[str]) -> Terms:
        """These terms with each of ``given`` (``deadline``, ``policy``, ``extensions``,
        ``excused``) replaced by ``newer``'s."""
        return replace(self, **{name: getattr(newer, name) for name in given})

    def to_data(self) -> dict[str, Any]:
        """The terms as JSON values (times as ISO 8601 with their zone)."""
        return {
            "deadline": None if self.deadline is None else self.deadline.isoformat(),
            "late_policy": None if self.policy is None else str(self.policy),
            "extensions": {k: v.isoformat() for k, v in sorted(self.extensions.items())},
            "excused": sorted(self.excused),
        }

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Terms:
        """The terms :meth:`to_data` made."""
        deadline = data.get("deadline")
        policy = data.get("late_policy")
        return cls(
            None if deadline is None else parse_time(deadline),
            None if policy is None else parse_policy(policy),
            {k: parse_time(v) for k, v in (data.get("extensions") or {}).items()},
            frozenset(data.get("excused") or ()),
        )


@dataclass(frozen=True)
class Lateness:
    """One submission's lateness and its cost. ``late_days`` is None when the submission has
    no time (or the student no deadline); ``penalty`` is in points; ``score`` is after it."""

    submitted: datetime | None
    deadline: datetime | None
    late_days: int | None
    percent: Decimal
    penalty: float
    score: float
    excused: bool = False
    cutoff: bool = False

    def to_data(self) -> dict[str, Any]:
        """The ``--json`` keys: ``late_days``, ``late_penalty`` (points), ``submitted_at``,
        ``deadline`` (ISO 8601 or null), ``excused``."""
        return {
            "late_days": self.late_days,
            "late_penalty": self.penalty,
            "submitted_at": None if self.submitted is None else self.submitted.isoformat(),
            "deadline": None if self.deadline is None else self.deadline.isoformat(),
            "excused": self.excused,
        }


def _round(value: Decimal) -> float | int:
    out = value.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    return int(out) if out == out.to_integral_value() else float(out)


def assess(
    score: float,
    submitted: datetime | None,
    deadline: datetime | None,
    policy: Policy | None,
    excused: bool = False,
) -> Lateness:
    """The lateness of a submission that earned ``score`` points (module doc)."""
    if excused or submitted is None or deadline is None:
        return Lateness(submitted, deadline, None, Decimal(0), 0, score, excused)
    days = late_days(submitted, deadline)
    percent = policy.percent(days) if policy is not None else Decimal(0)
    if not percent:
        return Lateness(submitted, deadline, days, percent, 0, score)
    earned = Decimal(str(score))
    penalty = _round(earned * percent / 100)
    after = _round(earned - Decimal(str(penalty)))
    cut = policy is not None and policy.cutoff is not None and days > policy.cutoff
    return Lateness(submitted, deadline, days, percent, penalty, after, cutoff=cut)
