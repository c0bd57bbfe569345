"""Does a prediction get a one-sentence answer, and does a blank one let the notebook go on?"""

from __future__ import annotations

from simlab.grading import reveal
from simlab.learn.predict import MAKE_A_PREDICTION


def _said(*args, **kwargs):
    lines = []
    result = reveal(*args, say=lines.append, **kwargs)
    return result, lines


def test_is_a_blank_prediction_asked_for_and_nothing_raised():
    assert _said(None, 3, why="because.") == (None, [MAKE_A_PREDICTION])


def test_is_a_right_number_within_tolerance_called_right():
    ok, lines = _said(0.31, 0.3, why="Pauses scale with the ttl.", tolerance=0.05)
    assert ok is True and lines[0].startswith("Right") and "Pauses scale" in lines[0]


def test_is_a_wrong_number_called_wrong_with_the_reason():
    ok, lines = _said(0, 7, why="A stale worker still commits.")
    assert ok is False and "gave 7" in lines[0] and "stale worker" in lines[0]


def test_are_choices_compared_without_case_or_spaces():
    assert _said(" Fewer ", "fewer", why=".")[0] is True
    assert _said("more", "fewer", why=".")[0] is False


def test_does_a_custom_rule_replace_the_comparison():
    assert _said("some", 12, why=".", right=lambda p, a: a > 0)[0] is True


def test_is_true_not_taken_for_one():
    assert _said(True, 1, why=".")[0] is False


def test_does_a_lab_notebook_check_leave_out_the_grader(capsys):
    from simlab.grading import self_check

    with self_check("q", graded=False):
        pass
    with self_check("q"):
        pass
    lab, exercise = capsys.readouterr().out.splitlines()
    assert lab == "[pass] q: the public checks pass."
    assert exercise == "[pass] q: the public checks pass (the grader runs more)."
