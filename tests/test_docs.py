"""Does the course site build? A quick build, executing no notebook (``make docs`` runs them).

The build reads the repository as ``make docs`` does (``docs/conf.py``) and writes into a
temporary folder. A warning from the site's own pages (``docs/``, the READMEs, the notebooks and
exercises) fails the test; one from a docstring of ``simlab`` is shown as a pytest warning.
"""

from __future__ import annotations

import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

pytestmark = pytest.mark.kernel

ROOT = Path(__file__).resolve().parent.parent
PAGES = ("index", "learners", "instructors", "ledger", "simulator", "agent", "benchmarks", "api")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    pytest.importorskip("sphinx")
    out = tmp_path_factory.mktemp("site")
    done = subprocess.run(
        [sys.executable, "-m", "sphinx", "-q", "-c", "docs", "-D", "nb_execution_mode=off"]
        + ["-d", str(out / "doctrees"), ".", str(out / "html")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return out / "html", [line for line in done.stderr.splitlines() if "WARNING" in line]


def test_does_the_site_build_without_warnings_of_its_own(site):
    _, found = site
    docstrings = [w for w in found if "docstring of" in w or f"{ROOT}/simlab/" in w]
    for line in docstrings[:10]:
        warnings.warn(f"docs: {line}", stacklevel=1)
    own = [w for w in found if w not in docstrings]
    assert not own, "\n".join(own[:10])


def test_are_the_pages_the_notebooks_and_the_exercises_there(site):
    html, _ = site
    assert (html / "index.html").is_file(), "the site's index (a redirect to docs/index.html)"
    assert "docs/index.html" in (html / "index.html").read_text()
    for page in PAGES:
        assert (html / "docs" / f"{page}.html").is_file(), page
    for readme in ("README", "README.zh"):
        assert (html / f"{readme}.html").is_file(), readme
    for folder in ("notebooks", "notebooks/zh", "exercises", "exercises/zh"):
        names = sorted(p.stem for p in (ROOT / folder).glob("*.ipynb"))
        assert names, folder
        assert sorted(p.stem for p in (html / folder).glob("*.html")) == names, folder
    assert not (html / "solutions").exists(), "the solutions are never published"
    assert not list(html.rglob("*solution*.html"))


def test_does_the_api_reference_list_every_name_of_simlab_all(site):
    import simlab

    html, _ = site
    text = (html / "docs" / "api.html").read_text()
    pre = r'py-obj docutils literal notranslate"><span class="pre">([^<]+)<'
    shown = set(re.findall(pre, text))
    missing = [n for n in simlab.__all__ if n not in shown and f"simlab.{n}" not in shown]
    assert not missing, missing
    for package in ("ledger", "sim", "checker", "plots", "agent", "rollout", "grading"):
        assert (html / "docs" / "api" / f"simlab.{package}.html").is_file(), package
    # A method is documented in full on its package's page, under the module defining it
    # (wherever that module lives in the package).
    claim = simlab.Ledger.claim
    ledger = (html / "docs" / "api" / "simlab.ledger.html").read_text()
    assert f'id="{claim.__module__}.{claim.__qualname__}"' in ledger, "a method in full"


def test_does_the_site_leave_out_the_hidden_checks(site):
    """No module, class or function of the hidden checks or the sandbox is documented (a
    docstring elsewhere may still name the module)."""
    html, _ = site
    text = "".join(p.read_text() for p in html.rglob("*.html"))
    for internal in ("simlab.grading.checks", "simlab.grading.sandbox", "simlab.cli"):
        assert f'id="module-{internal}' not in text, internal
        assert f'id="{internal}.' not in text, internal


def test_do_the_links_between_pages_resolve(site):
    """A link from the README or a page to another page (``docs/ledger.md#...``) becomes a link
    to its HTML page, not to the Markdown file."""
    html, _ = site
    readme = (html / "README.html").read_text()
    for page in PAGES[1:]:
        assert f'href="docs/{page}.html' in readme, page
    notebook = (html / "notebooks" / "01_fencing_tokens.html").read_text()
    assert 'href="../README.html#glossary"' in notebook


def test_does_the_api_reference_follow_the_package_tree(site):
    """Every module under ``simlab`` but the internals has its section on its top-level
    package's page, wherever it lives (a module that moves into a subpackage moves with it)."""
    import pkgutil

    import simlab

    html, _ = site
    internal = ("simlab.grading.checks", "simlab.grading.sandbox", "simlab.cli", "simlab.__main__")
    missing = []
    for info in pkgutil.walk_packages(simlab.__path__, prefix="simlab."):
        name = info.name
        if any(name == i or name.startswith(i + ".") for i in internal):
            continue
        top = ".".join(name.split(".")[:2])
        page = html / "docs" / "api" / f"{top}.html"
        if not page.is_file() or f'id="module-{name}"' not in page.read_text():
            missing.append(name)
    assert not missing, missing


def test_does_a_kernel_the_site_starts_print_no_startup_warning():
    """The notebooks run in kernels under the site's own IPython profile (``docs/conf.py``):
    ipykernel's loopback-TCP warning would be printed once per notebook otherwise."""
    pytest.importorskip("sphinx")
    import os

    env = dict(os.environ)
    namespace: dict = {"__file__": str(ROOT / "docs" / "conf.py")}
    saved = dict(os.environ)
    try:
        exec(compile((ROOT / "docs" / "conf.py").read_text(), "conf.py", "exec"), namespace)
        env["IPYTHONDIR"] = os.environ["IPYTHONDIR"]
    finally:
        os.environ.clear()
        os.environ.update(saved)
        sys.path[:] = [p for p in sys.path if not p.startswith(str(ROOT / "docs"))]
    start = (
        "from jupyter_client.manager import start_new_kernel\n"
        "km, kc = start_new_kernel()\n"
        "kc.execute_interactive('1 + 1', timeout=60)\n"
        "kc.stop_channels(); km.shutdown_kernel()\n"
    )
    plain = {k: v for k, v in env.items() if k != "IPYTHONDIR"}
    # the kernel under the site's profile and one without it, started side by side
    kernels = [
        subprocess.Popen(
            [sys.executable, "-c", start],
            env=e,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for e in (env, plain)
    ]
    try:
        (_, err), (_, loud) = (k.communicate(timeout=120) for k in kernels)
    finally:
        for k in kernels:
            k.kill()
            k.wait()
    assert kernels[0].returncode == 0, err[-2000:]
    assert "WARNING" not in err, err[-2000:]
    assert "without encryption" in loud, "the warning this profile quiets is gone upstream"
