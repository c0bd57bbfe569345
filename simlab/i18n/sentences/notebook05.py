"""The sentences of notebook 05's code and of the stories, shrinks and certificates it prints
(see :mod:`simlab.i18n.sentences`)."""

from __future__ import annotations

__all__ = ["EN", "ZH"]

EN = {
    "pause_why": "The unfenced variant needs a pause longer than the lease to break; racy-claim "
    "needs no pause: a duplicate delivery is enough, and its claim takes the task even while "
    "the first worker's lease is live.",
    "by_rate": "invariant violations per run (seeds 1-3) by pause rate:",
    "scaled_why": "ttl 3 gives {ttl3} and ttl 8 gives {ttl8}: every pause is stretched with the "
    "lease, so the same share of pauses outlasts it.",
    "absolute_why": "ttl 3 gives {ttl3} and ttl 8 gives {ttl8}: a pause of mean 3 rarely outlasts "
    "a lease of 8. The bug is still there; it just needs a longer pause.",
    "unfenced_seeds": "unfenced, invariant violations for seeds 1-3:",
    "scale_row": "  pauses scale with ttl  ttl 3: {ttl3}   ttl 8: {ttl8}",
    "mean_row": "  pauses of mean 3       ttl 3: {ttl3}   ttl 8: {ttl8}",
    "shrink_why": "{original} faults shrink to {left}: a pause longer than the lease is all it "
    "takes, because the broker redelivers a silent worker's task to another worker without any "
    "fault.",
    "shrunk": "{original} faults -> {left} fault(s), {runs} simulations",
    "without": "without fault {n} ({kind}): {outcome}",
    "no_violation": "no violation",
    "strict_why": "The checker judges refusals too (rule s). One pause longer than the lease is "
    "enough when nobody takes the task over meanwhile: the worker wakes with the task's newest "
    "epoch, and the contract accepts its save. A lease that ran out only lets another worker "
    "claim the task; until one does, the epoch, not the clock, says who owns it.",
    "strict": "{faults} fault(s) break StrictLedger; every schedule of at most {covered} fault(s) "
    "passed ({schedules} schedules run)",
    "strict_title": "StrictLedger: one pause, and a save refused",
    "loop_hint": "loop over pause rates with dash.run",
    "fewer_than_two": "at pause_rate {rate} fewer than two seeds of 1-5 break",
    "go_lower": "{lower} already breaks two seeds: go lower",
    "story_needs": "seed 3's story needs {kinds}; run Shrink and read it",
    "lucky": "a pause longer than 8 still lets the stale worker commit: lucky, not correct",
    "scope": "a certificate covers its scope only: section 5's unfenced ledger was certified "
    "for one fault with 2 tasks and 2 workers, and one pause broke it with 3 and 3",
    # a shrunk story (simlab.sim.story)
    "variant": "Variant {variant}, seed {seed}: {tasks} task(s) of {steps} steps, {workers} "
    "worker(s), leases of ttl {ttl}.",
    "your_ledger": "Your ledger, seed {seed}: {tasks} task(s) of {steps} steps, {workers} "
    "worker(s), leases of ttl {ttl}.",
    "original": "The original run had {faults} faults; {k} of them is enough to break the rule.",
    "original_are": "The original run had {faults} faults; {k} of them are enough to break the "
    "rule.",
    "at": "t={t_n}: {what}",
    "fault_at": "t={t_n}: fault {n}: {what}",
    "submits": "the client submits {task}.",
    "delivers": "the broker delivers {task} to {worker}.",
    "delivers_again": "the broker delivers {task} again, to {worker}: nobody acknowledged it or "
    "heartbeat within the visibility timeout.",
    "claims": "{worker} claims {task} and gets epoch {epoch}.",
    "pauses": "{worker} (epoch {epoch}) pauses for {length} before saving step {step} of {task}; "
    "its lease lasts {ttl} and nobody hears from it.",
    "commits": "{worker} (epoch {epoch}) commits step {step} of {task}.",
    "commits_stale": "{worker} (epoch {epoch}) commits step {step} of {task}, although epoch "
    "{newest} exists: the ledger accepts it.",
    "refuses": "the ledger refuses the save of step {step} of {task} by {worker} (epoch "
    "{epoch}): {why}.",
    "breaks": "This breaks {rule}. {finding}",
    "breaks_more": "This breaks {rule}. {finding} ({more_n} more violation(s) follow.)",
    "rule_a": "rule (a), stale commit: a save is accepted only with the task's newest epoch (a "
    "newer claim or a cancel makes every older lease stale)",
    "rule_s": "rule (s), wrongful refusal: a ledger refuses only what the contract refuses: a "
    "claim of a queued task or of one whose lease has ended, a save of a higher step, a "
    "heartbeat, a release or a new e-mail key with the current epoch of a running task, a "
    "cancel of a queued or running task and a requeue of a cancelled or dead one are accepted, "
    "and a claim is refused for its true reason, naming a live lease's holder or the status a "
    "finished task ended with",
    "wrongful": "{worker}'s save of {task} at step {step} with epoch {epoch} at t={t} was "
    "refused, but epoch {current} was current (granted to {holder} at t={granted}) and step "
    "{step2} above the committed step {committed}: a correct ledger accepts it.",
    "needed": "Take away any one of these faults and the replay breaks no rule at all: each of "
    "them is needed.",
    # a certificate (simlab.sim.explore)
    "certified": "{ledger}, {tasks} tasks x {workers} workers x {steps} steps, at most {faults} "
    "faults: certified ({schedules} schedules, {states} distinct states)",
    "timing": "  timing of seed(s) {seeds}; pauses of {pauses} time units (ttl {ttl}); faults "
    "before t={t}",
    "at_most": "unfenced, at most 1 fault:",
    "default_scope": "  the default scope   certified ({schedules} schedules, {states} distinct "
    "states)",
    "seeds_12": "  seeds 1 and 2       broken by {n} fault(s) (first: {kind}), seed {seed}",
    "three": "  3 tasks, 3 workers  broken by {n} fault(s) (first: {kind}), seed {seed}",
}

