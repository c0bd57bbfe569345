"""Does the command line speak Chinese with ``--lang zh`` before it has parsed anything?

Usage mistakes (argparse's and the kit's argument types', and the settings that make no sense),
the usage line and the help's headings are Chinese with full-width punctuation under
``--lang zh``, for every command, with exit status 2 and one line; English otherwise, and one
parse's language never leaks into the next. The catalogue holds every message it must: each of
argparse's it names is one argparse looks up, and each setting's mistake the simulator and the
search can raise is there.
"""

from __future__ import annotations

import argparse
import ast
import gettext
import re
from pathlib import Path

import pytest

from simlab.cli import build_parser, messages
from simlab.cli.language import lang_in
from simlab.cli.parser import commands
from simlab.i18n.punctuation import problems
from tests.checker.test_words import english_prose
from tests.strategies import FLAG_ERROR_FRAMES, run_cli, usage_error

ROOT = Path(__file__).resolve().parents[2]

#: Mistakes of several kinds in several commands: (argv, the command that says it).
MISTAKES = [
    (["explore", "--tasks", "x"], "simlab explore"),  # the kit's whole number
    (["demo", "--processes", "x"], "simlab demo"),  # argparse's int
    (["sweep", "--rates", "a,b"], "simlab sweep"),  # the kit's list of numbers
    (["explore", "--ttl", "0"], "simlab explore"),  # the kit's positive number
    (["explore", "--variant", "nope"], "simlab explore"),  # invalid choice
    (["simulate", "--faults", "most"], "simlab simulate"),  # invalid choice
    (["bench", "nope"], "simlab bench"),  # invalid choice of a sub-command
    (["simulate", "--nope"], "simlab"),  # unrecognized argument
    (["explore", "--json", "extra"], "simlab"),  # unrecognized argument
    (["shrink", "--seed"], "simlab shrink"),  # missing value
    (["translate", "--root"], "simlab translate"),  # missing value
    (["grade", "--jobs"], "simlab grade"),  # missing value
    (["golden", "--runs"], "simlab golden"),  # missing value
    (["simulate", "--tasks", "-1"], "simlab simulate"),  # a setting that makes no sense
    (["explore", "--pull", "--max-attempts", "2"], "simlab explore"),  # settings at odds
    (["nope"], "simlab"),  # no such command
]


def _line(err: str, command: str, lang: str) -> str:
    head, tail = (part.format(c=command) for part in FLAG_ERROR_FRAMES[lang])
    line = err.strip()
    assert line.startswith(head) and line.endswith(tail), (lang, line)
    return line[len(head) : -len(tail)]


@pytest.mark.parametrize(("argv", "command"), MISTAKES, ids=[" ".join(a) for a, _ in MISTAKES])
def test_is_a_usage_mistake_chinese_under_lang_zh(argv, command, capsys):
    english = _line(usage_error(argv, capsys), command, "en")
    zh = _line(usage_error([*argv, "--lang", "zh"], capsys), command, "zh")
    assert zh != english
    # a metavar (COMMAND), a Python type argparse names (int) and the user's words stay
    prose = [w for w in english_prose(zh) if not w.isupper() and w != "int" and w not in argv]
    assert not prose, (zh, prose)
    assert not problems(zh), (zh, problems(zh))
    flags = re.findall(r"--[\w-]+", english)
    assert re.findall(r"--[\w-]+", zh) == flags  # the same flags named, in the same order


@pytest.mark.parametrize("spelling", [["--lang=zh"], ["--lang", "en", "--lang", "zh"]])
def test_is_the_language_read_wherever_and_however_lang_is_given(spelling, capsys):
    """Before the mistake or after it (argparse stops at the mistake), ``--lang zh`` or
    ``--lang=zh``, the last one given."""
    err = usage_error(["explore", *spelling, "--tasks", "x"], capsys)
    assert err.startswith("simlab explore：错误：参数 --tasks：不是整数：'x'"), err
    assert usage_error(["explore", "--tasks", "x", *spelling], capsys) == err


def test_is_an_unknown_language_refused_in_english(capsys):
    err = usage_error(["explore", "--lang", "fr"], capsys)
    assert err.startswith("simlab explore: error: argument --lang: invalid choice: 'fr'"), err


def test_does_a_value_after_double_dash_choose_no_language():
    assert lang_in(["translate", "--", "--lang", "zh"]) == "en"
    assert lang_in(["explore", "--lang", "zh", "--", "--lang", "en"]) == "zh"


