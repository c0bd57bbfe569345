"""Does a call "in another worker process" disagree with this one exactly where processes do
(the salted hash of strings and bytes, the process ID), and put everything back afterwards?"""

from __future__ import annotations

import builtins
import os

import pytest

from simlab.grading.sandbox.elsewhere import another_process


def test_does_another_process_hash_strings_otherwise_and_numbers_alike():
    here = {v: hash(v) for v in ("t1", b"t1", ("t1", 2), frozenset({"k"}), 7, 2.5, None, (1, 2))}
    pid = os.getpid()
    with another_process(1):
        there = {v: hash(v) for v in here}
        assert os.getpid() != pid
        with pytest.raises(TypeError):
            hash(["a list"])
    with another_process(2):
        third = {v: hash(v) for v in here}
    salted = {"t1", b"t1", ("t1", 2), frozenset({"k"})}
    assert {v for v in here if here[v] != there[v]} == salted
    assert {v for v in here if third[v] != there[v]} == salted  # each process its own salt
    assert builtins.hash("t1") == here["t1"] and os.getpid() == pid  # put back


def test_is_everything_put_back_when_the_call_raises():
    real_hash, real_getpid = builtins.hash, os.getpid
    with pytest.raises(RuntimeError), another_process(1):
        assert builtins.hash is not real_hash and os.getpid is not real_getpid
        raise RuntimeError("the learner's code failed")
    assert builtins.hash is real_hash and os.getpid is real_getpid
