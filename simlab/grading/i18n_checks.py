"""Chinese rules for the hidden checks' sentences of the rubrics (issue 13): attacks, stories.

Each entry is ``(pattern, template[, nested[, terms]])`` for :func:`simlab.grading.i18n._r`;
:data:`simlab.grading.i18n.RULES` appends them after its own (wrappers first). The words a
sentence names from a small set (:data:`CHECK_TERMS`) join :data:`simlab.grading.i18n.TERMS`.
"""

from __future__ import annotations

import re

__all__ = ["CHECK_PATTERNS", "CHECK_TERMS"]

#: How the resume guard's hidden check names a change of the world (the labels of
#: :data:`simlab.grading.checks.checkpoints.guard.CHANGES`, and the unchanged world).
GUARD_CHANGES = {
    "nothing changed": "世界没有变化",
    "grant revoked": "授权被撤销",
    "no grant left": "授权已不存在",
    "cited document edited": "引用的文档被编辑",
    "cited stock figure changed": "引用的库存数字变了",
    "cited document withdrawn": "引用的文档被撤下",
    "internal documents no longer granted": "不再授权读取内部文档",
    "inventory tool no longer granted": "不再授权使用 inventory 工具",
    "next tool removed": "下一步的工具已下线",
    "next tool no longer granted": "不再授权使用下一步的工具",
}
#: What is wrong with a guard's stop codes.
GUARD_VERDICTS = {
    "a code is missing, one does not apply": "缺了一个停止码,还有一个不适用",
    "a reason to stop is missing": "漏掉了一个停止的理由",
    "a code does not apply": "有一个停止码不适用",
    "list each code once": "每个停止码只列一次",
}
#: Single words of the hidden checks' sentences, merged into :data:`simlab.grading.i18n.TERMS`.
CHECK_TERMS = {
    **GUARD_CHANGES,
    **GUARD_VERDICTS,
    "more": "更多的文档",
    "fewer": "更少的文档",
    "other ones": "别的文档",
}
_CHANGE = "|".join(map(re.escape, GUARD_CHANGES))
_VERDICT = "|".join(map(re.escape, GUARD_VERDICTS))

