"""The sentences of the instructor's overrides (:mod:`simlab.grading.overrides`), in every
export and on the feedback page: catalog ``override`` of :mod:`simlab.grading.messages`."""

EN = {
    "line": "{q}: {points} points set by your instructor on {at} (the grader gave {grader}): {why}",
}

ZH = {
    "line": "{q}：教师于 {at} 将分数改为 {points} 分（评分程序给了 {grader} 分）：{why}",
}
