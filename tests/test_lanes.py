"""Is the suite laid out so that a contributor can run part of it? Every folder of tests is a
package (so a test module imports helpers as ``tests.x``, never by a path put on ``sys.path``),
and every test that needs a jail, a kernel, a server or a browser carries its marker
(:mod:`tests.lanes`), so ``make test-fast`` leaves it out."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests import lanes
from tests.generated import Block

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"
#: The table of docs/development.md listing every sweep the fast lane shortens.
SWEEPS = Block(
    ROOT / "docs" / "development.md",
    "sweeps",
    "lanes.sweep in tests/",
    lambda: lanes.sweeps_table(TESTS),
    "tests.test_lanes",
)


def test_is_every_folder_of_tests_a_package():
    folders = {p.parent for p in TESTS.rglob("*.py") if "__pycache__" not in p.parts}
    bare = sorted(str(f.relative_to(ROOT)) for f in folders if not (f / "__init__.py").is_file())
    assert not bare, f"add an empty __init__.py to: {bare}"


def test_does_no_test_put_a_folder_on_the_import_path():
    found = [
        f"{p.relative_to(ROOT)}:{n}"
        for p in TESTS.rglob("*.py")
        for n, line in enumerate(p.read_text().splitlines(), 1)
        if re.match(r"\s*sys\.path\.(insert|append)\(", line)
    ]
    assert not found, found


@pytest.mark.parametrize(
    ("argv", "marker"),
    [
        (["/usr/bin/bwrap", "--ro-bind", "/usr", "/usr", "python"], "jail"),
        ([sys.executable, "-m", "ipykernel_launcher", "-f", "k.json"], "kernel"),
        ([sys.executable, "-m", "pytest", "--nbval-lax", "notebooks/"], "kernel"),
        ([sys.executable, "-m", "sphinx", "-c", "docs", ".", "out"], "kernel"),
        (["/usr/lib/postgresql/15/bin/initdb", "-D", "data"], "server"),
        ([".venv/bin/voila", "app/dashboard.ipynb"], "server"),
        ([".venv/bin/jupyter", "lab", "--no-browser"], "server"),
        ([sys.executable, "-m", "http.server", "8000"], "server"),
        (["/usr/bin/chromium", "--headless"], "browser"),
        (["/p/playwright/driver/node", "/p/playwright/driver/cli.js", "run-driver"], "browser"),
        ([sys.executable, "-m", "simlab", "grade", "class/"], "jail"),
        (".venv/bin/simlab grade class/ --json", "jail"),
        ([sys.executable, "-m", "simlab", "grade", "--no-sandbox", "class/"], None),
        ([sys.executable, "-m", "simlab", "simulate", "--seed", "7"], None),
        (["git", "status"], None),
    ],
)
def test_does_a_command_line_name_what_it_needs(argv, marker):
    assert lanes.needed_by(argv) == marker


class _Item:
    """A stand-in for a test item carrying ``marks``."""

    nodeid = "tests/test_lanes.py::stand-in"

    def __init__(self, marks: set[str]):
        self.marks = marks

    def get_closest_marker(self, name):
        return name if name in self.marks else None


def test_is_a_jail_an_unmarked_test_starts_refused_and_the_test_failed(request):
    item = _Item(set())
    lanes.running(item)
    try:
        with pytest.raises(lanes.Unmarked, match="without @pytest.mark.jail"):
            subprocess.Popen(["/nonexistent/bwrap", "true"])
    finally:
        lanes.running(request.node)
    with pytest.raises(pytest.fail.Exception, match=r"mark it @pytest\.mark\.jail"):
        lanes.check(item)
    lanes.check(item)  # reported once


def test_is_a_jail_a_marked_test_starts_started(request):
    lanes.running(_Item({"jail"}))
    try:
        with pytest.raises(FileNotFoundError):  # started, so the missing program is found out
            subprocess.Popen(["/nonexistent/bwrap", "true"])
    finally:
        lanes.running(request.node)
    lanes.check(_Item({"jail"}))


def test_does_every_test_on_the_postgresql_server_carry_the_server_marker(request):
    on_server = [
        item
        for item in request.session.items
        if "postgres_server" in item.fixturenames
        or "postgres" in getattr(getattr(item, "callspec", None), "params", {}).values()
    ]
    if not on_server:
        pytest.skip("this session collected no PostgreSQL test (run it with the suite)")
    unmarked = [i.nodeid for i in on_server if i.get_closest_marker("server") is None]
    assert not unmarked, unmarked


def test_does_make_test_fast_leave_out_exactly_the_lanes_markers():
    makefile = (ROOT / "Makefile").read_text()
    assert f"FAST := {lanes.FAST}\n" in makefile
    fast = makefile.split("\ntest-fast:")[1].split("\n\n")[0]
    assert fast.count('-m "$(FAST)') == 2, fast  # the parallel part, then the serial one
    whole = makefile.split("\ntest:")[1].split("\n\n")[0]
    assert "$(FAST)" not in whole and "-m" in whole, "make test runs every lane"
    assert set(lanes.NEEDS) == {"jail", "kernel", "server", "browser"}


def test_does_every_test_run_keep_its_compiled_modules():
    """Both lanes run pytest with bytecode written, whatever the environment says: else every
    process of a run (worker, jail, kernel, command) compiles the kit from its sources again."""
    makefile = (ROOT / "Makefile").read_text()
    for target in ("test", "test-fast"):
        recipe = makefile.split(f"\n{target}:")[1].split("\n\n")[0]
        runs = [line for line in recipe.splitlines() if "pytest" in line or "PYTEST)" in line]
        assert runs and all("$(PYTEST)" in r or "$(FAST_PYTEST)" in r for r in runs), recipe
    shown = subprocess.run(
        ["make", "-s", "--no-print-directory", "-f", "Makefile", "-f", "-", "show"],
        input="show:\n\t@echo '$(PYTEST)|$(FAST_PYTEST)'\n",
        capture_output=True, text=True, cwd=ROOT, timeout=30,
    )  # fmt: skip
    for command in shown.stdout.strip().split("|"):
        assert command.startswith("PYTHONDONTWRITEBYTECODE= "), shown


class _Collected:
    """What :func:`lanes.serial_spelled` reads of a collected test."""

    def __init__(self, path: Path, serial: bool):
        self.path, self._serial = path, serial

    def get_closest_marker(self, name):
        return object() if name == "serial" and self._serial else None


def test_does_a_serial_test_in_a_module_not_saying_so_stop_the_session(tmp_path, monkeypatch):
    """``make test-fast`` finds the serial tests by the text of their modules: a module marking
    one some other way stops the session at collection, naming the marker to write."""
    hidden, said = tmp_path / "test_hidden.py", tmp_path / "test_said.py"
    hidden.write_text("@getattr(pytest.mark, 'ser' + 'ial')\ndef test_x(): pass\n")
    said.write_text(f"@pytest.{lanes.SERIAL_SPELLING}\ndef test_y(): pass\n")
    monkeypatch.setattr(lanes, "_unspelled", set())
    for item in (_Collected(said, True), _Collected(hidden, False)):
        lanes.serial_spelled(item)
    lanes.check_serial_spelled()  # nothing to say
    lanes.serial_spelled(_Collected(hidden, True))
    written = re.escape(f"@pytest.{lanes.SERIAL_SPELLING}")
    with pytest.raises(pytest.UsageError, match=rf"test_hidden\.py.*{written}"):
        lanes.check_serial_spelled()


def test_do_the_serial_parts_collect_only_the_modules_saying_so():
    makefile = (ROOT / "Makefile").read_text()
    recipe = makefile.split("\ntest-fast:")[1].split("\n\n")[0]
    assert recipe.rstrip().endswith('-m "$(FAST) and serial" $(SERIAL_MODULES)'), recipe
    assert "$(PYTEST) -m serial $(SERIAL_MODULES)\n" in makefile.split("\ntest:")[1]
    found = subprocess.run(
        ["make", "-s", "--no-print-directory", "-f", "Makefile", "-f", "-", "show"],
        input="show:\n\t@echo $(SERIAL_MODULES)\n",
        capture_output=True, text=True, cwd=ROOT, timeout=30,
    )  # fmt: skip
    spelled = {
        str(p.relative_to(ROOT))
        for p in TESTS.rglob("test_*.py")
        if lanes.SERIAL_SPELLING in p.read_text()
    }
    assert set(found.stdout.split()) == spelled and spelled, found.stderr


def test_does_a_session_stopped_by_sigterm_tear_its_fixtures_down(tmp_path, pytestconfig):
    # A session fixture holds a file (as the throwaway PostgreSQL server holds its folder and
    # process) while its test waits; SIGTERM must end the session with the fixture torn down.
    # The session stopped is one like this one: with nbval loaded where it is here (make test),
    # without it where this session left it out (make test-fast, where loading it would cost
    # more than the rest of the test).
    import os
    import signal
    import textwrap
    import time

    held = tmp_path / "held"
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    (tmp_path / "conftest.py").write_text(
        textwrap.dedent(
            f"""
            import pathlib
            import pytest
            from tests.conftest import stop_on_sigterm

            def pytest_configure(config):
                stop_on_sigterm()

            @pytest.fixture(scope="session")
            def held():
                path = pathlib.Path({str(held)!r})
                path.write_text("")
                yield path
                path.unlink()
            """
        )
    )
    (tmp_path / "test_wait.py").write_text(
        "import time\n\ndef test_wait(held):\n    time.sleep(60)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist"]
    if not pytestconfig.pluginmanager.has_plugin("nbval"):
        argv += ["-p", "no:nbval"]
    proc = subprocess.Popen(
        [*argv, "--rootdir", str(tmp_path), "-c", str(tmp_path / "pytest.ini"), str(tmp_path)],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while not held.exists() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert held.exists(), "the session never set its fixture up"
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert not held.exists(), "SIGTERM ended the session without tearing its fixture down"


def test_does_a_process_forked_from_the_session_end_by_sigterm_as_by_default(tmp_path):
    # The session's handler is inherited by what the session forks (a pool's workers): there it
    # must not raise as Ctrl-C does, or a pool stopped with SIGTERM waits on workers that live on.
    import os
    import textwrap

    script = textwrap.dedent(
        """
        import os, signal, time
        from tests.conftest import stop_on_sigterm

        stop_on_sigterm()
        pid = os.fork()
        if pid == 0:
            try:
                time.sleep(30)
            except BaseException:
                os._exit(3)
            os._exit(0)
        time.sleep(0.3)
        os.kill(pid, signal.SIGTERM)
        _, status = os.waitpid(pid, 0)
        print(os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGTERM)
        """
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=60
    )
    assert out.stdout.strip() == "True", out.stderr


def test_does_only_the_fast_lane_shorten_its_sweeps(pytestconfig):
    """``make test`` runs pytest without :data:`lanes.FAST_SWEEPS`, so every sweep is whole
    there; ``make test-fast`` gives it. A session without it (as ``make test`` starts one)
    collects every case of a swept parametrisation."""
    makefile = (ROOT / "Makefile").read_text()
    whole = makefile.split("\ntest:")[1].split("\n\n")[0]
    assert lanes.FAST_SWEEPS not in whole and "FAST_PYTEST" not in whole, whole
    shown = subprocess.run(
        ["make", "-s", "--no-print-directory", "-f", "Makefile", "-f", "-", "show"],
        input="show:\n\t@echo '$(PYTEST)|$(FAST_PYTEST)'\n",
        capture_output=True, text=True, cwd=ROOT, timeout=30,
    )  # fmt: skip
    full, fast = shown.stdout.strip().split("|")
    assert lanes.FAST_SWEEPS not in full.split() and lanes.FAST_SWEEPS in fast.split(), shown
    # this session took the sweeps its option asked for, each of them
    from tests.checker.test_mutants import CAUGHT_BY

    asked = pytestconfig.getoption(lanes.FAST_SWEEPS.lstrip("-").replace("-", "_"))
    assert lanes.fast_sweeps() is asked
    assert lanes.SWEEPS and all(took == (f if asked else w) for w, f, took in lanes.SWEEPS.values())
    # a session started as make test starts it judges every wrong ledger

    argv = [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"]
    argv += ["-p", "no:xdist", "-p", "no:nbval", "-k", "caught_and_shrunk"]
    collected = subprocess.run(
        [*argv, "tests/checker/test_mutants.py"],
        capture_output=True, text=True, cwd=ROOT, timeout=120,
    )  # fmt: skip
    judged = [line for line in collected.stdout.splitlines() if "::" in line]
    assert len(judged) == len(CAUGHT_BY), collected.stdout[-500:]


def test_is_a_fast_sweep_a_part_of_its_full_one(monkeypatch):
    monkeypatch.setattr(lanes, "SWEEPS", {})
    monkeypatch.setattr(lanes, "_fast_sweeps", False)
    assert lanes.sweep("seeds", range(1, 21), fast=range(1, 6)) == tuple(range(1, 21))
    monkeypatch.setattr(lanes, "_fast_sweeps", True)
    assert lanes.sweep("faults", 2, fast=1) == 1
    assert lanes.sweep("cases", "abcdef", fast="ace") == tuple("ace")
    assert lanes.SWEEPS[(__name__, "cases")] == (tuple("abcdef"), tuple("ace"), tuple("ace"))
    for full, fast in [(2, 3), (2, -1), ("abc", "ca"), ("abc", "x"), ("abc", "")]:
        with pytest.raises(AssertionError):
            lanes.sweep("bad", full, fast=fast)


def test_does_the_development_page_list_every_sweep_the_fast_lane_shortens():
    SWEEPS.check()
    # every module that says it (this one only tries the function out)
    swept = set(lanes.swept_modules(TESTS)) - {"tests.test_lanes"}
    assert {module for module, _ in lanes.SWEEPS} == swept


if __name__ == "__main__":
    SWEEPS.write()
    sys.exit(0)