@pytest.mark.parametrize("command", ["explore", "simulate", "translate", "bench"])
def test_is_the_help_chinese_under_lang_zh(command, capsys):
    code, out, _ = run_cli([command, "--lang", "zh", "--help"], capsys)
    assert code == 0
    assert out.startswith(f"用法：simlab {command} ")
    assert "\n选项：\n" in out and "显示这条帮助并退出" in out
    assert "usage:" not in out and "\noptions:" not in out
    usage = out.split("\n\n")[0].splitlines()
    if len(usage) > 1:  # continuation lines start under the first argument, in columns
        columns = len("用法：") * 2 + len(f"simlab {command} ")
        assert all(len(line) - len(line.lstrip()) == columns for line in usage[1:]), usage
    code, out, _ = run_cli([command, "--help"], capsys)
    assert code == 0 and out.startswith(f"usage: simlab {command} ") and "\noptions:\n" in out


def test_does_one_parse_in_chinese_leave_the_next_in_english(capsys):
    usage_error(["explore", "--lang", "zh", "--tasks", "x"], capsys)
    assert argparse._ is gettext.gettext and argparse.ngettext is gettext.ngettext
    err = usage_error(["explore", "--tasks", "x"], capsys)
    assert err.startswith("simlab explore: error: argument --tasks: not a whole number"), err


def test_does_every_command_take_lang():
    parsers = commands(build_parser())
    assert len(parsers) > 12
    for command in parsers:
        action = command._option_string_actions["--lang"]
        assert tuple(action.choices) == ("en", "zh") and action.default == "en", command.prog


def test_does_a_chinese_explore_print_its_verdict_in_chinese_still(capsys):
    code, out, _ = run_cli(["explore", "--max-faults", "0", "--lang", "zh", "--quiet"], capsys)
    assert code == 0 and out.startswith("已证明：")


# -- the catalogue -------------------------------------------------------------------------

#: The catalogue's messages that are the kit's own (the rest are argparse's or a setting's).
KIT_KEYS = {"error_line", "yes_or_no", "whole_number", "number", "finite", "positive"}
KIT_KEYS |= {"at_least", "numbers"}
_PERCENT = re.compile(r"%(?:\((\w+)\))?[sdr]")


def test_do_the_languages_keep_the_same_fields():
    assert set(messages.EN) == set(messages.ZH)
    for key, english in messages.EN.items():
        if key.startswith("setting."):
            continue  # str.format: the grader's catalogue test compares their fields
        assert sorted(_PERCENT.findall(english)) == sorted(_PERCENT.findall(messages.ZH[key]))
        assert len(_PERCENT.findall(english)) == english.count("%"), key


def test_is_every_argparse_message_one_argparse_looks_up():
    source = Path(argparse.__file__).read_text()
    looked_up = {ast.literal_eval(m) for m in re.findall(r"_\(('[^']*'|\"[^\"]*\")\)", source)}
    looked_up |= {ast.literal_eval(m) for m in re.findall(r"ngettext\(('[^']*')", source)}
    looked_up |= {
        ast.literal_eval(m) for m in re.findall(r"ngettext\('[^']*',\s*('[^']*')", source)
    }
    for key, english in messages.EN.items():
        if key not in KIT_KEYS and not key.startswith("setting."):
            assert english in looked_up, (key, english)
    for needed in ("invalid choice: %(value)r (choose from %(choices)s)", "expected one argument"):
        assert needed in looked_up


def _setting_templates() -> set[str]:
    """The template of every ``SettingError`` the simulator and the search can raise: the
    literal (or module constant) each raise names, and what a rate needs."""
    from simlab.sim.fault_fields import RATE_NEEDS

    found = {message for _, message in RATE_NEEDS.values()}
    for path in (ROOT / "simlab").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        constants = {
            t.id: n.value.value
            for n in tree.body
            if isinstance(n, ast.Assign) and isinstance(n.value, ast.Constant)
            for t in n.targets
            if isinstance(t, ast.Name)
        }
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", "") == "SettingError"):
                continue
            first = node.args[0] if node.args else None
            if isinstance(first, ast.Constant):
                found.add(first.value)
            elif isinstance(first, ast.Name) and first.id in constants:
                found.add(constants[first.id])
            elif path.name != "errors.py":  # the class rebuilds itself from its parts
                assert isinstance(first, ast.Name) and first.id == "message", (path, first)
    return found


def test_is_every_settings_mistake_in_the_catalogue():
    templates = _setting_templates()
    assert len(templates) > 25
    english = {t for k, t in messages.EN.items() if k.startswith("setting.")}
    assert templates - english == set()
    assert english - templates == set()  # none left behind by a changed sentence
