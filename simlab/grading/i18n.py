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

Python's ``re`` has no timeout, and the rules' groups (``.+?`` inside ``.+``, translated again
when nested) backtrack over long text: text longer than :data:`MAX_TRANSLATED` characters is
shown as it is, untranslated, so the work per sentence stays bounded whatever a notebook made
its code say.

A sentence no rule matches stays English (a learner is never shown nothing);
:func:`untranslated` lists such sentences, and a test grades the submissions corpus and fails
on any: a new English message needs a rule here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["LANGS", "Rule", "RULES", "TERMS", "MAX_TRANSLATED", "translate", "untranslated"]

LANGS = ("en", "zh")
#: The longest text the rules are applied to (longer text stays English).
MAX_TRANSLATED = 600


@dataclass(frozen=True)
class Rule:
    """``pattern`` (a whole sentence) -> ``template`` (``str.format`` with its groups)."""

    pattern: re.Pattern
    template: str
    nested: tuple[str, ...] = ()
    terms: tuple[str, ...] = ()
    #: Groups holding sentences joined with ", " (a story's moves), each translated.
    lists: tuple[str, ...] = ()


def _r(pattern: str, template: str, nested: tuple[str, ...] = (), terms=(), lists=()) -> Rule:
    return Rule(re.compile(pattern, re.S), template, tuple(nested), tuple(terms), tuple(lists))


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
    "was stopped": "被停止了",
    "could not run": "无法运行",
    "raised an error": "抛出了错误",
    "experiment": "实验",
    "story": "故事",
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
    _r(r"(?P<said>.+); the question gets 0", "{said};这道题得 0 分", ("said",)),
    _r(
        r"a hidden case failed \(what your code said there is not shown: it quotes a hidden "
        r"input\)",
        "一个隐藏用例没有通过(你的代码在那里给出的内容不显示:它引用了隐藏输入)",
    ),
    _r(
        r"not graded: the notebook ran past its (?P<s>[\d.]+) s budget for all its cells and "
        r"checks \(--notebook-timeout\)",
        "未评分:这个 notebook 的全部单元格和检查超过了 {s} 秒的总预算(--notebook-timeout)",
    ),
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
        r"was stopped|could not run|raised an error) when the notebook ran: (?P<detail>.+)",
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
        r"(?P<path>.+): not a readable notebook \(larger than (?P<mb>\d+) MB\)",
        "{path}:不是可读的 notebook(大于 {mb} MB)",
    ),
    _r(
        r"(?P<path>.+): not a readable notebook \(nested deeper than (?P<n>\d+) levels or more "
        r"than (?P<v>[\d,]+) values\)",
        "{path}:不是可读的 notebook(嵌套超过 {n} 层或多于 {v} 个值)",
    ),
    _r(
        r"(?P<path>.+): not a readable notebook \((?P<exc>\w+)\)",
        "{path}:不是可读的 notebook({exc})",
    ),
    _r(
        r"(?P<path>.+): not a readable notebook \(nested too deeply\)",
        "{path}:不是可读的 notebook(嵌套过深)",
    ),
    _r(
        r"(?P<path>.+): a symbolic link, not followed: submissions must be regular files inside "
        r"the folders given \(the link is not graded\)",
        "{path}:是符号链接,不会跟随:提交的作业必须是所给文件夹里的普通文件(链接不评分)",
    ),
    _r(
        r"(?P<path>.+): in a folder that is a symbolic link, not followed: submissions must be "
        r"regular files inside the folders given \(not graded\)",
        "{path}:所在的文件夹是符号链接,不会跟随:提交的作业必须是所给文件夹里的普通文件(不评分)",
    ),
    _r(
        r"(?P<path>.+): not a regular file: submissions must be regular files \(not graded\)",
        "{path}:不是普通文件:提交的作业必须是普通文件(不评分)",
    ),
    _r(
        r"(?P<path>.+): the very same file as (?P<other>.+) \(a hard link\): neither is graded "
        r"under the other's name",
        "{path}:与 {other} 是同一个文件(硬链接):两者都不会以对方的名义评分",
    ),
    _r(r"(?P<path>.+): cannot be read \((?P<why>[^()]+)\)", "{path}:无法读取({why})"),
    # --- the notebook run (simlab/grading/execute.py) and the sandbox ------------------------
    _r(r"ran past the (?P<s>[\d.]+) s limit", "超过了 {s} 秒的时限"),
    _r(r"ran past the (?P<s>[\d.]+) s limit of CPU time", "用完了 {s} 秒的 CPU 时间限额"),
    _r(r"ran past the (?P<s>[\d.]+) s limit of wall-clock time", "超过了 {s} 秒(实际时间)的时限"),
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
        r"(?P<what>.+) did not finish within (?P<s>[\d.]+) s of CPU time \(an endless loop\?\)",
        "{what} 用了 {s} 秒 CPU 时间仍没有结束(死循环?)",
    ),
    _r(
        r"(?P<what>.+) did not finish within (?P<s>[\d.]+) s of wall-clock time \(waiting for "
        r"something that never comes\?\)",
        "{what} 没有在 {s} 秒(实际时间)内结束(在等一件永远不会发生的事?)",
    ),
    _r(
        r"(?P<what>.+) sent the grader more than (?P<n>\d+) MiB or (?P<v>[\d,]+) values in all",
        "{what} 一共向评分器发送了超过 {n} MiB 或 {v} 个值",
    ),
    _r(
        r"wrote more than (?P<n>[\d.]+) MiB into a shared folder",
        "向共享文件夹写入了超过 {n} MiB",
    ),
    _r(
        r"made more than (?P<n>[\d,]+) files in a shared folder",
        "在共享文件夹里创建了超过 {n} 个文件",
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
    _r(rf"(?P<who>{_WHO}) raised an exception: (?P<msg>.+)", "{who} 抛出了一个异常:{msg}"),
    _r(rf"(?P<who>{_WHO}) raised an exception", "{who} 抛出了一个异常"),
    _r(r"(?P<fn>\w+)\(\) raised (?P<k>\w+)", "{fn}() 抛出了 {k}"),
    _r(
        r"the answer could not be checked \(it led to (?P<exc>\w+)\); check what your "
        r"functions return",
        "无法检查答案(它导致了 {exc});请检查你的函数返回了什么",
    ),
    # a Python error as Python wrote it: kept verbatim
    _r(rf"(?P<error>{_PY_ERROR}(?:: .*)?)", "{error}"),
    # --- the hidden checks (simlab/grading/checks/), alphabetical by module ------------------
    _r(
        r"(?P<fn>\w+)\(\) returned (?P<kind>\w+), expected a dict",
        "{fn}() 返回了 {kind},应返回字典",
    ),
)

#: Last: a counterexample's story (:mod:`simlab.grading.properties`), its moves joined with
#: ", " before the first ": ", then what went wrong. Each move is a sentence of the tables.
RULES += (
    _r(r"\.\.\. (?P<moves>[^:]+?): (?P<said>.+)", "……{moves}:{said}", ("said",), (), ("moves",)),
    _r(r"(?P<moves>[^:]+?): (?P<said>.+)", "{moves}:{said}", ("said",), (), ("moves",)),
)


def _apply(text: str, missing: list[str] | None) -> str:
    for rule in RULES:
        m = rule.pattern.fullmatch(text)
        if m is None:
            continue
        values = {}
        for name, value in m.groupdict().items():
            value = value or ""
            if name in rule.lists:
                value = ",".join(_apply(move, missing) for move in value.split(", "))
            elif name in rule.nested:
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
    if len(text) > MAX_TRANSLATED:
        return text
    return _apply(text, None)


def untranslated(text: str) -> list[str]:
    """The sentences inside ``text`` that no rule translates (empty when all have one)."""
    if len(text) > MAX_TRANSLATED:
        return [text]
    missing: list[str] = []
    _apply(text, missing)
    return missing
