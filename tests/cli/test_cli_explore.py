"""Does ``simlab explore`` keep its contract: exit 0 with a certificate, 1 with the shortest
counterexample (saved, told, replayable), 2 for a usage mistake, 3 when ``--time-limit`` stops
it; ``--json`` with the documented keys; the verdict in Chinese with ``--lang zh``; and the
same search over a SQLite file and over PostgreSQL?"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

import pytest

from simlab.sim.scenario import Scenario
from simlab.sim.schedule import Schedule
from tests.strategies import flag_error, run_cli

KEYS = ("certified", "schedules", "states", "seconds", "scope", "lengths")


def test_is_the_kits_ledger_certified_with_exit_0(capsys):
    code, out, _ = run_cli(["explore", "--max-faults", "1", "--json"], capsys)
    assert code == 0
    data = json.loads(out)
    assert all(k in data for k in KEYS) and data["certified"] is True
    assert data["scope"] == {**data["scope"], "tasks": 2, "workers": 2, "steps": 2}
    assert data["scope"]["max_faults"] == 1 and data["scope"]["variant"] == "fenced"
    assert "faults" not in data and data["states"] <= data["schedules"]


def test_does_a_counterexample_exit_1_saved_told_and_replayable(tmp_path, capsys):
    saved = tmp_path / "cx.json"
    argv = ["explore", "--variant", "unfenced", "--out", str(saved), "--json"]
    code, out, _ = run_cli(argv, capsys)
    assert code == 1
    data = json.loads(out)
    assert data["certified"] is False and data["faults"] == 2
    assert data["schedule_file"] == str(saved) and data["replay"].endswith(str(saved))
    assert any("rule (a)" in s for s in data["story"])
    assert len(Schedule.load(saved).faults) == 2
    code, out, _ = run_cli(["simulate", "--schedule", str(saved)], capsys)
    assert code == 1  # the replay breaks the same rule


def test_does_the_text_say_the_certificate_and_what_it_covers(capsys):
    code, out, _ = run_cli(["explore", "--max-faults", "1"], capsys)
    assert code == 0
    first, second = out.splitlines()[:2]
    assert first.startswith("certified: no schedule of at most 1 fault over 2 task(s)")
    assert "seed(s) 1" in second and "pauses of 1.5, 4.5, 12 time units" in second
    code, out, _ = run_cli(["explore", "--max-faults", "1", "--lang", "zh"], capsys)
    assert code == 0 and out.startswith("已证明：") and "，" in out


def test_does_a_limit_on_attempts_reach_the_ledger_and_the_certificate(capsys):
    """With --max-attempts the scope names the limit, in the JSON and in both languages; a
    scope without it names none."""
    limit = ["--max-faults", "1", "--max-attempts", "1"]
    code, out, _ = run_cli(["explore", *limit, "--json"], capsys)
    limited = json.loads(out)
    assert code == 0 and limited["certified"] and limited["scope"]["max_attempts"] == 1
    plain = json.loads(run_cli(["explore", "--max-faults", "1", "--json"], capsys)[1])
    assert "max_attempts" not in plain["scope"]
    code, out, _ = run_cli(["explore", "--max-faults", "1", "--max-attempts", "1"], capsys)
    said = "variant fenced, leases of ttl 3, at most 1 attempt(s) a task breaks"
    assert code == 0 and said in out
    zh = run_cli(["explore", "--max-faults", "1", "--max-attempts", "1", "--lang", "zh"], capsys)
    assert "每个任务至多 1 次尝试" in zh[1]


def test_does_the_ttl_reach_the_workers_and_the_certificate(capsys):
    """With --ttl the workers ask for leases of that length: the scope names it, in the JSON
    and in both languages, and the leases the run granted run for it; a scope without it names
    the simulator's default, since a certificate covers one ttl."""
    code, out, _ = run_cli(["explore", "--max-faults", "0", "--ttl", "5", "--json"], capsys)
    data = json.loads(out)
    assert code == 0 and data["certified"] and data["scope"]["ttl"] == 5.0
    plain = json.loads(run_cli(["explore", "--max-faults", "0", "--json"], capsys)[1])
    assert plain["scope"]["ttl"] == Scenario().ttl == 3.0
    assert "leases of ttl 3 breaks" in run_cli(["explore", "--max-faults", "0"], capsys)[1]
    assert (
        "leases of ttl 5 breaks"
        in run_cli(["explore", "--max-faults", "0", "--ttl", "5"], capsys)[1]
    )
    zh = run_cli(["explore", "--max-faults", "0", "--ttl", "5", "--lang", "zh"], capsys)
    assert "租约 ttl 为 5" in zh[1]


