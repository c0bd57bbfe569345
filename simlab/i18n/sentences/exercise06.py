"""The sentences of exercise 06's code (see :mod:`simlab.i18n.sentences`): the hints its stubs
raise and the messages of its public checks' asserts."""

from __future__ import annotations

__all__ = ["EN", "ZH"]

EN = {
    "state_hint": "per task: the next seq you wait for, the events waiting, the keys seen",
    "offer_hint": "drop duplicates and conflicts first; then buffer; then release while you can",
    "gap": "a later seq waits for the gap to fill",
    "once": "a duplicate is released once",
    "unknown": "an unknown version is never released",
    "not_int": "True and the string 1 are not version 1",
    "kit": "the kit's EventAbsorber releases otherwise",
    "narrowing_hint": "compare tenant, version and revoked first, then sets (not lengths)",
    "same": "the same grant is a narrowing",
}

ZH = {
    "state_hint": "每个任务：你在等的下一个 seq、在等待的事件、见过的键",
    "offer_hint": "先丢掉重复和冲突；再缓存；然后能放行多少就放行多少",
    "gap": "更靠后的 seq 要等空缺补上",
    "once": "重复的事件只放行一次",
    "unknown": "未知版本的事件永远不放行",
    "not_int": "True 和字符串 1 都不是版本 1",
    "kit": "工具包的 EventAbsorber 放行的结果不一样",
    "narrowing_hint": "先比较 tenant、version 和 revoked，再比较集合（不是长度）",
    "same": "同一个授权也算收窄",
}
