"""Do the pictures draw what the history says: one marker per save, one box per lease, one bar
of completions per finished task? And do they survive an empty history?"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.axes import Axes  # noqa: E402

from simlab.checker.history import History  # noqa: E402
from simlab.plots import sweep_plot, throughput_latency, timeline  # noqa: E402


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def race(stale_save_accepted: bool = False) -> History:
    """w1 pauses past its lease on t1; w2 takes over with epoch 2 and completes; w1 wakes and
    tries to commit with epoch 1. Meanwhile w3 runs t2, sends an e-mail, crashes, and a user
    cancels t3."""
    h = History()
    r = h.record
    r(0, "ok", "client", "submit", "t1", steps=2)
    r(0, "ok", "client", "submit", "t2", steps=1)
    r(0, "ok", "client", "submit", "t3", steps=2)
    r(0.5, "ok", "w1", "deliver", "t1", duplicate=False, redelivery=False)
    r(0.5, "ok", "w1", "claim", "t1", 1, 0, lease_until=5.5)
    r(1.0, "ok", "w3", "claim", "t2", 1, 0, lease_until=6.0)
    r(1.5, "ok", "w1", "save", "t1", 1, 1, done=False)
    r(2.0, "info", "w1", "pause", "t1", 1, 1, until=12.0)
    r(2.5, "ok", "w3", "send", "t2", 1, 1, key="t2:email:0")
    r(2.6, "info", "w3", "crash", "t2", 1, 0, after_effect=True)
    r(3.0, "ok", "w4", "claim", "t3", 1, 0, lease_until=8.0)
    r(3.5, "ok", "user", "cancel", "t3", 2)
    r(4.0, "fail", "w4", "save", "t3", 1, 1, done=False)
    r(7.0, "ok", "w2", "deliver", "t1", duplicate=False, redelivery=True)
    r(7.0, "ok", "w2", "claim", "t1", 2, 1, lease_until=12.0)
    r(8.0, "ok", "w2", "save", "t1", 2, 2, done=True)
    r(9.0, "ok", "w4", "claim", "t2", 2, 0, lease_until=14.0)
    r(9.5, "ok", "w4", "send", "t2", 2, 1, key="t2:email:0")
    r(10.0, "ok", "w4", "save", "t2", 2, 1, done=True)
    r(11.0, "info", "nemesis", "faults-off")
    r(12.0, "ok" if stale_save_accepted else "fail", "w1", "save", "t1", 1, 2, done=True)
    return h


def artists(ax, gid):
    """The lines and patches that carry ``gid``."""
    return [a for a in [*ax.lines, *ax.patches] if a.get_gid() == gid]


def marker_count(ax, gid) -> int:
    return sum(len(line.get_xdata()) for line in artists(ax, gid))


def refused_count(ax) -> int:
    """Refused saves, whatever their reason (``save-fail-<reason>``)."""
    lines = [a for a in ax.lines if str(a.get_gid()).startswith("save-fail-")]
    return sum(len(line.get_xdata()) for line in lines)


# --- timeline ---------------------------------------------------------------------------------


def test_does_timeline_return_the_axes_it_drew_on():
    fig, given = plt.subplots()
    assert timeline(race(), ax=given) is given
    assert isinstance(timeline(race()), Axes)


def test_is_there_one_red_marker_per_refused_save_and_one_green_per_accepted_save():
    h = race()
    ax = timeline(h)
    refused = sum(1 for e in h if e.op == "save" and e.type == "fail")
    accepted = sum(1 for e in h if e.op == "save" and e.type == "ok")
    assert refused_count(ax) == refused == 2
    assert marker_count(ax, "save-ok") + marker_count(ax, "save-done") == accepted == 3
    assert marker_count(ax, "save-stale") == 0


def test_does_a_refused_save_show_why_it_was_refused():
    # race(): w4's save on t3 comes after the cancel; w1's late save on t1 after w2 completed.
    ax = timeline(race())
    assert marker_count(ax, "save-fail-cancelled") == 1
    assert marker_count(ax, "save-fail-completed") == 1
    assert marker_count(ax, "save-fail-stale-epoch") == 0
    labels = ax.get_legend().texts
    assert {"refused: task cancelled", "refused: task already completed"} <= {
        t.get_text() for t in labels
    }
    h = History()
    h.record(0, "ok", "client", "submit", "t1", steps=1)
    h.record(1, "ok", "w1", "claim", "t1", 1, 0, lease_until=3.0)
    h.record(4, "ok", "w2", "claim", "t1", 2, 0, lease_until=7.0)
    h.record(5, "fail", "w1", "save", "t1", 1, 1, done=True)
    h.record(6, "fail", "w2", "save", "t1", 2, 1, done=True, reason="dead")
    ax = timeline(h)
    assert marker_count(ax, "save-fail-stale-epoch") == 1
    assert marker_count(ax, "save-fail-other") == 1  # the ledger said dead
    markers = {a.get_gid(): a.get_marker() for a in ax.lines}
    assert markers["save-fail-stale-epoch"] != markers["save-fail-other"]


def test_is_the_x_axis_not_stretched_by_a_late_lease_until():
    h = History()
    h.record(0, "ok", "client", "submit", "t1", steps=2)
    h.record(1, "ok", "w1", "claim", "t1", 1, 0, lease_until=1000.0)  # a huge ttl
    h.record(2, "ok", "w1", "save", "t1", 1, 1, done=False)
    h.record(10, "ok", "w2", "claim", "t2", 1, 0, lease_until=12.0)  # within a quarter span
    ax = timeline(h)
    left, right = ax.get_xlim()
    assert 12 < right < 13 and left < 0  # 0 to 12 and a margin of 3%
    notes = [t for t in ax.texts if t.get_gid() == "clipped"]
    assert [t.get_text() for t in notes] == ["until t=1000"]


def test_are_refused_saves_labelled_with_the_epoch_they_carried():
    texts = [t.get_text() for t in timeline(race()).texts]
    assert texts.count("e1") >= 2  # w4's save on t3 and w1's stale save on t1


def test_is_an_accepted_stale_save_ringed_in_red():
    ax = timeline(race(stale_save_accepted=True))
    assert marker_count(ax, "save-stale") == 1
    assert any("stale" in t.get_text() for t in ax.texts)


def test_is_a_lease_whose_epoch_was_granted_twice_outlined_in_red():
    h = History()
    h.record(1, "ok", "w1", "claim", "t1", 3, 0, lease_until=6.0)
    h.record(1, "ok", "w2", "claim", "t1", 3, 0, lease_until=6.0)
    ax = timeline(h)
    assert len(artists(ax, "lease")) == 1 and len(artists(ax, "lease-reused")) == 1
    assert any(t.get_text() == "t1 e3 again!" for t in ax.texts)


def test_is_there_one_box_per_lease_one_hatch_per_pause_and_a_cross_per_crash():
    h = race()
    ax = timeline(h)
    assert len(artists(ax, "lease")) == sum(1 for e in h if e.op == "claim" and e.type == "ok")
    assert len(artists(ax, "pause")) == 1 and artists(ax, "pause")[0].get_hatch()
    assert marker_count(ax, "crash") == 1
    assert marker_count(ax, "send") == 1 and marker_count(ax, "send-dup") == 1
    assert marker_count(ax, "deliver-dup") == 1
    assert len(artists(ax, "cancel")) == 1


def test_does_a_lease_box_end_at_lease_until_when_its_holder_is_paused():
    ax = timeline(race(), tasks=["t1"])
    w1_box = min(artists(ax, "lease"), key=lambda b: b.get_x())
    assert w1_box.get_x() == 0.5 and w1_box.get_width() == pytest.approx(5.0)


def test_is_there_one_lane_per_worker_in_natural_order():
    h = History()
    for i in (10, 2, 1):
        h.record(i, "ok", f"w{i}", "claim", "t1", i, 0, lease_until=i + 1.0)
    ax = timeline(h)
    assert [t.get_text() for t in ax.get_yticklabels()] == ["w1", "w2", "w10"]


def test_does_tasks_limit_the_lanes_to_the_workers_of_those_tasks():
    ax = timeline(race(), tasks=["t1"])
    assert [t.get_text() for t in ax.get_yticklabels()] == ["w1", "w2"]
    assert marker_count(ax, "crash") == 0


def test_does_a_long_history_show_the_tasks_of_its_first_refused_commits():
    h = History()
    for i in range(1, 21):
        h.record(i, "ok", f"w{i % 3 + 1}", "claim", f"t{i}", 1, 0, lease_until=i + 5.0)
        h.record(
            i + 0.5, "ok" if i != 14 else "fail", f"w{i % 3 + 1}", "save", f"t{i}", 1, 1, done=True
        )
    ax = timeline(h)
    assert len(artists(ax, "lease")) == 1
    assert any(t.get_text().startswith("t14") for t in ax.texts)


def test_can_timeline_draw_an_empty_history():
    ax = timeline(History())
    ax.figure.canvas.draw()
    assert artists(ax, "lease") == []


# --- throughput and latency -------------------------------------------------------------------


def test_does_every_completed_task_add_one_to_the_throughput_bars():
    h = race()
    ax = throughput_latency(h, bin_width=2.0)
    bars = artists(ax, "throughput")
    assert sum(b.get_height() for b in bars) == 2  # t1 and t2
    assert {b.get_width() for b in bars} == {2.0}


def test_is_latency_drawn_on_a_twin_axis_one_dot_per_completed_task():
    ax = throughput_latency(race())
    (dots,) = artists(ax.right_ax, "latency")
    assert sorted(dots.get_ydata()) == [8.0, 10.0]  # submit at 0, done at 8 and 10
    assert ax.right_ax.get_shared_x_axes().joined(ax, ax.right_ax)


def test_are_fault_periods_shaded():
    ax = throughput_latency(race())
    assert len(artists(ax, "faults")) == 1
    assert len(artists(ax, "paused")) == 1


def test_can_throughput_latency_draw_an_empty_history():
    ax = throughput_latency(History())
    ax.figure.canvas.draw()
    assert isinstance(ax, Axes) and artists(ax, "throughput") == []


# --- sweep ------------------------------------------------------------------------------------


def sweep_rows():
    rows = []
    for variant, bad in (("fenced", 0), ("unfenced", 1)):
        for rate in (0.0, 0.1, 0.2):
            for seed in (1, 2):
                rows.append(
                    dict(
                        variant=variant,
                        rate=rate,
                        seed=seed,
                        completed=10 - seed,
                        wasted_steps=rate * 10 * seed,
                        duplicate_sends=bad * seed,
                        violations=bad * int(rate * 10),
                    )
                )
    return rows


def test_does_sweep_plot_draw_one_line_per_variant_in_each_of_four_panels():
    axes = sweep_plot(sweep_rows())
    assert isinstance(axes, np.ndarray) and axes.shape == (4,)
    for a in axes:
        assert sorted(line.get_label() for line in a.lines) == ["fenced", "unfenced"]


def test_does_sweep_plot_average_over_seeds():
    axes = sweep_plot(sweep_rows())
    wasted = {line.get_label(): list(line.get_ydata()) for line in axes[1].lines}
    assert wasted["fenced"] == pytest.approx([0.0, 1.5, 3.0])  # rate*10*mean(1, 2)
    (unfenced,) = [line for line in axes[3].lines if line.get_label() == "unfenced"]
    assert list(unfenced.get_xdata()) == [0.0, 0.1, 0.2]


def test_does_sweep_plot_draw_on_the_axes_it_is_given():
    fig, given = plt.subplots(2, 2)
    axes = sweep_plot(sweep_rows(), ax=given)
    assert list(axes) == list(given.ravel())
    with pytest.raises(ValueError, match="4 Axes"):
        sweep_plot(sweep_rows(), ax=given[0])


def test_does_an_all_zero_panel_say_so_instead_of_a_flat_line():
    rows = [dict(r, duplicate_sends=0) for r in sweep_rows()]
    axes = sweep_plot(rows)
    assert len(axes[2].lines) == 0 and len(axes[1].lines) == 2
    (note,) = [t for t in axes[2].texts if t.get_gid() == "all-zero"]
    assert note.get_text().replace("\n", " ").startswith("0 in every run: with idempotency keys")


def test_are_the_wasted_steps_and_racy_claim_panels_explained():
    axes = sweep_plot(sweep_rows())  # fenced and unfenced, no fault named
    assert "stale work is accepted" in axes[1].get_xlabel().replace("\n", " ")
    assert axes[3].get_xlabel() == "rate"
    racy = [dict(r, variant="racy-claim", fault="pause") for r in sweep_rows()]
    axes = sweep_plot([dict(r, fault="pause") for r in sweep_rows()] + racy)
    assert "live leases are taken over" in axes[3].get_xlabel().replace("\n", " ")
    axes = sweep_plot([dict(r, fault="crash") for r in racy])  # not a pause sweep: no claim
    assert axes[3].get_xlabel() == "rate"


def test_do_the_sweep_captions_hold_on_the_kits_own_runs():
    # The two sentences, on a small pause sweep: unfenced refuses fewer saves but accepts stale
    # ones; racy-claim breaks at every rate, handing out fewer epochs twice (rule a') and
    # taking over more live leases (rule h) as pauses rise.
    from simlab.sim.scenario import Scenario
    from simlab.sim.simulation import simulate
    from simlab.sim.sweep import sweep

    rows = sweep(Scenario(tasks=60), fault="pause", rates=(0.0, 0.2), seeds=range(1, 7))

    def mean(variant, rate, key):
        vals = [r[key] for r in rows if (r["variant"], r["rate"]) == (variant, rate)]
        return sum(vals) / len(vals)

    assert mean("unfenced", 0.2, "wasted_steps") < mean("fenced", 0.2, "wasted_steps")
    assert mean("unfenced", 0.2, "violations") > 0 == mean("fenced", 0.2, "violations")
    assert mean("racy-claim", 0.2, "violations") > 0 < mean("racy-claim", 0.0, "violations")

    def racy(rate):
        runs = [
            simulate(Scenario(tasks=60, variant="racy-claim", pause_rate=rate), seed=s)
            for s in range(1, 7)
        ]
        twice = sum(sum(f.letter == "a'" for f in r.findings) for r in runs)
        return twice, sum(f.letter == "h" for r in runs for f in r.findings)

    (twice_0, taken_0), (twice_2, taken_2) = racy(0.0), racy(0.2)
    assert twice_2 < twice_0 and taken_2 > taken_0


def test_can_sweep_plot_draw_no_rows():
    axes = sweep_plot([])
    axes[0].figure.canvas.draw()
    assert all(len(a.lines) == 0 for a in axes)


# --- a real run -------------------------------------------------------------------------------


def test_do_the_pictures_draw_a_simulated_run():
    from simlab.sim.scenario import Scenario
    from simlab.sim.simulation import simulate

    result = simulate(Scenario(tasks=12, pause_rate=0.2), seed=1)
    h = result.history
    tasks = sorted({e.task for e in h if e.op == "save" and e.type == "fail"})[:2] or ["t0001"]
    ax = timeline(h, tasks=tasks)
    ax.figure.canvas.draw()
    mine = [e for e in h if e.task in tasks]
    assert len(artists(ax, "lease")) == sum(e.op == "claim" and e.type == "ok" for e in mine)
    assert refused_count(ax) == sum(e.op == "save" and e.type == "fail" for e in mine)
    ax = throughput_latency(h)
    ax.figure.canvas.draw()
    assert sum(b.get_height() for b in artists(ax, "throughput")) == result.completed


def test_does_each_dashboard_control_say_its_label_in_english():
    """A control's label is said from the catalog: in English it is the label CONTROLS gives."""
    from simlab.plots.dashboard import CONTROLS
    from simlab.plots.messages import EN

    assert {name: EN[f"control_{name}"] for name in CONTROLS} == {
        name: label for name, (_, _, _, label) in CONTROLS.items()
    }


def test_does_each_sweep_panel_say_its_title_in_english():
    from simlab.plots.messages import EN
    from simlab.plots.sweep import SWEEP_TITLES

    assert {m: EN[f"sweep_{m}"] for m in SWEEP_TITLES} == SWEEP_TITLES