def test_does_an_email_at_every_step_reach_the_runs_and_the_certificate(capsys):
    """With --effects all the scope names it, in the JSON and in both languages, and its runs
    send more e-mails (more strike points: more schedules); without it the scope names none."""
    argv = ["explore", "--max-faults", "1", "--effects", "all"]
    code, out, _ = run_cli([*argv, "--json"], capsys)
    every = json.loads(out)
    assert code == 0 and every["certified"] and every["scope"]["effects"] == "all"
    plain = json.loads(run_cli(["explore", "--max-faults", "1", "--json"], capsys)[1])
    assert "effects" not in plain["scope"] and plain["schedules"] < every["schedules"]
    said = "variant fenced, leases of ttl 3, an e-mail at every step breaks"
    assert said in run_cli(argv, capsys)[1]
    assert "每个步骤都发邮件" in run_cli([*argv, "--lang", "zh"], capsys)[1]


def test_does_a_certificate_name_the_modes_it_did_not_search(capsys):
    """A certificate's last line names each mode of the callers left off, with its flag, in both
    languages; a mode that was on is not named there; with every mode on the line is absent.
    A count of one is said in the singular."""
    code, out, _ = run_cli(["explore", "--max-faults", "0", "--retries"], capsys)
    lines = out.splitlines()
    assert code == 0 and len(lines) == 3 and "1 schedule, 1 distinct state," in lines[0]
    unsearched = lines[2]
    assert unsearched.startswith("  not searched (turn each on with its flag): ")
    for flag in ("--pull", "--checkpoints", "--releases", "--late"):
        assert f"({flag})" in unsearched
    assert "--retries" not in unsearched
    zh = run_cli(["explore", "--max-faults", "0", "--retries", "--lang", "zh"], capsys)[1]
    assert "未搜索（各用其参数开启）：" in zh and "（--pull）" in zh and "--retries" not in zh
    every = ["--pull", "--checkpoints", "--retries", "--releases", "--late"]
    code, out, _ = run_cli(["explore", "--max-faults", "0", *every], capsys)
    assert code == 0 and len(out.splitlines()) == 2 and "not searched" not in out


@pytest.mark.parametrize(
    ("flag", "en", "zh", "more"),
    [
        ("--retries", "callers resending a call whose reply was lost", "调用方重发", True),
        ("--releases", "workers releasing a task whose lease ended in a pause", "交还", False),
        ("--late", "calls held in the network until after their worker gave", "被网络扣住", True),
    ],
)
def test_does_a_mode_of_the_callers_reach_the_runs_and_the_certificate(flag, en, zh, more, capsys):
    """With --retries, --releases or --late the scope names the mode, in the JSON and in both
    languages; without it the scope names none. A lost reply strikes at every call and a held
    call at every record and save (more schedules); a release changes what a worker does after
    a pause, not where faults strike."""
    argv = ["explore", "--max-faults", "1", flag]
    code, out, _ = run_cli([*argv, "--json"], capsys)
    moded = json.loads(out)
    mode = flag.removeprefix("--")
    assert code == 0 and moded["certified"] and moded["scope"][mode] is True
    plain = json.loads(run_cli(["explore", "--max-faults", "1", "--json"], capsys)[1])
    assert mode not in plain["scope"]
    if more:
        assert plain["schedules"] < moded["schedules"]
    else:
        assert plain["schedules"] == moded["schedules"]
    assert en in run_cli(argv, capsys)[1]
    assert zh in run_cli([*argv, "--lang", "zh"], capsys)[1]


