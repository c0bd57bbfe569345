"""The statistics behind a regression verdict: a named test, when it is weak, and Simpson's
paradox. Pure functions over counts; no randomness, no I/O.

**The test.** A candidate's error count is compared with the baseline's by the one-sided
*Fisher exact test* (:func:`fisher_one_sided`): given both sides' sizes and the total number of
errors, how likely is it, if both shared one error rate, that the candidate would get at least
as many of those errors as it did? That chance is the p-value; it is exact (hypergeometric), so
it stays valid where the usual normal approximation (the two-proportion z-test) does not: with
3 errors in 68 requests against 7 in 1811 the z-test expects 0.4 candidate errors, far below
the five or so its approximation needs.

**Weak evidence.** A verdict can be right and still rest on too little. :func:`error_test`
says so in a ``note``: a significant result whose p-value rises above ``alpha`` with one error
fewer (its *fragility index* is 1: "3 errors in 68: one error fewer and p = 0.039"), or a
difference that is not significant, with the fewest errors that would have been.

**Simpson's paradox** (:func:`simpson_paradox`): the raw totals point one way and every
like-for-like slice the other, because the two sides have different mixes of slices (the
canary serves only low-risk tenants, whose error rate is low whatever the version).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import comb

__all__ = [
    "ALPHA",
    "TEST_NAME",
    "ErrorTest",
    "fisher_one_sided",
    "error_test",
    "SliceCounts",
    "Simpson",
    "simpson_paradox",
]

#: Significance level of each comparison: several slices are compared at once, so each is held
#: to 1%.
ALPHA = 0.01
TEST_NAME = "one-sided Fisher exact test"


def _check(errors: int, n: int, side: str) -> None:
    if n < 0 or not 0 <= errors <= n:
        raise ValueError(f"{side}: need 0 <= errors <= n, got {errors} errors in {n}")


def fisher_one_sided(base_errors: int, base_n: int, cand_errors: int, cand_n: int) -> float:
    """P(candidate errors >= ``cand_errors``) when the ``base_errors + cand_errors`` errors
    fall at random among all ``base_n + cand_n`` requests (hypergeometric): the one-sided
    Fisher exact test of "the candidate errs more". Exact integer arithmetic, then one division.
    1.0 when there is nothing to test (no candidate request, or no error at all)."""
    _check(base_errors, base_n, "baseline")
    _check(cand_errors, cand_n, "candidate")
    total, errors = base_n + cand_n, base_errors + cand_errors
    if cand_n == 0 or errors == 0:
        return 1.0
    tail = sum(
        comb(errors, k) * comb(total - errors, cand_n - k)
        for k in range(cand_errors, min(errors, cand_n) + 1)
    )
    return tail / comb(total, cand_n)


@dataclass(frozen=True)
class ErrorTest:
    """The test of one comparison: ``p_value`` of :func:`fisher_one_sided`, ``significant``
    when it is below ``alpha``; ``fragile`` when it is significant but one candidate error
    fewer would not be; ``needed`` the fewest candidate errors (of ``cand_n``) that would be
    significant (None if none would); ``note`` says in one sentence why the evidence is weak,
    empty when it is not."""

    test: str
    p_value: float
    alpha: float
    significant: bool
    fragile: bool
    needed: int | None
    note: str

    @property
    def weak(self) -> bool:
        return bool(self.note)


def _fewest_significant(base_errors: int, base_n: int, cand_n: int, alpha: float) -> int | None:
    """The fewest candidate errors ``k`` (of ``cand_n``) whose p-value is below ``alpha``, or
    None. The p-value never rises with ``k``: with one candidate error more, the errors that
    fall at random on the candidate's requests grow by at most one while the count they must
    reach grows by exactly one; and every p-value of one ``cand_n`` and ``total`` is a whole
    number over the same ``comb(total, cand_n)``, so rounding keeps that order. "Below
    ``alpha``" therefore holds from some ``k`` on, and bisection finds the first."""
    low, high = 0, cand_n + 1  # the answer lies in [low, high]; cand_n + 1 stands for None
    while low < high:
        mid = (low + high) // 2
        if fisher_one_sided(base_errors, base_n, mid, cand_n) < alpha:
            high = mid
        else:
            low = mid + 1
    return low if low <= cand_n else None


def error_test(
    base_errors: int,
    base_n: int,
    cand_errors: int,
    cand_n: int,
    *,
    alpha: float = ALPHA,
    unit: str = "error",
) -> ErrorTest:
    """Test whether the candidate errs more than the baseline (see the module doc); ``unit``
    names one error in the note ("error", "failed run")."""
    p = fisher_one_sided(base_errors, base_n, cand_errors, cand_n)
    significant = p < alpha
    needed = _fewest_significant(base_errors, base_n, cand_n, alpha)
    counts = f"{cand_errors} {unit}{'s' if cand_errors != 1 else ''} in {cand_n}"
    fragile, note = False, ""
    if significant and cand_errors > 0:
        fewer = fisher_one_sided(base_errors, base_n, cand_errors - 1, cand_n)
        fragile = fewer >= alpha
        if fragile:
            note = f"{counts}: one {unit} fewer and p = {fewer:.2g}; too few to be sure"
    elif not significant and cand_n and cand_errors * base_n > base_errors * cand_n:
        if needed is None:
            note = f"{counts}: too few to tell; even {cand_n} of {cand_n} would not be at {alpha:g}"
        else:
            note = f"{counts}: too few to tell; it would take {needed} to call it at {alpha:g}"
    return ErrorTest(TEST_NAME, p, alpha, significant, fragile, needed, note)


@dataclass(frozen=True)
class SliceCounts:
    """One slice's counts on both sides (``name`` such as ``"low/policy"``)."""

    name: str
    base_errors: int
    base_n: int
    cand_errors: int
    cand_n: int


@dataclass(frozen=True)
class Simpson:
    """Raw totals against slices: ``raw`` is (baseline rate, candidate rate) over every
    request, ``slices`` the names of the like-for-like slices that all point the other way,
    ``sentence`` says it in one line."""

    raw: tuple[float, float]
    slices: tuple[str, ...]
    sentence: str


def simpson_paradox(slices: Sequence[SliceCounts], *, min_n: int = 1) -> Simpson | None:
    """Simpson's paradox, or None: the raw totals (every slice summed, those only one side
    served included) favour one side, and every slice with at least ``min_n`` requests on both
    sides (there must be one) favours the other. Ties break no rule and make no paradox."""
    compared = [s for s in slices if s.base_n >= min_n and s.cand_n >= min_n]
    base_n, cand_n = sum(s.base_n for s in slices), sum(s.cand_n for s in slices)
    if not compared or not base_n or not cand_n:
        return None
    raw_b = sum(s.base_errors for s in slices) / base_n
    raw_c = sum(s.cand_errors for s in slices) / cand_n
    signs = {_sign(s.cand_errors / s.cand_n - s.base_errors / s.base_n) for s in compared}
    raw_sign = _sign(raw_c - raw_b)
    if raw_sign == 0 or signs != {-raw_sign}:
        return None
    better, worse = ("better", "worse") if raw_sign < 0 else ("worse", "better")
    names = tuple(s.name for s in compared)
    sentence = (
        f"Simpson's paradox: raw totals make the candidate look {better} ({raw_c:.1%} vs "
        f"{raw_b:.1%} errors), yet it is {worse} in every like-for-like slice "
        f"({', '.join(names)}): the two sides serve different mixes of slices"
    )
    return Simpson((raw_b, raw_c), names, sentence)


def _sign(x: float) -> int:
    return (x > 1e-12) - (x < -1e-12)
