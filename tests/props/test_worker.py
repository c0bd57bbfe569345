"""Does the worker's command line read each command from its function, and refuse a mistake in
one line? (``python -m simlab.props.worker``; the processes themselves are in test_processes.)"""

from __future__ import annotations

import subprocess
import sys

import pytest

from simlab.props import processes
from simlab.props.worker import _parse, main


def test_are_positionals_options_and_flags_read_from_the_signature():
    function, args, kwargs = _parse(
        ["race", "db", "t1", "--claims", "7", "--gap", "0.5", "--chapter", "--barrier", "dir"]
    )
    assert function is processes.race
    assert args == ["db", "t1"]
    assert kwargs == {"claims": 7, "gap": 0.5, "chapter": True, "barrier": "dir"}


def test_is_a_required_option_of_the_fleet_required():
    function, args, kwargs = _parse(["fleet", "db", "--name", "w1", "--log", "out.jsonl"])
    assert (function, args, kwargs) == (processes.fleet, ["db"], {"name": "w1", "log": "out.jsonl"})


@pytest.mark.parametrize(
    "argv, said",
    [
        ([], "a command is one of resume, race, fleet"),
        (["jump"], "got 'jump'"),
        (["resume", "db"], "usage: python -m simlab.props.worker resume PATH TASK"),
        (["fleet", "db", "--name", "w1"], "--log VALUE"),
        (["race", "db", "t1", "--claims", "many"], "--claims takes an integer, not 'many'"),
        (["race", "db", "t1", "--bogus"], "unknown option --bogus"),
        (["resume", "db", "t1", "--worker"], "--worker needs a value"),
        (["resume", "db", "t1", "extra"], "usage:"),
    ],
)
def test_is_a_mistake_one_line_and_exit_status_2(argv, said, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert said in err and err.count("\n") == 1, err


def test_does_python_dash_m_run_the_worker():
    done = subprocess.run(
        [sys.executable, "-m", "simlab.props.worker", "nothing"], capture_output=True, text=True
    )
    assert done.returncode == 2 and "error: a command is one of" in done.stderr
    assert "Traceback" not in done.stderr
