"""Does the tuning dashboard do what its controls say, without a browser?"""

from __future__ import annotations

from dataclasses import replace

import ipywidgets
import pytest

from simlab.checker.history import history_digest
from simlab.plots.dashboard import CONTROLS, SWEEP_FAULTS, Dashboard, Params
from simlab.sim.scenario import VARIANTS, Scenario
from simlab.sim.simulation import simulate

SMALL = Scenario(tasks=15)
PNG = b"\x89PNG"


@pytest.fixture
def dash():
    return Dashboard(SMALL, seed=3, sweep_rates=(0.0, 0.2), sweep_seeds=(1, 2))


def test_do_the_controls_start_at_the_base_scenarios_values(dash):
    assert dash.params_from_controls() == Params.from_scenario(SMALL, seed=3)
    assert dash.params_from_controls().scenario(SMALL) == SMALL


def test_does_moving_a_control_change_the_params(dash):
    dash.auto.value = False
    dash.controls["pause_rate"].value = 0.3
    dash.controls["workers"].value = 7
    dash.controls["variant"].value = "unfenced"
    params = dash.params_from_controls()
    assert (params.pause_rate, params.workers, params.variant) == (0.3, 7, "unfenced")
    scenario = params.scenario(SMALL)
    assert (scenario.pause_rate, scenario.workers, scenario.variant) == (0.3, 7, "unfenced")
    assert scenario.tasks == SMALL.tasks  # what no control sets comes from the base


@pytest.mark.parametrize("name", list(CONTROLS))
def test_is_every_value_a_slider_can_reach_a_valid_scenario(dash, name):
    for value in (dash.controls[name].min, dash.controls[name].max):
        params = replace(Params.from_scenario(SMALL), **{name: value})
        params.scenario(SMALL)  # raises ValueError if the slider could reach a bad value


def test_do_sliders_wait_until_released():
    for control in Dashboard(SMALL).controls.values():
        if hasattr(control, "continuous_update"):
            assert control.continuous_update is False


def test_does_run_give_the_same_history_as_simulate(dash):
    params = Params.from_scenario(SMALL, seed=5)
    result, fig = dash.run(params)
    assert history_digest(result.history) == history_digest(simulate(SMALL, seed=5).history)
    gids = {artist.get_gid() for artist in fig.axes[0].get_children()}
    assert "lease" in gids, "the figure is the run's timeline"


def test_does_the_verdict_name_a_stale_commit_of_the_unfenced_variant(dash):
    params = replace(Params.from_scenario(SMALL, seed=1), variant="unfenced", pause_rate=0.5)
    result, _ = dash.run(params)
    assert not result.ok
    text = dash.verdict_text(result)
    assert "VIOLATION" in text and result.violations[0] in text


def test_does_a_sweep_run_every_variant_rate_and_seed_and_report_progress(dash):
    seen = []
    rows, fig = dash.sweep(dash.params_from_controls(), progress=lambda d, t: seen.append((d, t)))
    runs = {(r["variant"], r["rate"], r["seed"]) for r in rows}
    assert runs == {(v, r, s) for v in VARIANTS for r in (0.0, 0.2) for s in (1, 2)}
    total = len(VARIANTS) * 2 * 2
    assert seen == [(n, total) for n in range(total + 1)]
    assert len(fig.axes) == 4


def test_does_a_sweep_vary_only_the_chosen_fault(dash):
    rows, _ = dash.sweep(
        dash.params_from_controls(), rates=[0.4], seeds=[1], fault="crash", variants=["fenced"]
    )
    (row,) = rows
    assert row["fault"] == "crash" and "--crash-rate 0.4" in row["replay"]


def test_is_an_unknown_sweep_fault_refused():
    with pytest.raises(ValueError, match="unknown sweep fault"):
        Dashboard(SMALL, sweep_fault="meteor")
    assert "pause" in SWEEP_FAULTS


def test_does_clicking_run_rerun_with_the_controls(dash):
    dash.auto.value = False
    dash.controls["seed"].value = 9
    dash.run_button.click()
    assert dash.result is not None and dash.result.seed == 9
    assert "seed 9" in dash.verdict.value and dash.status.value.startswith("last run")
    assert bytes(dash.timeline_image.value).startswith(PNG), "the timeline reached its image widget"


def widget_tree(widget):
    yield widget
    for child in getattr(widget, "children", ()):
        yield from widget_tree(child)


def test_does_the_dashboard_avoid_output_widgets(dash):
    # nbclient answers Output widget updates on the shell channel and can then miss the cell's
    # reply until the cell timeout (jupyter/nbclient#312): a headless run would stall.
    assert not any(isinstance(w, ipywidgets.Output) for w in widget_tree(dash.box))
    assert dash.timeline_image in widget_tree(dash.box)


def test_does_a_control_change_rerun_only_when_auto_is_on(dash):
    dash.auto.value = False
    dash.controls["seed"].value = 4
    assert dash.result is None
    dash.auto.value = True
    dash.controls["seed"].value = 6
    assert dash.result is not None and dash.result.seed == 6


@pytest.mark.parametrize("which", ["sweep", "shrink"])
def test_is_a_picture_hidden_until_its_button_draws_it(dash, which):
    """An empty image shows as a broken one in a browser: the sweep's and the story's pictures
    stay hidden until their button has drawn them."""
    image = getattr(dash, f"{which}_image" if which == "sweep" else "story_image")
    assert image.layout.display == "none" and not bytes(image.value)
    getattr(dash, f"{which}_button").click()
    assert image.layout.display == "" and bytes(image.value).startswith(PNG)


def test_does_clicking_sweep_fill_the_progress_bar(dash):
    dash.sweep_button.click()
    assert dash.rows and dash.progress.value == dash.progress.max == len(dash.rows)
    assert not dash.sweep_button.disabled
    assert bytes(dash.sweep_image.value).startswith(PNG)


def test_does_show_run_once_without_any_interaction(dash, capsys):
    dash.show()  # outside a kernel, display() prints a text form instead
    assert dash.result is not None and dash.result.seed == 3
