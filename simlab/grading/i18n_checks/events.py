"""Chinese for the hidden checks' sentences of simlab/grading/checks/events/.

Exercise 06: the absorber's diagnoses, the kinds of stream and grant, and the stories of
generated counterexamples (simlab/grading/checks/events/streams.py and grants.py).
"""

from __future__ import annotations

__all__ = ["PATTERNS"]

PATTERNS: tuple[tuple, ...] = (
    (
        r"released a seq of a task before the seq just below it \(the order broke\)",
        "先放行了某个任务的一个 seq,而比它小一的 seq 还没放行(顺序乱了)",
    ),
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
    # --- generated streams: deliveries told as A2/k1 (task, seq, key), kept as they are ---
    (r"(?P<e>[A-Z]\d+/[a-z]\d+(?: v\d+)?)", "{e}"),
    (
        r"your absorber released nothing where the kit's EventAbsorber releases (?P<want>.+)",
        "你的吸收器什么也没有释放,而工具包的 EventAbsorber 释放了 {want}",
    ),
    (
        r"your absorber released (?P<got>.+) where the kit's EventAbsorber releases nothing",
        "你的吸收器释放了 {got},而工具包的 EventAbsorber 什么也不释放",
    ),
    (
        r"your absorber released (?P<got>.+) where the kit's EventAbsorber releases (?P<want>.+)",
        "你的吸收器释放了 {got},而工具包的 EventAbsorber 释放的是 {want}",
    ),
    (r"your absorber released an event it was not given", "你的吸收器释放了一个它从未收到过的事件"),
    # --- generated grants: how the child differs from its parent ---
    (
        r"is_narrowing\(\) said (?P<got>\S+) of that child",
        "对这个子授权,is_narrowing() 返回了 {got}",
    ),
    (r"no collections on either side", "父子授权都没有集合"),
    (r"no tools on either side", "父子授权都没有工具"),
    (r"no collections", "子授权没有集合"),
    (r"no tools", "子授权没有工具"),
    (r"all the parent's collections", "父授权的全部集合"),
    (r"all the parent's tools", "父授权的全部工具"),
    (r"some of the parent's collections", "父授权的部分集合"),
    (r"some of the parent's tools", "父授权的部分工具"),
    (r"a collection the parent lacks", "一个父授权没有的集合"),
    (r"a tool the parent lacks", "一个父授权没有的工具"),
    (r"a collection the parent has in other capitals", "一个父授权中大小写不同的集合"),
    (r"a tool the parent has in other capitals", "一个父授权中大小写不同的工具"),
    (r"a collection named twice", "一个集合出现了两次"),
    (r"a tool named twice", "一个工具出现了两次"),
    (r"the collections in another order", "集合的顺序不同"),
    (r"the tools in another order", "工具的顺序不同"),
    (r"the same tenant and version", "同一个租户、同一个版本"),
    (r"the same tenant", "同一个租户"),
    (r"the tenant's name in other capitals", "租户名称的大小写不同"),
    (r"another tenant", "另一个租户"),
    (r"a newer version", "更新的版本"),
    (r"an older version", "更旧的版本"),
    (r"the parent revoked", "父授权已撤销"),
    (r"the child revoked", "子授权已撤销"),
)
