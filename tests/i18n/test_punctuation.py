"""Is every Chinese sentence punctuated in full width? The lint of ``make test``: no ASCII
``, : ; ( ) ? !`` touching a Chinese character outside code (nor a ``?`` or ``!`` ending a
Chinese sentence, a ``:`` or ``;`` ending a Chinese line, parentheses around Chinese, ASCII
double quotes around Chinese words, a space beside a full-width mark), in the translation
stores (their markdown cells, the comments of the Python they show as code, and their code
comments, hence every zh notebook, solution and exercise; the rubrics' stores, their texts and
quotes), the generated zh notebooks,
solutions and exercises (their markdown and the comments of their code cells), README.zh.md and
every Chinese message template of the catalogs (the exercises' sentence catalogs included: their
hints, assert messages and printed lines; a ``{placeholder}`` counts as Chinese, since the
sentence goes on through it)."""

from __future__ import annotations

import glob
import io
import json
import re
import tokenize
from pathlib import Path

import nbformat
import pytest

from simlab.grading.messages import catalog, catalog_names
from simlab.i18n.punctuation import fixed, joined, problems

ROOT = Path(__file__).resolve().parents[2]
STORES = sorted(
    [
        *glob.glob(str(ROOT / "i18n" / "zh" / "**" / "*.json"), recursive=True),
        *glob.glob(str(ROOT / "simlab" / "i18n" / "zh" / "rubrics" / "*.json")),
    ]
)
NOTEBOOKS = sorted(
    p for folder in ("notebooks", "exercises", "solutions")
    for p in glob.glob(str(ROOT / folder / "zh" / "*.ipynb"))
)  # fmt: skip
CATALOGS = catalog_names()


def _rel(p) -> str:
    return str(Path(p).relative_to(ROOT))


