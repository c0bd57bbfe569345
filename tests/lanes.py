"""The lanes of the test suite: what a test needs besides Python, marked, so that
``make test-fast`` can leave it out and ``make test`` runs everything.

A test carries the marker of each thing it starts (:data:`NEEDS`): a ``jail`` (bubblewrap),
a ``kernel`` (Jupyter, through nbclient or nbval), a ``server`` (the throwaway PostgreSQL
server, an HTTP server) or a ``browser`` (Chromium through playwright). Nothing here trusts a
marker to be remembered:

* **By fixture, automatically.** A test that asks for the PostgreSQL server, directly or
  through a fixture built on it (``fresh_postgres``, the ``postgres`` parameter of
  ``make_ledger`` and ``ledger_target``), is marked ``server`` at collection
  (:func:`mark_by_fixture`), so those can never lack it; a fixture asked for while the test
  runs (``request.getfixturevalue``) checks the marker itself (:func:`need`).
* **By what the test process starts, at run time.** Jails, kernels, browsers and HTTP servers
  are started by the kit's own code (the grader, nbclient, playwright), not by a fixture: every
  process the test process starts while a test sets up or runs is classified by its command
  line (:func:`needed_by`); one the test is not marked for is not started (:class:`Unmarked`),
  and the test fails at teardown, naming the marker. A process a child starts is seen through
  the child's command line (a ``simlab grade`` jails unless told ``--no-sandbox``; pytest
  with nbval and a Sphinx build of the site run kernels).

So a test that forgets its marker fails in both lanes instead of slowing the fast one down.

The ``serial`` tests (they look at the whole machine, so they run alone, after the rest) are
collected by ``make test-fast`` only from the modules whose text says :data:`SERIAL_SPELLING`
(a ``grep``, so that its serial part does not import every test module to find a handful); a
test marked serial in a module that does not say so stops every session at collection
(:func:`serial_spelled`), so none can be left out.

**The fast lane's sweeps.** A few tests sweep many cases of one kind (seeds, wrong ledgers,
faults in a search) where a handful already exercises the code they judge. Each such sweep is
written once, :func:`sweep`, with its full size and its fast one; ``make test-fast`` gives
pytest :data:`FAST_SWEEPS` and gets the fast one, every other session (``make test``, CI, a
plain ``pytest``) the full one. The fast one is a part of the full one (a subsequence of its
items, or fewer faults), so every case the fast lane runs, ``make test`` runs too, as strictly:
a test the fast lane fails, the full lane fails. docs/development.md lists every sweep from
:data:`SWEEPS` (:func:`sweeps_table`).
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

#: marker -> what it stands for (registered with pytest, named in every failure).
NEEDS = {
    "jail": "starts a bubblewrap jail (the grader's sandbox)",
    "kernel": "starts a Jupyter kernel (nbclient, nbval, a Sphinx build of the notebooks)",
    "server": "starts or uses a server (the throwaway PostgreSQL server, an HTTP server)",
    "browser": "starts a browser (Chromium through playwright)",
}
#: The fixtures that hand out a running server: a test asking for one is marked ``server``.
SERVER_FIXTURES = ("postgres_server",)
#: The ``-m`` expression of ``make test-fast``.
FAST = " and ".join(f"not {name}" for name in NEEDS)

_SERVERS = {"initdb", "pg_ctl", "postgres", "voila", "jupyter-lab", "jupyter-server"}
_BROWSERS = {"chromium", "chromium-browser", "chrome", "google-chrome", "headless_shell"}

#: The test item setting up or running now (None between tests, and while tearing down: a
#: session's server stopped after its last test is no need of that test).
_running: pytest.Item | None = None
#: nodeid -> markers its test needed and lacked.
_missing: dict[str, set[str]] = {}


def needed_by(argv: str | Sequence) -> str | None:
    """The marker a process started with ``argv`` calls for, or None."""
    words = shlex.split(argv) if isinstance(argv, str) else [os.fspath(w) for w in argv]
    names = [os.path.basename(w) for w in words]
    if "bwrap" in names:
        return "jail"
    if any(n in _BROWSERS for n in names) or any("playwright" in w for w in words):
        return "browser"
    if any(n in _SERVERS for n in names) or "http.server" in words:
        return "server"
    if names[:2] == ["jupyter", "lab"] or names[:2] == ["jupyter", "server"]:
        return "server"
    if any("ipykernel" in n or n.startswith("--nbval") for n in names):
        return "kernel"
    if "sphinx" in names or "sphinx-build" in names:
        return "kernel"
    simlab = [i for i, n in enumerate(names) if n == "simlab"]
    if simlab and "grade" in names[simlab[0] + 1 :] and "--no-sandbox" not in names:
        return "jail"
    return None


class Unmarked(RuntimeError):
    """A test started what its markers do not allow (the process is not started)."""


def need(item: pytest.Item | None, marker: str) -> bool:
    """Note that ``item`` needs ``marker``; False (and it fails at teardown) if it does not
    carry it."""
    if item is None or item.get_closest_marker(marker) is not None:
        return True
    _missing.setdefault(item.nodeid, set()).add(marker)
    return False


_popen_init = subprocess.Popen.__init__


def _watched_init(self, args, *rest, **options):
    marker = needed_by(args) if _running is not None else None
    if marker and not need(_running, marker):
        # Not started: an unmarked test never slows the fast lane down, whatever it catches.
        raise Unmarked(f"{_running.nodeid} {NEEDS[marker]} without @pytest.mark.{marker}")
    _popen_init(self, args, *rest, **options)


def configure(config: pytest.Config) -> None:
    """Register the markers, watch the processes this test process starts, and take the fast
    sweeps if the session was asked to (before any test module is imported)."""
    global _fast_sweeps
    for name, what in NEEDS.items():
        config.addinivalue_line("markers", f"{name}: {what} (make test-fast leaves it out)")
    subprocess.Popen.__init__ = _watched_init
    _fast_sweeps = bool(config.getoption(FAST_SWEEPS.lstrip("-").replace("-", "_")))


#: The option of ``make test-fast`` (registered by tests/conftest.py): :func:`sweep` answers
#: the fast size.
FAST_SWEEPS = "--fast-sweeps"
_fast_sweeps = False
#: (test module, what it sweeps) -> (full, fast, what this session took), in the order asked.
SWEEPS: dict[tuple[str, str], tuple[Any, Any, Any]] = {}
#: What the text of every module with a sweep says (the docs' table imports those modules).
SWEEP_SPELLING = "lanes.sweep("


def add_option(parser: pytest.Parser) -> None:
    parser.addoption(
        FAST_SWEEPS,
        action="store_true",
        help="take the fast size of each sweep tests/lanes.py lists (make test-fast)",
    )


def sweep(what: str, full: Any, fast: Any) -> Any:
    """``full``, or ``fast`` in a session given :data:`FAST_SWEEPS`; noted in :data:`SWEEPS`
    under the calling module and ``what`` (a phrase saying what is swept, for the docs).

    ``full`` and ``fast`` are both numbers (``fast`` no larger: a search over fewer faults,
    fewer seeds), or both sequences, ``fast`` made of items of ``full`` in its order (a sample
    of the wrong ledgers, the first seeds), so the fast lane runs part of what the full lane
    runs and nothing else."""
    if isinstance(full, int):
        assert isinstance(fast, int) and 0 <= fast <= full, (what, full, fast)
    else:
        full, fast = tuple(full), tuple(fast)
        rest = iter(full)
        assert fast and all(item in rest for item in fast), f"{what}: not a part of the full sweep"
    took = fast if _fast_sweeps else full
    module = sys._getframe(1).f_globals["__name__"]
    SWEEPS[(module, what)] = (full, fast, took)
    return took


def fast_sweeps() -> bool:
    """Whether this session takes the fast sweeps."""
    return _fast_sweeps


def swept_modules(root: Path) -> list[str]:
    """The test modules under ``root`` whose text says :data:`SWEEP_SPELLING`, as module
    names."""
    return sorted(
        ".".join(p.relative_to(root.parent).with_suffix("").parts)
        for p in root.rglob("test_*.py")
        if SWEEP_SPELLING in p.read_text()
    )


def _size(value: Any) -> str:
    if isinstance(value, int):
        return str(value)
    if all(isinstance(v, int) for v in value) and list(value) == list(
        range(value[0], value[0] + len(value))
    ):
        return f"{value[0]}-{value[-1]}" if len(value) > 1 else str(value[0])
    return f"{len(value)}"


def sweeps_table(root: Path) -> str:
    """The table of docs/development.md: every sweep of the test modules under ``root``, its
    full and its fast size (a range of seeds, a number of faults or of cases)."""
    import importlib

    for name in swept_modules(root):
        importlib.import_module(name)
    rows = [
        "| test module | what it sweeps | `make test` | `make test-fast` |",
        "|---|---|---|---|",
    ]
    for (module, what), (full, fast, _) in sorted(SWEEPS.items()):
        path = module.replace(".", "/") + ".py"
        rows.append(f"| `{path}` | {what} | {_size(full)} | {_size(fast)} |")
    return "\n".join(rows) + "\n"


#: What the text of every module holding a ``serial`` test says (``make test-fast`` greps it).
SERIAL_SPELLING = "mark.serial"
#: Modules holding a serial test without saying :data:`SERIAL_SPELLING`, as collected.
_unspelled: set[str] = set()


def serial_spelled(item: pytest.Item) -> None:
    """Note ``item``'s module if the test is marked ``serial`` but its module's text does not say
    :data:`SERIAL_SPELLING` (:func:`check_serial_spelled` stops the session)."""
    if item.get_closest_marker("serial") is None or str(item.path) in _unspelled:
        return
    if SERIAL_SPELLING not in item.path.read_text():
        _unspelled.add(str(item.path))


def check_serial_spelled() -> None:
    if _unspelled:
        raise pytest.UsageError(
            f"serial tests in {sorted(_unspelled)}, whose text never says {SERIAL_SPELLING!r}: "
            "make test-fast would not find them (write @pytest.mark.serial)"
        )


def mark_by_fixture(items: list[pytest.Item]) -> None:
    """Mark ``server`` every test whose fixtures include a server's."""
    for item in items:
        if any(name in getattr(item, "fixturenames", ()) for name in SERVER_FIXTURES):
            item.add_marker(pytest.mark.server)


def running(item: pytest.Item | None) -> None:
    global _running
    _running = item


def check(item: pytest.Item) -> None:
    """Fail ``item`` if it needed a marker it does not carry."""
    lacking = _missing.pop(item.nodeid, None)
    if lacking:
        said = "; ".join(f"it {NEEDS[m]}: mark it @pytest.mark.{m}" for m in sorted(lacking))
        pytest.fail(f"{item.nodeid}: {said} (make test-fast leaves such tests out)", pytrace=False)
