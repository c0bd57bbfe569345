"""Does ``--time-limit`` stop ``simlab explore`` (one process and two) and ``simlab simulate``
when the ledger's ``claim`` never returns, whether it loops in Python or blocks in a C call a
signal interrupts: within the limit plus a small grace, exit 3, no certificate and no verdict,
the call in progress named, the ledger closed and no process left behind; and does the same
command over a ledger that does not hang give its answer byte for byte?"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import threading
import time
from typing import ClassVar

import pytest

from simlab.cli.explore import STUCK
from simlab.cli.stuck import GRACE
from simlab.ledger import Ledger
from simlab.sim.forked import REPORT
from tests.strategies import run_cli

#: The limit the commands are given, in seconds.
LIMIT = 0.5
#: What a stopped command may take past the alarm's time (the limit, and for explore the
#: stuck run's second): the children's word, the pool's close, the answer's printing.
SLACK = REPORT + 2.0


class _Hangs(Ledger):
    """The kit's SQLite ledger in memory, whose claim of a task claimed before never returns
    (a fault, a second delivery or an expired lease, makes one); it notes what it made and
    closed."""

    made: ClassVar[list[_Hangs]] = []
    closed: ClassVar[list[_Hangs]] = []

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        _Hangs.made.append(self)

    def claim(self, task_id, worker, ttl):
        if self.get(task_id).attempts >= 1:
            self.hang()
        return super().claim(task_id, worker, ttl)

    def hang(self) -> None:
        raise NotImplementedError

    def close(self) -> None:
        _Hangs.closed.append(self)
        super().close()


class Spins(_Hangs):
    def hang(self) -> None:
        while True:  # pure Python: only a signal's handler gets out
            pass


class Blocks(_Hangs):
    def hang(self) -> None:
        lock = threading.Lock()
        lock.acquire()
        lock.acquire()  # a C call that waits for ever, which a signal interrupts


@pytest.fixture
def hanging(monkeypatch):
    """Make the ledger the commands run over by default one of ``cls``."""

    def use(cls: type[_Hangs]) -> None:
        _Hangs.made.clear()
        _Hangs.closed.clear()
        factory = lambda clock: cls(":memory:", clock=clock)  # noqa: E731
        for module in ("simlab.sim.explore", "simlab.sim.simulation"):
            monkeypatch.setattr(importlib.import_module(module), "_default_ledger",
                                lambda variant: factory)  # fmt: skip

    return use


def _children() -> set[int]:
    """The processes whose parent is this one."""
    me, found = os.getpid(), set()
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue  # it ended meanwhile
        if int(fields[1]) == me:
            found.add(int(pid))
    return found


COMMANDS = {
    "explore -j 1": ["explore", "--max-faults", "1", "-j", "1"],
    "explore -j 2": ["explore", "--max-faults", "1", "-j", "2"],
    "simulate": ["simulate", "--seed", "1"],
}


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("cls", [Spins, Blocks])
def test_does_a_call_that_never_returns_stop_at_the_limit_with_exit_3(
    command, cls, hanging, tmp_path, capsys
):
    hanging(cls)
    before = _children()
    argv = [*COMMANDS[command], "--time-limit", str(LIMIT), "--json"]
    if command.startswith("explore"):
        argv += ["--out", str(tmp_path / "cut.json")]
    started = time.monotonic()
    code, out, err = run_cli(argv, capsys)
    took = time.monotonic() - started
    assert code == 3, (out, err)
    alarm = LIMIT + (STUCK if command.startswith("explore") else 0)
    assert took < alarm + SLACK, took
    data = json.loads(out)
    assert data["stopped"] == "time-limit"
    assert data.get("certified", False) is False and "violations" not in data
    call = data["in_progress"]
    assert (call["call"], call["process"][0]) == ("claim", "w")
    assert call["task"].startswith("t") and call["time"] > 0
    assert _Hangs.made and set(map(id, _Hangs.closed)) == set(map(id, _Hangs.made))
    assert _children() <= before  # the pool's processes are gone
    if command.startswith("explore"):  # the run it cut replays with simulate
        saved = json.loads((tmp_path / "cut.json").read_text())
        assert saved["faults"] == call["faults"] and data["replay"].startswith("simlab simulate")


def test_is_the_call_in_progress_said_in_text_in_both_languages(hanging, tmp_path, capsys):
    hanging(Spins)
    argv = ["explore", "--max-faults", "1", "--time-limit", str(LIMIT)]
    code, out, _ = run_cli([*argv, "--out", str(tmp_path / "cut.json")], capsys)
    assert code == 3 and out.startswith("stopped by --time-limit, not certified")
    assert "in progress when the time ran out: w" in out and "'s call claim on t" in out
    assert f"replay: simlab simulate --schedule {tmp_path / 'cut.json'} --time-limit" in out
    code, out, _ = run_cli([*argv, "--out", str(tmp_path / "zh.json"), "--lang", "zh"], capsys)
    assert code == 3 and "时间用完时正在进行：w" in out and "的调用 claim（种子 1 的运行" in out
    code, out, _ = run_cli(["simulate", "--seed", "1", "--time-limit", str(LIMIT)], capsys)
    assert code == 3
    assert out.startswith(f"stopped by --time-limit after {LIMIT:g} s, no verdict: in progress")


@pytest.mark.parametrize("command", COMMANDS)
def test_does_a_ledger_that_does_not_hang_give_the_same_answer_with_a_limit(command, capsys):
    def answer(argv: list[str]) -> str:
        code, out, _ = run_cli([*argv, "--json"], capsys)
        assert code in (0, 1), out
        data = json.loads(out)
        data.pop("seconds", None)  # the search's wall-clock time
        return json.dumps(data)

    argv = COMMANDS[command]
    assert answer([*argv, "--time-limit", "600"]) == answer(argv)


#: The command line over the kit's SQLite ledger whose claim of a task claimed before runs a
#: query that never ends: SQLite's loop is a C call that takes no signal.
_QUERY_NEVER_ENDS = """
import importlib, sqlite3, sys
from simlab.cli import main
from simlab.ledger import Ledger

