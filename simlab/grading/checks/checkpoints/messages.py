"""The feedback of exercise ``checkpoints``' hidden checks, by ID (``checkpoints.<key>``), in
English (``EN``) and Chinese (``ZH``); the checks speak them with :data:`say`. Keys are grouped
by the question that says them. See :mod:`simlab.grading.messages`."""

from __future__ import annotations

from simlab.grading.messages import speaker

__all__ = ["EN", "ZH", "say"]

#: A message of this exercise: ``say(key, **values)``.
say = speaker("checkpoints")

EN = {
    # pure-migration: the inputs, as feedback names them
    "corpus_record": "a checkpoint of the regression corpus",
    "hidden_record": "a hidden v1 record",
    "world_record": "a v1 record of the grader's world",
    "hidden_citations": "a hidden v1 record with several citations",
    "on": "on {what}: {why}",
    # pure-migration: where a result first differs
    "field_missing": "field {field} is missing",
    "field_extra": "field {field} should not be there",
    "differs": "{where} differs from the kit's migration (yours: {got})",
    "result_differs": "the result differs from the kit's migration (yours: {got})",
    "differs_kind": "{where} should be {want} (yours: {got})",
    "kind_str": "a string",
    "kind_int": "a whole number",
    "kind_list": "a list",
    "kind_dict": "a dict",
    "kind_null": "null (None)",
    "kind_bool": "True or False",
    "cut_at_at": (
        "{where} is cut at an @: a document ID may hold an @ of its own, and the version is what "
        "follows the last @"
    ),
    "trimmed": (
        "{where} lost the white space around it: a document ID is kept exactly as written, "
        "spaces included"
    ),
    "differs_form": "{where} is in another Unicode form: keep an ID exactly as written",
    "differs_case": "{where} differs in capitals only: keep the text exactly as written",
    "differs_text": "{where} holds other text than the kit's migration gives",
    "differs_text_shown": "{where} holds other text than the kit's migration gives (yours: {got})",
    "more_items": "{where} holds more items than the kit's migration gives (yours: {n})",
    "fewer_items": "{where} holds fewer items than the kit's migration gives (yours: {n})",
    # pure-migration: the checks
    "not_a_dict": "migrate_v1_to_v2() returned {kind}, expected a dict",
    "no_schema_2": "on {what} migrate_v1_to_v2() returned {kind} without schema_version 2",
    "changed_input": (
        "migrate_v1_to_v2() changed its input ({what}): {why}; a migration must be pure"
    ),
    "shares_on": (
        "on {what} the result shares {fields} with the input: changing the input afterwards "
        "changes your result (copy the lists)"
    ),
    "never_probed": "migrate_v1_to_v2() raised on every input, so nothing could be probed",
    "shared_results_on": (
        "on {what} two migrations of the record share {fields}: changing one task's "
        "checkpoint changes the other's (build new lists and dicts each time)"
    ),
    "invalid_on": "on {what} the result is not a valid v2 checkpoint: {why}",
    "schema_on": "on {what} schema_version must be 2",
    "loads_otherwise_on": (
        "on {what} today's loader reads your v2 record differently from the v1 one"
    ),
    # pure-migration: the generated properties
    "changed_field": "migrate_v1_to_v2() changed the field {field} of its input; a migration "
    "must be pure",
    "removed_field": (
        "migrate_v1_to_v2() removed the field {field} from its input; a migration must be pure"
    ),
    "added_field": "migrate_v1_to_v2() added a field to its input; a migration must be pure",
    "replaced_input": "migrate_v1_to_v2() replaced the input; a migration must be pure",
    "reordered_fields": (
        "migrate_v1_to_v2() changed the order of its input's fields; a migration must be pure"
    ),
    "reordered": "its fields come in another order",
    "a_field": "a field",
    "shares": (
        "your result shares {fields} with the input: changing the input afterwards changes "
        "your result (copy the lists)"
    ),
    "invalid": "your result is not a valid v2 checkpoint",
    "invalid_field": "your result is not a valid v2 checkpoint (field {field})",
    "loads_otherwise": "today's loader reads your v2 record differently from the v1 one",
    "v1_at": "a v1 checkpoint at step {step} ({status})",
    "odd_at": "a document ID holding an @",
    "odd_zero": "a version with a leading zero",
    "odd_citation": "a citation repeated",
    "odd_draft": "an empty draft",
    "odd_sent": "a sent key repeated",
    "odd_order": "sent keys out of order",
    # resume-guard: where, and the changes of the world (CHANGES, MORE_CHANGES)
    "at": "{task} at {position}",
    "at_one": "{task} at {position}, {change}",
    "at_two": "{task} at {position}, {first} and {second}",
    "world_at": "in the grader's world, task {n} at {position}, {change}",
    "world_at_status": "in the grader's world, task {n} at {position} (status {status}), {change}",
    "world_at_sku": (
        "in the grader's world, task {n} at {position} with the goal's sku {sku} (not None), "
        "{change}"
    ),
    "nothing_changed": "nothing changed",
    "grant_revoked": "grant revoked",
    "no_grant_left": "no grant left",
    "cited_document_edited": "cited document edited",
    "cited_stock_figure_changed": "cited stock figure changed",
    "cited_stock_figure_withdrawn": "cited stock figure withdrawn",
    "other_tenants_grants_revoked": "every other tenant's grant revoked",
    "grant_revoked_after_losing_the_internal_documents": (
        "grant revoked after it lost the internal documents"
    ),
    "grant_revoked_after_losing_the_inventory_tool": (
        "grant revoked after it lost the inventory tool"
    ),
    "cited_document_withdrawn": "cited document withdrawn",
    "internal_documents_no_longer_granted": "internal documents no longer granted",
    "cited_collection_no_longer_granted": "cited collection no longer granted",
    "inventory_tool_no_longer_granted": "inventory tool no longer granted",
    "next_tool_removed": "next tool removed",
    "next_tool_no_longer_granted": "next tool no longer granted",
    "an_uncited_document_edited": "an uncited document edited",
    "a_new_document_published": "a new document published",
    "grant_renewed_with_the_same_scope": "grant renewed with the same scope",
    "another_steps_tool_removed": "another step's tool removed",
    "cited_document_withdrawn_and_published_again": "cited document withdrawn and published again",
    "inventory_tool_removed": "inventory tool removed",
    # resume-guard: the checks
    "guard_not_a_list": "resume_guard() returned {kind}, expected a list of stop codes",
    "guard_not_strings": "resume_guard() must return stop codes (strings)",
    "gave": "resume_guard() gave {codes}; {verdict}",
    "gave_at": "{where}: resume_guard() gave {codes}; {verdict}",
    "missing_and_extra": "a code is missing, one does not apply",
    "missing": "a reason to stop is missing",
    "extra": "a code does not apply",
    "once": "list each code once",
    # cache-key: the story of a generated request list
    "a_search": "a search",
    "same_search": "then the same search",
    "search_with": "then a search with {first}",
    "search_with_two": "then a search with {first} with {second}",
    "another_tenant": "another tenant",
    "another_permission_version": "another permission version",
    "another_index_version": "another index version",
    "another_query": "another wording of the question",
    # cache-key: the fields of a key, the counters, what a fresh search finds
    "tenant": "tenant",
    "permission_version": "permission version",
    "index_version": "index version",
    "hits": "hits",
    "misses": "misses",
    "rejected": "entries thrown away by re-verification",
    "more": "more",
    "fewer": "fewer",
    "other_ones": "other ones",
    # cache-key: the checks
    "not_hashable": (
        "cache_key() returned a value of type {kind} that cannot be a dict key (something in it, "
        "such as a list, a dict or a set, has no hash); return a tuple of hashable values"
    ),
    "not_a_tuple": "cache_key() returned {kind}; the text asks for a tuple of the fields",
    "same_apart": "searches {i} and {j} differ in the {field} but got the same key",
    "equal_apart": "searches {i} and {j} are equal but got different keys: normalize the query",
    "differ_same": (
        "searches {i} and {j} differ but got the same key: keep the fields apart (a tuple)"
    ),
    "search_returned": (
        "a search returned {got} document(s) where a fresh search now finds {compared}: {why}"
    ),
    "counted_not": (
        "the cache counted {got} {name} over hidden searches, not what the kit's key gives: {why}"
    ),
    "counted_more": (
        "the cache counted {got} {name} over hidden searches, more than the kit's key gives: {why}"
    ),
    "two_keys": "cache_key() gave two different keys for the same arguments",
    "world_same_question": (
        "in the grader's world, the same question in other capitals, spaces or "
        "punctuation got another key: use normalize_query(query)"
    ),
    "world_other_question": (
        "in the grader's world, two different questions got the same key: use "
        "normalize_query(query)"
    ),
    "world_shifted": (
        "in the grader's world, two different searches whose fields, written one after the "
        "other, read the same got the same key: keep the fields apart (a tuple)"
    ),
    "world_apart": (
        "in the grader's world, two searches that differ in the {field} got the same "
        "key (keep the field whole and exact, as given)"
    ),
    "why_normalize": (
        "equal questions (up to case, spaces and punctuation) must share one entry, others must "
        "not; normalize the query"
    ),
    "why_tenants": "two tenants must never share an entry, even with the same permissions",
    "why_edited": "after a document changes, the index version changes, and so must the key",
    "why_new_document": "a new document changes the answer: the key must include the index version",
    "why_grant": (
        "a changed grant changes the answer: the key must include the permission version"
    ),
    "why_narrower": (
        "a sub-agent's narrower grant needs its own entry: include the permission version"
    ),
}