ZH = {
    "pause_why": "unfenced 变体要有一次比租约更长的暂停才会出错；racy-claim 不需要暂停：一次重复"
    "投递"
    "就够了，即使第一个 worker 的租约还有效，它的认领也会拿走任务。",
    "by_rate": "按暂停率列出每次运行的不变量违规数（种子 1-3）：",
    "scaled_why": "ttl 3 得到 {ttl3}，ttl 8 得到 {ttl8}：每次暂停都随租约一起拉长，所以比租约更长"
    "的暂停所占的比例不变。",
    "absolute_why": "ttl 3 得到 {ttl3}，ttl 8 得到 {ttl8}：平均 3 的暂停很少比长度 8 的租约更长。"
    "bug 还在；只是需要更长的暂停。",
    "unfenced_seeds": "unfenced，种子 1-3 的不变量违规数：",
    "scale_row": "  暂停随 ttl 缩放   ttl 3：{ttl3}   ttl 8：{ttl8}",
    "mean_row": "  暂停平均为 3      ttl 3：{ttl3}   ttl 8：{ttl8}",
    "shrink_why": "{original} 个故障缩减到 {left} 个：只要一次比租约更长的暂停就够了，因为 broker"
    " 会"
    "在没有任何故障的情况下，把沉默的 worker 的任务重新投递给另一个 worker。",
    "shrunk": "{original} 个故障 -> {left} 个故障，{runs} 次模拟",
    "without": "去掉故障 {n}（{kind}）：{outcome}",
    "no_violation": "没有违规",
    "strict_why": "检查器也评判拒绝（规则 s）。在没人接手任务的情况下，一次比租约更长的暂停就够了："
    "worker 醒来时持有的仍是任务最新的 epoch，契约接受它的保存。租约到期只是让别的 worker 可以认领"
    "任务；在有人认领之前，决定谁拥有任务的是 epoch，而不是时钟。",
    "strict": "{faults} 个故障让 StrictLedger 出错；所有至多 {covered} 个故障的调度都通过了"
    "（运行了 {schedules} 个调度）",
    "strict_title": "StrictLedger：一次暂停，一次被拒绝的保存",
    "loop_hint": "用 dash.run 遍历各个暂停率",
    "fewer_than_two": "pause_rate 为 {rate} 时，种子 1-5 中出错的不到两个",
    "go_lower": "{lower} 已经让两个种子出错：再往低试",
    "story_needs": "种子 3 的故事需要 {kinds}；运行 Shrink 并读一读",
    "lucky": "比 8 更长的暂停仍然会让陈旧的 worker 提交：这是运气，不是正确",
    "scope": "证书只覆盖它的范围：第 5 节的 unfenced 账本在 2 个任务、2 个 worker 下通过了一个故障"
    "的认证，而在 3 个任务、3 个 worker 下一次暂停就让它出错",
    "variant": "变体 {variant}，种子 {seed}：{tasks} 个任务，每个 {steps} 步，{workers} 个 worker，"
    "租约 ttl {ttl}。",
    "your_ledger": "你的账本，种子 {seed}：{tasks} 个任务，每个 {steps} 步，{workers} 个 worker，"
    "租约 ttl {ttl}。",
    "original": "原来的运行有 {faults} 个故障；其中 {k} 个就足以破坏规则。",
    "original_are": "原来的运行有 {faults} 个故障；其中 {k} 个就足以破坏规则。",
    "at": "t={t_n}：{what}",
    "fault_at": "t={t_n}：故障 {n}：{what}",
    "submits": "客户端提交 {task}。",
    "delivers": "broker 把 {task} 投递给 {worker}。",
    "delivers_again": "broker 再次投递 {task}，给 {worker}：在可见性超时之内没有人确认它，也没有"
    "心跳。",
    "claims": "{worker} 认领 {task}，得到 epoch {epoch}。",
    "pauses": "{worker}（epoch {epoch}）在保存 {task} 的 step {step} 之前暂停了 {length}；它的租约"
    "只有 {ttl}，没有人收到它的消息。",
    "commits": "{worker}（epoch {epoch}）提交 {task} 的 step {step}。",
    "commits_stale": "{worker}（epoch {epoch}）提交 {task} 的 step {step}，虽然 epoch {newest} "
    "已经存在：账本接受了它。",
    "refuses": "账本拒绝了 {worker}（epoch {epoch}）对 {task} 的 step {step} 的保存：{why}。",
    "breaks": "这破坏了{rule}。{finding}",
    "breaks_more": "这破坏了{rule}。{finding}（后面还有 {more_n} 个违规。）",
    "rule_a": "规则（a）陈旧提交：只有带着任务最新 epoch 的保存才被接受（更新的认领或一次取消会让"
    "所有更旧的租约变成陈旧的）",
    "rule_s": "规则（s）错误拒绝：账本只能拒绝契约拒绝的操作：认领排队中的任务或租约已结束的任务、"
    "保存更高的 step、对运行中任务用当前 epoch 发心跳、交还任务或记录新的邮件幂等键、"
    "取消排队中或运行中的任务、把已取消或失败的任务重新入队，这些都要接受；"
    "认领被拒绝时必须给出真实的原因，并说出有效租约的持有者或已结束任务结束时的状态",
    "wrongful": "{worker} 在 t={t} 以 epoch {epoch} 对 {task} 的 step {step} 的保存被拒绝了，但 "
    "epoch {current} 是当前的（在 t={granted} 授予了 {holder}），而且 step {step2} 高于已提交的 "
    "step {committed}：正确的账本会接受它。",
    "needed": "去掉其中任何一个故障，重放就不会破坏任何规则：每一个都是必需的。",
    "certified": "{ledger}，{tasks} 个任务 x {workers} 个 worker x {steps} 步，至多 {faults} 个"
    "故障：已认证（{schedules} 个调度，{states} 个不同的状态）",
    "timing": "  种子 {seeds} 的时序；暂停长度 {pauses} 个时间单位（ttl {ttl}）；故障发生在 "
    "t={t} 之前",
    "at_most": "unfenced，至多 1 个故障：",
    "default_scope": "  默认范围            已认证（{schedules} 个调度，{states} 个不同的状态）",
    "seeds_12": "  种子 1 和 2         被 {n} 个故障破坏（第一个：{kind}），种子 {seed}",
    "three": "  3 个任务、3 个 worker  被 {n} 个故障破坏（第一个：{kind}），种子 {seed}",
}
