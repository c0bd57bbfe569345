"""Grading processes (:mod:`simlab.grading.processes`): a call runs in the grader or in a
process of its own, a process lost costs one call (and one notebook's row says so), and closing
ends every process, cleanly, with nothing more run after."""

from __future__ import annotations

import os
import shutil
import signal
from pathlib import Path

import pytest

from simlab.grading import processes
from simlab.grading.grader import _grade_in, grade
from tests import lanes

ROOT = Path(__file__).resolve().parents[2]


def _pid() -> int:
    return os.getpid()


def _where() -> tuple[int, str | None]:
    """This process's ID and the grader version it grades at."""
    from simlab.grading.version import grader_version

    return os.getpid(), grader_version()


def test_does_a_call_run_in_the_grader_and_in_a_process_of_its_own():
    graders = processes.GradingProcesses(2)
    try:
        here, there = graders.call(_where), graders.call(_where)  # idle places, in turn
    finally:
        graders.close()
    from simlab.grading.version import grader_version

    assert here == (os.getpid(), grader_version())
    assert there[0] != os.getpid() and there[1] == grader_version()  # the grader's version
    (started,) = graders._all
    assert started.proc.returncode == 0  # stopped, not killed


def test_does_a_lost_process_cost_one_call_only():
    graders = processes.GradingProcesses(2)
    try:
        assert graders.call(_pid) == os.getpid()
        first = graders.call(_pid)
        os.kill(first, signal.SIGKILL)
        assert graders.call(_pid) == os.getpid()
        with pytest.raises(processes.ProcessLost, match=str(first)):
            graders.call(_pid)
        assert graders.call(_pid) == os.getpid()
        fresh = graders.call(_pid)
        assert fresh not in (first, os.getpid())
    finally:
        graders.close()
    assert [p.proc.returncode for p in graders._all] == [-signal.SIGKILL, 0]


def test_does_a_notebook_whose_process_is_lost_get_its_row(tmp_path):
    path = tmp_path / "03_histories_and_ttl.ipynb"
    shutil.copy(ROOT / "solutions" / path.name, path)
    graders = processes.GradingProcesses(2)
    try:
        graders.call(_pid)  # the grader's turn: the next call goes to the process
        os.kill(graders._all[0].proc.pid, signal.SIGKILL)
        lost = _grade_in(graders, path, 60, 10**6, False, None)
    finally:
        graders.close()
    assert lost.notebook == str(path) and lost.score == 0
    assert lost.error is not None and "ProcessLost" in lost.error, lost.error


def test_does_a_closed_place_run_nothing_more():
    graders = processes.GradingProcesses(2)
    graders.close(at_once=True)
    for _ in range(3):  # the grader's own place included
        with pytest.raises(processes.ProcessLost):
            graders.call(_pid)
    assert all(p.proc.returncode is not None for p in graders._all)


#: The students of the class graded both ways (the fast lane's: two, so that with two places
#: the grader grades one and a process of its own the other; the third is a place's second).
STUDENTS = lanes.sweep(
    "students of a class graded in processes", ("s0", "s1", "s2"), fast=("s0", "s1")
)


def test_is_a_class_graded_in_processes_graded_as_one_by_one(tmp_path):
    for name in STUDENTS:
        (tmp_path / name).mkdir()
        shutil.copy(ROOT / "solutions" / "03_histories_and_ttl.ipynb", tmp_path / name)
    one = [g.to_dict(messages=True) for g in grade(tmp_path, jobs=1, sandbox=False)]
    two = [g.to_dict(messages=True) for g in grade(tmp_path, jobs=2, sandbox=False)]
    assert two == one
    assert [g["score"] for g in two] == [12] * len(STUDENTS)
