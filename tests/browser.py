"""Headless Chromium for the browser tests: Debian's ``chromium`` driven through playwright,
never a downloaded browser (``SIMLAB_CHROMIUM`` names another binary)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

CHROMIUM = Path(os.environ.get("SIMLAB_CHROMIUM", "/usr/bin/chromium"))
#: The browser without a sandbox of its own (CI runs as root), a GPU or anything that phones home.
ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
#: Why a browser test cannot run here.
MISSING = f"no browser at {CHROMIUM} (bash .ci/run installs Debian's chromium as root)"


@contextmanager
def launched() -> Iterator:
    """A headless Chromium for the block, closed after it."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()
