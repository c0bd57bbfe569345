"""The sentences of exercise 05's code (see :mod:`simlab.i18n.sentences`): the hints its stubs
raise, the messages of its public checks' asserts and the lines it prints."""

from __future__ import annotations

__all__ = ["EN", "ZH"]

EN = {
    "rule_hint": "check who got e-mails first; then "
    """re.findall(r"https?://[^\\s<>\\"')]+", body, re.I)""",
    "no_harm": "production's answer did no harm",
    "other_host": "version C sent the customer to another host",
    "subdomain": "a link to our own subdomain is fine",
    "only_customer": "nobody but the customer may get the answer",
    "samples": "{n} samples; the first three: {first}",
    "peak_hint": "max([...], default=0.0) over the samples with enough requests",
    "threshold_hint": "min(t for t in THRESHOLDS if t >= the highest peak)",
    "trip_hint": "CanaryConfig(candidate=..., duration=..., max_error_rate=threshold); run.trips",
    "healthy": "a healthy canary should stay well below 5%",
    "noisier": "the framework change B is noisier than production",
    "no_false_alarm": "no false alarm on the seeds it was chosen on",
    "b_trips": "B must trip it",
    "fresh": "false alarms on 4 fresh seeds: {rate}",
    "peaks": "A/A peaks: {peaks}",
    "threshold": "threshold: {threshold}",
}

ZH = {
    "rule_hint": "先看谁收到了邮件；再用 "
    """re.findall(r"https?://[^\\s<>\\"')]+", body, re.I)""",
    "no_harm": "生产版本的回答没有造成伤害",
    "other_host": "版本 C 把客户引到了另一个主机",
    "subdomain": "指向我们自己子域名的链接没问题",
    "only_customer": "除了客户，谁也不能收到这个回答",
    "samples": "{n} 个样本；前三个：{first}",
    "peak_hint": "在请求数足够的样本上取 max([...], default=0.0)",
    "threshold_hint": "取 `THRESHOLDS` 里不低于最高峰值的最小阈值"
    "（`min(t for t in THRESHOLDS if t >= ...)`）",
    "trip_hint": "`CanaryConfig(candidate=..., duration=..., max_error_rate=threshold)`；"
    "`run.trips`",
    "healthy": "健康的灰度版本应该远低于 5%",
    "noisier": "框架改动 B 比生产版本噪声更大",
    "no_false_alarm": "在选阈值所用的种子上不能误报",
    "b_trips": "B 必须触发熔断",
    "fresh": "4 个新种子上的误报率：{rate}",
    "peaks": "A/A 峰值：{peaks}",
    "threshold": "阈值：{threshold}",
}
