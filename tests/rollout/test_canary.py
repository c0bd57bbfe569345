"""The canary: routing by risk, a breaker that trips on the worse version, like-for-like slices,
and a decision with its evidence. Runs are kept short (simulated time, a few seeds)."""

from __future__ import annotations

import json
from dataclasses import replace

import matplotlib
import pytest

from simlab.rollout.canary import (
    TIERS,
    Breaker,
    CanaryConfig,
    format_canary,
    serve,
)
from simlab.rollout.stats import fisher_one_sided
from simlab.sim.canary import run_canary
from tests.strategies import run_cli, usage_error

matplotlib.use("Agg")

SHORT = CanaryConfig(duration=1200.0)


run = run_cli  # (exit status, stdout, stderr) of simlab ARGV


@pytest.fixture(scope="module")
def b_run():
    return run_canary(replace(SHORT, candidate="B"), seed=1)


@pytest.fixture(scope="module")
def b_full():
    """The notebook's run: an hour of traffic, in which the breaker latches at t=1174 s."""
    return run_canary(CanaryConfig(candidate="B"), seed=1)


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


def test_is_each_sample_the_window_summed_anew_through_trips_and_probes():
    """The breaker keeps the window's sums as requests enter and leave it; every sample must
    still equal its requests summed from scratch: the window's (emptied by a trip, refilled
    by the probes that close the breaker again) or the probes' so far."""
    import random

    rng = random.Random(7)
    b = breaker(max_trips=50, probe_requests=3)
    window: list[tuple[float, bool, int]] = []
    probes: list[tuple[float, bool, int]] = []
    t = 0.0
    for _ in range(3000):
        t += rng.expovariate(1.0)
        if b.state == "open" and rng.random() < 0.05:
            b.half_open(t)
            probes = []
        probe = b.state == "half-open" and b.admit()
        state, trips, samples = b.state, len(b.trips), len(b.samples)
        request = (t, rng.random() < 0.12, rng.randrange(0, 200))
        b.observe(*request, probe=probe)
        if len(b.samples) == samples:
            continue  # ignored: open, or a straggler while half-open
        if state == "closed":
            window = [r for r in [*window, request] if r[0] > t - 60.0]
            judged = window
        else:
            probes.append(request)
            judged = probes
        sample = b.samples[-1]
        assert sample.requests == len(judged)
        assert sample.error_rate == sum(e for _, e, _ in judged) / len(judged)
        assert sample.cost == sum(c for *_, c in judged) / len(judged)
        if len(b.trips) > trips:
            window = []
        elif state == "half-open" and b.state == "closed":
            window = list(probes)
    assert len(b.trips) > 3 and any(s.state == "half-open" for s in b.samples)


def test_is_a_window_that_is_not_positive_refused():
    for window in (0.0, -1.0, float("nan")):
        with pytest.raises(ValueError, match="window must be positive"):
            breaker(window=window)


def test_does_cost_alone_trip_the_breaker():
    b = breaker()
    for t in range(5):
        trip = b.observe(float(t), False, 150)
    assert trip is not None and "mean cost 150 tokens" in trip.reason


def tripped(**kw):
    """A breaker that has just tripped on five errors at t=0..4."""
    b = breaker(**kw)
    for t in range(5):
        assert b.admit()
        b.observe(float(t), True, 10)
    assert b.state == "open"
    return b


def test_does_a_half_open_breaker_admit_only_its_probes():
    b = tripped(probe_requests=3)
    assert not b.admit()  # open: nothing goes to the candidate
    b.half_open(10.0)
    assert b.state == "half-open"
    assert [b.admit() for _ in range(5)] == [True, True, True, False, False]
    assert b.observe(11.0, False, 10, probe=True) is None
    assert b.state == "half-open"  # one probe of three is not a verdict
    assert not b.admit()  # the other two probes are still in flight


def test_do_clean_probes_close_the_breaker_and_restart_its_window():
    b = tripped(probe_requests=3)
    assert b.observe(5.0, True, 10) is None  # stragglers while open are ignored
    b.half_open(10.0)
    for t in (11.0, 12.0, 13.0):
        assert b.admit()
        assert b.observe(t, False, 10, probe=True) is None
    assert b.state == "closed" and b.admit()
    assert b.changes == [(4.0, "open"), (10.0, "half-open"), (13.0, "closed")]
    b.observe(14.0, False, 10)
    assert b.samples[-1].requests == 4  # the window starts over from the three probes


def test_does_one_failed_probe_trip_it_again_and_latch_after_max_trips():
    b = tripped(probe_requests=3)
    b.half_open(10.0)
    for t, error in ((11.0, False), (12.0, True)):
        b.admit()
        assert b.observe(t, error, 10, probe=True) is None
    b.admit()
    trip = b.observe(13.0, False, 10, probe=True)
    assert trip is not None and b.state == "open" and b.latched
    assert trip.requests == 3 and "over 3 probe requests (1 failed)" in trip.reason
    b.half_open(20.0)
    assert b.state == "open" and not b.admit()


