"""Does ``simlab translate`` keep the Chinese notebooks one source with the English ones?

The store (``i18n/zh/``) holds each markdown cell's Chinese beside the sha256 of the English it
translates; ``simlab translate`` generates ``notebooks/zh``, ``solutions/zh`` and
``exercises/zh``; ``--check`` fails, naming notebook and cell, when a translation is missing,
unfinished or older than its English, and when a generated notebook is stale. These tests work
on a copy of the tree, on notebook 01 and exercise 01 (the ones translated so far).
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from pathlib import Path

import nbformat
import pytest

from simlab.cli import main
from simlab.grading.notebook import make_exercise, notebook_text
from simlab.i18n import check, en_hash, load_store

ROOT = Path(__file__).resolve().parents[2]
LAB = "notebooks/01_fencing_tokens.ipynb"
SOLUTION = "solutions/01_fencing_and_cancellation.ipynb"
TRANSLATED = (LAB, SOLUTION)


@pytest.fixture
def tree(tmp_path):
    """A copy of the notebooks, solutions, exercises and translations (the rubrics' too)."""
    for folder in ("notebooks", "solutions", "exercises", "i18n", "simlab/i18n/zh"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    return tmp_path


def untranslated(tree, stem="02_sqlite_ledger") -> str:
    """Remove a lab notebook's translation from the copy, whichever notebooks the repo has done."""
    (tree / f"i18n/zh/notebooks/{stem}.json").unlink(missing_ok=True)
    (tree / f"notebooks/zh/{stem}.ipynb").unlink(missing_ok=True)
    return stem


def run(tree, *args, capsys=None):
    status = main(["translate", "--root", str(tree), *args])
    out = capsys.readouterr() if capsys else None
    return status, out


def edit_cell(path: Path, cell_id: str, new_source) -> None:
    nb = nbformat.read(path, as_version=4)
    cell = next(c for c in nb.cells if c.id == cell_id)
    cell.source = new_source(cell.source)
    path.write_text(notebook_text(nb), encoding="utf-8")


def test_is_the_repository_itself_in_order_for_the_translated_notebooks():
    report = check(ROOT, TRANSLATED)
    assert report.problems == []
    assert len(report.unchanged) == 3  # notebooks/zh, solutions/zh, exercises/zh


def test_does_the_check_pass_on_a_consistent_tree(tree, capsys):
    status, out = run(tree, "--check", *TRANSLATED, capsys=capsys)
    assert status == 0, out.out
    assert out.out == ""


def test_does_a_changed_english_cell_fail_the_check_naming_notebook_and_cell(tree, capsys):
    edit_cell(tree / LAB, "c05", lambda s: s.replace("refused", "rejected", 1))
    status, out = run(tree, "--check", LAB, capsys=capsys)
    assert status == 1
    lines = out.out.splitlines()
    assert f"{LAB} cell c05: the English text changed since it was translated" in lines[0]
    # the generated notebook is stale too: it must now show the English text of c05
    assert any(
        line.startswith("notebooks/zh/01_fencing_tokens.ipynb: out of date") for line in lines
    )
    assert len(lines) == 2, lines


def test_does_a_missing_translation_fail_the_check(tree, capsys):
    store = tree / "i18n/zh/solutions/01_fencing_and_cancellation.json"
    data = json.loads(store.read_text())
    del data["cells"]["fencing-04"]
    store.write_text(json.dumps(data, ensure_ascii=False))
    status, out = run(tree, "--check", SOLUTION, capsys=capsys)
    assert status == 1
    assert f"{SOLUTION} cell fencing-04: no translation" in out.out


def test_does_a_notebook_without_translations_fail_the_whole_check(tree, capsys):
    untranslated(tree)
    status, out = run(tree, "--check", capsys=capsys)
    assert status == 1
    assert "notebooks/02_sqlite_ledger.ipynb: not translated yet" in out.out
    assert LAB not in out.out and SOLUTION not in out.out  # those two are in order


def test_does_a_hand_edited_generated_notebook_fail_the_check(tree, capsys):
    edit_cell(tree / "exercises/zh/01_fencing_and_cancellation.ipynb", "fencing-02", str.upper)
    (tree / "notebooks/zh/99_stray.ipynb").write_text((tree / LAB).read_text())
    status, out = run(tree, "--check", capsys=capsys)
    assert status == 1
    assert "exercises/zh/01_fencing_and_cancellation.ipynb: out of date" in out.out
    assert "notebooks/zh/99_stray.ipynb: no English notebook or translation makes it" in out.out


def test_is_a_code_change_carried_over_by_regenerating_without_translating(tree, capsys):
    edit_cell(tree / LAB, "c03", lambda s: s + "\nextra = 1")
    assert run(tree, "--check", LAB, capsys=capsys)[0] == 1  # the zh notebook is stale
    assert run(tree, LAB, capsys=capsys)[0] == 0
    assert run(tree, "--check", LAB, capsys=capsys)[0] == 0
    zh = nbformat.read(tree / "notebooks/zh/01_fencing_tokens.ipynb", as_version=4)
    assert next(c for c in zh.cells if c.id == "c03").source.endswith("\nextra = 1")


def test_is_a_new_comment_in_a_speaking_notebook_named_until_translated(tree, capsys):
    edit_cell(tree / LAB, "c03", lambda s: s + "\n# one more comment")
    status, out = run(tree, "--check", LAB, capsys=capsys)
    assert status == 1
    assert "cell c03: comment not translated: 'one more comment'" in out.out
    store = tree / "i18n/zh/notebooks/01_fencing_tokens.json"
    data = json.loads(store.read_text())
    data["comments"]["one more comment"] = "再多一条注释"
    store.write_text(json.dumps(data, ensure_ascii=False))
    assert run(tree, LAB, capsys=capsys)[0] == 0
    zh = nbformat.read(tree / "notebooks/zh/01_fencing_tokens.ipynb", as_version=4)
    assert next(c for c in zh.cells if c.id == "c03").source.endswith("\n# 再多一条注释")
    edit_cell(tree / LAB, "c03", lambda s: s.replace("\n# one more comment", ""))
    status, out = run(tree, "--check", LAB, capsys=capsys)
    assert status == 1 and "comment 'one more comment' is in no code cell" in out.out


def _code(source: str) -> list[tuple[int, str]]:
    """A cell's tokens without its comments (and without the lines tokenize cannot read)."""
    import io
    import tokenize

    from IPython.core.inputtransformer2 import TransformerManager

    python = TransformerManager().transform_cell(source)
    return [
        (t.type, t.string)
        for t in tokenize.generate_tokens(io.StringIO(python).readline)
        if t.type not in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE)
    ]


def test_are_code_cells_identical_but_comments_and_prose_chinese(tree):
    for english, chinese in [
        (LAB, "notebooks/zh/01_fencing_tokens.ipynb"),
        (SOLUTION, "solutions/zh/01_fencing_and_cancellation.ipynb"),
    ]:
        en = nbformat.read(ROOT / english, as_version=4)
        zh = nbformat.read(ROOT / chinese, as_version=4)
        assert [c.id for c in zh.cells] == [c.id for c in en.cells]
        assert zh.metadata == en.metadata
        speaks = (
            'set_language("zh")' in zh.cells[[c.cell_type for c in zh.cells].index("code")].source
        )
        first = True
        for a, b in zip(en.cells, zh.cells, strict=True):
            if a.cell_type == "code":
                source = b.source
                if first and speaks:
                    assert _without_language(source) != source, a.id
                    source = _without_language(source)
                first = False
                assert _code(source) == _code(a.source), a.id
                if not speaks:
                    assert b.source.encode() == a.source.encode(), a.id
                    assert b.outputs == a.outputs
                assert b.execution_count == a.execution_count
            else:
                assert b.source != a.source and any("\u4e00" <= ch <= "\u9fff" for ch in b.source)
    solution = nbformat.read(ROOT / "solutions/zh/01_fencing_and_cancellation.ipynb", 4)
    built = notebook_text(make_exercise(solution, "solutions/zh/01_fencing_and_cancellation.ipynb"))
    assert (ROOT / "exercises/zh/01_fencing_and_cancellation.ipynb").read_text() == built


def test_is_the_hash_the_sha256_of_the_english_source():
    store = load_store(ROOT / "i18n/zh/notebooks/01_fencing_tokens.json")
    nb = nbformat.read(ROOT / LAB, as_version=4)
    first = nb.cells[0]
    assert store.cells[first.id].en_hash == hashlib.sha256(first.source.encode()).hexdigest()
    assert en_hash(first.source) == store.cells[first.id].en_hash


def test_does_todo_write_a_skeleton_a_translator_fills(tree, capsys):
    untranslated(tree)
    status, out = run(tree, "--todo", "02_sqlite_ledger", capsys=capsys)
    assert status == 0 and "== notebooks/02_sqlite_ledger.ipynb cell" in out.out
    assert not (tree / "i18n/zh/notebooks/02_sqlite_ledger.json").exists()
    assert run(tree, "--todo", "--write", "02_sqlite_ledger", capsys=capsys)[0] == 0
    path = tree / "i18n/zh/notebooks/02_sqlite_ledger.json"
    data = json.loads(path.read_text())
    nb = nbformat.read(tree / "notebooks/02_sqlite_ledger.ipynb", as_version=4)
    prose = [c for c in nb.cells if c.cell_type == "markdown"]
    assert list(data["cells"]) == [c.id for c in prose]
    status, out = run(tree, "--check", "02_sqlite_ledger", capsys=capsys)
    assert status == 1 and "translation not finished" in out.out
    for cell in prose:  # the translator's work: fill zh, delete todo
        entry = data["cells"][cell.id]
        assert entry.pop("todo") == cell.source
        entry["zh"] = "译文：" + cell.source
    path.write_text(json.dumps(data, ensure_ascii=False))
    assert run(tree, "02_sqlite_ledger", capsys=capsys)[0] == 0
    status, out = run(tree, "--check", "02_sqlite_ledger", capsys=capsys)
    assert status == 0, out.out
    zh = nbformat.read(tree / "notebooks/zh/02_sqlite_ledger.ipynb", as_version=4)
    assert zh.cells[0].source.startswith("译文：")


def test_are_mistakes_one_line_and_exit_status_2(tree, capsys):
    assert run(tree, "--check", "no_such_notebook", capsys=capsys)[0] == 2
    assert run(tree, "--write", capsys=capsys)[0] == 2
    store = tree / "i18n/zh/notebooks/01_fencing_tokens.json"
    store.write_text("{ not json")
    status, out = run(tree, "--check", LAB, capsys=capsys)
    assert status == 1 and "01_fencing_tokens.json: not valid JSON" in out.out


def test_are_line_breaks_between_chinese_characters_joined_but_blocks_kept():
    from simlab.i18n.build import unwrap_cjk

    blocks = "- 第一项\n- 第二项\n\n```\n代码\n代码\n```\nEnglish\n中文"
    text = "租约到期，\n另一个 worker 可以领取。\n" + blocks
    assert unwrap_cjk(text) == "租约到期，另一个 worker 可以领取。\n" + blocks


def _without_language(source: str) -> str:
    """A Chinese first cell's source without the lines that set the language (and, in a
    notebook that draws with matplotlib itself, import the kit's pictures)."""
    from simlab.i18n.code import LANGUAGE_LINES, PICTURE_LINE

    for suffix in (LANGUAGE_LINES + PICTURE_LINE, LANGUAGE_LINES):
        if source.endswith(suffix.rstrip("\n")):
            return source.removesuffix(suffix.rstrip("\n"))
    return source


@pytest.mark.parametrize("folder", ["solutions", "exercises"])
def test_are_the_zh_solutions_and_exercises_the_english_code_hints_included(folder):
    for path in sorted((ROOT / folder).glob("*.ipynb")):
        en = nbformat.read(path, as_version=4)
        zh = nbformat.read(ROOT / folder / "zh" / path.name, as_version=4)
        pairs = [(a, b) for a, b in zip(en.cells, zh.cells, strict=True) if a.cell_type == "code"]
        assert 'set_language("zh")' in pairs[0][1].source, path.name
        for a, b in pairs:
            source = _without_language(b.source)
            assert _code(source) == _code(a.source), (path.name, a.id)
            hints = [line for line in a.source.splitlines() if "### HINT:" in line]
            assert [line for line in source.splitlines() if "### HINT:" in line] == hints
        comments = [
            line.split("#", 1)[1]
            for _, b in pairs
            for line in _without_language(b.source).splitlines()
            if "#" in line
        ]
        assert any(re.search("[\u4e00-\u9fff]", c) for c in comments), path.name


def test_does_a_doc_comment_keep_its_mark_and_a_hint_stay_english():
    from simlab.i18n.code import comments, translate_comments

    source = "#: The columns.\nX = 1\n    ### HINT: one UPDATE\n"
    assert [c.key for c in comments(source)] == ["The columns."]
    assert translate_comments(source, {"The columns.": "列。"}) == (
        "#: 列。\nX = 1\n    ### HINT: one UPDATE\n"
    )
