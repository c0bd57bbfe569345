"""What the command line says of a usage mistake, by ID (``cli.<key>``), in English (``EN``)
and Chinese (``ZH``): argparse's own messages and headings, the kit's words for a flag's bad
value, and the settings that make no sense.

Each English template is the text looked up (:func:`simlab.cli.language.said` finds the Chinese
by it, byte for byte): argparse's message ID, the kit's sentence for a value its argument types
refuse, or the template of a :class:`~simlab.errors.SettingError` as the simulator and the search
raise it. argparse's and the argument types' are ``%``-format, as argparse fills its own; a
setting's are ``str.format``, its fields the settings (said as their flags) and values. A
language keeps the other's fields. The kit's help sentences stay English; the usage line's
prefix and the help's section titles are here.
"""

from __future__ import annotations

__all__ = ["EN", "ZH"]

EN = {
    # argparse's headings
    "usage": "usage: ",
    "options": "options",
    "positional": "positional arguments",
    "help": "show this help message and exit",
    # argparse's usage mistakes
    "argument": "argument %(argument_name)s: %(message)s",
    "invalid_value": "invalid %(type)s value: %(value)r",
    "invalid_choice": "invalid choice: %(value)r (choose from %(choices)s)",
    "unrecognized": "unrecognized arguments: %s",
    "required": "the following arguments are required: %s",
    "one_required": "one of the arguments %s is required",
    "not_allowed": "not allowed with argument %s",
    "ignored_explicit": "ignored explicit argument %r",
    "expected_one": "expected one argument",
    "expected_at_most_one": "expected at most one argument",
    "expected_at_least_one": "expected at least one argument",
    "expected_n.1": "expected %s argument",
    "expected_n.n": "expected %s arguments",
    "ambiguous": "ambiguous option: %(option)s could match %(matches)s",
    "cannot_open": "can't open '%(filename)s': %(error)s",
    # the kit's frame of a usage mistake, and its argument types' refusals
    "error_line": "%(prog)s: error: %(message)s (see '%(prog)s --help')",
    "yes_or_no": "expected yes or no, got %r",
    "whole_number": "not a whole number: %r",
    "number": "not a number: %r",
    "finite": "not a finite number: %r",
    "positive": "must be positive, got %s",
    "at_least": "must be at least %(least)d, got %(text)s",
    "numbers": "not a comma-separated list of numbers: %r",
    # a setting that makes no sense (SettingError): str.format templates, as the simulator and
    # the search raise them, each field named in the settings said as its flag
    "setting.integer": "{name} must be an integer, got {v!r}",
    "setting.tasks": "{tasks} must be >= 0, got {v}",
    "setting.workers": "{workers} must be >= 1, got {v}",
    "setting.steps": "{steps} must be >= 1, got {v}",
    "setting.max_attempts": "{max_attempts} must be a whole number >= 1 or None, got {m!r}",
    "setting.probability": "{name} must be a probability in [0, 1], got {v}",
    "setting.positive": "{name} must be > 0, got {v}",
    "setting.slow_factor": "{slow_factor} must be >= 1, got {v}",
    "setting.pause_time": "{pause_time} must be >= 0.5 (ttl units), got {v}",
    "setting.non_negative": "{name} must be >= 0, got {v}",
    "setting.time_cap": "{time_cap} ({cap}) must be later than the fault horizon ({horizon}), "
    "or liveness cannot be judged",
    "setting.variant": "unknown {variant} {v!r}; choose one of {known}",
    "setting.effects": "unknown {effects} {v!r}; choose one of {known}",
    "setting.bool": "{name} must be True or False, got {v!r}",
    "setting.checkpoints": "{checkpoints} needs {workload} 'opaque' (the agent saves its own)",
    "setting.mode": "{name} needs {variant} 'fenced' and {workload} 'opaque'",
    "setting.pull": "{pull} needs no limit on attempts: leave {max_attempts} unset",
    "setting.agent_keys": "{workload} 'agent' always sends through the idempotency ledger "
    "({idempotency_keys} cannot be off)",
    "setting.workload": "unknown {workload} {v!r}; choose one of {known}",
    "setting.doc_change_rate": "{doc_change_rate} must be >= 0, got {v}",
    "setting.agent_steps": "{workload} 'agent' runs the {n} steps of its graph (retrieve, draft, "
    "send): {steps} must be {n}, got {v}",
    "setting.agent_effects": "{workload} 'agent' sends its e-mail in its last step: {effects} "
    "must be 'last', got {v!r}",
    "setting.recheck_gap": "{recheck_gap} must be >= 0, got {v}",
    "setting.recheck_agent": "{recheck_gap} needs {workload} 'agent' (opaque tasks re-check "
    "nothing)",
    "setting.number": "{name} must be a number, got {v!r}",
    "setting.finite": "{name} must be finite, got {v}",
    "setting.rate_keys": "{rate} needs idempotency keys: without them nothing is recorded before "
    "the send",
    "setting.rate_agent": "{rate} needs workload 'agent' (opaque tasks cite no documents)",
    "setting.rate_opaque": "{rate} needs workload 'opaque' (the agent sends through its resume "
    "guard)",
    "setting.rate_retries": "{rate} needs callers that resend a call whose reply was lost "
    "(retries)",
    "setting.rate_late": "{rate} needs workers that give a task back when a call times out (late)",
    "setting.at_least": "{name} must be an integer >= {least}, got {value!r}",
    "setting.lengths": "{lengths} must be positive numbers of ttls, at most {most:g}, got {v!r}",
    "setting.ttl": "{ttl} must be a positive number of time units, at most {most:g}, got {v!r}",
}