@pytest.mark.parametrize(
    "argv",
    [
        ["--effects", "some"],
        ["--tasks", "0"],
        ["--max-faults", "-1"],
        ["--variant", "nope"],
        ["--lengths", "1,-2"],
        ["--lengths", "1e308", "--max-faults", "1"],
        ["--lengths", "1e308", "--max-faults", "0"],
        ["--time-limit", "0"],
        ["--lang", "fr"],
        ["--jobs", "0"],
        ["--jobs", "2", "--db", "explore.sqlite"],
        ["--max-attempts", "0"],
        ["--max-attempts", "two"],
        ["--ttl", "0"],
        ["--ttl", "nan"],
        ["--ttl", "1e308"],
    ],
)
def test_is_a_usage_mistake_one_line_and_exit_2(argv, capsys):
    code, out, err = run_cli(["explore", *argv], capsys)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) <= 2 and "Traceback" not in err


@pytest.mark.parametrize(
    "argv",
    [
        ["--max-faults", "-1"],
        ["--pull", "--max-attempts", "2"],
        ["--tasks", "0"],
        ["--seeds", "0"],
        ["--variant", "nope"],
        ["--retries", "--variant", "unfenced"],
        ["--lengths", "1,-2"],
        ["--lengths", "1e308"],
    ],
)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_does_a_usage_mistake_name_the_flag_as_argparse_does(argv, lang, capsys):
    """Whether argparse or the search's scope refuses it, a mistake on the command line names
    the flag (never the Python name) in one style, in the language ``--lang`` asks."""
    flag_error(["explore", *argv, "--lang", lang], capsys)


@pytest.mark.parametrize(
    ("argv", "en", "zh"),
    [
        (["--max-faults", "0"], "certified: the run without faults over", "没有故障的运行不违反"),
        (["--max-faults", "1"], "no schedule of at most 1 fault over", "至多 1 个故障的调度"),
        (["--max-faults", "2", "--tasks", "1", "--steps", "1"], "at most 2 faults over", "至多 2"),
        (["--variant", "racy-claim"], "with 1 fault over", "（没有故障的运行通过了）"),
        (["--variant", "unfenced"], "(every schedule of at most 1 fault passed)", "至多 1 个"),
    ],
)
def test_does_the_verdict_say_its_counts_of_faults_naturally(argv, en, zh, tmp_path, capsys):
    """0 and 1 read as a run without faults and one fault, never "at most 0 fault(s)"; the
    Chinese verdict keeps no space beside a full-width mark."""
    argv = ["explore", *argv, "--out", str(tmp_path / "cx.json")]
    first = run_cli(argv, capsys)[1].splitlines()[0]
    assert en in first and "(s) " not in first.split(" over ")[0], first
    assert "at most 0" not in first and "fault(s)" not in first, first
    from simlab.i18n.punctuation import problems

    told = run_cli([*argv, "--lang", "zh"], capsys)[1].splitlines()
    for line in told:
        assert not problems(line), line
    assert zh in told[0]


def test_does_the_help_list_the_variants(capsys):
    from simlab.sim.scenario import VARIANTS

    code, out, _ = run_cli(["explore", "--help"], capsys)
    assert code == 0 and "--variant {" + ",".join(VARIANTS) + "}" in out


def test_does_a_time_limit_stop_without_a_certificate_and_exit_3(capsys):
    code, out, _ = run_cli(
        ["explore", "--max-faults", "3", "--time-limit", "0.1", "--json"], capsys
    )
    assert code == 3
    data = json.loads(out)
    assert data["certified"] is False and data["stopped"] == "time-limit"
    # told as text, a stopped search says what it covered and what it did not search
    code, out, _ = run_cli(["explore", "--max-faults", "3", "--time-limit", "0.1"], capsys)
    assert code == 3 and out.startswith("stopped by --time-limit, not certified")
    assert "not searched (turn each on with its flag)" in out