def _comments(source: str) -> list[str]:
    """The text of every comment of a code cell (none if ``tokenize`` cannot read it)."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError):
        return []
    return [t.string for t in tokens if t.type == tokenize.COMMENT]


def _fenced_comments(markdown: str) -> list[str]:
    """The comments of the Python blocks fenced in ``markdown`` (a schema shown as code)."""
    blocks = re.findall(r"```python\n(.*?)```", markdown, re.S)
    return [comment for block in blocks for comment in _comments(block)]


@pytest.mark.parametrize("store", STORES, ids=_rel)
def test_is_every_translation_punctuated_in_full_width(store):
    data = json.loads(Path(store).read_text(encoding="utf-8"))
    bad = {key: problems(entry.get("zh") or "") for key, entry in data["cells"].items()}
    bad |= {
        f"{key} (code shown)": [
            p for c in _fenced_comments(entry.get("zh") or "") for p in problems(c)
        ]
        for key, entry in data["cells"].items()
    }
    bad |= {key: problems(zh) for key, zh in (data.get("comments") or {}).items()}
    assert not {k: v for k, v in bad.items() if v}


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=_rel)
def test_is_every_zh_notebooks_prose_punctuated_in_full_width(notebook):
    nb = nbformat.read(notebook, as_version=4)
    bad = [problems(c.source) for c in nb.cells if c.cell_type == "markdown"]
    bad += [
        problems(comment)
        for c in nb.cells
        if c.cell_type == "code"
        for comment in _comments(c.source)
    ]
    assert not [b for b in bad if b]


def test_are_the_code_comments_of_the_zh_solutions_and_exercises_read_by_the_lint():
    solution = nbformat.read(ROOT / "solutions/zh/03_histories_and_ttl.ipynb", as_version=4)
    said = [comment for c in solution.cells for comment in _comments(c.source)]
    assert "# 带着 epoch 1 被接受了：陈旧提交！" in said
    assert problems("# 带着 epoch 1 被接受了:陈旧提交!") != []


def test_is_the_chinese_readme_punctuated_in_full_width():
    assert problems((ROOT / "README.zh.md").read_text(encoding="utf-8")) == []


def test_are_the_comments_of_the_chinese_readmes_commands_punctuated_in_full_width():
    """The comments of the command lines the Chinese README shows in its fenced blocks, which
    the lint of its prose passes by as code."""
    text = (ROOT / "README.zh.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```[a-z]*\n(.*?)```", text, re.S)
    comments = [line.split("# ", 1)[1] for b in blocks for line in b.splitlines() if "# " in line]
    assert comments, "the README shows commands with comments"
    assert [p for c in comments for p in problems(c)] == []


def test_is_the_chinese_line_of_the_sites_front_page_punctuated_in_full_width():
    assert problems((ROOT / "docs" / "index.md").read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("name", CATALOGS)
def test_is_every_chinese_message_template_punctuated_in_full_width(name):
    zh = catalog(name).ZH
    bad = {key: problems(text, holes=True) for key, text in zh.items()}
    assert zh and not {key: found for key, found in bad.items() if found}


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("你的值:a str", "你的值：a str"),
        ("(你的值:a str)", "（你的值：a str）"),
        ("（你的值:a str)", "（你的值：a str）"),  # a pair never mixes widths
        ("见[指南](docs/x.md)(英文)。", "见[指南](docs/x.md)（英文）。"),  # a link's target stays
        ("用 `f(x), g(y)`,然后", "用 `f(x), g(y)`，然后"),  # code stays
        ("t=2.0 (epoch 2), done", "t=2.0 (epoch 2), done"),  # no Chinese, nothing to do
        ("路径 https://a.b/c(d) 里", "路径 https://a.b/c(d) 里"),
        ("规则 (s)的", "规则（s）的"),
        ("先, 再", "先，再"),
        ("会被接受吗?还是", "会被接受吗？还是"),
        ("0 还是 1?\n3. 会", "0 还是 1？\n3. 会"),  # a sentence's end after a number
        ('叉表示"epoch 已陈旧"，', "叉表示“epoch 已陈旧”，"),
        ('你的猜测："A"、"B" 或 "nobody"', '你的猜测："A"、"B" 或 "nobody"'),  # literal values
        ("WHERE task_id = ? AND 已过期的", "WHERE task_id = ? AND 已过期的"),  # SQL's placeholder
        ("见 ![图](a.png) 和", "见 ![图](a.png) 和"),  # an image stays an image
        ("`cancelled`,**并且**", "`cancelled`，**并且**"),  # emphasis stands between
        ("Is it safe? Yes!", "Is it safe? Yes!"),  # no Chinese on the line
        ("写出 `f(x)`:\n\n* 先", "写出 `f(x)`：\n\n* 先"),  # a clause ends with the line
        ("移入 `goal`;\n* 每个", "移入 `goal`；\n* 每个"),
        ("`V1[s]`(step 3 表示 `x`);", "`V1[s]`（step 3 表示 `x`）；"),  # a pair holding Chinese
        ('# 里 "step": 2 是', '# 里 "step": 2 是'),  # a colon before a space may be code's
        ("事件的 {seq: 键}", "事件的 {seq: 键}"),
        (
            "w1（纪元 1） 在 t=2 提交了",
            "w1（纪元 1）在 t=2 提交了",
        ),  # a space beside a full-width mark
        ("在 （变体 fenced） 的范围内", "在（变体 fenced）的范围内"),
        ("先， 再。 然后“是” 吗", "先，再。然后“是”吗"),
        ("- （可选）看\n| （a） | b |", "- （可选）看\n| （a） | b |"),  # Markdown's marks
        ("最终：    status", "最终：    status"),  # several spaces align a table's columns
        ("`（a） b` 中", "`（a） b` 中"),  # code stays
    ],
)
def test_does_the_fix_make_only_chinese_sentences_full_width(text, want):
    assert fixed(text) == want
    assert problems(want) == []


def test_is_a_space_beside_a_placeholder_and_a_full_width_mark_caught():
    assert problems("（{a}） {b}", holes=True) != []
    assert problems("{a} （b）", holes=True) != []


def test_does_a_placeholder_count_as_chinese_only_in_a_template():
    assert problems("{what}:{why}") == []
    assert problems("{what}:{why}", holes=True) != []
    assert fixed("{what}:{why}", holes=True) == "{what}：{why}"


def test_is_a_calls_empty_pair_code_not_punctuation():
    assert problems("对任务调用 {fn}() 返回了 {got}", holes=True) == []
    assert fixed("调用 claim()后", holes=True) == "调用 claim()后"
    assert fixed("调用 claim(x)后") == "调用 claim（x）后"  # a pair with words inside is prose


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("一位用户 取消了 t1", "一位用户取消了 t1"),
        ("账本随后报告  租约到期时间为 无", "账本随后报告租约到期时间为无"),
        ("w1 取消了 t1", "w1 取消了 t1"),
        ("取消了 t1 的租约", "取消了 t1 的租约"),
        ("a user cancels t1", "a user cancels t1"),
    ],
)
def test_is_a_space_between_chinese_words_dropped_and_one_beside_latin_kept(text, want):
    assert joined(text) == want
