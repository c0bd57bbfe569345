"""The feedback of exercise ``events``' hidden checks, by ID (``events.<key>``), in English
(``EN``) and Chinese (``ZH``); the checks speak them with :data:`say`. Keys are grouped by the
question that says them. See :mod:`simlab.grading.messages`."""

from __future__ import annotations

from simlab.grading.messages import speaker

__all__ = ["EN", "ZH", "say"]

#: A message of this exercise: ``say(key, **values)``.
say = speaker("events")

EN = {
    # absorber: the kind of stream, then what the absorber got wrong
    "absorber_on": "on {what}: the absorber {why}",
    "stream_clean": "a stream with no fault at all",
    "stream_duplicates": "a stream with duplicates (in order otherwise)",
    "stream_many": "one event delivered many times",
    "stream_interleaved": "duplicates arriving after other tasks' events",
    "stream_reordering": "a reordered stream (no duplicates)",
    "stream_backwards": "one task's events in reverse order",
    "stream_both": "a stream with duplicates and reordering, several tasks",
    "stream_gap": "one task's gap while another flows",
    "stream_late_start": "a task that starts after another one is well along",
    "stream_late": "duplicates arriving long after their event was released (the task is done)",
    "stream_late_renumbered": (
        "keys delivered again under a new seq long after their event was released"
    ),
    "stream_conflict": "two different events claiming one seq",
    "stream_version": "an event of an unknown version",
    "stream_version_then_known": "an unknown version, then the known one of its seq",
    "stream_version_as_given": 'versions equal to 1 that are not the int 1 (True, 1.0, "1")',
    "stream_similar": "tasks and keys whose names begin with, or hold, one another",
    "stream_exact": "tasks and keys whose names differ only in capitals or in spaces around them",
    "stream_forms": "tasks and keys whose names differ only in Unicode form (full-width, accents)",
    "stream_long": "one task of more than 256 events",
    "stream_wide_gap": (
        "one task's events beyond a gap of over a thousand seqs, then its first key under a new seq"
    ),
    "why_twice": (
        "released the same seq of a task twice (a duplicate or a conflicting event got through)"
    ),
    "why_version": "released an event whose version is not {version}",
    "why_set_aside": "released an event it should have set aside",
    "why_order": "released a seq of a task before the seq just below it (the order broke)",
    "why_lost": "never released an event although every earlier seq of its task had arrived",
    "why_late": (
        "held an event back after the gap before it was filled: release it in that offer()"
    ),
    # absorber: generated streams, then what went wrong
    "offer_not_a_list": "offer() returned {kind}, expected a list of the events it releases",
    "offer_not_events": "offer() released {kind}, expected the event dicts it was given",
    "offer_missing_fields": (
        "offer() released a dict without {fields}, expected the event dicts it was given"
    ),
    # absorber: the very dicts given, handed back
    "released_copy": (
        "offer() released a copy of an event it was given (an equal dict): return the event "
        "dicts themselves"
    ),
    "released_changed": (
        "offer() released a rebuilt event whose {fields} differ from the dict it was given: "
        "return the event dicts themselves"
    ),
    "released_unknown": "offer() released a dict that is none of the events it was given",
    "released_altered": (
        "offer() released an event dict it was given with its {fields} changed: return the "
        "event dicts as they were given"
    ),
    "released_added": (
        "offer() released an event dict it was given with a field added: return the event "
        "dicts as they were given"
    ),
    "released_replaced": (
        "offer() released an event dict it was given with its payload replaced by an equal "
        "copy: return the event dicts as they were given"
    ),
    "released_none_given": (
        "offer() released none of the events it was given, on a stream where the kit's "
        "EventAbsorber releases every one"
    ),
    "offer_list_changed": (
        "a list offer() returned changed at a later offer(): each call must return a list of "
        "its own, which later calls leave as it is"
    ),
    "delivery": "{event}",
    "not_given": "your absorber released an event it was not given",
    "released_instead": (
        "your absorber released {got} where the kit's EventAbsorber releases {want}"
    ),
    "released_nothing": (
        "your absorber released nothing where the kit's EventAbsorber releases {want}"
    ),
    "released_extra": "your absorber released {got} where the kit's EventAbsorber releases nothing",
    # narrowing: the kind of child grant, and the learner's verdict
    "not_bool": "is_narrowing() returned {kind}, expected True or False",
    "said_when": "is_narrowing() said {got} when the child is {kind}",
    "said_when_revoked": "is_narrowing() said {got} when the child is {kind} (of a revoked parent)",
    "said_when_changed": (
        "is_narrowing() said {got} for the dicts of an earlier call, changed in place since: "
        "the answer is the one for the grants as they are at the call"
    ),
    "said_when_no_tools": (
        "is_narrowing() said {got} when the child is {kind} (of a parent with no tools)"
    ),
    "said_when_no_collections": (
        "is_narrowing() said {got} when the child is {kind} (of a parent with no collections)"
    ),
    "child_same": "the same grant",
    "child_fewer_collections": "a grant with fewer collections",
    "child_fewer_tools": "a grant with fewer tools",
    "child_empty": "an empty grant",
    "child_extra_collection": "a grant with an extra collection",
    "child_extra_tool_fewer_collections": "a grant with an extra tool and fewer collections",
    "child_extra_tool": "a grant with an extra tool",
    "child_one_of_each": "a grant with one collection and one tool",
    "child_crossed": (
        "a grant naming one of the parent's tools as a collection, or one of its collections "
        "as a tool"
    ),
    "child_other_tenant": "another tenant's grant with fewer rights",
    "child_other_version": "a grant at another version",
    "child_version_as_text": "a grant at the parent's version written as text",
    "child_revoked": "a revoked grant",
    "child_empty_elsewhere": "an empty grant of another tenant or version",
    "child_empty_revoked": "an empty, revoked grant",
    "child_other_collections": "a grant with as many collections, but other ones",
    "child_capitals": "a grant naming a collection with other capitals",
    "child_spaces": "a grant naming its tenant, a collection or a tool with white space around it",
    "child_unicode_forms": (
        "a grant naming its tenant, a collection or a tool in another Unicode form (full-width, "
        "accents)"
    ),
    "child_similar_tenant": (
        "a grant for a tenant whose name begins with, or holds, the parent's tenant, or the reverse"
    ),
    "child_longer_name": (
        "a grant naming a collection that only begins with, or holds, one of the parent's"
    ),
    "child_shorter_name": "a grant naming a tool that is only the start of one of the parent's",
    "child_repeated": "a grant with repeated names",
    "child_repeated_lacking": "a grant repeating names its parent lacks",
    # narrowing: generated grants, told by how the child differs from its parent
    "said_of_child": "is_narrowing() said {got} of that child",
    "told_no_collections": "no collections",
    "told_no_tools": "no tools",
    "told_no_collections_either": "no collections on either side",
    "told_no_tools_either": "no tools on either side",
    "told_all_collections": "all the parent's collections",
    "told_all_tools": "all the parent's tools",
    "told_some_collections": "some of the parent's collections",
    "told_some_tools": "some of the parent's tools",
    "told_lacking_collections": "a collection the parent lacks",
    "told_lacking_tools": "a tool the parent lacks",
    "told_capitals_collections": "a collection the parent has in other capitals",
    "told_capitals_tools": "a tool the parent has in other capitals",
    "told_twice_collections": "a collection named twice",
    "told_twice_tools": "a tool named twice",
    "told_order_collections": "the collections in another order",
    "told_order_tools": "the tools in another order",
    "told_same_tenant_version": "the same tenant and version",
    "told_same_tenant": "the same tenant",
    "told_tenant_capitals": "the tenant's name in other capitals",
    "told_other_tenant": "another tenant",
    "told_newer_version": "a newer version",
    "told_older_version": "an older version",
    "told_parent_revoked": "the parent revoked",
    "told_child_revoked": "the child revoked",
}

