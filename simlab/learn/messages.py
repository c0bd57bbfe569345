"""What a notebook's checks say, by ID (``learn.<key>``), in English (``EN``) and Chinese
(``ZH``): a prediction's reveal (:mod:`simlab.learn.predict`) and a self-check's line
(:mod:`simlab.learn.self_check`). Rendered by :func:`simlab.i18n.language.say` in the language
the notebook set; the English is what these lines have always been, byte for byte. A question's
ID stays as the notebook names it (in Chinese between 「」: an ID such as ``tasks needed at 0.9``
is a name, not a sentence to translate)."""

from __future__ import annotations

__all__ = ["EN", "ZH"]

EN = {
    "make_a_prediction": "Make a prediction first: set `prediction` in the cell above, run it, "
    "then run this cell.",
    "right": "Right: you predicted {prediction} and the run gave {actual}. {why}",
    "wrong": "Not quite: you predicted {prediction}, but the run gave {actual}. {why}",
    "pass": "[pass] {question}: the public checks pass.",
    "pass_graded": "[pass] {question}: the public checks pass (the grader runs more).",
    "not_yet": "[not yet] {question}: {hint}",
    "not_yet_hint": "this part still raises NotImplementedError",
    "fail": "[fail] {question}: {message}",
    "failed_line": "this check failed: {line}",
    "assert_failed": "an assert failed",
}

ZH = {
    "make_a_prediction": "请先做预测：在上面的单元格里设置 `prediction` 并运行，再运行这个单元格。",
    "right": "对了：你预测的是 {prediction}，运行结果是 {actual}。{why}",
    "wrong": "不对：你预测的是 {prediction}，运行结果却是 {actual}。{why}",
    "pass": "[通过]「{question}」：公开检查全部通过。",
    "pass_graded": "[通过]「{question}」：公开检查全部通过（评分器还会运行更多检查）。",
    "not_yet": "[未完成]「{question}」：{hint}",
    "not_yet_hint": "这一部分仍然抛出 NotImplementedError",
    "fail": "[失败]「{question}」：{message}",
    "failed_line": "这条检查没有通过：{line}",
    "assert_failed": "有一条 assert 没有通过",
}