CHECK_PATTERNS: tuple[tuple, ...] = (
    (
        r"two workers claiming at the same moment both got the task: another claim ran between "
        r"two statements of yours \(make the claim one atomic statement\)",
        "两个 worker 在同一时刻领取,都拿到了任务:另一"
        "次领取插在了你的两条语句之间(把领取写成一条原子语句)",
    ),
    (
        r"two workers claimed a free task at the same moment and neither got it",
        "两个 worker 同一时刻领取一个空闲任务,结果谁都没拿到",
    ),
    (
        r"neither worker got an expired task when two claimed it",
        "两个 worker 领取一个租约已过期的任务,谁都没拿到",
    ),
    (r"the race could not be run", "无法重放这场竞争"),
    (
        r"after another claim ran between its statements, your claim returned a lease of worker "
        r"(?P<w>.+): it read back a row it did not write",
        "另一次领取插在你的语句之间后,你的领取返回了 wor"
        "ker {w} 的租约:它读回了一行不是自己写的数据",
    ),
    (
        r"a cancel ran between two statements of your claim, and the claim returned a lease with "
        r"the cancel's epoch \(make the claim one atomic statement\)",
        "一次取消插在了你领取的两条语句之间,而领取返回的租"
        "约带着取消时的 epoch(把领取写成一条原子语句)",
    ),
    (
        r"with faults on, (?P<what>your [\w_]+) broke a rule: (?P<story>.+)",
        "开启故障后,{what} 违反了一条规则(缩减后的经过,英文):{story}",
    ),
    (
        r"with faults on, (?P<what>your [\w_]+) let (?P<n>\d+) e-mail\(s\) go out twice",
        "开启故障后,{what} 让 {n} 封邮件发出了两次",
    ),
    (r"the duplicate delivery could not be run", "无法重放这次重复投递"),
    (
        r"the same step delivered twice within one round trip was recorded (?P<n>\d+) time\(s\): "
        r"another record_effect ran between two statements of yours",
        "同一步在一次往返之内被投递了两次,被记录了 {n} 次:"
        "另一次 record_effect 插在了你的两条语句之间",
    ),
    (
        r"a worker crashed between record_effect and the send, and the retry sent again "
        r"\((?P<n>\d+) e-mails\): record the effect before sending",
        "worker 在 record_effect 和发送之间崩溃,重试又发了一次(共 {n} 封邮件):先记录副作用,再发送",
    ),
    (
        r"the task was cancelled during its last step and your loop returned (?P<a>.+) while the "
        r"ledger says (?P<b>.+): check what save returns",
        "任务在最后一步中被取消,你的循环返回了 {a},而账本记录的是 {b}:要检查 save 的返回值",
    ),
    (
        r"on (?P<what>a checkpoint of the regression corpus|a hidden v1 record[\w ]*): (?P<why>.+)",
        "在{what}上:{why}",
        ("what", "why"),
    ),
    (r"a checkpoint of the regression corpus", "回归语料中的一个检查点"),
    (r"a hidden v1 record", "一条隐藏的 v1 记录"),
    (r"a hidden v1 record with several citations", "一条带多个引用的隐藏 v1 记录"),
    (
        r"(?P<where>[\w.\[\]]+) differs from the kit's migration \(yours: (?P<mine>.+)\)",
        "{where} 与工具包的迁移结果不同(你的值:{mine})",
    ),
    (
        r"on (?P<what>.+?) the result shares (?P<fields>.+) with the input: changing the input "
        r"afterwards changes your result \(copy the lists\)",
        "在{what}上,结果与输入共用了 {fields}:之后修改输入会改变你的结果(请复制列表)",
        ("what",),
    ),
    # --- histories (simlab/grading/checks/histories/) ---------------------------------------
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
    (
        r"noise_peak\((?P<c>.+), a hidden seed\) gave (?P<v>.+), not the kit's peak",
        "noise_peak({c}, 隐藏的种子) 得到 {v},与工具包的峰值不同",
    ),
    (
        r"choose_threshold\(\) on hidden seeds gave (?P<v>.+), not the kit's threshold",
        "在隐藏的种子上 choose_threshold() 得到 {v},与工具包的阈值不同",
    ),
    (
        r"trip_rate\((?P<c>.+), (?P<t>[\d.]+), hidden seeds\) gave (?P<v>.+), not the kit's rate",
        "trip_rate({c}, {t}, 隐藏的种子) 得到 {v},与工具包的比率不同",
    ),
    (
        r"a claim while another lease is live must raise LeaseHeld, but it (?P<how>.+)",
        "另一个租约仍有效时,领取必须抛出 LeaseHeld,但它{how}",
        ("how",),
    ),
    (
        r"a lease extended by a heartbeat must still be held, but it (?P<how>.+)",
        "被心跳延长的租约必须仍然有效,但它{how}",
        ("how",),
    ),
    (r"returned (?P<kind>\w+)", "返回了 {kind}"),
    (r"raised (?P<kind>\w+)", "抛出了 {kind}"),
    (r"a stale lease's heartbeat returned True", "陈旧租约的心跳返回了 True"),
    (
        r"a task saved at step (?P<s>\d+) was worked from step (?P<f>.+) \(calls (?P<c>.+)\), "
        r"expected (?P<e>.+)",
        "一个已保存到 step {s} 的任务从 step {f} 开始工作(调用了 {c}),应为 {e}",
    ),
    (
        r"after a crash and a retry of step (?P<s>\d+), (?P<n>\d+) e-mails were sent \(expected "
        r"exactly 1\)",
        "崩溃并重试 step {s} 之后,发出了 {n} 封邮件(应当恰好 1 封)",
    ),
    (
        r"after requeue and a new claim, the pre-cancel epoch could commit again \(requeue must "
        r"keep the epoch\)",
        "重新入队并再次领取后,取消前的 epoch 仍能提交(requeue 必须保留 epoch)",
    ),
    (
        r"after requeue, a new claim did not get a higher epoch",
        "重新入队后,新的领取没有得到更高的 epoch",
    ),
    (
        r"(?P<fn>\w+)\(\) of a (?P<st>\w+) task returned (?P<got>.+), expected (?P<want>\w+)",
        "对状态为 {st} 的任务调用 {fn}() 返回了 {got},应为 {want}",
    ),
    (
        r"recording the same key twice returned True \(a retry would send again\)",
        "同一个键记录两次却返回了 True(重试时会再发一次)",
    ),
    (
        r"steps 0 and 1 must each send their own e-mail \(one key per task and step\)",
        "step 0 和 step 1 必须各自发送自己的邮件(每个任务的每一步一个键)",
    ),
    (
        r"migrate_v1_to_v2\(\) changed its input \((?P<what>.+?)\): (?P<why>.+); a migration must "
        r"be pure",
        "migrate_v1_to_v2() 修改了它的输入({what}):{why};迁移必须是纯函数",
        ("what",),
    ),
    (
        r"(?P<what>.+): injection_rule\(\) said (?P<a>\w+), expected (?P<b>\w+)",
        "{what}:injection_rule() 判为 {a},应为 {b}",
    ),
    (
        r"your claim never returned a lease in the races the grader replays",
        "在评分器重放的竞争中,你的领取一次也没有返回租约",
    ),
    (
        r"released a seq of a task before the seq just below it \(the order broke\)",
        "先放行了某个任务的一个 seq,而比它小一的 seq 还没放行(顺序乱了)",
    ),
    (
        r"a search returned (?P<got>\d+) document\(s\) where a fresh search now finds "
        r"(?P<cmp>more|fewer|other ones): (?P<why>.+)",
        "一次搜索返回了 {got} 篇文档,而现在不经缓存的搜索找到的是{cmp}:{why}",
        ("why",),
        ("cmp",),
    ),
    (
        r"the cache counted (?P<got>\d+) (?P<name>hits|misses|entries thrown away by "
        r"re-verification) over hidden searches, not what the kit's key gives: (?P<why>.+)",
        "在一串隐藏的搜索之后,缓存统计到 {got} 次{name},与工具包的键不同:{why}",
        ("why",),
        ("name",),
    ),
    (
        r"the cache counted (?P<got>\d+) (?P<name>hits|misses|entries thrown away by "
        r"re-verification) over hidden searches, more than the kit's key gives: (?P<why>.+)",
        "在一串隐藏的搜索之后,缓存统计到 {got} 次{name},比工具包的键多:{why}",
        ("why",),
        ("name",),
    ),
    (
        r"equal questions \(up to case, spaces and punctuation\) must share one entry, others "
        r"must not; normalize the query",
        "同一个问题(不计大小写、空格和标点)必须共用一个条目,不同的问题则不能;请规范化查询",
    ),
    (
        r"two tenants must never share an entry, even with the same permissions",
        "两个租户绝不能共用一个条目,即使权限相同",
    ),
    (
        r"after a document changes, the index version changes, and so must the key",
        "文档变化后索引版本会变,键也必须随之改变",
    ),
    (
        r"a new document changes the answer: the key must include the index version",
        "新文档会改变答案:键必须包含索引版本",
    ),
    (
        r"a changed grant changes the answer: the key must include the permission version",
        "授权变化会改变答案:键必须包含权限版本",
    ),
    (
        r"a sub-agent's narrower grant needs its own entry: include the permission version",
        "授权更窄的子 agent 需要自己的条目:键里要有权限版本",
    ),
    (
        r"cache_key\(\) returned (?P<kind>\w+), which cannot be a dict key; return a tuple",
        "cache_key() 返回了 {kind},它不能作为 dict 的键;请返回元组",
    ),
    (
        r"cache_key\(\) gave two different keys for the same arguments",
        "cache_key() 对相同的参数给出了两个不同的键",
    ),
    (
        r"resume_guard\(\) returned (?P<kind>\w+), expected a list of stop codes",
        "resume_guard() 返回了 {kind},应当返回停止码的列表",
    ),
    (
        r"resume_guard\(\) must return stop codes \(strings\)",
        "resume_guard() 必须返回停止码(字符串)",
    ),
    (
        rf"(?P<task>[\w-]+) at '(?P<pos>\w+)', (?P<c1>{_CHANGE}) and (?P<c2>{_CHANGE}): "
        rf"resume_guard\(\) gave (?P<got>\[.*\]); (?P<v>{_VERDICT})",
        "{task} 停在 '{pos}',{c1},且{c2}:resume_guard() 给出 {got};{v}",
        (),
        ("c1", "c2", "v"),
    ),
    (
        rf"(?P<task>[\w-]+) at '(?P<pos>\w+)', (?P<c1>{_CHANGE}): "
        rf"resume_guard\(\) gave (?P<got>\[.*\]); (?P<v>{_VERDICT})",
        "{task} 停在 '{pos}',{c1}:resume_guard() 给出 {got};{v}",
        (),
        ("c1", "v"),
    ),
    (
        r"migrate_v1_to_v2\(\) raised on every input, so nothing could be probed",
        "migrate_v1_to_v2() 对每个输入都抛出了异常,无法检查",
    ),
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
    # --- events (checks/events/): the absorber's diagnoses, the kinds of stream and grant ----
    (
        r"offer\(\) returned (?P<k>\w+), expected a list of the events it releases",
        "offer() 返回了 {k},应返回它释放的事件列表",
    ),
    (
        r"offer\(\) released (?P<k>\w+), expected the event dicts it was given",
        "offer() 释放了 {k},应释放它收到的事件字典",
    ),
    (r"released an event whose version is not (?P<v>\d+)", "释放了一个版本不是 {v} 的事件"),
    (r"released an event it should have set aside", "释放了一个本应搁置的事件"),
    (
        r"never released an event although every earlier seq of its task had arrived",
        "始终没有释放某个事件,尽管它所属任务中更早的每个 seq 都已到达",
    ),
    (
        r"held an event back after the gap before it was filled: release it in that offer\(\)",
        "前面的缺口补上之后仍扣住了一个事件:应在那次 offer() 中释放它",
    ),
    (r"a stream with no fault at all", "一个完全没有故障的流"),
    (r"a stream with duplicates \(in order otherwise\)", "一个有重复(但顺序正常)的流"),
    (r"one event delivered many times", "同一个事件被投递多次"),
    (r"duplicates arriving after other tasks' events", "重复事件在其他任务的事件之后到达"),
    (r"a reordered stream \(no duplicates\)", "一个乱序(没有重复)的流"),
    (r"one task's events in reverse order", "一个任务的事件倒序到达"),
    (r"a stream with duplicates and reordering, several tasks", "一个既有重复又有乱序的多任务流"),
    (r"one task's gap while another flows", "一个任务有缺口而另一个任务照常流动"),
    (
        r"a task that starts after another one is well along",
        "一个任务在另一个任务进行了很久之后才开始",
    ),
    (
        r"duplicates arriving long after their event was released \(the task is done\)",
        "重复事件在原事件释放很久之后才到达(任务已完成)",
    ),
    (r"two different events claiming one seq", "两个不同的事件声称同一个 seq"),
    (r"an event of an unknown version", "一个未知版本的事件"),
    (
        r"an unknown version, then the known one of its seq",
        "先来一个未知版本的事件,再来同一 seq 的已知版本",
    ),
    (
        r"is_narrowing\(\) returned (?P<k>\w+), expected True or False",
        "is_narrowing() 返回了 {k},应返回 True 或 False",
    ),
    (r"the same grant", "同一个授权"),
    (r"a grant with fewer collections", "集合更少的授权"),
    (r"a grant with fewer tools", "工具更少的授权"),
    (r"an empty grant", "空授权"),
    (r"a grant with an extra collection", "多一个集合的授权"),
    (r"a grant with an extra tool and fewer collections", "多一个工具但集合更少的授权"),
    (r"a grant with an extra tool", "多一个工具的授权"),
    (r"another tenant's grant with fewer rights", "另一个租户的、权限更少的授权"),
    (r"a grant at another version", "另一个版本的授权"),
    (r"a revoked grant", "已撤销的授权"),
    (r"a grant with as many collections, but other ones", "集合数目相同但集合不同的授权"),
    (r"a grant naming a collection with other capitals", "集合名称大小写不同的授权"),
    (r"a grant with repeated names", "名称有重复的授权"),
    (r"a grant repeating names its parent lacks", "重复了父授权没有的名称的授权"),
)
