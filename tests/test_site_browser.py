"""Does the built course site show its pictures in a real browser?

Run after ``make docs`` (``bash .ci/run`` does, after ``make test``), with ``SIMLAB_SITE=1``:
headless Chromium (Debian's ``chromium`` through ``playwright``, never a downloaded browser)
opens the site's index and an executed notebook page from ``docs/_build/html``, checks that the
theme's style sheet applied and that every picture loaded, and saves a screenshot of each in
``out/browser/`` (``site-index.png``, ``site-notebook-03.png``, ``site-notebook-zh-04.png``).
Without ``SIMLAB_SITE`` it is skipped: ``make test`` builds only the quick site, which executes
no notebook, so it has no pictures to check.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.browser import CHROMIUM, MISSING, launched

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "docs" / "_build" / "html"
SHOTS = ROOT / "out" / "browser"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not os.environ.get("SIMLAB_SITE"), reason="needs `make docs` first: bash .ci/run runs it"
    ),
]

#: Every <img> of the page, as the browser loaded it (``complete`` and its decoded width).
IMAGES = """() => Array.from(document.images).map(i => ({
    src: i.getAttribute('src'), complete: i.complete, width: i.naturalWidth}))"""


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM.is_file():
        pytest.fail(MISSING)
    assert (SITE / "index.html").is_file(), "run make docs first"
    SHOTS.mkdir(parents=True, exist_ok=True)
    with launched() as chromium:
        yield chromium


def open_page(browser, path: str, lands_on: str | None = None):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto((SITE / path).as_uri(), wait_until="load")
    if lands_on:  # a redirect: wait until the page it sends the reader to has loaded
        page.wait_for_url(f"**/{lands_on}", wait_until="load")
    # Pictures lower on the page load as they scroll into view in some themes: scroll through.
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    page.wait_for_function("Array.from(document.images).every(i => i.complete)", timeout=30_000)
    page.evaluate("window.scrollTo(0, 0)")
    return page


def assert_pictures_loaded(page, at_least: int) -> None:
    images = page.evaluate(IMAGES)
    broken = [i["src"] for i in images if not (i["complete"] and i["width"] > 0)]
    assert not broken, f"pictures that did not load: {broken}"
    assert len(images) >= at_least, f"{len(images)} picture(s), expected {at_least} or more"


def assert_themed(page) -> None:
    """The book theme's style sheet applied: its sidebar is laid out beside the article."""
    sidebar = page.locator(".bd-sidebar-primary").first
    assert sidebar.is_visible()
    box = sidebar.bounding_box()
    assert box and box["width"] > 100 and box["x"] < 400


def test_does_the_index_open_on_the_front_page_with_its_links(browser):
    page = open_page(browser, "index.html", lands_on="docs/index.html")
    assert page.title().startswith("simlab")
    assert_themed(page)
    assert_pictures_loaded(page, at_least=0)
    nav = page.locator("nav.bd-links").inner_text()
    for words in ("Learner guide", "Instructor guide", "API reference", "01 · Fencing token"):
        assert words in nav, words
    page.screenshot(path=str(SHOTS / "site-index.png"), full_page=False)
    page.close()


def test_does_an_executed_notebook_show_its_pictures_and_no_error(browser):
    page = open_page(browser, "notebooks/03_epoch_races.html")
    assert_themed(page)
    assert_pictures_loaded(page, at_least=2)
    assert page.locator(".output.traceback, .output.error").count() == 0, "a cell failed"
    assert page.locator(".cell_output").count() > 5, "the cells ran and their outputs are shown"
    page.locator("article img").first.scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "site-notebook-03.png"), full_page=False)
    page.close()


def test_does_a_chinese_notebook_show_its_pictures(browser):
    page = open_page(browser, "notebooks/zh/04_crashes_and_side_effects.html")
    assert_pictures_loaded(page, at_least=1)
    assert "幂等键" in page.locator("article").inner_text()
    page.locator("article img").first.scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "site-notebook-zh-04.png"), full_page=False)
    page.close()
