"""The sentences of notebook 04's code (see :mod:`simlab.i18n.sentences`)."""

from __future__ import annotations

__all__ = ["EN", "ZH"]

EN = {
    "redo_why": "The ledger never learned that step 1 was done (the save never happened), so "
    "worker-2 redoes the whole step, e-mail included.",
    "without_key": "without a key: mailbox {mailbox}, retry saved: {saved}, task {status}",
    "with_key": "with a key:    mailbox {mailbox}, retry saved: {saved}, task {status}",
    "loss_why": "The key says 'sent' although nothing left, so worker-2's record_effect returns "
    "False and nobody sends: the duplicate became a loss. That is the price of the key.",
    "recorded": "worker-1 recorded the key: {recorded}; worker-2 may send: {may}; mailbox: "
    "{mailbox}",
    "no_crash_why": "{dup_n} duplicates: a crash is not the only way a step runs twice. A worker "
    "paused after its e-mail loses its lease and the task is handed out again; the broker "
    "sometimes delivers a task twice. Without a key, each of those sends again; with keys, none "
    "does, at any crash rate.",
    "per_run": "duplicate e-mails per run (seeds 1-3), 100 tasks each:",
    "crash_row": "  crash after e-mail {rate}:  with keys {keys}  without keys {none}",
    "keys_title": "with keys: {task} sends one e-mail",
    "no_keys_title": "without keys: {task} sends the e-mail again after a crash",
    "verdict_why": "{lost_n} e-mails lost, and the ledger kept every rule it promises: a recorded "
    "key means 'never send again', even when the crash came before the send. A loss is the "
    "price of at most once, not a bug of the ledger; only Result.lost_emails shows it.",
    "seeds": "seeds 1-3, 100 tasks each:",
    "keys_row": "  keys, record_crash_rate 0.1:       duplicates {dup}  lost {lost}",
    "no_keys_row": "  no keys:                           duplicates {dup}  lost {lost}",
    "verdicts": "verdicts: {verdicts}",
    "cancel": "cancel: {cancelled}; save after cancel: {saved}; new e-mail after cancel: {sent}",
    "ledger": "ledger: {status}, step {step}, result {result}; mailbox: {mailbox}",
    "simulator": "simulator, seed 1: {cancelled} tasks cancelled, {sent} e-mails they had "
    "already sent stay sent; verdict: {verdict}",
    "no_key_runs": "look at section 3's no-key runs",
    "again": "look at section 3 again",
    "copies": "a crash between the send and the record: the customer got {copies} copies",
    "gone": "the key is gone after the restart, so a retry sends again",
    "fill_hint": "fill in DELIVERY and after_power_cut above",
    # the picture of duplicate e-mails against the crash rate
    "with_keys": "with keys",
    "without_keys": "without keys",
    "crash_axis": "P(crash after the e-mail, before the save), per side-effecting step",
    "duplicates_axis": "duplicate e-mails per 100 tasks",
    "duplicates_title": "Duplicate e-mails: mean of 3 seeds (band: min to max)",
}

ZH = {
    "redo_why": "账本从来不知道 step 1 已经做完（保存没有发生），所以 worker-2 重做了整个步骤，"
    "邮件也包括在内。",
    "without_key": "没有幂等键：邮箱 {mailbox}，重试的保存：{saved}，任务 {status}",
    "with_key": "有幂等键：  邮箱 {mailbox}，重试的保存：{saved}，任务 {status}",
    "loss_why": "幂等键说“已发送”，其实什么也没发出，所以 worker-2 的 record_effect 返回 False，"
    "没有人发送：重复变成了丢失。这就是幂等键的代价。",
    "recorded": "worker-1 记录了幂等键：{recorded}；worker-2 可以发送：{may}；邮箱：{mailbox}",
    "no_crash_why": "{dup_n} 封重复邮件：崩溃并不是一个步骤运行两次的唯一原因。一个在发出邮件之后"
    "暂停的 worker 会失去它的租约，任务被再次交出；broker 有时也会把一个任务投递两次。没有幂等键，"
    "这些情况每一次都会再发送一次；有幂等键，无论崩溃率多少，一次也不会。",
    "per_run": "每次运行的重复邮件（种子 1-3），每次 100 个任务：",
    "crash_row": "  发邮件后崩溃的概率 {rate}：有幂等键 {keys}  没有幂等键 {none}",
    "keys_title": "有幂等键：{task} 只发一封邮件",
    "no_keys_title": "没有幂等键：{task} 在崩溃后再次发送邮件",
    "verdict_why": "丢失了 {lost_n} 封邮件，而账本遵守了它承诺的每一条规则：记录下的幂等键意味着"
    "“再也不发送”，即使崩溃发生在发送之前。丢失是至多一次的代价，不是账本的 bug；只有 "
    "Result.lost_emails 会显示它。",
    "seeds": "种子 1-3，每次 100 个任务：",
    "keys_row": "  有幂等键，record_crash_rate 0.1：   重复 {dup}  丢失 {lost}",
    "no_keys_row": "  没有幂等键：                        重复 {dup}  丢失 {lost}",
    "verdicts": "结论：{verdicts}",
    "cancel": "取消：{cancelled}；取消之后的保存：{saved}；取消之后的新邮件：{sent}",
    "ledger": "账本：{status}，step {step}，结果 {result}；邮箱：{mailbox}",
    "simulator": "模拟器，种子 1：{cancelled} 个任务被取消，它们已经发出的 {sent} 封邮件仍然是"
    "发出去了；结论：{verdict}",
    "no_key_runs": "看看第 3 节里没有幂等键的运行",
    "again": "再看一遍第 3 节",
    "copies": "在发送和记录之间崩溃：客户收到了 {copies} 份",
    "gone": "重启之后幂等键不见了，所以重试会再次发送",
    "fill_hint": "在上面填写 DELIVERY 和 after_power_cut",
    "with_keys": "有幂等键",
    "without_keys": "没有幂等键",
    "crash_axis": "P（发出邮件之后、保存之前崩溃），每个有副作用的步骤",
    "duplicates_axis": "每 100 个任务的重复邮件数",
    "duplicates_title": "重复邮件：3 个种子的均值（色带：最小到最大）",
}
