"""The figures notebook 08 teaches with, held by the kit (seed 1, the default config)."""

from __future__ import annotations

from pathlib import Path

import pytest

from simlab.rollout.canary import CanaryConfig
from simlab.rollout.stats import fisher_one_sided
from simlab.sim.canary import run_canary


@pytest.fixture(scope="module")
def b_canary():
    return run_canary(CanaryConfig(candidate="B"), seed=1)


def test_do_five_clean_probes_close_the_breaker_and_the_window_trip_it_again(b_canary):
    # "Each round of probes closed the breaker, and the window tripped it again."
    states = [state for _, state in b_canary.changes]
    assert states == ["open", "half-open", "closed"] * 2 + ["open"]
    probes = [r for r in b_canary.requests if r.probe]
    assert len(probes) == 2 * b_canary.config.probe_requests == 10
    assert not any(r.error for r in probes)


def test_is_a_round_of_five_probes_usually_blind_to_a_seven_percent_error_rate(b_canary):
    canary = [r for r in b_canary.requests if r.route == "canary"]
    rate = sum(r.error for r in canary) / len(canary)
    assert 0.06 <= rate <= 0.08  # "B errs in 7% of its requests"
    assert (1 - rate) ** 5 > 0.65  # most rounds of 5 probes hold no error


def test_does_one_error_fewer_flip_the_low_policy_verdict(b_canary):
    policy = next(s for s in b_canary.slices if s.name == "low/policy")
    assert (policy.baseline_n, policy.candidate_errors, policy.candidate_n) == (1811, 3, 68)
    base_errors = round(policy.baseline_rate * policy.baseline_n)
    assert (
        fisher_one_sided(base_errors, 1811, 3, 68)
        < 0.01
        <= fisher_one_sided(base_errors, 1811, 2, 68)
    )


def test_does_each_trip_land_where_a_dashed_stretch_of_the_window_ends(b_canary):
    """Notebook 08's caption of the canary picture: "Look where the red dots sit: at the end of a
    dashed stretch, where the thick line has hardly begun. The window counts only requests since
    the breaker last closed, so after each closing it needs a few minutes to hold 40 requests
    again ...: the breaker trips at (or right after) the first moment it may judge."
    """
    import nbformat

    root = Path(__file__).resolve().parents[2]
    nb = nbformat.read(root / "notebooks" / "08_release_regression.ipynb", as_version=4)
    caption = " ".join(next(c.source for c in nb.cells if "Look where the" in c.source).split())
    assert "at the end of a dashed stretch" in caption
    least = b_canary.config.min_requests
    assert f"hold {least} requests" in caption
    starts = [0.0] + [t for t, state in b_canary.changes if state == "closed"]
    assert len(b_canary.trips) == len(starts) == 3
    for start, trip in zip(starts, b_canary.trips, strict=True):
        closed = [s for s in b_canary.samples if start <= s.t <= trip.t and s.state == "closed"]
        judged = next(s.t for s in closed if s.requests >= least)
        dashed, thick = judged - start, trip.t - judged
        assert dashed >= 120, "a few minutes to fill the window"
        assert thick <= 20, "the thick line has hardly begun when the breaker trips"
