"""The grader's own sentences, by ID (``grader.<key>``): the lines around a check's sentence
(how many checks passed, a story's moves, the note on replaced helpers), in English (``EN``)
and Chinese (``ZH``). See :mod:`simlab.grading.messages` for how they are rendered."""

from __future__ import annotations

__all__ = ["EN", "ZH"]

EN = {
    "legacy": "{text}",
    "same": "{text}",
    "sep": ", ",
    "all_passed": "all {n} checks passed",
    "not_attempted": "not attempted: {why}",
    "partial": "{passed}/{count} checks passed; {first}",
    "partial_more": "{passed}/{count} checks passed; {first} (and {more} more)",
    "partial_two": "{passed}/{count} checks passed; {first}; also, {second}",
    "partial_two_more": "{passed}/{count} checks passed; {first}; also, {second} (and {more} more)",
    "lost": "{lost}; a question whose code hangs or crashes gets 0",
    "gets_zero": "{said}; the question gets 0",
    "withheld": "a hidden case failed (what your code said there is not shown: it quotes a "
    "hidden input)",
    "note": "{body} (note: the notebook replaces {names}; the grader ignores that)",
    "story": "{story}: {said}",
    "moves": "{moves}",
    "moves_cut": "... {moves}",
}

ZH = {
    "legacy": "{text}",
    "same": "{text}",
    "sep": ",",
    "all_passed": "全部 {n} 项检查通过",
    "not_attempted": "未作答:{why}",
    "partial": "{passed}/{count} 项检查通过;{first}",
    "partial_more": "{passed}/{count} 项检查通过;{first}(另有 {more} 项未通过)",
    "partial_two": "{passed}/{count} 项检查通过;{first};另外,{second}",
    "partial_two_more": "{passed}/{count} 项检查通过;{first};另外,{second}(另有 {more} 项未通过)",
    "lost": "{lost};代码卡死或崩溃的题目得 0 分",
    "gets_zero": "{said};这道题得 0 分",
    "withheld": "一个隐藏用例没有通过(你的代码在那里给出的内容不显示:它引用了隐藏输入)",
    "note": "{body}(注意:这个 notebook 替换了 {names};评分器不受影响)",
    "story": "{story}:{said}",
    "moves": "{moves}",
    "moves_cut": "……{moves}",
}
