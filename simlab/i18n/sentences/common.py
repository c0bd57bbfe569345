"""The lines every lab notebook prints, and the kit's own lines several notebooks print (a
simulation's summary, the checker's findings, the stepper's event line), as they reach a
notebook's output (see :mod:`simlab.i18n.sentences`). The kit keeps saying them in English to
its callers (the command line, the code that reads them); only what a notebook prints is
translated."""

from __future__ import annotations

__all__ = ["EN", "ZH"]

EN = {
    "tally": "Your predictions: {right} right out of {made} made ({left} not made yet).",
    "tally_of": "your predictions: {right} of {made} right, {left} not made yet",
    "answer_hint": "replace None with your answer to {name}",
    # the hint of an exercise's stub whose solution gives none (simlab.grading.notebook)
    "default_hint": "write this part, then run the check cell below",
    # a simulation's summary (simlab.sim.simulation.SimulationResult.summary)
    "summary": "simlab: {tasks} tasks x {steps} steps, {workers} workers, ttl {ttl}, variant "
    "{variant}, seed {seed}",
    "ended": "  {completed} completed, {cancelled} cancelled, {dead} dead, {unfinished} "
    "unfinished at t={t} ({events} events)",
    "faults": "  faults: {crashes} crashes ({after} after an e-mail), {duplicates} duplicate "
    "deliveries, {redeliveries} redeliveries",
    "fence": "  fence: {refused} saves refused, {expired} leases taken over after expiry",
    "mailbox": "  mailbox: {sent} e-mails sent, {duplicates} duplicates",
    "mailbox_lost": "  mailbox: {sent} e-mails sent, {duplicates} duplicates, {lost} lost",
    "agent": "  agent: {review} stopped for review ({codes}), {edits} document edits",
    "agent_outdated": "  agent: {review} stopped for review ({codes}), {edits} document edits, "
    "{outdated} e-mails citing an outdated version",
    "verdict_ok": "verdict: OK, every invariant held.",
    "verdict_bad": "verdict: {n} VIOLATION(S)",
    "finding": "  - {finding}",
    "more": "  ... and {n} more.",
    # the checker's findings (simlab.checker)
    "stale_commit": "{worker} (epoch {epoch}) committed step {step} of {task} at t={t}, but {why}.",
    "granted_to": "epoch {epoch} was granted to {worker} at t={t}",
    "cancelled_at": "it was cancelled at t={t} (epoch {epoch})",
    # the stepper's event line (simlab.plots.stepper)
    "event": "event {n} of {total}, t={rest}",
    "row_after": "  the row after it: status {status}, step {step}, epoch {epoch}",
    "effects_recorded": "  effects already recorded: {effects}",
}

ZH = {
    "tally": "你的预测：做了 {made} 个，对了 {right} 个（还有 {left} 个没做）。",
    "tally_of": "你的预测：{made} 个中对了 {right} 个，还有 {left} 个没做",
    "answer_hint": "把 None 换成你对 {name} 的回答",
    "default_hint": "写好这一部分，然后运行下面的检查单元格",
    "summary": "simlab：{tasks} 个任务 x {steps} 步，{workers} 个 worker，ttl {ttl}，变体 "
    "{variant}，种子 {seed}",
    "ended": "  {completed} 个完成，{cancelled} 个取消，{dead} 个失败，{unfinished} 个未完成，"
    "结束于 t={t}（{events} 个事件）",
    "faults": "  故障：{crashes} 次崩溃（其中 {after} 次在发邮件之后），{duplicates} 次重复投递，"
    "{redeliveries} 次重新投递",
    "fence": "  栅栏：{refused} 次保存被拒绝，{expired} 个租约在过期后被接管",
    "mailbox": "  邮箱：发出 {sent} 封邮件，{duplicates} 封重复",
    "mailbox_lost": "  邮箱：发出 {sent} 封邮件，{duplicates} 封重复，{lost} 封丢失",
    "agent": "  agent：{review} 个停下等待复核（{codes}），{edits} 次文档修改",
    "agent_outdated": "  agent：{review} 个停下等待复核（{codes}），{edits} 次文档修改，"
    "{outdated} 封邮件引用了过时的版本",
    "verdict_ok": "结论：OK，所有不变量都成立。",
    "verdict_bad": "结论：{n} 个违规",
    "finding": "  - {finding}",
    "more": "  ……还有 {n} 个。",
    "stale_commit": "{worker}（epoch {epoch}）在 t={t} 提交了 {task} 的 step {step}，但{why}。",
    "granted_to": "epoch {epoch} 已经在 t={t} 授予了 {worker}",
    "cancelled_at": "任务已经在 t={t} 被取消（epoch {epoch}）",
    "event": "事件 {n}/{total}，t={rest}",
    "row_after": "  之后的行：status {status}，step {step}，epoch {epoch}",
    "effects_recorded": "  已经记录的副作用：{effects}",
}