def test_does_a_straggler_not_count_as_a_probe():
    b = tripped(probe_requests=2)
    b.half_open(10.0)
    assert b.observe(10.5, True, 10) is None  # admitted before the trip, finished now
    assert b.state == "half-open" and b.samples[-1].state == "closed"


def test_is_a_breaker_without_probes_refused():
    with pytest.raises(ValueError, match="probe_requests"):
        breaker(probe_requests=0)


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


def test_is_fallback_traffic_served_only_while_the_breaker_does_not_admit(b_run):
    # Closed: none. Open: every canary tenant's request. Half-open: those after the probes.
    changes = [(0.0, "closed"), *b_run.changes, (float("inf"), "end")]
    periods = [(t, nxt[0], state) for (t, state), nxt in zip(changes, changes[1:], strict=False)]
    assert [s for *_, s in periods][-1] == "open"  # it latched
    for start, stop, state in periods:
        inside = [r for r in b_run.requests if r.route != "baseline" and start < r.arrived < stop]
        if state == "closed":
            assert all(r.route == "canary" and not r.probe for r in inside)
        elif state == "open":
            assert inside and all(r.route == "fallback" for r in inside)
        else:
            probes = [r for r in inside if r.route == "canary"]
            assert len(probes) == b_run.config.probe_requests and all(r.probe for r in probes)
            assert inside[: len(probes)] == probes  # the first ones are the probes
    for r in b_run.requests:
        if r.route == "fallback":
            assert not r.error and r.tokens == 0


def test_do_probes_decide_after_every_half_open(b_run):
    states = [s for _, s in b_run.changes]
    assert states.count("half-open") == len(b_run.trips) - 1
    for (_, state), (_, after) in zip(b_run.changes, b_run.changes[1:], strict=False):
        if state == "half-open":
            assert after in ("closed", "open")


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
    assert any(
        e.startswith("Simpson's paradox: raw totals make the candidate look better")
        for e in result.evidence
    )


def test_is_a_slice_regressed_only_when_fisher_says_so_and_weak_evidence_named(b_run, b_full):
    result = b_full
    for s in [*result.slices, *b_run.slices]:
        assert s.p_value == fisher_one_sided(
            s.baseline_errors, s.baseline_n, s.candidate_errors, s.candidate_n
        )
        errors = any(r.startswith("errors") for r in s.regressed)
        margin = s.error_diff > result.config.error_margin
        assert errors == (s.comparable and margin and s.p_value < 0.01), s
    policy = next(s for s in result.slices if s.name == "low/policy")
    assert (policy.candidate_errors, policy.candidate_n) == (3, 68) and policy.regressed
    assert policy.note.startswith("3 errors in 68: one error fewer and p = 0.039")
    text = format_canary(result)
    assert "weak evidence: 3 errors in 68" in text and "Fisher exact" in text
    assert not any("Simpson" in e for e in result.evidence)  # raw totals agree: 7.1% vs 6.9%


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
        {"probe_requests": 0},
        {"candidate": "Z"},
        {"max_error_rate": float("nan")},
    ],
)
def test_is_a_bad_config_refused(bad):
    with pytest.raises(ValueError):
        replace(CanaryConfig(), **bad).validate()


# -- the plot and the command --------------------------------------------------------------------


def test_does_the_plot_show_the_canary_traffic_every_trip_and_stop_after_the_latch(b_full):
    import matplotlib.pyplot as plt

    from simlab.plots.canary import breaker_periods, canary_plot, shown_until

    axes = canary_plot(b_full)
    assert len(axes) == 3
    for ax in axes:
        trips = [a for a in ax.get_lines() if a.get_gid() == "trip"]
        assert len(trips) == len(b_full.trips)
    gids = {p.get_gid() for p in axes[0].patches}
    assert {"traffic-canary", "traffic-probe", "traffic-fallback"} <= gids
    assert "traffic-baseline" not in gids  # the baseline tenants are not drawn
    bars = sum(p.get_height() for p in axes[0].patches if p.get_gid() == "traffic-probe")
    assert bars == sum(r.probe for r in b_full.requests if r.arrived < shown_until(b_full))
    # It latched: the picture ends shortly after the last trip and says so.
    latch = b_full.trips[-1].t
    assert latch < axes[0].get_xlim()[1] == shown_until(b_full) < b_full.config.duration
    assert "latched open" in axes[-1].get_xlabel()
    states = [state for *_, state in breaker_periods(b_full)]
    assert states.count("open") == len(b_full.trips) and "half-open" in states
    probes = [a for a in axes[1].get_lines() if a.get_gid() in ("probe-ok", "probe-error")]
    assert sum(len(a.get_xdata()) for a in probes) == sum(r.probe for r in b_full.requests)
    plt.close(axes[0].figure)


