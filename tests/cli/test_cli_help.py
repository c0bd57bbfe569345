"""Is every command's help whole in Chinese under ``--lang zh``, and untouched in English?

Every help sentence (a command's description, epilog and one-line summary, an argument group's
title, every flag's help) is translated in :mod:`simlab.cli.helptext`, keyed by command and
flag beside the hash of the English it translates: under ``--lang zh`` each differs from its
English, is punctuated in full width and holds no English prose; without it the help is
byte for byte what the parser's English makes. A translation missing, unfinished or older than
its English is named by ``simlab translate --check`` and left out of the Chinese help.
"""

from __future__ import annotations

import re
import shutil

import pytest

from simlab.cli import build_parser, helptext
from simlab.cli.language import _columns, speaking, wrapped
from simlab.cli.parser import commands
from simlab.grading import messages
from simlab.i18n.build import catalog_problems
from simlab.i18n.prose import english_prose
from simlab.i18n.punctuation import is_chinese, problems
from simlab.i18n.store import Entry
from tests.strategies import run_cli

#: A help that is only its default (``[solutions]``): no sentence to translate.
DEFAULT_ONLY = re.compile(r"\[[^\]]*\]")
#: Every command as typed after ``simlab`` (``[]``: simlab's own help).
COMMANDS = [[], *(c.prog.split()[1:] for c in commands(build_parser()))]


def _ids(command: list[str]) -> str:
    return " ".join(command) or "simlab"


def _places(lang: str) -> list[tuple[str, str]]:
    """Every help sentence by its place, as ``simlab ... --lang LANG`` builds the parser."""
    with speaking(lang):
        parser = build_parser()
        helptext.translate(parser, lang)
        return [(key, text) for key, text, _ in helptext.places(parser)]


def test_does_the_catalog_hold_every_help_sentence_once():
    english = helptext.english()
    assert len(COMMANDS) == 19 and len(english) > 200
    assert set(helptext.ZH) == set(english) == set(helptext.HASH)
    assert len(set(english.values())) == len(english)


def test_is_every_help_sentence_chinese_under_lang_zh():
    english, chinese = _places("en"), _places("zh")
    assert [key for key, _ in english] == [key for key, _ in chinese]
    for (key, en), (_, zh) in zip(english, chinese, strict=True):
        if DEFAULT_ONLY.fullmatch(en):  # no words, only a default, the same in both
            assert zh == en, key
            continue
        assert zh != en and any(is_chinese(c) for c in zh), key
        assert not problems(zh), (key, problems(zh))
        assert not english_prose(zh), (key, zh)
        assert zh.count("%") == en.count("%"), key  # argparse %-formats a help


@pytest.mark.parametrize("command", COMMANDS, ids=_ids)
def test_is_each_commands_help_whole_in_chinese(command, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = run_cli([*command, "--help", "--lang", "zh"], capsys)
    assert code == 0 and out.startswith("用法：")
    body = out.split("\n\n", 1)[1]  # the usage line is flags and metavars
    assert not english_prose(body), english_prose(body)
    assert not any(line.endswith(":") for line in body.splitlines() if line[:1] != " ")
    # a raw description keeps its own lines (grade's): as wide as the English's at most
    english = run_cli([*command, "--help"], capsys)[1]
    width = max(80, *(_columns(line) for line in english.split("\n\n", 1)[1].splitlines()))
    too_wide = [line for line in body.splitlines() if _columns(line) > width]
    assert not too_wide, too_wide
    # argparse %-formats a help sentence, never a metavar: a doubled % in either shows as typed
    assert "%%" not in out and "%%" not in english


@pytest.mark.parametrize("command", COMMANDS, ids=_ids)
def test_is_the_english_help_what_the_parser_writes(command, capsys, monkeypatch):
    code, out, _ = run_cli([*command, "--help"], capsys)
    monkeypatch.setattr(helptext, "translate", lambda parser, lang: None)
    assert run_cli([*command, "--help"], capsys) == (code, out, "")
    assert run_cli([*command, "--help", "--lang", "en"], capsys)[1] == out
    assert code == 0 and not any(is_chinese(c) for c in out)


@pytest.fixture
def stale(monkeypatch):
    """The translation of ``golden --runs`` made from an English it no longer has."""
    key = "golden --runs"
    monkeypatch.setitem(helptext.HASH, key, "0" * 64)
    return key


def test_is_a_stale_translation_named_by_translate_check_and_left_out(stale, capsys):
    assert f"catalog cli_help.{stale}: the English text changed" in "\n".join(catalog_problems())
    code, out, _ = run_cli(["translate", "--check", "help"], capsys)
    assert code == 1 and out == (
        f"catalog cli_help.{stale}: the English text changed since it was translated "
        "(en_hash differs)\n"
    )
    out = run_cli(["golden", "--help", "--lang", "zh"], capsys)[1]
    assert "runs per case [20]" in out and helptext.ZH[stale] not in out
    assert helptext.ZH["golden --seed"] in out  # the others still Chinese


def test_does_translate_check_help_say_what_it_checked(capsys):
    code, _, err = run_cli(["translate", "--check", "help"], capsys)
    assert code == 0 and err == "translations in order (the command line's help)\n"


def test_is_a_missing_translation_named(monkeypatch, capsys):
    monkeypatch.delitem(helptext.ZH, "canary --window")
    assert "cli_help.canary --window has no zh template" in messages.problems()
    assert run_cli(["translate", "--check", "help"], capsys)[0] == 1


def test_does_todo_write_what_a_translator_has_to_do(tmp_path):
    path = tmp_path / "helptext.toml"
    shutil.copy(helptext.PATH, path)
    assert helptext.todo(path=path) == ([], False)
    current = helptext.store(path).cells
    assert helptext.stored_text(current, list(helptext.english())) == path.read_text("utf-8")
    del current["canary --window"]
    current["canary --gone"] = Entry("0" * 64, "已删除的选项")
    path.write_text(helptext.stored_text(current, []), encoding="utf-8")
    items, written = helptext.todo(write=True, path=path)
    english = helptext.english()["canary --window"]
    assert items == [("canary --window", "missing", english)] and written
    entries = helptext.store(path).cells
    assert entries["canary --window"].todo == english and "canary --gone" not in entries
    assert entries["canary --window"].zh == "" and len(entries) == len(helptext.english())


@pytest.mark.parametrize(
    ("text", "width", "lines"),
    [
        ("一二三四五", 6, ["一二三", "四五"]),
        # a closing mark never starts a line (the character before it comes along), an
        # opening one never ends one
        ("一二，三四", 4, ["一", "二，", "三四"]),
        ("一二（三四）", 6, ["一二", "（三", "四）"]),
        ("the --seed 种子", 12, ["the --seed", "种子"]),
        ("a  b\n c", 80, ["a b c"]),
    ],
)
def test_does_a_chinese_help_wrap_by_columns(text, width, lines):
    assert wrapped(text, width) == lines
