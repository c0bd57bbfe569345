"""Does the step-through of one race show, after each event, the task's row and effects, and do
its controls move it, without a browser?"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402

from simlab import Scenario, simulate  # noqa: E402
from simlab.checker.history import History  # noqa: E402
from simlab.plots.stepper import RaceStepper, first_refused_task  # noqa: E402

PNG = b"\x89PNG"


@pytest.fixture(scope="module")
def race():
    """w1 pauses past its lease; w2 takes over (epoch 2), e-mails and completes; w1 wakes and
    its save is refused because the task is already completed."""
    h = History()
    h.record(0, "ok", "client", "submit", "t1", steps=1)
    h.record(1, "ok", "w1", "claim", "t1", 1, 0, lease_until=4.0)
    h.record(1.5, "info", "w1", "pause", "t1", 1, 0, until=9.0)
    h.record(5, "ok", "w2", "claim", "t1", 2, 0, lease_until=8.0)
    h.record(6, "ok", "w2", "heartbeat", "t1", 2, 0)
    h.record(6.5, "ok", "w2", "effect", "t1", 2, 0, key="t1:email:0")
    h.record(7, "ok", "w2", "save", "t1", 2, 1, done=True)
    h.record(9, "fail", "w1", "save", "t1", 1, 1, done=True, reason="completed")
    return h


def test_is_there_one_step_per_event_of_the_task(race):
    s = RaceStepper(race, "t1")
    assert len(s) == 8 and s.task == "t1"


def test_does_each_step_show_the_row_after_that_event(race):
    s = RaceStepper(race, "t1")
    assert "<td><b>running</b></td>" in s.row_html(1) and "<b>w1</b>" in s.row_html(1)
    assert "<b>w2</b>" in s.row_html(3) and "<b>2</b>" in s.row_html(3)  # epoch 2 now
    assert s.changed(4) == {"lease_until"}  # the heartbeat: lease_until = 6 + ttl 3
    assert "<b>9.000</b>" in s.row_html(4)
    assert s.changed(6) == {"status", "step", "lease_until"}
    assert "<b>completed</b>" in s.row_html(6)
    assert s.changed(7) == set()  # a refused save changes nothing


def test_does_the_effects_table_grow_when_a_key_is_recorded(race):
    s = RaceStepper(race, "t1")
    assert s.effects_html(4) == "<p>effects: none recorded</p>"
    table = s.effects_html(5)
    assert "<td>t1:email:0</td><td>2</td><td>w2</td><td>6.500</td>" in table


def test_does_the_event_line_say_why_a_save_was_refused(race):
    s = RaceStepper(race, "t1")
    assert s.event_line(7) == (
        "event 8 of 8, t=9.000: w1 save fail (epoch 1, step 1, done): refused, completed"
    )
    assert s.event_line(1).startswith("event 2 of 8, t=1.000: w1 claim ok (epoch 1, step 0")


def test_do_the_slider_and_buttons_move_it(race):
    s = RaceStepper(race, "t1")
    assert s.widget() is s.widget() is s.box
    slider, (back, forward) = s.slider, s.buttons
    assert (slider.min, slider.max, slider.continuous_update) == (0, 7, False)
    assert bytes(s.image.value).startswith(PNG) and "event 1 of 8" in s.text.value
    slider.value = 6
    assert s.index == 6 and "<b>completed</b>" in s.text.value
    forward.click()
    forward.click()  # past the end: stays at the last event
    assert s.index == 7 and slider.value == 7 and "refused, completed" in s.text.value
    back.click()
    assert s.index == 6 == slider.value
    assert s.go(-5) == 0 and slider.value == 0


def test_does_the_figure_mark_the_current_event(race):
    s = RaceStepper(race, "t1")
    fig = s.figure(3)
    (cursor,) = [a for a in fig.axes[0].lines if a.get_gid() == "cursor"]
    assert list(cursor.get_xdata()) == [5, 5]


def test_does_it_pick_a_refused_race_of_a_real_run_and_refuse_an_unknown_task():
    run = simulate(Scenario(tasks=20, pause_rate=0.2), seed=1)
    task = first_refused_task(run.history)
    s = RaceStepper(run.history)
    assert s.task == task is not None
    assert any("refused" in s.event_line(i) for i in range(len(s)))
    last = s.snapshots[-1].row
    final = next(r for r in run.final if r.task_id == task)
    assert (last.status, last.step, last.epoch, last.worker) == (
        final.status,
        final.step,
        final.epoch,
        final.worker,
    )
    with pytest.raises(ValueError, match="no event of task"):
        RaceStepper(run.history, "t9999")
