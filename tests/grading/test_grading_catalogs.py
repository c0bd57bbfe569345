"""Are the feedback catalogs complete, and is a message rendered safely in every language?

Every message ID must have a template in every language, with the same fields; every ID a
check or the grader names in its code must be in the catalogs (found by reading the code, so a
sentence no test plays is covered too).
"""

from __future__ import annotations

import ast
import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from simlab.grading import messages
from simlab.grading.grader import NotebookGrade, QuestionGrade
from simlab.grading.messages import LANGS, Message, capped, message, render, template
from simlab.grading.questions import Tally, feedback_message, require
from simlab.grading.report import format_text, json_lines
from simlab.grading.text import WITHHELD

GRADING = Path(messages.__file__).resolve().parent


def test_does_every_message_id_have_every_language_with_the_same_fields():
    assert messages.problems() == []


def test_is_a_missing_language_or_a_stray_field_found(monkeypatch):
    fake = SimpleNamespace(EN={"a": "x {n}", "b": "y", "c": "z {v}"}, ZH={"a": "x", "c": "z {v}"})
    real = messages.catalog
    monkeypatch.setattr(messages, "catalog_names", lambda: ["fake"])
    monkeypatch.setattr(messages, "catalog", lambda name: fake if name == "fake" else real(name))
    found = messages.problems()
    assert any("fake.b has no zh" in p for p in found), found
    assert any("fake.a" in p and "fields differ" in p for p in found), found
    assert not any("fake.c" in p for p in found), found


def _named_ids() -> list[tuple[str, str]]:
    """Every ``message("catalog.key")`` and ``say("key")`` in the grading code, with the
    catalog of the folder it is in (a check's ``say`` speaks its exercise's catalog)."""
    found = []
    for path in sorted(GRADING.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        rel = path.relative_to(GRADING).parts
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            if not node.args or not isinstance(node.args[0], ast.Constant):
                continue
            key = node.args[0].value
            if node.func.id == "message" and isinstance(key, str) and "." in key:
                found.append((str(path), key))
            elif node.func.id == "say" and rel[0] == "checks" and len(rel) > 2:
                found.append((str(path), f"{rel[1]}.{key}"))
    return found


def test_is_every_id_the_code_names_in_the_catalogs():
    named = _named_ids()
    assert len(named) > 10
    for where, id in named:
        for lang in LANGS:
            try:
                template(id, lang)
            except ValueError:
                pytest.fail(f"{where} names {id}, which has no {lang} template")


def test_does_a_message_refuse_an_unknown_id_or_wrong_fields():
    with pytest.raises(ValueError):
        message("grader.no_such_message")
    with pytest.raises(ValueError):
        message("grader.all_passed")
    with pytest.raises(ValueError):
        message("grader.all_passed", n=3, extra=1)


def test_is_the_withheld_sentence_the_one_the_filters_know():
    assert str(message("grader.withheld")) == WITHHELD


def test_do_nested_messages_render_in_each_language():
    tally = Tally()
    tally.part(lambda: require(False, message("grader.all_passed", n=2)))
    tally.part(lambda: None)
    said = feedback_message(tally, tally.count, None)
    assert str(said) == "1/2 checks passed; all 2 checks passed"
    assert render(said, "zh") == "1/2 项检查通过；全部 2 项检查通过"
    assert Message.from_data(said.to_data()) == said
    with pytest.raises(ValueError):
        render(said, "fr")


def test_is_a_learners_value_escaped_and_capped_in_every_language():
    value = "\x1b[31mred\nline" + "x" * 2000
    said = capped(message("grader.not_attempted", why=value), 400)
    g = NotebookGrade("x.ipynb", "fencing", 0, 6, [QuestionGrade("q", 0, 6, str(said), said)])
    for lang in LANGS:
        text = format_text([g], lang)
        assert "\x1b" not in text and len(text.splitlines()) == 2, text
        assert len(text.splitlines()[1]) < 430
        line = json_lines([g], lang)
        assert "\\u001b[31mred\\nline" in line, "in JSON's escapes, once"
        shown = json.loads(line)["questions"][0]["feedback"]
        assert "\x1b[31mred\nline" in shown and len(shown) <= 400, "the text as produced"


def test_may_a_template_name_a_field_key_or_id():
    from simlab.grading.checks.fencing.messages import say

    said = say("not_from_ledger", key="'epoch'", got=3, want=2)
    assert "'epoch' (3)" in str(said) and "'epoch'（3）" in render(said, "zh")
    assert message("grader.not_attempted", why="x").value("why") == "x"