ZH = {
    "absorber_on": "在{what}的情况下：吸收器{why}",
    "stream_clean": "一个完全没有故障的流",
    "stream_duplicates": "一个有重复（但顺序正常）的流",
    "stream_many": "同一个事件被投递多次",
    "stream_interleaved": "重复事件在其他任务的事件之后到达",
    "stream_reordering": "一个乱序（没有重复）的流",
    "stream_backwards": "一个任务的事件倒序到达",
    "stream_both": "一个既有重复又有乱序的多任务流",
    "stream_gap": "一个任务有缺口而另一个任务照常流动",
    "stream_late_start": "一个任务在另一个任务进行了很久之后才开始",
    "stream_late": "重复事件在原事件释放很久之后才到达（任务已完成）",
    "stream_late_renumbered": "已释放很久的事件的键以新的 seq 再次送达",
    "stream_conflict": "两个不同的事件声称同一个 seq",
    "stream_version": "一个未知版本的事件",
    "stream_version_then_known": "先来一个未知版本的事件，再来同一 seq 的已知版本",
    "stream_version_as_given": '等于 1 却不是 int 值 1 的版本（True、1.0、"1"）',
    "stream_similar": "名称互为前缀或互相包含的任务和键",
    "stream_exact": "名称只在大小写或首尾空白上不同的任务和键",
    "stream_forms": "名称只在 Unicode 形式上不同的任务和键（全角、重音符号）",
    "stream_long": "一个有 256 个以上事件的任务",
    "stream_wide_gap": (
        "一个任务的事件落在一千多个 seq 宽的缺口之后，随后它的第一个键以新的 seq 再次送达"
    ),
    "why_twice": "把同一任务的同一个 seq 释放了两次（重复或冲突的事件漏了过去）",
    "why_version": "释放了一个版本不是 {version} 的事件",
    "why_set_aside": "释放了一个本应搁置的事件",
    "why_order": "先放行了某个任务的一个 seq，而比它小一的 seq 还没放行（顺序乱了）",
    "why_lost": "始终没有释放某个事件，尽管它所属任务中更早的每个 seq 都已到达",
    "why_late": "前面的缺口补上之后仍扣住了一个事件：应在那次 offer() 中释放它",
    "offer_not_a_list": "offer() 返回了 {kind}，应返回它释放的事件列表",
    "offer_not_events": "offer() 释放了 {kind}，应释放它收到的事件字典",
    "offer_missing_fields": "offer() 释放了一个缺少 {fields} 的字典，应释放它收到的事件字典",
    "released_copy": "offer() 释放了收到的某个事件的副本（一个相等的字典）；应返回事件字典本身",
    "released_changed": (
        "offer() 释放了一个重建的事件，其 {fields} 与收到的字典不同；应返回事件字典本身"
    ),
    "released_unknown": "offer() 释放了一个字典，它不是收到的任何一个事件",
    "released_altered": (
        "offer() 释放了收到的事件字典，却改动了其中的 {fields}；应原样返回收到的事件字典"
    ),
    "released_added": "offer() 释放了收到的事件字典，却往里加了字段；应原样返回收到的事件字典",
    "released_replaced": (
        "offer() 释放了收到的事件字典，却把其中的 payload 换成了一个相等的副本；"
        "应原样返回收到的事件字典"
    ),
    "released_none_given": (
        "offer() 没有释放收到的任何事件，而在这个流上工具包的 EventAbsorber 会全部释放"
    ),
    "offer_list_changed": (
        "offer() 返回过的一个列表在之后的 offer() 中被改动了：每次调用都应返回一个属于自己的列表，"
        "之后的调用不再改动它"
    ),
    "delivery": "{event}",
    "not_given": "你的吸收器释放了一个它从未收到过的事件",
    "released_instead": "你的吸收器释放了 {got}，而工具包的 EventAbsorber 释放的是 {want}",
    "released_nothing": "你的吸收器什么也没有释放，而工具包的 EventAbsorber 释放了 {want}",
    "released_extra": "你的吸收器释放了 {got}，而工具包的 EventAbsorber 什么也不释放",
    "not_bool": "is_narrowing() 返回了 {kind}，应返回 True 或 False",
    "said_when": "当子授权是{kind}时，is_narrowing() 返回了 {got}",
    "said_when_revoked": "当子授权是{kind}（而父授权已被撤销）时，is_narrowing() 返回了 {got}",
    "said_when_changed": (
        "对于先前一次调用用过、此后又被原地改动的那两个字典，is_narrowing() 返回了 {got}："
        "答案应按调用时授权的样子给出"
    ),
    "said_when_no_tools": "当子授权是{kind}（而父授权没有任何工具）时，is_narrowing() 返回了 {got}",
    "said_when_no_collections": (
        "当子授权是{kind}（而父授权没有任何集合）时，is_narrowing() 返回了 {got}"
    ),
    "child_same": "同一个授权",
    "child_fewer_collections": "集合更少的授权",
    "child_fewer_tools": "工具更少的授权",
    "child_empty": "空授权",
    "child_extra_collection": "多一个集合的授权",
    "child_extra_tool_fewer_collections": "多一个工具但集合更少的授权",
    "child_extra_tool": "多一个工具的授权",
    "child_one_of_each": "只有一个集合和一个工具的授权",
    "child_crossed": "把父授权的某个工具当作集合（或把某个集合当作工具）列出的授权",
    "child_other_tenant": "另一个租户的、权限更少的授权",
    "child_other_version": "另一个版本的授权",
    "child_version_as_text": "版本号与父授权相同、却写成文本的授权",
    "child_revoked": "已撤销的授权",
    "child_empty_elsewhere": "另一个租户或另一个版本的空授权",
    "child_empty_revoked": "已撤销的空授权",
    "child_other_collections": "集合数目相同但集合不同的授权",
    "child_capitals": "集合名称大小写不同的授权",
    "child_spaces": "租户、某个集合或某个工具的名称首尾带有空白的授权",
    "child_unicode_forms": (
        "租户、某个集合或某个工具的名称采用另一种 Unicode 形式（全角、重音符号）的授权"
    ),
    "child_similar_tenant": "租户名称以父授权的租户名开头或包含它（或反过来）的授权",
    "child_longer_name": "所含某个集合的名称只是以父授权的某个集合名开头（或包含它）的授权",
    "child_shorter_name": "所含某个工具的名称只是父授权某个工具名的开头几个字母的授权",
    "child_repeated": "名称有重复的授权",
    "child_repeated_lacking": "重复了父授权没有的名称的授权",
    "said_of_child": "对这个子授权，is_narrowing() 返回了 {got}",
    "told_no_collections": "子授权没有集合",
    "told_no_tools": "子授权没有工具",
    "told_no_collections_either": "父子授权都没有集合",
    "told_no_tools_either": "父子授权都没有工具",
    "told_all_collections": "父授权的全部集合",
    "told_all_tools": "父授权的全部工具",
    "told_some_collections": "父授权的部分集合",
    "told_some_tools": "父授权的部分工具",
    "told_lacking_collections": "一个父授权没有的集合",
    "told_lacking_tools": "一个父授权没有的工具",
    "told_capitals_collections": "一个父授权中大小写不同的集合",
    "told_capitals_tools": "一个父授权中大小写不同的工具",
    "told_twice_collections": "一个集合出现了两次",
    "told_twice_tools": "一个工具出现了两次",
    "told_order_collections": "集合的顺序不同",
    "told_order_tools": "工具的顺序不同",
    "told_same_tenant_version": "同一个租户、同一个版本",
    "told_same_tenant": "同一个租户",
    "told_tenant_capitals": "租户名称的大小写不同",
    "told_other_tenant": "另一个租户",
    "told_newer_version": "更新的版本",
    "told_older_version": "更旧的版本",
    "told_parent_revoked": "父授权已撤销",
    "told_child_revoked": "子授权已撤销",
}
