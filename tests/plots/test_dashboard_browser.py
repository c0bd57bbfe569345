"""Does the tuning dashboard work as learners see it, in a real browser?

One test drives headless Chromium (Debian's ``chromium``, through Python's ``playwright``, which
never downloads a browser here) against two real servers, each on 127.0.0.1 on a free port,
with no token, in a temporary folder, and always stopped afterwards:

* notebook 05 in JupyterLab: run the cells that build the dashboard, then use it;
* the ``make app`` page: ``app/dashboard.ipynb`` served by Voila (no code cells shown).

On each page it turns off "rerun when a control changes", moves the pause slider and presses
**Run**, picks another variant and presses **Run**, and checks that a new picture appears each
time, that the verdict text follows the slider and the variant, that no error or traceback
is shown, and that neither page asks any host but its server (a classroom may have no
internet). Screenshots of every stage land in ``out/browser/`` (``make test`` says so), so a
person can look at them.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import pytest

from tests.browser import CHROMIUM, MISSING, launched

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.kernel]

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "out" / "browser"
#: Seconds a server or a page may take under a loaded CI machine (the test itself takes less).
SLOW = 120


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def launch(args: list[str], folder: Path, home: Path, log: Path) -> subprocess.Popen:
    """Start a Jupyter server command in its own process group, its state under ``home``
    (made here: IPython falls back to a new folder of the host's ``/tmp``, left there, when the
    parent of its folder does not exist)."""
    home.mkdir(parents=True, exist_ok=True)
    env = {
        **os.environ,
        "JUPYTER_CONFIG_DIR": str(home / "config"),
        "JUPYTER_RUNTIME_DIR": str(home / "runtime"),
        "IPYTHONDIR": str(home / "ipython"),
        "MPLBACKEND": "Agg",
        "JUPYTER_PATH": str(ROOT / "app"),  # the app's Voila template, as `make app` sets it
    }
    with log.open("w") as out:
        return subprocess.Popen(
            args, cwd=folder, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )


def listening(proc: subprocess.Popen, port: int, log: Path) -> str:
    """Wait until ``proc`` accepts connections on ``port``; return its URL."""
    deadline = time.monotonic() + SLOW
    while True:
        if proc.poll() is not None:
            raise AssertionError(f"{proc.args[0]} exited: {log.read_text()[-2000:]}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return f"http://127.0.0.1:{port}"
        if time.monotonic() > deadline:
            raise AssertionError(f"{proc.args[0]} did not listen: {log.read_text()[-2000:]}")
        time.sleep(0.2)


@contextmanager
def servers(*commands: tuple[list[str], int, Path, Path, Path]) -> Iterator[list[str]]:
    """Start every server at once (``args, port, folder, home, log``); yield their URLs once
    all listen; always stop them all (at once too)."""
    procs = []
    try:
        for args, _, folder, home, log in commands:
            procs.append(launch(args, folder, home, log))
        yield [listening(p, c[1], c[4]) for p, c in zip(procs, commands, strict=True)]
    finally:
        stop(procs)


def stop(procs: list[subprocess.Popen]) -> None:
    """Stop the process groups ``procs`` lead (each server and the kernels it started): all are
    asked to end at once (SIGTERM); a group whose leader has not ended within 15 s is killed."""
    for proc in procs:
        with suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
    end = time.monotonic() + 15
    for proc in procs:
        try:
            proc.wait(timeout=max(end - time.monotonic(), 0))
        except subprocess.TimeoutExpired:
            with suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def timeline_src(page) -> str:
    """The ``src`` of the timeline picture (the first image of the dashboard)."""
    return page.locator(".widget-image").first.get_attribute("src") or ""


def verdict(page) -> str:
    return page.locator(".widget-html pre").first.inner_text()


def wait_for_new_picture(page, old: str) -> str:
    page.wait_for_function(
        "old => { const i = document.querySelector('.widget-image');"
        " return i && i.getAttribute('src') && i.getAttribute('src') !== old"
        " && i.naturalWidth > 0; }",
        arg=old,
        timeout=SLOW * 1000,
    )
    return timeline_src(page)


def show(page, name: str) -> None:
    """Scroll the dashboard's picture into view and photograph the page."""
    page.locator(".widget-image").first.scroll_into_view_if_needed()
    page.screenshot(path=SHOTS / f"{name}.png", full_page=True)


def use_the_dashboard(page, name: str) -> dict[str, str]:
    """Move the pause slider and press Run, switch the variant and press Run; check and
    photograph each stage."""
    run = page.locator(".widget-button", has_text="Run").first
    run.wait_for(timeout=SLOW * 1000)
    page.wait_for_function(
        "() => { const i = document.querySelector('.widget-image');"
        " return i && i.naturalWidth > 0; }",
        timeout=SLOW * 1000,
    )
    seen = {"first": verdict(page)}
    assert "variant fenced" in seen["first"] and "verdict: OK" in seen["first"], seen["first"]
    show(page, f"{name}-1-first-run")

    # Rerun only on Run, so each step below is the button's doing.
    page.locator(".widget-checkbox", has_text="rerun when a control changes").locator(
        "input"
    ).uncheck()
    picture = timeline_src(page)
    pause = page.locator(".widget-slider", has_text="pause").first
    handle = pause.locator(".noUi-handle").first
    box = handle.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + 60, box["y"] + box["height"] / 2, steps=5)
    page.mouse.up()
    moved = float(pause.locator(".widget-readout").first.inner_text())
    assert moved > 0.05, f"the pause slider did not move: {moved}"
    run.click()
    picture = wait_for_new_picture(page, picture)
    page.wait_for_function(
        "rate => document.querySelector('.widget-html pre').innerText.includes(rate)",
        arg=f"--pause-rate {moved}",
        timeout=SLOW * 1000,
    )
    seen["pause"] = verdict(page)
    show(page, f"{name}-2-pause-{moved}")

    page.locator(".widget-dropdown", has_text="variant").locator("select").select_option("unfenced")
    run.click()
    picture = wait_for_new_picture(page, picture)
    page.wait_for_function(
        "() => document.querySelector('.widget-html pre').innerText.includes('variant unfenced')",
        timeout=SLOW * 1000,
    )
    seen["unfenced"] = verdict(page)
    assert "VIOLATION" in seen["unfenced"], seen["unfenced"]
    show(page, f"{name}-3-unfenced")

    text = page.locator("body").inner_text()
    assert "Traceback" not in text, text[-2000:]
    errors = page.locator("[data-mime-type='application/vnd.jupyter.stderr']")
    assert errors.count() == 0, errors.first.inner_text()
    return seen


