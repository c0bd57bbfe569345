"""The words the hidden checks name from small sets, with their Chinese (:data:`CHECK_TERMS`)."""

from __future__ import annotations

__all__ = ["CHECK_TERMS", "GUARD_CHANGES", "GUARD_VERDICTS"]

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
