"""Does ``simlab simulate`` / ``simlab sweep`` / ``simlab bench sim`` behave as documented?"""

from __future__ import annotations

import csv
import json

import pytest

from tests.strategies import flag_error, run_cli

SMALL = ["--tasks", "30"]


run = run_cli  # (exit status, stdout, stderr) of simlab ARGV


def test_does_simulate_print_a_verdict_and_a_replay(capsys):
    code, out, _ = run(["simulate", *SMALL, "--seed", "3"], capsys)
    assert code == 0
    assert "verdict: OK" in out
    assert "replay: simlab simulate --seed 3 --tasks 30" in out


def test_does_json_output_carry_the_documented_keys(capsys):
    code, out, _ = run(["simulate", *SMALL, "--json"], capsys)
    data = json.loads(out)  # exactly one JSON object
    for key in ("seed", "variant", "completed", "stale_rejected", "violations", "replay"):
        assert key in data
    assert data["variant"] == "fenced" and isinstance(data["violations"], list)
    assert code == (1 if data["violations"] else 0)


def test_does_unfenced_with_pauses_exit_1_and_say_why(capsys):
    code, out, _ = run(
        ["simulate", "--variant", "unfenced", "--pause-rate", "0.2", "--seed", "2"], capsys
    )
    assert code == 1
    assert "VIOLATION" in out and "was granted to" in out
    assert "--variant unfenced" in out


@pytest.mark.parametrize(
    "argv",
    [
        ["--crash-rate", "-0.5"],
        ["--workers", "0"],
        ["--variant", "optimistic"],
        ["--tasks", "many"],
        ["--db", "/no/such/folder/ledger.sqlite"],
        ["--faults", "most"],
        ["--faults", "all", "--no-idempotency-keys"],
        ["--send-pause-rate", "0.1", "--workload", "agent"],
    ],
)
def test_is_bad_input_one_line_and_exit_2(argv, capsys):
    code, out, err = run(["simulate", *argv], capsys)
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


@pytest.mark.parametrize(
    "argv",
    [
        ["--crash-rate", "2"],
        ["--pull", "--max-attempts", "2"],
        ["--pull", "--variant", "unfenced"],
        ["--workload", "agent", "--steps", "2"],
        ["--faults", "all", "--no-idempotency-keys", "--workload", "agent"],
        ["--send-pause-rate", "0.1", "--workload", "agent"],
        ["--time-cap", "1"],
        ["--pause-time", "0.1"],
        ["--recheck-gap", "1"],
    ],
)
@pytest.mark.parametrize("command", ["simulate", "shrink"])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_does_a_bad_setting_name_the_flag_as_argparse_does(command, argv, lang, capsys):
    """A setting the scenario refuses is said with its flag, never its Python name, in the
    language ``--lang`` asks."""
    flag_error([command, *argv, "--lang", lang], capsys)


def test_is_an_existing_db_refused_rather_than_mixed_with(tmp_path, capsys):
    db = tmp_path / "old.sqlite"
    db.write_bytes(b"")
    code, _, err = run(["simulate", *SMALL, "--db", str(db)], capsys)
    assert code == 2 and "exists" in err
    assert db.read_bytes() == b""


def test_does_a_file_ledger_tell_the_same_story_as_memory(tmp_path, capsys):
    db, h_file, h_mem = tmp_path / "run.sqlite", tmp_path / "f.jsonl", tmp_path / "m.jsonl"
    run(
        ["simulate", *SMALL, "--variant", "racy-claim", "--db", str(db), "--history", str(h_file)],
        capsys,
    )
    run(["simulate", *SMALL, "--variant", "racy-claim", "--history", str(h_mem)], capsys)
    assert db.exists()
    assert h_file.read_text() == h_mem.read_text() != ""


def test_does_timeline_write_a_png(tmp_path, capsys):
    png = tmp_path / "t.png"
    run(["simulate", *SMALL, "--timeline", str(png)], capsys)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_does_sweep_write_a_csv_row_per_run_and_a_plot(tmp_path, capsys):
    out_csv, out_png = tmp_path / "s.csv", tmp_path / "s.png"
    code, out, _ = run(
        [
            "sweep",
            "--tasks",
            "15",
            "--rates",
            "0,0.3",
            "--seeds",
            "2",
            "--variants",
            "fenced,unfenced",
            "--csv",
            str(out_csv),
            "--plot",
            str(out_png),
            "--quiet",
        ],
        capsys,
    )
    assert code == 0
    rows = list(csv.DictReader(out_csv.open()))
    assert len(rows) == 2 * 2 * 2
    assert {r["variant"] for r in rows} == {"fenced", "unfenced"}
    assert {
        "rate",
        "seed",
        "completed",
        "wasted_steps",
        "duplicate_sends",
        "violations",
        "replay",
    } <= rows[0].keys()
    assert all(r["violations"] == "0" for r in rows if r["variant"] == "fenced")
    assert out_png.read_bytes()[:4] == b"\x89PNG"
    assert "csv:" in out


def test_is_a_bad_sweep_refused(tmp_path, capsys):
    code, _, err = run(["sweep", "--fault", "gremlins", "--csv", str(tmp_path / "x.csv")], capsys)
    assert code == 2 and "--fault gremlins: unknown fault" in err
    code, _, err = run(
        ["sweep", "--variants", "fenced,nope", "--csv", str(tmp_path / "x.csv")], capsys
    )
    assert code == 2 and "--variants nope: unknown variant" in err
    assert "--workers" in run(["sweep", "--workers", "0", "--plot", ""], capsys)[2]


def test_does_faults_all_run_the_preset_and_replay_as_such(capsys):
    code, out, _ = run(["simulate", "--faults", "all", "--seed", "2"], capsys)
    assert code == 0 and "verdict: OK" in out
    assert "replay: simlab simulate --seed 2 --faults all\n" in out
    code, out, _ = run(["simulate", "--faults", "all", "--crash-rate", "0", "--seed", "2"], capsys)
    assert "replay: simlab simulate --seed 2 --faults all --crash-rate 0.0\n" in out
    code, out, _ = run(
        ["simulate", "--faults", "all", "--variant", "unfenced", "--seed", "2"], capsys
    )
    assert code == 1 and "VIOLATION" in out


def test_is_faults_all_with_a_schedule_refused(tmp_path, capsys):
    path = tmp_path / "s.json"
    run(["simulate", *SMALL, "--save-schedule", str(path)], capsys)
    code, out, err = run(["simulate", "--schedule", str(path), "--faults", "all"], capsys)
    assert code == 2 and "drop --faults" in err


def test_does_the_scale_bench_report_each_size_and_its_growth(capsys):
    code, out, _ = run(["bench", "sim", "--tasks", "20,40"], capsys)
    assert code == 0
    lines = [line.split() for line in out.splitlines()[2:]]
    assert [line[0] for line in lines] == ["20", "40"] and "goal" in out
    code, _, err = run(["bench", "sim", "--tasks", "20,zero"], capsys)
    assert code == 2 and "not a whole number" in err
