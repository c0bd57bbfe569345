"""Does the grader's own process do bounded work on everything a submission produces?

Replies from a sandbox, notebook files, long feedback text rendered in Chinese, and ledger
files the learner's code wrote: each is attacked here with the input that used to cost the
grader quadratic time, a recursion error or an endless query, and judged by the outcome (a
refusal in time, honest input still read as before). No jail is started.
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

import pytest

from simlab.errors import LedgerError
from simlab.grading.grader import grade_notebook
from simlab.grading.messages import message, render, sentence
from simlab.grading.notebook import MAX_NOTEBOOK_BYTES, NotebookError, read_notebook
from simlab.grading.sandbox import frames, wire
from simlab.grading.sandbox.exchange import Exchange
from simlab.grading.untrusted.ledger_file import UntrustedLedger
from simlab.ledger import Ledger

#: ``hash(n)`` of an int is ``n mod (2**61 - 1)``: all multiples of it collide.
COLLIDING = 2**61 - 1


def _timed(fn, *args):
    started = time.perf_counter()
    try:
        return fn(*args), time.perf_counter() - started
    except Exception as exc:  # the refusal is the outcome under test
        return exc, time.perf_counter() - started


# -- replies ---------------------------------------------------------------------------------


@pytest.mark.parametrize("tag", ["$s", "$f", "$d"])
def test_is_a_collection_of_colliding_integers_refused_in_linear_time(tag):
    items = [n * COLLIDING for n in range(1, 600_001)]
    data = {"$d": [[k, 0] for k in items[:300_000]]} if tag == "$d" else {tag: items}
    payload = wire.dumps({"ok": True, "value": data})
    got, seconds = _timed(lambda: wire.decode(frames.parse_frame(payload)["value"]))
    assert isinstance(got, ValueError), type(got)
    assert seconds < 10, seconds  # building the set would take hours


def test_do_honest_sets_and_dicts_still_decode():
    value = {"ids": set(range(100_000)), "by": {f"t{i}": i for i in range(50_000)}, "f": 1.5}
    same = [wire.Opaque("Thing", "<Thing>")] * 1000  # equal values share a hash: not a flood
    assert wire.decode(wire.encode(value)) == value
    assert wire.decode({"$s": [{"$x": "Thing", "repr": "<Thing>"}] * 1000}) == set(same)
    assert wire.decode({"$s": [COLLIDING * n for n in range(1, wire.MAX_SAME_HASH + 1)]})


def test_is_a_reply_of_too_many_values_refused_before_decoding():
    payload = json.dumps([0] * (frames.MAX_FRAME_VALUES + 10)).encode()
    got, seconds = _timed(frames.parse_frame, payload)
    assert isinstance(got, frames.FrameError) and got.kind == "large", got
    assert seconds < 10, seconds


# -- notebook files --------------------------------------------------------------------------


def test_is_a_deeply_nested_notebook_the_files_fault(tmp_path):
    path = tmp_path / "deep.ipynb"
    path.write_text('{"cells": [], "metadata": {"x": ' + "[" * 100_000 + "]" * 100_000 + "}}")
    with pytest.raises(NotebookError, match="nested (deeper|too deeply)"):
        read_notebook(path)
    graded = grade_notebook(path)  # no jail: an unreadable notebook never reaches one
    assert graded.score == 0 and "not a readable notebook" in graded.error
    assert "grader error" not in graded.error


def test_is_an_oversized_notebook_refused_without_reading_it_all(tmp_path):
    path = tmp_path / "big.ipynb"
    with open(path, "wb") as f:
        f.write(b'{"cells": [], "metadata": {"x": "')
        f.write(b"a" * (MAX_NOTEBOOK_BYTES + 1))
        f.write(b'"}, "nbformat": 4, "nbformat_minor": 5}')
    with pytest.raises(NotebookError, match="larger than"):
        read_notebook(path)


# -- long feedback in Chinese ----------------------------------------------------------------


def test_does_long_nested_feedback_render_in_chinese_in_bounded_time():
    # Text that reads like the grader's own sentences is the learner's: shown as it is.
    note = ("1/2 checks passed; " + "1/2 checks passed; x; also, " * 2000)[:20_000]
    said = message("grader.note", body=message("grader.lost", lost=sentence(note)), names="x")
    got, seconds = _timed(render, said, "zh")
    assert got.startswith(note + "；代码卡死或崩溃的题目得 0 分") and seconds < 1.0, seconds
    assert render(message("grader.all_passed", n=3), "zh") == "全部 3 项检查通过"


# -- ledger files the learner's code wrote ---------------------------------------------------


def _ledger(path: Path) -> None:
    with Ledger(str(path), clock=lambda: 0.0) as ledger:
        ledger.submit("t1")
        lease = ledger.claim("t1", "w1", 30.0)
        ledger.save(lease, 1)


def _endless_view(path: Path) -> None:
    """``tasks`` becomes a view over an endless recursive query."""
    db = sqlite3.connect(path)
    db.execute("ALTER TABLE tasks RENAME TO stored")
    db.execute(
        "CREATE VIEW tasks AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) "
        "SELECT stored.* FROM stored, r"
    )
    db.commit()
    db.close()


def test_does_an_endless_view_over_tasks_not_hang_the_reader(tmp_path):
    path = tmp_path / "jobs.sqlite"
    _ledger(path)
    _endless_view(path)
    exchange = Exchange()
    try:
        shared = Path(exchange.path) / "jobs.sqlite"
        shared.write_bytes(path.read_bytes())

        def read():
            with exchange.read_ledger(str(shared)) as ledger:
                return ledger if ledger is None else ledger.get("t1")

        got, seconds = _timed(read)
        assert got is None and seconds < 5, (got, seconds)
        with exchange.copy_out(str(shared)) as local:  # nor is it handed out as a copy
            assert local is None
    finally:
        exchange.close()


def test_is_an_honest_ledger_with_its_log_read_as_written_and_left_unchanged(tmp_path):
    path = tmp_path / "jobs.sqlite"
    _ledger(path)
    exchange = Exchange()
    try:
        folder = Path(exchange.path)
        for name in ("jobs.sqlite", "jobs.sqlite-wal"):
            source = tmp_path / name
            if source.exists():
                (folder / name).write_bytes(source.read_bytes())
        before = (folder / "jobs.sqlite").read_bytes()
        with exchange.read_ledger(str(folder / "jobs.sqlite")) as ledger:
            record = ledger.get("t1")
            with pytest.raises(LedgerError):
                ledger.submit("t2")  # read-only
        assert (record.status, record.step, record.epoch) == ("running", 1, 1)
        assert (folder / "jobs.sqlite").read_bytes() == before
    finally:
        exchange.close()


def test_does_a_slow_read_stop_at_its_deadline(tmp_path):
    path = tmp_path / "many.sqlite"
    with Ledger(str(path), clock=lambda: 0.0) as ledger:
        for i in range(3000):
            ledger.submit(f"t{i}")
    ledger = UntrustedLedger(path, seconds=0.05)
    time.sleep(0.1)
    with pytest.raises(LedgerError, match="too long"):
        ledger.tasks()
    ledger.close()


@pytest.mark.parametrize(
    "schema",
    [
        "CREATE TRIGGER t AFTER INSERT ON tasks BEGIN SELECT 1; END",
        "CREATE TABLE g (a INTEGER, b INTEGER AS (a * 2))",
        "CREATE VIRTUAL TABLE v USING fts5(x)",
    ],
)
def test_are_triggers_generated_columns_and_virtual_tables_refused(tmp_path, schema):
    path = tmp_path / "jobs.sqlite"
    _ledger(path)
    db = sqlite3.connect(path)
    db.execute(schema)
    db.commit()
    db.close()
    with pytest.raises(LedgerError, match="refusing to read"):
        UntrustedLedger(path)


# -- a jail's control groups -----------------------------------------------------------------


def test_does_everything_a_wrapped_command_starts_run_in_its_groups_and_leave_none():
    import os
    import subprocess

    from simlab.grading.sandbox.cgroup import Group

    group = Group.make(processes=32, memory=256 * 2**20)
    if group is None:
        pytest.skip("no writable cgroup v1 hierarchy here (root only)")
    # a grandchild in a session of its own is still inside
    script = "setsid sh -c 'cat /proc/self/cgroup' < /dev/null"
    shown = subprocess.run(group.wrap(["/bin/sh", "-c", script]), capture_output=True, text=True)
    name = os.path.basename(group.paths["cpu"])
    lines = [line for line in shown.stdout.splitlines() if ":cpu:" in line or ":cpu," in line]
    assert lines and all(line.endswith("/" + name) for line in lines), shown.stdout
    paths = list(group.paths.values())
    assert group.remove() and not any(os.path.exists(p) for p in paths)


def test_is_a_frame_of_millions_of_small_values_refused_before_it_is_parsed():
    # A frame under the byte cap can hold ten times the values the grader accepts: refused
    # from its bytes, before json builds a single object.
    import tracemalloc

    # Made by repeating bytes, not by joining a list of ten million of them.
    payload = b"[" + b"{}," * (10 * frames.MAX_FRAME_VALUES - 1) + b"{}]"
    tracemalloc.start()
    try:
        got, seconds = _timed(frames.parse_frame, payload)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert isinstance(got, frames.FrameError) and got.kind == "large", got
    assert peak < 3 * len(payload), peak  # the bytes scanned, never their objects
    assert seconds < 5, seconds


def test_do_commas_inside_a_string_not_count_as_values():
    text = "a, [b], {c}" * (frames.MAX_FRAME_VALUES // 2)
    payload = json.dumps({"note": text, "escaped": 'say "x, y"'}).encode()
    assert frames.values_bound(payload) > frames.MAX_FRAME_VALUES
    assert frames.parse_frame(payload)["note"] == text


#: Sends the grader frame after frame that are each within the limits, as callbacks.
CALLBACK_FLOOD = """
from simlab.grading.sandbox import remote

def flood():
    channel = remote._CHANNEL[0]
    for _ in range(10_000):
        channel.ask({"cb": 999, "method": "x", "args": [[0] * 900_000], "kwargs": {"$d": []}})
    return "done"
"""


@pytest.mark.jail
def test_does_a_stream_of_frames_within_the_limits_still_end():
    from simlab.grading.sandbox.supervisor import MAX_INTAKE_VALUES, Sandbox, SandboxLost

    with Sandbox(timeout=60) as box:
        assert box.exec_cell(0, CALLBACK_FLOOD).status == "ok"
        started = time.monotonic()
        with pytest.raises(SandboxLost, match="sent the grader more than"):
            box.call("flood")
    # Cut at MAX_INTAKE_VALUES: a few seconds of the grader's work, not the whole budget.
    assert time.monotonic() - started < 30
    assert MAX_INTAKE_VALUES < 10 * 900_000
