"""The grader's feedback in Chinese: one table of English patterns and Chinese templates.

Feedback sentences are written in English where they arise (the grader's frame in
:mod:`simlab.grading.grader`, the notebook run in :mod:`simlab.grading.execute`, the hidden
checks in :mod:`simlab.grading.checks`). They are translated in one place, when the report is
made (``simlab grade --lang zh``), so the checks never need to know about languages.

Each :class:`Rule` is a regular expression that must match a whole sentence, with named groups,
and a template that uses them. Groups listed in ``nested`` hold a sentence themselves and are
translated by the same table (``2/5 checks passed; <a check's sentence>``); groups listed in
``terms`` are one word from :data:`TERMS`; every other group is copied as is (values, names,
Python reprs, a learner's hint). The first rule that matches wins, so wrappers come first.

A sentence no rule matches stays English (a learner is never shown nothing);
:func:`untranslated` lists such sentences, and a test grades the submissions corpus and fails
on any: a new English message needs a rule here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["LANGS", "Rule", "RULES", "TERMS", "translate", "untranslated"]

LANGS = ("en", "zh")


@dataclass(frozen=True)
class Rule:
    """``pattern`` (a whole sentence) -> ``template`` (``str.format`` with its groups)."""

    pattern: re.Pattern
    template: str
    nested: tuple[str, ...] = ()
    terms: tuple[str, ...] = ()


def _r(pattern: str, template: str, nested: tuple[str, ...] = (), terms=()) -> Rule:
    return Rule(re.compile(pattern, re.S), template, tuple(nested), tuple(terms))


#: Single words that a sentence names from a small set.
TERMS = {
    "answer": "答案",
    "check": "检查",
    "setup": "准备",
    "demo": "演示",
    "code": "代码",
    "did not finish": "没有结束",
    "crashed the kernel": "让内核崩溃了",
    "printed too much": "输出过多",
    "could not run": "无法运行",
    "raised an error": "抛出了错误",
    "hits": "命中",
    "misses": "未命中",
    "entries thrown away by re-verification": "复核时丢弃的条目",
}

_PY_ERROR = r"[A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt|Iteration|Warning)"
_WHO = r"(?:[\w.]+\(\)|your code|cell \d+)"

RULES: tuple[Rule, ...] = (
    # --- wrappers the grader adds (simlab/grading/grader.py) --------------------------------
    _r(
        r"(?P<body>.+) \(note: the notebook replaces (?P<names>.+?); the grader ignores that\)",
        "{body}(注意:这个 notebook 替换了 {names};评分器不受影响)",
        ("body",),
    ),
    _r(
        r"(?P<passed>\d+)/(?P<total>\d+) checks passed; (?P<first>.+?); also, (?P<second>.+) "
        r"\(and (?P<more>\d+) more\)",
        "{passed}/{total} 项检查通过;{first};另外,{second}(另有 {more} 项未通过)",
        ("first", "second"),
    ),
    _r(
        r"(?P<passed>\d+)/(?P<total>\d+) checks passed; (?P<first>.+?); also, (?P<second>.+)",
        "{passed}/{total} 项检查通过;{first};另外,{second}",
        ("first", "second"),
    ),
    _r(
        r"(?P<passed>\d+)/(?P<total>\d+) checks passed; (?P<first>.+) \(and (?P<more>\d+) more\)",
        "{passed}/{total} 项检查通过;{first}(另有 {more} 项未通过)",
        ("first",),
    ),
    _r(
        r"(?P<passed>\d+)/(?P<total>\d+) checks passed; (?P<first>.+)",
        "{passed}/{total} 项检查通过;{first}",
        ("first",),
    ),
    _r(r"all (?P<n>\d+) checks passed", "全部 {n} 项检查通过"),
    _r(r"not attempted: (?P<why>.+)", "未作答:{why}", ("why",)),
    _r(
        r"(?P<lost>.+); a question whose code hangs or crashes gets 0",
        "{lost};代码卡死或崩溃的题目得 0 分",
        ("lost",),
    ),
    _r(
        r"not defined: (?P<names>.+) \(was its cell skipped because it hung or crashed\?\)",
        "未定义:{names}(它所在的单元格是否因卡死或崩溃而被跳过?)",
    ),
    _r(r"not defined: (?P<names>.+)", "未定义:{names}"),
    _r(
        r"grader error in the hidden check of (?P<q>\S+) \((?P<exc>\w+)\); tell your instructor",
        "评分器在 {q} 的隐藏检查中出错({exc});请告诉你的老师",
    ),
    _r(
        r"grader error: the hidden check of (?P<q>\S+) has (?P<n>\d+) parts for (?P<p>\d+) points",
        "评分器错误:{q} 的隐藏检查有 {n} 个部分,却对应 {p} 分",
    ),
    _r(
        r"the (?P<role>\w+) cell (?P<what>did not finish|crashed the kernel|printed too much|"
        r"could not run|raised an error) when the notebook ran: (?P<detail>.+)",
        "运行 notebook 时,{role}单元格{what}:{detail}",
        ("detail",),
        ("role", "what"),
    ),
    _r(
        r"the hidden checks could not run: (?P<error>.+)",
        "隐藏检查无法运行:{error}",
    ),
    _r(
        r"cannot tell which exercise this notebook answers \(metadata simlab\.exercise is "
        r"missing and the file name matches none of: (?P<known>.+)\)",
        "无法判断这个 notebook 回答的是哪个练习(缺少元数据 simlab.exercise,文件名也不匹配:{known})",
    ),
    _r(
        r"(?P<path>.+): not a readable notebook \((?P<exc>\w+)\)",
        "{path}:不是可读的 notebook({exc})",
    ),
    # --- the notebook run (simlab/grading/execute.py) and the sandbox ------------------------
    _r(r"ran past the (?P<s>[\d.]+) s limit", "超过了 {s} 秒的时限"),
    _r(
        r"the kernel died \(os\._exit, a crash or running out of memory\)",
        "内核退出了(os._exit、崩溃或内存耗尽)",
    ),
    _r(
        r"printed (?P<got>\S+ [kM]B), over the (?P<limit>\S+ [kM]B) limit",
        "输出了 {got},超过 {limit} 的上限",
    ),
    _r(r"no kernel: (?P<why>.+)", "没有内核:{why}"),
    _r(
        r"(?P<what>.+) did not finish within (?P<s>[\d.]+) s \(an endless loop\?\)",
        "{what} 没有在 {s} 秒内结束(死循环?)",
    ),
    _r(
        r"the checks of (?P<q>\S+) ran past (?P<s>[\d.]+) s in your code",
        "{q} 的检查在你的代码里运行超过了 {s} 秒",
    ),
    _r(r"the sandbox had already stopped", "沙箱已经停止"),
    _r(
        r"gave up after (?P<n>\d+) sandboxes crashed or hung",
        "{n} 个沙箱崩溃或卡死后放弃",
    ),
    # --- the learner's code raised (simlab/grading/questions.py) ----------------------------
    _r(
        rf"(?P<who>{_WHO}) is not written yet: it still raises NotImplementedError "
        r"\((?P<hint>.*)\)",
        "{who} 还没有写:它仍然抛出 NotImplementedError({hint})",
    ),
    _r(
        rf"(?P<who>{_WHO}) is not written yet: it still raises NotImplementedError",
        "{who} 还没有写:它仍然抛出 NotImplementedError",
    ),
    _r(rf"(?P<who>{_WHO}) raised (?P<exc>{_PY_ERROR}.*)", "{who} 抛出了 {exc}"),
    _r(
        r"the answer could not be checked \(it led to (?P<exc>\w+)\); check what your "
        r"functions return",
        "无法检查答案(它导致了 {exc});请检查你的函数返回了什么",
    ),
    # a Python error as Python wrote it: kept verbatim
    _r(rf"(?P<error>{_PY_ERROR}(?:: .*)?)", "{error}"),
    # --- the hidden checks (simlab/grading/checks/), alphabetical by module ------------------
    _r(
        r"on (?P<what>.+?): the absorber (?P<why>.+)",
        "在 {what} 的情况下:吸收器{why}",
        ("why",),
    ),
    _r(
        r"released the same seq of a task twice \(a duplicate or a conflicting event got "
        r"through\)",
        "把同一任务的同一个 seq 释放了两次(重复或冲突的事件漏了过去)",
    ),
    _r(
        r"is_narrowing\(\) said (?P<got>\S+) when the child is (?P<kind>.+)",
        "当子授权是 {kind} 时,is_narrowing() 返回了 {got}",
    ),
    _r(
        r"cancel must bump the epoch by one, so every lease issued before is stale",
        "cancel 必须把 epoch 加一,这样之前发出的每个租约都会变成陈旧的",
    ),
    _r(
        r"two workers both hold epoch (?P<e>\d+): another claim ran between the statements of "
        r"yours \(make the claim one atomic statement\)",
        "两个 worker 同时持有 epoch {e}:另一次领取插在了你的两条语句之间(把领取写成一条原子语句)",
    ),
    _r(r"a stale lease could record a side effect", "陈旧的租约仍能记录副作用"),
    _r(
        r"the lease was taken over right after step (?P<step>\d+) was saved, but work still ran "
        r"for (?P<steps>.+) \(heartbeat before each step\)",
        "step {step} 保存后租约立即被接管,但工作仍为 {steps} 运行了(每一步之前先发心跳)",
    ),
    # --- issue 13: attacks, stories, no-leak messages (checks/leases, checkpoints, ...) -----
    _r(
        r"two workers claiming at the same moment both got the task: another claim ran between "
        r"two statements of yours \(make the claim one atomic statement\)",
        "两个 worker 在同一时刻领取,都拿到了任务:另一"
        "次领取插在了你的两条语句之间(把领取写成一条原子语句)",
    ),
    _r(
        r"two workers claimed a free task at the same moment and neither got it",
        "两个 worker 同一时刻领取一个空闲任务,结果谁都没拿到",
    ),
    _r(
        r"neither worker got an expired task when two claimed it",
        "两个 worker 领取一个租约已过期的任务,谁都没拿到",
    ),
    _r(r"the race could not be run", "无法重放这场竞争"),
    _r(
        r"after another claim ran between its statements, your claim returned a lease of worker "
        r"(?P<w>.+): it read back a row it did not write",
        "另一次领取插在你的语句之间后,你的领取返回了 wor"
        "ker {w} 的租约:它读回了一行不是自己写的数据",
    ),
    _r(
        r"a cancel ran between two statements of your claim, and the claim returned a lease with "
        r"the cancel's epoch \(make the claim one atomic statement\)",
        "一次取消插在了你领取的两条语句之间,而领取返回的租"
        "约带着取消时的 epoch(把领取写成一条原子语句)",
    ),
    _r(
        r"with faults on, (?P<what>your [\w_]+) broke a rule: (?P<story>.+)",
        "开启故障后,{what} 违反了一条规则(缩减后的经过,英文):{story}",
    ),
    _r(
        r"with faults on, (?P<what>your [\w_]+) let (?P<n>\d+) e-mail\(s\) go out twice",
        "开启故障后,{what} 让 {n} 封邮件发出了两次",
    ),
    _r(r"the duplicate delivery could not be run", "无法重放这次重复投递"),
    _r(
        r"the same step delivered twice within one round trip was recorded (?P<n>\d+) time\(s\): "
        r"another record_effect ran between two statements of yours",
        "同一步在一次往返之内被投递了两次,被记录了 {n} 次:"
        "另一次 record_effect 插在了你的两条语句之间",
    ),
    _r(
        r"a worker crashed between record_effect and the send, and the retry sent again "
        r"\((?P<n>\d+) e-mails\): record the effect before sending",
        "worker 在 record_effect 和发送之间崩溃,重试又发了一次(共 {n} 封邮件):先记录副作用,再发送",
    ),
    _r(
        r"the task was cancelled during its last step and your loop returned (?P<a>.+) while the "
        r"ledger says (?P<b>.+): check what save returns",
        "任务在最后一步中被取消,你的循环返回了 {a},而账本记录的是 {b}:要检查 save 的返回值",
    ),
    _r(
        r"on (?P<what>a checkpoint of the regression corpus|a hidden v1 record[\w ]*): (?P<why>.+)",
        "在{what}上:{why}",
        ("what", "why"),
    ),
    _r(r"a checkpoint of the regression corpus", "回归语料中的一个检查点"),
    _r(r"a hidden v1 record", "一条隐藏的 v1 记录"),
    _r(r"a hidden v1 record with several citations", "一条带多个引用的隐藏 v1 记录"),
    _r(
        r"(?P<where>[\w.\[\]]+) differs from the kit's migration \(yours: (?P<mine>.+)\)",
        "{where} 与工具包的迁移结果不同(你的值:{mine})",
    ),
    _r(
        r"on (?P<what>.+?) the result shares (?P<fields>.+) with the input: changing the input "
        r"afterwards changes your result \(copy the lists\)",
        "在{what}上,结果与输入共用了 {fields}:之后修改输入会改变你的结果(请复制列表)",
        ("what",),
    ),
    _r(
        r"(?P<what>.+): recovery_times\(\) gave (?P<got>.+), not the times the kit measures",
        "{what}:recovery_times() 给出了 {got},与工具包测得的时间不同",
        ("what",),
    ),
    _r(r"on a recorded unfenced run", "在一次记录下来的无 fencing 运行上"),
    _r(r"on a recorded run \(ttl (?P<ttl>[\d.]+)\)", "在一次记录下来的运行上(ttl {ttl})"),
    _r(
        r"measure\((?P<ttl>[\d.]+), hidden seeds\) gave (?P<key>\w+) = (?P<v>.+), not what the kit "
        r"measures on the same runs",
        "measure({ttl}, 隐藏的种子) 得到 {key} = {v},与工具包在同样运行上的测量不同",
    ),
    _r(
        r"noise_peak\((?P<c>.+), a hidden seed\) gave (?P<v>.+), not the kit's peak",
        "noise_peak({c}, 隐藏的种子) 得到 {v},与工具包的峰值不同",
    ),
    _r(
        r"choose_threshold\(\) on hidden seeds gave (?P<v>.+), not the kit's threshold",
        "在隐藏的种子上 choose_threshold() 得到 {v},与工具包的阈值不同",
    ),
    _r(
        r"trip_rate\((?P<c>.+), (?P<t>[\d.]+), hidden seeds\) gave (?P<v>.+), not the kit's rate",
        "trip_rate({c}, {t}, 隐藏的种子) 得到 {v},与工具包的比率不同",
    ),
    _r(
        r"a claim while another lease is live must raise LeaseHeld, but it (?P<how>.+)",
        "另一个租约仍有效时,领取必须抛出 LeaseHeld,但它{how}",
        ("how",),
    ),
    _r(
        r"a lease extended by a heartbeat must still be held, but it (?P<how>.+)",
        "被心跳延长的租约必须仍然有效,但它{how}",
        ("how",),
    ),
    _r(r"returned (?P<kind>\w+)", "返回了 {kind}"),
    _r(r"raised (?P<kind>\w+)", "抛出了 {kind}"),
    _r(r"a stale lease's heartbeat returned True", "陈旧租约的心跳返回了 True"),
    _r(
        r"a task saved at step (?P<s>\d+) was worked from step (?P<f>.+) \(calls (?P<c>.+)\), "
        r"expected (?P<e>.+)",
        "一个已保存到 step {s} 的任务从 step {f} 开始工作(调用了 {c}),应为 {e}",
    ),
    _r(
        r"after a crash and a retry of step (?P<s>\d+), (?P<n>\d+) e-mails were sent \(expected "
        r"exactly 1\)",
        "崩溃并重试 step {s} 之后,发出了 {n} 封邮件(应当恰好 1 封)",
    ),
    _r(
        r"after requeue and a new claim, the pre-cancel epoch could commit again \(requeue must "
        r"keep the epoch\)",
        "重新入队并再次领取后,取消前的 epoch 仍能提交(requeue 必须保留 epoch)",
    ),
    _r(
        r"after requeue, a new claim did not get a higher epoch",
        "重新入队后,新的领取没有得到更高的 epoch",
    ),
    _r(
        r"(?P<fn>\w+)\(\) of a (?P<st>\w+) task returned (?P<got>.+), expected (?P<want>\w+)",
        "对状态为 {st} 的任务调用 {fn}() 返回了 {got},应为 {want}",
    ),
    _r(
        r"recording the same key twice returned True \(a retry would send again\)",
        "同一个键记录两次却返回了 True(重试时会再发一次)",
    ),
    _r(
        r"steps 0 and 1 must each send their own e-mail \(one key per task and step\)",
        "step 0 和 step 1 必须各自发送自己的邮件(每个任务的每一步一个键)",
    ),
    _r(
        r"migrate_v1_to_v2\(\) changed its input \((?P<what>.+?)\): (?P<why>.+); a migration must "
        r"be pure",
        "migrate_v1_to_v2() 修改了它的输入({what}):{why};迁移必须是纯函数",
        ("what",),
    ),
    _r(
        r"(?P<what>.+): injection_rule\(\) said (?P<a>\w+), expected (?P<b>\w+)",
        "{what}:injection_rule() 判为 {a},应为 {b}",
    ),
    _r(
        r"your claim never returned a lease in the races the grader replays",
        "在评分器重放的竞争中,你的领取一次也没有返回租约",
    ),
    _r(
        r"released a seq of a task before the seq just below it \(the order broke\)",
        "先放行了某个任务的一个 seq,而比它小一的 seq 还没放行(顺序乱了)",
    ),
    _r(
        r"a search returned (?P<got>\d+) document\(s\) where a fresh search now finds "
        r"(?P<want>\d+): (?P<why>.+)",
        "一次搜索返回了 {got} 篇文档,而现在不经缓存的搜索能找到 {want} 篇:{why}",
        ("why",),
    ),
    _r(
        r"over a hidden series of searches and changes the cache counted (?P<got>\d+) "
        r"(?P<name>hits|misses|entries thrown away by re-verification), not what the kit's key "
        r"gives: (?P<why>.+)",
        "在一串隐藏的搜索和变更之后,缓存统计到 {got} 次{name},与工具包的键不同:{why}",
        ("why",),
        ("name",),
    ),
    _r(
        r"the same question \(up to case, spaces and punctuation\) must share one entry, another "
        r"question must not; normalize the query",
        "同一个问题(不计大小写、空格和标点)必须共用一个条目,不同的问题则不能;请规范化查询",
    ),
    _r(
        r"two tenants must never share an entry, even with the same permissions",
        "两个租户绝不能共用一个条目,即使权限相同",
    ),
    _r(
        r"after a document changes, the index version changes, and so must the key",
        "文档变化后索引版本会变,键也必须随之改变",
    ),
    _r(
        r"a new document changes the answer: the key must include the index version",
        "新文档会改变答案:键必须包含索引版本",
    ),
    _r(
        r"a changed grant changes the answer: the key must include the permission version",
        "授权变化会改变答案:键必须包含权限版本",
    ),
    _r(
        r"a sub-agent with a narrower grant must not share the wider grant's entry: the key must "
        r"include the permission version",
        "授权更窄的子 agent 不能共用更宽授权的条目:键必须包含权限版本",
    ),
    _r(
        r"migrate_v1_to_v2\(\) raised on every input, so nothing could be probed",
        "migrate_v1_to_v2() 对每个输入都抛出了异常,无法检查",
    ),
)


def _apply(text: str, missing: list[str] | None) -> str:
    for rule in RULES:
        m = rule.pattern.fullmatch(text)
        if m is None:
            continue
        values = {}
        for name, value in m.groupdict().items():
            value = value or ""
            if name in rule.nested:
                value = _apply(value, missing)
            elif name in rule.terms:
                value = TERMS.get(value, value)
            values[name] = value
        return rule.template.format(**values)
    if missing is not None:
        missing.append(text)
    return text


def translate(text: str, lang: str = "en") -> str:
    """``text`` (one feedback sentence) in ``lang``; English is returned unchanged, and so is
    any part no rule matches."""
    if lang == "en" or not text:
        return text
    if lang != "zh":
        raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(LANGS)}")
    return _apply(text, None)


def untranslated(text: str) -> list[str]:
    """The sentences inside ``text`` that no rule translates (empty when all have one)."""
    missing: list[str] = []
    _apply(text, missing)
    return missing
