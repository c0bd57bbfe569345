"""Do ``simlab simulate`` and ``simlab explore`` spell a mode the same way?

A mode is a switch in every command (``--pull`` on, ``--no-pull`` off); the old spelling of
``simulate`` (``--pull yes|no``, in saved replay commands) still gives the same run, the replay
a run prints uses the switch, and the flags the commands share are shown the same way.
"""

from __future__ import annotations

import hashlib
import json
import re

import pytest

from simlab.cli import _command_parser, build_parser
from simlab.cli.args import Switch
from simlab.sim.result import replay_command
from simlab.sim.scenario import Scenario
from tests.strategies import run_cli

SMALL = ["--tasks", "12", "--seed", "5", "--duplicate-rate", "0.2"]


def _run(argv, tmp_path, capsys, name) -> tuple[dict, str]:
    """The ``--json`` answer of ``simlab simulate ARGV`` and the digest of its history."""
    history = tmp_path / f"{name}.jsonl"
    code, out, err = run_cli(["simulate", *argv, "--json", "--history", str(history)], capsys)
    assert code in (0, 1), err
    return json.loads(out), hashlib.sha256(history.read_bytes()).hexdigest()


@pytest.mark.parametrize(
    ("switch", "old", "shown"),
    [
        (["--pull"], [["--pull", "yes"], ["--pull=yes"], ["--pull", "on"], ["--pull", "1"]], 1),
        (["--retries"], [["--retries", "yes"], ["--retries", "true"]], 1),
        (["--no-idempotency-keys"], [["--idempotency-keys", "no"], ["--idempotency-keys=off"]], 1),
        (["--checkpoints", "--releases"], [["--checkpoints", "yes", "--releases", "yes"]], 2),
        (["--late", "--no-late"], [["--late", "yes", "--late", "no"], []], 0),
    ],
)
def test_do_the_switch_and_the_old_spelling_give_the_same_run(switch, old, shown, tmp_path, capsys):
    """The same history byte for byte and the same answer; the replay names the switches that
    changed a default (the last of two given wins)."""
    want, digest = _run([*SMALL, *switch], tmp_path, capsys, "switch")
    assert len(set(switch) & set(want["replay"].split())) == shown, want["replay"]
    for i, argv in enumerate(old):
        got, got_digest = _run([*SMALL, *argv], tmp_path, capsys, f"old{i}")
        assert got_digest == digest, argv
        assert got == want, argv


def test_does_the_replay_use_the_switch_and_replay_the_same_run(tmp_path, capsys):
    first, digest = _run(
        [*SMALL, "--pull", "yes", "--idempotency-keys", "no"], tmp_path, capsys, "a"
    )
    replay = first["replay"].split()
    assert replay[:2] == ["simlab", "simulate"]
    assert "--pull" in replay and "--no-idempotency-keys" in replay
    assert not {"yes", "no"} & set(replay), replay
    again, again_digest = _run(replay[2:], tmp_path, capsys, "b")
    assert again_digest == digest and again == first


def test_does_every_mode_replay_as_its_switch():
    modes = {"idempotency_keys": False, "checkpoints": True, "pull": True}
    modes |= {"retries": True, "releases": True, "late": True}
    said = replay_command(Scenario(**modes), 3).split()
    assert {"--no-idempotency-keys", "--checkpoints", "--pull", "--retries"} <= set(said)
    assert {"--releases", "--late"} <= set(said)
    assert not {"yes", "no", "True", "False"} & set(said), said


def test_does_explore_read_the_old_spelling_too(capsys):
    scope = ["explore", "--max-faults", "0", "--json", "--quiet"]
    runs = [run_cli([*scope, *argv], capsys) for argv in (["--pull"], ["--pull", "yes"])]
    assert runs[0][0] == runs[1][0] == 0
    same = [json.loads(out) for _, out, _ in runs]
    assert same[0]["scope"]["pull"] is True
    assert {**same[0], "seconds": 0} == {**same[1], "seconds": 0}
    off = [json.loads(run_cli([*scope, *argv], capsys)[1]) for argv in (["--pull", "no"], [])]
    assert not off[0]["scope"].get("pull")
    assert {**off[0], "seconds": 0} == {**off[1], "seconds": 0}


def _usage_parts(command: str) -> dict[str, str]:
    """Each flag of ``command``'s usage line, as the line shows it (``--seed SEED``)."""
    usage = " ".join(_command_parser(build_parser(), command).format_usage().split())
    return {m.group(1).split()[0]: m.group(1) for m in re.finditer(r"\[(--[^\]]*)\]", usage)}


@pytest.mark.parametrize("command", ["simulate", "shrink", "sweep"])
def test_are_the_flags_explore_shares_shown_the_same_way(command):
    mine, explore = _usage_parts(command), _usage_parts("explore")
    shared = set(mine) & set(explore) - {"--db"}  # shrink replays over a SQLite file only
    assert {"--pull", "--late", "--tasks", "--ttl", "--lang"} <= shared
    for flag in shared:
        assert mine[flag] == explore[flag], (flag, mine[flag], explore[flag])
    assert not any("{yes,no}" in part for part in mine.values())


def test_is_every_mode_of_explore_a_switch_of_simulate():
    parser = build_parser()
    simulate, explore = (_command_parser(parser, c) for c in ("simulate", "explore"))
    switches = {
        name: {a.dest: a.option_strings for a in p._actions if isinstance(a, Switch)}
        for name, p in (("simulate", simulate), ("explore", explore))
    }
    assert set(switches["explore"]) == {"pull", "checkpoints", "retries", "releases", "late"}
    for dest, strings in switches["explore"].items():
        assert switches["simulate"][dest] == strings


def test_is_a_word_that_is_not_yes_or_no_refused(capsys):
    code, out, err = run_cli(["simulate", "--pull", "maybe"], capsys)
    assert code == 2 and out == "" and "maybe" in err and "Traceback" not in err
