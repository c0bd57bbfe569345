"""Does the README tell the truth? Its Python examples run as written."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import postgres_unavailable

README = Path(__file__).resolve().parent.parent / "README.md"


def python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)


def test_does_every_python_example_in_the_readme_run(capsys):
    blocks = python_blocks()
    assert blocks, "the README has no Python example"
    for block in blocks:
        if "throwaway_postgres" not in block:
            exec(compile(block, str(README), "exec"), {"__name__": "readme"})
    assert "completed" in capsys.readouterr().out


def test_does_the_postgres_example_in_the_readme_run(capsys):
    """The "Beyond one machine" example starts a real server, so it needs the binaries."""
    from simlab.ledger.throwaway import find_postgres_bin

    (block,) = [b for b in python_blocks() if "throwaway_postgres" in b]
    if find_postgres_bin() is None:
        postgres_unavailable("no PostgreSQL server binaries for the README's example")
    exec(compile(block, str(README), "exec"), {"__name__": "readme"})
    assert capsys.readouterr().out.split("\n")[:2] == [
        "Ledger completed 2",
        "PostgresLedger completed 2",
    ]