def test_does_a_sqlite_file_ledger_give_the_same_answer(tmp_path, capsys):
    db = tmp_path / "explore.sqlite"
    code, out, _ = run_cli(["explore", "--max-faults", "1", "--db", str(db), "--json"], capsys)
    assert code == 0 and db.exists()
    memory = run_cli(["explore", "--max-faults", "1", "--json"], capsys)[1]
    assert json.loads(out)["schedules"] == json.loads(memory)["schedules"]
    code, _, err = run_cli(["explore", "--db", str(db)], capsys)
    assert code == 2 and "exists" in err  # runs never mix


@pytest.mark.parametrize("variant", ["fenced", "racy-claim"])
def test_does_postgres_give_the_same_answer_and_leave_no_schema(
    fresh_postgres, capsys, tmp_path, variant
):
    url = fresh_postgres()
    out_file = str(tmp_path / "cx.json")
    argv = ["explore", "--max-faults", "1", "--variant", variant, "--json", "--out", out_file]
    code, out, err = run_cli([*argv, "--db", url], capsys)
    assert code == (0 if variant == "fenced" else 1), err  # the racy claim: one duplicate
    memory = run_cli(argv, capsys)[1]
    for key in ("certified", "schedules", "states", "faults", "findings"):
        assert json.loads(out).get(key) == json.loads(memory).get(key), key
    import psycopg

    with psycopg.connect(url) as conn:
        left = conn.execute(
            "SELECT count(*) FROM information_schema.schemata "
            "WHERE schema_name LIKE 'simlab_explore_%'"
        ).fetchone()[0]
    assert left == 0


def test_does_the_simulator_pages_transcript_say_what_the_command_prints(capsys):
    from pathlib import Path

    page = (Path(__file__).parents[2] / "docs" / "simulator.md").read_text()
    shown = page.split("$ simlab explore --max-faults 1")[1].splitlines()[1:4]
    code, out, _ = run_cli(["explore", "--max-faults", "1"], capsys)
    printed = out.splitlines()[:3]
    assert code == 0

    def without_seconds(line: str) -> str:
        return line.rsplit(", ", 1)[0] if line.endswith(" s") else line

    assert [without_seconds(x) for x in shown] == [without_seconds(x) for x in printed]


@pytest.mark.parametrize("variant", ["unfenced", "racy-claim"])
def test_does_a_counterexample_speak_chinese_with_lang_zh(tmp_path, capsys, variant):
    from simlab.i18n.punctuation import problems
    from tests.checker.test_words import english_prose

    saved = str(tmp_path / "cx.json")
    argv = ["explore", "--variant", variant, "--lang", "zh", "--out", saved]
    code, out, _ = run_cli(argv, capsys)
    assert code == 1 and out.startswith("反例：") and "经过：" in out
    for line in out.splitlines():
        assert not english_prose(line), (line, english_prose(line))
        assert not problems(line), line
    code, out, _ = run_cli([*argv, "--json"], capsys)
    data = json.loads(out)
    assert all(not english_prose(s) for s in data["story"] + data["findings"]), data["story"]


def test_does_a_reader_that_left_end_the_command_quietly():
    """``simlab explore --json | head -c 10``: a reader that leaves before the answer is written
    ends the command as SIGPIPE ends one (status 141), with no traceback. The pipe's read end
    is closed before the command starts, so its write always finds the reader gone."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "simlab", "explore", "--max-faults", "0", "--json"],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    finally:
        os.close(write_end)
    assert done.stderr == ""
    assert done.returncode == 128 + signal.SIGPIPE


def test_does_a_certificate_say_it_drew_no_picture_asked_for(tmp_path, capsys):
    story, timeline = tmp_path / "story.png", tmp_path / "timeline.png"
    argv = ["explore", "--max-faults", "0", "--story", str(story), "--timeline", str(timeline)]
    code, out, _ = run_cli(argv, capsys)
    assert code == 0 and "no picture drawn" in out
    assert not story.exists() and not timeline.exists()
    code, out, _ = run_cli([*argv, "--lang", "zh"], capsys)
    assert code == 0 and "没有画图" in out
    assert "no picture drawn" not in run_cli(["explore", "--max-faults", "0"], capsys)[1]
