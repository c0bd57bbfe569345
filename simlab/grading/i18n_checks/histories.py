"""Chinese for the hidden checks' sentences of simlab/grading/checks/histories/.

Exercise 03: stale commits, the lease length and recovery times.
"""

from __future__ import annotations

__all__ = ["PATTERNS"]

PATTERNS: tuple[tuple, ...] = (
    (
        r"(?P<fn>\w+)\(\) returned (?P<kind>\w+), expected a list of sentences",
        "{fn}() 返回了 {kind},应返回由句子组成的列表",
    ),
    (r"(?P<fn>\w+)\(\) returned (?P<kind>\w+), expected a list", "{fn}() 返回了 {kind},应返回列表"),
    (r"(?P<fn>\w+)\(\) returned (?P<kind>\w+), expected a dict", "{fn}() 返回了 {kind},应返回字典"),
    (
        r"on a recorded unfenced run: found (?P<n>\d+) stale commit\(s\), more than the kit's "
        r"rule finds",
        "在一次记录下来的无 fencing 运行上:找到 {n} 个陈旧提交,比工具包的规则找到的多",
    ),
    (
        r"on a recorded unfenced run: found (?P<n>\d+) stale commit\(s\), fewer than the kit's "
        r"rule finds",
        "在一次记录下来的无 fencing 运行上:找到 {n} 个陈旧提交,比工具包的规则找到的少",
    ),
    (
        r"(?P<what>.+): found (?P<n>\d+) stale commit\(s\), expected (?P<m>\d+)",
        "{what}:找到 {n} 个陈旧提交,应为 {m} 个",
        ("what",),
    ),
    (
        r"a save with epoch 1 after epoch 2 was granted to another worker",
        "epoch 2 已授予另一个 worker 之后,一次 epoch 1 的保存",
    ),
    (
        r"a save with epoch 1 after the same worker was granted epoch 2",
        "同一个 worker 已获得 epoch 2 之后,一次 epoch 1 的保存",
    ),
    (
        r"with a refused save, a refused claim and saves of the current epoch",
        "有一次被拒绝的保存、一次被拒绝的领取和当前 epoch 的保存时",
    ),
    (r"with two tasks, each with its own epochs", "有两个任务、各有自己的 epoch 时"),
    (
        r"a broken ledger granted epoch 1 again after epoch 2, then epoch 1 saved \(the highest "
        r"epoch granted counts, not the last\)",
        "一个有缺陷的账本在 epoch 2 之后又授予了 epoch 1,随后 epoch 1 保存了"
        "(算数的是已授予的最高 epoch,而不是最后一个)",
    ),
    (
        r"a save after its lease ran out but before a newer claim, then one right after that "
        r"claim at the same time \(the order of events decides\)",
        "一次保存在租约过期之后、更新的领取之前,另一次在同一时刻紧跟在那次领取之后(由事件的顺序决定)",
    ),
    (
        r"a save after a cancel \(the cancel granted epoch 2\)",
        "取消之后的一次保存(取消授予了 epoch 2)",
    ),
    (
        r"on a recorded run with the fence on, (?P<n>\d+) stale commit\(s\) were reported; "
        r"there are none",
        "在一次开启 fencing 的记录运行上,报告了 {n} 个陈旧提交;实际一个也没有",
    ),
    (
        r"stale_commits\(\) must return a list of sentences \(strings\), not a list of "
        r"(?P<kind>\w+)",
        "stale_commits() 必须返回由句子(字符串)组成的列表,而不是由 {kind} 组成的列表",
    ),
    (
        r"stale_commits\(\) must return a list of sentences \(strings\), not (?P<kind>\w+)",
        "stale_commits() 必须返回由句子(字符串)组成的列表,而不是 {kind}",
    ),
    (
        r"with stale commits of t7 then t3, the sentences should come in history order, each "
        r"naming its task",
        "t7 的陈旧提交在前、t3 的在后时,句子应按历史顺序排列,每句都写出它的任务",
    ),
    (
        r"two crashed tasks, a restart and a refused claim before they are claimed again",
        "两个崩溃的任务,在被再次领取之前有一次重启和一次被拒绝的领取",
    ),
    (
        r"a task crashed twice, claimed again only after the first crash",
        "一个任务崩溃了两次,只在第一次崩溃后被再次领取",
    ),
    (
        r"on a hidden table, choose_ttl\(\) chose (?P<v>.+), not the ttl of lowest cost "
        r"\(duplicate_work \* step_cost \+ waiting \* wait_cost\)",
        "在一张隐藏的表上,choose_ttl() 选了 {v},不是代价"
        "(duplicate_work * step_cost + waiting * wait_cost)最低的 ttl",
    ),
    (
        r"on a tie choose_ttl\(\) chose (?P<v>.+), expected the smaller ttl \(2\)",
        "平局时 choose_ttl() 选了 {v},应选较小的 ttl(2)",
    ),
    (
        r"(?P<what>.+): recovery_times\(\) gave (?P<got>.+), not the times the kit measures",
        "{what}:recovery_times() 给出了 {got},与工具包测得的时间不同",
        ("what",),
    ),
    (r"on a recorded unfenced run", "在一次记录下来的无 fencing 运行上"),
    (r"on a recorded run \(ttl (?P<ttl>[\d.]+)\)", "在一次记录下来的运行上(ttl {ttl})"),
    (
        r"measure\((?P<ttl>[\d.]+), hidden seeds\) gave (?P<key>\w+) = (?P<v>.+), not what the kit "
        r"measures on the same runs",
        "measure({ttl}, 隐藏的种子) 得到 {key} = {v},与工具包在同样运行上的测量不同",
    ),
    # Generated histories of stale-commits: moves, then what went wrong.
    (
        r"(?P<w>\w+) saves (?P<t>\w+) with epoch (?P<e>\d+) \(ok\)",
        "{w} 用 epoch {e} 保存 {t}(被接受)",
    ),
    (
        r"(?P<w>\w+) saves (?P<t>\w+) with epoch (?P<e>\d+) \(refused\)",
        "{w} 用 epoch {e} 保存 {t}(被拒绝)",
    ),
    (r"(?P<w>\w+)'s claim of (?P<t>\w+) is refused", "{w} 对 {t} 的领取被拒绝"),
    (r"(?P<w>\w+) claims (?P<t>\w+) \(epoch (?P<e>\d+)\)", "{w} 领取 {t}(epoch {e})"),
    (r"(?P<t>\w+) is cancelled \(epoch (?P<e>\d+)\)", "{t} 被取消(epoch {e})"),
    (
        r"your rule found (?P<n>\d+) stale commit\(s\), the kit's rule finds (?P<m>\d+)",
        "你的规则找到 {n} 个陈旧提交,工具包的规则找到 {m} 个",
    ),
    (
        r"sentence (?P<i>\d+) \((?P<v>.+)\) does not name (?P<t>\w+), the task of stale commit "
        r"(?P<j>\d+)",
        "第 {i} 句({v})没有写出 {t},即第 {j} 个陈旧提交的任务",
    ),
    # Generated inputs of choose-ttl.
    (r"(?P<w>\w+) claims (?P<t>\w+) at (?P<at>[\d.]+)", "{w} 在 {at} 领取 {t}"),
    (
        r"(?P<w>\w+)'s claim of (?P<t>\w+) is refused at (?P<at>[\d.]+)",
        "{w} 在 {at} 对 {t} 的领取被拒绝",
    ),
    (r"(?P<w>\w+) crashes with (?P<t>\w+) at (?P<at>[\d.]+)", "{w} 在 {at} 带着 {t} 崩溃"),
    (r"(?P<w>\w+) restarts at (?P<at>[\d.]+)", "{w} 在 {at} 重启"),
    (
        r"ttl (?P<ttl>[\d.]+) has duplicate_work (?P<d>\d+) and waiting (?P<w>\d+)",
        "ttl {ttl} 的 duplicate_work 为 {d},waiting 为 {w}",
    ),
    (
        r"step_cost (?P<s>\d+) and wait_cost (?P<w>\d+)",
        "step_cost 为 {s},wait_cost 为 {w}",
    ),
    (
        r"recovery_times\(\) gave (?P<got>.+), expected none",
        "recovery_times() 给出了 {got},应当一个也没有",
    ),
    (
        r"recovery_times\(\) gave (?P<got>.+), expected (?P<want>.+)",
        "recovery_times() 给出了 {got},应为 {want}",
    ),
    (
        r"choose_ttl\(\) chose (?P<v>.+), expected (?P<t>[\d.]+) \(on a tie, the smaller ttl\)",
        "choose_ttl() 选了 {v},应为 {t}(平局时选较小的 ttl)",
    ),
    (
        r"choose_ttl\(\) chose (?P<v>.+), expected (?P<t>[\d.]+) \(the ttl of lowest cost\)",
        "choose_ttl() 选了 {v},应为 {t}(代价最低的 ttl)",
    ),
)
