"""Chinese for the hidden checks' sentences of simlab/grading/checks/fencing.py.

Exercise 01's stories run on a ledger file.
"""

from __future__ import annotations

__all__ = ["PATTERNS"]

PATTERNS: tuple[tuple, ...] = (
    (
        r"the ledger file at `path` holds no task (?P<t>'\w+'): run the (?P<what>experiment|story) "
        r"on the path you are given",
        "`path` 处的账本文件里没有任务 {t}:请在给你的路径上运行这个{what}",
        (),
        ("what",),
    ),
    (
        r"the ledger's epoch shows a claim after the cancel \(or a missing one before it\)",
        "账本的 epoch 显示取消之后还有一次领取(或者取消之前缺了一次领取)",
    ),
    (
        r"the answer's (?P<key>'\w+') \((?P<a>.+)\) is not what the ledger holds \((?P<b>.+)\): "
        r"read it from the ledger at the end",
        "答案中的 {key}({a})与账本中的值({b})不一致:请在最后从账本读取",
    ),
    (r"an e-mail already sent cannot be recalled by a cancel", "已经发出的邮件无法被取消召回"),
    (
        r"the ledger does not show the story ran, so these answers are guesses",
        "账本显示这个故事并没有运行,所以这些答案只是猜测",
    ),
)
