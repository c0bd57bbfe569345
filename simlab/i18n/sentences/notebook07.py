"""The sentences of notebook 07's code (see :mod:`simlab.i18n.sentences`)."""

from __future__ import annotations

__all__ = ["EN", "ZH"]

EN = {
    "unchanged": "v1 unchanged by the migrations: {same}",
    "migrated": "migrated from version {version} -> next step {step}",
    "kept": "original kept: {kept} | inside the record: {inside}",
    "refused": "refused {field}: {why}",
    "newer": "checkpoint schema_version {version} is newer than this code understands (latest "
    "{latest}); refusing to read it with old field meanings",
    "must_look": "checkpoint field {field} must look like 'doc_id@version', got {got}",
    "ledger_cites": "ledger: {status}, result cites {evidence}",
    "stop_why": "The stop ends with a cancel, which bumps the epoch. w1's lease has not run out, "
    "but its epoch is no longer current: every lease handed out before the cancel is fenced, so "
    "nothing w1 does can commit or send.",
    "late_save": "ledger: {status}, epoch {epoch}; checkpoint status {checkpoint}; a late save "
    "with the old lease: {late}",
    "waiting": "waiting for review: {tasks}",
    "orders_2": " - Orders ship within 2 days. [kb/shipping v1]",
    "sent_5": "sent: - Orders ship within 5 days. [kb/shipping v2]",
    "guard_why": "The guard runs again in commit_plan, before it records the e-mail's key and "
    "sends: the change is caught between planning and sending.",
    "run": "{completed} completed, {review} stopped for review {codes}, {edits} document edits, "
    "{violations} violations",
    "now_v": "{head} {doc} is now v{version}",
    "cited_at": "{head} {doc} was cited at v{then} and is now v{now}",
    "title": "{task}: a document changed while its worker was paused",
    "instant_why": "The guard's last re-check and the send happen at the same simulated "
    "instant, so no edit can fall between them: the zero holds by construction here; the next "
    "cells open that window.",
    "rows": "300 tasks per row (seeds 1-3), every fault on:",
    "row": "{rate} edits per time unit: completed {completed}, stopped for review {review}, "
    "stale e-mails {stale}, violations {violations}",
    "gap_why": "{outdated} e-mails left citing an outdated version: an edit landed between the "
    "last check and the send. A check protects only what cannot change before the act.",
    "gap_rows": "300 tasks per row (seeds 1-3), 0.2 edits per time unit:",
    "gap_row": "  send {gap} after the re-check: {outdated} outdated e-mails (replayed: "
    "{replayed}), {review} stopped for review, {violations} violations",
    "split_hint": 'split each ref at "@v"; compare the version with current[doc]',
    "deleted": "deleted is outdated",
    "graph_step": "v1's step is the graph step's index",
    "lazy": "an edit keeps the number of cited documents: the lazy guard lets the e-mail leave",
}

ZH = {
    "unchanged": "迁移之后 v1 没有被改动：{same}",
    "migrated": "从版本 {version} 迁移而来 -> 下一步 {step}",
    "kept": "保留了原件：{kept} | 在记录里：{inside}",
    "refused": "拒绝 {field}：{why}",
    "newer": "检查点的 schema_version {version} 比这段代码能理解的更新（最新是 {latest}）；"
    "拒绝按旧的字段含义读取它",
    "must_look": "检查点字段 {field} 必须形如 'doc_id@version'，得到的是 {got}",
    "ledger_cites": "账本：{status}，结果引用 {evidence}",
    "stop_why": "停止以一次取消结束，而取消会让 epoch 加一。w1 的租约还没有到期，但它的 epoch "
    "已经不是当前值：取消之前发出的每一个租约都被栅栏挡住，所以 w1 做什么都无法提交或发送。",
    "late_save": "账本：{status}，epoch {epoch}；检查点状态 {checkpoint}；用旧租约的迟到保存："
    "{late}",
    "waiting": "等待复核：{tasks}",
    "orders_2": " - 订单 2 天内发货。[kb/shipping v1]",
    "sent_5": "已发送：- 订单 5 天内发货。[kb/shipping v2]",
    "guard_why": "守卫在 commit_plan 里再运行一次，在记录邮件的幂等键并发送之前：变化在计划和发送"
    "之间"
    "被发现了。",
    "run": "{completed} 个完成，{review} 个停下等待复核 {codes}，{edits} 次文档修改，"
    "{violations} 个违规",
    "now_v": "{head} {doc} 现在是 v{version}",
    "cited_at": "{head} {doc} 引用时是 v{then}，现在是 v{now}",
    "title": "{task}：它的 worker 暂停期间，一份文档变了",
    "instant_why": "守卫的最后一次复验和发送发生在同一个模拟时刻，所以没有修改能落在两者之间：这"
    "里的零"
    "是按构造成立的；接下来的单元格会打开这个窗口。",
    "rows": "每行 300 个任务（种子 1-3），所有故障都开启：",
    "row": "{rate} 次编辑/时间单位：完成 {completed}，停下等待复核 {review}，过时邮件 {stale}，"
    "违规 {violations}",
    "gap_why": "{outdated} 封邮件发出时引用了过时的版本：一次修改落在了最后一次检查和发送之间。"
    "检查只能保护在行动之前不会变化的东西。",
    "gap_rows": "每行 300 个任务（种子 1-3），每时间单位 0.2 次编辑：",
    "gap_row": "  复验之后 {gap} 再发送：{outdated} 封过时邮件（重放：{replayed}），"
    "{review} 个停下等待复核，{violations} 个违规",
    "split_hint": '在 "@v" 处拆开每个引用；把版本和 current[doc] 比较',
    "deleted": "被删除的文档算过时",
    "graph_step": "v1 的 step 是图中步骤的序号",
    "lazy": "一次修改不改变引用文档的数量：偷懒的守卫会让邮件发出去",
}
