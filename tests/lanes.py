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
"""

from __future__ import annotations

import os
import shlex
import subprocess
from collections.abc import Sequence

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
    """Register the markers and watch the processes this test process starts."""
    for name, what in NEEDS.items():
        config.addinivalue_line("markers", f"{name}: {what} (make test-fast leaves it out)")
    subprocess.Popen.__init__ = _watched_init


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
