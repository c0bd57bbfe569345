"""Does the kit speak the language a notebook set, and English exactly as before?

A notebook sets its language once (``set_language("zh")``); then a reveal, a self-check and
the lines the notebook prints come from the catalogs in Chinese, and English stays byte for byte
what it was (the English literals below are the lines the kit has always printed)."""

from __future__ import annotations

import io
import sys

import pytest

from simlab.i18n.language import language, lines, say, sentence, set_language
from simlab.i18n.prose import english_prose
from simlab.learn import reveal, self_check
from simlab.learn.self_check import CheckFailed

WHY = (
    "At t=25 nobody has claimed the task again, so worker-1's epoch 1 is still the current "
    "one. A pause is only harmful if someone else takes over the task meanwhile."
)


@pytest.fixture
def zh():
    set_language("zh")
    yield
    set_language("en")


def _said(*args, **kwargs) -> str:
    out: list[str] = []
    reveal(*args, say=out.append, **kwargs)
    return out[0]


def test_is_english_output_byte_for_byte_what_it_was(capsys):
    assert language() == "en"
    assert _said(None, 1, why=WHY) == (
        "Make a prediction first: set `prediction` in the cell above, run it, then run this cell."
    )
    assert _said("x", "x", why=WHY) == f"Right: you predicted 'x' and the run gave 'x'. {WHY}"
    assert _said(2, 3, why=WHY) == f"Not quite: you predicted 2, but the run gave 3. {WHY}"
    with self_check("q"):
        raise NotImplementedError("compare the two epochs, and look at the status")
    with self_check("r"):
        raise NotImplementedError
    with pytest.raises(CheckFailed):
        with self_check("s"):
            raise AssertionError("choose one of the three answers")
    assert capsys.readouterr().out == (
        "[not yet] q: compare the two epochs, and look at the status\n"
        "[not yet] r: this part still raises NotImplementedError\n"
        "[fail] s: choose one of the three answers\n"
    )
    text = "A holds epoch 1, B holds epoch 2\n"
    assert lines(text) is text and sentence(WHY) is WHY


def test_does_a_wrong_prediction_get_its_verdict_and_why_in_chinese(zh):
    said = _said("?", True, why=WHY)
    assert said.startswith("不对：你预测的是 '?'，运行结果却是 True。在 t=25 还没有人")
    assert english_prose(said) == []


def test_is_a_prediction_the_rule_cannot_compare_wrong_not_a_traceback():
    assert reveal("?", 3, why=".", right=lambda p, a: abs(p - a) <= 1, say=lambda _: None) is False


def test_does_a_self_check_speak_chinese_hints_and_asserts_included(zh, capsys):
    with self_check("q", graded=False):
        raise NotImplementedError("set timeout_means in the cell above")
    with pytest.raises(CheckFailed):
        with self_check("s"):
            raise AssertionError("task at epoch 2, queued, your epoch 1: commit says False")
    with self_check("t"):
        pass
    out = capsys.readouterr().out
    assert out == (
        "[未完成]「q」：在上面的单元格里设置 timeout_means\n"
        "[失败]「s」：任务在 epoch 2、状态 queued、你的 epoch 1：commit 的结果是 False\n"
        "[通过]「t」：公开检查全部通过（评分器还会运行更多检查）。\n"
    )


def test_are_printed_lines_translated_with_their_values_kept(zh):
    inner = io.StringIO()
    sys.stdout, saved = inner, sys.stdout
    try:
        set_language("zh")  # wraps the stream it finds
        print("A holds epoch 7, B holds epoch 8")
        print("an unknown line stays as it is", end="")
        sys.stdout.flush()
        set_language("en")  # unwraps it
        assert sys.stdout is inner
    finally:
        sys.stdout = saved
    assert inner.getvalue() == "A 持有 epoch 7，B 持有 epoch 8\nan unknown line stays as it is"


def test_is_a_value_inside_a_line_translated_too():
    line = "t=10 worker-2 claim: refused (task 't1' is leased to 'w' until t=30.0)"
    assert (
        sentence(line, "zh") == "t=10 worker-2 认领：被拒绝（任务 't1' 租给了 'w'，租约到 t=30.0）"
    )


def test_does_an_unknown_language_fail_in_one_line():
    with pytest.raises(ValueError, match="unknown language 'fr'; choose one of en, zh"):
        set_language("fr")
    assert say("learn.pass", "zh", question="q") == "[通过]「q」：公开检查全部通过。"
