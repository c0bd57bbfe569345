"""Is lateness counted in started days, exactly at the deadline on time, and is the penalty the
policy's (capped, cut off, rounded), with nothing taken from a submission without a time or from
an excused student? Are nbgrader's timestamps read as nbgrader writes them?"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from decimal import Decimal

import pytest

from simlab.grading.lateness import (
    LateError,
    Policy,
    Terms,
    assess,
    late_days,
    parse_policy,
    parse_time,
)
from simlab.grading.nbgrader import parse_timestamp

DEADLINE = datetime(2026, 12, 1, 23, 59, 59, tzinfo=UTC)


@pytest.mark.parametrize(
    ("after", "days"),
    [
        (timedelta(0), 0),
        (-timedelta(seconds=1), 0),
        (timedelta(microseconds=1), 1),
        (timedelta(seconds=1), 1),
        (timedelta(days=1), 1),
        (timedelta(days=1, microseconds=1), 2),
        (timedelta(days=6, hours=23), 7),
    ],
)
def test_are_late_days_started_days(after, days):
    assert late_days(DEADLINE + after, DEADLINE) == days


def test_is_the_same_instant_in_another_zone_on_time():
    beijing = DEADLINE.astimezone(timezone(timedelta(hours=8)))
    assert late_days(beijing, DEADLINE) == 0
    assert late_days(beijing + timedelta(seconds=1), DEADLINE) == 1


@pytest.mark.parametrize(
    ("text", "policy"),
    [
        ("10%/day", Policy(Decimal(10))),
        ("10%/day,cap=50%", Policy(Decimal(10), Decimal(50))),
        ("10%/day,cap=50%,cutoff=7d", Policy(Decimal(10), Decimal(50), 7)),
        ("2.5%/day,cutoff=3d,cap=10%", Policy(Decimal("2.5"), Decimal(10), 3)),
    ],
)
def test_is_a_policy_read_and_written_back(text, policy):
    assert parse_policy(text) == policy
    assert parse_policy(str(policy)) == policy


@pytest.mark.parametrize(
    "text",
    ["10", "10%", "10%/week", "-5%/day", "10%/day,cap=50", "10%/day,cutoff=7", "10%/day,cap=5%,"
     "cap=6%", "150%/day", "10%/day,cap=120%", "10%/day;cap=50%", "x%/day"],
)  # fmt: skip
def test_is_a_malformed_policy_refused_in_one_line(text):
    with pytest.raises(LateError) as err:
        parse_policy(text)
    assert "\n" not in str(err.value) and "--late-policy" in str(err.value)


@pytest.mark.parametrize("text", ["2026-12-01T23:59:59", "2026-12-01", "tomorrow", "2026-13-01Z"])
def test_is_a_time_without_a_zone_or_malformed_refused(text):
    with pytest.raises(LateError):
        parse_time(text)


def test_is_a_time_with_its_zone_read():
    assert parse_time("2026-12-02T07:59:59+08:00") == DEADLINE
    assert parse_time("2026-12-01T23:59:59Z") == DEADLINE


def _after(seconds: float = 0, days: int = 0) -> datetime:
    return DEADLINE + timedelta(days=days, seconds=seconds)


def test_does_each_started_day_take_its_percent_up_to_the_cap():
    policy = parse_policy("10%/day,cap=25%")
    assert assess(8, _after(0), DEADLINE, policy).score == 8
    one = assess(8, _after(1), DEADLINE, policy)
    assert (one.late_days, one.penalty, one.score) == (1, 0.8, 7.2)
    two = assess(8, _after(1, days=1), DEADLINE, policy)
    assert (two.late_days, two.penalty, two.score) == (2, 1.6, 6.4)
    capped = assess(8, _after(days=9), DEADLINE, policy)
    assert (capped.late_days, capped.percent, capped.score) == (9, 25, 6)


def test_does_a_submission_past_the_cutoff_earn_zero():
    policy = parse_policy("10%/day,cap=50%,cutoff=7d")
    at = assess(9, _after(days=7), DEADLINE, policy)
    assert (at.late_days, at.score, at.cutoff) == (7, 4.5, False), "7 days late is not more"
    past = assess(9, _after(1, days=7), DEADLINE, policy)
    assert (past.late_days, past.penalty, past.score, past.cutoff) == (8, 9, 0, True)


def test_is_the_penalty_rounded_to_two_decimals_half_up():
    late = assess(3.335, _after(1), DEADLINE, parse_policy("50%/day"))
    assert (late.penalty, late.score) == (1.67, 1.67)
    late = assess(7, _after(1), DEADLINE, parse_policy("33%/day"))
    assert (late.penalty, late.score) == (2.31, 4.69)


def test_is_nothing_taken_without_a_time_an_excuse_or_a_policy():
    policy = parse_policy("50%/day")
    untimed = assess(8, None, DEADLINE, policy)
    assert (untimed.late_days, untimed.penalty, untimed.score) == (None, 0, 8)
    excused = assess(8, _after(days=3), DEADLINE, policy, excused=True)
    assert (excused.late_days, excused.penalty, excused.score, excused.excused) == (
        None, 0, 8, True,
    )  # fmt: skip
    no_policy = assess(8, _after(days=3), DEADLINE, None)
    assert (no_policy.late_days, no_policy.penalty, no_policy.score) == (3, 0, 8)


def test_is_a_students_extension_their_deadline_and_do_terms_round_trip():
    later = DEADLINE + timedelta(days=2)
    terms = Terms(DEADLINE, parse_policy("10%/day"), {"jdoe": later}, frozenset({"amy"}))
    assert terms.deadline_for("jdoe") == later
    assert terms.deadline_for("jdoe", DEADLINE + timedelta(days=9)) == later
    assert terms.deadline_for("bob", DEADLINE + timedelta(days=9)) == DEADLINE + timedelta(days=9)
    assert terms.deadline_for("bob") == DEADLINE
    assert Terms.from_data(terms.to_data()) == terms
    replaced = terms.over(Terms(later), {"deadline"})
    assert replaced.deadline == later and replaced.policy == terms.policy


def _as_nbgrader_writes(when: datetime, tz=UTC) -> str:
    """nbgrader's Exchange.set_timestamp with its defaults: ``datetime.now(gettz(timezone))
    .strftime(timestamp_format)``, timezone ``UTC``, format ``%Y-%m-%d %H:%M:%S.%f %Z``."""
    return when.astimezone(tz).strftime("%Y-%m-%d %H:%M:%S.%f %Z")


def test_is_nbgraders_timestamp_read_as_nbgrader_writes_it():
    when = DEADLINE + timedelta(microseconds=250)
    text = _as_nbgrader_writes(when)
    assert text == "2026-12-01 23:59:59.000250 UTC"
    assert parse_timestamp(text) == when
    assert parse_timestamp("2026-12-02 07:59:59.000000 +0800") == DEADLINE
    assert parse_timestamp("2026-12-02 07:59:59.000000 Asia/Shanghai") == DEADLINE
    assert parse_timestamp("2026-12-01 18:59:59.000000 EST") == DEADLINE
    assert parse_timestamp("2026-12-01 23:59:59.000000") == DEADLINE, "no zone: UTC, as nbgrader"
    assert parse_timestamp("2026-12-01T23:59:59+00:00") == DEADLINE


@pytest.mark.parametrize("text", ["2026-12-01 23:59:59 CST", "yesterday", "", "1 2 3 4"])
def test_is_a_timestamp_nbgrader_could_misread_refused(text):
    with pytest.raises(ValueError):
        parse_timestamp(text)
