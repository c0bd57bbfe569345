"""Chinese for the hidden checks' sentences of simlab/grading/checks/checkpoints/.

Exercise 04: the v1->v2 migration, the resume guard and the cache key.
"""

from __future__ import annotations

import re

from simlab.grading.i18n_checks.terms import GUARD_CHANGES, GUARD_VERDICTS

__all__ = ["PATTERNS"]

_CHANGE = "|".join(map(re.escape, GUARD_CHANGES))
_VERDICT = "|".join(map(re.escape, GUARD_VERDICTS))

PATTERNS: tuple[tuple, ...] = (
    (
        r"on (?P<what>a checkpoint of the regression corpus|a hidden v1 record[\w ]*): (?P<why>.+)",
        "在{what}上:{why}",
        ("what", "why"),
    ),
    (r"a checkpoint of the regression corpus", "回归语料中的一个检查点"),
    (r"a hidden v1 record", "一条隐藏的 v1 记录"),
    (r"a hidden v1 record with several citations", "一条带多个引用的隐藏 v1 记录"),
    (
        r"(?P<where>[\w.\[\]]+) differs from the kit's migration \(yours: (?P<mine>.+)\)",
        "{where} 与工具包的迁移结果不同(你的值:{mine})",
    ),
    (
        r"on (?P<what>.+?) the result shares (?P<fields>.+) with the input: changing the input "
        r"afterwards changes your result \(copy the lists\)",
        "在{what}上,结果与输入共用了 {fields}:之后修改输入会改变你的结果(请复制列表)",
        ("what",),
    ),
    (
        r"migrate_v1_to_v2\(\) changed its input \((?P<what>.+?)\): (?P<why>.+); a migration must "
        r"be pure",
        "migrate_v1_to_v2() 修改了它的输入({what}):{why};迁移必须是纯函数",
        ("what",),
    ),
    (
        r"a search returned (?P<got>\d+) document\(s\) where a fresh search now finds "
        r"(?P<cmp>more|fewer|other ones): (?P<why>.+)",
        "一次搜索返回了 {got} 篇文档,而现在不经缓存的搜索找到的是{cmp}:{why}",
        ("why",),
        ("cmp",),
    ),
    (
        r"the cache counted (?P<got>\d+) (?P<name>hits|misses|entries thrown away by "
        r"re-verification) over hidden searches, not what the kit's key gives: (?P<why>.+)",
        "在一串隐藏的搜索之后,缓存统计到 {got} 次{name},与工具包的键不同:{why}",
        ("why",),
        ("name",),
    ),
    (
        r"the cache counted (?P<got>\d+) (?P<name>hits|misses|entries thrown away by "
        r"re-verification) over hidden searches, more than the kit's key gives: (?P<why>.+)",
        "在一串隐藏的搜索之后,缓存统计到 {got} 次{name},比工具包的键多:{why}",
        ("why",),
        ("name",),
    ),
    (
        r"equal questions \(up to case, spaces and punctuation\) must share one entry, others "
        r"must not; normalize the query",
        "同一个问题(不计大小写、空格和标点)必须共用一个条目,不同的问题则不能;请规范化查询",
    ),
    (
        r"two tenants must never share an entry, even with the same permissions",
        "两个租户绝不能共用一个条目,即使权限相同",
    ),
    (
        r"after a document changes, the index version changes, and so must the key",
        "文档变化后索引版本会变,键也必须随之改变",
    ),
    (
        r"a new document changes the answer: the key must include the index version",
        "新文档会改变答案:键必须包含索引版本",
    ),
    (
        r"a changed grant changes the answer: the key must include the permission version",
        "授权变化会改变答案:键必须包含权限版本",
    ),
    (
        r"a sub-agent's narrower grant needs its own entry: include the permission version",
        "授权更窄的子 agent 需要自己的条目:键里要有权限版本",
    ),
    (
        r"cache_key\(\) returned (?P<kind>\w+), which cannot be a dict key; return a tuple",
        "cache_key() 返回了 {kind},它不能作为 dict 的键;请返回元组",
    ),
    (
        r"cache_key\(\) gave two different keys for the same arguments",
        "cache_key() 对相同的参数给出了两个不同的键",
    ),
    (
        r"resume_guard\(\) returned (?P<kind>\w+), expected a list of stop codes",
        "resume_guard() 返回了 {kind},应当返回停止码的列表",
    ),
    (
        r"resume_guard\(\) must return stop codes \(strings\)",
        "resume_guard() 必须返回停止码(字符串)",
    ),
    (
        rf"(?P<task>[\w-]+) at '(?P<pos>\w+)', (?P<c1>{_CHANGE}) and (?P<c2>{_CHANGE}): "
        rf"resume_guard\(\) gave (?P<got>\[.*\]); (?P<v>{_VERDICT})",
        "{task} 停在 '{pos}',{c1},且{c2}:resume_guard() 给出 {got};{v}",
        (),
        ("c1", "c2", "v"),
    ),
    (
        rf"(?P<task>[\w-]+) at '(?P<pos>\w+)', (?P<c1>{_CHANGE}): "
        rf"resume_guard\(\) gave (?P<got>\[.*\]); (?P<v>{_VERDICT})",
        "{task} 停在 '{pos}',{c1}:resume_guard() 给出 {got};{v}",
        (),
        ("c1", "v"),
    ),
    (
        r"migrate_v1_to_v2\(\) raised on every input, so nothing could be probed",
        "migrate_v1_to_v2() 对每个输入都抛出了异常,无法检查",
    ),
    # --- the generated properties' stories (simlab/grading/checks/checkpoints/) --------------
    (
        r"a v1 checkpoint at step (?P<n>\d+) \((?P<s>running|completed)\)",
        "一个停在 step {n} 的 v1 检查点({s})",
    ),
    (r"a document ID holding an @", "一个含有 @ 的文档 ID"),
    (r"a version with a leading zero", "一个带前导零的版本号"),
    (r"a citation repeated", "一条重复的引用"),
    (r"an empty draft", "一份空草稿"),
    (r"a sent key repeated", "一个重复的 sent 键"),
    (r"sent keys out of order", "sent 键的顺序是乱的"),
    (
        r"migrate_v1_to_v2\(\) changed the field (?P<f>'\w+'|a field) of its input; a migration "
        r"must be pure",
        "migrate_v1_to_v2() 修改了输入的字段 {f};迁移必须是纯函数",
    ),
    (
        r"migrate_v1_to_v2\(\) removed the field (?P<f>'\w+'|a field) from its input; a migration "
        r"must be pure",
        "migrate_v1_to_v2() 从输入中删除了字段 {f};迁移必须是纯函数",
    ),
    (
        r"migrate_v1_to_v2\(\) added a field to its input; a migration must be pure",
        "migrate_v1_to_v2() 给输入加了一个字段;迁移必须是纯函数",
    ),
    (
        r"migrate_v1_to_v2\(\) replaced the input; a migration must be pure",
        "migrate_v1_to_v2() 替换了输入;迁移必须是纯函数",
    ),
    (
        r"your result shares (?P<fields>.+) with the input: changing the input afterwards "
        r"changes your result \(copy the lists\)",
        "你的结果与输入共用了 {fields}:之后修改输入会改变你的结果(请复制列表)",
    ),
    (
        r"your result is not a valid v2 checkpoint \(field (?P<f>'[^']*')\)",
        "你的结果不是有效的 v2 检查点(字段 {f})",
    ),
    (r"your result is not a valid v2 checkpoint", "你的结果不是有效的 v2 检查点"),
    (
        r"today's loader reads your v2 record differently from the v1 one",
        "今天的加载器读你的 v2 记录,与读 v1 原件的结果不同",
    ),
    (r"(?P<task>[\w-]+) at '(?P<pos>\w+)'", "{task} 停在 '{pos}'"),
    (rf"(?P<c>{_CHANGE})", "{c}", (), ("c",)),
    (r"an uncited document edited", "一篇未被引用的文档被编辑"),
    (r"a new document published", "发布了一篇新文档"),
    (r"grant renewed with the same scope", "授权以相同的范围续期"),
    (r"another step's tool removed", "另一步的工具已下线"),
    (r"cited document withdrawn and published again", "引用的文档被撤下后又重新发布"),
    (r"inventory tool removed", "inventory 工具已下线"),
    (
        rf"resume_guard\(\) gave (?P<got>\[.*\]); (?P<v>{_VERDICT})",
        "resume_guard() 给出 {got};{v}",
        (),
        ("v",),
    ),
    (r"a search", "一次搜索"),
    (r"then the same search", "然后是同样的搜索"),
    (r"then a search with (?P<rest>.+)", "然后是一次{rest}的搜索", ("rest",)),
    (
        r"(?P<a>another (?:tenant|permission version|index version|wording of the question)) "
        r"with (?P<b>.+)",
        "{a}、{b}",
        ("a", "b"),
    ),
    (r"another tenant", "换了租户"),
    (r"another permission version", "换了权限版本"),
    (r"another index version", "换了索引版本"),
    (r"another wording of the question", "换了问题的措辞"),
    (
        r"searches (?P<i>\d+) and (?P<j>\d+) differ in the tenant but got the same key",
        "第 {i} 和第 {j} 次搜索的租户不同,却得到了同一个键",
    ),
    (
        r"searches (?P<i>\d+) and (?P<j>\d+) differ in the permission version but got the same key",
        "第 {i} 和第 {j} 次搜索的权限版本不同,却得到了同一个键",
    ),
    (
        r"searches (?P<i>\d+) and (?P<j>\d+) differ in the index version but got the same key",
        "第 {i} 和第 {j} 次搜索的索引版本不同,却得到了同一个键",
    ),
    (r"field (?P<f>'[^']*') is missing", "缺少字段 {f}"),
    (r"field (?P<f>.+) should not be there", "不应有字段 {f}"),
    (
        r"searches (?P<i>\d+) and (?P<j>\d+) are equal but got different keys: normalize the "
        r"query",
        "第 {i} 和第 {j} 次搜索相同,却得到了不同的键:请规范化查询",
    ),
    (
        r"searches (?P<i>\d+) and (?P<j>\d+) differ but got the same key: keep the fields apart "
        r"\(a tuple\)",
        "第 {i} 和第 {j} 次搜索不同,却得到了同一个键:让各字段彼此分开(用元组)",
    ),
)
