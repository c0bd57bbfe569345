"""The statistics behind a regression verdict: the one-sided Fisher exact test, when its
evidence is weak, and Simpson's paradox. Known values are worked by hand in the comments."""

from __future__ import annotations

from math import comb

import pytest

from simlab.rollout.stats import (
    ALPHA,
    SliceCounts,
    error_test,
    fisher_one_sided,
    simpson_paradox,
)


def test_does_fisher_give_the_lady_tasting_tea_p_value():
    # Fisher's own example: 4 of 4 cups picked right by chance is 1 in C(8, 4) = 70.
    assert fisher_one_sided(0, 4, 4, 4) == pytest.approx(1 / 70)
    # 5 failed runs in 5 against 0 in 5: 1 in C(10, 5) = 252.
    assert fisher_one_sided(0, 5, 5, 5) == pytest.approx(1 / 252)


def test_is_fisher_the_hypergeometric_tail():
    # 3 errors in 68 against 7 in 1811: P(X >= 3), X ~ Hypergeometric(1879, 10, 68).
    total, errors, n = 1879, 10, 68
    tail = sum(comb(errors, k) * comb(total - errors, n - k) for k in range(3, 11))
    assert fisher_one_sided(7, 1811, 3, 68) == pytest.approx(tail / comb(total, n))
    # Same margins, one candidate error fewer: the tail gains the point P(X = 2).
    point = comb(errors, 2) * comb(total - errors, n - 2) / comb(total, n)
    assert fisher_one_sided(8, 1811, 2, 68) == pytest.approx(tail / comb(total, n) + point)


def test_does_fisher_fall_as_the_candidate_errs_more():
    ps = [fisher_one_sided(7, 1811, k, 68) for k in range(8)]
    assert ps[0] == 1.0 and all(a > b for a, b in zip(ps, ps[1:], strict=False))


def test_is_nothing_to_test_p_one():
    assert fisher_one_sided(0, 100, 0, 100) == 1.0
    assert fisher_one_sided(5, 100, 0, 0) == 1.0


@pytest.mark.parametrize("args", [(-1, 10, 0, 10), (11, 10, 0, 10), (0, 10, 3, 2), (0, -1, 0, 1)])
def test_are_impossible_counts_refused(args):
    with pytest.raises(ValueError, match="errors <= n"):
        fisher_one_sided(*args)


def test_is_three_errors_in_68_called_significant_but_fragile():
    t = error_test(7, 1811, 3, 68)
    assert t.test == "one-sided Fisher exact test" and t.alpha == ALPHA
    assert t.significant and t.p_value == pytest.approx(0.004534, rel=1e-3)
    assert t.fragile and t.weak
    assert t.note == "3 errors in 68: one error fewer and p = 0.039; too few to be sure"


def test_is_a_clear_regression_not_weak():
    t = error_test(7, 1811, 21, 404)
    assert t.significant and not t.fragile and not t.weak and t.p_value < 1e-9


def test_does_an_unproven_rise_say_how_many_errors_it_would_take():
    t = error_test(2, 595, 1, 131)
    assert not t.significant and t.weak
    assert fisher_one_sided(2, 595, t.needed, 131) < ALPHA
    assert fisher_one_sided(2, 595, t.needed - 1, 131) >= ALPHA
    assert t.note == f"1 error in 131: too few to tell; it would take {t.needed} to call it at 0.01"


@pytest.mark.parametrize("alpha", [ALPHA, 0.05, 0.3])
def test_is_the_count_it_would_take_the_first_significant_one(alpha):
    # Every candidate error count in turn, against what error_test says it would take.
    for base_n in (0, 1, 3, 8, 30, 200):
        for base_errors in sorted({0, min(1, base_n), base_n // 3, base_n}):
            for cand_n in (0, 1, 2, 5, 12, 60):
                scan = [
                    k
                    for k in range(cand_n + 1)
                    if fisher_one_sided(base_errors, base_n, k, cand_n) < alpha
                ]
                t = error_test(base_errors, base_n, 0, cand_n, alpha=alpha)
                assert t.needed == (scan[0] if scan else None), (base_errors, base_n, cand_n)


def test_is_a_fall_neither_significant_nor_weak():
    t = error_test(10, 100, 1, 100)
    assert not t.significant and not t.weak


def test_does_the_unit_name_failed_runs():
    t = error_test(0, 5, 1, 5, unit="failed run")
    assert t.note.startswith("1 failed run in 5: too few to tell")
    assert t.needed is None or t.needed > 1


KIDNEY_STONES = [
    # Charig et al. (1986): failures of open surgery (baseline) and of PCNL (candidate).
    SliceCounts("small stones", 6, 87, 36, 270),
    SliceCounts("large stones", 71, 263, 25, 80),
]


def test_does_simpson_name_the_kidney_stone_paradox():
    # Raw: candidate fails 61/350 = 17.4% against 77/350 = 22.0%; yet it fails more on small
    # stones (13.3% vs 6.9%) and on large ones (31.2% vs 27.0%).
    found = simpson_paradox(KIDNEY_STONES)
    assert found is not None
    assert found.raw == pytest.approx((77 / 350, 61 / 350))
    assert found.slices == ("small stones", "large stones")
    assert found.sentence.startswith("Simpson's paradox: raw totals make the candidate look better")
    assert "worse in every like-for-like slice" in found.sentence


def test_is_there_no_paradox_when_a_slice_agrees_with_the_totals():
    mixed = [*KIDNEY_STONES, SliceCounts("medium", 0, 50, 0, 50), SliceCounts("x", 9, 10, 1, 10)]
    assert simpson_paradox(mixed) is None
    agree = [SliceCounts("a", 1, 100, 5, 100), SliceCounts("b", 2, 100, 8, 100)]
    assert simpson_paradox(agree) is None


def test_does_simpson_count_only_slices_big_enough_on_both_sides():
    # The only slice against the totals has 5 candidate requests: below min_n, nothing to say.
    counts = [SliceCounts("low", 0, 50, 1, 5), SliceCounts("high", 40, 50, 0, 0)]
    assert simpson_paradox(counts, min_n=1) is not None
    assert simpson_paradox(counts, min_n=30) is None
