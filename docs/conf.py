"""Sphinx configuration of the course site (``make docs``).

The source folder is the repository root, with this file in ``docs/``
(``sphinx-build -c docs . docs/_build/html``), so the pages, the README and the notebooks keep
the relative links they have on GitHub (``../README.md#glossary`` from a notebook reaches the
README's glossary on the site too). Only the files in ``include_patterns`` are read: the
README, ``docs/``, ``notebooks/`` and ``exercises/`` (never ``solutions/``).

Notebooks in ``notebooks/`` are executed in their own folder, as nbval runs them, and the
results cached in ``docs/_build/.jupyter_cache``; exercises are shown as learners get them,
never executed. ``-D nb_execution_mode=off`` builds without executing anything.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE / "_ext"))
sys.path.insert(0, str(ROOT))
# The kernels that execute the notebooks get an IPython profile of their own, in the build folder:
# docs/_kernel/'s config quiets ipykernel's startup warning about loopback TCP (printed once per
# notebook otherwise), and neither the learner's ~/.ipython startup files nor its history are
# touched. IPython reads a kernel's config from its profile, not from JUPYTER_CONFIG_PATH.
_PROFILE = HERE / "_build" / "ipython" / "profile_default"
_PROFILE.mkdir(parents=True, exist_ok=True)
(_PROFILE / "ipython_kernel_config.json").write_text(
    (HERE / "_kernel" / "ipython_kernel_config.json").read_text(encoding="utf-8"), encoding="utf-8"
)
os.environ["IPYTHONDIR"] = str(_PROFILE.parent)

project = "simlab"
author = "simlab"
copyright = "simlab contributors"
release = version = "0.2.0"

extensions = [
    "myst_nb",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.napoleon",
    "simlab_api",
]

root_doc = "docs/index"
include_patterns = [
    "README.md",
    "README.zh.md",
    "docs/*.md",
    "docs/api/*.rst",
    "notebooks/*.ipynb",
    "notebooks/zh/*.ipynb",
    "exercises/*.ipynb",
    "exercises/zh/*.ipynb",
]
# Excluded folders are not walked at all (the virtual environment holds thousands of files).
exclude_patterns = [
    ".venv",
    ".git",
    "docs/_build",
    "docs/_ext",
    "docs/_root",
    "docs/_kernel",
    "solutions",
    "simlab",
    "tests",
    "i18n",
    "app",
    "out",
    "build",
    "**/.ipynb_checkpoints",
]
# The site's /index.html sends the reader on to docs/index.html, the root page.
html_extra_path = ["_root"]

# --- MyST and notebooks -------------------------------------------------------------------
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 4  # GitHub's anchors (#glossary, #beyond-one-machine-postgresledger)
nb_execution_mode = "cache"
nb_execution_timeout = 600
nb_execution_excludepatterns = ["exercises/*", "exercises/zh/*"]
nb_execution_raise_on_error = True
nb_execution_show_tb = True
nb_merge_streams = True

# --- the API reference ----------------------------------------------------------------------
# The pages of docs/api/ are written at the start of each build (simlab_api.write_pages).
autosummary_generate = False
autodoc_default_options = {"members": True, "show-inheritance": True}
autodoc_member_order = "bysource"
autodoc_typehints = "description"

# --- HTML -----------------------------------------------------------------------------------
html_theme = "sphinx_book_theme"
html_title = "simlab"
html_theme_options = {
    "show_toc_level": 2,
    "use_download_button": True,
    "home_page_in_toc": True,
}
html_static_path: list[str] = []
suppress_warnings = [
    "myst.xref_missing",  # a link to a file of the repository outside the site (simlab/...)
    "mystnb.unknown_mime_type",  # widget views: drawn only in a live JupyterLab
]
