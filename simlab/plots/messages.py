"""What the pictures write, by ID (``plots.<key>``), in English (``EN``) and Chinese (``ZH``):
titles, axis labels, legends and marks, rendered by :func:`say` in the language the notebook
set (:func:`simlab.i18n.language.set_language`). A title a notebook passes in is its own
sentence, translated through the notebooks' sentence catalogs (:func:`words`)."""

from __future__ import annotations

from simlab.i18n.language import say as _say
from simlab.i18n.language import sentence

__all__ = ["EN", "ZH", "say", "words"]

EN = {
    # timeline
    "timeline_title": "Epoch race: who held which lease, and which commits counted",
    "simulated_time": "simulated time",
    "simulated_time_s": "simulated time (s)",
    "empty_history": "empty history: nothing to draw",
    "until": "until t={t}",
    "runs_on": "runs on past the edge",
    "lease_on": "lease on {task}",
    "again": " again!",
    "granted_twice": "lease with an epoch granted twice!",
    "paused": "paused",
    "stale_mark": "e{epoch} stale!",
    "cancel_task": "cancel {task}",
    "cancel_bumped": "cancel (epoch bumped)",
    "cancel_refused": "cancel refused",
    "requeue": "requeue",
    "requeue_refused": "requeue refused",
    "document_edited": "document edited",
    "refused_stale": "refused: stale epoch",
    "refused_cancelled": "refused: task cancelled",
    "refused_completed": "refused: task already completed",
    "refused_other": "refused: other reason",
    "accepted": "accepted save",
    "accepted_done": "accepted save, task done",
    "accepted_stale": "accepted although stale!",
    "crash": "crash",
    "sent": "e-mail sent",
    "sent_again": "e-mail sent again",
    "delivered_again": "task delivered again",
    "slow_step": "slow step",
    "worker": "worker",
    "legend_title": "boxes: leases, labelled task and epoch (e2 = epoch 2); red labels: the epoch "
    "a save carried",
    # events
    "raw": "without an absorber: every delivery is applied",
    "absorbed": "with EventAbsorber: each event once, in order",
    "stream_position": "position in the delivered stream",
    "duplicate": "duplicate",
    "after_later": "after a later seq",
    "released": "released",
    "duplicate_dropped": "duplicate dropped",
    "waited": "waited for a gap",
    # throughput
    "throughput_title": "Throughput and latency",
    "completed_per_bin": "tasks completed per bin",
    "latency_axis": "latency (submit to completion)",
    "completed_bar": "completed per bin",
    "latency_dot": "latency of a task",
    "latency_mean": "mean latency per bin",
    "faults_on": "faults on",
    "faults_off": "faults off",
    "worker_paused": "a worker paused",
    # story
    "no_rule_broken": "no rule broken",
    "rule_broken": "rule ({rule}) broken",
    "story_title": "{variant}, seed {seed}: {faults} fault(s), {what}",
    # canary
    "route_canary": "candidate",
    "route_probe": "half-open probe",
    "route_fallback": "read-only path",
    "canary_requests": "canary tenants'\nrequests per {width} s",
    "canary_title": "canary: {candidate} vs {baseline}, seed {seed} -- decision: {decision}\n"
    "(canary tenants carry {share} of the traffic; the baseline tenants are not drawn)",
    "warming": "fewer than {n} requests in the window",
    "error_window": "candidate error rate (window)",
    "threshold": "threshold {value}{above}",
    "above_panel": " (above the panel)",
    "probe_ok": "probe served well",
    "probe_failed": "probe failed",
    "error_rate": "error rate",
    "tokens_window": "candidate tokens per request (window)",
    "tokens_axis": "tokens / request",
    "trip": "trip {n}",
    "latched": "simulated time (s)\nthe breaker latched open at t={t} s; from then on every "
    "canary request goes to the read-only path,\nuntil the end of the run ({end} s), not drawn",
}