def test_does_a_far_threshold_not_flatten_the_error_line():
    import matplotlib.pyplot as plt

    from simlab.plots.canary import canary_plot

    quiet = run_canary(replace(SHORT, candidate="C", max_error_rate=1.0, max_cost=1e9), seed=1)
    axes = canary_plot(quiet)
    assert axes[1].get_ylim()[1] < 0.5 and axes[0].get_xlim()[1] == SHORT.duration
    labels = [t.get_text() for t in axes[1].get_legend().texts]
    assert "threshold 100% (above the panel)" in labels
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
    config = CanaryConfig(candidate="C", duration=1200.0, max_error_rate=0.03, probe_requests=3)
    result = run_canary(config, seed=3)
    assert "--probe-requests 3" in result.replay
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
        ["canary", "--probe-requests", "0"],
        ["canary", "--plot", "/no/such/folder/x.png"],
    ],
)
def test_is_bad_canary_input_one_line_and_exit_2(argv, capsys):
    usage_error(argv, capsys)


# -- the run against the story told in SimPy event by event ------------------------------------


class _EveryRequestInSimPy:
    """The rollout as the module doc tells it, nothing left out of SimPy: one process draws
    each arrival's gap, tenant, kind, faults and jitter in turn, and every request (a baseline
    tenant's too) is an event that finishes ``latency`` later. Routing, the breaker and the
    cooldowns are the run's own (:class:`simlab.sim.canary._Rollout`)."""

    def __init__(self, config, seed):
        import random

        from simlab.rollout.canary import KINDS, STREAMS
        from simlab.sim.canary import _Rollout, _tenants

        rngs = {name: random.Random(f"{seed}:canary:{name}") for name in STREAMS}
        tenants = _tenants(config, rngs["tenants"])
        self.rollout = _Rollout(config, rngs, tenants)
        self.tenant_weights = [t.weight for t in tenants]
        self.kinds = tuple(KINDS)

    def arrivals(self):
        r, config, rngs = self.rollout, self.rollout.config, self.rollout.rngs
        outage = {t.tier: config.outage_rate[TIERS.index(t.tier)] for t in r.tenants}
        while True:
            yield r.env.timeout(rngs["arrival"].expovariate(config.arrival_rate))
            if r.env.now >= config.duration:
                return
            tenant = rngs["tenant"].choices(r.tenants, self.tenant_weights)[0]
            kind = rngs["kind"].choices(self.kinds, config.kind_mix)[0]
            faults = []
            if rngs["injection"].random() < config.injection_rate:
                faults.append("injection")
            if rngs["mail"].random() < config.mail_timeout_rate:
                faults.append("mail-timeout")
            if rngs["outage"].random() < outage[tenant.tier]:
                faults.append("outage")
            jitter = rngs["latency"].lognormvariate(0.0, 0.25)
            r.request(tenant, kind, tuple(faults), jitter)

    def run(self):
        self.rollout.env.process(self.arrivals())
        self.rollout.env.run()
        return sorted(self.rollout.records, key=lambda q: (q.arrived, q.tenant))


@pytest.mark.parametrize(
    ("config", "seeds"),
    [
        # The breaker trips, half-opens, probes, closes and latches.
        (CanaryConfig(candidate="B", duration=1800.0, cooldown=120.0, max_trips=4), (1, 2)),
        # Few tenants, a large share, a short window: trips within minutes, human_delay 0.
        (
            CanaryConfig(
                candidate="C",
                duration=900.0,
                tenants=6,
                share=0.4,
                window=90.0,
                min_requests=5,
                cooldown=45.0,
                probe_requests=2,
                human_delay=0.0,
            ),
            (3, 4),
        ),
        # The breaker on cost alone.
        (CanaryConfig(candidate="C", duration=900.0, max_cost=80.0), (5,)),
    ],
)
def test_is_a_run_the_story_told_in_simpy_event_by_event(config, seeds):
    """run_canary records a baseline tenant's request as it arrives and draws each stream's
    values in one go: the same records, trips, samples and changes as every request simulated
    in SimPy with its values drawn as it arrives."""
    for seed in seeds:
        got = run_canary(config, seed=seed)
        story = _EveryRequestInSimPy(config, seed)
        records = story.run()
        breaker = story.rollout.breaker
        assert breaker.trips and breaker.changes, "the config should exercise the breaker"
        assert got.requests == records
        assert (got.trips, got.samples, got.changes) == (
            breaker.trips,
            breaker.samples,
            breaker.changes,
        )
