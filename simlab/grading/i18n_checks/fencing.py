"""Chinese for the hidden checks' sentences of simlab/grading/checks/fencing/__init__.py.

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
    # The generated sequences of cancel-after-claim: moves, then what went wrong.
    (r"claim \(epoch (?P<e>[^()]+)\)", "领取(epoch {e})"),
    (r"claim refused", "领取被拒绝"),
    (r"commit with epoch (?P<e>.+) accepted", "用 epoch {e} 提交,被接受"),
    (r"commit with epoch (?P<e>.+) refused", "用 epoch {e} 提交,被拒绝"),
    (r"cancel", "取消"),
    (r"requeue", "重新入队"),
    (
        r"cancel of a (?P<st>\w+) task must set 'cancelled' and bump the epoch by one",
        "取消状态为 {st} 的任务时,必须把状态设为 'cancelled' 并把 epoch 加一",
    ),
    (
        r"the claim got epoch (?P<e>.+), which the cancel had already used \(requeue must keep "
        r"the epoch\)",
        "这次领取得到了 epoch {e},而取消已经用过它(requeue 必须保留 epoch)",
    ),
    (
        r"the claim got epoch (?P<e>.+), which a lease before it had already used \(requeue must "
        r"keep the epoch\)",
        "这次领取得到了 epoch {e},而之前的租约已经用过它(requeue 必须保留 epoch)",
    ),
    (
        r"a commit with epoch (?P<e>.+), from before the cancel, was accepted",
        "取消之前的 epoch {e} 的提交被接受了",
    ),
    (
        r"(?P<fn>\w+)\(\) of a (?P<st>\w+) task left the (?P<key>\w+) at (?P<got>.+), expected "
        r"(?P<want>.+) \(requeue must keep the epoch\)",
        "对状态为 {st} 的任务调用 {fn}() 后,{key} 为 {got},应为 {want}(requeue 必须保留 epoch)",
    ),
    (
        r"(?P<fn>\w+)\(\) of a (?P<st>\w+) task left the (?P<key>\w+) at (?P<got>.+), expected "
        r"(?P<want>.+)",
        "对状态为 {st} 的任务调用 {fn}() 后,{key} 为 {got},应为 {want}",
    ),
    (r"(?P<fn>\w+)\(\) changed a (?P<st>\w+) task", "{fn}() 改动了状态为 {st} 的任务"),
    (r"the state lost its 'epoch' or 'status' key", "状态字典丢失了 'epoch' 或 'status' 键"),
    # cancel-limits on ledgers built otherwise.
    (
        r"on a ledger whose cancel fences nothing \(its mailbox loses mail\), your (?P<k>'\w+') "
        r"came out (?P<got>.+), but the story there gives (?P<want>\w+): measure each one, do "
        r"not type it in",
        "在一个取消什么也挡不住(邮箱还会丢信)的账本上,你的 {k} 得到 {got},而在那里这个故事给出"
        " {want}:每一项都要用代码测量,不要手写答案",
    ),
    (
        r"on a ledger whose cancel rolls the steps back, your (?P<k>'\w+') came out (?P<got>.+), "
        r"but the story there gives (?P<want>\w+): measure each one, do not type it in",
        "在一个取消会把 step 回滚的账本上,你的 {k} 得到 {got},而在那里这个故事给出 {want}:"
        "每一项都要用代码测量,不要手写答案",
    ),
)
