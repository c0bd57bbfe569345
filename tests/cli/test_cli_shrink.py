"""Do ``simlab shrink``, ``simlab simulate --schedule`` and ``simlab bench shrink`` behave as
documented: the JSON keys, the exit statuses, the saved schedule that replays byte for byte,
and one line with exit status 2 for a bad schedule file?"""

from __future__ import annotations

import json

import pytest

from simlab.sim.schedule import Schedule
from tests.strategies import run_cli

run = run_cli  # (exit status, stdout, stderr) of simlab ARGV

UNFENCED_7 = ["--seed", "7", "--variant", "unfenced"]


def test_does_shrink_json_carry_the_documented_keys_and_exit_1(tmp_path, capsys):
    out_file = tmp_path / "minimal.json"
    code, out, _ = run(["shrink", *UNFENCED_7, "--json", "--out", str(out_file)], capsys)
    assert code == 1
    data = json.loads(out)  # exactly one JSON object
    for key in ("faults", "violations", "story", "simulations", "original_faults", "replay"):
        assert key in data
    assert 1 <= len(data["faults"]) <= 3 < data["original_faults"]
    assert data["violations"] and data["simulations"] > 1
    assert any("rule (a)" in sentence for sentence in data["story"])
    assert data["replay"] == f"simlab simulate --schedule {out_file}"
    assert Schedule.load(out_file).faults == tuple(data["faults"])


def test_does_the_saved_schedule_replay_the_minimal_run_byte_for_byte(tmp_path, capsys):
    saved = tmp_path / "minimal.json"
    first = tmp_path / "shrunk.jsonl"
    again = tmp_path / "replayed.jsonl"
    code, out, _ = run(
        ["shrink", *UNFENCED_7, "--out", str(saved), "--history", str(first)], capsys
    )
    assert code == 1 and "story:" in out and "replay: simlab simulate --schedule" in out
    code, out, _ = run(["simulate", "--schedule", str(saved), "--history", str(again)], capsys)
    assert code == 1 and "VIOLATION" in out
    assert f"replay: simlab simulate --schedule {saved}" in out
    assert again.read_text() == first.read_text()


def test_does_simulate_save_a_schedule_that_replays_the_run(tmp_path, capsys):
    saved, first, again = tmp_path / "s.json", tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    argv = ["simulate", "--tasks", "30", "--seed", "5", "--pause-rate", "0.2"]
    code1, _, _ = run([*argv, "--save-schedule", str(saved), "--history", str(first)], capsys)
    code2, _, _ = run(["simulate", "--schedule", str(saved), "--history", str(again)], capsys)
    assert code1 == code2
    assert len(Schedule.load(saved)) > 0
    assert again.read_text() == first.read_text()


def test_does_a_clean_run_exit_0_and_say_so(capsys):
    code, out, _ = run(["shrink", "--tasks", "30", "--seed", "3"], capsys)
    assert code == 0
    assert "no rule broken" in out and "nothing to shrink" in out


def test_does_story_draw_the_numbered_picture(tmp_path, capsys):
    png = tmp_path / "story.png"
    code, out, _ = run(["shrink", *UNFENCED_7, "--story", str(png)], capsys)
    assert code == 1 and f"story picture: {png}" in out
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def _spoiled(tmp_path, capsys, spoil) -> str:
    saved = tmp_path / "good.json"
    run(["simulate", "--tasks", "10", "--seed", "2", "--save-schedule", str(saved)], capsys)
    data = json.loads(saved.read_text())
    text = spoil(data)
    bad = tmp_path / "bad.json"
    bad.write_text(text if isinstance(text, str) else json.dumps(data))
    return str(bad)


BAD_FILES = {
    "not-json": lambda d: "{ this is not json",
    "unknown-kind": lambda d: d["faults"].append({"kind": "meteor", "task": "t0001"}),
    "no-such-task": lambda d: d["faults"].append({"kind": "cancel", "task": "t0042", "at": 1.0}),
    "negative-time": lambda d: d["faults"].append(
        {"kind": "pause", "task": "t0001", "step": 0, "attempt": 0, "length": -1.5}
    ),
    "negative-cancel": lambda d: d["faults"].append({"kind": "cancel", "task": "t0002", "at": -4}),
}


@pytest.mark.parametrize("command", ["simulate", "shrink"])
@pytest.mark.parametrize("spoil", list(BAD_FILES.values()), ids=list(BAD_FILES))
def test_is_a_bad_schedule_file_one_line_and_exit_2(command, spoil, tmp_path, capsys):
    bad = _spoiled(tmp_path, capsys, spoil)
    code, out, err = run([command, "--schedule", bad], capsys)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert bad in err


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "--schedule", "/no/such/schedule.json"],
        ["shrink", "--schedule", "/no/such/schedule.json"],
        ["shrink", "--variant", "optimistic"],
        ["shrink", "--out", "/no/such/folder/s.json"],
        ["bench", "shrink", "--seeds", "0"],
    ],
)
def test_is_bad_input_one_line_and_exit_2(argv, capsys):
    code, out, err = run(argv, capsys)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_does_a_schedule_refuse_scenario_flags_beside_it(tmp_path, capsys):
    saved = tmp_path / "s.json"
    run(["simulate", "--tasks", "10", "--save-schedule", str(saved)], capsys)
    code, _, err = run(["simulate", "--schedule", str(saved), "--tasks", "20"], capsys)
    assert code == 2 and "--tasks" in err


def test_does_bench_shrink_report_the_ratio_against_simulate(capsys):
    argv = ["bench", "shrink", "--variants", "unfenced", "--seeds", "1", "--first-seed", "7"]
    code, out, _ = run([*argv, "--rounds", "1", "--tasks", "40"], capsys)
    assert code == 0
    assert "simulate-equivalents (goal <= 60)" in out
    row = next(line for line in out.splitlines() if line.startswith("unfenced"))
    assert row.split()[1] == "7"


def test_does_shrink_take_a_saved_run_and_replay_it_over_a_file_ledger(tmp_path, capsys):
    saved, db = tmp_path / "run.json", tmp_path / "minimal.sqlite"
    argv = ["simulate", "--seed", "2", "--variant", "unfenced", "--pause-rate", "0.2"]
    assert run([*argv, "--tasks", "30", "--save-schedule", str(saved)], capsys)[0] == 1
    code, out, _ = run(["shrink", "--schedule", str(saved), "--json", "--db", str(db)], capsys)
    data = json.loads(out)
    assert code == 1 and 1 <= len(data["faults"]) < data["original_faults"]
    assert data["original_faults"] == len(Schedule.load(saved))
    assert data["replay"].startswith(f"simlab shrink --schedule {saved} --out schedule.json")
    assert db.exists() and db.stat().st_size > 0
