"""The canary: routing by risk, a breaker that trips on the worse version, like-for-like slices,
and a decision with its evidence. Runs are kept short (simulated time, a few seeds)."""

from __future__ import annotations

import json
from dataclasses import replace

import matplotlib
import pytest
from strategies import run_cli

from simlab.release.canary import (
    TIERS,
    Breaker,
    CanaryConfig,
    serve,
)
from simlab.sim.canary import run_canary

matplotlib.use("Agg")

SHORT = CanaryConfig(duration=1200.0)


run = run_cli  # (exit status, stdout, stderr) of simlab ARGV


@pytest.fixture(scope="module")
def b_run():
    return run_canary(replace(SHORT, candidate="B"), seed=1)


# -- the breaker on its own ------------------------------------------------------------------------


def breaker(**kw):
    args = dict(max_error_rate=0.1, max_cost=100.0, window=60.0, min_requests=5, max_trips=2)
    args.update(kw)
    return Breaker(**args)


def test_can_the_breaker_trip_before_it_has_enough_requests_to_judge():
    b = breaker()
    for t in range(4):
        assert b.observe(float(t), True, 10) is None
    assert b.state == "closed"
    trip = b.observe(4.0, True, 10)
    assert trip is not None and b.state == "open" and trip.requests == 5
    assert "error rate 100.0%" in trip.reason


def test_does_the_window_forget_old_requests():
    b = breaker()
    b.observe(0.0, True, 10)  # an error long ago (the window is 60 s)
    for t in range(100, 105):
        b.observe(float(t), False, 10)
    assert b.state == "closed"
    assert (b.samples[-1].requests, b.samples[-1].error_rate) == (5, 0.0)


def test_does_cost_alone_trip_the_breaker():
    b = breaker()
    for t in range(5):
        trip = b.observe(float(t), False, 150)
    assert trip is not None and "mean cost 150 tokens" in trip.reason


def test_does_a_half_open_breaker_close_after_a_clean_window_and_latch_after_max_trips():
    b = breaker()
    for t in range(5):
        b.observe(float(t), True, 10)
    assert b.state == "open"
    assert b.observe(5.0, True, 10) is None  # stragglers while open are ignored
    b.half_open()
    assert b.state == "half-open"
    for t in range(10, 15):
        b.observe(float(t), False, 10)
    assert b.state == "closed"
    for t in range(20, 25):
        b.observe(float(t), True, 10)
    assert b.state == "open" and b.latched
    b.half_open()
    assert b.state == "open"


# -- the rollout -----------------------------------------------------------------------------------


def test_are_the_canary_tenants_the_lowest_risk_ones_carrying_the_share(b_run):
    canary = [t for t in b_run.tenants if t.canary]
    others = [t for t in b_run.tenants if not t.canary]
    worst_canary = max(TIERS.index(t.tier) for t in canary)
    assert all(TIERS.index(t.tier) >= worst_canary for t in others)
    total = sum(t.weight for t in b_run.tenants)
    assert b_run.canary_share >= SHORT.share
    assert b_run.canary_share - max(t.weight for t in canary) / total < SHORT.share
    assert {r.tenant for r in b_run.requests if r.route != "baseline"} <= {t.name for t in canary}


def test_does_the_breaker_trip_on_the_worse_version_and_the_rollout_roll_back(b_run):
    assert b_run.trips
    assert b_run.decision == "roll back"
    assert any("breaker tripped" in e for e in b_run.evidence)
    assert any(r.route == "fallback" for r in b_run.requests)


def test_does_an_a_a_canary_promote_on_most_seeds():
    decisions = [run_canary(replace(SHORT, candidate="A"), seed=s).decision for s in range(1, 9)]
    assert decisions.count("promote") >= 7, decisions


def test_is_fallback_traffic_served_only_while_the_breaker_is_open(b_run):
    c = b_run.config
    open_periods = [
        (t.t, t.t + c.cooldown if i + 1 < c.max_trips else float("inf"))
        for i, t in enumerate(b_run.trips)
    ]
    for r in b_run.requests:
        if r.route == "fallback":
            assert any(start <= r.arrived <= stop for start, stop in open_periods), r
            assert not r.error and r.tokens == 0


def test_do_two_candidates_see_the_same_requests_for_the_same_seed(b_run):
    other = run_canary(replace(SHORT, candidate="C"), seed=1)
    stream = [(r.arrived, r.tenant, r.kind, r.faults) for r in b_run.requests]
    assert stream == [(r.arrived, r.tenant, r.kind, r.faults) for r in other.requests]


