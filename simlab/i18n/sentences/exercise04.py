"""The sentences of exercise 04's code (see :mod:`simlab.i18n.sentences`): the hints its stubs
raise, the messages of its public checks' asserts and the lines it prints."""

from __future__ import annotations

__all__ = ["EN", "ZH"]

EN = {
    "migrate_hint": 'build a new dict field by field; "doc@3".rpartition("@") splits at the last @',
    "pure": "migrate_v1_to_v2 changed its input: a migration must be pure",
    "shares": "the result shares its 'sent' list with the input",
    "guard_hint": "find the tenant's grant first; then check each citation; then the tools",
    "go_on": "nothing changed: the task may go on",
    "finished": "a finished task has nothing to check",
    "before": "before: {cached}",
    "after": "after a new document: {cached} | uncached: {uncached}",
    "key_hint": "a tuple of the tenant, both versions and the normalized query",
    "from_cache": "the same question should come from the cache",
    "missed": "a new document was missed",
    "old_grant": "an entry made under an old grant was looked up",
}

ZH = {
    "migrate_hint": '逐个字段构造一个新的 dict；"doc@3".rpartition("@") 在最后一个 @ 处拆开',
    "pure": "migrate_v1_to_v2 修改了它的输入：迁移必须是纯函数",
    "shares": "结果和输入共用同一个 'sent' 列表",
    "guard_hint": "先找到租户的授权；再逐条检查引用；最后检查工具",
    "go_on": "什么都没变：任务可以继续",
    "finished": "已完成的任务没有什么需要检查",
    "before": "加入新文档之前：{cached}",
    "after": "加入一篇新文档之后：{cached} | 不用缓存：{uncached}",
    "key_hint": "一个元组：租户、两个版本号和规范化之后的查询",
    "from_cache": "同一个问题应该来自缓存",
    "missed": "漏掉了一篇新文档",
    "old_grant": "查到了一个在旧授权下生成的条目",
}