ZH = {
    "timeline_title": "epoch 竞争：谁持有哪个租约，哪些提交算数",
    "simulated_time": "模拟时间",
    "simulated_time_s": "模拟时间（秒）",
    "empty_history": "历史为空：没有可画的内容",
    "until": "直到 t={t}",
    "runs_on": "延续到图的边缘之外",
    "lease_on": "{task} 的租约",
    "again": " 重复！",
    "granted_twice": "同一个 epoch 被授予两次的租约！",
    "paused": "暂停",
    "stale_mark": "e{epoch} 陈旧！",
    "cancel_task": "取消 {task}",
    "cancel_bumped": "取消（epoch 已加一）",
    "cancel_refused": "取消被拒绝",
    "requeue": "重新入队",
    "requeue_refused": "重新入队被拒绝",
    "document_edited": "文档被修改",
    "refused_stale": "被拒绝：epoch 陈旧",
    "refused_cancelled": "被拒绝：任务已取消",
    "refused_completed": "被拒绝：任务已完成",
    "refused_other": "被拒绝：其他原因",
    "accepted": "被接受的保存",
    "accepted_done": "被接受的保存，任务完成",
    "accepted_stale": "虽然陈旧却被接受！",
    "crash": "崩溃",
    "sent": "邮件已发送",
    "sent_again": "邮件再次发送",
    "delivered_again": "任务再次投递",
    "slow_step": "慢的一步",
    "worker": "worker",
    "legend_title": "方框：租约，标着任务和 epoch（e2 = epoch 2）；红色标签：保存携带的 epoch",
    "raw": "没有吸收器：每次投递都被应用",
    "absorbed": "有 EventAbsorber：每个事件一次，按顺序",
    "stream_position": "在投递流中的位置",
    "duplicate": "重复",
    "after_later": "在更大的 seq 之后",
    "released": "已释放",
    "duplicate_dropped": "丢弃的重复",
    "waited": "等待缺口补上",
    "throughput_title": "吞吐量与延迟",
    "completed_per_bin": "每个时间段完成的任务",
    "latency_axis": "延迟（从提交到完成）",
    "completed_bar": "每个时间段完成的任务",
    "latency_dot": "一个任务的延迟",
    "latency_mean": "每个时间段的平均延迟",
    "faults_on": "故障开启",
    "faults_off": "故障关闭",
    "worker_paused": "有 worker 暂停",
    "no_rule_broken": "没有规则被破坏",
    "rule_broken": "规则（{rule}）被破坏",
    "story_title": "{variant}，种子 {seed}：{faults} 个故障，{what}",
    "route_canary": "候选版本",
    "route_probe": "半开探测",
    "route_fallback": "只读路径",
    "canary_requests": "灰度租户\n每 {width} 秒的请求数",
    "canary_title": "灰度：{candidate} 对比 {baseline}，种子 {seed} —— 决定：{decision}\n"
    "（灰度租户承载 {share} 的流量；基线租户没有画出）",
    "warming": "窗口内的请求少于 {n} 个",
    "error_window": "候选版本错误率（窗口）",
    "threshold": "阈值 {value}{above}",
    "above_panel": "（在面板上方）",
    "probe_ok": "探测成功",
    "probe_failed": "探测失败",
    "error_rate": "错误率",
    "tokens_window": "候选版本每个请求的 token（窗口）",
    "tokens_axis": "token / 请求",
    "trip": "熔断 {n}",
    "latched": "模拟时间（秒）\n熔断器在 t={t} 秒锁定在打开状态；此后每个灰度请求都走只读路径，"
    "\n直到运行结束（{end} 秒），没有画出",
}


def say(key: str, /, **values: object) -> str:
    """The picture's text ``key`` in the notebook's language."""
    return _say(f"plots.{key}", **values)


def words(text: str) -> str:
    """A title a notebook passed in, in the notebook's language (as it is when no catalog
    knows it)."""
    return sentence(text)