def test_is_a_canary_run_the_same_for_the_same_seed(b_run):
    again = run_canary(replace(SHORT, candidate="B"), seed=1)
    assert again.requests == b_run.requests and again.trips == b_run.trips
    assert again.to_dict() == b_run.to_dict()


def test_would_raw_totals_hide_what_the_slices_show():
    # The model change C is worse in its slices, yet its raw error rate beats the baseline's,
    # because the canary tenants are the low-risk ones.
    result = run_canary(CanaryConfig(candidate="C", max_error_rate=1.0, max_cost=1e9), seed=1)
    assert not result.trips
    assert result.raw["canary_error_rate"] < result.raw["baseline_error_rate"]
    comparable = [s for s in result.slices if s.comparable]
    assert comparable and all(s.error_diff > 0 for s in comparable)
    assert result.decision == "roll back"
    assert any("not like-for-like" in e for e in result.evidence)


def test_is_a_request_judged_by_the_golden_assertions():
    assert serve("A", "policy", ())[0] is False
    assert serve("B", "policy", ("mail-timeout",))[0] is True  # a second e-mail
    assert serve("A", "policy", ("mail-timeout",))[0] is False
    assert serve("C", "policy", ("injection",))[0] is True  # a foreign link
    assert serve("A", "policy", ("outage",))[0] is True  # no version survives it


@pytest.mark.parametrize(
    "bad",
    [
        {"share": 0.0},
        {"share": 1.0},
        {"max_error_rate": 0.0},
        {"max_error_rate": 1.5},
        {"max_cost": -1.0},
        {"window": 0.0},
        {"min_requests": 0},
        {"candidate": "Z"},
        {"max_error_rate": float("nan")},
    ],
)
def test_is_a_bad_config_refused(bad):
    with pytest.raises(ValueError):
        replace(CanaryConfig(), **bad).validate()


# -- the plot and the command --------------------------------------------------------------------


def test_does_the_plot_show_the_split_and_every_trip(b_run):
    from simlab.plots.canary import canary_plot

    axes = canary_plot(b_run)
    assert len(axes) == 3
    for ax in axes:
        trips = [a for a in ax.get_lines() if a.get_gid() == "trip"]
        assert len(trips) == len(b_run.trips)
    gids = {p.get_gid() for p in axes[0].patches}
    assert {"traffic-baseline", "traffic-canary", "traffic-fallback"} <= gids
    import matplotlib.pyplot as plt

    plt.close(axes[0].figure)


def test_does_simlab_canary_print_the_decision_with_evidence(capsys, tmp_path):
    plot = tmp_path / "canary.png"
    code, out, _ = run(["canary", "--duration", "1200", "--plot", str(plot)], capsys)
    assert code == 1
    assert "decision: ROLL BACK" in out and "tripped" in out and "replay: simlab canary" in out
    assert plot.stat().st_size > 0


def test_does_simlab_canary_json_promote_an_a_a_rollout(capsys):
    code, out, _ = run(["canary", "--candidate", "A", "--duration", "1200", "--json"], capsys)
    data = json.loads(out)
    assert (code, data["decision"]) == (0, "promote")
    for key in ("evidence", "slices", "trips", "raw", "routes", "canary_tenants", "replay"):
        assert key in data


def test_does_the_replay_line_replay_the_run(capsys):
    result = run_canary(CanaryConfig(candidate="C", duration=1200.0, max_error_rate=0.03), seed=3)
    argv = result.replay.split()[1:]
    assert argv[0] == "canary" and "#" not in argv
    code, out, _ = run([*argv, "--json"], capsys)
    assert json.loads(out) == json.loads(json.dumps(result.to_dict()))
    assert code == (0 if result.decision == "promote" else 1)


@pytest.mark.parametrize(
    "argv",
    [
        ["canary", "--candidate", "Z"],
        ["canary", "--max-error-rate", "2"],
        ["canary", "--share", "0"],
        ["canary", "--window", "abc"],
        ["canary", "--max-cost", "nan"],
        ["canary", "--plot", "/no/such/folder/x.png"],
    ],
)
def test_is_bad_canary_input_one_line_and_exit_2(argv, capsys):
    code, out, err = run(argv, capsys)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