class Queries(Ledger):
    def claim(self, task_id, worker, ttl):
        if self.get(task_id).attempts >= 1:
            sqlite3.connect(":memory:").execute(
                "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
                "SELECT count(*) FROM c"
            ).fetchall()
        return super().claim(task_id, worker, ttl)

factory = lambda clock: Queries(":memory:", clock=clock)
for module in ("simlab.sim.explore", "simlab.sim.simulation"):
    importlib.import_module(module)._default_ledger = lambda variant: factory
sys.exit(main(sys.argv[1:]))
"""


#: Each command the test runs over it, and what it must print: no call is named, none can be asked.
_STUCK_COMMANDS = [
    (["explore", "--max-faults", "1", "-j", "1", "--json"],
     '{"certified": false, "stopped": "time-limit", "in_progress": null}'),
    (["explore", "--max-faults", "1", "-j", "1", "--lang", "zh"],
     "被 --time-limit 停止，未证明：某个账本调用既没有返回，也没有响应闹钟的信号，"
     f"所以在闹钟响后 {GRACE:g} 秒结束了进程"),
    (["simulate", "--seed", "1"],
     f"stopped by --time-limit after {LIMIT:g} s, no verdict: the run did not end"),
]  # fmt: skip


def test_does_a_c_call_that_takes_no_signal_end_each_command_with_exit_3(tmp_path):
    started = time.monotonic()  # the commands wait on timers: they run side by side
    running = []
    for n, (argv, said) in enumerate(_STUCK_COMMANDS):
        if argv[0] == "explore":
            argv = [*argv, "--out", str(tmp_path / f"cut{n}.json")]
        command = [sys.executable, "-c", _QUERY_NEVER_ENDS, *argv, "--time-limit", str(LIMIT)]
        pipe = subprocess.PIPE
        process = subprocess.Popen(command, stdout=pipe, stderr=pipe, text=True)
        running.append((argv, said, process))
    try:
        for argv, said, process in running:
            out, err = process.communicate(timeout=120)
            took = time.monotonic() - started
            assert process.returncode == 3, err
            assert out.strip() == said and err == ""
            alarm = LIMIT + (STUCK if argv[0] == "explore" else 0)
            assert alarm + GRACE < took < alarm + GRACE + 30  # the interpreters' start, when busy
    finally:
        for _, _, process in running:
            process.kill()
            process.wait()
