"""The sentences of notebook 09's code (see :mod:`simlab.i18n.sentences`)."""

from __future__ import annotations

__all__ = ["EN", "ZH"]

EN = {
    "published": "{published} events published, {delivered} delivered:",
    "board_why": "In the stream an earlier step of {task} arrives after its last one, and 'last "
    "delivery wins' moves the board backwards: the board follows deliveries, not tasks.",
    "naive_board": "naive board: {board}",
    "naive_bill": "naive token bill: {naive}, true bill: {true}",
    "absorbed_board": "absorbed board: {board}",
    "bill": "token bill: {tokens}; duplicates dropped: {dropped}",
    "released": "released per task: {released}",
    "grant_why": "The grant refuses ({refusal}). A grant narrows its own scope; the tenant's "
    "wider grant is not a reserve a sub-agent can draw from, and narrowing quietly would hide "
    "a design error (a sub-agent that needs more than its parent has was given the wrong "
    "task).",
    "cannot_gain": "tenant {tenant}: a sub-agent cannot gain {what}",
    "revoked": "tenant {tenant}: permission revoked",
    "not_granted": "tenant {tenant}: tool {tool} not granted",
    "reader_after": "the reader after acme was revoked: {refused}",
    "rank_filter": "rank, then filter: {hits}",
    "filter_rank": "filter, then rank: {hits}",
    "key": "key: {key}",
    "hits": "hits {hits}, misses {misses}; after the revocation: {refused}",
    "version_why": "The revocation and the new grant each bumped the permission version (the key "
    "now reads {key}), so the key is new although the scope is the same: a cache cannot tell "
    "'the same again' from 'changed'.",
    "after_edit": "after an edit: {refs}; index version {version}; hits {hits}, misses {misses}, "
    "entries {entries}, thrown away {rejected}",
    "retrieved": "retrieved: {text} ({ref})",
    "stock_why": "The API reports {quantity_n}. Re-verification checks the document (still "
    "there, same version, readable), not whether a sentence in it is still true: the 40 was true "
    "once, when someone wrote it. Exact figures come from the system of record.",
    "api": "API: {text} ({ref})",
    "in_stock": "{n} units of {item} in stock.",
    "later": "an hour later the figure is at version {version} so an answer citing {ref} is out "
    "of date",
    "no_tool": "a reader without the inventory tool: {refused}",
    "second_pass": "every key was seen in the first pass: the absorber drops each copy",
    "narrow": "narrow allows any subset of what acme holds (the empty one too), nothing it lacks",
    "own_entries": "the permission version names the scope too, so a narrower grant gets its "
    "own entries",
}

ZH = {
    "published": "发布了 {published} 个事件，投递了 {delivered} 次：",
    "board_why": "在事件流里，{task} 较早的一步在它的最后一步之后才到达，而“最后一次投递说了算”让"
    "看板倒退了：看板跟随的是投递，而不是任务。",
    "naive_board": "朴素的看板：{board}",
    "naive_bill": "朴素的 token 账单：{naive}，真实账单：{true}",
    "absorbed_board": "经过吸收器的看板：{board}",
    "bill": "token 账单：{tokens}；丢弃的重复：{dropped}",
    "released": "每个任务释放的事件：{released}",
    "grant_why": "授权拒绝了（{refusal}）。授权只能收窄自己的范围；租户更宽的授权不是子 agent 可以"
    "动用的储备，而悄悄收窄会掩盖一个设计错误（一个需要的比父级拥有的还多的子 agent，是被分配了"
    "错误的任务）。",
    "cannot_gain": "租户 {tenant}：子 agent 不能获得 {what}",
    "revoked": "租户 {tenant}：权限已被撤销",
    "not_granted": "租户 {tenant}：没有授予工具 {tool}",
    "reader_after": "acme 被撤销之后的 reader：{refused}",
    "rank_filter": "先排序，再过滤：{hits}",
    "filter_rank": "先过滤，再排序：{hits}",
    "key": "缓存键：{key}",
    "hits": "命中 {hits} 次，未命中 {misses} 次；撤销之后：{refused}",
    "version_why": "撤销和新的授权各让权限版本加了一（缓存键现在是 {key}），所以即使范围相同，"
    "缓存键也是新的：缓存分不清“又是一样的”和“变了”。",
    "after_edit": "一次修改之后：{refs}；索引版本 {version}；命中 {hits} 次，未命中 {misses} 次，"
    "条目 {entries} 个，丢弃 {rejected} 个",
    "retrieved": "检索到：{text}（{ref}）",
    "stock_why": "API 报告的是 {quantity_n}。复验检查的是文档（还在、版本未变、可以读取），而不是"
    "其中某句话是否仍然为真：40 曾经是对的，在有人写下它的时候。确切的数字来自记录系统。",
    "api": "API：{text}（{ref}）",
    "in_stock": "{item} 有 {n} 件库存。",
    "later": "一小时后这个数字已经是版本 {version}，所以引用 {ref} 的回答已经过时",
    "no_tool": "没有库存工具的 reader：{refused}",
    "second_pass": "第一遍已经见过每个幂等键：吸收器丢弃每一份副本",
    "narrow": "narrow 允许 acme 所拥有内容的任何子集（包括空集），不允许它没有的",
    "own_entries": "权限版本也标明了范围，所以更窄的授权有它自己的缓存条目",
}
