"""Shared test fakes and Hypothesis strategies (fakes over mocks; one place for strategies)."""

from __future__ import annotations

import os
import re
import subprocess
import sys

from hypothesis import strategies as st

__all__ = [
    "FakeClock",
    "as_nobody",
    "json_values",
    "non_json_values",
    "printed_under_hash_seeds",
    "run_cli",
    "usage_error",
    "flag_error",
]


class FakeClock:
    """A clock you move by hand: ``clock()`` returns ``clock.now``; nothing ever sleeps."""

    def __init__(self, now: float = 1000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        self.now += seconds
        return self.now


#: Any JSON value that survives a round trip unchanged (no NaN, no infinities, string keys).
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**53), max_value=2**53)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=8,
)

#: Values a ledger must refuse with ``ValueError`` before it changes anything.
non_json_values = st.sampled_from(
    [object(), {1, 2}, b"bytes", {"when": object()}, [float("nan")], float("inf")]
)


def run_cli(argv, capsys):
    """(exit status, stdout, stderr) of ``simlab ARGV``, argparse exits included."""
    from simlab.cli import main

    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def usage_error(argv, capsys) -> str:
    """The stderr of ``simlab ARGV`` refused as a user mistake: exit status 2, nothing on stdout,
    one line and no traceback."""
    code, out, err = run_cli(argv, capsys)
    assert code == 2 and out == "", (code, out)
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    return err


#: A Python name (``max_faults``, ``crash_rate``) where a flag (``--max-faults``) belongs.
_PYTHON_NAME = re.compile(r"(?<![-\w/.])[a-z]+_[a-z_]+\b")


#: How a flag's mistake starts and ends, in each language (``{c}``: the command).
FLAG_ERROR_FRAMES = {
    "en": ("{c}: error: ", "(see '{c} --help')"),
    "zh": ("{c}：错误：", "（见 {c} --help）"),
}


def flag_error(argv, capsys) -> str:
    """The stderr of ``simlab ARGV`` refused for a mistake in its flags, said as argparse says
    one: a :func:`usage_error` that names a flag, no Python name, and points to the help, in
    the language ``--lang`` asks (English without it)."""
    err = usage_error(argv, capsys)
    command = f"simlab {argv[0]}"
    lang = argv[argv.index("--lang") + 1] if "--lang" in argv else "en"
    head, tail = (part.format(c=command) for part in FLAG_ERROR_FRAMES[lang])
    assert err.startswith(head) and " --" in err, err
    assert err.rstrip().endswith(tail), err
    assert not _PYTHON_NAME.search(err), (_PYTHON_NAME.search(err), err)
    return err


def as_nobody(fn) -> str:
    """``fn()`` in a forked child that became ``nobody`` (root only): ``"ok "`` and what it
    returned, or the error. Fork, not exec: the interpreter may live where ``nobody`` cannot
    read (``/root``), and everything ``fn`` needs is already imported here."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(read)
            os.setgroups([])
            os.setgid(65534)
            os.setuid(65534)
            try:
                text = f"ok {fn()}"
            except Exception as exc:  # noqa: BLE001 -- reported to the parent
                text = f"{type(exc).__name__}: {exc}"
            os.write(write, text.encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read) as pipe:
        text = pipe.read()
    os.waitpid(pid, 0)
    return text


def printed_under_hash_seeds(script: str, hash_seeds=("1", "2")) -> set[str]:
    """What ``python -c script`` prints in fresh interpreters, one per ``PYTHONHASHSEED``:
    one element when nothing the script does depends on hash randomisation (set order)."""
    printed = set()
    for hash_seed in hash_seeds:
        done = subprocess.run(
            [sys.executable, "-c", script],
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
            check=True,
            capture_output=True,
            text=True,
            timeout=120,
        )
        printed.add(done.stdout)
    return printed
