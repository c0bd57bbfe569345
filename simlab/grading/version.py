"""The grader version: a digest of what decides a grade, as installed.

A queue grades every submission again at a new version, and the hidden world a submission
is judged in (:mod:`simlab.grading.checks.hidden_world`) is drawn from it, so anything that
can change a grade must be part of it.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

import simlab

__all__ = ["grader_version"]


@lru_cache(maxsize=1)
def grader_version() -> str:
    """A digest of the grading code, the hidden checks and the reference solutions: the files
    under ``simlab/grading/`` and ``solutions/``. Any change to them is a new version, and a
    queue grades every submission again at a new version."""
    package = Path(simlab.__file__).resolve().parent
    roots = [package / "grading", package.parent / "solutions"]
    digest = hashlib.sha256()
    for root in roots:
        if not root.is_dir():
            continue
        for path in sorted(root.rglob("*")):
            if "__pycache__" in path.parts or ".ipynb_checkpoints" in path.parts:
                continue
            if path.is_file() and not path.is_symlink():
                digest.update(path.relative_to(root.parent).as_posix().encode() + b"\0")
                digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:16]