ZH = {
    "usage": "用法：",
    "options": "选项",
    "positional": "位置参数",
    "help": "显示这条帮助并退出",
    "argument": "参数 %(argument_name)s：%(message)s",
    "invalid_value": "不是有效的 %(type)s 值：%(value)r",
    "invalid_choice": "不是可选的值：%(value)r（可选：%(choices)s）",
    "unrecognized": "无法识别的参数：%s",
    "required": "缺少必需的参数：%s",
    "one_required": "参数 %s 必须给出其中一个",
    "not_allowed": "不能与参数 %s 同时给出",
    "ignored_explicit": "忽略了显式给出的值 %r",
    "expected_one": "需要一个值",
    "expected_at_most_one": "至多需要一个值",
    "expected_at_least_one": "至少需要一个值",
    "expected_n.1": "需要 %s 个值",
    "expected_n.n": "需要 %s 个值",
    "ambiguous": "有歧义的选项：%(option)s 可以是 %(matches)s",
    "cannot_open": "无法打开 '%(filename)s'：%(error)s",
    "error_line": "%(prog)s：错误：%(message)s（见 %(prog)s --help）",
    "yes_or_no": "应为 yes 或 no，而不是 %r",
    "whole_number": "不是整数：%r",
    "number": "不是数字：%r",
    "finite": "不是有限的数字：%r",
    "positive": "必须大于 0，而不是 %s",
    "at_least": "必须至少为 %(least)d，而不是 %(text)s",
    "numbers": "不是以逗号分隔的数字列表：%r",
    "setting.integer": "{name} 必须是整数，而不是 {v!r}",
    "setting.tasks": "{tasks} 必须 >= 0，而不是 {v}",
    "setting.workers": "{workers} 必须 >= 1，而不是 {v}",
    "setting.steps": "{steps} 必须 >= 1，而不是 {v}",
    "setting.max_attempts": "{max_attempts} 必须是 >= 1 的整数或 None，而不是 {m!r}",
    "setting.probability": "{name} 必须是 [0, 1] 内的概率，而不是 {v}",
    "setting.positive": "{name} 必须 > 0，而不是 {v}",
    "setting.slow_factor": "{slow_factor} 必须 >= 1，而不是 {v}",
    "setting.pause_time": "{pause_time} 必须 >= 0.5（以 ttl 为单位），而不是 {v}",
    "setting.non_negative": "{name} 必须 >= 0，而不是 {v}",
    "setting.time_cap": "{time_cap}（{cap}）必须晚于故障截止时间（{horizon}），否则无法判断活性",
    "setting.variant": "未知的 {variant} {v!r}；可选：{known}",
    "setting.effects": "未知的 {effects} {v!r}；可选：{known}",
    "setting.bool": "{name} 必须是 True 或 False，而不是 {v!r}",
    "setting.checkpoints": "{checkpoints} 需要 {workload} 'opaque'（agent 自己保存检查点）",
    "setting.mode": "{name} 需要 {variant} 'fenced' 和 {workload} 'opaque'",
    "setting.pull": "{pull} 要求尝试次数没有上限：不要设置 {max_attempts}",
    "setting.agent_keys": "{workload} 'agent' 总是通过幂等账本发送（{idempotency_keys} 不能关闭）",
    "setting.workload": "未知的 {workload} {v!r}；可选：{known}",
    "setting.doc_change_rate": "{doc_change_rate} 必须 >= 0，而不是 {v}",
    "setting.agent_steps": "{workload} 'agent' 运行其图中的 {n} 个步骤（检索、起草、发送）："
    "{steps} 必须是 {n}，而不是 {v}",
    "setting.agent_effects": "{workload} 'agent' 在最后一步发送邮件：{effects} 必须是 'last'，"
    "而不是 {v!r}",
    "setting.recheck_gap": "{recheck_gap} 必须 >= 0，而不是 {v}",
    "setting.recheck_agent": "{recheck_gap} 需要 {workload} 'agent'（opaque 任务不做任何复查）",
    "setting.number": "{name} 必须是数字，而不是 {v!r}",
    "setting.finite": "{name} 必须是有限的数字，而不是 {v}",
    "setting.rate_keys": "{rate} 需要幂等键：没有幂等键，发送前什么都不会被记录",
    "setting.rate_agent": "{rate} 需要 workload 'agent'（opaque 任务不引用文档）",
    "setting.rate_opaque": "{rate} 需要 workload 'opaque'（agent 通过其恢复守卫发送）",
    "setting.rate_retries": "{rate} 需要会重发丢失了回复的调用的调用方（retries）",
    "setting.rate_late": "{rate} 需要调用超时后交还任务的 worker（late）",
    "setting.at_least": "{name} 必须是 >= {least} 的整数，而不是 {value!r}",
    "setting.lengths": "{lengths} 必须是以 ttl 为单位的正数，至多 {most:g}，而不是 {v!r}",
    "setting.ttl": "{ttl} 必须是以时间单位计的正数，至多 {most:g}，而不是 {v!r}",
}
