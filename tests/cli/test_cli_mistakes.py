"""Does a command say the mistakes it finds after parsing in the language of ``--lang``?

Every command that refuses what it was asked once parsing is done (a file that cannot be read
or written, options at odds, a value it refuses, a library's message it passes on) says so in
Chinese under ``--lang zh``: one line, no traceback, the same exit status as in English, no
English sentence left outside the names, flags, paths and values it quotes, full-width
punctuation. In English each line is what it always was, byte for byte. Every message ID the
command line names is in both languages, and ``simlab translate --check`` names a catalog's
problem.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from simlab.cli import causes, mistakes
from simlab.cli.language import cause_in
from simlab.i18n.punctuation import problems
from tests.strategies import run_cli

ROOT = Path(__file__).resolve().parents[2]
CLI = ROOT / "simlab" / "cli"

#: (argv, in a folder holding the files of :func:`_folder`; the English line, byte for byte).
MISTAKES = [
    (
        ["simulate", "--schedule", "missing.json"],
        "simlab simulate: error: --schedule missing.json: no such file",
    ),
    (
        ["simulate", "--schedule", "missing.json", "--seed", "3"],
        "simlab simulate: error: --schedule takes the scenario and seed from the file; drop --seed",
    ),
    (
        ["simulate", "--schedule", "kind.json"],
        "simlab simulate: error: --schedule kind.json: fault 1: unknown kind 'nope'; choose one "
        "of crash, effect-crash, record-crash, pause, work-pause, effect-pause, send-pause, "
        "claim-pause, slow, duplicate, cancel, requeue, lost-reply, late-call, edge-claim, "
        "doc-change",
    ),
    (
        ["simulate", "--schedule", "tasks.json"],
        "simlab simulate: error: --schedule tasks.json: scenario: tasks must be >= 0, got -1",
    ),
    (
        ["shrink", "--schedule", "seed.json"],
        "simlab shrink: error: --schedule seed.json: seed must be an integer, got 'x'",
    ),
    (
        ["simulate", "--schedule", "retries.json"],
        "simlab simulate: error: --schedule retries.json: fault 1 (lost-reply): a lost reply "
        "needs callers that resend (retries)",
    ),
    (
        ["sweep", "--fault", "crash", "--rates", "2"],
        "simlab sweep: error: --rates: 2.0 is not a probability in [0, 1]",
    ),
    (
        ["explore", "--out", "c.json", "--db", "foo://x"],
        "simlab explore: error: --db: unknown ledger 'foo://x': give a path, ':memory:', "
        "sqlite:///PATH or postgresql://...",
    ),
    (
        ["explore", "--out", "c.json", "--db", "nowhere/x.sqlite"],
        "simlab explore: error: --db nowhere/x.sqlite: folder 'nowhere' does not exist",
    ),
    (
        ["explore", "--out", "c.json", "--db", "x.sqlite", "--jobs", "2"],
        "simlab explore: error: --jobs: one process per ledger with --db (a run makes its "
        "ledger anew)",
    ),
    (
        ["explore", "--out", "nowhere/c.json"],
        "simlab explore: error: --out nowhere/c.json: cannot write there",
    ),
    (
        ["demo", "--processes", "1"],
        "simlab demo: error: --processes must be at least 2: a race needs two runners",
    ),
    (["bench", "ledger", "-n", "0"], "simlab bench: error: -n and --rounds must be positive"),
    (["grade", "nothere"], "simlab grade: error: no such file or folder: nothere"),
    (["grade", "empty"], "simlab grade: error: no notebooks (*.ipynb) found in empty"),
    (
        ["grade", "ex.ipynb", "--roster", "columns.csv"],
        "simlab grade: error: the roster columns.csv needs the columns Student and ID, and "
        "notebook (one row per submission) or SIS Login ID (Canvas's gradebook export)",
    ),
    (
        ["grade", "ex.ipynb", "--roster", "missing.csv"],
        "simlab grade: error: cannot read the roster missing.csv: No such file or directory",
    ),
    (
        ["grade", "ex.ipynb", "--deadline", "tomorrow"],
        "simlab grade: error: --deadline 'tomorrow' is not an ISO 8601 time: write it as "
        "2026-12-01T23:59:59+08:00 (or ...Z for UTC)",
    ),
    (
        ["grade", "ex.ipynb", "--late-policy", "10%"],
        "simlab grade: error: --late-policy '10%': write P%/day[,cap=C%][,cutoff=Dd], for "
        "example 10%/day,cap=50%,cutoff=7d",
    ),
    (
        ["grade", "ex.ipynb", "--csv", "nowhere/g.csv"],
        "simlab grade: error: cannot write nowhere/g.csv: no such folder",
    ),
    (
        ["grade", "--queue", "nope.sqlite", "--report"],
        "simlab grade: error: no grading queue 'nope.sqlite': the file does not exist",
    ),
    (
        ["grade", "--queue", "q.sqlite", "--worker", "--report"],
        "simlab grade: error: --worker and --report exclude each other",
    ),
    (
        ["grade", "--canvas", "c.csv", "--queue", "q.sqlite", "--report"],
        "simlab grade: error: --canvas FILE needs --roster FILE (the class's students)",
    ),
    (
        ["grade", "--rubric", "nope"],
        "simlab grade: error: no exercise 'nope'; choose one of fencing, leases, histories, "
        "checkpoints, release, events",
    ),
    (
        ["build-exercises", "--solutions", "nope"],
        "simlab build-exercises: error: no solutions folder 'nope' (run from the repository root)",
    ),
    (
        ["golden", "--version", "Z"],
        "simlab golden: error: unknown version 'Z': use one of A, B, C, D or FRAMEWORK/MODEL "
        "with FRAMEWORK in agent-1.0, agent-1.1 and MODEL in fake-1, fake-2",
    ),
    (["canary", "--window", "0"], "simlab canary: error: --window must be positive, got 0.0"),
    (["canary", "--share", "2"], "simlab canary: error: --share must be in (0, 1), got 2.0"),
    (
        ["health", "--db", "x.sqlite", "--timeout", "0"],
        "simlab health: error: --timeout must be a positive number of seconds, got 0.0",
    ),
    (
        ["backup", "--db", "nope.sqlite", "copy.sqlite"],
        "simlab backup: error: --db nope.sqlite: no such ledger file (a backup never creates one)",
    ),
    (
        ["translate"],
        "simlab translate: error: no notebooks/ or solutions/ in '.' (run from the repository "
        "root)",
    ),
    (
        ["translate", "--root", str(ROOT), "--check", "--todo"],
        "simlab translate: error: choose --check or --todo, not both",
    ),
]


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """A working folder with the files the mistakes name: schedules that cannot be replayed,
    a notebook, an empty folder, a roster without its columns."""
    schedules = {
        "kind.json": {"seed": 1, "scenario": {}, "faults": [{"kind": "nope"}]},
        "tasks.json": {"seed": 1, "scenario": {"tasks": -1}, "faults": []},
        "seed.json": {"seed": "x", "scenario": {}, "faults": []},
        "retries.json": {
            "seed": 1,
            "scenario": {"tasks": 3},
            "faults": [{"kind": "lost-reply", "task": "t0001", "call": "save", "nth": 0}],
        },
    }
    for name, data in schedules.items():
        (tmp_path / name).write_text(json.dumps(data), encoding="utf-8")
    (tmp_path / "ex.ipynb").write_text("{}", encoding="utf-8")
    (tmp_path / "empty").mkdir()
    (tmp_path / "columns.csv").write_text("Student,ID\nAda,a1\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


#: Text a Chinese line may quote as it is: quoted values, paths, flags, a list of choices.
_QUOTED = re.compile(
    r"'[^']*'|\"[^\"]*\"|\S*[/.]\S*|-[-\w]+|[A-Z][A-Z_]+|\S*%\S*|(?:[\w-]+, )+[\w-]+"
)


def english_runs(text: str) -> list[str]:
    """Runs of three or more Latin words in ``text`` outside what it quotes."""
    return re.findall(r"[A-Za-z]+(?:\s+[A-Za-z]+){2,}", _QUOTED.sub(" ", text))


def _said(argv, capsys) -> tuple[int, str]:
    code, out, err = run_cli(argv, capsys)
    assert out == "" and "Traceback" not in err, (out, err)
    assert len(err.strip().splitlines()) == 1, err
    return code, err.strip()


@pytest.mark.parametrize(("argv", "english"), MISTAKES, ids=[" ".join(a) for a, _ in MISTAKES])
def test_is_a_mistake_found_after_parsing_said_in_the_language_chosen(
    argv, english, folder, capsys
):
    code, en = _said(argv, capsys)
    assert (code, en) == (2, english)
    zh_code, zh = _said([*argv, "--lang", "zh"], capsys)
    command = " ".join(argv[:1])
    assert zh_code == code and zh.startswith(f"simlab {command}：错误："), zh
    assert re.search(r"[\u4e00-\u9fff]", zh), zh
    assert english_runs(zh) == [], (zh, english_runs(zh))
    assert problems(zh) == [], (zh, problems(zh))
    flags = re.findall(r"(?<![\w-])--[\w-]+", english)
    assert re.findall(r"(?<![\w-])--[\w-]+", zh) == flags  # the same flags, in the same order


def test_does_the_english_run_check_find_an_english_sentence():
    assert english_runs("--db：cannot open the ledger 'x'") == ["cannot open the ledger"]
    assert english_runs("--db：无法打开账本 'x y z' 与 a/b c d") == []


def test_is_a_csv_that_cannot_be_written_after_grading_said_in_chinese(folder, capsys):
    """The spreadsheet written after the grading (exit status 3) says why in Chinese too."""
    from types import SimpleNamespace

    from simlab.cli.grade_class import show_results

    def refuse():
        raise PermissionError(13, "Permission denied")

    args = SimpleNamespace(json=True, lang="zh", csv="g.csv")
    assert show_results(args, [], [], None, None, [], lambda *a: "", lambda *a: "", refuse) == 3
    err = capsys.readouterr().err.strip()
    assert err == "simlab grade：无法写入 g.csv：权限不足", err


def test_does_a_failed_translation_check_say_each_problem_in_chinese(tmp_path, capsys):
    """translate --check in a repository whose notebook and rubrics have no translation: exit
    status 1 in both languages, each problem and the summary in Chinese under --lang zh."""
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# Hello", id="c1")]
    (tmp_path / "notebooks").mkdir()
    nbformat.write(nb, tmp_path / "notebooks" / "01_x.ipynb")
    argv = ["translate", "--check", "--root", str(tmp_path)]
    code, out, err = run_cli(argv, capsys)
    assert code == 1 and "01_x.ipynb: not translated yet" in out
    assert "translation check failed: 7 problem(s)" in err
    zh_code, zh_out, zh_err = run_cli([*argv, "--lang", "zh"], capsys)
    lines = [*zh_out.splitlines(), *zh_err.splitlines()]
    assert zh_code == 1 and len(lines) == len(out.splitlines()) + len(err.splitlines()) == 8
    for line in lines:
        assert re.search(r"[\u4e00-\u9fff]", line) and english_runs(line) == [], line
        assert problems(line) == [], (line, problems(line))


# -------------------------------------------------------------- the libraries' messages ----


def _raised(fn, *args) -> str:
    try:
        fn(*args)
    except Exception as exc:  # noqa: BLE001  (each library raises its own class)
        return str(exc)
    raise AssertionError(f"{fn.__name__}{args} raised nothing")


def _library_messages(tmp_path) -> list[str]:
    """Messages the libraries raise for mistakes the command line passes on, made by calling
    them: a template of simlab/cli/causes.py must keep matching what they say."""
    from simlab.grading.lateness import parse_policy, parse_time
    from simlab.grading.nbgrader import read_course
    from simlab.grading.overrides import parse_points, parse_question
    from simlab.grading.roster import read_roster
    from simlab.i18n.store import load_store
    from simlab.ledger.targets import sqlite_path
    from simlab.rollout.versions import parse_version
    from simlab.sim.schedule import Schedule

    bad = tmp_path / "bad.csv"
    bad.write_bytes(b"Student,ID,notebook\n\xff\n")
    twice = tmp_path / "twice.csv"
    twice.write_text("Student,ID,notebook\nA,a1,x.ipynb\nB,a1,y.ipynb\n", encoding="utf-8")
    store = tmp_path / "store.json"
    store.write_text('{"cells": {"a": {"zh": 1}}}', encoding="utf-8")
    known = {("fencing", "cancel-limits"): 2.0}

    def loads(text):
        return Schedule.loads(text, source="s.json")

    return [
        _raised(loads, "[]"),
        _raised(loads, '{"seed": 1, "nope": 2}'),
        _raised(loads, '{"seed": 1, "faults": 3}'),
        _raised(loads, '{"seed": 1, "ledger": "my ledger"}'),
        _raised(loads, '{"seed": 1, "scenario": {"nope": 1}}'),
        _raised(loads, '{"seed": 1, "faults": [{"kind": "crash"}]}'),
        _raised(Schedule.load, tmp_path),
        _raised(read_roster, str(bad)),
        _raised(read_roster, str(twice)),
        _raised(parse_time, "2026-12-01T23:59:59"),
        _raised(parse_policy, "10%/day,cap=50%,cap=60%"),
        _raised(parse_policy, "200%/day"),
        _raised(parse_question, "fencing", known),
        _raised(parse_question, "nope/x", known),
        _raised(parse_question, "fencing/x", known),
        _raised(parse_points, "9", 2.0),
        _raised(read_course, str(tmp_path), "a1"),
        _raised(sqlite_path, "mysql://x"),
        _raised(parse_version, "nope"),
        _raised(load_store, store),
        _raised(load_store, twice),
    ]


def test_is_each_library_message_the_command_line_passes_on_found_in_chinese(tmp_path):
    for english in _library_messages(tmp_path):
        zh = cause_in(english, "zh")
        assert zh != english and english_runs(zh) == [], (english, zh)
        assert cause_in(english, "en") == english


def test_is_a_missing_optional_part_named_in_chinese():
    from simlab.extras import EXTRAS, MissingExtra

    for extra in EXTRAS.values():
        english = str(MissingExtra(extra))
        zh = cause_in(english, "zh")
        assert f"pip install 'simlab[{extra.name}]'" in zh and english_runs(zh) == [], zh


def test_does_a_message_no_template_knows_stay_as_it_is():
    assert cause_in("something nobody wrote: x", "zh") == "something nobody wrote: x"


def test_does_the_most_specific_reading_win():
    """A path followed by a message reads as the path and the message, not as a longer field
    of a template that starts with one."""
    english = "s.json: scenario: tasks must be >= 0, got -1"
    assert cause_in(english, "zh") == "s.json：scenario：tasks 必须 >= 0，而不是 -1"


# ------------------------------------------------------------------------ the catalogs ----


def _named_keys() -> list[tuple[str, str]]:
    """(file, key) of every ``UsageError("key", ...)`` and ``mistake_says("key", ...)`` in
    simlab/cli; an f-string key is kept up to its first field (``cannot_write.``)."""
    found = []
    for path in sorted(CLI.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and node.args):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            if name not in ("UsageError", "mistake_says"):
                continue
            key = node.args[0]
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                found.append((path.name, key.value))
            elif isinstance(key, ast.JoinedStr) and isinstance(key.values[0], ast.Constant):
                found.append((path.name, key.values[0].value))
    return found


def test_is_every_message_the_command_line_names_in_both_languages():
    named = _named_keys()
    assert len(named) > 60
    for where, key in named:
        if key.endswith("."):
            assert any(k.startswith(key) for k in mistakes.EN), (where, key)
        else:
            assert key in mistakes.EN and key in mistakes.ZH, (where, key)
    assert set(mistakes.EN) == set(mistakes.ZH)
    assert set(causes.EN) == set(causes.ZH)


def test_is_no_mistake_written_outside_the_catalog():
    """No command raises a UsageError from an English sentence of its own."""
    for path in sorted(CLI.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "UsageError":
                key = node.args[0]
                text = key.value if isinstance(key, ast.Constant) else ""
                assert " " not in text, (path.name, ast.unparse(node))


def test_does_translate_check_name_a_catalog_problem(monkeypatch):
    from simlab.i18n.build import catalog_problems

    assert catalog_problems() == []
    zh = {k: v for k, v in mistakes.ZH.items() if k != "db"}
    monkeypatch.setattr(mistakes, "ZH", {**zh, "no_sandbox": "拒绝评分:{why}"})
    found = catalog_problems()
    assert any("cli_mistakes.db has no zh" in p for p in found), found
    assert any("cli_mistakes.no_sandbox" in p and "full-width" in p for p in found), found