ZH = {
    "corpus_record": "回归语料中的一个检查点",
    "hidden_record": "一条隐藏的 v1 记录",
    "world_record": "一条评分器世界里的 v1 记录",
    "hidden_citations": "一条带多个引用的隐藏 v1 记录",
    "on": "在{what}上：{why}",
    "field_missing": "缺少字段 {field}",
    "field_extra": "不应有字段 {field}",
    "differs": "{where} 与工具包的迁移结果不同（你的值：{got}）",
    "result_differs": "结果与工具包的迁移结果不同（你的值：{got}）",
    "differs_kind": "{where} 应为{want}（你的值：{got}）",
    "kind_str": "字符串",
    "kind_int": "整数",
    "kind_list": "列表",
    "kind_dict": "字典",
    "kind_null": "null（None）",
    "kind_bool": "True 或 False",
    "cut_at_at": "{where} 在一个 @ 处被截断了：文档 ID 本身可能含有 @，版本是最后一个 @ 之后的部分",
    "trimmed": "{where} 丢掉了首尾的空白：文档 ID 必须与原文完全一致，空格也要保留",
    "differs_form": "{where} 的 Unicode 形式变了：ID 必须与原文完全一致",
    "differs_case": "{where} 只差在大小写：文本必须与原文完全一致",
    "differs_text": "{where} 的文本与工具包的迁移结果不同",
    "differs_text_shown": "{where} 的文本与工具包的迁移结果不同（你的值：{got}）",
    "more_items": "{where} 的元素比工具包的迁移结果多（你的有 {n} 个）",
    "fewer_items": "{where} 的元素比工具包的迁移结果少（你的有 {n} 个）",
    "not_a_dict": "migrate_v1_to_v2() 返回了 {kind}，应返回字典",
    "no_schema_2": "在{what}上，migrate_v1_to_v2() 返回了 {kind}，其中没有 schema_version 2",
    "changed_input": "migrate_v1_to_v2() 修改了它的输入（{what}）：{why}；迁移必须是纯函数",
    "shares_on": "在{what}上，结果与输入共用了 {fields}：之后修改输入会改变你的结果（请复制列表）",
    "never_probed": "migrate_v1_to_v2() 对每个输入都抛出了异常，无法检查",
    "shared_results_on": (
        "在{what}上，对同一记录的两次迁移共用了 {fields}：修改一个任务的检查点会改变另一个的"
        "（每次都要新建列表和字典）"
    ),
    "invalid_on": "在{what}上，结果不是有效的 v2 检查点：{why}",
    "schema_on": "在{what}上，schema_version 必须是 2",
    "loads_otherwise_on": "在{what}上，今天的加载器读你的 v2 记录，与读 v1 原件的结果不同",
    "changed_field": "migrate_v1_to_v2() 修改了输入的字段 {field}；迁移必须是纯函数",
    "removed_field": "migrate_v1_to_v2() 从输入中删除了字段 {field}；迁移必须是纯函数",
    "added_field": "migrate_v1_to_v2() 给输入加了一个字段；迁移必须是纯函数",
    "replaced_input": "migrate_v1_to_v2() 替换了输入；迁移必须是纯函数",
    "reordered_fields": "migrate_v1_to_v2() 改变了输入中字段的顺序；迁移必须是纯函数",
    "reordered": "它的字段顺序变了",
    "a_field": "一个字段",
    "shares": "你的结果与输入共用了 {fields}：之后修改输入会改变你的结果（请复制列表）",
    "invalid": "你的结果不是有效的 v2 检查点",
    "invalid_field": "你的结果不是有效的 v2 检查点（字段 {field}）",
    "loads_otherwise": "今天的加载器读你的 v2 记录，与读 v1 原件的结果不同",
    "v1_at": "一个停在 step {step} 的 v1 检查点（{status}）",
    "odd_at": "一个含有 @ 的文档 ID",
    "odd_zero": "一个带前导零的版本号",
    "odd_citation": "一条重复的引用",
    "odd_draft": "一份空草稿",
    "odd_sent": "一个重复的 sent 键",
    "odd_order": "sent 键的顺序是乱的",
    "at": "{task} 停在 {position}",
    "at_one": "{task} 停在 {position}，{change}",
    "at_two": "{task} 停在 {position}，{first}，且{second}",
    "world_at": "在评分器的世界里，任务 {n} 停在 {position}，{change}",
    "world_at_status": "在评分器的世界里，任务 {n} 停在 {position}（状态 {status}），{change}",
    "world_at_sku": (
        "在评分器的世界里，任务 {n} 停在 {position}，目标的 sku 为 {sku}（不是 None），{change}"
    ),
    "nothing_changed": "世界没有变化",
    "grant_revoked": "授权被撤销",
    "no_grant_left": "授权已不存在",
    "cited_document_edited": "引用的文档被编辑",
    "cited_stock_figure_changed": "引用的库存数字变了",
    "cited_stock_figure_withdrawn": "引用的库存数字已不存在",
    "other_tenants_grants_revoked": "其他租户的授权都被撤销",
    "grant_revoked_after_losing_the_internal_documents": "授权先失去内部文档，随后被撤销",
    "grant_revoked_after_losing_the_inventory_tool": "授权先失去 inventory 工具，随后被撤销",
    "cited_document_withdrawn": "引用的文档被撤下",
    "internal_documents_no_longer_granted": "不再授权读取内部文档",
    "cited_collection_no_longer_granted": "不再授权读取所引文档的集合",
    "inventory_tool_no_longer_granted": "不再授权使用 inventory 工具",
    "next_tool_removed": "下一步的工具已下线",
    "next_tool_no_longer_granted": "不再授权使用下一步的工具",
    "an_uncited_document_edited": "一篇未被引用的文档被编辑",
    "a_new_document_published": "发布了一篇新文档",
    "grant_renewed_with_the_same_scope": "授权以相同的范围续期",
    "another_steps_tool_removed": "另一步的工具已下线",
    "cited_document_withdrawn_and_published_again": "引用的文档被撤下后又重新发布",
    "inventory_tool_removed": "inventory 工具已下线",
    "guard_not_a_list": "resume_guard() 返回了 {kind}，应当返回停止码的列表",
    "guard_not_strings": "resume_guard() 必须返回停止码（字符串）",
    "gave": "resume_guard() 给出 {codes}；{verdict}",
    "gave_at": "{where}：resume_guard() 给出 {codes}；{verdict}",
    "missing_and_extra": "缺了一个停止码，还有一个不适用",
    "missing": "漏掉了一个停止的理由",
    "extra": "有一个停止码不适用",
    "once": "每个停止码只列一次",
    "a_search": "一次搜索",
    "same_search": "然后是同样的搜索",
    "search_with": "然后是一次{first}的搜索",
    "search_with_two": "然后是一次{first}、{second}的搜索",
    "another_tenant": "换了租户",
    "another_permission_version": "换了权限版本",
    "another_index_version": "换了索引版本",
    "another_query": "换了问题的措辞",
    "tenant": "租户",
    "permission_version": "权限版本",
    "index_version": "索引版本",
    "hits": "命中",
    "misses": "未命中",
    "rejected": "复核时丢弃的条目",
    "more": "更多的文档",
    "fewer": "更少的文档",
    "other_ones": "别的文档",
    "not_hashable": (
        "cache_key() 返回的值（类型为 {kind}）不能作为 dict 的键（其中有不可哈希的值，例如 list、"
        "dict 或 set）；请返回由可哈希的值组成的元组"
    ),
    "not_a_tuple": "cache_key() 返回了 {kind}；题目要求返回由各字段组成的元组",
    "same_apart": "第 {i} 和第 {j} 次搜索的{field}不同，却得到了同一个键",
    "equal_apart": "第 {i} 和第 {j} 次搜索相同，却得到了不同的键：请规范化查询",
    "differ_same": "第 {i} 和第 {j} 次搜索不同，却得到了同一个键：让各字段彼此分开（用元组）",
    "search_returned": (
        "一次搜索返回了 {got} 篇文档，而现在不经缓存的搜索找到的是{compared}：{why}"
    ),
    "counted_not": "在一串隐藏的搜索之后，缓存统计到 {got} 次{name}，与工具包的键不同：{why}",
    "counted_more": "在一串隐藏的搜索之后，缓存统计到 {got} 次{name}，比工具包的键多：{why}",
    "two_keys": "cache_key() 对相同的参数给出了两个不同的键",
    "world_same_question": (
        "在评分器的世界里，同一个问题换了大小写、空格或标点就得到了另一个键：请用 "
        "normalize_query(query)"
    ),
    "world_other_question": (
        "在评分器的世界里，两个不同的问题得到了同一个键：请用 normalize_query(query)"
    ),
    "world_shifted": (
        "在评分器的世界里，两次不同的搜索各字段首尾相接后读来相同，却得到了同一个键："
        "让各字段彼此分开（用元组）"
    ),
    "world_apart": (
        "在评分器的世界里，两次搜索的{field}不同，却得到了同一个键（字段要原样完整、精确地保留）"
    ),
    "why_normalize": (
        "同一个问题（不计大小写、空格和标点）必须共用一个条目，不同的问题则不能；请规范化查询"
    ),
    "why_tenants": "两个租户绝不能共用一个条目，即使权限相同",
    "why_edited": "文档变化后索引版本会变，键也必须随之改变",
    "why_new_document": "新文档会改变答案：键必须包含索引版本",
    "why_grant": "授权变化会改变答案：键必须包含权限版本",
    "why_narrower": "授权更窄的子 agent 需要自己的条目：键里要有权限版本",
}