@pytest.fixture(scope="module")
def chromium():
    if not CHROMIUM.is_file():
        if os.environ.get("CI"):
            pytest.fail(MISSING)
        pytest.skip(MISSING)
    with launched() as browser:
        yield browser


def test_does_the_dashboard_work_in_jupyterlab_and_in_the_app(chromium, tmp_path):
    started = time.monotonic()
    if SHOTS.exists():
        shutil.rmtree(SHOTS)
    SHOTS.mkdir(parents=True)
    bin_dir = Path(sys.executable).parent
    lab_dir, app_dir = tmp_path / "lab", tmp_path / "app"
    news = tmp_path / "settings" / "@jupyterlab" / "apputils-extension"
    news.mkdir(parents=True)
    (news / "notification.jupyterlab-settings").write_text('{"fetchNews": "false"}')
    lab_dir.mkdir()
    app_dir.mkdir()
    shutil.copy(ROOT / "notebooks" / "05_tuning_dashboard.ipynb", lab_dir)
    shutil.copy(ROOT / "app" / "dashboard.ipynb", app_dir)
    lab_port, app_port = free_port(), free_port()
    lab = [
        str(bin_dir / "jupyter"),
        "lab",
        "--no-browser",
        "--ip=127.0.0.1",
        f"--port={lab_port}",
        "--allow-root",  # CI runs as root
        "--IdentityProvider.token=",
        "--ServerApp.password=",
        "--ServerApp.disable_check_xsrf=True",
        f"--ServerApp.root_dir={lab_dir}",
        f"--LabApp.workspaces_dir={tmp_path / 'workspaces'}",
        f"--LabApp.user_settings_dir={tmp_path / 'settings'}",
        "--LabApp.news_url=",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        "--LabApp.expose_app_in_browser=True",
        "--LabApp.extension_manager=readonly",
    ]
    # as `make app` serves it: the kit's template (app/voila/templates/simlab), found through
    # JUPYTER_PATH, which asks no host but the server
    recipe = (ROOT / "Makefile").read_text().split("\napp:")[1].split("\n\n")[0]
    assert "JUPYTER_PATH=$(CURDIR)/app" in recipe and "--template=simlab" in recipe, recipe
    app = [
        str(bin_dir / "voila"),
        "--template=simlab",
        str(app_dir / "dashboard.ipynb"),
        "--no-browser",
        "--Voila.ip=127.0.0.1",
        f"--port={app_port}",
    ]
    page = chromium.new_page(viewport={"width": 1400, "height": 1300})
    elsewhere: list[str] = []  # requests to any host but the two servers, refused

    def local_only(route):
        url = route.request.url
        if url.startswith(("http://127.0.0.1:", "data:", "blob:")):
            route.continue_()
        else:
            elsewhere.append(url)
            route.abort()

    page.route("**/*", local_only)
    with servers(
        (lab, lab_port, tmp_path, tmp_path, tmp_path / "lab.log"),
        (app, app_port, app_dir, tmp_path / "voila", tmp_path / "app.log"),
    ) as (lab_url, app_url):
        page.goto(f"{lab_url}/lab/tree/05_tuning_dashboard.ipynb", timeout=SLOW * 1000)
        page.wait_for_function(
            "() => window.jupyterapp && document.querySelector('.jp-Notebook .jp-Cell')",
            timeout=SLOW * 1000,
        )
        page.locator(".jp-Notebook .jp-Cell").first.click()
        page.wait_for_function(
            "() => window.jupyterapp.shell.currentWidget?.sessionContext?.session?.kernel"
            "?.status === 'idle'",
            timeout=SLOW * 1000,
        )
        for _ in range(4):  # the title, the imports, a heading, the cell that shows the dashboard
            page.evaluate("window.jupyterapp.commands.execute('notebook:run-cell-and-select-next')")
        in_lab = use_the_dashboard(page, "lab")

        page.goto(app_url, timeout=SLOW * 1000)
        in_app = use_the_dashboard(page, "app")
        shown = page.locator("body").inner_text()
        assert "import Dashboard" not in shown and "Dashboard(seed=1)" not in shown, "code shown"
    page.close()

    assert not elsewhere, f"the pages asked other hosts: {sorted(set(elsewhere))}"
    for log in (tmp_path / "lab.log", tmp_path / "app.log"):  # each kept its state at home
        assert "not a writable location" not in log.read_text(), log.read_text()[-2000:]
    assert in_lab["first"] == in_app["first"], "the same Dashboard, the same first run"
    assert in_app["pause"] != in_app["first"] and in_app["unfenced"] != in_app["pause"]
    seconds = time.monotonic() - started
    print(f"browser test: {seconds:.1f} s; screenshots in {SHOTS}")
    assert seconds < 240, f"the browser test took {seconds:.0f} s"
