"""Are the optional parts optional? ``psycopg`` (``simlab[postgres]``) and ``voila``
(``simlab[app]``) are not core dependencies, ``dev`` installs both, and a part that is missing
ends as one line naming its extra, never a traceback. A missing part is simulated by blocking
its import in a fresh process."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from simlab.extras import EXTRAS, MissingExtra, require

ROOT = Path(__file__).resolve().parents[1]
URL = "postgresql://nobody@127.0.0.1:9/none"  # never reached: the driver is missing first


def _without(module: str, code: str) -> subprocess.CompletedProcess:
    """Run ``code`` in a fresh interpreter in which importing ``module`` fails."""
    blocked = f"import sys\nsys.modules[{module!r}] = None\n{code}"
    return subprocess.run(
        [sys.executable, "-c", blocked], capture_output=True, text=True, timeout=120, cwd=ROOT
    )


def _one_line(done: subprocess.CompletedProcess, extra: str) -> str:
    assert "Traceback" not in done.stderr, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert f"pip install 'simlab[{extra}]'" in lines[0], lines[0]
    return lines[0]


def test_are_the_optional_parts_extras_and_dev_all_of_them():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    core = " ".join(project["dependencies"])
    extras = project["optional-dependencies"]
    for name, extra in EXTRAS.items():
        assert extra.module not in core, f"{extra.module} is a core dependency"
        assert any(extra.module in req for req in extras[name]), name
    assert f"simlab[{','.join(EXTRAS)}]" in extras["dev"]


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "--seed", "1", "--db", URL],
        ["grade", "--queue", URL, "--worker"],
        ["health", "--db", URL],
    ],
    ids=["simulate", "grade-queue", "health"],
)
def test_does_a_command_without_the_driver_say_which_extra_in_one_line(argv):
    done = _without("psycopg", f"from simlab.cli import main\nsys.exit(main({argv!r}))")
    assert done.returncode == 2, done.stderr
    line = _one_line(done, "postgres")
    assert line.startswith(f"simlab {argv[0]}: error: psycopg is not installed"), line


def test_does_the_library_without_the_driver_raise_an_import_error_naming_the_extra():
    code = (
        "from simlab.ledger import connect\n"
        f"try:\n    connect({URL!r})\n"
        "except ImportError as exc:\n    print(type(exc).__name__, exc)\n"
    )
    done = _without("psycopg", code)
    assert done.stdout.startswith("MissingExtra psycopg is not installed"), done.stdout
    assert "pip install 'simlab[postgres]'" in done.stdout


def test_does_make_app_without_voila_stop_with_one_line():
    code = (
        "import runpy\nsys.argv = ['simlab.extras', 'app']\n"
        "runpy.run_module('simlab.extras', run_name='__main__')"
    )
    done = _without("voila", code)
    assert done.returncode == 1
    assert _one_line(done, "app").startswith("voila is not installed")
    app = (ROOT / "Makefile").read_text().split("\napp:")[1].split("\n\n")[0]
    assert app.index("-m simlab.extras app") < app.index("/voila "), "checked before it runs"


def test_does_an_installed_part_import_and_an_unknown_one_not_exist():
    assert require("postgres").__name__ == "psycopg"
    with pytest.raises(KeyError):
        require("nothing")
    assert issubclass(MissingExtra, ImportError)
